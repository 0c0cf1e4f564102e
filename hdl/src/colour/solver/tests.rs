//! The colour solver against the colour model (line logic alone), cycle
//! for cycle, in RustHDL's simulator.

use super::*;
use crate::bench::boards::{random_colour_board, Rng};
use crate::bench::{tick, yosys_cell_count, yosys_check};
use crate::clue::clue_model::{SEARCHED, TRAIL_RAN_OUT};
use crate::colour::line_logic::{Block as Run, ColourSet};
use crate::colour::model::{solve, ColourMode, ColourVerdict};
use crate::link::protocol::status::outcome;

/// Writes a board's clues (after an abort), as the v3 parser does, and
/// runs the solve to its verdict; the rows read as the reply reads them.
fn run(
    uut: &mut ColourSolver,
    rows: &[Vec<Run>],
    columns: &[Vec<Run>],
    colours: usize,
    mode: ColourMode,
) -> ColourVerdict {
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
    uut.budget.next = (mode.budget as u64).into();
    uut.first_only.next = mode.first;
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
        line: (o == outcome::CONTRADICTION && detail != SEARCHED).then_some(detail as usize),
        cells: vec![],
        second: vec![],
        passes: uut.passes.val().to_u8(),
        visits: 0,
        nodes: uut.nodes.val().to_u64(),
        backtracks: uut.backtracks.val().to_u64(),
        cycles: uut.cycles.val().to_u64(),
    };
    assert_eq!(
        uut.board_cells.val().to_u64(),
        (rows.len() * columns.len()) as u64
    );
    if o == outcome::CONTRADICTION {
        return verdict;
    }
    // The answer: the kept rows after a search that kept one (the first of
    // two for SEVERAL, whose second is the board), else the board.
    let kept = uut.kept.val();
    assert_eq!(
        kept,
        o == outcome::SEVERAL || (o == outcome::SOLVED && verdict.nodes > 0 && !mode.first)
    );
    if !kept {
        assert_eq!(uut.all_decided.val(), o == outcome::SOLVED);
    }
    verdict.cells = read_rows(uut, rows.len(), columns.len(), colours, kept);
    if o == outcome::SEVERAL {
        verdict.second = read_rows(uut, rows.len(), columns.len(), colours, false);
    }
    verdict
}

/// The board's rows (or the kept rows) as cells' colour sets.
fn read_rows(
    uut: &mut ColourSolver,
    rows: usize,
    columns: usize,
    colours: usize,
    kept: bool,
) -> Vec<ColourSet> {
    let mut cells = vec![];
    uut.read_kept.next = kept;
    for r in 0..rows {
        uut.read_row.next = (r as u64).into();
        tick(uut, |u| &mut u.clock);
        let word = uut.row_word.val();
        cells.extend((0..columns).map(|c| {
            (0..colours).fold(0 as ColourSet, |set, colour| {
                set | (word.get_bit(32 * colour + c) as ColourSet) << colour
            })
        }));
    }
    cells
}

/// What the model says of the same board, in the terms `run` can see.
fn expected(rows: &[Vec<Run>], columns: &[Vec<Run>], colours: usize, mode: ColourMode) -> ColourVerdict {
    let mut v = solve(rows, columns, colours, mode);
    v.visits = 0;
    if v.outcome == outcome::CONTRADICTION {
        v.cells.clear();
    }
    v
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
        let got = run(&mut uut, &rows, &columns, colours, ColourMode::default());
        assert_eq!(got.outcome, want);
        assert_eq!(got, expected(&rows, &columns, colours, ColourMode::default()));
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
        let (rows, columns, colours) = random_colour_board(&mut rng, side, side, 4);
        let want = expected(&rows, &columns, colours, ColourMode::default());
        let got = run(&mut uut, &rows, &columns, colours, ColourMode::default());
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

/// 120 random boards up to 8×8 with up to 4 inks (often with several
/// solutions), each searched in both modes with a budget of one unit
/// (2^20 cycles): outcome, DETAIL, the cells (for SEVERAL both solutions),
/// nodes, backtracks, passes and cycles are the model's.
#[test]
fn searches_as_the_model() {
    let mut rng = Rng(0x5ea2c4);
    let mut uut = solver();
    let mut seen = std::collections::BTreeMap::new();
    for case in 0..120 {
        let (rows, columns, colours) = random_colour_board(&mut rng, 8, 8, 4);
        for mode in [
            ColourMode {
                budget: 1,
                first: false,
            },
            ColourMode {
                budget: 1,
                first: true,
            },
        ] {
            let want = expected(&rows, &columns, colours, mode);
            let got = run(&mut uut, &rows, &columns, colours, mode);
            assert_eq!(
                got,
                want,
                "case {case} {mode:?}: {}×{}, {colours} colours",
                rows.len(),
                columns.len()
            );
            *seen
                .entry((want.outcome, want.detail.min(2), mode.first))
                .or_insert(0) += 1;
        }
    }
    println!("{seen:?}");
    for key in [
        (outcome::SOLVED, 0, false),
        (outcome::SEVERAL, 0, false),
        (outcome::SOLVED, 1, true),
        (outcome::CONTRADICTION, 2, false),
    ] {
        assert!(seen.get(&key).is_some_and(|&n| n >= 3), "{key:?} met: {seen:?}");
    }
}

/// A 32×32 board whose every line is four one-cell blocks, one of each
/// ink, line i's starting from ink i mod 4 + 1: line logic leaves almost every cell all five colours, more freedom
/// than the trail holds, so the search gives up at once (GAVE_UP,
/// TRAIL_RAN_OUT, the stall's cells), as the model. (A budget that runs
/// out takes 2^20 cycles, too many for this simulator: the Verilator
/// sweep covers it.)
#[test]
fn gives_up_when_the_trail_cannot_hold_the_search() {
    let line = |i: u8| -> Vec<Run> {
        (0..4)
            .map(|k| Run {
                length: 1,
                ink: (i + k) % 4 + 1,
            })
            .collect()
    };
    let (rows, columns): (Vec<_>, Vec<_>) = ((0..32).map(line).collect(), (0..32).map(line).collect());
    let mode = ColourMode {
        budget: 1,
        first: false,
    };
    let want = expected(&rows, &columns, 5, mode);
    assert_eq!((want.outcome, want.detail), (outcome::GAVE_UP, TRAIL_RAN_OUT));
    let mut uut = solver();
    assert_eq!(run(&mut uut, &rows, &columns, 5, mode), want);
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
        // the clue store 5 (10-bit blocks), its line table 2 (17 bits), the
        // trail 8.
        assert_eq!(brams, 29, "block RAMs of the colour solver");
        // 5 248 LUT4s and 810 carry cells on 2026-11-28, 2 359 of them the
        // line solver's (4 208 and 691 without the search).
        assert!(
            luts <= 5_400 && carries <= 870,
            "{luts} LUT4s, {carries} carry cells"
        );
    }
}
