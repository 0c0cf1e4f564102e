//! The colour solver: a [`Grid`] of cells that each hold a set of possible
//! colours (a bit set, [`Cell`]) for the search the black-and-white solver
//! uses ([`crate::solver::search`]): line logic to a fixpoint, probing every
//! colour of every undecided cell at every node (a colour that leads to a
//! contradiction is removed; every cell keeps only the colours some
//! surviving try left it), branching on the cell whose tries scored best
//! (see [`crate::solver::search`]), the colour whose try fixed the most
//! first, then the cell without that colour. Puzzles with block clues go to
//! the SAT solver after [`SAT_AFTER_NODES`] nodes when one or two solutions
//! are asked for ([`crate::solver::sat`]).

use super::line::{Cell, LineSolver};
use super::{ColourPuzzle, Rule};
use crate::solver::sat::{self, Block, Problem};
use crate::solver::search::{Grid, Implied, LineSet, Search};
use crate::solver::{Budget, LineOutcome};
use rustc_hash::FxHashMap;

/// What the solver found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// min(solutions, limit), or as many as were found before giving up.
    pub count: usize,
    /// The first two solutions (palette indices, row-major).
    pub first: Option<Vec<u8>>,
    pub second: Option<Vec<u8>>,
    /// Search nodes visited.
    pub nodes: u64,
    pub gave_up: bool,
    /// The search was handed to the SAT solver.
    pub by_sat: bool,
    /// Line logic alone, from the empty grid: its verdict and cells.
    pub line_logic: Option<LineOutcome>,
    pub line_cells: Vec<Cell>,
}

/// Search nodes before a puzzle goes to the SAT solver. A colour node probes
/// every colour of every stale cell: on a 30×30 it costs 10-20 ms, about
/// fifty times a black-and-white node, so the hand-over comes sooner than
/// there ([`sat::SAT_AFTER_NODES`]). On 200 random colour puzzles
/// (`colour_bench 200 1 20`) 16 nodes took 20.6 s in all, 64 took 24.5 s
/// and 512 took 50.8 s (the colour solver's own search, before it shared
/// black and white's, which also counts the branch without a colour as a
/// node).
const SAT_AFTER_NODES: u64 = 16;

/// Line answers kept before the cache starts afresh.
const CACHE_ENTRIES: usize = 1 << 18;

/// A colour puzzle for the search: a state is each cell's possible colours
/// (row-major).
struct Colours<'a> {
    puzzle: &'a ColourPuzzle,
    line_solver: LineSolver,
    /// Line answers by line and a hash of its cells (the cells are
    /// compared on a hit): the cells before and after, `None` for no fill.
    #[allow(clippy::type_complexity)]
    cache: FxHashMap<(u32, u64), (Box<[Cell]>, Option<Box<[Cell]>>)>,
    masks: Vec<Cell>,
    answer: Vec<Cell>,
}

/// Solves `puzzle`, counting solutions up to `limit` (1: any one solution).
pub fn solve(puzzle: &ColourPuzzle, limit: usize, budget: &Budget) -> Found {
    solve_with(puzzle, limit, budget, SAT_AFTER_NODES)
}

/// [`solve`], handing a search for one or two solutions to the SAT solver
/// after `sat_after` nodes (`u64::MAX`: never).
pub fn solve_with(puzzle: &ColourPuzzle, limit: usize, budget: &Budget, sat_after: u64) -> Found {
    let grid = Colours {
        puzzle,
        line_solver: LineSolver::default(),
        cache: FxHashMap::default(),
        masks: Vec::new(),
        answer: Vec::new(),
    };
    let mut search = Search::new(grid, 0, sat_after);
    search.budget = budget.clone();
    search.root();
    let logic = search.line_logic();
    let line_cells = search.root_state().clone();
    let mut found = Found {
        line_logic: Some(match logic {
            Err(_) => LineOutcome::Contradiction,
            Ok(()) if line_cells.iter().all(|c| c.count_ones() == 1) => LineOutcome::Solved,
            Ok(()) => LineOutcome::Stalled,
        }),
        line_cells,
        ..Found::default()
    };
    if logic.is_ok() {
        let tally = search.count(limit);
        found.count = tally.count;
        found.first = tally.first;
        found.second = tally.second;
        found.nodes = tally.nodes;
        found.gave_up = tally.gave_up;
        found.by_sat = tally.by_sat;
    }
    found
}

/// Up to `limit` solutions of a block-clue puzzle by the SAT solver, each
/// cell's colour among `allowed`.
fn solve_by_sat(puzzle: &ColourPuzzle, allowed: &[Cell], limit: usize, budget: &Budget) -> sat::SatFound {
    let blocks = |clue: &Vec<super::Hint>| -> Vec<Block> {
        clue.iter()
            .map(|h| Block {
                len: h.len,
                colour: h.colour as usize,
            })
            .collect()
    };
    let rows: Vec<Vec<Block>> = puzzle.rows.iter().map(blocks).collect();
    let columns: Vec<Vec<Block>> = puzzle.columns.iter().map(blocks).collect();
    let problem = Problem {
        colours: puzzle.colours.len(),
        rows: &rows,
        columns: &columns,
        allowed,
        implied: &[],
    };
    sat::solve_colours(&problem, limit, budget)
}

impl Colours<'_> {
    /// Line `line`'s first cell, the step to the next, and its length.
    fn line_cells(&self, line: usize) -> (usize, usize, usize) {
        let (h, w) = (self.puzzle.height(), self.puzzle.width());
        if line < h {
            (line * w, 1, w)
        } else {
            (line - h, w, h)
        }
    }

    fn cells_of<'s>(&self, state: &'s [Cell], line: usize) -> impl Iterator<Item = &'s Cell> {
        let (start, step, len) = self.line_cells(line);
        state[start..].iter().step_by(step).take(len)
    }
}

impl Grid for Colours<'_> {
    type State = Vec<Cell>;
    type Value = u32;
    type Solution = Vec<u8>;

    fn height(&self) -> usize {
        self.puzzle.height()
    }

    fn width(&self) -> usize {
        self.puzzle.width()
    }

    fn open(&self, state: &mut Vec<Cell>) {
        let k = self.puzzle.colours.len();
        let all: Cell = if k >= 32 { u32::MAX } else { (1 << k) - 1 };
        state.clear();
        state.resize(self.puzzle.width() * self.puzzle.height(), all);
    }

    /// Line logic on one line, its answers cached by line and cells.
    fn revise(&mut self, state: &mut Vec<Cell>, line: usize, dirty: &mut LineSet) -> bool {
        use std::hash::{Hash, Hasher};
        let mut masks = std::mem::take(&mut self.masks);
        masks.clear();
        masks.extend(self.cells_of(state, line));
        let mut hasher = rustc_hash::FxHasher::default();
        masks.hash(&mut hasher);
        let key = (line as u32, hasher.finish());
        let mut answer = std::mem::take(&mut self.answer);
        answer.clear();
        let fits = match self.cache.get(&key) {
            Some((cells, known)) if **cells == *masks => {
                answer.extend(known.iter().flat_map(|a| a.iter()));
                known.is_some()
            }
            _ => {
                let (clue, _) = self.puzzle.line(line);
                let solved = self.line_solver.solve(self.puzzle.rule, clue, &masks);
                answer.extend(solved.iter().flatten());
                if self.cache.len() >= CACHE_ENTRIES {
                    self.cache.clear();
                }
                let fits = solved.is_some();
                self.cache
                    .insert(key, (masks.as_slice().into(), solved.map(Vec::into_boxed_slice)));
                fits
            }
        };
        let (start, step, _) = self.line_cells(line);
        let h = self.puzzle.height();
        for (k, (&new, &old)) in answer.iter().zip(&masks).enumerate() {
            if new != old {
                state[start + k * step] = new;
                dirty.insert(if line < h { h + k } else { k });
            }
        }
        self.masks = masks;
        self.answer = answer;
        fits
    }

    fn decided(&self, state: &Vec<Cell>, r: usize, c: usize) -> bool {
        state[r * self.puzzle.width() + c].count_ones() == 1
    }

    fn known(&self, state: &Vec<Cell>) -> usize {
        state.iter().filter(|c| c.count_ones() == 1).count()
    }

    fn unknowns(&self, state: &Vec<Cell>, line: usize) -> (usize, usize) {
        let mut open = self
            .cells_of(state, line)
            .enumerate()
            .filter(|(_, c)| c.count_ones() > 1);
        match open.next() {
            Some((first, _)) => (1 + open.count(), first),
            None => (0, 0),
        }
    }

    fn line_differs(&self, a: &Vec<Cell>, b: &Vec<Cell>, line: usize) -> bool {
        self.cells_of(a, line).ne(self.cells_of(b, line))
    }

    fn values(&self, state: &Vec<Cell>, r: usize, c: usize, into: &mut Vec<u32>) {
        let cell = state[r * self.puzzle.width() + c];
        into.clear();
        into.extend((0..32).filter(|v| cell >> v & 1 != 0));
    }

    fn set(&self, state: &mut Vec<Cell>, r: usize, c: usize, colour: u32) {
        state[r * self.puzzle.width() + c] = 1 << colour;
    }

    fn rule_out(&self, state: &mut Vec<Cell>, r: usize, c: usize, colour: u32) {
        state[r * self.puzzle.width() + c] &= !(1 << colour);
    }

    /// Every cell keeps the colours some try left it.
    fn join(&self, state: &mut Vec<Cell>, tries: &[Vec<Cell>], mut changed: impl FnMut(usize, usize)) {
        let w = self.puzzle.width();
        for (j, cell) in state.iter_mut().enumerate() {
            let some = tries.iter().fold(0, |u, t| u | t[j]);
            if *cell & some != *cell {
                *cell &= some;
                changed(j / w, j % w);
            }
        }
    }

    fn solution(&self, state: &Vec<Cell>) -> Vec<u8> {
        let solution: Vec<u8> = state.iter().map(|c| c.trailing_zeros() as u8).collect();
        debug_assert!(self.puzzle.check_solution(&solution).is_ok());
        solution
    }

    fn sat_able(&self) -> bool {
        self.puzzle.rule == Rule::Blocks
    }

    /// The root tries' implications are not used here (`Grid::implied`
    /// keeps none): the colour formula has not been measured with them.
    fn by_sat(
        &self,
        root: &Vec<Cell>,
        _implied: &[Implied<u32>],
        limit: usize,
        budget: &Budget,
    ) -> (Vec<Vec<u8>>, bool) {
        let found = solve_by_sat(self.puzzle, root, limit, budget);
        (found.solutions, found.stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Colour, Hint, Rule};
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// The puzzle whose clues `grid` has.
    fn puzzle_of(rule: Rule, colours: usize, h: usize, w: usize, grid: &[u8]) -> ColourPuzzle {
        let digit = |c: usize| Colour {
            name: c.to_string(),
            ch: char::from(b'0' + c as u8),
            rgb: None,
        };
        let mut p = ColourPuzzle::from_picture("test", rule, (0..colours).map(digit).collect(), h, w, grid);
        p.goal = None;
        p
    }

    /// Every grid with these clues, by enumeration (tiny boards only).
    fn brute_count(p: &ColourPuzzle) -> usize {
        let n = p.width() * p.height();
        let k = p.colours.len() as u64;
        (0..k.pow(n as u32))
            .filter(|&i| {
                let grid: Vec<u8> = (0..n).map(|j| (i / k.pow(j as u32) % k) as u8).collect();
                p.check_solution(&grid).is_ok()
            })
            .count()
    }

    #[test]
    fn counts_agree_with_brute_force_on_small_boards() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for rule in [Rule::Blocks, Rule::Counts] {
            let mut several = 0;
            for _ in 0..150 {
                let (h, w, k) = (
                    1 + xorshift(&mut seed) % 3,
                    1 + xorshift(&mut seed) % 3,
                    2 + xorshift(&mut seed) % 2,
                );
                let (h, w, k) = (h as usize, w as usize, k as usize);
                let grid: Vec<u8> = (0..h * w)
                    .map(|_| (xorshift(&mut seed) % k as u64) as u8)
                    .collect();
                let p = puzzle_of(rule, k, h, w, &grid);
                let want = brute_count(&p).min(2);
                let found = solve(&p, 2, &Budget::default());
                assert_eq!(found.count, want, "{rule:?} {h}x{w} {grid:?}");
                for s in found.first.iter().chain(&found.second) {
                    assert!(p.check_solution(s).is_ok());
                }
                assert_ne!(found.first, found.second);
                several += (want == 2) as usize;
            }
            assert!(several > 0, "{rule:?}: some boards have several solutions");
        }
    }

    /// A random block-clue board, `least` to `least + sides - 1` a side, 2
    /// to 4 colours, with its picture as the goal; and its colour count.
    fn random_board(seed: &mut u64, least: u64, sides: u64) -> (ColourPuzzle, usize) {
        let h = (least + xorshift(seed) % sides) as usize;
        let w = (least + xorshift(seed) % sides) as usize;
        let k = (2 + xorshift(seed) % 3) as usize;
        let grid: Vec<u8> = (0..h * w).map(|_| (xorshift(seed) % k as u64) as u8).collect();
        let mut p = puzzle_of(Rule::Blocks, k, h, w, &grid);
        p.goal = Some((grid, 0));
        (p, k)
    }

    /// The SAT formula of colour clues against brute force: the same
    /// counts (up to two), solutions that meet the clues.
    #[test]
    fn the_sat_formula_agrees_with_brute_force() {
        let mut seed = 0x9e37_79b9_u64;
        let mut several = 0;
        for _ in 0..200 {
            let (p, k) = random_board(&mut seed, 1, 3);
            let (h, w) = (p.height(), p.width());
            let grid = &p.goal.as_ref().unwrap().0;
            let found = solve_by_sat(&p, &vec![u32::MAX; h * w], 2, &Budget::default());
            let want = brute_count(&p).min(2);
            assert_eq!(found.solutions.len(), want, "{h}x{w}, {k} colours, {grid:?}");
            for s in &found.solutions {
                assert!(p.check_solution(s).is_ok());
            }
            several += (want == 2) as usize;
        }
        assert!(several > 0);
    }

    /// The hand-over at once, after the root, or never: the same counts.
    #[test]
    fn the_sat_hand_over_agrees_with_search() {
        let mut seed = 0x51_u64;
        let mut handed_over = 0;
        for i in 0..120 {
            let (p, k) = random_board(&mut seed, 3, 6);
            let (h, w, grid) = (p.height(), p.width(), &p.goal.as_ref().unwrap().0);
            for limit in [1, 2] {
                let search = solve_with(&p, limit, &Budget::default(), u64::MAX);
                let sat = solve_with(&p, limit, &Budget::default(), i % 2);
                assert_eq!(search.count, sat.count, "{h}x{w}, {k} colours, {grid:?}");
                assert!(!search.by_sat && !sat.gave_up);
                handed_over += sat.by_sat as usize;
                for s in sat.first.iter().chain(&sat.second) {
                    assert!(p.check_solution(s).is_ok());
                }
            }
        }
        assert!(handed_over > 20, "{handed_over} searches went to the SAT solver");
    }

    #[test]
    fn random_colour_boards_are_solved() {
        let mut seed = 77u64;
        for _ in 0..20 {
            let (h, w, k) = (15, 20, 4);
            let grid: Vec<u8> = (0..h * w).map(|_| (xorshift(&mut seed) % k) as u8).collect();
            let p = puzzle_of(Rule::Blocks, k as usize, h, w, &grid);
            let found = solve(&p, 2, &Budget::default());
            assert!(found.count >= 1);
            assert!(p.check_solution(found.first.as_ref().unwrap()).is_ok());
        }
    }

    /// Black-and-white pictures as two-colour puzzles: the shared search
    /// counts alike on both kinds of cell (colour sets and bit words), with
    /// and without probing, and as brute force does.
    #[test]
    fn both_kinds_of_cell_count_alike() {
        let mut seed = 0xc0ffee_u64;
        let mut bits = crate::solver::Solver::new();
        bits.set_probe_above(0);
        for _ in 0..150 {
            let (h, w) = (1 + xorshift(&mut seed) % 4, 1 + xorshift(&mut seed) % 4);
            let (h, w) = (h as usize, w as usize);
            let grid: Vec<u8> = (0..h * w).map(|_| (xorshift(&mut seed) % 2) as u8).collect();
            let p = puzzle_of(Rule::Blocks, 2, h, w, &grid);
            let want = brute_count(&p).min(3);
            let clue = |l: &Vec<Hint>| l.iter().map(|b| b.len).collect::<Vec<usize>>();
            let (rows, columns): (Vec<_>, Vec<_>) = (
                p.rows.iter().map(clue).collect(),
                p.columns.iter().map(clue).collect(),
            );
            assert_eq!(
                bits.count_solutions(&rows, &columns, 3).count,
                want,
                "{h}x{w} {grid:?}"
            );
            assert_eq!(
                solve_with(&p, 3, &Budget::default(), u64::MAX).count,
                want,
                "{h}x{w} {grid:?}"
            );
        }
    }

    /// Line logic alone, here and in the colour engine's model
    /// (`nonogram_hdl::colour::model`, another visit order and another line
    /// solver): the same verdict and the same cells, on random boards and on
    /// boards with one clue broken.
    #[test]
    fn line_logic_agrees_with_the_colour_engines_model() {
        use crate::colour::engine_clues;
        use nonogram_hdl::colour::model::line_logic;
        use nonogram_hdl::link::protocol::status::outcome;
        let mut seed = 0xc010_0a11_b0a4_0001u64;
        let mut seen = [0; 3];
        for i in 0..400 {
            let (mut p, k) = random_board(&mut seed, 1, 20);
            if i % 4 == 3 {
                let row = (xorshift(&mut seed) % p.rows.len() as u64) as usize;
                p.rows[row].push(Hint {
                    len: 1,
                    colour: 1,
                    circled: false,
                });
            }
            let model = line_logic(&engine_clues(&p.rows), &engine_clues(&p.columns), k);
            let found = solve(&p, 1, &Budget::default());
            let want = match found.line_logic.unwrap() {
                LineOutcome::Solved => outcome::SOLVED,
                LineOutcome::Contradiction => outcome::CONTRADICTION,
                LineOutcome::Stalled => outcome::STALLED,
            };
            assert_eq!(model.outcome, want, "{:?}", p.goal);
            seen[[outcome::SOLVED, outcome::CONTRADICTION, outcome::STALLED]
                .iter()
                .position(|&o| o == want)
                .unwrap()] += 1;
            if want != outcome::CONTRADICTION {
                let cells: Vec<Cell> = model.cells.iter().map(|&c| c as Cell).collect();
                assert_eq!(cells, found.line_cells, "{:?}", p.goal);
            }
        }
        assert!(
            seen.iter().all(|&n| n > 20),
            "solved, contradiction, stalled: {seen:?}"
        );
    }

    #[test]
    fn a_clue_that_cannot_be_met_has_no_solution() {
        let mut p = puzzle_of(Rule::Blocks, 3, 2, 2, &[1, 2, 0, 1]);
        p.rows[1] = vec![Hint {
            len: 2,
            colour: 2,
            circled: false,
        }];
        let found = solve(&p, 2, &Budget::default());
        assert_eq!(found.count, 0);
        assert!(!found.gave_up);
    }
}
