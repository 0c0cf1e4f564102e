//! Options on the wire: totals against the closed form, the capacity check,
//! and encode/decode round trips through the board's side of the protocol.

use nonogram_hdl::board_model::{encode_reply, model_cycles, BoardModel};
use nonogram_hdl::dnf::options::{count, LineOptions};
use nonogram_hdl::link::protocol::status::{detail, outcome};
use nonogram_hdl::link::protocol::{code, decode_reply, Message};
use nonohost::wire::{check_capacity, encode, option_counts, total_options, wire_bytes};
use nonohost::Puzzle;
use proptest::prelude::*;

fn random_puzzle(h: usize, w: usize, bits: &[bool]) -> Puzzle {
    Puzzle::from_picture("p", h, w, bits)
}

/// Decodes a host → board stream back into (rows, columns, options per line).
fn decode_stream(bytes: &[u8]) -> (usize, usize, Vec<Vec<u64>>) {
    assert_eq!(bytes.len() % 2, 0);
    let msgs: Vec<Message> = bytes
        .chunks(2)
        .map(|b| Message::from_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(msgs[0].code(), code::START_BOARD);
    assert_eq!(msgs[1].code(), code::START_BOARD);
    let (rows, columns) = (msgs[0].index() as usize, msgs[1].index() as usize);
    let mut lines: Vec<Vec<u64>> = Vec::new();
    let mut option = 0u64;
    for m in &msgs[2..msgs.len() - 1] {
        match m.code() {
            code::START_LINE => {
                assert_eq!(m.index() as usize, lines.len());
                lines.push(Vec::new());
                option = 0;
            }
            code::ASSIGN => option |= (m.value() as u64) << m.index(),
            code::NEXT_OPTION => {
                lines.last_mut().unwrap().push(option);
                option = 0;
            }
            code::END_LINE => lines.last_mut().unwrap().push(option),
            c => panic!("code {c:03b} in a host stream"),
        }
    }
    assert_eq!(msgs.last().unwrap().code(), code::END_BOARD);
    (rows, columns, lines)
}

#[test]
fn totals_match_the_closed_form_and_the_enumeration() {
    for path in [
        "4x4.txt",
        "heart6x7.txt",
        "x11x11.txt",
        "random15x15.txt",
        "duck.non",
    ] {
        let p = Puzzle::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../examples")
                .join(path),
        )
        .unwrap();
        let counts = option_counts(&p);
        for ((clue, length), n) in p.lines().zip(&counts) {
            assert_eq!(
                LineOptions::new(clue, length).count() as u64,
                *n,
                "{path} {clue:?}"
            );
        }
        assert_eq!(total_options(&p), counts.iter().sum::<u64>());
    }
    // Design brief: the 4x4 has 24 options? Check against count() directly.
    assert_eq!(count(&[1, 1], 32), 465);
}

#[test]
fn capacity_is_refused_with_numbers() {
    // 30 x 30 with [1,1] everywhere: 406 options a line, 24 360 in all.
    let p = Puzzle::from_clues("big", vec![vec![1, 1]; 30], vec![vec![1, 1]; 30]);
    let e = check_capacity(&p).unwrap_err();
    assert_eq!((e.outcome, e.detail), (outcome::OVER_CAPACITY, detail::FIFO_FULL));
    assert!(
        e.message.contains("24360 options") && e.message.contains("2048"),
        "{e}"
    );
    assert!(e.message.contains("row 1, clue 1,1: 406 options"), "{e}");
    let p = Puzzle::from_clues("wide", vec![vec![1]; 2], vec![vec![]; 40]);
    let e = check_capacity(&p).unwrap_err();
    assert_eq!(e.detail, detail::BAD_SIZE);
    assert!(
        e.message.contains("40 columns x 2 rows") && e.message.contains("at most 32"),
        "{e}"
    );
}

#[test]
fn only_filled_cells_by_default_and_every_cell_on_request() {
    let p = Puzzle::from_clues("t", vec![vec![1], vec![]], vec![vec![1], vec![]]);
    let filled = encode(&p, false);
    let every = encode(&p, true);
    let assigns = |b: &[u8]| b.chunks(2).filter(|m| m[0] >> 5 == code::ASSIGN).count();
    // Row 0 [1] in 2 cells: 2 options of one filled cell; row 1: one empty option.
    assert_eq!(assigns(&filled), 2 + 2);
    assert_eq!(assigns(&every), 2 * 2 + 2 + 2 * 2 + 2);
    assert_eq!(wire_bytes(&p, false), filled.len() as u64);
    assert_eq!(wire_bytes(&p, true), every.len() as u64);
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, cases: 200, ..ProptestConfig::default() })]

    /// Encoding streams exactly the options LineOptions gives, in order, and
    /// the model board's reply decodes to the model's verdict.
    #[test]
    fn encode_decode_round_trip(h in 1usize..9, w in 1usize..9, bits in any::<u64>(), every in any::<bool>()) {
        let cells: Vec<bool> = (0..h * w).map(|i| bits >> i & 1 == 1).collect();
        let p = random_puzzle(h, w, &cells);
        let bytes = encode(&p, every);
        prop_assert_eq!(bytes.len() as u64, wire_bytes(&p, every));
        let (rows, columns, lines) = decode_stream(&bytes);
        prop_assert_eq!((rows, columns), (h, w));
        let expected: Vec<Vec<u64>> = p.lines().map(|(c, l)| LineOptions::new(c, l).collect()).collect();
        prop_assert_eq!(&lines, &expected);

        let mut board = BoardModel::default();
        let replies: Vec<Vec<u8>> = bytes.iter().filter_map(|&b| board.byte(b)).collect();
        prop_assert_eq!(replies.len(), 1);
        let verdict = nonogram_hdl::dnf::model::solve(h, w, &expected);
        prop_assert_eq!(&replies[0], &encode_reply(&verdict));
        let (reply, used) = decode_reply(&replies[0]).unwrap();
        prop_assert_eq!(used, replies[0].len());
        prop_assert_eq!((reply.rows, reply.columns), (h, w));
        prop_assert_eq!(&reply.cells, &verdict.cells);
        prop_assert_eq!(reply.outcome, verdict.outcome);
        prop_assert_eq!(reply.passes, verdict.passes);
        prop_assert_eq!(reply.options as usize, verdict.options);
        prop_assert_eq!(reply.cycles, model_cycles(&verdict));
    }
}
