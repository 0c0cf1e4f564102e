//! Reference model of the clue engine (protocol v2): a board solved from its
//! clues, every line by the complete line solver of `line_logic.rs`.
//!
//! Lines are looked at in the DNF engine's order (`model.rs`): rows 0..m,
//! then columns 0..n, again and again; but only dirty lines are visited. At
//! first every line is dirty; a visit cleans its line, and each cell it newly
//! fixes dirties the line that crosses it. A line that is clean would fix
//! nothing: the line solver is complete, so it has already fixed all its
//! known cells allow. The solve ends when a line has no fill
//! (contradiction) or no line is dirty (solved if every cell is known,
//! stalled if not).
//!
//! The fixpoint of complete line solvers does not depend on the order of
//! the visits, so the clue engine ends every board that has a fill with the
//! same cells as the DNF engine, which visits every line: the tests below
//! check it. On a contradiction only the outcome must agree (which line is
//! found empty first depends on the order).

use crate::clue::line_logic::MAX_LENGTH;
use crate::link::protocol::status::{detail, outcome};

/// The largest board the clue engine takes: rows and columns up to 64.
pub const MAX_SIDE: usize = MAX_LENGTH;

/// Most blocks in one line's clue.
pub const MAX_BLOCKS_PER_LINE: usize = 32;

/// Blocks the clue store holds, for all lines of a board together.
pub const CLUE_STORE_BLOCKS: usize = 1 << crate::clue::clue_store::CLUE_STORE_BITS;

/// What the model found for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueVerdict {
    pub rows: usize,
    pub columns: usize,
    /// A value of [`outcome`].
    pub outcome: u8,
    /// A value of [`detail`], or for a contradiction the line with no fill
    /// ([`SEARCHED`] when the search refuted every guess).
    pub detail: u8,
    /// Row-major cells, `None` where unknown. Empty when the board was
    /// refused. After a search: the solution found (SOLVED, SEVERAL), or
    /// the board as line logic left it before the first guess (GAVE_UP,
    /// and a contradiction found by search).
    pub cells: Vec<Option<bool>>,
    /// For SEVERAL: the cells in which a second solution differs from `cells`.
    pub differs: Vec<bool>,
    /// Line visits made.
    pub visits: u64,
    /// Times the solver began line 0 (saturating at 255).
    pub passes: u8,
    /// Clock cycles the gateware's clue engine takes (`clue_solver.rs`).
    pub cycles: u64,
    /// Guesses made (search nodes), and times the search went back.
    pub nodes: u64,
    pub backtracks: u64,
    /// Cells probed (each both ways; probing mode only).
    pub probes: u64,
    /// Probing rounds, and cells probing fixed for good (probing mode only).
    pub rounds: u64,
    pub forced: u64,
    /// Line visits answered by the priced line-result cache
    /// ([`Speedups::cache`]).
    pub cache_hits: u64,
}

/// The DETAIL of a contradiction that search proved: no one line is to blame.
pub const SEARCHED: u8 = 255;

/// DETAIL of a SOLVED reply in first-solution mode when the search found
/// the solution: any one solution was asked for, and uniqueness was not
/// checked. (0 when line logic alone solved the board: then it is unique.)
pub const FIRST_FOUND: u8 = 1;

/// DETAIL of GAVE_UP: the search budget ran out.
pub const BUDGET_RAN_OUT: u8 = 1;
/// DETAIL of GAVE_UP: a guess was due with more unknown cells than the
/// undo trail holds ([`TRAIL_ENTRIES`]); the budget had not run out.
pub const TRAIL_RAN_OUT: u8 = 2;

/// Cycles to clear the board memory's 128 Known words.
pub const CLEAR_CYCLES: u64 = 128;

/// Cycles of a visit besides the line solver's and 3 per newly fixed cell:
/// fetch, load, start, write Known, write Value, advance.
pub const VISIT_CYCLES: u64 = 6;

/// Cycles to look at a line in the visit order (`clue_solver.rs`: Seek,
/// Look): visit it if dirty, else go on to the next; after the last visit,
/// see that none is dirty.
pub const SEEK_CYCLES: u64 = 2;

/// Search (`clue_solver.rs`, `SearchStep`, has the steps these count). The
/// budget counts in units of 2^20 cycles (10.5 ms at 100 MHz).
pub const BUDGET_UNIT_BITS: u32 = 20;
/// The undo trail's entries: the search starts only when at most this many
/// cells are unknown, so the trail cannot overflow.
pub const TRAIL_ENTRIES: usize = 2048;
/// Deciding what a stall, a solution or a contradiction leads to.
pub const CHECK_CYCLES: u64 = 1;
/// Looking for the first unknown cell: a row.
pub const SCAN_ROW_CYCLES: u64 = 4;
/// Setting a guessed cell in both copies, and going back to the schedule.
pub const GUESS_CYCLES: u64 = 9;
/// Undoing one cell of the trail.
pub const UNDO_CYCLES: u64 = 3;
/// Keeping the first solution: a row.
pub const SAVE_ROW_CYCLES: u64 = 2;

/// Whether a board fits the clue engine; `Err` holds the (outcome, detail)
/// it answers otherwise.
pub fn check_capacity(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> Result<(), (u8, u8)> {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    if rows == 0 || columns == 0 {
        return Err((outcome::MALFORMED, detail::BAD_SIZE));
    }
    if rows > MAX_SIDE || columns > MAX_SIDE {
        return Err((outcome::OVER_CAPACITY, detail::BAD_SIZE));
    }
    // As the gateware's parser: zero blocks (the empty-line mark) are dropped.
    let blocks = |c: &Vec<usize>| c.iter().filter(|&&b| b > 0).count();
    let lines = || row_clues.iter().chain(column_clues);
    if lines().any(|c| blocks(c) > MAX_BLOCKS_PER_LINE)
        || lines().map(blocks).sum::<usize>() > CLUE_STORE_BLOCKS
    {
        return Err((outcome::OVER_CAPACITY, detail::TOO_MANY_BLOCKS));
    }
    Ok(())
}

/// Solves a board from its clues by line logic alone (a budget of 0: no
/// search), as the board does for a host that sets no budget.
pub fn solve(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> ClueVerdict {
    search(row_clues, column_clues, 0)
}

/// How the engine searches after line logic stalls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// In units of 2^[`BUDGET_UNIT_BITS`] cycles; 0 is line logic alone.
    pub budget: u16,
    /// First-solution mode: stop at the first solution found.
    pub first: bool,
    /// Probe before every branch (`probe.rs`): the solver's `probe` input
    /// (the core does not ask for it yet).
    pub probe: bool,
}

/// Solves a board from its clues (zero blocks, the "empty line" mark, are
/// dropped): line logic, then, if `budget` is not 0, depth-first search
/// until the solution is proved unique or a second one is found, for at
/// most `budget` × 2^20 cycles.
pub fn search(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], budget: u16) -> ClueVerdict {
    search_in(row_clues, column_clues, budget, false)
}

/// As [`search`] in first-solution mode (the tournaments' task): the search
/// stops at the first solution it finds, SOLVED with DETAIL [`FIRST_FOUND`].
pub fn first_solution(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], budget: u16) -> ClueVerdict {
    search_in(row_clues, column_clues, budget, true)
}

/// [`search`], or [`first_solution`] when `first`: the engine on the chip.
pub fn search_in(
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
    first: bool,
) -> ClueVerdict {
    run(
        row_clues,
        column_clues,
        Mode {
            budget,
            first,
            probe: false,
        },
    )
}

/// Speed-ups not built yet, priced in the cycle count only: the search
/// visits the same lines and makes the same guesses with any of them (but
/// for where a budget runs out). The default is the engine as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Speedups {
    /// A next-dirty finder: 1 cycle to reach the next dirty line (or see
    /// that none is), clean lines skipped, instead of [`SEEK_CYCLES`] for
    /// every line looked at.
    pub finder: bool,
    /// Crossing-copy writes of newly fixed cells, and undoes, at 2 cycles a
    /// cell instead of 3 ([`UNDO_CYCLES`]).
    pub fast_writes: bool,
    /// The line solver's forward and backward passes at once, meeting in
    /// the middle: k + L + LATENCY + 1 cycles instead of k + 2L + LATENCY
    /// (one more for the meeting across the middle).
    pub both_passes: bool,
    /// Two probes at once, on two line solvers (`probe.rs`).
    pub pairs: Pairs,
    /// A direct-mapped cache of line results with this many entries (0:
    /// none), keyed by the line and its Known and Value words as read: a
    /// hit takes [`CACHE_HIT_CYCLES`] instead of the line solver's cycles
    /// (the lookup runs beside the solver's start, so a miss costs
    /// nothing more). The key is kept whole, as block RAM would have to.
    pub cache: usize,
}

/// A line-result cache hit ([`Speedups::cache`]): hash, read, compare.
pub const CACHE_HIT_CYCLES: u64 = 3;

/// How probes share two line solvers ([`Speedups::pairs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairs {
    /// One line solver: probes one after another.
    #[default]
    None,
    /// A cell's two probes (filled, empty) at once: the slower one's cycles.
    Values,
    /// Two candidate cells at once, each probed both ways on its own solver:
    /// the slower cell's cycles (see `probe.rs`).
    Cells,
}

/// The probing policy (`probe.rs`): which cells a round probes, what a
/// cell's two probes fix, and which branch is taken. [`Policy::default`] is
/// the planned engine; [`Policy::SPECIFIED`] the first specification. None
/// of them changes the search without probing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// How a cell's two probes score as a branch.
    pub score: Score,
    /// Branch first on the value whose probe fixed fewer cells (else more).
    pub fewer_first: bool,
    /// A cell whose filled probe contradicts is fixed empty at once, without
    /// an empty probe: line logic from the fix finds what that probe would.
    pub skip_second: bool,
    /// The best-scoring cell is kept across the rounds at a node (a
    /// register) instead of only the last round's.
    pub keep_best: bool,
    /// After a backtrack, only the lines the second value and its line
    /// logic change are probed (the node gone back to had reached a
    /// probing fixpoint), instead of every line.
    pub resume: bool,
    /// At most this many probing rounds at a node, then the branch on the
    /// best cell if it is still unknown; 0: rounds until one fixes nothing.
    pub max_rounds: u8,
    /// Cells both probes of a cell fix alike are fixed for good.
    pub alike: bool,
}

impl Policy {
    /// The engine as first specified: Wu et al.'s score, the value that
    /// fixed more first, the last round's best, every line after a
    /// backtrack, rounds to a fixpoint.
    pub const SPECIFIED: Policy = Policy {
        score: Score::Min,
        fewer_first: false,
        skip_second: false,
        keep_best: false,
        resume: false,
        max_rounds: 0,
        alike: false,
    };
}

impl Default for Policy {
    /// The planned engine (see `probe.rs` for the figures).
    fn default() -> Policy {
        Policy {
            score: Score::Product,
            fewer_first: true,
            skip_second: true,
            keep_best: true,
            resume: true,
            max_rounds: 2,
            alike: false,
        }
    }
}

/// A probed cell's score as a branch, from the counts n1, n0 of cells its
/// filled and empty probes fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Score {
    /// min(n1, n0) (Wu et al.'s).
    #[default]
    Min,
    /// (n1 + 1)(n0 + 1) (the software solver's): 12-bit counts on a 64×64
    /// board, multiplied shift-and-add, a bit a cycle (`probe.rs`,
    /// `MULTIPLY_CYCLES`).
    Product,
}

/// Solves a board in any [`Mode`].
pub fn run(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], mode: Mode) -> ClueVerdict {
    run_priced(row_clues, column_clues, mode, Speedups::default()).0
}

/// As [`run`], with [`Speedups`] priced; also returns the cycles spent in
/// line logic (seeking lines and visiting them, probes' included).
pub fn run_priced(
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    mode: Mode,
    speedups: Speedups,
) -> (ClueVerdict, u64) {
    run_policy(row_clues, column_clues, mode, speedups, Policy::default())
}

/// As [`run_priced`], with a probing [`Policy`].
pub fn run_policy(
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    mode: Mode,
    speedups: Speedups,
    policy: Policy,
) -> (ClueVerdict, u64) {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let mut verdict = ClueVerdict {
        rows,
        columns,
        outcome: outcome::SOLVED,
        detail: detail::NONE,
        cells: Vec::new(),
        differs: Vec::new(),
        visits: 0,
        passes: 0,
        cycles: 0,
        nodes: 0,
        backtracks: 0,
        probes: 0,
        rounds: 0,
        forced: 0,
        cache_hits: 0,
    };
    if let Err((o, d)) = check_capacity(row_clues, column_clues) {
        verdict.outcome = o;
        verdict.detail = d;
        return (verdict, 0);
    }
    let clues: Vec<Vec<usize>> = row_clues
        .iter()
        .chain(column_clues)
        .map(|c| c.iter().copied().filter(|&b| b > 0).collect())
        .collect();
    search::solve_board(&clues, rows, columns, mode, speedups, policy, verdict)
}

mod probe;
mod search;
#[cfg(test)]
mod tests;
