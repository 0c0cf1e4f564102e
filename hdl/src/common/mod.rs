//! Pieces both engines build on: block RAM (with a write mask and its collision check), the
//! lowest-bit finder, and the build's parameters.

pub mod lowest_bit;
pub mod params;
pub mod ram;
