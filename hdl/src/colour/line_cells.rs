//! The colour engine's line in hand: a visited line's cells as solved
//! (`line`) and which of them the line solver narrowed (`fresh`), taken
//! one at a time, lowest first, into their crossing lines; or, for the
//! search, a scanned row and which of its cells still have more than one
//! colour, the lowest of them the branch.
//!
//! A cell is five colour planes, as the line solver takes it: bits
//! 32c..32c + 31 of a line word say which cells may have colour c.
//!
//! Timing, from the solver's steps:
//! * `line` is the line solver's `line`, not a copy (160 flip-flops
//!   fewer): the scanned row as read, or the visited line as solved (the
//!   line solver writes each cell's result over it);
//! * `solved` (the line solver's `done`): `fresh` = the cells it narrowed
//!   (its `narrowed`, built a cell at a time as it went: comparing `before`
//!   and `after` here, plane by plane, cost about 100 LUT4s);
//! * `scan` (the cycle a scanned row's word arrives on `word`, and the line
//!   solver takes it): `fresh` = its cells with more than one colour;
//! * then the [`FreshFinder`] numbers the lowest cell of `fresh` a cycle
//!   later (`lowest_cell`), and gives it as a bit (`copied_bit`), with its
//!   colours in `line` (`copied_colours`), a cycle after that;
//! * `taken`: the cell at `copied_bit` leaves `fresh`.

use crate::clue::fresh_finder::FreshFinder;
use crate::colour::line_solver::{COLOURS, MAX_CELLS, PLANE_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ColourLineCells {
    pub clock: Signal<In, Clock>,
    pub scan: Signal<In, Bit>,
    pub word: Signal<In, Bits<PLANE_BITS>>,
    pub line: Signal<In, Bits<PLANE_BITS>>,
    pub solved: Signal<In, Bit>,
    pub narrowed: Signal<In, Bits<MAX_CELLS>>,
    pub taken: Signal<In, Bit>,
    /// Some cell is left in `fresh` (valid the cycle after a change).
    pub fresh_any: Signal<Out, Bit>,
    /// The lowest cell left, as a number (see `FreshFinder`).
    pub lowest_cell: Signal<Out, Bits<5>>,
    /// The same cell as a bit, a cycle later, and its colours.
    pub copied_bit: Signal<Out, Bits<MAX_CELLS>>,
    pub copied_colours: Signal<Out, Bits<COLOURS>>,
    finder: FreshFinder,
    fresh: DFF<Bits<MAX_CELLS>>,
    // Per cell: has some colour; has two or more.
    some: Signal<Local, Bits<MAX_CELLS>>,
    several: Signal<Local, Bits<MAX_CELLS>>,
}

impl Logic for ColourLineCells {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fresh);
        self.finder.clock.next = self.clock.val();
        self.finder.fresh.next = bit_cast::<64, 32>(self.fresh.q.val());
        self.finder.value.next = 0.into();
        self.lowest_cell.next = self.finder.lowest_cell.val().get_bits::<5>(0);
        self.copied_bit.next = self.finder.copied_bit.val().get_bits::<32>(0);

        // A cell with two colours or more: a plane meets one below it.
        self.some.next = 0.into();
        self.several.next = 0.into();
        for c in 0..COLOURS {
            self.several.next =
                self.several.val() | (self.some.val() & self.word.val().get_bits::<32>(32 * c));
            self.some.next = self.some.val() | self.word.val().get_bits::<32>(32 * c);
        }
        if self.solved.val() {
            self.fresh.d.next = self.narrowed.val();
        }
        if self.scan.val() {
            self.fresh.d.next = self.several.val();
        }
        if self.taken.val() {
            self.fresh.d.next = self.fresh.q.val() & !self.copied_bit.val();
        }
        self.copied_colours.next = 0.into();
        for c in 0..COLOURS {
            self.copied_colours.next = self.copied_colours.val().replace_bit(
                c,
                (self.line.val().get_bits::<32>(32 * c) & self.copied_bit.val()).any(),
            );
        }
        self.fresh_any.next = self.fresh.q.val().any();
    }
}
