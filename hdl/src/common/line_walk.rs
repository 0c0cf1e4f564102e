//! The walk both line solvers take over a line (`clue::line_solver`, and
//! `colour::line_solver`): the phases, the clue reads of the layout, and the
//! cursor, forwards over the cells and back. The solvers keep the rows of
//! states and what a step does to them; this block says when each step is.
//!
//! | phase | cycles | outputs high |
//! |---|---|---|
//! | start | 1 | (the solver latches its line) |
//! | layout | k + 3 | `clue_address` counts 0..k−1, a block a cycle; `arrived` two cycles later; `laid_out` in the last |
//! | forward | L | `going_forward`, the cursor at 0..L−1 |
//! | turn | 1 | `turning`, the cursor at L−1 |
//! | backward | L | `going_backward`, the cursor at L−1 down to 0 |
//! | drain | 1 | `met` (high in the cycle after every backward step) |
//!
//! and `done` in the cycle after the drain: k + 2L + [`LATENCY`] cycles
//! after `start`.
//!
//! Timing: the steps are flags of their own (`going_forward`, `turning`,
//! `going_backward`) and the cursor's neighbours and ends are registered,
//! so that the clock enables and multiplexers of the solvers' wide rows
//! come straight from flip-flops. Decoded from `phase`, they made critical
//! paths on nextpnr seeds.

use rust_hdl::prelude::*;

/// Cycles of a line's walk besides k + 2L: the start cycle, three of
/// layout, the turn, the drain.
pub const LATENCY: u64 = 6;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Phase {
    Idle,
    Layout,
    Forward,
    Turn,
    Backward,
    Drain,
}

/// A walk over lines of up to 2^(W−1) cells.
#[derive(LogicBlock, Default)]
pub struct LineWalk<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Pulse: walk a line of `length` cells (at least 1) with `blocks` blocks.
    pub start: Signal<In, Bit>,
    pub length: Signal<In, Bits<W>>,
    pub blocks: Signal<In, Bits<6>>,
    /// The block asked of the clue memory this cycle.
    pub clue_address: Signal<Out, Bits<5>>,
    /// The block asked for two cycles ago is in the solver's register of the
    /// clue memory's word (the memory answers a cycle later, the solver
    /// registers the answer).
    pub arrived: Signal<Out, Bit>,
    /// The layout's last cycle: every block has arrived and been laid out.
    pub laid_out: Signal<Out, Bit>,
    pub in_layout: Signal<Out, Bit>,
    pub going_forward: Signal<Out, Bit>,
    pub turning: Signal<Out, Bit>,
    pub going_backward: Signal<Out, Bit>,
    /// The cycle after a backward step (its meetings are registered).
    pub met: Signal<Out, Bit>,
    /// The cell the step works on, and its neighbours.
    pub cursor: Signal<Out, Bits<W>>,
    pub cursor_up: Signal<Out, Bits<W>>,
    pub cursor_down: Signal<Out, Bits<W>>,
    /// The cursor is on the last cell, or on the first.
    pub at_last: Signal<Out, Bit>,
    pub at_first: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub busy: Signal<Out, Bit>,
    phase: DFF<Phase>,
    last_cell: DFF<Bits<W>>,
    last_block: DFF<Bits<6>>,
    issued: DFF<Bits<6>>,
    /// In Layout with blocks left to ask for (`issued != last_block`), kept
    /// a cycle ahead: the compare in front of Layout's choices was a
    /// critical path of the probing image.
    issuing: DFF<Bit>,
    arriving: DFF<Bit>,
    arrived_q: DFF<Bit>,
    drained: DFF<Bits<2>>,
    cursor_q: DFF<Bits<W>>,
    cursor_up_q: DFF<Bits<W>>,
    cursor_down_q: DFF<Bits<W>>,
    at_last_q: DFF<Bit>,
    at_first_q: DFF<Bit>,
    going_forward_q: DFF<Bit>,
    turning_q: DFF<Bit>,
    going_backward_q: DFF<Bit>,
    met_q: DFF<Bit>,
    done_q: DFF<Bit>,
    next_cursor: Signal<Local, Bits<W>>,
}

impl<const W: usize> Logic for LineWalk<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            last_cell,
            last_block,
            issued,
            issuing,
            arriving,
            arrived_q,
            drained,
            cursor_q,
            cursor_up_q,
            cursor_down_q,
            at_last_q,
            at_first_q,
            going_forward_q,
            turning_q,
            going_backward_q,
            met_q,
            done_q
        );
        self.arriving.d.next = false;
        self.arrived_q.d.next = self.arriving.q.val();
        self.met_q.d.next = self.going_backward_q.q.val();
        self.done_q.d.next = false;
        self.laid_out.next = false;
        match self.phase.q.val() {
            Phase::Idle => {}
            Phase::Layout => {
                if self.issuing.q.val() {
                    self.issued.d.next = self.issued.q.val() + 1;
                    self.issuing.d.next = self.issued.q.val() + 1 != self.last_block.q.val();
                    self.arriving.d.next = true;
                } else if self.drained.q.val() != 2 {
                    // The last block's word: a cycle in the memory, one in
                    // the solver's register, one laid out.
                    self.drained.d.next = self.drained.q.val() + 1;
                } else {
                    self.laid_out.next = true;
                    self.phase.d.next = Phase::Forward;
                    self.going_forward_q.d.next = true;
                }
            }
            Phase::Forward => {
                if self.at_last_q.q.val() {
                    self.phase.d.next = Phase::Turn;
                    self.going_forward_q.d.next = false;
                    self.turning_q.d.next = true;
                }
            }
            Phase::Turn => {
                self.phase.d.next = Phase::Backward;
                self.turning_q.d.next = false;
                self.going_backward_q.d.next = true;
            }
            Phase::Backward => {
                if self.at_first_q.q.val() {
                    self.phase.d.next = Phase::Drain;
                    self.going_backward_q.d.next = false;
                }
            }
            Phase::Drain => {
                self.done_q.d.next = true;
                self.phase.d.next = Phase::Idle;
            }
            _ => {
                self.phase.d.next = Phase::Idle;
            }
        }
        // The cursor moves up going forwards until the last cell, down
        // going backwards until the first.
        if self.going_forward_q.q.val() & !self.at_last_q.q.val() {
            self.next_cursor.next = self.cursor_up_q.q.val();
        } else if self.going_backward_q.q.val() & !self.at_first_q.q.val() {
            self.next_cursor.next = self.cursor_down_q.q.val();
        } else {
            self.next_cursor.next = self.cursor_q.q.val();
        }
        self.cursor_q.d.next = self.next_cursor.val();
        self.cursor_up_q.d.next = self.next_cursor.val() + 1;
        self.cursor_down_q.d.next = self.next_cursor.val() - 1;
        self.at_last_q.d.next = self.next_cursor.val() == self.last_cell.q.val();
        self.at_first_q.d.next = self.next_cursor.val() == 0;

        self.clue_address.next = bit_cast::<5, 6>(self.issued.q.val());
        self.arrived.next = self.arrived_q.q.val();
        self.in_layout.next = self.phase.q.val() == Phase::Layout;
        self.going_forward.next = self.going_forward_q.q.val();
        self.turning.next = self.turning_q.q.val();
        self.going_backward.next = self.going_backward_q.q.val();
        self.met.next = self.met_q.q.val();
        self.cursor.next = self.cursor_q.q.val();
        self.cursor_up.next = self.cursor_up_q.q.val();
        self.cursor_down.next = self.cursor_down_q.q.val();
        self.at_last.next = self.at_last_q.q.val();
        self.at_first.next = self.at_first_q.q.val();
        self.done.next = self.done_q.q.val();
        self.busy.next = self.phase.q.val() != Phase::Idle;

        if self.start.val() {
            self.cursor_q.d.next = 0.into();
            self.last_cell.d.next = self.length.val() - 1;
            self.last_block.d.next = self.blocks.val();
            self.issued.d.next = 0.into();
            self.issuing.d.next = self.blocks.val() != 0;
            self.drained.d.next = 0.into();
            self.phase.d.next = Phase::Layout;
            self.going_forward_q.d.next = false;
            self.turning_q.d.next = false;
            self.going_backward_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    /// What the walk shows in one cycle.
    #[derive(Debug, PartialEq, Default)]
    struct Cycle {
        arrived: bool,
        laid_out: bool,
        /// Forward, turn or backward, with the cursor.
        step: Option<(char, u64)>,
        met: bool,
        done: bool,
    }

    /// The cycles after the start cycle until `done`, written from the
    /// table at the top of the file.
    fn expected(length: u64, blocks: u64) -> Vec<Cycle> {
        let mut cycles: Vec<Cycle> = (0..blocks + 3).map(|_| Cycle::default()).collect();
        for b in 0..blocks {
            cycles[b as usize + 2].arrived = true;
        }
        cycles[blocks as usize + 2].laid_out = true;
        let step = |step, cursor| Cycle {
            step: Some((step, cursor)),
            ..Default::default()
        };
        cycles.extend((0..length).map(|p| step('f', p)));
        cycles.push(step('t', length - 1));
        cycles.extend((0..length).rev().map(|p| step('b', p)));
        cycles.push(Cycle::default());
        // The cycles after each backward step: the last L so far.
        let after_backward = cycles.len() - length as usize;
        for cycle in &mut cycles[after_backward..] {
            cycle.met = true;
        }
        cycles.push(Cycle {
            done: true,
            ..Default::default()
        });
        assert_eq!(cycles.len() as u64, blocks + 2 * length + LATENCY);
        cycles
    }

    fn walk(uut: &mut LineWalk<7>, length: u64, blocks: u64) {
        uut.start.next = true;
        uut.length.next = length.into();
        uut.blocks.next = blocks.into();
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        let what = format!("length {length}, {blocks} blocks");
        for (i, want) in expected(length, blocks).into_iter().enumerate() {
            if (i as u64) < blocks {
                assert_eq!(
                    uut.clue_address.val().index() as u64,
                    i as u64,
                    "clue address in cycle {i}, {what}"
                );
            }
            let step = [
                ('f', &uut.going_forward),
                ('t', &uut.turning),
                ('b', &uut.going_backward),
            ]
            .into_iter()
            .filter(|(_, flag)| flag.val())
            .map(|(name, _)| name)
            .collect::<Vec<_>>();
            assert!(step.len() <= 1, "steps {step:?} at once in cycle {i}, {what}");
            let cursor = uut.cursor.val().index() as u64;
            let seen = Cycle {
                arrived: uut.arrived.val(),
                laid_out: uut.laid_out.val(),
                step: step.first().map(|&s| (s, cursor)),
                met: uut.met.val(),
                done: uut.done.val(),
            };
            assert_eq!(seen, want, "cycle {i}, {what}");
            if seen.step.is_some() {
                assert_eq!(
                    uut.at_last.val(),
                    cursor == length - 1,
                    "at_last, cycle {i}, {what}"
                );
                assert_eq!(uut.at_first.val(), cursor == 0, "at_first, cycle {i}, {what}");
                assert_eq!(uut.cursor_up.val().index() as u64, (cursor + 1) % 128);
                assert_eq!(uut.cursor_down.val().index() as u64, cursor.wrapping_sub(1) % 128);
            }
            assert_eq!(
                uut.in_layout.val(),
                (i as u64) < blocks + 3,
                "in_layout, cycle {i}, {what}"
            );
            assert_eq!(uut.busy.val(), !seen.done, "busy, cycle {i}, {what}");
            tick(uut, |u| &mut u.clock);
        }
        assert!(!uut.busy.val() && !uut.done.val(), "{what}: not idle after done");
    }

    #[test]
    fn walks_as_its_table_says() {
        let mut uut = LineWalk::<7>::default();
        uut.connect_all();
        for (length, blocks) in [
            (1, 0),
            (1, 1),
            (2, 1),
            (2, 2),
            (3, 3),
            (64, 0),
            (64, 32),
            (32, 31),
        ] {
            walk(&mut uut, length, blocks);
        }
        let mut rng = Rng(0x1_1ce_3a1c);
        for _ in 0..200 {
            let length = 1 + rng.below(64);
            walk(&mut uut, length, rng.below(length.min(32) + 1));
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = LineWalk::<7>::default();
        uut.connect_all();
        yosys_check(&uut, "line_walk");
    }
}
