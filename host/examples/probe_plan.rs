//! What probing on the chip would buy, before any gateware: first-solution
//! search over the clue engine's line logic on a tournament set, with and
//! without probing, priced in the cycles the planned hardware would take.
//! An estimate of designs, not a measurement of gateware: the clue engine's
//! cycle-exact model (`clue_model::first_solution`, what `nonohost
//! tournament` runs) is the baseline, and is printed beside the estimates.
//!
//! The costs (those of `clue_model.rs` where the engine already does it):
//! * propagation is the dirty-line schedule: SEEK_CYCLES (2) for every line
//!   it passes, dirty or not, and a visit k + 2L + LATENCY + VISIT_CYCLES,
//!   plus 3 a newly fixed cell (the crossing copy and the trail);
//! * `skip`: a next-dirty finder skips clean lines, 1 cycle a dirty line
//!   instead of 2 for every line passed;
//! * undoing a cell costs UNDO_CYCLES (3); a guess GUESS_CYCLES (9); finding
//!   the first unknown cell SCAN_ROW_CYCLES (4) a row read;
//! * a probe sets the cell, propagates from its row and column, and undoes
//!   it; keeping the first value's result to compare with the second's
//!   costs a copy and a compare of the Value rows, 2 cycles a row.
//!
//! The variants (every one stops at the first solution):
//! * `plain`: line logic, then depth-first search on the first unknown
//!   cell, filled first: the engine as it is;
//! * `probe`: before each branch, probe every unknown cell both ways; a value
//!   that contradicts fixes the other, cells both values fix alike are
//!   fixed, and rounds repeat until one fixes nothing; then branch on the
//!   first unknown cell;
//! * `probe-stale`: as `probe`, re-probing only cells whose row or column
//!   changed since their last probe;
//! * `probe-score`: as `probe-stale`, branching on the cell whose two probes
//!   fixed the most (the smaller count of the two, as Wu et al. score), on
//!   the value that fixed more first;
//! * `probe-score-skip`: as `probe-score`, with the next-dirty finder.
//!
//! ```sh
//! cargo run --release -p nonohost --example probe_plan -- ../shared/tournament/icga2016.txt [COUNT]
//! ```

use nonogram_hdl::clue::clue_model::{
    self, GUESS_CYCLES, SCAN_ROW_CYCLES, SEEK_CYCLES, UNDO_CYCLES, VISIT_CYCLES,
};
use nonogram_hdl::clue::line_logic::solve_line;
use nonogram_hdl::clue::line_solver::LATENCY;
use nonogram_hdl::link::protocol::status::outcome;
use std::path::Path;

/// The budget per puzzle: 1 s at 100 MHz, as `nonohost tournament`'s.
const BUDGET: u64 = 96 << clue_model::BUDGET_UNIT_BITS;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Variant {
    name: &'static str,
    probe: bool,
    stale_only: bool,
    score: bool,
    skip: bool,
    /// Staleness kept per line, as registers would: a round probes the
    /// unknown cells of the lines changed since the round before began.
    lines: bool,
    /// Cells both probes fix alike are fixed (else only contradictions
    /// fix cells, and no copy or compare of the first result is paid).
    alike: bool,
}

const VARIANTS: [Variant; 8] = [
    Variant {
        name: "plain",
        probe: false,
        stale_only: false,
        score: false,
        skip: false,
        lines: false,
        alike: true,
    },
    Variant {
        name: "probe",
        probe: true,
        stale_only: false,
        score: false,
        skip: false,
        lines: false,
        alike: true,
    },
    Variant {
        name: "probe-stale",
        probe: true,
        stale_only: true,
        score: false,
        skip: false,
        lines: false,
        alike: true,
    },
    Variant {
        name: "probe-score",
        probe: true,
        stale_only: true,
        score: true,
        skip: false,
        lines: false,
        alike: true,
    },
    Variant {
        name: "probe-score-skip",
        probe: true,
        stale_only: true,
        score: true,
        skip: true,
        lines: false,
        alike: true,
    },
    Variant {
        name: "score-lines",
        probe: true,
        stale_only: true,
        score: true,
        skip: false,
        lines: true,
        alike: true,
    },
    Variant {
        name: "score-lines-noalike",
        probe: true,
        stale_only: true,
        score: true,
        skip: false,
        lines: true,
        alike: false,
    },
    Variant {
        name: "score-noalike",
        probe: true,
        stale_only: true,
        score: true,
        skip: false,
        lines: false,
        alike: false,
    },
];

struct OutOfBudget;

struct Board<'a> {
    variant: Variant,
    rows: usize,
    columns: usize,
    clues: &'a [Vec<usize>],
    /// Row words, then column words.
    known: Vec<u64>,
    value: Vec<u64>,
    dirty: Vec<bool>,
    /// Lines changed since the cell's last probe, as a per-cell flag.
    stale: Vec<bool>,
    /// Lines changed since the current probing round began (`lines`).
    changed: Vec<bool>,
    trail: Vec<(usize, usize)>,
    line: usize,
    /// The last guess's row: the rows above it are known (as in the model).
    scan_row: usize,
    cycles: u64,
    nodes: u64,
}

impl<'a> Board<'a> {
    fn new(variant: Variant, rows: usize, columns: usize, clues: &'a [Vec<usize>]) -> Board<'a> {
        Board {
            variant,
            rows,
            columns,
            clues,
            known: vec![0; rows + columns],
            value: vec![0; rows + columns],
            dirty: vec![true; rows + columns],
            stale: vec![true; rows * columns],
            changed: vec![true; rows + columns],
            trail: vec![],
            line: 0,
            scan_row: 0,
            cycles: clue_model::CLEAR_CYCLES,
            nodes: 0,
        }
    }

    fn is_known(&self, r: usize, c: usize) -> bool {
        self.known[r] >> c & 1 == 1
    }

    fn set(&mut self, r: usize, c: usize, v: bool) {
        self.known[r] |= 1 << c;
        self.known[self.rows + c] |= 1 << r;
        if v {
            self.value[r] |= 1 << c;
            self.value[self.rows + c] |= 1 << r;
        }
        self.trail.push((r, c));
        self.dirty[r] = true;
        self.dirty[self.rows + c] = true;
        self.changed[r] = true;
        self.changed[self.rows + c] = true;
        // Every cell of the row and the column may probe differently now.
        for i in 0..self.columns {
            self.stale[r * self.columns + i] = true;
        }
        for i in 0..self.rows {
            self.stale[i * self.columns + c] = true;
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (r, c) = self.trail.pop().unwrap();
            self.known[r] &= !(1 << c);
            self.known[self.rows + c] &= !(1 << r);
            self.value[r] &= !(1 << c);
            self.value[self.rows + c] &= !(1 << r);
            self.cycles += UNDO_CYCLES;
        }
        self.dirty.iter_mut().for_each(|d| *d = false);
    }

    fn charge(&mut self, cycles: u64) -> Result<(), OutOfBudget> {
        self.cycles += cycles;
        if self.cycles > BUDGET {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    /// Line logic until nothing is dirty; false on a contradiction.
    fn propagate(&mut self) -> Result<bool, OutOfBudget> {
        let total = self.rows + self.columns;
        loop {
            if !self.dirty.contains(&true) {
                self.charge(if self.variant.skip { 1 } else { SEEK_CYCLES })?;
                return Ok(true);
            }
            if !self.dirty[self.line] {
                if !self.variant.skip {
                    self.charge(SEEK_CYCLES)?;
                }
                self.line = (self.line + 1) % total;
                continue;
            }
            self.charge(if self.variant.skip { 1 } else { SEEK_CYCLES })?;
            let line = self.line;
            self.dirty[line] = false;
            let length = if line < self.rows { self.columns } else { self.rows };
            let result = solve_line(length, &self.clues[line], self.known[line], self.value[line]);
            let solver = self.clues[line].len() as u64 + 2 * length as u64 + LATENCY;
            if !result.feasible() {
                self.charge(solver + 3)?;
                self.dirty.iter_mut().for_each(|d| *d = false);
                return Ok(false);
            }
            let fresh = result.known() & !self.known[line];
            self.charge(solver + VISIT_CYCLES + 3 * fresh.count_ones() as u64)?;
            for i in (0..length).filter(|&i| fresh >> i & 1 == 1) {
                let v = result.value() >> i & 1 == 1;
                let (r, c) = if line < self.rows {
                    (line, i)
                } else {
                    (i, line - self.rows)
                };
                self.set(r, c, v);
            }
            self.line = (line + 1) % total;
        }
    }

    fn solved(&self) -> bool {
        (0..self.rows).all(|r| self.known[r].count_ones() as usize == self.columns)
    }

    /// Probes cell (r, c) with value v: the cells it fixes (as row words of
    /// Known and Value), or None on a contradiction. Leaves the board as it was.
    fn probe(&mut self, r: usize, c: usize, v: bool) -> Result<Option<(Vec<u64>, Vec<u64>)>, OutOfBudget> {
        let mark = self.trail.len();
        // What a probe fixes is undone: it changes no line for good.
        let stale = self.stale.clone();
        let changed = self.changed.clone();
        self.charge(GUESS_CYCLES)?;
        self.set(r, c, v);
        let ok = self.propagate()?;
        let result = ok.then(|| (self.known[..self.rows].to_vec(), self.value[..self.rows].to_vec()));
        self.undo_to(mark);
        self.stale = stale;
        self.changed = changed;
        Ok(result)
    }

    /// Probing rounds until one fixes nothing. Ok(None): a contradiction at
    /// this node; Ok(Some(best)): the branch cell and value the probes chose.
    fn probe_rounds(&mut self) -> Result<Option<Option<(usize, usize, bool)>>, OutOfBudget> {
        loop {
            let mut changed = false;
            let mut best: Option<(u32, usize, usize, bool)> = None;
            let round: Vec<bool> =
                std::mem::replace(&mut self.changed, vec![false; self.rows + self.columns]);
            for r in 0..self.rows {
                for c in 0..self.columns {
                    let stale = if self.variant.lines {
                        round[r] || round[self.rows + c]
                    } else {
                        self.stale[r * self.columns + c]
                    };
                    if self.is_known(r, c) || (self.variant.stale_only && !stale) {
                        continue;
                    }
                    self.stale[r * self.columns + c] = false;
                    let filled = self.probe(r, c, true)?;
                    // Keep the first result to compare with the second's.
                    if self.variant.alike {
                        self.charge(2 * self.rows as u64)?;
                    }
                    let empty = self.probe(r, c, false)?;
                    let before: u32 = self.known[..self.rows].iter().map(|w| w.count_ones()).sum();
                    let empty_fails = empty.is_none();
                    match (filled, empty) {
                        (None, None) => return Ok(None),
                        // One value contradicts: the cell takes the other.
                        (None, Some(_)) | (Some(_), None) => {
                            self.set(r, c, empty_fails);
                            changed = true;
                        }
                        (Some((k1, v1)), Some((k0, v0))) => {
                            let n1: u32 = k1.iter().map(|w| w.count_ones()).sum::<u32>() - before;
                            let n0: u32 = k0.iter().map(|w| w.count_ones()).sum::<u32>() - before;
                            // Cells both values fix, alike.
                            let alike = self.variant.alike;
                            for row in (0..self.rows).filter(|_| alike) {
                                let alike = k1[row] & k0[row] & !(v1[row] ^ v0[row]) & !self.known[row];
                                for col in (0..self.columns).filter(|&i| alike >> i & 1 == 1) {
                                    self.set(row, col, v1[row] >> col & 1 == 1);
                                    changed = true;
                                }
                            }
                            let score = n1.min(n0);
                            if best.is_none_or(|b| score > b.0) {
                                best = Some((score, r, c, n1 >= n0));
                            }
                        }
                    }
                    if changed && !self.propagate()? {
                        return Ok(None);
                    }
                }
            }
            if !changed || self.solved() {
                return Ok(Some(best.map(|(_, r, c, v)| (r, c, v))));
            }
        }
    }

    /// Depth-first search from here: true when a solution is found.
    fn search(&mut self) -> Result<bool, OutOfBudget> {
        if !self.propagate()? {
            return Ok(false);
        }
        let mut choice = None;
        if self.variant.probe && !self.solved() {
            match self.probe_rounds()? {
                None => return Ok(false),
                Some(best) => choice = best.filter(|_| self.variant.score),
            }
        }
        if self.solved() {
            return Ok(true);
        }
        let (r, c, first) = match choice.filter(|&(r, c, _)| !self.is_known(r, c)) {
            Some(chosen) => chosen,
            None => {
                let mut found = None;
                for r in self.scan_row..self.rows {
                    self.charge(SCAN_ROW_CYCLES)?;
                    if let Some(c) = (0..self.columns).find(|&c| !self.is_known(r, c)) {
                        found = Some((r, c, true));
                        break;
                    }
                }
                found.expect("an unsolved board has an unknown cell")
            }
        };
        let scan_row = self.scan_row;
        for v in [first, !first] {
            self.nodes += 1;
            let mark = self.trail.len();
            self.charge(GUESS_CYCLES)?;
            self.set(r, c, v);
            // The schedule goes on from the guess's row, as the engine's does.
            self.line = r;
            self.scan_row = if self.variant.score { 0 } else { r };
            if self.search()? {
                return Ok(true);
            }
            self.undo_to(mark);
            self.scan_row = scan_row;
            // Back from a branch: every probe result is in doubt.
            self.stale.iter_mut().for_each(|s| *s = true);
            self.changed.iter_mut().for_each(|s| *s = true);
        }
        Ok(false)
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: probe_plan SET_FILE [COUNT]");
    let count: usize = args
        .next()
        .map_or(usize::MAX, |n| n.parse().expect("COUNT is a number"));
    let mut set = nonohost::tournament::read_set(Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
    set.truncate(count);
    println!(
        "{} puzzles of {path}, first-solution mode, budget {BUDGET} cycles (1 s at 100 MHz)",
        set.len()
    );
    let mut model = (0u64, 0usize);
    for p in &set {
        let v = clue_model::first_solution(
            &p.rows,
            &p.columns,
            (BUDGET >> clue_model::BUDGET_UNIT_BITS) as u16,
        );
        model.0 += v.cycles;
        model.1 += (v.outcome == outcome::SOLVED) as usize;
    }
    println!(
        "  clue_model (the gateware today): {} solved, {:.3} s at 100 MHz",
        model.1,
        model.0 as f64 / 1e8
    );
    for variant in VARIANTS {
        let (mut cycles, mut solved, mut nodes, mut worst) = (0u64, 0usize, 0u64, 0u64);
        for p in &set {
            let clues: Vec<Vec<usize>> = p.rows.iter().chain(&p.columns).cloned().collect();
            let mut board = Board::new(variant, p.height(), p.width(), &clues);
            let found = matches!(board.search(), Ok(true));
            if found {
                let cells: Vec<bool> = (0..p.height())
                    .flat_map(|r| (0..p.width()).map(move |c| (r, c)))
                    .map(|(r, c)| board.value[r] >> c & 1 == 1)
                    .collect();
                p.check_solution(&cells)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", variant.name, p.name));
                solved += 1;
            }
            let spent = board.cycles.min(BUDGET);
            cycles += spent;
            nodes += board.nodes;
            worst = worst.max(spent);
        }
        println!(
            "  {:<17} {} solved, {:.3} s at 100 MHz, {} nodes, slowest {:.1} ms",
            variant.name,
            solved,
            cycles as f64 / 1e8,
            nodes,
            worst as f64 / 1e5
        );
    }
}
