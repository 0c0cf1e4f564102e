//! A simple dual-port block RAM (one read port, one write port, one clock)
//! with a per-bit write mask, that tells yosys a read never meets a write
//! of the same address.
//!
//! RustHDL's own `RAM` is emitted read-before-write: a read of the address
//! being written returns the old word. The iCE40's SB_RAM40_4K does not
//! promise that, so yosys keeps the old word itself, in bypass logic on the
//! read path (a register of the written word, an address compare and a mux
//! for every bit: about 100 flip-flops on the critical path). This design
//! never uses a word read in the cycle its address is written, so the
//! memory is declared `no_rw_check` and yosys maps it to the bare block RAM.
//!
//! That promise is checked in simulation: the user says with `read_used`
//! when the word being read will be used, and a cycle that reads a used
//! word and writes the same address panics. Every testbench, and every run
//! of the simulated board, checks it. Unused reads (a FIFO's head while
//! nothing pops) may collide: their words are never looked at.
//!
//! The mask is the SB_RAM40_4K's own (its MASK pins, active high: a set bit
//! keeps its old value), so a masked write costs no logic. The DNF engine's
//! board copies use it to set one cell of a line word without reading the
//! word; every other user keeps nothing (`write_keep` 0).

use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

#[derive(LogicBlock, Default)]
pub struct Ram<const W: usize, const N: usize> {
    pub clock: Signal<In, Clock>,
    /// The word at `read_address` arrives in `read_data` one cycle later.
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, Bits<W>>,
    /// High when the word read this cycle will be used (checked in
    /// simulation; no hardware).
    pub read_used: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, Bits<W>>,
    /// The bits a write leaves as they are.
    pub write_keep: Signal<In, Bits<W>>,
    pub write_enable: Signal<In, Bit>,
    // The contents, for simulation (the derive skips fields named with `_`).
    _words: Box<BTreeMap<Bits<N>, Bits<W>>>,
}

impl<const W: usize, const N: usize> Ram<W, N> {
    /// The word at `address` now, for testbenches (no hardware).
    pub fn peek(&self, address: Bits<N>) -> Bits<W> {
        self._words.get(&address).copied().unwrap_or_default()
    }
}

impl<const W: usize, const N: usize> Logic for Ram<W, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (read, write) = (self.read_address.val(), self.write_address.val());
            assert!(
                !(self.read_used.val() && self.write_enable.val() && read == write),
                "block RAM: the word at address {} is read for use and written in the same cycle \
                 (the bitstream's RAM does not define what that read returns)",
                read.index()
            );
            self.read_data.next = self.peek(read);
            if self.write_enable.val() {
                let keep = self.write_keep.val();
                let word = (self.peek(write) & keep) | (self.write_data.val() & !keep);
                self._words.insert(write, word);
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* no_rw_check *)
reg [{msb}:0] mem [{last}:0];
integer i;

always @(posedge clock) begin
    read_data <= mem[read_address];
    for (i = 0; i <= {msb}; i = i + 1)
        if (write_enable && !write_keep[i])
            mem[write_address][i] <= write_data[i];
end
",
            msb = W - 1,
            last = (1usize << N) - 1,
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "ram".into(),
            clock: "clock".into(),
            inputs: vec![
                "read_address".into(),
                "write_address".into(),
                "write_data".into(),
                "write_keep".into(),
                "write_enable".into(),
            ],
            outputs: vec!["read_data".into()],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tick;

    fn ram() -> Ram<8, 4> {
        let mut uut = Ram::<8, 4>::default();
        uut.connect_all();
        uut
    }

    #[test]
    fn a_word_written_is_read_back_a_cycle_after_its_address() {
        let mut uut = ram();
        uut.write_enable.next = true;
        uut.write_address.next = 3.into();
        uut.write_data.next = 0xa5.into();
        tick(&mut uut, |u| &mut u.clock);
        uut.write_enable.next = false;
        uut.read_address.next = 3.into();
        uut.read_used.next = true;
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.read_data.val(), 0xa5);
    }

    #[test]
    #[should_panic(expected = "read for use and written in the same cycle")]
    fn a_used_read_of_the_address_being_written_is_caught() {
        let mut uut = ram();
        uut.write_enable.next = true;
        uut.write_address.next = 5.into();
        uut.read_address.next = 5.into();
        uut.read_used.next = true;
        tick(&mut uut, |u| &mut u.clock);
    }

    #[test]
    fn a_masked_write_sets_only_its_bits_and_maps_to_block_ram() {
        let mut uut = Ram::<32, 5>::default();
        uut.connect_all();
        uut.write_enable.next = true;
        uut.write_address.next = 7.into();
        uut.write_data.next = 0xffff_0000u64.into();
        uut.write_keep.next = 0.into();
        tick(&mut uut, |u| &mut u.clock);
        uut.write_data.next = 0x0000_0001u64.into();
        uut.write_keep.next = (!0x0001_0001u64 & 0xffff_ffff).into();
        tick(&mut uut, |u| &mut u.clock);
        uut.write_enable.next = false;
        uut.read_address.next = 7.into();
        tick(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.read_data.val(), 0xfffe_0001u64);
        if let Some(log) = crate::bench::yosys_check(&uut, "masked_ram") {
            assert_eq!(crate::bench::yosys_cell_count(&log, "SB_RAM40_4K"), 2, "{log}");
        }
    }

    #[test]
    fn an_unused_read_may_meet_a_write() {
        let mut uut = ram();
        uut.write_enable.next = true;
        uut.write_address.next = 5.into();
        uut.read_address.next = 5.into();
        uut.read_used.next = false;
        tick(&mut uut, |u| &mut u.clock);
    }
}
