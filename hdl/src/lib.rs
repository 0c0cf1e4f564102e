//! Gateware of the nonogram solver (RustHDL), its wire protocol and its
//! reference model.

pub mod model;
pub mod options;
pub mod params;
pub mod protocol;
