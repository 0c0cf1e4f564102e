//! The parser built for colour boards (protocol v3): random colour boards
//! up to the colour engine's 32×32 and 4 inks load block for block, each
//! block with its ink; refusals and broken streams as `BoardModel`'s
//! colour engine answers them.

use super::broken::{broken, check_like_the_model_on};
use super::*;
use crate::bench::boards::colour_clues_of_picture;
use crate::board_model::Engine;
use crate::colour::colour_protocol::{encode_board, BLOCK, COLOURS};
use crate::colour::line_logic::Block;
use crate::colour::{ENGINE_INKS, ENGINE_SIDE};

fn colour_harness(seed: u64) -> Harness {
    Harness::on(
        ClueParser::with_colours(0, Some(IDLE), ENGINE_SIDE, ENGINE_INKS),
        seed,
    )
}

/// A random picture's colour clues (rows, columns) with up to `inks` inks.
fn random_clues(
    n: &mut Noise,
    rows: usize,
    columns: usize,
    inks: usize,
) -> (Vec<Vec<Block>>, Vec<Vec<Block>>) {
    let background = n() % 100;
    let picture: Vec<u8> = (0..rows * columns)
        .map(|_| {
            if n() % 100 < background {
                0
            } else {
                1 + (n() % inks as u64) as u8
            }
        })
        .collect();
    colour_clues_of_picture(&picture, columns)
}

fn stream(rows: &[Vec<Block>], columns: &[Vec<Block>], inks: usize, budget: u16, first: bool) -> Vec<u8> {
    let mut bytes = vec![];
    encode_board(rows, columns, inks, budget, first, &mut bytes);
    bytes
}

#[test]
fn loads_random_colour_boards() {
    let mut n = xorshift(0xc010);
    let mut h = colour_harness(7);
    for case in 0..40 {
        let (r, c) = (1 + (n() % 32) as usize, 1 + (n() % 32) as usize);
        let inks = 1 + (n() % ENGINE_INKS as u64) as usize;
        let (rows, columns) = random_clues(&mut n, r, c, inks);
        let budget = (n() % 4096) as u16;
        let first = n() & 1 == 1;
        h.send(&stream(&rows, &columns, inks, budget, first));
        let what = format!("case {case}: {r}×{c}, {inks} inks");
        // The same checks as a v2 board's, on the blocks' lengths, and
        // every block's ink.
        let lengths: Vec<Vec<usize>> = rows
            .iter()
            .chain(&columns)
            .map(|l| l.iter().map(|b| b.length).collect())
            .collect();
        let board = Board::new(&lengths[..r], &lengths[r..], budget, first);
        h.check_loaded(&board, &what);
        let inks_sent: Vec<usize> = rows
            .iter()
            .chain(&columns)
            .flatten()
            .map(|b| b.ink as usize)
            .collect();
        assert_eq!(h.inks, inks_sent, "{what}: inks");
        assert_eq!(h.uut.inks.val().index(), inks, "{what}: the board's inks");
        assert_eq!(h.take_verdicts(), vec![board.loaded()], "{what}");
    }
}

/// Each refusal v3 adds, and v2's where COLOURS changes them, as the
/// model's colour engine answers.
#[test]
fn refuses_as_the_model() {
    let m = |code, index, value| Message::new(code, index, value);
    let size = |r, c| vec![m(code::START_BOARD, r, true), m(code::START_BOARD, c, true)];
    let colours = |k| m(COLOURS, k, false);
    let line = |i| m(code::START_LINE, i, false);
    let block = |length: u16, ink: u16| m(BLOCK, (length - 1) << 6 | ink, false);
    let end = m(code::END_BOARD, 0, false);
    let board = |k: u16, lines: &[Message]| [size(1, 1), vec![colours(k)], lines.to_vec()].concat();
    let good = [line(0), block(1, 1), line(1), block(1, 1), end];
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<Message>)> = vec![
        ("no inks", board(0, &good)),
        ("five inks", board(5, &good)),
        ("4 095 inks", board(4095, &good)),
        ("four inks", board(4, &good)),
        ("ink 0", board(2, &[line(0), block(1, 0)])),
        ("ink 3 of 2", board(2, &[line(0), block(1, 3)])),
        ("ink 7 of 4", board(4, &[line(0), block(1, 7)])),
        ("a v2 board", [size(1, 1), good.to_vec()].concat()),
        ("a v1 board", vec![m(code::START_BOARD, 1, false), m(code::START_BOARD, 1, false)]),
        ("33 rows", [size(33, 1), vec![colours(1)]].concat()),
        ("END_BOARD before COLOURS", [size(1, 1), vec![end]].concat()),
        ("BLOCK before COLOURS", [size(1, 1), vec![block(1, 1)]].concat()),
        ("COLOURS twice", board(1, &[colours(1)])),
        ("COLOURS in a line", board(1, &[line(0), colours(1)])),
        ("BLOCK before a line", board(1, &[block(1, 1)])),
        ("first line not 0", board(1, &[line(1)])),
        ("a block of 64 on a 1×1", board(1, &[line(0), block(64, 1), line(1), end])),
    ];
    for (case, (name, messages)) in cases.into_iter().enumerate() {
        let items: Vec<Item> = messages
            .iter()
            .flat_map(|m| m.to_bytes())
            .map(Item::Byte)
            .collect();
        check_like_the_model_on(colour_harness(case as u64), Engine::Colour, &items, name);
    }
}

/// Small colour boards, with QUERYs between, then messages replaced,
/// dropped, repeated or added (COLOURS and BLOCKs with any count and ink
/// among them), bytes lost or dropped, silences: as the model.
#[test]
fn broken_colour_streams_as_the_model() {
    let mut n = xorshift(0xc0b2);
    for case in 0..300 {
        let mut messages: Vec<u16> = vec![];
        for _ in 0..1 + n() % 3 {
            if n() % 4 == 0 {
                messages.push(Message::new(code::QUERY, 0, false).0);
            }
            let (r, c) = (1 + (n() % 5) as usize, 1 + (n() % 5) as usize);
            let inks = 1 + (n() % ENGINE_INKS as u64) as usize;
            let (rows, columns) = random_clues(&mut n, r, c, inks);
            let bytes = stream(&rows, &columns, inks, (n() % 3) as u16, n() & 1 == 1);
            messages.extend(bytes.chunks(2).map(|b| u16::from_be_bytes([b[0], b[1]])));
        }
        let mut random = |n: &mut Noise| match n() % 4 {
            0 => Message::new((n() % 8) as u8, (n() % 8) as u16, n() & 1 == 1).0,
            1 => Message::new(COLOURS, (n() % 9) as u16, false).0,
            2 => Message::new(BLOCK, ((n() % 4) << 6 | n() % 8) as u16, false).0,
            _ => n() as u16,
        };
        let items = broken(&mut n, messages, &mut random);
        check_like_the_model_on(
            colour_harness(case),
            Engine::Colour,
            &items,
            &format!("case {case}: {items:?}"),
        );
    }
}
