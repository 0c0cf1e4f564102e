//! Pieces the engines build on: block RAM (with a write mask and its collision check), the
//! lowest-bit finder, the build's parameters, the line register a narrow clue engine cuts, and
//! the walk over a line both line solvers take.

pub mod line_reg;
pub mod line_walk;
pub mod lowest_bit;
pub mod params;
pub mod ram;
pub mod thermometer;
