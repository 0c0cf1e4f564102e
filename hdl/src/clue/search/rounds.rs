//! The bookkeeping of probing's rounds (`clue_model::probe` is the model):
//! the probe that runs and its cell, the round's count and whether it
//! fixed a cell, what the scan looks for, and the hookups of `ProbeLines`
//! (the lines a round probes) and `ProbeScore` (the probes' scores and the
//! kept cell).
//!
//! With `probe`, a stall starts a node's **rounds** instead of the scan for
//! the first unknown cell:
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
//! The step machine takes the decisions and says here what happened, one
//! pulse for each (`pick`, `probe_ends`, `fix`, ...); the registers change
//! on the next edge, as they did in the step machine. Every output goes
//! through `probe_mode`: a core that ties `probe` low leaves yosys nothing
//! of probing to build.

use crate::clue::probe_lines::ProbeLines;
use crate::clue::probe_score::ProbeScore;
use rust_hdl::prelude::*;

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
pub struct ProbeRounds {
    pub clock: Signal<In, Clock>,
    pub narrow: Signal<In, Bit>,
    /// A new board, and whether to probe before every branch.
    pub start: Signal<In, Bit>,
    pub probe: Signal<In, Bit>,
    /// The solver is in its Search state.
    pub active: Signal<In, Bit>,
    /// The search's state: the rows; the scanned row; the guessed row; the
    /// scan's lowest cell, and whether it has one; Check goes back; the
    /// scanned row's word is on the read port; the step is GuessFetch.
    pub rows: Signal<In, Bits<7>>,
    pub scan_row: Signal<In, Bits<6>>,
    pub guess_row: Signal<In, Bits<6>>,
    pub lowest_cell: Signal<In, Bits<6>>,
    pub fresh_any: Signal<In, Bit>,
    pub backtracking: Signal<In, Bit>,
    pub scan_loaded: Signal<In, Bit>,
    pub guess_step: Signal<In, Bit>,
    /// For `ProbeLines` and `ProbeScore` (see the solver's).
    pub crossing: Signal<In, Bit>,
    pub is_column: Signal<In, Bit>,
    pub line_bit: Signal<In, Bits<64>>,
    pub copied_bit: Signal<In, Bits<64>>,
    pub column_mask: Signal<In, Bits<64>>,
    pub read_data: Signal<In, Bits<64>>,
    /// The next values of the registered pulses to the probing blocks'
    /// wide registers (decoded in the cycle they act in, they held the
    /// clue bitstream to 85 MHz): a round ends; a backtrack's forgetting;
    /// a round's start; a new row (its mask is bypassed meanwhile).
    pub leave_round: Signal<In, Bit>,
    pub forget: Signal<In, Bit>,
    pub round_start: Signal<In, Bit>,
    pub row_begin: Signal<In, Bit>,
    /// What the step does: Check ends a probe, or starts a node's rounds;
    /// ScanWait; ScanPick picks a cell to probe, or ends the round with a
    /// kept cell to merge; GuessFetch; UndoRow pops; UndoWrite reaches a
    /// probe's mark; RoundStart; ProbeDone returns to the probed cell, for
    /// a fix for good, the empty probe or the score; RoundNext checks the
    /// kept cell, or scans for the first unknown one.
    pub probe_ends: Signal<In, Bit>,
    pub new_node: Signal<In, Bit>,
    pub scan_wait: Signal<In, Bit>,
    pub pick: Signal<In, Bit>,
    pub merge_scan: Signal<In, Bit>,
    pub fetch: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub probe_undone: Signal<In, Bit>,
    pub round_begins: Signal<In, Bit>,
    pub probe_returns: Signal<In, Bit>,
    pub fix: Signal<In, Bit>,
    pub empty_probe: Signal<In, Bit>,
    pub score_probe: Signal<In, Bit>,
    pub branch_check: Signal<In, Bit>,
    pub unknown_scan: Signal<In, Bit>,
    /// The mode; a probe runs (its undo stops at its mark, the guess
    /// entry); a probe is being undone; a round runs; the probed value and
    /// column, and whether it contradicted; a fix for good runs; the round
    /// fixed a cell; the rounds are at their third.
    pub probe_mode: Signal<Out, Bit>,
    pub in_probe: Signal<Out, Bit>,
    pub undo_probe: Signal<Out, Bit>,
    pub in_round: Signal<Out, Bit>,
    pub probe_value: Signal<Out, Bit>,
    pub probe_column: Signal<Out, Bits<6>>,
    pub probe_contradicted: Signal<Out, Bit>,
    pub forcing: Signal<Out, Bit>,
    pub fixed_any: Signal<Out, Bit>,
    pub late_round: Signal<Out, Bit>,
    /// The scan's kind (each through `probe_mode`), its last row, its mask.
    pub scan_probe: Signal<Out, Bit>,
    pub scan_merge: Signal<Out, Bit>,
    pub scan_check: Signal<Out, Bit>,
    pub scan_last: Signal<Out, Bit>,
    pub scan_mask: Signal<Out, Bits<64>>,
    /// From `ProbeScore`: the score is being multiplied, in its last step;
    /// the kept cell.
    pub multiplying: Signal<Out, Bit>,
    pub last_step: Signal<Out, Bit>,
    pub kept_valid: Signal<Out, Bit>,
    pub kept_row: Signal<Out, Bits<6>>,
    pub kept_column: Signal<Out, Bits<6>>,
    pub kept_value: Signal<Out, Bit>,
    pub kept_known: Signal<Out, Bit>,
    lines: ProbeLines,
    score: ProbeScore,
    probe_mode_q: DFF<Bit>,
    in_probe_q: DFF<Bit>,
    undo_probe_q: DFF<Bit>,
    in_round_q: DFF<Bit>,
    // A round ends a cycle after the step that ends it (a backtrack, a
    // branch, no cell probed): as the step's own enable, `in_round` took
    // six LUTs from the step on the narrow image's critical path. Nothing
    // reads it in that cycle.
    leaving_round: DFF<Bit>,
    probe_value_q: DFF<Bit>,
    probe_column_q: DFF<Bits<6>>,
    probe_contradicted_q: DFF<Bit>,
    // A probe's first guess fetch (its cell leaves the row's candidates).
    picked: DFF<Bit>,
    // A round's start is set where a step moves to RoundStart, not decoded
    // from the next step: that decode was on the probing image's critical
    // path.
    forget_q: DFF<Bit>,
    round_start_q: DFF<Bit>,
    row_begin_q: DFF<Bit>,
    forcing_q: DFF<Bit>,
    round_count: DFF<Bits<2>>,
    fixed_any_q: DFF<Bit>,
    scan_kind: DFF<ScanKind>,
    scan_last_q: DFF<Bit>,
    merge_at_pick: DFF<Bit>,
    round_end_at_pick: DFF<Bit>,
}

impl Logic for ProbeRounds {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            probe_mode_q,
            in_probe_q,
            undo_probe_q,
            in_round_q,
            leaving_round,
            probe_value_q,
            probe_column_q,
            probe_contradicted_q,
            picked,
            forget_q,
            round_start_q,
            row_begin_q,
            forcing_q,
            round_count,
            fixed_any_q,
            scan_kind,
            scan_last_q,
            merge_at_pick,
            round_end_at_pick
        );
        // Probing's decisions all go through `probe_mode`: a core that ties
        // `probe` low leaves yosys nothing of probing to build.
        self.scan_probe.next = self.probe_mode_q.q.val() & (self.scan_kind.q.val() == ScanKind::Probe);
        self.scan_merge.next = self.probe_mode_q.q.val() & (self.scan_kind.q.val() == ScanKind::Merge);
        self.scan_check.next = self.probe_mode_q.q.val() & (self.scan_kind.q.val() == ScanKind::BranchCheck);

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
        self.lines.probe_scan.next = self.scan_probe.val();
        self.lines.scan_row.next = self.scan_row.val();
        self.lines.column_mask.next = self.column_mask.val();
        // One assignment on each path: a default overwritten in the same
        // `always @(*)` glitches the port, and Icarus then ping-pongs the
        // glitch with the solver's own default for `push` for ever.
        if self.probe_mode_q.q.val() {
            self.scan_mask.next = self.lines.scan_mask.val();
        } else {
            self.scan_mask.next = self.column_mask.val();
        }

        self.score.clock.next = self.clock.val();
        // (A probe's count starts at its guess.)
        self.score.count_clear.next = self.guess_step.val();
        self.score.count_pop.next = self.pop.val();
        self.score.keep_filled.next = self.empty_probe.val();
        self.score.multiply.next = self.score_probe.val();
        self.score.row.next = self.guess_row.val();
        self.score.column.next = self.probe_column_q.q.val();
        self.score.node_start.next = self.new_node.val();
        self.score.round_start.next = self.round_start_q.q.val();
        self.score.read_data.next = self.read_data.val();
        self.score.kept_sample.next =
            self.scan_loaded.val() & (self.scan_merge.val() | self.scan_check.val());
        // The kept cell's merge in ScanPick: after a merge scan, or at the
        // round's end with no kept cell. Its conditions are registered in
        // ScanWait (they hold until ScanPick) and only `fresh_any` is read
        // there: decided in ScanPick's arms, the merge into the probe
        // score's enables was a critical path of the probing image.
        self.merge_at_pick.d.next = false;
        self.round_end_at_pick.d.next = false;
        if self.scan_wait.val() {
            self.merge_at_pick.d.next = self.scan_merge.val();
            self.round_end_at_pick.d.next =
                self.scan_probe.val() & self.scan_last_q.q.val() & !self.score.kept_valid.val();
        }
        self.score.merge.next = self.active.val()
            & (self.merge_at_pick.q.val() | (self.round_end_at_pick.q.val() & !self.fresh_any.val()));

        self.picked.d.next = self.pick.val();
        self.leaving_round.d.next = self.leave_round.val();
        self.forget_q.d.next = self.forget.val();
        self.round_start_q.d.next = self.round_start.val();
        self.row_begin_q.d.next = self.row_begin.val() | self.round_start.val();
        if self.leaving_round.q.val() {
            self.in_round_q.d.next = false;
        }
        if self.probe_ends.val() {
            // A probe's end: undone to its mark, its cells counted.
            self.probe_contradicted_q.d.next = self.backtracking.val();
            self.undo_probe_q.d.next = true;
        }
        if self.new_node.val() {
            self.round_count.d.next = 0.into();
        }
        if self.pick.val() {
            // The filled probe: a guess never tried the other way (its mark).
            self.probe_column_q.d.next = self.lowest_cell.val();
            self.in_probe_q.d.next = true;
            self.probe_value_q.d.next = true;
        }
        if self.merge_scan.val() {
            self.scan_kind.d.next = ScanKind::Merge;
        }
        if self.fetch.val() {
            self.forcing_q.d.next = false;
        }
        if self.probe_undone.val() {
            self.undo_probe_q.d.next = false;
        }
        if self.round_begins.val() {
            // The round's lines are those changed since the last.
            if self.round_count.q.val() != 3 {
                self.round_count.d.next = self.round_count.q.val() + 1;
            }
            self.in_round_q.d.next = true;
            self.fixed_any_q.d.next = false;
            self.scan_kind.d.next = ScanKind::Probe;
        }
        if self.probe_returns.val() {
            self.in_probe_q.d.next = false;
        }
        if self.fix.val() {
            self.forcing_q.d.next = true;
            self.fixed_any_q.d.next = true;
        }
        if self.empty_probe.val() {
            self.in_probe_q.d.next = true;
            self.probe_value_q.d.next = false;
        }
        if self.branch_check.val() {
            self.scan_kind.d.next = ScanKind::BranchCheck;
        }
        if self.unknown_scan.val() {
            self.scan_kind.d.next = ScanKind::Unknown;
        }
        self.scan_last_q.d.next = bit_cast::<7, 6>(self.scan_row.val()) + 1 == self.rows.val();
        if self.start.val() {
            self.probe_mode_q.d.next = self.probe.val();
            self.in_probe_q.d.next = false;
            self.undo_probe_q.d.next = false;
            self.in_round_q.d.next = false;
            self.forcing_q.d.next = false;
            self.scan_kind.d.next = ScanKind::Unknown;
        }

        self.probe_mode.next = self.probe_mode_q.q.val();
        self.in_probe.next = self.in_probe_q.q.val();
        self.undo_probe.next = self.undo_probe_q.q.val();
        self.in_round.next = self.in_round_q.q.val();
        self.probe_value.next = self.probe_value_q.q.val();
        self.probe_column.next = self.probe_column_q.q.val();
        self.probe_contradicted.next = self.probe_contradicted_q.q.val();
        self.forcing.next = self.forcing_q.q.val();
        self.fixed_any.next = self.fixed_any_q.q.val();
        self.late_round.next = self.round_count.q.val().get_bit(1);
        self.scan_last.next = self.scan_last_q.q.val();
        self.multiplying.next = self.score.multiplying.val();
        self.last_step.next = self.score.last_step.val();
        self.kept_valid.next = self.score.kept_valid.val();
        self.kept_row.next = self.score.kept_row.val();
        self.kept_column.next = self.score.kept_column.val();
        self.kept_value.next = self.score.kept_value.val();
        self.kept_known.next = self.score.kept_known.val();
    }
}
