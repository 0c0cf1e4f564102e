//! The option FIFO: a ring of option words in block RAM, and the option
//! count of every line beside it (a second, small block RAM).
//!
//! The parser appends options; the solver reads each line's options from the
//! head and appends the survivors at the tail, so the ring recirculates.
//! A read issued in one cycle delivers its word in the next. A write lags its
//! read by the solver's pipeline, so it never lands on the word being read.

use crate::block_ram::BlockRam;
use crate::params::{COUNT_BITS, FIFO_ADDR_BITS, FIFO_ENTRIES, LINE_ID_BITS, MAX_LINE};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OptionFifo {
    pub clock: Signal<In, Clock>,
    /// Empty the ring (the counts are rewritten with every board).
    pub clear: Signal<In, Bit>,
    /// Append `write_data` at the tail (ignored when full).
    pub write: Signal<In, Bit>,
    pub write_data: Signal<In, Bits<MAX_LINE>>,
    /// Pop the head (never when empty: the solver reads exactly the stored
    /// counts); the word arrives in `read_data`
    /// one cycle later.
    pub read: Signal<In, Bit>,
    pub read_data: Signal<Out, Bits<MAX_LINE>>,
    /// Options stored.
    pub len: Signal<Out, Bits<COUNT_BITS>>,
    pub full: Signal<Out, Bit>,
    /// Per-line counts: read port (data one cycle later; `count_read` says
    /// the count will be used) and write port.
    pub count_read: Signal<In, Bit>,
    pub count_read_line: Signal<In, Bits<LINE_ID_BITS>>,
    pub count_read_data: Signal<Out, Bits<COUNT_BITS>>,
    pub count_write: Signal<In, Bit>,
    pub count_write_line: Signal<In, Bits<LINE_ID_BITS>>,
    pub count_write_data: Signal<In, Bits<COUNT_BITS>>,
    words: BlockRam<Bits<MAX_LINE>, FIFO_ADDR_BITS>,
    counts: BlockRam<Bits<COUNT_BITS>, LINE_ID_BITS>,
    head: DFF<Bits<FIFO_ADDR_BITS>>,
    tail: DFF<Bits<FIFO_ADDR_BITS>>,
    stored: DFF<Bits<COUNT_BITS>>,
    capacity: Constant<Bits<COUNT_BITS>>,
}

impl Default for OptionFifo {
    fn default() -> Self {
        OptionFifo {
            clock: Default::default(),
            clear: Default::default(),
            write: Default::default(),
            write_data: Default::default(),
            read: Default::default(),
            read_data: Default::default(),
            len: Default::default(),
            full: Default::default(),
            count_read: Default::default(),
            count_read_line: Default::default(),
            count_read_data: Default::default(),
            count_write: Default::default(),
            count_write_line: Default::default(),
            count_write_data: Default::default(),
            words: Default::default(),
            counts: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            stored: Default::default(),
            capacity: Constant::new((FIFO_ENTRIES as u64).into()),
        }
    }
}

impl Logic for OptionFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, stored);
        self.words.clock.next = self.clock.val();
        self.words.read_used.next = self.read.val();
        self.counts.clock.next = self.clock.val();
        self.counts.read_used.next = self.count_read.val();

        self.full.next = self.stored.q.val() == self.capacity.val();
        self.len.next = self.stored.q.val();

        self.words.read_address.next = self.head.q.val();
        self.read_data.next = self.words.read_data.val();
        self.words.write_address.next = self.tail.q.val();
        self.words.write_data.next = self.write_data.val();
        self.words.write_enable.next = self.write.val() & !self.full.val();

        self.counts.read_address.next = self.count_read_line.val();
        self.count_read_data.next = self.counts.read_data.val();
        self.counts.write_address.next = self.count_write_line.val();
        self.counts.write_data.next = self.count_write_data.val();
        self.counts.write_enable.next = self.count_write.val();

        if self.words.write_enable.val() {
            self.tail.d.next = self.tail.q.val() + 1;
        }
        if self.read.val() {
            self.head.d.next = self.head.q.val() + 1;
            if !self.words.write_enable.val() {
                self.stored.d.next = self.stored.q.val() - 1;
            }
        } else if self.words.write_enable.val() {
            self.stored.d.next = self.stored.q.val() + 1;
        }
        if self.clear.val() {
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.stored.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_cell_count, yosys_check};

    fn new_fifo() -> OptionFifo {
        let mut uut = OptionFifo::default();
        uut.connect_all();
        uut
    }

    fn idle(uut: &mut OptionFifo) {
        uut.write.next = false;
        uut.read.next = false;
        uut.clear.next = false;
        uut.count_write.next = false;
    }

    #[test]
    fn fills_to_capacity_then_recirculates_in_order() {
        let mut uut = new_fifo();
        let word = |i: usize| ((i as u64).wrapping_mul(0x9e37_79b9) & 0xffff_ffff).into();
        idle(&mut uut);
        for i in 0..FIFO_ENTRIES + 3 {
            assert_eq!(uut.full.val(), i >= FIFO_ENTRIES, "full after {i} writes");
            uut.write.next = true;
            uut.write_data.next = word(i);
            tick(&mut uut, |u| &mut u.clock);
        }
        assert_eq!(
            uut.len.val().index(),
            FIFO_ENTRIES,
            "writes beyond capacity are dropped"
        );
        // Recirculate: read every word once, writing back the even ones two
        // cycles later (the solver's latency), as the solver does.
        idle(&mut uut);
        let mut pipeline: Vec<Option<Bits<MAX_LINE>>> = vec![None, None];
        let mut seen = vec![];
        for i in 0..FIFO_ENTRIES + 2 {
            uut.read.next = i < FIFO_ENTRIES;
            let late = pipeline.remove(0);
            uut.write.next = late.is_some();
            uut.write_data.next = late.unwrap_or_default();
            tick(&mut uut, |u| &mut u.clock);
            // `read_data` now holds the word read in this cycle.
            if i < FIFO_ENTRIES {
                let w = uut.read_data.val();
                assert_eq!(w, word(i), "word {i}");
                seen.push(w);
                pipeline.push((i % 2 == 0).then_some(w));
            } else {
                pipeline.push(None);
            }
        }
        idle(&mut uut);
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.len.val().index(), FIFO_ENTRIES / 2);
        for i in (0..FIFO_ENTRIES).step_by(2) {
            uut.read.next = true;
            tick(&mut uut, |u| &mut u.clock);
            assert_eq!(uut.read_data.val(), word(i), "survivor {i}");
        }
        idle(&mut uut);
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.len.val().index(), 0);
    }

    #[test]
    fn clear_empties_and_counts_are_kept_per_line() {
        let mut uut = new_fifo();
        idle(&mut uut);
        for line in 0..64u64 {
            uut.count_write.next = true;
            uut.count_write_line.next = line.into();
            uut.count_write_data.next = (line * 31 + 7).into();
            tick(&mut uut, |u| &mut u.clock);
        }
        idle(&mut uut);
        for line in (0..64u64).rev() {
            uut.count_read.next = true;
            uut.count_read_line.next = line.into();
            tick(&mut uut, |u| &mut u.clock);
            assert_eq!(uut.count_read_data.val().to_u64(), line * 31 + 7);
        }
        uut.write.next = true;
        tick(&mut uut, |u| &mut u.clock);
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.len.val().index(), 2);
        idle(&mut uut);
        uut.clear.next = true;
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.len.val().index(), 0);
        assert!(!uut.full.val());
    }

    #[test]
    fn maps_to_block_ram() {
        let Some(log) = yosys_check(&new_fifo(), "option_fifo") else {
            return;
        };
        let brams = yosys_cell_count(&log, "SB_RAM40_4K");
        // 2^FIFO_ADDR_BITS words of 32 bits in 256×16 blocks, plus one for the counts.
        assert_eq!(brams, FIFO_ENTRIES * MAX_LINE / 4096 + 1, "block RAMs:\n{log}");
    }
}
