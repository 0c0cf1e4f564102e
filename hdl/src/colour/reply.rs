//! Reply assembler of protocol v3 (`colour_protocol`): turns the colour
//! solver's verdict into messages and feeds them, two bytes each (high byte
//! first), to the UART transmitter.
//!
//! A reply is START_BOARD m, START_BOARD n (value 1), COLOURS k (the
//! board's inks; INFO and refusals say the build's most and carry m = n =
//! 0 and no cells); for a board, its cells from [`ColourPacker`] (the
//! VALUES, and for SEVERAL the SECOND, when every cell has one colour,
//! else a POSSIBLE map a colour); the STATUS fields 0..=14 in order and
//! eight SEARCH fields (15), VERSION 3; END_BOARD. An abort stops the
//! reply at the next message boundary.
//!
//! It is the v2 reply (`clue::reply`) with COLOURS in the header and the
//! colour packer for the maps: the same phases, latches and status fields.

use crate::clue::clue_store::CLUE_STORE_BITS;
use crate::colour::cell_packer::ColourPacker;
use crate::colour::colour_protocol::COLOURS;
use crate::colour::line_solver::PLANE_BITS;
use crate::common::params::CYCLE_BITS;
use crate::constant;
use crate::link::message_sender::MessageSender;
use crate::link::protocol::{code, image, status};
use crate::link::status_fields::StatusFields;
use rust_hdl::prelude::*;

use crate::colour::colour_protocol::VERSION;
use crate::colour::{ENGINE_INKS, ENGINE_SIDE};

// StatusFields sends SEARCH (15) as steps 15..=22.
const _: () = assert!(crate::clue::clue_protocol::SEARCH_MESSAGES == 8);

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum ReplyPhase {
    Idle,
    Header,
    Maps,
    Status,
    Footer,
}

#[derive(LogicBlock)]
pub struct ColourReply {
    pub clock: Signal<In, Clock>,
    /// Stop at the next message boundary.
    pub abort: Signal<In, Bit>,
    /// Pulse: the engine's verdict is ready; reply with the board.
    pub board_done: Signal<In, Bit>,
    /// Pulse: the parser refused the board.
    pub refused: Signal<In, Bit>,
    /// Pulse: the host asked for the build parameters.
    pub query: Signal<In, Bit>,
    pub rows: Signal<In, Bits<7>>,
    pub columns: Signal<In, Bits<7>>,
    pub inks: Signal<In, Bits<3>>,
    pub solver_outcome: Signal<In, Bits<3>>,
    /// The board's cells (rows × columns), whether each has one colour,
    /// and whether a first solution is in the kept rows (the answer for
    /// SOLVED and SEVERAL then).
    pub board_cells: Signal<In, Bits<13>>,
    pub all_decided: Signal<In, Bit>,
    pub kept: Signal<In, Bit>,
    /// With the verdict: its DETAIL (the solver's `detail`).
    pub detail: Signal<In, Bits<8>>,
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    pub passes: Signal<In, Bits<8>>,
    pub nodes: Signal<In, Bits<32>>,
    pub backtracks: Signal<In, Bits<32>>,
    pub refuse_outcome: Signal<In, Bits<3>>,
    pub refuse_detail: Signal<In, Bits<8>>,
    /// The solver's board: row `read_row` (of the kept rows with
    /// `read_kept`), on `row_word` one cycle later.
    pub read_row: Signal<Out, Bits<5>>,
    pub read_kept: Signal<Out, Bit>,
    pub row_word: Signal<In, Bits<PLANE_BITS>>,
    /// To the UART transmitter.
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_start: Signal<Out, Bit>,
    pub tx_ready: Signal<In, Bit>,
    /// High until the last byte has been handed to the transmitter.
    pub busy: Signal<Out, Bit>,
    phase: DFF<ReplyPhase>,
    sender: MessageSender,
    status: StatusFields,
    step: DFF<Bits<5>>,
    // A copy of `step` for the status fields' multiplexer alone: from the
    // one register that also drives the header and the phase, its route
    // across the chip missed 100 MHz on nextpnr seeds.
    status_step: DFF<Bits<5>>,
    maps: ColourPacker,
    several_q: DFF<Bit>,
    rows_q: DFF<Bits<7>>,
    columns_q: DFF<Bits<7>>,
    inks_q: DFF<Bits<3>>,
    outcome_q: DFF<Bits<8>>,
    detail_q: DFF<Bits<8>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    // The search's counts, latched with the verdict as the cycles are: read
    // from the solver's own registers, they pulled the status multiplexer
    // across the chip, a path that missed 100 MHz on nextpnr seeds.
    nodes_q: DFF<Bits<32>>,
    backtracks_q: DFF<Bits<32>>,
    passes_q: DFF<Bits<8>>,
    // A board's reply: the SEARCH fields are the engine's counts (they hold
    // until the next board starts, and a new board's START_BOARD aborts
    // this reply first); other replies send 0.
    board_reply: DFF<Bit>,
    value_bit: Constant<Bits<16>>,
    code_start_board: Constant<Bits<3>>,
    code_colours: Constant<Bits<3>>,
    code_status: Constant<Bits<3>>,
    code_end_board: Constant<Bits<3>>,
    info: Constant<Bits<8>>,
    max_line: Constant<Bits<8>>,
    version: Constant<Bits<8>>,
    max_lines: Constant<Bits<8>>,
    engines: Constant<Bits<8>>,
    clue_store_bits: Constant<Bits<8>>,
    engine_inks: Constant<Bits<3>>,
    last_step: Constant<Bits<5>>,
    solved: Constant<Bits<3>>,
    several: Constant<Bits<3>>,
    from_kept: Signal<Local, Bit>,
}

impl Default for ColourReply {
    fn default() -> Self {
        ColourReply {
            clock: Default::default(),
            abort: Default::default(),
            board_done: Default::default(),
            refused: Default::default(),
            query: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            inks: Default::default(),
            solver_outcome: Default::default(),
            board_cells: Default::default(),
            all_decided: Default::default(),
            kept: Default::default(),
            detail: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            nodes: Default::default(),
            backtracks: Default::default(),
            refuse_outcome: Default::default(),
            refuse_detail: Default::default(),
            read_row: Default::default(),
            read_kept: Default::default(),
            row_word: Default::default(),
            tx_data: Default::default(),
            tx_start: Default::default(),
            tx_ready: Default::default(),
            busy: Default::default(),
            phase: Default::default(),
            sender: Default::default(),
            status: Default::default(),
            step: Default::default(),
            status_step: Default::default(),
            maps: Default::default(),
            several_q: Default::default(),
            rows_q: Default::default(),
            columns_q: Default::default(),
            inks_q: Default::default(),
            outcome_q: Default::default(),
            detail_q: Default::default(),
            cycles_q: Default::default(),
            nodes_q: Default::default(),
            backtracks_q: Default::default(),
            passes_q: Default::default(),
            board_reply: Default::default(),
            value_bit: constant(1u64),
            code_start_board: constant(code::START_BOARD),
            code_colours: constant(COLOURS),
            code_status: constant(code::STATUS),
            code_end_board: constant(code::END_BOARD),
            info: constant(status::outcome::INFO),
            max_line: constant(ENGINE_SIDE as u64),
            version: constant(VERSION),
            max_lines: constant(2 * ENGINE_SIDE as u64),
            engines: constant(image::engines_field(status::engines::COLOUR, image::FLASH)),
            clue_store_bits: constant(CLUE_STORE_BITS as u64),
            engine_inks: constant(ENGINE_INKS as u64),
            last_step: constant(status::field::SEARCH as u64 + 7),
            solved: constant(status::outcome::SOLVED),
            several: constant(status::outcome::SEVERAL),
            from_kept: Default::default(),
        }
    }
}

impl Logic for ColourReply {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            step,
            status_step,
            several_q,
            rows_q,
            columns_q,
            inks_q,
            outcome_q,
            detail_q,
            cycles_q,
            nodes_q,
            backtracks_q,
            passes_q,
            board_reply
        );
        self.busy.next = (self.phase.q.val() != ReplyPhase::Idle) | self.sender.pending.val();
        self.maps.clock.next = self.clock.val();
        self.read_row.next = self.maps.read_row.val();
        self.read_kept.next = self.maps.read_kept.val();
        self.maps.row_word.next = self.row_word.val();
        self.maps.restart.next = self.board_done.val() | self.refused.val() | self.query.val();
        self.maps.board_done.next = self.board_done.val();
        // SOLVED after a search for uniqueness, and SEVERAL, answer with
        // the kept first solution; every cell of it has one colour.
        self.from_kept.next = self.kept.val()
            & ((self.solver_outcome.val() == self.solved.val())
                | (self.solver_outcome.val() == self.several.val()));
        self.maps.from_kept.next = self.from_kept.val();
        self.maps.packed.next = self.all_decided.val() | self.from_kept.val();
        self.maps.inks_q.next = self.inks_q.q.val();
        self.maps.board_cells.next = self.board_cells.val();
        self.maps.columns_q.next = self.columns_q.q.val();
        self.maps.several.next = self.several_q.q.val();
        self.maps.maps.next = self.phase.q.val() == ReplyPhase::Maps;
        self.maps.stop.next = self.abort.val() & !self.refused.val() & !self.query.val();
        self.maps.pending.next = self.sender.pending.val();

        // The message made below goes out through the sender.
        self.sender.clock.next = self.clock.val();
        self.sender.load.next = false;
        self.sender.message.next = 0.into();
        self.tx_data.next = self.sender.tx_data.val();
        self.tx_start.next = self.sender.tx_start.val();
        self.sender.tx_ready.next = self.tx_ready.val();

        // The STATUS field numbered `step`, as v2's: fields 7, 8 and 10
        // (the DNF engine's) are 0; every reply sends the SEARCH fields.
        self.status.clock.next = self.clock.val();
        self.status.step.next = self.status_step.q.val();
        self.status.last_step.next = self.last_step.val();
        self.status.outcome.next = self.outcome_q.q.val();
        self.status.detail.next = self.detail_q.q.val();
        self.status.cycles.next = self.cycles_q.q.val();
        self.status.passes.next = self.passes_q.q.val();
        self.status.options.next = 0.into();
        self.status.max_line.next = self.max_line.val();
        self.status.fifo_addr_bits.next = 0.into();
        self.status.version.next = self.version.val();
        self.status.max_lines.next = self.max_lines.val();
        self.status.engines.next = self.engines.val();
        self.status.clue_store_bits.next = self.clue_store_bits.val();
        self.status.nodes.next = self.nodes_q.q.val();
        self.status.backtracks.next = self.backtracks_q.q.val();
        self.status.with_search.next = self.board_reply.q.val();

        match self.phase.q.val() {
            ReplyPhase::Header => {
                // START_BOARD m, START_BOARD n, COLOURS k.
                if !self.sender.pending.val() {
                    self.sender.load.next = true;
                    self.step.d.next = self.step.q.val() + 1;
                    self.sender.message.next = (bit_cast::<16, 3>(self.code_start_board.val()) << 13)
                        | (bit_cast::<16, 7>(self.rows_q.q.val()) << 1)
                        | self.value_bit.val();
                    if self.step.q.val() == 1 {
                        self.sender.message.next = (bit_cast::<16, 3>(self.code_start_board.val()) << 13)
                            | (bit_cast::<16, 7>(self.columns_q.q.val()) << 1)
                            | self.value_bit.val();
                    }
                    if self.step.q.val() == 2 {
                        self.sender.message.next = (bit_cast::<16, 3>(self.code_colours.val()) << 13)
                            | (bit_cast::<16, 3>(self.inks_q.q.val()) << 1);
                        self.step.d.next = 0.into();
                        self.phase.d.next = ReplyPhase::Status;
                        if self.rows_q.q.val() != 0 {
                            self.phase.d.next = ReplyPhase::Maps;
                        }
                    }
                }
            }
            ReplyPhase::Status => {
                if !self.sender.pending.val() {
                    self.sender.load.next = true;
                    self.sender.message.next = (bit_cast::<16, 3>(self.code_status.val()) << 13)
                        | (bit_cast::<16, 4>(self.status.id.val()) << 9)
                        | (bit_cast::<16, 8>(self.status.byte.val()) << 1);
                    self.step.d.next = self.step.q.val() + 1;
                    if self.status.last.val() {
                        self.phase.d.next = ReplyPhase::Footer;
                    }
                }
            }
            ReplyPhase::Footer => {
                if !self.sender.pending.val() {
                    self.sender.load.next = true;
                    self.sender.message.next = bit_cast::<16, 3>(self.code_end_board.val()) << 13;
                    self.phase.d.next = ReplyPhase::Idle;
                }
            }
            _ => {}
        }

        // A map's message, and the maps' end.
        if self.maps.emit.val() {
            self.sender.load.next = true;
            self.sender.message.next = self.maps.message.val();
        }
        if self.maps.done.val() {
            self.phase.d.next = ReplyPhase::Status;
        }

        // A new reply: latch what it will say.
        if self.board_done.val() | self.refused.val() | self.query.val() {
            self.phase.d.next = ReplyPhase::Header;
            self.step.d.next = 0.into();
            self.several_q.d.next = false;
            self.board_reply.d.next = false;
            self.rows_q.d.next = 0.into();
            self.columns_q.d.next = 0.into();
            self.inks_q.d.next = self.engine_inks.val();
            self.detail_q.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 0.into();
        }
        if self.board_done.val() {
            self.rows_q.d.next = self.rows.val();
            self.columns_q.d.next = self.columns.val();
            self.inks_q.d.next = self.inks.val();
            self.outcome_q.d.next = bit_cast::<8, 3>(self.solver_outcome.val());
            self.detail_q.d.next = self.detail.val();
            self.cycles_q.d.next = self.cycles.val();
            self.nodes_q.d.next = self.nodes.val();
            self.backtracks_q.d.next = self.backtracks.val();
            self.passes_q.d.next = self.passes.val();
            self.several_q.d.next = self.solver_outcome.val() == self.several.val();
            self.board_reply.d.next = true;
        }
        if self.refused.val() {
            self.outcome_q.d.next = bit_cast::<8, 3>(self.refuse_outcome.val());
            self.detail_q.d.next = self.refuse_detail.val();
        }
        if self.query.val() {
            self.outcome_q.d.next = self.info.val();
        }
        // An abort stops making messages; the pending one still goes out.
        // It wins over a verdict in the same cycle, which is the abandoned
        // board's (a query or a refusal with it is the new stream's).
        if self.abort.val() & !self.refused.val() & !self.query.val() {
            self.phase.d.next = ReplyPhase::Idle;
        }
        self.status_step.d.next = self.step.d.val();
    }
}

#[cfg(test)]
mod tests;
