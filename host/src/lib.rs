//! `nonohost`: the host side of the FPGA nonogram solver.
//!
//! * [`puzzle`]: puzzle files (`.non`, webpbn XML, `.g`, TPDNE, board.txt, pictures) and clues;
//! * [`colour`]: colour puzzles and their software solver, pictures (PNG, SVG, 24-bit terminal);
//! * [`wire`]: DNF option counts, the board's capacity, the protocol v1 byte stream;
//! * [`link`]: the serial link (any `serialport::SerialPort`);
//! * [`fake`]: a model board that serves a serial port (for tests);
//! * [`solver`]: the software solver (line logic and search);
//! * [`report`]: what `send` and `solve` found, as text or JSON, and exit codes;
//! * [`send`]: `send` on any serial port, and the board's reply as a report;
//! * [`software`]: `solve`, and the host's search that finishes a stalled board;
//! * [`random`]: random puzzles for sweeps and benchmarks, batch defaults;
//! * [`census`]: every grid of a small size through the reference model and the solver;
//! * [`sweep`]: random puzzles through the simulated gateware core and the reference model;
//! * [`cli`]: the command line.

#![allow(clippy::needless_range_loop)]

pub mod census;
pub mod cli;
pub mod colour;
pub mod fake;
pub mod link;
pub mod progress;
pub mod puzzle;
pub mod random;
pub mod report;
pub mod send;
pub mod software;
pub mod solver;
pub mod sweep;
pub mod text;
pub mod tournament;
pub mod wire;

pub use puzzle::Puzzle;
pub use report::{exit, Report, Status};
pub use send::{send_board, SendOptions};
pub use software::solve_in_software;
