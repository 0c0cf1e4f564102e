//! The clue engine against its model, in RustHDL's simulator.

use super::*;
use crate::bench::boards::{coin_clues, random_clues, Rng};
use crate::bench::{tick, yosys_cell_count, yosys_check};
use crate::clue::clue_model::{self, ClueVerdict};
use crate::dnf::model::clues_of_picture;
use crate::link::protocol::status::outcome;

/// What the block answered, in the model's terms, and its cycle count.
fn run(
    uut: &mut ClueSolver,
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
) -> (ClueVerdict, u64) {
    run_in(uut, row_clues, column_clues, budget, false, false)
}

/// [`run`] in first-solution mode, probing mode, or both.
fn run_in(
    uut: &mut ClueSolver,
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
    first: bool,
    probe: bool,
) -> (ClueVerdict, u64) {
    uut.abort.next = true;
    tick(uut, |u| &mut u.clock);
    uut.abort.next = false;
    uut.first_only.next = first;
    uut.probe.next = probe;
    load_and_start(uut, row_clues, column_clues, budget);
    finish(uut, row_clues.len(), column_clues.len())
}

/// Writes a board's clues (after an abort) and starts the solve.
fn load_and_start(uut: &mut ClueSolver, row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], budget: u16) {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let mut address = 0u64;
    for (line, clue) in row_clues.iter().chain(column_clues).enumerate() {
        uut.line_write.next = true;
        uut.line_number.next = (line as u64).into();
        uut.line_first.next = address.into();
        uut.line_blocks.next = (clue.len() as u64).into();
        for &b in clue {
            uut.clue_write.next = true;
            uut.clue_address.next = address.into();
            uut.clue_length.next = (b as u64).into();
            tick(uut, |u| &mut u.clock);
            uut.line_write.next = false;
            address += 1;
        }
        tick(uut, |u| &mut u.clock);
        uut.clue_write.next = false;
        uut.line_write.next = false;
    }
    uut.rows.next = (rows as u64).into();
    uut.columns.next = (columns as u64).into();
    uut.budget.next = (budget as u64).into();
    uut.start.next = true;
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
}

/// Runs a started solve to its verdict and reads the rows as the reply does.
fn finish(uut: &mut ClueSolver, rows: usize, columns: usize) -> (ClueVerdict, u64) {
    let mut guard = 0;
    while !uut.done.val() {
        tick(uut, |u| &mut u.clock);
        guard += 1;
        assert!(guard < 5_000_000, "no verdict");
    }
    let mut verdict = ClueVerdict {
        rows,
        columns,
        outcome: uut.outcome.val().to_u8(),
        detail: uut.detail.val().to_u8(),
        cells: vec![],
        differs: vec![],
        visits: 0,
        passes: uut.passes.val().to_u8(),
        cycles: uut.cycles.val().to_u64(),
        nodes: uut.nodes.val().to_u64(),
        backtracks: uut.backtracks.val().to_u64(),
        probes: 0,
        rounds: 0,
        forced: 0,
        cache_hits: 0,
    };
    let cycles = uut.cycles.val().to_u64();
    // As the reply reads them: Known words only if some cell is unknown;
    // DIFFERS words for SEVERAL.
    let all_known = uut.all_known.val();
    for r in 0..rows {
        let mut words = [u64::MAX; 3];
        for (plane, word) in words.iter_mut().enumerate() {
            if (plane == 0 && all_known) || (plane == 2 && verdict.outcome != outcome::SEVERAL) {
                continue;
            }
            uut.read_row.next = (r as u64).into();
            uut.read_value.next = plane == 1;
            uut.read_differs.next = plane == 2;
            tick(uut, |u| &mut u.clock);
            *word = uut.row_word.val().to_u64();
        }
        verdict
            .cells
            .extend((0..columns).map(|c| (words[0] >> c & 1 == 1).then_some(words[1] >> c & 1 == 1)));
        if verdict.outcome == outcome::SEVERAL {
            verdict
                .differs
                .extend((0..columns).map(|c| words[2] >> c & 1 == 1));
        }
    }
    uut.read_differs.next = false;
    (verdict, cycles)
}

fn check(uut: &mut ClueSolver, row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> (ClueVerdict, u64) {
    check_search(uut, row_clues, column_clues, 0)
}

/// The block against `clue_model::search` with a budget.
fn check_search(
    uut: &mut ClueSolver,
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
) -> (ClueVerdict, u64) {
    let expected = clue_model::search(row_clues, column_clues, budget);
    let (got, cycles) = run(uut, row_clues, column_clues, budget);
    let what = format!("rows {row_clues:?} columns {column_clues:?} budget {budget}");
    assert_eq!(got.outcome, expected.outcome, "outcome, {what}");
    assert_eq!(got.passes, expected.passes, "passes, {what}");
    assert_eq!(got.cycles, expected.cycles, "cycles, {what}");
    assert_eq!(
        (got.nodes, got.backtracks),
        (expected.nodes, expected.backtracks),
        "nodes and backtracks, {what}"
    );
    assert_eq!(got.detail, expected.detail, "detail, {what}");
    if expected.outcome != outcome::CONTRADICTION {
        assert_eq!(got.cells, expected.cells, "cells, {what}");
        assert_eq!(got.differs, expected.differs, "differs, {what}");
    }
    (expected, cycles)
}

/// The block against `clue_model::run` in probing mode (first-solution
/// mode or not).
fn check_probing(
    uut: &mut ClueSolver,
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
    first: bool,
) -> ClueVerdict {
    let mode = clue_model::Mode {
        budget,
        first,
        probe: true,
    };
    let expected = clue_model::run(row_clues, column_clues, mode);
    let (got, _) = run_in(uut, row_clues, column_clues, budget, first, true);
    let what = format!("rows {row_clues:?} columns {column_clues:?} budget {budget} first {first}");
    assert_eq!(
        (got.outcome, got.detail, got.nodes, got.backtracks),
        (
            expected.outcome,
            expected.detail,
            expected.nodes,
            expected.backtracks
        ),
        "outcome, detail, nodes, backtracks: {what}"
    );
    assert_eq!(got.cycles, expected.cycles, "cycles, {what}");
    assert_eq!(got.passes, expected.passes, "passes, {what}");
    if expected.outcome != outcome::CONTRADICTION {
        assert_eq!(got.cells, expected.cells, "cells, {what}");
        assert_eq!(got.differs, expected.differs, "differs, {what}");
    }
    expected
}

/// Probing: random small boards (and pairs of clues from two pictures,
/// often with no solution), in both modes, give what the model gives,
/// probe for probe and cycle for cycle, on the narrow solver the probing
/// image builds and on the wide one.
#[test]
fn probes_like_the_model() {
    let mut uut = new_solver();
    let mut rng = Rng(0x9b05_688c_2b3e_6c1f);
    let mut outcomes = [0usize; 8];
    let mut nodes = 0;
    let trials: usize = std::env::var("PROBE_TRIALS").map_or(80, |t| t.parse().unwrap());
    let side: u64 = std::env::var("PROBE_SIDE").map_or(11, |t| t.parse().unwrap());
    for trial in 0..trials {
        let (rows, columns) = (2 + rng.below(side) as usize, 2 + rng.below(side) as usize);
        let (r, mut c) = coin_clues(&mut rng, rows, columns);
        if trial % 4 == 3 {
            c = coin_clues(&mut rng, rows, columns).1;
        }
        uut.narrow.next = trial / 2 % 2 == 0;
        let v = check_probing(&mut uut, &r, &c, 4095, trial % 2 == 1);
        outcomes[v.outcome as usize] += 1;
        nodes += v.nodes;
    }
    println!("outcomes {outcomes:?}, {nodes} nodes");
    assert!(
        outcomes[0] > 0 && outcomes[1] > 0 && outcomes[6] > 0,
        "{outcomes:?}"
    );
    assert!(nodes > 0);
}

/// Probing on boards that need search (the model makes at least 3
/// branches: rounds, forced cells, kept cells, backtracks), sparse as the
/// tournaments' hard puzzles, in both modes, on the narrow solver the
/// probing image builds. `PROBE_BOARDS` sets how many.
#[test]
fn probes_boards_that_need_search_like_the_model() {
    let mut uut = new_solver();
    uut.narrow.next = true;
    let mut rng = Rng(0x1f83_d9ab_5be0_cd19);
    // (12 boards of 10..18 a side took 393 s here: 168 nodes, 7
    // backtracks, 365 forced cells, no disagreement.)
    let boards: usize = std::env::var("PROBE_BOARDS").map_or(4, |t| t.parse().unwrap());
    let side: u64 = std::env::var("PROBE_SIDE").map_or(4, |t| t.parse().unwrap());
    let (mut found, mut nodes, mut backtracks, mut forced) = (0, 0, 0, 0);
    let mut outcomes = [0usize; 8];
    while found < boards {
        let (rows, columns) = (8 + rng.below(side) as usize, 8 + rng.below(side) as usize);
        let density = 35 + rng.below(11);
        let (r, c) = random_clues(&mut rng, rows, columns, density);
        let first = found % 2 == 0;
        let mode = clue_model::Mode {
            budget: 4095,
            first,
            probe: true,
        };
        let model = clue_model::run(&r, &c, mode);
        if model.nodes < 3 {
            continue;
        }
        found += 1;
        let v = check_probing(&mut uut, &r, &c, 4095, first);
        (nodes, backtracks, forced) = (nodes + v.nodes, backtracks + v.backtracks, forced + model.forced);
        outcomes[v.outcome as usize] += 1;
    }
    println!(
        "outcomes {outcomes:?}: {nodes} nodes, {backtracks} backtracks, {forced} cells forced by probes"
    );
    assert!(backtracks > 0 && forced > 0);
}

/// Search: random small boards (and pairs of clues from two pictures, often
/// with no solution) give what the model gives, choice for choice.
#[test]
fn searches_like_the_model() {
    let mut uut = new_solver();
    let mut rng = Rng(0x5ea_5c4);
    let mut outcomes = [0usize; 8];
    // Two solutions; then a budget of 0 stalls.
    check_search(&mut uut, &[vec![1], vec![1]], &[vec![1], vec![1]], 1);
    check_search(&mut uut, &[vec![1], vec![1]], &[vec![1], vec![1]], 0);
    for trial in 0..60 {
        let (rows, columns) = (2 + rng.below(9) as usize, 2 + rng.below(9) as usize);
        let (r, mut c) = coin_clues(&mut rng, rows, columns);
        if trial % 3 == 2 {
            c = coin_clues(&mut rng, rows, columns).1;
        }
        let (v, cycles) = check_search(&mut uut, &r, &c, 4095);
        outcomes[v.outcome as usize] += 1;
        if trial < 5 {
            println!(
                "{rows}x{columns}: outcome {}, {} nodes, {cycles} cycles",
                v.outcome, v.nodes
            );
        }
    }
    println!("outcomes {outcomes:?}");
    assert!(
        outcomes[0] > 0 && outcomes[1] > 0 && outcomes[6] > 0,
        "{outcomes:?}"
    );
}

fn new_solver() -> ClueSolver {
    let mut uut = ClueSolver::default();
    uut.connect_all();
    uut
}

#[test]
fn solves_the_original_boards_like_the_model() {
    let mut uut = new_solver();
    let heart = (
        vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
        vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
    );
    let four = (
        vec![vec![2], vec![1, 1], vec![3], vec![1]],
        vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
    );
    for (name, (r, c)) in [("4x4", four), ("heart", heart)] {
        let (v, cycles) = check(&mut uut, &r, &c);
        assert_eq!(v.outcome, outcome::SOLVED);
        println!("{name}: {} visits, {cycles} cycles", v.visits);
    }
    // A full-size board: a staircase, solvable by line logic.
    let picture: Vec<bool> = (0..64 * 64).map(|i| i % 64 <= i / 64).collect();
    let (r, c) = clues_of_picture(64, 64, &picture);
    let clock = std::time::Instant::now();
    let (v, cycles) = check(&mut uut, &r, &c);
    let seconds = clock.elapsed().as_secs_f64();
    println!("RustHDL simulation: {:.0} cycles/s", cycles as f64 / seconds);
    assert_eq!(v.outcome, outcome::SOLVED);
    assert!(v.cells.iter().zip(&picture).all(|(c, p)| *c == Some(*p)));
    println!("64x64: {} visits, {cycles} cycles", v.visits);
    check(&mut uut, &[vec![2], vec![]], &[vec![], vec![1]]);
    check(&mut uut, &[vec![1], vec![1]], &[vec![1], vec![1]]);
    check(&mut uut, &[vec![3]], &[vec![1], vec![1]]);
}

#[test]
fn random_puzzles_match_the_model() {
    let mut uut = new_solver();
    let mut rng = Rng(0x5eed_0b0a);
    let mut outcomes = [0usize; 3];
    for trial in 0..12 {
        let (rows, columns) = match trial {
            0 => (64, 64), // sparse enough for the clue store: see below
            1 => (1, 64),
            2 => (64, 3),
            _ => (1 + rng.below(20) as usize, 1 + rng.below(20) as usize),
        };
        let density = if trial == 0 { 20 } else { 40 + rng.below(40) };
        let (r, c) = random_clues(&mut rng, rows, columns, density);
        if r.iter().chain(&c).map(Vec::len).sum::<usize>() > 1 << CLUE_STORE_BITS {
            continue;
        }
        let (v, cycles) = check(&mut uut, &r, &c);
        println!(
            "{rows}x{columns}: outcome {}, {} visits, {cycles} cycles",
            v.outcome, v.visits
        );
        outcomes[v.outcome as usize] += 1;
    }
    assert!(outcomes[0] > 0 && outcomes[2] > 0, "{outcomes:?}");
}

/// An abort at every cycle of a solve that searches, then a 4×4: the
/// abandoned solve leaves nothing behind, no verdict comes out for it after
/// the abort, and the 4×4's run is the model's, cycle for cycle.
#[test]
fn an_abort_at_every_cycle_of_a_search_leaves_nothing_behind() {
    // A small board with several solutions, found by search.
    let mut rng = Rng(0xab0_47);
    let (first_rows, first_columns, first) = loop {
        let (rows, columns) = (3 + rng.below(3) as usize, 3 + rng.below(3) as usize);
        let (r, c) = coin_clues(&mut rng, rows, columns);
        let v = clue_model::search(&r, &c, 4095);
        if v.nodes >= 2 && v.outcome == outcome::SEVERAL && v.cycles < 1200 {
            break (r, c, v);
        }
    };
    let four_rows = vec![vec![2], vec![1, 1], vec![3], vec![1]];
    let four_columns = vec![vec![1], vec![1, 1], vec![1, 1], vec![3]];
    let expected = clue_model::search(&four_rows, &four_columns, 4095);
    let mut uut = new_solver();
    let mut failures = vec![];
    for delay in 0..first.cycles + 8 {
        uut.abort.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.abort.next = false;
        load_and_start(&mut uut, &first_rows, &first_columns, 4095);
        for _ in 0..delay {
            tick(&mut uut, |u| &mut u.clock);
        }
        uut.abort.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.abort.next = false;
        let mut stale = uut.done.val();
        for _ in 0..40 {
            tick(&mut uut, |u| &mut u.clock);
            stale |= uut.done.val();
        }
        load_and_start(&mut uut, &four_rows, &four_columns, 4095);
        let (got, cycles) = finish(&mut uut, 4, 4);
        let right =
            got.outcome == expected.outcome && got.cells == expected.cells && cycles == expected.cycles;
        if stale || !right {
            failures.push((delay, stale, cycles));
        }
    }
    println!(
        "{} abort instants tested in a {}-cycle solve with {} search nodes",
        first.cycles + 8,
        first.cycles,
        first.nodes
    );
    assert_eq!(
        failures,
        vec![],
        "(abort delay, stale verdict, 4×4's cycles) that went wrong"
    );
}

/// The engine's size as the two cores build it: each ties `narrow` and
/// `probe` to constants, so yosys builds one width and one search (the
/// solver alone, with both as inputs, builds every combination).
#[test]
fn verilog_synthesises() {
    use crate::clue::core::{ClueCore, ProbingCore};
    let mut wide = ClueCore::new(4);
    wide.connect_all();
    let mut narrow = ProbingCore::new(4);
    narrow.connect_all();
    let counts = |log: String| {
        (
            yosys_cell_count(&log, "SB_LUT4"),
            yosys_cell_count(&log, "SB_RAM40_4K"),
        )
    };
    if let Some(log) = yosys_check(&wide, "clue_core") {
        let (luts, brams) = counts(log);
        println!("clue core (64 a side, no probing): {luts} LUT4s, {brams} block RAMs");
        // The clue store, the board's two copies, the line solver's, the
        // undo trail (8) and the solution (4): 26, and the HX8K has 32.
        assert_eq!(brams, 26, "block RAMs of the clue core");
        // The engine took 3 838 LUT4s alone on 2026-11-25, and the whole
        // image 5 504 of the HX8K's 7 680 logic cells at 100 MHz with little
        // margin, so growth past this is a design decision, not an accident.
        // The core: 4 412 LUT4s on 2026-11-27.
        assert!(luts <= 4_700, "{luts} LUT4s: the clue core grew past its budget");
    }
    if let Some(log) = yosys_check(&narrow, "probing_core") {
        let (luts, brams) = counts(log);
        println!("probing core (32 a side): {luts} LUT4s, {brams} block RAMs");
        // The line solver's forward store needs 3 block RAMs narrow, not 4.
        assert_eq!(brams, 25, "block RAMs of the probing core");
        // 3 661 LUT4s on 2026-11-27 (the 64×64 core with probing: 6 501
        // logic cells placed, and no room left for 100 MHz).
        assert!(
            luts <= 3_900,
            "{luts} LUT4s: the probing core grew past its budget"
        );
    }
}
