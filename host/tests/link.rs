//! The serial link over a pseudo-terminal, against the model board, a
//! silent board and a board that answers garbage.

use nonogram_hdl::board_model::Engine;
use nonogram_hdl::link::protocol::status::{detail, outcome};
use nonogram_hdl::link::protocol::{code, Message};
use nonohost::fake::{Behaviour, ModelBoard};
use nonohost::link::{self, LinkConfig, LinkError};
use nonohost::report::Status;
use nonohost::send::{send_board, SendOptions};
use nonohost::Puzzle;
use serialport::{SerialPort, TTYPort};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

fn example(name: &str) -> Puzzle {
    Puzzle::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples")
            .join(name),
    )
    .unwrap()
}

fn pair() -> (Box<dyn SerialPort>, Box<dyn SerialPort>) {
    let (board_end, host_end) = TTYPort::pair().expect("a pseudo-terminal");
    (Box::new(host_end), Box::new(board_end))
}

/// For boards that answer: a generous timeout, so a loaded machine passes.
fn quick() -> LinkConfig {
    LinkConfig {
        idle_before: Duration::from_millis(20),
        reply_timeout: Some(Duration::from_secs(5)),
        ..LinkConfig::default()
    }
}

/// For boards that do not answer: a short timeout keeps the test quick.
fn short() -> LinkConfig {
    LinkConfig {
        reply_timeout: Some(Duration::from_millis(400)),
        ..quick()
    }
}

#[test]
fn model_board_solves_the_examples() {
    for (name, status, solved_by) in [
        ("4x4.txt", Status::Solved, Some("board")),
        ("heart6x7.txt", Status::Solved, Some("board")),
        ("x11x11.txt", Status::Solved, Some("board")),
        ("random15x15.txt", Status::Solved, Some("board")),
        ("duck.non", Status::Solved, Some("board")),
        ("several.txt", Status::SeveralSolutions, Some("board+host")),
        ("nosolution.txt", Status::NoSolution, Some("board")),
    ] {
        let p = example(name);
        let (host, board) = pair();
        let running = ModelBoard::new().spawn(board);
        // The DNF engine's options (auto would switch several.txt, which
        // line logic cannot finish, to the clue engine).
        let options = SendOptions {
            link: LinkConfig {
                reply_timeout: Some(Duration::from_secs(10)),
                ..LinkConfig::default()
            },
            engine: Some(nonogram_hdl::board_model::Engine::Dnf),
            ..SendOptions::default()
        };
        let report = send_board(&p, host, &options);
        assert_eq!(report.status, status, "{name}: {report:?}");
        assert_eq!(report.solved_by.as_deref(), solved_by, "{name}");
        assert_eq!(
            report.bytes_sent,
            Some(nonohost::wire::wire_bytes(&p, false) as usize)
        );
        assert!(report.cycles.unwrap() > 0, "{name}");
        assert_eq!(report.board_options, Some(report.options as u16));
        // The INFO reply to nonohost's QUERY, then the board's.
        assert_eq!(running.stop().unwrap(), 2, "{name}: two replies");
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["width"], p.width());
        assert_eq!(json["rows"].as_array().unwrap().len(), p.height());
    }
}

/// A model board running the colour engine (which no flash holds yet).
fn colour_board(port: Box<dyn SerialPort>) -> nonohost::fake::RunningBoard {
    ModelBoard {
        engine: Engine::Colour,
        ..ModelBoard::new()
    }
    .spawn(port)
}

/// The colour engine (protocol v3; modelled, no flash holds it yet) takes
/// black-and-white puzzles as boards of one ink, and its replies read as
/// the clue engine's: solved, several solutions (the second sent whole),
/// none, and finished by the host past its budget.
#[test]
fn the_colour_engine_takes_black_and_white_as_one_ink() {
    for (name, budget, status, solved_by) in [
        ("heart6x7.txt", 10, Status::Solved, Some("board")),
        ("duck.non", 10, Status::Solved, Some("board")),
        ("several.txt", 10, Status::SeveralSolutions, Some("board")),
        ("nosolution.txt", 10, Status::NoSolution, Some("board")),
        ("several.txt", 0, Status::SeveralSolutions, Some("board+host")),
    ] {
        let p = example(name);
        let (host, board) = pair();
        let running = colour_board(board);
        let options = SendOptions {
            link: quick(),
            engine: Some(Engine::Colour),
            budget,
            ..SendOptions::default()
        };
        let report = send_board(&p, host, &options);
        assert_eq!(report.status, status, "{name}: {report:?}");
        assert_eq!(report.solved_by.as_deref(), solved_by, "{name}");
        assert_eq!(report.engine.as_deref(), Some("colour"), "{name}");
        assert_eq!(
            report.bytes_sent,
            Some(nonohost::wire::engine_clue_bytes(&p, Engine::Colour) as usize),
            "{name}"
        );
        // Every solution the board sent fits the clues.
        for rows in std::iter::once(&report.rows).chain(report.other_rows.as_ref()) {
            if status != Status::NoSolution {
                let cells: Vec<bool> = rows.concat().chars().map(|c| c == '#').collect();
                assert_eq!(p.check_solution(&cells), Ok(()), "{name}");
            }
        }
        assert_eq!(running.stop().unwrap(), 2, "{name}: INFO and the board's reply");
    }
}

/// A colour puzzle from `text` (.non with colours).
fn colour(text: &str) -> nonohost::colour::ColourPuzzle {
    let (mut puzzles, _) = nonohost::puzzle::parse_any("colour.non", text, None).unwrap();
    match puzzles.remove(0) {
        nonohost::puzzle::AnyPuzzle::Colour(p) => p,
        other => panic!("not a colour puzzle: {other:?}"),
    }
}

/// Colour puzzles through the model board's colour engine (protocol v3):
/// the same answers as `solve`, decided by the board; past its budget, or
/// with none, the host finishes; `--no-finish` leaves the board's cells.
#[test]
fn the_colour_engine_solves_colour_puzzles() {
    use nonohost::colour::report::solve_colour;
    use nonohost::colour::send::send_colour;
    let mushroom = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/colour/mushroom.non"),
    )
    .unwrap();
    // One red cell in each of the first two rows and columns of a 3×3,
    // and a blue corner: the red diagonals are two solutions (the
    // board's search finds both).
    let diagonals =
        "width 3\nheight 3\ncolor r #ff0000\ncolor b #0000ff\nrows\n1r\n1r\n1b\ncolumns\n1r\n1r\n1b\n";
    for (name, text, budget, no_finish, status, solved_by) in [
        (
            "mushroom",
            mushroom.as_str(),
            10,
            false,
            Status::Solved,
            Some("board"),
        ),
        (
            "diagonals",
            diagonals,
            10,
            false,
            Status::SeveralSolutions,
            Some("board"),
        ),
        (
            "diagonals, no budget",
            diagonals,
            0,
            false,
            Status::SeveralSolutions,
            Some("board+host"),
        ),
        (
            "diagonals, no budget, no finish",
            diagonals,
            0,
            true,
            Status::Stalled,
            None,
        ),
    ] {
        let p = colour(text);
        let (host, board) = pair();
        let running = colour_board(board);
        let options = SendOptions {
            link: quick(),
            budget,
            no_finish,
            ..SendOptions::default()
        };
        let report = send_colour(&p, host, &options);
        assert_eq!(report.status, status, "{name}: {report:?}");
        assert_eq!(report.solved_by.as_deref(), solved_by, "{name}");
        assert!(report.cycles.unwrap() > 0, "{name}");
        let software = solve_colour(&p, &options.search);
        if status == Status::Solved {
            assert_eq!(report.rows, software.rows, "{name}");
            let text = report.to_text(false);
            assert!(
                text.contains("solved by the board") && text.contains("clock cycles"),
                "{text}"
            );
        }
        if status == Status::Stalled {
            assert!(report.rows.concat().contains('?'), "{name}: {:?}", report.rows);
        }
        // Every solution shown fits the clues (the report checked them).
        for rows in [Some(&report.rows), report.other_rows.as_ref()]
            .into_iter()
            .flatten()
        {
            if status != Status::Stalled {
                let cells: Vec<u8> = rows
                    .concat()
                    .chars()
                    .map(|c| report.colours.iter().position(|k| k.char == c).unwrap() as u8)
                    .collect();
                assert_eq!(p.check_solution(&cells), Ok(()), "{name}");
            }
        }
        assert_eq!(running.stop().unwrap(), 2, "{name}: INFO and the board's reply");
    }
    // A board without the colour image refuses it, naming its flash.
    let (host, board) = pair();
    let _running = ModelBoard::new().spawn(board);
    let report = send_colour(
        &colour(diagonals),
        host,
        &SendOptions {
            link: quick(),
            ..SendOptions::default()
        },
    );
    assert_eq!(report.status, Status::OverCapacity);
    assert!(report.message.unwrap().contains("holds no colour image"));
}

#[test]
fn a_stalled_board_is_finished_by_the_host() {
    // Line logic stalls on this puzzle, but it has exactly one solution.
    let mut found = None;
    let mut seed = 99u64;
    let mut solver = nonohost::solver::Solver::new();
    while found.is_none() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cells: Vec<bool> = (0..36).map(|i| seed >> i & 1 == 1).collect();
        let p = Puzzle::from_picture("stall", 6, 6, &cells);
        if solver.line_solve(&p.rows, &p.columns).outcome == nonohost::solver::LineOutcome::Stalled
            && solver.count_solutions(&p.rows, &p.columns, 2).count == 1
        {
            found = Some(p);
        }
    }
    let p = found.unwrap();
    for no_finish in [false, true] {
        let (host, board) = pair();
        let _running = ModelBoard::new().spawn(board);
        let report = send_board(
            &p,
            host,
            &SendOptions {
                no_finish,
                engine: None,
                link: quick(),
                ..SendOptions::default()
            },
        );
        if no_finish {
            assert_eq!(report.status, Status::Stalled);
            assert_eq!(report.exit_code(), 3);
            assert!(report.rows.concat().contains('?'));
        } else {
            assert_eq!(report.status, Status::Solved, "{report:?}");
            assert_eq!(report.solved_by.as_deref(), Some("board+host"));
            assert!(!report.rows.concat().contains('?'));
            assert_eq!(report.exit_code(), 0);
        }
    }
}

#[test]
fn every_cell_streams_are_accepted() {
    let p = example("heart6x7.txt");
    let (host, board) = pair();
    let _running = ModelBoard::new().spawn(board);
    let report = send_board(
        &p,
        host,
        &SendOptions {
            every_cell: true,
            link: quick(),
            ..SendOptions::default()
        },
    );
    assert_eq!(report.status, Status::Solved);
    assert_eq!(
        report.bytes_sent,
        Some(nonohost::wire::wire_bytes(&p, true) as usize)
    );
}

#[test]
fn a_silent_board_times_out_and_says_what_arrived() {
    let p = example("4x4.txt");
    let (mut host, board) = pair();
    let _running = ModelBoard::with_behaviour(Behaviour::Silent).spawn(board);
    let started = std::time::Instant::now();
    let e = link::send_puzzle(host.as_mut(), &p, Engine::Dnf, false, 0, false, &short()).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(e, LinkError::Timeout { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("did not answer within 0.") && text.contains("no byte arrived"),
        "{text}"
    );
    let report = send_board(
        &p,
        host,
        &SendOptions {
            link: short(),
            ..SendOptions::default()
        },
    );
    assert_eq!(report.status, Status::Error);
    assert_eq!(report.exit_code(), 1);
}

#[test]
fn a_garbage_reply_is_a_clear_error() {
    let p = example("4x4.txt");
    let (mut host, board) = pair();
    let _running = ModelBoard::with_behaviour(Behaviour::Garbage(vec![0x12, 0x34, 0xde, 0xad])).spawn(board);
    let e = link::send_puzzle(host.as_mut(), &p, Engine::Dnf, false, 0, false, &short()).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, LinkError::Garbage { .. }), "{e:?}");
    assert!(text.contains("garbled") && text.contains("12 34 de ad"), "{text}");
}

#[test]
fn a_half_reply_times_out_with_its_bytes() {
    let p = example("4x4.txt");
    let (mut host, board) = pair();
    // START_BOARD 4, START_BOARD 4, then nothing.
    let _running = ModelBoard::with_behaviour(Behaviour::Garbage(vec![0xe0, 0x08, 0xe0, 0x08])).spawn(board);
    let e = link::send_puzzle(host.as_mut(), &p, Engine::Dnf, false, 0, false, &short()).unwrap_err();
    assert!(
        e.to_string()
            .contains("4 bytes arrived, not a whole reply: e0 08 e0 08"),
        "{e}"
    );
}

#[test]
fn a_refusal_mid_stream_stops_the_send() {
    // START_LINE 1 where line 0 is due: the board refuses at once.
    let mut bytes = Vec::new();
    for m in [
        Message::new(code::START_BOARD, 2, false),
        Message::new(code::START_BOARD, 2, false),
        Message::new(code::START_LINE, 1, false),
    ] {
        bytes.extend_from_slice(&m.to_bytes());
    }
    // Lots of padding after it, as if the stream went on: far more than a
    // pty buffers, so the reply comes while the host is still sending.
    for _ in 0..100_000 {
        bytes.extend_from_slice(&Message::new(code::NEXT_OPTION, 0, false).to_bytes());
    }
    let (mut host, board) = pair();
    let _running = ModelBoard::new().spawn(board);
    let config = LinkConfig {
        baud: 20_000, // 100-byte chunks
        ..quick()
    };
    let ex = link::exchange(host.as_mut(), &bytes, Duration::from_secs(2), &config).unwrap();
    assert_eq!(
        (ex.reply.outcome, ex.reply.detail),
        (outcome::MALFORMED, detail::WRONG_LINE)
    );
    assert!(ex.early, "stopped before the end");
    assert!(ex.bytes_sent < bytes.len());
}

#[test]
fn query_gets_the_build_parameters() {
    let (mut host, board) = pair();
    let _running = ModelBoard::new().spawn(board);
    let info = link::query(host.as_mut(), &quick()).unwrap();
    assert_eq!(info.outcome, outcome::INFO);
    assert_eq!(info.version, 1);
    assert_eq!(info.max_line as usize, nonogram_hdl::common::params::MAX_LINE);
    assert_eq!(
        info.fifo_addr_bits as usize,
        nonogram_hdl::common::params::FIFO_ADDR_BITS
    );
}

/// A reply that is not INFO (a late one, to an earlier board whose reply
/// timed out) is not taken as QUERY's answer: QUERY asks again, and without
/// an INFO it times out instead of reading a board reply as the build's.
#[test]
fn query_takes_only_an_info_reply() {
    let (mut host, mut board) = pair();
    // A board that answers every QUERY with a board's reply.
    let late = nonogram_hdl::board_model::refusal(outcome::CONTRADICTION, 3);
    board.set_timeout(Duration::from_secs(5)).unwrap();
    std::thread::spawn(move || {
        let mut query = [0u8; 2];
        while board.read_exact(&mut query).is_ok() {
            if board.write_all(&late).is_err() {
                break;
            }
        }
    });
    let config = LinkConfig {
        reply_timeout: Some(Duration::from_millis(400)),
        ..quick()
    };
    let e = link::query(host.as_mut(), &config).unwrap_err();
    assert!(matches!(e, LinkError::Timeout { .. }), "{e:?}");
}

/// A board flashed before the probing image existed (ENGINES `0x31`: the
/// DNF engine, images 0 and 1): asked for the probing engine, the host
/// says the flash holds no such image, with the over-capacity status, and
/// sends nothing after its QUERY.
#[test]
fn a_flash_without_the_probing_image_is_named() {
    let (host, mut board) = pair();
    board.set_timeout(Duration::from_secs(5)).unwrap();
    let served = std::thread::spawn(move || {
        let mut query = [0u8; 2];
        board.read_exact(&mut query).unwrap();
        let mut info = nonogram_hdl::board_model::BoardModel::new(Engine::Dnf).bytes(&query);
        // ENGINES is the STATUS message of field 13: rewrite its data byte.
        let field = nonogram_hdl::link::protocol::status::field::ENGINES;
        let at = info
            .chunks(2)
            .map(|m| Message::from_bytes([m[0], m[1]]))
            .position(|m| m.code() == code::STATUS && m.status_parts().0 == field)
            .expect("an ENGINES field");
        let engines = Message::status(field, 0x31).to_bytes();
        info[2 * at..2 * at + 2].copy_from_slice(&engines);
        board.write_all(&info).unwrap();
        // Whatever comes next, until the host closes its end.
        board.set_timeout(Duration::from_millis(500)).unwrap();
        let mut rest = vec![];
        let _ = board.read_to_end(&mut rest);
        rest
    });
    let options = SendOptions {
        link: quick(),
        engine: Some(Engine::Probing),
        ..SendOptions::default()
    };
    let report = send_board(&example("4x4.txt"), host, &options);
    assert_eq!(report.status, Status::OverCapacity, "{report:?}");
    let message = report.message.unwrap_or_default();
    assert!(
        message.contains("holds no probing image (it runs the dnf engine)"),
        "{message}"
    );
    assert_eq!(served.join().unwrap(), Vec::<u8>::new());
}

#[test]
fn a_missing_port_and_a_busy_port_are_named() {
    let e = link::open_port("/dev/ttyNOSUCHPORT9", 9600).err().unwrap();
    assert!(matches!(e, LinkError::PortMissing { .. }), "{e:?}");
    assert!(
        e.to_string().contains("/dev/ttyNOSUCHPORT9 does not exist"),
        "{e}"
    );

    let (_board_end, host_end) = TTYPort::pair().unwrap();
    let name = host_end.name().unwrap();
    let first = link::open_port(&name, 9600).unwrap();
    let e = link::open_port(&name, 9600).err().unwrap();
    assert!(matches!(e, LinkError::PortBusy { .. }), "{e:?}");
    assert!(e.to_string().contains("is busy"), "{e}");
    drop(first);
}

/// A stopped simulated board (`kill -STOP`: a pseudo-terminal nobody
/// reads): the port takes every byte, so only QUERY's own timeout can tell.
/// The send ends there with a clear error, not after the whole solve's
/// allowance (here 120 s; 126 s of waiting before this was fixed).
#[test]
fn a_stopped_simulated_board_is_an_error_within_the_query_timeout() {
    let p = example("random15x15.txt");
    let (host, _unread_board_end) = pair();
    let started = std::time::Instant::now();
    let report = send_board(
        &p,
        host,
        &SendOptions {
            link: LinkConfig {
                reply_timeout: Some(Duration::from_secs(120)),
                answers_query: true,
                ..quick()
            },
            ..SendOptions::default()
        },
    );
    let waited = started.elapsed();
    assert!(
        waited < link::QUERY_TIMEOUT + Duration::from_secs(5),
        "{waited:?}"
    );
    assert_eq!(report.status, Status::Error);
    let error = report.error.unwrap_or_default();
    assert!(error.contains("did not answer QUERY (is it stopped?)"), "{error}");
    assert_eq!(report.bytes_sent, None, "nothing but QUERY was sent");
}
