//! The STATUS fields of both protocols' replies: field `step`'s byte and
//! id, and whether it is the reply's last, each registered.
//!
//! Steps 0..=14 are the fields of the same number (`protocol::status::field`);
//! steps 15..=22 are the eight SEARCH fields (id 15), the nodes' bytes then
//! the backtracks', low byte first. An engine feeds 0 for what it does not
//! have (the clue engine stores no options, the DNF engine has no search
//! and stops at field 13).
//!
//! Registered in two stages. The 23-way choice by `step` straight into the
//! reply's message register was the critical path of the clue image with
//! probing; one register after it was still too slow for the three-image
//! flash. So the first stage picks, by `step`'s low three bits, one field
//! from each group of eight (`low`, `middle`, `high`) and notes the group;
//! the second picks the group. The byte comes two cycles after `step`, the
//! id and last flag one. A reply reads them at least three cycles after
//! `step` or its inputs change (a message's two bytes go out in between),
//! so never stale.

use crate::common::params::CYCLE_BITS;
use crate::link::protocol::status;
use rust_hdl::prelude::*;

// The multiplexer numbers the fields in this order.
const _: () = {
    use status::field::*;
    assert!(OUTCOME == 0 && DETAIL == 1 && CYCLES_0 == 2 && PASSES == 6 && OPTIONS_0 == 7);
    assert!(MAX_LINE == 9 && FIFO_ADDR_BITS == 10 && VERSION == 11 && MAX_LINES == 12);
    assert!(ENGINES == 13 && CLUE_STORE_BITS == 14 && SEARCH == 15);
};

#[derive(LogicBlock, Default)]
pub struct StatusFields {
    pub clock: Signal<In, Clock>,
    /// The field to send (see above), and the reply's last step.
    pub step: Signal<In, Bits<5>>,
    pub last_step: Signal<In, Bits<5>>,
    pub outcome: Signal<In, Bits<8>>,
    pub detail: Signal<In, Bits<8>>,
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    pub passes: Signal<In, Bits<8>>,
    pub options: Signal<In, Bits<16>>,
    pub max_line: Signal<In, Bits<8>>,
    pub fifo_addr_bits: Signal<In, Bits<8>>,
    pub version: Signal<In, Bits<8>>,
    pub max_lines: Signal<In, Bits<8>>,
    pub engines: Signal<In, Bits<8>>,
    pub clue_store_bits: Signal<In, Bits<8>>,
    /// The search's counts, sent only when `with_search` (a board's reply;
    /// other replies send SEARCH fields of 0).
    pub nodes: Signal<In, Bits<32>>,
    pub backtracks: Signal<In, Bits<32>>,
    pub with_search: Signal<In, Bit>,
    /// Field `step`'s byte, two cycles after `step`; its id, and whether
    /// `step` is `last_step`, one cycle after.
    pub byte: Signal<Out, Bits<8>>,
    pub id: Signal<Out, Bits<4>>,
    pub last: Signal<Out, Bit>,
    /// First stage: field `step % 8` of each group of eight, the group
    /// (`step / 8`), and whether the byte is 0 (a SEARCH field without
    /// search, or past the last field).
    low_field: DFF<Bits<8>>,
    middle_field: DFF<Bits<8>>,
    high_field: DFF<Bits<8>>,
    group: DFF<Bits<2>>,
    zero: DFF<Bit>,
    byte_q: DFF<Bits<8>>,
    id_q: DFF<Bits<4>>,
    last_q: DFF<Bit>,
}

impl Logic for StatusFields {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            low_field,
            middle_field,
            high_field,
            group,
            zero,
            byte_q,
            id_q,
            last_q
        );
        self.byte.next = self.byte_q.q.val();
        self.id.next = self.id_q.q.val();
        self.last.next = self.last_q.q.val();
        self.last_q.d.next = self.step.val() == self.last_step.val();
        self.id_q.d.next = bit_cast::<4, 5>(self.step.val());
        if self.step.val() >= 15 {
            self.id_q.d.next = 15.into();
        }

        // Stage one: steps 0..=7, 8..=15 and 16..=23 side by side.
        self.group.d.next = self.step.val().get_bits::<2>(3);
        self.zero.d.next = ((self.step.val() >= 15) & !self.with_search.val()) | (self.step.val() > 22);
        match self.step.val().get_bits::<3>(0).index() {
            0 => {
                self.low_field.d.next = self.outcome.val();
                self.middle_field.d.next = self.options.val().get_bits::<8>(8);
                self.high_field.d.next = self.nodes.val().get_bits::<8>(8);
            }
            1 => {
                self.low_field.d.next = self.detail.val();
                self.middle_field.d.next = self.max_line.val();
                self.high_field.d.next = self.nodes.val().get_bits::<8>(16);
            }
            2 => {
                self.low_field.d.next = self.cycles.val().get_bits::<8>(0);
                self.middle_field.d.next = self.fifo_addr_bits.val();
                self.high_field.d.next = self.nodes.val().get_bits::<8>(24);
            }
            3 => {
                self.low_field.d.next = self.cycles.val().get_bits::<8>(8);
                self.middle_field.d.next = self.version.val();
                self.high_field.d.next = self.backtracks.val().get_bits::<8>(0);
            }
            4 => {
                self.low_field.d.next = self.cycles.val().get_bits::<8>(16);
                self.middle_field.d.next = self.max_lines.val();
                self.high_field.d.next = self.backtracks.val().get_bits::<8>(8);
            }
            5 => {
                self.low_field.d.next = self.cycles.val().get_bits::<8>(24);
                self.middle_field.d.next = self.engines.val();
                self.high_field.d.next = self.backtracks.val().get_bits::<8>(16);
            }
            6 => {
                self.low_field.d.next = self.passes.val();
                self.middle_field.d.next = self.clue_store_bits.val();
                self.high_field.d.next = self.backtracks.val().get_bits::<8>(24);
            }
            _ => {
                self.low_field.d.next = self.options.val().get_bits::<8>(0);
                self.middle_field.d.next = self.nodes.val().get_bits::<8>(0);
                self.high_field.d.next = 0.into();
            }
        }

        // Stage two: the group's field.
        self.byte_q.d.next = self.low_field.q.val();
        if self.group.q.val() == 1 {
            self.byte_q.d.next = self.middle_field.q.val();
        }
        if self.group.q.val() >= 2 {
            self.byte_q.d.next = self.high_field.q.val();
        }
        if self.zero.q.val() {
            self.byte_q.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// Every step, with random field values: the id and last flag a cycle
    /// later, and the byte two cycles later, are the field's, as the
    /// protocol numbers them. Steps past the last field give a 0 byte.
    #[test]
    fn each_step_gives_its_field() {
        let mut uut = StatusFields::default();
        uut.connect_all();
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for round in 0..200 {
            let v: Vec<u64> = (0..14).map(|_| rng.next_u64()).collect();
            let (cycles, options, nodes, backtracks) = (v[0] as u32, v[1] as u16, v[2] as u32, v[3] as u32);
            let bytes: Vec<u64> = v[4..14].iter().map(|&x| x & 0xff).collect();
            let with_search = round % 2 == 0;
            let last_step = rng.below(23);
            uut.outcome.next = bytes[0].into();
            uut.detail.next = bytes[1].into();
            uut.cycles.next = (cycles as u64).into();
            uut.passes.next = bytes[2].into();
            uut.options.next = (options as u64).into();
            uut.max_line.next = bytes[3].into();
            uut.fifo_addr_bits.next = bytes[4].into();
            uut.version.next = bytes[5].into();
            uut.max_lines.next = bytes[6].into();
            uut.engines.next = bytes[7].into();
            uut.clue_store_bits.next = bytes[8].into();
            uut.nodes.next = (nodes as u64).into();
            uut.backtracks.next = (backtracks as u64).into();
            uut.with_search.next = with_search;
            uut.last_step.next = last_step.into();
            let search = |x: u32, i: u64| {
                if with_search {
                    (x >> (8 * i)) as u64 & 0xff
                } else {
                    0
                }
            };
            for step in 0..32u64 {
                uut.step.next = step.into();
                tick(&mut uut, |u| &mut u.clock);
                assert_eq!(uut.id.val().to_u64(), step.min(15), "step {step}");
                assert_eq!(uut.last.val(), step == last_step, "step {step}");
                tick(&mut uut, |u| &mut u.clock);
                let expected = match step {
                    0 => bytes[0],
                    1 => bytes[1],
                    2..=5 => (cycles >> (8 * (step - 2))) as u64 & 0xff,
                    6 => bytes[2],
                    7 | 8 => (options >> (8 * (step - 7))) as u64 & 0xff,
                    9..=14 => bytes[step as usize - 6],
                    15..=18 => search(nodes, step - 15),
                    19..=22 => search(backtracks, step - 19),
                    _ => 0,
                };
                assert_eq!(uut.byte.val().to_u64(), expected, "step {step}");
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = StatusFields::default();
        uut.connect_all();
        yosys_check(&uut, "status_fields");
    }
}
