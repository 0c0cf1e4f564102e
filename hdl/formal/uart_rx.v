// Properties of the UART receiver (UartRx with 4 clocks per bit; the
// board's is 10 417; emitted by RustHDL as module `top`), for yosys-smtbmc.
//
// A sender drives the line from power-up for ever: 8N1 frames of arbitrary
// bytes with arbitrary stop-bit levels, each bit exactly CPB clocks, with
// arbitrary idle gaps between them: none (back to back) after a high stop
// bit, at least a bit time after a low one (the receiver goes back to idle
// in the stop bit's middle, so a low stop bit would look like a start bit
// to it). Then, for every frame:
//
// * a frame with a high stop bit delivers its byte, unchanged, in the 2nd
//   cycle after the frame ends, and flags no framing error;
// * a frame with a low stop bit delivers nothing and flags one framing
//   error in that cycle;
// * nothing else is ever delivered or flagged.
//
// For k-induction the receiver's registers are tied to the sender's
// position in its frame (the test exposes every register `x` of the DUT as
// a port `x$q`).
module formal_uart_rx(input clock);
    localparam CPB = 4;
    (* anyseq *) reg go, any_stop;
    (* anyseq *) reg [7:0] any_byte;

    // The sender: bit `bit_i` (0 start, 1..8 data, 9 stop) of the frame,
    // its clock `clk_i`; `gap` counts the idle cycles since the last frame.
    reg sending = 0;
    reg [3:0] bit_i = 0;
    reg [1:0] clk_i = 0; // (CPB = 4)
    reg [7:0] byte_sent = 0;
    reg stop_level = 1;
    reg [3:0] gap = 15;
    wire frame_end = sending && bit_i == 9 && clk_i == CPB - 1;
    wire may_start = (!sending && (stop_level || gap >= CPB)) || (frame_end && stop_level);
    always @(posedge clock) begin
        if (sending) begin
            clk_i <= clk_i + 1;
            if (clk_i == CPB - 1) bit_i <= bit_i + 1;
        end else if (gap != 15) gap <= gap + 1;
        if (frame_end) begin
            sending <= 0;
            bit_i <= 0;
            gap <= 0;
        end
        if (go && may_start) begin
            sending <= 1;
            bit_i <= 0;
            clk_i <= 0;
            byte_sent <= any_byte;
            stop_level <= any_stop;
        end
    end
    wire level = !sending ? 1'b1
               : bit_i == 0 ? 1'b0
               : bit_i <= 8 ? byte_sent[bit_i - 1]
               : stop_level;

    wire [5:0] since = bit_i * CPB + clk_i;

    localparam IDLE = 0, START = 1, DATA = 2, STOP = 3;
    wire [7:0] data;
    wire valid, framing_error;
    wire [1:0] state;
    wire [15:0] timer;
    wire [2:0] bit_count;
    wire [7:0] shift;
    wire valid_q, error_q, at_half, at_last;
    top uut(.clock(clock), .reset(1'b0), .rx(level), .data(data),
            .valid(valid), .framing_error(framing_error),
            .state$q(state), .timer$q(timer), .bit_count$q(bit_count), .shift$q(shift),
            .valid_q$q(valid_q), .error_q$q(error_q), .at_half$q(at_half), .at_last$q(at_last));

    // The frames that ended one and two cycles ago.
    reg [1:0] ended = 0;
    reg [7:0] ended_byte = 0;
    reg ended_stop = 1;
    always @(posedge clock) begin
        ended <= {ended[0], frame_end};
        if (frame_end) begin
            ended_byte <= byte_sent;
            ended_stop <= stop_level;
        end
    end

    always @* begin
        assert(valid == (ended[1] && ended_stop));
        assert(framing_error == (ended[1] && !ended_stop));
        if (valid) assert(data == ended_byte);

        // Strengthening for induction: the sender's state is consistent
        // with the frames that ended, and the receiver's registers are
        // where the sender's position says (`since`: cycles since the
        // frame's start bit began, while sending; `gap` after).
        assert(bit_i <= 9);
        // The timer's compares, a cycle ahead, are the timer's.
        assert(at_half == (timer == CPB / 2 - 1));
        assert(at_last == (timer == CPB - 1));
        assert(!(ended[0] && ended[1]));
        if (!sending && gap == 0) assert(ended[0]);
        if (!sending && gap == 1) assert(ended[1]);
        if (ended[0]) assert(sending ? since == 0 && ended_stop : gap == 0);
        if (ended[1]) assert(sending ? since <= 1 : gap == 1);
        if (!sending) assert(stop_level == ended_stop);
        if (ended[0]) begin
            assert(state == STOP && timer == CPB - 1 && bit_count == 0 && shift == ended_byte);
            assert(!valid_q && !error_q);
        end else if (ended[1]) begin
            assert(state == IDLE && timer == CPB && shift == ended_byte);
            assert(valid_q == ended_stop && error_q == !ended_stop);
        end else begin
            assert(!valid_q && !error_q);
            if (!sending) begin
                // After a low stop bit the receiver takes the stop bit's
                // second half for a start bit, and drops it half a bit on.
                if (!ended_stop && gap == 2) assert(state == START && timer == 0);
                else if (!ended_stop && gap == 3) assert(state == START && timer == 1);
                else assert(state == IDLE && timer == 0);
            end else if (since <= 2) assert(state == IDLE && timer == 0);
            else if (since <= 4) assert(state == START && timer == since - 3);
            else if (since <= 36) begin
                assert(state == DATA && timer == (since - 5) % CPB && bit_count == (since - 5) / CPB);
                // The bits received so far, at the top of the shift register.
                assert((shift >> (8 - bit_count)) == (byte_sent & (8'hff >> (8 - bit_count))));
            end else assert(state == STOP && timer == since - 37 && bit_count == 0 && shift == byte_sent);
        end
    end

    // Every property above is exercised: a byte with both bit levels
    // delivered; a framing error; a byte delivered while the next frame,
    // back to back, is under way; the next frame's start bit seen after a
    // low stop bit, at the earliest.
    always @* begin
        cover(valid && data == 8'h5a);
        cover(framing_error);
        cover(valid && sending && since == 1);
        cover(!ended_stop && sending && since == 3);
    end
endmodule
