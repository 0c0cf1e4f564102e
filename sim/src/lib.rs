//! The simulated board.
