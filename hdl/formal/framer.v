// Properties of the message framer (MessageFramer with an idle timeout of 8
// cycles; the board's is 80 bit times; emitted by RustHDL as module `top`),
// for yosys-smtbmc. The inputs are arbitrary in every cycle: bytes, framing
// errors, resets, in any order.
//
// * A half message is never held longer than the idle timeout while no
//   byte or framing error arrives (`quiet` counts from 0 in the cycle after
//   one): a stream cut off between the two bytes of a message cannot leave
//   the framer waiting for ever.
// * `timeout` never pulses in a cycle a byte arrives (the byte wins).
// * A message comes out only the cycle after a byte arrived.
//
// Proved by k-induction: the framer's idle counter (the test exposes every
// register `x` of the DUT as a port `x$q`) is tied to the quiet time.
module formal_framer(input clock);
    localparam TIMEOUT = 8;
    (* anyseq *) reg [7:0] rx_byte;
    (* anyseq *) reg rx_byte_valid;
    (* anyseq *) reg rx_framing_error;
    (* anyseq *) reg reset;

    wire [15:0] message;
    wire message_valid, timeout, half;
    wire [23:0] idle;
    wire idle_near;
    top uut(.clock(clock), .reset(reset), .rx_byte(rx_byte), .rx_byte_valid(rx_byte_valid),
            .rx_framing_error(rx_framing_error), .message(message),
            .message_valid(message_valid), .timeout(timeout), .half(half),
            .idle$q(idle), .idle_near$q(idle_near));

    // Cycles since a byte or a framing error arrived (saturating).
    reg [7:0] quiet = 0;
    reg byte_before = 0;
    always @(posedge clock) begin
        quiet <= (rx_byte_valid || rx_framing_error) ? 0 : (quiet == 8'hff ? quiet : quiet + 1);
        byte_before <= rx_byte_valid;
    end

    always @* begin
        assert(!(half && quiet >= TIMEOUT));
        assert(!(timeout && rx_byte_valid));
        if (message_valid) assert(byte_before);

        // Strengthening for induction: the framer's idle count is the quiet
        // time (it stops at the timeout), and nothing is held past it.
        assert(idle == (quiet > TIMEOUT ? TIMEOUT : quiet));
        if (idle == TIMEOUT) assert(!half);
        assert(idle_near == (idle == TIMEOUT - 1));
    end

    // Every property above is exercised: a half message held right up to
    // the timeout, then dropped; a byte arriving in the very cycle the
    // timeout would have fired; a message.
    always @* begin
        cover(half && quiet == TIMEOUT - 1);
        cover(half && timeout);
        cover(quiet == TIMEOUT - 1 && rx_byte_valid && half);
        cover(message_valid);
    end
endmodule
