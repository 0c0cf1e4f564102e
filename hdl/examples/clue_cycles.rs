//! Cycles of both engines' reference models (each cycle-exact with its
//! gateware) on board.txt files: `rows:` / `columns:` sections, one clue a
//! line. `cargo run --release -p nonogram-hdl --example clue_cycles -- FILE...`
//! (with no file: a random 30×35 picture that line logic solves).

use nonogram_hdl::protocol::status::outcome;
use nonogram_hdl::{clue_model, model};

fn read(path: &str) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut rows, mut columns, mut in_columns) = (vec![], vec![], false);
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        match line.trim_end_matches(':') {
            "rows" => in_columns = false,
            "columns" => in_columns = true,
            clue => {
                let blocks: Vec<usize> = clue
                    .split([' ', ','])
                    .filter(|w| !w.is_empty() && *w != "-")
                    .map(|w| w.parse().unwrap_or_else(|_| panic!("{path}: not a clue: {clue}")))
                    .filter(|&b| b > 0)
                    .collect();
                if in_columns {
                    columns.push(blocks)
                } else {
                    rows.push(blocks)
                }
            }
        }
    }
    (rows, columns)
}

fn random_solvable(rows: usize, columns: usize) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut seed = 0x30_35u64;
    loop {
        let cells: Vec<bool> = (0..rows * columns)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % 100 < 60
            })
            .collect();
        let (r, c) = model::clues_of_picture(rows, columns, &cells);
        if clue_model::solve(&r, &c).outcome == outcome::SOLVED {
            return (r, c);
        }
    }
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let boards: Vec<(String, (Vec<Vec<usize>>, Vec<Vec<usize>>))> = if files.is_empty() {
        vec![("random 30x35".into(), random_solvable(30, 35))]
    } else {
        files.iter().map(|f| (f.clone(), read(f))).collect()
    };
    for (name, (r, c)) in boards {
        let clues = clue_model::solve(&r, &c);
        let dnf = model::solve_clues(&r, &c);
        let dnf_cycles = if dnf.outcome == outcome::OVER_CAPACITY {
            "over capacity".to_string()
        } else {
            format!("{} cycles", dnf.cycles)
        };
        println!(
            "{name} ({}x{}): outcome {}, {} visits; clue engine {} cycles; DNF engine {dnf_cycles}",
            r.len(),
            c.len(),
            clues.outcome,
            clues.visits,
            clues.cycles
        );
    }
}
