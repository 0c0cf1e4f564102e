//! The DNF engine, as the mission describes it: the host sends every legal
//! fill (option) of every line; the engine stores them in block RAM and
//! filters each line's options against the cells it knows until nothing
//! changes (protocol v1).
//!
//! * [`core`]: the whole engine behind its UART: parser, solver, reply;
//! * [`parser`]: protocol v1's messages into options and line counts;
//! * [`solver`]: a visit's pipeline and the solve's states, joined to
//!   [`option_store`] and [`line_filter`], to [`board_memory`] (Known and
//!   Value: two [`board_copy`]s and the [`cell_writer`]), to
//!   [`phase_schedule`] (the dirty lines, the line visited next) and to
//!   [`verdict`] (the outcome and the counts);
//! * [`reply`]: the verdict and the board as protocol v1 messages;
//! * [`model`]: the engine in plain Rust, cycle for cycle;
//! * [`options`]: a line's options, enumerated.

pub mod board_copy;
pub mod board_memory;
pub mod cell_writer;
pub mod core;
pub mod line_filter;
pub mod model;
pub mod option_store;
pub mod options;
pub mod parser;
pub mod phase_schedule;
pub mod reply;
pub mod solver;
pub mod verdict;
