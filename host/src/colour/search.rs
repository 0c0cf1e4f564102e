//! The colour solver: line logic to a fixpoint, probing, then search.
//!
//! A grid is one [`Cell`] (a bit set of possible colours) per cell.
//! * **Line logic** visits dirty lines until none changes ([`LineSolver`]).
//! * **Probing**, at every search node: each undecided cell is tried with
//!   each of its colours, with line logic. A colour that leads to a
//!   contradiction is removed. Every cell keeps only the colours some
//!   surviving try left it (for black and white this is "cells both tries
//!   fix alike are fixed"). Repeated until nothing changes.
//! * **Search** branches on the cell whose tries fixed the most (the product
//!   of each try's count plus one, as the black-and-white solver scores),
//!   trying first the colour that fixed most, and counts solutions up to a
//!   limit, keeping the first two.
//! * **Hard puzzles** (block clues, one or two solutions asked for) go to
//!   the SAT solver after [`SAT_AFTER_NODES`] nodes, from line logic's
//!   cells, as black-and-white ones do ([`crate::solver::sat`]).

use super::line::{Cell, LineSolver};
use super::ColourPuzzle;
use crate::solver::sat::{self, Block, Problem};
use crate::solver::{Budget, LineOutcome};
use rustc_hash::FxHashMap;
use std::time::Instant;

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
/// and 512 took 50.8 s.
const SAT_AFTER_NODES: u64 = 16;

/// Line answers kept before the cache starts afresh.
const CACHE_ENTRIES: usize = 1 << 18;

struct Search<'a> {
    puzzle: &'a ColourPuzzle,
    /// Each line's cells, as indices into the grid (rows, then columns).
    lines: Vec<Vec<usize>>,
    line_solver: LineSolver,
    #[allow(clippy::type_complexity)]
    cache: FxHashMap<(u32, u64), (Box<[Cell]>, Option<Box<[Cell]>>)>,
    queued: Vec<bool>,
    limit: usize,
    found: Found,
    budget: Budget,
    stopped: bool,
    /// Nodes before the puzzle goes to the SAT solver; reached, the search
    /// unwinds as if stopped.
    node_cap: u64,
    handed_over: bool,
    /// Stamps for [`Marks`]: one more at every change and every probe.
    clock: u64,
}

/// When each line last changed and each cell was last probed (clock
/// stamps), and each cell's last probe score. A cell whose row and column
/// have not changed since its probe is not probed again. Each search node
/// has its own copy.
#[derive(Clone)]
struct Marks {
    line_changed: Vec<u64>,
    probed: Vec<u64>,
    score: Vec<u64>,
}

/// Solves `puzzle`, counting solutions up to `limit` (1: any one solution).
pub fn solve(puzzle: &ColourPuzzle, limit: usize, budget: &Budget) -> Found {
    solve_with(puzzle, limit, budget, SAT_AFTER_NODES)
}

/// [`solve`], handing a search for one or two solutions to the SAT solver
/// after `sat_after` nodes (`u64::MAX`: never).
pub fn solve_with(puzzle: &ColourPuzzle, limit: usize, budget: &Budget, sat_after: u64) -> Found {
    let lines = (0..puzzle.width() + puzzle.height())
        .map(|i| puzzle.cells_of(i))
        .collect();
    let mut search = Search {
        puzzle,
        lines,
        line_solver: LineSolver::default(),
        cache: FxHashMap::default(),
        queued: Vec::new(),
        limit: limit.max(1),
        found: Found::default(),
        budget: budget.clone(),
        stopped: false,
        node_cap: if limit <= 2 && puzzle.rule == super::Rule::Blocks {
            sat_after
        } else {
            u64::MAX
        },
        handed_over: false,
        clock: 1,
    };
    let all: Cell = if puzzle.colours.len() >= 32 {
        u32::MAX
    } else {
        (1 << puzzle.colours.len()) - 1
    };
    let mut grid = vec![all; puzzle.width() * puzzle.height()];
    let every_line: Vec<usize> = (0..search.lines.len()).collect();
    let logic = search.propagate(&mut grid, &every_line);
    search.found.line_logic = Some(match logic {
        Err(_) => LineOutcome::Contradiction,
        Ok(()) if grid.iter().all(|c| c.count_ones() == 1) => LineOutcome::Solved,
        Ok(()) => LineOutcome::Stalled,
    });
    search.found.line_cells = grid.clone();
    if logic.is_ok() {
        let cells = grid.len();
        let marks = Marks {
            line_changed: vec![1; search.lines.len()],
            probed: vec![0; cells],
            score: vec![0; cells],
        };
        search.node(grid, &[], marks);
    }
    if search.handed_over {
        let sat = solve_by_sat(puzzle, &search.found.line_cells, search.limit, budget);
        let mut solutions = sat.solutions.into_iter();
        search.found.first = solutions.next();
        search.found.second = solutions.next();
        search.found.count = search.found.first.iter().chain(&search.found.second).count();
        search.found.by_sat = true;
        search.stopped = sat.stopped;
    }
    search.found.gave_up = search.stopped;
    search.found
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
    };
    sat::solve_colours(&problem, limit, budget)
}

impl Search<'_> {
    /// Whether to stop: the limit is reached or the budget ran out.
    fn done(&mut self) -> bool {
        if self.found.nodes > self.node_cap {
            self.handed_over = true;
        }
        if self.stopped || self.handed_over || self.found.count >= self.limit {
            return true;
        }
        if self.found.nodes.is_multiple_of(16) {
            let late = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
            let asked = self
                .budget
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
            if let Some(progress) = &self.budget.progress {
                progress(self.found.nodes);
            }
            self.stopped = late || asked;
        }
        self.stopped
    }

    /// One search node: `grid` with `dirty` lines to visit; `marks` say
    /// which cells' probes are still current.
    fn node(&mut self, mut grid: Vec<Cell>, dirty: &[usize], mut marks: Marks) {
        if self.done() {
            return;
        }
        self.found.nodes += 1;
        let before = grid.clone();
        if self.propagate(&mut grid, dirty).is_err() {
            return;
        }
        self.stamp_changes(&before, &grid, &mut marks);
        loop {
            let Ok(branch) = self.probe(&mut grid, &mut marks) else {
                return;
            };
            let Some((cell, order)) = branch else {
                let solution: Vec<u8> = grid.iter().map(|c| c.trailing_zeros() as u8).collect();
                debug_assert!(self.puzzle.check_solution(&solution).is_ok());
                self.found.count += 1;
                if self.found.first.is_none() {
                    self.found.first = Some(solution);
                } else if self.found.second.is_none() {
                    self.found.second = Some(solution);
                }
                return;
            };
            let crossing = self.crossing(cell);
            let colour = order[0];
            let mut g = grid.clone();
            g[cell] = 1 << colour;
            self.node(g, &crossing, marks.clone());
            if self.done() {
                return;
            }
            // Every solution with that colour has been seen: rule it out
            // here, and let line logic and probing use the fact before
            // choosing the next branch.
            let before = grid.clone();
            grid[cell] &= !(1 << colour);
            if self.propagate(&mut grid, &crossing).is_err() {
                return;
            }
            self.stamp_changes(&before, &grid, &mut marks);
        }
    }

    /// Stamps the lines of every cell that differs between `before` and `after`.
    fn stamp_changes(&mut self, before: &[Cell], after: &[Cell], marks: &mut Marks) {
        for (j, (a, b)) in before.iter().zip(after).enumerate() {
            if a != b {
                self.clock += 1;
                for l in self.crossing(j) {
                    marks.line_changed[l] = self.clock;
                }
            }
        }
    }

    /// The row and the column through `cell`.
    fn crossing(&self, cell: usize) -> [usize; 2] {
        let w = self.puzzle.width();
        [cell / w, self.puzzle.height() + cell % w]
    }

    /// Line logic until no line changes; `Err` names a line with no fill.
    fn propagate(&mut self, grid: &mut [Cell], dirty: &[usize]) -> Result<(), usize> {
        let mut queued = std::mem::take(&mut self.queued);
        queued.clear();
        queued.resize(self.lines.len(), false);
        let mut queue: Vec<usize> = Vec::with_capacity(self.lines.len());
        for &l in dirty {
            if !queued[l] {
                queued[l] = true;
                queue.push(l);
            }
        }
        let mut masks = Vec::new();
        let mut answer = Vec::new();
        let mut result = Ok(());
        while let Some(l) = queue.pop() {
            queued[l] = false;
            masks.clear();
            masks.extend(self.lines[l].iter().map(|&j| grid[j]));
            if !self.solve_line(l, &masks, &mut answer) {
                result = Err(l);
                break;
            }
            for (k, (&j, &new)) in self.lines[l].iter().zip(answer.iter()).enumerate() {
                if new != masks[k] {
                    grid[j] = new;
                    for other in self.crossing(j) {
                        if other != l && !queued[other] {
                            queued[other] = true;
                            queue.push(other);
                        }
                    }
                }
            }
        }
        self.queued = queued;
        result
    }

    /// Line logic on line `l` with cells `masks`: the answer in `answer`,
    /// or false when the line has no fill. Answers are cached by line and
    /// cells (keyed by a hash; the cells are compared on a hit).
    fn solve_line(&mut self, l: usize, masks: &[Cell], answer: &mut Vec<Cell>) -> bool {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        masks.hash(&mut hasher);
        let key = (l as u32, hasher.finish());
        if let Some((cells, known)) = self.cache.get(&key) {
            if **cells == *masks {
                answer.clear();
                if let Some(a) = known {
                    answer.extend_from_slice(a);
                }
                return known.is_some();
            }
        }
        let (clue, _) = self.puzzle.line(l);
        let solved = self.line_solver.solve(self.puzzle.rule, clue, masks);
        if self.cache.len() >= CACHE_ENTRIES {
            self.cache.clear();
        }
        answer.clear();
        if let Some(a) = &solved {
            answer.extend_from_slice(a);
        }
        let ok = solved.is_some();
        self.cache
            .insert(key, (masks.into(), solved.map(Vec::into_boxed_slice)));
        ok
    }

    /// Probes every undecided cell whose row or column changed since its
    /// last probe, until nothing changes (see the module notes).
    /// `Ok(None)`: every cell is decided. `Ok(Some((cell, colours)))`: the
    /// branch, colours best first. `Err`: no solution here.
    #[allow(clippy::type_complexity)]
    fn probe(&mut self, grid: &mut Vec<Cell>, marks: &mut Marks) -> Result<Option<(usize, Vec<u32>)>, ()> {
        loop {
            let mut changed = false;
            // The stale cells, those whose lines changed last first: a
            // contradiction, if any, is most likely near the last change.
            let mut stale: Vec<(u64, usize)> = (0..grid.len())
                .filter_map(|cell| {
                    let [row, column] = self.crossing(cell);
                    let change = marks.line_changed[row].max(marks.line_changed[column]);
                    (grid[cell].count_ones() > 1 && marks.probed[cell] < change).then_some((change, cell))
                })
                .collect();
            stale.sort_unstable_by_key(|&(change, cell)| (std::cmp::Reverse(change), cell));
            for (_, cell) in stale {
                let [row, column] = self.crossing(cell);
                let fresh = marks.probed[cell] >= marks.line_changed[row].max(marks.line_changed[column]);
                if grid[cell].count_ones() < 2 || fresh {
                    continue;
                }
                if self.done() {
                    return Err(());
                }
                self.clock += 1;
                marks.probed[cell] = self.clock;
                let before = grid.clone();
                let (tries, union) = self.try_colours(grid, cell)?;
                // Keep only what some surviving try allowed.
                let mut dirty = Vec::new();
                for (j, u) in union.iter().enumerate() {
                    if grid[j] & u != grid[j] {
                        grid[j] &= u;
                        dirty.extend(self.crossing(j));
                    }
                }
                if grid.contains(&0) || self.propagate(grid, &dirty).is_err() {
                    return Err(());
                }
                if *grid != before {
                    changed = true;
                    self.stamp_changes(&before, grid, marks);
                }
                marks.score[cell] = tries.iter().map(|(f, _)| *f as u64 + 1).product();
            }
            if !changed {
                break;
            }
        }
        // The branch: the undecided cell whose last probe scored best.
        let Some(cell) = (0..grid.len())
            .filter(|&j| grid[j].count_ones() > 1)
            .max_by_key(|&j| (marks.score[j], std::cmp::Reverse(j)))
        else {
            return Ok(None);
        };
        let (mut tries, _) = self.try_colours(grid, cell)?;
        tries.sort_by_key(|t| std::cmp::Reverse(t.0));
        Ok(Some((cell, tries.iter().map(|(_, c)| *c).collect())))
    }

    /// Tries each colour `cell` may have, with line logic, on a copy of
    /// `grid`. A colour that fails is removed from `grid` (and line logic
    /// run). Returns each surviving colour with the cells its try fixed,
    /// and the union of the surviving tries' grids.
    #[allow(clippy::type_complexity)]
    fn try_colours(&mut self, grid: &mut [Cell], cell: usize) -> Result<(Vec<(usize, u32)>, Vec<Cell>), ()> {
        let crossing = self.crossing(cell);
        let mut union = vec![0 as Cell; grid.len()];
        let mut tries = Vec::new();
        let colours: Vec<u32> = (0..32).filter(|c| grid[cell] >> c & 1 != 0).collect();
        for colour in colours {
            let mut g = grid.to_vec();
            g[cell] = 1 << colour;
            if self.propagate(&mut g, &crossing).is_err() {
                grid[cell] &= !(1 << colour);
                if grid[cell] == 0 || self.propagate(grid, &crossing).is_err() {
                    return Err(());
                }
                continue;
            }
            let fixed = g
                .iter()
                .zip(grid.iter())
                .filter(|(a, b)| a.count_ones() == 1 && b.count_ones() > 1)
                .count();
            tries.push((fixed, colour));
            union.iter_mut().zip(&g).for_each(|(u, x)| *u |= x);
        }
        // Tries made before a later colour failed saw a larger grid: still
        // a superset of every solution, so the union stays sound.
        for (u, g) in union.iter_mut().zip(grid.iter()) {
            *u &= g;
        }
        Ok((tries, union))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{clue_of_line, Colour, Hint, Rule};
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// The puzzle whose clues `grid` has.
    fn puzzle_of(rule: Rule, colours: usize, h: usize, w: usize, grid: &[u8]) -> ColourPuzzle {
        let row = |r: usize| (0..w).map(|c| grid[r * w + c]).collect::<Vec<u8>>();
        let column = |c: usize| (0..h).map(|r| grid[r * w + c]).collect::<Vec<u8>>();
        ColourPuzzle {
            name: "test".into(),
            title: None,
            rule,
            colours: (0..colours)
                .map(|c| Colour {
                    name: c.to_string(),
                    ch: char::from(b'0' + c as u8),
                    rgb: None,
                })
                .collect(),
            rows: (0..h).map(|r| clue_of_line(rule, colours, &row(r))).collect(),
            columns: (0..w).map(|c| clue_of_line(rule, colours, &column(c))).collect(),
            lines: vec![0; h + w],
            goal: None,
        }
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
