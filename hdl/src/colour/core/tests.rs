//! The whole colour core behind its UART, byte for byte against the board
//! model (`BoardModel::new(Engine::Colour)`): INFO, refusals, and random
//! colour boards with line logic alone and with search in both modes
//! (cells, cycles, nodes and backtracks included).

use super::*;
use crate::bench::boards::{random_colour_board, Rng};
use crate::bench::driver::CoreDriver;
use crate::board_model::{BoardModel, Engine};
use crate::colour::colour_protocol::{decode_reply, encode_board, BLOCK, COLOURS};
use crate::colour::line_logic::Block;
use crate::link::protocol::{code, query_bytes, status, Message};

const CPB: u32 = 4;

/// The core's reply to `bytes` is the model's, byte for byte.
fn check(driver: &mut CoreDriver<ColourCore>, name: &str, bytes: &[u8]) -> Vec<u8> {
    let mut model = BoardModel::new(Engine::Colour);
    let mut expected = model.bytes(bytes);
    expected.extend(model.idle().unwrap_or_default());
    let got = driver.answer(bytes, 20_000_000);
    assert_eq!(got, expected, "{name}: the core and the model disagree");
    got
}

fn stream(rows: &[Vec<Block>], columns: &[Vec<Block>], inks: usize, budget: u16, first: bool) -> Vec<u8> {
    let mut bytes = vec![];
    encode_board(rows, columns, inks, budget, first, &mut bytes);
    bytes
}

fn driver() -> CoreDriver<ColourCore> {
    CoreDriver::<ColourCore>::with_core(CPB)
}

/// INFO (engine 4, 32 a side, 4 inks, version 3), and what the parser
/// refuses: no inks, more than four, an ink past the board's, a board
/// over 32 a side, a v2 board; a good board after.
#[test]
fn answers_info_and_refuses_as_the_model() {
    let mut d = driver();
    let info = check(&mut d, "QUERY", &query_bytes());
    let (reply, _) = decode_reply(&info).expect("a v3 reply");
    assert_eq!(
        (
            reply.status.outcome,
            reply.status.version,
            reply.status.max_line,
            reply.inks
        ),
        (status::outcome::INFO, 3, 32, 4)
    );
    assert_eq!(reply.status.engines & 0x0f, status::engines::COLOUR);
    let m = |code, index, value| Message::new(code, index, value);
    let header = |r, c, k| {
        vec![
            m(code::START_BOARD, r, true),
            m(code::START_BOARD, c, true),
            m(COLOURS, k, false),
        ]
    };
    let line = |i| m(code::START_LINE, i, false);
    let block = |length: u16, ink: u16| m(BLOCK, (length - 1) << 6 | ink, false);
    let end = m(code::END_BOARD, 0, false);
    let good = [line(0), block(1, 1), line(1), block(1, 1), end];
    let cases: Vec<(&str, Vec<Message>)> = vec![
        ("no inks", [header(1, 1, 0), good.to_vec()].concat()),
        ("five inks", [header(1, 1, 5), good.to_vec()].concat()),
        (
            "ink 3 of 2",
            [header(1, 1, 2), vec![line(0), block(1, 3)]].concat(),
        ),
        ("33 rows", header(33, 1, 1)),
        (
            "a v2 board",
            vec![
                m(code::START_BOARD, 1, true),
                m(code::START_BOARD, 1, true),
                line(0),
            ],
        ),
        ("a good 1x1 after", [header(1, 1, 1), good.to_vec()].concat()),
    ];
    for (name, messages) in cases {
        let bytes: Vec<u8> = messages.iter().flat_map(|m| m.to_bytes()).collect();
        check(&mut d, name, &bytes);
    }
}

/// Random boards up to 12×12 and a few up to 32×32, with up to four
/// inks: line logic alone (SOLVED, STALLED, CONTRADICTION), then the
/// small ones searched in both modes (SEVERAL, SOLVED from the kept
/// solution or a first one, CONTRADICTION searched).
#[test]
fn solves_random_boards_as_the_model() {
    let mut d = driver();
    let mut rng = Rng(0xc0_10c0_4e);
    let mut outcomes = [0usize; 8];
    for case in 0..24 {
        let side = if case % 8 == 7 { 32 } else { 12 };
        let (rows, columns, colours) = random_colour_board(&mut rng, side, side, 4);
        let inks = colours - 1;
        let bytes = stream(&rows, &columns, inks, 0, false);
        let got = check(&mut d, &format!("line logic, board {case}"), &bytes);
        outcomes[decode_reply(&got).expect("a v3 reply").0.status.outcome as usize] += 1;
    }
    for case in 0..24 {
        let (rows, columns, colours) = random_colour_board(&mut rng, 7, 7, 4);
        let first = case % 2 == 1;
        let bytes = stream(&rows, &columns, colours - 1, 1, first);
        let got = check(&mut d, &format!("searched, first {first}, board {case}"), &bytes);
        let reply = decode_reply(&got).expect("a v3 reply").0;
        outcomes[reply.status.outcome as usize] += 1;
    }
    println!("outcomes: {outcomes:?}");
    use status::outcome::*;
    for o in [SOLVED, CONTRADICTION, STALLED, SEVERAL] {
        assert!(
            outcomes[o as usize] > 0,
            "outcome {o} among the boards: {outcomes:?}"
        );
    }
}
