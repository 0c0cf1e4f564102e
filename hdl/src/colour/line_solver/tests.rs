use super::*;
use crate::bench::boards::Rng;
use crate::bench::{tick, yosys_cell_count, yosys_check};
use crate::colour::line_logic::tests::random_line;
use crate::colour::line_logic::{solve_line, Block as ClueBlock, ColourSet};

/// The planes of a line's cells, a word a colour (see `PLANE_BITS`).
pub(super) fn plane_words(cells: &[ColourSet]) -> [u64; COLOURS] {
    let mut words = [0; COLOURS];
    for (i, &set) in cells.iter().enumerate() {
        for (c, word) in words.iter_mut().enumerate() {
            *word |= ((set >> c & 1) as u64) << i;
        }
    }
    words
}

/// The same planes as one port's bits.
fn planes(cells: &[ColourSet]) -> Bits<PLANE_BITS> {
    plane_words(cells)
        .iter()
        .rev()
        .fold(0.into(), |bits: Bits<PLANE_BITS>, &w| {
            (bits << 32) | bit_cast::<PLANE_BITS, 64>(w.into())
        })
}

/// A line's cells back from planes.
fn cells_of(planes: Bits<PLANE_BITS>, length: usize) -> Vec<ColourSet> {
    (0..length)
        .map(|i| (0..COLOURS).fold(0, |set, c| set | (planes.get_bit(32 * c + i) as ColourSet) << c))
        .collect()
}

/// Solves one line on the block, serving its clue reads a cycle late as a
/// block RAM would. Returns (the result's cells, the `narrowed` bits,
/// feasible, cycles from start to done).
fn run(
    uut: &mut ColourLineSolver,
    blocks: &[ClueBlock],
    cells: &[ColourSet],
) -> (Vec<ColourSet>, u64, bool, u64) {
    uut.start.next = true;
    uut.length.next = (cells.len() as u64).into();
    uut.blocks.next = (blocks.len() as u64).into();
    uut.cells.next = planes(cells);
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut cycles = 1;
    let mut address = uut.clue_address.val().index();
    while !uut.done.val() {
        // The block asked for in the last cycle arrives in this one.
        let block = blocks
            .get(address)
            .copied()
            .unwrap_or(ClueBlock { length: 1, ink: 1 });
        uut.clue_length.next = (block.length as u64).into();
        uut.clue_ink.next = (block.ink as u64).into();
        address = uut.clue_address.val().index();
        tick(uut, |u| &mut u.clock);
        cycles += 1;
        assert!(cycles < 1000, "no answer");
    }
    (
        cells_of(uut.line.val(), cells.len()),
        uut.narrowed.val().index() as u64,
        uut.feasible.val(),
        cycles,
    )
}

/// The block against `line_logic`: the same colours in every cell, or no
/// fill (and a result of nothing), in k + 2L + LATENCY cycles.
fn check(uut: &mut ColourLineSolver, blocks: &[ClueBlock], cells: &[ColourSet]) -> bool {
    let mut expected = cells.to_vec();
    let feasible = solve_line(blocks, &mut expected);
    let (got, narrowed, got_feasible, cycles) = run(uut, blocks, cells);
    let what = format!("clue {blocks:?} cells {cells:?}");
    assert_eq!(got_feasible, feasible, "feasible, {what}");
    if feasible {
        assert_eq!(got, expected, "{what}");
        let changed = (0..cells.len())
            .filter(|&i| expected[i] != cells[i])
            .fold(0u64, |bits, i| bits | 1 << i);
        assert_eq!(narrowed, changed, "narrowed cells, {what}");
    } else {
        assert!(
            got.iter().all(|&set| set == 0),
            "no fill leaves nothing: {got:?}, {what}"
        );
    }
    assert_eq!(
        cycles,
        (blocks.len() + 2 * cells.len()) as u64 + LATENCY,
        "cycles, {what}"
    );
    feasible
}

fn new_solver() -> ColourLineSolver {
    let mut uut = ColourLineSolver::default();
    uut.connect_all();
    uut
}

const ALL: ColourSet = (1 << COLOURS) - 1;

fn block(length: usize, ink: u8) -> ClueBlock {
    ClueBlock { length, ink }
}

#[test]
fn matches_the_model_on_edge_lines() {
    let mut uut = new_solver();
    check(&mut uut, &[], &[ALL]);
    check(&mut uut, &[block(1, 1)], &[ALL]);
    check(&mut uut, &[block(1, 1)], &[0b01]); // no fill
    check(&mut uut, &[], &[ALL; 32]);
    check(&mut uut, &[block(32, 4)], &[ALL; 32]);
    // 32 blocks of one cell, inks alternating: every cell known, and the
    // automaton's last gap at state 64.
    let alternating: Vec<ClueBlock> = (0..32).map(|i| block(1, 1 + (i % 2) as u8)).collect();
    assert!(check(&mut uut, &alternating, &[ALL; 32]));
    // The same ink twice needs a background cell: 17 + 16 > 32.
    assert!(!check(&mut uut, &[block(16, 3), block(16, 3)], &[ALL; 32]));
    assert!(check(&mut uut, &[block(16, 3), block(16, 2)], &[ALL; 32]));
    assert!(check(&mut uut, &[block(15, 3), block(16, 3)], &[ALL; 32]));
    // Far too long (`needed` keeps counting a cycle after it passes L).
    assert!(!check(&mut uut, &[block(32, 1); 32], &[ALL; 32]));
    // Two inks touching; a cell that cannot be red.
    check(&mut uut, &[block(2, 1), block(1, 2)], &[ALL; 3]);
    check(&mut uut, &[block(2, 1)], &[ALL, 0b11101, ALL, ALL]);
    // Inks past the engine's (none of its cells may have them): no fill.
    assert!(!check(&mut uut, &[block(1, 5)], &[ALL; 4]));
}

#[test]
fn matches_the_model_on_random_lines() {
    let mut uut = new_solver();
    let mut rng = Rng(0xc010_0a11_0b0a_4d00);
    let mut feasible = 0;
    for case in 0..400 {
        let (blocks, cells) = random_line(&mut rng, if case % 2 == 0 { 32 } else { 12 }, INKS as u64);
        feasible += check(&mut uut, &blocks, &cells) as usize;
    }
    assert!(feasible > 150, "{feasible} feasible lines of 400");
}

#[test]
fn verilog_synthesises() {
    let uut = new_solver();
    if let Some(log) = yosys_check(&uut, "colour_line_solver") {
        let count = |cell| yosys_cell_count(&log, cell);
        let (luts, carries, brams) = (count("SB_LUT4"), count("SB_CARRY"), count("SB_RAM40_4K"));
        println!("colour line solver, {INKS} inks: {luts} LUT4s, {carries} carry cells, {brams} block RAMs");
        // The forward store: 64 bits, four SB_RAM40_4K.
        assert_eq!(brams, 4, "block RAMs of the colour line solver");
        // 2 452 LUT4s and 42 carry cells on 2026-11-29 (2 373 and 439 on
        // 2026-11-27, before the thermometer, `narrowed` and the meeting
        // of F_{p+1} with B_{p+1}; 2 222 before the result was written over
        // the line and the last gap decoded from its place: 230 LUT4s more,
        // most packed with a flip-flop that took a logic cell alone, and
        // 221 flip-flops fewer).
        assert!(
            luts <= 2_550 && carries <= 80,
            "{luts} LUT4s, {carries} carry cells"
        );
    }
}
