//! The clue engine's line solver: given a line's length, its clue and its
//! known cells, it finds every cell that all legal fills agree on, or that
//! the line has no fill. It is complete: it fixes what any line solver could.
//!
//! The algorithm and its proof sketch are in `line_logic.rs`, which computes
//! exactly what this block computes. In short: a forward pass builds, block by
//! block, the set of positions where the next block may start (P_j); a backward
//! pass builds the starts from which the rest of the clue fits (Q_j) and, as it
//! goes, gathers the cells each legal block start covers (can be filled) and
//! the cells each gap covers (can be empty). Sets are 66-bit vectors; each set
//! is kept shifted by its "frame", the least start its block can have, so one
//! step of either pass is an AND and one addition on the carry chain, with no
//! shifter in the loop.
//!
//! # Pipeline
//!
//! One entry per cycle enters the pipeline: the forward pass's k + 1 steps
//! (a step for the empty prefix, then blocks 1..k), then the backward pass's
//! k + 1 steps (blocks k..1, then the empty prefix).
//!
//! | stage | what |
//! |---|---|
//! | issue | ask the clue memory for the block's length |
//! | 1 | length arrives; the block's frames o_{j−1}, o_j from a running sum |
//! | 2 | windows of 2^h fillable cells (a doubling ladder); empty cells >> b |
//! | 3 | windows of b cells whose next cell can be empty: the starts |
//! | 4 | the masks in the block's frames: A = starts >> o_{j−1}, B = empty >> o_j |
//! | 5 | the loop: P = spread(P ∧ A) through B, or Q = A ∧ spread-left(Q) |
//! | 6–9 | backward only: the covered cells, shifted home, ORed into the result |
//!
//! A line with k blocks takes 2k + [`LATENCY`] cycles from `start` to `done`.

use crate::constant;
use crate::line_logic::WIDTH;
use rust_hdl::prelude::*;

/// Cycles of a line solve besides two per block.
pub const LATENCY: u64 = 12;

/// Bits of a frame offset: up to 32 blocks of up to 64 cells, plus gaps.
const OFFSET_BITS: usize = 12;

/// Most blocks in a clue.
pub const MAX_BLOCKS: usize = 32;

type Set = Bits<WIDTH>;

// The bit reversals below are written out for 66 bits (hdl_gen needs literals).
const _: () = assert!(WIDTH == 66);

#[derive(LogicBlock)]
pub struct LineSolver {
    pub clock: Signal<In, Clock>,
    /// Pulse: solve the line given by `length`, `blocks`, `known`, `value`
    /// (sampled in this cycle).
    pub start: Signal<In, Bit>,
    /// Cells in the line, 1..=64.
    pub length: Signal<In, Bits<7>>,
    /// Blocks in the clue, 0..=32.
    pub blocks: Signal<In, Bits<6>>,
    pub known: Signal<In, Bits<64>>,
    pub value: Signal<In, Bits<64>>,
    /// The clue memory: the length of block `clue_address` (0-based) is
    /// expected on `clue_length` one cycle later, as a block RAM gives it.
    pub clue_address: Signal<Out, Bits<5>>,
    pub clue_length: Signal<In, Bits<7>>,
    pub busy: Signal<Out, Bit>,
    /// Pulse: `can_fill` and `can_empty` hold the answer (and keep it until
    /// the next `start`). Both are zero when the line has no fill.
    pub done: Signal<Out, Bit>,
    pub can_fill: Signal<Out, Bits<64>>,
    pub can_empty: Signal<Out, Bits<64>>,

    // The line, latched at `start`.
    fill: DFF<Set>,
    empty: DFF<Set>,
    line_end: DFF<Bits<OFFSET_BITS>>,
    line_mask: DFF<Bits<64>>,
    last_block: DFF<Bits<6>>,
    // Issue.
    issuing: DFF<Bit>,
    backward: DFF<Bit>,
    index: DFF<Bits<6>>,
    // Stage 1.
    s1_valid: DFF<Bit>,
    s1_backward: DFF<Bit>,
    s1_index: DFF<Bits<6>>,
    offset: DFF<Bits<OFFSET_BITS>>,
    // Stage 2.
    s2_valid: DFF<Bit>,
    s2_backward: DFF<Bit>,
    s2_index: DFF<Bits<6>>,
    s2_length: DFF<Bits<7>>,
    s2_before: DFF<Bits<7>>,
    s2_after: DFF<Bits<7>>,
    s2_end: DFF<Bits<7>>,
    // Stage 3.
    s3_valid: DFF<Bit>,
    s3_backward: DFF<Bit>,
    s3_index: DFF<Bits<6>>,
    s3_length: DFF<Bits<7>>,
    s3_before: DFF<Bits<7>>,
    s3_after: DFF<Bits<7>>,
    s3_windows: DFF<Set>,
    s3_rest: DFF<Bits<7>>,
    s3_empty_after: DFF<Set>,
    s3_end: DFF<Set>,
    // Stage 4.
    s4_valid: DFF<Bit>,
    s4_backward: DFF<Bit>,
    s4_index: DFF<Bits<6>>,
    s4_length: DFF<Bits<7>>,
    s4_before: DFF<Bits<7>>,
    s4_after: DFF<Bits<7>>,
    s4_starts: DFF<Set>,
    s4_rest: DFF<Bits<7>>,
    s4_end: DFF<Set>,
    // Stage 5: the masks and the two loops.
    s5_valid: DFF<Bit>,
    s5_backward: DFF<Bit>,
    s5_index: DFF<Bits<6>>,
    s5_length: DFF<Bits<7>>,
    s5_before: DFF<Bits<7>>,
    s5_after: DFF<Bits<7>>,
    s5_a: DFF<Set>,
    s5_b: DFF<Set>,
    s5_end: DFF<Set>,
    s5_rest: DFF<Bits<7>>,
    forward_set: DFF<Set>,
    backward_set: DFF<Set>,
    // P_j and P_{j−1} for the backward step; the last P written, for block k.
    p_high: DFF<Set>,
    p_last: DFF<Set>,
    p_store: RAM<Set, 5>,
    // Stages 6–9: the cells.
    s6_valid: DFF<Bit>,
    s6_last: DFF<Bit>,
    s6_length: DFF<Bits<7>>,
    s6_before: DFF<Bits<7>>,
    s6_after: DFF<Bits<7>>,
    s6_starts: DFF<Set>,
    s6_gaps: DFF<Set>,
    s6_rest: DFF<Bits<7>>,
    s7_valid: DFF<Bit>,
    s7_last: DFF<Bit>,
    s7_before: DFF<Bits<7>>,
    s7_cover: DFF<Set>,
    s7_rest: DFF<Bits<7>>,
    s7_empty: DFF<Set>,
    s8_valid: DFF<Bit>,
    s8_last: DFF<Bit>,
    s8_before: DFF<Bits<7>>,
    s8_cover: DFF<Set>,
    s8_empty: DFF<Set>,
    s9_valid: DFF<Bit>,
    s9_last: DFF<Bit>,
    s9_fill: DFF<Set>,
    s9_empty: DFF<Set>,
    fill_acc: DFF<Set>,
    empty_acc: DFF<Set>,
    done_q: DFF<Bit>,
    // Combinational.
    ladder: [Signal<Local, Set>; 7],
    spread: [Signal<Local, Set>; 7],
    power: Signal<Local, Bits<7>>,
    p_low: Signal<Local, Set>,
    p_now: Signal<Local, Set>,
    q_from: Signal<Local, Set>,
    reversed_from: Signal<Local, Set>,
    reversed_through: Signal<Local, Set>,
    reversed_reach: Signal<Local, Set>,
    reach: Signal<Local, Set>,
    forward_in: Signal<Local, Set>,
    // Offsets saturated to 7 bits for the shifters and the end position.
    next_offset: Signal<Local, Bits<OFFSET_BITS>>,
    offset_7: Signal<Local, Bits<7>>,
    next_offset_7: Signal<Local, Bits<7>>,
    end_7: Signal<Local, Bits<7>>,
    cells: Signal<Local, Set>,
    end_onehot: Signal<Local, Set>,
    one: Constant<Set>,
    ones: Constant<Set>,
}

impl Default for LineSolver {
    fn default() -> Self {
        LineSolver {
            clock: Default::default(),
            start: Default::default(),
            length: Default::default(),
            blocks: Default::default(),
            known: Default::default(),
            value: Default::default(),
            clue_address: Default::default(),
            clue_length: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            can_fill: Default::default(),
            can_empty: Default::default(),
            fill: Default::default(),
            empty: Default::default(),
            line_end: Default::default(),
            last_block: Default::default(),
            issuing: Default::default(),
            backward: Default::default(),
            index: Default::default(),
            s1_valid: Default::default(),
            s1_backward: Default::default(),
            s1_index: Default::default(),
            offset: Default::default(),
            s2_valid: Default::default(),
            s2_backward: Default::default(),
            s2_index: Default::default(),
            s2_length: Default::default(),
            s2_before: Default::default(),
            s2_after: Default::default(),
            s2_end: Default::default(),
            s3_valid: Default::default(),
            s3_backward: Default::default(),
            s3_index: Default::default(),
            s3_length: Default::default(),
            s3_before: Default::default(),
            s3_after: Default::default(),
            s3_windows: Default::default(),
            s3_rest: Default::default(),
            s3_empty_after: Default::default(),
            s3_end: Default::default(),
            s4_valid: Default::default(),
            s4_backward: Default::default(),
            s4_index: Default::default(),
            s4_length: Default::default(),
            s4_before: Default::default(),
            s4_after: Default::default(),
            s4_starts: Default::default(),
            s4_rest: Default::default(),
            s4_end: Default::default(),
            s5_valid: Default::default(),
            s5_backward: Default::default(),
            s5_index: Default::default(),
            s5_length: Default::default(),
            s5_before: Default::default(),
            s5_after: Default::default(),
            s5_a: Default::default(),
            s5_b: Default::default(),
            s5_end: Default::default(),
            s5_rest: Default::default(),
            forward_set: Default::default(),
            backward_set: Default::default(),
            p_high: Default::default(),
            p_last: Default::default(),
            p_store: Default::default(),
            s6_valid: Default::default(),
            s6_last: Default::default(),
            s6_length: Default::default(),
            s6_before: Default::default(),
            s6_after: Default::default(),
            s6_starts: Default::default(),
            s6_gaps: Default::default(),
            s6_rest: Default::default(),
            s7_valid: Default::default(),
            s7_last: Default::default(),
            s7_before: Default::default(),
            s7_cover: Default::default(),
            s7_rest: Default::default(),
            s7_empty: Default::default(),
            s8_valid: Default::default(),
            s8_last: Default::default(),
            s8_before: Default::default(),
            s8_cover: Default::default(),
            s8_empty: Default::default(),
            s9_valid: Default::default(),
            s9_last: Default::default(),
            s9_fill: Default::default(),
            s9_empty: Default::default(),
            fill_acc: Default::default(),
            empty_acc: Default::default(),
            done_q: Default::default(),
            ladder: Default::default(),
            spread: Default::default(),
            power: Default::default(),
            p_low: Default::default(),
            p_now: Default::default(),
            q_from: Default::default(),
            reversed_from: Default::default(),
            reversed_through: Default::default(),
            reversed_reach: Default::default(),
            reach: Default::default(),
            forward_in: Default::default(),
            line_mask: Default::default(),
            next_offset: Default::default(),
            offset_7: Default::default(),
            next_offset_7: Default::default(),
            end_7: Default::default(),
            cells: Default::default(),
            end_onehot: Default::default(),
            one: constant(1u64),
            ones: Constant::new(Bits::<WIDTH>::mask()),
        }
    }
}

impl Logic for LineSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, fill, empty, line_end, line_mask, last_block, issuing, backward, index, s1_valid,
            s1_backward, s1_index, offset, s2_valid, s2_backward, s2_index, s2_length, s2_before,
            s2_after, s2_end, s3_valid, s3_backward, s3_index, s3_length, s3_before, s3_after,
            s3_windows, s3_rest, s3_empty_after, s3_end, s4_valid, s4_backward, s4_index,
            s4_length, s4_before, s4_after, s4_starts, s4_rest, s4_end, s5_valid, s5_backward, s5_index,
            s5_length, s5_before, s5_after, s5_a, s5_b, s5_end, s5_rest, forward_set, backward_set,
            p_high, p_last, s6_valid, s6_last, s6_length, s6_before, s6_after, s6_starts,
            s6_gaps, s6_rest, s7_valid, s7_last, s7_before, s7_cover, s7_rest, s7_empty, s8_valid,
            s8_last, s8_before, s8_cover, s8_empty, s9_valid, s9_last, s9_fill, s9_empty,
            fill_acc, empty_acc, done_q
        );
        self.p_store.read_clock.next = self.clock.val();
        self.p_store.write_clock.next = self.clock.val();

        // Issue: the forward pass's entries 0..=k, then the backward pass's k..=0
        // (entry 0 is the empty prefix and reads no clue).
        self.clue_address.next = bit_cast::<5, 6>(self.index.q.val() - 1);
        if self.issuing.q.val() {
            if !self.backward.q.val() {
                if self.index.q.val() == self.last_block.q.val() {
                    self.backward.d.next = true;
                } else {
                    self.index.d.next = self.index.q.val() + 1;
                }
            } else if self.index.q.val() == 0 {
                self.issuing.d.next = false;
            } else {
                self.index.d.next = self.index.q.val() - 1;
            }
        }

        // Stage 1: the block's length arrives; its frames from a running sum
        // (o_j = o_{j−1} + b_j + 1 forwards, the reverse backwards).
        self.s1_valid.d.next = self.issuing.q.val();
        self.s1_backward.d.next = self.backward.q.val();
        self.s1_index.d.next = self.index.q.val();
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_backward.d.next = self.s1_backward.q.val();
        self.s2_index.d.next = self.s1_index.q.val();
        self.s2_length.d.next = self.clue_length.val();
        self.next_offset.next =
            self.offset.q.val() + bit_cast::<OFFSET_BITS, 7>(self.clue_length.val()) + 1;
        if self.s1_backward.q.val() {
            self.next_offset.next =
                self.offset.q.val() - bit_cast::<OFFSET_BITS, 7>(self.clue_length.val()) - 1;
        }
        self.offset_7.next = bit_cast::<7, OFFSET_BITS>(self.offset.q.val());
        if self.offset.q.val() >= 128 {
            self.offset_7.next = 127.into();
        }
        self.next_offset_7.next = bit_cast::<7, OFFSET_BITS>(self.next_offset.val());
        if self.next_offset.val() >= 128 {
            self.next_offset_7.next = 127.into();
        }
        // L + 1 − o_k: where Q_{k+1} = {L + 1} sits in frame o_k (none if o_k > L + 1).
        self.end_7.next = bit_cast::<7, OFFSET_BITS>(self.line_end.q.val() - self.offset.q.val());
        if self.offset.q.val() > self.line_end.q.val() {
            self.end_7.next = 127.into();
        }
        self.s2_end.d.next = self.end_7.val();
        if self.s1_valid.q.val() {
            self.offset.d.next = self.next_offset.val();
            if !self.s1_backward.q.val() {
                self.s2_before.d.next = self.offset_7.val();
                self.s2_after.d.next = self.next_offset_7.val();
            } else {
                self.s2_after.d.next = self.offset_7.val();
                self.s2_before.d.next = self.next_offset_7.val();
            }
            if self.s1_index.q.val() == 0 {
                self.s2_before.d.next = 0.into();
                self.s2_after.d.next = 0.into();
                self.offset.d.next = 0.into();
            }
        }

        // Stage 2: windows of 2^h fillable cells, 2^h ≤ b < 2^(h+1), by doubling.
        self.ladder[0].next = self.fill.q.val();
        self.ladder[1].next = self.ladder[0].val();
        if self.s2_length.q.val() >= 2 {
            self.ladder[1].next = self.ladder[0].val() & (self.ladder[0].val() >> 1);
        }
        self.ladder[2].next = self.ladder[1].val();
        if self.s2_length.q.val() >= 4 {
            self.ladder[2].next = self.ladder[1].val() & (self.ladder[1].val() >> 2);
        }
        self.ladder[3].next = self.ladder[2].val();
        if self.s2_length.q.val() >= 8 {
            self.ladder[3].next = self.ladder[2].val() & (self.ladder[2].val() >> 4);
        }
        self.ladder[4].next = self.ladder[3].val();
        if self.s2_length.q.val() >= 16 {
            self.ladder[4].next = self.ladder[3].val() & (self.ladder[3].val() >> 8);
        }
        self.ladder[5].next = self.ladder[4].val();
        if self.s2_length.q.val() >= 32 {
            self.ladder[5].next = self.ladder[4].val() & (self.ladder[4].val() >> 16);
        }
        self.ladder[6].next = self.ladder[5].val();
        if self.s2_length.q.val() >= 64 {
            self.ladder[6].next = self.ladder[5].val() & (self.ladder[5].val() >> 32);
        }
        self.power.next = 1.into();
        if self.s2_length.q.val() >= 2 {
            self.power.next = 2.into();
        }
        if self.s2_length.q.val() >= 4 {
            self.power.next = 4.into();
        }
        if self.s2_length.q.val() >= 8 {
            self.power.next = 8.into();
        }
        if self.s2_length.q.val() >= 16 {
            self.power.next = 16.into();
        }
        if self.s2_length.q.val() >= 32 {
            self.power.next = 32.into();
        }
        if self.s2_length.q.val() >= 64 {
            self.power.next = 64.into();
        }
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3_backward.d.next = self.s2_backward.q.val();
        self.s3_index.d.next = self.s2_index.q.val();
        self.s3_length.d.next = self.s2_length.q.val();
        self.s3_before.d.next = self.s2_before.q.val();
        self.s3_after.d.next = self.s2_after.q.val();
        self.s3_windows.d.next = self.ladder[6].val();
        self.s3_rest.d.next = self.s2_length.q.val() - self.power.val();
        self.s3_empty_after.d.next = self.empty.q.val() >> self.s2_length.q.val();
        self.end_onehot.next = 0.into();
        for i in 0..66 {
            self.end_onehot.next = self.end_onehot.val().replace_bit(i, self.s2_end.q.val().index() == i);
        }
        self.s3_end.d.next = self.end_onehot.val();

        // Stage 3: two windows of 2^h, `rest` apart, make one of b; the cell
        // after the block must be able to be empty.
        self.s4_valid.d.next = self.s3_valid.q.val();
        self.s4_backward.d.next = self.s3_backward.q.val();
        self.s4_index.d.next = self.s3_index.q.val();
        self.s4_length.d.next = self.s3_length.q.val();
        self.s4_before.d.next = self.s3_before.q.val();
        self.s4_after.d.next = self.s3_after.q.val();
        self.s4_end.d.next = self.s3_end.q.val();
        self.s4_rest.d.next = self.s3_rest.q.val();
        self.s4_starts.d.next = self.s3_windows.q.val()
            & (self.s3_windows.q.val() >> self.s3_rest.q.val())
            & self.s3_empty_after.q.val();

        // Stage 4: the masks in the block's frames.
        self.s5_valid.d.next = self.s4_valid.q.val();
        self.s5_backward.d.next = self.s4_backward.q.val();
        self.s5_index.d.next = self.s4_index.q.val();
        self.s5_length.d.next = self.s4_length.q.val();
        self.s5_before.d.next = self.s4_before.q.val();
        self.s5_after.d.next = self.s4_after.q.val();
        self.s5_end.d.next = self.s4_end.q.val();
        self.s5_rest.d.next = self.s4_rest.q.val();
        self.s5_a.d.next = self.s4_starts.q.val() >> self.s4_before.q.val();
        if self.s4_index.q.val() == 0 {
            self.s5_a.d.next = self.ones.val();
        }
        self.s5_b.d.next = self.empty.q.val() >> self.s4_after.q.val();

        // Stage 5, forward: P_j = spread(P_{j−1} ∧ A_j) through B_j, the
        // addition spreading each position through the run of ones above it.
        self.forward_in.next = self.forward_set.q.val() & self.s5_a.q.val();
        self.p_store.write_address.next = bit_cast::<5, 6>(self.s5_index.q.val() - 1);
        self.p_store.write_data.next = self.forward_set.q.val();
        self.p_store.write_enable.next = false;
        self.p_store.read_address.next = bit_cast::<5, 6>(self.s5_index.q.val());
        if self.s5_valid.q.val() & !self.s5_backward.q.val() {
            self.forward_set.d.next = ((self.s5_b.q.val() + (self.forward_in.val() & self.s5_b.q.val()))
                ^ self.s5_b.q.val())
                | self.forward_in.val();
            if self.s5_index.q.val() != 0 {
                self.p_store.write_enable.next = true;
                self.p_last.d.next = self.forward_set.q.val();
            }
        }
        // Stage 5, backward: Q_j = A_j ∧ (Q_{j+1} spread leftwards through B_j),
        // the same addition on the reversed bit order. The first backward
        // entry starts from {L+1} and takes P_k, P_{k−1} from registers; later
        // ones read P_{j−1} from the store (asked for a cycle ahead).
        self.q_from.next = self.backward_set.q.val();
        self.p_low.next = self.p_store.read_data.val();
        self.p_now.next = self.p_high.q.val();
        if self.s5_index.q.val() == self.last_block.q.val() {
            self.q_from.next = self.s5_end.q.val();
            self.p_low.next = self.p_last.q.val();
            self.p_now.next = self.forward_set.q.val();
        }
        self.reversed_from.next = 0.into();
        self.reversed_through.next = 0.into();
        for i in 0..66 {
            self.reversed_from.next = self
                .reversed_from
                .val()
                .replace_bit(i, self.q_from.val().get_bit(65 - i));
            self.reversed_through.next = self
                .reversed_through
                .val()
                .replace_bit(i, self.s5_b.q.val().get_bit(65 - i));
        }
        self.reversed_through.next = self.reversed_through.val() >> 1;
        self.reversed_reach.next = ((self.reversed_through.val()
            + (self.reversed_from.val() & self.reversed_through.val()))
            ^ self.reversed_through.val())
            | self.reversed_from.val();
        self.reach.next = 0.into();
        for i in 0..66 {
            self.reach.next = self
                .reach
                .val()
                .replace_bit(i, self.reversed_reach.val().get_bit(65 - i));
        }
        self.s6_valid.d.next = false;
        if self.s5_valid.q.val() & self.s5_backward.q.val() {
            self.backward_set.d.next = self.s5_a.q.val() & self.reach.val();
            self.p_high.d.next = self.p_low.val();
            self.p_store.read_address.next = bit_cast::<5, 6>(self.s5_index.q.val() - 2);
            self.s6_valid.d.next = true;
        }
        self.s6_last.d.next = self.s5_index.q.val() == 0;
        self.s6_length.d.next = self.s5_length.q.val();
        self.s6_before.d.next = self.s5_before.q.val();
        self.s6_after.d.next = self.s5_after.q.val();
        self.s6_rest.d.next = self.s5_rest.q.val();
        self.s6_gaps.d.next = self.p_now.val() & self.reach.val();
        self.s6_starts.d.next = self.p_low.val() & self.s5_a.q.val() & self.reach.val();
        if self.s5_index.q.val() == 0 {
            self.s6_starts.d.next = 0.into();
        }

        // Stage 6: cover b cells from each legal start (the ladder again, as
        // ORs); the gap cells shifted home (a gap term is P_j ∧ reach in frame
        // o_j, at positions p + 1).
        self.spread[0].next = self.s6_starts.q.val();
        self.spread[1].next = self.spread[0].val();
        if self.s6_length.q.val() >= 2 {
            self.spread[1].next = self.spread[0].val() | (self.spread[0].val() << 1);
        }
        self.spread[2].next = self.spread[1].val();
        if self.s6_length.q.val() >= 4 {
            self.spread[2].next = self.spread[1].val() | (self.spread[1].val() << 2);
        }
        self.spread[3].next = self.spread[2].val();
        if self.s6_length.q.val() >= 8 {
            self.spread[3].next = self.spread[2].val() | (self.spread[2].val() << 4);
        }
        self.spread[4].next = self.spread[3].val();
        if self.s6_length.q.val() >= 16 {
            self.spread[4].next = self.spread[3].val() | (self.spread[3].val() << 8);
        }
        self.spread[5].next = self.spread[4].val();
        if self.s6_length.q.val() >= 32 {
            self.spread[5].next = self.spread[4].val() | (self.spread[4].val() << 16);
        }
        self.spread[6].next = self.spread[5].val();
        if self.s6_length.q.val() >= 64 {
            self.spread[6].next = self.spread[5].val() | (self.spread[5].val() << 32);
        }
        self.s7_valid.d.next = self.s6_valid.q.val();
        self.s7_last.d.next = self.s6_last.q.val();
        self.s7_before.d.next = self.s6_before.q.val();
        self.s7_cover.d.next = self.spread[6].val();
        self.s7_rest.d.next = self.s6_rest.q.val();
        self.s7_empty.d.next = (self.s6_gaps.q.val() << self.s6_after.q.val()) >> 1;

        // Stage 7: two covers of 2^h, `rest` apart, make one of b.
        self.s8_valid.d.next = self.s7_valid.q.val();
        self.s8_last.d.next = self.s7_last.q.val();
        self.s8_before.d.next = self.s7_before.q.val();
        self.s8_cover.d.next = self.s7_cover.q.val() | (self.s7_cover.q.val() << self.s7_rest.q.val());
        self.s8_empty.d.next = self.s7_empty.q.val();

        // Stage 8: the covered cells shifted home.
        self.s9_valid.d.next = self.s8_valid.q.val();
        self.s9_last.d.next = self.s8_last.q.val();
        self.s9_fill.d.next = self.s8_cover.q.val() << self.s8_before.q.val();
        self.s9_empty.d.next = self.s8_empty.q.val();

        // Stage 9: gather.
        self.done_q.d.next = false;
        if self.s9_valid.q.val() {
            self.fill_acc.d.next = self.fill_acc.q.val() | self.s9_fill.q.val();
            self.empty_acc.d.next = self.empty_acc.q.val() | self.s9_empty.q.val();
            self.done_q.d.next = self.s9_last.q.val();
        }

        // Outputs: the line's cells only (the virtual empty cell L is dropped).
        self.can_fill.next = bit_cast::<64, WIDTH>(self.fill_acc.q.val()) & self.line_mask.q.val();
        self.can_empty.next = bit_cast::<64, WIDTH>(self.empty_acc.q.val()) & self.line_mask.q.val();
        self.done.next = self.done_q.q.val();
        self.busy.next = self.issuing.q.val()
            | self.s1_valid.q.val()
            | self.s2_valid.q.val()
            | self.s3_valid.q.val()
            | self.s4_valid.q.val()
            | self.s5_valid.q.val()
            | self.s6_valid.q.val()
            | self.s7_valid.q.val()
            | self.s8_valid.q.val()
            | self.s9_valid.q.val();

        // Start: latch the line. A cell can be filled unless known empty, and
        // be empty unless known filled; cell L is a virtual empty cell.
        self.cells.next = 0.into();
        for i in 0..66 {
            self.cells.next = self.cells.val().replace_bit(i, self.length.val().index() > i);
        }
        if self.start.val() {
            self.fill.d.next = bit_cast::<WIDTH, 64>(!(self.known.val() & !self.value.val())) & self.cells.val();
            self.empty.d.next = (bit_cast::<WIDTH, 64>(!(self.known.val() & self.value.val())) & self.cells.val())
                | (self.cells.val() + 1);
            self.line_mask.d.next = bit_cast::<64, WIDTH>(self.cells.val());
            self.line_end.d.next = bit_cast::<OFFSET_BITS, 7>(self.length.val()) + 1;
            self.last_block.d.next = self.blocks.val();
            self.issuing.d.next = true;
            self.backward.d.next = false;
            self.index.d.next = 0.into();
            self.forward_set.d.next = self.one.val();
            self.fill_acc.d.next = 0.into();
            self.empty_acc.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_cell_count, yosys_check};
    use crate::line_logic::solve_line;

    /// Solves one line on the block, serving its clue reads a cycle late as a
    /// block RAM would. Returns (can_fill, can_empty, cycles from start to done).
    fn run(uut: &mut LineSolver, length: usize, clue: &[usize], known: u64, value: u64) -> (u64, u64, u64) {
        uut.start.next = true;
        uut.length.next = (length as u64).into();
        uut.blocks.next = (clue.len() as u64).into();
        uut.known.next = known.into();
        uut.value.next = value.into();
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        let mut cycles = 1;
        let mut address = uut.clue_address.val().index();
        while !uut.done.val() {
            // The length asked for in the last cycle arrives in this one.
            uut.clue_length.next = (clue.get(address).copied().unwrap_or(0) as u64).into();
            address = uut.clue_address.val().index();
            tick(uut, |u| &mut u.clock);
            cycles += 1;
            assert!(cycles < 1000, "no answer");
        }
        (uut.can_fill.val().to_u64(), uut.can_empty.val().to_u64(), cycles)
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn check(uut: &mut LineSolver, length: usize, clue: &[usize], known: u64, value: u64) {
        let expected = solve_line(length, clue, known, value);
        let (fill, empty, cycles) = run(uut, length, clue, known, value);
        let what = format!("length {length} clue {clue:?} known {known:#x} value {value:#x}");
        assert_eq!((fill, empty), (expected.can_fill, expected.can_empty), "{what}");
        assert_eq!(expected.feasible, fill | empty != 0, "{what}");
        assert_eq!(cycles, 2 * clue.len() as u64 + LATENCY, "cycles, {what}");
    }

    #[test]
    fn matches_the_reference_on_edge_lines() {
        let mut uut = LineSolver::default();
        uut.connect_all();
        check(&mut uut, 1, &[], 0, 0);
        check(&mut uut, 1, &[1], 0, 0);
        check(&mut uut, 1, &[1], 1, 0); // no fill
        check(&mut uut, 64, &[64], 0, 0);
        check(&mut uut, 64, &[], 0, 0);
        check(&mut uut, 64, &[1; 32], 0, 0);
        check(&mut uut, 63, &[1; 32], 0, 0); // too long a clue
        check(&mut uut, 64, &[40, 40], 0, 0);
        check(&mut uut, 10, &[3, 1], 0b100, 0b100);
        check(&mut uut, 64, &[30, 30], 1 << 31, 0);
        check(&mut uut, 64, &[31, 31], 1 << 32, 1 << 32); // no fill
    }

    #[test]
    fn matches_the_reference_on_random_lines() {
        let mut uut = LineSolver::default();
        uut.connect_all();
        let mut rng = Rng(0x0dd_c0ffee_u64);
        let mut feasible = 0;
        for case in 0..400 {
            let length = 1 + rng.below(if case % 2 == 0 { 64 } else { 20 }) as usize;
            let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
            let density = 20 + rng.below(70);
            let picture = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < density) as u64) << i);
            let clue = crate::options::clue_of(picture, length);
            let known_density = rng.below(70);
            let known = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < known_density) as u64) << i) & line;
            // Mostly consistent with the picture; sometimes not.
            let value = if rng.below(4) > 0 { picture & known } else { rng.below(u64::MAX) & known };
            feasible += solve_line(length, &clue, known, value).feasible as usize;
            check(&mut uut, length, &clue, known, value);
        }
        assert!(feasible > 200, "{feasible} feasible lines of 400");
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = LineSolver::default();
        uut.connect_all();
        if let Some(log) = yosys_check(&uut, "line_solver") {
            println!(
                "line solver: {} LUT4s, {} carry cells, {} block RAMs",
                yosys_cell_count(&log, "SB_LUT4"),
                yosys_cell_count(&log, "SB_CARRY"),
                yosys_cell_count(&log, "SB_RAM40_4K")
            );
        }
    }
}
