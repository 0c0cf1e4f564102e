// Properties of the v1 reply assembler (ReplyAssembler, emitted by RustHDL
// as module `top`), for yosys-smtbmc: an abort never splits a reply message.
//
// Every input is arbitrary in every cycle: abort, verdicts, refusals and
// queries in any order and together, sizes, counts, the solver's rows. The
// transmitter is modelled by its rules, which uart_tx.v proves of UartTx:
// `tx_ready`, once high, stays high until a byte is started, and is never
// low for more than WAIT cycles in a row (10 * CPB - 1: 39 for the 4 clocks
// per bit of uart_tx.v, 104 169 on the board; the bound below is in terms
// of WAIT).
//
// A message goes as two bytes, high byte first. `odd`: a message's first
// byte has been handed over and its second not yet. Then:
//
// * every byte offered is taken (`tx_start` only while `tx_ready`);
// * the first byte handed over is the high byte of the message, the next
//   one its low byte, of the same message;
// * the second byte follows the first within WAIT + 2 cycles, whatever
//   abort and new replies do meanwhile;
// * the reply never ends (`busy` low) with half a message handed over;
// * after an abort (one that takes effect: not in a cycle with a refusal
//   or a query, which start the new stream's reply), at most the message in
//   flight goes out: at most 2 bytes after the abort's cycle, and once that
//   message is whole the assembler is idle, until a new reply.
//
// The assembler sends through MessageSender, which takes `tx_ready` through
// a register and starts no byte in the cycle after a start. For
// k-induction the send registers (the test flattens the DUT and exposes
// every register `x` as a port `x$q`, the message sender's as `sender.x$q`)
// are tied to the observers.
module formal_dnf_reply(input clock);
    localparam WAIT = 39;
    localparam IDLE = 0, CELLS = 2;

    (* anyseq *) reg abort, board_done, refused, query, tx_ready;
    (* anyseq *) reg [5:0] rows, columns;
    (* anyseq *) reg [2:0] solver_outcome, refuse_outcome;
    (* anyseq *) reg [6:0] contradiction_line;
    (* anyseq *) reg [31:0] cycles, top_known, top_value;
    (* anyseq *) reg [7:0] passes, refuse_detail;
    (* anyseq *) reg [11:0] options;

    wire next_row, tx_start, busy;
    wire [7:0] tx_data;
    wire [2:0] phase;
    wire [15:0] message;
    wire pending, low_next, ready_q, started;
    top uut(.clock(clock), .abort(abort), .board_done(board_done), .refused(refused),
            .query(query), .rows(rows), .columns(columns), .solver_outcome(solver_outcome),
            .contradiction_line(contradiction_line), .cycles(cycles), .passes(passes),
            .options(options), .refuse_outcome(refuse_outcome), .refuse_detail(refuse_detail),
            .top_known(top_known), .top_value(top_value), .next_row(next_row),
            .tx_data(tx_data), .tx_start(tx_start), .tx_ready(tx_ready), .busy(busy),
            .phase$q(phase),
            .\sender.message_q$q (message), .\sender.pending_q$q (pending),
            .\sender.low_next$q (low_next), .\sender.ready_q$q (ready_q),
            .\sender.started$q (started));

    // The transmitter's rules.
    reg ready_before = 0, start_before = 0;
    reg [7:0] not_ready_for = 0;
    always @(posedge clock) begin
        ready_before <= tx_ready;
        start_before <= tx_start;
        not_ready_for <= tx_ready ? 0 : not_ready_for + 1;
    end
    always @* begin
        if (ready_before && !start_before) assume(tx_ready);
        if (not_ready_for >= WAIT) assume(tx_ready);
    end

    // Observers: the bytes handed over, the cycles a second byte has been
    // waited for, and the abort.
    wire handed = tx_start && tx_ready;
    wire aborting = abort && !refused && !query;
    reg odd = 0;
    reg [15:0] first = 0;
    reg [7:0] odd_for = 0;
    reg stopping = 0;
    reg [1:0] after = 0;
    always @(posedge clock) begin
        if (handed) odd <= !odd;
        if (handed && !odd) first <= message;
        odd_for <= odd && !handed ? odd_for + 1 : 0;
        if (aborting) begin
            stopping <= 1;
            after <= 0;
        end else begin
            if (board_done || refused || query) stopping <= 0;
            if (stopping && handed && after != 3) after <= after + 1;
        end
    end

    always @* begin
        assert(!tx_start || tx_ready);
        if (handed && !odd) assert(tx_data == message[15:8]);
        if (handed && odd) assert(message == first && tx_data == first[7:0]);
        assert(odd_for <= WAIT + 1);
        assert(busy || !odd);
        if (stopping) begin
            assert(after <= 2);
            if (after != 0 && !odd) assert(!busy);
        end

        // Strengthening for induction.
        assert(odd == low_next);
        if (low_next) assert(pending && message == first);
        assert(ready_q == ready_before && started == start_before);
        // (While odd, the second byte goes in the first cycle `ready_q` is
        // high and `started` low.)
        if (odd && !(ready_q && !started)) assert(odd_for == not_ready_for);
        if (!odd) assert(odd_for == 0);
        assert(not_ready_for <= WAIT);
        if (stopping) begin
            assert(phase == IDLE);
            if (pending) assert(after + (low_next ? 1 : 2) <= 2);
            else if (after != 0) assert(!odd);
        end
    end

    // Every property above is exercised: a second byte handed over in an
    // abort's cycle; the longest wait for a second byte; a reply stopped by
    // an abort between a message's two bytes, and one stopped after a
    // whole message in flight, both then idle; an abort between the two
    // bytes of a cell message; a stale `ready_q` (the transmitter busy with
    // the byte just started) that must not start a byte.
    always @* begin
        cover(pending && ready_q && started && !tx_ready);
        cover(handed && odd && aborting);
        cover(odd && odd_for == WAIT + 1);
        cover(stopping && after == 1 && !odd && !busy);
        cover(stopping && after == 2 && !busy);
        cover(aborting && odd && phase == CELLS && message[15:13] != 3'b111);
    end
endmodule
