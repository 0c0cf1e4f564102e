//! One cell written into a line word: the word with the cell's five colour
//! bits (bit `bit` of each plane) replaced by `colours`, and what the cell
//! had. The colour engine writes every cell this way: a narrowed cell into
//! its crossing line, a branch into its row and column, an undone cell
//! back.
//!
//! Registered: the word and the counts are ready the cycle after `word`
//! (a block RAM's read) arrives, for a write in that cycle.

use crate::colour::line_solver::{COLOURS, MAX_CELLS, PLANE_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct CellWriter {
    pub clock: Signal<In, Clock>,
    pub word: Signal<In, Bits<PLANE_BITS>>,
    /// The cell, one-hot.
    pub bit: Signal<In, Bits<MAX_CELLS>>,
    pub colours: Signal<In, Bits<COLOURS>>,
    /// A cycle later: the word with the cell written, the colours the
    /// cell had, and how many it had and has.
    pub written: Signal<Out, Bits<PLANE_BITS>>,
    pub had: Signal<Out, Bits<COLOURS>>,
    pub had_count: Signal<Out, Bits<3>>,
    pub count: Signal<Out, Bits<3>>,
    written_q: DFF<Bits<PLANE_BITS>>,
    had_q: DFF<Bits<COLOURS>>,
    had_count_q: DFF<Bits<3>>,
    count_q: DFF<Bits<3>>,
    next_word: Signal<Local, Bits<PLANE_BITS>>,
    old: Signal<Local, Bits<COLOURS>>,
    old_count: Signal<Local, Bits<3>>,
    new_count: Signal<Local, Bits<3>>,
}

impl Logic for CellWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, written_q, had_q, had_count_q, count_q);
        self.next_word.next = self.word.val();
        self.old.next = 0.into();
        self.old_count.next = 0.into();
        self.new_count.next = 0.into();
        for c in 0..COLOURS {
            self.old.next = self
                .old
                .val()
                .replace_bit(c, (self.word.val().get_bits::<32>(32 * c) & self.bit.val()).any());
            if self.old.val().get_bit(c) {
                self.old_count.next = self.old_count.val() + 1;
            }
            if self.colours.val().get_bit(c) {
                self.new_count.next = self.new_count.val() + 1;
            }
            for i in 0..MAX_CELLS {
                if self.bit.val().get_bit(i) {
                    self.next_word.next = self
                        .next_word
                        .val()
                        .replace_bit(32 * c + i, self.colours.val().get_bit(c));
                }
            }
        }
        self.written_q.d.next = self.next_word.val();
        self.had_q.d.next = self.old.val();
        self.had_count_q.d.next = self.old_count.val();
        self.count_q.d.next = self.new_count.val();
        self.written.next = self.written_q.q.val();
        self.had.next = self.had_q.q.val();
        self.had_count.next = self.had_count_q.q.val();
        self.count.next = self.count_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::tick;

    /// Random words, cells and colours: the written word differs from the
    /// word in the cell's five bits only, which hold the colours; the
    /// counts are the cell's colours before and after.
    #[test]
    fn writes_one_cell() {
        let mut uut = CellWriter::default();
        uut.connect_all();
        let mut rng = Rng(0xce11);
        for _ in 0..500 {
            let planes: Vec<u64> = (0..COLOURS).map(|_| rng.next_u64() & 0xffff_ffff).collect();
            let (cell, colours) = (rng.below(32), rng.below(32));
            let word = planes
                .iter()
                .enumerate()
                .fold(Bits::<PLANE_BITS>::default(), |w, (c, &p)| {
                    w | (Bits::<PLANE_BITS>::from(p) << (32 * c as u64))
                });
            uut.word.next = word;
            uut.bit.next = (1u64 << cell).into();
            uut.colours.next = colours.into();
            tick(&mut uut, |u| &mut u.clock);
            let had = (0..COLOURS).fold(0, |h, c| h | (planes[c] >> cell & 1) << c);
            assert_eq!(uut.had.val().to_u64(), had);
            assert_eq!(uut.had_count.val().to_u64(), had.count_ones() as u64);
            assert_eq!(uut.count.val().to_u64(), colours.count_ones() as u64);
            for (c, &p) in planes.iter().enumerate() {
                let want = (p & !(1 << cell)) | (colours >> c & 1) << cell;
                assert_eq!(
                    uut.written.val().get_bits::<32>(32 * c).to_u64(),
                    want,
                    "plane {c}"
                );
            }
        }
    }
}
