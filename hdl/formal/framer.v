// Properties of the message framer (MessageFramer with an idle timeout of 8
// cycles; the board's is 80 bit times; emitted by RustHDL as module `top`),
// for yosys-smtbmc. The inputs are arbitrary in every cycle: bytes, framing
// errors, resets, in any order.
//
// * A half message is never held longer than the idle timeout (plus the
//   cycle the framer takes to act) while no byte or framing error arrives:
//   a stream cut off between the two bytes of a message cannot leave the
//   framer waiting forever.
// * `timeout` never pulses in a cycle a byte arrives (the byte wins).
// * A message comes out only the cycle after a byte arrived.
module formal_framer(input clock);
    localparam TIMEOUT = 8;
    (* anyseq *) reg [7:0] rx_byte;
    (* anyseq *) reg rx_byte_valid;
    (* anyseq *) reg rx_framing_error;
    (* anyseq *) reg reset;

    wire [15:0] message;
    wire message_valid, timeout, half;
    top uut(.clock(clock), .reset(reset), .rx_byte(rx_byte), .rx_byte_valid(rx_byte_valid),
            .rx_framing_error(rx_framing_error), .message(message),
            .message_valid(message_valid), .timeout(timeout), .half(half));

    // Cycles since a byte or a framing error arrived (saturating).
    reg [7:0] quiet = 0;
    reg byte_before = 0;
    always @(posedge clock) begin
        quiet <= (rx_byte_valid || rx_framing_error) ? 0 : (quiet == 8'hff ? quiet : quiet + 1);
        byte_before <= rx_byte_valid;
    end

    always @(posedge clock) begin
        assert(!(half && quiet > TIMEOUT + 1));
        assert(!(timeout && rx_byte_valid));
        if (message_valid) assert(byte_before);
    end
endmodule
