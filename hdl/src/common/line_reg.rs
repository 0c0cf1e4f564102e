//! A register of a line's cells (or of its automaton's states) that a
//! narrow engine cuts to its first `K` bits.
//!
//! The clue engine is built 64 cells a side, or narrow, 32 a side: the
//! tournament image, which has room for probing only at half the width.
//! Narrow, `q` shows bits 0..K and reads 0 above them, so the flip-flops
//! above K drive nothing and yosys removes them together with every LUT
//! that only they used (half the line solver, the line words, the dirty
//! bits and the probing masks). Wide, `q` is the register as it is.
//! `narrow` comes from a constant of the core, so neither image builds the
//! multiplexer.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct LineReg<const N: usize, const K: usize> {
    pub clock: Signal<In, Clock>,
    pub narrow: Signal<In, Bit>,
    pub d: Signal<In, Bits<N>>,
    pub q: Signal<Out, Bits<N>>,
    held: DFF<Bits<N>>,
}

impl<const N: usize, const K: usize> Logic for LineReg<N, K> {
    #[hdl_gen]
    fn update(&mut self) {
        self.held.clock.next = self.clock.val();
        self.held.d.next = self.d.val();
        if self.narrow.val() {
            self.q.next = bit_cast::<N, K>(bit_cast::<K, N>(self.held.q.val()));
        } else {
            self.q.next = self.held.q.val();
        }
    }
}

/// A line's cells: 64, or 32 narrow.
pub type CellReg = LineReg<64, 32>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};

    #[test]
    fn narrow_shows_the_low_bits_only() {
        let mut uut = CellReg::default();
        uut.connect_all();
        uut.d.next = 0xdead_beef_0123_4567u64.into();
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.q.val().to_u64(), 0xdead_beef_0123_4567);
        uut.narrow.next = true;
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.q.val().to_u64(), 0x0123_4567);
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = CellReg::default();
        uut.connect_all();
        yosys_check(&uut, "line_reg");
    }
}
