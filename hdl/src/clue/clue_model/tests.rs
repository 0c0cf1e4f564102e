//! The model against brute force and the DNF engine's model.

use super::*;
use crate::bench::boards::{coin_clues, random_clues, Rng};
use crate::dnf::model;

#[test]
fn solves_the_original_boards() {
    let heart_rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
    let heart_columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
    let v = solve(&heart_rows, &heart_columns);
    assert_eq!(v.outcome, outcome::SOLVED);
    assert_eq!(v.cells.iter().filter(|c| **c == Some(true)).count(), 26);
    let dnf = model::solve_clues(&heart_rows, &heart_columns);
    assert_eq!(v.cells, dnf.cells);
    // Both engines visit the dirty lines, in the same order.
    assert_eq!(v.visits, dnf.visits);
}

#[test]
fn reports_contradictions_stalls_and_capacity() {
    let v = solve(&[vec![2], vec![]], &[vec![], vec![1]]);
    assert_eq!((v.outcome, v.detail), (outcome::CONTRADICTION, 2));
    assert_eq!(
        solve(&[vec![1], vec![1]], &[vec![1], vec![1]]).outcome,
        outcome::STALLED
    );
    // A clue longer than its line: no fill.
    assert_eq!(
        solve(&[vec![3]], &[vec![1], vec![1]]).outcome,
        outcome::CONTRADICTION
    );
    assert_eq!(
        solve(&vec![vec![1]; 65], &[vec![1]]).outcome,
        outcome::OVER_CAPACITY
    );
    assert_eq!(solve(&[], &[vec![1]]).outcome, outcome::MALFORMED);
    // 64 × 64 fits.
    let v = solve(&vec![vec![64]; 64], &vec![vec![64]; 64]);
    assert_eq!(v.outcome, outcome::SOLVED);
}

/// Both engines are complete line solvers: the same outcome on every
/// board, and the same cells unless there is no fill. The clue engine
/// visits only dirty lines, so never more than the DNF engine.
#[test]
fn agrees_with_the_dnf_engine_on_random_puzzles() {
    let mut rng = Rng(0xc10e_5eed_u64);
    let mut outcomes = [0usize; 3];
    for _ in 0..1000 {
        let (rows, columns) = (5 + rng.below(11) as usize, 5 + rng.below(11) as usize);
        let density = 35 + rng.below(40);
        let (r, c) = random_clues(&mut rng, rows, columns, density);
        let dnf = model::solve_clues(&r, &c);
        if dnf.outcome == outcome::OVER_CAPACITY {
            continue; // more options than the DNF engine holds
        }
        let clues = solve(&r, &c);
        assert_eq!(clues.outcome, dnf.outcome, "rows {r:?} columns {c:?}");
        if clues.outcome != outcome::CONTRADICTION {
            assert_eq!(clues.cells, dnf.cells, "rows {r:?} columns {c:?}");
            assert!(clues.visits <= dnf.visits, "rows {r:?} columns {c:?}");
        }
        outcomes[clues.outcome as usize] += 1;
    }
    println!("solved, contradiction, stalled: {outcomes:?}");
    assert!(
        outcomes[0] > 300 && outcomes[2] > 30,
        "solved/contradiction/stalled: {outcomes:?}"
    );
}

/// The clues of one line's cells.
fn clue_of(cells: impl Iterator<Item = bool>) -> Vec<usize> {
    let mut clue = vec![];
    let mut run = 0;
    for c in cells.chain(std::iter::once(false)) {
        if c {
            run += 1;
        } else if run > 0 {
            clue.push(run);
            run = 0;
        }
    }
    clue
}

/// Up to `limit` solutions, by brute force over each row's fills (a
/// check independent of the line solver).
fn solutions(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], limit: usize) -> Vec<Vec<bool>> {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let fills: Vec<Vec<u64>> = row_clues
        .iter()
        .map(|clue| {
            (0..1u64 << columns)
                .filter(|f| clue_of((0..columns).map(|c| f >> c & 1 == 1)) == *clue)
                .collect()
        })
        .collect();
    let mut found = vec![];
    let mut chosen = vec![0u64; rows];
    fn go(
        r: usize,
        fills: &[Vec<u64>],
        chosen: &mut Vec<u64>,
        column_clues: &[Vec<usize>],
        found: &mut Vec<Vec<bool>>,
        limit: usize,
    ) {
        if found.len() >= limit {
            return;
        }
        if r == fills.len() {
            let ok = column_clues
                .iter()
                .enumerate()
                .all(|(c, clue)| clue_of(chosen.iter().map(|f| f >> c & 1 == 1)) == *clue);
            if ok {
                let columns = column_clues.len();
                found.push(
                    chosen
                        .iter()
                        .flat_map(|f| (0..columns).map(move |c| f >> c & 1 == 1))
                        .collect(),
                );
            }
            return;
        }
        for &f in &fills[r] {
            chosen[r] = f;
            go(r + 1, fills, chosen, column_clues, found, limit);
        }
    }
    go(0, &fills, &mut chosen, column_clues, &mut found, limit);
    found
}

/// A random board of 2..=6 × 2..=6; every fourth has the clues of two
/// different pictures, which often have no solution.
fn small_board(rng: &mut Rng, trial: usize) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let rows = 2 + rng.below(5) as usize;
    let columns = 2 + rng.below(5) as usize;
    if trial % 4 == 3 {
        let a = coin_clues(rng, rows, columns);
        let b = coin_clues(rng, rows, columns);
        (a.0, b.1)
    } else {
        coin_clues(rng, rows, columns)
    }
}

/// The search decides every small board as brute force does: unique,
/// several (both solutions real and different) or none.
#[test]
fn search_decides_small_boards_like_brute_force() {
    let mut rng = Rng(0x5ea7_c4);
    let mut seen = [0usize; 8];
    let mut first_found = 0;
    for trial in 0..600 {
        let (r, c) = small_board(&mut rng, trial);
        let (rows, columns) = (r.len(), c.len());
        let found = solutions(&r, &c, 2);
        let v = search(&r, &c, 4095);
        let what = format!("rows {r:?} columns {c:?}");
        let cells: Vec<bool> = v.cells.iter().map(|x| x.unwrap_or(false)).collect();
        match found.len() {
            0 => assert_eq!(v.outcome, outcome::CONTRADICTION, "{what}"),
            1 => {
                assert_eq!(v.outcome, outcome::SOLVED, "{what}");
                assert_eq!(cells, found[0], "{what}");
            }
            _ => {
                assert_eq!(v.outcome, outcome::SEVERAL, "{what}");
                let second: Vec<bool> = cells.iter().zip(&v.differs).map(|(a, d)| a ^ d).collect();
                assert_ne!(cells, second, "{what}");
                for grid in [&cells, &second] {
                    assert!(
                        (0..rows).all(|i| clue_of(grid[i * columns..][..columns].iter().copied()) == r[i]),
                        "{what}"
                    );
                    assert!(
                        (0..columns).all(|j| clue_of((0..rows).map(|i| grid[i * columns + j])) == c[j]),
                        "{what}"
                    );
                }
            }
        }
        if v.nodes > 0 {
            assert!(v.backtracks > 0 || v.outcome == outcome::SEVERAL, "{what}");
        }
        seen[v.outcome as usize] += 1;
        // First-solution mode: a solution whenever there is one (SOLVED;
        // DETAIL says the search found it, uniqueness unchecked), the
        // same verdict as uniqueness mode where line logic decides or
        // there is none, and never more work.
        let f = first_solution(&r, &c, 4095);
        let f_cells: Vec<bool> = f.cells.iter().map(|x| x.unwrap_or(false)).collect();
        match found.len() {
            0 => assert_eq!((f.outcome, f.detail), (v.outcome, v.detail), "{what}"),
            _ => {
                assert_eq!(f.outcome, outcome::SOLVED, "{what}");
                assert!(found.contains(&f_cells), "{what}: a real solution");
                assert_eq!(f.detail, if f.nodes > 0 { FIRST_FOUND } else { 0 }, "{what}");
            }
        }
        if v.nodes == 0 {
            assert_eq!(
                (f.outcome, f.cycles, &f.cells),
                (v.outcome, v.cycles, &v.cells),
                "{what}"
            );
        }
        assert!(f.cycles <= v.cycles && f.nodes <= v.nodes, "{what}");
        first_found += (f.detail == FIRST_FOUND) as usize;
    }
    println!("outcomes: {seen:?}; first-solution mode found {first_found} by search");
    assert!(seen[0] > 0 && seen[1] > 0 && seen[6] > 0, "{seen:?}");
    assert!(first_found > 0);
}

/// A budget of 0 is line logic alone; a tiny budget gives up with the
/// cells line logic fixed, and no more.
#[test]
fn budgets_stop_the_search() {
    // Two solutions (the diagonals): line logic fixes nothing.
    let (r, c) = (vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
    assert_eq!(search(&r, &c, 0).outcome, outcome::STALLED);
    let v = search(&r, &c, 1);
    assert_eq!(v.outcome, outcome::SEVERAL);
    assert_eq!((v.nodes, v.backtracks), (2, 1));
    // A board that needs more than 2^20 cycles of search.
    let mut rng = Rng(77);
    let mut gave_up = 0;
    for _ in 0..40 {
        let (r, c) = coin_clues(&mut rng, 30, 30);
        let line = solve(&r, &c);
        let v = search(&r, &c, 1);
        if v.outcome == outcome::GAVE_UP {
            gave_up += 1;
            assert_eq!(v.cells, line.cells, "the cells line logic fixed");
            assert!(v.cycles >= 1 << BUDGET_UNIT_BITS);
        }
    }
    assert!(gave_up > 0);
}

/// Whether `cells` (row-major) satisfies every clue.
fn satisfies(r: &[Vec<usize>], c: &[Vec<usize>], cells: &[bool]) -> bool {
    let columns = c.len();
    (0..r.len()).all(|i| clue_of(cells[i * columns..][..columns].iter().copied()) == r[i])
        && (0..columns).all(|j| clue_of((0..r.len()).map(|i| cells[i * columns + j])) == c[j])
}

/// Probing (the planned engine) decides every small board as brute force
/// does, in both modes: unique, several (both real) or none; in
/// first-solution mode a real solution, DETAIL 0 only when it is the only
/// one.
#[test]
fn probing_decides_small_boards_like_brute_force() {
    let every_change = Policy {
        score: Score::Product,
        fewer_first: true,
        skip_second: true,
        keep_best: true,
        resume: true,
        max_rounds: 1,
        alike: true,
    };
    for policy in [Policy::default(), Policy::SPECIFIED, every_change] {
        probing_decides_like_brute_force(policy);
    }
}

fn probing_decides_like_brute_force(policy: Policy) {
    let run =
        |r: &[Vec<usize>], c: &[Vec<usize>], mode| run_policy(r, c, mode, Speedups::default(), policy).0;
    let mut rng = Rng(0x9e0b_e5);
    let (mut probed, mut found_by_probe) = (0, 0);
    for trial in 0..600 {
        let (r, c) = small_board(&mut rng, trial);
        let found = solutions(&r, &c, 2);
        let what = format!("rows {r:?} columns {c:?} {policy:?}");
        let mode = |first| Mode {
            budget: 4095,
            first,
            probe: true,
        };
        let v = run(&r, &c, mode(false));
        let cells: Vec<bool> = v.cells.iter().map(|x| x.unwrap_or(false)).collect();
        let expected = [outcome::CONTRADICTION, outcome::SOLVED, outcome::SEVERAL][found.len()];
        assert_eq!(v.outcome, expected, "{what}");
        match found.len() {
            0 => {}
            1 => assert_eq!(cells, found[0], "{what}"),
            _ => {
                let second: Vec<bool> = cells.iter().zip(&v.differs).map(|(a, d)| a ^ d).collect();
                assert_ne!(cells, second, "{what}");
                assert!(satisfies(&r, &c, &cells) && satisfies(&r, &c, &second), "{what}");
            }
        }
        let f = run(&r, &c, mode(true));
        let f_cells: Vec<bool> = f.cells.iter().map(|x| x.unwrap_or(false)).collect();
        if found.is_empty() {
            assert_eq!(f.outcome, outcome::CONTRADICTION, "{what}");
        } else {
            assert_eq!(f.outcome, outcome::SOLVED, "{what}");
            assert!(satisfies(&r, &c, &f_cells), "{what}: a real solution");
            assert!(f.detail == FIRST_FOUND || found.len() == 1, "{what}");
        }
        probed += (v.probes > 0) as usize;
        found_by_probe += (f.outcome == outcome::SOLVED && f.detail == FIRST_FOUND && f.nodes == 0) as usize;
    }
    println!("{policy:?}: {probed} boards probed; {found_by_probe} first solutions found by a probe");
    assert!(probed > 50 && found_by_probe > 0);
}

/// Speed-ups are priced only: with a budget that does not run out, every
/// one finds what the engine as it is finds, with the same visits and
/// guesses, in no more cycles.
#[test]
fn speedups_change_cycles_only() {
    let mut rng = Rng(0x5eed_5);
    for trial in 0..300 {
        let (r, c) = small_board(&mut rng, trial);
        for (first, probe) in [(true, true), (false, true), (true, false)] {
            let mode = Mode {
                budget: 4095,
                first,
                probe,
            };
            let (v, line_cycles) = run_priced(&r, &c, mode, Speedups::default());
            assert_eq!(v, run(&r, &c, mode));
            assert!(line_cycles <= v.cycles);
            for (pairs, cache) in [
                (Pairs::None, 0),
                (Pairs::Values, 16),
                (Pairs::Cells, 0),
                (Pairs::None, 64),
            ] {
                let speedups = Speedups {
                    finder: true,
                    fast_writes: true,
                    both_passes: true,
                    pairs,
                    cache,
                };
                let (s, _) = run_priced(&r, &c, mode, speedups);
                let what = format!("rows {r:?} columns {c:?} {mode:?} {speedups:?}");
                assert!(s.cycles <= v.cycles, "{what}");
                assert_eq!(
                    (s.outcome, s.detail, &s.cells, s.visits, s.nodes, s.probes),
                    (v.outcome, v.detail, &v.cells, v.visits, v.nodes, v.probes),
                    "{what}"
                );
            }
        }
    }
}
