//! Wire protocol v2: a board described by its clues, and a reply that packs
//! its cells. docs/protocol.md ("Protocol v2") is the specification; this is
//! its one implementation, shared by the host, the models and the testbenches.
//!
//! Host → board, with the messages of v1:
//!
//! * START_BOARD m, START_BOARD n, both with value bit 1 (v1 has 0);
//! * for each line, rows then columns: START_LINE (its number, or 0 for "the
//!   next line"), then its blocks two per BLOCKS message (code `101`, ASSIGN's
//!   code): index bits 11..6 hold the first length − 1, bits 5..0 the second
//!   length − 1, and value 1 says the second is there. An empty line has no
//!   BLOCKS message;
//! * END_BOARD, its index the search budget in units of 2^20 cycles (0: line
//!   logic alone).
//!
//! Board → host: START_BOARD m and n with value 1; when some cell is unknown,
//! the KNOWN map (code `011`, 13 cells a message, 1 = known); then the VALUES
//! (code `101`, 13 cells a message, 1 = filled; 0 for unknown cells); for
//! SEVERAL the DIFFERS map (code `010`, 1 = a second solution differs); the
//! STATUS fields; END_BOARD. Cells go in row-major order; within a message the
//! first cell is bit 12 of the index, the 13th the value bit; the last message
//! is padded with zeros.

use crate::link::protocol::{code, decode_status, Message, Reply, ReplyError};

/// Cells carried by one KNOWN or VALUES message.
pub const CELLS_PER_MESSAGE: usize = 13;

/// The longest block a BLOCKS message carries.
pub const MAX_BLOCK: usize = 64;

/// The largest search budget END_BOARD carries, in units of 2^20 cycles.
pub const MAX_BUDGET: u16 = 0x0fff;

/// Messages of the SEARCH field in a reply.
pub const SEARCH_MESSAGES: usize = 8;

/// Appends the v2 stream of one board: the START_BOARD pair, every line's
/// clue, END_BOARD with the search `budget` (units of 2^20 cycles, at most
/// [`MAX_BUDGET`]; 0 for line logic alone). Clue entries of 0 (an empty line
/// written as "0") are dropped; every length must be 1..=64.
pub fn encode_board(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>], budget: u16, out: &mut Vec<u8>) {
    encode_search(row_clues, column_clues, budget, false, out)
}

/// As [`encode_board`]; with `first`, END_BOARD's value bit asks for
/// first-solution mode (any one solution; uniqueness not checked).
pub fn encode_search(
    row_clues: &[Vec<usize>],
    column_clues: &[Vec<usize>],
    budget: u16,
    first: bool,
    out: &mut Vec<u8>,
) {
    assert!(budget <= MAX_BUDGET, "the budget is at most {MAX_BUDGET}");
    let mut push = |m: Message| out.extend_from_slice(&m.to_bytes());
    push(Message::new(code::START_BOARD, row_clues.len() as u16, true));
    push(Message::new(code::START_BOARD, column_clues.len() as u16, true));
    for (line, clue) in row_clues.iter().chain(column_clues).enumerate() {
        push(Message::new(code::START_LINE, line as u16, false));
        let blocks: Vec<usize> = clue.iter().copied().filter(|&b| b > 0).collect();
        for pair in blocks.chunks(2) {
            assert!(
                pair.iter().all(|&b| b <= MAX_BLOCK),
                "blocks are at most {MAX_BLOCK} cells"
            );
            let first = (pair[0] - 1) as u16;
            let second = pair.get(1).map_or(0, |&b| (b - 1) as u16);
            push(Message::new(code::ASSIGN, first << 6 | second, pair.len() == 2));
        }
    }
    push(Message::new(code::END_BOARD, budget, first));
}

/// The length of the v2 stream of a board, in bytes.
pub fn board_bytes(row_clues: &[Vec<usize>], column_clues: &[Vec<usize>]) -> usize {
    let line = |c: &Vec<usize>| 2 + 2 * c.iter().filter(|&&b| b > 0).count().div_ceil(2);
    6 + row_clues.iter().chain(column_clues).map(line).sum::<usize>()
}

/// The blocks a BLOCKS message carries.
pub fn blocks_of(message: Message) -> impl Iterator<Item = usize> {
    let index = message.index() as usize;
    let first = (index >> 6) + 1;
    let second = (index & 0x3f) + 1;
    std::iter::once(first).chain(message.value().then_some(second))
}

/// Appends a v2 reply: `cells` row-major (empty for a reply without a
/// board), `differs` (for SEVERAL, else empty), then the STATUS messages
/// given.
pub fn encode_reply(
    rows: usize,
    columns: usize,
    cells: &[Option<bool>],
    differs: &[bool],
    status: &[Message],
    out: &mut Vec<u8>,
) {
    let mut push = |m: Message| out.extend_from_slice(&m.to_bytes());
    push(Message::new(code::START_BOARD, rows as u16, true));
    push(Message::new(code::START_BOARD, columns as u16, true));
    let mut map = |code: u8, bits: &mut dyn Iterator<Item = bool>| {
        for word in map_words(&bits.collect::<Vec<_>>()) {
            push(Message::new(code, word >> 1, word & 1 == 1));
        }
    };
    if cells.iter().any(Option::is_none) {
        map(code::UNKNOWN, &mut cells.iter().map(Option::is_some));
    }
    map(code::ASSIGN, &mut cells.iter().map(|c| *c == Some(true)));
    map(code::DIFFERS, &mut differs.iter().copied());
    drop(map);
    for &m in status {
        push(m);
    }
    push(Message::new(code::END_BOARD, 0, false));
}

/// A map's messages' 13-bit cell fields: 13 cells a message, the first in
/// bit 12, zeros after the last.
pub fn map_words(cells: &[bool]) -> Vec<u16> {
    cells
        .chunks(CELLS_PER_MESSAGE)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u16, |w, (i, &b)| w | (b as u16) << (12 - i))
        })
        .collect()
}

/// The 13 cells of a KNOWN or VALUES message, first cell first.
fn cell_bits(message: Message) -> impl Iterator<Item = bool> {
    let word = message.index() << 1 | message.value() as u16;
    (0..CELLS_PER_MESSAGE).map(move |i| word >> (12 - i) & 1 == 1)
}

/// Decodes one v2 reply from the start of `bytes`: the reply and the bytes
/// it took.
pub fn decode_reply(bytes: &[u8]) -> Result<(Reply, usize), ReplyError> {
    let mut reply = Reply::default();
    let mut messages = bytes
        .chunks_exact(2)
        .enumerate()
        .map(|(i, b)| (2 * i, Message::from_bytes([b[0], b[1]])))
        .peekable();
    for dimension in [&mut reply.rows, &mut reply.columns] {
        let (at, message) = messages.next().ok_or(ReplyError::Incomplete)?;
        if message.code() != code::START_BOARD || !message.value() {
            return Err(ReplyError::Unexpected { at, message });
        }
        *dimension = message.index() as usize;
    }
    let cells = reply.rows * reply.columns;
    let per_map = cells.div_ceil(CELLS_PER_MESSAGE);
    let take_map = |wanted: u8, messages: &mut std::iter::Peekable<_>| -> Result<Vec<bool>, ReplyError> {
        let mut bits = Vec::with_capacity(per_map * CELLS_PER_MESSAGE);
        for _ in 0..per_map {
            let (at, message): (usize, Message) = messages.next().ok_or(ReplyError::Incomplete)?;
            if message.code() != wanted {
                return Err(ReplyError::Unexpected { at, message });
            }
            bits.extend(cell_bits(message));
        }
        bits.truncate(cells);
        Ok(bits)
    };
    if cells > 0 {
        let some_unknown = matches!(messages.peek(), Some((_, m)) if m.code() == code::UNKNOWN);
        let known = if some_unknown {
            take_map(code::UNKNOWN, &mut messages)?
        } else {
            vec![true; cells]
        };
        let values = take_map(code::ASSIGN, &mut messages)?;
        reply.cells = known.iter().zip(&values).map(|(&k, &v)| k.then_some(v)).collect();
        if matches!(messages.peek(), Some((_, m)) if m.code() == code::DIFFERS) {
            reply.differs = take_map(code::DIFFERS, &mut messages)?;
        }
    }
    for (at, message) in messages {
        match message.code() {
            code::STATUS => decode_status(&mut reply, message),
            code::END_BOARD => return Ok((reply, at + 2)),
            _ => return Err(ReplyError::Unexpected { at, message }),
        }
    }
    Err(ReplyError::Incomplete)
}

/// Decodes one reply of any version, told apart by the value bit of its
/// first START_BOARD (0 for v1) and by the COLOURS message after the pair
/// (v3, read as black and white: see `ColourReply::black_and_white`).
pub fn decode_any_reply(bytes: &[u8]) -> Result<(Reply, usize), ReplyError> {
    use crate::colour::colour_protocol as v3;
    if v3::is_v3_reply(bytes) {
        v3::decode_reply(bytes).map(|(r, n)| (r.black_and_white(), n))
    } else if bytes.get(1).is_some_and(|low| low & 1 == 1) {
        decode_reply(bytes)
    } else {
        crate::link::protocol::decode_reply(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::{coin_clues, Rng};
    use crate::link::protocol::status;

    #[test]
    fn the_one_by_one_example() {
        let mut out = vec![];
        encode_board(&[vec![1]], &[vec![1]], 0, &mut out);
        assert_eq!(
            out,
            [0xE0, 0x03, 0xE0, 0x03, 0xC0, 0x00, 0xA0, 0x00, 0xC0, 0x02, 0xA0, 0x00, 0x00, 0x00]
        );
        assert_eq!(board_bytes(&[vec![1]], &[vec![1]]), out.len());
    }

    #[test]
    fn blocks_round_trip() {
        for (a, b) in [(1, 1), (64, 64), (7, 33), (64, 1)] {
            let m = Message::new(code::ASSIGN, ((a - 1) << 6 | (b - 1)) as u16, true);
            assert_eq!(blocks_of(m).collect::<Vec<_>>(), vec![a, b]);
        }
        let mut out = vec![];
        encode_board(
            &[vec![3, 1, 4], vec![0]],
            &[vec![2], vec![], vec![1, 1]],
            0,
            &mut out,
        );
        let messages: Vec<Message> = out.chunks(2).map(|b| Message::from_bytes([b[0], b[1]])).collect();
        let blocks: Vec<usize> = messages
            .iter()
            .filter(|m| m.code() == code::ASSIGN)
            .flat_map(|&m| blocks_of(m))
            .collect();
        assert_eq!(blocks, vec![3, 1, 4, 2, 1, 1]);
        assert_eq!(
            board_bytes(&[vec![3, 1, 4], vec![0]], &[vec![2], vec![], vec![1, 1]]),
            out.len()
        );
    }

    #[test]
    fn replies_round_trip_packed() {
        let mut rng = Rng(77);
        for (rows, columns) in [(1, 1), (5, 5), (13, 1), (7, 11), (64, 64)] {
            for some_unknown in [false, true] {
                let cells: Vec<Option<bool>> = (0..rows * columns)
                    .map(|_| match rng.below(if some_unknown { 3 } else { 2 }) {
                        0 => Some(false),
                        1 => Some(true),
                        _ => None,
                    })
                    .collect();
                let status = [
                    Message::status(status::field::OUTCOME, 2),
                    Message::status(status::field::CYCLES_0, 9),
                ];
                let mut out = vec![];
                encode_reply(rows, columns, &cells, &[], &status, &mut out);
                let (reply, used) = decode_reply(&out).unwrap();
                assert_eq!(used, out.len());
                assert_eq!(
                    (reply.rows, reply.columns, reply.outcome, reply.cycles),
                    (rows, columns, 2, 9)
                );
                assert_eq!(reply.cells, cells);
                let maps = if cells.iter().any(Option::is_none) { 2 } else { 1 };
                assert_eq!(out.len(), 4 + 2 * maps * (rows * columns).div_ceil(13) + 4 + 2);
                // SEVERAL: a DIFFERS map after the VALUES, and the SEARCH
                // fields in order.
                if !some_unknown {
                    let differs: Vec<bool> = (0..rows * columns).map(|_| rng.below(2) == 1).collect();
                    let mut status = vec![Message::status(status::field::OUTCOME, status::outcome::SEVERAL)];
                    for b in 0x1234_5678u32.to_le_bytes().into_iter().chain(9u32.to_le_bytes()) {
                        status.push(Message::status(status::field::SEARCH, b));
                    }
                    let mut out = vec![];
                    encode_reply(rows, columns, &cells, &differs, &status, &mut out);
                    let (reply, _) = decode_reply(&out).unwrap();
                    assert_eq!((reply.cells, reply.differs), (cells.clone(), differs));
                    assert_eq!((reply.nodes, reply.backtracks), (0x1234_5678, 9));
                }
            }
        }
        // Refusals and INFO carry no cells.
        let mut out = vec![];
        encode_reply(
            0,
            0,
            &[],
            &[],
            &[Message::status(status::field::OUTCOME, 5)],
            &mut out,
        );
        assert_eq!(decode_reply(&out).unwrap().0.outcome, 5);
        assert_eq!(decode_reply(&out[..out.len() - 2]), Err(ReplyError::Incomplete));
    }

    /// The sizes the v2 stream was designed for, on random pictures (each cell
    /// filled with probability ½, the tournament kind): a 25×25 in at most
    /// 1 000 bytes out and 200 back, a 30×35 in at most 1 200 bytes out.
    #[test]
    fn stream_sizes() {
        let mut rng = Rng(2525);
        let mut largest = [0usize; 3];
        for _ in 0..200 {
            let (r, c) = coin_clues(&mut rng, 25, 25);
            largest[0] = largest[0].max(board_bytes(&r, &c));
            let (r, c) = coin_clues(&mut rng, 30, 35);
            largest[1] = largest[1].max(board_bytes(&r, &c));
        }
        let mut reply = vec![];
        let status: Vec<Message> = (0..15 + SEARCH_MESSAGES as u8)
            .map(|f| Message::status(f.min(15), 0))
            .collect();
        encode_reply(25, 25, &vec![Some(true); 625], &[], &status, &mut reply);
        largest[2] = reply.len();
        println!(
            "largest of 200: 25x25 {} bytes out, 30x35 {} bytes out; a solved 25x25 reply {} bytes",
            largest[0], largest[1], largest[2]
        );
        assert!(
            largest[0] <= 1000 && largest[1] <= 1200 && largest[2] <= 200,
            "{largest:?}"
        );
    }
}
