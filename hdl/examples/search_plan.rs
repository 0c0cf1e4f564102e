//! What search on the chip would cost, before any gateware: depth-first
//! search over the clue engine's line logic on tournament puzzles (random
//! 25×25, cells filled with probability ½), under two cell choices, with
//! the cycles the planned hardware would take. An estimate of a design, not
//! a measurement of gateware: the gateware does not search yet.
//!
//! The plan it prices:
//! * propagation is the clue engine as it is: the dirty-line schedule, a
//!   look at a line 2 cycles, a visit k + 2L + 14 cycles plus 3 per newly
//!   fixed cell (`clue_model.rs`);
//! * after a guess only the guessed cell's row and column are dirty;
//! * every cell fixed below the first guess goes on an undo trail (written
//!   during its cross-copy, no extra cycle); undoing costs 4 cycles a cell
//!   (clear Known in both copies, read and write each);
//! * choosing a cell reads the m row words once (m cycles);
//! * the search goes on after the first solution until it has a second
//!   one or has proved there is none, so it decides uniqueness.
//!
//! Cell choices: `first` takes the first unknown cell in row-major order;
//! `fewest` takes the first unknown cell of the row with the fewest unknown
//! cells (a popcount per row word, same m cycles). Both try "filled" first.
//!
//! ```sh
//! cargo run --release -p nonogram-hdl --example search_plan [COUNT] [SEED]
//! ```

use nonogram_hdl::clue::line_logic::solve_line;
use nonogram_hdl::dnf::model::clues_of_picture;

/// Give up on a puzzle after this many cycles (100 ms at 100 MHz).
const BUDGET: u64 = 10_000_000;

struct Board {
    rows: usize,
    columns: usize,
    clues: Vec<Vec<usize>>,
    /// Row words and column words of Known and Value.
    known: Vec<u64>,
    value: Vec<u64>,
    trail: Vec<(usize, usize)>,
    cycles: u64,
    visits: u64,
}

impl Board {
    fn new(rows: usize, columns: usize, clues: Vec<Vec<usize>>) -> Board {
        Board {
            rows,
            columns,
            clues,
            known: vec![0; rows + columns],
            value: vec![0; rows + columns],
            trail: vec![],
            cycles: 0,
            visits: 0,
        }
    }

    fn set(&mut self, r: usize, c: usize, v: bool, trailing: bool) {
        self.known[r] |= 1 << c;
        self.known[self.rows + c] |= 1 << r;
        if v {
            self.value[r] |= 1 << c;
            self.value[self.rows + c] |= 1 << r;
        } else {
            self.value[r] &= !(1 << c);
            self.value[self.rows + c] &= !(1 << r);
        }
        if trailing {
            self.trail.push((r, c));
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (r, c) = self.trail.pop().unwrap();
            self.known[r] &= !(1 << c);
            self.known[self.rows + c] &= !(1 << r);
            self.cycles += 4;
        }
    }

    /// The dirty-line schedule from `dirty`; false on a line with no fill.
    fn propagate(&mut self, dirty: &mut [bool], trailing: bool) -> bool {
        let total = self.rows + self.columns;
        let mut line = 0;
        loop {
            self.cycles += 2;
            if !dirty.contains(&true) {
                return true;
            }
            if !dirty[line] {
                line = (line + 1) % total;
                continue;
            }
            dirty[line] = false;
            let length = if line < self.rows { self.columns } else { self.rows };
            let result = solve_line(length, &self.clues[line], self.known[line], self.value[line]);
            self.visits += 1;
            self.cycles += self.clues[line].len() as u64 + 2 * length as u64 + 12;
            if !result.feasible() {
                return false;
            }
            let fresh = result.known() & !self.known[line];
            self.cycles += 3 * fresh.count_ones() as u64;
            for i in (0..length).filter(|&i| fresh >> i & 1 == 1) {
                let v = result.value() >> i & 1 == 1;
                let (r, c) = if line < self.rows {
                    (line, i)
                } else {
                    (i, line - self.rows)
                };
                self.set(r, c, v, trailing);
                dirty[if line < self.rows { self.rows + i } else { i }] = true;
            }
            line = (line + 1) % total;
        }
    }

    /// Sets cell (r, c) to `v` on the trail and propagates from its row and
    /// column, the only lines it dirties; false on a contradiction.
    fn guess(&mut self, dirty: &mut [bool], r: usize, c: usize, v: bool) -> bool {
        self.set(r, c, v, true);
        dirty.iter_mut().for_each(|d| *d = false);
        dirty[r] = true;
        dirty[self.rows + c] = true;
        self.propagate(dirty, true)
    }

    fn choose(&mut self, fewest: bool) -> Option<(usize, usize)> {
        self.cycles += self.rows as u64;
        let full = |b: &Board, r: usize| b.known[r].count_ones() as usize == b.columns;
        let r = if fewest {
            (0..self.rows)
                .filter(|&r| !full(self, r))
                .min_by_key(|&r| self.columns - self.known[r].count_ones() as usize)?
        } else {
            (0..self.rows).find(|&r| !full(self, r))?
        };
        let c = (!self.known[r]).trailing_zeros() as usize;
        Some((r, c))
    }
}

#[derive(Default)]
struct Outcome {
    solutions: usize,
    gave_up: bool,
    nodes: u64,
    cycles: u64,
    visits: u64,
}

fn search(rows: usize, columns: usize, clues: &[Vec<usize>], fewest: bool) -> Outcome {
    let mut board = Board::new(rows, columns, clues.to_vec());
    let mut out = Outcome::default();
    let mut dirty = vec![true; rows + columns];
    board.cycles += 128; // clear
                         // (cell, trail mark, second value tried)
    let mut stack: Vec<((usize, usize), usize, bool)> = vec![];
    let mut consistent = board.propagate(&mut dirty, false);
    loop {
        out.nodes += 1;
        if board.cycles > BUDGET {
            out.gave_up = true;
            break;
        }
        let mut backtrack = !consistent;
        if consistent {
            match board.choose(fewest) {
                None => {
                    out.solutions += 1;
                    if out.solutions == 2 {
                        break;
                    }
                    backtrack = true;
                }
                Some((r, c)) => {
                    stack.push(((r, c), board.trail.len(), false));
                    consistent = board.guess(&mut dirty, r, c, true);
                    continue;
                }
            }
        }
        if backtrack {
            loop {
                match stack.pop() {
                    None => {
                        out.cycles = board.cycles;
                        out.visits = board.visits;
                        return out;
                    }
                    Some((_, mark, true)) => board.undo_to(mark),
                    Some(((r, c), mark, false)) => {
                        board.undo_to(mark);
                        stack.push(((r, c), mark, true));
                        consistent = board.guess(&mut dirty, r, c, false);
                        break;
                    }
                }
            }
        }
    }
    out.cycles = board.cycles;
    out.visits = board.visits;
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2011);
    let size = 25;
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let puzzles: Vec<Vec<Vec<usize>>> = (0..count)
        .map(|_| {
            let cells: Vec<bool> = (0..size * size).map(|_| next() >> 63 == 1).collect();
            let (r, c) = clues_of_picture(size, size, &cells);
            r.into_iter().chain(c).collect()
        })
        .collect();
    println!("{count} random {size}x{size} puzzles (p = 1/2, seed {seed}); budget {BUDGET} cycles a puzzle");
    println!("choice | unique | several | gave up | nodes | line visits | cycles (100 MHz) | median cycles");
    for (name, fewest) in [("first", false), ("fewest", true)] {
        let (mut unique, mut several, mut gave_up, mut nodes, mut visits, mut cycles) = (0, 0, 0, 0, 0, 0);
        let mut each = vec![];
        for clues in &puzzles {
            let o = search(size, size, clues, fewest);
            match (o.gave_up, o.solutions) {
                (true, _) => gave_up += 1,
                (false, 1) => unique += 1,
                (false, 2) => several += 1,
                _ => panic!("a random picture has a solution"),
            }
            nodes += o.nodes;
            visits += o.visits;
            cycles += o.cycles;
            each.push(o.cycles);
        }
        each.sort();
        println!(
            "{name:>6} | {unique:>6} | {several:>7} | {gave_up:>7} | {nodes:>5} | {visits:>11} | {cycles} ({:.3} s) | {}",
            cycles as f64 / 1e8,
            each[each.len() / 2]
        );
    }
}
