//! The option store: every line's options in block RAM, each line in a
//! region of its own, with the line's base and option count in a line table.
//!
//! The loader appends options in line order; at the end of each line it
//! records the line's region (where it began, how many options). The
//! solver reads any line's region from its base, two options a cycle, and
//! writes the survivors back from the same base, so a line never moves and
//! a line that needs no visit costs nothing (a ring FIFO would have to
//! recirculate it).
//!
//! Two options a cycle: slot s of the store lives in bank `s % 2` at address
//! `s / 2`, so slots s and s + 1 are always in different banks. Reading
//! them takes the odd bank at `s / 2` and the even bank at `(s + 1) / 2`.
//!
//! The table has 64 entries: rows at 0..32, columns at 32..64 (the loader
//! numbers lines 0..m+n; the solver addresses them by phase and index).
//! An entry is `base | count << FIFO_ADDR_BITS`.

use crate::common::params::{COUNT_BITS, DIM_BITS, FIFO_ADDR_BITS, FIFO_ENTRIES, LINE_ID_BITS, MAX_LINE};
use crate::common::ram::Ram;
use rust_hdl::prelude::*;

/// Address bits of a bank (half the store's slots).
pub const BANK_BITS: usize = FIFO_ADDR_BITS - 1;

/// Bits of a line table entry: base, then count.
pub const ENTRY_BITS: usize = FIFO_ADDR_BITS + COUNT_BITS;

/// Address bits of the line table: a column bit and a 5-bit index.
pub const TABLE_BITS: usize = 6;
const _: () = assert!(MAX_LINE == 32, "a table address is a column bit and 5 index bits");

/// The line filter's side of the store (`line_filter.rs`): each cycle a
/// pair of slots read, one a bank, data one cycle later (`*_used`: the word
/// will be looked at), and up to two survivors written back, one word a
/// bank (they land a cycle later).
#[derive(LogicInterface, Default)]
#[join = "PairResponder"]
pub struct PairPort {
    pub read_even_address: Signal<Out, Bits<BANK_BITS>>,
    pub read_odd_address: Signal<Out, Bits<BANK_BITS>>,
    pub read_even_used: Signal<Out, Bit>,
    pub read_odd_used: Signal<Out, Bit>,
    pub even_data: Signal<In, Bits<MAX_LINE>>,
    pub odd_data: Signal<In, Bits<MAX_LINE>>,
    pub write_even: Signal<Out, Bit>,
    pub write_even_address: Signal<Out, Bits<BANK_BITS>>,
    pub write_even_data: Signal<Out, Bits<MAX_LINE>>,
    pub write_odd: Signal<Out, Bit>,
    pub write_odd_address: Signal<Out, Bits<BANK_BITS>>,
    pub write_odd_data: Signal<Out, Bits<MAX_LINE>>,
}

/// The store's side of [`PairPort`].
#[derive(LogicInterface, Default)]
#[join = "PairPort"]
pub struct PairResponder {
    pub read_even_address: Signal<In, Bits<BANK_BITS>>,
    pub read_odd_address: Signal<In, Bits<BANK_BITS>>,
    pub read_even_used: Signal<In, Bit>,
    pub read_odd_used: Signal<In, Bit>,
    pub even_data: Signal<Out, Bits<MAX_LINE>>,
    pub odd_data: Signal<Out, Bits<MAX_LINE>>,
    pub write_even: Signal<In, Bit>,
    pub write_even_address: Signal<In, Bits<BANK_BITS>>,
    pub write_even_data: Signal<In, Bits<MAX_LINE>>,
    pub write_odd: Signal<In, Bit>,
    pub write_odd_address: Signal<In, Bits<BANK_BITS>>,
    pub write_odd_data: Signal<In, Bits<MAX_LINE>>,
}

#[derive(LogicBlock)]
pub struct OptionStore {
    pub clock: Signal<In, Clock>,
    /// Empty the store (a new board).
    pub clear: Signal<In, Bit>,
    /// Loader: append `append_data` (ignored when full).
    pub append: Signal<In, Bit>,
    pub append_data: Signal<In, Bits<MAX_LINE>>,
    /// Options stored.
    pub len: Signal<Out, Bits<COUNT_BITS>>,
    pub full: Signal<Out, Bit>,
    /// Loader: line `line_end_line` (numbered 0..m+n) ended with
    /// `line_end_count` options; `rows` tells rows from columns.
    pub line_end: Signal<In, Bit>,
    pub line_end_line: Signal<In, Bits<LINE_ID_BITS>>,
    pub line_end_count: Signal<In, Bits<COUNT_BITS>>,
    pub rows: Signal<In, Bits<DIM_BITS>>,
    /// The line filter's pair of reads and writes a cycle.
    pub pairs: PairResponder,
    /// Solver: the line table, a line's base and count (one cycle after
    /// its address).
    pub table_read_address: Signal<In, Bits<TABLE_BITS>>,
    pub table_read_used: Signal<In, Bit>,
    pub table_base: Signal<Out, Bits<FIFO_ADDR_BITS>>,
    pub table_count: Signal<Out, Bits<COUNT_BITS>>,
    pub table_write: Signal<In, Bit>,
    pub table_write_address: Signal<In, Bits<TABLE_BITS>>,
    pub table_write_base: Signal<In, Bits<FIFO_ADDR_BITS>>,
    pub table_write_count: Signal<In, Bits<COUNT_BITS>>,
    even: Ram<MAX_LINE, BANK_BITS>,
    odd: Ram<MAX_LINE, BANK_BITS>,
    line_table: Ram<ENTRY_BITS, TABLE_BITS>,
    /// The next free slot, and where the line being loaded began.
    tail: DFF<Bits<COUNT_BITS>>,
    // tail == capacity, registered: it gates the write enables of the
    // store's 16 block RAMs.
    full_q: DFF<Bit>,
    tail_next: Signal<Local, Bits<COUNT_BITS>>,
    line_base: DFF<Bits<FIFO_ADDR_BITS>>,
    even_write: DFF<Bit>,
    even_write_address: DFF<Bits<BANK_BITS>>,
    even_write_data: DFF<Bits<MAX_LINE>>,
    odd_write: DFF<Bit>,
    odd_write_address: DFF<Bits<BANK_BITS>>,
    odd_write_data: DFF<Bits<MAX_LINE>>,
    is_column: Signal<Local, Bit>,
    column_index: Signal<Local, Bits<LINE_ID_BITS>>,
    appending: Signal<Local, Bit>,
    capacity: Constant<Bits<COUNT_BITS>>,
    count_shift: Constant<Bits<8>>,
}

impl Default for OptionStore {
    fn default() -> Self {
        OptionStore {
            clock: Default::default(),
            clear: Default::default(),
            append: Default::default(),
            append_data: Default::default(),
            len: Default::default(),
            full: Default::default(),
            line_end: Default::default(),
            line_end_line: Default::default(),
            line_end_count: Default::default(),
            rows: Default::default(),
            pairs: Default::default(),
            table_read_address: Default::default(),
            table_read_used: Default::default(),
            table_base: Default::default(),
            table_count: Default::default(),
            table_write: Default::default(),
            table_write_address: Default::default(),
            table_write_base: Default::default(),
            table_write_count: Default::default(),
            even: Default::default(),
            odd: Default::default(),
            line_table: Default::default(),
            tail: Default::default(),
            full_q: Default::default(),
            tail_next: Default::default(),
            line_base: Default::default(),
            even_write: Default::default(),
            even_write_address: Default::default(),
            even_write_data: Default::default(),
            odd_write: Default::default(),
            odd_write_address: Default::default(),
            odd_write_data: Default::default(),
            is_column: Default::default(),
            column_index: Default::default(),
            appending: Default::default(),
            capacity: Constant::new((FIFO_ENTRIES as u64).into()),
            count_shift: Constant::new((FIFO_ADDR_BITS as u64).into()),
        }
    }
}

impl Logic for OptionStore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            tail,
            full_q,
            line_base,
            even_write,
            even_write_address,
            even_write_data,
            odd_write,
            odd_write_address,
            odd_write_data
        );
        self.even.clock.next = self.clock.val();
        self.odd.clock.next = self.clock.val();
        self.line_table.clock.next = self.clock.val();

        self.full.next = self.full_q.q.val();
        self.len.next = self.tail.q.val();
        self.appending.next = self.append.val() & !self.full.val();

        // Reads.
        self.even.read_address.next = self.pairs.read_even_address.val();
        self.odd.read_address.next = self.pairs.read_odd_address.val();
        self.even.read_used.next = self.pairs.read_even_used.val();
        self.odd.read_used.next = self.pairs.read_odd_used.val();
        self.pairs.even_data.next = self.even.read_data.val();
        self.pairs.odd_data.next = self.odd.read_data.val();
        self.line_table.read_address.next = self.table_read_address.val();
        self.line_table.read_used.next = self.table_read_used.val();
        self.table_base.next = self.line_table.read_data.val().get_bits::<FIFO_ADDR_BITS>(0);
        self.table_count.next =
            bit_cast::<COUNT_BITS, ENTRY_BITS>(self.line_table.read_data.val() >> self.count_shift.val());

        // Writes: the solver's, or the loader's append at the tail. They
        // reach the banks a cycle later, through registers (the enables of
        // 16 block RAMs after a choice of sources missed 100 MHz); the
        // solver never reads a slot it wrote in the two cycles before.
        self.even_write.d.next = self.pairs.write_even.val();
        self.even_write_address.d.next = self.pairs.write_even_address.val();
        self.even_write_data.d.next = self.pairs.write_even_data.val();
        self.odd_write.d.next = self.pairs.write_odd.val();
        self.odd_write_address.d.next = self.pairs.write_odd_address.val();
        self.odd_write_data.d.next = self.pairs.write_odd_data.val();
        if self.appending.val() {
            self.even_write_address.d.next = self.tail.q.val().get_bits::<BANK_BITS>(1);
            self.odd_write_address.d.next = self.tail.q.val().get_bits::<BANK_BITS>(1);
            self.even_write_data.d.next = self.append_data.val();
            self.odd_write_data.d.next = self.append_data.val();
            self.even_write.d.next = !self.tail.q.val().get_bit(0);
            self.odd_write.d.next = self.tail.q.val().get_bit(0);
        }
        self.even.write_enable.next = self.even_write.q.val();
        self.even.write_keep.next = 0.into();
        self.even.write_address.next = self.even_write_address.q.val();
        self.even.write_data.next = self.even_write_data.q.val();
        self.odd.write_enable.next = self.odd_write.q.val();
        self.odd.write_keep.next = 0.into();
        self.odd.write_address.next = self.odd_write_address.q.val();
        self.odd.write_data.next = self.odd_write_data.q.val();

        // The line table: the solver's writes, or the loader's line ends.
        self.line_table.write_enable.next = self.table_write.val();
        self.line_table.write_keep.next = 0.into();
        self.line_table.write_address.next = self.table_write_address.val();
        self.line_table.write_data.next = bit_cast::<ENTRY_BITS, FIFO_ADDR_BITS>(self.table_write_base.val())
            | (bit_cast::<ENTRY_BITS, COUNT_BITS>(self.table_write_count.val()) << self.count_shift.val());
        self.is_column.next = self.line_end_line.val() >= bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val());
        self.column_index.next =
            self.line_end_line.val() - bit_cast::<LINE_ID_BITS, DIM_BITS>(self.rows.val());
        if self.line_end.val() {
            self.line_table.write_enable.next = true;
            self.line_table.write_address.next =
                bit_cast::<TABLE_BITS, LINE_ID_BITS>(self.line_end_line.val());
            if self.is_column.val() {
                self.line_table.write_address.next =
                    bit_cast::<TABLE_BITS, LINE_ID_BITS>(self.column_index.val()).replace_bit(5, true);
            }
            self.line_table.write_data.next = bit_cast::<ENTRY_BITS, FIFO_ADDR_BITS>(self.line_base.q.val())
                | (bit_cast::<ENTRY_BITS, COUNT_BITS>(self.line_end_count.val()) << self.count_shift.val());
            self.line_base.d.next =
                self.line_base.q.val() + bit_cast::<FIFO_ADDR_BITS, COUNT_BITS>(self.line_end_count.val());
        }
        self.tail_next.next = self.tail.q.val();
        if self.appending.val() {
            self.tail_next.next = self.tail.q.val() + 1;
        }
        if self.clear.val() {
            self.tail_next.next = 0.into();
            self.line_base.d.next = 0.into();
        }
        self.tail.d.next = self.tail_next.val();
        self.full_q.d.next = self.tail_next.val() == self.capacity.val();
    }
}

impl OptionStore {
    /// The option in `slot` now, for testbenches (no hardware).
    pub fn peek(&self, slot: u64) -> u64 {
        let bank = if slot % 2 == 0 { &self.even } else { &self.odd };
        bank.peek((slot / 2).into()).to_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_cell_count, yosys_check};

    fn new_store() -> OptionStore {
        let mut uut = OptionStore::default();
        uut.connect_all();
        uut
    }

    fn idle(uut: &mut OptionStore) {
        uut.append.next = false;
        uut.line_end.next = false;
        uut.clear.next = false;
        uut.pairs.write_even.next = false;
        uut.pairs.write_odd.next = false;
        uut.table_write.next = false;
    }

    fn read_pair(uut: &mut OptionStore, slot: u64) -> (u64, u64) {
        uut.pairs.read_odd_address.next = (slot / 2).into();
        uut.pairs.read_even_address.next = (slot.div_ceil(2) % (1 << BANK_BITS)).into();
        tick(uut, |u| &mut u.clock);
        let (even, odd) = (
            uut.pairs.even_data.val().to_u64(),
            uut.pairs.odd_data.val().to_u64(),
        );
        if slot % 2 == 0 {
            (even, odd)
        } else {
            (odd, even)
        }
    }

    #[test]
    fn appends_in_slot_order_and_records_each_lines_region() {
        let mut uut = new_store();
        idle(&mut uut);
        uut.rows.next = 2.into();
        let word = |i: u64| i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff;
        // Lines of 3, 0, 4 and 2 options: rows 0 and 1, columns 0 and 1.
        let counts = [3u64, 0, 4, 2];
        let mut slot = 0;
        for (line, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                uut.append.next = true;
                uut.append_data.next = word(slot).into();
                tick(&mut uut, |u| &mut u.clock);
                slot += 1;
            }
            idle(&mut uut);
            uut.line_end.next = true;
            uut.line_end_line.next = (line as u64).into();
            uut.line_end_count.next = count.into();
            tick(&mut uut, |u| &mut u.clock);
            idle(&mut uut);
        }
        assert_eq!(uut.len.val().to_u64(), 9);
        for s in 0..8 {
            assert_eq!(
                read_pair(&mut uut, s),
                (word(s), word(s + 1)),
                "slots {s}, {}",
                s + 1
            );
        }
        let mut base = 0;
        for (line, &count) in counts.iter().enumerate() {
            let address = if line < 2 { line } else { 32 + line - 2 };
            uut.table_read_address.next = (address as u64).into();
            tick(&mut uut, |u| &mut u.clock);
            let read = (uut.table_base.val().to_u64(), uut.table_count.val().to_u64());
            assert_eq!(read, (base, count), "line {line}");
            base += count;
        }
    }

    #[test]
    fn fills_to_capacity_and_clear_empties() {
        let mut uut = new_store();
        idle(&mut uut);
        for i in 0..FIFO_ENTRIES + 3 {
            assert_eq!(uut.full.val(), i >= FIFO_ENTRIES, "full after {i} appends");
            uut.append.next = true;
            uut.append_data.next = (i as u64).into();
            tick(&mut uut, |u| &mut u.clock);
        }
        idle(&mut uut);
        assert_eq!(
            uut.len.val().index(),
            FIFO_ENTRIES,
            "appends beyond capacity are dropped"
        );
        assert_eq!(
            read_pair(&mut uut, FIFO_ENTRIES as u64 - 2).0,
            FIFO_ENTRIES as u64 - 2
        );
        uut.clear.next = true;
        tick(&mut uut, |u| &mut u.clock);
        idle(&mut uut);
        assert_eq!(uut.len.val().index(), 0);
        assert!(!uut.full.val());
    }

    #[test]
    fn maps_to_block_ram() {
        let Some(log) = yosys_check(&new_store(), "option_store") else {
            return;
        };
        let brams = yosys_cell_count(&log, "SB_RAM40_4K");
        // The options in 256×16 blocks, and two for the 23-bit line table.
        assert_eq!(brams, FIFO_ENTRIES * MAX_LINE / 4096 + 2, "block RAMs:\n{log}");
    }
}
