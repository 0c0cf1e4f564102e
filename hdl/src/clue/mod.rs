//! The clue engine: the host sends the clues (protocol v2); the engine
//! solves each line from its clue with a bit-parallel dynamic program,
//! boards up to 64×64, and searches when line logic stalls.
//!
//! * [`core`]: the whole engine behind its UART: parser, solver, reply;
//! * [`parser`]: protocol v2's messages into the clue store;
//! * [`solver`]: the state machine of visits, around [`line_solver`],
//!   [`clue_store`], [`board_memory`], [`visit_order`], [`line_words`]
//!   (with the [`fresh_finder`]), [`crossing_writer`], [`search`] (with its
//!   [`trail`]), [`tally`] and [`verdict`];
//! * [`reply`]: the verdict and the board as protocol v2 messages;
//! * [`clue_protocol`]: protocol v2's encoding, for hosts and tests;
//! * [`clue_model`]: the engine in plain Rust, cycle for cycle;
//! * [`line_logic`]: the line solver's algorithm in plain Rust.

pub mod board_memory;
pub mod clue_model;
pub mod clue_protocol;
pub mod clue_store;
pub mod core;
pub mod crossing_writer;
pub mod fresh_finder;
pub mod line_logic;
pub mod line_solver;
pub mod line_words;
pub mod map_packer;
pub mod parser;
pub mod probe_lines;
pub mod probe_score;
pub mod reply;
pub mod search;
pub mod solver;
pub mod tally;
pub mod trail;
pub mod verdict;
pub mod visit_order;
