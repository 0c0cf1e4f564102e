//! Reference model: what the gateware must answer for any board, in plain
//! Rust. The testbenches compare the simulated core with it, message for
//! message.
//!
//! The solver visits lines in a fixed cycle (rows 0..m, then columns
//! 0..n, again and again). Visiting a line keeps the options that agree with
//! every known cell and fixes each cell on which all survivors agree. It stops
//! when a line has no survivor (contradiction), or when a whole cycle of m + n
//! visits in a row fixed nothing: then the board is solved if every cell is
//! known (every line was just checked against the complete picture) and
//! stalled otherwise.
//!
//! It also counts the gateware's clock cycles (see `solver.rs`): K + 7 per
//! visit of a line with K options (K + 6 for the visit that finds a
//! contradiction), 32 − m + 1 after the last row and 32 − n + 1 after the
//! last column (the grid's padding rotations), and at the end the rotations
//! that bring the grid home plus one.

use crate::params::{FIFO_ENTRIES, MAX_LINE, MAX_LINES};
use crate::protocol::status::{detail, outcome};

/// Cycles of a line visit besides one per option: fetch the count, set up,
/// three to drain the pipeline, update, advance.
const VISIT_CYCLES: u64 = 7;

/// The gateware's grid is MAX_LINE × MAX_LINE cells.
const GRID: usize = MAX_LINE;

/// The model's verdict on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub rows: usize,
    pub columns: usize,
    /// A value of [`outcome`].
    pub outcome: u8,
    /// A value of [`detail`], or for a contradiction the line that emptied.
    pub detail: u8,
    /// Row-major cells, `None` where unknown. Empty when the board was refused.
    pub cells: Vec<Option<bool>>,
    /// Line visits made.
    pub visits: u64,
    /// Options read from the FIFO, summed over all visits.
    pub options_read: u64,
    /// Times the solver began line 0 (saturating at 255, like the board).
    pub passes: u8,
    /// Options stored.
    pub options: usize,
    /// Clock cycles the gateware's solver takes, from its start to the verdict.
    pub cycles: u64,
}

/// Whether a board of this size and option count fits the build; `Err` holds
/// the (outcome, detail) the board answers otherwise.
pub fn check_capacity(rows: usize, columns: usize, options: usize) -> Result<(), (u8, u8)> {
    if rows == 0 || columns == 0 {
        return Err((outcome::MALFORMED, detail::BAD_SIZE));
    }
    if rows > MAX_LINE || columns > MAX_LINE || rows + columns > MAX_LINES {
        return Err((outcome::OVER_CAPACITY, detail::BAD_SIZE));
    }
    if options > FIFO_ENTRIES {
        return Err((outcome::OVER_CAPACITY, detail::FIFO_FULL));
    }
    Ok(())
}

/// Solves a board given the options of every line (rows, then columns).
pub fn solve(rows: usize, columns: usize, lines: &[Vec<u64>]) -> Verdict {
    assert_eq!(lines.len(), rows + columns, "one option list per line");
    let options: usize = lines.iter().map(Vec::len).sum();
    let mut verdict = Verdict {
        rows,
        columns,
        outcome: outcome::SOLVED,
        detail: detail::NONE,
        cells: Vec::new(),
        visits: 0,
        options_read: 0,
        passes: 0,
        options,
        cycles: 0,
    };
    if let Err((o, d)) = check_capacity(rows, columns, options) {
        verdict.outcome = o;
        verdict.detail = d;
        return verdict;
    }
    let mut known = vec![false; rows * columns];
    let mut value = vec![false; rows * columns];
    let cell = |line: usize, i: usize| {
        if line < rows {
            line * columns + i
        } else {
            i * columns + (line - rows)
        }
    };
    let mut survivors: Vec<Vec<u64>> = lines.to_vec();
    let total = rows + columns;
    let mut quiet = 0;
    let mut line = 0;
    loop {
        if line == 0 {
            verdict.passes = verdict.passes.saturating_add(1);
        }
        let length = if line < rows { columns } else { rows };
        let mut known_mask = 0u64;
        let mut assigned = 0u64;
        for i in 0..length {
            let c = cell(line, i);
            known_mask |= (known[c] as u64) << i;
            assigned |= (value[c] as u64) << i;
        }
        verdict.visits += 1;
        verdict.options_read += survivors[line].len() as u64;
        verdict.cycles += survivors[line].len() as u64 + VISIT_CYCLES;
        survivors[line].retain(|&o| (o ^ assigned) & known_mask == 0);
        if survivors[line].is_empty() {
            verdict.outcome = outcome::CONTRADICTION;
            verdict.detail = line as u8;
            verdict.cycles -= 1; // no Advance state
            break;
        }
        let all = survivors[line].iter().fold(u64::MAX, |a, &o| a & o);
        let any = survivors[line].iter().fold(0, |a, &o| a | o);
        let mask = if length == 64 {
            u64::MAX
        } else {
            (1u64 << length) - 1
        };
        let new_known = (all | !any) & mask;
        if new_known != known_mask {
            quiet = 0;
            for i in 0..length {
                let c = cell(line, i);
                known[c] = new_known >> i & 1 == 1;
                value[c] = all >> i & 1 == 1;
            }
        } else {
            quiet += 1;
        }
        if quiet == total {
            let solved = known.iter().all(|&k| k);
            verdict.outcome = if solved { outcome::SOLVED } else { outcome::STALLED };
            break;
        }
        if line + 1 == rows {
            verdict.cycles += (GRID - rows + 1) as u64;
        } else if line + 1 == total {
            verdict.cycles += (GRID - columns + 1) as u64;
        }
        line = (line + 1) % total;
    }
    // Rotations that bring the grid home, and the cycle that reports.
    let in_phase = if line < rows { line + 1 } else { line + 1 - rows };
    verdict.cycles += (GRID - in_phase) as u64 % GRID as u64 + 1;
    verdict.cells = known.iter().zip(&value).map(|(&k, &v)| k.then_some(v)).collect();
    verdict
}

/// Solves a board given its clues: the options of every line are enumerated
/// first. A clue that cannot fit its line gives an empty option list, which
/// the model reports as a contradiction on that line.
pub fn solve_clues(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> Verdict {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let lines: Vec<Vec<u64>> = row_clues
        .iter()
        .map(|c| crate::options::LineOptions::new(c, columns).collect())
        .chain(
            column_clues
                .iter()
                .map(|c| crate::options::LineOptions::new(c, rows).collect()),
        )
        .collect();
    solve(rows, columns, &lines)
}

/// Row and column clues of a picture (row-major, `true` = filled).
pub fn clues_of_picture(rows: usize, columns: usize, cells: &[bool]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    use crate::options::clue_of_cells;
    let row_clues = (0..rows)
        .map(|r| clue_of_cells((0..columns).map(|c| cells[r * columns + c])))
        .collect();
    let column_clues = (0..columns)
        .map(|c| clue_of_cells((0..rows).map(|r| cells[r * columns + c])))
        .collect();
    (row_clues, column_clues)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(verdict: &Verdict) -> Vec<String> {
        verdict
            .cells
            .chunks(verdict.columns)
            .map(|row| {
                row.iter()
                    .map(|c| match c {
                        Some(true) => '#',
                        Some(false) => '.',
                        None => '?',
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn solves_the_original_four_by_four() {
        let rows = vec![vec![2], vec![1, 1], vec![3], vec![1]];
        let columns = vec![vec![1], vec![1, 1], vec![1, 1], vec![3]];
        let v = solve_clues(&rows, &columns);
        assert_eq!(v.outcome, outcome::SOLVED);
        let (r, c) = clues_of_picture(4, 4, &v.cells.iter().map(|c| c.unwrap()).collect::<Vec<_>>());
        assert_eq!((r, c), (rows, columns));
    }

    #[test]
    fn stalls_on_an_ambiguous_board() {
        // Two solutions (the diagonals): line logic fixes nothing.
        let clue = vec![vec![1], vec![1]];
        let v = solve_clues(&clue, &clue);
        assert_eq!(v.outcome, outcome::STALLED);
        assert_eq!(picture(&v), vec!["??", "??"]);
        assert_eq!(v.visits, 4);
    }

    #[test]
    fn finds_a_contradiction() {
        // Row 0 full, column 0 empty.
        let v = solve_clues(&[vec![2], vec![]], &[vec![], vec![1]]);
        assert_eq!(v.outcome, outcome::CONTRADICTION);
        assert_eq!(v.detail, 2, "column 0 is line 2");
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let big = vec![vec![1]; MAX_LINE + 1];
        assert_eq!(solve_clues(&big, &[vec![1]]).outcome, outcome::OVER_CAPACITY);
        assert_eq!(
            check_capacity(0, 3, 1),
            Err((outcome::MALFORMED, detail::BAD_SIZE))
        );
        assert_eq!(
            check_capacity(5, 5, FIFO_ENTRIES + 1),
            Err((outcome::OVER_CAPACITY, detail::FIFO_FULL))
        );
    }
}
