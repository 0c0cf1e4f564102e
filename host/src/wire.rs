//! Puzzles on the wire: DNF options (protocol v1, `nonogram_hdl::link::protocol`)
//! and clues (protocol v2, `nonogram_hdl::clue::clue_protocol`): counting, checking
//! the board's capacity, and the exact byte streams.

use crate::puzzle::{clue_text, Puzzle};
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_model::{BUDGET_UNIT_BITS, CLUE_STORE_BLOCKS};
use nonogram_hdl::clue::clue_protocol::MAX_BUDGET;
use nonogram_hdl::colour::line_logic::Block;
use nonogram_hdl::common::params::{FIFO_ENTRIES, MAX_LINE, MAX_LINES};
use nonogram_hdl::dnf::options::{count, LineOptions};
use nonogram_hdl::link::protocol::{encode_board, status};

/// Options of every line (rows, then columns), by the closed form.
pub fn option_counts(puzzle: &Puzzle) -> Vec<u64> {
    puzzle.lines().map(|(clue, length)| count(clue, length)).collect()
}

/// Total options, saturating: `u64::MAX` means 2^64 or more.
pub fn total_options(puzzle: &Puzzle) -> u64 {
    option_counts(puzzle)
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
}

/// A count of options or bytes for people: the number, or "≥2^64" when it
/// saturated (`u64::MAX`: [`count`] saturates only past 2^64 - 1).
pub fn count_text(n: u64) -> String {
    if n == u64::MAX {
        "≥2^64".to_string()
    } else {
        n.to_string()
    }
}

/// Why a puzzle does not fit the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverCapacity {
    /// The board's (outcome, detail) for it.
    pub outcome: u8,
    pub detail: u8,
    pub message: String,
}

impl std::fmt::Display for OverCapacity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OverCapacity {}

/// Whether the puzzle fits the board (built with the default parameters),
/// by `nonogram_hdl::dnf::model::check_capacity`; `Err` says why not, with numbers.
pub fn check_capacity(puzzle: &Puzzle) -> Result<(), OverCapacity> {
    let (h, w) = (puzzle.height(), puzzle.width());
    let total = total_options(puzzle);
    let options = usize::try_from(total).unwrap_or(usize::MAX);
    match nonogram_hdl::dnf::model::check_capacity(h, w, options) {
        Ok(()) => Ok(()),
        Err((outcome, detail)) => {
            let message = if detail == status::detail::FIFO_FULL {
                let counts = option_counts(puzzle);
                let (worst, n) =
                    counts
                        .iter()
                        .enumerate()
                        .fold((0, 0), |best, (i, &n)| if n > best.1 { (i, n) } else { best });
                let (clue, _) = puzzle.lines().nth(worst).unwrap_or((&[], 0));
                format!(
                    "the puzzle has {} options but the board holds {FIFO_ENTRIES} \
                     (the most come from {}, clue {}: {} option{})",
                    count_text(total),
                    puzzle.line_name(worst),
                    clue_text(clue, ","),
                    count_text(n),
                    if n == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "the puzzle is {} but the board takes at most \
                     {MAX_LINE} rows, {MAX_LINE} columns and {MAX_LINES} lines in all",
                    crate::text::size_text(w, h)
                )
            };
            Err(OverCapacity {
                outcome,
                detail,
                message,
            })
        }
    }
}

/// Whether the puzzle fits a board with the clue engine: at most
/// `max_side` rows and columns (INFO's MAX_LINE), 32 blocks a line, and
/// `store` blocks in all (2^CLUE_STORE_BITS).
pub fn check_clue_capacity(puzzle: &Puzzle, max_side: usize, store: usize) -> Result<(), OverCapacity> {
    let (h, w) = (puzzle.height(), puzzle.width());
    let over = |detail, message| {
        Err(OverCapacity {
            outcome: status::outcome::OVER_CAPACITY,
            detail,
            message,
        })
    };
    if h > max_side || w > max_side {
        return over(
            status::detail::BAD_SIZE,
            format!(
                "the puzzle is {} but the clue engine takes at most {max_side} x {max_side}",
                crate::text::size_text(w, h)
            ),
        );
    }
    if let Some(i) = puzzle
        .lines()
        .position(|(clue, _)| clue.iter().any(|&b| b > max_side))
    {
        return over(
            status::detail::BAD_SIZE,
            format!("{} has a block longer than {max_side} cells", puzzle.line_name(i)),
        );
    }
    let per_line = nonogram_hdl::clue::clue_model::MAX_BLOCKS_PER_LINE;
    if let Some(i) = puzzle.lines().position(|(clue, _)| clue.len() > per_line) {
        return over(
            status::detail::TOO_MANY_BLOCKS,
            format!(
                "{} has more than {per_line} blocks, the most the clue engine takes",
                puzzle.line_name(i)
            ),
        );
    }
    let blocks: usize = puzzle.lines().map(|(clue, _)| clue.len()).sum();
    if blocks > store {
        return over(
            status::detail::TOO_MANY_BLOCKS,
            format!("the puzzle has {blocks} blocks but the clue engine's store holds {store}"),
        );
    }
    Ok(())
}

/// Whether `engine`, built with the default parameters, takes the puzzle:
/// [`check_capacity`] for the DNF engine, [`check_clue_capacity`] with the
/// engine's side and store for a clue engine.
pub fn check_engine_capacity(puzzle: &Puzzle, engine: Engine) -> Result<(), OverCapacity> {
    match engine {
        Engine::Dnf => check_capacity(puzzle),
        Engine::Clues | Engine::Probing | Engine::Colour => {
            check_clue_capacity(puzzle, engine.clue_side(), CLUE_STORE_BLOCKS)
        }
    }
}

/// The board's search budget unless told otherwise: 10 × 2^20 cycles,
/// 105 ms at 100 MHz. Beyond it the host finishes in software.
pub const DEFAULT_BUDGET_CYCLES: u64 = 10 << BUDGET_UNIT_BITS;

/// The largest search budget a board description carries, in cycles.
pub const MAX_BUDGET_CYCLES: u64 = (MAX_BUDGET as u64) << BUDGET_UNIT_BITS;

/// END_BOARD's budget for `cycles` (at most [`MAX_BUDGET_CYCLES`]): units
/// of 2^20 cycles, rounded up.
pub fn budget_units(cycles: u64) -> u16 {
    cycles.div_ceil(1 << BUDGET_UNIT_BITS).min(MAX_BUDGET as u64) as u16
}

/// The exact host → board stream of the puzzle's clues (protocol v2), with
/// the search budget in units of 2^20 cycles (0: line logic alone), in
/// first-solution mode when `first`.
pub fn encode_clues(puzzle: &Puzzle, budget: u16, first: bool) -> Vec<u8> {
    let mut out = Vec::new();
    nonogram_hdl::clue::clue_protocol::encode_search(&puzzle.rows, &puzzle.columns, budget, first, &mut out);
    out
}

/// The colour stream of a black-and-white puzzle (protocol v3, one ink):
/// what the colour engine takes.
pub fn encode_colour_clues(puzzle: &Puzzle, budget: u16, first: bool) -> Vec<u8> {
    let (rows, columns) = one_ink(puzzle);
    let mut out = Vec::new();
    nonogram_hdl::colour::colour_protocol::encode_board(&rows, &columns, 1, budget, first, &mut out);
    out
}

/// A black-and-white puzzle's clues as colour clues of ink 1.
pub fn one_ink(puzzle: &Puzzle) -> (Vec<Vec<Block>>, Vec<Vec<Block>>) {
    let ink = |clues: &[Vec<usize>]| -> Vec<Vec<Block>> {
        clues
            .iter()
            .map(|c| {
                c.iter()
                    .filter(|&&b| b > 0)
                    .map(|&length| Block { length, ink: 1 })
                    .collect()
            })
            .collect()
    };
    (ink(&puzzle.rows), ink(&puzzle.columns))
}

/// Bytes of the stream `engine` takes for the puzzle's clues (protocol v2,
/// or v3 for the colour engine).
pub fn engine_clue_bytes(puzzle: &Puzzle, engine: Engine) -> u64 {
    match engine {
        Engine::Colour => {
            let (rows, columns) = one_ink(puzzle);
            nonogram_hdl::colour::colour_protocol::board_bytes(&rows, &columns) as u64
        }
        _ => clue_bytes(puzzle),
    }
}

/// Bytes of the clue stream (protocol v2).
pub fn clue_bytes(puzzle: &Puzzle) -> u64 {
    nonogram_hdl::clue::clue_protocol::board_bytes(&puzzle.rows, &puzzle.columns) as u64
}

/// Bytes on the wire for the puzzle, without encoding it (saturating):
/// START_BOARD ×2, per line START_LINE, its ASSIGNs, NEXT_OPTIONs and
/// END_LINE, then END_BOARD; two bytes each.
pub fn wire_bytes(puzzle: &Puzzle, every_cell: bool) -> u64 {
    let mut messages: u64 = 3;
    for (clue, length) in puzzle.lines() {
        let n = count(clue, length);
        let per_option = if every_cell {
            length as u64
        } else {
            clue.iter().sum::<usize>() as u64
        };
        messages = messages
            .saturating_add(2)
            .saturating_add(n.saturating_sub(1))
            .saturating_add(n.saturating_mul(per_option));
    }
    messages.saturating_mul(2)
}

/// Seconds the bytes take on the wire at `baud`, 8N1 (10 bits a byte).
pub fn wire_seconds(bytes: u64, baud: u32) -> f64 {
    bytes as f64 * 10.0 / baud.max(1) as f64
}

/// The exact host → board byte stream. Options are streamed from the
/// per-line iterators, never collected. Lines must be at most 64 cells.
pub fn encode(puzzle: &Puzzle, every_cell: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(wire_bytes(puzzle, every_cell).min(1 << 24) as usize);
    encode_board(
        puzzle.height(),
        puzzle.width(),
        puzzle
            .lines()
            .map(|(clue, length)| LineOptions::new(clue, length)),
        every_cell,
        &mut out,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_bytes_match_the_encoding() {
        let p = Puzzle::from_clues(
            "t",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        );
        for every in [false, true] {
            assert_eq!(wire_bytes(&p, every), encode(&p, every).len() as u64);
        }
    }
}
