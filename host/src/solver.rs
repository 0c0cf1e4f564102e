//! The software solver: line logic plus search.
//!
//! Line logic is the same as the board's (and `nonogram_hdl::model`'s): a
//! line fixes every cell on which all its options that agree with the known
//! cells agree. Each line is solved either by filtering its precomputed
//! options (short lines, few options) or by a left/right dynamic program over
//! (block, position) that needs no options at all; both work on bit masks and
//! allocate nothing in the inner loop. Search branches on an unknown cell of
//! the line with the fewest unknown cells, and counts solutions up to a limit;
//! in puzzles over 64 cells it first probes every unknown cell both ways
//! (a value line logic refutes fixes the other; cells both tries agree on
//! are fixed), which takes random 30×30 grids from minutes to a fraction of
//! a second.
//!
//! [`Solver`] keeps compiled clues and buffers between calls, so that a census
//! (every 5×5 grid) costs well under a microsecond per puzzle on most grids.

use std::collections::HashMap;

/// Lines up to this many cells (rows and columns alike).
pub const MAX_CELLS: usize = 64;

/// By default, search probes every unknown cell at every node of puzzles
/// with more cells than this (see [`Solver::set_probe_above`]).
pub const PROBE_ABOVE: usize = 64;

/// A line is solved by filtering its options when it has at most this many.
const OPTION_LIMIT: u64 = 512;

/// Line logic's verdict on a whole puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Every cell fixed.
    Solved,
    /// A line has no option left: no solution.
    Contradiction,
    /// Line logic fixed all it can; some cells are unknown.
    Stalled,
}

/// Line logic's result: the outcome and the cells (row-major, `None` = unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    pub outcome: LineOutcome,
    pub cells: Vec<Option<bool>>,
    /// For a contradiction: the line (rows first, then columns) that emptied.
    pub contradiction_line: Option<usize>,
}

/// Solutions found, up to the limit asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// min(number of solutions, limit).
    pub count: usize,
    /// The first solution found (row-major), if any.
    pub first: Option<Vec<bool>>,
    /// Search nodes (line-logic fixpoints) visited.
    pub nodes: u64,
}

/// A compiled clue: its blocks, the line length, and its options when few.
#[derive(Clone, Debug)]
struct LineKind {
    blocks: Vec<u8>,
    length: usize,
    options: Option<Vec<u64>>,
}

impl LineKind {
    fn new(clue: &[usize], length: usize) -> LineKind {
        let blocks: Vec<u8> = clue
            .iter()
            .filter(|&&b| b > 0)
            .map(|&b| b.min(255) as u8)
            .collect();
        let clean: Vec<usize> = blocks.iter().map(|&b| b as usize).collect();
        let n = nonogram_hdl::options::count(&clean, length);
        let options =
            (n <= OPTION_LIMIT).then(|| nonogram_hdl::options::LineOptions::new(&clean, length).collect());
        LineKind {
            blocks,
            length,
            options,
        }
    }

    /// Cells that must be filled and must be empty, given the known cells;
    /// `None` if no option agrees with them.
    #[inline]
    fn solve(&self, known: u64, value: u64) -> Option<(u64, u64)> {
        let full = mask(self.length);
        match &self.options {
            Some(options) => {
                let (mut and, mut or, mut any) = (u64::MAX, 0u64, false);
                for &o in options {
                    if (o ^ value) & known == 0 {
                        and &= o;
                        or |= o;
                        any = true;
                    }
                }
                any.then_some((and & full, !or & full))
            }
            None => {
                let (can_fill, can_empty) = dp_line(&self.blocks, self.length, known, value)?;
                Some((!can_empty & full, !can_fill & full))
            }
        }
    }
}

#[inline]
fn mask(length: usize) -> u64 {
    if length >= 64 {
        u64::MAX
    } else {
        (1u64 << length) - 1
    }
}

/// Line logic by dynamic programming: which cells can be filled and which
/// can be empty in some placement of `blocks` in `n` cells that agrees with
/// the known cells. `None` if there is no such placement. O(k·n), no
/// allocation.
pub fn dp_line(blocks: &[u8], n: usize, known: u64, value: u64) -> Option<(u64, u64)> {
    debug_assert!(n <= 64);
    let k = blocks.len();
    if k > 33 {
        return None; // cannot fit 64 cells anyway
    }
    let filled = (known & value) as u128;
    let empty = (known & !value & mask(n)) as u128;
    let not_filled = |p: usize| filled >> p & 1 == 0;
    let fillable = |s: usize, b: usize| (((1u128 << b) - 1) << s) & empty == 0;
    // f[j] bit p: cells [0, p) can hold blocks 0..j, each followed by its gap.
    let mut f = [0u128; 34];
    // g[j] bit p: cells [p, n) can hold blocks j..k.
    let mut g = [0u128; 34];
    f[0] = 1;
    for j in 0..=k {
        for p in 0..n {
            if f[j] >> p & 1 == 1 && not_filled(p) {
                f[j] |= 1 << (p + 1);
            }
        }
        if j < k {
            let b = blocks[j] as usize;
            if b > n {
                return None;
            }
            for p in 0..=n - b {
                if f[j] >> p & 1 == 1 && fillable(p, b) {
                    if p + b == n {
                        f[j + 1] |= 1 << n;
                    } else if not_filled(p + b) {
                        f[j + 1] |= 1 << (p + b + 1);
                    }
                }
            }
        }
    }
    if f[k] >> n & 1 == 0 {
        return None;
    }
    g[k] = 1 << n;
    for p in (0..n).rev() {
        if not_filled(p) && g[k] >> (p + 1) & 1 == 1 {
            g[k] |= 1 << p;
        }
    }
    for j in (0..k).rev() {
        let b = blocks[j] as usize;
        for p in (0..=n).rev() {
            let mut ok = p < n && not_filled(p) && g[j] >> (p + 1) & 1 == 1;
            if !ok && p + b <= n && fillable(p, b) {
                ok = if p + b == n {
                    g[j + 1] >> n & 1 == 1
                } else {
                    not_filled(p + b) && g[j + 1] >> (p + b + 1) & 1 == 1
                };
            }
            if ok {
                g[j] |= 1 << p;
            }
        }
    }
    let mut can_empty = 0u128;
    let mut can_fill = 0u128;
    for j in 0..=k {
        // Cell p empty between blocks j-1 and j.
        can_empty |= f[j] & (g[j] >> 1);
        if j < k {
            let b = blocks[j] as usize;
            for s in 0..=n - b {
                if f[j] >> s & 1 == 1 && fillable(s, b) {
                    let ok = if s + b == n {
                        g[j + 1] >> n & 1 == 1
                    } else {
                        not_filled(s + b) && g[j + 1] >> (s + b + 1) & 1 == 1
                    };
                    if ok {
                        can_fill |= ((1u128 << b) - 1) << s;
                        if s + b < n {
                            can_empty |= 1 << (s + b);
                        }
                    }
                }
            }
        }
    }
    let m = mask(n) as u128;
    Some(((can_fill & m) as u64, (can_empty & !filled & m) as u64))
}

/// A reusable solver: compiled clues are cached by (clue, length), and the
/// search's buffers are kept between calls.
pub struct Solver {
    /// Probe in puzzles with more cells than this.
    probe_above: usize,
    kinds: Vec<LineKind>,
    index: HashMap<Vec<u8>, usize>,
    key: Vec<u8>,
    /// Kind of each line of the current puzzle (rows, then columns).
    lines: Vec<usize>,
    height: usize,
    width: usize,
    /// Search states, one per depth: known rows, value rows, known columns, value columns.
    stack: Vec<Vec<u64>>,
    nodes: u64,
}

/// Outcome of propagating line logic on one state.
enum Fix {
    Done,
    Contradiction(usize),
}

impl Default for Solver {
    fn default() -> Self {
        Solver {
            probe_above: PROBE_ABOVE,
            kinds: Vec::new(),
            index: HashMap::new(),
            key: Vec::new(),
            lines: Vec::new(),
            height: 0,
            width: 0,
            stack: Vec::new(),
            nodes: 0,
        }
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Search probes (tries each unknown cell both ways with line logic) in
    /// puzzles with more than `cells` cells; `usize::MAX` never probes, 0 always.
    pub fn set_probe_above(&mut self, cells: usize) {
        self.probe_above = cells;
    }

    fn kind(&mut self, clue: &[usize], length: usize) -> usize {
        self.key.clear();
        self.key.push(length as u8);
        self.key
            .extend(clue.iter().filter(|&&b| b > 0).map(|&b| b.min(255) as u8));
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            return i;
        }
        self.kinds.push(LineKind::new(clue, length));
        self.index.insert(self.key.clone(), self.kinds.len() - 1);
        self.kinds.len() - 1
    }

    fn load(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) {
        assert!(
            rows.len() <= MAX_CELLS && columns.len() <= MAX_CELLS,
            "the solver takes at most {MAX_CELLS} rows and columns"
        );
        if self.kinds.len() > 100_000 {
            self.kinds.clear();
            self.index.clear();
        }
        self.height = rows.len();
        self.width = columns.len();
        self.lines.clear();
        for clue in rows {
            let k = self.kind(clue, columns.len());
            self.lines.push(k);
        }
        for clue in columns {
            let k = self.kind(clue, rows.len());
            self.lines.push(k);
        }
        self.nodes = 0;
    }

    fn state_len(&self) -> usize {
        2 * (self.height + self.width)
    }

    /// Makes sure state `depth` exists and returns it zeroed, or copied from `depth - 1`.
    fn prepare(&mut self, depth: usize, copy: bool) {
        let len = self.state_len();
        while self.stack.len() <= depth {
            self.stack.push(Vec::new());
        }
        if copy {
            let (lo, hi) = self.stack.split_at_mut(depth);
            hi[0].clear();
            hi[0].extend_from_slice(&lo[depth - 1]);
        } else {
            let s = &mut self.stack[depth];
            s.clear();
            s.resize(len, 0);
        }
    }

    /// Sets cell (r, c) in state `depth`.
    fn set(&mut self, depth: usize, r: usize, c: usize, filled: bool) {
        let (h, w) = (self.height, self.width);
        let s = &mut self.stack[depth];
        s[r] |= 1 << c;
        if filled {
            s[h + r] |= 1 << c;
        }
        s[2 * h + c] |= 1 << r;
        if filled {
            s[2 * h + w + c] |= 1 << r;
        }
    }

    /// Line logic to a fixpoint on state `depth`; `dirty` marks the lines to visit.
    fn propagate(&mut self, depth: usize, mut dirty: u128) -> Fix {
        let (h, w) = (self.height, self.width);
        let s = &mut self.stack[depth];
        while dirty != 0 {
            let line = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let kind = &self.kinds[self.lines[line]];
            let (ko, vo, cross_k, cross_v, idx) = if line < h {
                (line, h + line, 2 * h, 2 * h + w, line)
            } else {
                let c = line - h;
                (2 * h + c, 2 * h + w + c, 0, h, c)
            };
            let (known, value) = (s[ko], s[vo]);
            let Some((must_fill, must_empty)) = kind.solve(known, value) else {
                return Fix::Contradiction(line);
            };
            let new = (must_fill | must_empty) & !known;
            if new == 0 {
                continue;
            }
            s[ko] |= new;
            s[vo] |= must_fill & new;
            let mut bits = new;
            let cross_base = if line < h { h } else { 0 };
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                s[cross_k + i] |= 1 << idx;
                if must_fill >> i & 1 == 1 {
                    s[cross_v + i] |= 1 << idx;
                }
                dirty |= 1u128 << (cross_base + i);
            }
        }
        Fix::Done
    }

    fn all_lines(&self) -> u128 {
        let n = self.height + self.width;
        if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }

    fn cells(&self, depth: usize) -> Vec<Option<bool>> {
        let (h, w) = (self.height, self.width);
        let s = &self.stack[depth];
        (0..h * w)
            .map(|i| {
                let (r, c) = (i / w, i % w);
                (s[r] >> c & 1 == 1).then_some(s[h + r] >> c & 1 == 1)
            })
            .collect()
    }

    fn load_partial(&mut self, partial: Option<&[Option<bool>]>) {
        self.prepare(0, false);
        if let Some(cells) = partial {
            let w = self.width;
            for (i, c) in cells.iter().enumerate().take(self.height * w) {
                if let Some(v) = c {
                    self.set(0, i / w, i % w, *v);
                }
            }
        }
    }

    /// Line logic alone (what the board does), from scratch.
    pub fn line_solve(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) -> LineResult {
        self.load(rows, columns);
        self.load_partial(None);
        let dirty = self.all_lines();
        let fix = self.propagate(0, dirty);
        let cells = self.cells(0);
        match fix {
            Fix::Contradiction(line) => LineResult {
                outcome: LineOutcome::Contradiction,
                cells,
                contradiction_line: Some(line),
            },
            Fix::Done => LineResult {
                outcome: if cells.iter().all(Option::is_some) {
                    LineOutcome::Solved
                } else {
                    LineOutcome::Stalled
                },
                cells,
                contradiction_line: None,
            },
        }
    }

    /// Counts solutions up to `limit` (0 = no limit is not allowed: at least 1 is used).
    pub fn count_solutions(
        &mut self,
        rows: &[Vec<usize>],
        columns: &[Vec<usize>],
        limit: usize,
    ) -> Solutions {
        self.count_from(rows, columns, None, limit)
    }

    /// Counts solutions up to `limit`, starting from known cells (row-major,
    /// `None` = unknown): for example a board's stalled result. The known
    /// cells are taken as given.
    pub fn count_from(
        &mut self,
        rows: &[Vec<usize>],
        columns: &[Vec<usize>],
        partial: Option<&[Option<bool>]>,
        limit: usize,
    ) -> Solutions {
        let limit = limit.max(1);
        self.load(rows, columns);
        self.load_partial(partial);
        let mut found = Solutions {
            count: 0,
            first: None,
            nodes: 0,
        };
        let dirty = self.all_lines();
        self.search(0, dirty, limit, &mut found);
        found.nodes = self.nodes;
        found
    }

    /// Tries `value` at (r, c) on a copy of state `depth` put in `into`;
    /// whether line logic survives it.
    fn try_value(&mut self, depth: usize, into: usize, r: usize, c: usize, value: bool) -> bool {
        self.prepare_from(depth, into);
        self.set(into, r, c, value);
        let h = self.height;
        matches!(self.propagate(into, (1u128 << r) | (1u128 << (h + c))), Fix::Done)
    }

    /// Copies state `from` into state `into` (> from).
    fn prepare_from(&mut self, from: usize, into: usize) {
        while self.stack.len() <= into {
            self.stack.push(Vec::new());
        }
        let (lo, hi) = self.stack.split_at_mut(into);
        hi[0].clear();
        hi[0].extend_from_slice(&lo[from]);
    }

    /// Probing: every unknown cell is tried both ways with line logic; a
    /// value that fails fixes the other, and cells on which both tries agree
    /// are fixed. Repeats until a sweep fixes nothing. `false` on a
    /// contradiction.
    fn probe(&mut self, depth: usize) -> bool {
        let (h, w) = (self.height, self.width);
        loop {
            let mut changed = false;
            for r in 0..h {
                for c in 0..w {
                    if self.stack[depth][r] >> c & 1 == 1 {
                        continue;
                    }
                    let filled = self.try_value(depth, depth + 1, r, c, true);
                    let empty = self.try_value(depth, depth + 2, r, c, false);
                    let mut dirty = 0u128;
                    match (filled, empty) {
                        (false, false) => return false,
                        (true, true) => {
                            // Cells both tries fixed alike.
                            for row in 0..h {
                                let (k1, v1) = (self.stack[depth + 1][row], self.stack[depth + 1][h + row]);
                                let (k2, v2) = (self.stack[depth + 2][row], self.stack[depth + 2][h + row]);
                                let mut new = k1 & k2 & !(v1 ^ v2) & !self.stack[depth][row];
                                while new != 0 {
                                    let col = new.trailing_zeros() as usize;
                                    new &= new - 1;
                                    self.set(depth, row, col, v1 >> col & 1 == 1);
                                    dirty |= (1u128 << row) | (1u128 << (h + col));
                                }
                            }
                        }
                        (only_filled, _) => {
                            self.set(depth, r, c, only_filled);
                            dirty = (1u128 << r) | (1u128 << (h + c));
                        }
                    }
                    if dirty != 0 {
                        changed = true;
                        if let Fix::Contradiction(_) = self.propagate(depth, dirty) {
                            return false;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn search(&mut self, depth: usize, dirty: u128, limit: usize, found: &mut Solutions) {
        self.nodes += 1;
        if let Fix::Contradiction(_) = self.propagate(depth, dirty) {
            return;
        }
        // Probing pays off on all but small puzzles (a 5x5 census runs faster without).
        if self.height * self.width > self.probe_above && !self.probe(depth) {
            return;
        }
        let (h, w) = (self.height, self.width);
        // The line with the fewest unknown cells (> 0).
        let mut best: Option<(u32, usize)> = None;
        {
            let s = &self.stack[depth];
            for r in 0..h {
                let unknown = (!s[r] & mask(w)).count_ones();
                if unknown > 0 && best.is_none_or(|(u, _)| unknown < u) {
                    best = Some((unknown, r));
                }
            }
            for c in 0..w {
                let unknown = (!s[2 * h + c] & mask(h)).count_ones();
                if unknown > 0 && best.is_none_or(|(u, _)| unknown < u) {
                    best = Some((unknown, h + c));
                }
            }
        }
        let Some((_, line)) = best else {
            found.count += 1;
            if found.first.is_none() {
                found.first = Some(self.cells(depth).into_iter().map(|c| c == Some(true)).collect());
            }
            return;
        };
        let (r, c) = {
            let s = &self.stack[depth];
            if line < h {
                (line, (!s[line] & mask(w)).trailing_zeros() as usize)
            } else {
                let c = line - h;
                ((!s[2 * h + c] & mask(h)).trailing_zeros() as usize, c)
            }
        };
        for value in [true, false] {
            if found.count >= limit {
                return;
            }
            self.prepare(depth + 1, true);
            self.set(depth + 1, r, c, value);
            let dirty = (1u128 << r) | (1u128 << (h + c));
            self.search(depth + 1, dirty, limit, found);
        }
    }
}

/// Line logic alone on a puzzle (see [`Solver::line_solve`]).
pub fn line_solve(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> LineResult {
    Solver::new().line_solve(rows, columns)
}

/// Number of solutions, up to `limit` (0, 1, …, limit): `limit` 2 tells
/// none / unique / several. For many calls, keep a [`Solver`] instead.
pub fn count_solutions(rows: &[Vec<usize>], columns: &[Vec<usize>], limit: usize) -> usize {
    Solver::new().count_solutions(rows, columns, limit).count
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonogram_hdl::options::{clue_of, LineOptions};

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The DP and option filtering agree on random lines and known cells.
    #[test]
    fn dp_matches_option_filtering() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            let n = (rng(&mut seed) % 20 + 1) as usize;
            let picture = rng(&mut seed) & mask(n);
            let clue = clue_of(picture, n);
            let known = rng(&mut seed) & rng(&mut seed) & mask(n);
            // Half the time, values consistent with the picture; else random.
            let value = if rng(&mut seed).is_multiple_of(2) {
                picture
            } else {
                rng(&mut seed)
            } & known;
            let blocks: Vec<u8> = clue.iter().map(|&b| b as u8).collect();
            let mut and = u64::MAX;
            let mut or = 0;
            let mut any = false;
            for o in LineOptions::new(&clue, n) {
                if (o ^ value) & known == 0 {
                    and &= o;
                    or |= o;
                    any = true;
                }
            }
            let got = dp_line(&blocks, n, known, value);
            if !any {
                assert_eq!(got, None, "{clue:?} n={n} known={known:b} value={value:b}");
            } else {
                let (f, e) = got.unwrap_or_else(|| panic!("{clue:?} n={n} known={known:b} value={value:b}"));
                assert_eq!(
                    f,
                    or & mask(n),
                    "can fill {clue:?} n={n} known={known:b} value={value:b}"
                );
                assert_eq!(
                    e,
                    !and & mask(n),
                    "can empty {clue:?} n={n} known={known:b} value={value:b}"
                );
            }
        }
    }

    #[test]
    fn dp_on_long_lines() {
        assert_eq!(dp_line(&[64], 64, 0, 0), Some((u64::MAX, 0)));
        assert_eq!(dp_line(&[], 64, 0, 0), Some((0, u64::MAX)));
        assert_eq!(dp_line(&[65], 64, 0, 0), None);
        assert_eq!(
            dp_line(&[1; 32], 64, 0, 0).map(|(f, e)| (f != 0, e != 0)),
            Some((true, true))
        );
        assert_eq!(dp_line(&[1; 33], 64, 0, 0), None);
    }

    /// Every 3×3 and 4×4 grid: count_solutions matches brute force.
    #[test]
    fn counts_match_brute_force_on_small_grids() {
        for (h, w) in [(3usize, 3usize), (3, 4)] {
            let cells = h * w;
            type Clues = (Vec<Vec<usize>>, Vec<Vec<usize>>);
            let mut by_clues: HashMap<Clues, usize> = HashMap::new();
            for g in 0..1u64 << cells {
                let pic: Vec<bool> = (0..cells).map(|i| g >> i & 1 == 1).collect();
                *by_clues
                    .entry(nonogram_hdl::model::clues_of_picture(h, w, &pic))
                    .or_default() += 1;
            }
            let mut solver = Solver::new();
            let mut probing = Solver::new();
            probing.set_probe_above(0);
            for ((rows, cols), n) in &by_clues {
                let got = solver.count_solutions(rows, cols, 100);
                assert_eq!(got.count, *n, "{rows:?} {cols:?}");
                let probed = probing.count_solutions(rows, cols, 100);
                assert_eq!(probed.count, *n, "probing {rows:?} {cols:?}");
                let first = got.first.unwrap();
                let (r2, c2) = nonogram_hdl::model::clues_of_picture(h, w, &first);
                assert_eq!((&r2, &c2), (rows, cols));
                assert_eq!(solver.count_solutions(rows, cols, 2).count, (*n).min(2));
            }
        }
    }

    /// Probing changes the speed, not the answer, on puzzles too big for brute force.
    #[test]
    fn probing_agrees_with_plain_search() {
        let mut seed = 0x5eed_u64;
        let (mut plain, mut probing) = (Solver::new(), Solver::new());
        plain.set_probe_above(usize::MAX);
        probing.set_probe_above(0);
        for _ in 0..150 {
            let h = (rng(&mut seed) % 4 + 6) as usize;
            let w = (rng(&mut seed) % 4 + 6) as usize;
            let pic: Vec<bool> = (0..h * w).map(|_| rng(&mut seed).is_multiple_of(2)).collect();
            let (rows, cols) = nonogram_hdl::model::clues_of_picture(h, w, &pic);
            let a = plain.count_solutions(&rows, &cols, 3);
            let b = probing.count_solutions(&rows, &cols, 3);
            assert_eq!(a.count, b.count, "{rows:?} {cols:?}");
            assert!(a.count >= 1);
            for first in [a.first, b.first] {
                let (r2, c2) = nonogram_hdl::model::clues_of_picture(h, w, &first.unwrap());
                assert_eq!((r2, c2), (rows.clone(), cols.clone()));
            }
        }
    }

    #[test]
    fn line_logic_matches_the_model() {
        let mut seed = 0xfeed_beef_u64;
        let mut solver = Solver::new();
        for _ in 0..300 {
            let h = (rng(&mut seed) % 9 + 1) as usize;
            let w = (rng(&mut seed) % 9 + 1) as usize;
            let pic: Vec<bool> = (0..h * w).map(|_| rng(&mut seed) % 5 < 3).collect();
            let (rows, cols) = nonogram_hdl::model::clues_of_picture(h, w, &pic);
            let model = nonogram_hdl::model::solve_clues(&rows, &cols);
            let mine = solver.line_solve(&rows, &cols);
            assert_eq!(mine.cells, model.cells, "{rows:?} {cols:?}");
            let model_outcome = match model.outcome {
                0 => LineOutcome::Solved,
                1 => LineOutcome::Contradiction,
                _ => LineOutcome::Stalled,
            };
            assert_eq!(mine.outcome, model_outcome);
        }
    }

    #[test]
    fn no_solution_and_several() {
        // Row 0 full, column 0 empty.
        assert_eq!(count_solutions(&[vec![2], vec![]], &[vec![], vec![1]], 2), 0);
        // The two diagonals.
        assert_eq!(count_solutions(&[vec![1], vec![1]], &[vec![1], vec![1]], 2), 2);
        assert_eq!(count_solutions(&[vec![1], vec![1]], &[vec![1], vec![1]], 5), 2);
        let r = line_solve(&[vec![2], vec![]], &[vec![], vec![1]]);
        assert_eq!(r.outcome, LineOutcome::Contradiction);
    }

    #[test]
    fn finishes_from_a_partial_board() {
        let clue = vec![vec![1], vec![1]];
        let partial = [Some(true), None, None, None];
        let s = Solver::new().count_from(&clue, &clue, Some(&partial), 2);
        assert_eq!(s.count, 1);
        assert_eq!(s.first, Some(vec![true, false, false, true]));
    }
}
