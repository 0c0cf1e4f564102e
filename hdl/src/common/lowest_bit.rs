//! The lowest set bit of a 32-bit word, one-hot (0 for 0), fast.
//!
//! `x & (!x + 1)` says the same, but its 32-bit carry chain took about 6 ns
//! on the HX8K, and the DNF solver's phase schedule and the cell writer each
//! need the answer with more logic after it in the same cycle. Here four
//! bytes each find their lowest bit on an 8-bit chain while the lowest
//! non-empty byte is found beside them: about half the delay.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct LowestBit {
    pub word: Signal<In, Bits<32>>,
    pub lowest: Signal<Out, Bits<32>>,
    byte_0: Signal<Local, Bits<8>>,
    byte_1: Signal<Local, Bits<8>>,
    byte_2: Signal<Local, Bits<8>>,
    byte_3: Signal<Local, Bits<8>>,
}

impl Logic for LowestBit {
    #[hdl_gen]
    fn update(&mut self) {
        self.byte_0.next = self.word.val().get_bits::<8>(0);
        self.byte_1.next = self.word.val().get_bits::<8>(8);
        self.byte_2.next = self.word.val().get_bits::<8>(16);
        self.byte_3.next = self.word.val().get_bits::<8>(24);
        self.lowest.next = bit_cast::<32, 8>(self.byte_3.val() & (!self.byte_3.val() + 1)) << 24;
        if self.byte_2.val() != 0 {
            self.lowest.next = bit_cast::<32, 8>(self.byte_2.val() & (!self.byte_2.val() + 1)) << 16;
        }
        if self.byte_1.val() != 0 {
            self.lowest.next = bit_cast::<32, 8>(self.byte_1.val() & (!self.byte_1.val() + 1)) << 8;
        }
        if self.byte_0.val() != 0 {
            self.lowest.next = bit_cast::<32, 8>(self.byte_0.val() & (!self.byte_0.val() + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::yosys_check;

    #[test]
    fn finds_the_lowest_set_bit() {
        let mut uut = LowestBit::default();
        uut.connect_all();
        let mut rng = Rng(0x853c_49e6_748f_ea9b);
        let mut words: Vec<u64> = vec![0, 1, 1 << 31, 0xffff_ffff, 0x0100_0000, 0x8000_8000];
        for _ in 0..2000 {
            let seed = rng.next_u64();
            // Sparse words too, so that every byte is the lowest sometimes.
            let shift = seed % 32;
            words.push((seed >> 32) >> shift << shift & 0xffff_ffff);
        }
        for x in words {
            uut.word.next = x.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(
                uut.lowest.val().to_u64(),
                x & x.wrapping_neg() & 0xffff_ffff,
                "{x:#x}"
            );
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = LowestBit::default();
        uut.connect_all();
        yosys_check(&uut, "lowest_bit");
    }
}
