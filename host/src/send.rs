//! `send`: a puzzle to a board on any serial port (the real board, the
//! simulated board, or [`crate::fake::ModelBoard`] on a pty), and the
//! board's reply as a [`Report`], finished in software when the board stalls.

use crate::link::{self, LinkConfig};
use crate::puzzle::Puzzle;
use crate::report::{plural, Report, Status};
use crate::software::{finish_by_search, SearchOptions};
use crate::wire;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::common::params::BOARD_CLOCK_HZ;
use nonogram_hdl::link::protocol::status::{detail, outcome};
use serialport::SerialPort;

/// How `send` runs.
#[derive(Clone, Debug, Default)]
pub struct SendOptions {
    /// Send the zeros of every option too.
    pub every_cell: bool,
    /// When the board stalls, do not finish the puzzle in software.
    pub no_finish: bool,
    /// The engine to use; `None` asks the board (QUERY) and takes the clue
    /// engine when it has one.
    pub engine: Option<Engine>,
    pub link: LinkConfig,
    /// The clue engine's search budget, in units of 2^20 cycles (0: line
    /// logic alone).
    pub budget: u16,
    /// How the host's search (after a stall) is bounded and shown.
    pub search: SearchOptions,
}

/// The engine for `puzzle` on a board running `running` whose flash holds
/// the `images` set: the one `forced`; else the DNF engine (the mission's
/// engine and the power-up image) when the puzzle fits it and line logic
/// decides it; else the clue engine, which also searches, when the board
/// has it; else the one running.
pub fn choose_engine(puzzle: &Puzzle, forced: Option<Engine>, running: Engine, images: u8) -> Engine {
    let available = |e: Engine| e == running || images >> e.image() & 1 == 1;
    let dnf_decides = || {
        wire::check_capacity(puzzle).is_ok()
            && crate::solver::line_solve(&puzzle.rows, &puzzle.columns).outcome
                != crate::solver::LineOutcome::Stalled
    };
    let clues_available = available(Engine::Clues) || available(Engine::Probing);
    match forced {
        Some(e) => e,
        None if available(Engine::Dnf) && (!clues_available || dnf_decides()) => Engine::Dnf,
        None if available(Engine::Probing) && (fits_probing(puzzle) || !available(Engine::Clues)) => {
            Engine::Probing
        }
        None if available(Engine::Clues) => Engine::Clues,
        None => running,
    }
}

/// Whether the puzzle fits the probing engine's side (image 2, the clue
/// engine's better search, which `choose_engine` prefers where it fits).
pub fn fits_probing(puzzle: &Puzzle) -> bool {
    puzzle.width().max(puzzle.height()) <= Engine::Probing.clue_side()
}

pub(crate) fn refusal_text(d: u8) -> &'static str {
    match d {
        detail::BAD_SIZE => "bad size",
        detail::UNEXPECTED => "a message where the protocol does not allow it",
        detail::CELL_OUT_OF_LINE => "a cell outside its line",
        detail::WRONG_LINE => "a line out of order, or END_BOARD too early",
        detail::FIFO_FULL => "the option FIFO is full",
        detail::TRUNCATED => "the stream stopped in the middle of a message",
        detail::FRAMING => "a byte arrived with a framing error",
        detail::NO_ENGINE => "the board has no engine for this protocol version (try --engine)",
        detail::TOO_MANY_BLOCKS => "too many blocks for the clue engine",
        detail::BAD_INK => {
            "no inks, more inks than the board takes, or a block of an ink the board was not told of"
        }
        _ => "no detail",
    }
}

/// `send`: refuses a puzzle over capacity, sends it on `port`, and turns
/// the board's reply into a report (finishing a stalled board in software
/// unless `no_finish`). The port must already be set to the right baud.
pub fn send_board(puzzle: &Puzzle, mut port: Box<dyn SerialPort>, options: &SendOptions) -> Report {
    let mut report = Report::new(puzzle, Status::Error);
    report.baud = Some(options.link.baud);
    // Ask the board what it runs and what its flash holds. A board that
    // does not answer QUERY (the original design's) has the DNF engine.
    let mut info = match link::query(port.as_mut(), &options.link) {
        Ok(info) => Some(info),
        Err(e) if options.link.answers_query => {
            return report.with_error(format!(
                "the simulated board did not answer QUERY (is it stopped?): {e}"
            ))
        }
        Err(_) => None,
    };
    let (running, images) = info.as_ref().map_or((Engine::Dnf, 0), link::running);
    let engine = choose_engine(puzzle, options.engine, running, images);
    report.engine = Some(engine.name().into());
    if info.is_some() && engine != running {
        if images >> engine.image() & 1 == 0 {
            report.status = Status::OverCapacity;
            report.message = Some(if images == 0 {
                format!(
                    "this board has the {} engine only (its flash holds no {} image)",
                    running.name(),
                    engine.name()
                )
            } else {
                format!(
                    "this board's flash holds no {} image (it runs the {} engine)",
                    engine.name(),
                    running.name()
                )
            });
            return report;
        }
        match link::switch_engine(port.as_mut(), engine, &options.link) {
            Ok(new_info) => info = Some(new_info),
            Err(e) => return report.with_error(e),
        }
        report.switched_from = Some(running.name().into());
    }
    let fits = match engine {
        Engine::Dnf => wire::check_capacity(puzzle),
        Engine::Clues | Engine::Probing | Engine::Colour => {
            // Capacity from the board's INFO when it sent one.
            use nonogram_hdl::clue::clue_model::CLUE_STORE_BLOCKS;
            let max_side = info.as_ref().map_or(engine.clue_side(), |i| i.max_line as usize);
            let store = info
                .as_ref()
                .map_or(CLUE_STORE_BLOCKS, |i| 1usize << i.clue_store_bits.min(16));
            wire::check_clue_capacity(puzzle, max_side, store)
        }
    };
    if let Err(over) = fits {
        report.status = Status::OverCapacity;
        report.message = Some(over.message);
        return report;
    }
    let exchange = match link::send_puzzle(
        port.as_mut(),
        puzzle,
        engine,
        options.every_cell,
        options.budget,
        options.search.first,
        &options.link,
    ) {
        Ok(e) => e,
        Err(e) => return report.with_error(e),
    };
    report_reply(puzzle, report, &exchange, options.no_finish, &options.search).check_goal()
}

/// Turns a board's reply into a report.
pub fn report_reply(
    puzzle: &Puzzle,
    mut report: Report,
    ex: &link::Exchange,
    no_finish: bool,
    search: &SearchOptions,
) -> Report {
    let reply = &ex.reply;
    let (w, h) = (puzzle.width(), puzzle.height());
    report.bytes_sent = Some(ex.bytes_sent);
    report.reply_bytes = Some(ex.reply_bytes.len());
    report.send_seconds = Some(ex.send_seconds);
    report.link_seconds = Some(ex.link_seconds);
    report.cycles = Some(reply.cycles);
    report.board_seconds = Some(reply.cycles as f64 / BOARD_CLOCK_HZ as f64);
    report.passes = Some(reply.passes);
    report.board_options = Some(reply.options);
    if matches!(report.engine.as_deref(), Some("clues" | "probing")) {
        report.board_nodes = Some(reply.nodes);
        report.board_backtracks = Some(reply.backtracks);
    }
    let searched = reply.nodes > 0;
    let search_text = format!(
        "the board searched {} with {}",
        plural(reply.nodes as u64, "node", "nodes"),
        plural(reply.backtracks as u64, "backtrack", "backtracks")
    );
    match reply.outcome {
        outcome::OVER_CAPACITY => {
            report.status = Status::OverCapacity;
            report.message = Some(format!("the board refused it: {}", refusal_text(reply.detail)));
            return report;
        }
        outcome::MALFORMED => {
            report.status = Status::Malformed;
            report.message = Some(format!(
                "{} (the reply: {})",
                refusal_text(reply.detail),
                link::hex(&ex.reply_bytes)
            ));
            return report;
        }
        outcome::SOLVED | outcome::STALLED | outcome::CONTRADICTION | outcome::SEVERAL | outcome::GAVE_UP => {
        }
        outcome::INFO => return report.with_error("the board sent an INFO reply instead of a board"),
        o => return report.with_error(format!("the board sent an unknown outcome {o}")),
    }
    if (reply.rows, reply.columns) != (h, w) {
        return report.with_error(format!(
            "the board answered for a {} x {} board, not {w} x {h} (columns x rows)",
            reply.columns, reply.rows
        ));
    }
    let cells = if reply.cells.is_empty() {
        vec![None; w * h]
    } else {
        reply.cells.clone()
    };
    report.set_cells(cells.clone());
    match reply.outcome {
        outcome::SOLVED => {
            report.line_logic = Some(if searched { "stalled" } else { "solved" }.into());
            let Some(picture) = cells.iter().copied().collect::<Option<Vec<bool>>>() else {
                return report.with_error("the board says solved but sent unknown cells");
            };
            if let Err(e) = puzzle.check_solution(&picture) {
                return report.with_error(format!(
                    "the board says solved but its picture breaks the clues: {e}"
                ));
            }
            report.status = Status::Solved;
            report.solutions = Some(1);
            report.uniqueness_checked = Some(true);
            report.solved_by = Some("board".into());
            if searched && reply.detail == nonogram_hdl::clue::clue_model::FIRST_FOUND {
                report.solutions = None;
                report.uniqueness_checked = Some(false);
                report.message = Some(format!(
                    "{search_text}: a solution (first-solution mode: uniqueness not checked)"
                ));
            } else if searched {
                report.message = Some(format!("{search_text}: the solution is unique"));
            }
        }
        outcome::SEVERAL => {
            report.line_logic = Some("stalled".into());
            let first: Option<Vec<bool>> = cells.iter().copied().collect();
            let Some(first) = first.filter(|_| reply.differs.len() == w * h) else {
                return report.with_error("the board says several solutions but sent an incomplete pair");
            };
            let second: Vec<bool> = first.iter().zip(&reply.differs).map(|(a, d)| a ^ d).collect();
            for (name, grid) in [("first", &first), ("second", &second)] {
                if let Err(e) = puzzle.check_solution(grid) {
                    return report.with_error(format!(
                        "the board says several solutions but its {name} breaks the clues: {e}"
                    ));
                }
            }
            if first == second {
                return report.with_error("the board says several solutions but sent the same one twice");
            }
            report.status = Status::SeveralSolutions;
            report.uniqueness_checked = Some(true);
            report.solutions = Some(2);
            report.solved_by = Some("board".into());
            report.message = Some(format!("{search_text}: two solutions or more"));
            report.set_other(second);
        }
        outcome::CONTRADICTION => {
            report.status = Status::NoSolution;
            report.solutions = Some(0);
            let line = reply.detail as usize;
            if searched {
                report.line_logic = Some("stalled".into());
                report.solved_by = Some("board".into());
                report.message = Some(format!("{search_text}: no guess led to a solution"));
            } else {
                report.line_logic = Some("contradiction".into());
                report.solved_by = Some("board".into());
                report.message = Some(if line < w + h {
                    format!("{} lost all its options", puzzle.line_name(line))
                } else {
                    "a line lost all its options".into()
                });
            }
        }
        _ => {
            // The board stalled (line logic alone), or its search gave up
            // and sent line logic's cells: the host finishes from those.
            report.line_logic = Some("stalled".into());
            let unknown = cells.iter().filter(|c| c.is_none()).count();
            let (status, before) = if reply.outcome == outcome::GAVE_UP {
                use nonogram_hdl::clue::clue_model::{TRAIL_ENTRIES, TRAIL_RAN_OUT};
                let why = if reply.detail == TRAIL_RAN_OUT {
                    format!(
                        "gave up: {unknown} unknown cells are more than its undo trail holds ({TRAIL_ENTRIES}; \
                         the host searches them instead)"
                    )
                } else {
                    "ran out of its budget (--budget sets it)".to_string()
                };
                (Status::GaveUp, format!("{search_text} and {why}; line logic"))
            } else {
                (Status::Stalled, "the board stalled and".to_string())
            };
            if no_finish {
                report.status = status;
                report.message = Some(format!(
                    "{before} left {} unknown",
                    plural(unknown as u64, "cell", "cells")
                ));
                return report;
            }
            return finish_by_search(puzzle, report, &cells, "board+host", &before, search);
        }
    }
    report
}
