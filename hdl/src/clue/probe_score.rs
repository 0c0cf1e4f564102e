//! Probing's scores (`clue_model::probe` is its model): the cells a probe
//! fixed, a cell's score as a branch, the round's best cell and the cell
//! kept across the rounds at a node.
//!
//! * A probe is undone entry by entry (`count_clear`, then `count_pop` for
//!   each, its mark included): `popped` is then n + 1, n the cells it fixed
//!   besides the probed one. `keep_filled` keeps the filled probe's.
//! * `multiply`, after the empty probe: the score (n1 + 1)(n0 + 1), shift
//!   and add, a bit of the 12-bit count a cycle (the iCE40 has no
//!   multipliers); 12 cycles, and two cycles after them the round's best
//!   takes the cell if it scores higher (the first found wins a tie), with
//!   the value whose probe fixed fewer cells first.
//! * `merge`, at a round's end: the kept cell gives way to the round's best
//!   if it is known now or scores lower. Its Known bit is picked from its
//!   row's word on `read_data` at `kept_sample`, in two steps: a bit of
//!   every four, then one of those sixteen, ready two cycles later (in one
//!   step from the block RAM's output it missed 100 MHz).
//! * `node_start` forgets both; `round_start` the round's best.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ProbeScore {
    pub clock: Signal<In, Clock>,
    pub count_clear: Signal<In, Bit>,
    pub count_pop: Signal<In, Bit>,
    pub keep_filled: Signal<In, Bit>,
    pub multiply: Signal<In, Bit>,
    /// The probed cell, for the round's best.
    pub row: Signal<In, Bits<6>>,
    pub column: Signal<In, Bits<6>>,
    pub node_start: Signal<In, Bit>,
    pub round_start: Signal<In, Bit>,
    pub read_data: Signal<In, Bits<64>>,
    pub kept_sample: Signal<In, Bit>,
    pub merge: Signal<In, Bit>,
    /// The multiply runs; its last cycle.
    pub multiplying: Signal<Out, Bit>,
    pub last_step: Signal<Out, Bit>,
    pub kept_valid: Signal<Out, Bit>,
    pub kept_row: Signal<Out, Bits<6>>,
    pub kept_column: Signal<Out, Bits<6>>,
    pub kept_value: Signal<Out, Bit>,
    pub kept_known: Signal<Out, Bit>,
    popped: DFF<Bits<12>>,
    filled_count: DFF<Bits<12>>,
    // The multiply: steps left, the shifted multiplicand, the multiplier's
    // bits left, the sum; the value to try first; compare next cycle.
    steps_left: DFF<Bits<4>>,
    multiplicand: DFF<Bits<24>>,
    multiplier: DFF<Bits<12>>,
    product: DFF<Bits<24>>,
    fewer_filled: DFF<Bit>,
    compare: DFF<Bit>,
    /// `steps_left != 0` and `steps_left == 1`, kept as registers: decoded
    /// from the count, they were a critical path of the probing image into
    /// the search's step.
    multiplying_q: DFF<Bit>,
    last_step_q: DFF<Bit>,
    // The 24-bit compares, registered (as the enables of the best and kept
    // cells they held the clue bitstream under 90 MHz): the product beats
    // the round's best (taken a cycle after the multiply), the best beats
    // the kept cell (stable long before a merge).
    take_best: DFF<Bit>,
    best_beats_kept: DFF<Bit>,
    best_valid: DFF<Bit>,
    best_score: DFF<Bits<24>>,
    best_row: DFF<Bits<6>>,
    best_column: DFF<Bits<6>>,
    best_value: DFF<Bit>,
    kept_valid_q: DFF<Bit>,
    kept_score: DFF<Bits<24>>,
    kept_row_q: DFF<Bits<6>>,
    kept_column_q: DFF<Bits<6>>,
    kept_value_q: DFF<Bit>,
    kept_known_q: DFF<Bit>,
    quarter: DFF<Bits<16>>,
    sampled: DFF<Bit>,
    shifted: Signal<Local, Bits<64>>,
    every_fourth: Signal<Local, Bits<16>>,
}

impl Logic for ProbeScore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            popped,
            filled_count,
            steps_left,
            multiplicand,
            multiplier,
            product,
            fewer_filled,
            compare,
            multiplying_q,
            last_step_q,
            take_best,
            best_beats_kept,
            best_valid,
            best_score,
            best_row,
            best_column,
            best_value,
            kept_valid_q,
            kept_score,
            kept_row_q,
            kept_column_q,
            kept_value_q,
            kept_known_q,
            quarter,
            sampled
        );
        if self.count_clear.val() {
            self.popped.d.next = 0.into();
        }
        if self.count_pop.val() {
            self.popped.d.next = self.popped.q.val() + 1;
        }
        if self.keep_filled.val() {
            self.filled_count.d.next = self.popped.q.val();
        }

        self.compare.d.next = false;
        self.multiplying_q.d.next = false;
        self.last_step_q.d.next = false;
        if self.steps_left.q.val() != 0 {
            self.multiplying_q.d.next = self.steps_left.q.val() != 1;
            self.last_step_q.d.next = self.steps_left.q.val() == 2;
            if self.multiplier.q.val().get_bit(0) {
                self.product.d.next = self.product.q.val() + self.multiplicand.q.val();
            }
            self.multiplicand.d.next = self.multiplicand.q.val() << 1;
            self.multiplier.d.next = self.multiplier.q.val() >> 1;
            self.steps_left.d.next = self.steps_left.q.val() - 1;
            self.compare.d.next = self.steps_left.q.val() == 1;
        }
        if self.multiply.val() {
            self.steps_left.d.next = 12.into();
            self.multiplying_q.d.next = true;
            self.multiplicand.d.next = bit_cast::<24, 12>(self.filled_count.q.val());
            self.multiplier.d.next = self.popped.q.val();
            self.product.d.next = 0.into();
            self.fewer_filled.d.next = self.filled_count.q.val() < self.popped.q.val();
        }
        self.take_best.d.next = self.compare.q.val()
            & (!self.best_valid.q.val() | (self.product.q.val() > self.best_score.q.val()));
        if self.take_best.q.val() {
            self.best_valid.d.next = true;
            self.best_score.d.next = self.product.q.val();
            self.best_row.d.next = self.row.val();
            self.best_column.d.next = self.column.val();
            self.best_value.d.next = self.fewer_filled.q.val();
        }
        if self.round_start.val() | self.node_start.val() {
            self.best_valid.d.next = false;
        }

        self.shifted.next =
            self.read_data.val() >> bit_cast::<64, 2>(self.kept_column_q.q.val().get_bits::<2>(0));
        self.every_fourth.next = 0.into();
        for i in 0..16 {
            self.every_fourth.next = self
                .every_fourth
                .val()
                .replace_bit(i, self.shifted.val().get_bit(i * 4));
        }
        if self.kept_sample.val() {
            self.quarter.d.next = self.every_fourth.val();
        }
        self.sampled.d.next = self.kept_sample.val();
        if self.sampled.q.val() {
            self.kept_known_q.d.next = self
                .quarter
                .q
                .val()
                .get_bit(self.kept_column_q.q.val().get_bits::<4>(2).index());
        }
        self.best_beats_kept.d.next =
            self.best_valid.q.val() & (self.best_score.q.val() > self.kept_score.q.val());
        if self.merge.val()
            & (!self.kept_valid_q.q.val() | self.kept_known_q.q.val() | self.best_beats_kept.q.val())
        {
            self.kept_valid_q.d.next = self.best_valid.q.val();
            self.kept_score.d.next = self.best_score.q.val();
            self.kept_row_q.d.next = self.best_row.q.val();
            self.kept_column_q.d.next = self.best_column.q.val();
            self.kept_value_q.d.next = self.best_value.q.val();
        }
        if self.node_start.val() {
            self.kept_valid_q.d.next = false;
        }

        self.multiplying.next = self.multiplying_q.q.val();
        self.last_step.next = self.last_step_q.q.val();
        self.kept_valid.next = self.kept_valid_q.q.val();
        self.kept_row.next = self.kept_row_q.q.val();
        self.kept_column.next = self.kept_column_q.q.val();
        self.kept_value.next = self.kept_value_q.q.val();
        self.kept_known.next = self.kept_known_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::bench::{tick, yosys_check};

    fn cycle(uut: &mut ProbeScore) {
        tick(uut, |u| &mut u.clock);
    }

    /// A probe's count: `pops` entries undone.
    fn count(uut: &mut ProbeScore, pops: u64) {
        uut.count_clear.next = true;
        cycle(uut);
        uut.count_clear.next = false;
        uut.count_pop.next = true;
        for _ in 0..pops {
            cycle(uut);
        }
        uut.count_pop.next = false;
    }

    /// Random cells probed over random rounds and nodes, merged at each
    /// round's end: the kept cell is the model's rule's, and the multiply
    /// takes exactly its 12 cycles.
    #[test]
    fn keeps_the_best_cell_as_the_model_does() {
        let mut uut = ProbeScore::default();
        uut.connect_all();
        let mut rng = Rng(0x510e_527f_ade6_82d1);
        // (score, row, column, value)
        let mut kept: Option<(u64, u64, u64, bool)> = None;
        let mut best: Option<(u64, u64, u64, bool)> = None;
        for step in 0..400 {
            match rng.below(10) {
                0 => {
                    uut.node_start.next = true;
                    cycle(&mut uut);
                    uut.node_start.next = false;
                    (kept, best) = (None, None);
                }
                1 => {
                    // A round's end: the kept cell known or not.
                    let known = rng.below(3) == 0;
                    let word = if let Some((_, _, c, _)) = kept {
                        let w = rng.next_u64() & !(1 << c);
                        w | (known as u64) << c
                    } else {
                        rng.next_u64()
                    };
                    uut.read_data.next = word.into();
                    uut.kept_sample.next = true;
                    cycle(&mut uut);
                    uut.kept_sample.next = false;
                    cycle(&mut uut);
                    if kept.is_some() {
                        assert_eq!(uut.kept_known.val(), known, "step {step}");
                    }
                    uut.merge.next = true;
                    cycle(&mut uut);
                    uut.merge.next = false;
                    let beaten = matches!((kept, best), (Some(k), Some(b)) if b.0 > k.0);
                    if kept.is_none() || known || beaten {
                        kept = best;
                    }
                    uut.round_start.next = true;
                    cycle(&mut uut);
                    uut.round_start.next = false;
                    best = None;
                }
                _ => {
                    let (n1, n0) = (rng.below(2048), rng.below(2048));
                    let (row, column) = (rng.below(64), rng.below(64));
                    count(&mut uut, n1 + 1);
                    uut.keep_filled.next = true;
                    cycle(&mut uut);
                    uut.keep_filled.next = false;
                    count(&mut uut, n0 + 1);
                    uut.multiply.next = true;
                    uut.row.next = row.into();
                    uut.column.next = column.into();
                    cycle(&mut uut);
                    uut.multiply.next = false;
                    for s in 0..12 {
                        assert_eq!(uut.last_step.val(), s == 11, "step {step}, multiply cycle {s}");
                        cycle(&mut uut);
                    }
                    cycle(&mut uut); // the compare
                    cycle(&mut uut); // the best takes it
                    let score = (n1 + 1) * (n0 + 1);
                    if best.is_none_or(|b| score > b.0) {
                        best = Some((score, row, column, n1 < n0));
                    }
                }
            }
            let got = uut.kept_valid.val().then(|| {
                (
                    uut.kept_row.val().to_u64(),
                    uut.kept_column.val().to_u64(),
                    uut.kept_value.val(),
                )
            });
            assert_eq!(got, kept.map(|k| (k.1, k.2, k.3)), "step {step}");
        }
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = ProbeScore::default();
        uut.connect_all();
        yosys_check(&uut, "probe_score");
    }
}
