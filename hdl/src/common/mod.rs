//! Pieces both engines build on: block RAM (with a write mask and its collision check), the
//! lowest-bit finder, the build's parameters, and the line register a narrow clue engine cuts.

pub mod line_reg;
pub mod lowest_bit;
pub mod params;
pub mod ram;
