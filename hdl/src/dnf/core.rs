//! The whole solver core: UART in, parser, option FIFO, solver, reply
//! assembler, UART out. This is what goes onto the FPGA (inside the board's
//! top level) and what the simulated board runs.

use crate::common::params::COUNT_BITS;
use crate::dnf::parser::MessageParser;
use crate::dnf::reply::ReplyAssembler;
use crate::dnf::solver::Solver;
use crate::link::protocol::image;
use crate::link::uart_rx::UartRx;
use crate::link::uart_tx::UartTx;
use crate::link::warm_boot::WarmBoot;
use rust_hdl::prelude::*;

/// What the core is doing, on its `phase` output.
pub mod phase {
    pub const IDLE: u8 = 0;
    pub const RECEIVING: u8 = 1;
    pub const SOLVING: u8 = 2;
    pub const SENDING: u8 = 3;
}

#[derive(LogicBlock)]
pub struct NonogramCore {
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
    parser: MessageParser,
    solver: Solver,
    reply: ReplyAssembler,
    uart_tx: UartTx,
    warm_boot: WarmBoot,
    options_loaded: DFF<Bits<COUNT_BITS>>,
    outcome_q: DFF<Bits<3>>,
    outcome_valid_q: DFF<Bit>,
    phase_q: DFF<Bits<2>>,
    reply_outcome: Signal<Local, Bits<3>>,
}

impl NonogramCore {
    /// A core whose UART runs at `clock / clocks_per_bit` baud (≥ 4 clocks per bit).
    pub fn new(clocks_per_bit: u32) -> NonogramCore {
        NonogramCore {
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
            parser: MessageParser::new(clocks_per_bit),
            solver: Default::default(),
            reply: Default::default(),
            uart_tx: UartTx::new(clocks_per_bit),
            warm_boot: WarmBoot::new(image::FLASH),
            options_loaded: Default::default(),
            outcome_q: Default::default(),
            outcome_valid_q: Default::default(),
            phase_q: Default::default(),
            reply_outcome: Default::default(),
        }
    }
}

impl Logic for NonogramCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, options_loaded, outcome_q, outcome_valid_q, phase_q);
        self.uart_rx.clock.next = self.clock.val();
        self.parser.clock.next = self.clock.val();
        self.solver.clock.next = self.clock.val();
        self.reply.clock.next = self.clock.val();
        self.uart_tx.clock.next = self.clock.val();
        self.warm_boot.clock.next = self.clock.val();

        // Host → parser.
        self.uart_rx.rx.next = self.rx.val();
        self.uart_rx.reset.next = self.reset.val();
        self.parser.reset.next = self.reset.val();
        self.parser.rx_byte.next = self.uart_rx.data.val();
        self.parser.rx_byte_valid.next = self.uart_rx.valid.val();
        self.parser.rx_framing_error.next = self.uart_rx.framing_error.val();

        // The parser loads the solver's option store.
        self.solver.append.next = self.parser.fifo_write.val();
        self.solver.append_data.next = self.parser.option.val();
        self.solver.line_end.next = self.parser.count_write.val();
        self.solver.line_end_line.next = self.parser.count_line.val();
        self.solver.line_end_count.next = self.parser.count.val();
        self.parser.fifo_full.next = self.solver.full.val();

        // Solver.
        self.solver.abort.next = self.parser.abort.val();
        self.solver.start.next = self.parser.board_loaded.val();
        self.solver.rows.next = self.parser.rows.val();
        self.solver.columns.next = self.parser.columns.val();
        self.solver.next_row.next = self.reply.next_row.val();
        if self.parser.board_loaded.val() {
            self.options_loaded.d.next = self.solver.len.val();
        }

        // Reply → host.
        self.reply.abort.next = self.parser.abort.val();
        self.reply.board_done.next = self.solver.done.val();
        self.reply.refused.next = self.parser.refuse.val();
        self.reply.query.next = self.parser.query.val();
        self.reply.rows.next = self.parser.rows.val();
        self.reply.columns.next = self.parser.columns.val();
        self.reply.solver_outcome.next = self.solver.outcome.val();
        self.reply.contradiction_line.next = self.solver.contradiction_line.val();
        self.reply.cycles.next = self.solver.cycles.val();
        self.reply.passes.next = self.solver.passes.val();
        self.reply.options.next = self.options_loaded.q.val();
        self.reply.refuse_outcome.next = self.parser.refuse_outcome.val();
        self.reply.refuse_detail.next = self.parser.refuse_detail.val();
        self.reply.top_known.next = self.solver.top_known.val();
        self.reply.top_value.next = self.solver.top_value.val();
        self.uart_tx.data.next = self.reply.tx_data.val();
        self.uart_tx.start.next = self.reply.tx_start.val();
        self.reply.tx_ready.next = self.uart_tx.ready.val();
        self.tx.next = self.uart_tx.tx.val();

        // SWITCH → warm boot, only while nothing is going on.
        self.warm_boot.reset.next = self.reset.val();
        self.warm_boot.request.next = self.parser.switch.val();
        self.warm_boot.image.next = self.parser.switch_image.val();
        self.warm_boot.idle.next = !self.parser.loading.val()
            & !self.solver.busy.val()
            & !self.solver.done.val()
            & !self.reply.busy.val()
            & self.uart_tx.ready.val();
        self.boot.next = self.warm_boot.boot.val();
        self.boot_image.next = self.warm_boot.select.val();

        // Status for LEDs and the simulated board.
        // (Registered: the LEDs' logic is far from the UART's.)
        self.phase.next = self.phase_q.q.val();
        self.phase_q.d.next = 0.into();
        if self.parser.loading.val() {
            self.phase_q.d.next = 1.into();
        }
        if self.reply.busy.val() | !self.uart_tx.ready.val() {
            self.phase_q.d.next = 3.into();
        }
        if self.solver.busy.val() {
            self.phase_q.d.next = 2.into();
        }
        self.outcome.next = self.outcome_q.q.val();
        self.outcome_valid.next = self.outcome_valid_q.q.val();
        self.reply_outcome.next = self.parser.refuse_outcome.val();
        if self.solver.done.val() {
            self.reply_outcome.next = self.solver.outcome.val();
        }
        if self.parser.query.val() {
            self.reply_outcome.next = 5.into();
        }
        if self.parser.abort.val() {
            self.outcome_valid_q.d.next = false;
        }
        if self.solver.done.val() | self.parser.refuse.val() | self.parser.query.val() {
            self.outcome_q.d.next = self.reply_outcome.val();
            self.outcome_valid_q.d.next = true;
        }
    }
}

// The core reports INFO as outcome 5 on its LEDs.
const _: () = assert!(crate::link::protocol::status::outcome::INFO == 5);

#[cfg(test)]
mod tests;
