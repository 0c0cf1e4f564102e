//! Drives a core cycle by cycle from plain Rust: bytes in become levels on
//! its `rx` pin, levels on its `tx` pin become bytes out. The cores'
//! testbenches and the simulated board (`nonogram-sim`) all run on this.

use crate::bench::tick;
use crate::clue::core::{ClueCore, ProbingCore};
use crate::dnf::core::{phase, NonogramCore};
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// A core behind a UART: the DNF engine's ([`NonogramCore`]) or the clue
/// engine's ([`ClueCore`]).
pub trait SerialCore: Block {
    fn with_clocks_per_bit(clocks_per_bit: u32) -> Self;
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    fn rx(&mut self) -> &mut Signal<In, Bit>;
    fn reset(&mut self) -> &mut Signal<In, Bit>;
    fn tx(&self) -> bool;
    /// One of [`phase`].
    fn phase(&self) -> u8;
    /// The flash image the core holds `SB_WARMBOOT`'s BOOT high for.
    fn boot(&self) -> Option<u8>;
}

macro_rules! serial_core {
    ($core:ty) => {
        impl SerialCore for $core {
            fn with_clocks_per_bit(clocks_per_bit: u32) -> Self {
                <$core>::new(clocks_per_bit)
            }
            fn clock(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }
            fn rx(&mut self) -> &mut Signal<In, Bit> {
                &mut self.rx
            }
            fn reset(&mut self) -> &mut Signal<In, Bit> {
                &mut self.reset
            }
            fn tx(&self) -> bool {
                self.tx.val()
            }
            fn phase(&self) -> u8 {
                self.phase.val().to_u8()
            }
            fn boot(&self) -> Option<u8> {
                self.boot.val().then(|| self.boot_image.val().to_u8())
            }
        }
    };
}
serial_core!(NonogramCore);
serial_core!(ClueCore);
serial_core!(ProbingCore);
serial_core!(crate::colour::core::ColourCore);

/// Cycles without activity after which the core is taken to be waiting.
const CALM_CYCLES: u64 = 64;

pub struct CoreDriver<C: SerialCore = NonogramCore> {
    core: C,
    clocks_per_bit: u32,
    /// Clocks per bit of the bytes sent to the core (the host's clock may be off).
    send_period: f64,
    /// Bytes for the rx pin, each with its stop bit's level.
    to_core: VecDeque<(u8, bool)>,
    /// The frame on the rx pin: its 10 levels and the clocks since it began.
    frame: Option<([bool; 10], u64)>,
    from_core: Vec<u8>,
    /// Software receiver of the core's tx pin: clocks since the start bit fell.
    listening: Option<u64>,
    listen_bits: u16,
    framing_errors: u64,
    cycles: u64,
    /// Cycles since anything moved on either pin or the core was busy.
    calm: u64,
}

impl CoreDriver {
    /// The DNF core with its UART at `clocks_per_bit`, held in reset for a cycle.
    pub fn new(clocks_per_bit: u32) -> CoreDriver {
        CoreDriver::with_core(clocks_per_bit)
    }
}

impl<C: SerialCore> CoreDriver<C> {
    /// A core of type `C` with its UART at `clocks_per_bit`, held in reset for a cycle.
    pub fn with_core(clocks_per_bit: u32) -> CoreDriver<C> {
        let mut core = C::with_clocks_per_bit(clocks_per_bit);
        core.connect_all();
        let mut driver = CoreDriver {
            core,
            clocks_per_bit,
            send_period: clocks_per_bit as f64,
            to_core: VecDeque::new(),
            frame: None,
            from_core: Vec::new(),
            listening: None,
            listen_bits: 0,
            framing_errors: 0,
            cycles: 0,
            calm: 0,
        };
        driver.core.rx().next = true;
        driver.core.reset().next = true;
        tick(&mut driver.core, C::clock);
        driver.core.reset().next = false;
        driver
    }

    /// Holds the core's reset (the board's button) high or releases it.
    pub fn set_reset(&mut self, on: bool) {
        self.core.reset().next = on;
    }

    /// Sends the host's bytes at a rate off by `error` (for example 0.03 = 3 % slow).
    pub fn set_send_rate_error(&mut self, error: f64) {
        self.send_period = self.clocks_per_bit as f64 * (1.0 + error);
    }

    pub fn clocks_per_bit(&self) -> u32 {
        self.clocks_per_bit
    }

    /// Queues bytes for the core's rx pin.
    pub fn send(&mut self, bytes: &[u8]) {
        self.to_core.extend(bytes.iter().map(|&b| (b, true)));
    }

    /// Queues a byte whose stop bit is low: the core's receiver drops it as
    /// a framing error. (Leave the line idle after it: the low stop bit
    /// runs into whatever follows.)
    pub fn send_with_framing_error(&mut self, byte: u8) {
        self.to_core.push_back((byte, false));
    }

    /// Takes the bytes the core has sent so far.
    pub fn take_received(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.from_core)
    }

    /// Clock cycles run since the driver was made.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Bytes from the core with a bad stop bit (never expected).
    pub fn framing_errors(&self) -> u64 {
        self.framing_errors
    }

    /// What the core is doing (see [`phase`]).
    pub fn phase(&self) -> u8 {
        self.core.phase()
    }

    /// The flash image the core asked `SB_WARMBOOT` to boot, if it did.
    pub fn boot(&self) -> Option<u8> {
        self.core.boot()
    }

    /// Sends `bytes`, lets the line go idle past the idle timeout, and
    /// returns what the core said. Panics if it is still busy after
    /// `max_cycles`.
    pub fn answer(&mut self, bytes: &[u8], max_cycles: u64) -> Vec<u8> {
        self.send(bytes);
        let cpb = self.clocks_per_bit as u64;
        let idle = (crate::link::protocol::IDLE_TIMEOUT_BITS as u64 + 4) * cpb;
        let mut out = vec![];
        let mut cycles = 0;
        loop {
            self.step();
            cycles += 1;
            out.extend(self.take_received());
            if self.quiet() && cycles > 10 * cpb * bytes.len() as u64 + idle {
                return out;
            }
            assert!(
                cycles < max_cycles,
                "the core is still busy after {max_cycles} cycles"
            );
        }
    }

    /// True when stepping would change nothing but the core's idle timers:
    /// no byte to send or being sent, nothing being received, and the core
    /// neither solving nor sending for a while (the last byte in takes a few
    /// cycles to become a message, and a message to become a solve).
    pub fn quiet(&self) -> bool {
        self.to_core.is_empty() && self.calm >= CALM_CYCLES
    }

    /// Runs one clock cycle.
    pub fn step(&mut self) {
        // Host → core: the rx pin.
        if self.frame.is_none() {
            if let Some((byte, stop)) = self.to_core.pop_front() {
                let mut levels = [true; 10];
                levels[0] = false;
                levels[9] = stop;
                for (i, level) in levels[1..9].iter_mut().enumerate() {
                    *level = byte >> i & 1 == 1;
                }
                self.frame = Some((levels, 0));
            }
        }
        self.core.rx().next = match &mut self.frame {
            Some((levels, t)) => {
                let bit = (*t as f64 / self.send_period) as usize;
                *t += 1;
                let level = levels[bit.min(9)];
                if (*t as f64) >= 10.0 * self.send_period {
                    self.frame = None;
                }
                level
            }
            None => true,
        };
        tick(&mut self.core, C::clock);
        self.cycles += 1;
        let busy = self.frame.is_some()
            || self.listening.is_some()
            || !matches!(self.phase(), phase::IDLE | phase::RECEIVING);
        self.calm = if busy { 0 } else { self.calm + 1 };
        // Core → host: sample the tx pin mid-bit.
        let level = self.core.tx();
        let cpb = self.clocks_per_bit as u64;
        match self.listening {
            None if !level => {
                self.listening = Some(0);
                self.listen_bits = 0;
            }
            None => {}
            Some(t) => {
                let t = t + 1;
                self.listening = Some(t);
                if t >= cpb / 2 && (t - cpb / 2) % cpb == 0 {
                    let bit = (t - cpb / 2) / cpb; // 1..=9 after the start bit
                    if (1..=8).contains(&bit) {
                        self.listen_bits |= (level as u16) << (bit - 1);
                    } else if bit == 9 {
                        if level {
                            self.from_core.push(self.listen_bits as u8);
                        } else {
                            self.framing_errors += 1;
                        }
                        self.listening = None;
                    }
                }
            }
        }
    }

    /// Runs until the core has sent a complete reply (up to END_BOARD) or
    /// `max_cycles` pass; returns the reply's bytes, or `None` on time-out.
    pub fn run_until_reply(&mut self, max_cycles: u64) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        for _ in 0..max_cycles {
            self.step();
            if self.from_core.is_empty() {
                continue;
            }
            bytes.append(&mut self.from_core);
            if let Ok((_, used)) = crate::clue::clue_protocol::decode_any_reply(&bytes) {
                self.from_core = bytes.split_off(used);
                return Some(bytes);
            }
        }
        self.from_core = bytes;
        None
    }
}
