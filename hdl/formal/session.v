// Properties of the board session, the front end of both parsers
// (BoardSession for v1 with an idle timeout of 8 cycles; emitted by RustHDL
// as module `top`, flattened, so that the framer's registers are ports too),
// for yosys-smtbmc.
//
// Every input is arbitrary in every cycle: bytes, framing errors, resets.
// The body parser is arbitrary too, within the contract both bodies keep:
// it refuses a board only in a cycle the session hands it a message
// (`take`) or the cycle after (v2's second block), never while finishing
// one, and stops listening only in the two cycles after a `take` (v1 writes
// its line count then). Then:
//
// * a refusal, from the session or the body, always leaves the session
//   waiting for START_BOARD (Idle);
// * an abort (QUERY, a first START_BOARD, a reset) always leaves it waiting
//   for START_BOARD: Idle, or GotRows for the second of a pair;
// * QUERY is answered only between boards: its pulse comes with the abort of
//   whatever was going on, leaves the session Idle, and never comes with a
//   board for the solver (a lost byte in the very cycle QUERY is acted on,
//   which no UART can deliver, refuses the board it abandons as well);
// * the session is never loading for longer than the idle timeout without
//   a byte, a framing error or a reset (`quiet` counts from 0 in the cycle
//   after one): a cut stream cannot leave it waiting for ever.
//
// Proved by k-induction, with the framer's idle count tied to the line's
// silence (as in framer.v) and the decoded message to the byte before it.
module formal_session(input clock);
    localparam TIMEOUT = 8;
    localparam IDLE = 2'd0, GOT_ROWS = 2'd1, OPEN = 2'd2, SOLVING = 2'd3;
    localparam TRUNCATED = 8'd6, FRAMING = 8'd7;

    (* anyseq *) reg [7:0] rx_byte;
    (* anyseq *) reg rx_byte_valid, rx_framing_error, reset;
    (* anyseq *) reg listening, body_refuse, finish;
    (* anyseq *) reg [2:0] body_outcome;
    (* anyseq *) reg [7:0] body_detail;

    wire [11:0] rows, columns, switch_image, body_rows, body_columns;
    wire abort, board_loaded, refuse, query, switch, loading;
    wire [2:0] refuse_outcome;
    wire [7:0] refuse_detail;
    wire [15:0] message;
    wire message_valid, begins, take, open;
    wire [1:0] state;
    wire act, half, framer_valid;
    wire [23:0] idle;
    wire idle_near;
    top uut(.clock(clock), .reset(reset), .rx_byte(rx_byte), .rx_byte_valid(rx_byte_valid),
            .rx_framing_error(rx_framing_error), .rows(rows), .columns(columns), .abort(abort),
            .board_loaded(board_loaded), .refuse(refuse), .refuse_outcome(refuse_outcome),
            .refuse_detail(refuse_detail), .query(query), .switch(switch), .switch_image(switch_image),
            .loading(loading), .body$message(message), .body$message_valid(message_valid),
            .body$begin(begins), .body$take(take), .body$open(open), .body$rows(body_rows),
            .body$columns(body_columns), .body$listening(listening), .body$refuse(body_refuse),
            .body$outcome(body_outcome), .body$detail(body_detail), .body$finish(finish),
            .state$q(state), .act$q(act), .\framer.idle$q (idle), .\framer.idle_near$q (idle_near), .\framer.have_high$q (half),
            .\framer.message_valid_q$q (framer_valid));

    // The body's contract.
    reg took = 0, took2 = 0, body_refused = 0, was_open = 0;
    always @(posedge clock) begin
        took <= take;
        took2 <= took;
        body_refused <= body_refuse;
        was_open <= state == OPEN;
    end
    always @* begin
        assume(!body_refuse || take || took);
        assume(!(body_refuse && finish));
        assume(listening || took || took2);
    end

    // Cycles since a byte or a framing error (`since`), or one of those or
    // a reset (`quiet`); saturating.
    reg [7:0] since = 0, quiet = 0;
    always @(posedge clock) begin
        since <= (rx_byte_valid || rx_framing_error) ? 0 : (since == 8'hff ? since : since + 1);
        quiet <= (rx_byte_valid || rx_framing_error || reset) ? 0 : (quiet == 8'hff ? quiet : quiet + 1);
    end

    always @* begin
        if (refuse) assert(state == IDLE);
        if (abort) assert(state == IDLE || state == GOT_ROWS);
        if (query) assert(abort && state == IDLE && !board_loaded);
        assert(!(loading && quiet >= TIMEOUT));

        // Strengthening for induction: the framer's idle count is the
        // silence (it stops at the timeout), with nothing held past it; a
        // message is acted on two cycles after its byte; a board stays open
        // only within the timeout.
        assert(idle == (since > TIMEOUT ? TIMEOUT : since));
        if (idle == TIMEOUT) assert(!half);
        assert(idle_near == (idle == TIMEOUT - 1));
        if (framer_valid) assert(since == 0);
        if (act) assert(since <= 1);
        if (took) assert(since <= 2);
        if (took2) assert(since <= 3);
        if (state == GOT_ROWS || state == OPEN) assert(idle < TIMEOUT);
        assert(quiet <= since);
    end

    // Every property above is exercised: refusals by the session (a silence,
    // a lost byte) and by the body; an abort by START_BOARD and by a reset;
    // QUERY abandoning an open board; a board loading right up to the bound on a quiet line, and one
    // handed to the solver.
    always @* begin
        cover(refuse && refuse_detail == TRUNCATED);
        cover(refuse && refuse_detail == FRAMING);
        cover(refuse && body_refused);
        cover(abort && state == GOT_ROWS);
        cover(abort && !query && state == IDLE);
        cover(query && was_open);
        cover(loading && quiet == TIMEOUT - 1);
        cover(board_loaded);
    end
endmodule
