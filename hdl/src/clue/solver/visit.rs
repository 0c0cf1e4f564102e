//! The solver's wiring of its parts, and the state machine of a visit
//! (the ports, the parts and the states are declared in `solver.rs`, whose
//! header tells a visit cycle by cycle).

use super::*;

impl Logic for ClueSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            counter,
            line_bit,
            bit_number,
            copied_cell,
            cleaning,
            marking,
            start_line,
            searching,
            after_guess
        );
        self.line_solver.clock.next = self.clock.val();
        self.line_bit.narrow.next = self.narrow.val();
        self.line_solver.narrow.next = self.narrow.val();
        self.board.narrow.next = self.narrow.val();
        self.order.narrow.next = self.narrow.val();
        self.words.narrow.next = self.narrow.val();
        self.search.narrow.next = self.narrow.val();
        self.store.clock.next = self.clock.val();
        self.board.clock.next = self.clock.val();
        self.order.clock.next = self.clock.val();
        self.words.clock.next = self.clock.val();
        self.writer.clock.next = self.clock.val();
        self.search.clock.next = self.clock.val();
        self.tally.clock.next = self.clock.val();
        self.verdict.clock.next = self.clock.val();

        // The loader fills the clue store; the line solver reads its clue
        // from there.
        self.store.clue_write.next = self.clue_write.val();
        self.store.clue_address.next = self.clue_address.val();
        self.store.clue_length.next = self.clue_length.val();
        self.store.line_write.next = self.line_write.val();
        self.store.line_number.next = self.line_number.val();
        self.store.line_first.next = self.line_first.val();
        self.store.line_blocks.next = self.line_blocks.val();
        self.store.line.next = self.order.line.val();
        self.store.load.next = self.state.q.val() == State::Load;
        self.store.solving.next = (self.state.q.val() == State::Start) | (self.state.q.val() == State::Solve);
        self.store.block.next = self.line_solver.clue_address.val();
        self.line_solver.clue_length.next = self.store.length.val();
        self.line_solver.start.next = self.start_line.q.val();
        self.start_line.d.next = false;
        self.line_solver.length.next = self.order.length.val();
        self.line_solver.blocks.next = self.store.blocks.val();
        self.line_solver.known.next = self.words.line_known.val();
        self.line_solver.value.next = self.board.read_data.val();

        // The visited line's words load on pulses from flip-flops (see
        // `LineWords`); Load and the search's guess load the Known word.
        self.words.read_data.next = self.board.read_data.val();
        self.words.load_known.next = (self.state.q.val() == State::Load) | self.search.known_load.val();
        self.words.solved.next = self.line_solver.done.val();
        self.words.can_fill.next = self.line_solver.can_fill.val();
        self.words.can_empty.next = self.line_solver.can_empty.val();
        self.words.crossing.next = self.writer.crossing.val();
        self.words.scan_load.next = self.search.scan_load.val();
        self.words.column_mask.next = self.search.scan_mask.val();
        self.words.guess_load.next = self.search.guess_load.val();
        self.words.guess_value.next = self.search.guess_value.val();
        self.words.line_bit.next = self.line_bit.q.val();

        // The board memory: the lines its read flags name, the written
        // word's pulses (a visit's words, a crossing, an undo) and the
        // reply's reads. A visit's reads and writes are marked in its
        // states below.
        self.board.reply_row.next = self.read_row.val();
        self.board.index.next = self.order.index.val();
        self.board.is_column.next = self.order.is_column.val();
        self.board.copied_cell.next = self.copied_cell.q.val();
        self.board.scan_row.next = self.search.scan_row.val();
        self.board.guess_row.next = self.search.guess_row.val();
        self.board.save_row.next = self.search.save_row.val();
        self.board.undo_row.next = self.search.undo_row.val();
        self.board.undo_column.next = self.search.undo_column.val();
        self.board.visit_written.next = self.line_solver.done.val() | self.search.guess_load.val();
        self.board.crossing.next = self.writer.crossing.val();
        self.board.undoing.next = self.search.undoing.val();
        self.board.new_known.next = self.words.new_known.val();
        self.board.new_value.next = self.words.new_value.val();
        self.board.line_bit.next = self.line_bit.q.val();
        self.board.copied_value.next = self.words.copied_value.val();
        self.board.done.next = self.state.q.val() == State::Done;
        self.board.answer_kept.next = self.verdict.answer_kept.val();
        self.board.reply_value.next = self.read_value.val();
        self.board.reply_differs.next = self.read_differs.val();
        self.board.read_used.next = self.state.q.val() == State::Done;
        self.board.write.next = false;
        self.board.write_address.next = bit_cast::<8, 6>(self.order.index.val());
        self.board.save.next = false;
        self.row_word.next = self.board.row_word.val();

        // The search: its inputs, and its hand-overs in the states below.
        self.search.start.next = self.start.val();
        self.search.budget.next = self.budget.val();
        self.search.probe.next = self.probe.val();
        self.search.crossing.next = self.writer.crossing.val();
        self.search.line_bit.next = self.line_bit.q.val();
        self.search.copied_bit.next = self.words.copied_bit.val();
        self.search.column_mask.next = self.order.column_mask.val();
        self.search.read_data.next = self.board.read_data.val();
        self.search.abort.next = self.abort.val();
        self.search.active.next = self.state.q.val() == State::Search;
        self.search.enter_check.next = false;
        self.search.backtrack.next = false;
        self.search.enter_save.next = false;
        self.search.trail_fits.next = self.tally.trail_fits.val();
        self.search.cycles.next = self.tally.cycles.val();
        self.search.rows.next = self.order.rows.val();
        self.search.fresh_any.next = self.words.fresh_any.val();
        self.search.lowest_cell.next = self.words.lowest_cell.val();
        self.search.copied_cell.next = self.copied_cell.q.val();
        self.search.line_index.next = self.order.index.val();
        self.search.is_column.next = self.order.is_column.val();
        // Written once, not as a default overwritten in Write: the glitch of
        // an overwritten default re-runs the search's `always @(*)`, whose own
        // overwritten outputs re-run this one, and Icarus never settles.
        self.search.push.next =
            (self.state.q.val() == State::Write) & self.writer.fixed.val() & self.searching.q.val();
        self.search.searching.next = self.searching.q.val();

        self.writer.start.next = false;
        self.writer.abort.next = self.abort.val();
        self.writer.index.next = self.order.index.val();
        self.writer.is_column.next = self.order.is_column.val();
        self.writer.copied_cell.next = self.copied_cell.q.val();
        self.writer.fresh_any.next = self.words.fresh_any.val();

        self.order.start.next = self.start.val();
        self.order.start_rows.next = self.rows.val();
        self.order.start_columns.next = self.columns.val();
        self.order.abort.next = self.abort.val();
        self.order.clearing.next = self.state.q.val() == State::Clear;
        self.order.counter.next = self.counter.q.val();
        self.order.cleaning.next = self.cleaning.q.val();
        self.order.crossing.next = self.writer.crossing.val();
        self.order.marking.next = self.marking.q.val();
        self.order.forgetting.next = self.search.forgetting.val();
        self.order.line_bit.next = self.line_bit.q.val();
        self.order.copied_bit.next = self.words.copied_bit.val();

        // The counts, and the verdict's ends (in the states below).
        self.tally.start.next = self.start.val();
        self.tally.clearing.next = self.state.q.val() == State::Clear;
        self.tally.counter.next = self.counter.q.val();
        self.tally.rows.next = self.order.rows.val();
        self.tally.columns.next = self.order.columns.val();
        self.tally.looking.next = self.state.q.val() == State::Look;
        self.tally.line.next = self.order.line.val();
        self.tally.fixing.next = false;
        self.tally.undone.next = self.search.undoing.val();
        self.verdict.start.next = self.start.val();
        self.verdict.abort.next = self.abort.val();
        self.verdict.first_only.next = self.first_only.val();
        self.verdict.no_dirty.next = false;
        self.verdict.board_known.next = self.tally.board_known.val();
        self.verdict.in_probe.next = self.search.in_probe.val();
        self.verdict.guessed.next = self.search.guessed.val();
        self.verdict.solution_kept.next = self.search.solution_kept.val();
        self.verdict.no_search.next = self.search.no_search.val();
        self.verdict.contradiction.next = false;
        self.verdict.search_finish.next = self.search.finish.val();
        self.verdict.finish_gave_up.next = self.search.finish_gave_up.val();
        self.verdict.finish_keeps.next = self.search.finish_keeps.val();
        self.verdict.searching.next = self.searching.q.val();
        self.verdict.trail_full.next = self.search.trail_full.val();
        self.verdict.line.next = self.order.line.val();

        // (The one-hot of `bit_number`: a literal, not a Constant.)
        self.line_bit.d.next = Bits::<64>::from(1u64) << self.bit_number.q.val();
        self.marking.d.next = false;
        self.next_line.next = false;
        self.cleaning.d.next = false;

        match self.state.q.val() {
            State::Idle => {}
            State::Clear => {
                // Known words of both copies: addresses 0..64 and 128..192.
                self.board.write.next = true;
                self.board.write_address.next =
                    (self.counter.q.val() & 63) | ((self.counter.q.val() & 64) << 1);
                self.counter.d.next = self.counter.q.val() + 1;
                // (The tally sums m·n meanwhile.)
                if self.counter.q.val() == 127 {
                    self.state.d.next = State::Seek;
                }
            }
            State::Seek => {
                self.state.d.next = State::Look;
            }
            State::Look => {
                self.bit_number.d.next = self.order.index.val();
                if !self.order.any_dirty.val() {
                    // The verdict ends the solve, or the search takes it.
                    self.verdict.no_dirty.next = true;
                    self.search.enter_save.next = self.verdict.to_save.val();
                    self.search.enter_check.next = self.verdict.to_check.val();
                    self.state.d.next = State::Done;
                    if self.verdict.to_search.val() {
                        self.state.d.next = State::Search;
                    }
                } else if self.order.line_dirty.val() {
                    self.state.d.next = State::Fetch;
                } else {
                    self.next_line.next = true;
                    self.state.d.next = State::Seek;
                }
            }
            State::Fetch => {
                self.board.read_used.next = true;
                self.cleaning.d.next = true;
                self.state.d.next = State::Load;
            }
            State::Load => {
                self.board.read_used.next = true;
                self.start_line.d.next = true;
                self.state.d.next = State::Start;
            }
            State::Start => {
                // Value arrives now; the line table's word is still on its
                // port; `start_line` starts the line solver.
                self.state.d.next = State::Solve;
            }
            State::Solve => {
                // (The result goes into the line's words.)
                if self.line_solver.done.val() {
                    if self.line_solver.feasible.val() {
                        self.writer.start.next = true;
                        self.state.d.next = State::Write;
                    } else if self.searching.q.val() {
                        self.search.enter_check.next = true;
                        self.search.backtrack.next = true;
                        self.state.d.next = State::Search;
                    } else {
                        self.verdict.contradiction.next = true;
                        self.state.d.next = State::Done;
                    }
                }
            }
            State::Write => {
                // A guess's row is dirty (`line_bit` is its bit from the
                // second write on). Each fresh cell's crossing: see
                // `CrossingWriter`.
                self.marking.d.next = self.writer.at_known.val() & self.after_guess.q.val();
                self.board.write.next = self.writer.write.val();
                self.board.write_address.next = self.writer.write_address.val();
                self.board.read_used.next = self.writer.read_used.val();
                if self.writer.take_cell.val() {
                    self.copied_cell.d.next = self.words.lowest_cell.val();
                }
                self.tally.fixing.next = self.writer.fixed.val();
                if self.writer.done.val() {
                    self.state.d.next = State::Advance;
                }
            }
            State::Advance => {
                self.next_line.next = !self.after_guess.q.val();
                self.after_guess.d.next = false;
                self.state.d.next = State::Seek;
            }
            State::Search => {
                self.board.read_used.next = self.search.read_used.val();
                self.board.write.next = self.search.write.val();
                if self.search.write.val() {
                    self.board.write_address.next = self.search.write_address.val();
                }
                self.board.save.next = self.search.save.val();
                if self.search.bit_number_load.val() {
                    self.bit_number.d.next = self.search.bit_number.val();
                }
                if self.search.guess_column_load.val() {
                    self.copied_cell.d.next = self.search.guess_column.val();
                }
                if self.search.guess_fetch.val() {
                    self.after_guess.d.next = true;
                }
                if self.search.guess_set.val() {
                    self.writer.start.next = true;
                    self.state.d.next = State::Write;
                }
                if self.search.finish.val() {
                    // (The verdict takes the search's end.)
                    self.state.d.next = State::Done;
                }
            }
            State::Done => {}
            _ => {
                self.state.d.next = State::Idle;
            }
        }
        self.order.advance.next = self.next_line.val();
        // A guess (GuessFetch, where `to_guess` is high): the visit order
        // goes on from the guessed row, and the search has begun.
        self.order.to_guess.next = self.search.to_guess.val();
        self.order.guess_row.next = self.search.guess_row.val();
        if self.search.to_guess.val() {
            self.searching.d.next = true;
        }

        self.busy.next = (self.state.q.val() != State::Idle) & (self.state.q.val() != State::Done);
        self.tally.busy.next = self.busy.val();
        self.done.next = self.verdict.done.val();
        self.outcome.next = self.verdict.outcome.val();
        self.detail.next = self.verdict.detail.val();
        self.board_cells.next = self.tally.cells.val();
        self.all_known.next = self.tally.every_known.val() | self.verdict.answer_kept.val();
        self.nodes.next = self.search.nodes.val();
        self.backtracks.next = self.search.backtracks.val();
        self.cycles.next = self.tally.cycles.val();
        self.passes.next = self.tally.passes.val();

        if self.start.val() {
            self.counter.d.next = 0.into();
            self.searching.d.next = false;
            self.after_guess.d.next = false;
            self.state.d.next = State::Clear;
        }
        if self.abort.val() {
            self.state.d.next = State::Idle;
            self.board.write.next = false;
            self.start_line.d.next = false;
            self.marking.d.next = false;
        }

        // The read flags, from the next state (see `BoardMemory`). Where a
        // state has one way in, from the state before and its condition:
        // decoded from `state.d`, the whole next-state logic lay in front
        // of these flags (the trail's fit through Check's decision into
        // `reading_value` was the worst path, 85 MHz, of a nextpnr seed in
        // a trial build). `look_save` and the `fresh_any` term restate the
        // Look and crossing steps' conditions: keep them in step.
        self.keeps_state.next = !self.start.val() & !self.abort.val();
        self.look_fetch.next =
            (self.state.q.val() == State::Look) & self.order.any_dirty.val() & self.order.line_dirty.val();
        self.look_save.next =
            (self.state.q.val() == State::Look) & !self.order.any_dirty.val() & self.verdict.to_save.val();
        self.next_save_read.next = self.look_save.val() | self.search.saving_more.val();
        self.board.read_reply.next = self.state.d.val() == State::Done;
        self.board.read_line.next =
            (self.look_fetch.val() | (self.state.q.val() == State::Fetch)) & self.keeps_state.val();
        self.board.read_cross.next = self.writer.next_cross.val() & self.keeps_state.val();
        self.board.read_scan.next = (self.state.d.val() == State::Search) & self.search.next_scan.val();
        self.board.read_guess.next = (self.state.d.val() == State::Search) & self.search.next_guess.val();
        self.board.read_save.next = self.next_save_read.val() & self.keeps_state.val();
        self.board.read_undo_row.next =
            (self.state.d.val() == State::Search) & self.search.next_undo_row.val();
        self.board.read_undo_column.next = self.search.undoing_row.val() & self.keeps_state.val();
        self.board.read_value_copy.next = ((self.state.q.val() == State::Fetch)
            | self.writer.cross_read.val()
            | self.search.guess_fetch.val()
            | self.next_save_read.val())
            & self.keeps_state.val();
    }
}
