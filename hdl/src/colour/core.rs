//! The colour engine's core (protocol v3): UART in, the clue parser built
//! for colour boards, the colour solver, the v3 reply, UART out. The same
//! pins and status outputs as the other cores (`dnf/core.rs`,
//! `clue/core.rs`), so the board's top level and the simulated board take
//! it; it is flash image 3.

use crate::clue::parser::ClueParser;
use crate::colour::reply::ColourReply;
use crate::colour::solver::ColourSolver;
use crate::colour::{ENGINE_INKS, ENGINE_SIDE};
use crate::constant;
use crate::dnf::core::phase;
use crate::link::protocol::image;
use crate::link::protocol::status::outcome;
use crate::link::uart_rx::UartRx;
use crate::link::uart_tx::UartTx;
use crate::link::warm_boot::WarmBoot;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ColourCore {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: everything back to idle.
    pub reset: Signal<In, Bit>,
    /// UART from the host (asynchronous; synchronised inside).
    pub rx: Signal<In, Bit>,
    /// UART to the host.
    pub tx: Signal<Out, Bit>,
    /// One of [`phase`].
    pub phase: Signal<Out, Bits<2>>,
    /// The last outcome (protocol::status::outcome), valid when `outcome_valid`.
    pub outcome: Signal<Out, Bits<3>>,
    pub outcome_valid: Signal<Out, Bit>,
    /// To `SB_WARMBOOT`: BOOT, and the image to boot (S1, S0).
    pub boot: Signal<Out, Bit>,
    pub boot_image: Signal<Out, Bits<2>>,
    uart_rx: UartRx,
    parser: ClueParser,
    engine: ColourSolver,
    reply: ColourReply,
    uart_tx: UartTx,
    warm_boot: WarmBoot,
    outcome_q: DFF<Bits<3>>,
    outcome_valid_q: DFF<Bit>,
    phase_q: DFF<Bits<2>>,
    tx_busy: DFF<Bit>,
    reply_outcome: Signal<Local, Bits<3>>,
    receiving: Constant<Bits<2>>,
    solving: Constant<Bits<2>>,
    sending: Constant<Bits<2>>,
    info: Constant<Bits<3>>,
}

impl ColourCore {
    /// A core whose UART runs at `clock / clocks_per_bit` baud (≥ 4 clocks per bit).
    pub fn new(clocks_per_bit: u32) -> Self {
        ColourCore {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            phase: Default::default(),
            outcome: Default::default(),
            outcome_valid: Default::default(),
            boot: Default::default(),
            boot_image: Default::default(),
            uart_rx: UartRx::new(clocks_per_bit),
            parser: ClueParser::with_colours(clocks_per_bit, None, ENGINE_SIDE, ENGINE_INKS),
            engine: Default::default(),
            reply: Default::default(),
            uart_tx: UartTx::new(clocks_per_bit),
            warm_boot: WarmBoot::new(image::FLASH),
            outcome_q: Default::default(),
            outcome_valid_q: Default::default(),
            phase_q: Default::default(),
            tx_busy: Default::default(),
            reply_outcome: Default::default(),
            receiving: constant(phase::RECEIVING),
            solving: constant(phase::SOLVING),
            sending: constant(phase::SENDING),
            info: constant(outcome::INFO),
        }
    }
}

impl Logic for ColourCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, outcome_q, outcome_valid_q, phase_q, tx_busy);
        self.uart_rx.clock.next = self.clock.val();
        self.parser.clock.next = self.clock.val();
        self.engine.clock.next = self.clock.val();
        self.reply.clock.next = self.clock.val();
        self.uart_tx.clock.next = self.clock.val();
        self.warm_boot.clock.next = self.clock.val();

        // Host → parser → the solver's clue store.
        self.uart_rx.rx.next = self.rx.val();
        self.uart_rx.reset.next = self.reset.val();
        self.parser.reset.next = self.reset.val();
        self.parser.rx_byte.next = self.uart_rx.data.val();
        self.parser.rx_byte_valid.next = self.uart_rx.valid.val();
        self.parser.rx_framing_error.next = self.uart_rx.framing_error.val();
        self.engine.abort.next = self.parser.abort.val();
        self.engine.start.next = self.parser.board_loaded.val();
        self.engine.rows.next = self.parser.rows.val();
        self.engine.columns.next = self.parser.columns.val();
        self.engine.inks.next = self.parser.inks.val();
        self.engine.budget.next = self.parser.budget.val();
        self.engine.first_only.next = self.parser.first_only.val();
        self.engine.clue_write.next = self.parser.clue_write.val();
        self.engine.clue_address.next = self.parser.clue_address.val();
        self.engine.clue_length.next = self.parser.clue_length.val();
        self.engine.clue_ink.next = self.parser.clue_ink.val();
        self.engine.line_write.next = self.parser.line_write.val();
        self.engine.line_number.next = self.parser.line_number.val();
        self.engine.line_first.next = self.parser.line_first.val();
        self.engine.line_blocks.next = self.parser.line_blocks.val();

        // Verdict → reply → host.
        self.reply.abort.next = self.parser.abort.val();
        self.reply.board_done.next = self.engine.done.val();
        self.reply.refused.next = self.parser.refuse.val();
        self.reply.query.next = self.parser.query.val();
        self.reply.rows.next = self.parser.rows.val();
        self.reply.columns.next = self.parser.columns.val();
        self.reply.inks.next = self.parser.inks.val();
        self.reply.solver_outcome.next = self.engine.outcome.val();
        self.reply.board_cells.next = self.engine.board_cells.val();
        self.reply.all_decided.next = self.engine.all_decided.val();
        self.reply.kept.next = self.engine.kept.val();
        self.reply.detail.next = self.engine.detail.val();
        self.reply.cycles.next = self.engine.cycles.val();
        self.reply.passes.next = self.engine.passes.val();
        self.reply.nodes.next = self.engine.nodes.val();
        self.reply.backtracks.next = self.engine.backtracks.val();
        self.reply.refuse_outcome.next = self.parser.refuse_outcome.val();
        self.reply.refuse_detail.next = self.parser.refuse_detail.val();
        self.engine.read_row.next = self.reply.read_row.val();
        self.engine.read_kept.next = self.reply.read_kept.val();
        self.reply.row_word.next = self.engine.row_word.val();
        self.uart_tx.data.next = self.reply.tx_data.val();
        self.uart_tx.start.next = self.reply.tx_start.val();
        self.reply.tx_ready.next = self.uart_tx.ready.val();
        self.tx.next = self.uart_tx.tx.val();

        // SWITCH → warm boot, only while nothing is going on.
        self.warm_boot.reset.next = self.reset.val();
        self.warm_boot.request.next = self.parser.switch.val();
        self.warm_boot.image.next = self.parser.switch_image.val();
        self.warm_boot.idle.next = !self.parser.loading.val()
            & !self.engine.busy.val()
            & !self.engine.done.val()
            & !self.reply.busy.val()
            & self.uart_tx.ready.val();
        self.boot.next = self.warm_boot.boot.val();
        self.boot_image.next = self.warm_boot.select.val();

        // Status for LEDs and the simulated board, registered as in the
        // clue core.
        self.phase.next = self.phase_q.q.val();
        self.phase_q.d.next = 0.into();
        self.tx_busy.d.next = !self.uart_tx.ready.val();
        if self.parser.loading.val() {
            self.phase_q.d.next = self.receiving.val();
        }
        if self.reply.busy.val() | self.tx_busy.q.val() {
            self.phase_q.d.next = self.sending.val();
        }
        if self.engine.busy.val() {
            self.phase_q.d.next = self.solving.val();
        }
        self.outcome.next = self.outcome_q.q.val();
        self.outcome_valid.next = self.outcome_valid_q.q.val();
        self.reply_outcome.next = self.parser.refuse_outcome.val();
        if self.engine.done.val() {
            self.reply_outcome.next = self.engine.outcome.val();
        }
        if self.parser.query.val() {
            self.reply_outcome.next = self.info.val();
        }
        if self.parser.abort.val() {
            self.outcome_valid_q.d.next = false;
        }
        if self.engine.done.val() | self.parser.refuse.val() | self.parser.query.val() {
            self.outcome_q.d.next = self.reply_outcome.val();
            self.outcome_valid_q.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests;
