//! The order of line visits: rows 0..m, then columns 0..n, again and again,
//! visiting the dirty lines and passing over the clean ones (`clue_model`
//! counts the same).
//!
//! A line is dirty until visited, and again when a visit of a crossing line
//! fixes one of its cells. The 128 dirty bits change on registered pulses,
//! so that their enables come straight from flip-flops (decoded from the
//! solver's state they held the bitstream under 100 MHz):
//! * the board's clear: in its first 64 cycles the bits shift up, taking in
//!   a 1 from cycle 64 − m (64 − n) on, so that bits 0..m (0..n) end set;
//! * `cleaning`: the visited line is clean;
//! * `crossing`: the line that crosses the copied cell is dirty;
//! * `marking`: the guessed row is dirty; `forgetting`: a backtrack forgets
//!   every dirty bit.

use crate::common::line_reg::CellReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct VisitOrder {
    pub clock: Signal<In, Clock>,
    /// At most 32 rows and columns (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// A new `rows` × `columns` board: begin at row 0, every bit clean.
    pub start: Signal<In, Bit>,
    pub start_rows: Signal<In, Bits<7>>,
    pub start_columns: Signal<In, Bits<7>>,
    pub abort: Signal<In, Bit>,
    /// The board's clear, and its cycle count.
    pub clearing: Signal<In, Bit>,
    pub counter: Signal<In, Bits<8>>,
    /// Go on to the next line.
    pub advance: Signal<In, Bit>,
    /// Go on from this guessed row.
    pub to_guess: Signal<In, Bit>,
    pub guess_row: Signal<In, Bits<6>>,
    /// The dirty bits' pulses (see above), with the visited line's bit and
    /// the copied cell's bit.
    pub cleaning: Signal<In, Bit>,
    pub crossing: Signal<In, Bit>,
    pub marking: Signal<In, Bit>,
    pub forgetting: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_bit: Signal<In, Bits<64>>,
    /// The board's size, registered at the start.
    pub rows: Signal<Out, Bits<7>>,
    pub columns: Signal<Out, Bits<7>>,
    /// The line: its number among all (rows first), its index among its
    /// kind, whether it is a column, and its length.
    pub line: Signal<Out, Bits<8>>,
    pub index: Signal<Out, Bits<6>>,
    pub is_column: Signal<Out, Bit>,
    pub length: Signal<Out, Bits<7>>,
    /// The line's dirty bit, a cycle late (the one-hot index ANDed in,
    /// registered), and whether any line is dirty (registered too).
    pub line_dirty: Signal<Out, Bit>,
    pub any_dirty: Signal<Out, Bit>,
    /// The board's columns as bits (0..n), from the end of the clear.
    pub column_mask: Signal<Out, Bits<64>>,
    rows_q: DFF<Bits<7>>,
    columns_q: DFF<Bits<7>>,
    last_line: DFF<Bits<8>>,
    line_q: DFF<Bits<8>>,
    index_q: DFF<Bits<6>>,
    // `index_q` one-hot: the line's dirty bit is then an AND-OR of 64
    // pairs (four LUT levels) rather than a 64-way multiplexer (six), which
    // missed 100 MHz on nextpnr seeds.
    index_bit: CellReg,
    is_column_q: DFF<Bit>,
    length_q: DFF<Bits<7>>,
    // The line is the last row, the last line: registered, because the
    // compares take a cycle and the line never moves twice in a row (Seek,
    // or a whole visit, lies between).
    last_row: DFF<Bit>,
    last_of_all: DFF<Bit>,
    dirty_rows: CellReg,
    dirty_columns: CellReg,
    filling: DFF<Bit>,
    line_dirty_q: DFF<Bit>,
    any_dirty_q: DFF<Bit>,
    column_mask_q: CellReg,
    // The clear's cycle: counter + m ≥ 64 (counter + n ≥ 64).
    row_fill_sum: Signal<Local, Bits<8>>,
    column_fill_sum: Signal<Local, Bits<8>>,
    // The dirty bits' update, coded so that a bit is three LUTs (a row) or
    // two (a column) behind its flip-flop's enable (see the update).
    clean_row: Signal<Local, Bit>,
    clean_column: Signal<Local, Bit>,
    cross_row: Signal<Local, Bit>,
    cross_column: Signal<Local, Bit>,
    row_change: Signal<Local, Bit>,
    row_or: Signal<Local, Bit>,
    row_pick: Signal<Local, Bit>,
    column_change: Signal<Local, Bit>,
    column_shift: Signal<Local, Bit>,
    row_next: Signal<Local, Bits<64>>,
    column_next: Signal<Local, Bits<64>>,
}

impl Logic for VisitOrder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rows_q,
            columns_q,
            last_line,
            line_q,
            index_q,
            index_bit,
            is_column_q,
            length_q,
            last_row,
            last_of_all,
            dirty_rows,
            dirty_columns,
            filling,
            line_dirty_q,
            any_dirty_q,
            column_mask_q
        );
        self.dirty_rows.narrow.next = self.narrow.val();
        self.dirty_columns.narrow.next = self.narrow.val();
        self.column_mask_q.narrow.next = self.narrow.val();
        self.index_bit.narrow.next = self.narrow.val();
        self.last_row.d.next =
            !self.is_column_q.q.val() & (bit_cast::<7, 6>(self.index_q.q.val()) + 1 == self.rows_q.q.val());
        self.last_of_all.d.next = self.line_q.q.val() == self.last_line.q.val();
        if self.advance.val() {
            self.line_q.d.next = self.line_q.q.val() + 1;
            self.index_q.d.next = self.index_q.q.val() + 1;
            self.index_bit.d.next = self.index_bit.q.val() << 1;
            if self.last_row.q.val() {
                self.is_column_q.d.next = true;
                self.index_q.d.next = 0.into();
                self.index_bit.d.next = 1.into();
                self.length_q.d.next = self.rows_q.q.val();
            }
            if self.last_of_all.q.val() {
                self.line_q.d.next = 0.into();
                self.is_column_q.d.next = false;
                self.index_q.d.next = 0.into();
                self.index_bit.d.next = 1.into();
                self.length_q.d.next = self.columns_q.q.val();
            }
        }
        if self.to_guess.val() {
            self.line_q.d.next = bit_cast::<8, 6>(self.guess_row.val());
            self.index_q.d.next = self.guess_row.val();
            self.index_bit.d.next = Bits::<64>::from(1u64) << self.guess_row.val();
            self.is_column_q.d.next = false;
            self.length_q.d.next = self.columns_q.q.val();
        }

        self.row_fill_sum.next = (self.counter.val() & 63) + bit_cast::<8, 7>(self.rows_q.q.val());
        self.column_fill_sum.next = (self.counter.val() & 63) + bit_cast::<8, 7>(self.columns_q.q.val());
        if self.clearing.val() & (self.counter.val() == 63) {
            self.filling.d.next = false;
        }
        if self.clearing.val() & (self.counter.val() == 127) {
            // The dirty columns are bits 0..n now.
            self.column_mask_q.d.next = self.dirty_columns.q.val();
        }
        // The pulses by priority (a later one wins): filling (shift in),
        // cleaning (clear `line_bit`), crossing (set `copied_bit` in the
        // other kind), marking (set `line_bit` in the rows), forgetting and
        // the start (all 0). As a chain of four words each bit took three
        // to five LUTs, as ABC happened to split it; coded here into shared
        // selects, a row bit is `row_pick` choosing between two LUTs of its
        // own and `row_or` between those, and a column bit two LUTs, the
        // flip-flops enabled when a pulse changes their word.
        self.clean_row.next = self.cleaning.val() & !self.is_column_q.q.val();
        self.clean_column.next = self.cleaning.val() & self.is_column_q.q.val();
        self.cross_row.next = self.crossing.val() & self.is_column_q.q.val();
        self.cross_column.next = self.crossing.val() & !self.is_column_q.q.val();
        self.row_change.next =
            self.filling.q.val() | self.clean_row.val() | self.cross_row.val() | self.marking.val();
        self.row_or.next = self.cross_row.val() | self.marking.val();
        self.row_pick.next = self.filling.q.val() & !self.clean_row.val();
        if self.row_or.val() {
            self.row_pick.next = !self.marking.val();
        }
        self.row_next.next = self.dirty_rows.q.val() & !self.line_bit.val();
        if self.row_pick.val() {
            self.row_next.next =
                (self.dirty_rows.q.val() << 1) | bit_cast::<64, 1>(self.row_fill_sum.val().get_bit(6).into());
        }
        if self.row_or.val() {
            self.row_next.next = self.dirty_rows.q.val() | self.line_bit.val();
            if self.row_pick.val() {
                self.row_next.next = self.dirty_rows.q.val() | self.copied_bit.val();
            }
        }
        if self.row_change.val() {
            self.dirty_rows.d.next = self.row_next.val();
        }
        self.column_change.next = self.filling.q.val() | self.clean_column.val() | self.cross_column.val();
        self.column_shift.next = self.filling.q.val() & !self.clean_column.val();
        self.column_next.next = self.dirty_columns.q.val() & !self.line_bit.val();
        if self.column_shift.val() {
            self.column_next.next = (self.dirty_columns.q.val() << 1)
                | bit_cast::<64, 1>(self.column_fill_sum.val().get_bit(6).into());
        }
        if self.cross_column.val() {
            self.column_next.next = self.dirty_columns.q.val() | self.copied_bit.val();
        }
        if self.column_change.val() {
            self.dirty_columns.d.next = self.column_next.val();
        }
        if self.forgetting.val() {
            self.dirty_rows.d.next = 0.into();
            self.dirty_columns.d.next = 0.into();
        }
        self.line_dirty_q.d.next = (self.dirty_rows.q.val() & self.index_bit.q.val()).any();
        if self.is_column_q.q.val() {
            self.line_dirty_q.d.next = (self.dirty_columns.q.val() & self.index_bit.q.val()).any();
        }
        self.any_dirty_q.d.next = (self.dirty_rows.q.val() | self.dirty_columns.q.val()).any();

        if self.start.val() {
            self.rows_q.d.next = self.start_rows.val();
            self.columns_q.d.next = self.start_columns.val();
            self.last_line.d.next =
                bit_cast::<8, 7>(self.start_rows.val()) + bit_cast::<8, 7>(self.start_columns.val()) - 1;
            self.line_q.d.next = 0.into();
            self.is_column_q.d.next = false;
            self.index_q.d.next = 0.into();
            self.index_bit.d.next = 1.into();
            self.length_q.d.next = self.start_columns.val();
            self.dirty_rows.d.next = 0.into();
            self.dirty_columns.d.next = 0.into();
            self.filling.d.next = true;
        }
        if self.abort.val() {
            self.filling.d.next = false;
        }
        self.rows.next = self.rows_q.q.val();
        self.columns.next = self.columns_q.q.val();
        self.line.next = self.line_q.q.val();
        self.index.next = self.index_q.q.val();
        self.is_column.next = self.is_column_q.q.val();
        self.length.next = self.length_q.q.val();
        self.line_dirty.next = self.line_dirty_q.q.val();
        self.any_dirty.next = self.any_dirty_q.q.val();
        self.column_mask.next = self.column_mask_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// A started board, cleared as the solver clears it (128 cycles).
    fn cleared(uut: &mut VisitOrder, rows: u64, columns: u64) {
        uut.start.next = true;
        uut.start_rows.next = rows.into();
        uut.start_columns.next = columns.into();
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        uut.clearing.next = true;
        for counter in 0..128u64 {
            uut.counter.next = counter.into();
            tick(uut, |u| &mut u.clock);
        }
        uut.clearing.next = false;
        tick(uut, |u| &mut u.clock);
    }

    /// Every size: the clear leaves lines 0..m and 0..n dirty; the order
    /// goes rows, columns, round again, and a line cleaned is clean.
    #[test]
    fn visits_rows_then_columns_and_keeps_the_dirty_bits() {
        let mut uut = VisitOrder::default();
        uut.connect_all();
        let mut rng = Rng(0xdead_beef_cafe_f00d);
        for _ in 0..40 {
            let (rows, columns) = (1 + rng.below(64), 1 + rng.below(64));
            cleared(&mut uut, rows, columns);
            let mask = |n: u64| if n == 64 { u64::MAX } else { (1 << n) - 1 };
            assert_eq!(uut.column_mask.val().to_u64(), mask(columns));
            assert!(uut.any_dirty.val());
            // Twice round: dirty the first time, and cleaned as visited.
            for round in 0..2 {
                for line in 0..rows + columns {
                    let is_column = line >= rows;
                    let index = if is_column { line - rows } else { line };
                    let length = if is_column { rows } else { columns };
                    let at = (
                        uut.line.val().to_u64(),
                        uut.index.val().to_u64(),
                        uut.is_column.val(),
                        uut.length.val().to_u64(),
                    );
                    assert_eq!(at, (line, index, is_column, length), "{rows}x{columns}");
                    assert_eq!(uut.line_dirty.val(), round == 0, "{rows}x{columns} line {line}");
                    // Clean the line (as a visit's Fetch does), then move on
                    // a cycle later (the line never moves twice in a row).
                    uut.cleaning.next = true;
                    uut.line_bit.next = (1u64 << index).into();
                    tick(&mut uut, |u| &mut u.clock);
                    uut.cleaning.next = false;
                    uut.advance.next = true;
                    tick(&mut uut, |u| &mut u.clock);
                    uut.advance.next = false;
                    tick(&mut uut, |u| &mut u.clock);
                }
                assert!(!uut.any_dirty.val());
            }
            // A crossing from a row visit dirties a column; forgetting
            // clears it.
            uut.crossing.next = true;
            uut.copied_bit.next = (1u64 << (columns - 1)).into();
            tick(&mut uut, |u| &mut u.clock);
            uut.crossing.next = false;
            tick(&mut uut, |u| &mut u.clock);
            assert!(uut.any_dirty.val());
            uut.forgetting.next = true;
            tick(&mut uut, |u| &mut u.clock);
            uut.forgetting.next = false;
            tick(&mut uut, |u| &mut u.clock);
            assert!(!uut.any_dirty.val());
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = VisitOrder::default();
        uut.connect_all();
        yosys_check(&uut, "visit_order");
    }
}
