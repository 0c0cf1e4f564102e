//! Which newly fixed cell of a visited line is copied into the crossing
//! lines next: the lowest bit of `fresh`, and that cell's value.
//!
//! A 64-bit `x & −x` does not fit a 10 ns cycle, so the lowest bit is found
//! in two registered steps. Step 1: in each byte, which bit is lowest
//! (numbered), and which byte is the lowest with a bit (one-hot). Step 2:
//! the lowest byte's lowest bit, as a number (`lowest_cell`, for the
//! crossing line's address) and, registered, as a bit (`copied_bit`).
//!
//! `lowest_cell` is the lowest cell of `fresh` as it was a cycle before,
//! and `copied_bit` the same cell a cycle later still: a crossing decides
//! its cell from `lowest_cell`, then uses `copied_bit` in its next cycle.
//!
//! The copied cell's value comes two registered steps after `copied_bit`
//! (each byte of `value` at the bit, then any): a 64-way multiplexer in one
//! cycle missed 100 MHz on nextpnr seeds.

use crate::constant;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FreshFinder {
    pub clock: Signal<In, Clock>,
    /// The cells a visit fixed that the crossing lines do not have yet.
    pub fresh: Signal<In, Bits<64>>,
    /// The visited line's values.
    pub value: Signal<In, Bits<64>>,
    /// The lowest cell of `fresh` a cycle ago, as a number.
    pub lowest_cell: Signal<Out, Bits<6>>,
    /// The same cell as a bit, a cycle later (loaded every cycle: only the
    /// crossing's first cycle reads it).
    pub copied_bit: Signal<Out, Bits<64>>,
    /// `value` at `copied_bit`, two cycles after it.
    pub copied_value: Signal<Out, Bit>,
    lowest_byte: DFF<Bits<8>>,
    byte_lowest: [DFF<Bits<3>>; 8],
    copied_bit_q: DFF<Bits<64>>,
    byte_hit: DFF<Bits<8>>,
    copied_value_q: DFF<Bit>,
    byte_isolated: [Signal<Local, Bits<8>>; 8],
    byte_code: [Signal<Local, Bits<3>>; 8],
    byte_bit: [Signal<Local, Bits<8>>; 8],
    byte_any: Signal<Local, Bits<8>>,
    byte_hit_next: Signal<Local, Bits<8>>,
    low_bits: Signal<Local, Bits<3>>,
    lowest_bit: Signal<Local, Bits<64>>,
    one_byte: Constant<Bits<8>>,
    // bit_masks[j]: the bits of a byte whose number has bit j set.
    bit_masks: [Constant<Bits<8>>; 3],
}

impl Default for FreshFinder {
    fn default() -> Self {
        let mask = |j: usize| {
            (0..8u64)
                .filter(|i| i >> j & 1 == 1)
                .fold(0u64, |m, i| m | 1 << i)
        };
        FreshFinder {
            clock: Default::default(),
            fresh: Default::default(),
            value: Default::default(),
            lowest_cell: Default::default(),
            copied_bit: Default::default(),
            copied_value: Default::default(),
            lowest_byte: Default::default(),
            byte_lowest: Default::default(),
            copied_bit_q: Default::default(),
            byte_hit: Default::default(),
            copied_value_q: Default::default(),
            byte_isolated: Default::default(),
            byte_code: Default::default(),
            byte_bit: Default::default(),
            byte_any: Default::default(),
            byte_hit_next: Default::default(),
            low_bits: Default::default(),
            lowest_bit: Default::default(),
            one_byte: constant(1u64),
            bit_masks: array_init::array_init(|j| constant(mask(j))),
        }
    }
}

impl Logic for FreshFinder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lowest_byte, copied_bit_q, byte_hit, copied_value_q);
        // Step 1, each byte: its lowest bit isolated (x & −x), numbered.
        for g in 0..8 {
            self.byte_lowest[g].clock.next = self.clock.val();
            self.byte_isolated[g].next =
                self.fresh.val().get_bits::<8>(8 * g) & (!self.fresh.val().get_bits::<8>(8 * g) + 1);
            self.byte_code[g].next = 0.into();
            for j in 0..3 {
                self.byte_code[g].next = self.byte_code[g]
                    .val()
                    .replace_bit(j, (self.byte_isolated[g].val() & self.bit_masks[j].val()).any());
            }
            self.byte_lowest[g].d.next = self.byte_code[g].val();
        }
        self.byte_any.next = 0.into();
        for g in 0..8 {
            self.byte_any.next = self
                .byte_any
                .val()
                .replace_bit(g, self.fresh.val().get_bits::<8>(8 * g).any());
        }
        // The lowest byte with a bit, one-hot (x & −x of the bytes' ORs).
        self.lowest_byte.d.next = self.byte_any.val() & (!self.byte_any.val() + 1);
        // Step 2: the lowest byte's lowest bit, numbered and as a bit.
        self.low_bits.next = 0.into();
        for g in 0..8 {
            if self.lowest_byte.q.val().get_bit(g) {
                self.low_bits.next = self.low_bits.val() | self.byte_lowest[g].q.val();
            }
        }
        self.lowest_cell.next = bit_cast::<6, 3>(self.low_bits.val());
        for j in 0..3 {
            self.lowest_cell.next = self
                .lowest_cell
                .val()
                .replace_bit(j + 3, (self.lowest_byte.q.val() & self.bit_masks[j].val()).any());
        }
        self.lowest_bit.next = 0.into();
        for g in 0..8 {
            self.byte_bit[g].next = self.one_byte.val() << self.byte_lowest[g].q.val();
            for i in 0..8 {
                self.lowest_bit.next = self.lowest_bit.val().replace_bit(
                    8 * g + i,
                    self.lowest_byte.q.val().get_bit(g) & self.byte_bit[g].val().get_bit(i),
                );
            }
        }
        self.copied_bit_q.d.next = self.lowest_bit.val();
        self.copied_bit.next = self.copied_bit_q.q.val();
        // The copied cell's value.
        self.byte_hit_next.next = 0.into();
        for g in 0..8 {
            self.byte_hit_next.next = self.byte_hit_next.val().replace_bit(
                g,
                (self.value.val().get_bits::<8>(8 * g) & self.copied_bit_q.q.val().get_bits::<8>(8 * g))
                    .any(),
            );
        }
        self.byte_hit.d.next = self.byte_hit_next.val();
        self.copied_value_q.d.next = self.byte_hit.q.val().any();
        self.copied_value.next = self.copied_value_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// A new word every cycle: each output at its documented latency.
    #[test]
    fn finds_the_lowest_cell_and_its_value_at_their_latencies() {
        let mut uut = FreshFinder::default();
        uut.connect_all();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut words, mut values) = (vec![], vec![]);
        for i in 0..3000 {
            // Sparse words (and 0) too, so that every byte is the lowest.
            let shift = rng.below(65);
            let word = if shift == 64 {
                0
            } else {
                rng.next_u64() >> shift << shift
            };
            let value = rng.next_u64();
            words.push(word);
            values.push(value);
            uut.fresh.next = word.into();
            uut.value.next = value.into();
            tick(&mut uut, |u| &mut u.clock);
            let lowest = |w: u64| if w == 0 { 0 } else { w.trailing_zeros() as u64 };
            assert_eq!(uut.lowest_cell.val().to_u64(), lowest(word), "{word:#x}");
            if i >= 1 {
                assert_eq!(
                    uut.copied_bit.val().to_u64(),
                    words[i - 1] & words[i - 1].wrapping_neg()
                );
            }
            if i >= 3 {
                let bit = words[i - 3] & words[i - 3].wrapping_neg();
                assert_eq!(uut.copied_value.val(), values[i - 1] & bit != 0, "cycle {i}");
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = FreshFinder::default();
        uut.connect_all();
        yosys_check(&uut, "fresh_finder");
    }
}
