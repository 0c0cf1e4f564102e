//! The colour clue engine (issue 28), model first: so far its line logic,
//! a board solved by line logic alone, and the line solver in gateware.

pub mod line_logic;
pub mod line_solver;
pub mod model;
