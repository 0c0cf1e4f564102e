//! The board: Known and Value in one block RAM of 256 words of 64 bits,
//! twice, a row-major copy (word = a row, bit = a column) and a
//! column-major copy, so that any line is two reads; and the first
//! solution's Value rows in a memory of their own.
//!
//! | address bits | 7 | 6 | 5..0 |
//! |---|---|---|---|
//! | | 0 rows, 1 columns | 0 Known, 1 Value | row or column |
//!
//! Value bits mean something only where Known is set, so a new board
//! clears the 128 Known words and nothing else.
//!
//! The read address is chosen by flags registered a cycle ahead, from the
//! solver's next state: decoded from the state itself, this multiplexer
//! made the critical path into the block RAM on nextpnr seeds. Writes go
//! through registers and reach the memory a cycle late: decoded from the
//! state straight into the RAM's ports they held the clue bitstream to
//! 88 MHz. No read needs a word in the cycle after it was written (the
//! block RAM's check would catch it).

use rust_hdl::prelude::*;

use crate::common::line_reg::CellReg;
use crate::common::ram::Ram;
use crate::constant;

#[derive(LogicBlock)]
pub struct BoardMemory {
    pub clock: Signal<In, Clock>,
    /// Lines of at most 32 cells (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// What the next cycle reads (one flag at a time): the reply's row; the
    /// visited line; the crossing line of `copied_cell`; the search's
    /// scanned, guessed and saved rows, and an undone cell's row and
    /// column. `read_value_copy`: the Value word (else Known).
    pub read_reply: Signal<In, Bit>,
    pub read_line: Signal<In, Bit>,
    pub read_cross: Signal<In, Bit>,
    pub read_scan: Signal<In, Bit>,
    pub read_guess: Signal<In, Bit>,
    pub read_save: Signal<In, Bit>,
    pub read_undo_row: Signal<In, Bit>,
    pub read_undo_column: Signal<In, Bit>,
    pub read_value_copy: Signal<In, Bit>,
    /// The lines those flags name.
    pub reply_row: Signal<In, Bits<6>>,
    pub index: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub copied_cell: Signal<In, Bits<6>>,
    pub scan_row: Signal<In, Bits<6>>,
    pub guess_row: Signal<In, Bits<6>>,
    pub save_row: Signal<In, Bits<6>>,
    pub undo_row: Signal<In, Bits<6>>,
    pub undo_column: Signal<In, Bits<6>>,
    /// The read port is in use this cycle (the block RAM's check).
    pub read_used: Signal<In, Bit>,
    /// The read word, a cycle after its address.
    pub read_data: Signal<Out, Bits<64>>,
    /// The next cycle writes this address (see the written word).
    pub write: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<8>>,
    /// Pulses for the written word, a cycle before the write: the visit's
    /// Known word, then its Value word (`visit_written`); the copied cell
    /// in the crossing's Known word, then set or cleared in its Value word
    /// by `copied_value` (`crossing`); an undone cell cleared in the row's
    /// Known word, then the column's (`undoing`). Otherwise 0 (the clear).
    pub visit_written: Signal<In, Bit>,
    pub crossing: Signal<In, Bit>,
    pub undoing: Signal<In, Bit>,
    pub new_known: Signal<In, Bits<64>>,
    pub new_value: Signal<In, Bits<64>>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_value: Signal<In, Bit>,
    /// Write the word read now into row `save_row` of the solution.
    pub save: Signal<In, Bit>,
    /// The board is done: the reply reads rows. With `answer_kept` they
    /// come from the solution memory, and with `reply_differs` they are
    /// the solution XOR the board's Value rows (DIFFERS for SEVERAL).
    pub done: Signal<In, Bit>,
    pub answer_kept: Signal<In, Bit>,
    pub reply_value: Signal<In, Bit>,
    pub reply_differs: Signal<In, Bit>,
    pub row_word: Signal<Out, Bits<64>>,
    board: Ram<64, 8>,
    solution: Ram<64, 6>,
    reading_reply: DFF<Bit>,
    reading_line: DFF<Bit>,
    reading_cross: DFF<Bit>,
    reading_scan: DFF<Bit>,
    reading_guess: DFF<Bit>,
    reading_save: DFF<Bit>,
    reading_undo_row: DFF<Bit>,
    reading_undo_column: DFF<Bit>,
    reading_value: DFF<Bit>,
    read_line_number: Signal<Local, Bits<6>>,
    write_q: DFF<Bit>,
    write_address_q: DFF<Bits<8>>,
    write_data: CellReg,
    // High in the cycle of a write (decoded from the solver's state, the
    // written word's multiplexer missed 100 MHz).
    word_known: DFF<Bit>,
    word_value: DFF<Bit>,
    cross_known: DFF<Bit>,
    cross_value: DFF<Bit>,
    undo_second: DFF<Bit>,
    // The written word in two LUTs a bit (see its update): the word read is
    // written back with `line_bit` set or cleared (`modify`), or `chosen`
    // is written: 0, the visit's Known word (`select_known`), its Value
    // word (`select_value`), or all ones (both: a set when modifying).
    modify: Signal<Local, Bit>,
    setting: Signal<Local, Bit>,
    clearing: Signal<Local, Bit>,
    select_known: Signal<Local, Bit>,
    select_value: Signal<Local, Bit>,
    chosen: Signal<Local, Bits<64>>,
    ones: Constant<Bits<64>>,
}

impl Default for BoardMemory {
    fn default() -> Self {
        BoardMemory {
            clock: Default::default(),
            narrow: Default::default(),
            read_reply: Default::default(),
            read_line: Default::default(),
            read_cross: Default::default(),
            read_scan: Default::default(),
            read_guess: Default::default(),
            read_save: Default::default(),
            read_undo_row: Default::default(),
            read_undo_column: Default::default(),
            read_value_copy: Default::default(),
            reply_row: Default::default(),
            index: Default::default(),
            is_column: Default::default(),
            copied_cell: Default::default(),
            scan_row: Default::default(),
            guess_row: Default::default(),
            save_row: Default::default(),
            undo_row: Default::default(),
            undo_column: Default::default(),
            read_used: Default::default(),
            read_data: Default::default(),
            write: Default::default(),
            write_address: Default::default(),
            visit_written: Default::default(),
            crossing: Default::default(),
            undoing: Default::default(),
            new_known: Default::default(),
            new_value: Default::default(),
            line_bit: Default::default(),
            copied_value: Default::default(),
            save: Default::default(),
            done: Default::default(),
            answer_kept: Default::default(),
            reply_value: Default::default(),
            reply_differs: Default::default(),
            row_word: Default::default(),
            board: Default::default(),
            solution: Default::default(),
            reading_reply: Default::default(),
            reading_line: Default::default(),
            reading_cross: Default::default(),
            reading_scan: Default::default(),
            reading_guess: Default::default(),
            reading_save: Default::default(),
            reading_undo_row: Default::default(),
            reading_undo_column: Default::default(),
            reading_value: Default::default(),
            read_line_number: Default::default(),
            write_q: Default::default(),
            write_address_q: Default::default(),
            write_data: Default::default(),
            word_known: Default::default(),
            word_value: Default::default(),
            cross_known: Default::default(),
            cross_value: Default::default(),
            undo_second: Default::default(),
            modify: Default::default(),
            setting: Default::default(),
            clearing: Default::default(),
            select_known: Default::default(),
            select_value: Default::default(),
            chosen: Default::default(),
            ones: constant(u64::MAX),
        }
    }
}

impl Logic for BoardMemory {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            reading_reply,
            reading_line,
            reading_cross,
            reading_scan,
            reading_guess,
            reading_save,
            reading_undo_row,
            reading_undo_column,
            reading_value,
            write_q,
            write_address_q,
            write_data,
            word_known,
            word_value,
            cross_known,
            cross_value,
            undo_second
        );
        self.write_data.narrow.next = self.narrow.val();
        self.board.clock.next = self.clock.val();
        self.solution.clock.next = self.clock.val();
        self.reading_reply.d.next = self.read_reply.val();
        self.reading_line.d.next = self.read_line.val();
        self.reading_cross.d.next = self.read_cross.val();
        self.reading_scan.d.next = self.read_scan.val();
        self.reading_guess.d.next = self.read_guess.val();
        self.reading_save.d.next = self.read_save.val();
        self.reading_undo_row.d.next = self.read_undo_row.val();
        self.reading_undo_column.d.next = self.read_undo_column.val();
        self.reading_value.d.next = self.read_value_copy.val();

        self.read_line_number.next = 0.into();
        if self.reading_reply.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.reply_row.val();
        }
        if self.reading_line.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.index.val();
        }
        if self.reading_cross.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.copied_cell.val();
        }
        if self.reading_scan.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.scan_row.val();
        }
        if self.reading_guess.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.guess_row.val();
        }
        if self.reading_save.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.save_row.val();
        }
        if self.reading_undo_row.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.undo_row.val();
        }
        if self.reading_undo_column.q.val() {
            self.read_line_number.next = self.read_line_number.val() | self.undo_column.val();
        }
        self.board.read_address.next = bit_cast::<8, 6>(self.read_line_number.val())
            | (bit_cast::<8, 1>(
                (self.reading_value.q.val()
                    | (self.reading_reply.q.val() & (self.reply_value.val() | self.answer_kept.val())))
                .into(),
            ) << 6)
            | (bit_cast::<8, 1>(
                ((self.reading_line.q.val() & self.is_column.val())
                    | (self.reading_cross.q.val() & !self.is_column.val())
                    | self.reading_undo_column.q.val())
                .into(),
            ) << 7);
        self.board.read_used.next = self.read_used.val();
        self.read_data.next = self.board.read_data.val();

        self.board.write_enable.next = self.write_q.q.val();

        self.board.write_keep.next = 0.into();
        self.board.write_address.next = self.write_address_q.q.val();
        self.board.write_data.next = self.write_data.q.val();
        self.write_q.d.next = self.write.val();
        self.write_address_q.d.next = self.write_address.val();
        self.word_known.d.next = self.visit_written.val();
        self.word_value.d.next = self.word_known.q.val();
        self.cross_known.d.next = self.crossing.val();
        self.cross_value.d.next = self.cross_known.q.val();
        self.undo_second.d.next = self.undoing.val();
        // The written word: a clear of `line_bit` in the word read (an
        // undo, or CrossValue with the value 0) before a set (CrossKnown,
        // or CrossValue with 1), before the visit's Value word, before its
        // Known word, else 0 (the board's clear). Written as a priority
        // chain of five words, yosys and ABC mapped it to three or four
        // LUTs a bit (four in the split solver: 62 more than in one
        // block); coded into three shared selects it is two: `chosen` from
        // Known, Value and two selects, then the written bit from `chosen`,
        // the read bit, `line_bit` and `modify`.
        self.clearing.next = (self.cross_value.q.val() & !self.copied_value.val())
            | self.undoing.val()
            | self.undo_second.q.val();
        self.setting.next = self.cross_known.q.val() | (self.cross_value.q.val() & self.copied_value.val());
        self.modify.next = self.clearing.val() | self.setting.val();
        self.select_known.next = !self.clearing.val()
            & (self.setting.val() | (!self.word_value.q.val() & self.word_known.q.val()));
        self.select_value.next = !self.clearing.val() & (self.setting.val() | self.word_value.q.val());
        self.chosen.next = 0.into();
        if self.select_known.val() {
            self.chosen.next = self.new_known.val();
        }
        if self.select_value.val() {
            self.chosen.next = self.new_value.val();
            if self.select_known.val() {
                self.chosen.next = self.ones.val();
            }
        }
        // Modifying, `chosen` is all ones for a set and 0 for a clear.
        self.write_data.d.next = self.chosen.val();
        if self.modify.val() {
            self.write_data.d.next = (self.board.read_data.val() & !self.line_bit.val())
                | (self.chosen.val() & (self.board.read_data.val() | self.line_bit.val()));
        }

        self.solution.read_address.next = self.reply_row.val();
        self.solution.read_used.next = self.done.val();
        self.solution.write_enable.next = self.save.val();
        self.solution.write_keep.next = 0.into();
        self.solution.write_address.next = self.save_row.val();
        self.solution.write_data.next = self.board.read_data.val();
        self.row_word.next = self.board.read_data.val();
        if self.answer_kept.val() {
            self.row_word.next = self.solution.read_data.val();
            if self.reply_differs.val() {
                self.row_word.next = self.solution.read_data.val() ^ self.board.read_data.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    fn idle(uut: &mut BoardMemory) {
        tick(uut, |u| &mut u.clock);
    }

    /// A visit's write-back of line `index` (a column's when `is_column`):
    /// the pulse, then the Known word's write, then the Value word's.
    fn write_line(uut: &mut BoardMemory, index: u64, is_column: bool, known: u64, value: u64) {
        let base = index | (is_column as u64) << 7;
        uut.visit_written.next = true;
        idle(uut);
        uut.visit_written.next = false;
        uut.new_known.next = known.into();
        uut.new_value.next = value.into();
        for address in [base, base | 64] {
            uut.write.next = true;
            uut.write_address.next = address.into();
            idle(uut);
        }
        uut.write.next = false;
        idle(uut);
        idle(uut);
    }

    /// Line `index`'s Known or Value word, as a visit reads it: the flag a
    /// cycle ahead, the address, then the word.
    fn read_line(uut: &mut BoardMemory, index: u64, is_column: bool, value: bool) -> u64 {
        uut.index.next = index.into();
        uut.is_column.next = is_column;
        uut.read_line.next = true;
        uut.read_value_copy.next = value;
        idle(uut);
        uut.read_line.next = false;
        uut.read_value_copy.next = false;
        uut.read_used.next = true;
        idle(uut);
        uut.read_used.next = false;
        uut.read_data.val().to_u64()
    }

    /// Lines written and read back in both copies; a crossing sets a bit in
    /// the other copy; a saved row comes back as the reply's answer, and
    /// XOR the board's row as DIFFERS.
    #[test]
    fn keeps_both_copies_and_the_solution() {
        let mut uut = BoardMemory::default();
        uut.connect_all();
        let mut rng = Rng(0x0bad_cafe_1234_5678);
        let mut words = std::collections::HashMap::new();
        for _ in 0..200 {
            let (index, is_column) = (rng.below(64), rng.below(2) == 1);
            let (known, value) = (rng.next_u64(), rng.next_u64());
            write_line(&mut uut, index, is_column, known, value);
            words.insert((index, is_column), (known, value));
            let (i, c) = *words.keys().nth(rng.below(words.len() as u64) as usize).unwrap();
            assert_eq!(read_line(&mut uut, i, c, false), words[&(i, c)].0);
            assert_eq!(read_line(&mut uut, i, c, true), words[&(i, c)].1);
        }
        // A crossing from row 5's visit: column 9's Known word (asked with
        // the read flag a cycle ahead) takes row 5's bit, and its Value
        // word too (the copied value is 1).
        write_line(&mut uut, 9, true, 0, 0);
        uut.index.next = 5.into();
        uut.is_column.next = false;
        uut.copied_cell.next = 9.into();
        uut.line_bit.next = (1u64 << 5).into();
        uut.copied_value.next = true;
        // CrossRead: the Known word's address; CrossKnown: its write, the
        // Value word's address; CrossValue: its write.
        uut.read_cross.next = true;
        idle(&mut uut);
        uut.crossing.next = true;
        uut.read_value_copy.next = true;
        uut.read_used.next = true;
        idle(&mut uut);
        uut.crossing.next = false;
        uut.read_cross.next = false;
        uut.read_value_copy.next = false;
        for address in [9 | 128, 9 | 128 | 64] {
            uut.write.next = true;
            uut.write_address.next = address.into();
            idle(&mut uut);
        }
        uut.write.next = false;
        uut.read_used.next = false;
        idle(&mut uut);
        assert_eq!(read_line(&mut uut, 9, true, false), 1 << 5);
        assert_eq!(read_line(&mut uut, 9, true, true), 1 << 5);
        // Row 3's Value word saved as the solution, then the row changed.
        let saved = read_line(&mut uut, 3, false, true);
        uut.save_row.next = 3.into();
        uut.save.next = true;
        idle(&mut uut);
        uut.save.next = false;
        write_line(&mut uut, 3, false, u64::MAX, !saved);
        uut.done.next = true;
        uut.answer_kept.next = true;
        uut.reply_row.next = 3.into();
        uut.reply_value.next = true;
        uut.read_reply.next = true;
        idle(&mut uut);
        uut.read_used.next = true;
        idle(&mut uut);
        assert_eq!(uut.row_word.val().to_u64(), saved);
        uut.reply_differs.next = true;
        idle(&mut uut);
        assert_eq!(uut.row_word.val().to_u64(), u64::MAX);
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = BoardMemory::default();
        uut.connect_all();
        yosys_check(&uut, "board_memory");
    }
}
