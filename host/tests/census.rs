//! The census against counts computed here by brute force, independently of
//! the census module and of the software solver: every 3×4, 4×3 and 4×4
//! grid, and three fixed slices of the 5×5 space. A clue set has a unique
//! solution iff exactly one grid has it; line-solvability is the reference
//! model's verdict through its plain entry point (`model::solve_clues`).
//! A regression in the model, the solver or the census fails here.

use indicatif::ProgressBar;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::dnf::model;
use nonogram_hdl::link::protocol::status::outcome;
use nonohost::census::{census, Classifier};
use std::collections::HashMap;
use std::process::Command;

/// Run lengths of the first `n` bits of `word` (written here, not borrowed).
fn runs(word: u64, n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for i in 0..=n {
        if i < n && word >> i & 1 == 1 {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

type Clues = (Vec<Vec<usize>>, Vec<Vec<usize>>);

fn clues(g: u64, rows: usize, columns: usize) -> Clues {
    let row = |r: usize| g >> (r * columns) & ((1 << columns) - 1);
    let column = |c: usize| (0..rows).fold(0, |w, r| w | (g >> (r * columns + c) & 1) << r);
    (
        (0..rows).map(|r| runs(row(r), columns)).collect(),
        (0..columns).map(|c| runs(column(c), rows)).collect(),
    )
}

fn line_solvable(clues: &Clues) -> bool {
    model::solve_clues(&clues.0, &clues.1).outcome == outcome::SOLVED
}

/// Every grid of a small size: brute-force counts, then the census module
/// grid by grid and in all (on two threads).
fn check_whole_size(rows: usize, columns: usize) -> (u64, u64) {
    let grids = 1u64 << (rows * columns);
    let mut groups: HashMap<Clues, u32> = HashMap::new();
    for g in 0..grids {
        *groups.entry(clues(g, rows, columns)).or_default() += 1;
    }
    let mut classifier = Classifier::new(rows, columns);
    let (mut line, mut unique) = (0, 0);
    for g in 0..grids {
        let c = clues(g, rows, columns);
        let want_unique = groups[&c] == 1;
        let want_line = line_solvable(&c);
        assert!(
            !want_line || want_unique,
            "line logic solved a puzzle with several solutions: {c:?}"
        );
        let got = classifier.classify(g);
        assert_eq!(got.problem, None, "grid {g:#x} {c:?}");
        assert_eq!(got.line_solvable, want_line, "line-solvable, grid {g:#x} {c:?}");
        assert_eq!(got.unique, want_unique, "unique, grid {g:#x} {c:?}");
        line += want_line as u64;
        unique += want_unique as u64;
    }
    let counts = census(Engine::Dnf, rows, columns, 0..grids, 2, &ProgressBar::hidden());
    assert_eq!(
        (
            counts.grids,
            counts.line_solvable,
            counts.unique,
            counts.inconsistencies
        ),
        (grids, line, unique, 0),
        "{rows}x{columns}"
    );
    (line, unique)
}

#[test]
fn every_four_by_four_grid() {
    assert_eq!(check_whole_size(4, 4), (51_234, 52_362));
}

#[test]
fn every_three_by_four_and_four_by_three_grid() {
    let a = check_whole_size(3, 4);
    assert_eq!(a, (3_116, 3_152));
    // The transposed puzzles: the same counts.
    assert_eq!(check_whole_size(4, 3), a);
}

#[test]
fn every_grid_of_smaller_sizes() {
    for (rows, columns) in [(1, 1), (1, 5), (2, 2), (2, 3), (3, 3), (2, 5)] {
        check_whole_size(rows, columns);
    }
}

/// Brute force over the 5×5 space without allocation: every word's clue as
/// an id, and the words of each clue.
struct Space {
    id: [usize; 32],
    words: Vec<Vec<u64>>,
}

impl Space {
    fn new() -> Space {
        let mut distinct: Vec<Vec<usize>> = Vec::new();
        let mut id = [0; 32];
        for w in 0..32 {
            let c = runs(w, 5);
            id[w as usize] = distinct.iter().position(|d| *d == c).unwrap_or_else(|| {
                distinct.push(c);
                distinct.len() - 1
            });
        }
        let words = (0..distinct.len())
            .map(|i| (0..32).filter(|&w| id[w as usize] == i).collect())
            .collect();
        Space { id, words }
    }

    fn column_ids(&self, g: u64) -> [usize; 5] {
        std::array::from_fn(|c| self.id[(0..5).fold(0, |w, r| w | (g >> (5 * r + c) & 1) << r) as usize])
    }

    /// Grids with the same clues as `g`, up to 2: every grid whose rows have
    /// `g`'s row clues, checked for the column clues.
    fn solutions(&self, g: u64) -> usize {
        let want = self.column_ids(g);
        let candidates: [&Vec<u64>; 5] =
            std::array::from_fn(|r| &self.words[self.id[(g >> (5 * r) & 31) as usize]]);
        let mut found = 0;
        let mut pick = [0usize; 5];
        loop {
            let grid = (0..5).fold(0u64, |w, r| w | candidates[r][pick[r]] << (5 * r));
            if self.column_ids(grid) == want {
                found += 1;
                if found == 2 {
                    return 2;
                }
            }
            // Next combination.
            let mut r = 0;
            loop {
                if r == 5 {
                    return found;
                }
                pick[r] += 1;
                if pick[r] < candidates[r].len() {
                    break;
                }
                pick[r] = 0;
                r += 1;
            }
        }
    }
}

#[test]
fn slices_of_the_five_by_five_space() {
    let space = Space::new();
    let mut classifier = Classifier::new(5, 5);
    let slice = 1u64 << 16;
    // The first, one in the middle (rows 3 and 4 mixed), and the last.
    let mut totals = Vec::new();
    for start in [0, 0x0a5_0000, (1 << 25) - slice] {
        let (mut line, mut unique) = (0, 0);
        for g in start..start + slice {
            let c = clues(g, 5, 5);
            let want_unique = space.solutions(g) == 1;
            let want_line = line_solvable(&c);
            let got = classifier.classify(g);
            assert_eq!(got.problem, None, "grid {g:#x} {c:?}");
            assert_eq!(got.line_solvable, want_line, "line-solvable, grid {g:#x} {c:?}");
            assert_eq!(got.unique, want_unique, "unique, grid {g:#x} {c:?}");
            line += want_line as u64;
            unique += want_unique as u64;
        }
        let counts = census(Engine::Dnf, 5, 5, start..start + slice, 2, &ProgressBar::hidden());
        // The clue engine's model finds the same line-solvable grids.
        let clue_counts = census(
            Engine::Clues,
            5,
            5,
            start..start + slice,
            2,
            &ProgressBar::hidden(),
        );
        assert_eq!(clue_counts, counts, "the clue engine, grids {start:#x}..");
        assert_eq!(
            (
                counts.grids,
                counts.line_solvable,
                counts.unique,
                counts.inconsistencies
            ),
            (slice, line, unique, 0),
            "grids {start:#x}..{:#x}",
            start + slice
        );
        totals.push((line, unique));
    }
    // Pinned, so that a change in the counts shows here too.
    assert_eq!(totals, PINNED_SLICES);
}

/// Brute-force counts of the three slices (line-solvable, unique).
const PINNED_SLICES: [(u64, u64); 3] = [(43_855, 44_592), (49_306, 49_904), (62_472, 62_496)];

#[test]
fn the_census_command() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_nonohost"))
            .args(args)
            .output()
            .expect("run nonohost")
    };
    let o = run(&["census", "--size", "3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("every 3x3 grid"), "{out}");
    assert!(
        out.contains("inconsistencies (picture, model, solver):                0"),
        "{out}"
    );
    // The engine's name without padding inside the label; the counts aligned.
    let line = |start: &str| {
        out.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_default()
            .len()
    };
    assert!(
        out.contains("line-solvable (the DNF engine's model):   "),
        "{out}"
    );
    assert_eq!(line("line-solvable"), line("unique solution"), "{out}");

    let o = run(&["census", "--size", "4x3", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["grids"], 4096);
    assert_eq!(j["line_solvable"], 3116);
    assert_eq!(j["unique"], 3152);
    assert_eq!(j["matches_published"], serde_json::Value::Null);

    // A slice of 5×5: no comparison with the published figures.
    let o = run(&["census", "--limit", "4096", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["grids"], 4096);
    assert_eq!(j["published_unique"], serde_json::Value::Null);

    for bad in ["6", "3x9", "0", "five"] {
        let o = run(&["census", "--size", bad]);
        assert_eq!(o.status.code(), Some(1), "--size {bad}");
    }
}
