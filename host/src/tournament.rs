//! `nonohost tournament`: the benchmark of the TAAI/TCGA/ICGA computer
//! nonogram tournaments. Every puzzle goes through the board's reference
//! model (what the clue engine answers, and its exact cycle count, so the
//! board's time at 100 MHz) and through the software solver, timed puzzle
//! by puzzle in the same run, one puzzle after another on one core.
//!
//! The puzzles: a tournament set (`--set FILE`, the official format: `$N`,
//! then the columns' clues and the rows', a line each, numbers separated by
//! tabs), or random pictures drawn from a seed.
//!
//! The task is the tournaments': any one solution counts (first-solution
//! mode); `--unique` asks both sides to decide uniqueness instead. A puzzle
//! the board's budget runs out on is unsolved by the board, and its whole
//! budget counts as board time. Every solution either side gives is checked
//! against the clues.

use crate::puzzle::Puzzle;
use crate::solver::{Budget, Solver};
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_model;
use nonogram_hdl::link::protocol::status::outcome;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The board's clock.
const BOARD_HZ: f64 = 100e6;

/// Puzzles per line of the breakdown by puzzle number.
const BAND: usize = 100;

/// `nonohost tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A tournament set in the official format (`$N`, then the columns' and
    /// the rows' clues, tab-separated); without it, random pictures.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// Puzzles to run (with --set: its first N; default all of it, or 1000 random).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: Option<u64>,
    /// Rows and columns of the random pictures (the tournaments use 25).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub size: u16,
    /// The share of filled cells in every random picture (an exact count);
    /// without it, the tournaments' ramp: from 0.50 in the first puzzle down
    /// to 0.35 in the last.
    #[arg(long, value_parser = nonogram_sim::flags::probability)]
    pub density: Option<f64>,
    /// Seed of the random pictures.
    #[arg(long, default_value_t = 2011)]
    pub seed: u64,
    /// Decide uniqueness (search for a second solution) instead of taking
    /// the first solution found, the tournaments' task.
    #[arg(long)]
    pub unique: bool,
    /// The board's engine (its cycle-exact model): `probing`, flash image
    /// 2's engine, which probes before every branch and takes boards up to
    /// 32×32; or `clues`, image 1's, up to 64×64. By default the one `send`
    /// picks: probing when every puzzle fits it.
    #[arg(long, value_parser = parse_clue_engine)]
    pub engine: Option<Engine>,
    /// The board's search budget per puzzle, in cycles (rounded up to a
    /// multiple of 2^20; the default is 1.0 s at 100 MHz).
    #[arg(long, value_name = "CYCLES", default_value_t = 96 << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS,
          value_parser = clap::value_parser!(u64).range(0..=crate::wire::MAX_BUDGET_CYCLES))]
    pub budget: u64,
    /// Seconds the software solver may spend on one puzzle before it gives up on it.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS", value_parser = nonogram_sim::flags::positive_seconds)]
    pub max_time: f64,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What one side did with the puzzles.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Side {
    /// A solution found (first-solution mode), or the only one (--unique).
    pub unique: u64,
    /// --unique: several solutions.
    pub several: u64,
    /// No solution.
    pub none: u64,
    /// Not decided: the budget ran out (the board), or the time ran out (software).
    pub undecided: u64,
    /// Seconds per puzzle, in puzzle order.
    #[serde(skip)]
    pub seconds: Vec<f64>,
    pub total_seconds: f64,
    pub median_seconds: f64,
    pub p99_seconds: f64,
    pub max_seconds: f64,
}

impl Side {
    fn add(&mut self, seconds: f64) {
        self.seconds.push(seconds);
    }

    fn finish(&mut self) {
        let mut sorted = self.seconds.clone();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len().max(1)) - 1;
            sorted.get(i).copied().unwrap_or(0.0)
        };
        self.total_seconds = sorted.iter().sum();
        self.median_seconds = at(0.5);
        self.p99_seconds = at(0.99);
        self.max_seconds = sorted.last().copied().unwrap_or(0.0);
    }

    /// Solved (a solution found, or uniqueness decided) and unsolved.
    pub fn solved(&self) -> u64 {
        self.unique + self.several + self.none
    }
}

/// The results of a tournament run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Results {
    pub puzzles: u64,
    /// The board's model: the clue engine's outcome and cycles.
    pub board: Side,
    pub board_cycles: u64,
    /// The board's search nodes and backtracks, summed.
    pub board_nodes: u64,
    pub board_backtracks: u64,
    /// The software solver, timed on this machine.
    pub software: Side,
    pub software_nodes: u64,
}

/// The tournaments' density for puzzle `index` of `count`: 0.50 falling
/// linearly to 0.35.
pub fn ramp_density(index: u64, count: u64) -> f64 {
    let at = if count > 1 {
        index as f64 / (count - 1) as f64
    } else {
        0.0
    };
    RAMP.0 + (RAMP.1 - RAMP.0) * at
}

/// The density ramp of the tournaments' generator, first puzzle to last.
pub const RAMP: (f64, f64) = (0.50, 0.35);

/// Puzzle `index` of `count` of a random tournament with `seed`: exactly
/// `density` (or the ramp's) × size² cells filled, rounded.
pub fn puzzle(seed: u64, index: u64, count: u64, size: usize, density: Option<f64>) -> Puzzle {
    let density = density.unwrap_or_else(|| ramp_density(index, count));
    let black = (density * (size * size) as f64).round() as usize;
    crate::random::picture_with_count(seed, index, size, black)
}

/// Reads a tournament set: `$N` headers, each followed by the columns'
/// clues and then the rows', one line each (numbers separated by tabs or
/// spaces; an empty line or `0` is an empty clue). The puzzles are square.
pub fn read_set(path: &Path) -> Result<Vec<Puzzle>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut puzzles = vec![];
    // (header line, name, its clue lines with their line numbers)
    let mut current: Option<(usize, String, Vec<(usize, &str)>)> = None;
    let mut finish = |entry: Option<(usize, String, Vec<(usize, &str)>)>| -> Result<(), String> {
        let Some((at, name, lines)) = entry else {
            return Ok(());
        };
        // Trailing blank lines belong to no clue.
        let mut lines = lines;
        while lines.len() % 2 == 1 && lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.pop();
        }
        if lines.is_empty() || lines.len() % 2 == 1 {
            return Err(format!(
                "{} line {at}: puzzle {name} has {} clue lines; a square puzzle has an even number (columns, then rows)",
                path.display(),
                lines.len()
            ));
        }
        let mut clues = vec![];
        for (n, line) in &lines {
            let mut clue = vec![];
            for word in line.split(['\t', ' ']).filter(|w| !w.is_empty()) {
                let block: usize = word
                    .parse()
                    .map_err(|_| format!("{} line {n}: `{word}` is not a block length", path.display()))?;
                if block > 0 {
                    clue.push(block);
                }
            }
            clues.push(clue);
        }
        let side = clues.len() / 2;
        let rows = clues.split_off(side);
        let puzzle = Puzzle::from_clues(&format!("{} ${name}", path.display()), rows, clues);
        if let Some(line) = (0..side).find(|&i| {
            let need = |c: &Vec<usize>| c.iter().sum::<usize>() + c.len().saturating_sub(1);
            need(&puzzle.rows[i]) > side || need(&puzzle.columns[i]) > side
        }) {
            return Err(format!(
                "{} line {at}: puzzle {name}: line {line}'s clue is longer than its {side} cells",
                path.display()
            ));
        }
        puzzles.push(puzzle);
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if let Some(name) = line.strip_prefix('$') {
            finish(current.take())?;
            current = Some((i + 1, name.trim().to_string(), vec![]));
        } else if let Some((_, _, lines)) = &mut current {
            lines.push((i + 1, line));
        } else if !line.trim().is_empty() {
            return Err(format!(
                "{} line {}: expected a `$N` puzzle header",
                path.display(),
                i + 1
            ));
        }
    }
    finish(current.take())?;
    if puzzles.is_empty() {
        return Err(format!("{}: no puzzles (no `$N` header)", path.display()));
    }
    Ok(puzzles)
}

/// Parses `--engine`: a clue engine, "clues" or "probing".
fn parse_clue_engine(s: &str) -> Result<Engine, String> {
    match crate::random::parse_engine(s)? {
        Engine::Dnf | Engine::Colour => {
            Err("the tournament runs a clue engine: write clues or probing".into())
        }
        engine => Ok(engine),
    }
}

/// The engine the board runs `puzzles` with: the one asked for, else
/// probing when every puzzle fits it (as `send` picks), else clues.
pub fn board_engine(args: &Args, puzzles: &[Puzzle]) -> Result<Engine, String> {
    let probing_fits = puzzles.iter().all(crate::send::fits_probing);
    let side = || {
        puzzles
            .iter()
            .map(|p| p.width().max(p.height()))
            .max()
            .unwrap_or(0)
    };
    match args.engine {
        Some(Engine::Probing) if !probing_fits => Err(format!(
            "the probing engine takes boards up to {0}x{0}, and these puzzles are up to {1}x{1}: \
             use --engine clues",
            Engine::Probing.clue_side(),
            side()
        )),
        Some(engine) => Ok(engine),
        None if probing_fits => Ok(Engine::Probing),
        None => Ok(Engine::Clues),
    }
}

/// Runs the tournament on `puzzles`, one after another on this thread;
/// `progress` hears of each puzzle done.
pub fn run_puzzles(
    args: &Args,
    puzzles: &[Puzzle],
    mut progress: impl FnMut(usize),
) -> Result<Results, String> {
    let probe = board_engine(args, puzzles)? == Engine::Probing;
    let mut results = Results::default();
    let mut solver = Solver::new();
    let limit = Duration::from_secs_f64(args.max_time);
    let budget = crate::wire::budget_units(args.budget);
    let first = !args.unique;
    for (index, puzzle) in puzzles.iter().enumerate() {
        results.puzzles += 1;
        let check = |side: &str, cells: &[bool]| {
            puzzle
                .check_solution(cells)
                .map_err(|e| format!("{}: the {side}'s solution breaks the clues: {e}", puzzle.name))
        };

        let mode = clue_model::Mode { budget, first, probe };
        let verdict = clue_model::run(&puzzle.rows, &puzzle.columns, mode);
        results.board_cycles += verdict.cycles;
        results.board_nodes += verdict.nodes;
        results.board_backtracks += verdict.backtracks;
        results.board.add(verdict.cycles as f64 / BOARD_HZ);
        match verdict.outcome {
            outcome::SOLVED | outcome::SEVERAL => {
                let cells: Vec<bool> = verdict.cells.iter().map(|c| c.unwrap_or(false)).collect();
                check("board", &cells)?;
                if verdict.outcome == outcome::SOLVED {
                    results.board.unique += 1;
                } else {
                    results.board.several += 1;
                }
            }
            outcome::CONTRADICTION => results.board.none += 1,
            _ => results.board.undecided += 1,
        }

        let start = Instant::now();
        solver.set_budget(Budget {
            deadline: Some(start + limit),
            ..Budget::default()
        });
        let found = solver.count_solutions(&puzzle.rows, &puzzle.columns, if first { 1 } else { 2 });
        results.software.add(start.elapsed().as_secs_f64());
        results.software_nodes += found.nodes;
        for cells in [&found.first, &found.second].into_iter().flatten() {
            check("software", cells)?;
        }
        match (found.gave_up, found.count) {
            (false, 0) => results.software.none += 1,
            (_, 1) if first => results.software.unique += 1,
            (true, _) => results.software.undecided += 1,
            (false, 1) => results.software.unique += 1,
            (false, _) => results.software.several += 1,
        }
        progress(index + 1);
    }
    results.board.finish();
    results.software.finish();
    Ok(results)
}

/// The puzzles `args` names.
fn load(args: &Args) -> Result<Vec<Puzzle>, String> {
    match &args.set {
        Some(path) => {
            let mut puzzles = read_set(path)?;
            puzzles.truncate(args.count.unwrap_or(u64::MAX).min(usize::MAX as u64) as usize);
            Ok(puzzles)
        }
        None => {
            let count = args.count.unwrap_or(1000);
            Ok((0..count)
                .map(|i| puzzle(args.seed, i, count, args.size as usize, args.density))
                .collect())
        }
    }
}

fn ms(seconds: f64) -> String {
    format!("{:.2} ms", seconds * 1e3)
}

/// Runs `nonohost tournament`: 0 when both sides solved every puzzle, 5
/// (gave up) when a side left some unsolved, 1 for a bad set file or a
/// solution that breaks its clues.
pub fn run(args: &Args) -> i32 {
    let puzzles = match load(args) {
        Ok(p) => p,
        Err(e) => return crate::report::usage_error(&e, args.json),
    };
    if let Err(e) = board_engine(args, &puzzles) {
        return crate::report::usage_error(&e, args.json);
    }
    let bar = crate::progress::bar(
        crate::progress::wanted(args.quiet, args.json),
        puzzles.len() as u64,
        "tournament {wide_bar} {pos}/{len} puzzles ({eta} left)",
    );
    let results = match run_puzzles(args, &puzzles, |n| bar.set_position(n as u64)) {
        Ok(r) => r,
        Err(e) => {
            bar.finish_and_clear();
            eprintln!("error: {e}");
            return crate::exit::ERROR;
        }
    };
    bar.finish_and_clear();
    let (b, s) = (&results.board, &results.software);
    let budget_cycles = (crate::wire::budget_units(args.budget) as u64) << clue_model::BUDGET_UNIT_BITS;
    let mode = if args.unique {
        "uniqueness"
    } else {
        "first solution"
    };
    let engine = if board_engine(args, &puzzles) == Ok(Engine::Probing) {
        "the probing engine's cycle-exact model (flash image 2's engine)"
    } else {
        "the clue engine's cycle-exact model, line logic then search"
    };
    let source = match &args.set {
        Some(p) => p.display().to_string(),
        None => format!(
            "random {}x{} pictures, {}, seed {}",
            args.size,
            args.size,
            match args.density {
                Some(d) => format!("{d} of the cells filled"),
                None => format!("the share of filled cells falling from {} to {}", RAMP.0, RAMP.1),
            },
            args.seed
        ),
    };
    // Board and software seconds by bands of puzzle numbers (the sets'
    // density falls with the number).
    let bands: Vec<serde_json::Value> = (0..puzzles.len())
        .step_by(BAND)
        .map(|from| {
            let to = (from + BAND).min(puzzles.len());
            serde_json::json!({
                "puzzles": [from + 1, to],
                "board_seconds": b.seconds[from..to].iter().sum::<f64>(),
                "software_seconds": s.seconds[from..to].iter().sum::<f64>(),
            })
        })
        .collect();
    if args.json {
        let j = serde_json::json!({
            "status": "ok",
            "source": source,
            "mode": mode,
            "board_engine": engine,
            "puzzles": results.puzzles,
            "board_solved": b.solved(),
            "board_seconds": b.total_seconds,
            "software_solved": s.solved(),
            "software_seconds": s.total_seconds,
            "max_time": args.max_time,
            "budget_cycles": budget_cycles,
            "board_clock_hz": BOARD_HZ,
            "by_puzzle_number": bands,
            "results": results,
        });
        println!("{j}");
    } else {
        println!("tournament: {} puzzles, {source}; {mode} mode", results.puzzles);
        println!(
            "board ({engine}, budget {budget_cycles} cycles): \
             {} of {} solved, {} gave up; {} cycles, {} search nodes, {} backtracks",
            b.solved(),
            results.puzzles,
            b.undecided,
            results.board_cycles,
            results.board_nodes,
            results.board_backtracks,
        );
        println!(
            "  at 100 MHz: {:.3} s in all; per puzzle median {}, p99 {}, max {}",
            b.total_seconds,
            ms(b.median_seconds),
            ms(b.p99_seconds),
            ms(b.max_seconds)
        );
        println!(
            "software (nonohost solve: line logic, probing, search, CaDiCaL past {} nodes): {} of {} solved, {} gave up after {} s; {} search nodes",
            crate::solver::sat::SAT_AFTER_NODES,
            s.solved(),
            results.puzzles,
            s.undecided,
            args.max_time,
            results.software_nodes
        );
        println!(
            "  on this machine: {:.3} s in all; per puzzle median {}, p99 {}, max {}",
            s.total_seconds,
            ms(s.median_seconds),
            ms(s.p99_seconds),
            ms(s.max_seconds)
        );
        if args.unique {
            println!(
                "  decided: board {} unique, {} several, {} none; software {} unique, {} several, {} none",
                b.unique, b.several, b.none, s.unique, s.several, s.none
            );
        }
        println!(
            "board time / software time: {:.4} (measured in this run)",
            b.total_seconds / s.total_seconds.max(1e-12)
        );
        if puzzles.len() > BAND {
            println!("by puzzle number: board s / software s");
            for band in &bands {
                println!(
                    "  {:>4}-{:<4} {:>9.3} {:>9.3}",
                    band["puzzles"][0],
                    band["puzzles"][1],
                    band["board_seconds"].as_f64().unwrap_or(0.0),
                    band["software_seconds"].as_f64().unwrap_or(0.0)
                );
            }
        }
    }
    if b.undecided + s.undecided > 0 {
        crate::exit::GAVE_UP
    } else {
        crate::exit::SOLVED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(count: u64, size: u16, unique: bool) -> Args {
        Args {
            set: None,
            count: Some(count),
            size,
            density: Some(0.5),
            seed: 2011,
            unique,
            engine: Some(Engine::Clues),
            max_time: 60.0,
            budget: 10 << 20,
            quiet: true,
            json: false,
        }
    }

    fn random(a: &Args) -> Results {
        run_puzzles(a, &load(a).unwrap(), |_| {}).unwrap()
    }

    /// As the tournaments' generator: an exact count of filled cells, from
    /// half the cells in the first puzzle to 35 % in the last.
    #[test]
    fn random_sets_ramp_the_filled_cells_from_half_to_35_percent() {
        let mut a = args(1000, 25, false);
        a.density = None;
        let filled = |p: &Puzzle| p.rows.iter().flatten().sum::<usize>();
        let set = load(&a).unwrap();
        assert_eq!(set.len(), 1000);
        assert_eq!(filled(&set[0]), 313);
        assert_eq!(
            filled(&set[499]),
            (625.0 * ramp_density(499, 1000)).round() as usize
        );
        assert_eq!(filled(&set[999]), 219);
        assert!(set.windows(2).all(|w| filled(&w[0]) >= filled(&w[1])));
        a.density = Some(0.4);
        assert!(load(&a).unwrap().iter().all(|p| filled(p) == 250));
    }

    #[test]
    fn the_board_and_the_software_decide_the_same() {
        let r = random(&args(40, 8, true));
        assert_eq!(r.puzzles, 40);
        let (b, s) = (&r.board, &r.software);
        assert_eq!(b.unique + b.several + b.none + b.undecided, 40);
        assert_eq!(s.unique + s.several + s.none + s.undecided, 40);
        // Random pictures always have a solution; on 8×8s both decide all,
        // and the same way.
        assert_eq!((b.none, s.none, s.undecided, b.undecided), (0, 0, 0, 0));
        assert_eq!((b.unique, b.several), (s.unique, s.several), "{r:?}");
        assert!(b.unique > 0 && b.several > 0, "8x8 at ½: both kinds: {r:?}");
        assert!(r.board_nodes > 0);
        assert_eq!(b.seconds.len(), 40);
        assert!((b.total_seconds - r.board_cycles as f64 / BOARD_HZ).abs() < 1e-9);
        // First-solution mode: every puzzle solved, never with more work.
        let f = random(&args(40, 8, false));
        assert_eq!((f.board.solved(), f.software.solved()), (40, 40));
        assert!(f.board_cycles <= r.board_cycles && f.board_nodes < r.board_nodes);
    }

    #[test]
    fn the_puzzles_depend_only_on_the_seed_and_the_index() {
        let a = puzzle(7, 3, 1000, 25, None);
        let b = puzzle(7, 3, 1000, 25, None);
        let c = puzzle(8, 3, 1000, 25, None);
        assert_eq!((&a.rows, &a.columns), (&b.rows, &b.columns));
        assert_ne!(a.rows, c.rows);
        assert_eq!((a.height(), a.width()), (25, 25));
    }

    fn set_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("nonohost-set-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn reads_the_official_set_format_with_crlf_and_names_bad_lines() {
        // A 2×2 (columns first): columns "1", "1"; rows "1", "1"; then a
        // 1×1 whose row is empty ("0").
        let path = set_file("ok", "$1\r\n1\r\n1\r\n1\r\n1\r\n$2\n0\n0\n");
        let set = read_set(&path).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(
            (set[0].rows.clone(), set[0].columns.clone()),
            (vec![vec![1]; 2], vec![vec![1]; 2])
        );
        assert_eq!(set[1].rows, vec![Vec::<usize>::new()]);
        for (name, text, want) in [
            ("odd", "$1\n1\n1\n1\n", "line 1: puzzle 1 has 3 clue lines"),
            ("word", "$1\n1\nx\n1\n1\n", "line 3: `x` is not a block length"),
            (
                "long",
                "$1\n3\n1\n1\n1\n",
                "line 1: puzzle 1: line 0's clue is longer",
            ),
            ("header", "1\n$1\n", "line 1: expected a `$N` puzzle header"),
            ("empty", "", "no puzzles"),
        ] {
            let path = set_file(name, text);
            let e = read_set(&path).unwrap_err();
            assert!(e.contains(want), "{name}: {e}");
            let _ = std::fs::remove_file(path);
        }
    }

    #[test]
    fn the_shipped_sets_first_puzzles_are_solved_and_checked() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tournament/icga2016.txt");
        if !path.exists() {
            eprintln!("skipped: {} is not there", path.display());
            return;
        }
        let set = read_set(&path).unwrap();
        assert_eq!(set.len(), 1000);
        assert!(set.iter().all(|p| (p.width(), p.height()) == (25, 25)));
        let mut a = args(20, 25, false);
        a.set = Some(path);
        let r = run_puzzles(&a, &set[..20], |_| {}).unwrap();
        assert_eq!((r.board.solved(), r.software.solved()), (20, 20), "{r:?}");
    }
}
