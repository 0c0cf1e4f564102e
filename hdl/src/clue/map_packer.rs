//! The reply's maps (protocol v2): the KNOWN map when some cell is unknown,
//! then the VALUES map, then for SEVERAL the DIFFERS map, 13 cells a
//! message in row-major order (the first cell in bit 12, zeros after the
//! map's last cell).
//!
//! The maps are read a row word at a time from the engine's board memory
//! (one cycle of read latency) and shifted out a cell a cycle: at 9600 baud
//! a message takes 20 833 cycles to send, so speed does not matter here.
//!
//! Each step decides from its own few flags, kept a step ahead, so that no
//! register's enable waits on a long chain of conditions (such chains here
//! were the clue bitstream's critical path on nextpnr seeds).

use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum MapStep {
    /// The row's address is on the board memory's read port.
    Request,
    /// The row's word arrives.
    Latch,
    /// One cell into the message a cycle.
    Shift,
    /// Zeros after the map's last cell, up to 13.
    Pad,
    /// A full message: hand it over when the last one has gone.
    Emit,
    /// After a map's last message: the next map, or the status.
    Next,
}

#[derive(LogicBlock, Default)]
pub struct MapPacker {
    pub clock: Signal<In, Clock>,
    /// A new reply: back to the first row. With `board_done`, a board's:
    /// its cells, whether all are known (then no KNOWN map), its columns.
    pub restart: Signal<In, Bit>,
    pub board_done: Signal<In, Bit>,
    pub all_known: Signal<In, Bit>,
    pub board_cells: Signal<In, Bits<13>>,
    pub columns: Signal<In, Bits<7>>,
    /// The reply's latched columns, and whether the verdict is SEVERAL.
    pub columns_q: Signal<In, Bits<7>>,
    pub several: Signal<In, Bit>,
    /// The reply is in its maps; an abort stops them.
    pub maps: Signal<In, Bit>,
    pub stop: Signal<In, Bit>,
    /// A message is waiting to go out (Emit waits for it).
    pub pending: Signal<In, Bit>,
    /// The board memory: row `read_row`'s Known (`read_value` low), Value or
    /// DIFFERS word, on `row_word` a cycle later.
    pub read_row: Signal<Out, Bits<6>>,
    pub read_value: Signal<Out, Bit>,
    pub read_differs: Signal<Out, Bit>,
    pub row_word: Signal<In, Bits<64>>,
    /// This cycle hands over a message of `pack`'s 13 cells, of the KNOWN
    /// map (`known_map`), the DIFFERS map (`differs_map`) or else VALUES.
    pub emit: Signal<Out, Bit>,
    pub pack: Signal<Out, Bits<13>>,
    pub known_map: Signal<Out, Bit>,
    pub differs_map: Signal<Out, Bit>,
    /// The last map is out: the status next.
    pub done: Signal<Out, Bit>,
    step: DFF<MapStep>,
    known_q: DFF<Bit>,
    differs_q: DFF<Bit>,
    row: DFF<Bits<7>>,
    column: DFF<Bits<7>>,
    cells_q: DFF<Bits<13>>,
    cells_left: DFF<Bits<13>>,
    // `column` is the row's last, `cells_left` is 1: kept a step ahead, so
    // that Shift's decisions come from flip-flops (with the compares there
    // the clue bitstream missed 100 MHz on nextpnr seeds); and whether the
    // board has one column, one cell, to start them from.
    last_column: DFF<Bit>,
    last_cell: DFF<Bit>,
    one_column: DFF<Bit>,
    one_cell: DFF<Bit>,
    word: DFF<Bits<64>>,
    pack_q: DFF<Bits<13>>,
    packed: DFF<Bits<4>>,
    // The map's last cell is in `pack`.
    map_end: DFF<Bit>,
    // `word` still holds cells of the current row.
    word_valid: DFF<Bit>,
}

impl Logic for MapPacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            step,
            known_q,
            differs_q,
            row,
            column,
            cells_q,
            cells_left,
            last_column,
            last_cell,
            one_column,
            one_cell,
            word,
            pack_q,
            packed,
            map_end,
            word_valid
        );
        self.emit.next = false;
        self.done.next = false;
        // Outside the maps the step is Request (each way out of them, and
        // an abort, puts it there), so only Request asks for `maps`: the
        // steps' enables do not wait on the reply's phase (with it, the
        // enables of `word_valid`, `last_column` and the like made the clue
        // bitstream's critical path on nextpnr seeds).
        match self.step.q.val() {
            MapStep::Request => {
                if self.maps.val() {
                    self.step.d.next = MapStep::Latch;
                }
            }
            MapStep::Latch => {
                self.word.d.next = self.row_word.val();
                self.word_valid.d.next = true;
                self.step.d.next = MapStep::Shift;
            }
            MapStep::Shift => {
                self.pack_q.d.next =
                    (self.pack_q.q.val() << 1) | bit_cast::<13, 1>(self.word.q.val().get_bit(0).into());
                self.packed.d.next = self.packed.q.val() + 1;
                self.word.d.next = self.word.q.val() >> 1;
                self.cells_left.d.next = self.cells_left.q.val() - 1;
                self.last_cell.d.next = self.cells_left.q.val() == 2;
                self.column.d.next = self.column.q.val() + 1;
                self.last_column.d.next = self.column.q.val() + 2 == self.columns_q.val();
                if self.last_column.q.val() {
                    self.column.d.next = 0.into();
                    self.last_column.d.next = self.one_column.q.val();
                    self.row.d.next = self.row.q.val() + 1;
                    self.word_valid.d.next = false;
                    self.step.d.next = MapStep::Request;
                }
                if self.last_cell.q.val() {
                    self.map_end.d.next = true;
                    self.step.d.next = MapStep::Pad;
                }
                if self.packed.q.val() == 12 {
                    self.step.d.next = MapStep::Emit;
                }
            }
            MapStep::Pad => {
                self.pack_q.d.next = self.pack_q.q.val() << 1;
                self.packed.d.next = self.packed.q.val() + 1;
                if self.packed.q.val() == 12 {
                    self.step.d.next = MapStep::Emit;
                }
            }
            MapStep::Emit => {
                if !self.pending.val() {
                    self.emit.next = true;
                    self.pack_q.d.next = 0.into();
                    self.packed.d.next = 0.into();
                    self.step.d.next = MapStep::Request;
                    if self.word_valid.q.val() {
                        self.step.d.next = MapStep::Shift;
                    }
                    if self.map_end.q.val() {
                        self.step.d.next = MapStep::Next;
                    }
                }
            }
            MapStep::Next => {
                // The VALUES map follows the KNOWN map; for SEVERAL the
                // DIFFERS map follows; then the status. (A step of its
                // own: in Emit this chain of conditions missed 100 MHz.)
                self.map_end.d.next = false;
                self.known_q.d.next = false;
                self.row.d.next = 0.into();
                self.column.d.next = 0.into();
                self.last_column.d.next = self.one_column.q.val();
                self.cells_left.d.next = self.cells_q.q.val();
                self.last_cell.d.next = self.one_cell.q.val();
                // (`word_valid` is low already: the last cell is a row's
                // last, and Shift cleared it there.)
                self.step.d.next = MapStep::Request;
                if !self.known_q.q.val() {
                    if self.several.val() & !self.differs_q.q.val() {
                        self.differs_q.d.next = true;
                    } else {
                        self.differs_q.d.next = false;
                        self.done.next = true;
                    }
                }
            }
            _ => {
                self.step.d.next = MapStep::Request;
            }
        }
        self.one_column.d.next = self.columns_q.val() == 1;
        self.one_cell.d.next = self.cells_q.q.val() == 1;

        if self.restart.val() {
            self.row.d.next = 0.into();
            self.column.d.next = 0.into();
            self.packed.d.next = 0.into();
            self.pack_q.d.next = 0.into();
            self.map_end.d.next = false;
            self.word_valid.d.next = false;
            self.differs_q.d.next = false;
            self.step.d.next = MapStep::Request;
        }
        if self.board_done.val() {
            // The first map: KNOWN if some cell is unknown, else VALUES.
            self.known_q.d.next = !self.all_known.val();
            self.cells_left.d.next = self.board_cells.val();
            self.last_cell.d.next = self.board_cells.val() == 1;
            self.last_column.d.next = self.columns.val() == 1;
            self.cells_q.d.next = self.board_cells.val();
        }
        if self.stop.val() {
            self.step.d.next = MapStep::Request;
        }

        self.read_row.next = bit_cast::<6, 7>(self.row.q.val());
        self.read_value.next = !self.known_q.q.val();
        self.read_differs.next = self.differs_q.q.val();
        self.pack.next = self.pack_q.q.val();
        self.known_map.next = self.known_q.q.val();
        self.differs_map.next = self.differs_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};
    use crate::clue::clue_protocol::map_words;

    /// The maps of one board, as the bench's board memory serves them (a
    /// word a cycle after its address): the messages' 13-cell packs, and the
    /// cycle of `done`.
    fn pack_board(
        rows: usize,
        columns: usize,
        all_known: bool,
        several: bool,
        words: &[[u64; 3]],
    ) -> Vec<u64> {
        let mut uut = MapPacker::default();
        uut.connect_all();
        uut.restart.next = true;
        uut.board_done.next = true;
        uut.all_known.next = all_known;
        uut.board_cells.next = ((rows * columns) as u64).into();
        uut.columns.next = (columns as u64).into();
        tick(&mut uut, |u| &mut u.clock);
        uut.restart.next = false;
        uut.board_done.next = false;
        uut.columns_q.next = (columns as u64).into();
        uut.several.next = several;
        uut.maps.next = true;
        let mut packs = vec![];
        for _ in 0..10_000 {
            let row = uut.read_row.val().index();
            let map = if uut.read_differs.val() {
                2
            } else {
                uut.read_value.val() as usize
            };
            tick(&mut uut, |u| &mut u.clock);
            uut.row_word.next = words.get(row).map_or(0, |w| w[map]).into();
            assert!(simulate(&mut uut, 1000));
            if uut.emit.val() {
                let kind = if uut.differs_map.val() {
                    2
                } else {
                    !uut.known_map.val() as u64
                };
                packs.push(kind << 13 | uut.pack.val().to_u64());
            }
            if uut.done.val() {
                return packs;
            }
        }
        panic!("the maps did not end");
    }

    /// The same from the words in plain Rust: map kind in bits 14..13.
    fn expected(rows: usize, columns: usize, all_known: bool, several: bool, words: &[[u64; 3]]) -> Vec<u64> {
        let maps = [(!all_known).then_some(0), Some(1), several.then_some(2)];
        let mut packs = vec![];
        for map in maps.into_iter().flatten() {
            let cells: Vec<bool> = (0..rows * columns)
                .map(|i| words[i / columns][map] >> (i % columns) & 1 == 1)
                .collect();
            packs.extend(
                map_words(&cells)
                    .into_iter()
                    .map(|pack| (map as u64) << 13 | pack as u64),
            );
        }
        packs
    }

    #[test]
    fn packs_each_map_thirteen_cells_a_message() {
        let mut rng = Rng(0x5eed_0f_ba11);
        for trial in 0..40 {
            let (rows, columns) = if trial == 0 {
                (1, 1)
            } else {
                (1 + rng.below(12) as usize, 1 + rng.below(12) as usize)
            };
            let mask = (1u64 << columns) - 1;
            let words: Vec<[u64; 3]> = (0..rows)
                .map(|_| {
                    [
                        rng.next_u64() & mask,
                        rng.next_u64() & mask,
                        rng.next_u64() & mask,
                    ]
                })
                .collect();
            let (all_known, several) = (trial % 2 == 0, trial % 3 == 0);
            assert_eq!(
                pack_board(rows, columns, all_known, several, &words),
                expected(rows, columns, all_known, several, &words),
                "{rows}x{columns}, all known {all_known}, several {several}"
            );
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = MapPacker::default();
        uut.connect_all();
        yosys_check(&uut, "map_packer");
    }
}
