//! The colour clue engine's line solver (issue 28): from a line's clue
//! (blocks with an ink) and the colours each cell may still have, it leaves
//! in every cell the colours some legal fill of the whole line gives it, or
//! says the line has no fill. `line_logic.rs` is the same computation in
//! plain Rust, and the model this block is held to.
//!
//! It is the black-and-white solver (`clue::line_solver`) with an ink on
//! every block state: the same row of states, one cell a clock cycle,
//! forwards and then backwards ([`LineWalk`]), and the same cycles, k + 2L + [`LATENCY`]
//! from `start` to `done`, whatever the number of inks. What colour adds:
//!
//! * the layout paints each block's states with its ink (`masks`, one row
//!   of states an ink), and marks where two blocks of different inks touch
//!   (`skip_from`: an inked cell may move two states on, over the gap);
//! * a cell's colours are planes, one word a colour, bit i for cell i; a
//!   step gates the states an inked cell enters by the inks the cell may
//!   still have (`enterable`);
//! * going backwards it meets the forward states once for the background
//!   and once for each ink, so each cell comes out as a set of colours.
//!
//! | phase | cycles | what |
//! |---|---|---|
//! | layout | k + 3 | read the clue, a block a cycle; gaps, block ends, inks |
//! | forward | L | F_{p+1} = step(F_p, cell p) goes to a block RAM |
//! | turn | 1 | ask for F_L; start from the accepting states |
//! | backward | L | B_p = step back(B_{p+1}, cell p); F_{p+1} meets B_{p+1}: cell p's colours |
//! | drain | 1 | the last meeting written over its cell |
//!
//! Lines of up to 32 cells (the colour engine's boards are at most 32×32):
//! the states are at most Σb + k + 1 ≤ 2L + 1 = 65, and a stored F_{p+1}
//! (p < L) reaches state 2p + 1 ≤ 63 at most (the first cell moves one
//! state on, each other at most two), so the forward store is 64 bits
//! wide, four block RAMs.

use crate::common::line_walk::LineWalk;
use crate::common::ram::Ram;
use crate::common::thermometer::Thermometer;
use rust_hdl::prelude::*;

pub use crate::common::line_walk::LATENCY;

/// Inks, 1..=INKS; colour 0 is the background.
pub const INKS: usize = 4;

/// Colours a cell may have: the background and the inks.
pub const COLOURS: usize = INKS + 1;

/// Longest line.
pub const MAX_CELLS: usize = 32;

/// A line's colour planes: bits 32c..32c + 31 say which cells may have
/// colour c.
pub const PLANE_BITS: usize = MAX_CELLS * COLOURS;

/// The row of states: 0..=64 are used.
const STATE_BITS: usize = 66;

/// One row of states an ink (ink c + 1 at bits 66c..).
const MASK_BITS: usize = STATE_BITS * INKS;

/// The meetings of a backward step, ORed in pairs of states (two states'
/// meetings and class bits: one LUT4 each) and registered: the rest of
/// each OR, and the result, a cycle later. (Groups of three took two LUT4s
/// a group: about 100 more.)
const GROUPS: usize = STATE_BITS / 2;
const MET_BITS: usize = GROUPS * COLOURS;

// `update()` writes these as literals (66, 33, 32 in its indexes): RustHDL
// writes a constant's name into the Verilog, not its value.
const _: () = assert!(STATE_BITS == 66 && GROUPS == 33 && MAX_CELLS == 32);

#[derive(LogicBlock, Default)]
pub struct ColourLineSolver {
    pub clock: Signal<In, Clock>,
    /// Pulse: solve the line given by `length`, `blocks` and `cells`
    /// (sampled in this cycle).
    pub start: Signal<In, Bit>,
    /// Cells in the line, 1..=32.
    pub length: Signal<In, Bits<6>>,
    /// Blocks in the clue, 0..=32.
    pub blocks: Signal<In, Bits<6>>,
    /// The colours each cell may have, as planes (see [`PLANE_BITS`]).
    pub cells: Signal<In, Bits<PLANE_BITS>>,
    /// Pulse: take `cells` as the line without solving it (the search's
    /// scan of a row keeps it here, as a visit keeps its line).
    pub latch: Signal<In, Bit>,
    /// The line taken at the last `start` or `latch`; from `done`, the
    /// colours some fill gives each cell (all zero when the line has no
    /// fill), written over it a cell at a time as the walk goes back.
    pub line: Signal<Out, Bits<PLANE_BITS>>,
    /// The clue memory: block `clue_address`'s length and ink are expected
    /// on `clue_length` and `clue_ink` one cycle later, as a block RAM
    /// gives them.
    pub clue_address: Signal<Out, Bits<5>>,
    pub clue_length: Signal<In, Bits<6>>,
    pub clue_ink: Signal<In, Bits<3>>,
    pub busy: Signal<Out, Bit>,
    /// Pulse: `line` holds the result (until the next `start` or `latch`).
    pub done: Signal<Out, Bit>,
    /// The cells the result took a colour from (bit p for cell p), with
    /// it: built a cell at a time here, not compared plane by plane after.
    pub narrowed: Signal<Out, Bits<MAX_CELLS>>,
    pub feasible: Signal<Out, Bit>,
    /// When each step is (the phases, the clue reads, the cursor).
    walk: LineWalk<6>,
    // The line's planes, and the colours of the cell under the cursor.
    // Each cell's result is written over its planes when it is met: a
    // separate result, shifted in, was 160 flip-flops no LUT4 feeds, and
    // each of those takes a logic cell of its own.
    planes: DFF<Bits<PLANE_BITS>>,
    cell_colours: DFF<Bits<8>>,
    // The walk's cursor, one-hot: bit p on cell p.
    cursor_bit: DFF<Bits<MAX_CELLS>>,
    length_q: DFF<Bits<8>>,
    // Layout, as in the black-and-white solver.
    block_length: DFF<Bits<6>>,
    block_ink: DFF<Bits<3>>,
    gap_at: DFF<Bits<8>>,
    // Cells the clue needs so far (a block's length, and a background cell
    // before a block of the ink before it); checked a cycle after the sum.
    needed: DFF<Bits<8>>,
    too_long: DFF<Bit>,
    first_block: DFF<Bit>,
    previous_ink: DFF<Bits<3>>,
    gaps: DFF<Bits<STATE_BITS>>,
    skip_from: DFF<Bits<STATE_BITS>>,
    step_from: DFF<Bits<STATE_BITS>>,
    accept: DFF<Bits<STATE_BITS>>,
    // A block's states are painted with its ink a cycle after its gap is
    // set: the states below its gap not yet covered by the blocks and gaps
    // before it. Its ink (one-hot, 0 when no block is painted), and the
    // states covered, at and below the last gap painted.
    paint_ink: DFF<Bits<8>>,
    covered: DFF<Bits<STATE_BITS>>,
    masks: DFF<Bits<MASK_BITS>>,
    states: DFF<Bits<STATE_BITS>>,
    forward_store: Ram<64, 5>,
    // The states below the gap being laid out, registered with it (as
    // `below`): from `gap_at`, the thermometer, the paint and the masks'
    // OR were one path, that missed 100 MHz on nextpnr seeds.
    below_gap: Thermometer<STATE_BITS>,
    below: DFF<Bits<STATE_BITS>>,
    met_groups: DFF<Bits<MET_BITS>>,
    // The colours the met cell had (for `narrowed`), and where it is.
    met_cell: DFF<Bits<8>>,
    met_at: DFF<Bits<5>>,
    narrowed_q: DFF<Bits<MAX_CELLS>>,
    // The last met cell's colours before and after its meeting: whether
    // it was narrowed (`cell_narrowed`) is shifted into `narrowed_q` at
    // the next meeting, and is the lowest bit of `narrowed` after the
    // last. (Shifted in at its own meeting, the met groups' ORs, the
    // compare and the shift were a path at 96.5 MHz; with the compare's
    // result registered, at 88.7 MHz on a seed.)
    last_before: DFF<Bits<8>>,
    last_after: DFF<Bits<8>>,
    feasible_q: DFF<Bit>,
    // Combinational.
    // A block's last state sits just below its gap, and g_0 = 0 ends no
    // block: the block ends are the gaps shifted down (no register).
    block_ends: Signal<Local, Bits<STATE_BITS>>,
    next_gap_at: Signal<Local, Bits<8>>,
    // The last gap laid out, decoded from its place `gap_at`. (Registered
    // beside `gaps`, it was 66 flip-flops that took a logic cell each: the
    // decoder fed both, and nextpnr packs a flip-flop only with a LUT4
    // that feeds it alone.)
    last_gap: Signal<Local, Bits<STATE_BITS>>,
    same_ink: Signal<Local, Bit>,
    gap_here: Signal<Local, Bits<STATE_BITS>>,
    painted: Signal<Local, Bits<STATE_BITS>>,
    next_masks: Signal<Local, Bits<MASK_BITS>>,
    cell_up: Signal<Local, Bits<8>>,
    cell_down: Signal<Local, Bits<8>>,
    cell_first: Signal<Local, Bits<8>>,
    enterable: Signal<Local, Bits<STATE_BITS>>,
    background: Signal<Local, Bit>,
    stepped: Signal<Local, Bits<STATE_BITS>>,
    by_background_forward: Signal<Local, Bits<STATE_BITS>>,
    entered: Signal<Local, Bits<STATE_BITS>>,
    by_ink: Signal<Local, Bits<STATE_BITS>>,
    by_background: Signal<Local, Bits<STATE_BITS>>,
    forward: Signal<Local, Bits<STATE_BITS>>,
    occupied: Signal<Local, Bits<STATE_BITS>>,
    forward_next: Signal<Local, Bits<STATE_BITS>>,
    meeting: Signal<Local, Bits<STATE_BITS>>,
    next_met: Signal<Local, Bits<MET_BITS>>,
    load: Signal<Local, Bit>,
    // The met cell, decoded in two halves: its place mod 4 (with `met`),
    // and its place div 4. (A one-hot register of it, 32 flip-flops and
    // their decoders, took about 30 logic cells more.)
    met_low: Signal<Local, Bits<4>>,
    met_high: Signal<Local, Bits<8>>,
    met_colours: Signal<Local, Bits<8>>,
    cell_narrowed: Signal<Local, Bit>,
    next_planes: Signal<Local, Bits<PLANE_BITS>>,
}

impl Logic for ColourLineSolver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            planes,
            cell_colours,
            cursor_bit,
            length_q,
            block_length,
            block_ink,
            gap_at,
            needed,
            too_long,
            first_block,
            previous_ink,
            gaps,
            skip_from,
            step_from,
            accept,
            paint_ink,
            covered,
            below,
            masks,
            states,
            met_groups,
            met_cell,
            met_at,
            narrowed_q,
            last_before,
            last_after,
            feasible_q
        );
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
        self.forward_store.write_address.next = bit_cast::<5, 6>(self.walk.cursor.val());
        // Read address p − 1 (F_p) while on cell p (backwards), so it is
        // there for cell p − 1.
        self.forward_store.read_address.next = bit_cast::<5, 6>(self.walk.cursor.val() - 1);

        self.background.next = self.cell_colours.q.val().get_bit(0);
        // The block states the cell may enter: those of its possible inks.
        self.enterable.next = 0.into();
        for c in 0..INKS {
            if self.cell_colours.q.val().get_bit(c + 1) {
                self.enterable.next =
                    self.enterable.val() | self.masks.q.val().get_bits::<STATE_BITS>(66 * c);
            }
        }

        // A block arriving: its gap g_j sits b + 1 places after g_{j−1}, its
        // last cell just before g_j. Unlike black and white, blocks of
        // different inks need no background cell between them, so the
        // places are not the cells needed: `needed` counts those.
        self.block_length.d.next = self.clue_length.val();
        self.block_ink.d.next = self.clue_ink.val();
        self.next_gap_at.next = self.gap_at.q.val() + bit_cast::<8, 6>(self.block_length.q.val()) + 1;
        self.gap_here.next = Bits::<STATE_BITS>::from(1u64) << self.next_gap_at.val();
        self.last_gap.next = Bits::<STATE_BITS>::from(1u64) << self.gap_at.q.val();
        // A block after one of its ink needs a background cell before it.
        self.same_ink.next =
            !self.first_block.q.val() & (self.previous_ink.q.val() == self.block_ink.q.val());
        if self.needed.q.val() > self.length_q.q.val() {
            self.too_long.d.next = true;
        }
        if self.walk.arrived.val() & !self.too_long.q.val() {
            self.gap_at.d.next = self.next_gap_at.val();
            self.gaps.d.next = self.gaps.q.val() | self.gap_here.val();
            self.needed.d.next = self.needed.q.val()
                + bit_cast::<8, 6>(self.block_length.q.val())
                + bit_cast::<8, 1>(self.same_ink.val().into());
            if !self.first_block.q.val() & !self.same_ink.val() {
                // The block before may end right where this one starts.
                self.skip_from.d.next = self.skip_from.q.val() | (self.last_gap.val() >> 1);
            }
            self.first_block.d.next = false;
            self.previous_ink.d.next = self.block_ink.q.val();
            self.paint_ink.d.next = Bits::<8>::from(1u64) << self.block_ink.q.val();
            self.below.d.next = self.below_gap.below.val();
        } else {
            self.paint_ink.d.next = 0.into();
        }
        // The block's states: those below its gap (`below` is below the
        // gap's place now) that no block or gap before it covers.
        self.below_gap.value.next = bit_cast::<7, 8>(self.next_gap_at.val());
        self.painted.next = self.below.q.val() & !self.covered.q.val();
        if self.paint_ink.q.val().any() {
            self.covered.d.next = self.below.q.val() | self.last_gap.val();
        }
        // Each ink's row ORs in the states painted with it: a LUT4 and its
        // flip-flop a bit, one logic cell. (All four bits of a state under
        // one enable, from the one-hot ink, took 200 LUT4s fewer but 66
        // logic cells more: nextpnr packs a flip-flop with the LUT4 that
        // alone feeds its D, and a shared D left 264 flip-flops alone.)
        self.next_masks.next = self.masks.q.val();
        for c in 0..INKS {
            if self.paint_ink.q.val().get_bit(c + 1) {
                for s in 0..STATE_BITS {
                    self.next_masks.next = self.next_masks.val().replace_bit(
                        66 * c + s,
                        self.masks.q.val().get_bit(66 * c + s) | self.painted.val().get_bit(s),
                    );
                }
            }
        }
        self.masks.d.next = self.next_masks.val();

        self.block_ends.next = self.gaps.q.val() >> 1;
        // One cell, forwards: an inked cell moves a state one on (two over
        // a gap between different inks) into a block state of an ink it
        // may have; a background cell keeps gaps and moves a block's last
        // cell to its gap.
        self.stepped.next = ((self.states.q.val() & self.step_from.q.val()) << 1)
            | ((self.states.q.val() & self.skip_from.q.val()) << 2);
        self.by_background_forward.next = 0.into();
        if self.background.val() {
            self.by_background_forward.next = (self.states.q.val() & self.gaps.q.val())
                | ((self.states.q.val() & self.block_ends.val()) << 1);
        }

        self.forward_next.next =
            (self.stepped.val() & self.enterable.val()) | self.by_background_forward.val();
        // F_{p+1}, the states after cell p, goes to address p (so F_L, the
        // last, is in the store, and the turn reads it without a bypass).
        self.forward_store.write_data.next = bit_cast::<64, STATE_BITS>(self.forward_next.val());

        // One cell, backwards: the states before it that finish the line,
        // by an ink (`entered`, the block states it moves into) or by the
        // background.
        self.entered.next = self.states.q.val() & self.enterable.val();
        self.by_ink.next = ((self.entered.val() >> 1) & self.step_from.q.val())
            | ((self.entered.val() >> 2) & self.skip_from.q.val());
        self.by_background.next = 0.into();
        if self.background.val() {
            self.by_background.next = (self.states.q.val() & self.gaps.q.val())
                | ((self.states.q.val() >> 1) & self.block_ends.val());
        }

        // Where the forward and backward runs meet, every cycle (used only
        // in the cycle after a backward step, when `met` is set): on cell
        // p, `forward` is F_{p+1} and `states` B_{p+1}, and a state both
        // hold after the cell says its colour: the background in a gap, a
        // block's ink in its states. (An inked cell enters only states of
        // the inks it may have, a background cell only gaps, so no gate by
        // the cell's colours is needed. Meeting F_p, stepped again here,
        // with B_{p+1} took a LUT level and 34 LUT4s more in the image.)
        self.forward.next = bit_cast::<STATE_BITS, 64>(self.forward_store.read_data.val());
        self.occupied.next = self.forward.val() & self.states.q.val();
        self.next_met.next = 0.into();
        self.meeting.next = self.occupied.val() & self.gaps.q.val();
        for g in 0..GROUPS {
            self.next_met.next = self
                .next_met
                .val()
                .replace_bit(g, self.meeting.val().get_bits::<2>(2 * g).any());
        }
        for c in 0..INKS {
            self.meeting.next = self.occupied.val() & self.masks.q.val().get_bits::<STATE_BITS>(66 * c);
            for g in 0..GROUPS {
                self.next_met.next = self
                    .next_met
                    .val()
                    .replace_bit(33 * (c + 1) + g, self.meeting.val().get_bits::<2>(2 * g).any());
            }
        }
        self.met_cell.d.next = self.cell_colours.q.val();
        self.met_at.d.next = bit_cast::<5, 6>(self.walk.cursor.val());
        self.met_groups.d.next = self.next_met.val();

        // States past g_k are never reached (only g_k could step into them).
        if self.walk.laid_out.val() {
            self.step_from.d.next = !(self.block_ends.val() | self.last_gap.val());
            self.accept.d.next = self.last_gap.val() | (self.last_gap.val() >> 1);
        }
        // The steps of the walk.
        if self.walk.going_forward.val() {
            self.states.d.next = self.forward_next.val();
            self.forward_store.write_enable.next = true;
        }
        if self.walk.turning.val() {
            self.forward_store.read_used.next = true;
            self.forward_store.read_address.next = bit_cast::<5, 6>(self.walk.cursor.val());
            self.states.d.next = self.accept.q.val();
            // A fill exists when the forward run ends in an accepting
            // state (known here, not from the meetings: an OR of all 110
            // of their groups into this flag's enable was a 89 MHz path).
            self.feasible_q.d.next = (self.states.q.val() & self.accept.q.val()).any();
            if self.too_long.q.val() {
                self.states.d.next = 0.into();
                self.feasible_q.d.next = false;
            }
        }
        if self.walk.going_backward.val() {
            self.forward_store.read_used.next = true;
            self.states.d.next = self.by_ink.val() | self.by_background.val();
        }
        // The colours of the cell under the cursor, picked a cycle ahead:
        // the cell above the cursor going forwards, the one below going
        // backwards, cell 0 in the layout, else the same cell. Each pick
        // is an AND-OR of a plane with the one-hot cursor shifted, three
        // LUT levels (a 32-way multiplexer on the walk's `cursor_up`, five,
        // was a path at 97.7 MHz on a seed). Picked from `next_cursor`, the
        // cursor's own multiplexer came first, at 94 MHz; rotating the
        // planes instead, as the black-and-white solver rotates its two
        // words, cost about 250 LUT4s more. (The block states the cell may
        // enter, registered with its colours from picks a cycle earlier,
        // made the picks' multiplexer and the decode a 95 MHz path, and
        // 83.6 MHz on a seed.)
        if self.walk.going_forward.val() & !self.walk.at_last.val() {
            self.cursor_bit.d.next = self.cursor_bit.q.val() << 1;
        } else if self.walk.going_backward.val() & !self.walk.at_first.val() {
            self.cursor_bit.d.next = self.cursor_bit.q.val() >> 1;
        }
        self.cell_up.next = 0.into();
        self.cell_down.next = 0.into();
        self.cell_first.next = 0.into();
        for c in 0..COLOURS {
            self.cell_up.next = self.cell_up.val().replace_bit(
                c,
                (self.planes.q.val().get_bits::<MAX_CELLS>(32 * c) & (self.cursor_bit.q.val() << 1)).any(),
            );
            self.cell_down.next = self.cell_down.val().replace_bit(
                c,
                (self.planes.q.val().get_bits::<MAX_CELLS>(32 * c) & (self.cursor_bit.q.val() >> 1)).any(),
            );
            self.cell_first.next = self
                .cell_first
                .val()
                .replace_bit(c, self.planes.q.val().get_bit(32 * c));
        }
        if self.walk.going_forward.val() & !self.walk.at_last.val() {
            self.cell_colours.d.next = self.cell_up.val();
        } else if self.walk.going_backward.val() & !self.walk.at_first.val() {
            self.cell_colours.d.next = self.cell_down.val();
        } else if self.walk.in_layout.val() {
            self.cell_colours.d.next = self.cell_first.val();
        }

        // The met cell's colours: each class's groups ORed. It had them all
        // before (an inked cell enters only states of its inks), so it was
        // narrowed when one is missing.
        self.met_colours.next = 0.into();
        for c in 0..COLOURS {
            self.met_colours.next = self
                .met_colours
                .val()
                .replace_bit(c, self.met_groups.q.val().get_bits::<GROUPS>(33 * c).any());
        }
        self.cell_narrowed.next = (self.last_before.q.val() & !self.last_after.q.val()).any();
        // A cell's planes change at a load or at its meeting: one clock
        // enable a cell, and a LUT4 in front of each flip-flop, with which
        // it packs. `narrowed` shifts up a bit at each meeting (cells come
        // last first), so that `cell_narrowed` feeds one flip-flop: fed to
        // 32 beside the planes, it was the image's longest path (87 MHz).
        self.load.next = self.start.val() | self.latch.val();
        self.next_planes.next = self.planes.q.val();
        self.met_low.next = 0.into();
        if self.walk.met.val() {
            self.met_low.next = Bits::<4>::from(1u64) << self.met_at.q.val().get_bits::<2>(0);
        }
        self.met_high.next = Bits::<8>::from(1u64) << self.met_at.q.val().get_bits::<3>(2);
        for h in 0..8 {
            for l in 0..4 {
                if self.load.val() | (self.met_high.val().get_bit(h) & self.met_low.val().get_bit(l)) {
                    for c in 0..COLOURS {
                        self.next_planes.next = self.next_planes.val().replace_bit(
                            32 * c + 4 * h + l,
                            (self.load.val() & self.cells.val().get_bit(32 * c + 4 * h + l))
                                | (!self.load.val() & self.met_colours.val().get_bit(c)),
                        );
                    }
                }
            }
        }
        self.planes.d.next = self.next_planes.val();
        if self.walk.met.val() {
            self.narrowed_q.d.next =
                (self.narrowed_q.q.val() << 1) | bit_cast::<MAX_CELLS, 1>(self.cell_narrowed.val().into());
            self.last_before.d.next = self.met_cell.q.val();
            self.last_after.d.next = self.met_colours.val();
        }
        self.feasible.next = self.feasible_q.q.val();
        self.narrowed.next =
            (self.narrowed_q.q.val() << 1) | bit_cast::<MAX_CELLS, 1>(self.cell_narrowed.val().into());
        self.line.next = self.planes.q.val();

        // Start: latch the line.
        if self.start.val() {
            self.length_q.d.next = bit_cast::<8, 6>(self.length.val());
            self.gap_at.d.next = 0.into();
            self.needed.d.next = 0.into();
            self.too_long.d.next = false;
            self.first_block.d.next = true;
            self.gaps.d.next = 1.into();
            self.skip_from.d.next = 0.into();
            self.masks.d.next = 0.into();
            self.covered.d.next = 1.into();
            self.below.d.next = 0.into();
            self.cursor_bit.d.next = 1.into();
            self.states.d.next = 1.into();
            self.narrowed_q.d.next = 0.into();
            self.last_before.d.next = 0.into();
            self.feasible_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests;

/// The emitted Verilog, simulated by Icarus, against the model: RustHDL's
/// simulator and its Verilog can disagree, and the board runs the Verilog.
#[cfg(test)]
mod verilog;
