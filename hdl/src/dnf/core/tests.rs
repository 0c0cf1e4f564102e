use crate::bench::boards::{dense_picture, random_clues, v1_stream, Rng};
use crate::bench::driver::CoreDriver;
use crate::bench::{yosys_cell_count, yosys_check};
use crate::dnf::model::{self, Verdict};
use crate::link::protocol::{code, decode_reply, query_bytes, status, Message, Reply};

const CPB: u32 = 4;

fn reply_of(driver: &mut CoreDriver, bytes: &[u8]) -> Reply {
    driver.send(bytes);
    let budget = 40 * CPB as u64 * bytes.len() as u64 + 200_000;
    let reply = driver.run_until_reply(budget).expect("the core did not reply");
    decode_reply(&reply).unwrap().0
}

fn assert_matches_model(reply: &Reply, verdict: &Verdict) {
    assert_eq!(reply.outcome, verdict.outcome, "outcome");
    assert_eq!((reply.rows, reply.columns), (verdict.rows, verdict.columns));
    assert_eq!(reply.cells, verdict.cells, "cells");
    assert_eq!(reply.cycles as u64, verdict.cycles, "cycles");
    assert_eq!(reply.passes, verdict.passes, "passes");
    assert_eq!(reply.options as usize, verdict.options, "options");
    if verdict.outcome == status::outcome::CONTRADICTION {
        assert_eq!(reply.detail, verdict.detail, "contradiction line");
    }
}

pub fn original_boards() -> Vec<(&'static str, Vec<Vec<usize>>, Vec<Vec<usize>>)> {
    let x = vec![
        vec![11],
        vec![1, 7, 1],
        vec![2, 5, 2],
        vec![3, 3, 3],
        vec![4, 1, 4],
        vec![5, 5],
        vec![4, 1, 4],
        vec![3, 3, 3],
        vec![2, 5, 2],
        vec![1, 7, 1],
        vec![11],
    ];
    vec![
        (
            "4x4",
            vec![vec![2], vec![1, 1], vec![3], vec![1]],
            vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
        ),
        (
            "5x5 D",
            vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
            vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
        ),
        (
            "6x7 heart",
            vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
            vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
        ),
        ("11x11 X", x.clone(), x),
    ]
}

#[test]
fn solves_the_original_boards_end_to_end_in_both_encodings() {
    let mut driver = CoreDriver::new(CPB);
    let start = std::time::Instant::now();
    for (name, rows, columns) in original_boards() {
        let verdict = model::solve_clues(&rows, &columns);
        assert_eq!(verdict.outcome, status::outcome::SOLVED, "{name}");
        for every_cell in [false, true] {
            let reply = reply_of(&mut driver, &v1_stream(&rows, &columns, every_cell));
            assert_matches_model(&reply, &verdict);
        }
        println!(
            "{name}: {} options, {} solver cycles, {} passes",
            verdict.options, verdict.cycles, verdict.passes
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "simulated {} cycles in {seconds:.2} s: {:.0} cycles/s",
        driver.cycles(),
        driver.cycles() as f64 / seconds
    );
    assert_eq!(driver.framing_errors(), 0);
}

#[test]
fn random_pictures_match_the_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15u64);
    let mut driver = CoreDriver::new(CPB);
    let mut seen = [0usize; 3];
    for _ in 0..25 {
        let (rows, columns) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
        let (r, c) = random_clues(&mut rng, rows, columns, 55);
        let verdict = model::solve_clues(&r, &c);
        let reply = reply_of(&mut driver, &v1_stream(&r, &c, rng.below(2) == 0));
        assert_matches_model(&reply, &verdict);
        seen[verdict.outcome as usize] += 1;
    }
    // Lines of the largest length, 32 cells, both ways.
    for (rows, columns) in [(1, 32), (32, 1), (2, 32)] {
        let (r, c) = dense_picture(&mut rng, rows, columns);
        let verdict = model::solve_clues(&r, &c);
        assert_matches_model(&reply_of(&mut driver, &v1_stream(&r, &c, false)), &verdict);
    }
    // Clues that cannot all hold: a contradiction.
    let (r, c) = (vec![vec![2], vec![]], vec![vec![1], vec![]]);
    let verdict = model::solve_clues(&r, &c);
    assert_eq!(verdict.outcome, status::outcome::CONTRADICTION);
    assert_matches_model(&reply_of(&mut driver, &v1_stream(&r, &c, false)), &verdict);
    assert!(
        seen[0] > 0 && seen[2] > 0,
        "solved and stalled boards in the sample: {seen:?}"
    );
}

#[test]
fn answers_a_query_with_the_build_parameters() {
    let mut driver = CoreDriver::new(CPB);
    let reply = reply_of(&mut driver, &query_bytes());
    assert_eq!(reply.outcome, status::outcome::INFO);
    assert_eq!(reply.max_line as usize, crate::common::params::MAX_LINE);
    assert_eq!(
        reply.fifo_addr_bits as usize,
        crate::common::params::FIFO_ADDR_BITS
    );
    assert_eq!(reply.max_lines as usize, crate::common::params::MAX_LINES);
    assert_eq!(reply.version, crate::link::protocol::VERSION);
    assert!(reply.cells.is_empty());
}

#[test]
fn refuses_bad_streams_and_recovers_from_garbage() {
    let mut driver = CoreDriver::new(CPB);
    let (name, rows, columns) = original_boards().remove(2);
    let good = v1_stream(&rows, &columns, false);
    let verdict = model::solve_clues(&rows, &columns);
    // Too large a board: refused with OVER_CAPACITY.
    let big = [
        Message::new(code::START_BOARD, 40, false),
        Message::new(code::START_BOARD, 5, false),
    ];
    let reply = reply_of(
        &mut driver,
        &big.iter().flat_map(|m| m.to_bytes()).collect::<Vec<_>>(),
    );
    assert_eq!(
        (reply.outcome, reply.detail),
        (status::outcome::OVER_CAPACITY, status::detail::BAD_SIZE)
    );
    // A truncated board followed by silence: refused as truncated.
    let reply = reply_of(&mut driver, &good[..good.len() / 2 + 1]);
    assert_eq!(
        (reply.outcome, reply.detail),
        (status::outcome::MALFORMED, status::detail::TRUNCATED),
        "{name}"
    );
    // Garbage, then silence, then the good board: solved.
    let garbage: Vec<u8> = (0..200u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    driver.send(&garbage);
    let idle = 10 * CPB as u64 * (garbage.len() as u64 + crate::link::protocol::IDLE_TIMEOUT_BITS as u64);
    for _ in 0..idle {
        driver.step();
    }
    driver.take_received(); // whatever the garbage provoked
    assert_matches_model(&reply_of(&mut driver, &good), &verdict);
    // A new board in the middle of a reply: the reply stops at a message
    // boundary and the new board's reply follows, whole.
    driver.send(&good);
    let mut bytes = vec![];
    while bytes.len() < 4 {
        driver.step();
        bytes.extend(driver.take_received());
    }
    assert!(bytes.len() < 2 * (2 + 42), "the first reply is still going");
    driver.send(&good);
    for _ in 0..2 * 10 * CPB as u64 * good.len() as u64 + 200_000 {
        driver.step();
    }
    bytes.extend(driver.take_received());
    // What arrived is whole messages: a cut reply, then a complete one.
    assert_eq!(bytes.len() % 2, 0);
    let cut = decode_reply(&bytes);
    assert!(cut.is_err(), "the first reply was cut short");
    let at = (2..bytes.len())
        .step_by(2)
        .find(|&i| decode_reply(&bytes[i..]).is_ok())
        .expect("a whole reply");
    assert_eq!(
        Message::from_bytes([bytes[at], bytes[at + 1]]).code(),
        code::START_BOARD
    );
    let (reply, used) = decode_reply(&bytes[at..]).unwrap();
    assert_eq!(at + used, bytes.len(), "nothing after the second reply");
    assert_matches_model(&reply, &verdict);
}

/// Runs until the bytes from the core end with a whole reply for a
/// `rows` × `columns` board; returns it (whatever came before is dropped),
/// or `None` after `budget` cycles.
fn run_until_reply_for(driver: &mut CoreDriver, rows: usize, columns: usize, budget: u64) -> Option<Reply> {
    let mut bytes = vec![];
    for _ in 0..budget {
        driver.step();
        let new = driver.take_received();
        if new.is_empty() {
            continue;
        }
        bytes.extend(new);
        for at in (0..bytes.len()).step_by(2) {
            if let Ok((reply, used)) = decode_reply(&bytes[at..]) {
                if (reply.rows, reply.columns) == (rows, columns) && at + used == bytes.len() {
                    return Some(reply);
                }
            }
        }
    }
    None
}

/// START_BOARD at every cycle offset of a solve and of the reply that
/// follows: the abandoned board leaves nothing behind, so the next
/// board's reply is the model's. The first board has several options on
/// most lines, so the solver streams often. Offsets count from the cycle
/// the solver starts; START_BOARD's abort comes two byte times after the
/// delay at the earliest.
#[test]
fn start_board_at_every_cycle_offset_of_a_solve() {
    let (first_rows, first_columns) = (vec![vec![1], vec![1]], vec![vec![1], vec![1], vec![]]);
    let first = v1_stream(&first_rows, &first_columns, false);
    let (rows, columns) = (vec![vec![2], vec![1]], vec![vec![2], vec![1]]);
    let second = v1_stream(&rows, &columns, false);
    let verdict = model::solve_clues(&rows, &columns);
    let start_solving = |driver: &mut CoreDriver| {
        driver.send(&first);
        while driver.phase() != super::phase::SOLVING {
            driver.step();
        }
    };
    // The first board alone: cycles from the solver's start until all is quiet.
    let mut driver = CoreDriver::new(CPB);
    start_solving(&mut driver);
    let mut span = 0u64;
    while !driver.quiet() {
        driver.step();
        span += 1;
    }
    let first_reply = decode_reply(&driver.take_received()).unwrap().0;
    assert_matches_model(&first_reply, &model::solve_clues(&first_rows, &first_columns));
    // Past the solve only the reply is aborted (tested above): stop 160
    // cycles into it (the abort lands two byte times after the delay).
    let span = span.min(first_reply.cycles as u64 + 160);
    let mut corrupted = vec![];
    for delay in 0..span {
        let mut driver = CoreDriver::new(CPB);
        start_solving(&mut driver);
        for _ in 0..delay {
            driver.step();
        }
        driver.send(&second);
        let budget = 20 * CPB as u64 * (second.len() as u64 + 200) + 10_000;
        match run_until_reply_for(&mut driver, 2, 2, budget) {
            Some(reply) if reply.options as usize == verdict.options && reply.cells == verdict.cells => {
                assert_matches_model(&reply, &verdict)
            }
            _ => corrupted.push(delay),
        }
    }
    println!(
        "{span} START_BOARD delays tested ({} solver cycles, {} corrupted)",
        first_reply.cycles,
        corrupted.len()
    );
    assert_eq!(
        corrupted,
        Vec::<u64>::new(),
        "delays that corrupted the next board"
    );
}

#[test]
fn whole_core_verilog_synthesises_with_the_fifo_in_block_ram() {
    let mut core = super::NonogramCore::new(10417);
    rust_hdl::prelude::Block::connect_all(&mut core);
    let Some(log) = yosys_check(&core, "core") else {
        return;
    };
    let brams = yosys_cell_count(&log, "SB_RAM40_4K");
    let luts = yosys_cell_count(&log, "SB_LUT4");
    println!("core: {luts} LUT4s, {brams} block RAMs");
    // The option store and its line table, the board's two copies, and
    // the cell writer's jobs and queue.
    assert_eq!(brams, crate::common::params::FIFO_ENTRIES * 32 / 4096 + 2 + 8 + 5);
    assert!(luts < 7680, "{luts} LUT4s do not fit the HX8K");
}
