//! What the DNF engine's visit schedule costs, before any gateware: line
//! visits and options read on the original boards under the schedule the
//! gateware runs today and under a dirty-line schedule, and the cycles each
//! would take at K + c cycles a visit of K options.
//!
//! Today's schedule (`model.rs`) visits every line in turn and stops after a
//! whole round of m + n visits that fixed nothing. The dirty-line schedule
//! visits, in the same order, only lines with a cell newly fixed since their
//! last visit (every line at first), and stops when no line is dirty: the
//! same fixpoint, so the same outcome and cells, with fewer visits.
//!
//! ```sh
//! cargo run --release -p nonogram-hdl --example visit_schedules
//! ```

use nonogram_hdl::dnf::model::solve_clues;
use nonogram_hdl::dnf::options::LineOptions;
use nonogram_hdl::link::protocol::status::outcome;

struct Count {
    visits: u64,
    options_read: u64,
    solved: bool,
}

/// The dirty-line schedule over the DNF filter.
fn dirty_lines(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> Count {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    let mut survivors: Vec<Vec<u64>> = row_clues
        .iter()
        .map(|c| LineOptions::new(c, columns).collect())
        .chain(column_clues.iter().map(|c| LineOptions::new(c, rows).collect()))
        .collect();
    let cell = |line: usize, i: usize| {
        if line < rows {
            line * columns + i
        } else {
            i * columns + (line - rows)
        }
    };
    let mut known = vec![false; rows * columns];
    let mut value = vec![false; rows * columns];
    let mut dirty = vec![true; rows + columns];
    let mut count = Count {
        visits: 0,
        options_read: 0,
        solved: false,
    };
    while dirty.iter().any(|&d| d) {
        for line in 0..rows + columns {
            if !dirty[line] {
                continue;
            }
            dirty[line] = false;
            let length = if line < rows { columns } else { rows };
            let (mut known_mask, mut assigned) = (0u64, 0u64);
            for i in 0..length {
                known_mask |= (known[cell(line, i)] as u64) << i;
                assigned |= (value[cell(line, i)] as u64) << i;
            }
            count.visits += 1;
            count.options_read += survivors[line].len() as u64;
            survivors[line].retain(|&o| (o ^ assigned) & known_mask == 0);
            if survivors[line].is_empty() {
                return count;
            }
            let all = survivors[line].iter().fold(u64::MAX, |a, &o| a & o);
            let any = survivors[line].iter().fold(0, |a, &o| a | o);
            let new_known = (all | !any) & ((1u64 << length) - 1);
            for i in 0..length {
                if (new_known & !known_mask) >> i & 1 == 1 {
                    known[cell(line, i)] = true;
                    value[cell(line, i)] = all >> i & 1 == 1;
                    // The crossing line has a new known cell.
                    dirty[if line < rows { rows + i } else { i }] = true;
                }
            }
        }
    }
    count.solved = known.iter().all(|&k| k);
    count
}

fn clue(text: &str) -> Vec<Vec<usize>> {
    text.split(';')
        .map(|c| c.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .collect()
}

fn main() {
    // The original project's boards (design brief §6), with the cycles the
    // original design took on the first two.
    let boards = [
        ("4x4", "2;1,1;3;1", "1;1,1;1,1;3", Some(79)),
        ("5x5 D", "3;1,1;1,1;1,1;3", "5;1,1;1,1;3;", None),
        ("6x7 heart", "2,2;3,3;7;5;3;1", "2;4;5;4;5;4;2", Some(106)),
        (
            "11x11 X",
            "11;1,7,1;2,5,2;3,3,3;4,1,4;5,5;4,1,4;3,3,3;2,5,2;1,7,1;11",
            "11;1,7,1;2,5,2;3,3,3;4,1,4;5,5;4,1,4;3,3,3;2,5,2;1,7,1;11",
            None,
        ),
    ];
    println!(
        "board      | today: visits, options, cycles | dirty lines: visits, options, K+1, K+2 | original"
    );
    for (name, rows, columns, original) in boards {
        let (rows, columns) = (clue(rows), clue(columns));
        let today = solve_clues(&rows, &columns);
        let dirty = dirty_lines(&rows, &columns);
        assert_eq!(
            dirty.solved,
            today.outcome == outcome::SOLVED,
            "{name}: the same fixpoint"
        );
        println!(
            "{name:10} | {:3} {:4} {:5} | {:3} {:4} {:4} {:4} | {}",
            today.visits,
            today.options_read,
            today.cycles,
            dirty.visits,
            dirty.options_read,
            dirty.options_read + dirty.visits,
            dirty.options_read + 2 * dirty.visits,
            original.map_or("-".to_string(), |c: u64| c.to_string()),
        );
    }
}
