//! Random puzzles as the sweeps and benchmarks draw them, and the defaults
//! the batch commands share (threads, `--engine`).
//!
//! Puzzle `i` of a sweep depends only on the seed and `i`: a sweep is
//! reproducible whatever thread runs which puzzle.

use crate::colour::{Colour, ColourPuzzle, Rule};
use crate::puzzle::Puzzle;
use nonogram_hdl::board_model::Engine;
use std::ops::RangeInclusive;

/// One puzzle in this many is sent with every cell of every option.
pub const EVERY_CELL_ONE_IN: u64 = 8;

/// Draws of a picture before a puzzle that fits the board is given up.
pub const ATTEMPTS: u32 = 100;

/// splitmix64: a small, good generator, seeded per puzzle.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator's state for puzzle `index` of `seed`.
fn puzzle_state(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03)
}

/// A side drawn uniformly from `sizes`.
fn side(state: &mut u64, sizes: &RangeInclusive<usize>) -> usize {
    let span = (sizes.end() - sizes.start() + 1) as u64;
    sizes.start() + (next(state) % span) as usize
}

/// Whether an event of probability `p` happens (53 random bits).
fn happens(state: &mut u64, p: f64) -> bool {
    ((next(state) >> 11) as f64) / ((1u64 << 53) as f64) < p
}

/// Puzzle `index` of the sweep with `seed`: the puzzle, whether it is sent
/// with every cell (DNF engine only), and the pictures drawn again because
/// they did not fit `engine` (`None` if none of [`ATTEMPTS`] fit).
pub fn random_puzzle(
    engine: Engine,
    seed: u64,
    index: u64,
    sizes: &RangeInclusive<usize>,
    density: f64,
) -> (Option<(Puzzle, bool)>, u64) {
    let mut state = puzzle_state(seed, index);
    let every_cell = next(&mut state).is_multiple_of(EVERY_CELL_ONE_IN) && engine == Engine::Dnf;
    for attempt in 0..ATTEMPTS {
        let rows = side(&mut state, sizes);
        let columns = side(&mut state, sizes);
        let cells: Vec<bool> = (0..rows * columns)
            .map(|_| happens(&mut state, density))
            .collect();
        let name = format!("sweep seed {seed} puzzle {index}");
        let mut puzzle = Puzzle::from_picture(&name, rows, columns, &cells);
        puzzle.title = Some(name);
        if crate::wire::check_engine_capacity(&puzzle, engine).is_ok() {
            return (Some((puzzle, every_cell)), attempt as u64);
        }
    }
    (None, ATTEMPTS as u64)
}

/// The inks random colour puzzles are drawn with, after the background.
pub const INKS: [(&str, char, [u8; 3]); 4] = [
    ("red", 'r', [255, 0, 0]),
    ("green", 'g', [0, 170, 0]),
    ("blue", 'b', [0, 0, 255]),
    ("yellow", 'y', [255, 255, 0]),
];

/// A palette of the background and the first `inks` of [`INKS`].
pub fn palette(inks: usize) -> Vec<Colour> {
    let background = Colour {
        name: "white".into(),
        ch: '.',
        rgb: Some([255, 255, 255]),
    };
    let ink = |&(name, ch, rgb): &(&str, char, [u8; 3])| Colour {
        name: name.into(),
        ch,
        rgb: Some(rgb),
    };
    std::iter::once(background)
        .chain(INKS[..inks].iter().map(ink))
        .collect()
}

/// Colour puzzle `index` of the sweep with `seed` (webpbn's block rule):
/// rows and columns each drawn from `sizes`, 1 to `max_inks` inks, each
/// cell inked with probability `density`, its ink uniform.
pub fn random_colour_puzzle(
    seed: u64,
    index: u64,
    sizes: &RangeInclusive<usize>,
    density: f64,
    max_inks: usize,
) -> ColourPuzzle {
    let mut state = puzzle_state(seed, index) ^ 0xc0_1005;
    let rows = side(&mut state, sizes);
    let columns = side(&mut state, sizes);
    let inks = 1 + (next(&mut state) % max_inks.max(1) as u64) as usize;
    let grid: Vec<u8> = (0..rows * columns)
        .map(|_| {
            let inked = happens(&mut state, density);
            let ink = 1 + (next(&mut state) % inks as u64) as u8;
            if inked {
                ink
            } else {
                0
            }
        })
        .collect();
    let name = format!("sweep seed {seed} colour puzzle {index}");
    let mut puzzle = ColourPuzzle::from_picture(&name, Rule::Blocks, palette(inks), rows, columns, &grid);
    puzzle.title = Some(name);
    puzzle
}

/// A square `size` × `size` picture with exactly `black` filled cells,
/// chosen uniformly (a partial Fisher–Yates shuffle), as the tournament
/// generator draws them; puzzle `index` of `seed`.
pub fn picture_with_count(seed: u64, index: u64, size: usize, black: usize) -> Puzzle {
    let mut state = puzzle_state(seed, index);
    let cells_total = size * size;
    let black = black.min(cells_total);
    let mut order: Vec<usize> = (0..cells_total).collect();
    for i in 0..black {
        let j = i + (next(&mut state) % (cells_total - i) as u64) as usize;
        order.swap(i, j);
    }
    let mut cells = vec![false; cells_total];
    order[..black].iter().for_each(|&at| cells[at] = true);
    let name = format!("tournament seed {seed} puzzle {}", index + 1);
    let mut puzzle = Puzzle::from_picture(&name, size, size, &cells);
    puzzle.title = Some(name);
    puzzle
}

/// Parses `--engine`: "dnf", "clues", "probing" or "colour".
pub fn parse_engine(s: &str) -> Result<Engine, String> {
    Engine::ALL
        .into_iter()
        .find(|e| e.name() == s)
        .ok_or_else(|| format!("not an engine: {s:?} (write dnf, clues, probing or colour)"))
}

/// Threads to use when none are asked for: one per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_parse() {
        assert_eq!(parse_engine("dnf"), Ok(Engine::Dnf));
        assert_eq!(parse_engine("clues"), Ok(Engine::Clues));
        assert!(parse_engine("auto").is_err());
    }

    #[test]
    fn puzzles_depend_only_on_the_seed_and_index() {
        let a = random_puzzle(Engine::Dnf, 7, 42, &(5..=9), 0.5);
        let b = random_puzzle(Engine::Dnf, 7, 42, &(5..=9), 0.5);
        assert_eq!(a.0.as_ref().map(|p| &p.0), b.0.as_ref().map(|p| &p.0));
        let c = random_puzzle(Engine::Dnf, 7, 43, &(5..=9), 0.5);
        assert_ne!(a.0.as_ref().map(|p| &p.0.rows), c.0.as_ref().map(|p| &p.0.rows));
        // The same picture for both engines when it fits both; clues are never
        // sent "with every cell".
        let d = random_puzzle(Engine::Clues, 7, 42, &(5..=9), 0.5);
        assert_eq!(a.0.as_ref().map(|p| &p.0.rows), d.0.as_ref().map(|p| &p.0.rows));
        assert!((0..64).all(|i| !random_puzzle(Engine::Clues, 7, i, &(5..=9), 0.5).0.unwrap().1));
    }

    #[test]
    fn over_capacity_pictures_are_drawn_again() {
        // At 32×32 half-filled, no picture fits the 2 048-entry FIFO.
        let (p, redrawn) = random_puzzle(Engine::Dnf, 1, 0, &(32..=32), 0.5);
        assert!(p.is_none());
        assert_eq!(redrawn, ATTEMPTS as u64);
        // The clue engine takes them; a half-filled 64×64 has about 2 080
        // blocks, so most are over its 2 048-block store, and some fit.
        let (p, _) = random_puzzle(Engine::Clues, 1, 0, &(32..=32), 0.5);
        assert!(p.is_some());
        let (p, redrawn) = random_puzzle(Engine::Clues, 1, 0, &(64..=64), 0.5);
        assert!(p.is_some() && redrawn > 0, "{redrawn}");
    }
}
