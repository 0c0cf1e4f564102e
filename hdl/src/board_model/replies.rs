//! The replies the modelled board sends, byte for byte as the gateware
//! sends them: the DNF engine's (protocol v1), the clue engines' (protocol
//! v2) and the colour engine's (protocol v3), refusals and INFO.

use super::Engine;
use crate::clue::clue_model::ClueVerdict;
use crate::colour::model::ColourVerdict;
use crate::common::params::{FIFO_ADDR_BITS, MAX_LINE, MAX_LINES};
use crate::dnf::model::Verdict;
use crate::link::protocol::status::{detail, engines, field, outcome};
use crate::link::protocol::{code, image, Message, VERSION};

fn push(out: &mut Vec<u8>, m: Message) {
    out.extend_from_slice(&m.to_bytes());
}

/// Clock cycles the board reports: the reference model's count of the
/// gateware's cycles, saturating at 32 bits.
pub fn model_cycles(verdict: &Verdict) -> u32 {
    verdict.cycles.min(u32::MAX as u64) as u32
}

/// The reply frame for a solved, stalled or contradictory board, as the
/// gateware sends it: START_BOARD m, START_BOARD n, m·n ASSIGN/UNKNOWN
/// (index r·n + c), the STATUS fields 0..=12 in order, END_BOARD.
pub fn encode_reply(verdict: &Verdict) -> Vec<u8> {
    if verdict.cells.is_empty() {
        return refusal(verdict.outcome, verdict.detail);
    }
    let mut out = Vec::new();
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.rows as u16, false),
    );
    push(
        &mut out,
        Message::new(code::START_BOARD, verdict.columns as u16, false),
    );
    for (i, cell) in verdict.cells.iter().enumerate() {
        let m = match cell {
            Some(v) => Message::new(code::ASSIGN, i as u16, *v),
            None => Message::new(code::UNKNOWN, i as u16, false),
        };
        push(&mut out, m);
    }
    let (o, d, passes, options) = (
        verdict.outcome,
        verdict.detail,
        verdict.passes,
        verdict.options as u16,
    );
    status_fields(&mut out, o, d, model_cycles(verdict), passes, options);
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

fn status_fields(out: &mut Vec<u8>, o: u8, d: u8, cycles: u32, passes: u8, options: u16) {
    push(out, Message::status(field::OUTCOME, o));
    push(out, Message::status(field::DETAIL, d));
    for (i, b) in cycles.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::CYCLES_0 + i as u8, *b));
    }
    push(out, Message::status(field::PASSES, passes));
    for (i, b) in options.to_le_bytes().iter().enumerate() {
        push(out, Message::status(field::OPTIONS_0 + i as u8, *b));
    }
    push(out, Message::status(field::MAX_LINE, MAX_LINE as u8));
    push(out, Message::status(field::FIFO_ADDR_BITS, FIFO_ADDR_BITS as u8));
    push(out, Message::status(field::VERSION, VERSION));
    push(out, Message::status(field::MAX_LINES, MAX_LINES as u8));
}

/// A reply without cells (m = n = 0): the board was refused.
pub fn refusal(o: u8, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    status_fields(&mut out, o, d, 0, 0, 0);
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

/// The INFO reply to a QUERY: the build parameters (m = n = 0, no cells),
/// and field 13, ENGINES: this image's engine and the flash's images.
pub fn info_reply() -> Vec<u8> {
    let mut out = Vec::new();
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    push(&mut out, Message::new(code::START_BOARD, 0, false));
    status_fields(&mut out, outcome::INFO, detail::NONE, 0, 0, 0);
    push(
        &mut out,
        Message::status(field::ENGINES, image::engines_field(engines::DNF, image::FLASH)),
    );
    push(&mut out, Message::new(code::END_BOARD, 0, false));
    out
}

/// The STATUS fields of a v2 or v3 reply, 0..=14 in order, then the eight
/// SEARCH messages; the counts saturate at 32 bits, as the board's do.
fn clue_status(
    engine: Engine,
    o: u8,
    d: u8,
    cycles: u64,
    passes: u8,
    nodes: u64,
    backtracks: u64,
) -> Vec<Message> {
    let clip = |x: u64| x.min(u32::MAX as u64) as u32;
    let (cycles, nodes, backtracks) = (clip(cycles), clip(nodes), clip(backtracks));
    let side = engine.clue_side() as u8;
    let version = match engine {
        Engine::Colour => crate::colour::colour_protocol::VERSION,
        _ => crate::clue::reply::VERSION,
    };
    let mut fields = vec![
        Message::status(field::OUTCOME, o),
        Message::status(field::DETAIL, d),
    ];
    for (i, b) in cycles.to_le_bytes().iter().enumerate() {
        fields.push(Message::status(field::CYCLES_0 + i as u8, *b));
    }
    fields.push(Message::status(field::PASSES, passes));
    let build = [
        (field::OPTIONS_0, 0),
        (field::OPTIONS_0 + 1, 0),
        (field::MAX_LINE, side),
        (field::FIFO_ADDR_BITS, 0),
        (field::VERSION, version),
        (field::MAX_LINES, 2 * side),
        (field::ENGINES, image::engines_field(engine.code(), image::FLASH)),
        (
            field::CLUE_STORE_BITS,
            crate::clue::clue_store::CLUE_STORE_BITS as u8,
        ),
    ];
    fields.extend(build.iter().map(|&(f, b)| Message::status(f, b)));
    for b in nodes.to_le_bytes().into_iter().chain(backtracks.to_le_bytes()) {
        fields.push(Message::status(field::SEARCH, b));
    }
    fields
}

/// A clue engine's reply for a verdict (protocol v2, packed cells).
pub fn clue_reply(engine: Engine, verdict: &ClueVerdict) -> Vec<u8> {
    if verdict.cells.is_empty() {
        return clue_refusal(engine, verdict.outcome, verdict.detail);
    }
    let status = clue_status(
        engine,
        verdict.outcome,
        verdict.detail,
        verdict.cycles,
        verdict.passes,
        verdict.nodes,
        verdict.backtracks,
    );
    let mut out = Vec::new();
    crate::clue::clue_protocol::encode_reply(
        verdict.rows,
        verdict.columns,
        &verdict.cells,
        &verdict.differs,
        &status,
        &mut out,
    );
    out
}

/// A clue or colour engine's reply without cells: a refusal, or INFO (a
/// colour engine's says the most inks it takes).
pub fn clue_refusal(engine: Engine, o: u8, d: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let status = clue_status(engine, o, d, 0, 0, 0, 0);
    match engine {
        Engine::Colour => crate::colour::colour_protocol::encode_reply(
            0,
            0,
            crate::colour::ENGINE_INKS,
            &[],
            &[],
            &status,
            &mut out,
        ),
        _ => crate::clue::clue_protocol::encode_reply(0, 0, &[], &[], &status, &mut out),
    }
    out
}

/// The colour engine's reply for a board of `rows` × `columns` with `inks`
/// inks (protocol v3, a colour index a cell).
pub fn colour_reply(rows: usize, columns: usize, inks: usize, verdict: &ColourVerdict) -> Vec<u8> {
    let status = clue_status(
        Engine::Colour,
        verdict.outcome,
        verdict.detail,
        verdict.cycles,
        verdict.passes,
        verdict.nodes,
        verdict.backtracks,
    );
    let mut out = Vec::new();
    crate::colour::colour_protocol::encode_reply(
        rows,
        columns,
        inks,
        &verdict.cells,
        &verdict.second,
        &status,
        &mut out,
    );
    out
}
