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
//! **rounds** instead of the scan for the first unknown cell:
//! * **RoundStart**: the round's lines are those changed for good since the
//!   last (`ProbeLines`), and the scan, masked to their cells, picks each
//!   cell to probe in turn, row by row.
//! * A **probe** is a guess never tried the other way (its mark); at its
//!   line logic's end Check undoes it to the mark, counting the entries
//!   (`ProbeScore`), and **ProbeDone** tries the empty probe, or fixes the
//!   other value for good if one contradicted (pushed as no guess; its
//!   line logic's stall goes back to the round), or has the cell scored
//!   (12 cycles more in ProbeDone).
//! * At the round's end (the scan past the last row) the kept cell is
//!   merged with the round's best (its Known bit read by a scan of its
//!   row); **RoundNext** then starts another round, branches on the kept
//!   cell (checked unknown after the last round), or scans for the first
//!   unknown cell if no cell was probed.
//!
//! The probing steps fit the step register's four bits, and every probing
//! decision goes through `probe_mode`: a core that ties `probe` low leaves
//! yosys nothing of probing to build.
//!
//! Every decision is taken from registers (`undo_*`, the compares, the
//! trail's latched entry), and every wide enable goes out on a registered
//! pulse: decoded from the step, these missed 100 MHz on the clue
//! bitstream. The steps are an enum of their own, under one solver state,
//! so that the visit's states stay few and quick to decode (in one enum
//! the clue bitstream reached 87 MHz).

use crate::clue::clue_model::BUDGET_UNIT_BITS;
use crate::clue::probe_lines::ProbeLines;
use crate::clue::probe_score::ProbeScore;
use crate::clue::trail::Trail;
use crate::common::params::CYCLE_BITS;
use rust_hdl::prelude::*;

// The budget compare takes the cycle count's bits 31..20.
const _: () = assert!(BUDGET_UNIT_BITS == 20 && CYCLE_BITS == 32);

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

/// What a scan looks for.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum ScanKind {
    /// The first unknown cell (the search without probing, and probing's
    /// fallback when a round probed no cell).
    Unknown,
    /// The round's next cell to probe.
    Probe,
    /// The kept cell's Known bit, for the merge at a round's end.
    Merge,
    /// The kept cell's Known bit, for the branch after the last round.
    BranchCheck,
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
    trail: Trail,
    lines: ProbeLines,
    score: ProbeScore,
    step: DFF<Step>,
    budget_q: DFF<Bits<12>>,
    no_search_q: DFF<Bit>,
    // Registered compares: past the budget; `save_row` is the last row.
    over_budget: DFF<Bit>,
    save_last: DFF<Bit>,
    // Check's event is a backtrack (else a choice); giving up.
    backtracking: DFF<Bit>,
    giving_up: DFF<Bit>,
    solution_kept_q: DFF<Bit>,
    trail_full_q: DFF<Bit>,
    guess_row_q: DFF<Bits<6>>,
    guess_value_q: DFF<Bit>,
    guess_second: DFF<Bit>,
    // The next trail push is the guess itself.
    guess_pending: DFF<Bit>,
    scan_row_q: DFF<Bits<6>>,
    save_row_q: DFF<Bits<6>>,
    nodes_q: DFF<Bits<32>>,
    backtracks_q: DFF<Bits<32>>,
    // Counts change a cycle after their step (their wide enables then come
    // from flip-flops).
    count_node: DFF<Bit>,
    count_backtrack: DFF<Bit>,
    scan_load_q: DFF<Bit>,
    guess_load_q: DFF<Bit>,
    undoing_q: DFF<Bit>,
    forgetting_q: DFF<Bit>,
    to_guess_q: DFF<Bit>,
    // What UndoWrite does, decided in UndoColumn from registers: guess the
    // other value; or, at the trail's bottom, end (gave up, or with the
    // kept solution).
    undo_reguess: DFF<Bit>,
    undo_last: DFF<Bit>,
    undo_gave_up: DFF<Bit>,
    undo_keeps: DFF<Bit>,
    // Probing: the mode; a probe runs (its undo stops at its mark, the
    // guess entry); a round runs; the probed value, cell and whether it
    // contradicted; a probe's first guess fetch (its cell leaves the row's
    // candidates); a fix for good (pushed as no guess); the round's count
    // and whether it fixed a cell; the scan's kind and its last row; a
    // branch was made.
    probe_mode: DFF<Bit>,
    in_probe_q: DFF<Bit>,
    undo_probe: DFF<Bit>,
    undo_probe_end: DFF<Bit>,
    in_round: DFF<Bit>,
    // A round ends a cycle after the step that ends it (a backtrack, a
    // branch, no cell probed): as the step's own enable, `in_round` took
    // six LUTs from the step on the narrow image's critical path. Nothing
    // reads it in that cycle.
    leaving_round: DFF<Bit>,
    probe_value: DFF<Bit>,
    probe_column: DFF<Bits<6>>,
    probe_contradicted: DFF<Bit>,
    picked: DFF<Bit>,
    // Registered pulses to the probing blocks' wide registers (decoded in
    // the cycle they act in, they held the clue bitstream to 85 MHz): a
    // backtrack's forgetting, a round's start, a new row (set in the cycle
    // before the step they act in; a new row's mask is bypassed meanwhile).
    // A round's start is set where a step moves to RoundStart, not decoded
    // from the next step: that decode was on the probing image's critical
    // path.
    forget_q: DFF<Bit>,
    round_start_q: DFF<Bit>,
    row_begin_q: DFF<Bit>,
    forcing: DFF<Bit>,
    round_count: DFF<Bits<2>>,
    fixed_any: DFF<Bit>,
    scan_kind: DFF<ScanKind>,
    scan_last: DFF<Bit>,
    merge_at_pick: DFF<Bit>,
    round_end_at_pick: DFF<Bit>,
    branched: DFF<Bit>,
    scan_probe: Signal<Local, Bit>,
    scan_merge: Signal<Local, Bit>,
    scan_check: Signal<Local, Bit>,
    branch_now: Signal<Local, Bit>,
}

impl Logic for Search {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            step,
            budget_q,
            no_search_q,
            over_budget,
            save_last,
            backtracking,
            giving_up,
            solution_kept_q,
            trail_full_q,
            guess_row_q,
            guess_value_q,
            guess_second,
            guess_pending,
            scan_row_q,
            save_row_q,
            nodes_q,
            backtracks_q,
            count_node,
            count_backtrack,
            scan_load_q,
            guess_load_q,
            undoing_q,
            forgetting_q,
            to_guess_q,
            undo_reguess,
            undo_last,
            undo_gave_up,
            undo_keeps,
            probe_mode,
            in_probe_q,
            undo_probe,
            undo_probe_end,
            in_round,
            leaving_round,
            probe_value,
            probe_column,
            probe_contradicted,
            picked,
            forget_q,
            round_start_q,
            row_begin_q,
            forcing,
            round_count,
            fixed_any,
            scan_kind,
            scan_last,
            merge_at_pick,
            round_end_at_pick,
            branched
        );
        self.trail.clock.next = self.clock.val();
        // Since the first guess every fixed cell is pushed.
        self.trail.clear.next = self.start.val();
        self.trail.push.next = self.push.val();
        self.trail.pop.next = false;
        self.trail.latch.next = false;
        self.trail.line_index.next = self.line_index.val();
        self.trail.fixed_cell.next = self.copied_cell.val();
        self.trail.is_column.next = self.is_column.val();
        self.trail.guess.next = self.guess_pending.q.val();
        self.trail.guess_value.next = self.guess_value_q.q.val();
        self.trail.second.next = self.guess_second.q.val();
        self.trail.reading.next =
            self.active.val() & ((self.step.q.val() == Step::Check) | (self.step.q.val() == Step::UndoWrite));
        if self.push.val() {
            self.guess_pending.d.next = false;
        }

        self.lines.clock.next = self.clock.val();
        self.lines.narrow.next = self.narrow.val();
        self.lines.start.next = self.start.val();
        self.lines.crossing.next = self.crossing.val();
        self.lines.is_column.next = self.is_column.val();
        self.lines.line_bit.next = self.line_bit.val();
        self.lines.copied_bit.next = self.copied_bit.val();
        self.lines.in_probe.next = self.in_probe_q.q.val();
        self.lines.round_start.next = self.round_start_q.q.val();
        self.lines.forget.next = self.forget_q.q.val();
        self.lines.row_begin.next = self.row_begin_q.q.val();
        // (`picked` is high in the probe's GuessFetch, with its cell on
        // `copied_bit`.)
        self.lines.row_take.next = self.picked.q.val();
        self.picked.d.next = false;
        self.leaving_round.d.next = false;
        if self.leaving_round.q.val() {
            self.in_round.d.next = false;
        }
        self.forget_q.d.next = false;
        self.round_start_q.d.next = false;
        self.row_begin_q.d.next = false;
        // Probing's decisions all go through `probe_mode`: a core that ties
        // `probe` low leaves yosys nothing of probing to build.
        self.scan_probe.next = self.probe_mode.q.val() & (self.scan_kind.q.val() == ScanKind::Probe);
        self.scan_merge.next = self.probe_mode.q.val() & (self.scan_kind.q.val() == ScanKind::Merge);
        self.scan_check.next = self.probe_mode.q.val() & (self.scan_kind.q.val() == ScanKind::BranchCheck);
        self.branch_now.next = false;
        self.lines.probe_scan.next = self.scan_probe.val();
        self.lines.scan_row.next = self.scan_row_q.q.val();
        self.lines.column_mask.next = self.column_mask.val();
        // One assignment on each path: a default overwritten in the same
        // `always @(*)` glitches the port, and Icarus then ping-pongs the
        // glitch with the solver's own default for `push` for ever.
        if self.probe_mode.q.val() {
            self.scan_mask.next = self.lines.scan_mask.val();
        } else {
            self.scan_mask.next = self.column_mask.val();
        }
        self.score.clock.next = self.clock.val();
        // (A probe's count starts at its guess.)
        self.score.count_clear.next = self.step.q.val() == Step::GuessFetch;
        self.score.count_pop.next = false;
        self.score.keep_filled.next = false;
        self.score.multiply.next = false;
        self.score.row.next = self.guess_row_q.q.val();
        self.score.column.next = self.probe_column.q.val();
        self.score.node_start.next = false;
        self.score.round_start.next = self.round_start_q.q.val();
        self.score.read_data.next = self.read_data.val();
        self.score.kept_sample.next =
            self.scan_load_q.q.val() & (self.scan_merge.val() | self.scan_check.val());
        // The kept cell's merge in ScanPick: after a merge scan, or at the
        // round's end with no kept cell. Its conditions are registered in
        // ScanWait (they hold until ScanPick) and only `fresh_any` is read
        // there: decided in ScanPick's arms, the merge into the probe
        // score's enables was a critical path of the probing image.
        self.merge_at_pick.d.next = false;
        self.round_end_at_pick.d.next = false;
        self.score.merge.next = self.active.val()
            & (self.merge_at_pick.q.val() | (self.round_end_at_pick.q.val() & !self.fresh_any.val()));

        self.bit_number_load.next = false;
        self.bit_number.next = self.trail.top_column.val();
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
        self.write_address.next = bit_cast::<8, 6>(self.trail.row.val());
        self.save.next = false;
        self.count_node.d.next = false;
        self.count_backtrack.d.next = false;
        self.scan_load_q.d.next = false;
        self.guess_load_q.d.next = false;
        self.undoing_q.d.next = false;
        self.forgetting_q.d.next = false;
        self.to_guess_q.d.next = false;
        if self.count_node.q.val() {
            self.nodes_q.d.next = self.nodes_q.q.val() + 1;
        }
        if self.count_backtrack.q.val() {
            self.backtracks_q.d.next = self.backtracks_q.q.val() + 1;
        }
        if self.enter_check.val() {
            self.backtracking.d.next = self.backtrack.val();
            self.step.d.next = Step::Check;
        }
        if self.enter_save.val() {
            self.save_row_q.d.next = 0.into();
            self.step.d.next = Step::SaveRead;
        }

        if self.active.val() {
            match self.step.q.val() {
                Step::Check => {
                    // An undo starts with the column of the trail's top entry.
                    self.bit_number_load.next = true;
                    self.trail.latch.next = true;
                    // (The trail is checked at a new node only.)
                    if self.over_budget.q.val()
                        | (!self.backtracking.q.val()
                            & !self.in_probe_q.q.val()
                            & !self.in_round.q.val()
                            & !self.trail_fits.val())
                    {
                        self.giving_up.d.next = true;
                        self.trail_full_q.d.next = !self.over_budget.q.val();
                        self.step.d.next = Step::UndoRow;
                        self.finish.next = self.trail.empty.val();
                    } else if self.in_probe_q.q.val() {
                        // A probe's end: undone to its mark, its cells counted.
                        self.probe_contradicted.d.next = self.backtracking.q.val();
                        self.forgetting_q.d.next = true;
                        self.undo_probe.d.next = true;
                        self.step.d.next = Step::UndoRow;
                    } else if self.backtracking.q.val() {
                        self.forgetting_q.d.next = true;
                        self.count_backtrack.d.next = true;
                        self.forget_q.d.next = true;
                        self.leaving_round.d.next = true;
                        self.step.d.next = Step::UndoRow;
                    } else if self.in_round.q.val() {
                        // A fix for good stalled: the round goes on.
                        self.step.d.next = Step::ScanRead;
                    } else if self.probe_mode.q.val() {
                        // A new node.
                        self.score.node_start.next = true;
                        self.round_count.d.next = 0.into();
                        self.step.d.next = Step::RoundStart;
                        self.round_start_q.d.next = true;
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
                    self.merge_at_pick.d.next = self.scan_merge.val();
                    self.round_end_at_pick.d.next =
                        self.scan_probe.val() & self.scan_last.q.val() & !self.score.kept_valid.val();
                }
                Step::ScanPick => {
                    // (`fresh_any` says whether the finder's bytes have a bit.)
                    // (The kept cell's merge is decided outside the match.)
                    if self.scan_merge.val() {
                        self.step.d.next = Step::RoundNext;
                    } else if self.scan_check.val() {
                        self.step.d.next = Step::RoundStart;
                        self.round_start_q.d.next = true;
                        self.branch_now.next = !self.score.kept_known.val();
                    } else if self.fresh_any.val() {
                        self.guess_row_q.d.next = self.scan_row_q.q.val();
                        // (Through `copied_cell`: the lowest-cell finder's
                        // carry chain is too slow for `bit_number` too.)
                        self.guess_column_load.next = true;
                        self.guess_value_q.d.next = true;
                        self.guess_second.d.next = false;
                        self.to_guess_q.d.next = true;
                        self.step.d.next = Step::GuessFetch;
                        if self.scan_probe.val() {
                            // The filled probe: a guess never tried the
                            // other way (its mark).
                            self.probe_column.d.next = self.lowest_cell.val();
                            self.guess_second.d.next = true;
                            self.in_probe_q.d.next = true;
                            self.probe_value.d.next = true;
                            self.picked.d.next = true;
                        } else {
                            self.count_node.d.next = true;
                        }
                    } else {
                        self.scan_row_q.d.next = self.scan_row_q.q.val() + 1;
                        self.row_begin_q.d.next = true;
                        self.step.d.next = Step::ScanRead;
                        if self.scan_probe.val() & self.scan_last.q.val() {
                            // The round's end: the kept cell gives way to
                            // the round's best if it is known now (its row
                            // scanned) or scores lower.
                            if self.score.kept_valid.val() {
                                self.scan_row_q.d.next = self.score.kept_row.val();
                                self.scan_kind.d.next = ScanKind::Merge;
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
                    self.guess_pending.d.next = !self.forcing.q.val();
                    self.forcing.d.next = false;
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
                    self.save_row_q.d.next = self.save_row_q.q.val() + 1;
                    self.step.d.next = Step::SaveRead;
                    if self.save_last.q.val() {
                        self.solution_kept_q.d.next = true;
                        self.backtracking.d.next = true;
                        self.step.d.next = Step::Check;
                    }
                }
                Step::UndoRow => {
                    // (The entry was latched in the step before.)
                    self.bit_number_load.next = true;
                    self.bit_number.next = self.trail.row.val();
                    self.read_used.next = true;
                    self.trail.pop.next = true;
                    self.score.count_pop.next = true;
                    self.undoing_q.d.next = true;
                    self.step.d.next = Step::UndoColumn;
                }
                Step::UndoColumn => {
                    self.write.next = true;
                    self.undo_reguess.d.next =
                        !self.giving_up.q.val() & self.trail.was_guess.val() & !self.trail.was_second.val();
                    self.undo_last.d.next = self.trail.bottom.val();
                    self.undo_gave_up.d.next = self.giving_up.q.val();
                    self.undo_keeps.d.next = self.solution_kept_q.q.val() & !self.giving_up.q.val();
                    self.undo_probe_end.d.next = self.undo_probe.q.val() & self.trail.was_guess.val();
                    self.read_used.next = true;
                    self.step.d.next = Step::UndoWrite;
                }
                Step::UndoWrite => {
                    self.write.next = true;
                    self.write_address.next = bit_cast::<8, 6>(self.trail.column.val()) | 128;
                    self.step.d.next = Step::UndoRow;
                    self.bit_number_load.next = true;
                    self.trail.latch.next = true;
                    if self.undo_reguess.q.val() {
                        // The guess's other value.
                        self.guess_row_q.d.next = self.trail.row.val();
                        self.guess_column_load.next = true;
                        self.guess_column.next = self.trail.column.val();
                        self.guess_value_q.d.next = !self.trail.was_value.val();
                        self.guess_second.d.next = true;
                        self.count_node.d.next = true;
                        self.to_guess_q.d.next = true;
                        self.step.d.next = Step::GuessFetch;
                    } else if self.undo_probe_end.q.val() {
                        self.undo_probe.d.next = false;
                        self.step.d.next = Step::ProbeDone;
                    } else if self.undo_last.q.val() {
                        self.finish.next = true;
                        self.finish_gave_up.next = self.undo_gave_up.q.val();
                        self.finish_keeps.next = self.undo_keeps.q.val();
                    }
                }
                Step::RoundStart => {
                    if self.probe_mode.q.val() {
                        // The round's lines are those changed since the last.
                        if self.round_count.q.val() != 3 {
                            self.round_count.d.next = self.round_count.q.val() + 1;
                        }
                        self.in_round.d.next = true;
                        self.fixed_any.d.next = false;
                        self.scan_row_q.d.next = 0.into();
                        self.scan_kind.d.next = ScanKind::Probe;
                        self.step.d.next = Step::ScanRead;
                    }
                }
                Step::ProbeDone => {
                    if self.probe_mode.q.val() & self.score.multiplying.val() {
                        // (The best takes the cell in the cycle after.)
                        if self.score.last_step.val() {
                            self.step.d.next = Step::ScanRead;
                        }
                    } else if self.probe_mode.q.val() {
                        // The probed cell again, for a probe or a fix.
                        self.guess_column_load.next = true;
                        self.guess_column.next = self.probe_column.q.val();
                        self.to_guess_q.d.next = true;
                        self.in_probe_q.d.next = false;
                        self.step.d.next = Step::GuessFetch;
                        if self.probe_contradicted.q.val() {
                            // The other value, for good (a filled probe that
                            // contradicts needs no empty one).
                            self.guess_value_q.d.next = !self.probe_value.q.val();
                            self.guess_second.d.next = false;
                            self.forcing.d.next = true;
                            self.fixed_any.d.next = true;
                        } else if self.probe_value.q.val() {
                            // The empty probe.
                            self.score.keep_filled.next = true;
                            self.guess_value_q.d.next = false;
                            self.guess_second.d.next = true;
                            self.in_probe_q.d.next = true;
                            self.probe_value.d.next = false;
                        } else {
                            // Scored (12 cycles here); the round goes on.
                            self.score.multiply.next = true;
                            self.guess_column_load.next = false;
                            self.to_guess_q.d.next = false;
                            self.step.d.next = Step::ProbeDone;
                        }
                    }
                }
                Step::RoundNext => {
                    if self.probe_mode.q.val() {
                        if self.fixed_any.q.val() {
                            // Another round, or after the last the branch if
                            // the kept cell is still unknown.
                            self.step.d.next = Step::RoundStart;
                            self.round_start_q.d.next = true;
                            if self.round_count.q.val().get_bit(1) & self.score.kept_valid.val() {
                                self.scan_row_q.d.next = self.score.kept_row.val();
                                self.scan_kind.d.next = ScanKind::BranchCheck;
                                self.round_start_q.d.next = false;
                                self.step.d.next = Step::ScanRead;
                            }
                        } else if self.score.kept_valid.val() {
                            self.branch_now.next = true;
                        } else {
                            // No cell was probed: the first unknown one.
                            self.leaving_round.d.next = true;
                            self.scan_row_q.d.next = 0.into();
                            self.scan_kind.d.next = ScanKind::Unknown;
                            self.step.d.next = Step::ScanRead;
                        }
                    }
                }
            }
        }
        // The branch on the kept cell (from RoundNext, or from ScanPick's
        // check that it is still unknown).
        if self.branch_now.val() {
            self.round_start_q.d.next = false;
            self.leaving_round.d.next = true;
            self.guess_row_q.d.next = self.score.kept_row.val();
            self.guess_column_load.next = true;
            self.guess_column.next = self.score.kept_column.val();
            self.guess_value_q.d.next = self.score.kept_value.val();
            self.guess_second.d.next = false;
            self.count_node.d.next = true;
            self.to_guess_q.d.next = true;
            self.step.d.next = Step::GuessFetch;
        }
        // A guess: the scan goes on from the guessed row.
        if self.to_guess_q.q.val() {
            self.scan_row_q.d.next = self.guess_row_q.q.val();
        }

        self.over_budget.d.next =
            !self.no_search_q.q.val() & (self.cycles.val().get_bits::<12>(20) >= self.budget_q.q.val());
        self.save_last.d.next = bit_cast::<7, 6>(self.save_row_q.q.val()) + 1 == self.rows.val();
        self.scan_last.d.next = bit_cast::<7, 6>(self.scan_row_q.q.val()) + 1 == self.rows.val();
        if self.count_node.q.val() {
            self.branched.d.next = true;
        }

        if self.start.val() {
            self.budget_q.d.next = self.budget.val();
            self.probe_mode.d.next = self.probe.val();
            self.in_probe_q.d.next = false;
            self.undo_probe.d.next = false;
            self.in_round.d.next = false;
            self.forcing.d.next = false;
            self.scan_kind.d.next = ScanKind::Unknown;
            self.branched.d.next = false;
            self.no_search_q.d.next = self.budget.val() == 0;
            self.giving_up.d.next = false;
            self.solution_kept_q.d.next = false;
            self.trail_full_q.d.next = false;
            self.guess_pending.d.next = false;
            self.scan_row_q.d.next = 0.into();
            self.nodes_q.d.next = 0.into();
            self.backtracks_q.d.next = 0.into();
        }
        if self.abort.val() {
            self.forgetting_q.d.next = false;
            self.scan_load_q.d.next = false;
            self.guess_load_q.d.next = false;
        }

        self.next_scan.next = self.step.d.val() == Step::ScanRead;
        if self.round_start_q.d.val() {
            self.row_begin_q.d.next = true;
        }
        self.next_guess.next =
            (self.step.d.val() == Step::GuessFetch) | (self.step.d.val() == Step::GuessLoad);
        self.next_undo_row.next = self.step.d.val() == Step::UndoRow;
        self.saving_more.next =
            self.active.val() & (self.step.q.val() == Step::SaveWrite) & !self.save_last.q.val();
        self.undoing_row.next = self.active.val() & (self.step.q.val() == Step::UndoRow);
        self.scan_row.next = self.scan_row_q.q.val();
        self.guess_row.next = self.guess_row_q.q.val();
        self.save_row.next = self.save_row_q.q.val();
        self.undo_row.next = self.trail.row.val();
        self.undo_column.next = self.trail.column.val();
        self.guess_value.next = self.guess_value_q.q.val();
        self.scan_load.next = self.scan_load_q.q.val();
        self.guess_load.next = self.guess_load_q.q.val();
        self.undoing.next = self.undoing_q.q.val();
        self.forgetting.next = self.forgetting_q.q.val();
        self.to_guess.next = self.to_guess_q.q.val();
        self.no_search.next = self.no_search_q.q.val();
        self.solution_kept.next = self.solution_kept_q.q.val();
        self.trail_full.next = self.trail_full_q.q.val();
        self.nodes.next = self.nodes_q.q.val();
        self.in_probe.next = self.in_probe_q.q.val();
        // (Without probing, the first guess is the first branch.)
        if self.probe_mode.q.val() {
            self.guessed.next = self.branched.q.val() | self.in_probe_q.q.val();
        } else {
            self.guessed.next = self.searching.val();
        }
        self.backtracks.next = self.backtracks_q.q.val();
    }
}

#[cfg(test)]
mod tests;
