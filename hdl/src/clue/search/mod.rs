//! The clue engine's depth-first search (`clue_model::search` is its
//! model): the steps the solver takes under its `Search` state, and the
//! undo trail.
//!
//! The solver hands over at a stall (`enter_check`), at a contradiction
//! while searching (`enter_check` with `backtrack`), and when a search
//! fills the board (`enter_save`). The search answers with what the
//! solver's registers and the board memory do in the cycle: a guess is
//! handed back as a visit of its row (`guess_set`), and the end as
//! `finish`.
//!
//! * **Check**: give up (budget, or more unknown cells than the trail
//!   holds), go back (a contradiction or a kept solution), or choose.
//! * **Scan**: the first unknown cell. A row's Known word is read, its
//!   unknown cells go into the solver's `fresh`, and the lowest is found
//!   in two steps (the fresh finder). Filled is tried first: on random
//!   puzzles either order decides as many (`search_plan`), and filled cells
//!   fix more.
//! * **Guess**: the guessed row is read, the cell set in its words, and
//!   the visit's write-back copies it into the column and pushes it.
//! * **Save**: the first solution, a row a step, into the solution memory.
//! * **Undo**: pop one trail entry and clear its Known bit in the row copy,
//!   then in the column copy; at the latest guess with a value left, guess
//!   that value.
//!
//! With `probe` (`clue_model::probe` is the model), a stall starts a node's
//! rounds of probes instead (the RoundStart, ProbeDone and RoundNext steps;
//! `rounds.rs` tells them).
//!
//! The steps are this block's; its parts keep what the steps set:
//! * [`SearchCounts`](counts): the budget, the nodes and the backtracks;
//! * [`UndoWalk`](undo_walk): the undo trail, the row a save copies, and
//!   what an undo does next;
//! * [`ProbeRounds`](rounds): probing's rounds, with `ProbeLines` and
//!   `ProbeScore`.
//!
//! Every decision is taken from registers (`undo_*`, the compares, the
//! trail's latched entry), and every wide enable goes out on a registered
//! pulse: decoded from the step, these missed 100 MHz on the clue
//! bitstream. The steps are an enum of their own, under one solver state,
//! so that the visit's states stay few and quick to decode (in one enum
//! the clue bitstream reached 87 MHz). The probing steps fit the step
//! register's four bits.

mod counts;
mod rounds;
mod undo_walk;

use crate::common::params::CYCLE_BITS;
use counts::SearchCounts;
use rounds::ProbeRounds;
use rust_hdl::prelude::*;
use undo_walk::UndoWalk;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Step {
    Check,
    ScanRead,
    ScanCheck,
    ScanWait,
    ScanPick,
    GuessFetch,
    GuessLoad,
    GuessSet,
    SaveRead,
    SaveWrite,
    UndoRow,
    UndoColumn,
    UndoWrite,
    RoundStart,
    ProbeDone,
    RoundNext,
}

#[derive(LogicBlock, Default)]
pub struct Search {
    pub clock: Signal<In, Clock>,
    /// At most 32 rows and columns (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// A new board, with its budget in units of 2^20 cycles (0: no search),
    /// and whether to probe before every branch.
    pub start: Signal<In, Bit>,
    pub budget: Signal<In, Bits<12>>,
    pub probe: Signal<In, Bit>,
    pub abort: Signal<In, Bit>,
    /// The solver is in its Search state.
    pub active: Signal<In, Bit>,
    /// From a visit state, into Check; with `backtrack`, to go back.
    pub enter_check: Signal<In, Bit>,
    pub backtrack: Signal<In, Bit>,
    /// From Look: the board is full; keep it, then go back.
    pub enter_save: Signal<In, Bit>,
    /// The solver's state the steps read: the unknown cells fit the trail;
    /// the cycle count; the rows; `fresh` has a bit; its lowest cell; the
    /// copied cell and the visited line (for a push); a push.
    pub trail_fits: Signal<In, Bit>,
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    pub rows: Signal<In, Bits<7>>,
    pub fresh_any: Signal<In, Bit>,
    pub lowest_cell: Signal<In, Bits<6>>,
    pub copied_cell: Signal<In, Bits<6>>,
    pub line_index: Signal<In, Bits<6>>,
    pub is_column: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    /// The solver's: a guess (or a probe) has been made.
    pub searching: Signal<In, Bit>,
    /// For probing: the crossing writer's pulse, the visited line's bit and
    /// the copied cell's; the board's columns; the board memory's read port.
    pub crossing: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_bit: Signal<In, Bits<64>>,
    pub column_mask: Signal<In, Bits<64>>,
    pub read_data: Signal<In, Bits<64>>,
    /// The scan's mask (see `ProbeLines`).
    pub scan_mask: Signal<Out, Bits<64>>,
    /// A probe runs; a branch was made or a probe runs (the verdict's
    /// "guessed": a full board is then not line logic's alone).
    pub in_probe: Signal<Out, Bit>,
    pub guessed: Signal<Out, Bit>,
    /// What this cycle does to the solver: load `bit_number`; load the
    /// guessed column into `copied_cell`; load the visited line's Known
    /// word from the read port (a guess); the guess's row is being read
    /// (`guess_fetch`); return to the visit at WriteKnown (`guess_set`);
    /// end the solve (`finish`: gave up, or with the kept solution). These
    /// are written twice in a pass (a default, then the step's value) only
    /// while `active`, when the solver writes none of its pulses here:
    /// ports written twice on both sides set Icarus bouncing between the
    /// two blocks at one instant.
    pub bit_number_load: Signal<Out, Bit>,
    pub bit_number: Signal<Out, Bits<6>>,
    pub guess_column_load: Signal<Out, Bit>,
    pub guess_column: Signal<Out, Bits<6>>,
    pub known_load: Signal<Out, Bit>,
    pub guess_fetch: Signal<Out, Bit>,
    pub guess_set: Signal<Out, Bit>,
    pub finish: Signal<Out, Bit>,
    pub finish_gave_up: Signal<Out, Bit>,
    pub finish_keeps: Signal<Out, Bit>,
    /// ... and to the board memory.
    pub read_used: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub write_address: Signal<Out, Bits<8>>,
    pub save: Signal<Out, Bit>,
    /// For the read flags: the next step reads the scanned row, the
    /// guessed row, the undone cell's row; this step is GuessFetch, reads
    /// another saved row, is UndoRow.
    pub next_scan: Signal<Out, Bit>,
    pub next_guess: Signal<Out, Bit>,
    pub next_undo_row: Signal<Out, Bit>,
    pub saving_more: Signal<Out, Bit>,
    pub undoing_row: Signal<Out, Bit>,
    /// The rows and cells the board memory reads and writes.
    pub scan_row: Signal<Out, Bits<6>>,
    pub guess_row: Signal<Out, Bits<6>>,
    pub save_row: Signal<Out, Bits<6>>,
    pub undo_row: Signal<Out, Bits<6>>,
    pub undo_column: Signal<Out, Bits<6>>,
    pub guess_value: Signal<Out, Bit>,
    /// Registered pulses: the scanned row's word is on the read port; the
    /// guessed row's; a cell is undone; a backtrack (the dirty bits); a
    /// guess (the visit order goes on from its row).
    pub scan_load: Signal<Out, Bit>,
    pub guess_load: Signal<Out, Bit>,
    pub undoing: Signal<Out, Bit>,
    pub forgetting: Signal<Out, Bit>,
    pub to_guess: Signal<Out, Bit>,
    /// Kept flags: no budget; a solution is kept; gave up for the trail.
    pub no_search: Signal<Out, Bit>,
    pub solution_kept: Signal<Out, Bit>,
    pub trail_full: Signal<Out, Bit>,
    pub nodes: Signal<Out, Bits<32>>,
    pub backtracks: Signal<Out, Bits<32>>,
    counts: SearchCounts,
    walk: UndoWalk,
    rounds: ProbeRounds,
    step: DFF<Step>,
    // Check's event is a backtrack (else a choice); giving up.
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    solution_kept_q: DFF<Bit>,
    trail_full_q: DFF<Bit>,
    guess_row_q: DFF<Bits<6>>,
    guess_value_q: DFF<Bit>,
    guess_second: DFF<Bit>,
    scan_row_q: DFF<Bits<6>>,
    scan_load_q: DFF<Bit>,
    guess_load_q: DFF<Bit>,
    undoing_q: DFF<Bit>,
    forgetting_q: DFF<Bit>,
    to_guess_q: DFF<Bit>,
    branch_now: Signal<Local, Bit>,
}

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

#[cfg(test)]
mod tests;
