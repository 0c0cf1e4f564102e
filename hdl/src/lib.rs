//! Gateware of the nonogram solver (RustHDL), its wire protocol and its
//! reference model.

pub mod bench;
pub mod model;
pub mod option_fifo;
pub mod options;
pub mod params;
pub mod protocol;
pub mod uart_rx;
pub mod uart_tx;
