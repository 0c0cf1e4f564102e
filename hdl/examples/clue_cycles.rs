//! Cycles of both engines' reference models (each cycle-exact with its
//! gateware) on board.txt files: `rows:` / `columns:` sections, one clue a
//! line. `cargo run --release -p nonogram-hdl --example clue_cycles -- FILE...`
//! (with no file: a random 30×35 picture that line logic solves). Files in
//! other formats (pictures, .non, XML: `nonohost` reads those) are skipped.

use nonogram_hdl::clue::clue_model;
use nonogram_hdl::dnf::model;
use nonogram_hdl::link::protocol::status::outcome;

type Clues = (Vec<Vec<usize>>, Vec<Vec<usize>>);

fn read(path: &str) -> Result<Clues, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (mut rows, mut columns, mut in_columns) = (vec![], vec![], false);
    // A `#` starts a comment, on a line of its own or after a clue.
    for line in text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
    {
        match line.trim_end_matches(':') {
            "rows" => in_columns = false,
            "columns" => in_columns = true,
            clue => {
                let blocks: Vec<usize> = clue
                    .split([' ', ','])
                    .filter(|w| !w.is_empty() && *w != "-")
                    .map(|w| w.parse().map_err(|_| format!("{path}: not a clue: {clue}")))
                    .collect::<Result<Vec<usize>, String>>()?
                    .into_iter()
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
    Ok((rows, columns))
}

fn random_solvable(rows: usize, columns: usize) -> Clues {
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
    let boards: Vec<(String, Clues)> = if files.is_empty() {
        vec![("random 30x35".into(), random_solvable(30, 35))]
    } else {
        files
            .iter()
            .filter_map(|f| match read(f) {
                Ok(clues) => Some((f.clone(), clues)),
                Err(e) => {
                    eprintln!("skipped {e} (board.txt clues only)");
                    None
                }
            })
            .collect()
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
