//! The colour solver's wiring of its parts, and the state machine of a
//! visit (the ports, the parts and the states are declared in
//! `solver.rs`, whose header tells a visit cycle by cycle).

use super::*;
use crate::link::protocol::status::outcome;

// `update()` writes the outcomes as literals: RustHDL writes a constant's
// name into the Verilog, not its value.
const _: () = assert!(outcome::SOLVED == 0 && outcome::CONTRADICTION == 1 && outcome::STALLED == 2);

impl Logic for ColourSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            counter,
            inks_q,
            planes,
            row_cells,
            column_cells,
            line_address,
            line_bit,
            cross_address,
            write_q,
            write_address,
            written,
            start_line,
            cleaning,
            freedom,
            decided,
            done_q,
            outcome_q,
            detail_q
        );
        self.line_solver.clock.next = self.clock.val();
        self.store.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.order.clock.next = self.clock.val();
        self.cells.clock.next = self.clock.val();
        self.tally.clock.next = self.clock.val();

        // The loader fills the clue store, a block's ink above its length;
        // the line solver reads them back.
        self.store.clue_write.next = self.clue_write.val();
        self.store.clue_address.next = self.clue_address.val();
        self.store.clue_length.next = (bit_cast::<BLOCK_BITS, 3>(self.clue_ink.val()) << 7)
            | bit_cast::<BLOCK_BITS, 7>(self.clue_length.val());
        self.store.line_write.next = self.line_write.val();
        self.store.line_number.next = self.line_number.val();
        self.store.line_first.next = self.line_first.val();
        self.store.line_blocks.next = self.line_blocks.val();
        self.store.line.next = self.order.line.val();
        self.store.load.next = self.state.q.val() == State::Load;
        self.store.solving.next = (self.state.q.val() == State::Load) | (self.state.q.val() == State::Solve);
        self.store.block.next = self.line_solver.clue_address.val();
        self.line_solver.clue_length.next = self.store.length.val().get_bits::<6>(0);
        self.line_solver.clue_ink.next = self.store.length.val().get_bits::<3>(7);
        self.line_solver.blocks.next = self.store.blocks.val();
        self.line_solver.length.next = self.order.length.val().get_bits::<6>(0);
        self.line_solver.cells.next = self.board.read_data.val();
        self.line_solver.start.next = self.start_line.q.val();
        self.start_line.d.next = false;

        self.cells.load.next = self.state.q.val() == State::Load;
        self.cells.word.next = self.board.read_data.val();
        self.cells.line_bit.next = self.line_bit.q.val();
        self.cells.solved.next = false;
        self.cells.after.next = self.line_solver.result.val();
        self.cells.crossing.next = self.state.q.val() == State::CrossWord;

        self.order.start.next = self.start.val();
        self.order.start_rows.next = self.rows.val();
        self.order.start_columns.next = self.columns.val();
        self.order.abort.next = self.abort.val();
        self.order.narrow.next = true;
        self.order.clearing.next = self.state.q.val() == State::Clear;
        self.order.counter.next = self.counter.q.val();
        self.order.cleaning.next = self.cleaning.q.val();
        self.cleaning.d.next = false;
        self.order.crossing.next = self.state.q.val() == State::CrossWord;
        self.order.marking.next = false;
        self.order.forgetting.next = false;
        self.order.to_guess.next = false;
        self.order.guess_row.next = 0.into();
        self.order.line_bit.next = bit_cast::<64, 32>(self.line_bit.q.val());
        self.order.copied_bit.next = bit_cast::<64, 32>(self.cells.copied_bit.val());

        self.tally.start.next = self.start.val();
        self.tally.clearing.next = self.state.q.val() == State::Clear;
        self.tally.counter.next = self.counter.q.val();
        self.tally.rows.next = self.order.rows.val();
        self.tally.columns.next = self.order.columns.val();
        self.tally.looking.next = self.state.q.val() == State::Look;
        self.tally.line.next = self.order.line.val();
        self.tally.fixing.next = false;
        self.tally.undone.next = false;

        // The board's read port: the visited line, a crossing line, or
        // the reply's row.
        self.read_address.next = 0.into();
        if self.state.q.val() == State::Fetch {
            self.read_address.next = self.line_address.q.val();
        }
        // The crossing line of a row's cell j is column j, and the other
        // way round.
        self.crossing_line.next = (bit_cast::<7, 1>((!self.order.is_column.val()).into()) << 5)
            | bit_cast::<7, 5>(self.cells.lowest_cell.val());
        if self.state.q.val() == State::CrossRead {
            self.read_address.next = self.crossing_line.val();
        }
        if self.state.q.val() == State::Done {
            self.read_address.next = bit_cast::<7, 5>(self.read_row.val());
        }
        self.board.read_address.next = self.read_address.val();
        self.board.read_used.next = (self.state.q.val() == State::Load)
            | (self.state.q.val() == State::CrossWord)
            | (self.state.q.val() == State::Done);
        self.row_word.next = self.board.read_data.val();

        // Its write port, a cycle after the write is decided: a cleared
        // line (every colour the board has, in the line's cells), the
        // visited line's result, or a crossing word.
        self.clear_cells.next = self.row_cells.q.val();
        if self.written.q.val() == Written::ClearColumn {
            self.clear_cells.next = self.column_cells.q.val();
        }
        self.clear_word.next = 0.into();
        for c in 0..COLOURS {
            for i in 0..32 {
                self.clear_word.next = self.clear_word.val().replace_bit(
                    32 * c + i,
                    self.planes.q.val().get_bit(c) & self.clear_cells.val().get_bit(i),
                );
            }
        }
        self.board.write_enable.next = self.write_q.q.val();
        self.board.write_address.next = self.write_address.q.val();
        self.board.write_keep.next = 0.into();
        self.board.write_data.next = self.clear_word.val();
        if self.written.q.val() == Written::Line {
            self.board.write_data.next = self.line_solver.result.val();
        }
        if self.written.q.val() == Written::Crossing {
            self.board.write_data.next = self.cells.crossed.val();
        }
        self.write_q.d.next = false;

        self.row_freedom.next = 0.into();
        if self.inks_q.q.val().get_bit(0) {
            self.row_freedom.next = bit_cast::<16, 7>(self.order.columns.val());
        }
        if self.inks_q.q.val().get_bit(1) {
            self.row_freedom.next =
                self.row_freedom.val() + (bit_cast::<16, 7>(self.order.columns.val()) << 1);
        }
        if self.inks_q.q.val().get_bit(2) {
            self.row_freedom.next =
                self.row_freedom.val() + (bit_cast::<16, 7>(self.order.columns.val()) << 2);
        }
        self.decided.d.next = self.freedom.q.val() == 0;
        self.done_q.d.next = false;
        self.next_line.next = false;

        match self.state.q.val() {
            State::Idle => {}
            State::Clear => {
                // Rows at 0..32, columns at 32..64; meanwhile the visit
                // order's dirty bits and the tally's m·n, and the freedom:
                // n·inks for each of the m rows.
                if self.counter.q.val() < 64 {
                    self.write_q.d.next = true;
                    self.write_address.d.next = self.counter.q.val().get_bits::<7>(0);
                    self.written.d.next = Written::ClearRow;
                    if self.counter.q.val().get_bit(5) {
                        self.written.d.next = Written::ClearColumn;
                    }
                } else if (self.counter.q.val() & 63) < bit_cast::<8, 7>(self.order.rows.val()) {
                    self.freedom.d.next = self.freedom.q.val() + self.row_freedom.val();
                }
                self.counter.d.next = self.counter.q.val() + 1;
                if self.counter.q.val() == 127 {
                    self.state.d.next = State::Seek;
                }
            }
            State::Seek => {
                self.state.d.next = State::Look;
            }
            State::Look => {
                self.line_address.d.next = (bit_cast::<7, 1>(self.order.is_column.val().into()) << 5)
                    | bit_cast::<7, 5>(self.order.index.val().get_bits::<5>(0));
                self.line_bit.d.next = Bits::<32>::from(1u64) << self.order.index.val().get_bits::<5>(0);
                if !self.order.any_dirty.val() {
                    self.outcome_q.d.next = 2.into(); // STALLED
                    if self.decided.q.val() {
                        self.outcome_q.d.next = 0.into(); // SOLVED
                    }
                    self.done_q.d.next = true;
                    self.state.d.next = State::Done;
                } else if self.order.line_dirty.val() {
                    self.state.d.next = State::Fetch;
                } else {
                    self.next_line.next = true;
                    self.state.d.next = State::Seek;
                }
            }
            State::Fetch => {
                self.cleaning.d.next = true;
                self.start_line.d.next = true;
                self.state.d.next = State::Load;
            }
            State::Load => {
                self.state.d.next = State::Solve;
            }
            State::Solve => {
                if self.line_solver.done.val() {
                    if self.line_solver.feasible.val() {
                        self.cells.solved.next = true;
                        self.write_q.d.next = true;
                        self.write_address.d.next = self.line_address.q.val();
                        self.written.d.next = Written::Line;
                        self.state.d.next = State::Narrowed;
                    } else {
                        self.outcome_q.d.next = 1.into(); // CONTRADICTION
                        self.detail_q.d.next = self.order.line.val();
                        self.done_q.d.next = true;
                        self.state.d.next = State::Done;
                    }
                }
            }
            State::Narrowed => {
                self.state.d.next = State::Advance;
                if self.cells.fresh_any.val() {
                    self.state.d.next = State::CrossRead;
                }
            }
            State::CrossWrite => {
                self.freedom.d.next = self.freedom.q.val() - bit_cast::<16, 3>(self.cells.lost.val());
                self.state.d.next = State::Advance;
                if self.cells.fresh_any.val() {
                    self.state.d.next = State::CrossRead;
                }
            }
            State::CrossRead => {
                self.cross_address.d.next = self.crossing_line.val();
                self.state.d.next = State::CrossWord;
            }
            State::CrossWord => {
                self.write_q.d.next = true;
                self.write_address.d.next = self.cross_address.q.val();
                self.written.d.next = Written::Crossing;
                self.state.d.next = State::CrossWrite;
            }
            State::Advance => {
                self.next_line.next = true;
                self.state.d.next = State::Seek;
            }
            State::Done => {}
            _ => {
                self.state.d.next = State::Idle;
            }
        }
        self.order.advance.next = self.next_line.val();

        // n and m ones: a row's cells and a column's.
        self.row_ones.next = (Bits::<64>::from(1u64) << self.columns.val()) - 1;
        self.column_ones.next = (Bits::<64>::from(1u64) << self.rows.val()) - 1;
        if self.start.val() {
            self.counter.d.next = 0.into();
            self.inks_q.d.next = self.inks.val();
            self.planes.d.next = (Bits::<8>::from(2u64) << self.inks.val()) - 1;
            self.row_cells.d.next = self.row_ones.val().get_bits::<32>(0);
            self.column_cells.d.next = self.column_ones.val().get_bits::<32>(0);
            self.freedom.d.next = 0.into();
            self.detail_q.d.next = 0.into();
            self.state.d.next = State::Clear;
        }
        if self.abort.val() {
            self.state.d.next = State::Idle;
            self.write_q.d.next = false;
            self.start_line.d.next = false;
            self.done_q.d.next = false;
        }

        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        self.tally.busy.next = self.busy.val();
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.detail.next = self.detail_q.q.val();
        self.cycles.next = self.tally.cycles.val();
        self.passes.next = self.tally.passes.val();
        self.board_cells.next = self.tally.cells.val();
        self.all_decided.next = self.decided.q.val();
    }
}
