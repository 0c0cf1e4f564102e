//! The gateware against its reference model, at scale: random puzzles run
//! through a simulated core (the real gateware clocked cycle by cycle, bytes
//! in and out through its UART pins) and through that engine's model; the
//! outcome, the detail, every cell, the clock cycles and the passes (and for
//! the DNF engine the options stored) must all agree. With the clue engine,
//! each answer is also held against the DNF engine's model (when the puzzle
//! fits the DNF engine) and the software line solver ([`run`]).
//!
//! Puzzle `i` of a sweep depends only on the seed and `i` (not on the thread
//! that runs it, nor on the engine, as long as it fits both), so a sweep is
//! reproducible. A puzzle is the clues of a random picture (each cell filled
//! with probability `density`, rows and columns drawn independently from
//! the size range); one over the engine's capacity is drawn again. One DNF
//! puzzle in [`crate::random::EVERY_CELL_ONE_IN`] is sent with every cell of every option
//! (the original host's encoding), the others with only the filled cells.
//!
//! Every disagreement is printed and written as a board.txt file (the
//! differences in its comments) that `nonohost send --sim`, `nonohost solve`
//! and `nonohost sweep --replay` read back.

mod inks;
mod run;

pub use inks::{failure_text as ink_failure_text, InkFailure, InkRun};
pub use run::{compare, compare_line_solvers, Core, Expected, Run, CLOCKS_PER_BIT};

use crate::puzzle::Puzzle;
use crate::report::plural;
use clap::builder::TypedValueParser as _;
use indicatif::ProgressBar;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::link::protocol::status::outcome;
use nonogram_sim::Backend;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Disagreement files written at most per sweep (all are counted and printed).
const MAX_FILES: usize = 100;

/// What a sweep runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub engine: Engine,
    /// Rows and columns are each drawn from this range.
    pub sizes: RangeInclusive<usize>,
    /// Puzzles to run.
    pub count: u64,
    /// Probability that a cell of the random picture is filled.
    pub density: f64,
    pub seed: u64,
    pub threads: usize,
    /// Where disagreements are written (`None`: nowhere).
    pub out: Option<PathBuf>,
    /// What steps the cores.
    pub backend: Backend,
    /// The clue engine's search budget, units of 2^20 cycles (0: line logic alone).
    pub budget: u16,
    /// The colour engine: colour puzzles of 1 to `inks` inks ([`sweep_inks`]);
    /// 1 sends black-and-white puzzles as boards of one ink ([`sweep`]).
    pub inks: usize,
}

/// What a sweep found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Puzzles run through the core and the model.
    pub puzzles: u64,
    pub solved: u64,
    pub stalled: u64,
    pub contradictions: u64,
    /// The clue engine's search: puzzles with several solutions, puzzles
    /// whose budget ran out, and puzzles that needed search at all.
    pub several: u64,
    pub gave_up: u64,
    pub searched: u64,
    /// Search nodes and backtracks (the model's counts), summed.
    pub nodes: u64,
    pub backtracks: u64,
    /// Puzzles sent with every cell of every option.
    pub every_cell: u64,
    /// Pictures drawn again because their puzzle was over the board's capacity.
    pub redrawn: u64,
    /// Puzzles given up after [`crate::random::ATTEMPTS`] draws over capacity.
    pub given_up: u64,
    /// Puzzles on which the core and the model (or the engines) disagree.
    pub disagreements: u64,
    /// Clue-engine puzzles also compared with the DNF engine's model.
    pub compared_with_dnf: u64,
    /// Options stored, summed over the puzzles.
    pub options: u64,
    /// Options read by the DNF solver (the model's count), summed.
    pub options_read: u64,
    /// Line visits (the model's count), summed.
    pub visits: u64,
    /// The engine's clock cycles as the core reported them, summed.
    pub solver_cycles: u64,
    /// Clock cycles simulated in all (UART in and out, and the solve).
    pub simulated_cycles: u64,
    /// Bytes sent to the core.
    pub bytes_sent: u64,
    /// Colour puzzles the software colour solver did not decide in its
    /// time, so only the core was held against the model.
    pub software_gave_up: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.puzzles += o.puzzles;
        self.solved += o.solved;
        self.stalled += o.stalled;
        self.contradictions += o.contradictions;
        self.several += o.several;
        self.gave_up += o.gave_up;
        self.searched += o.searched;
        self.nodes += o.nodes;
        self.backtracks += o.backtracks;
        self.every_cell += o.every_cell;
        self.redrawn += o.redrawn;
        self.given_up += o.given_up;
        self.disagreements += o.disagreements;
        self.compared_with_dnf += o.compared_with_dnf;
        self.options += o.options;
        self.options_read += o.options_read;
        self.visits += o.visits;
        self.solver_cycles += o.solver_cycles;
        self.simulated_cycles += o.simulated_cycles;
        self.bytes_sent += o.bytes_sent;
        self.software_gave_up += o.software_gave_up;
    }

    /// Counts a verdict's outcome and search.
    fn count_outcome(&mut self, outcome_code: u8, nodes: u64, backtracks: u64) {
        match outcome_code {
            outcome::SOLVED => self.solved += 1,
            outcome::STALLED => self.stalled += 1,
            outcome::SEVERAL => self.several += 1,
            outcome::GAVE_UP => self.gave_up += 1,
            _ => self.contradictions += 1,
        }
        self.searched += (nodes > 0) as u64;
        self.nodes += nodes;
        self.backtracks += backtracks;
    }

    /// The gateware's solver cycles per option read.
    pub fn cycles_per_option(&self) -> f64 {
        self.solver_cycles as f64 / self.options_read.max(1) as f64
    }

    /// Solver cycles besides half a cycle per option read (the filter reads
    /// two a cycle), per line visit.
    pub fn overhead_per_visit(&self) -> f64 {
        (self.solver_cycles as f64 - self.options_read as f64 / 2.0) / self.visits.max(1) as f64
    }
}

/// A puzzle on which the core and the model disagree.
#[derive(Clone, Debug)]
pub struct Failure {
    pub engine: Engine,
    pub puzzle: Puzzle,
    pub every_cell: bool,
    pub differences: Vec<String>,
    /// The file it was written to.
    pub file: Option<PathBuf>,
}

/// The board.txt text of a disagreement: the puzzle, with the differences,
/// the encoding and the picture in comments.
pub fn failure_text(failure: &Failure) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# nonohost sweep: the {} engine's simulated core, its reference model and the line solvers disagree\n",
        label(failure.engine)
    ));
    for d in &failure.differences {
        s.push_str(&format!("# - {d}\n"));
    }
    let sent = match (failure.engine, failure.every_cell) {
        (Engine::Clues | Engine::Probing, _) => "as clues (protocol v2)",
        (Engine::Colour, _) => "as colour clues (protocol v3)",
        (Engine::Dnf, true) => "with every cell of every option",
        (Engine::Dnf, false) => "with only the filled cells",
    };
    let engine = failure.engine.name();
    s.push_str(&format!(
        "# sent {sent} (replay: nonohost sweep --engine {engine} --replay FILE; nonohost send --sim --engine {engine}{} FILE)\n",
        if failure.every_cell { " --every-cell" } else { "" }
    ));
    if let Some(picture) = &failure.puzzle.picture {
        s.push_str("# the picture the clues come from:\n");
        for row in picture.chunks(failure.puzzle.width().max(1)) {
            let line: String = row.iter().map(|&b| if b { '#' } else { '.' }).collect();
            s.push_str(&format!("#   {line}\n"));
        }
    }
    s.push_str(&failure.puzzle.to_board_txt());
    s
}

/// A disagreement as a sweep keeps it: printed as it comes, written into
/// the output folder, listed in the summary.
pub trait Disagreement {
    /// Its file's name in the output folder, for puzzle `index` of the run.
    fn file_name(&self, config: &Config, index: u64) -> String;
    /// The file's text: the puzzle, with the differences in comments.
    fn text(&self) -> String;
    /// The puzzle it is about, for the printed heading.
    fn heading(&self) -> String;
    fn differences(&self) -> &[String];
    /// The file it was written to.
    fn file(&mut self) -> &mut Option<PathBuf>;
}

impl Disagreement for Failure {
    fn file_name(&self, config: &Config, index: u64) -> String {
        let (h, w) = (self.puzzle.height(), self.puzzle.width());
        format!(
            "sweep-{}-seed{}-{index}-{h}x{w}.txt",
            self.engine.name(),
            config.seed
        )
    }
    fn text(&self) -> String {
        failure_text(self)
    }
    fn heading(&self) -> String {
        format!(
            "{} ({}x{}, {} engine{})",
            self.puzzle.title.as_deref().unwrap_or(&self.puzzle.name),
            self.puzzle.height(),
            self.puzzle.width(),
            label(self.engine),
            if self.every_cell { ", every cell" } else { "" }
        )
    }
    fn differences(&self) -> &[String] {
        &self.differences
    }
    fn file(&mut self) -> &mut Option<PathBuf> {
        &mut self.file
    }
}

/// Writes a disagreement into `dir` (created if missing) under `name`.
pub fn write_failure(dir: &Path, name: &str, failure: &impl Disagreement) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    std::fs::write(&path, failure.text())?;
    Ok(path)
}

/// Keeps a disagreement: written into `config.out` (the first
/// `MAX_FILES`), printed through `progress`, and added to `failures`.
fn record<T: Disagreement>(
    failures: &Mutex<Vec<T>>,
    config: &Config,
    progress: &ProgressBar,
    index: u64,
    mut failure: T,
) {
    let mut list = failures.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dir) = config.out.as_deref().filter(|_| list.len() < MAX_FILES) {
        match write_failure(dir, &failure.file_name(config, index), &failure) {
            Ok(path) => *failure.file() = Some(path),
            Err(e) => progress.suspend(|| eprintln!("error: cannot write into {}: {e}", dir.display())),
        }
    }
    progress.suspend(|| {
        eprintln!("DISAGREEMENT on {}:", failure.heading());
        failure.differences().iter().for_each(|d| eprintln!("  {d}"));
        if let Some(file) = failure.file() {
            eprintln!("  written to {}", file.display());
        }
    });
    list.push(failure);
}

/// Runs a sweep on `config.threads` threads, each with its own core,
/// advancing `progress` per puzzle. Disagreements are printed as they come
/// (through `progress`) and written into `config.out`. Fails only when a
/// core cannot be started.
pub fn sweep(config: &Config, progress: &ProgressBar) -> std::io::Result<(Stats, Vec<Failure>)> {
    let failures = Mutex::new(Vec::new());
    let stats = on_threads(config, progress, |core, index, stats| {
        let (drawn, redrawn) =
            crate::random::random_puzzle(config.engine, config.seed, index, &config.sizes, config.density);
        stats.redrawn += redrawn;
        let Some((puzzle, every_cell)) = drawn else {
            stats.given_up += 1;
            return;
        };
        let run = core.run(&puzzle, every_cell);
        stats.puzzles += 1;
        stats.every_cell += every_cell as u64;
        stats.compared_with_dnf += run.compared_with_dnf as u64;
        stats.count_outcome(run.expected.outcome, run.expected.nodes, run.expected.backtracks);
        stats.options += run.expected.options as u64;
        stats.options_read += run.expected.options_read;
        stats.visits += run.expected.visits;
        stats.solver_cycles += run.reply.as_ref().map_or(0, |r| r.cycles as u64);
        stats.simulated_cycles += run.simulated_cycles;
        stats.bytes_sent += run.bytes_sent;
        if run.differences.is_empty() {
            return;
        }
        stats.disagreements += 1;
        let failure = Failure {
            engine: config.engine,
            puzzle,
            every_cell,
            differences: run.differences,
            file: None,
        };
        record(&failures, config, progress, index, failure);
    })?;
    Ok((stats, failures.into_inner().unwrap_or_else(|e| e.into_inner())))
}

/// The colour engine's sweep of colour puzzles of 1 to `config.inks` inks
/// ([`inks`]), as [`sweep`] runs black-and-white ones.
pub fn sweep_inks(config: &Config, progress: &ProgressBar) -> std::io::Result<(Stats, Vec<InkFailure>)> {
    let failures = Mutex::new(Vec::new());
    let stats = on_threads(config, progress, |core, index, stats| {
        let puzzle = crate::random::random_colour_puzzle(
            config.seed,
            index,
            &config.sizes,
            config.density,
            config.inks,
        );
        let run = core.run_inks(&puzzle);
        let v = &run.verdict;
        stats.puzzles += 1;
        stats.count_outcome(v.outcome, v.nodes, v.backtracks);
        stats.visits += v.visits;
        stats.solver_cycles += v.cycles;
        stats.simulated_cycles += run.simulated_cycles;
        stats.bytes_sent += run.bytes_sent;
        stats.software_gave_up += run.software_gave_up as u64;
        if run.differences.is_empty() {
            return;
        }
        stats.disagreements += 1;
        let failure = InkFailure {
            puzzle,
            differences: run.differences,
            file: None,
        };
        record(&failures, config, progress, index, failure);
    })?;
    Ok((stats, failures.into_inner().unwrap_or_else(|e| e.into_inner())))
}

/// Runs `one(core, index, stats)` for puzzles 0..`config.count` on
/// `config.threads` threads, each with its own core, advancing `progress`
/// per puzzle; returns the stats summed. Fails only when a core cannot be
/// started.
fn on_threads<F>(config: &Config, progress: &ProgressBar, one: F) -> std::io::Result<Stats>
where
    F: Fn(&mut Core, u64, &mut Stats) + Sync,
{
    let cores = (0..config.threads.max(1))
        .map(|_| Core::new(config.engine, config.backend).map(|c| c.with_budget(config.budget)))
        .collect::<std::io::Result<Vec<Core>>>()?;
    let next_index = AtomicU64::new(0);
    let parts: Vec<Stats> = std::thread::scope(|scope| {
        let handles: Vec<_> = cores
            .into_iter()
            .map(|mut core| {
                let (next_index, one) = (&next_index, &one);
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    loop {
                        let index = next_index.fetch_add(1, Ordering::Relaxed);
                        if index >= config.count {
                            break;
                        }
                        one(&mut core, index, &mut stats);
                        progress.inc(1);
                    }
                    stats
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a sweep thread panicked"))
            .collect()
    });
    let mut total = Stats::default();
    parts.iter().for_each(|p| total.add(p));
    Ok(total)
}

/// Parses `N`, `A..=B`, `A..B` (B excluded) or `A-B` (B included).
pub fn parse_sizes(s: &str) -> Result<RangeInclusive<usize>, String> {
    let bad = || format!("not a size range: {s:?} (write N, A..=B or A-B, for example 6..=15)");
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let (lo, hi) = if let Some((a, b)) = s.split_once("..=") {
        (number(a)?, number(b)?)
    } else if let Some((a, b)) = s.split_once("..") {
        let b = number(b)?;
        (number(a)?, b.checked_sub(1).ok_or_else(bad)?)
    } else if let Some((a, b)) = s.split_once('-') {
        (number(a)?, number(b)?)
    } else {
        let n = number(s)?;
        (n, n)
    };
    let max = nonogram_hdl::clue::clue_model::MAX_SIDE;
    if lo == 0 || lo > hi || hi > max {
        return Err(format!("sizes must be within 1..={max} and not empty: {s:?}"));
    }
    Ok(lo..=hi)
}

/// The engine's name in sentences: "DNF", "clue" or "probing clue".
pub(crate) fn label(engine: Engine) -> &'static str {
    match engine {
        Engine::Dnf => "DNF",
        Engine::Clues => "clue",
        Engine::Probing => "probing clue",
        Engine::Colour => "colour",
    }
}

/// `nonohost sweep`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The engine whose core is swept: dnf (protocol v1, the default
    /// bitstream), clues (protocol v2, also checked against the DNF
    /// engine's model and the software line solver), probing (the 32×32
    /// clue engine that probes before every branch, checked the same way),
    /// or colour (protocol v3: each puzzle a board of one ink, checked
    /// against the colour engine's model and the same way).
    #[arg(long, default_value = "dnf", value_parser = crate::random::parse_engine)]
    pub engine: Engine,
    /// What steps the cores: `verilator` (the emitted Verilog, built once
    /// and cached; what the board runs, 60 to 120 times faster), `rusthdl`
    /// (RustHDL's simulation), or `auto`: Verilator when installed (or as
    /// NONOGRAM_SIM_BACKEND says).
    #[arg(long, default_value = "auto", value_parser = ["auto", "verilator", "rusthdl"])]
    pub backend: String,
    /// Puzzles to run.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Rows and columns of the random pictures.
    #[arg(long, default_value_t = 5, conflicts_with = "sizes", value_parser = clap::value_parser!(u16).range(1..=64).map(usize::from))]
    pub size: usize,
    /// Rows and columns drawn (each on its own) from this range instead: N, A..=B or A-B.
    #[arg(long, value_name = "RANGE", value_parser = parse_sizes)]
    pub sizes: Option<RangeInclusive<usize>>,
    /// Probability that a cell of a random picture is filled.
    #[arg(long, default_value_t = 0.5, value_parser = nonogram_sim::flags::probability)]
    pub density: f64,
    /// Seed of the random puzzles (puzzle i depends only on the seed and i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The clue engine's search budget in cycles (rounded up to a multiple
    /// of 2^20): where line logic stalls, the core searches, and the sweep
    /// checks its choices, cycles and answers against the model and the
    /// software solver. 0: line logic alone.
    #[arg(long, value_name = "CYCLES", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=crate::wire::MAX_BUDGET_CYCLES))]
    pub budget: u64,
    /// With --engine colour: colour puzzles of 1 to N inks (each cell
    /// inked with probability --density, its ink uniform), the core's reply
    /// held against the colour model byte for byte and the model's verdict
    /// against the software colour solver. 1: black-and-white puzzles as
    /// boards of one ink.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(1..=nonogram_hdl::colour::ENGINE_INKS as i64).map(usize::from))]
    pub inks: usize,
    /// Worker threads, each with its own simulated core (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024).map(usize::from))]
    pub threads: Option<usize>,
    /// Where disagreements are written as board.txt files.
    #[arg(long, value_name = "DIR", default_value = "sweep-failures")]
    pub out: PathBuf,
    /// Instead of random puzzles, run these puzzle files (in both encodings).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["count", "size", "sizes", "seed"])]
    pub replay: Vec<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `nonohost sweep`; 0 when the core and the model agree on every puzzle, 1 otherwise.
pub fn run(args: &Args) -> i32 {
    let backend = Backend::from_flag(&args.backend);
    if !args.replay.is_empty() {
        return replay(args.engine, backend, &args.replay, args.json);
    }
    let sizes = args.sizes.clone().unwrap_or(args.size..=args.size);
    let max = match args.engine {
        Engine::Dnf => nonogram_hdl::common::params::MAX_LINE,
        clues => clues.clue_side(),
    };
    if *sizes.end() > max {
        let e = format!(
            "the {} engine takes at most {max} rows and columns, not {}",
            args.engine.name(),
            sizes.end()
        );
        return crate::report::usage_error(&e, args.json);
    }
    if args.inks > 1 && args.engine != Engine::Colour {
        let e = format!("--inks {} needs --engine colour", args.inks);
        return crate::report::usage_error(&e, args.json);
    }
    if !(0.0..=1.0).contains(&args.density) {
        let e = format!("the density is a probability (0 to 1), not {}", args.density);
        return crate::report::usage_error(&e, args.json);
    }
    let config = Config {
        engine: args.engine,
        sizes: sizes.clone(),
        count: args.count,
        density: args.density,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(crate::random::default_threads).max(1),
        out: Some(args.out.clone()),
        backend,
        budget: crate::wire::budget_units(args.budget),
        inks: args.inks,
    };
    if config.inks > 1 {
        return run_inks(&config, args);
    }
    let (stats, failures, seconds) = match with_bar(&config, args, "puzzles", sweep) {
        Ok(result) => result,
        Err(code) => return code,
    };
    let size_text = if sizes.start() == sizes.end() {
        format!("{0}x{0}", sizes.start())
    } else {
        format!("{}..={} rows and columns", sizes.start(), sizes.end())
    };
    let ok = stats.disagreements == 0 && stats.given_up == 0;
    if args.json {
        let j = serde_json::json!({
            "status": if ok { "ok" } else { "disagreement" },
            "error": null,
            "engine": config.engine.name(),
            "backend": backend.name(),
            "sizes": [sizes.start(), sizes.end()],
            "density": config.density,
            "seed": config.seed,
            "budget_units": config.budget,
            "threads": config.threads,
            "stats": stats,
            // Options are the DNF engine's; the clue engine has none.
            "cycles_per_option": (config.engine == Engine::Dnf).then(|| stats.cycles_per_option()),
            "overhead_per_visit": (config.engine == Engine::Dnf).then(|| stats.overhead_per_visit()),
            "cycles_per_visit": stats.solver_cycles as f64 / stats.visits.max(1) as f64,
            "seconds": seconds,
            "puzzles_per_second": stats.puzzles as f64 / seconds,
            "simulated_cycles_per_second": stats.simulated_cycles as f64 / seconds,
            "failure_files": failures.iter().filter_map(|f| f.file.as_ref()).collect::<Vec<_>>(),
            "ok": ok,
        });
        println!("{j}");
    } else {
        println!(
            "sweep: the {} engine, {}, {size_text}, density {:.2}, seed {}, {} thread{}",
            label(config.engine),
            plural(stats.puzzles, "random puzzle", "random puzzles"),
            config.density,
            config.seed,
            config.threads,
            if config.threads == 1 { "" } else { "s" }
        );
        let every_cell = match config.engine {
            Engine::Dnf => format!("; {} sent with every cell", stats.every_cell),
            Engine::Clues | Engine::Probing | Engine::Colour => String::new(),
        };
        println!(
            "outcomes: {} solved, {} stalled, {} contradictions{every_cell}; {} pictures over capacity drawn again{}",
            stats.solved,
            stats.stalled,
            stats.contradictions,
            stats.redrawn,
            if stats.given_up > 0 {
                format!(", {} puzzles GIVEN UP (nothing fit)", stats.given_up)
            } else {
                String::new()
            }
        );
        if config.budget > 0 {
            println!(
                "search (budget {} cycles): {} needed it, {} and {} in all; {} with several solutions, {} gave up",
                (config.budget as u64) << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS,
                plural(stats.searched, "puzzle", "puzzles"),
                plural(stats.nodes, "node", "nodes"),
                plural(stats.backtracks, "backtrack", "backtracks"),
                stats.several,
                stats.gave_up
            );
        }
        let against = match config.engine {
            Engine::Dnf => "the core and the model",
            Engine::Clues | Engine::Probing | Engine::Colour => {
                "the core, the model, the DNF engine's model and the software line solver"
            }
        };
        println!(
            "disagreements between {against}: {}{}",
            stats.disagreements,
            if stats.disagreements > 0 {
                format!(" (written into {})", args.out.display())
            } else {
                String::new()
            }
        );
        match config.engine {
            Engine::Dnf => println!(
                "gateware: {} solver cycles for {} options read in {} line visits: {:.3} cycles per option ({:.2} per visit besides half a cycle per option); {:.1} options stored per puzzle",
                stats.solver_cycles,
                stats.options_read,
                stats.visits,
                stats.cycles_per_option(),
                stats.overhead_per_visit(),
                stats.options as f64 / stats.puzzles.max(1) as f64
            ),
            Engine::Clues | Engine::Probing | Engine::Colour => {
                println!(
                    "engines: {} of {} puzzles fit the DNF engine and were compared with its model too; all were compared with the software line solver",
                    stats.compared_with_dnf, stats.puzzles
                );
                println!(
                    "gateware: {} clue-engine cycles in {} line visits: {:.1} cycles per visit",
                    stats.solver_cycles,
                    stats.visits,
                    stats.solver_cycles as f64 / stats.visits.max(1) as f64
                );
            }
        }
        println!(
            "simulated on {}: {} clock cycles ({} bytes sent at {} clocks per bit) in {seconds:.1} s: {:.2} puzzles/s, {:.0} cycles/s",
            backend.name(),
            stats.simulated_cycles,
            stats.bytes_sent,
            CLOCKS_PER_BIT,
            stats.puzzles as f64 / seconds,
            stats.simulated_cycles as f64 / seconds
        );
    }
    if stats.given_up > 0 {
        let engine = match config.engine {
            Engine::Dnf => "--engine clues (64 a side, blocks rather than options), ",
            Engine::Clues | Engine::Probing | Engine::Colour => "",
        };
        eprintln!(
            "hint: {} drew no picture that fits the {} engine in {} tries ({size_text}, density {:.2}); \
             try {engine}a lower --density or a smaller --size",
            plural(stats.given_up, "puzzle", "puzzles"),
            label(config.engine),
            crate::random::ATTEMPTS,
            config.density
        );
    }
    if ok {
        crate::exit::SOLVED
    } else {
        crate::exit::ERROR
    }
}

/// `nonohost sweep --replay FILE...`: each file through the core and the
/// model (the DNF engine: in both encodings).
/// Runs `run` under a progress bar (unless quiet or JSON) and times it;
/// a core that cannot start is a usage error, its exit code in `Err`.
fn with_bar<F>(
    config: &Config,
    args: &Args,
    what: &str,
    run: fn(&Config, &ProgressBar) -> std::io::Result<(Stats, Vec<F>)>,
) -> Result<(Stats, Vec<F>, f64), i32> {
    let bar = crate::progress::bar(
        crate::progress::wanted(args.quiet, args.json),
        config.count,
        &format!("sweep {{wide_bar}} {{human_pos}}/{{human_len}} {what} ({{per_sec}}, {{eta}} left)"),
    );
    let start = std::time::Instant::now();
    let result = run(config, &bar);
    bar.finish_and_clear();
    match result {
        Ok((stats, failures)) => Ok((stats, failures, start.elapsed().as_secs_f64())),
        Err(e) => {
            let e = format!("cannot start the {} back end: {e}", config.backend.name());
            Err(crate::report::usage_error(&e, args.json))
        }
    }
}

/// `nonohost sweep --engine colour --inks N` (N > 1): runs and reports it.
fn run_inks(config: &Config, args: &Args) -> i32 {
    let (stats, failures, seconds) = match with_bar(config, args, "colour puzzles", sweep_inks) {
        Ok(result) => result,
        Err(code) => return code,
    };
    let ok = stats.disagreements == 0;
    let (lo, hi) = (config.sizes.start(), config.sizes.end());
    if args.json {
        let j = serde_json::json!({
            "status": if ok { "ok" } else { "disagreement" },
            "error": null,
            "engine": config.engine.name(),
            "inks": config.inks,
            "backend": config.backend.name(),
            "sizes": [lo, hi],
            "density": config.density,
            "seed": config.seed,
            "budget_units": config.budget,
            "threads": config.threads,
            "stats": stats,
            "seconds": seconds,
            "puzzles_per_second": stats.puzzles as f64 / seconds,
            "failure_files": failures.iter().filter_map(|f| f.file.as_ref()).collect::<Vec<_>>(),
            "ok": ok,
        });
        println!("{j}");
    } else {
        println!(
            "sweep: the colour engine, {} of 1 to {} inks, {lo}..={hi} rows and columns, ink density {:.2}, seed {}, {} thread{}",
            plural(stats.puzzles, "random colour puzzle", "random colour puzzles"),
            config.inks,
            config.density,
            config.seed,
            config.threads,
            if config.threads == 1 { "" } else { "s" }
        );
        println!(
            "outcomes: {} solved, {} several, {} stalled, {} contradictions, {} gave up; {} searched ({} and {})",
            stats.solved,
            stats.several,
            stats.stalled,
            stats.contradictions,
            stats.gave_up,
            stats.searched,
            plural(stats.nodes, "node", "nodes"),
            plural(stats.backtracks, "backtrack", "backtracks")
        );
        println!(
            "disagreements between the core, the colour model and the software colour solver: {}{}",
            stats.disagreements,
            if stats.disagreements > 0 {
                format!(" (written into {})", args.out.display())
            } else {
                String::new()
            }
        );
        if stats.software_gave_up > 0 {
            println!(
                "the software colour solver ran out of time on {}: those were checked against the model only",
                plural(stats.software_gave_up, "puzzle", "puzzles")
            );
        }
        println!(
            "simulated on {}: {} clock cycles ({} engine cycles in {} line visits) in {seconds:.1} s: {:.2} puzzles/s",
            config.backend.name(),
            stats.simulated_cycles,
            stats.solver_cycles,
            stats.visits,
            stats.puzzles as f64 / seconds
        );
    }
    i32::from(!ok)
}

fn replay(engine: Engine, backend: Backend, files: &[PathBuf], json: bool) -> i32 {
    let mut core = match Core::new(engine, backend) {
        Ok(core) => core,
        Err(e) => {
            let e = format!("cannot start the {} back end: {e}", backend.name());
            return crate::report::usage_error(&e, json);
        }
    };
    let mut ok = true;
    let mut results = Vec::new();
    for file in files {
        let name = file.display().to_string();
        let puzzle = match Puzzle::load(file) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
                results.push(serde_json::json!({"file": name, "error": e.to_string()}));
                continue;
            }
        };
        if let Err(e) = crate::wire::check_engine_capacity(&puzzle, engine) {
            eprintln!("{name}: not run: {e}");
            ok = false;
            results.push(serde_json::json!({"file": name, "error": e.to_string()}));
            continue;
        }
        let encodings: &[bool] = match engine {
            Engine::Dnf => &[false, true],
            Engine::Clues | Engine::Probing | Engine::Colour => &[false],
        };
        for &every_cell in encodings {
            let run = core.run(&puzzle, every_cell);
            let encoding = match (engine, every_cell) {
                (Engine::Clues | Engine::Probing | Engine::Colour, _) => "clues",
                (Engine::Dnf, true) => "every cell",
                (Engine::Dnf, false) => "filled cells",
            };
            let outcome_name = match run.expected.outcome {
                outcome::SOLVED => "solved",
                outcome::STALLED => "stalled",
                outcome::CONTRADICTION => "contradiction",
                _ => "refused",
            };
            if !json {
                if run.differences.is_empty() {
                    println!(
                        "{name} ({encoding}): the core and the model agree: {outcome_name}, {} solver cycles, {}",
                        run.expected.cycles,
                        plural(run.expected.passes as u64, "pass", "passes")
                    );
                } else {
                    println!("{name} ({encoding}): DISAGREEMENT");
                    for d in &run.differences {
                        println!("  {d}");
                    }
                }
            }
            ok &= run.differences.is_empty();
            results.push(serde_json::json!({
                "file": name,
                "engine": engine.name(),
                "every_cell": every_cell,
                "outcome": outcome_name,
                "cycles": run.expected.cycles,
                "passes": run.expected.passes,
                "differences": run.differences,
            }));
        }
    }
    if json {
        let status = if ok { "ok" } else { "disagreement" };
        println!(
            "{}",
            serde_json::json!({"status": status, "error": null, "replay": results, "ok": ok})
        );
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
    fn sizes_parse() {
        assert_eq!(parse_sizes("6..=15"), Ok(6..=15));
        assert_eq!(parse_sizes("6..16"), Ok(6..=15));
        assert_eq!(parse_sizes("6-15"), Ok(6..=15));
        assert_eq!(parse_sizes("7"), Ok(7..=7));
        assert_eq!(parse_sizes("16..=64"), Ok(16..=64));
        assert!(parse_sizes("0..=3").is_err());
        assert!(parse_sizes("9..=3").is_err());
        assert!(parse_sizes("5..=65").is_err());
        assert!(parse_sizes("five").is_err());
    }

    fn four_by_four() -> Puzzle {
        Puzzle::from_clues(
            "4x4",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        )
    }

    #[test]
    fn a_tampered_reply_is_a_disagreement() {
        for engine in [Engine::Dnf, Engine::Clues] {
            let mut core = Core::new(engine, Backend::RustHdl).unwrap();
            let run = core.run(&four_by_four(), false);
            assert_eq!(run.differences, Vec::<String>::new(), "{engine:?}");
            let mut reply = run.reply.unwrap();
            assert!(compare(&reply, &run.expected).is_empty());
            reply.cells[5] = reply.cells[5].map(|v| !v);
            reply.cycles += 1;
            let d = compare(&reply, &run.expected);
            assert_eq!(d.len(), 2, "{d:?}");
            assert!(d[0].starts_with("solver cycles"), "{d:?}");
            assert!(d[1].contains("(1, 1)"), "{d:?}");
        }
    }

    /// A disagreement, black-and-white or colour, is written into the
    /// output folder (a board.txt or a .non that reads back), and listed
    /// with its file.
    #[test]
    fn disagreements_are_written_and_listed() {
        let dir = std::env::temp_dir().join(format!("nonohost-record-{}", std::process::id()));
        let config = Config {
            engine: Engine::Clues,
            sizes: 4..=4,
            count: 1,
            density: 0.5,
            seed: 7,
            threads: 1,
            out: Some(dir.clone()),
            backend: Backend::RustHdl,
            budget: 0,
            inks: 3,
        };
        let progress = ProgressBar::hidden();
        let failures = Mutex::new(Vec::new());
        let failure = Failure {
            engine: Engine::Clues,
            puzzle: four_by_four(),
            every_cell: false,
            differences: vec!["a made-up difference".into()],
            file: None,
        };
        record(&failures, &config, &progress, 3, failure);
        let list = failures.into_inner().unwrap();
        let file = list[0].file.as_ref().expect("written");
        assert!(file.ends_with("sweep-clues-seed7-3-4x4.txt"), "{file:?}");
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains("# - a made-up difference"), "{text}");
        assert_eq!(Puzzle::parse("f.txt", &text, None).unwrap().width(), 4);

        let failures = Mutex::new(Vec::new());
        let puzzle = crate::random::random_colour_puzzle(7, 0, &(4..=4), 0.6, 3);
        let failure = InkFailure {
            puzzle,
            differences: vec!["another".into()],
            file: None,
        };
        record(&failures, &config, &progress, 5, failure);
        let file = failures.into_inner().unwrap()[0].file.clone().expect("written");
        assert!(file.ends_with("sweep-colour-seed7-5-4x4.non"), "{file:?}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("# - another"), "{text}");
        assert!(crate::puzzle::load_any(&file, None).is_ok(), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_wrong_clue_engine_answer_is_caught_by_both_line_solvers() {
        let puzzle = four_by_four();
        let mut run = Core::new(Engine::Clues, Backend::RustHdl)
            .unwrap()
            .run(&puzzle, false);
        assert!(run.compared_with_dnf);
        let (d, fits_dnf) = compare_line_solvers(&puzzle, &run.expected);
        assert!(d.is_empty() && fits_dnf, "{d:?}");
        run.expected.cells[2] = None;
        run.expected.visits += 100; // more than the DNF engine makes
        let (d, _) = compare_line_solvers(&puzzle, &run.expected);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(d[0].starts_with("engines: visits"), "{d:?}");
        assert!(d[1].starts_with("engines: 1 cells differ"), "{d:?}");
        assert!(d[2].starts_with("software line solver: 1 cells differ"), "{d:?}");
    }
}
