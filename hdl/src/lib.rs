//! Gateware of the nonogram solver (RustHDL), its wire protocols and its
//! reference models, one folder an engine:
//!
//! * [`link`]: the UARTs, the framer, the board session, the replies'
//!   message sender and STATUS fields, and protocol v1's messages, which
//!   both engines share;
//! * [`dnf`]: the mission's engine: options streamed in, filtered in block
//!   RAM (protocol v1);
//! * [`clue`]: the clue engine: line solving from clues, and search
//!   (protocol v2);
//! * [`colour`]: the colour clue engine: so far its model's line logic, and
//!   its line solver in gateware;
//! * [`common`]: block RAM, the lowest-bit finder, build parameters;
//! * [`bench`]: testbench helpers and the driver that steps a core behind
//!   its UART;
//! * [`board_model`]: the whole board's bytes in and out, in plain Rust.

pub mod bench;
pub mod board_model;
pub mod clue;
pub mod colour;
pub mod common;
pub mod dnf;
pub mod link;

use rust_hdl::prelude::{Bits, Constant};

/// A constant of a gateware block, from a protocol or build value.
pub(crate) fn constant<const N: usize>(value: impl Into<u64>) -> Constant<Bits<N>> {
    Constant::new(value.into().into())
}
