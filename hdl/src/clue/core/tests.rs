use super::*;
use crate::bench::boards::{random_clues, Clues, Rng};
use crate::bench::driver::{CoreDriver, SerialCore};
use crate::board_model::{BoardModel, Engine};
use crate::clue::clue_model;
use crate::clue::clue_protocol::{decode_reply, encode_board};
use crate::link::protocol::{code, query_bytes, status, Message};

const CPB: u32 = 4;

fn stream(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<u8> {
    let mut out = vec![];
    encode_board(rows, columns, 0, &mut out);
    out
}

fn messages(list: &[(u8, u16, bool)]) -> Vec<u8> {
    list.iter()
        .flat_map(|&(c, i, v)| Message::new(c, i, v).to_bytes())
        .collect()
}

/// The core's reply to each stream is the board model's, byte for byte
/// (cells, cycles and passes included).
fn check(driver: &mut CoreDriver<ClueCore>, name: &str, bytes: &[u8]) {
    check_engine(driver, Engine::Clues, name, bytes);
}

/// As [`check`], for the core of `engine`.
fn check_engine<C: SerialCore>(driver: &mut CoreDriver<C>, engine: Engine, name: &str, bytes: &[u8]) {
    let mut model = BoardModel::new(engine);
    let mut expected = model.bytes(bytes);
    expected.extend(model.idle().unwrap_or_default());
    let got = driver.answer(bytes, 5_000_000);
    assert_eq!(got, expected, "{name}: the core and the model disagree");
}

/// The examples of docs/protocol.md ("Protocol v2"), byte for byte.
#[test]
fn answers_the_documented_examples() {
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let one = driver.answer(&stream(&[vec![1]], &[vec![1]]), 1_000_000);
    assert_eq!(one[..6], [0xE0, 0x03, 0xE0, 0x03, 0xB0, 0x00]);
    assert_eq!(one.len(), 6 + 2 * (15 + 8) + 2);
    // Two solutions (the diagonals), a budget of one unit.
    let mut bytes = vec![];
    encode_board(&[vec![1], vec![1]], &[vec![1], vec![1]], 1, &mut bytes);
    assert_eq!(bytes[bytes.len() - 2..], [0x00, 0x02]);
    check(&mut driver, "two diagonals", &bytes);
    let two = driver.answer(&bytes, 1_000_000);
    assert_eq!(
        two[..10],
        [0xE0, 0x05, 0xE0, 0x05, 0xB2, 0x00, 0x5E, 0x00, 0x80, 0x0C]
    );
    let reply = decode_reply(&two).unwrap().0;
    assert_eq!(
        (reply.outcome, reply.nodes, reply.backtracks),
        (status::outcome::SEVERAL, 2, 1)
    );
    assert_eq!(two[two.len() - 2..], [0x00, 0x00]);
}

#[test]
fn solves_boards_like_the_model() {
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let heart: (Clues, Clues) = (
        vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
        vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
    );
    check(&mut driver, "heart", &stream(&heart.0, &heart.1));
    let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&stream(&heart.0, &heart.1)));
    let reply = reply.unwrap().0;
    assert_eq!((reply.outcome, reply.cycles), (status::outcome::SOLVED, 854));
    let mut rng = Rng(2026);
    let mut outcomes = [0usize; 3];
    for (rows, columns, density) in [
        (1, 1, 50),
        (5, 5, 50),
        (7, 11, 60),
        (13, 13, 50),
        (20, 20, 55),
        (10, 30, 50),
    ] {
        for _ in 0..3 {
            let (r, c) = random_clues(&mut rng, rows, columns, density);
            let bytes = stream(&r, &c);
            let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
                .unwrap()
                .0;
            outcomes[reply.outcome as usize] += 1;
            check(&mut driver, &format!("random {rows}x{columns}"), &bytes);
        }
    }
    // Clues of random pictures shuffled between lines: mostly contradictions.
    for _ in 0..4 {
        let (mut r, c) = random_clues(&mut rng, 9, 9, 50);
        r.rotate_left(1);
        check(&mut driver, "shuffled 9x9", &stream(&r, &c));
    }
    println!("solved / contradiction / stalled among the random pictures: {outcomes:?}");
    assert!(
        outcomes[0] > 0 && outcomes[2] > 0,
        "both kinds checked: {outcomes:?}"
    );
}

/// First-solution mode (END_BOARD's value bit): the core stops at the
/// first solution its search finds, SOLVED with DETAIL 1, byte for byte
/// and cycle for cycle the model's; boards line logic decides, and
/// boards without a solution, answer as in uniqueness mode.
#[test]
fn first_solution_mode_stops_at_the_first_solution_like_the_model() {
    use crate::clue::clue_model::{first_solution, FIRST_FOUND};
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let mut rng = Rng(0xf125);
    let mut by_search = 0;
    for i in 0..24 {
        let (r, mut c) = random_clues(&mut rng, 5 + i % 6, 5 + i % 5, 50);
        if i % 8 == 7 {
            c.rotate_left(1);
        }
        let mut bytes = vec![];
        crate::clue::clue_protocol::encode_search(&r, &c, 8, true, &mut bytes);
        let v = first_solution(&r, &c, 8);
        by_search += (v.detail == FIRST_FOUND) as usize;
        check(&mut driver, &format!("first solution, board {i}"), &bytes);
    }
    assert!(by_search >= 4, "{by_search} found by search");
}

/// Replies whose cells were left by a search or by an earlier board:
/// the VALUES map carries 0 at every unknown cell, as the protocol
/// says, so the bytes are the model's. Small boards with a search
/// budget (several solutions, none found by search); then a 64×64
/// line logic cannot start on, after a dense 64×64 filled the memory:
/// more unknown cells than the undo trail holds, so GAVE_UP at once.
#[test]
fn values_are_zero_wherever_a_cell_is_unknown() {
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let mut rng = Rng(0x7a1_0e5);
    let mut outcomes = [0usize; 8];
    for trial in 0..24 {
        let (r, mut c) = random_clues(&mut rng, 6, 6, 50);
        if trial % 2 == 1 {
            c = random_clues(&mut rng, 6, 6, 50).1;
        }
        let mut bytes = vec![];
        encode_board(&r, &c, 1, &mut bytes);
        let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
            .unwrap()
            .0;
        outcomes[reply.outcome as usize] += 1;
        check(&mut driver, &format!("6x6 with search, trial {trial}"), &bytes);
    }
    println!("outcomes of the searched boards: {outcomes:?}");
    assert!(outcomes[1] > 0 && outcomes[6] > 0, "{outcomes:?}");
    let (r, c) = random_clues(&mut rng, 64, 64, 85);
    check(&mut driver, "dense 64x64", &stream(&r, &c));
    let ones: Clues = vec![vec![1]; 64];
    let mut bytes = vec![];
    encode_board(&ones, &ones, 1, &mut bytes);
    let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
        .unwrap()
        .0;
    assert_eq!(reply.outcome, status::outcome::GAVE_UP);
    check(&mut driver, "64x64 of single cells (GAVE_UP)", &bytes);
}

#[test]
fn a_board_of_sixty_four_by_sixty_four() {
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let mut rng = Rng(64);
    let (r, c) = random_clues(&mut rng, 64, 64, 70);
    check(&mut driver, "random 64x64", &stream(&r, &c));
}

#[test]
fn answers_a_query_and_refuses_what_breaks_the_protocol() {
    let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
    let (sb, sl, b, eb) = (code::START_BOARD, code::START_LINE, code::ASSIGN, code::END_BOARD);
    let info = BoardModel::new(Engine::Clues).bytes(&query_bytes());
    let reply = decode_reply(&info).unwrap().0;
    assert_eq!(
        (reply.outcome, reply.version, reply.engines),
        (status::outcome::INFO, 2, 0x72)
    );
    assert_eq!(
        (reply.max_line, reply.max_lines, reply.clue_store_bits),
        (64, 128, 11)
    );
    check(&mut driver, "query", &query_bytes());
    let header = |r: u16, c: u16| vec![(sb, r, true), (sb, c, true)];
    let line = |i: u16| (sl, i, false);
    let one = |n: u16| (b, (n - 1) << 6, false);
    let mut thirty_three = vec![line(0)];
    thirty_three.extend((0..17).map(|_| (b, 0, true)));
    let cases: Vec<(&str, Vec<(u8, u16, bool)>)> = vec![
        ("a board of options (v1)", vec![(sb, 2, false), (sb, 2, false)]),
        ("zero columns", header(3, 0)),
        ("65 rows", header(65, 3)),
        ("blocks before a line", [header(2, 2), vec![one(1)]].concat()),
        ("line out of order", [header(2, 2), vec![line(1)]].concat()),
        ("line skipped", [header(2, 2), vec![line(0), line(2)]].concat()),
        (
            "END_BOARD early",
            [header(2, 2), vec![line(0), line(0), (eb, 0, false)]].concat(),
        ),
        (
            "a line too many",
            [header(1, 1), vec![line(0), line(0), line(0)]].concat(),
        ),
        ("33 blocks in a line", [header(2, 64), thirty_three].concat()),
        (
            "END_LINE (v1 only)",
            [header(2, 2), vec![line(0), (code::END_LINE, 0, false)]].concat(),
        ),
        (
            "cut in the middle",
            [header(2, 2), vec![line(0), one(2)]].concat(),
        ),
        ("lone START_BOARD then BLOCKS", vec![(sb, 2, true), one(1)]),
    ];
    for (name, list) in cases {
        check(&mut driver, name, &messages(&list));
    }
    // A board of every line 32 blocks: 4 096 > the store's 2 048.
    let full: Clues = vec![vec![1; 32]; 64];
    check(&mut driver, "clue store full", &stream(&full, &full));
    // After all that, a good board still solves.
    check(&mut driver, "a 1x1 after", &stream(&[vec![1]], &[vec![1]]));
}

/// The probing build (flash image 2): its INFO (engine 3, 32 a side), its
/// refusal of a board over 32 a side, and boards that need search, in both
/// modes, byte for byte as the model's probing engine answers (cycles,
/// nodes and backtracks included).
#[test]
fn the_probing_core_answers_like_its_model() {
    let mut driver = CoreDriver::<ProbingCore>::with_core(CPB);
    check_engine(&mut driver, Engine::Probing, "QUERY", &query_bytes());
    let info = decode_reply(&driver.answer(&query_bytes(), 100_000)).unwrap().0;
    assert_eq!(
        (info.max_line, info.engines & 0x0f),
        (32, status::engines::PROBING)
    );
    let tall = stream(&vec![vec![1]; 33], &[vec![33]]);
    check_engine(&mut driver, Engine::Probing, "33 rows", &tall);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut searched, mut boards) = (0, 0);
    while searched < 3 {
        let (rows, columns) = (8 + rng.below(5) as usize, 8 + rng.below(5) as usize);
        let density = 35 + rng.below(11);
        let (r, c) = random_clues(&mut rng, rows, columns, density);
        let first = boards % 2 == 1;
        let mut bytes = vec![];
        encode_board(&r, &c, 4095, &mut bytes);
        if first {
            // END_BOARD's value bit: first-solution mode.
            let last = bytes.len() - 1;
            bytes[last] |= 1;
        }
        let mode = clue_model::Mode {
            budget: 4095,
            first,
            probe: true,
        };
        searched += (clue_model::run(&r, &c, mode).nodes > 0) as usize;
        boards += 1;
        check_engine(&mut driver, Engine::Probing, &format!("board {boards}"), &bytes);
    }
}
