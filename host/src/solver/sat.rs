//! The hard cases: a puzzle as a SAT formula, for CaDiCaL.
//!
//! Probing search is fast on most puzzles but has a heavy tail on the
//! tournaments' hard band (random 25×25 at 0.45-0.38 black), where it can
//! run for tens of seconds. A CDCL solver learns from each dead end instead
//! of meeting it again in the next subtree: whole tournament sets in about
//! 111 s instead of 297-339 s, no puzzle over 10 s (README, "Measured"),
//! and about half that since black and white moved to the order encoding
//! (below). [`super::Solver`] hands a
//! search over once it has used [`SAT_AFTER_NODES`] nodes, with the cells
//! line logic and probing fixed at the root as unit clauses, and what the
//! root's probes showed as binary clauses (below).
//!
//! The colour solver hands over the same way ([`crate::colour::search`]):
//! one formula serves both, black and white being colour puzzles with one
//! ink.
//!
//! **The formula.** A cell has one colour (0 is the background): with one
//! ink, variable `i + 1` is cell i (row-major), true when filled; with more,
//! variable `i·K + c + 1` says cell i has colour c of K, exactly one of them
//! true.
//!
//! *One ink: the order encoding.* Each block j of a line has a variable
//! per place t from its leftmost place to just before its rightmost, true
//! when the block starts at t or before (the rightmost place is always
//! "or before", places left of the leftmost never):
//! * starting by t means starting by t + 1;
//! * block j starting by t means block j − 1 started by t − len(j − 1) − 1;
//! * a cell block j covers (started by it, not by len(j) cells before) is
//!   filled;
//! * a cell in a gap (block j − 1 ended by it, block j not started by it;
//!   before the first block, after the last) is empty.
//!
//! All binary and ternary clauses: unit propagation moves each block's
//! earliest and latest start as the cells change, and fills the cells
//! every remaining place covers, and the solver learns clauses about where
//! blocks start. It replaced, for one ink, the start encoding below:
//! * the 20 slowest puzzles of each tournament set, CaDiCaL seeds 1 and 2:
//!   76 s instead of 209 s, slowest 5.5 s instead of 25.9 s;
//! * whole sets (`set_slice SET 30 $(seq 1 1000)`, both builds in one run
//!   on a loaded machine): icga2016 189.0 s → 99.3 s, slowest 14.9 s → 8.5
//!   s; tcga2019 190.4 s → 100.8 s, slowest 17.8 s → 2.6 s.
//!
//! The automaton's unrolling (a variable per cell and state, on which unit
//! propagation is exactly line logic) did worse than the start encoding:
//! 146 s against 109 s on those 40 puzzles, seeds 1-4.
//!
//! *More inks: one variable per start.* Each block j of a line has a
//! variable per start s it can have (from its leftmost to its rightmost
//! place), and:
//! * exactly one start;
//! * a start gives the block's cells its colour, and the cells either side
//!   another;
//! * a start of block j needs a start of block j + 1 past its end (one cell
//!   past, if the two have one colour), and one of block j − 1 ending before it;
//! * a cell of an ink is covered by some start of a block of that ink.
//!
//! In both, the blocks' starts are ordered and one each, so the formula's
//! models are the puzzle's solutions, each with one assignment of the other
//! variables: blocking a solution's cells counts solutions exactly.
//!
//! **What probing showed.** Before it hands over, the search tries each
//! value of each undecided cell at the root once more and keeps what line
//! logic then decides: "cell a is v implies cell b is u", a binary clause
//! ([`Implied`]), about 1 400-2 800 on the tournaments' hard 25×25s. Unit
//! propagation on the order encoding misses some of what line logic finds
//! (on random 25-cell lines at density 0.42 with 30 % of the cells known,
//! 253 of the 1 478 cells line logic decides, most of them near a filled
//! cell that more than one block could cover), and about a third of these
//! clauses (449-521 of 1 365-1 446 on three of the hardest) are not found
//! by unit propagation from the root's cells. On the formulas of the
//! tournament sets' 20 slowest puzzles each (40), CaDiCaL standalone with
//! the "sat" options and seeds 0-15 needed 19 % fewer conflicts in all
//! with them (24 % by the geometric mean; 26 of 40 better), the worst of
//! icga2016 #697's 16 runs 70 000 instead of 226 000. In the solver
//! (`set_slice`, both builds alternating by 100 puzzles in one run, two
//! runs on a machine loaded by other builds): whole sets in first-solution
//! mode icga2016 78.0 → 65.5 s and 109.9 → 96.6 s, slowest 6.2 → 2.1 s and
//! 9.0 → 3.1 s (#697); tcga2019 76.8 → 76.0 s and 106.5 → 105.9 s, slowest
//! 2.0 → 2.9 s and 3.5 → 4.6 s (#710); deciding uniqueness on puzzles
//! 401-800, icga2016 85.8 → 86.4 s and 111.3 → 110.1 s, tcga2019 100.0 →
//! 92.1 s and 102.3 → 96.2 s. CaDiCaL's time on one formula varies several
//! times over with its seed (#697: 8 000 to 226 000 conflicts), so one
//! puzzle's time in one run is one draw; the totals and the conflicts over
//! seeds are what to compare.

use super::search::Implied;
use super::Budget;
use std::sync::atomic::Ordering;

/// Search nodes the probing search uses before it hands a puzzle over.
/// Most puzzles never reach it (none of 1 000 random 25×25 at density ½,
/// nor of 200 random 30×30 at ½ deciding uniqueness; 235 of icga2016's 1
/// 000); the tournaments' hard ones do within a few hundred milliseconds.
/// The formula does not depend on it (the root's cells and tries, done
/// at the first node), so it only trades the search's nodes on the puzzles
/// handed over anyway against CaDiCaL's time on those the search would
/// have finished between the lower cap and the higher, which CaDiCaL takes
/// about twice as long over in first-solution mode, two to three times
/// deciding uniqueness (two solves).
///
/// Measured with the root's implications ([`Implied`]), `set_slice`, the
/// caps alternating by 100 puzzles in one run, two runs on a loaded
/// machine (512 → 256 → 128; 64 in the first run only):
/// * first solution, icga2016 1-1000: 65.5 → 61.1 → 59.3 s (64: 58.2 s)
///   and 96.6 → 84.3 → 80.4 s; tcga2019: 76.0 → 69.8 → 65.8 s (64: 66.1 s)
///   and 105.9 → 108.5 → 88.1 s;
/// * uniqueness, icga2016 401-800: 86.4 → 86.7 → 87.7 s (64: 88.2 s) and
///   110.1 → 92.5 → 116.8 s; tcga2019 401-800: 92.1 → 91.4 → 93.3 s (64:
///   102.5 s) and 96.2 → 96.0 → 92.6 s;
/// * the slowest puzzle alike at every cap (the same formulas): 2.0-2.9 s
///   first-solution, 4.0-5.5 s uniqueness in the first run.
///
/// 256 takes most of the first-solution gain and costs nothing deciding
/// uniqueness; 128 cost 1-6 % there on icga2016 in both runs, 64 more. (Before the implications,
/// on icga2016's puzzles 501-600 any cap from 128 to 2 048 gave the same
/// time within the noise, 34-36 s, 64 a little more, 37.5 s.)
pub const SAT_AFTER_NODES: u64 = 256;

/// One block of a line's clue: its length and colour (1 or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub len: usize,
    pub colour: usize,
}

/// A puzzle for the SAT solver: clues and what is known of each cell.
pub struct Problem<'a> {
    /// Colours, background included (2 for black and white).
    pub colours: usize,
    pub rows: &'a [Vec<Block>],
    pub columns: &'a [Vec<Block>],
    /// Each cell's possible colours (row-major, bit c for colour c).
    pub allowed: &'a [u32],
    /// Known implications between cells' colours (see the module notes).
    pub implied: &'a [Implied<usize>],
}

/// What the SAT solver found: up to `limit` solutions (row-major colour
/// indices), and whether the budget stopped it before it decided.
pub struct SatFound {
    pub solutions: Vec<Vec<u8>>,
    pub stopped: bool,
}

/// Asks the budget whether to stop, each time CaDiCaL checks.
struct Stop(Budget);

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.0.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.0.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }
}

/// Up to `limit` solutions of a black-and-white puzzle whose cells `known`
/// (row-major, `None` = unknown) and implications `implied` (true: filled)
/// are taken as given.
pub fn solve<C: AsRef<[usize]>>(
    rows: &[C],
    columns: &[C],
    known: &[Option<bool>],
    implied: &[Implied<bool>],
    limit: usize,
    budget: &Budget,
) -> (Vec<Vec<bool>>, bool) {
    let blocks = |clue: &C| -> Vec<Block> {
        clue.as_ref()
            .iter()
            .filter(|&&len| len > 0)
            .map(|&len| Block { len, colour: 1 })
            .collect()
    };
    let rows: Vec<Vec<Block>> = rows.iter().map(blocks).collect();
    let columns: Vec<Vec<Block>> = columns.iter().map(blocks).collect();
    let allowed: Vec<u32> = known
        .iter()
        .map(|k| match k {
            None => 0b11,
            Some(filled) => 1 << (*filled as u32),
        })
        .collect();
    let implied: Vec<Implied<usize>> = implied
        .iter()
        .map(|i| Implied {
            cell: i.cell,
            value: i.value as usize,
            then_cell: i.then_cell,
            then: i.then as usize,
        })
        .collect();
    let problem = Problem {
        colours: 2,
        rows: &rows,
        columns: &columns,
        allowed: &allowed,
        implied: &implied,
    };
    let found = solve_colours(&problem, limit, budget);
    let solutions = found
        .solutions
        .into_iter()
        .map(|s| s.into_iter().map(|c| c == 1).collect())
        .collect();
    (solutions, found.stopped)
}

/// Up to `limit` solutions of `problem`.
pub fn solve_colours(problem: &Problem, limit: usize, budget: &Budget) -> SatFound {
    let (h, w) = (problem.rows.len(), problem.columns.len());
    // One solution asked for on a board of up to 32×32: the puzzle is most
    // likely satisfiable, and CaDiCaL's "sat" options target that. Whole
    // tournament sets (25×25), back to back: icga2016 130.2 s → 112.4 s,
    // tcga2019 156.4 s → 110.4 s, and no puzzle over 10 s. On larger boards
    // they lose: random 75×50 at density ½, `solve --first --max-time 60`,
    // the default options solved 5 of 6 in 24-37 s, "sat" 1 of 6; 50×50, 4
    // puzzles: 22.3 s against over 36 s; 40×40 alike. Two asked for: the
    // second question is often unsatisfiable (a unique puzzle), so the
    // default options.
    let config = if limit == 1 && h * w <= 32 * 32 {
        "sat"
    } else {
        "default"
    };
    let mut sat: cadical::Solver<Stop> = cadical::Solver::with_config(config).unwrap_or_default();
    sat.set_callbacks(Some(Stop(budget.clone())));
    let k = problem.colours;
    let mut formula = Formula {
        allowed: problem.allowed,
        colours: k,
        next_var: (h * w * if k == 2 { 1 } else { k }) as i32,
        solver: &mut sat,
    };
    let mut fits = true;
    let line = |formula: &mut Formula, cells: &[usize], clue: &[Block]| {
        if k == 2 {
            formula.order_line(cells, clue)
        } else {
            formula.line(cells, clue)
        }
    };
    for (r, clue) in problem.rows.iter().enumerate() {
        fits &= line(&mut formula, &(0..w).map(|c| r * w + c).collect::<Vec<_>>(), clue);
    }
    for (c, clue) in problem.columns.iter().enumerate() {
        fits &= line(&mut formula, &(0..h).map(|r| r * w + c).collect::<Vec<_>>(), clue);
    }
    for cell in 0..h * w {
        let allowed = problem.allowed.get(cell).copied().unwrap_or(u32::MAX);
        if k > 2 {
            formula.exactly_one(&(0..k).map(|c| formula.lit(cell, c)).collect::<Vec<_>>());
        }
        for c in (0..k).filter(|&c| allowed >> c & 1 == 0) {
            let lit = formula.lit(cell, c);
            formula.solver.add_clause([-lit]);
        }
    }
    for i in problem.implied {
        let (a, b) = (formula.lit(i.cell, i.value), formula.lit(i.then_cell, i.then));
        formula.solver.add_clause([-a, b]);
    }
    let colour_of = |sat: &cadical::Solver<Stop>, cell: usize| -> u8 {
        if k == 2 {
            (sat.value(cell as i32 + 1) == Some(true)) as u8
        } else {
            (0..k)
                .find(|&c| sat.value((cell * k + c + 1) as i32) == Some(true))
                .unwrap_or(0) as u8
        }
    };
    let lit = |cell: usize, colour: usize| Formula::literal(k, cell, colour);
    let mut found = SatFound {
        solutions: Vec::new(),
        stopped: false,
    };
    while fits && found.solutions.len() < limit {
        match sat.solve() {
            Some(true) => {
                let solution: Vec<u8> = (0..h * w).map(|cell| colour_of(&sat, cell)).collect();
                // The next solution differs from this one in some cell.
                sat.add_clause(
                    solution
                        .iter()
                        .enumerate()
                        .map(|(cell, &c)| -lit(cell, c as usize)),
                );
                found.solutions.push(solution);
            }
            Some(false) => break,
            None => {
                found.stopped = true;
                break;
            }
        }
    }
    found
}

/// Clauses being added, and the next free variable.
struct Formula<'a> {
    /// Each cell's possible colours: a start that would give a cell a
    /// colour it cannot have is left out.
    allowed: &'a [u32],
    colours: usize,
    next_var: i32,
    solver: &'a mut cadical::Solver<Stop>,
}

impl Formula<'_> {
    /// "Cell `cell` has colour `colour`" with `colours` colours in all.
    fn literal(colours: usize, cell: usize, colour: usize) -> i32 {
        if colours == 2 {
            let filled = cell as i32 + 1;
            if colour == 1 {
                filled
            } else {
                -filled
            }
        } else {
            (cell * colours + colour + 1) as i32
        }
    }

    fn lit(&self, cell: usize, colour: usize) -> i32 {
        Self::literal(self.colours, cell, colour)
    }

    fn fresh(&mut self) -> i32 {
        self.next_var += 1;
        self.next_var
    }

    /// Exactly one of `lits`: pairwise up to 32 (CaDiCaL did better with
    /// pairwise on 30×30 colour puzzles: 21.4 s against 27.7 s for
    /// `colour_bench 200 1 20` with a counter from 7), else a sequential
    /// counter (Sinz), 3n clauses instead of n²/2 for a long line's starts.
    fn exactly_one(&mut self, lits: &[i32]) {
        self.solver.add_clause(lits.iter().copied());
        if lits.len() <= 32 {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.solver.add_clause([-a, -b]);
                }
            }
            return;
        }
        // seen_i: one of lits[..=i] is true.
        let mut seen_before = 0;
        for (i, &lit) in lits.iter().enumerate() {
            if i > 0 {
                self.solver.add_clause([-lit, -seen_before]);
            }
            if i + 1 < lits.len() {
                let seen = self.fresh();
                self.solver.add_clause([-lit, seen]);
                if i > 0 {
                    self.solver.add_clause([-seen_before, seen]);
                }
                seen_before = seen;
            }
        }
    }

    /// Whether cell `cell` may have colour `colour`.
    fn may_be(&self, cell: usize, colour: usize) -> bool {
        self.allowed.get(cell).is_none_or(|a| a >> colour & 1 == 1)
    }

    /// Whether cell `cell` may have a colour other than `colour`.
    fn may_differ(&self, cell: usize, colour: usize) -> bool {
        self.allowed.get(cell).is_none_or(|a| a & !(1 << colour) != 0)
    }

    /// The clauses of one line of a black-and-white puzzle in the order
    /// encoding (see the module notes); false if the clue cannot fit.
    fn order_line(&mut self, cells: &[usize], blocks: &[Block]) -> bool {
        let n = cells.len();
        let k = blocks.len();
        let need = blocks.iter().map(|b| b.len + 1).sum::<usize>().saturating_sub(1);
        let Some(slack) = n.checked_sub(need) else {
            return false;
        };
        // Block j starts in first[j] ..= first[j] + slack; "starts at t or
        // before" is a variable for t < first[j] + slack, from base[j] on.
        let (mut first, mut base) = (Vec::with_capacity(k), Vec::with_capacity(k));
        let mut at = 0;
        for b in blocks {
            first.push(at as isize);
            at += b.len + 1;
            base.push(self.next_var + 1);
            self.next_var += slack as i32;
        }
        let slack = slack as isize;
        // "Block j starts at t or before": a literal, or Err(its constant value).
        let by = |j: usize, t: isize| -> Result<i32, bool> {
            if t < first[j] {
                Err(false)
            } else if t >= first[j] + slack {
                Err(true)
            } else {
                Ok(base[j] + (t - first[j]) as i32)
            }
        };
        let not = |l: Result<i32, bool>| l.map(|v| -v).map_err(|c| !c);
        // A clause less its false constants; none if a constant is true.
        let clause = |lits: &[Result<i32, bool>], solver: &mut cadical::Solver<Stop>| {
            if !lits.contains(&Err(true)) {
                solver.add_clause(lits.iter().filter_map(|l| l.ok()));
            }
        };
        let cell = |p: isize| -> Result<i32, bool> { Ok(cells[p as usize] as i32 + 1) };
        for (j, block) in blocks.iter().enumerate() {
            let b = block.len as isize;
            for t in first[j]..first[j] + slack {
                // Started by t, started by t + 1.
                clause(&[not(by(j, t)), by(j, t + 1)], self.solver);
                // Block j starts past block j - 1 and a gap.
                if j > 0 {
                    let before = by(j - 1, t - blocks[j - 1].len as isize - 1);
                    clause(&[not(by(j, t)), before], self.solver);
                }
            }
            // A cell block j covers (started by p, not by p - b) is filled.
            for p in first[j]..(first[j] + slack + b).min(n as isize) {
                clause(&[cell(p), not(by(j, p)), by(j, p - b)], self.solver);
            }
        }
        // A cell between blocks j - 1 and j (the first ended by it, the
        // second not started) is empty.
        for p in 0..n as isize {
            for j in 0..=k {
                let ended = match j {
                    0 => Err(true),
                    _ => by(j - 1, p - blocks[j - 1].len as isize),
                };
                let started = if j == k { Err(false) } else { by(j, p) };
                clause(&[not(cell(p)), not(ended), started], self.solver);
            }
        }
        true
    }

    /// The clauses of one line (its cells in order); false if its clue
    /// cannot fit at all.
    fn line(&mut self, cells: &[usize], blocks: &[Block]) -> bool {
        let length = cells.len();
        // The cells block j needs, with the gap to the next of its colour.
        let span = |j: usize| {
            let gap = blocks
                .get(j + 1)
                .is_some_and(|next| next.colour == blocks[j].colour);
            blocks[j].len + gap as usize
        };
        // Block j's starts: from its leftmost place (every block before it
        // packed to the left) to its rightmost.
        let mut starts: Vec<Vec<(usize, i32)>> = Vec::with_capacity(blocks.len());
        let mut leftmost = 0;
        for j in 0..blocks.len() {
            let after: usize = (j + 1..blocks.len()).map(span).sum();
            let gap = span(j) - blocks[j].len;
            let Some(rightmost) = length.checked_sub(after + gap + blocks[j].len) else {
                return false;
            };
            if rightmost < leftmost {
                return false;
            }
            let (b, colour) = (blocks[j].len, blocks[j].colour);
            let possible = |s: usize| {
                (s..s + b).all(|p| self.may_be(cells[p], colour))
                    && (s == 0 || self.may_differ(cells[s - 1], colour))
                    && (s + b == length || self.may_differ(cells[s + b], colour))
            };
            let places: Vec<usize> = (leftmost..=rightmost).filter(|&s| possible(s)).collect();
            starts.push(places.into_iter().map(|s| (s, self.fresh())).collect());
            leftmost += span(j);
        }
        for (j, block) in blocks.iter().enumerate() {
            let (b, colour) = (block.len, block.colour);
            let own: Vec<i32> = starts[j].iter().map(|&(_, v)| v).collect();
            self.exactly_one(&own);
            for &(s, v) in &starts[j] {
                for p in s..s + b {
                    let lit = self.lit(cells[p], colour);
                    self.solver.add_clause([-v, lit]);
                }
                for side in [s.checked_sub(1), Some(s + b).filter(|&p| p < length)]
                    .into_iter()
                    .flatten()
                {
                    let lit = self.lit(cells[side], colour);
                    self.solver.add_clause([-v, -lit]);
                }
                if let Some(next) = starts.get(j + 1) {
                    let later = next.iter().filter(|&&(t, _)| t >= s + span(j)).map(|&(_, x)| x);
                    self.solver.add_clause(std::iter::once(-v).chain(later));
                }
                if j > 0 {
                    let earlier = starts[j - 1]
                        .iter()
                        .filter(|&&(t, _)| t + span(j - 1) <= s)
                        .map(|&(_, x)| x);
                    self.solver.add_clause(std::iter::once(-v).chain(earlier));
                }
            }
        }
        // A cell of an ink lies in a block of that ink.
        for (p, &cell) in cells.iter().enumerate() {
            for colour in 1..self.colours {
                let covering: Vec<i32> = blocks
                    .iter()
                    .zip(&starts)
                    .filter(|(block, _)| block.colour == colour)
                    .flat_map(|(block, own)| own.iter().filter(move |&&(s, _)| s <= p && p < s + block.len))
                    .map(|&(_, v)| v)
                    .collect();
                let lit = self.lit(cell, colour);
                self.solver.add_clause(std::iter::once(-lit).chain(covering));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonogram_hdl::dnf::model::clues_of_picture;
    use std::collections::HashMap;

    /// Every 3×3 and 3×4 grid's clues: as many solutions as brute force
    /// finds (up to two), each one meeting the clues.
    #[test]
    fn counts_match_brute_force_on_small_grids() {
        for (h, w) in [(3usize, 3usize), (3, 4)] {
            type Clues = (Vec<Vec<usize>>, Vec<Vec<usize>>);
            let mut by_clues: HashMap<Clues, usize> = HashMap::new();
            for g in 0..1u64 << (h * w) {
                let picture: Vec<bool> = (0..h * w).map(|i| g >> i & 1 == 1).collect();
                *by_clues.entry(clues_of_picture(h, w, &picture)).or_default() += 1;
            }
            let unknown = vec![None; h * w];
            for ((rows, columns), n) in &by_clues {
                let (solutions, stopped) = solve(rows, columns, &unknown, &[], 2, &Budget::default());
                assert!(!stopped);
                assert_eq!(solutions.len(), (*n).min(2), "{rows:?} {columns:?}");
                for s in &solutions {
                    assert_eq!(&clues_of_picture(h, w, s), &(rows.clone(), columns.clone()));
                }
                if solutions.len() == 2 {
                    assert_ne!(solutions[0], solutions[1]);
                }
            }
        }
    }

    #[test]
    fn known_cells_are_kept_and_impossible_clues_have_no_solution() {
        // The two diagonals; cell (0, 0) filled leaves one.
        let clue = vec![vec![1], vec![1]];
        let known = [Some(true), None, None, None];
        let (solutions, _) = solve(&clue, &clue, &known, &[], 2, &Budget::default());
        assert_eq!(solutions, vec![vec![true, false, false, true]]);
        // "Cell 0 filled implies cell 1 filled" rules out that diagonal.
        let implied = [Implied {
            cell: 0,
            value: true,
            then_cell: 1,
            then: true,
        }];
        let (solutions, _) = solve(&clue, &clue, &[None; 4], &implied, 2, &Budget::default());
        assert_eq!(solutions, vec![vec![false, true, true, false]]);
        // A block longer than its line; two blocks that need 5 cells of 4.
        for rows in [vec![vec![3], vec![]], vec![vec![2, 2], vec![]]] {
            let columns = vec![vec![1]; rows[0].len().max(2)];
            let (solutions, stopped) = solve(&rows, &columns[..2], &[None; 4], &[], 2, &Budget::default());
            assert!(solutions.is_empty() && !stopped, "{rows:?}");
        }
    }

    /// Random black-and-white boards with some of their picture's cells
    /// given: as many solutions (up to two) as the search finds from the
    /// same cells, each meeting the clues and keeping the given cells.
    #[test]
    fn given_cells_count_alike_in_search_and_formula() {
        let mut seed = 0x0de7_u64;
        let mut rng = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut search = crate::solver::Solver::new();
        search.set_sat_after(u64::MAX);
        let mut several = 0;
        for _ in 0..300 {
            let h = (rng() % 7 + 3) as usize;
            let w = (rng() % 7 + 3) as usize;
            let picture: Vec<bool> = (0..h * w).map(|_| rng() % 5 < 2).collect();
            let (rows, columns) = clues_of_picture(h, w, &picture);
            // About one cell in six given; now and then one given wrong.
            let mut known: Vec<Option<bool>> =
                picture.iter().map(|&f| (rng() % 6 == 0).then_some(f)).collect();
            if rng() % 8 == 0 {
                let i = (rng() % (h * w) as u64) as usize;
                known[i] = Some(!picture[i]);
            }
            let want = search.count_from(&rows, &columns, Some(&known), 2).count;
            let (solutions, stopped) = solve(&rows, &columns, &known, &[], 2, &Budget::default());
            assert!(!stopped);
            assert_eq!(solutions.len(), want, "{rows:?} {columns:?} {known:?}");
            several += (want == 2) as usize;
            for s in &solutions {
                assert_eq!(&clues_of_picture(h, w, s), &(rows.clone(), columns.clone()));
                assert!(known.iter().zip(s).all(|(k, &c)| k.is_none_or(|k| k == c)));
            }
        }
        assert!(several > 20, "{several} boards with several solutions");
    }

    /// "Exactly one" in both forms: each of n literals alone, and nothing
    /// else, is a model.
    #[test]
    fn exactly_one_allows_each_literal_alone() {
        for n in [1, 5, 32, 33, 70] {
            let mut sat: cadical::Solver<Stop> = cadical::Solver::new();
            let mut formula = Formula {
                allowed: &[],
                colours: 2,
                next_var: n,
                solver: &mut sat,
            };
            let lits: Vec<i32> = (1..=n).collect();
            formula.exactly_one(&lits);
            let mut models = Vec::new();
            // A broken form has more models: stop one past the right count.
            while models.len() <= n as usize && sat.solve() == Some(true) {
                let on: Vec<i32> = lits
                    .iter()
                    .copied()
                    .filter(|&v| sat.value(v) == Some(true))
                    .collect();
                sat.add_clause(lits.iter().map(|&v| if on.contains(&v) { -v } else { v }));
                models.push(on);
            }
            models.sort();
            assert_eq!(models, (1..=n).map(|v| vec![v]).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn a_deadline_stops_it() {
        // A tournament-style 30×30 at density 0.4: CaDiCaL needs far more
        // than no time at all.
        let p = crate::tournament::puzzle(1, 500, 1000, 30, Some(0.4));
        let budget = Budget {
            deadline: Some(std::time::Instant::now()),
            ..Budget::default()
        };
        let (solutions, stopped) = solve(&p.rows, &p.columns, &[None; 900], &[], 1, &budget);
        assert!(stopped && solutions.is_empty());
        let (solutions, stopped) = solve(&p.rows, &p.columns, &[None; 900], &[], 1, &Budget::default());
        assert!(!stopped && p.check_solution(&solutions[0]).is_ok());
    }
}
