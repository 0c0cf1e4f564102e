//! The colour engine's visited line: its cells as read (`before`), which of
//! them the line solver narrowed (`fresh`), and, for each narrowed cell in
//! turn, lowest first, the crossing line's word with that cell written in.
//!
//! A cell is five colour planes, as the line solver takes it: bits
//! 32c..32c + 31 of a line word say which cells may have colour c.
//!
//! Timing, from the solver's steps:
//! * `load` (the cycle the board's word arrives): `before`;
//! * `solved` (the line solver's `done`): `fresh` = the cells whose colours
//!   changed. The [`FreshFinder`] numbers its lowest cell a cycle later
//!   (`lowest_cell`), and gives it as a bit (`copied_bit`) a cycle after
//!   that;
//! * `crossing` (the cycle the crossing line's word arrives, `copied_bit`
//!   valid): `crossed` takes that word with the cell's new colours (from
//!   the line solver's `after`) in bit `line_bit` of each plane, `lost` takes
//!   how many colours the cell lost, and the cell leaves `fresh`. Both are
//!   registered, for the next cycle's write.

use crate::clue::fresh_finder::FreshFinder;
use crate::colour::line_solver::{COLOURS, MAX_CELLS, PLANE_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ColourLineCells {
    pub clock: Signal<In, Clock>,
    /// Pulse: take the line's word (`word`).
    pub load: Signal<In, Bit>,
    pub word: Signal<In, Bits<PLANE_BITS>>,
    /// The visited line's bit in its crossing lines (one-hot, held through
    /// the visit).
    pub line_bit: Signal<In, Bits<MAX_CELLS>>,
    /// Pulse: the line solver's result (`after`) is in.
    pub solved: Signal<In, Bit>,
    pub after: Signal<In, Bits<PLANE_BITS>>,
    /// Pulse: `word` is the crossing line of `copied_bit`'s cell.
    pub crossing: Signal<In, Bit>,
    /// The line's cells as read.
    pub before: Signal<Out, Bits<PLANE_BITS>>,
    /// Some cell is still to copy (valid the cycle after `solved` or
    /// `crossing`).
    pub fresh_any: Signal<Out, Bit>,
    /// The lowest cell still to copy, as a number (see `FreshFinder`).
    pub lowest_cell: Signal<Out, Bits<5>>,
    /// The copied cell as a bit (crossing lines are dirty by it).
    pub copied_bit: Signal<Out, Bits<MAX_CELLS>>,
    /// A cycle after `crossing`: the crossing word to write, and the
    /// colours the cell lost (1..=4).
    pub crossed: Signal<Out, Bits<PLANE_BITS>>,
    pub lost: Signal<Out, Bits<3>>,
    finder: FreshFinder,
    before_q: DFF<Bits<PLANE_BITS>>,
    fresh: DFF<Bits<MAX_CELLS>>,
    crossed_q: DFF<Bits<PLANE_BITS>>,
    lost_q: DFF<Bits<3>>,
    changed: Signal<Local, Bits<MAX_CELLS>>,
    cell_before: Signal<Local, Bits<8>>,
    cell_after: Signal<Local, Bits<8>>,
    count_before: Signal<Local, Bits<3>>,
    count_after: Signal<Local, Bits<3>>,
    crossed_word: Signal<Local, Bits<PLANE_BITS>>,
}

impl Logic for ColourLineCells {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, before_q, fresh, crossed_q, lost_q);
        self.finder.clock.next = self.clock.val();
        self.finder.fresh.next = bit_cast::<64, 32>(self.fresh.q.val());
        self.finder.value.next = 0.into();
        self.lowest_cell.next = self.finder.lowest_cell.val().get_bits::<5>(0);
        self.copied_bit.next = self.finder.copied_bit.val().get_bits::<32>(0);

        if self.load.val() {
            self.before_q.d.next = self.word.val();
        }
        // A cell changed if any of its planes did.
        self.changed.next = 0.into();
        for c in 0..COLOURS {
            self.changed.next = self.changed.val()
                | (self.before_q.q.val().get_bits::<32>(32 * c) ^ self.after.val().get_bits::<32>(32 * c));
        }
        if self.solved.val() {
            self.fresh.d.next = self.changed.val();
        }

        // The copied cell's colours, before and after, and the crossing
        // word with its new colours in the line's bit.
        self.cell_before.next = 0.into();
        self.cell_after.next = 0.into();
        for c in 0..COLOURS {
            self.cell_before.next = self.cell_before.val().replace_bit(
                c,
                (self.before_q.q.val().get_bits::<32>(32 * c) & self.copied_bit.val()).any(),
            );
            self.cell_after.next = self.cell_after.val().replace_bit(
                c,
                (self.after.val().get_bits::<32>(32 * c) & self.copied_bit.val()).any(),
            );
        }
        self.crossed_word.next = self.word.val();
        for c in 0..COLOURS {
            for i in 0..MAX_CELLS {
                if self.line_bit.val().get_bit(i) {
                    self.crossed_word.next = self
                        .crossed_word
                        .val()
                        .replace_bit(32 * c + i, self.cell_after.val().get_bit(c));
                }
            }
        }
        self.crossed_q.d.next = self.crossed_word.val();
        self.count_before.next = 0.into();
        self.count_after.next = 0.into();
        for c in 0..COLOURS {
            if self.cell_before.val().get_bit(c) {
                self.count_before.next = self.count_before.val() + 1;
            }
            if self.cell_after.val().get_bit(c) {
                self.count_after.next = self.count_after.val() + 1;
            }
        }
        self.lost_q.d.next = self.count_before.val() - self.count_after.val();
        if self.crossing.val() {
            self.fresh.d.next = self.fresh.q.val() & !self.copied_bit.val();
        }
        self.fresh_any.next = self.fresh.q.val().any();
        self.before.next = self.before_q.q.val();
        self.crossed.next = self.crossed_q.q.val();
        self.lost.next = self.lost_q.q.val();
    }
}
