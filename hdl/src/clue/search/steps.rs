//! The search's steps, cycle by cycle: what each step does to the
//! search's registers, its parts and the solver (the ports and the parts
//! are declared in `mod.rs`, whose header tells the steps).

use super::*;

impl Logic for Search {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            step,
            backtracking,
            giving_up,
            solution_kept_q,
            trail_full_q,
            guess_row_q,
            guess_value_q,
            guess_second,
            scan_row_q,
            scan_load_q,
            guess_load_q,
            undoing_q,
            forgetting_q,
            to_guess_q
        );
        self.counts.clock.next = self.clock.val();
        self.counts.start.next = self.start.val();
        self.counts.budget.next = self.budget.val();
        self.counts.cycles.next = self.cycles.val();
        // Counts change a cycle after their step (their wide enables then
        // come from flip-flops).
        self.counts.count_node.next = false;
        self.counts.count_backtrack.next = false;

        self.walk.clock.next = self.clock.val();
        self.walk.start.next = self.start.val();
        self.walk.rows.next = self.rows.val();
        self.walk.push.next = self.push.val();
        self.walk.line_index.next = self.line_index.val();
        self.walk.fixed_cell.next = self.copied_cell.val();
        self.walk.is_column.next = self.is_column.val();
        self.walk.guess_value.next = self.guess_value_q.q.val();
        self.walk.second.next = self.guess_second.q.val();
        self.walk.guess_fetch.next = false;
        self.walk.forcing.next = self.rounds.forcing.val();
        self.walk.reading.next =
            self.active.val() & ((self.step.q.val() == Step::Check) | (self.step.q.val() == Step::UndoWrite));
        self.walk.latch.next = false;
        self.walk.pop.next = false;
        self.walk.enter_save.next = self.enter_save.val();
        self.walk.save_step.next = false;
        self.walk.decide.next = false;
        self.walk.giving_up.next = self.giving_up.q.val();
        self.walk.solution_kept.next = self.solution_kept_q.q.val();
        self.walk.undo_probe.next = self.rounds.undo_probe.val();

        self.rounds.clock.next = self.clock.val();
        self.rounds.narrow.next = self.narrow.val();
        self.rounds.start.next = self.start.val();
        self.rounds.probe.next = self.probe.val();
        self.rounds.active.next = self.active.val();
        self.rounds.rows.next = self.rows.val();
        self.rounds.scan_row.next = self.scan_row_q.q.val();
        self.rounds.guess_row.next = self.guess_row_q.q.val();
        self.rounds.lowest_cell.next = self.lowest_cell.val();
        self.rounds.fresh_any.next = self.fresh_any.val();
        self.rounds.backtracking.next = self.backtracking.q.val();
        self.rounds.scan_loaded.next = self.scan_load_q.q.val();
        // (A probe's count starts at its guess.)
        self.rounds.guess_step.next = self.step.q.val() == Step::GuessFetch;
        self.rounds.crossing.next = self.crossing.val();
        self.rounds.is_column.next = self.is_column.val();
        self.rounds.line_bit.next = self.line_bit.val();
        self.rounds.copied_bit.next = self.copied_bit.val();
        self.rounds.column_mask.next = self.column_mask.val();
        self.rounds.read_data.next = self.read_data.val();
        self.rounds.leave_round.next = false;
        self.rounds.forget.next = false;
        self.rounds.round_start.next = false;
        self.rounds.row_begin.next = false;
        self.rounds.probe_ends.next = false;
        self.rounds.new_node.next = false;
        self.rounds.scan_wait.next = false;
        self.rounds.pick.next = false;
        self.rounds.merge_scan.next = false;
        self.rounds.fetch.next = false;
        self.rounds.pop.next = false;
        self.rounds.probe_undone.next = false;
        self.rounds.round_begins.next = false;
        self.rounds.probe_returns.next = false;
        self.rounds.fix.next = false;
        self.rounds.empty_probe.next = false;
        self.rounds.score_probe.next = false;
        self.rounds.branch_check.next = false;
        self.rounds.unknown_scan.next = false;
        self.branch_now.next = false;

        self.bit_number_load.next = false;
        self.bit_number.next = self.walk.top_column.val();
        self.guess_column_load.next = false;
        self.guess_column.next = self.lowest_cell.val();
        self.known_load.next = false;
        self.guess_fetch.next = false;
        self.guess_set.next = false;
        self.finish.next = false;
        self.finish_gave_up.next = true;
        self.finish_keeps.next = false;
        self.read_used.next = false;
        self.write.next = false;
        self.write_address.next = bit_cast::<8, 6>(self.walk.row.val());
        self.save.next = false;
        self.scan_load_q.d.next = false;
        self.guess_load_q.d.next = false;
        self.undoing_q.d.next = false;
        self.forgetting_q.d.next = false;
        self.to_guess_q.d.next = false;
        if self.enter_check.val() {
            self.backtracking.d.next = self.backtrack.val();
            self.step.d.next = Step::Check;
        }
        if self.enter_save.val() {
            self.step.d.next = Step::SaveRead;
        }

        if self.active.val() {
            match self.step.q.val() {
                Step::Check => {
                    // An undo starts with the column of the trail's top entry.
                    self.bit_number_load.next = true;
                    self.walk.latch.next = true;
                    // (The trail is checked at a new node only.)
                    if self.counts.over_budget.val()
                        | (!self.backtracking.q.val()
                            & !self.rounds.in_probe.val()
                            & !self.rounds.in_round.val()
                            & !self.trail_fits.val())
                    {
                        self.giving_up.d.next = true;
                        self.trail_full_q.d.next = !self.counts.over_budget.val();
                        self.step.d.next = Step::UndoRow;
                        self.finish.next = self.walk.empty.val();
                    } else if self.rounds.in_probe.val() {
                        // A probe's end: undone to its mark, its cells counted.
                        self.rounds.probe_ends.next = true;
                        self.forgetting_q.d.next = true;
                        self.step.d.next = Step::UndoRow;
                    } else if self.backtracking.q.val() {
                        self.forgetting_q.d.next = true;
                        self.counts.count_backtrack.next = true;
                        self.rounds.forget.next = true;
                        self.rounds.leave_round.next = true;
                        self.step.d.next = Step::UndoRow;
                    } else if self.rounds.in_round.val() {
                        // A fix for good stalled: the round goes on.
                        self.step.d.next = Step::ScanRead;
                    } else if self.rounds.probe_mode.val() {
                        // A new node.
                        self.rounds.new_node.next = true;
                        self.step.d.next = Step::RoundStart;
                        self.rounds.round_start.next = true;
                    } else {
                        self.step.d.next = Step::ScanRead;
                    }
                }
                Step::ScanRead => {
                    self.read_used.next = true;
                    self.scan_load_q.d.next = true;
                    self.step.d.next = Step::ScanCheck;
                }
                Step::ScanCheck => {
                    // (The solver's `fresh` takes the row's unknown cells.)
                    self.step.d.next = Step::ScanWait;
                }
                Step::ScanWait => {
                    self.step.d.next = Step::ScanPick;
                    self.rounds.scan_wait.next = true;
                }
                Step::ScanPick => {
                    // (`fresh_any` says whether the finder's bytes have a bit.)
                    // (The kept cell's merge is decided in `ProbeRounds`.)
                    if self.rounds.scan_merge.val() {
                        self.step.d.next = Step::RoundNext;
                    } else if self.rounds.scan_check.val() {
                        self.step.d.next = Step::RoundStart;
                        self.rounds.round_start.next = true;
                        self.branch_now.next = !self.rounds.kept_known.val();
                    } else if self.fresh_any.val() {
                        self.guess_row_q.d.next = self.scan_row_q.q.val();
                        // (Through `copied_cell`: the lowest-cell finder's
                        // carry chain is too slow for `bit_number` too.)
                        self.guess_column_load.next = true;
                        self.guess_value_q.d.next = true;
                        self.guess_second.d.next = false;
                        self.to_guess_q.d.next = true;
                        self.step.d.next = Step::GuessFetch;
                        if self.rounds.scan_probe.val() {
                            // The filled probe: a guess never tried the
                            // other way (its mark).
                            self.guess_second.d.next = true;
                            self.rounds.pick.next = true;
                        } else {
                            self.counts.count_node.next = true;
                        }
                    } else {
                        self.scan_row_q.d.next = self.scan_row_q.q.val() + 1;
                        self.rounds.row_begin.next = true;
                        self.step.d.next = Step::ScanRead;
                        if self.rounds.scan_probe.val() & self.rounds.scan_last.val() {
                            // The round's end: the kept cell gives way to
                            // the round's best if it is known now (its row
                            // scanned) or scores lower.
                            if self.rounds.kept_valid.val() {
                                self.scan_row_q.d.next = self.rounds.kept_row.val();
                                self.rounds.merge_scan.next = true;
                            } else {
                                self.step.d.next = Step::RoundNext;
                            }
                        }
                    }
                }
                Step::GuessFetch => {
                    self.read_used.next = true;
                    self.guess_fetch.next = true;
                    // (A fix for good is pushed as no guess.)
                    self.walk.guess_fetch.next = true;
                    self.rounds.fetch.next = true;
                    self.bit_number_load.next = true;
                    self.bit_number.next = self.copied_cell.val();
                    self.step.d.next = Step::GuessLoad;
                }
                Step::GuessLoad => {
                    self.read_used.next = true;
                    self.known_load.next = true;
                    self.guess_load_q.d.next = true;
                    self.step.d.next = Step::GuessSet;
                }
                Step::GuessSet => {
                    // (The row's words take the guess on `guess_load`.)
                    // `line_bit` is the guessed column's bit now; next it
                    // becomes the guessed row's.
                    self.bit_number_load.next = true;
                    self.bit_number.next = self.guess_row_q.q.val();
                    self.guess_set.next = true;
                }
                Step::SaveRead => {
                    self.read_used.next = true;
                    self.step.d.next = Step::SaveWrite;
                }
                Step::SaveWrite => {
                    self.save.next = true;
                    self.walk.save_step.next = true;
                    self.step.d.next = Step::SaveRead;
                    if self.walk.save_last.val() {
                        self.solution_kept_q.d.next = true;
                        self.backtracking.d.next = true;
                        self.step.d.next = Step::Check;
                    }
                }
                Step::UndoRow => {
                    // (The entry was latched in the step before.)
                    self.bit_number_load.next = true;
                    self.bit_number.next = self.walk.row.val();
                    self.read_used.next = true;
                    self.walk.pop.next = true;
                    self.rounds.pop.next = true;
                    self.undoing_q.d.next = true;
                    self.step.d.next = Step::UndoColumn;
                }
                Step::UndoColumn => {
                    self.write.next = true;
                    self.walk.decide.next = true;
                    self.read_used.next = true;
                    self.step.d.next = Step::UndoWrite;
                }
                Step::UndoWrite => {
                    self.write.next = true;
                    self.write_address.next = bit_cast::<8, 6>(self.walk.column.val()) | 128;
                    self.step.d.next = Step::UndoRow;
                    self.bit_number_load.next = true;
                    self.walk.latch.next = true;
                    if self.walk.reguess.val() {
                        // The guess's other value.
                        self.guess_row_q.d.next = self.walk.row.val();
                        self.guess_column_load.next = true;
                        self.guess_column.next = self.walk.column.val();
                        self.guess_value_q.d.next = !self.walk.was_value.val();
                        self.guess_second.d.next = true;
                        self.counts.count_node.next = true;
                        self.to_guess_q.d.next = true;
                        self.step.d.next = Step::GuessFetch;
                    } else if self.walk.probe_end.val() {
                        self.rounds.probe_undone.next = true;
                        self.step.d.next = Step::ProbeDone;
                    } else if self.walk.last.val() {
                        self.finish.next = true;
                        self.finish_gave_up.next = self.walk.gave_up.val();
                        self.finish_keeps.next = self.walk.keeps.val();
                    }
                }
                Step::RoundStart => {
                    if self.rounds.probe_mode.val() {
                        // The round's lines are those changed since the last.
                        self.rounds.round_begins.next = true;
                        self.scan_row_q.d.next = 0.into();
                        self.step.d.next = Step::ScanRead;
                    }
                }
                Step::ProbeDone => {
                    if self.rounds.probe_mode.val() & self.rounds.multiplying.val() {
                        // (The best takes the cell in the cycle after.)
                        if self.rounds.last_step.val() {
                            self.step.d.next = Step::ScanRead;
                        }
                    } else if self.rounds.probe_mode.val() {
                        // The probed cell again, for a probe or a fix.
                        self.guess_column_load.next = true;
                        self.guess_column.next = self.rounds.probe_column.val();
                        self.to_guess_q.d.next = true;
                        self.rounds.probe_returns.next = true;
                        self.step.d.next = Step::GuessFetch;
                        if self.rounds.probe_contradicted.val() {
                            // The other value, for good (a filled probe that
                            // contradicts needs no empty one).
                            self.guess_value_q.d.next = !self.rounds.probe_value.val();
                            self.guess_second.d.next = false;
                            self.rounds.fix.next = true;
                        } else if self.rounds.probe_value.val() {
                            // The empty probe.
                            self.rounds.empty_probe.next = true;
                            self.guess_value_q.d.next = false;
                            self.guess_second.d.next = true;
                        } else {
                            // Scored (12 cycles here); the round goes on.
                            self.rounds.score_probe.next = true;
                            self.guess_column_load.next = false;
                            self.to_guess_q.d.next = false;
                            self.step.d.next = Step::ProbeDone;
                        }
                    }
                }
                Step::RoundNext => {
                    if self.rounds.probe_mode.val() {
                        if self.rounds.fixed_any.val() {
                            // Another round, or after the last the branch if
                            // the kept cell is still unknown.
                            self.step.d.next = Step::RoundStart;
                            self.rounds.round_start.next = true;
                            if self.rounds.late_round.val() & self.rounds.kept_valid.val() {
                                self.scan_row_q.d.next = self.rounds.kept_row.val();
                                self.rounds.branch_check.next = true;
                                self.rounds.round_start.next = false;
                                self.step.d.next = Step::ScanRead;
                            }
                        } else if self.rounds.kept_valid.val() {
                            self.branch_now.next = true;
                        } else {
                            // No cell was probed: the first unknown one.
                            self.rounds.leave_round.next = true;
                            self.scan_row_q.d.next = 0.into();
                            self.rounds.unknown_scan.next = true;
                            self.step.d.next = Step::ScanRead;
                        }
                    }
                }
            }
        }
        // The branch on the kept cell (from RoundNext, or from ScanPick's
        // check that it is still unknown).
        if self.branch_now.val() {
            self.rounds.round_start.next = false;
            self.rounds.leave_round.next = true;
            self.guess_row_q.d.next = self.rounds.kept_row.val();
            self.guess_column_load.next = true;
            self.guess_column.next = self.rounds.kept_column.val();
            self.guess_value_q.d.next = self.rounds.kept_value.val();
            self.guess_second.d.next = false;
            self.counts.count_node.next = true;
            self.to_guess_q.d.next = true;
            self.step.d.next = Step::GuessFetch;
        }
        // A guess: the scan goes on from the guessed row.
        if self.to_guess_q.q.val() {
            self.scan_row_q.d.next = self.guess_row_q.q.val();
        }

        if self.start.val() {
            self.giving_up.d.next = false;
            self.solution_kept_q.d.next = false;
            self.trail_full_q.d.next = false;
            self.scan_row_q.d.next = 0.into();
        }
        if self.abort.val() {
            self.forgetting_q.d.next = false;
            self.scan_load_q.d.next = false;
            self.guess_load_q.d.next = false;
        }

        self.next_scan.next = self.step.d.val() == Step::ScanRead;
        self.next_guess.next =
            (self.step.d.val() == Step::GuessFetch) | (self.step.d.val() == Step::GuessLoad);
        self.next_undo_row.next = self.step.d.val() == Step::UndoRow;
        self.saving_more.next =
            self.active.val() & (self.step.q.val() == Step::SaveWrite) & !self.walk.save_last.val();
        self.undoing_row.next = self.active.val() & (self.step.q.val() == Step::UndoRow);
        self.scan_mask.next = self.rounds.scan_mask.val();
        self.scan_row.next = self.scan_row_q.q.val();
        self.guess_row.next = self.guess_row_q.q.val();
        self.save_row.next = self.walk.save_row.val();
        self.undo_row.next = self.walk.row.val();
        self.undo_column.next = self.walk.column.val();
        self.guess_value.next = self.guess_value_q.q.val();
        self.scan_load.next = self.scan_load_q.q.val();
        self.guess_load.next = self.guess_load_q.q.val();
        self.undoing.next = self.undoing_q.q.val();
        self.forgetting.next = self.forgetting_q.q.val();
        self.to_guess.next = self.to_guess_q.q.val();
        self.no_search.next = self.counts.no_search.val();
        self.solution_kept.next = self.solution_kept_q.q.val();
        self.trail_full.next = self.trail_full_q.q.val();
        self.nodes.next = self.counts.nodes.val();
        self.in_probe.next = self.rounds.in_probe.val();
        // (Without probing, the first guess is the first branch.)
        if self.rounds.probe_mode.val() {
            self.guessed.next = self.counts.branched.val() | self.rounds.in_probe.val();
        } else {
            self.guessed.next = self.searching.val();
        }
        self.backtracks.next = self.counts.backtracks.val();
    }
}
