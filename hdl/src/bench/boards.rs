//! Test boards and random streams, one copy for every testbench: the
//! xorshift64 generator whose seeds the tests pin, a board's DNF options
//! and protocol v1 stream, and the clues of random pictures.

use crate::colour::line_logic::Block;
use crate::dnf::model::clues_of_picture;
use crate::dnf::options::{count, LineOptions};
use crate::link::protocol::encode_board;

/// Row clues and column clues.
pub type Clues = Vec<Vec<usize>>;

/// xorshift64 (<<13, >>7, <<17): a reproducible stream for testbenches.
pub struct Rng(pub u64);

impl Rng {
    /// One step: the new state is the next word.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next word modulo `n` (the bias is too small for a test to see).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `Rng(seed)`'s stream as a closure.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = Rng(seed);
    move || rng.next_u64()
}

/// Every line's DNF options, the rows' then the columns'.
pub fn lines_of(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<Vec<u64>> {
    rows.iter()
        .map(|c| LineOptions::new(c, columns.len()).collect())
        .chain(columns.iter().map(|c| LineOptions::new(c, rows.len()).collect()))
        .collect()
}

/// A board's protocol v1 stream (every cell's option bits if `every_cell`).
pub fn v1_stream(rows: &[Vec<usize>], columns: &[Vec<usize>], every_cell: bool) -> Vec<u8> {
    let mut bytes = vec![];
    encode_board(
        rows.len(),
        columns.len(),
        lines_of(rows, columns),
        every_cell,
        &mut bytes,
    );
    bytes
}

/// The clues of a picture whose cells `filled` draws, row by row.
pub fn clues_drawn(rows: usize, columns: usize, mut filled: impl FnMut() -> bool) -> (Clues, Clues) {
    let cells: Vec<bool> = (0..rows * columns).map(|_| filled()).collect();
    clues_of_picture(rows, columns, &cells)
}

/// The clues of a random picture, each cell filled with chance `density` %.
pub fn random_clues(rng: &mut Rng, rows: usize, columns: usize, density: u64) -> (Clues, Clues) {
    clues_drawn(rows, columns, || rng.below(100) < density)
}

/// The clues of a random picture filled by coin tosses (odd words): not
/// `random_clues(.., 50)`'s stream, which other tests pin.
pub fn coin_clues(rng: &mut Rng, rows: usize, columns: usize) -> (Clues, Clues) {
    clues_drawn(rows, columns, || rng.below(2) == 1)
}

/// The clues of `examples/random15x15.txt` (693 options; the DNF engine
/// solves it in 745 cycles): the long solve the abort tests abandon.
pub fn random_15x15() -> (Clues, Clues) {
    let text = include_str!("../../../examples/random15x15.txt");
    let (mut rows, mut columns, mut in_columns) = (vec![], vec![], false);
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        match line {
            "rows:" => in_columns = false,
            "columns:" => in_columns = true,
            clue => {
                let clue = clue.split_whitespace().map(|n| n.parse().unwrap()).collect();
                if in_columns {
                    columns.push(clue)
                } else {
                    rows.push(clue)
                }
            }
        }
    }
    (rows, columns)
}

/// The clues of a random `rows` × `columns` picture whose lines all fit the
/// DNF engine together (at most `FIFO_ENTRIES` options): dense (85–97 %
/// filled), so that even 32-cell lines have few fills.
pub fn dense_picture(rng: &mut Rng, rows: usize, columns: usize) -> (Clues, Clues) {
    loop {
        let density = 85 + rng.below(13);
        let (r, c) = random_clues(rng, rows, columns, density);
        let options: u64 = r
            .iter()
            .map(|b| count(b, columns))
            .chain(c.iter().map(|b| count(b, rows)))
            .sum();
        if options <= crate::common::params::FIFO_ENTRIES as u64 {
            return (r, c);
        }
    }
}

/// The clue of a line of colours (0 the background): its runs of one ink.
pub fn colour_clue_of(line: &[u8]) -> Vec<Block> {
    let mut blocks: Vec<Block> = vec![];
    for (i, &c) in line.iter().enumerate() {
        if c == 0 {
            continue;
        }
        match blocks.last_mut() {
            Some(b) if i > 0 && line[i - 1] == c => b.length += 1,
            _ => blocks.push(Block { length: 1, ink: c }),
        }
    }
    blocks
}

/// A colour board's row clues, column clues and colours (inks + 1).
pub type ColourBoard = (Vec<Vec<Block>>, Vec<Vec<Block>>, usize);

/// The row and column clues of a row-major colour picture.
pub fn colour_clues_of_picture(picture: &[u8], columns: usize) -> (Vec<Vec<Block>>, Vec<Vec<Block>>) {
    let rows = picture.len() / columns;
    let row_clues = picture.chunks(columns).map(colour_clue_of).collect();
    let column_clues = (0..columns)
        .map(|c| colour_clue_of(&(0..rows).map(|r| picture[r * columns + c]).collect::<Vec<u8>>()))
        .collect();
    (row_clues, column_clues)
}

/// The clues of a random picture of up to `max_rows` × `max_columns`
/// cells with up to `max_inks` inks, 20-80 % background; now and then a
/// row's first block made longer (often no solution) or a column's last
/// block given another ink.
pub fn random_colour_board(rng: &mut Rng, max_rows: u64, max_columns: u64, max_inks: u64) -> ColourBoard {
    let (rows, columns) = (
        1 + rng.below(max_rows) as usize,
        1 + rng.below(max_columns) as usize,
    );
    let inks = 1 + rng.below(max_inks) as u8;
    let background = 20 + rng.below(60);
    let picture: Vec<u8> = (0..rows * columns)
        .map(|_| {
            if rng.below(100) < background {
                0
            } else {
                1 + rng.below(inks as u64) as u8
            }
        })
        .collect();
    let (mut row_clues, mut column_clues) = colour_clues_of_picture(&picture, columns);
    match rng.below(6) {
        0 => {
            let r = rng.below(rows as u64) as usize;
            if let Some(b) = row_clues[r].first_mut() {
                b.length += 1;
            }
        }
        1 => {
            let c = rng.below(columns as u64) as usize;
            if let Some(b) = column_clues[c].last_mut() {
                b.ink = 1 + (b.ink % inks);
            }
        }
        _ => {}
    }
    (row_clues, column_clues, inks as usize + 1)
}
