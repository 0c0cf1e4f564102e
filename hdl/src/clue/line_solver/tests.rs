use super::*;
use crate::bench::boards::Rng;
use crate::bench::{tick, yosys_cell_count, yosys_check};
use crate::clue::line_logic::solve_line;
use crate::clue::line_logic::tests::random_line;

/// Solves one line on the block, serving its clue reads a cycle late as a
/// block RAM would. Returns (can_fill, can_empty, cycles from start to done).
fn run(uut: &mut LineSolver, length: usize, clue: &[usize], known: u64, value: u64) -> (u64, u64, u64) {
    uut.start.next = true;
    uut.length.next = (length as u64).into();
    uut.blocks.next = (clue.len() as u64).into();
    uut.known.next = known.into();
    uut.value.next = value.into();
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut cycles = 1;
    let mut address = uut.clue_address.val().index();
    while !uut.done.val() {
        // The length asked for in the last cycle arrives in this one.
        uut.clue_length.next = (clue.get(address).copied().unwrap_or(0) as u64).into();
        address = uut.clue_address.val().index();
        tick(uut, |u| &mut u.clock);
        cycles += 1;
        assert!(cycles < 1000, "no answer");
    }
    (uut.can_fill.val().to_u64(), uut.can_empty.val().to_u64(), cycles)
}

fn check(uut: &mut LineSolver, length: usize, clue: &[usize], known: u64, value: u64) {
    let expected = solve_line(length, clue, known, value);
    let (fill, empty, cycles) = run(uut, length, clue, known, value);
    let what = format!("length {length} clue {clue:?} known {known:#x} value {value:#x}");
    assert_eq!(uut.feasible.val(), expected.feasible(), "feasible, {what}");
    assert_eq!((fill, empty), (expected.can_fill, expected.can_empty), "{what}");
    assert_eq!(
        cycles,
        clue.len() as u64 + 2 * length as u64 + LATENCY,
        "cycles, {what}"
    );
}

fn new_solver() -> LineSolver {
    let mut uut = LineSolver::default();
    uut.connect_all();
    uut
}

#[test]
fn matches_the_reference_on_edge_lines() {
    let mut uut = new_solver();
    check(&mut uut, 1, &[], 0, 0);
    check(&mut uut, 1, &[1], 0, 0);
    check(&mut uut, 1, &[1], 1, 0); // no fill
    check(&mut uut, 64, &[64], 0, 0);
    check(&mut uut, 64, &[], 0, 0);
    check(&mut uut, 64, &[1; 32], 0, 0);
    check(&mut uut, 63, &[1; 32], 0, 0);
    check(&mut uut, 62, &[1; 32], 0, 0); // too long a clue
    check(&mut uut, 64, &[64; 32], 0, 0); // far too long
    check(&mut uut, 64, &[40, 40], 0, 0);
    check(&mut uut, 10, &[3, 1], 0b100, 0b100);
    check(&mut uut, 64, &[30, 30], 1 << 31, 0);
    check(&mut uut, 64, &[31, 31], 1 << 32, 1 << 32); // no fill
}

#[test]
fn matches_the_reference_on_random_lines() {
    let mut uut = new_solver();
    let mut rng = Rng(0x0dd_c0ffee);
    let mut feasible = 0;
    for case in 0..300 {
        let (length, clue, known, value) = random_line(&mut rng, if case % 2 == 0 { 64 } else { 20 });
        feasible += solve_line(length, &clue, known, value).feasible() as usize;
        check(&mut uut, length, &clue, known, value);
    }
    assert!(feasible > 100, "{feasible} feasible lines of 300");
}

/// Narrow (lines of at most 32 cells), the same answers and cycles.
#[test]
fn narrow_matches_the_reference() {
    let mut uut = new_solver();
    uut.narrow.next = true;
    check(&mut uut, 1, &[1], 0, 0);
    check(&mut uut, 32, &[32], 0, 0);
    check(&mut uut, 32, &[1; 16], 0, 0);
    check(&mut uut, 31, &[1; 16], 0, 0); // too long a clue
    check(&mut uut, 32, &[32; 16], 0, 0); // far too long
    check(&mut uut, 32, &[15, 15], 1 << 15, 0);
    check(&mut uut, 32, &[15, 16], 1 << 31, 0); // no fill
    let mut rng = Rng(0x5eed_0032);
    let mut feasible = 0;
    for _ in 0..300 {
        let (length, clue, known, value) = random_line(&mut rng, 32);
        feasible += solve_line(length, &clue, known, value).feasible() as usize;
        check(&mut uut, length, &clue, known, value);
    }
    assert!(feasible > 100, "{feasible} feasible lines of 300");
}

/// The solver with `narrow` tied, as the cores tie it, so that yosys
/// builds one width only.
#[derive(LogicBlock)]
struct Tied {
    clock: Signal<In, Clock>,
    start: Signal<In, Bit>,
    length: Signal<In, Bits<7>>,
    blocks: Signal<In, Bits<6>>,
    known: Signal<In, Bits<64>>,
    value: Signal<In, Bits<64>>,
    clue_length: Signal<In, Bits<7>>,
    clue_address: Signal<Out, Bits<5>>,
    busy: Signal<Out, Bit>,
    done: Signal<Out, Bit>,
    can_fill: Signal<Out, Bits<64>>,
    can_empty: Signal<Out, Bits<64>>,
    feasible: Signal<Out, Bit>,
    solver: LineSolver,
    narrow: Constant<Bit>,
}

impl Logic for Tied {
    #[hdl_gen]
    fn update(&mut self) {
        self.solver.clock.next = self.clock.val();
        self.solver.narrow.next = self.narrow.val();
        self.solver.start.next = self.start.val();
        self.solver.length.next = self.length.val();
        self.solver.blocks.next = self.blocks.val();
        self.solver.known.next = self.known.val();
        self.solver.value.next = self.value.val();
        self.solver.clue_length.next = self.clue_length.val();
        self.clue_address.next = self.solver.clue_address.val();
        self.busy.next = self.solver.busy.val();
        self.done.next = self.solver.done.val();
        self.can_fill.next = self.solver.can_fill.val();
        self.can_empty.next = self.solver.can_empty.val();
        self.feasible.next = self.solver.feasible.val();
    }
}

/// yosys's LUT4s, carry cells and block RAMs of the solver tied wide or
/// narrow.
fn synthesised(narrow: bool) -> Option<(usize, usize, usize)> {
    let mut uut = Tied {
        clock: Default::default(),
        start: Default::default(),
        length: Default::default(),
        blocks: Default::default(),
        known: Default::default(),
        value: Default::default(),
        clue_length: Default::default(),
        clue_address: Default::default(),
        busy: Default::default(),
        done: Default::default(),
        can_fill: Default::default(),
        can_empty: Default::default(),
        feasible: Default::default(),
        solver: Default::default(),
        narrow: Constant::new(narrow),
    };
    uut.connect_all();
    let log = yosys_check(
        &uut,
        if narrow {
            "line_solver_narrow"
        } else {
            "line_solver"
        },
    )?;
    let count = |cell| yosys_cell_count(&log, cell);
    Some((count("SB_LUT4"), count("SB_CARRY"), count("SB_RAM40_4K")))
}

#[test]
fn verilog_synthesises() {
    if let Some((luts, carries, brams)) = synthesised(false) {
        println!("line solver: {luts} LUT4s, {carries} carry cells, {brams} block RAMs");
        // The forward pass's state rows (64 bits, one a cell) in block
        // RAM: 4 SB_RAM40_4K, 16 bits wide each (registers would cost
        // thousands of cells).
        assert_eq!(brams, 4, "block RAMs of the line solver");
        // 1 405 LUT4s and 44 carry cells on 2026-11-25.
        assert!(
            luts <= 1_550 && carries <= 64,
            "{luts} LUT4s, {carries} carry cells"
        );
    }
    // Narrow, the registers above bit 32 (34 for the states) go, and every
    // LUT that only they used.
    if let Some((luts, carries, brams)) = synthesised(true) {
        println!("narrow line solver: {luts} LUT4s, {carries} carry cells, {brams} block RAMs");
        assert!(
            luts <= 900 && carries <= 64,
            "{luts} LUT4s, {carries} carry cells"
        );
    }
}
