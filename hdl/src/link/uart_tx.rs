//! UART transmitter, 8N1, LSB first. It latches `data` when `start` is high
//! while `ready`, and is ready again once the stop bit has been sent.
//!
//! It has no reset: a byte once begun is always finished, so that a reset
//! of the core (the board's button) never puts a torn byte on the wire. Its
//! flip-flops power up idle; the reply stops at a message boundary on the
//! parser's abort, which a reset raises.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub data: Signal<In, Bits<8>>,
    /// Latch `data` and send it (only heeded while `ready`).
    pub start: Signal<In, Bit>,
    /// High when a byte can be started.
    pub ready: Signal<Out, Bit>,
    /// The pin; idles high.
    pub tx: Signal<Out, Bit>,
    busy: DFF<Bit>,
    // Start bit, 8 data bits, stop bit, shifted out from bit 0; stored
    // inverted so that the power-up zero is an idle (high) line.
    shift_inv: DFF<Bits<10>>,
    bits_left: DFF<Bits<4>>,
    timer: DFF<Bits<16>>,
    // The timer is at the bit period's last clock: registered (compared a
    // clock ahead), so that the 16-bit compare is not on the path from the
    // timer through `ready` and `start` to the shift register's enable.
    last_clock: DFF<Bit>,
    tick_before_last: Constant<Bits<16>>,
}

impl UartTx {
    /// A transmitter for a bit period of `clocks_per_bit` (≥ 2) clock cycles.
    pub fn new(clocks_per_bit: u32) -> UartTx {
        assert!(
            (2..=65535).contains(&clocks_per_bit),
            "clocks per bit must be 2..=65535"
        );
        UartTx {
            clock: Default::default(),
            data: Default::default(),
            start: Default::default(),
            ready: Default::default(),
            tx: Default::default(),
            busy: Default::default(),
            shift_inv: Default::default(),
            bits_left: Default::default(),
            timer: Default::default(),
            last_clock: Default::default(),
            tick_before_last: Constant::new((clocks_per_bit as u64 - 2).into()),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, shift_inv, bits_left, timer, last_clock);
        // While busy the timer counts up and wraps at the last tick, so it
        // is there in the clock after it was at the tick before.
        self.last_clock.d.next = self.busy.q.val() & (self.timer.q.val() == self.tick_before_last.val());
        // Ready during the stop bit's last clock too, so bytes go back to back.
        self.ready.next = !self.busy.q.val() | ((self.bits_left.q.val() == 1) & self.last_clock.q.val());
        self.tx.next = !self.shift_inv.q.val().get_bit(0);
        if self.busy.q.val() {
            self.timer.d.next = self.timer.q.val() + 1;
            if self.last_clock.q.val() {
                self.timer.d.next = 0.into();
                self.shift_inv.d.next = self.shift_inv.q.val() >> 1;
                self.bits_left.d.next = self.bits_left.q.val() - 1;
                if self.bits_left.q.val() == 1 {
                    self.busy.d.next = false;
                }
            }
        }
        if self.ready.val() & self.start.val() {
            self.busy.d.next = true;
            self.timer.d.next = 0.into();
            self.bits_left.d.next = 10.into();
            // Inverted frame: start bit (0 → 1), data, stop bit (1 → 0).
            // (XOR, not `!`: RustHDL's Verilog widens `!data` past 8 bits,
            // which the Verilator cross-check caught as a low stop bit.)
            self.shift_inv.d.next = (bit_cast::<10, 8>(self.data.val() ^ 0xff) << 1) | 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};
    use crate::link::uart_rx::UartRx;

    #[derive(LogicBlock)]
    struct Loopback {
        clock: Signal<In, Clock>,
        tx: UartTx,
        rx: UartRx,
    }

    impl Logic for Loopback {
        #[hdl_gen]
        fn update(&mut self) {
            self.tx.clock.next = self.clock.val();
            self.rx.clock.next = self.clock.val();
            self.rx.reset.next = false;
            self.rx.rx.next = self.tx.tx.val();
        }
    }

    #[test]
    fn sends_frames_that_a_receiver_reads_back_and_idles_high() {
        for cpb in [4u32, 7, 16] {
            let mut uut = Loopback {
                clock: Default::default(),
                tx: UartTx::new(cpb),
                rx: UartRx::new(cpb),
            };
            uut.connect_all();
            let message: Vec<u8> = (0..=255u8).step_by(7).chain([0, 255]).collect();
            let (mut sent, mut got, mut line) = (0, vec![], vec![]);
            let mut cycles = 0;
            while got.len() < message.len() && cycles < 20 * cpb as usize * message.len() {
                let can_send = uut.tx.ready.val() && sent < message.len();
                uut.tx.start.next = can_send;
                if can_send {
                    uut.tx.data.next = (message[sent] as u64).into();
                    sent += 1;
                }
                tick(&mut uut, |u| &mut u.clock);
                line.push(uut.tx.tx.val());
                if uut.rx.valid.val() {
                    got.push(uut.rx.data.val().to_u8());
                }
                assert!(!uut.rx.framing_error.val());
                cycles += 1;
            }
            assert_eq!(got, message, "{cpb} clocks per bit");
            // Back to back: 10 bits per byte, not more.
            let low_bits = line.iter().filter(|&&l| !l).count();
            assert!(low_bits > 0);
            assert!(
                cycles <= (10 * cpb as usize) * message.len() + 10 * cpb as usize,
                "{cycles} cycles"
            );
            for _ in 0..3 * cpb {
                tick(&mut uut, |u| &mut u.clock);
                assert!(uut.tx.tx.val(), "line idles high");
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = UartTx::new(10417);
        uut.connect_all();
        yosys_check(&uut, "uart_tx");
    }
}
