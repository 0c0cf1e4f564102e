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

use crate::line_logic::{self, MAX_LENGTH};
use crate::protocol::status::{detail, outcome};

/// The largest board the clue engine takes: rows and columns up to 64.
pub const MAX_SIDE: usize = MAX_LENGTH;

/// Most blocks in one line's clue.
pub const MAX_BLOCKS_PER_LINE: usize = 32;

/// Blocks the clue store holds, for all lines of a board together.
pub const CLUE_STORE_BLOCKS: usize = 1 << crate::clue_solver::CLUE_STORE_BITS;

/// What the model found for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueVerdict {
    pub rows: usize,
    pub columns: usize,
    /// A value of [`outcome`].
    pub outcome: u8,
    /// A value of [`detail`], or for a contradiction the line with no fill.
    pub detail: u8,
    /// Row-major cells, `None` where unknown. Empty when the board was refused.
    pub cells: Vec<Option<bool>>,
    /// Line visits made.
    pub visits: u64,
    /// Times the solver began line 0 (saturating at 255).
    pub passes: u8,
    /// Clock cycles the gateware's clue engine takes (`clue_solver.rs`).
    pub cycles: u64,
}

/// Cycles to clear the board memory's 128 Known words.
pub const CLEAR_CYCLES: u64 = 128;

/// Cycles of a visit besides the line solver's and 3 per newly fixed cell:
/// fetch, load, start, write Known, write Value, advance.
pub const VISIT_CYCLES: u64 = 6;

/// Cycles to look at a line in the visit order (`clue_solver.rs`: Seek,
/// Look): visit it if dirty, else go on to the next; after the last visit,
/// see that none is dirty.
pub const SEEK_CYCLES: u64 = 2;

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

/// Solves a board from its clues (zero blocks, the "empty line" mark, are
/// dropped).
pub fn solve(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> ClueVerdict {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let mut verdict = ClueVerdict {
        rows,
        columns,
        outcome: outcome::SOLVED,
        detail: detail::NONE,
        cells: Vec::new(),
        visits: 0,
        passes: 0,
        cycles: 0,
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
    loop {
        // Each line looked at.
        verdict.cycles += SEEK_CYCLES;
        if line == 0 {
            verdict.passes = verdict.passes.saturating_add(1);
        }
        if !dirty.contains(&true) {
            let solved = known.iter().all(|&k| k);
            verdict.outcome = if solved { outcome::SOLVED } else { outcome::STALLED };
            break;
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
        let solver_cycles = clues[line].len() as u64 + 2 * length as u64 + crate::line_solver::LATENCY;
        if !result.feasible() {
            verdict.outcome = outcome::CONTRADICTION;
            verdict.detail = line as u8;
            verdict.cycles += solver_cycles + 3; // fetch, load, start: no write-back
            break;
        }
        let fresh = result.known() & !known_word;
        verdict.cycles += solver_cycles + VISIT_CYCLES + 3 * fresh.count_ones() as u64;
        for i in (0..length).filter(|&i| fresh >> i & 1 == 1) {
            known[cell(line, i)] = true;
            value[cell(line, i)] = result.value() >> i & 1 == 1;
            dirty[if line < rows { rows + i } else { i }] = true;
        }
        line = (line + 1) % total;
    }
    verdict.cycles += CLEAR_CYCLES;
    verdict.cells = known.iter().zip(&value).map(|(&k, &v)| k.then_some(v)).collect();
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_logic::tests::Rng;
    use crate::model;

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

    #[test]
    fn solves_the_original_boards() {
        let heart_rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
        let heart_columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
        let v = solve(&heart_rows, &heart_columns);
        assert_eq!(v.outcome, outcome::SOLVED);
        assert_eq!(v.cells.iter().filter(|c| **c == Some(true)).count(), 26);
        let dnf = model::solve_clues(&heart_rows, &heart_columns);
        assert_eq!(v.cells, dnf.cells);
        assert!(v.visits < dnf.visits, "{} < {}", v.visits, dnf.visits);
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
}
