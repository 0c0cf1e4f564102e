//! The line filter: streams one line's options out of the option store, two
//! a cycle, keeps those that agree with the line's known cells,
//! `((option ^ value) & known) == 0`, writes the survivors back into the
//! line's region and folds them into an AND and an OR.
//!
//! Pipeline (one stage a cycle):
//! * I: the pair of slots is read;
//! * A: the words arrive and are registered as they are (the store's 16
//!   block RAMs are spread over the chip, and the wires from them left no
//!   time for the compare in the same cycle);
//! * D: the words are compared (result registered: a compare and the
//!   accumulators in one cycle miss 100 MHz);
//! * W: survivors are written back from the line's base, AND/OR and the
//!   survivor count accumulate; in the line's last pair, the folds are the
//!   line's result (combinational: the solver registers what it needs).
//!
//! Lines follow one another with no gap: the next line is taken (`take`)
//! in the cycle the current one reads its last pair (`free`). A line of K
//! options reads ⌈K/2⌉ pairs; a line with none spends one cycle reading
//! nothing, and its result has no survivor.
//!
//! Survivors are written in slot order from the base; a surviving word goes
//! to its own bank when it can, so only a lone survivor may cross banks.
//! A write always lands on a slot read at least three cycles before.

use crate::common::params::{COUNT_BITS, FIFO_ADDR_BITS, MAX_LINE};
use crate::dnf::option_store::{PairPort, BANK_BITS};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LineFilter {
    pub clock: Signal<In, Clock>,
    /// Drop everything in flight.
    pub flush: Signal<In, Bit>,
    /// A line can be taken this cycle.
    pub free: Signal<Out, Bit>,
    /// Take a line: its index (carried to the result), region and cells.
    pub take: Signal<In, Bit>,
    pub take_index: Signal<In, Bits<5>>,
    pub take_base: Signal<In, Bits<FIFO_ADDR_BITS>>,
    pub take_count: Signal<In, Bits<COUNT_BITS>>,
    pub take_known: Signal<In, Bits<MAX_LINE>>,
    pub take_value: Signal<In, Bits<MAX_LINE>>,
    /// Reads and writes of the option store (`option_store.rs`).
    pub store: PairPort,
    /// A line's result, for one cycle (from the last stage's logic): AND
    /// and OR of its survivors, how many, and the line as it was taken.
    pub result: Signal<Out, Bit>,
    pub result_index: Signal<Out, Bits<5>>,
    pub result_base: Signal<Out, Bits<FIFO_ADDR_BITS>>,
    pub result_survivors: Signal<Out, Bits<COUNT_BITS>>,
    /// No survivor (without the survivor count's carry chain, which made
    /// the solver's contradiction test miss 100 MHz).
    pub result_empty: Signal<Out, Bit>,
    pub result_all: Signal<Out, Bits<MAX_LINE>>,
    pub result_any: Signal<Out, Bits<MAX_LINE>>,
    pub result_known: Signal<Out, Bits<MAX_LINE>>,
    pub result_value: Signal<Out, Bits<MAX_LINE>>,
    /// Some line is in the pipeline.
    pub busy: Signal<Out, Bit>,
    // Stage I: the line being read. `half` = slot / 2 of the pair's first
    // slot, `odd_base` its parity (the line's base parity); `one`/`two`:
    // at least one/two options left; `last`: this is the last pair.
    i_valid: DFF<Bit>,
    i_half: DFF<Bits<BANK_BITS>>,
    i_odd_base: DFF<Bit>,
    i_left: DFF<Bits<COUNT_BITS>>,
    i_one: DFF<Bit>,
    i_two: DFF<Bit>,
    i_last: DFF<Bit>,
    i_first: DFF<Bit>,
    i_index: DFF<Bits<5>>,
    i_base: DFF<Bits<FIFO_ADDR_BITS>>,
    i_known: DFF<Bits<MAX_LINE>>,
    i_value: DFF<Bits<MAX_LINE>>,
    // Stage A: the words arrive (registered as they are: a block RAM's
    // output has a long way to the compare, which then missed 100 MHz).
    a_valid: DFF<Bit>,
    a_even_valid: DFF<Bit>,
    a_odd_valid: DFF<Bit>,
    a_first: DFF<Bit>,
    a_last: DFF<Bit>,
    a_index: DFF<Bits<5>>,
    a_base: DFF<Bits<FIFO_ADDR_BITS>>,
    a_known: DFF<Bits<MAX_LINE>>,
    a_value: DFF<Bits<MAX_LINE>>,
    // Stage D: the words are compared.
    d_valid: DFF<Bit>,
    d_even_valid: DFF<Bit>,
    d_odd_valid: DFF<Bit>,
    d_first: DFF<Bit>,
    d_last: DFF<Bit>,
    d_index: DFF<Bits<5>>,
    d_base: DFF<Bits<FIFO_ADDR_BITS>>,
    d_known: DFF<Bits<MAX_LINE>>,
    d_value: DFF<Bits<MAX_LINE>>,
    d_even: DFF<Bits<MAX_LINE>>,
    d_odd: DFF<Bits<MAX_LINE>>,
    // Stage W: compared words; `slot` is the next survivor's slot.
    w_valid: DFF<Bit>,
    w_even_ok: DFF<Bit>,
    w_odd_ok: DFF<Bit>,
    w_even: DFF<Bits<MAX_LINE>>,
    w_odd: DFF<Bits<MAX_LINE>>,
    w_first: DFF<Bit>,
    w_last: DFF<Bit>,
    w_index: DFF<Bits<5>>,
    w_base: DFF<Bits<FIFO_ADDR_BITS>>,
    w_known: DFF<Bits<MAX_LINE>>,
    w_value: DFF<Bits<MAX_LINE>>,
    slot: DFF<Bits<FIFO_ADDR_BITS>>,
    all: DFF<Bits<MAX_LINE>>,
    any: DFF<Bits<MAX_LINE>>,
    survivors: DFF<Bits<COUNT_BITS>>,
    // Combinational helpers.
    write_slot: Signal<Local, Bits<FIFO_ADDR_BITS>>,
    write_slot_up: Signal<Local, Bits<FIFO_ADDR_BITS>>,
    kept: Signal<Local, Bits<2>>,
    fold_all: Signal<Local, Bits<MAX_LINE>>,
    fold_any: Signal<Local, Bits<MAX_LINE>>,
    fold_survivors: Signal<Local, Bits<COUNT_BITS>>,
    ones: Constant<Bits<MAX_LINE>>,
}

impl Default for LineFilter {
    fn default() -> Self {
        LineFilter {
            clock: Default::default(),
            flush: Default::default(),
            free: Default::default(),
            take: Default::default(),
            take_index: Default::default(),
            take_base: Default::default(),
            take_count: Default::default(),
            take_known: Default::default(),
            take_value: Default::default(),
            store: Default::default(),
            result: Default::default(),
            result_index: Default::default(),
            result_base: Default::default(),
            result_survivors: Default::default(),
            result_empty: Default::default(),
            result_all: Default::default(),
            result_any: Default::default(),
            result_known: Default::default(),
            result_value: Default::default(),
            busy: Default::default(),
            i_valid: Default::default(),
            i_half: Default::default(),
            i_odd_base: Default::default(),
            i_left: Default::default(),
            i_one: Default::default(),
            i_two: Default::default(),
            i_last: Default::default(),
            i_first: Default::default(),
            i_index: Default::default(),
            i_base: Default::default(),
            i_known: Default::default(),
            i_value: Default::default(),
            a_valid: Default::default(),
            a_even_valid: Default::default(),
            a_odd_valid: Default::default(),
            a_first: Default::default(),
            a_last: Default::default(),
            a_index: Default::default(),
            a_base: Default::default(),
            a_known: Default::default(),
            a_value: Default::default(),
            d_valid: Default::default(),
            d_even_valid: Default::default(),
            d_odd_valid: Default::default(),
            d_first: Default::default(),
            d_last: Default::default(),
            d_index: Default::default(),
            d_base: Default::default(),
            d_known: Default::default(),
            d_value: Default::default(),
            d_even: Default::default(),
            d_odd: Default::default(),
            w_valid: Default::default(),
            w_even_ok: Default::default(),
            w_odd_ok: Default::default(),
            w_even: Default::default(),
            w_odd: Default::default(),
            w_first: Default::default(),
            w_last: Default::default(),
            w_index: Default::default(),
            w_base: Default::default(),
            w_known: Default::default(),
            w_value: Default::default(),
            slot: Default::default(),
            all: Default::default(),
            any: Default::default(),
            survivors: Default::default(),
            write_slot: Default::default(),
            write_slot_up: Default::default(),
            kept: Default::default(),
            fold_all: Default::default(),
            fold_any: Default::default(),
            fold_survivors: Default::default(),
            ones: crate::constant(u32::MAX),
        }
    }
}

impl Logic for LineFilter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            i_valid,
            i_half,
            i_odd_base,
            i_left,
            i_one,
            i_two,
            i_last,
            i_first,
            i_index,
            i_base,
            i_known,
            i_value,
            a_valid,
            a_even_valid,
            a_odd_valid,
            a_first,
            a_last,
            a_index,
            a_base,
            a_known,
            a_value,
            d_valid,
            d_even_valid,
            d_odd_valid,
            d_first,
            d_last,
            d_index,
            d_base,
            d_known,
            d_value,
            d_even,
            d_odd,
            w_valid,
            w_even_ok,
            w_odd_ok,
            w_even,
            w_odd,
            w_first,
            w_last,
            w_index,
            w_base,
            w_known,
            w_value,
            slot,
            all,
            any,
            survivors
        );
        // Stage I. The pair's first slot is in the odd bank when the base
        // is odd; the even bank then holds the second, one address up.
        self.free.next = !self.i_valid.q.val() | self.i_last.q.val();
        self.store.read_odd_address.next = self.i_half.q.val();
        self.store.read_even_address.next = self.i_half.q.val();
        self.store.read_odd_used.next = false;
        self.store.read_even_used.next = false;
        if self.i_odd_base.q.val() {
            self.store.read_even_address.next = self.i_half.q.val() + 1;
            self.store.read_odd_used.next = self.i_valid.q.val() & self.i_one.q.val();
            self.store.read_even_used.next = self.i_valid.q.val() & self.i_two.q.val();
        } else {
            self.store.read_even_used.next = self.i_valid.q.val() & self.i_one.q.val();
            self.store.read_odd_used.next = self.i_valid.q.val() & self.i_two.q.val();
        }
        self.i_half.d.next = self.i_half.q.val() + 1;
        self.i_left.d.next = self.i_left.q.val() - 2;
        self.i_one.d.next = self.i_left.q.val() >= 3;
        self.i_two.d.next = self.i_left.q.val() >= 4;
        self.i_last.d.next = self.i_left.q.val() <= 4;
        self.i_first.d.next = false;
        if self.free.val() {
            self.i_valid.d.next = false;
        }
        if self.take.val() {
            self.i_valid.d.next = true;
            self.i_half.d.next = self.take_base.val().get_bits::<BANK_BITS>(1);
            self.i_odd_base.d.next = self.take_base.val().get_bit(0);
            self.i_left.d.next = self.take_count.val();
            self.i_one.d.next = self.take_count.val() >= 1;
            self.i_two.d.next = self.take_count.val() >= 2;
            self.i_last.d.next = self.take_count.val() <= 2;
            self.i_first.d.next = true;
            self.i_index.d.next = self.take_index.val();
            self.i_base.d.next = self.take_base.val();
            self.i_known.d.next = self.take_known.val();
            self.i_value.d.next = self.take_value.val();
        }

        // Stage A.
        self.a_valid.d.next = self.i_valid.q.val();
        self.a_even_valid.d.next = self.store.read_even_used.val();
        self.a_odd_valid.d.next = self.store.read_odd_used.val();
        self.a_first.d.next = self.i_first.q.val();
        self.a_last.d.next = self.i_last.q.val();
        self.a_index.d.next = self.i_index.q.val();
        self.a_base.d.next = self.i_base.q.val();
        self.a_known.d.next = self.i_known.q.val();
        self.a_value.d.next = self.i_value.q.val();
        self.d_valid.d.next = self.a_valid.q.val();
        self.d_even_valid.d.next = self.a_even_valid.q.val();
        self.d_odd_valid.d.next = self.a_odd_valid.q.val();
        self.d_first.d.next = self.a_first.q.val();
        self.d_last.d.next = self.a_last.q.val();
        self.d_index.d.next = self.a_index.q.val();
        self.d_base.d.next = self.a_base.q.val();
        self.d_known.d.next = self.a_known.q.val();
        self.d_value.d.next = self.a_value.q.val();
        self.d_even.d.next = self.store.even_data.val();
        self.d_odd.d.next = self.store.odd_data.val();

        // Stage D.
        self.w_valid.d.next = self.d_valid.q.val();
        self.w_even_ok.d.next = self.d_even_valid.q.val()
            & (((self.d_even.q.val() ^ self.d_value.q.val()) & self.d_known.q.val()) == 0);
        self.w_odd_ok.d.next = self.d_odd_valid.q.val()
            & (((self.d_odd.q.val() ^ self.d_value.q.val()) & self.d_known.q.val()) == 0);
        self.w_even.d.next = self.d_even.q.val();
        self.w_odd.d.next = self.d_odd.q.val();
        self.w_first.d.next = self.d_first.q.val();
        self.w_last.d.next = self.d_last.q.val();
        self.w_index.d.next = self.d_index.q.val();
        self.w_base.d.next = self.d_base.q.val();
        self.w_known.d.next = self.d_known.q.val();
        self.w_value.d.next = self.d_value.q.val();

        // Stage W. Survivors go to slots `write_slot` and up: with two, each
        // word keeps its bank; a lone survivor goes to the bank of its slot.
        self.write_slot.next = self.slot.q.val();
        self.fold_all.next = self.all.q.val();
        self.fold_any.next = self.any.q.val();
        self.fold_survivors.next = self.survivors.q.val();
        if self.w_first.q.val() {
            self.write_slot.next = self.w_base.q.val();
            self.fold_all.next = self.ones.val();
            self.fold_any.next = 0.into();
            self.fold_survivors.next = 0.into();
        }
        self.write_slot_up.next = self.write_slot.val() + 1;
        self.kept.next = 0.into();
        if self.w_even_ok.q.val() ^ self.w_odd_ok.q.val() {
            self.kept.next = 1.into();
        }
        if self.w_even_ok.q.val() & self.w_odd_ok.q.val() {
            self.kept.next = 2.into();
        }
        self.store.write_even_address.next = self.write_slot_up.val().get_bits::<BANK_BITS>(1);
        self.store.write_odd_address.next = self.write_slot.val().get_bits::<BANK_BITS>(1);
        self.store.write_even_data.next = self.w_odd.q.val();
        if self.w_even_ok.q.val() {
            self.store.write_even_data.next = self.w_even.q.val();
        }
        self.store.write_odd_data.next = self.w_even.q.val();
        if self.w_odd_ok.q.val() {
            self.store.write_odd_data.next = self.w_odd.q.val();
        }
        self.store.write_even.next = false;
        self.store.write_odd.next = false;
        if self.w_valid.q.val() {
            if self.kept.val() == 2 {
                self.store.write_even.next = true;
                self.store.write_odd.next = true;
            }
            if self.kept.val() == 1 {
                self.store.write_even.next = !self.write_slot.val().get_bit(0);
                self.store.write_odd.next = self.write_slot.val().get_bit(0);
            }
        }
        if self.w_even_ok.q.val() {
            self.fold_all.next = self.fold_all.val() & self.w_even.q.val();
            self.fold_any.next = self.fold_any.val() | self.w_even.q.val();
        }
        if self.w_odd_ok.q.val() {
            self.fold_all.next = self.fold_all.val() & self.w_odd.q.val();
            self.fold_any.next = self.fold_any.val() | self.w_odd.q.val();
        }
        self.fold_survivors.next = self.fold_survivors.val() + bit_cast::<COUNT_BITS, 2>(self.kept.val());
        if self.w_valid.q.val() {
            self.slot.d.next = self.write_slot.val() + bit_cast::<FIFO_ADDR_BITS, 2>(self.kept.val());
            self.all.d.next = self.fold_all.val();
            self.any.d.next = self.fold_any.val();
            self.survivors.d.next = self.fold_survivors.val();
        }
        self.result.next = self.w_valid.q.val() & self.w_last.q.val();
        self.result_index.next = self.w_index.q.val();
        self.result_base.next = self.w_base.q.val();
        self.result_survivors.next = self.fold_survivors.val();
        self.result_empty.next = !(self.w_even_ok.q.val() | self.w_odd_ok.q.val())
            & (self.w_first.q.val() | (self.survivors.q.val() == 0));
        self.result_all.next = self.fold_all.val();
        self.result_any.next = self.fold_any.val();
        self.result_known.next = self.w_known.q.val();
        self.result_value.next = self.w_value.q.val();
        self.busy.next =
            self.i_valid.q.val() | self.a_valid.q.val() | self.d_valid.q.val() | self.w_valid.q.val();

        if self.flush.val() {
            self.i_valid.d.next = false;
            self.a_valid.d.next = false;
            self.d_valid.d.next = false;
            self.w_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests;
