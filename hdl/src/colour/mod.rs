//! The colour clue engine (issue 28), model first: so far its line logic
//! and a board solved by line logic alone.

pub mod line_logic;
pub mod model;
