// Properties of the UART receiver (UartRx with 4 clocks per bit, emitted by
// RustHDL as module `top`), for yosys-smtbmc.
//
// The environment sends one 8N1 frame of an arbitrary byte, with an
// arbitrary stop-bit level, starting at an arbitrary cycle after power-up
// (at least 8 cycles in, so the synchroniser holds the idle line). Then:
//
// * a frame with a high stop bit delivers its byte exactly once, unchanged,
//   and flags no framing error;
// * a frame with a low stop bit delivers nothing and flags one framing error;
// * `valid` and `framing_error` never pulse together.
//
// Checked for every byte, stop level and start cycle up to 31, to the depth
// the test states (the whole frame and its aftermath fit in it).
module formal_uart_rx(input clock);
    localparam CPB = 4;
    (* anyconst *) reg [7:0] byte_sent;
    (* anyconst *) reg stop_level;
    (* anyconst *) reg [4:0] start_at;

    reg [7:0] t = 0;
    reg reset = 1;
    always @(posedge clock) begin
        if (t != 8'hff) t <= t + 1;
        reset <= 0;
    end

    // The line: idle (high) until start_at, then start bit, 8 data bits
    // LSB first, stop bit, CPB cycles each; idle again after.
    wire [7:0] ft = t - {3'b0, start_at};
    wire in_frame = t >= {3'b0, start_at} && ft < 10 * CPB;
    wire [3:0] bit_index = ft / CPB;
    wire level = !in_frame ? 1'b1
               : bit_index == 0 ? 1'b0
               : bit_index <= 8 ? byte_sent[bit_index - 1]
               : stop_level;

    wire [7:0] data;
    wire valid, framing_error;
    top uut(.clock(clock), .reset(reset), .rx(level), .data(data),
            .valid(valid), .framing_error(framing_error));

    reg [1:0] delivered = 0, errors = 0;
    reg [7:0] got = 0;
    always @(posedge clock) begin
        if (valid) begin
            delivered <= delivered + 1;
            got <= data;
        end
        if (framing_error) errors <= errors + 1;
    end

    always @(posedge clock) begin
        assume(start_at >= 8);
        assert(!(valid && framing_error));
        // Two bit times after the frame ends, all is said.
        if (t == {3'b0, start_at} + 12 * CPB) begin
            if (stop_level) assert(delivered == 1 && got == byte_sent && errors == 0);
            else assert(delivered == 0 && errors == 1);
        end
    end
endmodule
