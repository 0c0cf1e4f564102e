use super::*;
use crate::bench::boards::{colour_clue_of, Rng};

/// Every fill of the line, by placing the blocks one after another.
pub(crate) fn fills(blocks: &[Block], length: usize) -> Vec<Vec<u8>> {
    fn place(blocks: &[Block], from: usize, line: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let Some((block, rest)) = blocks.split_first() else {
            out.push(line.clone());
            return;
        };
        for start in from..=line.len().saturating_sub(block.length) {
            if start + block.length > line.len() {
                break;
            }
            line[start..start + block.length].fill(block.ink);
            // The next block of the same ink needs a background cell first.
            let gap = rest.first().is_some_and(|next| next.ink == block.ink) as usize;
            place(rest, start + block.length + gap, line, out);
            line[start..start + block.length].fill(0);
        }
    }
    let mut out = vec![];
    place(blocks, 0, &mut vec![0; length], &mut out);
    out
}

/// The colours each cell has in some fill that agrees with `cells`.
fn brute(blocks: &[Block], cells: &[ColourSet]) -> Option<Vec<ColourSet>> {
    let mut seen = vec![0; cells.len()];
    let mut any = false;
    for fill in fills(blocks, cells.len()) {
        if fill.iter().zip(cells).all(|(&c, &set)| set >> c & 1 == 1) {
            any = true;
            for (s, &c) in seen.iter_mut().zip(&fill) {
                *s |= 1 << c;
            }
        }
    }
    any.then_some(seen)
}

/// A random line of up to `max_length` cells and `max_inks` inks: a clue
/// from a random picture (now and then a random clue), cells narrowed to
/// sets that mostly hold the picture's colour.
pub(crate) fn random_line(rng: &mut Rng, max_length: u64, max_inks: u64) -> (Vec<Block>, Vec<ColourSet>) {
    let length = 1 + rng.below(max_length) as usize;
    let inks = 1 + rng.below(max_inks) as u8;
    let background = 10 + rng.below(70);
    let picture: Vec<u8> = (0..length)
        .map(|_| {
            if rng.below(100) < background {
                0
            } else {
                1 + rng.below(inks as u64) as u8
            }
        })
        .collect();
    let blocks = if rng.below(6) > 0 {
        colour_clue_of(&picture)
    } else {
        (0..rng.below(5))
            .map(|_| Block {
                length: 1 + rng.below(length as u64) as usize,
                ink: 1 + rng.below(inks as u64) as u8,
            })
            .collect()
    };
    let all: ColourSet = ((1u16 << (inks + 1)) - 1) as ColourSet;
    let narrowed = rng.below(80);
    let honest = rng.below(4) > 0;
    let cells = picture
        .iter()
        .map(|&c| {
            if rng.below(100) >= narrowed {
                return all;
            }
            let set = rng.below(256) as ColourSet & all;
            if honest {
                set | 1 << c
            } else {
                set
            }
        })
        .collect();
    (blocks, cells)
}

#[test]
fn lays_out_the_automaton() {
    // g0 | 1.1 1.2 | g1 | 2.1 | g2, the blocks of different inks.
    let a = ColourAutomaton::new(&[Block { length: 2, ink: 1 }, Block { length: 1, ink: 2 }], 3).unwrap();
    assert_eq!(a.gaps, 0b10_1001);
    assert_eq!(a.block_ends, 0b01_0100);
    assert_eq!(a.step_from, 0b00_1011);
    assert_eq!(a.skip_from, 0b00_0100);
    assert_eq!(a.ink_states[1], 0b00_0110);
    assert_eq!(a.ink_states[2], 0b01_0000);
    assert_eq!(a.accept, 0b11_0000);
    // The same ink twice needs the gap.
    assert_eq!(
        ColourAutomaton::new(&[Block { length: 2, ink: 1 }, Block { length: 1, ink: 1 }], 3),
        None
    );
    assert_eq!(ColourAutomaton::new(&[], 1).unwrap().accept, 1);
}

#[test]
fn edge_lines() {
    let red = |length| Block { length, ink: 1 };
    let blue = |length| Block { length, ink: 2 };
    // An empty clue: every cell is background.
    let mut cells = [0b111; 5];
    assert!(solve_line(&[], &mut cells));
    assert_eq!(cells, [1; 5]);
    // Two inks touching fill 3 cells of 3.
    let mut cells = [0b111; 3];
    assert!(solve_line(&[red(2), blue(1)], &mut cells));
    assert_eq!(cells, [0b010, 0b010, 0b100]);
    // A cell that cannot be red.
    let mut cells = [0b111, 0b101, 0b111, 0b111];
    assert!(solve_line(&[red(2)], &mut cells));
    assert_eq!(cells, [0b001, 0b001, 0b010, 0b010]);
    // Nothing fits: the cells stay as they were.
    let mut cells = [0b101; 4];
    assert!(!solve_line(&[red(1)], &mut cells));
    assert_eq!(cells, [0b101; 4]);
    // 63 cells alternating red and blue: 126 states, no room left over.
    let clue: Vec<Block> = (0..63)
        .map(|i| if i % 2 == 0 { red(1) } else { blue(1) })
        .collect();
    let mut cells = [0b111; 63];
    assert!(solve_line(&clue, &mut cells));
    assert!(cells
        .iter()
        .enumerate()
        .all(|(i, &c)| c == if i % 2 == 0 { 0b010 } else { 0b100 }));
}

#[test]
fn agrees_with_brute_force_on_random_lines() {
    let mut rng = Rng(0xc010_0a11_5eed_0001);
    let (mut checked, mut feasible, mut narrowed) = (0, 0, 0);
    for case in 0..30_000 {
        let (blocks, cells) = random_line(
            &mut rng,
            if case % 10 == 0 { 24 } else { 12 },
            MAX_COLOURS as u64 - 1,
        );
        let expected = brute(&blocks, &cells);
        let mut got = cells.clone();
        let ok = solve_line(&blocks, &mut got);
        assert_eq!(ok, expected.is_some(), "clue {blocks:?} cells {cells:?}");
        if let Some(expected) = expected {
            assert_eq!(got, expected, "clue {blocks:?} cells {cells:?}");
            feasible += 1;
            narrowed += (got != cells) as usize;
        } else {
            assert_eq!(got, cells);
        }
        checked += 1;
    }
    assert!(
        checked == 30_000 && feasible > 10_000 && narrowed > 5_000,
        "{checked} checked, {feasible} feasible, {narrowed} narrowed"
    );
}
