use super::*;

fn clue(text: &str) -> Vec<Block> {
    text.split_whitespace()
        .map(|b| Block {
            length: b[..b.len() - 1].parse().unwrap(),
            ink: match b.as_bytes()[b.len() - 1] {
                b'r' => 1,
                b'b' => 2,
                _ => panic!("ink"),
            },
        })
        .collect()
}

/// A 3×3 of red and blue that line logic solves:
/// ```text
/// r r b
/// . b b
/// r . .
/// ```
#[test]
fn solves_a_small_board_by_line_logic() {
    let rows = [clue("2r 1b"), clue("2b"), clue("1r")];
    let columns = [clue("1r 1r"), clue("1r 1b"), clue("2b")];
    let v = line_logic(&rows, &columns, 3);
    assert_eq!(v.outcome, outcome::SOLVED);
    let picture: Vec<u8> = v.cells.iter().map(|c| c.trailing_zeros() as u8).collect();
    assert_eq!(picture, [1, 1, 2, 0, 2, 2, 1, 0, 0]);
    // Six visits at least (every line once) and the cycles they cost.
    assert!(v.visits >= 6);
    assert!(v.cycles > CLEAR_CYCLES + 6 * (VISIT_CYCLES + LATENCY));
}

#[test]
fn finds_a_line_with_no_fill() {
    // Row 0 wants 3 cells of 2.
    let v = line_logic(&[clue("3r"), clue("")], &[clue("1r"), clue("1r")], 2);
    assert_eq!((v.outcome, v.line), (outcome::CONTRADICTION, Some(0)));
}

#[test]
fn stalls_where_line_logic_cannot_choose() {
    // Two red cells on a diagonal of a 2×2: either diagonal fits.
    let one = || clue("1r");
    let v = line_logic(&[one(), one()], &[one(), one()], 2);
    assert_eq!(v.outcome, outcome::STALLED);
    assert!(v.cells.iter().all(|&c| c == 0b11));
}

use crate::bench::boards::{random_colour_board, Rng};
use crate::clue::clue_model::{BUDGET_RAN_OUT, FIRST_FOUND, SEARCHED, TRAIL_RAN_OUT};
use crate::colour::line_logic::tests::fills;

/// Every solution of the board (at most `limit`), row by row: each row one
/// of its clue's fills, kept while every column's cells so far could still
/// start one of its column's fills.
fn brute(rows: &[Vec<Block>], columns: &[Vec<Block>], limit: usize) -> Vec<Vec<u8>> {
    let row_fills: Vec<Vec<Vec<u8>>> = rows.iter().map(|c| fills(c, columns.len())).collect();
    let column_fills: Vec<Vec<Vec<u8>>> = columns.iter().map(|c| fills(c, rows.len())).collect();
    let mut found = vec![];
    let mut picture: Vec<&Vec<u8>> = vec![];
    fn go<'a>(
        row_fills: &'a [Vec<Vec<u8>>],
        column_fills: &[Vec<Vec<u8>>],
        picture: &mut Vec<&'a Vec<u8>>,
        found: &mut Vec<Vec<u8>>,
        limit: usize,
    ) {
        if found.len() >= limit {
            return;
        }
        let r = picture.len();
        if r == row_fills.len() {
            found.push(picture.iter().flat_map(|row| row.iter().copied()).collect());
            return;
        }
        for fill in &row_fills[r] {
            picture.push(fill);
            let fits = column_fills.iter().enumerate().all(|(c, fills)| {
                fills
                    .iter()
                    .any(|f| picture.iter().enumerate().all(|(i, row)| f[i] == row[c]))
            });
            if fits {
                go(row_fills, column_fills, picture, found, limit);
            }
            picture.pop();
        }
    }
    go(&row_fills, &column_fills, &mut picture, &mut found, limit);
    found
}

/// The colour each cell has, where it has one.
fn picture_of(cells: &[ColourSet]) -> Option<Vec<u8>> {
    cells
        .iter()
        .map(|c| (c.count_ones() == 1).then(|| c.trailing_zeros() as u8))
        .collect()
}

/// The search against brute force on 3 000 random boards, in both modes:
/// CONTRADICTION exactly when there is no solution; SOLVED with the only
/// solution, or SEVERAL with two (the cells one, DIFFERS where another
/// differs); first-solution mode SOLVED with a solution whenever there is
/// one, FIRST_FOUND when the search found it.
#[test]
fn searches_like_brute_force() {
    let mut rng = Rng(0xc0_1005_ea3c);
    let big = ColourMode {
        budget: 100,
        first: false,
    };
    let mut seen = [0usize; 4]; // none, one, several, searched
    for case in 0..3000 {
        let (rows, columns, colours) = random_colour_board(&mut rng, 4, 5, 3);
        let solutions = brute(&rows, &columns, usize::MAX);
        let what = format!("case {case}: rows {rows:?} columns {columns:?}");
        let v = solve(&rows, &columns, colours, big);
        seen[solutions.len().min(2)] += 1;
        seen[3] += (v.nodes > 0) as usize;
        match solutions.len() {
            0 => assert_eq!(v.outcome, outcome::CONTRADICTION, "{what}"),
            1 => {
                assert_eq!(v.outcome, outcome::SOLVED, "{what}");
                assert_eq!(picture_of(&v.cells).as_ref(), Some(&solutions[0]), "{what}");
            }
            _ => {
                assert_eq!(v.outcome, outcome::SEVERAL, "{what}");
                let first = picture_of(&v.cells).expect("a picture");
                assert!(solutions.contains(&first), "{what}");
                let second = picture_of(&v.second).expect("a second picture");
                assert!(
                    second != first && solutions.contains(&second),
                    "{what}: SECOND is no other solution"
                );
            }
        }
        if v.outcome == outcome::CONTRADICTION && v.nodes > 0 {
            assert_eq!(v.detail, SEARCHED, "{what}");
        }
        let first = solve(
            &rows,
            &columns,
            colours,
            ColourMode {
                budget: 100,
                first: true,
            },
        );
        if solutions.is_empty() {
            assert_eq!(first.outcome, outcome::CONTRADICTION, "first mode, {what}");
        } else {
            assert_eq!(first.outcome, outcome::SOLVED, "first mode, {what}");
            assert!(
                solutions.contains(&picture_of(&first.cells).expect("a picture")),
                "{what}"
            );
            assert_eq!(first.detail == FIRST_FOUND, first.nodes > 0, "first mode, {what}");
            // It stops at the first solution: never more work than deciding.
            assert!(first.cycles <= v.cycles, "first mode, {what}");
        }
    }
    assert!(
        seen.iter().all(|&n| n > 200),
        "none, one, several, searched: {seen:?}"
    );
}

/// One red cell a row and a column: line logic stalls at once, and the
/// board's freedom is its cells' count.
fn one_per_line(rows: usize, columns: usize) -> (Vec<Vec<Block>>, Vec<Vec<Block>>) {
    let one = || vec![Block { length: 1, ink: 1 }];
    (vec![one(); rows], vec![one(); columns])
}

/// First-solution mode, a budget of one unit (2^20 cycles).
const FIRST_ONE_UNIT: ColourMode = ColourMode {
    budget: 1,
    first: true,
};

#[test]
fn gives_up_when_the_trail_or_the_budget_runs_out() {
    // 50×50: 2 500 cells of two colours each, more than the trail holds.
    let (rows, columns) = one_per_line(50, 50);
    let v = solve(&rows, &columns, 2, FIRST_ONE_UNIT);
    assert_eq!(
        (v.outcome, v.detail, v.nodes),
        (outcome::GAVE_UP, TRAIL_RAN_OUT, 0)
    );
    // 30×30 fits, and the first branch leads straight to a solution.
    let (rows, columns) = one_per_line(30, 30);
    let v = solve(&rows, &columns, 2, FIRST_ONE_UNIT);
    assert_eq!((v.outcome, v.detail), (outcome::SOLVED, FIRST_FOUND));
    // 12 rows of one red cell, 12 columns of which one wants two: no
    // solution, which line logic cannot see and search takes 12! paths to
    // prove. It gives up with every branch undone.
    let (rows, mut columns) = one_per_line(12, 12);
    columns[5][0].length = 2;
    let stalled = line_logic(&rows, &columns, 2);
    assert_eq!(stalled.outcome, outcome::STALLED);
    let v = solve(
        &rows,
        &columns,
        2,
        ColourMode {
            budget: 1,
            first: false,
        },
    );
    assert_eq!((v.outcome, v.detail), (outcome::GAVE_UP, BUDGET_RAN_OUT));
    assert_eq!(v.cells, stalled.cells, "the cells as line logic left them");
    assert!(v.cycles >> 20 >= 1 && v.cycles >> 20 < 2, "{} cycles", v.cycles);
    assert!(v.nodes > 100 && v.backtracks > 100);
}
