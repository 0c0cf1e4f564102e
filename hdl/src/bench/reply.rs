//! A bench for the reply blocks (`dnf/reply.rs`, protocol v1, and
//! `clue/reply.rs`, protocol v2), driven as their core drives them: a
//! verdict, refusal or query pulse with its values (noise on those inputs in
//! every other cycle: the block must latch them), and a transmitter that
//! stays busy for a random while after each byte. Each block's bench answers
//! its board-memory port and gives the reply the board model expects; the
//! checks here are shared: the bytes exactly, `busy` until the last byte,
//! and an abort anywhere leaves whole messages that begin the reply, then
//! the next reply whole.

use crate::bench::xorshift;
use crate::link::protocol::Message;
use rust_hdl::prelude::*;
use std::fmt::Debug;

/// What begins a reply: a pulse for one cycle, with its values.
#[derive(Clone, Debug)]
pub(crate) enum Start<V> {
    Board(V),
    Refusal(u8, u8),
    Query,
}

/// A reproducible noise source.
pub(crate) type Noise = Box<dyn FnMut() -> u64>;

pub(crate) fn noise(seed: u64) -> Noise {
    Box::new(xorshift(seed))
}

/// `x`'s low N bits as a signal value.
pub(crate) fn bits<const N: usize>(x: u64) -> Bits<N> {
    (x & (u64::MAX >> (64 - N))).into()
}

/// A UART transmitter as the reply sees it: ready until it takes a byte
/// (`start` while `ready`), then not ready for a random number of cycles:
/// none (it could take bytes back to back), a few, about a byte time at 4
/// clocks a bit, or anything up to 80.
pub(crate) struct Transmitter {
    noise: Noise,
    busy_for: u64,
    pub bytes: Vec<u8>,
}

impl Transmitter {
    pub fn new(seed: u64) -> Transmitter {
        Transmitter {
            noise: noise(seed),
            busy_for: 0,
            bytes: vec![],
        }
    }

    pub fn ready(&self) -> bool {
        self.busy_for == 0
    }

    /// The clock edge, with what the reply drove in the cycle before it.
    pub fn clock(&mut self, start: bool, data: u8) {
        if self.busy_for > 0 {
            assert!(
                !start,
                "a start while the transmitter is busy: byte {data:#04x} lost after {} bytes",
                self.bytes.len()
            );
            self.busy_for -= 1;
        } else if start {
            self.bytes.push(data);
            let r = (self.noise)();
            self.busy_for = match r % 8 {
                0 => 0,
                1..=3 => 1 + (r >> 8) % 4,
                4 | 5 => 39,
                _ => (r >> 8) % 81,
            };
        }
    }
}

/// A reply block in its bench.
pub(crate) trait ReplyBench {
    type Verdict: Clone + Debug;
    /// One clock cycle: `start` pulsed with its values, `abort` high.
    fn cycle(&mut self, start: Option<&Start<Self::Verdict>>, abort: bool);
    /// The bytes the block must send for `start`.
    fn expected(start: &Start<Self::Verdict>) -> Vec<u8>;
    fn tx(&self) -> &Transmitter;
    /// The block's `busy` in the last cycle.
    fn busy(&self) -> bool;
    /// Checks after a whole reply to `start` (the bench's ports).
    fn after_reply(&self, _start: &Start<Self::Verdict>, _what: &str) {}
}

/// `got` is `expected`, or a panic that names the first message that differs.
pub(crate) fn assert_bytes(got: &[u8], expected: &[u8], what: &str) {
    if got == expected {
        return;
    }
    let at = got
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(expected.len()))
        & !1;
    let show = |bytes: &[u8]| match bytes.get(at..at + 2) {
        Some(b) => {
            let m = Message::from_bytes([b[0], b[1]]);
            format!(
                "{:02x} {:02x} (code {:03b} index {} value {})",
                b[0],
                b[1],
                m.code(),
                m.index(),
                m.value() as u8
            )
        }
        None => "nothing".to_string(),
    };
    panic!(
        "{what}: {} bytes sent, {} expected; at byte {at} (message {}) sent {}, expected {}",
        got.len(),
        expected.len(),
        at / 2,
        show(got),
        show(expected)
    );
}

/// Cycles of quiet after a reply in which nothing more may come.
const AFTER: u64 = 100;

/// Pulses `start`, with `abort` high in its cycle or not (the parser sends
/// a query with an abort), runs to the reply's last byte and checks the
/// bytes, and that `busy` was high until that byte was handed over and low
/// after it.
pub(crate) fn check_reply<B: ReplyBench>(b: &mut B, start: &Start<B::Verdict>, abort: bool, what: &str) {
    let expected = B::expected(start);
    let from = b.tx().bytes.len();
    b.cycle(Some(start), abort);
    let mut cycles = 0u64;
    loop {
        b.cycle(None, false);
        assert!(
            b.busy(),
            "{what}: busy fell after {} bytes",
            b.tx().bytes.len() - from
        );
        if b.tx().bytes.len() >= from + expected.len() {
            break;
        }
        cycles += 1;
        assert!(
            cycles < 100 * (expected.len() as u64 + 10),
            "{what}: the reply stopped after {} of {} bytes",
            b.tx().bytes.len() - from,
            expected.len()
        );
    }
    for _ in 0..AFTER {
        b.cycle(None, false);
        assert!(!b.busy(), "{what}: busy after the last byte");
    }
    assert_bytes(&b.tx().bytes[from..], &expected, what);
    b.after_reply(start, what);
}

/// Starts a reply to `first`, aborts it `at` cycles after the pulse, and
/// `delay` cycles after the abort (0: in the abort's cycle) pulses `then`
/// (a query later has an abort of its own). What was sent of the first
/// reply must be whole messages that begin it, ending at the message that
/// was on its way at the abort (or made in its cycle); then `then`'s reply
/// whole (none for a verdict in the abort's cycle: that verdict is the
/// abandoned board's).
pub(crate) fn check_abort<B: ReplyBench>(
    b: &mut B,
    first: &Start<B::Verdict>,
    at: u64,
    then: &Start<B::Verdict>,
    delay: u64,
    what: &str,
) {
    let full = B::expected(first);
    let from = b.tx().bytes.len();
    b.cycle(Some(first), false);
    for _ in 0..at {
        b.cycle(None, false);
    }
    let before = b.tx().bytes.len() - from;
    let query = matches!(then, Start::Query);
    if delay == 0 {
        b.cycle(Some(then), true);
    } else {
        b.cycle(None, true);
        for _ in 1..delay {
            b.cycle(None, false);
        }
        b.cycle(Some(then), query);
    }
    let second = match then {
        Start::Board(_) if delay == 0 => vec![],
        _ => B::expected(then),
    };
    let mut quiet = 0;
    let mut cycles = 0;
    while quiet < AFTER {
        b.cycle(None, false);
        quiet = if b.busy() || !b.tx().ready() { 0 } else { quiet + 1 };
        cycles += 1;
        assert!(
            cycles < 100 * (full.len() + second.len()) as u64 + 1000,
            "{what}: never quiet"
        );
    }
    let got = &b.tx().bytes[from..];
    assert!(
        got.len() >= second.len(),
        "{what}: {} bytes sent in all",
        got.len()
    );
    let (prefix, rest) = got.split_at(got.len() - second.len());
    assert_bytes(rest, &second, &format!("{what}: the reply after the abort"));
    assert!(
        prefix.len() % 2 == 0 && full.starts_with(prefix),
        "{what}: the aborted reply's {} bytes are not whole messages beginning it",
        prefix.len()
    );
    // The message on its way: the rest of a half-sent one, or one whole.
    let limit = if before % 2 == 1 { before + 1 } else { before + 2 };
    assert!(
        prefix.len() <= limit.min(full.len()),
        "{what}: {} bytes of the aborted reply, {before} were sent before the abort",
        prefix.len()
    );
}
