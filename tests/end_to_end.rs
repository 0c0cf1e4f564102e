//! End to end: nonohost ↔ the simulated board, through a pseudo-terminal and
//! the same serial-port code that drives a real Alchitry Cu.

use nonogram_hdl::board_model::Engine;
use nonogram_hdl::dnf::model;
use nonogram_hdl::link::protocol::status::{detail, outcome};
use nonogram_sim::{Faults, SimBoard, QUIET_BEFORE_IDLE};
use nonohost::link::{self, LinkConfig};
use nonohost::puzzle::Puzzle;
use nonohost::report::{Report, Status};
use nonohost::send::{self, SendOptions};
use nonohost::software;
use nonohost::wire;
use std::path::Path;
use std::time::{Duration, Instant};

fn options(reply_timeout: Option<Duration>) -> SendOptions {
    let mut link = LinkConfig::new(9600);
    link.idle_before = 2 * QUIET_BEFORE_IDLE;
    link.reply_timeout = reply_timeout;
    SendOptions {
        every_cell: false,
        no_finish: false,
        engine: None,
        link,
        budget: 0,
        search: Default::default(),
    }
}

/// Sends `puzzle` to `board`'s DNF engine with nonohost's `send`.
fn send(board: &SimBoard, puzzle: &Puzzle) -> Report {
    let port = link::open_port(board.path(), 9600).expect("open the pseudo-terminal");
    let allowance = nonogram_sim::reply_allowance(wire::wire_bytes(puzzle, false), 0);
    let mut o = options(Some(allowance));
    o.engine = Some(Engine::Dnf);
    send::send_board(puzzle, port, &o)
}

fn examples() -> Vec<Puzzle> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file()) // examples/colour: no board engine takes colour
        .collect();
    files.sort();
    let puzzles: Vec<Puzzle> = files.iter().map(|f| Puzzle::load(f).unwrap()).collect();
    assert!(puzzles.len() >= 8, "the examples are there");
    puzzles
}

#[test]
fn every_example_is_answered_like_the_software_solver() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    for puzzle in examples() {
        let software = software::solve_in_software(&puzzle, &Default::default());
        let hardware = send(&board, &puzzle);
        assert_eq!(
            hardware.status, software.status,
            "{}: {:?}",
            puzzle.name, hardware.error
        );
        assert_eq!(hardware.rows, software.rows, "{}", puzzle.name);
        if hardware.status == Status::Solved {
            let cells: Vec<bool> = hardware.cells.iter().map(|c| c.unwrap()).collect();
            puzzle.check_solution(&cells).unwrap();
        }
        // The board's own answer agrees with the model, cycle for cycle.
        let verdict = model::solve_clues(&puzzle.rows, &puzzle.columns);
        assert_eq!(hardware.cycles, Some(verdict.cycles as u32), "{}", puzzle.name);
        println!(
            "{}: {:?} in {} board cycles",
            puzzle.name, hardware.status, verdict.cycles
        );
    }
    println!(
        "simulated board: {:.0} cycles/s",
        board.stats().cycles_per_second()
    );
}

#[test]
fn contradiction_stall_and_capacity() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    // Row 0 is full but column 1 is empty: no solution.
    let none = Puzzle::from_clues("none", vec![vec![2], vec![]], vec![vec![1], vec![]]);
    let r = send(&board, &none);
    assert_eq!(
        (r.status, r.line_logic.as_deref()),
        (Status::NoSolution, Some("contradiction"))
    );
    // Two diagonals: the board stalls, the host finds two solutions.
    let two = Puzzle::from_clues("two", vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
    let r = send(&board, &two);
    assert_eq!(
        (r.status, r.line_logic.as_deref()),
        (Status::SeveralSolutions, Some("stalled"))
    );
    // A stalled board with one solution: finished by the host.
    let probe = Puzzle::from_picture(
        "probe",
        4,
        4,
        &[
            true, true, false, false, true, false, false, true, false, false, true, true, false, true, true,
            false,
        ],
    );
    let verdict = model::solve_clues(&probe.rows, &probe.columns);
    let r = send(&board, &probe);
    if verdict.outcome == outcome::STALLED {
        assert_eq!(r.solved_by.as_deref(), Some("board+host"));
    }
    assert!(matches!(r.status, Status::Solved | Status::SeveralSolutions));
    // Over capacity: refused before the board is sent (after the QUERY that
    // asks the board which engine it has).
    let cells: Vec<bool> = (0..30 * 30).map(|i| (i * 7919) % 11 < 5).collect();
    let big = Puzzle::from_picture("big", 30, 30, &cells);
    assert!(wire::check_capacity(&big).is_err());
    let before = board.stats().bytes_in();
    let r = send(&board, &big);
    assert_eq!(r.status, Status::OverCapacity);
    assert_eq!(board.stats().bytes_in(), before + 2, "only the QUERY was sent");
}

#[test]
fn a_silent_board_is_a_timeout_not_a_hang() {
    let board = SimBoard::spawn(Faults {
        silent: true,
        ..Faults::default()
    })
    .unwrap();
    let puzzle = Puzzle::from_clues("x", vec![vec![1]], vec![vec![1]]);
    let port = link::open_port(board.path(), 9600).unwrap();
    let start = Instant::now();
    let r = send::send_board(&puzzle, port, &options(Some(Duration::from_millis(500))));
    assert_eq!(r.status, Status::Error);
    assert!(r.error.unwrap().contains("did not answer"));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn garbage_truncated_and_corrupted_streams_then_a_good_board() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    let good = Puzzle::from_clues(
        "heart",
        vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
        vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
    );
    let stream = wire::encode(&good, false);
    let mut port = link::open_port(board.path(), 9600).unwrap();
    let config = options(Some(Duration::from_secs(20))).link;
    // Waits until the board has said all it will (replies to the garbage).
    let drain = |port: &mut Box<dyn serialport::SerialPort>| {
        let mut buffer = [0u8; 256];
        let mut last = Instant::now();
        while last.elapsed() < Duration::from_millis(700) {
            if matches!(port.read(&mut buffer), Ok(n) if n > 0) {
                last = Instant::now();
            }
        }
    };

    // Garbage: whatever it provokes, the board comes back.
    let garbage: Vec<u8> = (0..300u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    port.write_all(&garbage).unwrap();
    drain(&mut port);
    // Truncated: cut in the middle of a message, then silence.
    let cut = link::exchange(
        port.as_mut(),
        &stream[..stream.len() / 2 + 1],
        Duration::from_secs(20),
        &config,
    )
    .expect("a refusal");
    assert_eq!(
        (cut.reply.outcome, cut.reply.detail),
        (outcome::MALFORMED, detail::TRUNCATED)
    );
    // Corrupted: a line number changed on the way.
    let mut bad = stream.clone();
    bad[2 * 2 + 1] ^= 0x02; // the third message, START_LINE 0, becomes START_LINE 1
    let refused = link::exchange(port.as_mut(), &bad, Duration::from_secs(20), &config).expect("a refusal");
    assert_eq!(
        (refused.reply.outcome, refused.reply.detail),
        (outcome::MALFORMED, detail::WRONG_LINE)
    );
    // And the next good board is solved.
    let r = send::send_board(&good, port, &options(Some(Duration::from_secs(20))));
    assert_eq!(r.status, Status::Solved, "{:?}", r.error);
}

#[test]
fn a_host_three_percent_off_and_a_lossy_line() {
    let puzzle = Puzzle::from_clues(
        "d",
        vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
        vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
    );
    for error in [-0.03, 0.03] {
        let board = SimBoard::spawn(Faults {
            rate_error: error,
            ..Faults::default()
        })
        .unwrap();
        assert_eq!(send(&board, &puzzle).status, Status::Solved, "{error:+}");
    }
    // A line that drops bytes: an error reply or a clear error, never a hang.
    let board = SimBoard::spawn(Faults {
        drop_every: Some(9),
        ..Faults::default()
    })
    .unwrap();
    let r = send(&board, &puzzle);
    assert!(
        matches!(r.status, Status::Malformed | Status::Error),
        "{:?}",
        r.status
    );
}

#[test]
fn random_puzzles_agree_with_the_model_cell_for_cell() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = std::collections::BTreeMap::new();
    let mut sent = 0;
    while sent < 16 {
        let (h, w) = (2 + rand() as usize % 11, 2 + rand() as usize % 11);
        let cells: Vec<bool> = (0..h * w).map(|_| rand() % 100 < 55).collect();
        let puzzle = Puzzle::from_picture("random", h, w, &cells);
        if wire::check_capacity(&puzzle).is_err() {
            continue;
        }
        sent += 1;
        let verdict = model::solve_clues(&puzzle.rows, &puzzle.columns);
        let port = link::open_port(board.path(), 9600).unwrap();
        let mut o = options(Some(nonogram_sim::reply_allowance(
            wire::wire_bytes(&puzzle, false),
            0,
        )));
        o.no_finish = true;
        o.engine = Some(Engine::Dnf);
        let r = send::send_board(&puzzle, port, &o);
        assert_eq!(r.cells, verdict.cells, "{h}x{w}:\n{}", puzzle.to_board_txt());
        assert_eq!(r.cycles, Some(verdict.cycles as u32));
        *seen.entry(verdict.outcome).or_insert(0) += 1;
    }
    println!("outcomes (0 solved, 2 stalled): {seen:?}");
}

/// A client that speaks only the original design's protocol, written from
/// its description (not with nonohost's encoder): every line's options are
/// the legal fills of its clue; each is sent cell by cell, zeros included,
/// after START_LINE 0 ("the next line"); the reply is read up to END_BOARD.
mod original_client {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};

    /// Every fill of a line of `length` cells that matches `clue`.
    pub fn fills(clue: &[usize], length: usize) -> Vec<Vec<bool>> {
        if clue.is_empty() {
            return vec![vec![false; length]];
        }
        let (first, rest) = (clue[0], &clue[1..]);
        let rest_needs: usize = rest.iter().sum::<usize>() + rest.len();
        let mut out = vec![];
        for start in 0..=length.saturating_sub(first + rest_needs) {
            if start + first > length {
                break;
            }
            let mut head = vec![false; start];
            head.extend(std::iter::repeat(true).take(first));
            if rest.is_empty() {
                head.resize(length, false);
                out.push(head);
            } else {
                head.push(false);
                for tail in fills(rest, length - head.len()) {
                    out.push([head.clone(), tail].concat());
                }
            }
        }
        out
    }

    fn word(code: u16, index: u16, value: bool) -> [u8; 2] {
        (code << 13 | index << 1 | value as u16).to_be_bytes()
    }

    /// The host → board stream of a puzzle.
    pub fn stream(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<u8> {
        let (m, n) = (rows.len(), columns.len());
        let mut out = vec![];
        out.extend(word(0b111, m as u16, false));
        out.extend(word(0b111, n as u16, false));
        let lines = rows.iter().map(|c| (c, n)).chain(columns.iter().map(|c| (c, m)));
        for (clue, length) in lines {
            out.extend(word(0b110, 0, false));
            let options = fills(clue, length);
            for (k, option) in options.iter().enumerate() {
                for (cell, &value) in option.iter().enumerate() {
                    out.extend(word(0b101, cell as u16, value));
                }
                let close = if k + 1 == options.len() { 0b001 } else { 0b010 };
                out.extend(word(close, 0, false));
            }
        }
        out.extend(word(0b000, 0, false));
        out
    }

    /// The board's answer: the outcome, and the picture ('#', '.', '?').
    pub struct Answer {
        pub outcome: u8,
        pub picture: Vec<String>,
    }

    /// Sends a puzzle's stream and reads the reply up to END_BOARD.
    pub fn solve(path: &str, rows: &[Vec<usize>], columns: &[Vec<usize>], wait: Duration) -> Answer {
        let mut port = serialport::new(path, 9600)
            .timeout(Duration::from_millis(50))
            .open()
            .expect("open the board");
        port.write_all(&stream(rows, columns)).unwrap();
        port.flush().unwrap();
        let (mut bytes, mut buf) = (vec![], [0u8; 512]);
        let deadline = Instant::now() + wait;
        let mut words = vec![];
        while words.last().map_or(true, |&w: &u16| w >> 13 != 0) {
            assert!(Instant::now() < deadline, "no END_BOARD from the board");
            if let Ok(k) = port.read(&mut buf) {
                bytes.extend_from_slice(&buf[..k]);
            }
            words = bytes
                .chunks_exact(2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .collect();
        }
        let width = columns.len();
        let mut cells = vec![];
        let mut outcome = u8::MAX;
        for &w in &words[2..] {
            match w >> 13 {
                0b101 => cells.push(if w & 1 == 1 { '#' } else { '.' }),
                0b011 => cells.push('?'),
                0b100 if (w >> 9) & 0xf == 0 => outcome = (w >> 1) as u8,
                _ => {}
            }
        }
        let picture = cells.chunks(width.max(1)).map(|r| r.iter().collect()).collect();
        Answer { outcome, picture }
    }
}

#[test]
fn a_client_of_the_original_protocol_gets_nonohosts_answers() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    let mut puzzles = examples();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..6 {
        let (h, w) = (2 + rand() as usize % 7, 2 + rand() as usize % 7);
        let cells: Vec<bool> = (0..h * w).map(|_| rand() % 100 < 55).collect();
        puzzles.push(Puzzle::from_picture(&format!("random {i}"), h, w, &cells));
    }
    let mut compared = 0;
    for puzzle in &puzzles {
        let nonohost = send(&board, puzzle);
        if nonohost.status == Status::OverCapacity {
            println!("{}: does not fit the board", puzzle.name);
            continue;
        }
        std::thread::sleep(2 * QUIET_BEFORE_IDLE);
        let stream = original_client::stream(&puzzle.rows, &puzzle.columns);
        let wait = nonogram_sim::reply_allowance(stream.len() as u64, 0);
        let answer = original_client::solve(board.path(), &puzzle.rows, &puzzle.columns, wait);
        std::thread::sleep(2 * QUIET_BEFORE_IDLE);
        let name = &puzzle.name;
        match answer.outcome {
            outcome::SOLVED => {
                assert_eq!(nonohost.status, Status::Solved, "{name}");
                assert_eq!(answer.picture, nonohost.rows, "{name}");
            }
            outcome::CONTRADICTION => assert_eq!(nonohost.status, Status::NoSolution, "{name}"),
            outcome::STALLED => {
                // The board's cells are the ones line logic fixes: every one
                // agrees with nonohost's full answer.
                assert_eq!(nonohost.line_logic.as_deref(), Some("stalled"), "{name}");
                for (a, b) in answer.picture.iter().zip(&nonohost.rows) {
                    for (x, y) in a.chars().zip(b.chars()) {
                        assert!(x == '?' || x == y, "{name}: {a} vs {b}");
                    }
                }
            }
            other => panic!("{name}: outcome {other}"),
        }
        compared += 1;
        println!(
            "{name}: outcome {} from the original stream ({} bytes)",
            answer.outcome,
            stream.len()
        );
    }
    assert!(compared >= 12, "{compared} puzzles compared");
}

/// START_BOARD during a solve, end to end: a board, then k ignored filler
/// messages (NEXT_OPTION outside a board, 20 bit times each), then a second
/// board, for every k from 0 until past the first board's solve. The second
/// board's reply is the model's, whatever the first board was doing.
#[test]
fn a_new_board_during_a_solve_is_answered_whole() {
    use nonogram_hdl::link::protocol::{code, decode_reply, Message};
    use std::io::{Read, Write};
    let board = SimBoard::spawn(Faults::default()).unwrap();
    let puzzles = examples();
    let first = puzzles.iter().find(|p| p.name.ends_with("x11x11.txt")).unwrap();
    let second = puzzles.iter().find(|p| p.name.ends_with("heart6x7.txt")).unwrap();
    let first_cycles = model::solve_clues(&first.rows, &first.columns).cycles;
    let verdict = model::solve_clues(&second.rows, &second.columns);
    let filler = Message::new(code::NEXT_OPTION, 0, false).to_bytes();
    let bit_cycles = nonogram_sim::SIM_CLOCKS_PER_BIT as u64;
    let last_k = first_cycles / (20 * bit_cycles) + 3;
    for k in 0..=last_k {
        std::thread::sleep(2 * QUIET_BEFORE_IDLE);
        let mut bytes = wire::encode(first, false);
        for _ in 0..k {
            bytes.extend(filler);
        }
        bytes.extend(wire::encode(second, false));
        let mut port = serialport::new(board.path(), 9600)
            .timeout(Duration::from_millis(50))
            .open()
            .unwrap();
        port.write_all(&bytes).unwrap();
        let deadline = Instant::now() + nonogram_sim::reply_allowance(bytes.len() as u64, 0);
        let (mut got, mut buf) = (vec![], [0u8; 512]);
        // The first board's reply (whole or cut short) may come first: take
        // the reply that ends the bytes received.
        let reply = loop {
            assert!(
                Instant::now() < deadline,
                "k = {k}: no reply for the second board"
            );
            if let Ok(n) = port.read(&mut buf) {
                got.extend_from_slice(&buf[..n]);
            }
            let found = (0..got.len())
                .step_by(2)
                .find_map(|at| match decode_reply(&got[at..]) {
                    Ok((r, used)) if at + used == got.len() && (r.rows, r.columns) == (6, 7) => Some(r),
                    _ => None,
                });
            if let Some(reply) = found {
                break reply;
            }
        };
        assert_eq!(reply.cells, verdict.cells, "k = {k}");
        assert_eq!(reply.options as usize, verdict.options, "k = {k}");
        assert_eq!(reply.cycles as u64, verdict.cycles, "k = {k}");
    }
    println!(
        "{} filler counts, the first solve is {first_cycles} cycles",
        last_k + 1
    );
}

/// Sends `puzzle` to the simulated board, letting nonohost choose the
/// engine (QUERY, and SWITCH when the board runs another).
fn send_auto(board: &SimBoard, puzzle: &Puzzle) -> Report {
    let port = link::open_port(board.path(), 9600).expect("open the pseudo-terminal");
    // `send`'s default budget.
    let budget = wire::budget_units(wire::DEFAULT_BUDGET_CYCLES);
    let cycles = nonogram_hdl::clue::clue_model::search(&puzzle.rows, &puzzle.columns, budget).cycles;
    let allowance = nonogram_sim::reply_allowance(wire::clue_bytes(puzzle), cycles);
    let mut o = options(Some(allowance));
    o.budget = budget;
    send::send_board(puzzle, port, &o)
}

/// Sends `puzzle` to the simulated board's clue engine.
fn send_to_clue_board(board: &SimBoard, puzzle: &Puzzle) -> Report {
    let port = link::open_port(board.path(), 9600).expect("open the pseudo-terminal");
    let cycles = nonogram_hdl::clue::clue_model::solve(&puzzle.rows, &puzzle.columns).cycles;
    let allowance = nonogram_sim::reply_allowance(wire::clue_bytes(puzzle), cycles);
    let mut o = options(Some(allowance));
    o.engine = Some(Engine::Clues);
    send::send_board(puzzle, port, &o)
}

#[test]
fn the_clue_engines_board_answers_every_example_like_the_software_solver() {
    let board = SimBoard::spawn_engine(nonogram_sim::Engine::Clues, Faults::default()).unwrap();
    for puzzle in examples() {
        let software = software::solve_in_software(&puzzle, &Default::default());
        let hardware = send_to_clue_board(&board, &puzzle);
        assert_eq!(hardware.engine.as_deref(), Some("clues"), "{}", puzzle.name);
        assert_eq!(
            hardware.status, software.status,
            "{}: {:?}",
            puzzle.name, hardware.error
        );
        assert_eq!(hardware.rows, software.rows, "{}", puzzle.name);
        let verdict = nonogram_hdl::clue::clue_model::solve(&puzzle.rows, &puzzle.columns);
        assert_eq!(hardware.cycles, Some(verdict.cycles as u32), "{}", puzzle.name);
        // Both engines end line logic with the same cells (both are complete).
        assert_eq!(
            verdict.cells,
            model::solve_clues(&puzzle.rows, &puzzle.columns).cells
        );
    }
}

/// Puzzles line logic cannot finish, decided by the clue board alone with
/// its search: several solutions (the example, the two diagonals), unique
/// ones (the census's kind), and clues with no solution that line logic
/// cannot refute.
#[test]
fn the_clue_board_searches_what_line_logic_cannot_finish() {
    use nonogram_hdl::clue::clue_model;
    let board = SimBoard::spawn_engine(nonogram_sim::Engine::Clues, Faults::default()).unwrap();
    let mut puzzles = vec![
        Puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/several.txt")).unwrap(),
        Puzzle::from_clues("two diagonals", vec![vec![1], vec![1]], vec![vec![1], vec![1]]),
    ];
    // From random 5×5..8×8 pictures (and pairs of pictures' clues), the
    // first few of each outcome that line logic leaves stalled.
    let mut wanted = [
        (outcome::SOLVED, 3),
        (outcome::SEVERAL, 2),
        (outcome::CONTRADICTION, 2),
    ];
    let mut seed = 1u64;
    while wanted.iter().any(|w| w.1 > 0) {
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let side = 5 + (next() % 4) as usize;
        let mut picture = || (0..side * side).map(|_| next() % 2 == 1).collect::<Vec<bool>>();
        let a = Puzzle::from_picture("a", side, side, &picture());
        let b = Puzzle::from_picture("b", side, side, &picture());
        let columns = if next() % 2 == 0 {
            a.columns.clone()
        } else {
            b.columns.clone()
        };
        let p = Puzzle::from_clues("random", a.rows.clone(), columns);
        if clue_model::solve(&p.rows, &p.columns).outcome != outcome::STALLED {
            continue;
        }
        let o = clue_model::search(&p.rows, &p.columns, 10).outcome;
        if let Some(w) = wanted.iter_mut().find(|w| w.0 == o && w.1 > 0) {
            w.1 -= 1;
            puzzles.push(p);
        }
    }
    for puzzle in puzzles {
        let software = software::solve_in_software(&puzzle, &Default::default());
        let port = link::open_port(board.path(), 9600).expect("open the pseudo-terminal");
        let mut options = options(None);
        options.budget = 10;
        // (The clue image's search, not the probing image's: the cycles
        // are checked against its model.)
        options.engine = Some(Engine::Clues);
        let verdict = clue_model::search(&puzzle.rows, &puzzle.columns, options.budget);
        options.link.reply_timeout = Some(nonogram_sim::reply_allowance(
            wire::clue_bytes(&puzzle),
            verdict.cycles,
        ));
        let r = send::send_board(&puzzle, port, &options);
        let name = &puzzle.name;
        assert_eq!(r.status, software.status, "{name}: {:?}", r.error);
        assert_eq!(r.solved_by.as_deref(), Some("board"), "{name}");
        assert_eq!(r.line_logic.as_deref(), Some("stalled"), "{name}");
        assert_eq!(r.cycles, Some(verdict.cycles as u32), "{name}");
        assert_eq!(r.board_nodes, Some(verdict.nodes as u32), "{name}");
        assert!(verdict.nodes > 0, "{name}");
        match r.status {
            Status::Solved => assert_eq!(r.rows, software.rows, "{name}"),
            Status::SeveralSolutions => {
                let other = r.other_rows.clone().expect("a second solution");
                assert_ne!(other, r.rows, "{name}");
            }
            _ => {}
        }
        println!(
            "{name}: {:?} by the board, {} nodes, {} backtracks, {} cycles",
            r.status, verdict.nodes, verdict.backtracks, verdict.cycles
        );
    }
}

#[test]
fn boards_over_the_dnf_engines_reach_are_solved_by_the_clue_engine() {
    let board = SimBoard::spawn_engine(nonogram_sim::Engine::Clues, Faults::default()).unwrap();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut solved_by_board = 0;
    for (rows, columns) in [(20, 20), (25, 25), (30, 35), (48, 40)] {
        let cells: Vec<bool> = (0..rows * columns).map(|_| next() % 100 < 62).collect();
        let puzzle = Puzzle::from_picture(&format!("random {rows}x{columns}"), rows, columns, &cells);
        assert!(
            wire::check_capacity(&puzzle).is_err() || rows <= 20,
            "over the DNF engine"
        );
        let hardware = send_to_clue_board(&board, &puzzle);
        let software = software::solve_in_software(&puzzle, &Default::default());
        assert_eq!(
            hardware.status, software.status,
            "{}: {:?}",
            puzzle.name, hardware.error
        );
        assert_eq!(hardware.rows, software.rows, "{}", puzzle.name);
        solved_by_board += (hardware.solved_by.as_deref() == Some("board")) as usize;
        println!(
            "{}: {:?} by {:?}, {:?} cycles, {:?} bytes sent, {:?} back",
            puzzle.name,
            hardware.status,
            hardware.solved_by,
            hardware.cycles,
            hardware.bytes_sent,
            hardware.reply_bytes
        );
    }
    assert!(solved_by_board > 0, "some solved by the board alone");
}

#[test]
fn each_board_refuses_the_other_protocol_version_by_name() {
    let (rows, columns) = (
        vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
        vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
    );
    let mut v2 = vec![];
    nonogram_hdl::clue::clue_protocol::encode_board(&rows, &columns, 0, &mut v2);
    let puzzle = Puzzle::from_clues("heart", rows, columns);
    let v1 = wire::encode(&puzzle, false);
    // A client that sends a board in the other image's protocol, without
    // switching, is refused by name.
    for (engine, bytes) in [(Engine::Clues, v1), (Engine::Dnf, v2)] {
        let board = SimBoard::spawn_engine(engine, Faults::default()).unwrap();
        let mut port = link::open_port(board.path(), 9600).unwrap();
        let reply = link::exchange(
            port.as_mut(),
            &bytes,
            Duration::from_secs(20),
            &options(None).link,
        )
        .unwrap()
        .reply;
        assert_eq!(
            (reply.outcome, reply.detail),
            (outcome::OVER_CAPACITY, detail::NO_ENGINE),
            "{engine:?}"
        );
        assert_eq!(board.stats().warm_boots(), 0);
    }
}

/// One flash, every engine: a board that powers up in the DNF image solves
/// a 4×4 there, reboots into the probing image for a 25×25 (over the DNF
/// engine's reach, within the probing engine's 32×32) and back for the
/// 4×4, each solved by the board alone.
#[test]
fn the_host_switches_the_board_to_the_engine_each_puzzle_needs() {
    let board = SimBoard::spawn(Faults::default()).unwrap();
    let small = Puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/4x4.txt")).unwrap();
    let cells: Vec<bool> = (0..25 * 25).map(|i| (i * 7919 + i / 25 * 13) % 11 < 6).collect();
    let big = Puzzle::from_picture("25x25", 25, 25, &cells);
    assert!(
        wire::check_capacity(&big).is_err(),
        "the 25x25 is beyond the DNF engine"
    );
    for (puzzle, engine, switched_from, boots) in [
        (&small, "dnf", None, 0),
        (&big, "probing", Some("dnf"), 1),
        (&small, "dnf", Some("probing"), 2),
    ] {
        let r = send_auto(&board, puzzle);
        assert!(
            matches!(r.status, Status::Solved | Status::SeveralSolutions),
            "{}: {r:?}",
            puzzle.name
        );
        assert_eq!(r.solved_by.as_deref(), Some("board"), "{}", puzzle.name);
        assert_eq!(r.engine.as_deref(), Some(engine), "{}", puzzle.name);
        assert_eq!(r.switched_from.as_deref(), switched_from, "{}", puzzle.name);
        assert_eq!(board.stats().warm_boots(), boots, "{}", puzzle.name);
        let cells: Vec<bool> = r.cells.iter().map(|c| c.unwrap()).collect();
        puzzle.check_solution(&cells).unwrap();
    }
}
