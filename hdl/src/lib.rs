//! Gateware of the nonogram solver (RustHDL), its wire protocol and its
//! reference model.

pub mod bench;
pub mod block_ram;
pub mod board_copy;
pub mod board_model;
pub mod cell_writer;
pub mod clue_core;
pub mod clue_model;
pub mod clue_parser;
pub mod clue_protocol;
pub mod clue_reply;
pub mod clue_solver;
pub mod core;
pub mod driver;
pub mod framer;
pub mod line_filter;
pub mod line_logic;
pub mod line_solver;
pub mod lowest_bit;
pub mod model;
pub mod option_store;
pub mod options;
pub mod params;
pub mod parser;
pub mod protocol;
pub mod reply;
pub mod solver;
pub mod uart_rx;
pub mod uart_tx;

use rust_hdl::prelude::{Bits, Constant};

/// A constant of a gateware block, from a protocol or build value.
pub(crate) fn constant<const N: usize>(value: impl Into<u64>) -> Constant<Bits<N>> {
    Constant::new(value.into().into())
}
