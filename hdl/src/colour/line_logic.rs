//! Colour line logic, as the colour clue engine will compute it: the
//! black-and-white engine's automaton (`clue::line_logic`) with an ink on
//! every block state.
//!
//! # The automaton
//!
//! A colour clue is blocks (length, ink), inks 1.. and 0 the background.
//! Two blocks of one ink need a background cell between them; blocks of
//! different inks may touch. The states are laid out as in black and white:
//!
//! ```text
//! g0 | 1.1 … 1.b1 | g1 | 2.1 … 2.b2 | g2 | … | gk
//! ```
//!
//! and each block state j.t carries block j's ink. A cell moves the states
//! as follows:
//!
//! * **background**: a gap state stays, a block's last cell moves into the
//!   gap after it (as an empty cell does in black and white);
//! * **an ink**: every state but a block's last cell and g_k moves one place
//!   right, into a block state; a block's last cell moves two places, over
//!   the gap, into the next block's first cell when the two inks differ.
//!   Either move is taken only if the cell may have the ink of the state it
//!   enters.
//!
//! So a cell is still one step on a row of states, with one more shift (by
//! two) and one more gate (the entered state's ink among the cell's
//! possible colours) than in black and white. Forwards, backwards and the
//! meeting of the two are as there (see `clue::line_logic`): a colour stays
//! possible in a cell exactly when some fill of the whole line gives it
//! that colour. In gateware the step handles every ink at once, so a line
//! costs what a black-and-white line does: k + 2L + `LATENCY` cycles
//! (`clue::line_solver`), whatever the number of inks; a state's ink is 3
//! bits beside it and the gate an 8-to-1 pick of the cell's colour set.
//! (That price is the design's, for the model; no colour gateware exists
//! yet.)
//!
//! With inks that may touch, the states are at most Σb + k + 1 ≤ 2L + 1:
//! lines of up to 63 cells fit in 128 bits.

/// Longest line the model takes.
pub const MAX_LENGTH: usize = 63;

/// Colours a cell can have: the background (0) and up to 7 inks.
pub const MAX_COLOURS: usize = 8;

/// A cell's possible colours: bit c set when colour c is possible.
pub type ColourSet = u8;

/// A set of automaton states, bit i = the i-th state of the row.
pub type States = u128;

/// One block of a colour clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub length: usize,
    /// 1..MAX_COLOURS (0 is the background).
    pub ink: u8,
}

/// The automaton of one colour clue, as masks over the row of states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourAutomaton {
    /// Gap states g_0..g_k.
    pub gaps: States,
    /// Each block's last cell.
    pub block_ends: States,
    /// States an inked cell moves one place on from (every state but block
    /// ends and g_k).
    pub step_from: States,
    /// Block ends an inked cell moves two places on from (into the next
    /// block, of another ink).
    pub skip_from: States,
    /// The block states of each ink (index 0 unused).
    pub ink_states: [States; MAX_COLOURS],
    /// Accepting states: g_k and block k's last cell.
    pub accept: States,
}

impl ColourAutomaton {
    /// Lays out the automaton of a clue, one block at a time. `None` when
    /// the clue needs more than `length` cells.
    pub fn new(blocks: &[Block], length: usize) -> Option<ColourAutomaton> {
        assert!(length <= MAX_LENGTH);
        let mut a = ColourAutomaton {
            gaps: 1,
            block_ends: 0,
            step_from: 0,
            skip_from: 0,
            ink_states: [0; MAX_COLOURS],
            accept: 0,
        };
        let mut at = 0; // g_j's place
        let mut needed = 0;
        for (j, block) in blocks.iter().enumerate() {
            assert!(block.length >= 1 && (1..MAX_COLOURS).contains(&(block.ink as usize)));
            let touches = j > 0 && blocks[j - 1].ink != block.ink;
            needed += block.length + (j > 0 && !touches) as usize;
            if needed > length {
                return None;
            }
            if touches {
                a.skip_from |= 1 << (at - 1);
            }
            let cells: States = ((1 << block.length) - 1) << (at + 1);
            a.ink_states[block.ink as usize] |= cells;
            // g_{j-1} and the block's cells but its last.
            a.step_from |= (cells >> 1) & !(1 << (at + block.length));
            a.step_from |= 1 << at;
            at += block.length + 1;
            a.gaps |= 1 << at;
            a.block_ends |= 1 << (at - 1);
        }
        let last: States = 1 << at;
        a.accept = last | if blocks.is_empty() { 0 } else { last >> 1 };
        Some(a)
    }

    /// The block states a cell with these possible colours may enter.
    fn enterable(&self, colours: ColourSet) -> States {
        (1..MAX_COLOURS)
            .filter(|&c| colours >> c & 1 == 1)
            .fold(0, |s, c| s | self.ink_states[c])
    }

    /// The states after one more cell, from `states`.
    pub fn step(&self, states: States, colours: ColourSet) -> States {
        let inked =
            (((states & self.step_from) << 1) | ((states & self.skip_from) << 2)) & self.enterable(colours);
        let background = if colours & 1 == 1 {
            (states & self.gaps) | ((states & self.block_ends) << 1)
        } else {
            0
        };
        inked | background
    }

    /// Narrows `cells` (1..=63 of them) to the colours some fill of the line
    /// gives each. Returns false, and leaves `cells` as they were, when no
    /// fill agrees with them. Allocates nothing.
    pub fn solve(&self, cells: &mut [ColourSet]) -> bool {
        let length = cells.len();
        assert!((1..=MAX_LENGTH).contains(&length));
        let mut forward = [0 as States; MAX_LENGTH + 1];
        forward[0] = 1;
        for p in 0..length {
            forward[p + 1] = self.step(forward[p], cells[p]);
        }
        if forward[length] & self.accept == 0 {
            return false;
        }
        let mut after = self.accept;
        for p in (0..length).rev() {
            let entered = after & self.enterable(cells[p]);
            let by_ink = ((entered >> 1) & self.step_from) | ((entered >> 2) & self.skip_from);
            let by_background = if cells[p] & 1 == 1 {
                (after & self.gaps) | ((after >> 1) & self.block_ends)
            } else {
                0
            };
            // The inks of the block states entered from a forward state.
            let hits =
                (((forward[p] & self.step_from) << 1) | ((forward[p] & self.skip_from) << 2)) & entered;
            let mut colours = (forward[p] & by_background != 0) as ColourSet;
            for c in 1..MAX_COLOURS {
                colours |= ((hits & self.ink_states[c] != 0) as ColourSet) << c;
            }
            cells[p] = colours;
            after = by_ink | by_background;
        }
        true
    }
}

/// Narrows one line's cells to the colours some fill gives each; false when
/// no fill agrees with them.
pub fn solve_line(blocks: &[Block], cells: &mut [ColourSet]) -> bool {
    match ColourAutomaton::new(blocks, cells.len()) {
        Some(automaton) => automaton.solve(cells),
        None => false,
    }
}

#[cfg(test)]
pub(crate) mod tests;
