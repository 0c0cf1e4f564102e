//! The colour clue engine (issue 28), model first: so far its line logic.

pub mod line_logic;
