//! The clue engine's line solver: from a line's length, clue and known cells
//! it finds every cell on which all legal fills agree, or that the line has no
//! fill. It is complete: it fixes whatever any line solver could.
//!
//! It runs the clue's automaton over the line (see `line_logic.rs`, which is
//! the same computation in plain Rust): a row of at most 66 states, one cell
//! per clock cycle, forwards and then backwards.
//!
//! The phases, the clue reads and the cursor are [`LineWalk`]'s:
//!
//! | phase | cycles | what |
//! |---|---|---|
//! | layout | k + 3 | read the clue, one block per cycle; mark each gap and block end |
//! | forward | L | F_{p+1} = step(F_p, cell p); F_p goes to a block RAM |
//! | turn | 1 | ask for F_{L−1}; start from the accepting states |
//! | backward | L | meet F_p with the states that finish the line by a fill / an empty |
//! | drain | 1 | the last meeting into the result |
//!
//! A line of L cells with k blocks takes k + 2L + [`LATENCY`] cycles from
//! `start` to `done`. Why an automaton and not the block-per-cycle dynamic
//! program: the README's "clue engine" section has the measurements.

use crate::common::line_reg::{CellReg, LineReg};
use crate::common::line_walk::LineWalk;
use crate::common::ram::Ram;
use rust_hdl::prelude::*;

pub use crate::common::line_walk::LATENCY;

/// Most blocks in a clue.
pub const MAX_BLOCKS: usize = 32;

/// A row of automaton states (line_logic::STATES).
type States = Bits<66>;

/// The row of states a narrow solver keeps: a line of at most 32 cells
/// reaches states 0..=33 (its last gap sits at most at L + 1).
type StateReg = LineReg<66, 34>;

#[derive(LogicBlock, Default)]
pub struct LineSolver {
    pub clock: Signal<In, Clock>,
    /// Pulse: solve the line given by `length`, `blocks`, `known`, `value`
    /// (sampled in this cycle).
    pub start: Signal<In, Bit>,
    /// Lines of at most 32 cells (see `LineReg`): a constant of the core.
    pub narrow: Signal<In, Bit>,
    /// Cells in the line, 1..=64 (1..=32 narrow).
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
    /// Pulse: `can_fill` and `can_empty` hold the answer (until the next
    /// `start`). Both are zero when the line has no fill.
    pub done: Signal<Out, Bit>,
    pub can_fill: Signal<Out, Bits<64>>,
    pub can_empty: Signal<Out, Bits<64>>,
    /// Some fill agrees with the clue and the known cells (with `done`).
    pub feasible: Signal<Out, Bit>,
    /// When each step is (the phases, the clue reads, the cursor).
    walk: LineWalk<7>,
    // The line: which cells can be filled, which emptied.
    fillable: CellReg,
    emptiable: CellReg,
    /// L + 1: where g_k may be at most.
    gap_limit: DFF<Bits<8>>,
    // The clue memory's word, registered (it comes from a block RAM's port).
    block_length: DFF<Bits<7>>,
    gap_at: DFF<Bits<8>>,
    too_long: DFF<Bit>,
    gaps: DFF<States>,
    block_ends: DFF<States>,
    last_gap: DFF<States>,
    fill_from: DFF<States>,
    accept: DFF<States>,
    states: StateReg,
    forward_store: Ram<64, 6>,
    met_fill: DFF<Bits<64>>,
    met_empty: DFF<Bits<64>>,
    met_fill_states: Signal<Local, Bits<64>>,
    met_empty_states: Signal<Local, Bits<64>>,
    can_fill_q: CellReg,
    can_empty_q: CellReg,
    feasible_q: DFF<Bit>,
    // Combinational.
    next_gap_at: Signal<Local, Bits<8>>,
    gap_here: Signal<Local, States>,
    /// The line's last bit: 63, or 31 narrow.
    top: Signal<Local, Bits<6>>,
    cell_fillable: Signal<Local, Bit>,
    cell_emptiable: Signal<Local, Bit>,
    by_fill_forward: Signal<Local, States>,
    by_empty_forward: Signal<Local, States>,
    by_fill: Signal<Local, States>,
    by_empty: Signal<Local, States>,
}

impl Logic for LineSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            fillable,
            emptiable,
            gap_limit,
            block_length,
            gap_at,
            too_long,
            gaps,
            block_ends,
            last_gap,
            fill_from,
            accept,
            states,
            met_fill,
            met_empty,
            can_fill_q,
            can_empty_q,
            feasible_q
        );
        self.fillable.narrow.next = self.narrow.val();
        self.emptiable.narrow.next = self.narrow.val();
        self.states.narrow.next = self.narrow.val();
        self.can_fill_q.narrow.next = self.narrow.val();
        self.can_empty_q.narrow.next = self.narrow.val();
        if self.narrow.val() {
            self.top.next = 31.into();
        } else {
            self.top.next = 63.into();
        }
        self.walk.clock.next = self.clock.val();
        self.walk.start.next = self.start.val();
        self.walk.length.next = self.length.val();
        self.walk.blocks.next = self.blocks.val();
        self.clue_address.next = self.walk.clue_address.val();
        self.done.next = self.walk.done.val();
        self.busy.next = self.walk.busy.val();
        self.forward_store.clock.next = self.clock.val();
        // Forward writes, Turn and Backward read: never both at once.
        self.forward_store.read_used.next = false;
        self.forward_store.write_enable.next = false;
        self.forward_store.write_keep.next = 0.into();
        self.forward_store.write_address.next = bit_cast::<6, 7>(self.walk.cursor.val());
        self.forward_store.write_data.next = bit_cast::<64, 66>(self.states.q.val());
        // Read F_{p−1} while on cell p (backwards), so it is there for p − 1.
        self.forward_store.read_address.next = bit_cast::<6, 7>(self.walk.cursor.val() - 1);
        // The cell under the cursor: the line's two words rotate right past
        // bit 0 going forwards, so that going backwards they rotate left past
        // the top bit (no 64-way multiplexer on the path). Which end, on
        // `going_backward` (high in Backward exactly): decoded from `phase`
        // it made a critical path into `states` on nextpnr seeds.
        self.cell_fillable.next = self.fillable.q.val().get_bit(0);
        self.cell_emptiable.next = self.emptiable.q.val().get_bit(0);
        if self.walk.going_backward.val() {
            self.cell_fillable.next = self.fillable.q.val().get_bit(self.top.val().index());
            self.cell_emptiable.next = self.emptiable.q.val().get_bit(self.top.val().index());
        }

        // A block's length arriving: its gap g_j sits b + 1 places after g_{j−1},
        // its last cell just before g_j. A clue that needs more than L cells
        // (g_k past L + 1) has no fill. That is checked on `gap_at` a cycle
        // after the sum, not on the sum (whose adder, compare and clock
        // enable missed 100 MHz on a nextpnr seed): one more block may be
        // added meanwhile, which keeps `gap_at` under 65 + 2 × 65 < 256, and
        // `too_long` is still set long before the turn reads it.
        self.block_length.d.next = self.clue_length.val();
        self.next_gap_at.next = self.gap_at.q.val() + bit_cast::<8, 7>(self.block_length.q.val()) + 1;
        self.gap_here.next = Bits::<66>::from(1u64) << self.next_gap_at.val();
        if self.gap_at.q.val() > self.gap_limit.q.val() {
            self.too_long.d.next = true;
        }
        if self.walk.arrived.val() & !self.too_long.q.val() {
            self.gap_at.d.next = self.next_gap_at.val();
            self.gaps.d.next = self.gaps.q.val() | self.gap_here.val();
            self.block_ends.d.next = self.block_ends.q.val() | (self.gap_here.val() >> 1);
            self.last_gap.d.next = self.gap_here.val();
        }

        // One cell, forwards: a fill moves each state on, but a block's last
        // cell and g_k; an empty keeps gaps and moves a block's last cell to its gap.
        self.by_fill_forward.next = 0.into();
        if self.cell_fillable.val() {
            self.by_fill_forward.next = (self.states.q.val() & self.fill_from.q.val()) << 1;
        }
        self.by_empty_forward.next = 0.into();
        if self.cell_emptiable.val() {
            self.by_empty_forward.next = (self.states.q.val() & self.gaps.q.val())
                | ((self.states.q.val() & self.block_ends.q.val()) << 1);
        }

        // One cell, backwards: the states before it that finish the line.
        self.by_fill.next = 0.into();
        if self.cell_fillable.val() {
            self.by_fill.next = (self.states.q.val() >> 1) & self.fill_from.q.val();
        }
        self.by_empty.next = 0.into();
        if self.cell_emptiable.val() {
            self.by_empty.next = (self.states.q.val() & self.gaps.q.val())
                | ((self.states.q.val() >> 1) & self.block_ends.q.val());
        }

        // Where the forward and backward runs meet, every cycle (no clock
        // enable on these registers, which shortens the critical path):
        // used only in the cycle after a backward step, when `met` is set,
        // and only whether any state meets. So each pair of states is
        // ORed into its even bit, one LUT as the AND alone was, and the odd
        // bits are constant 0, which yosys drops: 64 flip-flops and the
        // first level of the OR less.
        self.met_fill_states.next =
            self.forward_store.read_data.val() & bit_cast::<64, 66>(self.by_fill.val());
        self.met_empty_states.next =
            self.forward_store.read_data.val() & bit_cast::<64, 66>(self.by_empty.val());
        self.met_fill.d.next = (self.met_fill_states.val() | (self.met_fill_states.val() >> 1))
            & Bits::<64>::from(0x5555_5555_5555_5555u64);
        self.met_empty.d.next = (self.met_empty_states.val() | (self.met_empty_states.val() >> 1))
            & Bits::<64>::from(0x5555_5555_5555_5555u64);

        // States past g_k are never reached (only g_k could fill into them).
        if self.walk.laid_out.val() {
            self.fill_from.d.next = !(self.block_ends.q.val() | self.last_gap.q.val());
            self.accept.d.next = self.last_gap.q.val() | (self.last_gap.q.val() >> 1);
        }
        // The steps of the walk.
        if self.walk.going_forward.val() {
            self.states.d.next = self.by_fill_forward.val() | self.by_empty_forward.val();
            self.forward_store.write_enable.next = true;
            self.fillable.d.next = (self.fillable.q.val() >> 1) | (self.fillable.q.val() << self.top.val());
            self.emptiable.d.next =
                (self.emptiable.q.val() >> 1) | (self.emptiable.q.val() << self.top.val());
        }
        if self.walk.turning.val() {
            self.forward_store.read_used.next = true;
            self.forward_store.read_address.next = bit_cast::<6, 7>(self.walk.cursor.val());
            self.states.d.next = self.accept.q.val();
            if self.too_long.q.val() {
                self.states.d.next = 0.into();
            }
        }
        if self.walk.going_backward.val() {
            self.forward_store.read_used.next = true;
            self.states.d.next = self.by_fill.val() | self.by_empty.val();
            self.fillable.d.next = (self.fillable.q.val() << 1) | (self.fillable.q.val() >> self.top.val());
            self.emptiable.d.next =
                (self.emptiable.q.val() << 1) | (self.emptiable.q.val() >> self.top.val());
        }
        // Cells come out last first: shift them in from the bottom.
        if self.walk.met.val() {
            self.can_fill_q.d.next =
                (self.can_fill_q.q.val() << 1) | bit_cast::<64, 1>(self.met_fill.q.val().any().into());
            self.can_empty_q.d.next =
                (self.can_empty_q.q.val() << 1) | bit_cast::<64, 1>(self.met_empty.q.val().any().into());
            if self.met_fill.q.val().any() | self.met_empty.q.val().any() {
                self.feasible_q.d.next = true;
            }
        }
        self.feasible.next = self.feasible_q.q.val();
        self.can_fill.next = self.can_fill_q.q.val();
        self.can_empty.next = self.can_empty_q.q.val();

        // Start: latch the line. A cell can be filled unless known empty, and
        // be empty unless known filled (cells past L are never visited).
        if self.start.val() {
            self.fillable.d.next = !(self.known.val() & !self.value.val());
            self.emptiable.d.next = !(self.known.val() & self.value.val());
            self.gap_limit.d.next = bit_cast::<8, 7>(self.length.val()) + 1;
            self.gap_at.d.next = 0.into();
            self.too_long.d.next = false;
            self.gaps.d.next = 1.into();
            self.block_ends.d.next = 0.into();
            self.last_gap.d.next = 1.into();
            self.states.d.next = 1.into();
            self.can_fill_q.d.next = 0.into();
            self.can_empty_q.d.next = 0.into();
            self.feasible_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests;

/// The emitted Verilog, simulated by Icarus, against the reference: RustHDL's
/// simulator and its Verilog can disagree, and the board runs the Verilog.
#[cfg(test)]
mod verilog;
