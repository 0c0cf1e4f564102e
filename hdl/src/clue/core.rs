//! The clue engine's core (protocol v2): UART in, the v2 parser, the clue
//! engine, the v2 reply assembler, UART out. Same pins and status outputs as
//! the DNF core (`core.rs`), so the board's top level and the simulated
//! board take either. The two do not fit the HX8K together (README, "Two
//! bitstreams"), so each is a bitstream of its own.

use crate::clue::parser::ClueParser;
use crate::clue::reply::ClueReply;
use crate::clue::solver::ClueSolver;
use crate::constant;
use crate::dnf::core::phase;
use crate::link::protocol::image;
use crate::link::protocol::status::outcome;
use crate::link::uart_rx::UartRx;
use crate::link::uart_tx::UartTx;
use crate::link::warm_boot::WarmBoot;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ClueCore {
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
    engine: ClueSolver,
    reply: ClueReply,
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

impl ClueCore {
    /// A core whose UART runs at `clock / clocks_per_bit` baud (≥ 4 clocks per bit).
    pub fn new(clocks_per_bit: u32) -> ClueCore {
        ClueCore {
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
            parser: ClueParser::new(clocks_per_bit),
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

impl Logic for ClueCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, outcome_q, outcome_valid_q, phase_q, tx_busy);
        self.uart_rx.clock.next = self.clock.val();
        self.parser.clock.next = self.clock.val();
        self.engine.clock.next = self.clock.val();
        self.reply.clock.next = self.clock.val();
        self.uart_tx.clock.next = self.clock.val();
        self.warm_boot.clock.next = self.clock.val();

        // Host → parser → the engine's clue store.
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
        self.engine.budget.next = self.parser.budget.val();
        self.engine.first_only.next = self.parser.first_only.val();
        self.engine.clue_write.next = self.parser.clue_write.val();
        self.engine.clue_address.next = self.parser.clue_address.val();
        self.engine.clue_length.next = self.parser.clue_length.val();
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
        self.reply.solver_outcome.next = self.engine.outcome.val();
        self.reply.board_cells.next = self.engine.board_cells.val();
        self.reply.all_known.next = self.engine.all_known.val();
        self.reply.detail.next = self.engine.detail.val();
        self.reply.cycles.next = self.engine.cycles.val();
        self.reply.passes.next = self.engine.passes.val();
        self.reply.nodes.next = self.engine.nodes.val();
        self.reply.backtracks.next = self.engine.backtracks.val();
        self.reply.refuse_outcome.next = self.parser.refuse_outcome.val();
        self.reply.refuse_detail.next = self.parser.refuse_detail.val();
        self.engine.read_row.next = self.reply.read_row.val();
        self.engine.read_value.next = self.reply.read_value.val();
        self.engine.read_differs.next = self.reply.read_differs.val();
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

        // Status for LEDs and the simulated board (registered, as in core.rs;
        // from a register of the transmitter's `ready`, whose timer compare
        // on this path missed 100 MHz on a nextpnr seed).
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
mod tests {
    use super::*;
    use crate::bench::boards::{random_clues, Clues, Rng};
    use crate::bench::driver::CoreDriver;
    use crate::board_model::{BoardModel, Engine};
    use crate::clue::clue_protocol::{decode_reply, encode_board};
    use crate::link::protocol::{code, query_bytes, status, Message, IDLE_TIMEOUT_BITS};

    const CPB: u32 = 4;

    fn stream(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> Vec<u8> {
        let mut out = vec![];
        encode_board(rows, columns, 0, &mut out);
        out
    }

    fn messages(list: &[(u8, u16, bool)]) -> Vec<u8> {
        list.iter()
            .flat_map(|&(c, i, v)| Message::new(c, i, v).to_bytes())
            .collect()
    }

    /// Sends `bytes`, lets the line go idle, and returns what the core said.
    fn core_answer(driver: &mut CoreDriver<ClueCore>, bytes: &[u8], max_cycles: u64) -> Vec<u8> {
        driver.send(bytes);
        let idle = (IDLE_TIMEOUT_BITS as u64 + 4) * CPB as u64;
        let mut out = vec![];
        let mut cycles = 0;
        loop {
            driver.step();
            cycles += 1;
            out.extend(driver.take_received());
            if driver.quiet() && cycles > 10 * CPB as u64 * bytes.len() as u64 + idle {
                return out;
            }
            assert!(
                cycles < max_cycles,
                "the core is still busy after {max_cycles} cycles"
            );
        }
    }

    /// The core's reply to each stream is the board model's, byte for byte
    /// (cells, cycles and passes included).
    fn check(driver: &mut CoreDriver<ClueCore>, name: &str, bytes: &[u8]) {
        let mut model = BoardModel::new(Engine::Clues);
        let mut expected = model.bytes(bytes);
        expected.extend(model.idle().unwrap_or_default());
        let got = core_answer(driver, bytes, 5_000_000);
        assert_eq!(got, expected, "{name}: the core and the model disagree");
    }

    /// The examples of docs/protocol.md ("Protocol v2"), byte for byte.
    #[test]
    fn answers_the_documented_examples() {
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let one = core_answer(&mut driver, &stream(&[vec![1]], &[vec![1]]), 1_000_000);
        assert_eq!(one[..6], [0xE0, 0x03, 0xE0, 0x03, 0xB0, 0x00]);
        assert_eq!(one.len(), 6 + 2 * (15 + 8) + 2);
        // Two solutions (the diagonals), a budget of one unit.
        let mut bytes = vec![];
        encode_board(&[vec![1], vec![1]], &[vec![1], vec![1]], 1, &mut bytes);
        assert_eq!(bytes[bytes.len() - 2..], [0x00, 0x02]);
        check(&mut driver, "two diagonals", &bytes);
        let two = core_answer(&mut driver, &bytes, 1_000_000);
        assert_eq!(
            two[..10],
            [0xE0, 0x05, 0xE0, 0x05, 0xB2, 0x00, 0x5E, 0x00, 0x80, 0x0C]
        );
        let reply = decode_reply(&two).unwrap().0;
        assert_eq!(
            (reply.outcome, reply.nodes, reply.backtracks),
            (status::outcome::SEVERAL, 2, 1)
        );
        assert_eq!(two[two.len() - 2..], [0x00, 0x00]);
    }

    #[test]
    fn solves_boards_like_the_model() {
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let heart: (Clues, Clues) = (
            vec![vec![2, 2], vec![3, 3], vec![7], vec![5], vec![3], vec![1]],
            vec![vec![2], vec![4], vec![5], vec![4], vec![5], vec![4], vec![2]],
        );
        check(&mut driver, "heart", &stream(&heart.0, &heart.1));
        let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&stream(&heart.0, &heart.1)));
        let reply = reply.unwrap().0;
        assert_eq!((reply.outcome, reply.cycles), (status::outcome::SOLVED, 854));
        let mut rng = Rng(2026);
        let mut outcomes = [0usize; 3];
        for (rows, columns, density) in [
            (1, 1, 50),
            (5, 5, 50),
            (7, 11, 60),
            (13, 13, 50),
            (20, 20, 55),
            (10, 30, 50),
        ] {
            for _ in 0..3 {
                let (r, c) = random_clues(&mut rng, rows, columns, density);
                let bytes = stream(&r, &c);
                let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
                    .unwrap()
                    .0;
                outcomes[reply.outcome as usize] += 1;
                check(&mut driver, &format!("random {rows}x{columns}"), &bytes);
            }
        }
        // Clues of random pictures shuffled between lines: mostly contradictions.
        for _ in 0..4 {
            let (mut r, c) = random_clues(&mut rng, 9, 9, 50);
            r.rotate_left(1);
            check(&mut driver, "shuffled 9x9", &stream(&r, &c));
        }
        println!("solved / contradiction / stalled among the random pictures: {outcomes:?}");
        assert!(
            outcomes[0] > 0 && outcomes[2] > 0,
            "both kinds checked: {outcomes:?}"
        );
    }

    /// First-solution mode (END_BOARD's value bit): the core stops at the
    /// first solution its search finds, SOLVED with DETAIL 1, byte for byte
    /// and cycle for cycle the model's; boards line logic decides, and
    /// boards without a solution, answer as in uniqueness mode.
    #[test]
    fn first_solution_mode_stops_at_the_first_solution_like_the_model() {
        use crate::clue::clue_model::{first_solution, FIRST_FOUND};
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let mut rng = Rng(0xf125);
        let mut by_search = 0;
        for i in 0..24 {
            let (r, mut c) = random_clues(&mut rng, 5 + i % 6, 5 + i % 5, 50);
            if i % 8 == 7 {
                c.rotate_left(1);
            }
            let mut bytes = vec![];
            crate::clue::clue_protocol::encode_search(&r, &c, 8, true, &mut bytes);
            let v = first_solution(&r, &c, 8);
            by_search += (v.detail == FIRST_FOUND) as usize;
            check(&mut driver, &format!("first solution, board {i}"), &bytes);
        }
        assert!(by_search >= 4, "{by_search} found by search");
    }

    /// Replies whose cells were left by a search or by an earlier board:
    /// the VALUES map carries 0 at every unknown cell, as the protocol
    /// says, so the bytes are the model's. Small boards with a search
    /// budget (several solutions, none found by search); then a 64×64
    /// line logic cannot start on, after a dense 64×64 filled the memory:
    /// more unknown cells than the undo trail holds, so GAVE_UP at once.
    #[test]
    fn values_are_zero_wherever_a_cell_is_unknown() {
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let mut rng = Rng(0x7a1_0e5);
        let mut outcomes = [0usize; 8];
        for trial in 0..24 {
            let (r, mut c) = random_clues(&mut rng, 6, 6, 50);
            if trial % 2 == 1 {
                c = random_clues(&mut rng, 6, 6, 50).1;
            }
            let mut bytes = vec![];
            encode_board(&r, &c, 1, &mut bytes);
            let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
                .unwrap()
                .0;
            outcomes[reply.outcome as usize] += 1;
            check(&mut driver, &format!("6x6 with search, trial {trial}"), &bytes);
        }
        println!("outcomes of the searched boards: {outcomes:?}");
        assert!(outcomes[1] > 0 && outcomes[6] > 0, "{outcomes:?}");
        let (r, c) = random_clues(&mut rng, 64, 64, 85);
        check(&mut driver, "dense 64x64", &stream(&r, &c));
        let ones: Clues = vec![vec![1]; 64];
        let mut bytes = vec![];
        encode_board(&ones, &ones, 1, &mut bytes);
        let reply = decode_reply(&BoardModel::new(Engine::Clues).bytes(&bytes))
            .unwrap()
            .0;
        assert_eq!(reply.outcome, status::outcome::GAVE_UP);
        check(&mut driver, "64x64 of single cells (GAVE_UP)", &bytes);
    }

    #[test]
    fn a_board_of_sixty_four_by_sixty_four() {
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let mut rng = Rng(64);
        let (r, c) = random_clues(&mut rng, 64, 64, 70);
        check(&mut driver, "random 64x64", &stream(&r, &c));
    }

    #[test]
    fn answers_a_query_and_refuses_what_breaks_the_protocol() {
        let mut driver = CoreDriver::<ClueCore>::with_core(CPB);
        let (sb, sl, b, eb) = (code::START_BOARD, code::START_LINE, code::ASSIGN, code::END_BOARD);
        let info = BoardModel::new(Engine::Clues).bytes(&query_bytes());
        let reply = decode_reply(&info).unwrap().0;
        assert_eq!(
            (reply.outcome, reply.version, reply.engines),
            (status::outcome::INFO, 2, 0x32)
        );
        assert_eq!(
            (reply.max_line, reply.max_lines, reply.clue_store_bits),
            (64, 128, 11)
        );
        check(&mut driver, "query", &query_bytes());
        let header = |r: u16, c: u16| vec![(sb, r, true), (sb, c, true)];
        let line = |i: u16| (sl, i, false);
        let one = |n: u16| (b, (n - 1) << 6, false);
        let mut thirty_three = vec![line(0)];
        thirty_three.extend((0..17).map(|_| (b, 0, true)));
        let cases: Vec<(&str, Vec<(u8, u16, bool)>)> = vec![
            ("a board of options (v1)", vec![(sb, 2, false), (sb, 2, false)]),
            ("zero columns", header(3, 0)),
            ("65 rows", header(65, 3)),
            ("blocks before a line", [header(2, 2), vec![one(1)]].concat()),
            ("line out of order", [header(2, 2), vec![line(1)]].concat()),
            ("line skipped", [header(2, 2), vec![line(0), line(2)]].concat()),
            (
                "END_BOARD early",
                [header(2, 2), vec![line(0), line(0), (eb, 0, false)]].concat(),
            ),
            (
                "a line too many",
                [header(1, 1), vec![line(0), line(0), line(0)]].concat(),
            ),
            ("33 blocks in a line", [header(2, 64), thirty_three].concat()),
            (
                "END_LINE (v1 only)",
                [header(2, 2), vec![line(0), (code::END_LINE, 0, false)]].concat(),
            ),
            (
                "cut in the middle",
                [header(2, 2), vec![line(0), one(2)]].concat(),
            ),
            ("lone START_BOARD then BLOCKS", vec![(sb, 2, true), one(1)]),
        ];
        for (name, list) in cases {
            check(&mut driver, name, &messages(&list));
        }
        // A board of every line 32 blocks: 4 096 > the store's 2 048.
        let full: Clues = vec![vec![1; 32]; 64];
        check(&mut driver, "clue store full", &stream(&full, &full));
        // After all that, a good board still solves.
        check(&mut driver, "a 1x1 after", &stream(&[vec![1]], &[vec![1]]));
    }
}
