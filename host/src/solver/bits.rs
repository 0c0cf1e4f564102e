//! Black and white for the generic search ([`super::search`]): a state is
//! each row's and each column's cells as bit words, known and value, and
//! line logic is [`super::line`]'s on whole words.
//!
//! Compiled clues are kept by (clue, length) between puzzles, and line
//! solutions by (clue, known, value): probing asks the same line questions
//! many times, and a look-up is several times faster than the line logic.

use super::line::LineKind;
use super::sat;
use super::search::{Grid, Implied, LineSet};
use super::{Budget, DpScratch, LineBits};
use rustc_hash::FxHashMap;
use std::collections::HashMap;

/// Entries the line cache keeps before it starts afresh (a few tens of MB).
const LINE_CACHE_ENTRIES: usize = 1 << 20;

/// A black-and-white puzzle on lines of type `L`. A state is the rows'
/// known words, the rows' value words (bit set: filled), then the columns'
/// known and value words.
#[derive(Default)]
pub struct Bits<L> {
    kinds: Vec<LineKind<L>>,
    index: HashMap<Vec<usize>, usize>,
    key: Vec<usize>,
    /// Kind of each line of the current puzzle (rows, then columns).
    lines: Vec<usize>,
    height: usize,
    width: usize,
    scratch: DpScratch,
    /// Line solutions already computed: (line kind, known, value) to what
    /// the line solver said.
    solved_lines: FxHashMap<(usize, L, L), Option<(L, L)>>,
}

impl<L: LineBits> Bits<L> {
    fn kind(&mut self, clue: &[usize], length: usize) -> usize {
        self.key.clear();
        self.key.push(length);
        self.key.extend(clue.iter().filter(|&&b| b > 0));
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            return i;
        }
        self.kinds.push(LineKind::new(clue, length));
        self.index.insert(self.key.clone(), self.kinds.len() - 1);
        self.kinds.len() - 1
    }

    /// Takes a puzzle's clues.
    pub fn load(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) {
        assert!(
            rows.len() <= L::CELLS && columns.len() <= L::CELLS,
            "the solver takes at most {} rows and columns",
            L::CELLS
        );
        if self.kinds.len() > 100_000 {
            self.kinds.clear();
            self.index.clear();
            self.solved_lines.clear();
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
    }

    /// The cells of `state` (row-major, `None` = unknown).
    pub fn cells(&self, state: &[L]) -> Vec<Option<bool>> {
        let (h, w) = (self.height, self.width);
        (0..h * w)
            .map(|i| {
                let (r, c) = (i / w, i % w);
                state[r].get(c).then_some(state[h + r].get(c))
            })
            .collect()
    }

    /// Line `line`'s known word in a state.
    fn known_word(&self, state: &[L], line: usize) -> L {
        if line < self.height {
            state[line]
        } else {
            state[self.height + line]
        }
    }

    fn length(&self, line: usize) -> usize {
        if line < self.height {
            self.width
        } else {
            self.height
        }
    }
}

impl<L: LineBits> Grid for Bits<L> {
    type State = Vec<L>;
    type Value = bool;
    type Solution = Vec<bool>;

    fn height(&self) -> usize {
        self.height
    }

    fn width(&self) -> usize {
        self.width
    }

    fn open(&self, state: &mut Vec<L>) {
        state.clear();
        state.resize(2 * (self.height + self.width), L::default());
    }

    #[inline]
    fn revise(&mut self, s: &mut Vec<L>, line: usize, dirty: &mut LineSet) -> bool {
        let (h, w) = (self.height, self.width);
        // This line's known and value words, the crossing lines' words,
        // this line's index in them, and the crossing lines' numbers.
        let (ko, vo, cross_k, cross_v, idx, cross_base) = if line < h {
            (line, h + line, 2 * h, 2 * h + w, line, h)
        } else {
            let c = line - h;
            (2 * h + c, 2 * h + w + c, 0, h, c, 0)
        };
        let (known, value) = (s[ko], s[vo]);
        if self.solved_lines.len() >= LINE_CACHE_ENTRIES {
            self.solved_lines.clear();
        }
        let kind = self.lines[line];
        let (kinds, scratch) = (&self.kinds, &mut self.scratch);
        let solved = *self
            .solved_lines
            .entry((kind, known, value))
            .or_insert_with(|| kinds[kind].solve(known, value, scratch));
        let Some((must_fill, must_empty)) = solved else {
            return false;
        };
        let mut new = (must_fill | must_empty) & !known;
        if new.is_empty() {
            return true;
        }
        s[ko] |= new;
        s[vo] |= must_fill & new;
        while let Some(i) = new.first_one() {
            new.clear(i);
            s[cross_k + i].set(idx);
            if must_fill.get(i) {
                s[cross_v + i].set(idx);
            }
            dirty.insert(cross_base + i);
        }
        true
    }

    #[inline]
    fn decided(&self, state: &Vec<L>, r: usize, c: usize) -> bool {
        state[r].get(c)
    }

    fn known(&self, state: &Vec<L>) -> usize {
        state[..self.height].iter().map(|k| k.count_ones()).sum()
    }

    fn unknowns(&self, state: &Vec<L>, line: usize) -> (usize, usize) {
        let unknown = !self.known_word(state, line) & L::ones(self.length(line));
        (unknown.count_ones(), unknown.first_one().unwrap_or(0))
    }

    fn line_differs(&self, a: &Vec<L>, b: &Vec<L>, line: usize) -> bool {
        self.known_word(a, line) != self.known_word(b, line)
    }

    fn values(&self, _: &Vec<L>, _: usize, _: usize, into: &mut Vec<bool>) {
        into.clear();
        into.extend([true, false]);
    }

    #[inline]
    fn set(&self, s: &mut Vec<L>, r: usize, c: usize, filled: bool) {
        let (h, w) = (self.height, self.width);
        s[r].set(c);
        s[2 * h + c].set(r);
        if filled {
            s[h + r].set(c);
            s[2 * h + w + c].set(r);
        }
    }

    fn rule_out(&self, s: &mut Vec<L>, r: usize, c: usize, filled: bool) {
        self.set(s, r, c, !filled);
    }

    /// Cells both tries fixed alike (only two values: both survived).
    fn join(&self, s: &mut Vec<L>, tries: &[Vec<L>], mut changed: impl FnMut(usize, usize)) {
        let h = self.height;
        let [one, two] = tries else {
            unreachable!("two tries")
        };
        for row in 0..h {
            let (k1, v1) = (one[row], one[h + row]);
            let (k2, v2) = (two[row], two[h + row]);
            let mut new = k1 & k2 & !(v1 ^ v2) & !s[row];
            while let Some(col) = new.first_one() {
                new.clear(col);
                self.set(s, row, col, v1.get(col));
                changed(row, col);
            }
        }
    }

    fn solution(&self, state: &Vec<L>) -> Vec<bool> {
        self.cells(state).into_iter().map(|c| c == Some(true)).collect()
    }

    fn sat_able(&self) -> bool {
        true
    }

    fn implied(
        &self,
        root: &Vec<L>,
        after: &Vec<L>,
        (r, c, value): (usize, usize, bool),
        into: &mut Vec<Implied<bool>>,
    ) {
        let (h, w) = (self.height, self.width);
        for row in 0..h {
            let mut new = after[row] & !root[row];
            while let Some(col) = new.first_one() {
                new.clear(col);
                if (row, col) != (r, c) {
                    into.push(Implied {
                        cell: r * w + c,
                        value,
                        then_cell: row * w + col,
                        then: after[h + row].get(col),
                    });
                }
            }
        }
    }

    /// The formula with one ink, the root's known cells as given.
    fn by_sat(
        &self,
        root: &Vec<L>,
        implied: &[Implied<bool>],
        limit: usize,
        budget: &Budget,
    ) -> (Vec<Vec<bool>>, bool) {
        let clue = |line: usize| self.kinds[self.lines[line]].blocks();
        let (h, w) = (self.height, self.width);
        let rows: Vec<&[usize]> = (0..h).map(clue).collect();
        let columns: Vec<&[usize]> = (h..h + w).map(clue).collect();
        sat::solve(&rows, &columns, &self.cells(root), implied, limit, budget)
    }
}
