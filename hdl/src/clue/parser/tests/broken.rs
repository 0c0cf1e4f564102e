//! The v2 parser against `BoardModel` on broken streams: a lost byte or a
//! silence at every byte of a board, and small boards with messages
//! replaced, dropped, repeated or added, bytes lost or dropped, silences.

use super::*;
use crate::board_model::{BoardModel, Engine};
use crate::clue::clue_protocol::decode_any_reply;

/// A stream through both the parser and `BoardModel`: the same refusals,
/// INFO replies and boards loaded, in order (the model solves what loads:
/// small boards).
fn check_like_the_model(items: &[Item], seed: u64, what: &str) {
    check_like_the_model_on(Harness::new(seed), Engine::Clues, items, what)
}

/// [`check_like_the_model`] with the parser `h` runs and the model's
/// `engine` (v2 or v3 replies).
pub(super) fn check_like_the_model_on(mut h: Harness, engine: Engine, items: &[Item], what: &str) {
    let mut model = BoardModel::new(engine);
    let mut replies = vec![];
    for &item in items.iter().chain(&[Item::Idle]) {
        h.item(item);
        replies.extend(match item {
            Item::Byte(b) => model.byte(b),
            Item::Lost => model.framing_error(),
            Item::Idle => model.idle(),
        });
    }
    let expected: Vec<Event> = replies
        .iter()
        .map(
            |bytes| match decode_any_reply(bytes).expect("the model's reply").0 {
                r if r.outcome == outcome::INFO => Event::Query,
                r if r.rows == 0 => Event::Refused(r.outcome, r.detail),
                r => Event::Loaded(r.rows, r.columns, 0, false),
            },
        )
        .collect();
    let got: Vec<Event> = (h.take_verdicts().into_iter())
        .filter_map(|e| match e {
            Event::Loaded(rows, columns, ..) => Some(Event::Loaded(rows, columns, 0, false)),
            Event::Switch(_) => None,
            e => Some(e),
        })
        .collect();
    assert_eq!(got, expected, "{what}");
}

#[test]
fn a_framing_error_or_a_silence_anywhere_as_the_model() {
    let good = Board::new(&[vec![1, 1], vec![3]], &[vec![2], vec![1], vec![2]], 1, false);
    let good_bytes = good.stream(false);
    let bytes = |b: &[u8]| b.iter().map(|&b| Item::Byte(b)).collect::<Vec<_>>();
    let (head, tail) = (
        |at: usize| bytes(&good_bytes[..at]),
        |at: usize| bytes(&good_bytes[at..]),
    );
    for at in 0..good_bytes.len() {
        // The byte lost, or a framing error and the byte after it; then the
        // board again.
        for keep in [false, true] {
            let rest = tail(at + !keep as usize);
            let items = [head(at), vec![Item::Lost], rest, bytes(&good_bytes)].concat();
            check_like_the_model(&items, at as u64, &format!("byte {at} lost, kept {keep}"));
        }
        let items = [head(at), vec![Item::Idle], tail(at)].concat();
        check_like_the_model(&items, at as u64, &format!("silence before byte {at}"));
    }
    // Inside the board, a framing error is FRAMING and a silence TRUNCATED.
    let mut h = Harness::new(3);
    h.send(&good_bytes[..9]);
    h.item(Item::Lost);
    assert_eq!(
        h.take_verdicts(),
        vec![Event::Refused(outcome::MALFORMED, detail::FRAMING)]
    );
    h.send(&good_bytes[..8]);
    h.item(Item::Idle);
    assert_eq!(
        h.take_verdicts(),
        vec![Event::Refused(outcome::MALFORMED, detail::TRUNCATED)]
    );
    h.send(&good_bytes);
    h.check_loaded(&good, "after both");
}

/// Small boards, one to three with QUERYs between, then messages replaced,
/// dropped, repeated or added, bytes lost or dropped, silences.
#[test]
fn broken_streams_as_the_model() {
    let mut n = xorshift(0xb20c);
    for case in 0..500 {
        let mut messages: Vec<u16> = vec![];
        for _ in 0..1 + n() % 3 {
            if n() % 4 == 0 {
                messages.push(Message::new(code::QUERY, 0, false).0);
            }
            let (rows, columns) = (1 + (n() % 5) as usize, 1 + (n() % 5) as usize);
            let mut board = Board::random(&mut n, rows, columns);
            board.budget %= 3;
            let bytes = board.stream(n() % 4 == 0);
            messages.extend(bytes.chunks(2).map(|b| u16::from_be_bytes([b[0], b[1]])));
        }
        let mut random = |n: &mut Noise| match n() % 3 {
            0 => Message::new((n() % 8) as u8, (n() % 8) as u16, n() & 1 == 1).0,
            _ => n() as u16,
        };
        let items = broken(&mut n, messages, &mut random);
        check_like_the_model(&items, case, &format!("case {case}: {items:?}"));
    }
}

/// `messages` broken: one to three replaced, dropped, repeated or added
/// (from `random`), then as bytes, up to two lost or dropped and silences.
pub(super) fn broken(
    n: &mut Noise,
    mut messages: Vec<u16>,
    random: &mut dyn FnMut(&mut Noise) -> u16,
) -> Vec<Item> {
    for _ in 0..1 + n() % 3 {
        let at = (n() % messages.len() as u64) as usize;
        let random = random(n);
        match n() % 4 {
            0 => messages[at] = random,
            1 => drop(messages.remove(at)),
            2 => messages.insert(at, messages[at]),
            _ => messages.insert(at, random),
        }
    }
    let mut items: Vec<Item> = messages
        .iter()
        .flat_map(|m| m.to_be_bytes())
        .map(Item::Byte)
        .collect();
    for _ in 0..n() % 3 {
        let at = (n() % items.len() as u64) as usize;
        match n() % 4 {
            0 => items[at] = Item::Lost,
            1 => items.insert(at, Item::Lost),
            2 => drop(items.remove(at)),
            _ => items.insert(at, Item::Idle),
        }
    }
    items
}
