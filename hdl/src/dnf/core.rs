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
mod tests {
    use crate::bench::boards::{dense_picture, random_clues, v1_stream, Rng};
    use crate::bench::driver::CoreDriver;
    use crate::bench::{yosys_cell_count, yosys_check};
    use crate::dnf::model::{self, Verdict};
    use crate::link::protocol::{code, decode_reply, query_bytes, status, Message, Reply};

    const CPB: u32 = 4;

    fn reply_of(driver: &mut CoreDriver, bytes: &[u8]) -> Reply {
        driver.send(bytes);
        let budget = 40 * CPB as u64 * bytes.len() as u64 + 200_000;
        let reply = driver.run_until_reply(budget).expect("the core did not reply");
        decode_reply(&reply).unwrap().0
    }

    fn assert_matches_model(reply: &Reply, verdict: &Verdict) {
        assert_eq!(reply.outcome, verdict.outcome, "outcome");
        assert_eq!((reply.rows, reply.columns), (verdict.rows, verdict.columns));
        assert_eq!(reply.cells, verdict.cells, "cells");
        assert_eq!(reply.cycles as u64, verdict.cycles, "cycles");
        assert_eq!(reply.passes, verdict.passes, "passes");
        assert_eq!(reply.options as usize, verdict.options, "options");
        if verdict.outcome == status::outcome::CONTRADICTION {
            assert_eq!(reply.detail, verdict.detail, "contradiction line");
        }
    }

    pub fn original_boards() -> Vec<(&'static str, Vec<Vec<usize>>, Vec<Vec<usize>>)> {
        let x = vec![
            vec![11],
            vec![1, 7, 1],
            vec![2, 5, 2],
            vec![3, 3, 3],
            vec![4, 1, 4],
            vec![5, 5],
            vec![4, 1, 4],
            vec![3, 3, 3],
            vec![2, 5, 2],
            vec![1, 7, 1],
            vec![11],
        ];
        vec![
            (
                "4x4",
                vec![vec![2], vec![1, 1], vec![3], vec![1]],
                vec![vec![1], vec![1, 1], vec![1, 1], vec![3]],
            ),
            (
                "5x5 D",
                vec![vec![3], vec![1, 1], vec![1, 1], vec![1, 1], vec![3]],
                vec![vec![5], vec![1, 1], vec![1, 1], vec![3], vec![]],
            ),
            (
                "6x7 heart",
                vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
                vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
            ),
            ("11x11 X", x.clone(), x),
        ]
    }

    #[test]
    fn solves_the_original_boards_end_to_end_in_both_encodings() {
        let mut driver = CoreDriver::new(CPB);
        let start = std::time::Instant::now();
        for (name, rows, columns) in original_boards() {
            let verdict = model::solve_clues(&rows, &columns);
            assert_eq!(verdict.outcome, status::outcome::SOLVED, "{name}");
            for every_cell in [false, true] {
                let reply = reply_of(&mut driver, &v1_stream(&rows, &columns, every_cell));
                assert_matches_model(&reply, &verdict);
            }
            println!(
                "{name}: {} options, {} solver cycles, {} passes",
                verdict.options, verdict.cycles, verdict.passes
            );
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "simulated {} cycles in {seconds:.2} s: {:.0} cycles/s",
            driver.cycles(),
            driver.cycles() as f64 / seconds
        );
        assert_eq!(driver.framing_errors(), 0);
    }

    #[test]
    fn random_pictures_match_the_model() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15u64);
        let mut driver = CoreDriver::new(CPB);
        let mut seen = [0usize; 3];
        for _ in 0..25 {
            let (rows, columns) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
            let (r, c) = random_clues(&mut rng, rows, columns, 55);
            let verdict = model::solve_clues(&r, &c);
            let reply = reply_of(&mut driver, &v1_stream(&r, &c, rng.below(2) == 0));
            assert_matches_model(&reply, &verdict);
            seen[verdict.outcome as usize] += 1;
        }
        // Lines of the largest length, 32 cells, both ways.
        for (rows, columns) in [(1, 32), (32, 1), (2, 32)] {
            let (r, c) = dense_picture(&mut rng, rows, columns);
            let verdict = model::solve_clues(&r, &c);
            assert_matches_model(&reply_of(&mut driver, &v1_stream(&r, &c, false)), &verdict);
        }
        // Clues that cannot all hold: a contradiction.
        let (r, c) = (vec![vec![2], vec![]], vec![vec![1], vec![]]);
        let verdict = model::solve_clues(&r, &c);
        assert_eq!(verdict.outcome, status::outcome::CONTRADICTION);
        assert_matches_model(&reply_of(&mut driver, &v1_stream(&r, &c, false)), &verdict);
        assert!(
            seen[0] > 0 && seen[2] > 0,
            "solved and stalled boards in the sample: {seen:?}"
        );
    }

    #[test]
    fn answers_a_query_with_the_build_parameters() {
        let mut driver = CoreDriver::new(CPB);
        let reply = reply_of(&mut driver, &query_bytes());
        assert_eq!(reply.outcome, status::outcome::INFO);
        assert_eq!(reply.max_line as usize, crate::common::params::MAX_LINE);
        assert_eq!(
            reply.fifo_addr_bits as usize,
            crate::common::params::FIFO_ADDR_BITS
        );
        assert_eq!(reply.max_lines as usize, crate::common::params::MAX_LINES);
        assert_eq!(reply.version, crate::link::protocol::VERSION);
        assert!(reply.cells.is_empty());
    }

    #[test]
    fn refuses_bad_streams_and_recovers_from_garbage() {
        let mut driver = CoreDriver::new(CPB);
        let (name, rows, columns) = original_boards().remove(2);
        let good = v1_stream(&rows, &columns, false);
        let verdict = model::solve_clues(&rows, &columns);
        // Too large a board: refused with OVER_CAPACITY.
        let big = [
            Message::new(code::START_BOARD, 40, false),
            Message::new(code::START_BOARD, 5, false),
        ];
        let reply = reply_of(
            &mut driver,
            &big.iter().flat_map(|m| m.to_bytes()).collect::<Vec<_>>(),
        );
        assert_eq!(
            (reply.outcome, reply.detail),
            (status::outcome::OVER_CAPACITY, status::detail::BAD_SIZE)
        );
        // A truncated board followed by silence: refused as truncated.
        let reply = reply_of(&mut driver, &good[..good.len() / 2 + 1]);
        assert_eq!(
            (reply.outcome, reply.detail),
            (status::outcome::MALFORMED, status::detail::TRUNCATED),
            "{name}"
        );
        // Garbage, then silence, then the good board: solved.
        let garbage: Vec<u8> = (0..200u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        driver.send(&garbage);
        let idle = 10 * CPB as u64 * (garbage.len() as u64 + crate::link::protocol::IDLE_TIMEOUT_BITS as u64);
        for _ in 0..idle {
            driver.step();
        }
        driver.take_received(); // whatever the garbage provoked
        assert_matches_model(&reply_of(&mut driver, &good), &verdict);
        // A new board in the middle of a reply: the reply stops at a message
        // boundary and the new board's reply follows, whole.
        driver.send(&good);
        let mut bytes = vec![];
        while bytes.len() < 4 {
            driver.step();
            bytes.extend(driver.take_received());
        }
        assert!(bytes.len() < 2 * (2 + 42), "the first reply is still going");
        driver.send(&good);
        for _ in 0..2 * 10 * CPB as u64 * good.len() as u64 + 200_000 {
            driver.step();
        }
        bytes.extend(driver.take_received());
        // What arrived is whole messages: a cut reply, then a complete one.
        assert_eq!(bytes.len() % 2, 0);
        let cut = decode_reply(&bytes);
        assert!(cut.is_err(), "the first reply was cut short");
        let at = (2..bytes.len())
            .step_by(2)
            .find(|&i| decode_reply(&bytes[i..]).is_ok())
            .expect("a whole reply");
        assert_eq!(
            Message::from_bytes([bytes[at], bytes[at + 1]]).code(),
            code::START_BOARD
        );
        let (reply, used) = decode_reply(&bytes[at..]).unwrap();
        assert_eq!(at + used, bytes.len(), "nothing after the second reply");
        assert_matches_model(&reply, &verdict);
    }

    /// Runs until the bytes from the core end with a whole reply for a
    /// `rows` × `columns` board; returns it (whatever came before is dropped),
    /// or `None` after `budget` cycles.
    fn run_until_reply_for(
        driver: &mut CoreDriver,
        rows: usize,
        columns: usize,
        budget: u64,
    ) -> Option<Reply> {
        let mut bytes = vec![];
        for _ in 0..budget {
            driver.step();
            let new = driver.take_received();
            if new.is_empty() {
                continue;
            }
            bytes.extend(new);
            for at in (0..bytes.len()).step_by(2) {
                if let Ok((reply, used)) = decode_reply(&bytes[at..]) {
                    if (reply.rows, reply.columns) == (rows, columns) && at + used == bytes.len() {
                        return Some(reply);
                    }
                }
            }
        }
        None
    }

    /// START_BOARD at every cycle offset of a solve and of the reply that
    /// follows: the abandoned board leaves nothing behind, so the next
    /// board's reply is the model's. The first board has several options on
    /// most lines, so the solver streams often. Offsets count from the cycle
    /// the solver starts; START_BOARD's abort comes two byte times after the
    /// delay at the earliest.
    #[test]
    fn start_board_at_every_cycle_offset_of_a_solve() {
        let (first_rows, first_columns) = (vec![vec![1], vec![1]], vec![vec![1], vec![1], vec![]]);
        let first = v1_stream(&first_rows, &first_columns, false);
        let (rows, columns) = (vec![vec![2], vec![1]], vec![vec![2], vec![1]]);
        let second = v1_stream(&rows, &columns, false);
        let verdict = model::solve_clues(&rows, &columns);
        let start_solving = |driver: &mut CoreDriver| {
            driver.send(&first);
            while driver.phase() != super::phase::SOLVING {
                driver.step();
            }
        };
        // The first board alone: cycles from the solver's start until all is quiet.
        let mut driver = CoreDriver::new(CPB);
        start_solving(&mut driver);
        let mut span = 0u64;
        while !driver.quiet() {
            driver.step();
            span += 1;
        }
        let first_reply = decode_reply(&driver.take_received()).unwrap().0;
        assert_matches_model(&first_reply, &model::solve_clues(&first_rows, &first_columns));
        // Past the solve only the reply is aborted (tested above): stop 160
        // cycles into it (the abort lands two byte times after the delay).
        let span = span.min(first_reply.cycles as u64 + 160);
        let mut corrupted = vec![];
        for delay in 0..span {
            let mut driver = CoreDriver::new(CPB);
            start_solving(&mut driver);
            for _ in 0..delay {
                driver.step();
            }
            driver.send(&second);
            let budget = 20 * CPB as u64 * (second.len() as u64 + 200) + 10_000;
            match run_until_reply_for(&mut driver, 2, 2, budget) {
                Some(reply) if reply.options as usize == verdict.options && reply.cells == verdict.cells => {
                    assert_matches_model(&reply, &verdict)
                }
                _ => corrupted.push(delay),
            }
        }
        println!(
            "{span} START_BOARD delays tested ({} solver cycles, {} corrupted)",
            first_reply.cycles,
            corrupted.len()
        );
        assert_eq!(
            corrupted,
            Vec::<u64>::new(),
            "delays that corrupted the next board"
        );
    }

    #[test]
    fn whole_core_verilog_synthesises_with_the_fifo_in_block_ram() {
        let mut core = super::NonogramCore::new(10417);
        rust_hdl::prelude::Block::connect_all(&mut core);
        let Some(log) = yosys_check(&core, "core") else {
            return;
        };
        let brams = yosys_cell_count(&log, "SB_RAM40_4K");
        let luts = yosys_cell_count(&log, "SB_LUT4");
        println!("core: {luts} LUT4s, {brams} block RAMs");
        // The option store and its line table, the board's two copies, and
        // the cell writer's jobs and queue.
        assert_eq!(brams, crate::common::params::FIFO_ENTRIES * 32 / 4096 + 2 + 8 + 5);
        assert!(luts < 7680, "{luts} LUT4s do not fit the HX8K");
    }
}
