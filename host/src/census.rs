//! Census of small nonograms: every grid of a size (2^25 of them at 5×5),
//! its clues, and two verdicts on them:
//!
//! * **line-solvable**: the gateware's reference model solves the clues by
//!   line logic alone: the DNF engine's ([`nonogram_hdl::dnf::model::solve`]) or,
//!   with `--engine clues`, the clue engine's ([`nonogram_hdl::clue::clue_model::solve`]);
//! * **unique**: the software solver ([`Solver::count_solutions`], limit 2)
//!   finds exactly one solution.
//!
//! The DNF model is called as it is, on the same option lists
//! [`nonogram_hdl::dnf::model::solve_clues`] would enumerate: the lists are
//! enumerated once per line word (2^5 of them at 5 columns) by
//! [`LineOptions`] and reused, which halves the time a grid takes and changes
//! nothing else (`tests/census.rs` compares grid by grid with `solve_clues`).
//!
//! Every grid is also checked for consistency: the model never reports a
//! contradiction (the picture satisfies its clues), every cell it fixes
//! agrees with the picture, a solved board is the picture, the solver finds at
//! least one solution, a unique solution is the picture, and a board line
//! logic solves has a unique solution. Any failure is counted and reported.
//!
//! Published figures ("Every 5×5 Nonogram"): of the 2^25 5×5 grids,
//! 24 976 511 are line-solvable and 25 309 575 unique. `nonohost census`
//! (see [`run`]) compares a whole 5×5 census with them.

use crate::solver::Solver;
use clap::builder::TypedValueParser as _;
use indicatif::ProgressBar;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_model;
use nonogram_hdl::dnf::model;
use nonogram_hdl::dnf::options::{clue_of, LineOptions};
use nonogram_hdl::link::protocol::status::outcome;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Published counts for every 5×5 grid.
pub const PUBLISHED_5X5: Published = Published {
    grids: 1 << 25,
    line_solvable: 24_976_511,
    unique: 25_309_575,
};

/// Most cells of a census grid (2^25 grids).
pub const MAX_CELLS: usize = 25;

/// Most rows or columns of a census grid.
pub const MAX_SIDE: usize = 8;

/// Published counts of a whole census.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Published {
    pub grids: u64,
    pub line_solvable: u64,
    pub unique: u64,
}

/// Grids classified per work unit of a thread (and per progress-bar step).
const CHUNK: u64 = 1 << 14;

/// Problems kept (with their grid numbers) for the report.
const KEEP_PROBLEMS: usize = 10;

/// One grid's verdicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The model solves its clues by line logic.
    pub line_solvable: bool,
    /// The software solver finds exactly one solution.
    pub unique: bool,
    /// What was inconsistent, if anything (see the module's documentation).
    pub problem: Option<String>,
}

/// The counts of a census (or of part of one).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub rows: usize,
    pub columns: usize,
    /// Grids classified.
    pub grids: u64,
    /// Grids whose clues the model solves by line logic.
    pub line_solvable: u64,
    /// Grids whose clues have exactly one solution.
    pub unique: u64,
    /// Grids with an inconsistency between the picture, the model and the solver.
    pub inconsistencies: u64,
    /// The first inconsistencies: grid number and what went wrong.
    pub problems: Vec<(u64, String)>,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.grids += other.grids;
        self.line_solvable += other.line_solvable;
        self.unique += other.unique;
        self.inconsistencies += other.inconsistencies;
        self.problems.extend(other.problems);
        self.problems.sort_by_key(|p| p.0);
        self.problems.truncate(KEEP_PROBLEMS);
    }

    /// Grids with a unique solution that line logic does not reach.
    pub fn unique_not_line_solvable(&self) -> u64 {
        self.unique - self.line_solvable
    }

    /// Grids whose clues have several solutions.
    pub fn several(&self) -> u64 {
        self.grids - self.unique
    }
}

/// Classifies grids of one size. Grid `g` has cell (r, c) filled when bit
/// `r·columns + c` of `g` is set (row-major, bit 0 the top-left cell).
pub struct Classifier {
    engine: Engine,
    rows: usize,
    columns: usize,
    /// Clue and options of a row, by its word (bit c = column c).
    row_clues: Vec<Vec<usize>>,
    row_options: Vec<Vec<u64>>,
    /// Clue and options of a column, by its word (bit r = row r).
    column_clues: Vec<Vec<usize>>,
    column_options: Vec<Vec<u64>>,
    solver: Solver,
    // Buffers reused from grid to grid.
    lines: Vec<Vec<u64>>,
    row_buf: Vec<Vec<usize>>,
    column_buf: Vec<Vec<usize>>,
}

/// Whether a census of this size is allowed: sides 1..=MAX_SIDE, at most MAX_CELLS cells.
pub fn check_size(rows: usize, columns: usize) -> Result<(), String> {
    if rows == 0 || columns == 0 || rows > MAX_SIDE || columns > MAX_SIDE {
        return Err(format!(
            "a census takes 1 to {MAX_SIDE} rows and columns, not {rows}x{columns}"
        ));
    }
    if rows * columns > MAX_CELLS {
        return Err(format!(
            "a census takes at most {MAX_CELLS} cells (2^{MAX_CELLS} grids), not {rows}x{columns} = {}",
            rows * columns
        ));
    }
    Ok(())
}

impl Classifier {
    /// A classifier of `rows` × `columns` grids with the DNF engine's model.
    pub fn new(rows: usize, columns: usize) -> Classifier {
        Classifier::with_engine(Engine::Dnf, rows, columns)
    }

    /// A classifier of `rows` × `columns` grids with `engine`'s model;
    /// panics unless [`check_size`] allows it.
    pub fn with_engine(engine: Engine, rows: usize, columns: usize) -> Classifier {
        if let Err(e) = check_size(rows, columns) {
            panic!("{e}");
        }
        let clues = |n: usize| (0..1u64 << n).map(|w| clue_of(w, n)).collect::<Vec<_>>();
        let options = |n: usize| {
            (0..1u64 << n)
                .map(|w| LineOptions::new(&clue_of(w, n), n).collect())
                .collect::<Vec<_>>()
        };
        Classifier {
            engine,
            rows,
            columns,
            row_clues: clues(columns),
            row_options: options(columns),
            column_clues: clues(rows),
            column_options: options(rows),
            solver: Solver::new(),
            lines: vec![Vec::new(); rows + columns],
            row_buf: vec![Vec::new(); rows],
            column_buf: vec![Vec::new(); columns],
        }
    }

    /// Grids of this size: 2^(rows·columns).
    pub fn grids(&self) -> u64 {
        1 << (self.rows * self.columns)
    }

    /// Row `r`'s word of grid `g` (bit c = column c).
    fn row_word(&self, g: u64, r: usize) -> usize {
        (g >> (r * self.columns) & ((1 << self.columns) - 1)) as usize
    }

    /// Column `c`'s word of grid `g` (bit r = row r).
    fn column_word(&self, g: u64, c: usize) -> usize {
        (0..self.rows).fold(0, |w, r| w | ((g >> (r * self.columns + c) & 1) as usize) << r)
    }

    /// The clues of grid `g`: rows top to bottom, columns left to right.
    pub fn clues(&self, g: u64) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        (
            (0..self.rows)
                .map(|r| self.row_clues[self.row_word(g, r)].clone())
                .collect(),
            (0..self.columns)
                .map(|c| self.column_clues[self.column_word(g, c)].clone())
                .collect(),
        )
    }

    /// Classifies grid `g`.
    pub fn classify(&mut self, g: u64) -> Class {
        assert!(
            g < self.grids(),
            "grid {g:#x} is not {}x{}",
            self.rows,
            self.columns
        );
        let (rows, columns) = (self.rows, self.columns);
        for r in 0..rows {
            let w = self.row_word(g, r);
            self.lines[r].clone_from(&self.row_options[w]);
            self.row_buf[r].clone_from(&self.row_clues[w]);
        }
        for c in 0..columns {
            let w = self.column_word(g, c);
            self.lines[rows + c].clone_from(&self.column_options[w]);
            self.column_buf[c].clone_from(&self.column_clues[w]);
        }
        let picture = |i: usize| g >> i & 1 == 1;
        let mut problem = None;

        // Line logic: the engine's reference model.
        let (verdict_outcome, detail, cells) = match self.engine {
            Engine::Dnf => {
                let v = model::solve(rows, columns, &self.lines);
                (v.outcome, v.detail, v.cells)
            }
            // (The colour engine's line logic on one ink reaches the same
            // fixpoint: `colour::search`'s tests check it.)
            Engine::Clues | Engine::Probing | Engine::Colour => {
                let v = clue_model::solve(&self.row_buf, &self.column_buf);
                (v.outcome, v.detail, v.cells)
            }
        };
        let line_solvable = verdict_outcome == outcome::SOLVED;
        if verdict_outcome != outcome::SOLVED && verdict_outcome != outcome::STALLED {
            problem = Some(format!(
                "the model answered outcome {verdict_outcome} (detail {detail}) to the clues of a picture"
            ));
        } else if let Some(i) = (0..rows * columns).find(|&i| cells[i].is_some_and(|v| v != picture(i))) {
            problem = Some(format!(
                "the model fixed cell ({}, {}) against the picture",
                i / columns,
                i % columns
            ));
        }

        // Uniqueness: the software solver.
        let found = self.solver.count_solutions(&self.row_buf, &self.column_buf, 2);
        let unique = found.count == 1;
        if problem.is_none() {
            if found.count == 0 {
                problem = Some("the software solver found no solution".into());
            } else if unique
                && !found
                    .first
                    .as_ref()
                    .is_some_and(|s| s.iter().enumerate().all(|(i, &v)| v == picture(i)))
            {
                problem = Some("the software solver's only solution is not the picture".into());
            } else if line_solvable && !unique {
                problem = Some(
                    "line logic solved the board but the software solver found several solutions".into(),
                );
            }
        }
        Class {
            line_solvable,
            unique,
            problem,
        }
    }

    /// Classifies the grids of `range`, counting them.
    pub fn count(&mut self, range: Range<u64>) -> Counts {
        let mut counts = Counts {
            rows: self.rows,
            columns: self.columns,
            ..Counts::default()
        };
        for g in range {
            let class = self.classify(g);
            counts.grids += 1;
            counts.line_solvable += class.line_solvable as u64;
            counts.unique += class.unique as u64;
            if let Some(p) = class.problem {
                counts.inconsistencies += 1;
                if counts.problems.len() < KEEP_PROBLEMS {
                    counts.problems.push((g, p));
                }
            }
        }
        counts
    }
}

/// Classifies the grids of `range` (a part of 0..2^(rows·columns)) on
/// `threads` threads, each with its own [`Classifier`], advancing `progress`
/// by the grids done.
pub fn census(
    engine: Engine,
    rows: usize,
    columns: usize,
    range: Range<u64>,
    threads: usize,
    progress: &ProgressBar,
) -> Counts {
    let end = range.end.min(1u64 << (rows * columns));
    let next = AtomicU64::new(range.start);
    let mut total = Counts {
        rows,
        columns,
        ..Counts::default()
    };
    let parts: Vec<Counts> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut classifier = Classifier::with_engine(engine, rows, columns);
                    let mut counts = Counts {
                        rows,
                        columns,
                        ..Counts::default()
                    };
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= end {
                            break;
                        }
                        let stop = (start + CHUNK).min(end);
                        counts.add(classifier.count(start..stop));
                        progress.inc(stop - start);
                    }
                    counts
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a census thread panicked"))
            .collect()
    });
    for p in parts {
        total.add(p);
    }
    total
}

/// The published figures for a whole census of this size, if any.
pub fn published(rows: usize, columns: usize) -> Option<Published> {
    (rows == 5 && columns == 5).then_some(PUBLISHED_5X5)
}

/// A grid size on the command line: `N` (N×N) or `RxC` (R rows, C columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    pub rows: usize,
    pub columns: usize,
}

impl std::str::FromStr for GridSize {
    type Err = String;

    fn from_str(s: &str) -> Result<GridSize, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("not a size: {s:?} (write N or RxC, for example 5 or 4x3)"))
        };
        let (rows, columns) = match s.split_once(['x', 'X', '×']) {
            Some((r, c)) => (number(r)?, number(c)?),
            None => {
                let n = number(s)?;
                (n, n)
            }
        };
        check_size(rows, columns)?;
        Ok(GridSize { rows, columns })
    }
}

/// `nonohost census`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The reference model that decides "line-solvable": the DNF engine's
    /// (dnf) or the clue engine's (clues).
    #[arg(long, default_value = "dnf", value_parser = crate::random::parse_engine)]
    pub engine: Engine,
    /// Grid size: N for N×N, or RxC for R rows by C columns (1 to 8 a side, at most 25 cells).
    #[arg(long, default_value = "5", value_name = "N|RxC")]
    pub size: GridSize,
    /// Classify only the first N grids (the published figures are then not compared).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `nonohost census` and returns the exit code: 0 when every grid is
/// consistent and, for a whole 5×5 census, both counts match the published
/// figures; 1 otherwise.
pub fn run(args: &Args) -> i32 {
    let GridSize { rows, columns } = args.size;
    let all = 1u64 << (rows * columns);
    let grids = args.limit.unwrap_or(all).min(all);
    let threads = args.threads.unwrap_or_else(crate::random::default_threads).max(1);
    let bar = crate::progress::bar(
        crate::progress::wanted(args.quiet, args.json),
        grids,
        "census {wide_bar} {human_pos}/{human_len} grids ({per_sec}, {eta} left)",
    );
    let start = std::time::Instant::now();
    let counts = census(args.engine, rows, columns, 0..grids, threads, &bar);
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let reference = published(rows, columns).filter(|p| p.grids == grids);
    let matches = reference.map(|p| p.line_solvable == counts.line_solvable && p.unique == counts.unique);
    let ok = counts.inconsistencies == 0 && matches != Some(false);
    if args.json {
        let j = serde_json::json!({
            "status": if ok { "ok" } else { "mismatch" },
            "error": null,
            "engine": args.engine.name(),
            "rows": rows,
            "columns": columns,
            "grids": counts.grids,
            "line_solvable": counts.line_solvable,
            "unique": counts.unique,
            "unique_not_line_solvable": counts.unique_not_line_solvable(),
            "several": counts.several(),
            "inconsistencies": counts.inconsistencies,
            "problems": counts.problems,
            "published_line_solvable": reference.map(|p| p.line_solvable),
            "published_unique": reference.map(|p| p.unique),
            "matches_published": matches,
            "seconds": seconds,
            "threads": threads,
            "ok": ok,
        });
        println!("{j}");
    } else {
        let whole = if grids == all {
            format!("every {rows}x{columns} grid")
        } else {
            format!("the first {grids} of the {all} {rows}x{columns} grids")
        };
        println!(
            "census of {whole} ({rows} rows, {columns} columns): {} grids",
            counts.grids
        );
        let versus = |got: u64, want: Option<u64>| match want {
            Some(w) if w == got => format!("  (published: {w}, match)"),
            Some(w) => format!("  (published: {w}, MISMATCH by {})", got as i64 - w as i64),
            None => String::new(),
        };
        let label = format!(
            "line-solvable (the {} engine's model):",
            crate::sweep::label(args.engine)
        );
        println!(
            "{label:<48}{:>10}{}",
            counts.line_solvable,
            versus(counts.line_solvable, reference.map(|p| p.line_solvable))
        );
        println!(
            "unique solution (the software solver):          {:>10}{}",
            counts.unique,
            versus(counts.unique, reference.map(|p| p.unique))
        );
        println!(
            "unique but not line-solvable:                   {:>10}",
            counts.unique_not_line_solvable()
        );
        println!(
            "several solutions:                              {:>10}",
            counts.several()
        );
        println!(
            "inconsistencies (picture, model, solver):       {:>10}",
            counts.inconsistencies
        );
        for (g, p) in &counts.problems {
            println!("  grid {g:#x}: {p}");
        }
        println!(
            "elapsed: {seconds:.1} s on {threads} thread{} ({:.2} µs a grid a thread)",
            if threads == 1 { "" } else { "s" },
            seconds * 1e6 * threads as f64 / counts.grids.max(1) as f64
        );
        if reference.is_none() && rows == 5 && columns == 5 {
            println!("(the published figures are for all 2^25 grids: not compared)");
        }
    }
    if ok {
        crate::exit::SOLVED
    } else {
        crate::exit::ERROR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_numbering_is_row_major() {
        let c = Classifier::new(2, 3);
        // Cell (0, 2) and cell (1, 0): bits 2 and 3.
        let (rows, columns) = c.clues(0b1100);
        assert_eq!(rows, vec![vec![1], vec![1]]);
        assert_eq!(columns, vec![vec![1], vec![], vec![1]]);
    }

    #[test]
    fn two_by_two() {
        // 16 grids: the two diagonals share their clues, every other grid is
        // line-solvable.
        let counts = Classifier::new(2, 2).count(0..16);
        assert_eq!((counts.grids, counts.line_solvable, counts.unique), (16, 14, 14));
        assert_eq!(counts.inconsistencies, 0);
        assert_eq!(counts.several(), 2);
    }

    #[test]
    fn sizes_parse() {
        let size = |s: &str| s.parse::<GridSize>();
        assert_eq!(size("5"), Ok(GridSize { rows: 5, columns: 5 }));
        assert_eq!(size("3x4"), Ok(GridSize { rows: 3, columns: 4 }));
        assert_eq!(size("4X3"), Ok(GridSize { rows: 4, columns: 3 }));
        assert_eq!(size("2×5"), Ok(GridSize { rows: 2, columns: 5 }));
        for bad in ["6", "0", "5x6", "x", "3x", "five"] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn refuses_sizes_too_big() {
        assert!(check_size(5, 5).is_ok());
        assert!(check_size(3, 8).is_ok());
        assert!(check_size(5, 6).is_err());
        assert!(check_size(1, 9).is_err());
        assert!(check_size(0, 3).is_err());
    }

    #[test]
    fn threads_split_the_work_without_changing_the_counts() {
        let bar = ProgressBar::hidden();
        let one = census(Engine::Dnf, 3, 4, 0..1 << 12, 1, &bar);
        let three = census(Engine::Dnf, 3, 4, 0..1 << 12, 3, &bar);
        assert_eq!(one, three);
        assert_eq!(one.grids, 1 << 12);
        assert_eq!(bar.position(), 2 << 12);
    }
}
