//! The colour solver against the colour model (line logic alone), cycle
//! for cycle, in RustHDL's simulator.

use super::*;
use crate::bench::boards::Rng;
use crate::bench::{tick, yosys_cell_count, yosys_check};
use crate::colour::line_logic::tests::clue_of;
use crate::colour::line_logic::{Block as Run, ColourSet};
use crate::colour::model::{line_logic, ColourVerdict};
use crate::link::protocol::status::outcome;

/// Writes a board's clues (after an abort), as the v3 parser does, and
/// runs the solve to its verdict; the rows read as the reply reads them.
fn run(uut: &mut ColourSolver, rows: &[Vec<Run>], columns: &[Vec<Run>], colours: usize) -> ColourVerdict {
    uut.abort.next = true;
    tick(uut, |u| &mut u.clock);
    uut.abort.next = false;
    let mut address = 0u64;
    for (line, clue) in rows.iter().chain(columns).enumerate() {
        uut.line_write.next = true;
        uut.line_number.next = (line as u64).into();
        uut.line_first.next = address.into();
        uut.line_blocks.next = (clue.len() as u64).into();
        for b in clue {
            uut.clue_write.next = true;
            uut.clue_address.next = address.into();
            uut.clue_length.next = (b.length as u64).into();
            uut.clue_ink.next = (b.ink as u64).into();
            tick(uut, |u| &mut u.clock);
            uut.line_write.next = false;
            address += 1;
        }
        tick(uut, |u| &mut u.clock);
        uut.clue_write.next = false;
        uut.line_write.next = false;
    }
    uut.rows.next = (rows.len() as u64).into();
    uut.columns.next = (columns.len() as u64).into();
    uut.inks.next = (colours as u64 - 1).into();
    uut.start.next = true;
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut guard = 0;
    while !uut.done.val() {
        tick(uut, |u| &mut u.clock);
        guard += 1;
        assert!(guard < 2_000_000, "no verdict");
    }
    let (o, detail) = (uut.outcome.val().to_u8(), uut.detail.val().to_u8());
    let mut verdict = ColourVerdict {
        outcome: o,
        detail,
        line: (o == outcome::CONTRADICTION).then_some(detail as usize),
        cells: vec![],
        second: vec![],
        passes: uut.passes.val().to_u8(),
        visits: 0,
        nodes: 0,
        backtracks: 0,
        cycles: uut.cycles.val().to_u64(),
    };
    assert_eq!(
        uut.board_cells.val().to_u64(),
        (rows.len() * columns.len()) as u64
    );
    if o != outcome::CONTRADICTION {
        assert_eq!(uut.all_decided.val(), o == outcome::SOLVED);
        for r in 0..rows.len() {
            uut.read_row.next = (r as u64).into();
            tick(uut, |u| &mut u.clock);
            let word = uut.row_word.val();
            verdict.cells.extend((0..columns.len()).map(|c| {
                (0..colours).fold(0 as ColourSet, |set, colour| {
                    set | (word.get_bit(32 * colour + c) as ColourSet) << colour
                })
            }));
        }
    }
    verdict
}

/// What the model says of the same board, in the terms `run` can see.
fn expected(rows: &[Vec<Run>], columns: &[Vec<Run>], colours: usize) -> ColourVerdict {
    let mut v = line_logic(rows, columns, colours);
    v.visits = 0;
    if v.outcome == outcome::CONTRADICTION {
        v.cells.clear();
    }
    v
}

/// A random board: the clues of a random picture of up to `side`×`side`
/// cells with up to 4 inks, now and then with a block made longer (often
/// no solution) or an ink changed.
fn random_board(rng: &mut Rng, side: u64) -> (Vec<Vec<Run>>, Vec<Vec<Run>>, usize) {
    let (rows, columns) = (1 + rng.below(side) as usize, 1 + rng.below(side) as usize);
    let inks = 1 + rng.below(4) as u8;
    let background = 20 + rng.below(60);
    let picture: Vec<u8> = (0..rows * columns)
        .map(|_| {
            if rng.below(100) < background {
                0
            } else {
                1 + rng.below(inks as u64) as u8
            }
        })
        .collect();
    let mut row_clues: Vec<Vec<Run>> = picture.chunks(columns).map(clue_of).collect();
    let mut column_clues: Vec<Vec<Run>> = (0..columns)
        .map(|c| clue_of(&(0..rows).map(|r| picture[r * columns + c]).collect::<Vec<u8>>()))
        .collect();
    match rng.below(6) {
        0 => {
            let r = rng.below(rows as u64) as usize;
            if let Some(b) = row_clues[r].first_mut() {
                b.length += 1;
            }
        }
        1 => {
            let c = rng.below(columns as u64) as usize;
            if let Some(b) = column_clues[c].last_mut() {
                b.ink = 1 + (b.ink % inks);
            }
        }
        _ => {}
    }
    (row_clues, column_clues, inks as usize + 1)
}

fn solver() -> ColourSolver {
    let mut uut = ColourSolver::default();
    uut.connect_all();
    uut
}

/// Boards whose verdicts are known: one line logic solves, one with no
/// fill in row 0, one it cannot decide (two red cells on either diagonal).
#[test]
fn decides_small_boards_as_the_model() {
    let b = |length, ink| Run { length, ink };
    let mut uut = solver();
    let cases = [
        (
            vec![vec![b(2, 1), b(1, 2)], vec![b(2, 2)], vec![b(1, 1)]],
            vec![vec![b(1, 1), b(1, 1)], vec![b(1, 1), b(1, 2)], vec![b(2, 2)]],
            3,
            outcome::SOLVED,
        ),
        (
            vec![vec![b(3, 1)], vec![]],
            vec![vec![b(1, 1)], vec![b(1, 1)]],
            2,
            outcome::CONTRADICTION,
        ),
        (
            vec![vec![b(1, 1)]; 2],
            vec![vec![b(1, 1)]; 2],
            2,
            outcome::STALLED,
        ),
    ];
    for (rows, columns, colours, want) in cases {
        let got = run(&mut uut, &rows, &columns, colours);
        assert_eq!(got.outcome, want);
        assert_eq!(got, expected(&rows, &columns, colours));
    }
}

/// 120 random boards up to 32×32 with up to 4 inks, one solver after
/// another without a reset: the outcome, DETAIL, every cell's colours,
/// the passes and the cycles are the model's.
#[test]
fn narrows_random_boards_as_the_model() {
    let mut rng = Rng(0x5eed_c010_42);
    let mut uut = solver();
    let mut seen = [0; 3];
    for case in 0..120 {
        let side = if case % 4 == 0 { 32 } else { 12 };
        let (rows, columns, colours) = random_board(&mut rng, side);
        let want = expected(&rows, &columns, colours);
        let got = run(&mut uut, &rows, &columns, colours);
        assert_eq!(
            got,
            want,
            "case {case}: {}×{}, {colours} colours",
            rows.len(),
            columns.len()
        );
        seen[want.outcome as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 5), "every outcome met: {seen:?}");
}

/// yosys maps it for the iCE40, with its block RAMs where they belong.
#[test]
fn verilog_synthesises() {
    let uut = solver();
    if let Some(log) = yosys_check(&uut, "colour_solver") {
        let count = |cell| yosys_cell_count(&log, cell);
        let (luts, carries, brams) = (count("SB_LUT4"), count("SB_CARRY"), count("SB_RAM40_4K"));
        println!("colour solver: {luts} LUT4s, {carries} carry cells, {brams} block RAMs");
        // The line solver's forward store 4, the board 10 (160-bit words),
        // the clue store 5 (10-bit blocks) and its line table 2 (17 bits).
        assert_eq!(brams, 21, "block RAMs of the colour solver");
        // 4 208 LUT4s and 691 carry cells on 2026-11-28, 2 359 of them the
        // line solver's.
        assert!(
            luts <= 4_500 && carries <= 750,
            "{luts} LUT4s, {carries} carry cells"
        );
    }
}
