//! The colour clue engine (issue 28), model first: its line logic, the
//! engine's cycle-exact model (line logic and search, both modes), its
//! wire protocol (v3), and the line solver in gateware.

pub mod cell_packer;
pub mod cell_writer;
pub mod colour_protocol;
pub mod core;
pub mod line_cells;
pub mod line_logic;
pub mod line_solver;
pub mod model;
pub mod reply;
pub mod solver;
pub mod trail;

/// The largest side of a board the colour engine takes (its line solver's
/// line).
pub const ENGINE_SIDE: usize = line_solver::MAX_CELLS;

/// The most inks the colour engine takes (its line solver's).
pub const ENGINE_INKS: usize = line_solver::INKS;
