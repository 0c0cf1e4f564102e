//! Wire protocol v3: a colour board described by its clues, and a reply
//! that packs a colour index a cell. docs/protocol.md ("Wire protocol v3")
//! is the specification; this is its one implementation, shared by the
//! host, the board model and the testbenches. It keeps v2's messages,
//! framing, STATUS fields and search; only these differ.
//!
//! Host → board:
//!
//! * START_BOARD m, START_BOARD n, both with value bit 1 (as v2);
//! * COLOURS (code `010`), its index the number of inks k (1..=7); the
//!   background is colour 0, the inks 1..=k. It is what makes a board v3;
//! * for each line, rows then columns: START_LINE, then one BLOCK message
//!   a block (code `101`): index bits 11..6 the length − 1 (as v2's first
//!   block), bits 2..0 the ink;
//! * END_BOARD: the search budget and first-solution bit, as in v2.
//!
//! Board → host: START_BOARD m and n with value 1; COLOURS with the
//! board's k (the build's most inks in INFO and refusals); then
//!
//! * every cell with one colour: the VALUES (code `101`), 4 cells a
//!   message, 3 bits each (index bits 11..9 the first cell, 2..0 the
//!   fourth), the last message padded with colour 0;
//! * else the POSSIBLE maps (code `011`): for each colour 0..=k in turn, a
//!   map of 13 cells a message as v2's, 1 = the cell may still have it;
//! * for SEVERAL, after the VALUES: the SECOND solution (code `010`),
//!   packed as the VALUES;
//!
//! then v2's STATUS and SEARCH messages (VERSION 3) and END_BOARD.

use super::line_logic::{Block, ColourSet};
use crate::clue::clue_protocol::{map_words, CELLS_PER_MESSAGE, MAX_BLOCK, MAX_BUDGET};
use crate::link::protocol::{code, decode_status, Message, Reply, ReplyError};

/// The protocol version a v3 board's INFO and replies say.
pub const VERSION: u8 = 3;

/// Host → board: the number of inks, right after the START_BOARD pair.
/// Board → host: the same, right after the reply's START_BOARD pair.
pub const COLOURS: u8 = code::NEXT_OPTION;
/// Host → board: one block, its length and ink.
pub const BLOCK: u8 = code::ASSIGN;
/// Board → host: the cells' colours, packed.
pub const VALUES: u8 = code::ASSIGN;
/// Board → host: one colour's map of the cells that may have it.
pub const POSSIBLE: u8 = code::UNKNOWN;
/// Board → host (SEVERAL): a second solution, packed.
pub const SECOND: u8 = code::DIFFERS;

/// The most inks the wire carries (a 3-bit colour index).
pub const MAX_INKS: usize = 7;
/// Cells in one VALUES or SECOND message.
pub const CELLS_PER_VALUES: usize = 4;

/// Appends the v3 stream of one board with `inks` inks: the START_BOARD
/// pair, COLOURS, every line's blocks, END_BOARD with the search `budget`
/// (units of 2^20 cycles; 0 for line logic alone) and, with `first`,
/// first-solution mode.
pub fn encode_board(
    row_clues: &[Vec<Block>],
    column_clues: &[Vec<Block>],
    inks: usize,
    budget: u16,
    first: bool,
    out: &mut Vec<u8>,
) {
    assert!((1..=MAX_INKS).contains(&inks), "1..={MAX_INKS} inks");
    assert!(budget <= MAX_BUDGET, "the budget is at most {MAX_BUDGET}");
    let mut push = |m: Message| out.extend_from_slice(&m.to_bytes());
    push(Message::new(code::START_BOARD, row_clues.len() as u16, true));
    push(Message::new(code::START_BOARD, column_clues.len() as u16, true));
    push(Message::new(COLOURS, inks as u16, false));
    for (line, clue) in row_clues.iter().chain(column_clues).enumerate() {
        push(Message::new(code::START_LINE, line as u16, false));
        for b in clue {
            assert!(
                (1..=MAX_BLOCK).contains(&b.length),
                "blocks are 1..={MAX_BLOCK} cells"
            );
            assert!((1..=inks as u8).contains(&b.ink), "inks are 1..={inks}");
            push(Message::new(
                BLOCK,
                ((b.length - 1) << 6 | b.ink as usize) as u16,
                false,
            ));
        }
    }
    push(Message::new(code::END_BOARD, budget, first));
}

/// The length of the v3 stream of a board, in bytes.
pub fn board_bytes(row_clues: &[Vec<Block>], column_clues: &[Vec<Block>]) -> usize {
    8 + row_clues
        .iter()
        .chain(column_clues)
        .map(|c| 2 + 2 * c.len())
        .sum::<usize>()
}

/// The block a BLOCK message carries (its ink may be 0 or past the
/// board's inks: the board checks that).
pub fn block_of(message: Message) -> Block {
    let index = message.index() as usize;
    Block {
        length: (index >> 6) + 1,
        ink: (index & 7) as u8,
    }
}

/// The packed words (3 bits a cell, 4 cells a message, the first in index
/// bits 11..9) of cells that each have one colour.
pub fn packed_words(colours: &[u8]) -> Vec<u16> {
    colours
        .chunks(CELLS_PER_VALUES)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u16, |w, (i, &c)| w | (c as u16 & 7) << (9 - 3 * i))
        })
        .collect()
}

/// The colour index of a cell with one colour.
fn index_of(cell: ColourSet) -> u8 {
    debug_assert_eq!(cell.count_ones(), 1, "a packed cell has one colour");
    cell.trailing_zeros() as u8
}

/// Appends a v3 reply: the board's `inks` (for INFO and refusals, the
/// build's most), `cells` row-major as colour sets (empty for a reply
/// without a board), `second` (for SEVERAL, else empty), then the STATUS
/// messages given.
pub fn encode_reply(
    rows: usize,
    columns: usize,
    inks: usize,
    cells: &[ColourSet],
    second: &[ColourSet],
    status: &[Message],
    out: &mut Vec<u8>,
) {
    let mut push = |m: Message| out.extend_from_slice(&m.to_bytes());
    push(Message::new(code::START_BOARD, rows as u16, true));
    push(Message::new(code::START_BOARD, columns as u16, true));
    push(Message::new(COLOURS, inks as u16, false));
    let mut packed = |code: u8, cells: &[ColourSet]| {
        let colours: Vec<u8> = cells.iter().map(|&c| index_of(c)).collect();
        for word in packed_words(&colours) {
            push(Message::new(code, word, false));
        }
    };
    if cells.iter().all(|c| c.count_ones() == 1) {
        packed(VALUES, cells);
        packed(SECOND, second);
    } else {
        for colour in 0..=inks {
            let map: Vec<bool> = cells.iter().map(|&c| c >> colour & 1 == 1).collect();
            for word in map_words(&map) {
                push(Message::new(POSSIBLE, word >> 1, word & 1 == 1));
            }
        }
    }
    for &m in status {
        push(m);
    }
    push(Message::new(code::END_BOARD, 0, false));
}

/// What a v3 reply says: the STATUS fields and size (`status.cells` stays
/// empty), the inks, and the cells as colour sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColourReply {
    pub status: Reply,
    /// The board's inks; in INFO and refusals, the build's most.
    pub inks: usize,
    /// Row-major: each cell's possible colours, bit c for colour c (one
    /// bit for a decided cell). Empty for replies without a board.
    pub cells: Vec<ColourSet>,
    /// For SEVERAL: the second solution, one bit a cell.
    pub second: Vec<ColourSet>,
}

impl ColourReply {
    /// The reply as black and white (a board of one ink): a cell is empty
    /// (colour 0) or filled (ink 1) when it has one colour, else unknown;
    /// for SEVERAL, DIFFERS where the second solution differs.
    pub fn black_and_white(self) -> Reply {
        let mut reply = self.status;
        reply.cells = self
            .cells
            .iter()
            .map(|&c| (c.count_ones() == 1).then_some(c == 0b10))
            .collect();
        reply.differs = self.second.iter().zip(&self.cells).map(|(a, b)| a != b).collect();
        reply
    }
}

/// Whether `bytes` start a v3 reply: a START_BOARD pair with value 1, then
/// COLOURS (a v2 reply has a map or STATUS there).
pub fn is_v3_reply(bytes: &[u8]) -> bool {
    bytes.len() >= 6 && bytes[1] & 1 == 1 && Message::from_bytes([bytes[4], bytes[5]]).code() == COLOURS
}

/// A reply's messages, read in order.
struct Messages<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Messages<'_> {
    fn peek(&self) -> Option<Message> {
        let b = self.bytes.get(self.at..self.at + 2)?;
        Some(Message::from_bytes([b[0], b[1]]))
    }

    /// The next message, which must have code `wanted`.
    fn take(&mut self, wanted: u8) -> Result<Message, ReplyError> {
        let message = self.peek().ok_or(ReplyError::Incomplete)?;
        if message.code() != wanted {
            return Err(ReplyError::Unexpected { at: self.at, message });
        }
        self.at += 2;
        Ok(message)
    }

    /// `cells` packed colours (VALUES or SECOND), one bit set a cell.
    fn packed(&mut self, wanted: u8, cells: usize) -> Result<Vec<ColourSet>, ReplyError> {
        let mut out = Vec::with_capacity(cells + CELLS_PER_VALUES);
        for _ in 0..cells.div_ceil(CELLS_PER_VALUES) {
            let index = self.take(wanted)?.index();
            out.extend((0..CELLS_PER_VALUES).map(|i| 1 << (index >> (9 - 3 * i) & 7)));
        }
        out.truncate(cells);
        Ok(out)
    }
}

/// Decodes one v3 reply from the start of `bytes`: the reply and the bytes
/// it took.
pub fn decode_reply(bytes: &[u8]) -> Result<(ColourReply, usize), ReplyError> {
    let mut reply = ColourReply::default();
    let mut messages = Messages { bytes, at: 0 };
    for dimension in [&mut reply.status.rows, &mut reply.status.columns] {
        let at = messages.at;
        let message = messages.take(code::START_BOARD)?;
        if !message.value() {
            return Err(ReplyError::Unexpected { at, message });
        }
        *dimension = message.index() as usize;
    }
    reply.inks = messages.take(COLOURS)?.index() as usize;
    let cells = reply.status.rows * reply.status.columns;
    if cells > 0 && messages.peek().map(Message::code) == Some(POSSIBLE) {
        reply.cells = vec![0; cells];
        for colour in 0..=reply.inks.min(MAX_INKS) {
            for chunk in reply.cells.chunks_mut(CELLS_PER_MESSAGE) {
                let m = messages.take(POSSIBLE)?;
                let word = m.index() << 1 | m.value() as u16;
                for (i, cell) in chunk.iter_mut().enumerate() {
                    *cell |= ((word >> (12 - i) & 1) as u8) << colour;
                }
            }
        }
    } else if cells > 0 {
        reply.cells = messages.packed(VALUES, cells)?;
        if messages.peek().map(Message::code) == Some(SECOND) {
            reply.second = messages.packed(SECOND, cells)?;
        }
    }
    while let Some(message) = messages.peek() {
        let at = messages.at;
        messages.at += 2;
        match message.code() {
            code::STATUS => decode_status(&mut reply.status, message),
            code::END_BOARD => return Ok((reply, at + 2)),
            _ => return Err(ReplyError::Unexpected { at, message }),
        }
    }
    Err(ReplyError::Incomplete)
}

#[cfg(test)]
mod tests;
