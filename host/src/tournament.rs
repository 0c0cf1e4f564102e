//! `nonohost tournament`: the benchmark of the TAAI/TCGA computer nonogram
//! tournaments. Random 25×25 pictures (each cell filled with probability ½,
//! from a fixed seed, puzzle i depending only on the seed and i), each run
//! through the board's reference model (what the clue engine answers, and
//! its exact cycle count, so the board's time at 100 MHz) and through the
//! software solver (line logic, probing and search, asked for two solutions
//! so that it decides uniqueness), timed puzzle by puzzle in the same run.
//!
//! The board searches where line logic stalls, within its budget (set
//! here with `--budget`): it decides a puzzle alone when it proves the
//! solution unique, finds a second one, or finds none. A puzzle whose budget
//! ran out counts as undecided, and its whole budget as board time.

use crate::puzzle::Puzzle;
use crate::solver::{Budget, Solver};
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_model;
use nonogram_hdl::link::protocol::status::outcome;
use std::time::{Duration, Instant};

/// The board's clock.
const BOARD_HZ: f64 = 100e6;

/// `nonohost tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Puzzles to run.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// Rows and columns of the pictures (the tournaments use 25).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub size: u16,
    /// Probability that a cell is filled.
    #[arg(long, default_value_t = 0.5, value_parser = nonogram_sim::flags::probability)]
    pub density: f64,
    /// Seed of the pictures.
    #[arg(long, default_value_t = 2011)]
    pub seed: u64,
    /// The board's search budget per puzzle, in cycles (rounded up to a
    /// multiple of 2^20; the default is 1.0 s at 100 MHz).
    #[arg(long, value_name = "CYCLES", default_value_t = 96 << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS,
          value_parser = clap::value_parser!(u64).range(0..=crate::wire::MAX_BUDGET_CYCLES))]
    pub budget: u64,
    /// Seconds the software solver may spend on one puzzle before it gives up on it.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS", value_parser = nonogram_sim::flags::positive_seconds)]
    pub max_time: f64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What one side did with the puzzles.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Side {
    /// Decided: solved with a unique solution.
    pub unique: u64,
    /// Decided: several solutions.
    pub several: u64,
    /// Decided: no solution.
    pub none: u64,
    /// Not decided: the budget ran out (the board), or the time ran out (software).
    pub undecided: u64,
    /// Seconds per puzzle, in puzzle order.
    #[serde(skip)]
    pub seconds: Vec<f64>,
    pub total_seconds: f64,
    pub median_seconds: f64,
    pub max_seconds: f64,
}

impl Side {
    fn add(&mut self, seconds: f64) {
        self.seconds.push(seconds);
    }

    fn finish(&mut self) {
        let mut sorted = self.seconds.clone();
        sorted.sort_by(f64::total_cmp);
        self.total_seconds = sorted.iter().sum();
        self.median_seconds = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        self.max_seconds = sorted.last().copied().unwrap_or(0.0);
    }
}

/// The results of a tournament run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Results {
    pub puzzles: u64,
    /// The board's model: line logic on the clue engine, time from its cycles.
    pub board: Side,
    pub board_cycles: u64,
    /// The board's search nodes and backtracks, summed.
    pub board_nodes: u64,
    pub board_backtracks: u64,
    /// The software solver, timed on this machine.
    pub software: Side,
    pub software_nodes: u64,
}

/// Puzzle `index` of a tournament with `seed`.
pub fn puzzle(seed: u64, index: u64, size: usize, density: f64) -> Puzzle {
    let (drawn, _) = crate::random::random_puzzle(Engine::Clues, seed, index, &(size..=size), density);
    drawn.expect("a square picture up to 64 fits the clue engine").0
}

/// Runs the tournament, one puzzle after another on this thread.
pub fn run_tournament(args: &Args) -> Results {
    let mut results = Results::default();
    let mut solver = Solver::new();
    let limit = Duration::from_secs_f64(args.max_time);
    for index in 0..args.count {
        let puzzle = puzzle(args.seed, index, args.size as usize, args.density);
        results.puzzles += 1;

        let budget = crate::wire::budget_units(args.budget);
        let verdict = clue_model::search(&puzzle.rows, &puzzle.columns, budget);
        results.board_cycles += verdict.cycles;
        results.board_nodes += verdict.nodes;
        results.board_backtracks += verdict.backtracks;
        results.board.add(verdict.cycles as f64 / BOARD_HZ);
        match verdict.outcome {
            outcome::SOLVED => results.board.unique += 1,
            outcome::SEVERAL => results.board.several += 1,
            outcome::CONTRADICTION => results.board.none += 1,
            _ => results.board.undecided += 1,
        }

        let start = Instant::now();
        solver.set_budget(Budget {
            deadline: Some(start + limit),
            ..Budget::default()
        });
        let found = solver.count_solutions(&puzzle.rows, &puzzle.columns, 2);
        results.software.add(start.elapsed().as_secs_f64());
        results.software_nodes += found.nodes;
        match (found.gave_up, found.count) {
            (true, _) => results.software.undecided += 1,
            (false, 0) => results.software.none += 1,
            (false, 1) => results.software.unique += 1,
            (false, _) => results.software.several += 1,
        }
    }
    results.board.finish();
    results.software.finish();
    results
}

/// Runs `nonohost tournament`; 0 unless the arguments are wrong.
pub fn run(args: &Args) -> i32 {
    let results = run_tournament(args);
    let (b, s) = (&results.board, &results.software);
    if args.json {
        let j = serde_json::json!({
            "status": "ok",
            "count": args.count,
            "size": args.size,
            "density": args.density,
            "seed": args.seed,
            "max_time": args.max_time,
            "budget_cycles": (crate::wire::budget_units(args.budget) as u64) << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS,
            "board_clock_hz": BOARD_HZ,
            "results": results,
        });
        println!("{j}");
        return crate::exit::SOLVED;
    }
    println!(
        "tournament: {} random {}x{} puzzles, cells filled with probability {}, seed {}",
        results.puzzles, args.size, args.size, args.density, args.seed
    );
    println!(
        "board (clue engine's model: line logic, then depth-first search, budget {} cycles): \
         {} decided ({} unique, {} several, {} without solution), {} gave up",
        (crate::wire::budget_units(args.budget) as u64) << nonogram_hdl::clue::clue_model::BUDGET_UNIT_BITS,
        b.unique + b.several + b.none,
        b.unique,
        b.several,
        b.none,
        b.undecided
    );
    println!(
        "  {} cycles, {} search nodes, {} backtracks: {:.3} s at 100 MHz in all; per puzzle median {:.3} ms, max {:.3} ms",
        results.board_cycles,
        results.board_nodes,
        results.board_backtracks,
        b.total_seconds,
        b.median_seconds * 1e3,
        b.max_seconds * 1e3
    );
    let (bt, st) = (b.total_seconds, s.total_seconds);
    println!(
        "board time / software time: {:.4} ({})",
        bt / st.max(1e-12),
        if bt < st {
            "the board is faster in total"
        } else {
            "the software is faster in total"
        }
    );
    println!(
        "software (nonohost solve: line logic, probing, search for 2 solutions): \
         {} decided ({} unique, {} several, {} without solution), {} gave up after {} s",
        s.unique + s.several + s.none,
        s.unique,
        s.several,
        s.none,
        s.undecided,
        args.max_time
    );
    println!(
        "  {} search nodes; {:.3} s on this machine in all; per puzzle median {:.2} ms, max {:.2} ms",
        results.software_nodes,
        s.total_seconds,
        s.median_seconds * 1e3,
        s.max_seconds * 1e3
    );
    crate::exit::SOLVED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(count: u64, size: u16) -> Args {
        Args {
            count,
            size,
            density: 0.5,
            seed: 2011,
            max_time: 60.0,
            budget: 10 << 20,
            json: false,
        }
    }

    #[test]
    fn the_board_and_the_software_decide_the_same() {
        let r = run_tournament(&args(40, 8));
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
    }

    #[test]
    fn the_puzzles_depend_only_on_the_seed_and_the_index() {
        let a = puzzle(7, 3, 25, 0.5);
        let b = puzzle(7, 3, 25, 0.5);
        let c = puzzle(8, 3, 25, 0.5);
        assert_eq!((&a.rows, &a.columns), (&b.rows, &b.columns));
        assert_ne!(a.rows, c.rows);
        assert_eq!((a.height(), a.width()), (25, 25));
    }
}
