//! The colour solver's wiring of its parts, and its state machine (the
//! ports, the parts and the states are declared in `solver.rs`, whose
//! header tells the steps cycle by cycle).

use super::*;
use crate::clue::clue_model::{BUDGET_RAN_OUT, FIRST_FOUND, SEARCHED, TRAIL_RAN_OUT};
use crate::link::protocol::status::outcome;

// `update()` writes these as literals: RustHDL writes a constant's name
// into the Verilog, not its value.
const _: () = assert!(
    outcome::SOLVED == 0
        && outcome::CONTRADICTION == 1
        && outcome::STALLED == 2
        && outcome::SEVERAL == 6
        && outcome::GAVE_UP == 7
        && FIRST_FOUND == 1
        && BUDGET_RAN_OUT == 1
        && TRAIL_RAN_OUT == 2
        && SEARCHED == 255
        && crate::clue::clue_model::TRAIL_ENTRIES == 2048
);

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
            row_bit,
            column_bit,
            at_row_word,
            at_column_word,
            at_up_end,
            at_look,
            at_advance,
            at_branch_word,
            at_clear,
            crossing_q,
            marking_q,
            forgetting_q,
            at_scan_load,
            at_save_write,
            at_fetch,
            at_cross_read,
            at_scan_read,
            at_up_row,
            at_up_column,
            at_save,
            at_done,
            cross_address,
            write_q,
            write_address,
            written,
            start_line,
            cleaning,
            freedom,
            freedom_change,
            row_freedom_q,
            decided,
            first_q,
            searching,
            backtracking,
            giving_up,
            kept_q,
            too_big,
            scan_row,
            save_row,
            update,
            cell_row,
            cell_column,
            cell_colours,
            ink_found_q,
            undone_first,
            done_q,
            outcome_q,
            detail_q
        );
        self.line_solver.clock.next = self.clock.val();
        self.store.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.order.clock.next = self.clock.val();
        self.cells.clock.next = self.clock.val();
        self.writer.clock.next = self.clock.val();
        self.trail.clock.next = self.clock.val();
        self.tally.clock.next = self.clock.val();
        self.counts.clock.next = self.clock.val();

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

        // The line solver keeps a scanned row, and a saved row on its way
        // to the kept rows (see `written`).
        self.line_solver.latch.next = self.at_scan_load.q.val() | self.at_save_write.q.val();
        self.cells.scan.next = self.at_scan_load.q.val();
        self.cells.word.next = self.board.read_data.val();
        self.cells.line.next = self.line_solver.line.val();
        self.cells.solved.next = false;
        self.cells.narrowed.next = self.line_solver.narrowed.val();
        self.cells.taken.next = self.state.q.val() == State::CrossWord;

        // The cell writer: a narrowed cell into its crossing line, or the
        // updated cell into its row, then its column.
        // The cell's bits and the states are registered (the cell is
        // chosen cycles before UpRow; UpRow is always followed by
        // UpRowWord, UpColumn by UpColumnWord, UpColumnWord by UpEnd):
        // decoded in the cycle, they were the image's longest paths.
        self.row_bit.d.next = Bits::<32>::from(1u64) << self.cell_row.q.val();
        self.column_bit.d.next = Bits::<32>::from(1u64) << self.cell_column.q.val();
        // (In UpRow, in UpColumn: the read address's flags, a cycle on.)
        self.at_row_word.d.next = self.at_up_row.q.val();
        self.at_column_word.d.next = self.at_up_column.q.val();
        self.at_up_end.d.next = self.state.q.val() == State::UpColumnWord;
        self.writer.word.next = self.board.read_data.val();
        self.writer.bit.next = self.line_bit.q.val();
        self.writer.colours.next = self.cells.copied_colours.val();
        if self.at_row_word.q.val() {
            self.writer.bit.next = self.column_bit.q.val();
            self.writer.colours.next = self.cell_colours.q.val();
        }
        if self.at_column_word.q.val() {
            self.writer.bit.next = self.row_bit.q.val();
            self.writer.colours.next = self.cell_colours.q.val();
        }

        // The trail: a narrowed cell while searching (a row's cell j is
        // column j, a column's cell j row j), a branch.
        self.trail.clear.next = self.start.val();
        self.trail.push.next = false;
        self.trail.pop.next = false;
        self.trail.had.next = self.writer.had.val();
        self.trail.first.next =
            (self.update.q.val() == Update::FirstBranch) & (self.state.q.val() == State::UpColumn);
        self.trail.row.next = self.order.index.val().get_bits::<5>(0);
        self.trail.column.next = self.cross_address.q.val().get_bits::<5>(0);
        if self.order.is_column.val() {
            self.trail.row.next = self.cross_address.q.val().get_bits::<5>(0);
            self.trail.column.next = self.order.index.val().get_bits::<5>(0);
        }
        if self.state.q.val() == State::UpColumn {
            self.trail.row.next = self.cell_row.q.val();
            self.trail.column.next = self.cell_column.q.val();
        }

        self.order.start.next = self.start.val();
        self.order.start_rows.next = self.rows.val();
        self.order.start_columns.next = self.columns.val();
        self.order.abort.next = self.abort.val();
        self.order.narrow.next = true;
        self.order.clearing.next = self.at_clear.q.val();
        self.order.counter.next = self.counter.q.val();
        self.order.cleaning.next = self.cleaning.q.val();
        self.cleaning.d.next = false;
        self.order.crossing.next = self.crossing_q.q.val();
        self.order.marking.next = self.marking_q.q.val();
        self.order.forgetting.next = self.forgetting_q.q.val();
        self.forgetting_q.d.next = false;
        self.order.to_guess.next = self.at_branch_word.q.val();
        self.order.guess_row.next = bit_cast::<6, 5>(self.cell_row.q.val());
        self.order.line_bit.next = bit_cast::<64, 32>(self.line_bit.q.val());
        self.order.copied_bit.next = bit_cast::<64, 32>(self.cells.copied_bit.val());
        if self.at_up_end.q.val() {
            self.order.line_bit.next = bit_cast::<64, 32>(self.row_bit.q.val());
            self.order.copied_bit.next = bit_cast::<64, 32>(self.column_bit.q.val());
        }

        self.tally.start.next = self.start.val();
        self.tally.clearing.next = self.at_clear.q.val();
        self.tally.counter.next = self.counter.q.val();
        self.tally.rows.next = self.order.rows.val();
        self.tally.columns.next = self.order.columns.val();
        self.tally.looking.next = self.at_look.q.val();
        self.tally.line.next = self.order.line.val();
        self.tally.fixing.next = false;
        self.tally.undone.next = false;

        // The board's read port.
        // (Through a one-bit signal: in Verilog a `~` inside the cast
        // inverts the widened value, and bit 1 of it landed at bit 6.)
        self.crossing_rows.next = !self.order.is_column.val();
        self.crossing_line.next = (bit_cast::<7, 1>(self.crossing_rows.val().into()) << 5)
            | bit_cast::<7, 5>(self.cells.lowest_cell.val());
        self.cross_address.d.next = self.crossing_line.val();
        self.read_address.next = 0.into();
        if self.at_fetch.q.val() {
            self.read_address.next = self.read_address.val() | self.line_address.q.val();
        }
        if self.at_cross_read.q.val() {
            self.read_address.next = self.read_address.val() | self.crossing_line.val();
        }
        if self.at_scan_read.q.val() {
            self.read_address.next = self.read_address.val() | bit_cast::<7, 5>(self.scan_row.q.val());
        }
        if self.at_up_row.q.val() {
            self.read_address.next = self.read_address.val() | bit_cast::<7, 5>(self.cell_row.q.val());
        }
        if self.at_up_column.q.val() {
            self.read_address.next =
                self.read_address.val() | bit_cast::<7, 5>(self.cell_column.q.val()) | 32;
        }
        if self.at_save.q.val() {
            self.read_address.next = self.read_address.val() | bit_cast::<7, 5>(self.save_row.q.val());
        }
        if self.at_done.q.val() {
            self.read_address.next = self.read_address.val() | bit_cast::<7, 5>(self.read_row.val());
            if self.read_kept.val() {
                self.read_address.next = self.read_address.val() | 64;
            }
        }
        self.board.read_address.next = self.read_address.val();
        self.board.read_used.next = (self.state.q.val() == State::Load)
            | (self.state.q.val() == State::CrossWord)
            | (self.state.q.val() == State::ScanLoad)
            | (self.state.q.val() == State::UpRowWord)
            | (self.state.q.val() == State::UpColumnWord)
            | (self.state.q.val() == State::SaveWrite)
            | (self.state.q.val() == State::Done);
        self.row_word.next = self.board.read_data.val();
        self.last_row.next = self.order.rows.val() - 1;

        // Its write port, a cycle after the write is decided: an AND-OR of
        // the sources under their one-hot selects (`written`, bits as
        // `super::written`). A clear fills the board's cells with its
        // colours, a cell write every cell with the cell's (the mask keeps
        // all but one): one LUT4 a bit with the line's.
        self.fill_cells.next = 0.into();
        self.fill_colours.next = self.planes.q.val();
        if self.written.q.val().get_bit(0) {
            self.fill_cells.next = self.row_cells.q.val();
        }
        if self.written.q.val().get_bit(1) {
            self.fill_cells.next = self.column_cells.q.val();
        }
        if self.written.q.val().get_bit(3) {
            self.fill_cells.next = 0xFFFF_FFFF_u64.into();
            self.fill_colours.next = bit_cast::<8, COLOURS>(self.writer.written_colours.val());
        }
        self.line_word.next = 0.into();
        if self.written.q.val().get_bit(2) {
            self.line_word.next = self.line_solver.line.val();
        }
        self.fill_word.next = 0.into();
        for c in 0..COLOURS {
            for i in 0..32 {
                self.fill_word.next = self.fill_word.val().replace_bit(
                    32 * c + i,
                    self.fill_colours.val().get_bit(c) & self.fill_cells.val().get_bit(i),
                );
            }
        }
        self.board.write_enable.next = self.write_q.q.val();
        self.board.write_address.next = self.write_address.q.val();
        self.board.write_keep.next = 0.into();
        if self.written.q.val().get_bit(3) {
            self.board.write_keep.next = self.writer.keep.val();
        }
        self.board.write_data.next = self.line_word.val() | self.fill_word.val();
        self.write_q.d.next = false;

        // n·inks, the freedom a row adds at the clear.
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
        // Registered: the rows' adds come 64 cycles into the clear, and the
        // sum of shifts before the freedom's add was a long path.
        self.row_freedom_q.d.next = self.row_freedom.val();
        // A written cell changes the freedom a cycle after the write (the
        // counts and the add in one cycle were a long path); `decided` is
        // first read at the Look three cycles after a crossing write.
        self.freedom_change.d.next = 0.into();
        self.freedom.d.next = self.freedom.q.val() + self.freedom_change.q.val();
        self.decided.d.next = self.freedom.q.val() == 0;
        self.too_big.d.next = self.freedom.q.val() > 2048;
        self.counts.start.next = self.start.val();
        self.counts.budget.next = self.budget.val();
        self.counts.cycles.next = self.tally.cycles.val();
        self.counts.count_node.next = false;
        self.counts.count_backtrack.next = false;
        // A branch's colours: the lowest ink first, the rest second.
        self.inks_had.next = self.cells.copied_colours.val() & !Bits::<COLOURS>::from(1u64);
        self.ink_found.next = self.inks_had.val() & (!self.inks_had.val() + 1);
        self.ink_found_q.d.next = self.ink_found.val();
        // (An undo writes back the colours the cell had: `cell_colours`.)
        self.second_colours.next = self.cell_colours.q.val()
            & !((self.cell_colours.q.val() & !Bits::<COLOURS>::from(1u64))
                & (!(self.cell_colours.q.val() & !Bits::<COLOURS>::from(1u64)) + 1));
        self.done_q.d.next = false;

        match self.state.q.val() {
            State::Idle => {}
            State::Clear => {
                // Rows at 0..32, columns at 32..64; meanwhile the visit
                // order's dirty bits and the tally's m·n, and the freedom:
                // n·inks for each of the m rows.
                if self.counter.q.val() < 64 {
                    self.write_q.d.next = true;
                    self.write_address.d.next = self.counter.q.val().get_bits::<7>(0);
                    self.written.d.next = 1.into(); // CLEAR_ROW
                    if self.counter.q.val().get_bit(5) {
                        self.written.d.next = 2.into(); // CLEAR_COLUMN
                    }
                } else if (self.counter.q.val() & 63) < bit_cast::<8, 7>(self.order.rows.val()) {
                    self.freedom.d.next = self.freedom.q.val() + self.row_freedom_q.q.val();
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
                    if self.decided.q.val() {
                        self.outcome_q.d.next = 0.into(); // SOLVED
                        if !self.searching.q.val() {
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else if self.first_q.q.val() {
                            self.detail_q.d.next = 1.into(); // FIRST_FOUND
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else if self.kept_q.q.val() {
                            self.outcome_q.d.next = 6.into(); // SEVERAL
                            self.done_q.d.next = true;
                            self.state.d.next = State::Done;
                        } else {
                            self.save_row.d.next = 0.into();
                            self.state.d.next = State::SaveRead;
                        }
                    } else if self.counts.no_search.val() {
                        self.outcome_q.d.next = 2.into(); // STALLED
                        self.done_q.d.next = true;
                        self.state.d.next = State::Done;
                    } else {
                        self.backtracking.d.next = false;
                        self.state.d.next = State::Check;
                    }
                } else if self.order.line_dirty.val() {
                    self.state.d.next = State::Fetch;
                } else {
                    // (The visit order steps on: see the end.)
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
                        self.written.d.next = 4.into(); // LINE
                        self.state.d.next = State::Narrowed;
                    } else if self.searching.q.val() {
                        self.backtracking.d.next = true;
                        self.state.d.next = State::Check;
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
            State::CrossRead => {
                self.state.d.next = State::CrossWord;
            }
            State::CrossWord => {
                self.write_q.d.next = true;
                self.write_address.d.next = self.cross_address.q.val();
                self.written.d.next = 8.into(); // CELL
                self.state.d.next = State::CrossWrite;
            }
            State::CrossWrite => {
                self.freedom_change.d.next = bit_cast::<16, 3>(self.writer.count.val())
                    - bit_cast::<16, 3>(self.writer.had_count.val());
                self.trail.push.next = self.searching.q.val();
                self.state.d.next = State::Advance;
                if self.cells.fresh_any.val() {
                    self.state.d.next = State::CrossRead;
                }
            }
            State::Advance => {
                self.state.d.next = State::Seek;
            }
            State::Check => {
                if self.counts.over_budget.val() | (!self.backtracking.q.val() & self.too_big.q.val()) {
                    self.giving_up.d.next = true;
                    self.outcome_q.d.next = 7.into(); // GAVE_UP
                    self.detail_q.d.next = 2.into(); // TRAIL_RAN_OUT
                    if self.counts.over_budget.val() {
                        self.detail_q.d.next = 1.into(); // BUDGET_RAN_OUT
                    }
                    self.state.d.next = State::UndoRead;
                } else {
                    self.searching.d.next = true;
                    self.state.d.next = State::ScanRead;
                    if self.backtracking.q.val() {
                        self.counts.count_backtrack.next = true;
                        self.forgetting_q.d.next = true;
                        self.state.d.next = State::UndoRead;
                    }
                }
            }
            State::ScanRead => {
                self.state.d.next = State::ScanLoad;
            }
            State::ScanLoad => {
                self.state.d.next = State::ScanAny;
            }
            State::ScanAny => {
                self.state.d.next = State::ScanCell;
                if !self.cells.fresh_any.val() {
                    self.scan_row.d.next = self.scan_row.q.val() + 1;
                    self.state.d.next = State::ScanRead;
                }
            }
            State::ScanCell => {
                self.cell_column.d.next = self.cells.lowest_cell.val();
                self.state.d.next = State::BranchColours;
            }
            State::BranchColours => {
                self.cell_row.d.next = self.scan_row.q.val();
                // (Its colour reaches `cell_colours` in UpRow: `ink_found_q`.)
                self.update.d.next = Update::FirstBranch;
                self.counts.count_node.next = true;
                self.state.d.next = State::UpRow;
            }
            State::UpRow => {
                if self.update.q.val() == Update::FirstBranch {
                    self.cell_colours.d.next = self.ink_found_q.q.val();
                }
                self.state.d.next = State::UpRowWord;
            }
            State::UpRowWord => {
                self.write_q.d.next = true;
                self.write_address.d.next = bit_cast::<7, 5>(self.cell_row.q.val());
                self.written.d.next = 8.into(); // CELL
                self.state.d.next = State::UpColumn;
            }
            State::UpColumn => {
                self.freedom_change.d.next = bit_cast::<16, 3>(self.writer.count.val())
                    - bit_cast::<16, 3>(self.writer.had_count.val());
                self.trail.push.next = self.update.q.val() != Update::Undo;
                self.state.d.next = State::UpColumnWord;
            }
            State::UpColumnWord => {
                self.write_q.d.next = true;
                self.write_address.d.next = bit_cast::<7, 5>(self.cell_column.q.val()) | 32;
                // (A branch: the visit order goes to its row, by `at_branch_word`.)
                self.written.d.next = 8.into(); // CELL
                self.state.d.next = State::UpEnd;
            }
            State::UpEnd => {
                if self.update.q.val() != Update::Undo {
                    // The branch's row and column are dirty.
                    // (The order marks and crosses: `marking_q`, `crossing_q`.)
                    self.state.d.next = State::Seek;
                } else if !self.giving_up.q.val() & self.undone_first.q.val() {
                    // Its second branch: every other colour it had.
                    self.cell_colours.d.next = self.second_colours.val();
                    self.update.d.next = Update::SecondBranch;
                    self.counts.count_node.next = true;
                    self.scan_row.d.next = self.cell_row.q.val();
                    self.state.d.next = State::UpRow;
                } else {
                    self.state.d.next = State::UndoRead;
                }
            }
            State::UndoRead => {
                if self.trail.empty.val() {
                    // Every branch refuted (the kept solution is the only
                    // one, or there is none), or every cell undone after
                    // giving up.
                    if !self.giving_up.q.val() {
                        self.outcome_q.d.next = 1.into(); // CONTRADICTION
                        self.detail_q.d.next = 255.into(); // SEARCHED
                        if self.kept_q.q.val() {
                            self.outcome_q.d.next = 0.into(); // SOLVED
                            self.detail_q.d.next = 0.into();
                        }
                    }
                    self.done_q.d.next = true;
                    self.state.d.next = State::Done;
                } else {
                    self.trail.pop.next = true;
                    self.cell_row.d.next = self.trail.top_row.val();
                    self.cell_column.d.next = self.trail.top_column.val();
                    self.cell_colours.d.next = self.trail.top_had.val();
                    self.undone_first.d.next = self.trail.top_first.val();
                    self.update.d.next = Update::Undo;
                    self.state.d.next = State::UpRow;
                }
            }
            State::SaveRead => {
                self.state.d.next = State::SaveWrite;
            }
            State::SaveWrite => {
                self.write_q.d.next = true;
                self.write_address.d.next = bit_cast::<7, 5>(self.save_row.q.val()) | 64;
                self.written.d.next = 4.into(); // LINE: the row read, kept
                self.save_row.d.next = self.save_row.q.val() + 1;
                self.state.d.next = State::SaveRead;
                // (Not save_row + 1 == m: the add before the compare was a
                // long path.)
                if bit_cast::<7, 5>(self.save_row.q.val()) == self.last_row.val() {
                    self.kept_q.d.next = true;
                    self.backtracking.d.next = true;
                    self.state.d.next = State::Check;
                }
            }
            State::Done => {}
            _ => {
                self.state.d.next = State::Idle;
            }
        }
        // On to the next line: from Look with some line dirty but not this
        // one, and from Advance.
        self.order.advance.next =
            (self.at_look.q.val() & self.order.any_dirty.val() & !self.order.line_dirty.val())
                | self.at_advance.q.val();

        // n and m ones: a row's cells and a column's.
        self.row_ones.value.next = self.columns.val();
        self.column_ones.value.next = self.rows.val();
        if self.start.val() {
            self.counter.d.next = 0.into();
            self.inks_q.d.next = self.inks.val();
            self.planes.d.next = (Bits::<8>::from(2u64) << self.inks.val()) - 1;
            self.row_cells.d.next = self.row_ones.below.val();
            self.column_cells.d.next = self.column_ones.below.val();
            self.first_q.d.next = self.first_only.val();
            self.freedom.d.next = 0.into();
            self.freedom_change.d.next = 0.into();
            self.searching.d.next = false;
            self.backtracking.d.next = false;
            self.giving_up.d.next = false;
            self.kept_q.d.next = false;
            self.scan_row.d.next = 0.into();
            self.detail_q.d.next = 0.into();
            self.state.d.next = State::Clear;
        }
        if self.abort.val() {
            self.state.d.next = State::Idle;
            self.write_q.d.next = false;
            self.forgetting_q.d.next = false;
            self.start_line.d.next = false;
            self.done_q.d.next = false;
        }

        self.at_look.d.next = self.state.d.val() == State::Look;
        self.at_advance.d.next = self.state.d.val() == State::Advance;
        // (`update` does not change from UpColumn to UpColumnWord.)
        self.at_branch_word.d.next =
            (self.state.d.val() == State::UpColumnWord) & (self.update.q.val() != Update::Undo);
        self.at_clear.d.next = self.state.d.val() == State::Clear;
        self.at_scan_load.d.next = self.state.d.val() == State::ScanLoad;
        self.at_save_write.d.next = self.state.d.val() == State::SaveWrite;
        self.at_fetch.d.next = self.state.d.val() == State::Fetch;
        self.at_cross_read.d.next = self.state.d.val() == State::CrossRead;
        self.at_scan_read.d.next = self.state.d.val() == State::ScanRead;
        self.at_up_row.d.next = self.state.d.val() == State::UpRow;
        self.at_up_column.d.next = self.state.d.val() == State::UpColumn;
        self.at_save.d.next =
            (self.state.d.val() == State::SaveRead) | (self.state.d.val() == State::SaveWrite);
        self.at_done.d.next = self.state.d.val() == State::Done;
        self.marking_q.d.next = (self.state.d.val() == State::UpEnd) & (self.update.q.val() != Update::Undo);
        self.crossing_q.d.next = (self.state.d.val() == State::CrossWord) | self.marking_q.d.val();
        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        self.tally.busy.next = self.busy.val();
        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.detail.next = self.detail_q.q.val();
        self.cycles.next = self.tally.cycles.val();
        self.passes.next = self.tally.passes.val();
        self.board_cells.next = self.tally.cells.val();
        self.all_decided.next = self.decided.q.val();
        self.kept.next = self.kept_q.q.val();
        self.nodes.next = self.counts.nodes.val();
        self.backtracks.next = self.counts.backtracks.val();
    }
}
