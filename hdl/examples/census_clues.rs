//! The 5×5 census through the clue engine's model: of the 2^25 grids, how
//! many give clues that line logic alone solves (published: 24 976 511).
//! `cargo run --release -p nonogram-hdl --example census_clues [-- GRIDS]`
//! (GRIDS limits the count, for a quick look; two threads).

use nonogram_hdl::clue_model;
use nonogram_hdl::model::clues_of_picture;
use nonogram_hdl::protocol::status::outcome;

fn count(range: std::ops::Range<u64>) -> u64 {
    let mut solvable = 0;
    for g in range {
        let cells: Vec<bool> = (0..25).map(|i| g >> i & 1 == 1).collect();
        let (r, c) = clues_of_picture(5, 5, &cells);
        let v = clue_model::solve(&r, &c);
        assert!(
            v.outcome != outcome::CONTRADICTION,
            "grid {g:#x}: the clues of a picture contradict"
        );
        solvable += (v.outcome == outcome::SOLVED) as u64;
    }
    solvable
}

fn main() {
    let grids: u64 = std::env::args()
        .nth(1)
        .map_or(1 << 25, |a| a.parse().expect("a number of grids"));
    let start = std::time::Instant::now();
    let half = grids / 2;
    let other = std::thread::spawn(move || count(half..grids));
    let solvable = count(0..half) + other.join().unwrap();
    println!(
        "{grids} grids: {solvable} line-solvable by the clue engine's model ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
}
