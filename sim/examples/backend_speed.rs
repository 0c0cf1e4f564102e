//! How fast each back end of the simulated board steps the core: the same
//! boards through RustHDL's simulation and through the Verilated Verilog,
//! in one run, through the pseudo-terminal as `nonohost send --sim` uses it.
//! Prints simulated cycles, cycles per second of stepping, and the ratio.
//!
//! ```sh
//! cargo run --release -p nonogram-sim --example backend_speed
//! ```
//!
//! The boards: the 6×7 heart on the DNF core (protocol v1), and random
//! 20×20, 40×40 and 64×64 pictures (cells filled with probability ½, fixed
//! seed) on the clue core (protocol v2), whose solves run longest.

use nonogram_hdl::clue::clue_protocol::{decode_any_reply, encode_board};
use nonogram_hdl::dnf::model::clues_of_picture;
use nonogram_hdl::dnf::options::LineOptions;
use nonogram_sim::{verilated, Backend, Engine, Faults, SimBoard, QUIET_BEFORE_IDLE};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

fn random_picture(size: usize, seed: u64) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let cells: Vec<bool> = (0..size * size)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state >> 63 == 1
        })
        .collect();
    clues_of_picture(size, size, &cells)
}

/// Sends `bytes`, waits for a whole reply; returns the simulated cycles
/// and the cycles per second of stepping.
fn run(backend: Backend, engine: Engine, bytes: &[u8]) -> (u64, f64) {
    let board = SimBoard::spawn_on(backend, engine, Faults::default(), None).expect("a simulated board");
    let mut port = serialport::new(board.path(), 9600)
        .timeout(Duration::from_millis(20))
        .open()
        .expect("the pseudo-terminal opens");
    std::thread::sleep(QUIET_BEFORE_IDLE * 2);
    port.write_all(bytes).unwrap();
    let deadline = Instant::now() + Duration::from_secs(600);
    let mut reply = vec![];
    let mut buffer = [0u8; 4096];
    while decode_any_reply(&reply).is_err() {
        assert!(Instant::now() < deadline, "no reply in 600 s");
        match port.read(&mut buffer) {
            Ok(n) => reply.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("{e}"),
        }
    }
    let figures = (board.stats().cycles(), board.stats().cycles_per_second());
    board.stop().unwrap();
    figures
}

fn main() {
    if verilated::verilator_version().is_none() {
        eprintln!("verilator is not installed: only RustHDL can step the core here");
        std::process::exit(1);
    }
    let heart_rows = vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]];
    let heart_columns = vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]];
    let mut boards: Vec<(String, Engine, Vec<u8>)> = vec![];
    let mut v1 = vec![];
    nonogram_hdl::link::protocol::encode_board(
        6,
        7,
        heart_rows
            .iter()
            .map(|c| LineOptions::new(c, 7))
            .chain(heart_columns.iter().map(|c| LineOptions::new(c, 6))),
        false,
        &mut v1,
    );
    boards.push(("6x7 heart, DNF core".into(), Engine::Dnf, v1));
    for size in [20, 40, 64] {
        let (rows, columns) = random_picture(size, size as u64);
        let mut v2 = vec![];
        encode_board(&rows, &columns, 0, &mut v2);
        boards.push((format!("random {size}x{size}, clue core"), Engine::Clues, v2));
    }
    println!(
        "board                    | bytes | RustHDL: cycles, cycles/s | Verilator: cycles, cycles/s | ratio"
    );
    for (name, engine, bytes) in &boards {
        let (slow_cycles, slow) = run(Backend::RustHdl, *engine, bytes);
        let (fast_cycles, fast) = run(Backend::Verilator, *engine, bytes);
        println!(
            "{name:<24} | {:>5} | {slow_cycles:>9} {slow:>12.0} | {fast_cycles:>9} {fast:>12.0} | {:.0}x",
            bytes.len(),
            fast / slow
        );
    }
}
