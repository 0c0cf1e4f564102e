//! One copy of the board's Known and Value in block RAM (the board memory
//! keeps a row copy and a column copy, see `board_memory.rs`): a word per
//! line, Known and Value for up to 32 cells, read whole, written whole or a
//! cell at a time, two cells a cycle.
//!
//! Two cells a cycle: the copy is two lanes, each a masked block RAM of
//! 16 cells (Known in bits 0..16, Value in 16..32). Word w keeps its cells
//! 0..16 in lane `w % 2` and its cells 16..32 in the other, so cell b of
//! word w is in lane `(b / 16) ^ (w % 2)`. The cell writer sets cell b
//! (the line it visited) in many words; those of even words all go to one
//! lane and those of odd words to the other, so it can set one of each a
//! cycle. A read swaps the halves back.
//!
//! Writes reach the lanes a cycle later, through registers (a choice of
//! sources before the enables and masks of 8 block RAMs missed 100 MHz). A
//! whole-word write wins over cell writes in the same cycle; the board memory
//! never makes both.

use crate::common::params::MAX_LINE;
use crate::common::ram::Ram;
use rust_hdl::prelude::*;

const _: () = assert!(MAX_LINE == 32, "a word is two lanes of 16 cells");

#[derive(LogicBlock)]
pub struct BoardCopy {
    pub clock: Signal<In, Clock>,
    /// Read word `read_address`: Known and Value arrive a cycle later.
    pub read_address: Signal<In, Bits<5>>,
    pub read_used: Signal<In, Bit>,
    pub known: Signal<Out, Bits<MAX_LINE>>,
    pub value: Signal<Out, Bits<MAX_LINE>>,
    /// Write word `word_address` whole.
    pub word_write: Signal<In, Bit>,
    pub word_address: Signal<In, Bits<5>>,
    pub word_known: Signal<In, Bits<MAX_LINE>>,
    pub word_value: Signal<In, Bits<MAX_LINE>>,
    /// Set cell `cell_index` (Known, and Value to `*_value`) in an even word
    /// and in an odd word.
    pub cell_index: Signal<In, Bits<5>>,
    pub even_write: Signal<In, Bit>,
    pub even_address: Signal<In, Bits<5>>,
    pub even_value: Signal<In, Bit>,
    pub odd_write: Signal<In, Bit>,
    pub odd_address: Signal<In, Bits<5>>,
    pub odd_value: Signal<In, Bit>,
    lanes: [Ram<32, 5>; 2],
    write: [DFF<Bit>; 2],
    address: [DFF<Bits<5>>; 2],
    data: [DFF<Bits<32>>; 2],
    // The bits a write leaves as they are (none for a whole word).
    keep: [DFF<Bits<32>>; 2],
    // Bit 0 of the word on the lanes' outputs: whether its halves are swapped.
    read_odd: DFF<Bit>,
    // The cell's bit in a lane: in Known's half and in Value's.
    cell_bit: Signal<Local, Bits<32>>,
    cell_both: Signal<Local, Bits<32>>,
    // The word's halves, as lanes hold them.
    low_half: Signal<Local, Bits<32>>,
    high_half: Signal<Local, Bits<32>>,
    one: Constant<Bits<32>>,
}

impl Default for BoardCopy {
    fn default() -> Self {
        BoardCopy {
            clock: Default::default(),
            read_address: Default::default(),
            read_used: Default::default(),
            known: Default::default(),
            value: Default::default(),
            word_write: Default::default(),
            word_address: Default::default(),
            word_known: Default::default(),
            word_value: Default::default(),
            cell_index: Default::default(),
            even_write: Default::default(),
            even_address: Default::default(),
            even_value: Default::default(),
            odd_write: Default::default(),
            odd_address: Default::default(),
            odd_value: Default::default(),
            lanes: Default::default(),
            write: Default::default(),
            address: Default::default(),
            data: Default::default(),
            keep: Default::default(),
            read_odd: Default::default(),
            cell_bit: Default::default(),
            cell_both: Default::default(),
            low_half: Default::default(),
            high_half: Default::default(),
            one: crate::constant(1u64),
        }
    }
}

impl Logic for BoardCopy {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, read_odd);
        for lane in 0..2 {
            self.lanes[lane].clock.next = self.clock.val();
            self.write[lane].clock.next = self.clock.val();
            self.address[lane].clock.next = self.clock.val();
            self.data[lane].clock.next = self.clock.val();
            self.keep[lane].clock.next = self.clock.val();
            self.write[lane].d.next = self.write[lane].q.val();
            self.address[lane].d.next = self.address[lane].q.val();
            self.data[lane].d.next = self.data[lane].q.val();
            self.keep[lane].d.next = self.keep[lane].q.val();
        }

        // Reads: both lanes at the same address; swap back an odd word.
        self.read_odd.d.next = self.read_address.val().get_bit(0);
        for lane in 0..2 {
            self.lanes[lane].read_address.next = self.read_address.val();
            self.lanes[lane].read_used.next = self.read_used.val();
        }
        self.low_half.next = self.lanes[0].read_data.val();
        self.high_half.next = self.lanes[1].read_data.val();
        if self.read_odd.q.val() {
            self.low_half.next = self.lanes[1].read_data.val();
            self.high_half.next = self.lanes[0].read_data.val();
        }
        self.known.next = bit_cast::<MAX_LINE, 16>(self.low_half.val().get_bits::<16>(0))
            | (bit_cast::<MAX_LINE, 16>(self.high_half.val().get_bits::<16>(0)) << 16);
        self.value.next = bit_cast::<MAX_LINE, 16>(self.low_half.val().get_bits::<16>(16))
            | (bit_cast::<MAX_LINE, 16>(self.high_half.val().get_bits::<16>(16)) << 16);

        // Cell writes: the even word's cell goes to lane `cell_index / 16`,
        // the odd word's to the other.
        self.cell_bit.next = self.one.val() << bit_cast::<32, 4>(self.cell_index.val().get_bits::<4>(0));
        self.cell_both.next = self.cell_bit.val() | (self.cell_bit.val() << 16);
        for lane in 0..2 {
            self.keep[lane].d.next = !self.cell_both.val();
        }
        self.write[0].d.next = self.even_write.val();
        self.address[0].d.next = self.even_address.val();
        self.data[0].d.next = self.cell_bit.val();
        if self.even_value.val() {
            self.data[0].d.next = self.cell_both.val();
        }
        self.write[1].d.next = self.odd_write.val();
        self.address[1].d.next = self.odd_address.val();
        self.data[1].d.next = self.cell_bit.val();
        if self.odd_value.val() {
            self.data[1].d.next = self.cell_both.val();
        }
        if self.cell_index.val().get_bit(4) {
            self.write[1].d.next = self.even_write.val();
            self.address[1].d.next = self.even_address.val();
            self.data[1].d.next = self.cell_bit.val();
            if self.even_value.val() {
                self.data[1].d.next = self.cell_both.val();
            }
            self.write[0].d.next = self.odd_write.val();
            self.address[0].d.next = self.odd_address.val();
            self.data[0].d.next = self.cell_bit.val();
            if self.odd_value.val() {
                self.data[0].d.next = self.cell_both.val();
            }
        }

        // Whole words: cells 0..16 to lane `address % 2`, 16..32 to the other.
        if self.word_write.val() {
            for lane in 0..2 {
                self.write[lane].d.next = true;
                self.address[lane].d.next = self.word_address.val();
                self.keep[lane].d.next = 0.into();
            }
            self.data[0].d.next = bit_cast::<32, 16>(self.word_known.val().get_bits::<16>(0))
                | (bit_cast::<32, 16>(self.word_value.val().get_bits::<16>(0)) << 16);
            self.data[1].d.next = bit_cast::<32, 16>(self.word_known.val().get_bits::<16>(16))
                | (bit_cast::<32, 16>(self.word_value.val().get_bits::<16>(16)) << 16);
            if self.word_address.val().get_bit(0) {
                self.data[1].d.next = bit_cast::<32, 16>(self.word_known.val().get_bits::<16>(0))
                    | (bit_cast::<32, 16>(self.word_value.val().get_bits::<16>(0)) << 16);
                self.data[0].d.next = bit_cast::<32, 16>(self.word_known.val().get_bits::<16>(16))
                    | (bit_cast::<32, 16>(self.word_value.val().get_bits::<16>(16)) << 16);
            }
        }
        for lane in 0..2 {
            self.lanes[lane].write_enable.next = self.write[lane].q.val();
            self.lanes[lane].write_address.next = self.address[lane].q.val();
            self.lanes[lane].write_data.next = self.data[lane].q.val();
            self.lanes[lane].write_keep.next = self.keep[lane].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, xorshift, yosys_cell_count, yosys_check};

    fn idle(uut: &mut BoardCopy) {
        uut.word_write.next = false;
        uut.even_write.next = false;
        uut.odd_write.next = false;
    }

    fn read(uut: &mut BoardCopy, word: u64) -> (u64, u64) {
        uut.read_address.next = word.into();
        uut.read_used.next = true;
        tick(uut, |u| &mut u.clock);
        uut.read_used.next = false;
        (uut.known.val().to_u64(), uut.value.val().to_u64())
    }

    /// Random whole-word and cell writes against a plain memory.
    #[test]
    fn words_and_two_cells_a_cycle_read_back_as_written() {
        let mut uut = BoardCopy::default();
        uut.connect_all();
        idle(&mut uut);
        let mut known = [0u64; 32];
        let mut value = [0u64; 32];
        let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for w in 0..32u64 {
            uut.word_write.next = true;
            uut.word_address.next = w.into();
            uut.word_known.next = 0.into();
            uut.word_value.next = 0.into();
            tick(&mut uut, |u| &mut u.clock);
        }
        for step in 0..2000 {
            idle(&mut uut);
            if rand() % 4 == 0 {
                let w = rand() % 32;
                let (k, v) = (rand() & 0xffff_ffff, rand() & 0xffff_ffff);
                uut.word_write.next = true;
                uut.word_address.next = w.into();
                uut.word_known.next = k.into();
                uut.word_value.next = v.into();
                known[w as usize] = k;
                value[w as usize] = v;
            } else {
                let cell = rand() % 32;
                uut.cell_index.next = cell.into();
                for (parity, write, address, val) in [
                    (0, rand() % 2 == 0, rand() % 16, rand() % 2 == 1),
                    (1, rand() % 2 == 0, rand() % 16, rand() % 2 == 1),
                ] {
                    let w = (address * 2 + parity) as usize;
                    if parity == 0 {
                        uut.even_write.next = write;
                        uut.even_address.next = (w as u64).into();
                        uut.even_value.next = val;
                    } else {
                        uut.odd_write.next = write;
                        uut.odd_address.next = (w as u64).into();
                        uut.odd_value.next = val;
                    }
                    if write {
                        known[w] |= 1 << cell;
                        value[w] = value[w] & !(1 << cell) | (val as u64) << cell;
                    }
                }
            }
            tick(&mut uut, |u| &mut u.clock);
            if step % 50 == 49 {
                idle(&mut uut);
                tick(&mut uut, |u| &mut u.clock);
                for w in 0..32 {
                    assert_eq!(
                        read(&mut uut, w),
                        (known[w as usize], value[w as usize]),
                        "word {w} after step {step}"
                    );
                }
            }
        }
    }

    #[test]
    fn maps_to_four_block_rams() {
        let mut uut = BoardCopy::default();
        uut.connect_all();
        if let Some(log) = yosys_check(&uut, "board_copy") {
            assert_eq!(yosys_cell_count(&log, "SB_RAM40_4K"), 4, "{log}");
        }
    }
}
