// Properties of the v1 message parser (MessageParser with an idle timeout of
// 8 cycles; the board's is 80 bit times; emitted by RustHDL as module `top`),
// for yosys-smtbmc.
//
// Until a moment the solver picks (`go`), every input is arbitrary in every
// cycle: bytes, framing errors, resets, a full FIFO. From `go` on, the host
// does what docs/protocol.md asks before a new board: it leaves the line
// quiet for longer than the idle timeout, then sends a START_BOARD pair for
// an arbitrary valid size, a byte every 2 cycles. Then:
//
// * the parser is never in a loading state for longer than the idle timeout
//   without a byte, a framing error or a reset arriving (`quiet` counts
//   from 0 in the cycle after one; the framer's timeout ends the loading,
//   so the bound is exact): a cut stream cannot leave it waiting for ever;
// * whatever came before, the START_BOARD pair leads to the new board:
//   `abort` pulses (the abandoned board is dropped), and the parser is
//   loading a board of exactly the size sent.
module formal_parser(input clock);
    localparam TIMEOUT = 8;
    // The quiet time before the new board, and the cycle the check is made.
    localparam QUIET = TIMEOUT + 2;
    localparam GAP = 2;
    localparam CHECK = QUIET + 3 * GAP + 3;

    (* anyseq *) reg [7:0] any_byte;
    (* anyseq *) reg any_valid, any_error, any_reset, any_full, go;
    (* anyconst *) reg [5:0] rows_sent, columns_sent;
    always @* assume(rows_sent >= 1 && rows_sent <= 32 && columns_sent >= 1 && columns_sent <= 32);

    reg started = 0;
    reg [7:0] t = 0;
    always @(posedge clock) begin
        if (go) started <= 1;
        if (started && t != 8'hff) t <= t + 1;
    end

    // START_BOARD rows, START_BOARD columns: code 111, index = the size, value 0.
    wire [15:0] first = {3'b111, 6'b0, rows_sent, 1'b0};
    wire [15:0] second = {3'b111, 6'b0, columns_sent, 1'b0};
    wire sending = t == QUIET || t == QUIET + GAP || t == QUIET + 2 * GAP || t == QUIET + 3 * GAP;
    wire [7:0] sent = t == QUIET ? first[15:8] : t == QUIET + GAP ? first[7:0]
                    : t == QUIET + 2 * GAP ? second[15:8] : second[7:0];

    wire [7:0] rx_byte = started ? sent : any_byte;
    wire rx_byte_valid = started ? sending : any_valid;
    wire rx_framing_error = started ? 1'b0 : any_error;
    wire reset = started ? 1'b0 : any_reset;

    wire loading, abort;
    wire [5:0] rows, columns;
    top uut(.clock(clock), .reset(reset), .rx_byte(rx_byte), .rx_byte_valid(rx_byte_valid),
            .rx_framing_error(rx_framing_error), .fifo_full(any_full),
            .loading(loading), .abort(abort), .rows(rows), .columns(columns));

    // Cycles since a byte, a framing error or a reset (saturating).
    reg [7:0] quiet = 0;
    reg aborted = 0;
    // A board was being loaded when the host's new board began.
    reg abandoned = 0;
    always @(posedge clock) begin
        if (go && !started && loading) abandoned <= 1;
        quiet <= (rx_byte_valid || rx_framing_error || reset) ? 0 : (quiet == 8'hff ? quiet : quiet + 1);
        if (started && abort) aborted <= 1;
    end

    always @(posedge clock) begin
        assert(!(loading && quiet >= TIMEOUT));
        if (started && t == CHECK) begin
            assert(aborted);
            assert(loading);
            assert(rows == rows_sent && columns == columns_sent);
        end
    end

    // Every property above is exercised: the parser loading right up to
    // the bound on a quiet line; a new board replacing one half loaded.
    always @* begin
        cover(loading && quiet == TIMEOUT - 1);
        cover(started && t == CHECK && abandoned);
    end
endmodule
