//! The colour solver on random colour puzzles: N pictures (seeded), each
//! 5 to 30 a side, 2 to 4 inks, a background share between 30 % and 70 %,
//! their clues solved with a time cap; prints the outcomes and the times.
//! With a folder as the fourth argument, each puzzle is also written there
//! as webpbn XML, for other solvers (`pbnsolve -u FILE`).
//!
//! With `MODEL=1` each puzzle also goes through the colour engine's
//! cycle-exact model (`nonogram_hdl::colour::model`, uniqueness decided,
//! a budget of 96 × 2^20 cycles, about 1 s at 100 MHz), whose verdict must
//! agree with the software's wherever both decide; it prints the board time
//! at 100 MHz beside the software's. The model is the design's price: the
//! colour engine is not in gateware yet.
//!
//! ```sh
//! cargo run --release -p nonohost --example colour_bench -- 200 1 20 [DIR]
//! ```
//! (count, seed, seconds a puzzle.)

use nonogram_hdl::link::protocol::status::outcome;
use nonohost::colour::search::solve;
use nonohost::colour::{engine_clues, ColourPuzzle, Rule};
use nonohost::random::palette;
use nonohost::solver::Budget;
use std::time::{Duration, Instant};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let count: usize = a.get(1).map_or(200, |x| x.parse().expect("a count"));
    let mut seed: u64 = a.get(2).map_or(1, |x| x.parse().expect("a seed")) | 1;
    let cap: f64 = a.get(3).map_or(20.0, |x| x.parse().expect("seconds"));
    let out = a.get(4).map(std::path::PathBuf::from);
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).expect("the output folder");
    }
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut unique, mut several, mut none, mut gave_up) = (0, 0, 0, 0);
    let mut times = Vec::new();
    let model = std::env::var("MODEL").is_ok_and(|m| m == "1");
    // Board seconds a puzzle, and the model's give-ups.
    let (mut board, mut board_gave_up) = (Vec::new(), 0);
    for i in 0..count {
        let h = 5 + (next() % 26) as usize;
        let w = 5 + (next() % 26) as usize;
        let inks = 2 + (next() % 3) as usize;
        let background = 30 + next() % 41;
        let grid: Vec<u8> = (0..h * w)
            .map(|_| {
                if next() % 100 < background {
                    0
                } else {
                    1 + (next() % inks as u64) as u8
                }
            })
            .collect();
        let p = ColourPuzzle::from_picture("random", Rule::Blocks, palette(inks), h, w, &grid);
        if let Some(dir) = &out {
            std::fs::write(dir.join(format!("c{i:04}.xml")), xml(&p)).expect("write");
        }
        let start = Instant::now();
        let budget = Budget {
            deadline: Some(start + Duration::from_secs_f64(cap)),
            ..Budget::default()
        };
        let found = solve(&p, 2, &budget);
        let t = start.elapsed().as_secs_f64();
        times.push((t, i, h, w, inks));
        match (found.count, found.gave_up) {
            (_, true) => gave_up += 1,
            (0, _) => none += 1,
            (1, _) => unique += 1,
            _ => several += 1,
        }
        if model {
            let v = engine_model(&p);
            board.push(v.cycles as f64 / 1e8);
            let want = match found.count {
                0 => outcome::CONTRADICTION,
                1 => outcome::SOLVED,
                _ => outcome::SEVERAL,
            };
            if v.outcome == outcome::GAVE_UP {
                board_gave_up += 1;
            } else if !found.gave_up {
                assert_eq!(v.outcome, want, "puzzle {i}: the model and the software disagree");
            }
        }
        for s in found.first.iter().chain(&found.second) {
            assert!(
                p.check_solution(s).is_ok(),
                "puzzle {i}: a solution breaks the clues"
            );
        }
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    println!(
        "{count} random colour puzzles: {unique} unique, {several} several, {none} none, {gave_up} gave up (cap {cap} s)"
    );
    println!(
        "time: {total:.2} s in all, median {:.4} s, max {:.2} s",
        times[times.len() / 2].0,
        times[0].0
    );
    for (t, i, h, w, inks) in times.iter().take(5) {
        println!("  #{i}: {w}x{h}, {inks} inks, {t:.2} s");
    }
    if model {
        board.sort_by(f64::total_cmp);
        println!(
            "the colour engine's model at 100 MHz: {:.2} s of board time in all, median {:.4} s, max {:.2} s; \
             {board_gave_up} gave up; no disagreement with the software",
            board.iter().sum::<f64>(),
            board[board.len() / 2],
            board[board.len() - 1]
        );
    }
}

/// The colour engine's model on the puzzle, uniqueness decided, about 1 s
/// of board time.
fn engine_model(p: &ColourPuzzle) -> nonogram_hdl::colour::model::ColourVerdict {
    use nonogram_hdl::colour::model::{solve, ColourMode};
    let mode = ColourMode {
        budget: 96,
        first: false,
    };
    solve(
        &engine_clues(&p.rows),
        &engine_clues(&p.columns),
        p.colours.len(),
        mode,
    )
}

/// The puzzle as webpbn XML, every count with its colour.
fn xml(p: &ColourPuzzle) -> String {
    let mut s =
        String::from("<?xml version=\"1.0\"?>\n<puzzleset><puzzle type=\"grid\" defaultcolor=\"black\">\n");
    for c in &p.colours {
        let [r, g, b] = c.rgb.unwrap_or([0, 0, 0]);
        s.push_str(&format!(
            "<color name=\"{}\" char=\"{}\">{r:02x}{g:02x}{b:02x}</color>\n",
            c.name, c.ch
        ));
    }
    for (kind, lines) in [("columns", &p.columns), ("rows", &p.rows)] {
        s.push_str(&format!("<clues type=\"{kind}\">\n"));
        for l in lines {
            s.push_str("<line>");
            for h in l {
                s.push_str(&format!(
                    "<count color=\"{}\">{}</count>",
                    p.colours[h.colour as usize].name, h.len
                ));
            }
            s.push_str("</line>\n");
        }
        s.push_str("</clues>\n");
    }
    s.push_str("</puzzle></puzzleset>\n");
    s
}
