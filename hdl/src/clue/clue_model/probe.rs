//! Probing, the step before every branch, cycle for cycle. The gateware
//! follows it (`search/`'s round steps and `rounds.rs`, `probe_lines.rs`,
//! `probe_score.rs`; `probes_like_the_model` holds the solver to it), but
//! the board does not ask for it yet: the clue core ties the solver's
//! `probe` low until the core, the Verilator sweeps and the bitstream's
//! timing take it in.
//!
//! A round looks at the unknown cells of the lines changed for good since
//! the round before began (every line at the first stall), row by row,
//! lowest column first. Each such cell is probed both ways: the cell is set
//! as a guess that is never tried the other way (the probe's mark on the
//! trail), line logic runs, and the trail is undone to below the mark.
//! * Both values contradict: the node has no solution (a backtrack).
//! * One contradicts: the cell takes the other value, for good, and line
//!   logic runs from it before the round goes on.
//! * Neither: the cell is scored from the two counts n1, n0 of cells the
//!   values fixed; the best is kept, first found on a tie.
//!
//! Rounds repeat until one fixes nothing; then the search branches on the
//! best cell (or, if no cell was scored, on the first unknown cell, filled
//! first). In first-solution mode a probe whose line logic completes the
//! board has found a solution, and the search ends there.
//!
//! The [`Policy`] sets the rest. The planned engine ([`Policy::default`]):
//! * the score (n1 + 1)(n0 + 1), and the value that fixed **fewer** cells
//!   first (chosen by measurement; presumably the less committing value
//!   more often holds a solution, and a cell that fixes much both ways
//!   makes the next node cheap: fewer cells left to probe);
//! * a cell whose filled probe contradicts is fixed empty without an empty
//!   probe (line logic from the fix finds what that probe would have);
//! * the best cell is kept across the rounds at a node (score, cell, value
//!   in a register), checked unknown before the branch (a cycle);
//! * after a backtrack only the lines the second value changes are probed:
//!   the node gone back to had reached a probing fixpoint (its last round
//!   fixed nothing), and the undo restored it exactly;
//! * at most two rounds at a node: after the second, the search branches
//!   on the best cell if it is still unknown (a 2-bit counter).
//!
//! [`Policy::SPECIFIED`], the first specification: min(n1, n0) (Wu et
//! al.'s), the value that fixed more first, the last round's best only,
//! every line probed after a backtrack, rounds to a fixpoint. On icga2016
//! puzzles 501–700 and tcga2019 501–600, first-solution mode, a 1 s budget
//! (`set_slice`; `POLICY=specified` for the first): 184.6 s and 140
//! give-ups as specified, 143.4 s and 96 with the default. The default does
//! not search fewer nodes (where both solve, 1.4–2.0× more) but far cheaper
//! ones (153–175k cycles a node against 322–400k): its branches fix more
//! cells, so fewer are left to probe. Tried and dropped on the same
//! samples: fixing the cells both probes fix alike (`alike`: no fewer
//! nodes, and worse for its copy and compare), other scores (min, min then
//! max, sum, max, (lo+1)²(hi+1), (lo+1)(hi+1)²), Luby restarts (with the
//! value order flipped, or LFSR noise on the scores), limited-discrepancy
//! search, and probing only cells of lines with few unknowns.
//!
//! Staleness is kept per line, as registers (128 bits) can, not per cell:
//! priced against per-cell staleness by `host/examples/probe_plan.rs`.
//!
//! Two line solvers ([`Pairs`], priced only: the same probes, fixes and
//! branches as with one), each with its own view of the board and trail:
//! * `Values`: a cell's two probes run at once and cost the slower one's
//!   cycles (a solution found by the filled probe ends both).
//! * `Cells`: two candidate cells, each probed both ways on its own solver,
//!   from the same board. A cell that neither forces nor stops waits for the
//!   next candidate, and the pair costs the slower cell's cycles. A cell
//!   that forces a value (or stops probing) aborts its partner, which is
//!   probed again after the fix (so it pairs with the candidate after it);
//!   it costs its own cycles. The partner of a waiting cell saw the same
//!   board, so its results stand, forced or not.

use super::search::{Board, Stop};
use super::*;

/// A round begins: the changed lines become the round's, and are cleared.
pub const ROUND_CYCLES: u64 = 1;
/// A row's Known word read and its next candidate found (as the search's
/// first-unknown scan, `SCAN_ROW_CYCLES`).
pub const PROBE_SCAN_CYCLES: u64 = SCAN_ROW_CYCLES;
/// After a probe's undo: deciding what comes next (the search's ProbeDone).
pub const PROBE_DONE_CYCLES: u64 = 1;
/// At a round's end, after the kept cell's merge (RoundNext).
pub const ROUND_END_CYCLES: u64 = 1;
/// The kept cell's Known bit: its row read as a scan reads one.
pub const KEPT_CHECK_CYCLES: u64 = SCAN_ROW_CYCLES;
/// `Score::Product`: (n1 + 1)(n0 + 1) by shift and add, a bit of a 12-bit
/// count a cycle (the iCE40 has no multipliers). Charged in full, though
/// the hardware could overlap it with the next cell's probes.
pub const MULTIPLY_CYCLES: u64 = 12;

/// How probing at a node ended.
pub(super) enum End {
    /// Branch on this cell, this value first.
    Branch(usize, usize, bool),
    /// A cell fixed by probing led line logic to a contradiction or a
    /// solution; or both values of a cell contradict.
    Stop(Stop),
    /// First-solution mode: a probe completed the board.
    Found,
    OverBudget,
}

/// What one probe (a cell, a value) found.
enum Probe {
    Contradiction,
    /// Line logic stalled (or, when every solution is wanted, completed
    /// the board) after fixing these cells besides the probed one (row,
    /// column, value), in the order fixed.
    Fixed(Vec<(usize, usize, bool)>),
    /// Line logic completed the board in first-solution mode.
    Solution,
    /// Not probed (`Policy::skip_second`): the other value contradicted,
    /// so this one is fixed for good and line logic from it decides.
    Untried,
    /// Past the budget when its line logic ended.
    OverBudget,
}

/// `Policy::alike`: keeping the filled probe's result, a row: its Known and
/// Value words copied to a side memory, for each row the probe changed.
pub const ALIKE_COPY_ROW_CYCLES: u64 = 2;
/// `Policy::alike`: comparing the empty probe's result with it, a row the
/// empty probe changed: both rows read, the alike word written back.
pub const ALIKE_COMPARE_ROW_CYCLES: u64 = 1;

/// A branch's score under a policy (higher is better).
fn score(how: Score, n1: usize, n0: usize) -> usize {
    match how {
        Score::Min => n1.min(n0),
        Score::Product => (n1 + 1) * (n0 + 1),
    }
}

/// Line logic from a fix for good, within a round: a stall hands the board
/// back to the search's Check (a cycle), which gives up past the budget.
fn fixed_line_logic(b: &mut Board, over_budget: &dyn Fn(u64) -> bool) -> Option<End> {
    match b.line_logic() {
        Stop::Stalled => {
            let before = b.verdict.cycles;
            b.verdict.cycles += CHECK_CYCLES;
            over_budget(before).then_some(End::OverBudget)
        }
        stop => Some(End::Stop(stop)),
    }
}

/// Probing rounds at a node (after a stall, with the search begun).
pub(super) fn rounds(b: &mut Board, first: bool, over_budget: &dyn Fn(u64) -> bool) -> End {
    let (rows, columns) = (b.rows, b.columns);
    let policy = b.policy;
    // The best cell of the rounds so far (`Policy::keep_best`).
    let mut kept: Option<(usize, usize, usize, bool)> = None;
    let mut round_count = 0;
    loop {
        round_count += 1;
        b.verdict.cycles += ROUND_CYCLES;
        b.verdict.rounds += 1;
        let round = std::mem::replace(&mut b.changed, vec![false; rows + columns]);
        let mut best: Option<(usize, usize, usize, bool)> = None;
        let mut fixed_any = false;
        // Pairs::Cells: the cycles of a probed cell waiting for a partner.
        let mut waiting: Option<u64> = None;
        for r in 0..rows {
            let mut from = 0;
            loop {
                b.verdict.cycles += PROBE_SCAN_CYCLES;
                let stale = |c: usize| round[r] || round[rows + c];
                let Some(c) = (from..columns).find(|&c| !b.is_known(r, c) && stale(c)) else {
                    break;
                };
                from = c + 1;
                b.verdict.probes += 1;
                let start = b.verdict.cycles;
                let filled = probe(b, r, c, true, first, over_budget);
                let halfway = b.verdict.cycles;
                if let (true, Probe::Fixed(f1)) = (policy.alike, &filled) {
                    b.verdict.cycles += ALIKE_COPY_ROW_CYCLES * changed_rows(b.rows, f1);
                }
                // A solution found by the filled probe: no empty probe.
                let empty = match filled {
                    Probe::Solution => None,
                    Probe::OverBudget => return End::OverBudget,
                    Probe::Contradiction if policy.skip_second => Some(Probe::Untried),
                    _ => Some(probe(b, r, c, false, first, over_budget)),
                };
                let cell = b.verdict.cycles - start;
                let partner = waiting.take();
                let saved = overlap(
                    b.speedups.pairs,
                    empty.is_some().then_some(halfway - start),
                    cell,
                    partner,
                );
                b.verdict.cycles -= saved;
                let empty = match empty {
                    None | Some(Probe::Solution) => return End::Found,
                    Some(Probe::OverBudget) => return End::OverBudget,
                    Some(empty) => empty,
                };
                let forced = match (filled, empty) {
                    (Probe::Fixed(f1), Probe::Fixed(f0)) => {
                        let (n1, n0) = (f1.len(), f0.len());
                        let score = score(policy.score, n1, n0);
                        if policy.score == Score::Product {
                            b.verdict.cycles += MULTIPLY_CYCLES;
                        }
                        if best.is_none_or(|(s, ..)| score > s) {
                            // The value whose probe fixed more, or fewer.
                            best = Some((score, r, c, (n1 >= n0) != policy.fewer_first));
                        }
                        let alike = if policy.alike { alike(b, &f1, &f0) } else { vec![] };
                        if alike.is_empty() {
                            if b.speedups.pairs == Pairs::Cells && partner.is_none() {
                                waiting = Some(cell);
                            }
                            continue;
                        }
                        // Both values fix these cells alike: for good.
                        fixed_any = true;
                        b.verdict.forced += alike.len() as u64;
                        for &(r, c, v) in &alike {
                            b.verdict.cycles += GUESS_CYCLES;
                            b.fix(r, c, v, None);
                        }
                        b.line = alike[0].0;
                        if let Some(end) = fixed_line_logic(b, over_budget) {
                            return end;
                        }
                        continue;
                    }
                    (Probe::Contradiction, Probe::Contradiction) => return End::Stop(Stop::Contradiction(r)),
                    (_, Probe::Untried) => false,
                    (Probe::Contradiction, _) => false,
                    _ => true,
                };
                // The value that does not contradict, for good.
                fixed_any = true;
                b.verdict.forced += 1;
                b.verdict.cycles += GUESS_CYCLES;
                b.fix(r, c, forced, None);
                b.line = r;
                if let Some(end) = fixed_line_logic(b, over_budget) {
                    return end;
                }
            }
        }
        b.verdict.cycles += ROUND_END_CYCLES;
        if policy.keep_best {
            // The kept cell, if still unknown and not beaten by this round's
            // best (its Known bit read).
            if let Some((s, r, c, _)) = kept {
                b.verdict.cycles += KEPT_CHECK_CYCLES;
                if b.is_known(r, c) || best.is_some_and(|(t, ..)| t > s) {
                    kept = None;
                }
            }
            kept = kept.or(best);
        }
        let choice = if policy.keep_best { kept } else { best };
        if fixed_any {
            // `Policy::max_rounds`: enough; the best cell if still unknown
            // (its Known bit read).
            if policy.max_rounds > 0 && round_count >= policy.max_rounds as usize {
                if let Some((_, r, c, value)) = choice {
                    b.verdict.cycles += KEPT_CHECK_CYCLES;
                    if !b.is_known(r, c) {
                        return End::Branch(r, c, value);
                    }
                }
            }
            continue;
        }
        if let Some((_, r, c, value)) = choice {
            return End::Branch(r, c, value);
        }
        // No cell was probed: the first unknown one, filled first.
        for r in 0..rows {
            b.verdict.cycles += SCAN_ROW_CYCLES;
            if let Some(c) = (0..columns).find(|&c| !b.is_known(r, c)) {
                return End::Branch(r, c, true);
            }
        }
        unreachable!("probing runs on a board with an unknown cell");
    }
}

/// Cycles that two line solvers save on a cell's probes, which took `cell`
/// cycles on one, the filled probe `filled` of them (`None`: it found a
/// solution and no empty probe ran); `partner`: the cycles of the cell
/// probed beside it ([`Pairs::Cells`]).
fn overlap(pairs: Pairs, filled: Option<u64>, cell: u64, partner: Option<u64>) -> u64 {
    match pairs {
        Pairs::None => 0,
        Pairs::Values => filled.map_or(0, |f| f.min(cell - f)),
        Pairs::Cells => partner.map_or(0, |p| p.min(cell)),
    }
}

/// Probes a cell with a value and undoes what it did (unless it found a
/// solution in first-solution mode): the guess, line logic, the search's
/// Check (which gives up past the budget), the undo to the mark, and
/// ProbeDone.
fn probe(
    b: &mut Board,
    row: usize,
    column: usize,
    value: bool,
    first: bool,
    over_budget: &dyn Fn(u64) -> bool,
) -> Probe {
    let mark = b.trail.len();
    // A probe changes no line for good.
    let changed = b.changed.clone();
    b.guess(row, column, value, true);
    let stop = b.line_logic();
    if stop == Stop::Complete && first {
        return Probe::Solution;
    }
    let before = b.verdict.cycles;
    b.verdict.cycles += CHECK_CYCLES;
    if over_budget(before) {
        return Probe::OverBudget;
    }
    let fixed = b.trail[mark + 1..]
        .iter()
        .map(|e| (e.row, e.column, b.value[e.row * b.columns + e.column]))
        .collect();
    while b.trail.len() > mark {
        b.undo();
    }
    b.forget_dirty();
    b.changed = changed;
    b.verdict.cycles += PROBE_DONE_CYCLES;
    match stop {
        Stop::Contradiction(_) => Probe::Contradiction,
        _ => Probe::Fixed(fixed),
    }
}

/// `Policy::alike`: the cells both probes of a cell fixed alike, in the
/// empty probe's order; priced as a compare of the empty probe's changed
/// rows (the filled probe's were copied after it).
fn alike(
    b: &mut Board,
    filled: &[(usize, usize, bool)],
    empty: &[(usize, usize, bool)],
) -> Vec<(usize, usize, bool)> {
    b.verdict.cycles += ALIKE_COMPARE_ROW_CYCLES * changed_rows(b.rows, empty);
    let mut one = vec![None; b.rows * b.columns];
    filled
        .iter()
        .for_each(|&(r, c, v)| one[r * b.columns + c] = Some(v));
    empty
        .iter()
        .copied()
        .filter(|&(r, c, v)| one[r * b.columns + c] == Some(v))
        .collect()
}

/// The rows a probe fixed cells in (a register of a bit a row, set as the
/// probe fixes cells).
fn changed_rows(rows: usize, fixed: &[(usize, usize, bool)]) -> u64 {
    let mut seen = vec![false; rows];
    fixed.iter().for_each(|&(r, ..)| seen[r] = true);
    seen.iter().filter(|&&x| x).count() as u64
}
