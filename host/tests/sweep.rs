//! The simulated gateware core against the reference model on random
//! puzzles (a small version of `nonohost sweep`), and the disagreement files.

use indicatif::ProgressBar;
use nonogram_hdl::board_model::Engine;
use nonogram_sim::{verilated, Backend};
use nonohost::sweep::{self, Config, Failure};
use nonohost::Puzzle;
use std::path::PathBuf;
use std::process::Command;

/// RustHDL, and Verilator when installed (CI installs it and must test it):
/// the sweep holds the emitted Verilog to the model as well.
fn backends() -> Vec<Backend> {
    if verilated::verilator_version().is_some() {
        vec![Backend::RustHdl, Backend::Verilator]
    } else {
        assert!(std::env::var_os("CI").is_none(), "CI must sweep on Verilator too");
        eprintln!("skipped the Verilator back end: verilator is not installed");
        vec![Backend::RustHdl]
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_core_agrees_with_the_model_on_random_puzzles() {
    let out = temp_dir("sweep-test-failures");
    let start = std::time::Instant::now();
    let mut all = sweep::Stats::default();
    // 5×5 pictures, then larger ones with rows and columns drawn apart; on
    // Verilator, many more (it runs them in about the same time).
    let runs = backends().into_iter().flat_map(|backend| {
        let scale = if backend == Backend::Verilator { 25 } else { 1 };
        [(5..=5, 40 * scale, backend), (6..=8, 4 * scale, backend)]
    });
    for (sizes, count, backend) in runs {
        let config = Config {
            engine: Engine::Dnf,
            sizes,
            count,
            density: 0.5,
            seed: 20,
            threads: 2,
            out: Some(out.clone()),
            backend,
            budget: 0,
            inks: 1,
        };
        let (stats, failures) = sweep::sweep(&config, &ProgressBar::hidden()).unwrap();
        for f in &failures {
            eprintln!("{}", sweep::failure_text(f));
        }
        assert_eq!(stats.disagreements, 0, "{stats:?}");
        assert_eq!(stats.puzzles, count);
        assert_eq!(stats.solved + stats.stalled, count, "{stats:?}");
        all.puzzles += stats.puzzles;
        all.solved += stats.solved;
        all.stalled += stats.stalled;
        all.every_cell += stats.every_cell;
        all.solver_cycles += stats.solver_cycles;
        all.options_read += stats.options_read;
    }
    assert!(!out.exists(), "no disagreement, no file");
    // Both outcomes and both encodings were exercised.
    assert!(all.solved > 0 && all.stalled > 0, "{all:?}");
    assert!(all.every_cell > 0 && all.every_cell < all.puzzles, "{all:?}");
    // At least one cycle per option read.
    assert!(all.solver_cycles > all.options_read, "{all:?}");
    eprintln!(
        "{} puzzles through the core in {:.1} s",
        all.puzzles,
        start.elapsed().as_secs_f64()
    );
}

/// The clue engine's core against its model, the DNF engine's model and the
/// software line solver: small boards that fit both engines, then boards
/// only the clue engine takes.
#[test]
fn the_clue_core_agrees_with_its_model_and_the_other_line_solvers() {
    let out = temp_dir("sweep-test-clue-failures");
    let runs = backends().into_iter().flat_map(|backend| {
        let scale = if backend == Backend::Verilator { 25 } else { 1 };
        [
            (5..=5, 24 * scale, true, backend),
            (33..=64, 2 * scale, false, backend),
        ]
    });
    for (sizes, count, all_fit_dnf, backend) in runs {
        let config = Config {
            engine: Engine::Clues,
            sizes,
            count,
            density: 0.5,
            seed: 21,
            threads: 2,
            out: Some(out.clone()),
            backend,
            budget: 0,
            inks: 1,
        };
        let (stats, failures) = sweep::sweep(&config, &ProgressBar::hidden()).unwrap();
        for f in &failures {
            eprintln!("{}", sweep::failure_text(f));
        }
        assert_eq!(stats.disagreements, 0, "{stats:?}");
        assert_eq!((stats.puzzles, stats.every_cell), (count, 0), "{stats:?}");
        assert_eq!(
            stats.compared_with_dnf,
            if all_fit_dnf { count } else { 0 },
            "{stats:?}"
        );
        assert_eq!(stats.solved + stats.stalled, count, "{stats:?}");
        assert!(stats.solved > 0 || !all_fit_dnf, "{stats:?}");
        // At least the line solver's 2k + 2 steps a visit.
        assert!(stats.solver_cycles > 2 * stats.visits, "{stats:?}");
    }
    assert!(!out.exists(), "no disagreement, no file");
}

/// The clue engine's search: where line logic stalls, the core searches,
/// and every choice, cycle and answer must be the model's (and the answers
/// the software solver's).
#[test]
fn the_clue_core_searches_as_its_model_does() {
    let out = temp_dir("sweep-test-search-failures");
    for backend in backends() {
        let count = if backend == Backend::Verilator { 400 } else { 30 };
        let config = Config {
            engine: Engine::Clues,
            sizes: 5..=10,
            count,
            density: 0.5,
            seed: 22,
            threads: 2,
            out: Some(out.clone()),
            backend,
            budget: 10,
            inks: 1,
        };
        let (stats, failures) = sweep::sweep(&config, &ProgressBar::hidden()).unwrap();
        for f in &failures {
            eprintln!("{}", sweep::failure_text(f));
        }
        assert_eq!(stats.disagreements, 0, "{stats:?}");
        assert_eq!(stats.stalled, 0, "a budget leaves no stall: {stats:?}");
        assert!(stats.searched > count / 5 && stats.several > 0, "{stats:?}");
        assert!(stats.nodes >= stats.searched && stats.backtracks > 0, "{stats:?}");
    }
    assert!(!out.exists(), "no disagreement, no file");
}

#[test]
fn a_disagreement_is_written_as_a_puzzle_nonohost_reads_back() {
    let (drawn, _) = nonohost::random::random_puzzle(Engine::Dnf, 3, 17, &(6..=8), 0.5);
    let (puzzle, _) = drawn.expect("a 6..=8 picture fits the board");
    let failure = Failure {
        engine: Engine::Dnf,
        puzzle: puzzle.clone(),
        every_cell: true,
        differences: vec![
            "solver cycles: core 1, model 2".into(),
            "outcome: core 0, model 2".into(),
        ],
        file: None,
    };
    let dir = temp_dir("sweep-test-written");
    let path = sweep::write_failure(&dir, "one", &failure).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# - solver cycles: core 1, model 2\n"), "{text}");
    assert!(text.contains("--every-cell"), "{text}");
    let back = Puzzle::load(&path).unwrap();
    assert_eq!((&back.rows, &back.columns), (&puzzle.rows, &puzzle.columns));

    // The written file replays through the core (which agrees with the model on it).
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["sweep", "--replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.matches("the core and the model agree").count(), 2, "{out}");
    // And `solve` reads it too.
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["solve", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(0) | Some(3)), "{o:?}");
}

#[test]
fn the_sweep_command() {
    let out = temp_dir("sweep-test-command");
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["sweep", "--count", "4", "--size", "4", "--json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["stats"]["puzzles"], 4);
    assert_eq!(j["stats"]["disagreements"], 0);
    assert_eq!(j["ok"], true);
    assert!(j["cycles_per_option"].as_f64().unwrap() > 1.0);
    assert_eq!(j["engine"], "dnf");

    for bad in [
        &["--sizes", "0..=3"][..],
        &["--sizes", "6..=40"],
        &["--sizes", "6..=65", "--engine", "clues"],
        &["--engine", "both"],
        &["--density", "1.5"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
            .arg("sweep")
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{bad:?}");
    }
    // A real puzzle replayed through the clue engine's core.
    let heart = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/heart6x7.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["sweep", "--engine", "clues", "--replay", heart])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("(clues): the core and the model agree: solved"),
        "{text}"
    );
    // A file that is not a puzzle: an error.
    let o = Command::new(env!("CARGO_BIN_EXE_nonohost"))
        .args(["sweep", "--replay", "/nonexistent/puzzle.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

/// The colour engine on colour puzzles of 1 to 4 inks: the core's reply
/// byte for byte the colour model's, the model's verdict the software
/// colour solver's, line logic and search (Verilator; a few on RustHDL's
/// slower simulation without it).
#[test]
fn the_colour_core_agrees_on_colour_puzzles() {
    let out = temp_dir("sweep-test-colour-failures");
    let backend = *backends().last().unwrap();
    let (count, sizes) = if backend == Backend::Verilator {
        (150, 2..=12)
    } else {
        (4, 2..=5)
    };
    for budget in [0, 1] {
        let config = Config {
            engine: Engine::Colour,
            sizes: sizes.clone(),
            count,
            density: 0.6,
            seed: 28,
            threads: 2,
            out: Some(out.clone()),
            backend,
            budget,
            inks: 4,
        };
        let (stats, failures) = sweep::sweep_inks(&config, &ProgressBar::hidden()).unwrap();
        for f in &failures {
            eprintln!("{}", sweep::ink_failure_text(f));
        }
        assert_eq!(stats.disagreements, 0, "{stats:?}");
        assert_eq!(stats.puzzles, count, "{stats:?}");
        assert_eq!(stats.software_gave_up, 0, "{stats:?}");
        if budget == 0 {
            assert!(stats.solved > 0 && stats.stalled > 0, "{stats:?}");
        } else if backend == Backend::Verilator {
            assert!(stats.searched > 10 && stats.several > 0, "{stats:?}");
        }
    }
    assert!(!out.exists(), "no disagreement, no file");
}
