//! The cell writer: copies the cells a visit newly fixed into the crossing
//! copy of the board, two cells a cycle.
//!
//! The board is kept twice in block RAM (see `board_memory.rs`): row-major, a
//! word a row, and column-major, a word a column. A row visit writes its own
//! row word whole; each cell (r, c) it newly fixed must also be set in
//! column word c, bit r: a masked write of one bit. The copy
//! (`board_copy.rs`) takes one such write for an even word and one for an
//! odd word each cycle, so the writer sets the lowest cell left of each
//! parity. It does those writes in the background while the filter goes on
//! with the next lines of the phase (lines of one phase never cross), and
//! the solver starts the next phase once the writer is idle.
//!
//! A visit's job (its line, the cells it newly fixed, their values) goes
//! straight in when the writer is idle with nothing waiting. Otherwise it
//! waits: the job in the job memory at its line's address (a line is visited
//! once a phase, so there is room for every job), the line in a queue (block
//! RAM too, read at its head every cycle, so the next line is a RAM output
//! and no logic stands before the job memory's address). A job committed
//! in cycle c can be taken from c + 2; taking it costs a cycle to read the
//! job and one to load it.
//!
//! A job chooses its cells in as many cycles as it has cells of the more
//! numerous parity (`model::cell_cycles`), then spends a cycle finding none
//! left, in which the next waiting job can be taken; each write comes out
//! the cycle after its cell is chosen (and reaches the RAM a cycle later,
//! in the cycle `busy` falls). `model::writer_after` counts it.

use crate::common::lowest_bit::LowestBit;
use crate::common::params::MAX_LINE;
use crate::common::ram::Ram;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum WriterState {
    Idle,
    /// The job memory is being read.
    Load,
    /// One cell a cycle.
    Cells,
}

#[derive(LogicBlock)]
pub struct CellWriter {
    pub clock: Signal<In, Clock>,
    /// Drop every job.
    pub reset: Signal<In, Bit>,
    /// A visit of line `commit_index` newly fixed `commit_changed` (never
    /// empty), with values `commit_value`.
    pub commit: Signal<In, Bit>,
    pub commit_index: Signal<In, Bits<5>>,
    pub commit_changed: Signal<In, Bits<MAX_LINE>>,
    pub commit_value: Signal<In, Bits<MAX_LINE>>,
    /// Writes for the crossing copy (`board_copy.rs`, which registers
    /// them): cell `cell_index` of an even word and of an odd word.
    pub cell_index: Signal<Out, Bits<5>>,
    pub even_write: Signal<Out, Bit>,
    pub even_address: Signal<Out, Bits<5>>,
    pub even_value: Signal<Out, Bit>,
    pub odd_write: Signal<Out, Bit>,
    pub odd_address: Signal<Out, Bits<5>>,
    pub odd_value: Signal<Out, Bit>,
    /// A job is under way or waiting. The last write is out the cycle before
    /// `busy` falls; registered, it lands before any read of the next cycle.
    pub busy: Signal<Out, Bit>,
    jobs: Ram<64, 5>,
    queue: Ram<5, 5>,
    even_lowest: LowestBit,
    odd_lowest: LowestBit,
    state: DFF<WriterState>,
    // The queue's ends (6 bits: it may hold all 32 lines).
    head: DFF<Bits<6>>,
    tail: DFF<Bits<6>>,
    waiting: DFF<Bit>,
    busy_q: DFF<Bit>,
    // The head of the queue can be taken (its RAM output is valid).
    ready: DFF<Bit>,
    loading: DFF<Bits<5>>,
    // The job under way: cells still to choose, values, its line.
    cells: DFF<Bits<MAX_LINE>>,
    values: DFF<Bits<MAX_LINE>>,
    line: DFF<Bits<5>>,
    // The cells chosen (one-hot, one of each parity), and their line and
    // values: the writes they make go out from the next stage, since the
    // lowest cell and a 32-bit AND-OR (its value) in one cycle missed
    // 100 MHz.
    even_chosen_valid: DFF<Bit>,
    odd_chosen_valid: DFF<Bit>,
    even_chosen: DFF<Bits<MAX_LINE>>,
    odd_chosen: DFF<Bits<MAX_LINE>>,
    chosen_line: DFF<Bits<5>>,
    chosen_values: DFF<Bits<MAX_LINE>>,
    even_cells: Signal<Local, Bits<MAX_LINE>>,
    odd_cells: Signal<Local, Bits<MAX_LINE>>,
    direct: Signal<Local, Bit>,
    queued: Signal<Local, Bit>,
    take_waiting: Signal<Local, Bit>,
    state_next: Signal<Local, WriterState>,
    head_next: Signal<Local, Bits<6>>,
    tail_next: Signal<Local, Bits<6>>,
    even_mask: Constant<Bits<MAX_LINE>>,
    odd_mask: Constant<Bits<MAX_LINE>>,
    /// Bit k of an index is set for the one-hot bits in `index_bit[k]`.
    index_bit: [Constant<Bits<MAX_LINE>>; 5],
}

impl Default for CellWriter {
    fn default() -> Self {
        CellWriter {
            clock: Default::default(),
            reset: Default::default(),
            commit: Default::default(),
            commit_index: Default::default(),
            commit_changed: Default::default(),
            commit_value: Default::default(),
            cell_index: Default::default(),
            even_write: Default::default(),
            even_address: Default::default(),
            even_value: Default::default(),
            odd_write: Default::default(),
            odd_address: Default::default(),
            odd_value: Default::default(),
            busy: Default::default(),
            jobs: Default::default(),
            queue: Default::default(),
            even_lowest: Default::default(),
            odd_lowest: Default::default(),
            state: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            waiting: Default::default(),
            busy_q: Default::default(),
            ready: Default::default(),
            loading: Default::default(),
            cells: Default::default(),
            values: Default::default(),
            line: Default::default(),
            even_chosen_valid: Default::default(),
            odd_chosen_valid: Default::default(),
            even_chosen: Default::default(),
            odd_chosen: Default::default(),
            chosen_line: Default::default(),
            chosen_values: Default::default(),
            even_cells: Default::default(),
            odd_cells: Default::default(),
            direct: Default::default(),
            queued: Default::default(),
            take_waiting: Default::default(),
            state_next: Default::default(),
            head_next: Default::default(),
            tail_next: Default::default(),
            even_mask: crate::constant(0x5555_5555u64),
            odd_mask: crate::constant(0xaaaa_aaaau64),
            index_bit: index_bits(),
        }
    }
}

/// The masks that turn a one-hot word into its index.
pub(crate) fn index_bits<const N: usize>() -> [Constant<Bits<N>>; 5] {
    std::array::from_fn(|k| crate::constant((0..N).filter(|i| i >> k & 1 == 1).fold(0u64, |m, i| m | 1 << i)))
}

impl Logic for CellWriter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            head,
            tail,
            waiting,
            busy_q,
            ready,
            loading,
            cells,
            values,
            line,
            even_chosen_valid,
            odd_chosen_valid,
            even_chosen,
            odd_chosen,
            chosen_line,
            chosen_values
        );
        self.jobs.clock.next = self.clock.val();
        self.queue.clock.next = self.clock.val();

        // Commits: straight in, or into the job memory and the queue.
        self.direct.next =
            self.commit.val() & (self.state.q.val() == WriterState::Idle) & !self.waiting.q.val();
        self.queued.next = self.commit.val() & !self.direct.val();
        self.jobs.write_enable.next = self.queued.val();
        self.jobs.write_keep.next = 0.into();
        self.jobs.write_address.next = self.commit_index.val();
        self.jobs.write_data.next = bit_cast::<64, MAX_LINE>(self.commit_changed.val())
            | (bit_cast::<64, MAX_LINE>(self.commit_value.val()) << 32);
        self.queue.write_enable.next = self.queued.val();
        self.queue.write_keep.next = 0.into();
        self.queue.write_address.next = self.tail.q.val().get_bits::<5>(0);
        self.queue.write_data.next = self.commit_index.val();
        // The queue's head is read every cycle; its output is the job
        // memory's address.
        self.queue.read_address.next = self.head.q.val().get_bits::<5>(0);
        self.queue.read_used.next = self.head.q.val() != self.tail.q.val();
        self.jobs.read_address.next = self.queue.read_data.val();
        self.jobs.read_used.next = false;

        // A waiting job is taken when idle, or in the cycle a job finds no
        // cell left.
        self.take_waiting.next = self.ready.q.val()
            & ((self.state.q.val() == WriterState::Idle)
                | ((self.state.q.val() == WriterState::Cells) & (self.cells.q.val() == 0)));
        self.head_next.next = self.head.q.val();
        self.tail_next.next = self.tail.q.val();
        if self.take_waiting.val() {
            self.head_next.next = self.head.q.val() + 1;
        }
        if self.queued.val() {
            self.tail_next.next = self.tail.q.val() + 1;
        }
        self.head.d.next = self.head_next.val();
        self.tail.d.next = self.tail_next.val();
        self.waiting.d.next = self.head_next.val() != self.tail_next.val();
        // The head's RAM output is valid a cycle after the head and tail say
        // so (a job committed in cycle c: from c + 2).
        self.ready.d.next = (self.head.q.val() != self.tail.q.val()) & !self.take_waiting.val();

        // The lowest cell left of each parity, chosen; their writes, a
        // stage later.
        self.even_cells.next = self.cells.q.val() & self.even_mask.val();
        self.odd_cells.next = self.cells.q.val() & self.odd_mask.val();
        self.even_lowest.word.next = self.even_cells.val();
        self.odd_lowest.word.next = self.odd_cells.val();
        self.even_chosen_valid.d.next = false;
        self.odd_chosen_valid.d.next = false;
        self.chosen_line.d.next = self.line.q.val();
        self.chosen_values.d.next = self.values.q.val();
        self.cell_index.next = self.chosen_line.q.val();
        self.even_write.next = self.even_chosen_valid.q.val();
        self.odd_write.next = self.odd_chosen_valid.q.val();
        self.even_address.next = 0.into();
        self.odd_address.next = 0.into();
        for k in 0..5 {
            self.even_address.next = self
                .even_address
                .val()
                .replace_bit(k, (self.even_chosen.q.val() & self.index_bit[k].val()) != 0);
            self.odd_address.next = self
                .odd_address
                .val()
                .replace_bit(k, (self.odd_chosen.q.val() & self.index_bit[k].val()) != 0);
        }
        self.even_value.next = (self.chosen_values.q.val() & self.even_chosen.q.val()) != 0;
        self.odd_value.next = (self.chosen_values.q.val() & self.odd_chosen.q.val()) != 0;

        self.state_next.next = self.state.q.val();
        match self.state.q.val() {
            WriterState::Idle => {}
            WriterState::Load => {
                self.cells.d.next = self.jobs.read_data.val().get_bits::<MAX_LINE>(0);
                self.values.d.next = self.jobs.read_data.val().get_bits::<MAX_LINE>(32);
                self.line.d.next = self.loading.q.val();
                self.state_next.next = WriterState::Cells;
            }
            WriterState::Cells => {
                // Done when no cell is left: deciding on the last cell itself
                // put the lowest cell and a compare before the state register.
                if self.cells.q.val() == 0 {
                    self.state_next.next = WriterState::Idle;
                } else {
                    self.even_chosen_valid.d.next = self.even_cells.val() != 0;
                    self.odd_chosen_valid.d.next = self.odd_cells.val() != 0;
                    self.even_chosen.d.next = self.even_lowest.lowest.val();
                    self.odd_chosen.d.next = self.odd_lowest.lowest.val();
                    self.cells.d.next =
                        self.cells.q.val() & !(self.even_lowest.lowest.val() | self.odd_lowest.lowest.val());
                }
            }
            _ => {
                self.state_next.next = WriterState::Idle;
            }
        }
        if self.take_waiting.val() {
            self.jobs.read_used.next = true;
            self.loading.d.next = self.queue.read_data.val();
            self.state_next.next = WriterState::Load;
        }
        if self.direct.val() {
            self.cells.d.next = self.commit_changed.val();
            self.values.d.next = self.commit_value.val();
            self.line.d.next = self.commit_index.val();
            self.state_next.next = WriterState::Cells;
        }

        if self.reset.val() {
            self.state_next.next = WriterState::Idle;
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.waiting.d.next = false;
            self.ready.d.next = false;
            self.even_chosen_valid.d.next = false;
            self.odd_chosen_valid.d.next = false;
        }
        // `busy` is a register, from the next state: it feeds the solver's
        // end-of-phase decision, a wide one.
        self.state.d.next = self.state_next.val();
        self.busy_q.d.next = (self.state_next.val() != WriterState::Idle)
            | ((self.head_next.val() != self.tail_next.val()) & !self.reset.val());
        self.busy.next = self.busy_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, xorshift, yosys_check};
    use crate::dnf::model::{cell_cycles, writer_after};

    /// Commits jobs at the given cycles (ascending lines), applies the
    /// writes to a plain memory, and checks the memory and the cycle the
    /// writer falls idle against `model::writer_after`.
    fn check(jobs: &[(u64, u64, u64, u64)]) {
        let mut uut = CellWriter::default();
        uut.connect_all();
        uut.reset.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut memory = [0u64; 32];
        let mut expected = [0u64; 32];
        let mut done = 0;
        for &(cycle, line, changed, value) in jobs {
            done = writer_after(done, cycle, cell_cycles(changed));
            for c in (0..32).filter(|c| changed >> c & 1 == 1) {
                expected[c] |= 1 << line | (value >> c & 1) << (line + 32);
            }
        }
        let mut idle_at = None;
        for cycle in 0..2_000u64 {
            let job = jobs.iter().find(|j| j.0 == cycle);
            uut.commit.next = job.is_some();
            if let Some(&(_, line, changed, value)) = job {
                uut.commit_index.next = line.into();
                uut.commit_changed.next = changed.into();
                uut.commit_value.next = value.into();
            }
            let line = uut.cell_index.val().index();
            for (write, address, value, parity) in [
                (
                    uut.even_write.val(),
                    uut.even_address.val().index(),
                    uut.even_value.val(),
                    0,
                ),
                (
                    uut.odd_write.val(),
                    uut.odd_address.val().index(),
                    uut.odd_value.val(),
                    1,
                ),
            ] {
                if write {
                    assert_eq!(address % 2, parity, "a word of the wrong parity");
                    memory[address] |= 1 << line;
                    memory[address] = memory[address] & !(1 << (line + 32)) | (value as u64) << (line + 32);
                    assert!(idle_at.is_none(), "a write after the writer fell idle");
                }
            }
            if !uut.busy.val() && idle_at.is_none() && cycle > jobs.last().unwrap().0 {
                idle_at = Some(cycle);
            }
            tick(&mut uut, |u| &mut u.clock);
        }
        assert_eq!(memory, expected, "the crossing words");
        assert_eq!(idle_at, Some(done + 1), "the cycle the writer is free");
    }

    #[test]
    fn writes_every_cell_and_frees_when_the_model_says() {
        // Direct jobs, a job committed while another runs, one committed in
        // the last cycle of another, and a pile-up.
        check(&[(3, 0, 0b1011, 0b0001)]);
        check(&[(3, 0, 0b111, 0b101), (4, 1, 0b110, 0b010)]);
        check(&[(3, 0, 0b11, 0b01), (5, 2, 0b1, 0b1), (6, 4, 0b1, 0)]);
        let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..40 {
            let mut jobs = vec![];
            let mut cycle = 2;
            for line in 0..32 {
                if rand() % 3 == 0 {
                    continue;
                }
                cycle += 1 + rand() % 6;
                let changed = rand() & rand() & 0xffff_ffff;
                if changed != 0 {
                    jobs.push((cycle, line, changed, rand() & 0xffff_ffff));
                }
            }
            if !jobs.is_empty() {
                check(&jobs);
            }
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = CellWriter::default();
        uut.connect_all();
        yosys_check(&uut, "cell_writer");
    }
}
