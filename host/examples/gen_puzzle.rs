//! Prints a random puzzle that the board's line logic solves, in board.txt
//! format: `cargo run -p nonohost --example gen_puzzle -- 15 15 [seed]`.
//! Keeps drawing pictures until line logic solves one whose options fit the board.

use nonohost::solver::{LineOutcome, Solver};
use nonohost::Puzzle;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let width: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let height: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(width);
    let mut seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2024) | 1;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut solver = Solver::new();
    for attempt in 1..=100_000 {
        let cells: Vec<bool> = (0..width * height).map(|_| next() % 100 < 58).collect();
        let p = Puzzle::from_picture("random", height, width, &cells);
        if solver.line_solve(&p.rows, &p.columns).outcome != LineOutcome::Solved {
            continue;
        }
        if nonohost::wire::check_capacity(&p).is_err() {
            continue;
        }
        println!("# A random {width}x{height} picture that line logic solves (attempt {attempt}),");
        println!("# {} options.", nonohost::wire::total_options(&p));
        print!(
            "{}",
            p.to_board_txt()
                .lines()
                .skip(1)
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        );
        return;
    }
    eprintln!(
        "no {width}x{height} picture in 100 000 attempts was line-solvable and within the board's capacity"
    );
    std::process::exit(1);
}
