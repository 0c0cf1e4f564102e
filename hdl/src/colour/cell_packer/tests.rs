//! The packer against `colour_protocol`'s packing, reading a board whose
//! rows and kept rows are random colour sets (noise past the last column).

use super::*;
use crate::bench::boards::Rng;
use crate::bench::{tick, yosys_check};
use crate::clue::clue_protocol::map_words;
use crate::colour::colour_protocol::packed_words;
use crate::link::protocol::Message;

/// A board's rows as the solver's board holds them: 32 row words of five
/// planes, the board at 0..32 and the kept rows at 64..96.
struct Board {
    rows: usize,
    columns: usize,
    inks: usize,
    /// Row-major colour sets: the board's, and the kept solution's.
    cells: Vec<u8>,
    kept: Vec<u8>,
    words: Vec<[u64; 5]>,
    kept_words: Vec<[u64; 5]>,
}

fn words_of(cells: &[u8], columns: usize, rng: &mut Rng) -> Vec<[u64; 5]> {
    (0..32)
        .map(|r| {
            let mut planes = [0u64; 5];
            for (c, plane) in planes.iter_mut().enumerate() {
                *plane = rng.next_u64() & 0xffff_ffff;
                for j in 0..columns {
                    if let Some(&cell) = cells.get(r * columns + j) {
                        *plane = (*plane & !(1 << j)) | ((cell >> c & 1) as u64) << j;
                    }
                }
            }
            planes
        })
        .collect()
}

/// `packed`: every cell of the board (or kept) has one colour.
fn random_board(rng: &mut Rng, rows: usize, columns: usize, inks: usize, packed: bool) -> Board {
    let colours = inks as u64 + 1;
    let one = |rng: &mut Rng| 1u8 << rng.below(colours);
    let any = |rng: &mut Rng| (1 + rng.below((1 << colours) - 1)) as u8;
    let cells: Vec<u8> = (0..rows * columns)
        .map(|_| if packed { one(rng) } else { any(rng) })
        .collect();
    let kept: Vec<u8> = (0..rows * columns).map(|_| one(rng)).collect();
    let words = words_of(&cells, columns, rng);
    let kept_words = words_of(&kept, columns, rng);
    Board {
        rows,
        columns,
        inks,
        cells,
        kept,
        words,
        kept_words,
    }
}

/// The messages the packer hands over, until `done`.
fn pack(b: &Board, packed: bool, from_kept: bool, several: bool) -> Vec<u16> {
    let mut uut = ColourPacker::default();
    uut.connect_all();
    uut.restart.next = true;
    uut.board_done.next = true;
    uut.packed.next = packed;
    uut.from_kept.next = from_kept;
    uut.board_cells.next = ((b.rows * b.columns) as u64).into();
    tick(&mut uut, |u| &mut u.clock);
    uut.restart.next = false;
    uut.board_done.next = false;
    uut.inks_q.next = (b.inks as u64).into();
    uut.columns_q.next = (b.columns as u64).into();
    uut.several.next = several;
    uut.maps.next = true;
    let mut messages = vec![];
    let mut pending = 0;
    for _ in 0..200_000 {
        let (row, kept) = (uut.read_row.val().index(), uut.read_kept.val());
        uut.pending.next = pending > 0;
        pending = pending.max(1) - 1;
        tick(&mut uut, |u| &mut u.clock);
        let w = if kept { &b.kept_words[row] } else { &b.words[row] };
        let mut word: Bits<PLANE_BITS> = 0.into();
        for (c, &plane) in w.iter().enumerate() {
            for j in 0..32 {
                word = word.replace_bit(32 * c + j, plane >> j & 1 == 1);
            }
        }
        uut.row_word.next = word;
        assert!(simulate(&mut uut, 1000));
        if uut.emit.val() {
            assert!(!uut.pending.val(), "a message handed over while one is pending");
            messages.push(uut.message.val().to_u64() as u16);
            pending = 7;
        }
        if uut.done.val() {
            return messages;
        }
    }
    panic!("the maps did not end");
}

/// The same from `colour_protocol`.
fn expected(b: &Board, packed: bool, from_kept: bool, several: bool) -> Vec<u16> {
    let m = |code, index: u16, value| Message::new(code, index, value).0;
    let index = |cells: &[u8]| -> Vec<u8> { cells.iter().map(|c| c.trailing_zeros() as u8).collect() };
    if packed {
        let first = if from_kept { &b.kept } else { &b.cells };
        let mut out: Vec<u16> = packed_words(&index(first))
            .into_iter()
            .map(|w| m(VALUES, w, false))
            .collect();
        if several {
            out.extend(
                packed_words(&index(&b.cells))
                    .into_iter()
                    .map(|w| m(SECOND, w, false)),
            );
        }
        out
    } else {
        (0..=b.inks)
            .flat_map(|c| {
                let map: Vec<bool> = b.cells.iter().map(|&x| x >> c & 1 == 1).collect();
                map_words(&map)
                    .into_iter()
                    .map(|w| m(POSSIBLE, w >> 1, w & 1 == 1))
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

#[test]
fn packs_values_second_and_possible_maps_as_the_protocol() {
    let mut rng = Rng(0xc0_10_0e);
    for trial in 0..48 {
        let (rows, columns) = match trial {
            0 => (1, 1),
            1 => (32, 32),
            2 => (1, 32),
            3 => (32, 1),
            _ => (1 + rng.below(20) as usize, 1 + rng.below(20) as usize),
        };
        let inks = 1 + rng.below(4) as usize;
        let packed = trial % 3 != 2;
        let b = random_board(&mut rng, rows, columns, inks, packed);
        let from_kept = packed && trial % 2 == 0;
        let several = packed && trial % 4 < 2;
        assert_eq!(
            pack(&b, packed, from_kept, several),
            expected(&b, packed, from_kept, several),
            "{rows}x{columns}, {inks} inks, packed {packed}, kept {from_kept}, several {several}"
        );
    }
}

#[test]
fn verilog_synthesises() {
    let mut uut = ColourPacker::default();
    uut.connect_all();
    yosys_check(&uut, "colour_packer");
}
