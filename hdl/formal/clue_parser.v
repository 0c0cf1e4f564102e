// Properties of the v2 message parser (ClueParser with an idle timeout of 8
// cycles; emitted by RustHDL as module `top`), for yosys-smtbmc, and of the
// same parser built for colour boards (protocol v3, whose START_BOARD pair
// is v2's). The same two properties as parser.v, for protocol v2's board:
//
// Until a moment the solver picks (`go`), every input is arbitrary in every
// cycle: bytes, framing errors, resets. From `go` on, the host leaves the
// line quiet for longer than the idle timeout, then sends a v2 START_BOARD
// pair (value 1) for an arbitrary size of 1 to 64 a side, a byte every 2
// cycles. Then:
//
// * the parser is never in a loading state for longer than the idle timeout
//   without a byte, a framing error or a reset arriving (`quiet` counts
//   from 0 in the cycle after one; the framer's timeout ends the loading,
//   so the bound is exact);
// * whatever came before, the START_BOARD pair leads to the new board:
//   `abort` pulses, and the parser is loading a board of exactly the size sent.
module formal_clue_parser(input clock);
    localparam TIMEOUT = 8;
    localparam QUIET = TIMEOUT + 2;
    localparam GAP = 2;
    localparam CHECK = QUIET + 3 * GAP + 3;

    (* anyseq *) reg [7:0] any_byte;
    (* anyseq *) reg any_valid, any_error, any_reset, go;
    (* anyconst *) reg [6:0] rows_sent, columns_sent;
    always @* assume(rows_sent >= 1 && rows_sent <= 64 && columns_sent >= 1 && columns_sent <= 64);

    reg started = 0;
    reg [7:0] t = 0;
    always @(posedge clock) begin
        if (go) started <= 1;
        if (started && t != 8'hff) t <= t + 1;
    end

    // START_BOARD rows, START_BOARD columns: code 111, index = the size, value 1 (v2).
    wire [15:0] first = {3'b111, 5'b0, rows_sent, 1'b1};
    wire [15:0] second = {3'b111, 5'b0, columns_sent, 1'b1};
    wire sending = t == QUIET || t == QUIET + GAP || t == QUIET + 2 * GAP || t == QUIET + 3 * GAP;
    wire [7:0] sent = t == QUIET ? first[15:8] : t == QUIET + GAP ? first[7:0]
                    : t == QUIET + 2 * GAP ? second[15:8] : second[7:0];

    wire [7:0] rx_byte = started ? sent : any_byte;
    wire rx_byte_valid = started ? sending : any_valid;
    wire rx_framing_error = started ? 1'b0 : any_error;
    wire reset = started ? 1'b0 : any_reset;

    wire loading, abort;
    wire [6:0] rows, columns;
    top uut(.clock(clock), .reset(reset), .rx_byte(rx_byte), .rx_byte_valid(rx_byte_valid),
            .rx_framing_error(rx_framing_error),
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
