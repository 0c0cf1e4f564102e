//! Message framer: pairs the UART's bytes into 16-bit messages (high byte
//! first) and times the line's silences. Both protocol parsers sit behind it
//! (through `session.rs`, their shared front end), so the framing rules of
//! docs/protocol.md live in this one place:
//!
//! * a message is two bytes, high byte first;
//! * when the line has been idle (no byte, no framing error) for
//!   `IDLE_TIMEOUT_BITS` bit times, a half message is dropped (`timeout`
//!   pulses; a byte or a framing error in that very cycle wins, since the
//!   line was not idle);
//! * a byte with a framing error still takes its place in the stream: the
//!   message it belonged to is dropped whole (its other byte too), so the
//!   next message pairs up as sent.

use crate::link::protocol::IDLE_TIMEOUT_BITS;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct MessageFramer {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Bytes from the UART receiver.
    pub rx_byte: Signal<In, Bits<8>>,
    pub rx_byte_valid: Signal<In, Bit>,
    /// Pulse: the receiver dropped a byte (low stop bit).
    pub rx_framing_error: Signal<In, Bit>,
    /// The last complete message, and a pulse when it arrives.
    pub message: Signal<Out, Bits<16>>,
    pub message_valid: Signal<Out, Bit>,
    /// Pulse: the line has just been idle for the timeout.
    pub timeout: Signal<Out, Bit>,
    /// A first byte is held, waiting for its second.
    pub half: Signal<Out, Bit>,
    high: DFF<Bits<8>>,
    have_high: DFF<Bit>,
    /// The high byte held stands for a byte lost to a framing error.
    high_lost: DFF<Bit>,
    message_q: DFF<Bits<16>>,
    message_valid_q: DFF<Bit>,
    idle: DFF<Bits<24>>,
    /// `idle` is one short of the timeout: a register set a cycle ahead, so
    /// that `timeout` starts from a flop and not a 24-bit compare (on the
    /// path into the session's refusal, it was a critical path). Always
    /// equal to `idle == idle_timeout - 1` (a formal invariant,
    /// hdl/formal/framer.v).
    idle_near: DFF<Bit>,
    idle_timeout: Constant<Bits<24>>,
    before_near: Constant<Bits<24>>,
}

impl MessageFramer {
    pub fn new(clocks_per_bit: u32) -> MessageFramer {
        MessageFramer::with_idle_cycles(IDLE_TIMEOUT_BITS as u64 * clocks_per_bit as u64)
    }

    /// A framer whose idle timeout is `cycles` clock cycles (the formal
    /// checks use a short one; the property does not depend on its length).
    pub fn with_idle_cycles(cycles: u64) -> MessageFramer {
        assert!(cycles >= 2, "the idle timeout must be at least 2 cycles");
        MessageFramer {
            clock: Default::default(),
            reset: Default::default(),
            rx_byte: Default::default(),
            rx_byte_valid: Default::default(),
            rx_framing_error: Default::default(),
            message: Default::default(),
            message_valid: Default::default(),
            timeout: Default::default(),
            half: Default::default(),
            high: Default::default(),
            have_high: Default::default(),
            high_lost: Default::default(),
            message_q: Default::default(),
            message_valid_q: Default::default(),
            idle: Default::default(),
            idle_near: Default::default(),
            idle_timeout: Constant::new(cycles.into()),
            before_near: Constant::new((cycles - 2).into()),
        }
    }
}

impl Logic for MessageFramer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            high,
            have_high,
            high_lost,
            message_q,
            message_valid_q,
            idle,
            idle_near
        );
        self.message.next = self.message_q.q.val();
        self.message_valid.next = self.message_valid_q.q.val();
        self.half.next = self.have_high.q.val();
        // A byte, or a byte lost to a framing error, in this very cycle means
        // the line was not idle.
        self.timeout.next = self.idle_near.q.val() & !self.rx_byte_valid.val() & !self.rx_framing_error.val();
        // `idle` counts up to `idle_timeout - 1` next cycle only from the
        // value before it, on a quiet line.
        self.idle_near.d.next = (self.idle.q.val() == self.before_near.val())
            & !self.rx_byte_valid.val()
            & !self.rx_framing_error.val();
        self.message_valid_q.d.next = false;

        if self.rx_byte_valid.val() {
            self.idle.d.next = 0.into();
            if self.have_high.q.val() {
                self.message_q.d.next =
                    (bit_cast::<16, 8>(self.high.q.val()) << 8) | bit_cast::<16, 8>(self.rx_byte.val());
                self.message_valid_q.d.next = !self.high_lost.q.val();
                self.have_high.d.next = false;
            } else {
                self.high.d.next = self.rx_byte.val();
                self.have_high.d.next = true;
            }
            self.high_lost.d.next = false;
        } else if self.idle.q.val() != self.idle_timeout.val() {
            self.idle.d.next = self.idle.q.val() + 1;
        }
        if self.timeout.val() {
            self.have_high.d.next = false;
            self.high_lost.d.next = false;
        }
        if self.rx_framing_error.val() {
            // Activity on the line: the idle time starts again, so a lost
            // byte held as half a message is dropped in its turn (found by
            // the formal check: without this, a lost byte after a timeout
            // was held for ever and shifted the next stream by a byte).
            self.idle.d.next = 0.into();
            self.have_high.d.next = !self.have_high.q.val();
            self.high_lost.d.next = !self.have_high.q.val();
        }
        if self.reset.val() {
            self.have_high.d.next = false;
            self.high_lost.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tick;

    const CPB: u32 = 4;

    /// Feeds events (Some(byte), or None for a byte lost to a framing error),
    /// each followed by `gap` idle cycles; returns the messages and timeouts seen.
    fn run(events: &[Option<u8>], gap: u32) -> (Vec<u16>, usize) {
        let timed: Vec<(u32, Option<u8>)> = events.iter().map(|&e| (gap, e)).collect();
        run_timed(0, &timed)
    }

    /// As `run`, after `lead` idle cycles, each event with its own gap after it.
    fn run_timed(lead: u32, events: &[(u32, Option<u8>)]) -> (Vec<u16>, usize) {
        let mut uut = MessageFramer::new(CPB);
        uut.connect_all();
        let (mut messages, mut timeouts) = (vec![], 0);
        let mut step = |uut: &mut MessageFramer| {
            tick(uut, |u| &mut u.clock);
            uut.rx_byte_valid.next = false;
            uut.rx_framing_error.next = false;
            if uut.message_valid.val() {
                messages.push(uut.message.val().to_u64() as u16);
            }
            timeouts += uut.timeout.val() as usize;
        };
        for _ in 0..lead {
            step(&mut uut);
        }
        for (gap, event) in events {
            match event {
                Some(b) => {
                    uut.rx_byte.next = (*b as u64).into();
                    uut.rx_byte_valid.next = true;
                }
                None => uut.rx_framing_error.next = true,
            }
            for _ in 0..*gap {
                step(&mut uut);
            }
        }
        (messages, timeouts)
    }

    #[test]
    fn pairs_bytes_high_first() {
        let (m, t) = run(&[Some(0xE0), Some(0x03), Some(0x12), Some(0x34)], 10 * CPB);
        assert_eq!((m, t), (vec![0xE003, 0x1234], 0));
    }

    #[test]
    fn a_silence_drops_a_half_message() {
        let timeout = IDLE_TIMEOUT_BITS * CPB;
        // A lone byte, the line idle past the timeout, then a whole message.
        let (m, t) = run(&[Some(0xAA), Some(0x12), Some(0x34)], timeout + 1);
        assert_eq!(t, 3, "one timeout after each byte");
        assert_eq!(m, vec![], "0x12 paired with nothing: each byte was alone");
        let (m, _) = run(&[Some(0xAA)], timeout + 1);
        assert!(m.is_empty());
        // Just inside the timeout the pair still forms.
        let (m, t) = run(&[Some(0x12), Some(0x34)], timeout - 1);
        assert_eq!((m, t), (vec![0x1234], 0));
    }

    #[test]
    fn a_lost_byte_drops_its_whole_message() {
        // First byte lost: its partner goes too.
        let (m, _) = run(&[None, Some(0x99), Some(0x12), Some(0x34)], 10 * CPB);
        assert_eq!(m, vec![0x1234]);
        // Second byte lost: the first goes, the next message pairs as sent.
        let (m, _) = run(&[Some(0x99), None, Some(0x12), Some(0x34)], 10 * CPB);
        assert_eq!(m, vec![0x1234]);
    }

    /// A byte lost on a line already idle past the timeout (noise, a cable
    /// plugged in) is dropped in its turn when the line stays quiet, so the
    /// next stream pairs up as sent. The formal check found this one: the
    /// idle count did not start again at a framing error.
    #[test]
    fn a_lost_byte_on_an_idle_line_is_dropped_in_its_turn() {
        let timeout = IDLE_TIMEOUT_BITS * CPB;
        let (m, t) = run_timed(
            timeout + 5,
            &[(timeout + 5, None), (10, Some(0x12)), (10, Some(0x34))],
        );
        assert_eq!(m, vec![0x1234]);
        assert_eq!(t, 2, "the silent line timed out, then the lost byte did");
    }
}
