//! The clues of a board: every block in one memory (2 048 blocks for all
//! lines together), and for each line its first block's address and its
//! block count in the line table. A block is a word of `W` bits: its
//! length (7 bits) for the black-and-white engines, and its ink above the
//! length for the colour engine.
//!
//! The loader writes both only while no board is being solved. A visit
//! asks for its line's table entry in Fetch, takes the first block's
//! address in Load, and the line solver reads its blocks from Start to
//! the end of Solve.

use rust_hdl::prelude::*;

use crate::common::ram::Ram;

/// Address bits of the clue store.
pub const CLUE_STORE_BITS: usize = 11;

#[derive(LogicBlock, Default)]
pub struct ClueStore<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// The loader's write ports: one block, and one line's entry.
    pub clue_write: Signal<In, Bit>,
    pub clue_address: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub clue_length: Signal<In, Bits<W>>,
    pub line_write: Signal<In, Bit>,
    pub line_number: Signal<In, Bits<7>>,
    pub line_first: Signal<In, Bits<CLUE_STORE_BITS>>,
    pub line_blocks: Signal<In, Bits<6>>,
    /// The visited line (rows 0..m, then columns), its entry on the table's
    /// port a cycle later.
    pub line: Signal<In, Bits<8>>,
    /// The visit's Load: latch the line's first block.
    pub load: Signal<In, Bit>,
    /// The line solver is running (Start, Solve): its blocks are read.
    pub solving: Signal<In, Bit>,
    /// The line solver's block number, and that block a cycle later.
    pub block: Signal<In, Bits<5>>,
    pub length: Signal<Out, Bits<W>>,
    /// The visited line's block count (from Load to the end of Solve).
    pub blocks: Signal<Out, Bits<6>>,
    line_table: Ram<17, 7>,
    clues: Ram<W, CLUE_STORE_BITS>,
    first_block: DFF<Bits<CLUE_STORE_BITS>>,
}

impl<const W: usize> Logic for ClueStore<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, first_block);
        self.line_table.clock.next = self.clock.val();
        self.clues.clock.next = self.clock.val();
        self.line_table.read_used.next = self.load.val() | self.solving.val();
        self.clues.read_used.next = self.solving.val();
        self.clues.write_enable.next = self.clue_write.val();
        self.clues.write_keep.next = 0.into();
        self.clues.write_address.next = self.clue_address.val();
        self.clues.write_data.next = self.clue_length.val();
        // An entry: the block count in bits 16..11, the first block below.
        self.line_table.write_enable.next = self.line_write.val();
        self.line_table.write_keep.next = 0.into();
        self.line_table.write_address.next = self.line_number.val();
        self.line_table.write_data.next = (bit_cast::<17, 6>(self.line_blocks.val()) << 11)
            | bit_cast::<17, CLUE_STORE_BITS>(self.line_first.val());
        self.line_table.read_address.next = bit_cast::<7, 8>(self.line.val());
        if self.load.val() {
            self.first_block.d.next = self.line_table.read_data.val().get_bits::<CLUE_STORE_BITS>(0);
        }
        self.clues.read_address.next =
            self.first_block.q.val() + bit_cast::<CLUE_STORE_BITS, 5>(self.block.val());
        self.length.next = self.clues.read_data.val();
        self.blocks.next = self.line_table.read_data.val().get_bits::<6>(11);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Random clues for 128 lines, written as the loader writes them; each
    /// line read back as a visit reads it.
    #[test]
    fn gives_each_line_its_blocks() {
        let mut uut = ClueStore::<7>::default();
        uut.connect_all();
        let mut rng = Rng(0x1234_5678_9abc_def0);
        let mut lines = vec![];
        let mut address = 0;
        for line in 0..128u64 {
            let clue: Vec<u64> = (0..rng.below(16)).map(|_| 1 + rng.below(64)).collect();
            uut.line_write.next = true;
            uut.line_number.next = line.into();
            uut.line_first.next = address.into();
            uut.line_blocks.next = (clue.len() as u64).into();
            tick(&mut uut, |u| &mut u.clock);
            uut.line_write.next = false;
            for &b in &clue {
                uut.clue_write.next = true;
                uut.clue_address.next = address.into();
                uut.clue_length.next = b.into();
                tick(&mut uut, |u| &mut u.clock);
                address += 1;
            }
            uut.clue_write.next = false;
            lines.push(clue);
        }
        for _ in 0..300 {
            let line = rng.below(128);
            // Fetch: the line's entry asked; Load: its first block latched.
            uut.line.next = line.into();
            tick(&mut uut, |u| &mut u.clock);
            uut.load.next = true;
            tick(&mut uut, |u| &mut u.clock);
            uut.load.next = false;
            uut.solving.next = true;
            let clue = &lines[line as usize];
            assert_eq!(uut.blocks.val().to_u64(), clue.len() as u64);
            for (i, &b) in clue.iter().enumerate() {
                uut.block.next = (i as u64).into();
                tick(&mut uut, |u| &mut u.clock);
                assert_eq!(uut.length.val().to_u64(), b, "line {line} block {i}");
            }
            uut.solving.next = false;
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = ClueStore::<7>::default();
        uut.connect_all();
        yosys_check(&uut, "clue_store");
    }
}
