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

use crate::clue::line_logic::{self, MAX_LENGTH};
use crate::link::protocol::status::{detail, outcome};

/// The largest board the clue engine takes: rows and columns up to 64.
pub const MAX_SIDE: usize = MAX_LENGTH;

/// Most blocks in one line's clue.
pub const MAX_BLOCKS_PER_LINE: usize = 32;

/// Blocks the clue store holds, for all lines of a board together.
pub const CLUE_STORE_BLOCKS: usize = 1 << crate::clue::solver::CLUE_STORE_BITS;

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

/// One cell on the undo trail: fixed since the first guess. A guess carries
/// its value and whether it is the cell's second value.
#[derive(Clone, Copy, Debug)]
struct TrailEntry {
    row: usize,
    column: usize,
    guess: Option<(bool, bool)>,
}

/// What ends a stretch of line logic during a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// Line logic stalled: guess a cell.
    Choose,
    /// A contradiction, or the first solution kept: go back.
    Backtrack,
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

/// [`search`], or [`first_solution`] when `first`.
pub fn search_in(
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
    first: bool,
) -> ClueVerdict {
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
    };
    if let Err((o, d)) = check_capacity(row_clues, column_clues) {
        verdict.outcome = o;
        verdict.detail = d;
        return verdict;
    }
    let clues: Vec<Vec<usize>> = row_clues
        .iter()
        .chain(column_clues)
        .map(|c| c.iter().copied().filter(|&b| b > 0).collect())
        .collect();
    let mut known = vec![false; rows * columns];
    let mut value = vec![false; rows * columns];
    let mut known_count = 0;
    let cell = |line: usize, i: usize| {
        if line < rows {
            line * columns + i
        } else {
            i * columns + (line - rows)
        }
    };
    let total = rows + columns;
    // Every line is dirty at first; a visit cleans its line and dirties
    // the crossing line of each cell it newly fixes.
    let mut dirty = vec![true; total];
    let mut line = 0;
    verdict.cycles = CLEAR_CYCLES;
    let mut trail: Vec<TrailEntry> = Vec::new();
    let mut searching = false;
    let mut first_solution: Option<Vec<bool>> = None;
    let mut scan_row = 0;
    // The budget is checked against the cycle count of the cycle before.
    let over_budget = |before: u64| budget != 0 && (before - 1) >> BUDGET_UNIT_BITS >= budget as u64;
    'solve: loop {
        // Line logic until a search event.
        let event = loop {
            verdict.cycles += SEEK_CYCLES;
            if line == 0 {
                verdict.passes = verdict.passes.saturating_add(1);
            }
            if !dirty.contains(&true) {
                if known_count == rows * columns {
                    if !searching {
                        verdict.outcome = outcome::SOLVED;
                        break 'solve;
                    }
                    if first {
                        verdict.outcome = outcome::SOLVED;
                        verdict.detail = FIRST_FOUND;
                        break 'solve;
                    }
                    if let Some(first) = &first_solution {
                        verdict.outcome = outcome::SEVERAL;
                        verdict.differs = first.iter().zip(&value).map(|(a, b)| a != b).collect();
                        value = first.clone();
                        break 'solve;
                    }
                    verdict.cycles += SAVE_ROW_CYCLES * rows as u64;
                    first_solution = Some(value.clone());
                    break Event::Backtrack;
                }
                if budget == 0 {
                    verdict.outcome = outcome::STALLED;
                    break 'solve;
                }
                break Event::Choose;
            }
            if !dirty[line] {
                line = (line + 1) % total;
                continue;
            }
            dirty[line] = false;
            let length = if line < rows { columns } else { rows };
            let (mut known_word, mut value_word) = (0u64, 0u64);
            for i in 0..length {
                known_word |= (known[cell(line, i)] as u64) << i;
                value_word |= (value[cell(line, i)] as u64) << i;
            }
            verdict.visits += 1;
            let result = line_logic::solve_line(length, &clues[line], known_word, value_word);
            let solver_cycles =
                clues[line].len() as u64 + 2 * length as u64 + crate::clue::line_solver::LATENCY;
            if !result.feasible() {
                verdict.cycles += solver_cycles + 3; // fetch, load, start: no write-back
                if !searching {
                    verdict.outcome = outcome::CONTRADICTION;
                    verdict.detail = line as u8;
                    break 'solve;
                }
                break Event::Backtrack;
            }
            let fresh = result.known() & !known_word;
            verdict.cycles += solver_cycles + VISIT_CYCLES + 3 * fresh.count_ones() as u64;
            for i in (0..length).filter(|&i| fresh >> i & 1 == 1) {
                known[cell(line, i)] = true;
                value[cell(line, i)] = result.value() >> i & 1 == 1;
                known_count += 1;
                dirty[if line < rows { rows + i } else { i }] = true;
                if searching {
                    let (row, column) = if line < rows { (line, i) } else { (i, line - rows) };
                    trail.push(TrailEntry {
                        row,
                        column,
                        guess: None,
                    });
                }
            }
            line = (line + 1) % total;
        };

        // Check: the budget, and for a guess that the trail will hold every
        // cell still unknown.
        let before = verdict.cycles;
        verdict.cycles += CHECK_CYCLES;
        let too_big = event == Event::Choose && rows * columns - known_count > TRAIL_ENTRIES;
        if over_budget(before) || too_big {
            while let Some(e) = trail.pop() {
                known[e.row * columns + e.column] = false;
                verdict.cycles += UNDO_CYCLES;
            }
            verdict.outcome = outcome::GAVE_UP;
            verdict.detail = if over_budget(before) {
                BUDGET_RAN_OUT
            } else {
                TRAIL_RAN_OUT
            };
            break 'solve;
        }
        // The next guess: a cell and its value.
        let (row, column, guess, second) = match event {
            Event::Choose => {
                // The first unknown cell in row-major order: rows before
                // the last guess's are known, as they were when it was made.
                let column = loop {
                    verdict.cycles += SCAN_ROW_CYCLES;
                    let unknown = (0..columns).find(|&c| !known[scan_row * columns + c]);
                    match unknown {
                        Some(c) => break c,
                        None => scan_row += 1,
                    }
                };
                (scan_row, column, true, false)
            }
            Event::Backtrack => {
                verdict.backtracks += 1;
                dirty.iter_mut().for_each(|d| *d = false);
                loop {
                    let e = trail.pop().expect("a search has a guess on the trail");
                    known[e.row * columns + e.column] = false;
                    known_count -= 1;
                    verdict.cycles += UNDO_CYCLES;
                    if let Some((v, false)) = e.guess {
                        break (e.row, e.column, !v, true);
                    }
                    if trail.is_empty() {
                        // Every guess refuted: the first solution is the
                        // only one, or there is none.
                        match &first_solution {
                            Some(first) => {
                                verdict.outcome = outcome::SOLVED;
                                value = first.clone();
                                known.iter_mut().for_each(|k| *k = true);
                            }
                            None => {
                                verdict.outcome = outcome::CONTRADICTION;
                                verdict.detail = SEARCHED;
                            }
                        }
                        break 'solve;
                    }
                }
            }
        };
        // The guess: fixed in both copies, on the trail, its row and column
        // dirty; the schedule goes on from its row.
        searching = true;
        verdict.nodes += 1;
        verdict.cycles += GUESS_CYCLES;
        known[row * columns + column] = true;
        value[row * columns + column] = guess;
        known_count += 1;
        trail.push(TrailEntry {
            row,
            column,
            guess: Some((guess, second)),
        });
        dirty[row] = true;
        dirty[rows + column] = true;
        line = row;
        scan_row = row;
    }
    if verdict.outcome == outcome::SEVERAL {
        known.iter_mut().for_each(|k| *k = true);
    }
    verdict.cells = known.iter().zip(&value).map(|(&k, &v)| k.then_some(v)).collect();
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clue::line_logic::tests::Rng;
    use crate::dnf::model;

    fn random_puzzle(
        rng: &mut Rng,
        side: std::ops::RangeInclusive<u64>,
    ) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let span = side.end() - side.start() + 1;
        let rows = (side.start() + rng.below(span)) as usize;
        let columns = (side.start() + rng.below(span)) as usize;
        let density = 35 + rng.below(40);
        let cells: Vec<bool> = (0..rows * columns).map(|_| rng.below(100) < density).collect();
        model::clues_of_picture(rows, columns, &cells)
    }

    fn random_puzzle_sized(rng: &mut Rng, rows: usize, columns: usize) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let cells: Vec<bool> = (0..rows * columns).map(|_| rng.below(2) == 1).collect();
        model::clues_of_picture(rows, columns, &cells)
    }

    #[test]
    fn solves_the_original_boards() {
        let heart_rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
        let heart_columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
        let v = solve(&heart_rows, &heart_columns);
        assert_eq!(v.outcome, outcome::SOLVED);
        assert_eq!(v.cells.iter().filter(|c| **c == Some(true)).count(), 26);
        let dnf = model::solve_clues(&heart_rows, &heart_columns);
        assert_eq!(v.cells, dnf.cells);
        // Both engines visit the dirty lines, in the same order.
        assert_eq!(v.visits, dnf.visits);
    }

    #[test]
    fn reports_contradictions_stalls_and_capacity() {
        let v = solve(&[vec![2], vec![]], &[vec![], vec![1]]);
        assert_eq!((v.outcome, v.detail), (outcome::CONTRADICTION, 2));
        assert_eq!(
            solve(&[vec![1], vec![1]], &[vec![1], vec![1]]).outcome,
            outcome::STALLED
        );
        // A clue longer than its line: no fill.
        assert_eq!(
            solve(&[vec![3]], &[vec![1], vec![1]]).outcome,
            outcome::CONTRADICTION
        );
        assert_eq!(
            solve(&vec![vec![1]; 65], &[vec![1]]).outcome,
            outcome::OVER_CAPACITY
        );
        assert_eq!(solve(&[], &[vec![1]]).outcome, outcome::MALFORMED);
        // 64 × 64 fits.
        let v = solve(&vec![vec![64]; 64], &vec![vec![64]; 64]);
        assert_eq!(v.outcome, outcome::SOLVED);
    }

    /// Both engines are complete line solvers: the same outcome on every
    /// board, and the same cells unless there is no fill. The clue engine
    /// visits only dirty lines, so never more than the DNF engine.
    #[test]
    fn agrees_with_the_dnf_engine_on_random_puzzles() {
        let mut rng = Rng(0xc10e_5eed_u64);
        let mut outcomes = [0usize; 3];
        for _ in 0..1000 {
            let (r, c) = random_puzzle(&mut rng, 5..=15);
            let dnf = model::solve_clues(&r, &c);
            if dnf.outcome == outcome::OVER_CAPACITY {
                continue; // more options than the DNF engine holds
            }
            let clues = solve(&r, &c);
            assert_eq!(clues.outcome, dnf.outcome, "rows {r:?} columns {c:?}");
            if clues.outcome != outcome::CONTRADICTION {
                assert_eq!(clues.cells, dnf.cells, "rows {r:?} columns {c:?}");
                assert!(clues.visits <= dnf.visits, "rows {r:?} columns {c:?}");
            }
            outcomes[clues.outcome as usize] += 1;
        }
        println!("solved, contradiction, stalled: {outcomes:?}");
        assert!(
            outcomes[0] > 300 && outcomes[2] > 30,
            "solved/contradiction/stalled: {outcomes:?}"
        );
    }

    /// The clues of one line's cells.
    fn clue_of(cells: impl Iterator<Item = bool>) -> Vec<usize> {
        let mut clue = vec![];
        let mut run = 0;
        for c in cells.chain(std::iter::once(false)) {
            if c {
                run += 1;
            } else if run > 0 {
                clue.push(run);
                run = 0;
            }
        }
        clue
    }

    /// Up to `limit` solutions, by brute force over each row's fills (a
    /// check independent of the line solver).
    fn solutions(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], limit: usize) -> Vec<Vec<bool>> {
        let (rows, columns) = (row_clues.len(), column_clues.len());
        let fills: Vec<Vec<u64>> = row_clues
            .iter()
            .map(|clue| {
                (0..1u64 << columns)
                    .filter(|f| clue_of((0..columns).map(|c| f >> c & 1 == 1)) == *clue)
                    .collect()
            })
            .collect();
        let mut found = vec![];
        let mut chosen = vec![0u64; rows];
        fn go(
            r: usize,
            fills: &[Vec<u64>],
            chosen: &mut Vec<u64>,
            column_clues: &[Vec<usize>],
            found: &mut Vec<Vec<bool>>,
            limit: usize,
        ) {
            if found.len() >= limit {
                return;
            }
            if r == fills.len() {
                let ok = column_clues
                    .iter()
                    .enumerate()
                    .all(|(c, clue)| clue_of(chosen.iter().map(|f| f >> c & 1 == 1)) == *clue);
                if ok {
                    let columns = column_clues.len();
                    found.push(
                        chosen
                            .iter()
                            .flat_map(|f| (0..columns).map(move |c| f >> c & 1 == 1))
                            .collect(),
                    );
                }
                return;
            }
            for &f in &fills[r] {
                chosen[r] = f;
                go(r + 1, fills, chosen, column_clues, found, limit);
            }
        }
        go(0, &fills, &mut chosen, column_clues, &mut found, limit);
        found
    }

    /// The search decides every small board as brute force does: unique,
    /// several (both solutions real and different) or none.
    #[test]
    fn search_decides_small_boards_like_brute_force() {
        let mut rng = Rng(0x5ea7_c4);
        let mut seen = [0usize; 8];
        let mut first_found = 0;
        for trial in 0..600 {
            let rows = 2 + rng.below(5) as usize;
            let columns = 2 + rng.below(5) as usize;
            let (r, c) = if trial % 4 == 3 {
                // Clues of two different pictures: often no solution.
                let a = random_puzzle_sized(&mut rng, rows, columns);
                let b = random_puzzle_sized(&mut rng, rows, columns);
                (a.0, b.1)
            } else {
                random_puzzle_sized(&mut rng, rows, columns)
            };
            let found = solutions(&r, &c, 2);
            let v = search(&r, &c, 4095);
            let what = format!("rows {r:?} columns {c:?}");
            let cells: Vec<bool> = v.cells.iter().map(|x| x.unwrap_or(false)).collect();
            match found.len() {
                0 => assert_eq!(v.outcome, outcome::CONTRADICTION, "{what}"),
                1 => {
                    assert_eq!(v.outcome, outcome::SOLVED, "{what}");
                    assert_eq!(cells, found[0], "{what}");
                }
                _ => {
                    assert_eq!(v.outcome, outcome::SEVERAL, "{what}");
                    let second: Vec<bool> = cells.iter().zip(&v.differs).map(|(a, d)| a ^ d).collect();
                    assert_ne!(cells, second, "{what}");
                    for grid in [&cells, &second] {
                        assert!(
                            (0..rows)
                                .all(|i| clue_of(grid[i * columns..][..columns].iter().copied()) == r[i]),
                            "{what}"
                        );
                        assert!(
                            (0..columns).all(|j| clue_of((0..rows).map(|i| grid[i * columns + j])) == c[j]),
                            "{what}"
                        );
                    }
                }
            }
            if v.nodes > 0 {
                assert!(v.backtracks > 0 || v.outcome == outcome::SEVERAL, "{what}");
            }
            seen[v.outcome as usize] += 1;
            // First-solution mode: a solution whenever there is one (SOLVED;
            // DETAIL says the search found it, uniqueness unchecked), the
            // same verdict as uniqueness mode where line logic decides or
            // there is none, and never more work.
            let f = first_solution(&r, &c, 4095);
            let f_cells: Vec<bool> = f.cells.iter().map(|x| x.unwrap_or(false)).collect();
            match found.len() {
                0 => assert_eq!((f.outcome, f.detail), (v.outcome, v.detail), "{what}"),
                _ => {
                    assert_eq!(f.outcome, outcome::SOLVED, "{what}");
                    assert!(found.contains(&f_cells), "{what}: a real solution");
                    assert_eq!(f.detail, if f.nodes > 0 { FIRST_FOUND } else { 0 }, "{what}");
                }
            }
            if v.nodes == 0 {
                assert_eq!(
                    (f.outcome, f.cycles, &f.cells),
                    (v.outcome, v.cycles, &v.cells),
                    "{what}"
                );
            }
            assert!(f.cycles <= v.cycles && f.nodes <= v.nodes, "{what}");
            first_found += (f.detail == FIRST_FOUND) as usize;
        }
        println!("outcomes: {seen:?}; first-solution mode found {first_found} by search");
        assert!(seen[0] > 0 && seen[1] > 0 && seen[6] > 0, "{seen:?}");
        assert!(first_found > 0);
    }

    /// A budget of 0 is line logic alone; a tiny budget gives up with the
    /// cells line logic fixed, and no more.
    #[test]
    fn budgets_stop_the_search() {
        // Two solutions (the diagonals): line logic fixes nothing.
        let (r, c) = (vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
        assert_eq!(search(&r, &c, 0).outcome, outcome::STALLED);
        let v = search(&r, &c, 1);
        assert_eq!(v.outcome, outcome::SEVERAL);
        assert_eq!((v.nodes, v.backtracks), (2, 1));
        // A board that needs more than 2^20 cycles of search.
        let mut rng = Rng(77);
        let mut gave_up = 0;
        for _ in 0..40 {
            let (r, c) = random_puzzle_sized(&mut rng, 30, 30);
            let line = solve(&r, &c);
            let v = search(&r, &c, 1);
            if v.outcome == outcome::GAVE_UP {
                gave_up += 1;
                assert_eq!(v.cells, line.cells, "the cells line logic fixed");
                assert!(v.cycles >= 1 << BUDGET_UNIT_BITS);
            }
        }
        assert!(gave_up > 0);
    }
}
