use super::*;
use crate::bench::boards::Rng;
use crate::board_model::{BoardModel, Engine};
use crate::link::protocol::status::{detail, engines, outcome};
use crate::link::protocol::{image, query_bytes};

fn block(length: usize, ink: u8) -> Block {
    Block { length, ink }
}

/// The reply's bytes up to its first STATUS message.
fn frame(reply: &[u8]) -> &[u8] {
    let first_status = reply
        .chunks(2)
        .position(|m| Message::from_bytes([m[0], m[1]]).code() == code::STATUS)
        .expect("STATUS messages");
    &reply[..2 * first_status]
}

/// The bytes of docs/protocol.md's block after `<!-- v3 example: NAME -->`:
/// the two hex bytes that begin each of its lines.
fn documented(name: &str) -> Vec<u8> {
    let doc = include_str!("../../../../docs/protocol.md");
    let marker = format!("<!-- v3 example: {name} -->");
    let after = doc
        .split_once(&marker)
        .expect("the example in docs/protocol.md")
        .1;
    let block = after.split("```").nth(1).expect("a code block after the marker");
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .flat_map(|l| {
            l.split_whitespace()
                .take(2)
                .map(|h| u8::from_str_radix(h, 16).expect("hex"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The colour engine's answer to `stream`, decoded.
fn ask(stream: &[u8]) -> (Vec<u8>, ColourReply) {
    let reply = BoardModel::new(Engine::Colour).bytes(stream);
    let (decoded, used) = decode_reply(&reply).expect("a v3 reply");
    assert_eq!(used, reply.len());
    (reply, decoded)
}

/// docs/protocol.md's first v3 example: red (ink 1) and blue (ink 2),
/// ```text
/// r b
/// . r
/// ```
#[test]
fn the_documented_two_by_two() {
    let rows = [vec![block(1, 1), block(1, 2)], vec![block(1, 1)]];
    let columns = [vec![block(1, 1)], vec![block(1, 2), block(1, 1)]];
    let mut stream = vec![];
    encode_board(&rows, &columns, 2, 0, false, &mut stream);
    assert_eq!(stream, documented("two by two"));
    assert_eq!(board_bytes(&rows, &columns), stream.len());
    let (reply, decoded) = ask(&stream);
    // START_BOARD 2, 2; COLOURS 2; VALUES r b . r = 1 2 0 1.
    assert_eq!(frame(&reply), [0xE0, 0x05, 0xE0, 0x05, 0x40, 0x04, 0xA5, 0x02]);
    assert_eq!(frame(&reply), documented("two by two, reply"));
    assert_eq!(decoded.cells, [0b010, 0b100, 0b001, 0b010]);
    let s = &decoded.status;
    assert_eq!(
        (s.outcome, s.detail, s.version, s.max_line),
        (outcome::SOLVED, 0, 3, 32)
    );
    assert_eq!(s.engines, image::engines_field(engines::COLOUR, image::FLASH));
    assert_eq!(reply.len(), 8 + 2 * (15 + 8) + 2);
}

/// The second example: one red cell a line of a 2×2, two solutions (the
/// diagonals): with a budget SEVERAL, with none STALLED.
#[test]
fn the_documented_diagonals() {
    let one = || vec![block(1, 1)];
    let (rows, columns) = ([one(), one()], [one(), one()]);
    let mut stream = vec![];
    encode_board(&rows, &columns, 1, 1, false, &mut stream);
    assert_eq!(stream[4..6], [0x40, 0x02]);
    assert_eq!(stream[stream.len() - 2..], [0x00, 0x02]);
    let (reply, decoded) = ask(&stream);
    // VALUES r . . r (1 0 0 1), SECOND . r r . (0 1 1 0).
    assert_eq!(
        frame(&reply),
        [0xE0, 0x05, 0xE0, 0x05, 0x40, 0x02, 0xA4, 0x02, 0x40, 0x90]
    );
    assert_eq!(frame(&reply), documented("diagonals, several"));
    assert_eq!(decoded.status.outcome, outcome::SEVERAL);
    assert_eq!(
        (decoded.cells, decoded.second),
        (vec![2, 1, 1, 2], vec![1, 2, 2, 1])
    );
    assert_eq!((decoded.status.nodes, decoded.status.backtracks), (2, 1));

    let mut stream = vec![];
    encode_board(&rows, &columns, 1, 0, false, &mut stream);
    let (reply, decoded) = ask(&stream);
    // POSSIBLE maps: colour 0 (background) in all four cells, then ink 1.
    assert_eq!(
        frame(&reply),
        [0xE0, 0x05, 0xE0, 0x05, 0x40, 0x02, 0x7E, 0x00, 0x7E, 0x00]
    );
    assert_eq!(frame(&reply), documented("diagonals, stalled"));
    assert_eq!(decoded.status.outcome, outcome::STALLED);
    assert_eq!(decoded.cells, [0b11; 4]);
}

#[test]
fn blocks_round_trip() {
    for (length, ink) in [(1, 1), (64, 7), (33, 4), (5, 0)] {
        let m = Message::new(BLOCK, ((length - 1) << 6 | ink) as u16, false);
        assert_eq!(block_of(m), block(length, ink as u8));
    }
}

#[test]
fn replies_round_trip() {
    let mut rng = Rng(303);
    for (rows, columns) in [(1, 1), (3, 5), (13, 1), (7, 11), (32, 32)] {
        for inks in [1, 4, 7] {
            let n = rows * columns;
            let colour = |rng: &mut Rng| 1u8 << rng.below(inks as u64 + 1);
            let solved: Vec<ColourSet> = (0..n).map(|_| colour(&mut rng)).collect();
            let second: Vec<ColourSet> = (0..n).map(|_| colour(&mut rng)).collect();
            let open: Vec<ColourSet> = solved.iter().map(|&c| c | colour(&mut rng)).collect();
            for (cells, second) in [(&solved, &vec![]), (&solved, &second), (&open, &vec![])] {
                let status = [Message::status(0, 6), Message::status(2, 9)];
                let mut out = vec![];
                encode_reply(rows, columns, inks, cells, second, &status, &mut out);
                let (reply, used) = decode_reply(&out).unwrap();
                assert_eq!(used, out.len());
                assert_eq!(
                    (reply.status.rows, reply.status.columns, reply.inks),
                    (rows, columns, inks)
                );
                assert_eq!((&reply.cells, &reply.second), (cells, second));
                assert_eq!((reply.status.outcome, reply.status.cycles), (6, 9));
                assert!(is_v3_reply(&out));
                let messages = if cells.iter().all(|c| c.count_ones() == 1) {
                    n.div_ceil(4) * (1 + !second.is_empty() as usize)
                } else {
                    (inks + 1) * n.div_ceil(13)
                };
                assert_eq!(out.len(), 6 + 2 * messages + 2 * status.len() + 2);
                assert_eq!(decode_reply(&out[..out.len() - 2]), Err(ReplyError::Incomplete));
            }
        }
    }
}

/// What the colour engine refuses, and its INFO; each reply is a v3 frame
/// with no cells.
#[test]
fn refusals_and_info() {
    let two = [vec![block(1, 1)], vec![block(1, 1)]];
    let v3 = |inks: usize| {
        let mut s = vec![];
        encode_board(&two, &two, inks.clamp(1, MAX_INKS), 0, false, &mut s);
        s[4..6].copy_from_slice(&Message::new(COLOURS, inks as u16, false).to_bytes());
        s
    };
    let mut v2 = vec![];
    crate::clue::clue_protocol::encode_board(&[vec![1], vec![1]], &[vec![1], vec![1]], 0, &mut v2);
    let mut v1 = vec![];
    crate::link::protocol::encode_board(2, 2, vec![vec![1u64, 2]; 4], false, &mut v1);
    let mut ink_3_of_2 = v3(2);
    ink_3_of_2[8..10].copy_from_slice(&Message::new(BLOCK, 3, false).to_bytes());
    let mut big = v3(1);
    big[0..2].copy_from_slice(&Message::new(code::START_BOARD, 33, true).to_bytes());
    let mut twice = v3(1);
    twice.splice(6..6, Message::new(COLOURS, 1, false).to_bytes());
    let cases: [(&str, Vec<u8>, u8, u8); 8] = [
        ("no inks", v3(0), outcome::MALFORMED, detail::BAD_INK),
        ("five inks", v3(5), outcome::OVER_CAPACITY, detail::BAD_INK),
        ("ink 3 of 2", ink_3_of_2, outcome::MALFORMED, detail::BAD_INK),
        ("a v2 board", v2, outcome::OVER_CAPACITY, detail::NO_ENGINE),
        ("a v1 board", v1, outcome::OVER_CAPACITY, detail::NO_ENGINE),
        ("33 rows", big, outcome::OVER_CAPACITY, detail::BAD_SIZE),
        ("COLOURS twice", twice, outcome::MALFORMED, detail::UNEXPECTED),
        ("INFO", query_bytes().to_vec(), outcome::INFO, detail::NONE),
    ];
    for (what, stream, o, d) in cases {
        let (reply, decoded) = ask(&stream);
        assert_eq!((decoded.status.outcome, decoded.status.detail), (o, d), "{what}");
        assert_eq!((decoded.status.rows, decoded.inks), (0, 4), "{what}");
        assert_eq!(frame(&reply), [0xE0, 0x01, 0xE0, 0x01, 0x40, 0x08], "{what}");
        assert_eq!(decoded.status.version, VERSION, "{what}");
    }
    // Four inks fit; a v3 board sent to the clue engine is refused there.
    assert_eq!(ask(&v3(4)).1.status.outcome, outcome::STALLED);
    let reply = BoardModel::new(Engine::Clues).bytes(&v3(1));
    let (decoded, _) = crate::clue::clue_protocol::decode_reply(&reply).unwrap();
    assert_eq!(
        (decoded.outcome, decoded.detail),
        (outcome::MALFORMED, detail::UNEXPECTED)
    );
}

/// The model board's replies say what the colour model found, on random
/// pictures of up to 4 inks.
#[test]
fn replies_carry_the_model_verdict() {
    let mut rng = Rng(3);
    for _ in 0..100 {
        let (rows, columns, inks) = (
            1 + rng.below(12) as usize,
            1 + rng.below(12) as usize,
            1 + rng.below(4) as usize,
        );
        let picture: Vec<u8> = (0..rows * columns)
            .map(|_| {
                if rng.below(3) == 0 {
                    0
                } else {
                    1 + rng.below(inks as u64) as u8
                }
            })
            .collect();
        let (row_clues, column_clues) = crate::bench::boards::colour_clues_of_picture(&picture, columns);
        for (budget, first) in [(0, false), (1, false), (1, true)] {
            let mut stream = vec![];
            encode_board(&row_clues, &column_clues, inks, budget, first, &mut stream);
            let (_, reply) = ask(&stream);
            let mode = crate::colour::model::ColourMode { budget, first };
            let v = crate::colour::model::solve(&row_clues, &column_clues, inks + 1, mode);
            assert_eq!((reply.status.outcome, reply.status.detail), (v.outcome, v.detail));
            assert_eq!((reply.cells, reply.second), (v.cells, v.second));
            assert_eq!(reply.status.cycles as u64, v.cycles);
            assert_eq!(
                (reply.status.nodes as u64, reply.status.passes),
                (v.nodes, v.passes)
            );
        }
    }
}
