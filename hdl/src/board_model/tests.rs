use super::*;
use crate::bench::boards::v1_stream;
use crate::bench::driver::{CoreDriver, SerialCore};
use crate::link::protocol::status::{engines, field};
use crate::link::protocol::{query_bytes, IDLE_TIMEOUT_BITS};

const CPB: u32 = 4;

/// A piece of a test stream; the line goes quiet after each.
enum Piece {
    Bytes(Vec<u8>),
    /// The line idle past the idle timeout.
    Idle,
    /// A byte with a low stop bit.
    Lost(u8),
}

/// The original design's stream: START_LINE 0 for every line.
fn original(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<u8> {
    let mut bytes = v1_stream(rows, columns, true);
    for at in (0..bytes.len()).step_by(2) {
        if Message::from_bytes([bytes[at], bytes[at + 1]]).code() == code::START_LINE {
            bytes[at..at + 2].copy_from_slice(&Message::new(code::START_LINE, 0, false).to_bytes());
        }
    }
    bytes
}

fn messages(list: &[(u8, u16, bool)]) -> Vec<u8> {
    list.iter()
        .flat_map(|&(c, i, v)| Message::new(c, i, v).to_bytes())
        .collect()
}

/// Runs the pieces through the board model and through the simulated
/// core; both must send the same bytes.
fn check(name: &str, pieces: &[Piece]) -> Vec<u8> {
    check_on::<crate::dnf::core::NonogramCore>(Engine::Dnf, name, pieces)
}

/// As [`check`], on the core of `engine` (`C`).
fn check_on<C: SerialCore>(engine: Engine, name: &str, pieces: &[Piece]) -> Vec<u8> {
    let mut model = BoardModel::new(engine);
    let mut driver = CoreDriver::<C>::with_core(CPB);
    let (mut expected, mut got) = (vec![], vec![]);
    let quiet = |driver: &mut CoreDriver<C>| {
        while !driver.quiet() {
            driver.step();
        }
    };
    for piece in pieces {
        match piece {
            Piece::Bytes(bytes) => {
                expected.extend(model.bytes(bytes));
                driver.send(bytes);
            }
            Piece::Idle => {
                expected.extend(model.idle().unwrap_or_default());
                quiet(&mut driver);
                for _ in 0..(IDLE_TIMEOUT_BITS * CPB + 10) {
                    driver.step();
                }
            }
            Piece::Lost(byte) => {
                expected.extend(model.framing_error().unwrap_or_default());
                driver.send_with_framing_error(*byte);
            }
        }
        quiet(&mut driver);
        got.extend(driver.take_received());
    }
    assert_eq!(got, expected, "{name}: the core and the board model differ");
    got
}

fn heart() -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
    let columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
    (rows, columns)
}

#[test]
fn answers_like_the_core_on_good_streams() {
    use Piece::*;
    let (rows, columns) = heart();
    let small = (
        vec![vec![2], vec![1, 1], vec![3], vec![1]],
        vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
    );
    let stalls = (vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
    let contradiction = (vec![vec![2], vec![]], vec![vec![1], vec![]]);
    for (name, (r, c)) in [
        ("heart", (rows, columns)),
        ("4x4", small),
        ("stalls", stalls),
        ("contradiction", contradiction),
    ] {
        check(
            name,
            &[
                Bytes(v1_stream(&r, &c, false)),
                Bytes(v1_stream(&r, &c, true)),
                Bytes(original(&r, &c)),
            ],
        );
    }
    check("query", &[Bytes(query_bytes().to_vec())]);
}

#[test]
fn answers_like_the_core_on_malformed_streams() {
    use Piece::*;
    let (rows, columns) = heart();
    let good = v1_stream(&rows, &columns, false);
    let one = v1_stream(&[vec![1]], &[vec![1]], false);
    let (sb, sl, a, no, el, eb) = (
        code::START_BOARD,
        code::START_LINE,
        code::ASSIGN,
        code::NEXT_OPTION,
        code::END_LINE,
        code::END_BOARD,
    );
    let cases: Vec<(&str, Vec<(u8, u16, bool)>)> = vec![
        ("zero rows", vec![(sb, 0, false), (sb, 3, false)]),
        ("a board of clues (v2)", vec![(sb, 3, true), (sb, 3, true)]),
        ("too many columns", vec![(sb, 3, false), (sb, 33, false)]),
        ("too many lines", vec![(sb, 32, false), (sb, 32, false)]),
        (
            "lone START_BOARD then a line",
            vec![(sb, 3, false), (sl, 0, false)],
        ),
        (
            "line out of order",
            vec![(sb, 2, false), (sb, 2, false), (sl, 1, false)],
        ),
        (
            "assign outside a line",
            vec![(sb, 2, false), (sb, 2, false), (a, 0, true)],
        ),
        (
            "cell past the line",
            vec![(sb, 2, false), (sb, 3, false), (sl, 0, false), (a, 3, true)],
        ),
        (
            "END_BOARD early",
            vec![
                (sb, 1, false),
                (sb, 1, false),
                (sl, 0, false),
                (el, 0, false),
                (eb, 0, false),
            ],
        ),
        (
            "START_LINE 0 past the last line",
            vec![
                (sb, 1, false),
                (sb, 1, false),
                (sl, 0, false),
                (el, 0, false),
                (sl, 0, false),
                (el, 0, false),
                (sl, 0, false),
            ],
        ),
        (
            "END_BOARD inside a line",
            vec![(sb, 1, false), (sb, 1, false), (sl, 0, false), (eb, 0, false)],
        ),
        (
            "code 100 inside a line",
            vec![
                (sb, 1, false),
                (sb, 1, false),
                (sl, 0, false),
                (code::STATUS, 0, false),
            ],
        ),
        (
            "NEXT_OPTION between lines",
            vec![(sb, 1, false), (sb, 1, false), (no, 0, false)],
        ),
        (
            "QUERY inside a board",
            vec![
                (sb, 1, false),
                (sb, 1, false),
                (sl, 0, false),
                (code::QUERY, 0, false),
            ],
        ),
        (
            "stray messages",
            vec![(a, 3, true), (eb, 0, false), (el, 0, false)],
        ),
    ];
    for (name, list) in cases {
        check(name, &[Bytes(messages(&list)), Idle, Bytes(one.clone())]);
    }
    // Restarts, silences and lost bytes, at a few places in a board.
    for at in [
        1,
        2,
        3,
        4,
        5,
        9,
        10,
        good.len() / 2,
        good.len() / 2 + 1,
        good.len() - 2,
        good.len() - 1,
    ] {
        check("restart", &[Bytes([&good[..at], &good[..]].concat())]);
        check("silence", &[Bytes(good[..at].to_vec()), Idle, Bytes(one.clone())]);
        check(
            "lost byte",
            &[
                Bytes(good[..at].to_vec()),
                Lost(good[at]),
                Bytes(good[at + 1..].to_vec()),
                Idle,
                Bytes(one.clone()),
            ],
        );
    }
    check(
        "lone START_BOARD, half a message",
        &[Bytes(vec![0xe0, 0x06, 0x55]), Idle, Bytes(one.clone())],
    );
    check(
        "query after a board",
        &[Bytes(one.clone()), Bytes(query_bytes().to_vec()), Idle],
    );
}

/// The example in docs/protocol.md, byte for byte.
/// SWITCH on both cores, against the model: ignored while a reply is
/// being sent, refused inside a board, ignored for an image the flash
/// does not hold or a bad index, obeyed when idle; INFO names the
/// running engine and the flash's images.
fn check_switch<C: SerialCore>(engine: Engine, board: Vec<u8>) {
    let switch = |image: u16| Message::new(code::SWITCH, image, false).to_bytes();
    let mut model = BoardModel::new(engine);
    let mut driver = CoreDriver::<C>::with_core(CPB);
    let run = |driver: &mut CoreDriver<C>, bytes: &[u8]| {
        driver.send(bytes);
        while !driver.quiet() {
            driver.step();
        }
        driver.take_received()
    };
    // INFO: field 13 says which engine runs and what the flash holds.
    let info = run(&mut driver, &query_bytes());
    assert_eq!(info, model.bytes(&query_bytes()), "{engine:?}: INFO");
    let reply = crate::clue::clue_protocol::decode_any_reply(&info).unwrap().0;
    let own = [engines::DNF, engines::CLUES][engine as usize];
    assert_eq!(reply.engines, image::engines_field(own, image::FLASH));
    // A SWITCH right behind END_BOARD lands during the solve; one sent
    // once the reply has begun lands while it goes out. Either way the
    // reply is whole, and nothing boots.
    let other = 1 - engine as u16;
    let expected = model.bytes(&board);
    let mut stream = board.clone();
    stream.extend(switch(other));
    assert_eq!(run(&mut driver, &stream), expected, "{engine:?}: the reply");
    assert_eq!(driver.boot(), None, "{engine:?}: SWITCH while solving");
    driver.send(&board);
    let mut got = vec![];
    while got.len() < 4 {
        driver.step();
        got.extend(driver.take_received());
    }
    got.extend(run(&mut driver, &switch(other)));
    assert_eq!(got, expected, "{engine:?}: the reply");
    assert_eq!(driver.boot(), None, "{engine:?}: SWITCH while replying");
    // Inside a board: refused, as code 100 always was.
    let mut inside = board[..4].to_vec();
    inside.extend(switch(other));
    assert_eq!(
        run(&mut driver, &inside),
        model.bytes(&inside),
        "{engine:?}: SWITCH in a board"
    );
    assert_eq!((driver.boot(), model.boot()), (None, None));
    // Images the flash does not hold, and indexes beyond its slots.
    let outside = (0..image::SLOTS as u16).filter(|&i| image::FLASH >> i & 1 == 0);
    for image in outside.chain([4, 5, 4095]) {
        assert!(run(&mut driver, &switch(image)).is_empty());
        assert!(model.bytes(&switch(image)).is_empty());
        assert_eq!((driver.boot(), model.boot()), (None, None), "image {image}");
    }
    // Idle: it boots, with no reply.
    assert!(run(&mut driver, &switch(other)).is_empty());
    assert!(model.bytes(&switch(other)).is_empty());
    assert_eq!(driver.boot(), Some(other as u8), "{engine:?}: SWITCH when idle");
    assert_eq!(model.boot(), driver.boot());
}

/// The clue core against the model on broken v2 streams: a byte lost
/// to a framing error (FRAMING), a silence (TRUNCATED) and a restart at
/// offsets through a board, each followed by a good board.
#[test]
fn the_clue_core_answers_broken_streams_like_the_model() {
    use Piece::*;
    let (rows, columns) = heart();
    let mut good = vec![];
    crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut good);
    let mut one = vec![];
    crate::clue::clue_protocol::encode_board(&[vec![1]], &[vec![1]], 0, &mut one);
    let mut framing = 0;
    for at in [0, 1, 2, 3, 5, good.len() / 2, good.len() - 2, good.len() - 1] {
        let clue = |name: &str, pieces: &[Piece]| {
            check_on::<crate::clue::core::ClueCore>(Engine::Clues, name, pieces)
        };
        let got = clue(
            "lost byte",
            &[
                Bytes(good[..at].to_vec()),
                Lost(good[at]),
                Bytes(good[at + 1..].to_vec()),
                Idle,
                Bytes(one.clone()),
            ],
        );
        let reply = crate::clue::clue_protocol::decode_any_reply(&got).unwrap().0;
        framing += ((reply.outcome, reply.detail) == (outcome::MALFORMED, detail::FRAMING)) as usize;
        clue("silence", &[Bytes(good[..at].to_vec()), Idle, Bytes(one.clone())]);
        clue("restart", &[Bytes([&good[..at], &good[..]].concat())]);
    }
    assert!(framing >= 4, "{framing} FRAMING refusals");
}

/// The reset button pressed at instants through a reply (held for 40
/// cycles): every byte on the wire is whole (no framing error, the byte
/// in flight is finished), what went out is a prefix of the reply cut
/// at a message boundary, and the next board gets the model's reply.
fn check_reset_mid_reply<C: SerialCore>(engine: Engine, board: &[u8]) {
    let reply = BoardModel::new(engine).bytes(board);
    let mut cut_somewhere = 0;
    for press in (0..reply.len() as u64 * 10 * CPB as u64).step_by(89) {
        let mut driver = CoreDriver::<C>::with_core(CPB);
        driver.send(board);
        let mut got = vec![];
        // Up to the reply's first byte, then `press` cycles into it.
        while got.is_empty() {
            driver.step();
            got.extend(driver.take_received());
        }
        for _ in 0..press {
            driver.step();
        }
        driver.set_reset(true);
        for _ in 0..40 {
            driver.step();
        }
        driver.set_reset(false);
        while !driver.quiet() {
            driver.step();
        }
        got.extend(driver.take_received());
        let what = format!("{engine:?}, reset {press} cycles into the reply");
        assert_eq!(driver.framing_errors(), 0, "{what}: a torn byte");
        assert!(
            got.len() % 2 == 0 && reply.starts_with(&got),
            "{what}: {} of {} bytes",
            got.len(),
            reply.len()
        );
        cut_somewhere += (got.len() < reply.len()) as usize;
        // The board works after it.
        driver.send(board);
        while !driver.quiet() {
            driver.step();
        }
        assert_eq!(driver.take_received(), reply, "{what}: the next board");
    }
    assert!(cut_somewhere > 5, "{engine:?}: {cut_somewhere} replies cut");
}

#[test]
fn a_reset_mid_reply_sends_no_torn_byte_on_either_core() {
    let (rows, columns) = (
        vec![vec![2], vec![1, 1], vec![3], vec![1]],
        vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
    );
    check_reset_mid_reply::<crate::dnf::core::NonogramCore>(Engine::Dnf, &v1_stream(&rows, &columns, false));
    let mut clues = vec![];
    crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut clues);
    check_reset_mid_reply::<crate::clue::core::ClueCore>(Engine::Clues, &clues);
}

/// The SWITCH example in docs/protocol.md, byte for byte.
#[test]
fn the_documented_switch_example() {
    assert_eq!(Message::new(code::SWITCH, 1, false).to_bytes(), [0x80, 0x02]);
    let info = BoardModel::new(Engine::Clues).bytes(&query_bytes());
    assert!(info.windows(2).any(|w| w == [0x9A, 0xE4]), "{info:02x?}");
    let info = BoardModel::new(Engine::Dnf).bytes(&query_bytes());
    let fields = crate::clue::clue_protocol::decode_any_reply(&info).unwrap().0;
    assert_eq!(fields.engines, 0x71);
}

#[test]
fn both_cores_switch_images_only_when_idle_like_the_model() {
    let (rows, columns) = heart();
    check_switch::<crate::dnf::core::NonogramCore>(Engine::Dnf, v1_stream(&rows, &columns, false));
    let mut clues = vec![];
    crate::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut clues);
    check_switch::<crate::clue::core::ClueCore>(Engine::Clues, clues);
}

#[test]
fn the_documented_example() {
    let hex = |s: &str| -> Vec<u8> {
        s.split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).unwrap())
            .collect()
    };
    let nonohost = hex("E0 02 E0 02 C0 00 A0 01 20 00 C0 02 A0 01 20 00 00 00");
    let original = hex("E0 02 E0 02 C0 00 A0 01 20 00 C0 00 A0 01 20 00 00 00");
    assert_eq!(v1_stream(&[vec![1]], &[vec![1]], false), nonohost);
    let reply = hex(
        "E0 02 E0 02 A0 01 80 00 82 00 84 24 86 00 88 00 8A 00 8C 02 8E 04 90 00 \
         92 40 94 16 96 02 98 80 00 00",
    );
    assert_eq!(BoardModel::default().bytes(&nonohost), reply);
    assert_eq!(BoardModel::default().bytes(&original), reply);
    assert_eq!(Message::status(field::CYCLES_0, 0xc8).to_bytes(), [0x85, 0x90]);
}
