//! The board glue around the core: the reset button's synchroniser, a short
//! power-on reset, and the eight LEDs.
//!
//! LED map (LED 0 is on pad J11, LED 7 on N14; see `bsp/README-bsp.md`):
//!
//! | LED | meaning |
//! |---|---|
//! | 0 | heartbeat: 1 Hz blink (0.5 s on, 0.5 s off) while the clock runs |
//! | 1 | receiving a board (phase 1) |
//! | 2 | solving (phase 2) |
//! | 3 | sending the reply (phase 3) |
//! | 4 | last outcome: solved |
//! | 5 | last outcome: contradiction |
//! | 6 | last outcome: stalled (line logic alone cannot finish it) |
//! | 7 | last outcome: over capacity (steady), malformed stream (fast blink) |
//!
//! Each phase LED stays lit at least [`STRETCH_TICKS`] ticks (100 ms on the
//! board) after its phase ends, so that a solve of a few microseconds still
//! shows. While the reset button is held (and during the power-on reset) all
//! eight LEDs light: a lamp test.

use nonogram_hdl::dnf::core::phase;
use nonogram_hdl::link::protocol::status::outcome;
use rust_hdl::prelude::*;

/// Clock cycles per LED tick on the board: 10 ms at 100 MHz.
pub const BOARD_TICK_CLOCKS: u32 = 1_000_000;

/// Ticks a phase LED stays lit after its phase ends (100 ms on the board).
pub const STRETCH_TICKS: u8 = 10;

/// Ticks per heartbeat period (1 s on the board); the LED is lit for the first half.
pub const HEARTBEAT_TICKS: u8 = 100;

/// Bit of the heartbeat tick counter that drives the fast blink (toggles
/// every 16 ticks: about 3 Hz on the board). Written as a literal in
/// `update`, since RustHDL emits a Rust constant's name into the Verilog.
pub const FAST_BLINK_BIT: usize = 4;

/// Clock cycles of the power-on reset after configuration.
pub const POR_CLOCKS: u32 = 15;

#[derive(LogicBlock)]
pub struct BoardGlue {
    pub clock: Signal<In, Clock>,
    /// The reset button, active low, asynchronous to `clock`.
    pub reset_n: Signal<In, Bit>,
    /// The core's state, see `NonogramCore`.
    pub phase: Signal<In, Bits<2>>,
    pub outcome: Signal<In, Bits<3>>,
    pub outcome_valid: Signal<In, Bit>,
    /// Synchronous, active-high reset for the core (registered).
    pub reset: Signal<Out, Bit>,
    /// The eight LEDs (registered).
    pub leds: Signal<Out, Bits<8>>,
    button: BitSynchronizer,
    por: DFF<Bits<4>>,
    reset_q: DFF<Bit>,
    prescaler: DFF<Bits<24>>,
    beat: DFF<Bits<7>>,
    stretch_rx: DFF<Bits<4>>,
    stretch_solve: DFF<Bits<4>>,
    stretch_tx: DFF<Bits<4>>,
    leds_q: DFF<Bits<8>>,
    last_prescale: Constant<Bits<24>>,
    last_beat: Constant<Bits<7>>,
    half_beat: Constant<Bits<7>>,
    stretch_load: Constant<Bits<4>>,
    por_done: Constant<Bits<4>>,
    receiving: Constant<Bits<2>>,
    solving: Constant<Bits<2>>,
    sending: Constant<Bits<2>>,
    solved: Constant<Bits<3>>,
    contradiction: Constant<Bits<3>>,
    stalled: Constant<Bits<3>>,
    over_capacity: Constant<Bits<3>>,
    malformed: Constant<Bits<3>>,
    info: Constant<Bits<3>>,
}

impl BoardGlue {
    /// Glue whose LED tick is `tick_clocks` clock cycles (the board uses
    /// [`BOARD_TICK_CLOCKS`]; simulations use a few).
    pub fn new(tick_clocks: u32) -> Self {
        assert!(
            (2..(1 << 24)).contains(&tick_clocks),
            "tick must be 2..2^24 clocks"
        );
        assert!(POR_CLOCKS < 16);
        Self {
            clock: Default::default(),
            reset_n: Default::default(),
            phase: Default::default(),
            outcome: Default::default(),
            outcome_valid: Default::default(),
            reset: Default::default(),
            leds: Default::default(),
            button: Default::default(),
            por: Default::default(),
            reset_q: Default::default(),
            prescaler: Default::default(),
            beat: Default::default(),
            stretch_rx: Default::default(),
            stretch_solve: Default::default(),
            stretch_tx: Default::default(),
            leds_q: Default::default(),
            last_prescale: Constant::new((tick_clocks as u64 - 1).into()),
            last_beat: Constant::new((HEARTBEAT_TICKS as u64 - 1).into()),
            half_beat: Constant::new((HEARTBEAT_TICKS as u64 / 2).into()),
            stretch_load: Constant::new((STRETCH_TICKS as u64).into()),
            por_done: Constant::new((POR_CLOCKS as u64).into()),
            receiving: Constant::new((phase::RECEIVING as u64).into()),
            solving: Constant::new((phase::SOLVING as u64).into()),
            sending: Constant::new((phase::SENDING as u64).into()),
            solved: Constant::new((outcome::SOLVED as u64).into()),
            contradiction: Constant::new((outcome::CONTRADICTION as u64).into()),
            stalled: Constant::new((outcome::STALLED as u64).into()),
            over_capacity: Constant::new((outcome::OVER_CAPACITY as u64).into()),
            malformed: Constant::new((outcome::MALFORMED as u64).into()),
            info: Constant::new((outcome::INFO as u64).into()),
        }
    }
}

impl Default for BoardGlue {
    fn default() -> Self {
        Self::new(BOARD_TICK_CLOCKS)
    }
}

impl Logic for BoardGlue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            por,
            reset_q,
            prescaler,
            beat,
            stretch_rx,
            stretch_solve,
            stretch_tx,
            leds_q
        );
        self.button.clock.next = self.clock.val();
        self.button.sig_in.next = self.reset_n.val();

        // Power-on reset: the flip-flops start at zero after configuration;
        // hold reset until `por` reaches `por_done`.
        if self.por.q.val() != self.por_done.val() {
            self.por.d.next = self.por.q.val() + 1;
        }
        self.reset_q.d.next = (!self.button.sig_out.val()) | (self.por.q.val() != self.por_done.val());
        self.reset.next = self.reset_q.q.val();

        // The LED tick and the heartbeat.
        self.prescaler.d.next = self.prescaler.q.val() + 1;
        if self.prescaler.q.val() == self.last_prescale.val() {
            self.prescaler.d.next = 0.into();
            self.beat.d.next = self.beat.q.val() + 1;
            if self.beat.q.val() == self.last_beat.val() {
                self.beat.d.next = 0.into();
            }
            if self.stretch_rx.q.val().any() {
                self.stretch_rx.d.next = self.stretch_rx.q.val() - 1;
            }
            if self.stretch_solve.q.val().any() {
                self.stretch_solve.d.next = self.stretch_solve.q.val() - 1;
            }
            if self.stretch_tx.q.val().any() {
                self.stretch_tx.d.next = self.stretch_tx.q.val() - 1;
            }
        }
        if self.phase.val() == self.receiving.val() {
            self.stretch_rx.d.next = self.stretch_load.val();
        }
        if self.phase.val() == self.solving.val() {
            self.stretch_solve.d.next = self.stretch_load.val();
        }
        if self.phase.val() == self.sending.val() {
            self.stretch_tx.d.next = self.stretch_load.val();
        }

        // Malformed, and codes the LEDs do not know, blink LED 7; INFO (the
        // answer to a capability query) lights no outcome LED.
        self.leds_q.d.next = bit_cast::<8, 1>((self.beat.q.val() < self.half_beat.val()).into())
            | (bit_cast::<8, 1>(self.stretch_rx.q.val().any().into()) << 1)
            | (bit_cast::<8, 1>(self.stretch_solve.q.val().any().into()) << 2)
            | (bit_cast::<8, 1>(self.stretch_tx.q.val().any().into()) << 3)
            | (bit_cast::<8, 1>(
                (self.outcome_valid.val() & (self.outcome.val() == self.solved.val())).into(),
            ) << 4)
            | (bit_cast::<8, 1>(
                (self.outcome_valid.val() & (self.outcome.val() == self.contradiction.val())).into(),
            ) << 5)
            | (bit_cast::<8, 1>(
                (self.outcome_valid.val() & (self.outcome.val() == self.stalled.val())).into(),
            ) << 6)
            | (bit_cast::<8, 1>(
                (self.outcome_valid.val()
                    & ((self.outcome.val() == self.over_capacity.val())
                        | (((self.outcome.val() == self.malformed.val())
                            | (self.outcome.val() > self.info.val()))
                            & self.beat.q.val().get_bit(4))))
                .into(),
            ) << 7);
        if self.reset_q.q.val() {
            // Lamp test while reset is held; the stretchers and the
            // heartbeat restart.
            self.leds_q.d.next = 0xFF.into();
            self.stretch_rx.d.next = 0.into();
            self.stretch_solve.d.next = 0.into();
            self.stretch_tx.d.next = 0.into();
        }
        self.leds.next = self.leds_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: u32 = 4;

    fn glue() -> BoardGlue {
        let mut g = BoardGlue::new(TICK);
        g.connect_all();
        g.reset_n.next = true;
        g
    }

    fn step(g: &mut BoardGlue, cycles: usize) {
        for _ in 0..2 * cycles {
            g.clock.next = !g.clock.val();
            assert!(simulate(g, 1000));
        }
    }

    fn leds(g: &BoardGlue) -> u8 {
        g.leds.val().to_u8()
    }

    #[test]
    fn power_on_reset_then_the_button_resets_and_lights_every_led() {
        let mut g = glue();
        step(&mut g, 2);
        assert!(g.reset.val(), "power-on reset");
        step(&mut g, POR_CLOCKS as usize + 2);
        assert!(!g.reset.val());
        step(&mut g, 2);
        assert_ne!(leds(&g), 0xFF);
        g.reset_n.next = false;
        // Two synchroniser flops, the registered reset, then the LED register.
        step(&mut g, 3);
        assert!(g.reset.val());
        step(&mut g, 1);
        assert_eq!(leds(&g), 0xFF, "lamp test");
        g.reset_n.next = true;
        step(&mut g, 5);
        assert!(!g.reset.val());
        assert_ne!(leds(&g), 0xFF);
    }

    #[test]
    fn the_heartbeat_blinks_once_per_period() {
        let mut g = glue();
        step(&mut g, 20);
        let mut trace = vec![];
        for _ in 0..2 * HEARTBEAT_TICKS as usize {
            step(&mut g, TICK as usize);
            trace.push(leds(&g) & 1);
        }
        let rises = trace.windows(2).filter(|w| w == &[0, 1]).count();
        assert_eq!(rises, 2, "{trace:?}");
        let lit = trace.iter().filter(|&&b| b == 1).count();
        assert!((95..=105).contains(&lit), "lit {lit} of 200 ticks");
        assert_eq!(leds(&g) & 0xFE, 0, "nothing else lit when idle");
    }

    #[test]
    fn a_phase_of_one_cycle_shows_for_the_stretch() {
        let mut g = glue();
        step(&mut g, 20);
        for (p, led) in [
            (phase::RECEIVING, 0x02u8),
            (phase::SOLVING, 0x04),
            (phase::SENDING, 0x08),
        ] {
            g.phase.next = (p as u64).into();
            step(&mut g, 1);
            g.phase.next = 0.into();
            step(&mut g, 2);
            assert_eq!(leds(&g) & 0x0E, led);
            step(&mut g, (STRETCH_TICKS as usize - 1) * TICK as usize - 3);
            assert_eq!(leds(&g) & 0x0E, led, "still lit near the stretch's end");
            step(&mut g, 2 * TICK as usize + 2);
            assert_eq!(leds(&g) & 0x0E, 0, "dark after it");
        }
    }

    #[test]
    fn each_outcome_has_its_led() {
        let mut g = glue();
        step(&mut g, 20);
        g.outcome_valid.next = true;
        for (code, led) in [
            (outcome::SOLVED, 0x10u8),
            (outcome::CONTRADICTION, 0x20),
            (outcome::STALLED, 0x40),
            (outcome::OVER_CAPACITY, 0x80),
            (outcome::INFO, 0x00),
        ] {
            g.outcome.next = (code as u64).into();
            step(&mut g, 2);
            assert_eq!(leds(&g) & 0xF0, led, "outcome {code}");
        }
        // Malformed blinks LED 7.
        g.outcome.next = (outcome::MALFORMED as u64).into();
        let mut seen = [false; 2];
        for _ in 0..64 {
            step(&mut g, TICK as usize);
            assert_eq!(leds(&g) & 0x70, 0);
            seen[(leds(&g) >> 7) as usize] = true;
        }
        assert_eq!(seen, [true, true]);
        g.outcome_valid.next = false;
        g.outcome.next = (outcome::SOLVED as u64).into();
        step(&mut g, 2);
        assert_eq!(leds(&g) & 0xF0, 0, "no outcome while not valid");
    }

    #[test]
    fn the_glue_synthesises_without_latches() {
        let mut g = BoardGlue::default();
        g.connect_all();
        nonogram_hdl::bench::yosys_check(&g, "glue");
    }
}
