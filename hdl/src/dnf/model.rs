//! Reference model: what the gateware must answer for any board, in plain
//! Rust. The testbenches compare the simulated core with it, message for
//! message.
//!
//! The solver visits lines in phases: the dirty rows in order, then the
//! dirty columns, again and again. Every line is dirty at first; a visit
//! cleans its line, keeps the options that agree with every known cell,
//! fixes each cell on which all survivors agree, and dirties the crossing
//! line of each cell it newly fixed. It stops when a line has no survivor
//! (contradiction), or when a phase leaves no line of the other phase
//! dirty: then the board is solved if every cell is known and stalled
//! otherwise. Skipping clean lines changes nothing but time: a clean line
//! would keep all its options and fix nothing.
//!
//! It also counts the gateware's clock cycles (see `solver.rs`), from the
//! visits' sizes: in a phase, line j is taken by the filter at `take_j`
//! and the next follows as soon as its pairs are read,
//! `take_{j+1} = take_j + P_j` with `P_j = max(1, ⌈K_j/2⌉)` for K_j
//! options; its verdict is committed 4 cycles after its last pair,
//! `commit_j = take_j + P_j + 4`. A commit that newly fixed w cells hands
//! them to the cell writer (`writer_after` says when it is done). A phase is decided in the cycle
//! after its last commit, or when the writer is done if later; the next
//! phase's first line is taken 2 cycles after. The first phase's first
//! line is taken in cycle 1, and the verdict costs one cycle more.

use crate::common::params::{FIFO_ENTRIES, MAX_LINE, MAX_LINES};
use crate::link::protocol::status::{detail, outcome};

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

/// The cycles the cell writer (`cell_writer.rs`) spends choosing the cells
/// of a job: it sets a cell of an even and one of an odd crossing line each
/// cycle.
pub(crate) fn cell_cycles(changed: u64) -> u32 {
    let even = (changed & 0x5555_5555_5555_5555).count_ones();
    let odd = (changed & 0xaaaa_aaaa_aaaa_aaaa).count_ones();
    even.max(odd)
}

/// The cycle the cell writer (`cell_writer.rs`) finds its job done, after a
/// job committed in cycle `commit` that chooses its cells in `fixed` cycles, when it found its last
/// job done in cycle `done`: the job goes straight in if the writer is idle,
/// and otherwise is taken in that cycle or, if the job is too recent (it is
/// seen 2 cycles after its commit), when the writer next looks; taking it
/// costs a cycle to read and one to load. The writer is free the cycle
/// after it finds its last job done.
pub(crate) fn writer_after(done: u64, commit: u64, fixed: u32) -> u64 {
    let fixed = fixed as u64;
    if commit > done {
        return commit + 1 + fixed;
    }
    let taken = if done >= commit + 2 {
        done
    } else {
        (done + 1).max(commit + 2)
    };
    taken + 2 + fixed
}

/// The cycles of the gateware's phases (see the module's documentation).
struct Clock {
    /// The cycle the current phase's next line is taken in.
    take: u64,
    /// The last commit so far.
    last_commit: u64,
    /// The cycle the cell writer found its last job done.
    writer_done: u64,
}

impl Clock {
    fn visit(&mut self, options: usize, fixed: u32) {
        let pairs = options.div_ceil(2).max(1) as u64;
        let commit = self.take + pairs + 4;
        if std::env::var_os("MDEBUG").is_some() {
            eprintln!(
                "  take {} K {} P {} commit {} fixed {} writer_done {}",
                self.take, options, pairs, commit, fixed, self.writer_done
            );
        }
        self.take += pairs;
        self.last_commit = commit;
        if fixed > 0 {
            self.writer_done = writer_after(self.writer_done, commit, fixed);
        }
    }

    /// The cycle that decides the phase.
    fn decide(&self) -> u64 {
        (self.last_commit + 1).max(self.writer_done + 1)
    }

    fn next_phase(&mut self) {
        if std::env::var_os("MDEBUG").is_some() {
            eprintln!(
                "decide {} (last commit {}, writer done {})",
                self.decide(),
                self.last_commit,
                self.writer_done
            );
        }
        self.take = self.decide() + 2;
    }
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
    let mut dirty = vec![true; rows + columns];
    let mut clock = Clock {
        take: 1,
        last_commit: 0,
        writer_done: 0,
    };
    let mut row_phase = true;
    verdict.passes = 1;
    'solve: loop {
        let phase = if row_phase { 0..rows } else { rows..rows + columns };
        // Lines of one phase never dirty one another.
        let visits: Vec<usize> = phase.filter(|&l| dirty[l]).collect();
        for line in visits {
            dirty[line] = false;
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
            let read = survivors[line].len();
            survivors[line].retain(|&o| (o ^ assigned) & known_mask == 0);
            if survivors[line].is_empty() {
                // The flush: the phase is decided in the cycle after.
                clock.visit(read, 0);
                verdict.outcome = outcome::CONTRADICTION;
                verdict.detail = line as u8;
                break 'solve;
            }
            let all = survivors[line].iter().fold(u64::MAX, |a, &o| a & o);
            let any = survivors[line].iter().fold(0, |a, &o| a | o);
            let mask = (1u64 << length) - 1;
            let fresh = (all | !any) & mask & !known_mask;
            clock.visit(read, cell_cycles(fresh));
            for i in (0..length).filter(|i| fresh >> i & 1 == 1) {
                let c = cell(line, i);
                known[c] = true;
                value[c] = all >> i & 1 == 1;
                dirty[if line < rows { rows + i } else { i }] = true;
            }
        }
        row_phase = !row_phase;
        let next = if row_phase { 0..rows } else { rows..rows + columns };
        if !dirty[next].contains(&true) {
            let solved = known.iter().all(|&k| k);
            verdict.outcome = if solved { outcome::SOLVED } else { outcome::STALLED };
            break;
        }
        if row_phase {
            verdict.passes = verdict.passes.saturating_add(1);
        }
        clock.next_phase();
    }
    // Finish, then the verdict.
    verdict.cycles = clock.decide() + 1;
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
        .map(|c| crate::dnf::options::LineOptions::new(c, columns).collect())
        .chain(
            column_clues
                .iter()
                .map(|c| crate::dnf::options::LineOptions::new(c, rows).collect()),
        )
        .collect();
    solve(rows, columns, &lines)
}

/// Row and column clues of a picture (row-major, `true` = filled).
pub fn clues_of_picture(rows: usize, columns: usize, cells: &[bool]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    use crate::dnf::options::clue_of_cells;
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
