//! `send` for a colour puzzle: its clues to the board's colour engine
//! (protocol v3, flash image 3), and the reply as a [`ColourReport`], held
//! against the clues as the black-and-white one is ([`crate::send`]).
//!
//! No flash holds the colour image yet (its gateware is not built), so a
//! real or simulated board refuses here, before anything is sent, naming
//! what its flash holds; the model board with the colour engine
//! ([`crate::fake::ModelBoard`]) answers as the image will.

use super::report::{solve_colour, ColourReport};
use super::search::Found;
use super::{engine_clues, ColourPuzzle, Rule};
use crate::link;
use crate::report::{plural, Status};
use crate::send::{refusal_text, SendOptions};
use crate::solver::LineOutcome;
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::clue::clue_model::{BUDGET_UNIT_BITS, CLUE_STORE_BLOCKS, FIRST_FOUND, MAX_BLOCKS_PER_LINE};
use nonogram_hdl::colour::colour_protocol::{self as v3, ColourReply};
use nonogram_hdl::colour::ENGINE_INKS;
use nonogram_hdl::common::params::BOARD_CLOCK_HZ;
use nonogram_hdl::link::protocol::status::outcome;
use serialport::SerialPort;
use std::time::Duration;

/// Whether the colour engine takes the puzzle: webpbn's block rule, at
/// most its side and inks, and blocks its clue store holds.
pub fn check_capacity(puzzle: &ColourPuzzle) -> Result<(), String> {
    let side = Engine::Colour.clue_side();
    let inks = puzzle.colours.len().saturating_sub(1);
    let blocks: usize = puzzle.rows.iter().chain(&puzzle.columns).map(Vec::len).sum();
    let longest = puzzle
        .rows
        .iter()
        .chain(&puzzle.columns)
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    if puzzle.rule != Rule::Blocks {
        Err("the colour engine takes block clues (webpbn's rule), not TPDNE's counts".into())
    } else if puzzle.width() > side || puzzle.height() > side {
        Err(format!(
            "{} × {} is more than the colour engine's {side} × {side}",
            puzzle.width(),
            puzzle.height()
        ))
    } else if inks > ENGINE_INKS {
        Err(format!(
            "{inks} inks are more than the colour engine's {ENGINE_INKS}"
        ))
    } else if longest > MAX_BLOCKS_PER_LINE || blocks > CLUE_STORE_BLOCKS {
        Err(format!(
            "a line of {longest} blocks, {blocks} in all: the colour engine holds {MAX_BLOCKS_PER_LINE} a line, {CLUE_STORE_BLOCKS} in all"
        ))
    } else {
        Ok(())
    }
}

/// Sends `puzzle` to the board's colour engine on `port` (switching to its
/// image if the flash holds it) and reports the answer. A board that
/// stalls or gives up is finished by the host's colour solver, from the
/// clues, unless `no_finish`.
pub fn send_colour(
    puzzle: &ColourPuzzle,
    mut port: Box<dyn SerialPort>,
    options: &SendOptions,
) -> ColourReport {
    let mut report = ColourReport {
        engine: Some(Engine::Colour.name().into()),
        ..ColourReport::blank(puzzle)
    };
    let hint = "`nonohost solve` solves colour puzzles in software";
    if let Err(why) = check_capacity(puzzle) {
        report.status = Status::OverCapacity;
        report.message = Some(format!("{why}; {hint}"));
        return report;
    }
    let info = match link::query(port.as_mut(), &options.link) {
        Ok(info) => info,
        Err(e) => return with_error(report, e),
    };
    let (running, images) = link::running(&info);
    if running != Engine::Colour {
        if images >> Engine::Colour.image() & 1 == 0 {
            report.status = Status::OverCapacity;
            report.message = Some(format!(
                "this board's flash holds no colour image (image {}; it runs the {} engine); {hint}",
                Engine::Colour.image(),
                running.name()
            ));
            return report;
        }
        if let Err(e) = link::switch_engine(port.as_mut(), Engine::Colour, &options.link) {
            return with_error(report, e);
        }
    }
    let inks = puzzle.colours.len() - 1;
    let mut bytes = Vec::new();
    let (rows, columns) = (engine_clues(&puzzle.rows), engine_clues(&puzzle.columns));
    v3::encode_board(
        &rows,
        &columns,
        inks,
        options.budget,
        options.search.first,
        &mut bytes,
    );
    let timeout = options.link.reply_timeout.unwrap_or_else(|| {
        let search = (options.budget as u64) << BUDGET_UNIT_BITS;
        link::reply_timeout(puzzle.height(), puzzle.width(), 0, options.link.baud)
            + Duration::from_secs_f64(search as f64 / BOARD_CLOCK_HZ as f64)
    });
    let exchange = match link::exchange(port.as_mut(), &bytes, timeout, &options.link) {
        Ok(e) => e,
        Err(e) => return with_error(report, e),
    };
    report.bytes_sent = Some(exchange.bytes_sent);
    match v3::decode_reply(&exchange.reply_bytes) {
        Ok((reply, _)) => report_reply(puzzle, report, &reply, options),
        Err(e) => with_error(
            report,
            format!(
                "the board's reply is not protocol v3 ({e}): {}",
                link::hex(&exchange.reply_bytes)
            ),
        ),
    }
}

fn with_error(mut report: ColourReport, e: impl std::fmt::Display) -> ColourReport {
    report.status = Status::Error;
    report.error = Some(e.to_string());
    report
}

/// Turns the colour engine's reply into a report.
fn report_reply(
    puzzle: &ColourPuzzle,
    blank: ColourReport,
    reply: &ColourReply,
    options: &SendOptions,
) -> ColourReport {
    let mut report = blank;
    let s = &reply.status;
    let bytes_sent = report.bytes_sent;
    let board = |mut r: ColourReport| {
        r.engine = Some(Engine::Colour.name().into());
        r.bytes_sent = bytes_sent;
        r.cycles = Some(s.cycles);
        r.board_seconds = Some(s.cycles as f64 / BOARD_CLOCK_HZ as f64);
        r.board_nodes = Some(s.nodes);
        r.board_backtracks = Some(s.backtracks);
        r
    };
    match s.outcome {
        outcome::OVER_CAPACITY | outcome::MALFORMED => {
            report.status = if s.outcome == outcome::MALFORMED {
                Status::Malformed
            } else {
                Status::OverCapacity
            };
            report.message = Some(format!("the board refused it: {}", refusal_text(s.detail)));
            return report;
        }
        outcome::SOLVED | outcome::SEVERAL | outcome::CONTRADICTION | outcome::STALLED | outcome::GAVE_UP => {
        }
        o => return with_error(report, format!("the board sent outcome {o} instead of a board")),
    }
    let (w, h) = (puzzle.width(), puzzle.height());
    if (s.rows, s.columns, reply.cells.len()) != (h, w, w * h) {
        return with_error(
            report,
            format!(
                "the board answered for a {} × {} board, not {w} × {h}",
                s.columns, s.rows
            ),
        );
    }
    let searched = s.nodes > 0;
    let search_text = format!(
        "the board searched {} with {}",
        plural(s.nodes as u64, "node", "nodes"),
        plural(s.backtracks as u64, "backtrack", "backtracks")
    );
    let picture = |cells: &[u8]| -> Option<Vec<u8>> {
        cells
            .iter()
            .map(|&c| (c.count_ones() == 1).then(|| c.trailing_zeros() as u8))
            .collect()
    };
    let mut found = Found {
        count: 0,
        first: None,
        second: None,
        nodes: s.nodes as u64,
        gave_up: false,
        by_sat: false,
        line_logic: Some(if searched {
            LineOutcome::Stalled
        } else {
            LineOutcome::Solved
        }),
        line_cells: reply.cells.iter().map(|&c| c as u32).collect(),
    };
    let message = match s.outcome {
        outcome::SOLVED | outcome::SEVERAL => {
            let first = picture(&reply.cells);
            let second = (s.outcome == outcome::SEVERAL)
                .then(|| picture(&reply.second))
                .flatten();
            let (Some(first), true) = (first, s.outcome == outcome::SOLVED || second.is_some()) else {
                return with_error(report, "the board says solved but sent undecided cells");
            };
            for (name, grid) in
                std::iter::once(("solution", &first)).chain(second.iter().map(|g| ("second", g)))
            {
                if let Err(e) = puzzle.check_solution(grid) {
                    return with_error(report, format!("the board's {name} breaks the clues: {e}"));
                }
            }
            if second.as_ref() == Some(&first) {
                return with_error(report, "the board says several solutions but sent one twice");
            }
            found.count = 1 + second.is_some() as usize;
            found.first = Some(first);
            found.second = second;
            match (searched, s.outcome, s.detail) {
                (false, _, _) => None,
                (true, outcome::SOLVED, FIRST_FOUND) => Some(format!(
                    "{search_text}: a solution (first-solution mode: uniqueness not checked)"
                )),
                (true, outcome::SOLVED, _) => Some(format!("{search_text}: the solution is unique")),
                _ => Some(format!("{search_text}: two solutions or more")),
            }
        }
        outcome::CONTRADICTION if searched => Some(format!("{search_text}: no guess led to a solution")),
        outcome::CONTRADICTION => {
            found.line_logic = Some(LineOutcome::Contradiction);
            let line = s.detail as usize;
            Some(if line < w + h {
                format!("{} has no fill", puzzle.line_name(line))
            } else {
                "a line has no fill".into()
            })
        }
        _ => {
            // Stalled, or the board's search gave up: the host finishes.
            let undecided = reply.cells.iter().filter(|c| c.count_ones() != 1).count();
            let before = if s.outcome == outcome::GAVE_UP {
                format!("{search_text} and gave up")
            } else {
                "the board stalled".into()
            };
            if options.no_finish {
                report.status = if s.outcome == outcome::GAVE_UP {
                    Status::GaveUp
                } else {
                    Status::Stalled
                };
                report.line_logic = Some("stalled".into());
                report.cells = found.line_cells;
                report.rows = super::report::rows_text(puzzle, &report.cells);
                report.message = Some(format!(
                    "{before}, {} undecided",
                    plural(undecided as u64, "cell", "cells")
                ));
                return board(report);
            }
            let mut r = solve_colour(puzzle, &options.search);
            if matches!(
                r.status,
                Status::Solved | Status::SeveralSolutions | Status::NoSolution
            ) {
                r.solved_by = Some("board+host".into());
            }
            let then = r.message.take().map(|m| format!(": {m}")).unwrap_or_default();
            r.message = Some(format!("{before}; the host solved it from the clues{then}"));
            return board(r);
        }
    };
    let mut r = ColourReport::from_found(puzzle, found, options.search.first && s.detail == FIRST_FOUND);
    if r.status != Status::Error {
        r.solved_by = Some("board".into());
    }
    if message.is_some() {
        r.message = message;
    }
    board(r)
}
