//! Census of 5×5 nonograms: for every grid (or the first N), whether line
//! logic alone solves its clues and whether its clues have a unique
//! solution. Published figures for all 2^25 grids: 24 976 511 line-solvable,
//! 25 309 575 unique.
//!
//! `cargo run --release -p nonohost --example census5 -- [grids] [threads]`

#![allow(clippy::needless_range_loop)]

use nonohost::solver::{LineOutcome, Solver};
use std::time::Instant;

fn clue(word: u32) -> Vec<usize> {
    nonogram_hdl::options::clue_of(word as u64, 5)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let grids: u32 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1 << 25)
        .min(1 << 25);
    let threads: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2).max(1);
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            std::thread::spawn(move || {
                let mut solver = Solver::new();
                let (mut line, mut unique) = (0u64, 0u64);
                let mut rows = vec![Vec::new(); 5];
                let mut cols = vec![Vec::new(); 5];
                let mut g = t;
                while g < grids {
                    for r in 0..5 {
                        rows[r] = clue(g >> (5 * r) & 31);
                    }
                    for c in 0..5 {
                        let word = (0..5).fold(0, |w, r| w | (g >> (5 * r + c) & 1) << r);
                        cols[c] = clue(word);
                    }
                    if solver.line_solve(&rows, &cols).outcome == LineOutcome::Solved {
                        line += 1;
                        unique += 1;
                    } else if solver.count_solutions(&rows, &cols, 2).count == 1 {
                        unique += 1;
                    }
                    g += threads;
                }
                (line, unique)
            })
        })
        .collect();
    let (mut line, mut unique) = (0, 0);
    for h in handles {
        let (l, u) = h.join().unwrap();
        line += l;
        unique += u;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{grids} grids: {line} line-solvable, {unique} unique; {secs:.1} s on {threads} threads ({:.2} µs a grid a thread)",
        secs * 1e6 * threads as f64 / grids as f64
    );
}
