//! The search's undo trail: every cell fixed since the first guess, in the
//! order fixed, in one block RAM used as a stack.
//!
//! An entry is 16 bits: the row in bits 11..6, the column in 5..0; bit 12
//! marks a guess, bit 13 is the guessed value, bit 14 says it is the cell's
//! second value.
//!
//! The entry below the top is always on the read port, so that undoing can
//! pop it. Its fields are latched (`latch`) in the step before they are
//! used: straight from the port they missed 100 MHz.

use rust_hdl::prelude::*;

use crate::clue::clue_model::TRAIL_ENTRIES;
use crate::common::ram::Ram;

/// Address bits of the undo trail (`clue_model::TRAIL_ENTRIES` entries).
pub const TRAIL_BITS: usize = 11;
const _: () = assert!(1 << TRAIL_BITS == TRAIL_ENTRIES);

#[derive(LogicBlock, Default)]
pub struct Trail {
    pub clock: Signal<In, Clock>,
    /// Empty the trail (a new board).
    pub clear: Signal<In, Bit>,
    /// Push the cell at `fixed_cell` of line `line_index` (a column's when
    /// `is_column`), with the guess's marks.
    pub push: Signal<In, Bit>,
    pub line_index: Signal<In, Bits<6>>,
    pub fixed_cell: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub guess: Signal<In, Bit>,
    pub guess_value: Signal<In, Bit>,
    pub second: Signal<In, Bit>,
    /// Pop the top entry.
    pub pop: Signal<In, Bit>,
    /// The read port is in use (the block RAM's check).
    pub reading: Signal<In, Bit>,
    /// Latch the top entry's fields into the outputs below.
    pub latch: Signal<In, Bit>,
    /// The top entry's column, straight from the read port.
    pub top_column: Signal<Out, Bits<6>>,
    /// The latched entry.
    pub row: Signal<Out, Bits<6>>,
    pub column: Signal<Out, Bits<6>>,
    pub was_guess: Signal<Out, Bit>,
    pub was_value: Signal<Out, Bit>,
    pub was_second: Signal<Out, Bit>,
    /// The trail is empty now, and (registered) was a cycle ago.
    pub bottom: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    entries: Ram<16, TRAIL_BITS>,
    top: DFF<Bits<12>>,
    row_q: DFF<Bits<6>>,
    column_q: DFF<Bits<6>>,
    guess_q: DFF<Bit>,
    value_q: DFF<Bit>,
    second_q: DFF<Bit>,
    empty_q: DFF<Bit>,
}

impl Logic for Trail {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, top, row_q, column_q, guess_q, value_q, second_q, empty_q);
        self.entries.clock.next = self.clock.val();
        self.entries.read_address.next = bit_cast::<TRAIL_BITS, 12>(self.top.q.val() - 1);
        self.entries.read_used.next = self.reading.val();
        self.entries.write_enable.next = self.push.val();
        self.entries.write_keep.next = 0.into();
        self.entries.write_address.next = bit_cast::<TRAIL_BITS, 12>(self.top.q.val());
        self.entries.write_data.next = bit_cast::<16, 6>(self.fixed_cell.val())
            | (bit_cast::<16, 6>(self.line_index.val()) << 6)
            | (bit_cast::<16, 1>(self.guess.val().into()) << 12)
            | (bit_cast::<16, 1>(self.guess_value.val().into()) << 13)
            | (bit_cast::<16, 1>(self.second.val().into()) << 14);
        if self.is_column.val() {
            self.entries.write_data.next =
                bit_cast::<16, 6>(self.line_index.val()) | (bit_cast::<16, 6>(self.fixed_cell.val()) << 6);
        }
        if self.push.val() {
            self.top.d.next = self.top.q.val() + 1;
        }
        if self.pop.val() {
            self.top.d.next = self.top.q.val() - 1;
        }
        if self.clear.val() {
            self.top.d.next = 0.into();
        }
        self.top_column.next = self.entries.read_data.val().get_bits::<6>(0);
        if self.latch.val() {
            self.row_q.d.next = self.entries.read_data.val().get_bits::<6>(6);
            self.column_q.d.next = self.entries.read_data.val().get_bits::<6>(0);
            self.guess_q.d.next = self.entries.read_data.val().get_bit(12);
            self.value_q.d.next = self.entries.read_data.val().get_bit(13);
            self.second_q.d.next = self.entries.read_data.val().get_bit(14);
        }
        self.row.next = self.row_q.q.val();
        self.column.next = self.column_q.q.val();
        self.was_guess.next = self.guess_q.q.val();
        self.was_value.next = self.value_q.q.val();
        self.was_second.next = self.second_q.q.val();
        self.bottom.next = self.top.q.val() == 0;
        self.empty_q.d.next = self.bottom.val();
        self.empty.next = self.empty_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Random pushes and pops against a stack: after each, a cycle with the
    /// read port in use and the entry latched shows the top.
    #[test]
    fn pushes_and_pops_like_a_stack() {
        let mut uut = Trail::default();
        uut.connect_all();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        // (row, column, guess, value, second)
        let mut stack: Vec<(u64, u64, bool, bool, bool)> = vec![];
        uut.clear.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.clear.next = false;
        for _ in 0..6000 {
            let push = stack.is_empty() || (stack.len() < TRAIL_ENTRIES && rng.below(5) < 3);
            if push {
                let (line, cell) = (rng.below(64), rng.below(64));
                let is_column = rng.below(2) == 1;
                let marks = [rng.below(2) == 1, rng.below(2) == 1, rng.below(2) == 1];
                uut.line_index.next = line.into();
                uut.fixed_cell.next = cell.into();
                uut.is_column.next = is_column;
                uut.guess.next = marks[0];
                uut.guess_value.next = marks[1];
                uut.second.next = marks[2];
                uut.push.next = true;
                // A column visit's cells carry no guess marks.
                stack.push(if is_column {
                    (cell, line, false, false, false)
                } else {
                    (line, cell, marks[0], marks[1], marks[2])
                });
            } else {
                uut.pop.next = true;
                stack.pop();
            }
            tick(&mut uut, |u| &mut u.clock);
            uut.push.next = false;
            uut.pop.next = false;
            uut.reading.next = true;
            uut.latch.next = true;
            tick(&mut uut, |u| &mut u.clock);
            assert_eq!(uut.bottom.val(), stack.is_empty());
            if let Some(&(row, column, guess, value, second)) = stack.last() {
                assert_eq!(uut.top_column.val().to_u64(), column);
                tick(&mut uut, |u| &mut u.clock);
                assert_eq!(uut.empty.val(), false);
                let latched = (
                    uut.row.val().to_u64(),
                    uut.column.val().to_u64(),
                    uut.was_guess.val(),
                    uut.was_value.val(),
                    uut.was_second.val(),
                );
                assert_eq!(latched, (row, column, guess, value, second));
            }
            uut.reading.next = false;
            uut.latch.next = false;
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = Trail::default();
        uut.connect_all();
        yosys_check(&uut, "trail");
    }
}
