//! Writes a visited line back, and each cell the visit newly fixed into its
//! crossing line: the steps from the line solver's result (or a guess) to
//! the next line.
//!
//! Known · Value (the line's words written from `LineWords`), then for each
//! fresh cell, lowest first: CrossRead (the crossing line's Known and Value
//! words asked) · CrossKnown · CrossValue (the cell set in both; the
//! crossing line is dirty). 2 cycles plus 3 a fresh cell, as `clue_model`
//! counts.
//!
//! `start` starts the steps; `done` is high in their last cycle (the solver
//! goes on to its next line then). Whether a cell is left is `fresh_any`, a
//! cycle late after each change of `fresh`: Value and CrossValue are a
//! cycle after it changed (the line solver's result, a crossing's
//! `crossing` pulse).

use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Step {
    Idle,
    Known,
    Value,
    CrossRead,
    CrossKnown,
    CrossValue,
}

#[derive(LogicBlock, Default)]
pub struct CrossingWriter {
    pub clock: Signal<In, Clock>,
    pub start: Signal<In, Bit>,
    pub abort: Signal<In, Bit>,
    /// The visited line, and the cell being copied (its index in the line,
    /// so the crossing line's index).
    pub index: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub copied_cell: Signal<In, Bits<6>>,
    pub fresh_any: Signal<In, Bit>,
    /// The board memory's write port: Known words at 0..128 (rows, then
    /// columns at 128), Value words 64 above.
    pub write: Signal<Out, Bit>,
    pub write_address: Signal<Out, Bits<8>>,
    /// The crossing line's words are read (CrossRead and CrossKnown).
    pub read_used: Signal<Out, Bit>,
    /// The next step reads the crossing line (for the board's read flags),
    /// and the step that asks for its Value word.
    pub next_cross: Signal<Out, Bit>,
    pub cross_read: Signal<Out, Bit>,
    /// Pulses: the first step (a guess's row is dirty from it); take the
    /// next copied cell (`lowest_cell`); a cell was set in its crossing.
    pub at_known: Signal<Out, Bit>,
    pub take_cell: Signal<Out, Bit>,
    pub fixed: Signal<Out, Bit>,
    /// Registered: the crossing line is dirty and the cell leaves `fresh`
    /// (high in CrossRead).
    pub crossing: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    step: DFF<Step>,
    crossing_q: DFF<Bit>,
    // The visited line's word and the crossing line's, Known's address.
    line_address: Signal<Local, Bits<8>>,
    cross_address: Signal<Local, Bits<8>>,
    // Value or CrossValue with a fresh cell left.
    more: Signal<Local, Bit>,
}

impl Logic for CrossingWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, step, crossing_q);
        self.line_address.next =
            bit_cast::<8, 6>(self.index.val()) | (bit_cast::<8, 1>(self.is_column.val().into()) << 7);
        self.cross_address.next = bit_cast::<8, 6>(self.copied_cell.val())
            | (bit_cast::<8, 1>((!self.is_column.val()).into()) << 7);
        self.crossing.next = self.crossing_q.q.val();
        self.at_known.next = self.step.q.val() == Step::Known;
        self.cross_read.next = self.step.q.val() == Step::CrossRead;
        self.fixed.next = self.step.q.val() == Step::CrossValue;
        self.take_cell.next = (self.step.q.val() == Step::Value) | (self.step.q.val() == Step::CrossValue);
        self.more.next = self.take_cell.val() & self.fresh_any.val();
        self.done.next = self.take_cell.val() & !self.fresh_any.val();
        self.next_cross.next = self.more.val() | (self.step.q.val() == Step::CrossRead);
        self.read_used.next =
            (self.step.q.val() == Step::CrossRead) | (self.step.q.val() == Step::CrossKnown);
        self.crossing_q.d.next = self.more.val();

        self.write.next = false;
        self.write_address.next = self.line_address.val();
        match self.step.q.val() {
            Step::Known => {
                self.write.next = true;
                self.step.d.next = Step::Value;
            }
            Step::Value => {
                self.write.next = true;
                self.write_address.next = self.line_address.val() | 64;
            }
            Step::CrossRead => {
                self.step.d.next = Step::CrossKnown;
            }
            Step::CrossKnown => {
                self.write.next = true;
                self.write_address.next = self.cross_address.val();
                self.step.d.next = Step::CrossValue;
            }
            Step::CrossValue => {
                self.write.next = true;
                self.write_address.next = self.cross_address.val() | 64;
            }
            _ => {}
        }
        if self.take_cell.val() {
            self.step.d.next = Step::Idle;
            if self.fresh_any.val() {
                self.step.d.next = Step::CrossRead;
            }
        }
        if self.start.val() {
            self.step.d.next = Step::Known;
        }
        if self.abort.val() {
            self.step.d.next = Step::Idle;
            self.crossing_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// A line with f fresh cells: writes at the line's Known then Value
    /// words, then for each cell a read cycle and writes at the crossing
    /// line's Known and Value words; `done` after 2 + 3f cycles.
    #[test]
    fn writes_the_line_then_each_crossing() {
        let mut uut = CrossingWriter::default();
        uut.connect_all();
        let mut rng = Rng(0xbb67_ae85_84ca_a73b);
        for _ in 0..200 {
            let (index, column, fresh) = (rng.below(64), rng.below(2) == 1, rng.below(5));
            uut.index.next = index.into();
            uut.is_column.next = column;
            uut.start.next = true;
            uut.fresh_any.next = false;
            tick(&mut uut, |u| &mut u.clock);
            uut.start.next = false;
            let line = index | (column as u64) << 7;
            let mut writes = vec![];
            let (mut left, mut cycles, mut crossings) = (fresh, 0, 0);
            let mut cell = rng.below(64);
            loop {
                uut.copied_cell.next = cell.into();
                // (`fresh_any` is whether a cell is left, when asked.)
                uut.fresh_any.next = left > 0;
                assert!(simulate(&mut uut, 10));
                cycles += 1;
                crossings += uut.crossing.val() as u64;
                if uut.write.val() {
                    writes.push(uut.write_address.val().to_u64());
                }
                if uut.take_cell.val() && left > 0 {
                    left -= 1;
                    cell = rng.below(64);
                }
                let done = uut.done.val();
                tick(&mut uut, |u| &mut u.clock);
                if done {
                    break;
                }
                assert!(cycles < 100, "no end");
            }
            assert_eq!(cycles, 2 + 3 * fresh, "{fresh} fresh cells");
            assert_eq!(crossings, fresh);
            assert_eq!(writes.len() as u64, 2 + 2 * fresh);
            assert_eq!(writes[..2], [line, line | 64]);
            for pair in writes[2..].chunks(2) {
                assert_eq!(pair[1], pair[0] | 64);
                assert_eq!(pair[0] >> 7, !column as u64);
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = CrossingWriter::default();
        uut.connect_all();
        yosys_check(&uut, "crossing_writer");
    }
}
