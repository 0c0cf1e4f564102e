//! The cells of a v3 reply (`colour_protocol`), as whole messages: when
//! every cell has one colour, the VALUES (4 cells a message, a 3-bit
//! colour index each, the first in index bits 11..9, colour 0 after the
//! last cell) and for SEVERAL the SECOND solution packed the same way;
//! else a POSSIBLE map for each colour 0..=k, 13 cells a message as v2's
//! maps (the first cell in bit 12, zeros after the last).
//!
//! The cells are read a row at a time from the colour solver's board
//! (`colour::solver`, its five colour planes in one 160-bit word), one cell
//! a step: at 9600 baud a message takes 20 833 cycles to send, so each cell
//! takes three cycles (Request, Fetch, Shift) and a 1 024-cell map some
//! 3 000, less than a message. The cell is picked out of the word by its
//! column (an AND-OR with the column one-hot), which costs less than
//! latching and shifting 160 bits.
//!
//! Where the cells come from: the VALUES of SOLVED after a search, and of
//! SEVERAL, are the kept first solution (`read_kept`); the SECOND, and
//! every other map, the board.

use crate::colour::colour_protocol::{POSSIBLE, SECOND, VALUES};
use crate::colour::line_solver::{COLOURS, MAX_CELLS, PLANE_BITS};
use crate::constant;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum PackStep {
    /// The row's address is on the board's read port (its word comes a
    /// cycle later and stays while the row does).
    Request,
    /// The cell at `column` taken out of the row's word.
    Fetch,
    /// The cell into the message.
    Shift,
    /// Colour 0 or zeros after the map's last cell, to a full message.
    Pad,
    /// A full message: hand it over when the last one has gone.
    Emit,
    /// After a map's last message: the next map, or the end.
    Next,
}

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Map {
    Values,
    Second,
    Possible,
}

#[derive(LogicBlock)]
pub struct ColourPacker {
    pub clock: Signal<In, Clock>,
    /// A new reply: back to the first row. With `board_done`, a board's:
    /// its cells, whether each has one colour (`packed`: VALUES, not
    /// POSSIBLE maps), whether those are the kept rows'.
    pub restart: Signal<In, Bit>,
    pub board_done: Signal<In, Bit>,
    pub packed: Signal<In, Bit>,
    pub from_kept: Signal<In, Bit>,
    pub board_cells: Signal<In, Bits<13>>,
    /// The reply's latched inks and columns, and whether the verdict is
    /// SEVERAL.
    pub inks_q: Signal<In, Bits<3>>,
    pub columns_q: Signal<In, Bits<7>>,
    pub several: Signal<In, Bit>,
    /// The reply is in its cells; an abort stops them.
    pub maps: Signal<In, Bit>,
    pub stop: Signal<In, Bit>,
    /// A message is waiting to go out (Emit waits for it).
    pub pending: Signal<In, Bit>,
    /// The solver's board: row `read_row` (of the kept rows with
    /// `read_kept`) on `row_word` a cycle later.
    pub read_row: Signal<Out, Bits<5>>,
    pub read_kept: Signal<Out, Bit>,
    pub row_word: Signal<In, Bits<PLANE_BITS>>,
    /// This cycle hands over `message`.
    pub emit: Signal<Out, Bit>,
    pub message: Signal<Out, Bits<16>>,
    /// The last map is out: the status next.
    pub done: Signal<Out, Bit>,
    step: DFF<PackStep>,
    // In Emit: decoded where the next step is chosen, so that `emit`, the
    // sender's load, is a LUT4 from flip-flops (from `step`, an 89 MHz
    // path to the sender's enables).
    at_emit: DFF<Bit>,
    map: DFF<Map>,
    kept_q: DFF<Bit>,
    // The colour of a POSSIBLE map.
    colour: DFF<Bits<3>>,
    row: DFF<Bits<5>>,
    column: DFF<Bits<5>>,
    // `column` one-hot: the cell is an AND-OR of the row word's bits
    // with it, three LUT levels after the block RAM (as a multiplexer on
    // `column`, five, the image's longest path at 97.8 MHz). A restart
    // sets it before any map.
    column_bit: DFF<Bits<MAX_CELLS>>,
    // The row's last column, from `columns_q` (latched long before the
    // maps): `column` is compared with it, not `column` + 1 with
    // `columns_q` (an adder in front of the row's enable, which missed
    // 100 MHz on a seed).
    last_column: DFF<Bits<5>>,
    cells_q: DFF<Bits<13>>,
    cells_left: DFF<Bits<13>>,
    // The cell's colours, one bit each.
    picked: DFF<Bits<COLOURS>>,
    pack: DFF<Bits<13>>,
    packed_cells: DFF<Bits<4>>,
    // The map's last cell is in `pack`.
    map_end: DFF<Bit>,
    // The cell at `column`, and its colour index.
    column_cell: Signal<Local, Bits<COLOURS>>,
    index: Signal<Local, Bits<3>>,
    full: Signal<Local, Bit>,
    code_values: Constant<Bits<3>>,
    code_second: Constant<Bits<3>>,
    code_possible: Constant<Bits<3>>,
}

// The row word holds five planes, so colour 4 is the last, index 3 bits.
const _: () = assert!(COLOURS == 5 && PLANE_BITS == 5 * MAX_CELLS && MAX_CELLS == 32);

impl Default for ColourPacker {
    fn default() -> Self {
        ColourPacker {
            clock: Default::default(),
            restart: Default::default(),
            board_done: Default::default(),
            packed: Default::default(),
            from_kept: Default::default(),
            inks_q: Default::default(),
            board_cells: Default::default(),
            columns_q: Default::default(),
            several: Default::default(),
            maps: Default::default(),
            stop: Default::default(),
            pending: Default::default(),
            read_row: Default::default(),
            read_kept: Default::default(),
            row_word: Default::default(),
            emit: Default::default(),
            message: Default::default(),
            done: Default::default(),
            step: Default::default(),
            at_emit: Default::default(),
            map: Default::default(),
            kept_q: Default::default(),
            colour: Default::default(),
            row: Default::default(),
            column: Default::default(),
            column_bit: Default::default(),
            last_column: Default::default(),
            cells_q: Default::default(),
            cells_left: Default::default(),
            picked: Default::default(),
            pack: Default::default(),
            packed_cells: Default::default(),
            map_end: Default::default(),
            column_cell: Default::default(),
            index: Default::default(),
            full: Default::default(),
            code_values: constant(VALUES),
            code_second: constant(SECOND),
            code_possible: constant(POSSIBLE),
        }
    }
}

impl Logic for ColourPacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            step,
            at_emit,
            map,
            kept_q,
            colour,
            row,
            column,
            column_bit,
            last_column,
            cells_q,
            cells_left,
            picked,
            pack,
            packed_cells,
            map_end
        );
        self.emit.next = false;
        self.done.next = false;
        self.last_column.d.next = bit_cast::<5, 7>(self.columns_q.val() - 1);
        // The cell at `column`, one bit a colour.
        self.column_cell.next = 0.into();
        for c in 0..COLOURS {
            self.column_cell.next = self.column_cell.val().replace_bit(
                c,
                (self.row_word.val().get_bits::<MAX_CELLS>(32 * c) & self.column_bit.q.val()).any(),
            );
        }
        // Taken every cycle, read only in Shift, which always follows
        // Fetch: under Fetch's enable, the block RAM's word went through
        // the multiplexers into set and reset logic, an 88 MHz path.
        self.picked.d.next = self.column_cell.val();
        // A cell with one colour: its index (colours 1 and 3 have bit 0).
        self.index.next = 0.into();
        if self.picked.q.val().get_bit(1) | self.picked.q.val().get_bit(3) {
            self.index.next = self.index.val() | 1;
        }
        if self.picked.q.val().get_bit(2) | self.picked.q.val().get_bit(3) {
            self.index.next = self.index.val() | 2;
        }
        if self.picked.q.val().get_bit(4) {
            self.index.next = self.index.val() | 4;
        }
        // A packed message holds 4 cells, a map's 13.
        self.full.next = self.packed_cells.q.val() == 12;
        if self.map.q.val() != Map::Possible {
            self.full.next = self.packed_cells.q.val() == 3;
        }
        // Outside the maps the step is Request (each way out of them, and
        // an abort, puts it there), so only Request asks for `maps`.
        match self.step.q.val() {
            PackStep::Request => {
                if self.maps.val() {
                    self.step.d.next = PackStep::Fetch;
                }
            }
            PackStep::Fetch => {
                self.step.d.next = PackStep::Shift;
            }
            PackStep::Shift => {
                self.pack.d.next = (self.pack.q.val() << 3) | bit_cast::<13, 3>(self.index.val());
                if self.map.q.val() == Map::Possible {
                    self.pack.d.next = (self.pack.q.val() << 1)
                        | bit_cast::<13, 1>(self.picked.q.val().get_bit(self.colour.q.val().index()).into());
                }
                self.packed_cells.d.next = self.packed_cells.q.val() + 1;
                self.cells_left.d.next = self.cells_left.q.val() - 1;
                self.column.d.next = self.column.q.val() + 1;
                self.column_bit.d.next = self.column_bit.q.val() << 1;
                // The row's word stays on the read port but for a new row.
                self.step.d.next = PackStep::Fetch;
                if self.column.q.val() == self.last_column.q.val() {
                    self.column.d.next = 0.into();
                    self.column_bit.d.next = 1.into();
                    self.row.d.next = self.row.q.val() + 1;
                    self.step.d.next = PackStep::Request;
                }
                if self.cells_left.q.val() == 1 {
                    self.map_end.d.next = true;
                    self.step.d.next = PackStep::Pad;
                }
                if self.full.val() {
                    self.step.d.next = PackStep::Emit;
                }
            }
            PackStep::Pad => {
                self.pack.d.next = self.pack.q.val() << 3;
                if self.map.q.val() == Map::Possible {
                    self.pack.d.next = self.pack.q.val() << 1;
                }
                self.packed_cells.d.next = self.packed_cells.q.val() + 1;
                if self.full.val() {
                    self.step.d.next = PackStep::Emit;
                }
            }
            // (Emit: below, by `at_emit`.)
            PackStep::Emit => {}
            PackStep::Next => {
                // VALUES, then for SEVERAL the SECOND from the board; or
                // the POSSIBLE maps, colour 0 to the board's last; then
                // the status.
                self.map_end.d.next = false;
                self.row.d.next = 0.into();
                self.column.d.next = 0.into();
                self.column_bit.d.next = 1.into();
                self.cells_left.d.next = self.cells_q.q.val();
                self.kept_q.d.next = false;
                self.colour.d.next = self.colour.q.val() + 1;
                self.step.d.next = PackStep::Request;
                match self.map.q.val() {
                    Map::Values => {
                        if self.several.val() {
                            self.map.d.next = Map::Second;
                        } else {
                            self.done.next = true;
                        }
                    }
                    Map::Second => {
                        self.done.next = true;
                    }
                    _ => {
                        if self.colour.q.val() == self.inks_q.val() {
                            self.done.next = true;
                        }
                    }
                }
            }
            _ => {
                self.step.d.next = PackStep::Request;
            }
        }

        if self.at_emit.q.val() & !self.pending.val() {
            self.emit.next = true;
            self.pack.d.next = 0.into();
            self.packed_cells.d.next = 0.into();
            self.step.d.next = PackStep::Request;
            if self.map_end.q.val() {
                self.step.d.next = PackStep::Next;
            }
        }
        if self.restart.val() {
            self.row.d.next = 0.into();
            self.column.d.next = 0.into();
            self.column_bit.d.next = 1.into();
            self.packed_cells.d.next = 0.into();
            self.pack.d.next = 0.into();
            self.map_end.d.next = false;
            self.step.d.next = PackStep::Request;
        }
        if self.board_done.val() {
            self.map.d.next = Map::Possible;
            if self.packed.val() {
                self.map.d.next = Map::Values;
            }
            self.kept_q.d.next = self.from_kept.val();
            self.colour.d.next = 0.into();
            self.cells_left.d.next = self.board_cells.val();
            self.cells_q.d.next = self.board_cells.val();
        }
        if self.stop.val() {
            self.step.d.next = PackStep::Request;
        }
        self.at_emit.d.next = self.step.d.val() == PackStep::Emit;

        self.read_row.next = self.row.q.val();
        self.read_kept.next = self.kept_q.q.val();
        self.message.next =
            (bit_cast::<16, 3>(self.code_possible.val()) << 13) | bit_cast::<16, 13>(self.pack.q.val());
        if self.map.q.val() == Map::Values {
            self.message.next = (bit_cast::<16, 3>(self.code_values.val()) << 13)
                | (bit_cast::<16, 13>(self.pack.q.val()) << 1);
        }
        if self.map.q.val() == Map::Second {
            self.message.next = (bit_cast::<16, 3>(self.code_second.val()) << 13)
                | (bit_cast::<16, 13>(self.pack.q.val()) << 1);
        }
    }
}

#[cfg(test)]
mod tests;
