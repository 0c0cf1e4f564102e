use super::*;
use crate::bench::boards::{dense_picture, lines_of, random_15x15, random_clues, Rng};
use crate::bench::{tick, yosys_check};
use crate::dnf::model::{self, Verdict};
use crate::link::protocol::status::outcome;

/// What the solver produced for one board.
#[derive(Debug, PartialEq)]
pub(crate) struct Run {
    pub outcome: u8,
    pub detail: u8,
    pub cells: Vec<Option<bool>>,
    pub passes: u8,
    pub cycles: u64,
}

fn cycle(b: &mut Solver) {
    tick(b, |b| &mut b.clock);
}

/// Loads a board's options into the store (after an abort), waits out
/// the clear and starts the solve.
fn load_and_start(b: &mut Solver, rows: usize, columns: usize, lines: &[Vec<u64>]) {
    b.rows.next = (rows as u64).into();
    b.columns.next = (columns as u64).into();
    for (line, options) in lines.iter().enumerate() {
        for &o in options {
            b.append.next = true;
            b.append_data.next = o.into();
            cycle(b);
        }
        b.append.next = false;
        b.line_end.next = true;
        b.line_end_line.next = (line as u64).into();
        b.line_end_count.next = (options.len() as u64).into();
        cycle(b);
        b.line_end.next = false;
    }
    // The board memory is cleared in the 32 cycles after the abort.
    for _ in 0..32 {
        cycle(b);
    }
    b.start.next = true;
    cycle(b);
    b.start.next = false;
}

/// Runs a started solve to its verdict and reads the rows out.
fn finish(b: &mut Solver, rows: usize, columns: usize) -> Run {
    let mut guard = 0u64;
    while !b.done.val() {
        cycle(b);
        guard += 1;
        assert!(guard < 50_000_000, "the solver never finished");
    }
    cycle(b);
    let mut cells = vec![];
    for _ in 0..rows {
        let (k, v) = (b.top_known.val().to_u64(), b.top_value.val().to_u64());
        cells.extend((0..columns).map(|c| (k >> c & 1 == 1).then_some(v >> c & 1 == 1)));
        b.next_row.next = true;
        cycle(b);
        b.next_row.next = false;
        cycle(b);
        cycle(b);
    }
    Run {
        outcome: b.outcome.val().to_u8(),
        detail: b.contradiction_line.val().to_u8(),
        cells,
        passes: b.passes.val().to_u8(),
        cycles: b.cycles.val().to_u64(),
    }
}

fn new_solver() -> Solver {
    let mut b = Solver::default();
    b.connect_all();
    b.abort.next = true;
    cycle(&mut b);
    b.abort.next = false;
    b
}

pub(crate) fn run(rows: usize, columns: usize, lines: &[Vec<u64>]) -> Run {
    let mut b = new_solver();
    load_and_start(&mut b, rows, columns, lines);
    finish(&mut b, rows, columns)
}

fn compare(verdict: &Verdict, run: &Run) {
    assert_eq!(run.outcome, verdict.outcome, "outcome");
    if verdict.outcome == outcome::CONTRADICTION {
        assert_eq!(run.detail, verdict.detail, "contradiction line");
    }
    assert_eq!(run.cells, verdict.cells, "cells");
    assert_eq!(run.passes, verdict.passes, "passes");
    assert_eq!(run.cycles, verdict.cycles, "cycles");
}

fn check(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Run {
    let lines = lines_of(rows, columns);
    let verdict = model::solve(rows.len(), columns.len(), &lines);
    let run = run(rows.len(), columns.len(), &lines);
    compare(&verdict, &run);
    run
}

#[test]
fn solves_the_original_boards_like_the_model() {
    let x = vec![
        vec![11],
        vec![1, 7, 1],
        vec![2, 5, 2],
        vec![3, 3, 3],
        vec![4, 1, 4],
        vec![5, 5],
        vec![4, 1, 4],
        vec![3, 3, 3],
        vec![2, 5, 2],
        vec![1, 7, 1],
        vec![11],
    ];
    let boards: Vec<(&str, Vec<Vec<usize>>, Vec<Vec<usize>>)> = vec![
        (
            "4x4",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        ),
        (
            "D",
            vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
            vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
        ),
        (
            "heart",
            vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
            vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
        ),
        ("X", x.clone(), x),
    ];
    for (name, rows, columns) in boards {
        let run = check(&rows, &columns);
        assert_eq!(run.outcome, outcome::SOLVED, "{name}");
        println!("{name}: {} cycles, {} passes", run.cycles, run.passes);
    }
}

#[test]
fn reports_stalled_and_contradiction() {
    let run = check(&[vec![1], vec![1]], &[vec![1], vec![1]]);
    assert_eq!(run.outcome, outcome::STALLED);
    let run = check(&[vec![2], vec![]], &[vec![], vec![1]]);
    assert_eq!(run.outcome, outcome::CONTRADICTION);
    // Rows fix everything, a column disagrees: a contradiction, not "solved".
    let run = check(&[vec![1], vec![1]], &[vec![2], vec![]]);
    assert_eq!(run.outcome, outcome::SOLVED);
    let run = check(&[vec![1, 1], vec![]], &[vec![1], vec![], vec![]]);
    assert_eq!(run.outcome, outcome::CONTRADICTION);
}

#[test]
fn full_size_lines_and_random_pictures_match_the_model() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
    let mut outcomes = [0usize; 3];
    for trial in 0..14 {
        // Full-size lines: dense pictures, so that they fit the store.
        let (r, c) = match trial {
            0 | 1 => dense_picture(&mut rng, 32, 32),
            2 => dense_picture(&mut rng, 1, 32),
            3 => dense_picture(&mut rng, 32, 1),
            4 => dense_picture(&mut rng, 32, 20),
            _ => {
                let (rows, columns) = (1 + rng.below(12) as usize, 1 + rng.below(12) as usize);
                let density = 40 + rng.below(30);
                random_clues(&mut rng, rows, columns, density)
            }
        };
        let run = check(&r, &c);
        outcomes[run.outcome as usize] += 1;
    }
    println!("solved, contradiction, stalled: {outcomes:?}");
    assert!(
        outcomes[0] > 0 && outcomes[2] > 0,
        "the sample covers solved and stalled boards"
    );
}

/// An abort at every cycle of a 15×15's solve (and the cycles after its
/// verdict), then the heart: the abandoned solve leaves nothing behind
/// (no visit runs on, no write reaches the cleared board or the store),
/// no verdict comes out for it after the abort, and the heart's run is
/// the model's, cycle for cycle.
#[test]
fn an_abort_at_every_cycle_of_a_solve_leaves_nothing_behind() {
    let (first_rows, first_columns) = random_15x15();
    let first = lines_of(&first_rows, &first_columns);
    let first_cycles = model::solve(15, 15, &first).cycles;
    let heart_rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
    let heart_columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
    let heart = lines_of(&heart_rows, &heart_columns);
    let verdict = model::solve(6, 7, &heart);
    let mut failures = vec![];
    for delay in 0..first_cycles + 8 {
        let mut b = new_solver();
        load_and_start(&mut b, 15, 15, &first);
        for _ in 0..delay {
            cycle(&mut b);
        }
        b.abort.next = true;
        cycle(&mut b);
        b.abort.next = false;
        // Nothing of the old board may come out while the new one loads.
        let mut stale = b.done.val();
        b.rows.next = 6u64.into();
        for _ in 0..40 {
            cycle(&mut b);
            stale |= b.done.val();
        }
        load_and_start(&mut b, 6, 7, &heart);
        let run = finish(&mut b, 6, 7);
        let right = run.outcome == verdict.outcome
            && run.cells == verdict.cells
            && run.cycles == verdict.cycles
            && run.passes == verdict.passes;
        if stale || !right {
            failures.push((delay, stale, run.cycles));
        }
    }
    println!(
        "{} abort instants tested in a {first_cycles}-cycle solve",
        first_cycles + 8
    );
    assert_eq!(
        failures,
        vec![],
        "(abort delay, stale verdict, heart's cycles) that went wrong"
    );
}

#[test]
fn verilog_synthesises() {
    let mut uut = Solver::default();
    uut.connect_all();
    yosys_check(&uut, "solver");
}
