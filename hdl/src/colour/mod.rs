//! The colour clue engine (issue 28), model first: its line logic, the
//! engine's cycle-exact model (line logic and search, both modes), and the
//! line solver in gateware.

pub mod line_logic;
pub mod line_solver;
pub mod model;
