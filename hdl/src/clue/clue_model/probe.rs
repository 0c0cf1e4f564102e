//! Probing, the planned engine's step before every branch (the gateware
//! does not have it yet; this is its specification, priced in cycles).
//!
//! A round looks at the unknown cells of the lines changed for good since
//! the round before began (every line after a backtrack and at the first
//! stall), row by row, lowest column first. Each such cell is probed both
//! ways: the cell is set as a guess that is never tried the other way (the
//! probe's mark on the trail), line logic runs, and the trail is undone to
//! below the mark.
//! * Both values contradict: the node has no solution (a backtrack).
//! * One contradicts: the cell takes the other value, for good, and line
//!   logic runs from it before the round goes on.
//! * Neither: the cell's score is the smaller of the two counts of cells
//!   the values fixed (Wu et al.'s); the round keeps the best, first found
//!   on a tie, with the value that fixed more.
//!
//! Rounds repeat until one fixes nothing; then the search branches on the
//! best cell (or, if the round probed none, on the first unknown cell,
//! filled first). In first-solution mode a probe whose line logic completes
//! the board has found a solution, and the search ends there.
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
/// After a cell's two probes: deciding and scoring.
pub const DECIDE_CYCLES: u64 = 1;

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
    /// the board) after fixing this many cells besides the probed one.
    Fixed(usize),
    /// Line logic completed the board in first-solution mode.
    Solution,
}

/// Probing rounds at a node (after a stall, with the search begun).
pub(super) fn rounds(b: &mut Board, first: bool, over_budget: &dyn Fn(u64) -> bool) -> End {
    let (rows, columns) = (b.rows, b.columns);
    loop {
        b.verdict.cycles += ROUND_CYCLES;
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
                if over_budget(b.verdict.cycles) {
                    return End::OverBudget;
                }
                b.verdict.probes += 1;
                let start = b.verdict.cycles;
                let filled = probe(b, r, c, true, first);
                let halfway = b.verdict.cycles;
                // A solution found by the filled probe: no empty probe.
                let empty = match filled {
                    Probe::Solution => None,
                    _ => Some(probe(b, r, c, false, first)),
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
                    Some(empty) => empty,
                };
                b.verdict.cycles += DECIDE_CYCLES;
                let forced = match (filled, empty) {
                    (Probe::Fixed(n1), Probe::Fixed(n0)) => {
                        if b.speedups.pairs == Pairs::Cells && partner.is_none() {
                            waiting = Some(cell);
                        }
                        let score = n1.min(n0);
                        if best.is_none_or(|(s, ..)| score > s) {
                            best = Some((score, r, c, n1 >= n0));
                        }
                        continue;
                    }
                    (Probe::Contradiction, Probe::Contradiction) => return End::Stop(Stop::Contradiction(r)),
                    (Probe::Contradiction, _) => false,
                    _ => true,
                };
                // The value that does not contradict, for good.
                fixed_any = true;
                b.verdict.cycles += GUESS_CYCLES;
                b.fix(r, c, forced, None);
                b.line = r;
                match b.line_logic() {
                    Stop::Stalled => {}
                    stop => return End::Stop(stop),
                }
            }
        }
        if fixed_any {
            continue;
        }
        if let Some((_, r, c, value)) = best {
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
/// solution in first-solution mode).
fn probe(b: &mut Board, row: usize, column: usize, value: bool, first: bool) -> Probe {
    let mark = b.trail.len();
    // A probe changes no line for good.
    let changed = b.changed.clone();
    b.guess(row, column, value, true);
    let stop = b.line_logic();
    if stop == Stop::Complete && first {
        return Probe::Solution;
    }
    let fixed = b.trail.len() - mark - 1;
    while b.trail.len() > mark {
        b.undo();
    }
    b.forget_dirty();
    b.changed = changed;
    match stop {
        Stop::Contradiction(_) => Probe::Contradiction,
        _ => Probe::Fixed(fixed),
    }
}
