//! Sends 16-bit reply messages to the UART transmitter, two bytes each,
//! high byte first. Both engines' replies send through it.
//!
//! The transmitter's `ready` is taken through a register: combinational,
//! the transmitter's timer compare and the reply's decisions missed 100 MHz
//! together. In the cycle after a start the register is stale (the
//! transmitter has just gone busy), so no start then. Each byte so leaves a
//! cycle after `ready` rises: 10 ns, against a byte's 1.04 ms at 9600 baud.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct MessageSender {
    pub clock: Signal<In, Clock>,
    /// Pulse: take `message` to send (only while `pending` is low).
    pub load: Signal<In, Bit>,
    pub message: Signal<In, Bits<16>>,
    /// High from `load` until the message's second byte is handed over.
    pub pending: Signal<Out, Bit>,
    /// The message being sent. Nothing reads it; dropping it moved the DNF
    /// image's placement under 100 MHz (README, "Two images, one flash"),
    /// so it stays until that image's phase decision path is fixed.
    pub sending: Signal<Out, Bits<16>>,
    /// To the UART transmitter.
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_start: Signal<Out, Bit>,
    pub tx_ready: Signal<In, Bit>,
    message_q: DFF<Bits<16>>,
    pending_q: DFF<Bit>,
    low_next: DFF<Bit>,
    ready_q: DFF<Bit>,
    started: DFF<Bit>,
    start_now: Signal<Local, Bit>,
}

impl Logic for MessageSender {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, message_q, pending_q, low_next, ready_q, started);
        self.pending.next = self.pending_q.q.val();
        self.sending.next = self.message_q.q.val();
        self.ready_q.d.next = self.tx_ready.val();
        self.start_now.next = self.pending_q.q.val() & self.ready_q.q.val() & !self.started.q.val();
        self.started.d.next = self.start_now.val();
        self.tx_start.next = self.start_now.val();
        self.tx_data.next = self.message_q.q.val().get_bits::<8>(8);
        if self.low_next.q.val() {
            self.tx_data.next = self.message_q.q.val().get_bits::<8>(0);
        }
        if self.start_now.val() {
            self.low_next.d.next = !self.low_next.q.val();
            if self.low_next.q.val() {
                self.pending_q.d.next = false;
            }
        }
        if self.load.val() {
            self.message_q.d.next = self.message.val();
            self.pending_q.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Messages loaded whenever the sender is free, a transmitter that
    /// goes busy for a random while after each start: the bytes come out
    /// high byte first, each started only while the transmitter is ready
    /// and a cycle after it became ready.
    #[test]
    fn sends_each_message_high_byte_first() {
        let mut uut = MessageSender::default();
        uut.connect_all();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut sent, mut bytes) = (vec![], vec![]);
        let (mut busy_for, mut ready_before) = (0u64, false);
        for _ in 0..20_000 {
            let ready = busy_for == 0;
            uut.tx_ready.next = ready;
            uut.load.next = false;
            if !uut.pending.val() && rng.below(3) == 0 {
                let message = rng.next_u64() & 0xffff;
                uut.load.next = true;
                uut.message.next = message.into();
                sent.push(message);
            }
            // (Outputs settle on the inputs just set.)
            assert!(simulate(&mut uut, 10));
            if uut.tx_start.val() {
                assert!(
                    ready && ready_before,
                    "a start while the transmitter was not ready"
                );
                bytes.push(uut.tx_data.val().to_u64());
                busy_for = 1 + rng.below(5);
            } else if busy_for > 0 {
                busy_for -= 1;
            }
            ready_before = ready;
            tick(&mut uut, |u| &mut u.clock);
        }
        let words: Vec<u64> = bytes
            .chunks(2)
            .map(|b| b[0] << 8 | b.get(1).copied().unwrap_or(256))
            .collect();
        assert!(words.len() > 1000, "only {} messages went out", words.len());
        assert_eq!(words[..], sent[..words.len()]);
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = MessageSender::default();
        uut.connect_all();
        yosys_check(&uut, "message_sender");
    }
}
