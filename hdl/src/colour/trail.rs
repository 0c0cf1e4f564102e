//! The colour search's undo trail: every cell narrowed since the first
//! branch, with the colours it had, in one block RAM used as a stack.
//!
//! An entry is 16 bits: the column in bits 4..0, the row in 9..5, the
//! colours the cell had in 14..10, and bit 15 marks a first branch (its
//! second branch is still to take).
//!
//! The top entry is always on the read port (its address is the top's,
//! less one, a cycle before), so a pop takes its fields in the same cycle.
//! That holds when the top did not move in the cycle before: the solver
//! never pops in the cycle after a push or a pop (an undo takes six).

use crate::clue::clue_model::TRAIL_ENTRIES;
use crate::colour::line_solver::COLOURS;
use crate::common::ram::Ram;
use rust_hdl::prelude::*;

/// Address bits of the trail.
pub const TRAIL_BITS: usize = 11;
const _: () = assert!(1 << TRAIL_BITS == TRAIL_ENTRIES);

#[derive(LogicBlock, Default)]
pub struct ColourTrail {
    pub clock: Signal<In, Clock>,
    /// Empty the trail (a new board).
    pub clear: Signal<In, Bit>,
    /// Push a cell: where it is, the colours it had, and whether it is a
    /// first branch.
    pub push: Signal<In, Bit>,
    pub row: Signal<In, Bits<5>>,
    pub column: Signal<In, Bits<5>>,
    pub had: Signal<In, Bits<COLOURS>>,
    pub first: Signal<In, Bit>,
    /// Pop the top entry; its fields are on the outputs in this cycle.
    pub pop: Signal<In, Bit>,
    pub top_row: Signal<Out, Bits<5>>,
    pub top_column: Signal<Out, Bits<5>>,
    pub top_had: Signal<Out, Bits<COLOURS>>,
    pub top_first: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    entries: Ram<16, TRAIL_BITS>,
    top: DFF<Bits<12>>,
    // Some entry is in (not `top` == 0 compared: the search's step after
    // an undo's read was decided through that compare, an 89 MHz path).
    holds: DFF<Bit>,
}

impl Logic for ColourTrail {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, top, holds);
        self.entries.clock.next = self.clock.val();
        self.entries.read_address.next = bit_cast::<TRAIL_BITS, 12>(self.top.q.val() - 1);
        self.entries.read_used.next = self.pop.val();
        self.entries.write_enable.next = self.push.val();
        self.entries.write_keep.next = 0.into();
        self.entries.write_address.next = bit_cast::<TRAIL_BITS, 12>(self.top.q.val());
        self.entries.write_data.next = bit_cast::<16, 5>(self.column.val())
            | (bit_cast::<16, 5>(self.row.val()) << 5)
            | (bit_cast::<16, COLOURS>(self.had.val()) << 10)
            | (bit_cast::<16, 1>(self.first.val().into()) << 15);
        if self.push.val() {
            self.top.d.next = self.top.q.val() + 1;
            self.holds.d.next = true;
        }
        if self.pop.val() {
            self.top.d.next = self.top.q.val() - 1;
            self.holds.d.next = self.top.q.val() != 1;
        }
        if self.clear.val() {
            self.top.d.next = 0.into();
            self.holds.d.next = false;
        }
        self.top_column.next = self.entries.read_data.val().get_bits::<5>(0);
        self.top_row.next = self.entries.read_data.val().get_bits::<5>(5);
        self.top_had.next = self.entries.read_data.val().get_bits::<COLOURS>(10);
        self.top_first.next = self.entries.read_data.val().get_bit(15);
        self.empty.next = !self.holds.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::tick;

    /// Random pushes and pops, never a pop right after either: every pop
    /// gives back the entry a stack would, and `empty` says when none is
    /// left.
    #[test]
    fn is_a_stack() {
        let mut uut = ColourTrail::default();
        uut.connect_all();
        uut.clear.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.clear.next = false;
        let mut rng = Rng(0x7a11);
        let mut stack: Vec<(u64, u64, u64, bool)> = vec![];
        let mut moved = false;
        for _ in 0..5_000 {
            uut.push.next = false;
            uut.pop.next = false;
            assert_eq!(uut.empty.val(), stack.is_empty());
            if !moved && !stack.is_empty() && rng.below(2) == 0 {
                let (row, column, had, first) = stack.pop().unwrap();
                uut.pop.next = true;
                assert_eq!(
                    (uut.top_row.val().to_u64(), uut.top_column.val().to_u64()),
                    (row, column)
                );
                assert_eq!((uut.top_had.val().to_u64(), uut.top_first.val()), (had, first));
                moved = true;
            } else if stack.len() < TRAIL_ENTRIES && rng.below(3) > 0 {
                let entry = (rng.below(32), rng.below(32), rng.below(32), rng.below(2) == 1);
                uut.push.next = true;
                uut.row.next = entry.0.into();
                uut.column.next = entry.1.into();
                uut.had.next = entry.2.into();
                uut.first.next = entry.3;
                stack.push(entry);
                moved = true;
            } else {
                moved = false;
            }
            tick(&mut uut, |u| &mut u.clock);
        }
    }
}
