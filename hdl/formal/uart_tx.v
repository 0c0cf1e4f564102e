// Properties of the UART transmitter (UartTx with 4 clocks per bit; the
// board's is 10 417; emitted by RustHDL as module `top`), for yosys-smtbmc.
// `data` and `start` are arbitrary in every cycle.
//
// A reference frame (`active`, `bit_i`, `clk_i`, `frame`) starts whenever
// `start` is high while `ready`, latching `data`. Then:
//
// * the line is exactly the reference's: high while idle; a start bit, the
//   8 data bits LSB first and a stop bit, each exactly CPB clocks long; a
//   byte handed over is sent whole, and a `start` while not ready is
//   ignored (the frame on the line goes on unchanged);
// * `ready` is high exactly while idle and in the stop bit's last clock (so
//   bytes can go back to back);
// * the transmitter's rules the reply wrappers (dnf_reply.v, clue_reply.v)
//   assume of it: `ready` stays high until a start, and is never low for
//   more than 10 * CPB - 1 cycles in a row.
//
// For k-induction the DUT's registers are tied to the reference: busy, the
// timer, the bits left, the registered last-clock flag and the shift
// register (the test exposes every register `x` of the DUT as a port
// `x$q`).
module formal_uart_tx(input clock);
    localparam CPB = 4;
    (* anyseq *) reg [7:0] data;
    (* anyseq *) reg start;

    wire ready, tx;
    // The DUT's registers, exposed as ports by the test's `expose`.
    wire busy, last_clock;
    wire [3:0] bits_left;
    wire [15:0] timer;
    wire [9:0] shift_inv;
    top uut(.clock(clock), .data(data), .start(start), .ready(ready), .tx(tx),
            .busy$q(busy), .bits_left$q(bits_left), .timer$q(timer),
            .last_clock$q(last_clock), .shift_inv$q(shift_inv));

    // The reference frame: bit `bit_i` (0 start, 1..8 data, 9 stop) of
    // `frame`, its clock `clk_i` (0..CPB-1).
    reg active = 0;
    reg [3:0] bit_i = 0;
    reg [2:0] clk_i = 0;
    reg [9:0] frame = 10'h200;
    wire frame_end = active && bit_i == 9 && clk_i == CPB - 1;
    always @(posedge clock) begin
        if (start && ready) begin
            active <= 1;
            bit_i <= 0;
            clk_i <= 0;
            frame <= {1'b1, data, 1'b0};
        end else if (active) begin
            clk_i <= clk_i == CPB - 1 ? 0 : clk_i + 1;
            if (clk_i == CPB - 1) bit_i <= bit_i + 1;
            if (frame_end) begin
                active <= 0;
                bit_i <= 0;
            end
        end
    end

    // The previous cycle's handshake, and the cycles `ready` has been low.
    reg ready_before = 0, start_before = 0;
    reg [7:0] not_ready_for = 0;
    always @(posedge clock) begin
        ready_before <= ready;
        start_before <= start;
        not_ready_for <= ready ? 0 : not_ready_for + 1;
    end

    always @* begin
        // The line and the handshake.
        assert(tx == (active ? frame[bit_i] : 1'b1));
        assert(ready == (!active || frame_end));
        // The rules the reply wrappers assume.
        if (ready_before && !start_before) assert(ready);
        assert(not_ready_for <= 10 * CPB - 1);

        // Strengthening for induction: the reference's ranges, and the
        // DUT's registers as the reference says.
        assert(bit_i <= 9 && clk_i <= CPB - 1);
        assert(frame[0] == 0 && frame[9] == 1);
        assert(busy == active);
        if (active) begin
            assert(bits_left == 10 - bit_i);
            assert(timer == clk_i);
            assert(last_clock == (clk_i == CPB - 1));
            assert(shift_inv == (~frame) >> bit_i);
            assert(not_ready_for == (bit_i * CPB + clk_i));
        end else begin
            assert(bits_left == 0 && timer == 0 && !last_clock);
            assert(shift_inv == 0);
            assert(not_ready_for == 0);
        end
    end

    // Every property above is exercised: a whole frame with both bit levels
    // among its data, a start ignored mid-frame, a start at the stop bit's
    // last clock (back to back), the longest wait for `ready`, and `ready`
    // held high while no start comes.
    always @* begin
        cover(frame_end && frame[8:1] == 8'h5a);
        cover(active && start && !ready);
        cover(frame_end && start);
        cover(not_ready_for == 10 * CPB - 1);
        cover(ready_before && !start_before && ready && !active);
    end
endmodule
