//! The clue solver's counts: the board's cells (m·n), the known cells, the
//! cycles and the passes, and the registered compares the solver decides
//! on (every cell known; the unknown cells fit the undo trail).

use crate::clue::clue_model::TRAIL_ENTRIES;
use crate::common::params::CYCLE_BITS;
use crate::constant;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Tally {
    pub clock: Signal<In, Clock>,
    /// A new board: every count to 0.
    pub start: Signal<In, Bit>,
    /// The solver is working (cycles count).
    pub busy: Signal<In, Bit>,
    /// The board clear's step `counter`: m·n is summed there, as m
    /// additions of n (there is no multiplier).
    pub clearing: Signal<In, Bit>,
    pub counter: Signal<In, Bits<8>>,
    pub rows: Signal<In, Bits<7>>,
    pub columns: Signal<In, Bits<7>>,
    /// The solver's Look, at visit order's line `line`: a pass is counted
    /// at line 0.
    pub looking: Signal<In, Bit>,
    pub line: Signal<In, Bits<8>>,
    /// A cell fixed (counted a cycle later), a cell undone (a registered
    /// pulse already).
    pub fixing: Signal<In, Bit>,
    pub undone: Signal<In, Bit>,
    pub cells: Signal<Out, Bits<13>>,
    pub cycles: Signal<Out, Bits<CYCLE_BITS>>,
    pub passes: Signal<Out, Bits<8>>,
    /// Every cell is known: now (for the reply), and registered (for the
    /// solver's decisions: with the compare in front of the outcome the clue
    /// bitstream missed 100 MHz on two nextpnr seeds of five. Seek reads it
    /// a cycle late, which is exact: Advance, between the last change and
    /// Seek, changes nothing).
    pub every_known: Signal<Out, Bit>,
    pub board_known: Signal<Out, Bit>,
    /// The unknown cells fit the trail (registered: it feeds Check).
    pub trail_fits: Signal<Out, Bit>,
    cells_q: DFF<Bits<13>>,
    known_cells: DFF<Bits<13>>,
    cycles_q: DFF<Bits<CYCLE_BITS>>,
    passes_q: DFF<Bits<8>>,
    cell_fixed: DFF<Bit>,
    board_known_q: DFF<Bit>,
    trail_fits_q: DFF<Bit>,
    /// The known cells the trail needs for the rest to fit it (m·n less
    /// the trail's entries, or 0), registered: `trail_fits` is then one
    /// compare on `known_cells`, not a subtraction and a compare (the two
    /// carry chains were a critical path of the clue image). m·n is summed
    /// in the board clear, long before the first Check reads it.
    needed_known: DFF<Bits<13>>,
    // The line is line 0, and the passes saturated: for Look, registered
    // in Seek (the line does not move there).
    at_line_zero: DFF<Bit>,
    passes_full: DFF<Bit>,
    trail_entries: Constant<Bits<13>>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            clock: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            clearing: Default::default(),
            counter: Default::default(),
            rows: Default::default(),
            columns: Default::default(),
            looking: Default::default(),
            line: Default::default(),
            fixing: Default::default(),
            undone: Default::default(),
            cells: Default::default(),
            cycles: Default::default(),
            passes: Default::default(),
            every_known: Default::default(),
            board_known: Default::default(),
            trail_fits: Default::default(),
            cells_q: Default::default(),
            known_cells: Default::default(),
            cycles_q: Default::default(),
            passes_q: Default::default(),
            cell_fixed: Default::default(),
            board_known_q: Default::default(),
            trail_fits_q: Default::default(),
            needed_known: Default::default(),
            at_line_zero: Default::default(),
            passes_full: Default::default(),
            trail_entries: constant(TRAIL_ENTRIES as u64),
        }
    }
}

impl Logic for Tally {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cells_q,
            known_cells,
            cycles_q,
            passes_q,
            cell_fixed,
            board_known_q,
            trail_fits_q,
            needed_known,
            at_line_zero,
            passes_full
        );
        if self.clearing.val() & (self.counter.val() < bit_cast::<8, 7>(self.rows.val())) {
            self.cells_q.d.next = self.cells_q.q.val() + bit_cast::<13, 7>(self.columns.val());
        }
        self.cell_fixed.d.next = self.fixing.val();
        if self.cell_fixed.q.val() {
            self.known_cells.d.next = self.known_cells.q.val() + 1;
        }
        if self.undone.val() {
            self.known_cells.d.next = self.known_cells.q.val() - 1;
        }
        if self.busy.val() {
            self.cycles_q.d.next = self.cycles_q.q.val() + 1;
        }
        self.at_line_zero.d.next = self.line.val() == 0;
        self.passes_full.d.next = self.passes_q.q.val() == 255;
        if self.looking.val() & self.at_line_zero.q.val() & !self.passes_full.q.val() {
            self.passes_q.d.next = self.passes_q.q.val() + 1;
        }
        self.needed_known.d.next = 0.into();
        if self.cells_q.q.val() > self.trail_entries.val() {
            self.needed_known.d.next = self.cells_q.q.val() - self.trail_entries.val();
        }
        self.trail_fits_q.d.next = self.known_cells.q.val() >= self.needed_known.q.val();
        self.every_known.next = self.known_cells.q.val() == self.cells_q.q.val();
        self.board_known_q.d.next = self.every_known.val();
        if self.start.val() {
            self.cells_q.d.next = 0.into();
            self.known_cells.d.next = 0.into();
            self.cycles_q.d.next = 0.into();
            self.passes_q.d.next = 0.into();
        }
        self.cells.next = self.cells_q.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.passes.next = self.passes_q.q.val();
        self.board_known.next = self.board_known_q.q.val();
        self.trail_fits.next = self.trail_fits_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};

    fn cycle(uut: &mut Tally) {
        tick(uut, |u| &mut u.clock);
    }

    /// A tally started for a `rows`×`columns` board and taken through the
    /// board clear's 128 steps (counting cycles if `busy`).
    fn cleared(rows: u64, columns: u64, busy: bool) -> Tally {
        let mut uut = Tally::default();
        uut.connect_all();
        uut.start.next = true;
        cycle(&mut uut);
        uut.start.next = false;
        uut.rows.next = rows.into();
        uut.columns.next = columns.into();
        uut.busy.next = busy;
        uut.clearing.next = true;
        for step in 0..128u64 {
            uut.counter.next = step.into();
            cycle(&mut uut);
        }
        uut.clearing.next = false;
        uut
    }

    /// A 5×7 board cleared over 128 steps, cells fixed and undone, passes
    /// counted at line 0 only: every count as the solver's model keeps it.
    #[test]
    fn counts_cells_cycles_and_passes() {
        let mut uut = cleared(5, 7, true);
        assert_eq!(uut.cells.val().to_u64(), 35);
        assert_eq!(uut.cycles.val().to_u64(), 128);
        assert!(uut.trail_fits.val());
        for _ in 0..35 {
            uut.fixing.next = true;
            cycle(&mut uut);
        }
        uut.fixing.next = false;
        cycle(&mut uut);
        assert!(uut.every_known.val());
        cycle(&mut uut);
        assert!(uut.board_known.val(), "a cycle later");
        uut.undone.next = true;
        cycle(&mut uut);
        uut.undone.next = false;
        cycle(&mut uut);
        cycle(&mut uut);
        assert!(!uut.every_known.val() && !uut.board_known.val());
        // Seek then Look at lines 0, 3, 0: two passes.
        for line in [0u64, 3, 0] {
            uut.line.next = line.into();
            cycle(&mut uut);
            uut.looking.next = true;
            cycle(&mut uut);
            uut.looking.next = false;
        }
        assert_eq!(uut.passes.val().to_u64(), 2);
        uut.busy.next = false;
        let cycles = uut.cycles.val().to_u64();
        cycle(&mut uut);
        assert_eq!(uut.cycles.val().to_u64(), cycles, "only busy cycles count");
    }

    /// A 64×64 board: the unknown cells fit the trail exactly from the
    /// known count m·n − TRAIL_ENTRIES on, registered a cycle after the
    /// count, and no longer once a cell is undone below it.
    #[test]
    fn the_trail_fits_from_the_right_known_count() {
        let mut uut = cleared(64, 64, false);
        let cells = 64 * 64;
        assert_eq!(uut.cells.val().to_u64(), cells as u64);
        let needed = cells - TRAIL_ENTRIES;
        cycle(&mut uut);
        assert!(!uut.trail_fits.val(), "none known");
        // A fix counts a cycle after `fixing`; `trail_fits` a cycle after that.
        for known in 1..=needed + 1 {
            uut.fixing.next = true;
            cycle(&mut uut);
            uut.fixing.next = false;
            cycle(&mut uut);
            cycle(&mut uut);
            assert_eq!(uut.trail_fits.val(), known >= needed, "{known} known");
        }
        uut.undone.next = true;
        cycle(&mut uut);
        uut.undone.next = false;
        cycle(&mut uut);
        uut.undone.next = true;
        cycle(&mut uut);
        uut.undone.next = false;
        cycle(&mut uut);
        cycle(&mut uut);
        assert!(!uut.trail_fits.val(), "one under again");
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = Tally::default();
        uut.connect_all();
        yosys_check(&uut, "tally");
    }
}
