//! The DNF engine, as the mission describes it: the host sends every legal
//! fill (option) of every line; the engine stores them in block RAM and
//! filters each line's options against the cells it knows until nothing
//! changes (protocol v1).
//!
//! * [`core`]: the whole engine behind its UART: parser, solver, reply;
//! * [`parser`]: protocol v1's messages into options and line counts;
//! * [`solver`]: the visit order and Known/Value, joined to
//!   [`option_store`], [`line_filter`], [`board_copy`] and [`cell_writer`];
//! * [`reply`]: the verdict and the board as protocol v1 messages;
//! * [`model`]: the engine in plain Rust, cycle for cycle;
//! * [`options`]: a line's options, enumerated.

pub mod board_copy;
pub mod cell_writer;
pub mod core;
pub mod line_filter;
pub mod model;
pub mod option_store;
pub mod options;
pub mod parser;
pub mod reply;
pub mod solver;
