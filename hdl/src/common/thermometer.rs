//! A thermometer: bit s of `below` is set when s < `value`, the mask of the
//! first `value` cells or states.
//!
//! Neither 2^value − 1 (its subtraction is a carry chain as long as the
//! word, at 71 MHz in the colour line solver) nor a compare of `value`
//! with each constant s (yosys gives each compare a carry chain of its
//! own: about 300 logic cells for 66 of them). Instead `value` = 8h + l:
//! s = 8a + b is below it when h > a, or h = a and l > b. The two small
//! decodes take a LUT level each, and each bit of `below` is one LUT of
//! them: three levels whatever N.

use rust_hdl::prelude::*;

/// The largest width: h is at most 8.
pub const MAX_BITS: usize = 72;

#[derive(LogicBlock, Default)]
pub struct Thermometer<const N: usize> {
    /// At most N.
    pub value: Signal<In, Bits<7>>,
    pub below: Signal<Out, Bits<N>>,
    // The decodes: h is a, h is above a; l is b, l is above b.
    high_is: Signal<Local, Bits<9>>,
    high_above: Signal<Local, Bits<9>>,
    low_is: Signal<Local, Bits<8>>,
    low_above: Signal<Local, Bits<8>>,
}

impl<const N: usize> Logic for Thermometer<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.high_is.next = 0.into();
        self.low_is.next = 0.into();
        for a in 0..9 {
            self.high_is.next = self
                .high_is
                .val()
                .replace_bit(a, self.value.val().get_bits::<4>(3).index() == a);
        }
        for b in 0..8 {
            self.low_is.next = self
                .low_is
                .val()
                .replace_bit(b, self.value.val().get_bits::<3>(0).index() == b);
        }
        // Above a: the decodes of a + 1 and up, ORed from the top.
        self.high_above.next = 0.into();
        for a in 0..8 {
            self.high_above.next = self.high_above.val().replace_bit(
                7 - a,
                self.high_above.val().get_bit(8 - a) | self.high_is.val().get_bit(8 - a),
            );
        }
        self.low_above.next = 0.into();
        for b in 0..7 {
            self.low_above.next = self.low_above.val().replace_bit(
                6 - b,
                self.low_above.val().get_bit(7 - b) | self.low_is.val().get_bit(7 - b),
            );
        }
        self.below.next = 0.into();
        for s in 0..N {
            self.below.next = self.below.val().replace_bit(
                s,
                self.high_above.val().get_bit(s >> 3)
                    | (self.high_is.val().get_bit(s >> 3) & self.low_above.val().get_bit(s & 7)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::settle;

    /// Every value of a 66-bit and a 32-bit thermometer.
    #[test]
    fn sets_the_bits_below_the_value() {
        fn check<const N: usize>() {
            let mut uut = Thermometer::<N>::default();
            uut.connect_all();
            for value in 0..=N {
                uut.value.next = (value as u64).into();
                settle(&mut uut);
                for s in 0..N {
                    assert_eq!(
                        uut.below.val().get_bit(s),
                        s < value,
                        "value {value}, bit {s} of {N}"
                    );
                }
            }
        }
        check::<66>();
        check::<32>();
    }
}
