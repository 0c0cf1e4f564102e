//! The search block alone, with the bench playing the solver: its steps
//! and cycle counts as `clue_model::search` has them (a scan of 4 cycles a
//! row, a guess of 3, an undone cell of 3), and each way it ends.

use super::*;
use crate::bench::{tick, yosys_check};

fn cycle(uut: &mut Search) {
    tick(uut, |u| &mut u.clock);
}

/// Settles the outputs for the inputs set since the last edge.
fn settle(uut: &mut Search) {
    assert!(simulate(uut, 1000), "the circuit did not settle");
}

fn new_search(budget: u64, rows: u64) -> Search {
    let mut uut = Search::default();
    uut.connect_all();
    uut.start.next = true;
    uut.budget.next = budget.into();
    uut.rows.next = rows.into();
    uut.trail_fits.next = true;
    cycle(&mut uut);
    uut.start.next = false;
    uut
}

/// From a visit state into Check; the search is active from the next cycle.
fn enter_check(uut: &mut Search, backtrack: bool) {
    uut.enter_check.next = true;
    uut.backtrack.next = backtrack;
    cycle(uut);
    uut.enter_check.next = false;
    uut.backtrack.next = false;
    uut.active.next = true;
}

/// Runs until `done` holds (settled, before the edge); the cycles taken.
fn run_until(uut: &mut Search, done: fn(&Search) -> bool) -> usize {
    for cycles in 0..100 {
        settle(uut);
        if done(uut) {
            return cycles;
        }
        cycle(uut);
    }
    panic!("the search did not get there in 100 cycles");
}

/// The bench's visit writes a fixed cell back: a push of `cell` of line
/// `line` (a column's when `is_column`).
fn push(uut: &mut Search, line: u64, cell: u64, is_column: bool) {
    uut.active.next = false;
    uut.line_index.next = line.into();
    uut.copied_cell.next = cell.into();
    uut.is_column.next = is_column;
    uut.push.next = true;
    cycle(uut);
    uut.push.next = false;
}

#[test]
fn scans_guesses_undoes_and_tries_the_other_value() {
    let mut uut = new_search(1, 4);
    enter_check(&mut uut, false);
    // Row 0 has no unknown cell; row 1's lowest is cell 5.
    settle(&mut uut);
    assert!(!uut.finish.val() && !uut.guess_set.val());
    cycle(&mut uut);
    settle(&mut uut);
    assert!(uut.read_used.val(), "ScanRead reads the row");
    assert_eq!(uut.scan_row.val().to_u64(), 0);
    for _ in 0..3 {
        cycle(&mut uut);
    }
    cycle(&mut uut); // ScanPick with nothing: the next row.
    uut.fresh_any.next = true;
    uut.lowest_cell.next = 5.into();
    assert_eq!(run_until(&mut uut, |u| u.guess_column_load.val()), 3);
    assert_eq!(uut.guess_column.val().to_u64(), 5);
    cycle(&mut uut);
    uut.fresh_any.next = false;
    uut.copied_cell.next = 5.into();
    settle(&mut uut);
    assert!(uut.guess_fetch.val() && uut.bit_number_load.val());
    assert_eq!(uut.bit_number.val().to_u64(), 5, "GuessFetch decodes the column");
    assert!(uut.to_guess.val());
    assert_eq!(uut.guess_row.val().to_u64(), 1);
    assert!(uut.guess_value.val(), "filled first");
    assert_eq!(run_until(&mut uut, |u| u.guess_set.val()), 2);
    assert_eq!(uut.bit_number.val().to_u64(), 1, "then the row");
    assert_eq!(uut.nodes.val().to_u64(), 1);

    // The guess's visit pushes it, and fixes a cell of column 5.
    push(&mut uut, 1, 5, false);
    push(&mut uut, 5, 2, true);
    // A contradiction: both are undone, then the guess's other value.
    enter_check(&mut uut, true);
    settle(&mut uut);
    assert_eq!(
        uut.bit_number.val().to_u64(),
        5,
        "an undo starts at the top's column"
    );
    cycle(&mut uut);
    settle(&mut uut);
    assert!(uut.forgetting.val());
    let mut undone = vec![];
    let mut cycles = 0;
    loop {
        settle(&mut uut);
        if uut.guess_column_load.val() {
            break;
        }
        if uut.undoing.val() {
            undone.push((uut.undo_row.val().to_u64(), uut.undo_column.val().to_u64()));
        }
        if uut.write.val() && uut.write_address.val().get_bit(7) {
            assert_eq!(uut.write_address.val().to_u64() & 63, undone.last().unwrap().1);
        }
        cycle(&mut uut);
        cycles += 1;
    }
    assert_eq!(cycles, 5, "3 cycles a cell: the second's UndoWrite is the sixth");
    assert_eq!(undone, vec![(2, 5), (1, 5)]);
    assert_eq!(uut.guess_column.val().to_u64(), 5);
    assert_eq!(uut.backtracks.val().to_u64(), 1);
    cycle(&mut uut);
    settle(&mut uut);
    assert!(uut.guess_fetch.val());
    assert_eq!(uut.guess_row.val().to_u64(), 1);
    assert!(!uut.guess_value.val(), "then empty");
    run_until(&mut uut, |u| u.guess_set.val());
    assert_eq!(uut.nodes.val().to_u64(), 2);

    // Its second value fails too: the trail runs out, no solution.
    push(&mut uut, 1, 5, false);
    enter_check(&mut uut, true);
    assert_eq!(run_until(&mut uut, |u| u.finish.val()), 3);
    assert!(!uut.finish_gave_up.val() && !uut.finish_keeps.val());
    assert!(!uut.trail_full.val());
}

#[test]
fn gives_up_for_the_budget_or_the_trail() {
    // Past the budget (units of 2^20 cycles): GAVE_UP, the budget ran out.
    let mut uut = new_search(1, 4);
    uut.cycles.next = (1u64 << 20).into();
    cycle(&mut uut);
    enter_check(&mut uut, false);
    assert_eq!(run_until(&mut uut, |u| u.finish.val()), 0);
    assert!(uut.finish_gave_up.val());
    cycle(&mut uut);
    assert!(!uut.trail_full.val());
    // The unknown cells would not fit the trail: the trail ran out.
    let mut uut = new_search(1, 4);
    uut.trail_fits.next = false;
    cycle(&mut uut);
    enter_check(&mut uut, false);
    assert_eq!(run_until(&mut uut, |u| u.finish.val()), 0);
    assert!(uut.finish_gave_up.val());
    cycle(&mut uut);
    assert!(uut.trail_full.val());
    // No budget at all: the solver stalls instead of searching.
    let uut = new_search(0, 4);
    assert!(uut.no_search.val());
}

#[test]
fn keeps_a_full_board_a_row_a_step_then_goes_back() {
    let mut uut = new_search(1, 3);
    uut.enter_save.next = true;
    cycle(&mut uut);
    uut.enter_save.next = false;
    uut.active.next = true;
    let mut saved = vec![];
    for _ in 0..6 {
        settle(&mut uut);
        if uut.save.val() {
            saved.push(uut.save_row.val().to_u64());
        }
        cycle(&mut uut);
    }
    assert_eq!(saved, vec![0, 1, 2]);
    settle(&mut uut);
    assert!(uut.solution_kept.val());
    cycle(&mut uut);
    settle(&mut uut);
    assert!(uut.forgetting.val(), "Check goes back");
}

#[test]
fn verilog_synthesises() {
    let mut uut = Search::default();
    uut.connect_all();
    yosys_check(&uut, "search");
}
