//! Pieces both engines build on: block RAM with its collision check, the
//! lowest-bit finder, and the build's parameters.

pub mod block_ram;
pub mod lowest_bit;
pub mod params;
