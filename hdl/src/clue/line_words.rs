//! The visited line's words: its Known word as read, what the visit leaves
//! (Known, Value), and `fresh`, the cells it fixed that the crossing lines
//! do not have yet, with the [`FreshFinder`] that picks them one by one.
//!
//! Each wide register loads on a pulse that comes from a flip-flop (decoded
//! from the solver's state, their enables cost the clue bitstream 100 MHz):
//! * `load_known`: the Known word on the board memory's port (a visit's
//!   Load, the search's guess);
//! * `solved`: the line solver's result (its `done`): Known where exactly
//!   one of fill and empty is possible, Value where fill is; `fresh` is
//!   what it added to the Known word read;
//! * `crossing`: the copied cell leaves `fresh`;
//! * `scan_load`: the search's scan takes the row's unknown cells (of the
//!   board's columns) into `fresh`, for the finder to find the first;
//! * `guess_load`: the guessed cell (`line_bit`) is set in the row's words,
//!   to `guess_value`, and is the only fresh cell.

use crate::clue::fresh_finder::FreshFinder;
use crate::common::line_reg::CellReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct LineWords {
    pub clock: Signal<In, Clock>,
    /// Lines of at most 32 cells (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// The board memory's read port (Known, or the row's Value for a guess).
    pub read_data: Signal<In, Bits<64>>,
    pub load_known: Signal<In, Bit>,
    pub solved: Signal<In, Bit>,
    pub can_fill: Signal<In, Bits<64>>,
    pub can_empty: Signal<In, Bits<64>>,
    pub crossing: Signal<In, Bit>,
    pub scan_load: Signal<In, Bit>,
    pub column_mask: Signal<In, Bits<64>>,
    pub guess_load: Signal<In, Bit>,
    pub guess_value: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub line_known: Signal<Out, Bits<64>>,
    pub new_known: Signal<Out, Bits<64>>,
    pub new_value: Signal<Out, Bits<64>>,
    /// `fresh` has a bit, a cycle late (the 64-bit OR is off the solver's
    /// path into its state: it decides a cycle after `fresh` changed).
    pub fresh_any: Signal<Out, Bit>,
    /// The finder's answers (see `FreshFinder`).
    pub lowest_cell: Signal<Out, Bits<6>>,
    pub copied_bit: Signal<Out, Bits<64>>,
    pub copied_value: Signal<Out, Bit>,
    line_known_q: CellReg,
    new_known_q: CellReg,
    new_value_q: CellReg,
    fresh: CellReg,
    fresh_any_q: DFF<Bit>,
    finder: FreshFinder,
    solved_known: Signal<Local, Bits<64>>,
}

impl Logic for LineWords {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            line_known_q,
            new_known_q,
            new_value_q,
            fresh,
            fresh_any_q
        );
        self.line_known_q.narrow.next = self.narrow.val();
        self.new_known_q.narrow.next = self.narrow.val();
        self.new_value_q.narrow.next = self.narrow.val();
        self.fresh.narrow.next = self.narrow.val();
        self.finder.clock.next = self.clock.val();
        self.finder.fresh.next = self.fresh.q.val();
        self.finder.value.next = self.new_value_q.q.val();
        self.lowest_cell.next = self.finder.lowest_cell.val();
        self.copied_bit.next = self.finder.copied_bit.val();
        self.copied_value.next = self.finder.copied_value.val();
        self.line_known.next = self.line_known_q.q.val();
        self.new_known.next = self.new_known_q.q.val();
        self.new_value.next = self.new_value_q.q.val();
        self.fresh_any.next = self.fresh_any_q.q.val();
        self.fresh_any_q.d.next = self.fresh.q.val().any();

        if self.load_known.val() {
            self.line_known_q.d.next = self.read_data.val();
        }
        self.solved_known.next = self.can_fill.val() ^ self.can_empty.val();
        if self.solved.val() {
            self.new_known_q.d.next = self.solved_known.val();
            self.new_value_q.d.next = self.can_fill.val() & !self.can_empty.val();
            self.fresh.d.next = self.solved_known.val() & !self.line_known_q.q.val();
        }
        if self.crossing.val() {
            self.fresh.d.next = self.fresh.q.val() & !self.finder.copied_bit.val();
        }
        if self.scan_load.val() {
            self.fresh.d.next = !self.read_data.val() & self.column_mask.val();
        }
        if self.guess_load.val() {
            self.new_known_q.d.next = self.line_known_q.q.val() | self.line_bit.val();
            self.new_value_q.d.next = self.read_data.val() & !self.line_bit.val();
            if self.guess_value.val() {
                self.new_value_q.d.next = self.read_data.val() | self.line_bit.val();
            }
            self.fresh.d.next = self.line_bit.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Random words and pulses, one at a time or none, every cycle: the
    /// registers follow the same loads in plain Rust, and `crossing` takes
    /// out the finder's copied bit (the lowest of `fresh` two cycles ago).
    #[test]
    fn the_words_load_as_their_pulses_say() {
        let mut uut = LineWords::default();
        uut.connect_all();
        let mut rng = Rng(0x6a09_e667_f3bc_c908);
        let (mut known, mut new_known, mut new_value, mut fresh) = (0u64, 0u64, 0u64, 0u64);
        // `fresh` in each cycle so far.
        let mut history: Vec<u64> = vec![];
        let lowest = |w: u64| w & w.wrapping_neg();
        let mut crossings = 0;
        for cycle in 0..4000 {
            history.push(fresh);
            let read = rng.next_u64();
            let (fill, empty, mask) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
            let bit = 1u64 << rng.below(64);
            let value = rng.below(2) == 1;
            let pulse = rng.below(6);
            uut.read_data.next = read.into();
            uut.can_fill.next = fill.into();
            uut.can_empty.next = empty.into();
            uut.column_mask.next = mask.into();
            uut.line_bit.next = bit.into();
            uut.guess_value.next = value;
            uut.load_known.next = pulse == 1;
            uut.solved.next = pulse == 2;
            uut.crossing.next = pulse == 3;
            uut.scan_load.next = pulse == 4;
            uut.guess_load.next = pulse == 5;
            let copied = if cycle >= 2 { lowest(history[cycle - 2]) } else { 0 };
            assert!(simulate(&mut uut, 10));
            assert_eq!(uut.copied_bit.val().to_u64(), copied, "cycle {cycle}");
            match pulse {
                1 => known = read,
                2 => {
                    (new_known, new_value) = (fill ^ empty, fill & !empty);
                    fresh = (fill ^ empty) & !known;
                }
                3 => {
                    fresh &= !copied;
                    crossings += (copied != 0) as usize;
                }
                4 => fresh = !read & mask,
                5 => {
                    new_known = known | bit;
                    new_value = if value { read | bit } else { read & !bit };
                    fresh = bit;
                }
                _ => {}
            }
            tick(&mut uut, |u| &mut u.clock);
            assert_eq!(uut.line_known.val().to_u64(), known, "cycle {cycle}");
            assert_eq!(uut.new_known.val().to_u64(), new_known, "cycle {cycle}");
            assert_eq!(uut.new_value.val().to_u64(), new_value, "cycle {cycle}");
            let last = history[cycle];
            let cell = if last == 0 {
                0
            } else {
                last.trailing_zeros() as u64
            };
            assert_eq!(uut.lowest_cell.val().to_u64(), cell, "cycle {cycle}");
            assert_eq!(uut.fresh_any.val(), last != 0, "cycle {cycle}");
        }
        assert!(crossings > 300, "{crossings} crossings took a bit out");
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = LineWords::default();
        uut.connect_all();
        yosys_check(&uut, "line_words");
    }
}
