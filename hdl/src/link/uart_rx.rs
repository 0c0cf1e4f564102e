//! UART receiver, 8N1, LSB first, behind a two-flop synchroniser.
//!
//! A start bit counts only if the line is still low half a bit after it
//! fell; data bits are sampled mid-bit; a low stop bit drops the byte and
//! pulses `framing_error`. The receiver goes back to idle right after the
//! stop bit's middle, so a sender a few percent fast is still caught.

use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum RxState {
    Idle,
    Start,
    Data,
    Stop,
}

#[derive(LogicBlock)]
pub struct UartRx {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: back to idle.
    pub reset: Signal<In, Bit>,
    /// The pin, asynchronous to `clock`.
    pub rx: Signal<In, Bit>,
    /// The last byte received; valid while `valid` pulses.
    pub data: Signal<Out, Bits<8>>,
    /// One-cycle pulse per byte received.
    pub valid: Signal<Out, Bit>,
    /// One-cycle pulse per byte dropped for a low stop bit.
    pub framing_error: Signal<Out, Bit>,
    sync: BitSynchronizer,
    state: DFF<RxState>,
    timer: DFF<Bits<16>>,
    bit_count: DFF<Bits<3>>,
    shift: DFF<Bits<8>>,
    valid_q: DFF<Bit>,
    error_q: DFF<Bit>,
    /// `timer` is at `half_tick`, at `last_tick`: compared on the timer's
    /// next value, so a register holds each and the state's decision
    /// starts from it (the 16-bit compares in front of the timer's reset
    /// were a critical path). Always equal to `timer == half_tick` and
    /// `timer == last_tick` (a formal invariant, hdl/formal/uart_rx.v).
    at_half: DFF<Bit>,
    at_last: DFF<Bit>,
    last_tick: Constant<Bits<16>>,
    half_tick: Constant<Bits<16>>,
}

impl UartRx {
    /// A receiver for a bit period of `clocks_per_bit` (≥ 4) clock cycles.
    pub fn new(clocks_per_bit: u32) -> UartRx {
        assert!(
            (4..=65535).contains(&clocks_per_bit),
            "clocks per bit must be 4..=65535"
        );
        UartRx {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            framing_error: Default::default(),
            sync: Default::default(),
            state: Default::default(),
            timer: Default::default(),
            bit_count: Default::default(),
            shift: Default::default(),
            valid_q: Default::default(),
            error_q: Default::default(),
            at_half: Default::default(),
            at_last: Default::default(),
            last_tick: Constant::new((clocks_per_bit as u64 - 1).into()),
            // The synchroniser delays the edge by two clocks; sample mid-bit.
            half_tick: Constant::new((clocks_per_bit as u64 / 2 - 1).into()),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, timer, bit_count, shift, valid_q, error_q, at_half, at_last);
        self.sync.clock.next = self.clock.val();
        // Stored inverted so that the flops' power-up zero reads as an idle line.
        self.sync.sig_in.next = !self.rx.val();
        self.data.next = self.shift.q.val();
        self.valid.next = self.valid_q.q.val();
        self.framing_error.next = self.error_q.q.val();
        self.valid_q.d.next = false;
        self.error_q.d.next = false;
        self.timer.d.next = self.timer.q.val() + 1;
        match self.state.q.val() {
            RxState::Idle => {
                self.timer.d.next = 0.into();
                if self.sync.sig_out.val() {
                    self.state.d.next = RxState::Start;
                }
            }
            RxState::Start => {
                if self.at_half.q.val() {
                    self.timer.d.next = 0.into();
                    self.bit_count.d.next = 0.into();
                    if !self.sync.sig_out.val() {
                        // A glitch, not a start bit.
                        self.state.d.next = RxState::Idle;
                    } else {
                        self.state.d.next = RxState::Data;
                    }
                }
            }
            RxState::Data => {
                if self.at_last.q.val() {
                    self.timer.d.next = 0.into();
                    self.shift.d.next = (self.shift.q.val() >> 1)
                        | (bit_cast::<8, 1>((!self.sync.sig_out.val()).into()) << 7);
                    self.bit_count.d.next = self.bit_count.q.val() + 1;
                    if self.bit_count.q.val() == 7 {
                        self.state.d.next = RxState::Stop;
                    }
                }
            }
            RxState::Stop => {
                if self.at_last.q.val() {
                    self.state.d.next = RxState::Idle;
                    if !self.sync.sig_out.val() {
                        self.valid_q.d.next = true;
                    } else {
                        self.error_q.d.next = true;
                    }
                }
            }
            _ => {
                self.state.d.next = RxState::Idle;
            }
        }
        if self.reset.val() {
            self.state.d.next = RxState::Idle;
        }
        self.at_half.d.next = self.timer.d.val() == self.half_tick.val();
        self.at_last.d.next = self.timer.d.val() == self.last_tick.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, uart_waveform, yosys_check};

    /// Feeds `line` to a receiver; returns the bytes and framing errors seen.
    fn receive(clocks_per_bit: u32, line: &[bool]) -> (Vec<u8>, usize) {
        let mut uut = UartRx::new(clocks_per_bit);
        uut.connect_all();
        let (mut bytes, mut errors) = (vec![], 0);
        for &level in line {
            uut.rx.next = level;
            tick(&mut uut, |u| &mut u.clock);
            if uut.valid.val() {
                bytes.push(uut.data.val().to_u8());
            }
            errors += uut.framing_error.val() as usize;
        }
        (bytes, errors)
    }

    const TEXT: &[u8] = &[0x00, 0xff, 0x55, 0xaa, 0x01, 0x80, 0xe3, 0x1c];

    #[test]
    fn receives_bytes_at_a_few_clocks_per_bit() {
        for cpb in [4, 5, 8, 16] {
            let (bytes, errors) = receive(cpb, &uart_waveform(TEXT, cpb as f64, 7));
            assert_eq!((bytes.as_slice(), errors), (TEXT, 0), "{cpb} clocks per bit");
        }
    }

    #[test]
    fn receives_at_the_board_divisor_100mhz_9600_baud() {
        let cpb =
            crate::common::params::board_clocks_per_bit(crate::common::params::BOARD_CLOCK_HZ, 9600) as u32;
        assert_eq!(cpb, 10417);
        let (bytes, errors) = receive(cpb, &uart_waveform(&[0xa5, 0x3c], cpb as f64, 100));
        assert_eq!((bytes, errors), (vec![0xa5, 0x3c], 0));
    }

    #[test]
    fn tolerates_three_percent_rate_error_both_ways() {
        for cpb in [16u32, 64] {
            for error in [-0.03, 0.03] {
                let period = cpb as f64 * (1.0 + error);
                let (bytes, errors) = receive(cpb, &uart_waveform(TEXT, period, 3));
                assert_eq!((bytes.as_slice(), errors), (TEXT, 0), "{cpb} cpb, {error:+}");
            }
        }
    }

    #[test]
    fn drops_a_byte_with_a_low_stop_bit() {
        let cpb = 8;
        let mut line = uart_waveform(&[0x42, 0x17, 0x99], cpb as f64, 5);
        // Pull the second byte's stop bit low.
        let stop = 5 + 10 * cpb + 9 * cpb;
        line[stop..stop + cpb].iter_mut().for_each(|l| *l = false);
        let (bytes, errors) = receive(cpb as u32, &line);
        assert_eq!((bytes, errors), (vec![0x42, 0x99], 1));
    }

    #[test]
    fn ignores_glitches_shorter_than_half_a_bit() {
        let cpb = 16;
        let mut line = vec![true; 40];
        line[10..14].iter_mut().for_each(|l| *l = false); // 4-clock glitch
        line.extend(uart_waveform(&[0x5a], cpb as f64, 10));
        let (bytes, errors) = receive(cpb as u32, &line);
        assert_eq!((bytes, errors), (vec![0x5a], 0));
    }

    /// The byte's pulse comes where the timing says, to the cycle: the
    /// synchroniser's two flops, half a bit to the start bit's middle, nine
    /// bits to the stop bit's middle, and the register behind the decision.
    #[test]
    fn valid_pulses_at_the_stop_bits_middle() {
        for cpb in [4usize, 5, 8, 16, 10417] {
            let lead = 7;
            let line = uart_waveform(&[0xc3], cpb as f64, lead);
            let mut uut = UartRx::new(cpb as u32);
            uut.connect_all();
            let mut pulses = vec![];
            for (t, &level) in line.iter().enumerate() {
                uut.rx.next = level;
                tick(&mut uut, |u| &mut u.clock);
                if uut.valid.val() {
                    pulses.push(t);
                }
            }
            let at = lead + 2 + cpb / 2 + 9 * cpb;
            assert_eq!(pulses, vec![at], "{cpb} clocks per bit");
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = UartRx::new(10417);
        uut.connect_all();
        yosys_check(&uut, "uart_rx");
    }
}
