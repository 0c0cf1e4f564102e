//! The clue solver's verdict: how the solve ends when line logic finds no
//! dirty line (an outcome, or the board handed to the search), the outcome
//! each other end takes, and the reply's DETAIL (see `clue_model`): for a contradiction the line with no fill
//! (rows 0..m, then columns; SEARCHED when a search refuted every guess);
//! for SOLVED, FIRST_FOUND when first-solution mode's search found it; for
//! GAVE_UP, whether the budget or the trail ran out; else 0.

use crate::clue::clue_model::{BUDGET_RAN_OUT, FIRST_FOUND, SEARCHED, TRAIL_RAN_OUT};
use crate::constant;
use crate::link::protocol::status::outcome;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Verdict {
    pub clock: Signal<In, Clock>,
    /// A new board; an abandoned one (no verdict, even one decided in the
    /// same cycle).
    pub start: Signal<In, Bit>,
    pub abort: Signal<In, Bit>,
    /// With `start`: first-solution mode.
    pub first_only: Signal<In, Bit>,
    /// Pulse (the solver's Look): no line is dirty. With every cell known
    /// that ends the solve (SOLVED by line logic; SOLVED with FIRST_FOUND
    /// in first-solution mode's search; SEVERAL at a second solution) or
    /// hands the board to the search to keep it (`to_save`); with some
    /// unknown, STALLED without a budget, or to the search (`to_check`).
    pub no_dirty: Signal<In, Bit>,
    pub board_known: Signal<In, Bit>,
    /// A probe runs (a full board is then one of its results, but in
    /// first-solution mode); a branch was made or a probe runs (a full
    /// board is not line logic's alone).
    pub in_probe: Signal<In, Bit>,
    pub guessed: Signal<In, Bit>,
    pub solution_kept: Signal<In, Bit>,
    pub no_search: Signal<In, Bit>,
    /// Where a `no_dirty` now would go: keep the solution, choose a guess,
    /// either (the solver then enters its Search state, else Done).
    pub to_save: Signal<Out, Bit>,
    pub to_check: Signal<Out, Bit>,
    pub to_search: Signal<Out, Bit>,
    /// Pulse: a line with no fill.
    pub contradiction: Signal<In, Bit>,
    /// The search's end: gave up, or with the kept solution (SOLVED), or
    /// with none (CONTRADICTION).
    pub search_finish: Signal<In, Bit>,
    pub finish_gave_up: Signal<In, Bit>,
    pub finish_keeps: Signal<In, Bit>,
    /// For DETAIL: a guess was made; the search gave up for the trail; the
    /// line the solve ended on.
    pub searching: Signal<In, Bit>,
    pub trail_full: Signal<In, Bit>,
    pub line: Signal<In, Bits<8>>,
    pub done: Signal<Out, Bit>,
    pub outcome: Signal<Out, Bits<3>>,
    pub detail: Signal<Out, Bits<8>>,
    /// The answer is read from the solution memory.
    pub answer_kept: Signal<Out, Bit>,
    outcome_q: DFF<Bits<3>>,
    done_q: DFF<Bit>,
    first_found_q: DFF<Bit>,
    answer_kept_q: DFF<Bit>,
    first_only_q: DFF<Bit>,
    // `no_dirty` ends the solve here.
    line_end: Signal<Local, Bit>,
    // DETAIL, chosen here and put on its port once: the solver reads it in
    // the same always block that drives this block's pulses, and a port
    // written twice in one pass (0, then the line) sets Icarus's zero-delay
    // scheduler bouncing between the two blocks.
    detail_choice: Signal<Local, Bits<8>>,
    solved_code: Constant<Bits<3>>,
    contradiction_code: Constant<Bits<3>>,
    stalled_code: Constant<Bits<3>>,
    several_code: Constant<Bits<3>>,
    gave_up_code: Constant<Bits<3>>,
    searched: Constant<Bits<8>>,
    first_found_detail: Constant<Bits<8>>,
    budget_ran_out: Constant<Bits<8>>,
    trail_ran_out: Constant<Bits<8>>,
}

impl Default for Verdict {
    fn default() -> Self {
        Verdict {
            clock: Default::default(),
            start: Default::default(),
            abort: Default::default(),
            first_only: Default::default(),
            no_dirty: Default::default(),
            board_known: Default::default(),
            solution_kept: Default::default(),
            no_search: Default::default(),
            to_save: Default::default(),
            to_check: Default::default(),
            to_search: Default::default(),
            contradiction: Default::default(),
            search_finish: Default::default(),
            finish_gave_up: Default::default(),
            finish_keeps: Default::default(),
            searching: Default::default(),
            in_probe: Default::default(),
            guessed: Default::default(),
            trail_full: Default::default(),
            line: Default::default(),
            done: Default::default(),
            outcome: Default::default(),
            detail: Default::default(),
            answer_kept: Default::default(),
            outcome_q: Default::default(),
            done_q: Default::default(),
            first_found_q: Default::default(),
            answer_kept_q: Default::default(),
            first_only_q: Default::default(),
            line_end: Default::default(),
            detail_choice: Default::default(),
            solved_code: constant(outcome::SOLVED),
            contradiction_code: constant(outcome::CONTRADICTION),
            stalled_code: constant(outcome::STALLED),
            several_code: constant(outcome::SEVERAL),
            gave_up_code: constant(outcome::GAVE_UP),
            searched: constant(SEARCHED as u64),
            first_found_detail: constant(FIRST_FOUND),
            budget_ran_out: constant(BUDGET_RAN_OUT),
            trail_ran_out: constant(TRAIL_RAN_OUT),
        }
    }
}

impl Logic for Verdict {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            outcome_q,
            done_q,
            first_found_q,
            answer_kept_q,
            first_only_q
        );
        self.to_save.next = self.board_known.val()
            & self.guessed.val()
            & !self.in_probe.val()
            & !self.first_only_q.q.val()
            & !self.solution_kept.val();
        self.to_check.next = (!self.board_known.val() & !self.no_search.val())
            | (self.board_known.val() & self.in_probe.val() & !self.first_only_q.q.val());
        self.to_search.next = self.to_save.val() | self.to_check.val();
        self.line_end.next = false;
        if self.no_dirty.val() {
            if self.board_known.val() {
                if !self.guessed.val() {
                    self.line_end.next = true;
                    self.outcome_q.d.next = self.solved_code.val();
                } else if self.first_only_q.q.val() {
                    // First-solution mode: this one will do.
                    self.line_end.next = true;
                    self.outcome_q.d.next = self.solved_code.val();
                    self.first_found_q.d.next = true;
                } else if self.solution_kept.val() & !self.in_probe.val() {
                    self.line_end.next = true;
                    self.outcome_q.d.next = self.several_code.val();
                    self.answer_kept_q.d.next = true;
                }
            } else if self.no_search.val() {
                self.line_end.next = true;
                self.outcome_q.d.next = self.stalled_code.val();
            }
        }
        self.done_q.d.next = self.line_end.val() | self.contradiction.val() | self.search_finish.val();
        if self.contradiction.val() {
            self.outcome_q.d.next = self.contradiction_code.val();
        }
        if self.search_finish.val() {
            self.outcome_q.d.next = self.contradiction_code.val();
            if self.finish_keeps.val() {
                self.outcome_q.d.next = self.solved_code.val();
            }
            if self.finish_gave_up.val() {
                self.outcome_q.d.next = self.gave_up_code.val();
            }
            self.answer_kept_q.d.next = self.finish_keeps.val();
        }
        if self.start.val() {
            self.first_only_q.d.next = self.first_only.val();
            self.first_found_q.d.next = false;
            self.answer_kept_q.d.next = false;
        }
        if self.abort.val() {
            self.done_q.d.next = false;
        }

        self.done.next = self.done_q.q.val();
        self.outcome.next = self.outcome_q.q.val();
        self.answer_kept.next = self.answer_kept_q.q.val();
        self.detail_choice.next = 0.into();
        if self.outcome_q.q.val() == self.contradiction_code.val() {
            self.detail_choice.next = self.line.val();
            if self.searching.val() {
                self.detail_choice.next = self.searched.val();
            }
        }
        if self.first_found_q.q.val() {
            self.detail_choice.next = self.first_found_detail.val();
        }
        if self.outcome_q.q.val() == self.gave_up_code.val() {
            self.detail_choice.next = self.budget_ran_out.val();
            if self.trail_full.val() {
                self.detail_choice.next = self.trail_ran_out.val();
            }
        }
        self.detail.next = self.detail_choice.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{tick, yosys_check};

    fn cycle(uut: &mut Verdict) {
        tick(uut, |u| &mut u.clock);
    }

    /// Each end, a cycle after its pulse (`levels` set before the start,
    /// as `first_only` is taken with it): done, the outcome, the DETAIL,
    /// and whether the answer is the kept solution.
    fn end(
        levels: fn(&mut Verdict),
        pulse: fn(&mut Verdict),
        searching: bool,
        trail_full: bool,
    ) -> (u64, u64, bool) {
        let mut uut = started(levels);
        uut.line.next = 9.into();
        uut.searching.next = searching;
        uut.guessed.next = searching;
        uut.trail_full.next = trail_full;
        cycle(&mut uut);
        assert!(!uut.done.val());
        pulse(&mut uut);
        cycle(&mut uut);
        assert!(uut.done.val());
        (
            uut.outcome.val().to_u64(),
            uut.detail.val().to_u64(),
            uut.answer_kept.val(),
        )
    }

    /// A verdict block a cycle after `start`, with `levels` set before it.
    fn started(levels: impl Fn(&mut Verdict)) -> Verdict {
        let mut uut = Verdict::default();
        uut.connect_all();
        levels(&mut uut);
        uut.start.next = true;
        cycle(&mut uut);
        uut.start.next = false;
        uut
    }

    fn none(_: &mut Verdict) {}
    fn no_dirty(u: &mut Verdict) {
        u.no_dirty.next = true;
    }

    #[test]
    fn each_end_gives_its_outcome_and_detail() {
        let (solved, several, stalled, gave_up) = (
            outcome::SOLVED as u64,
            outcome::SEVERAL as u64,
            outcome::STALLED as u64,
            outcome::GAVE_UP as u64,
        );
        let contradiction = outcome::CONTRADICTION as u64;
        let known = |u: &mut Verdict| u.board_known.next = true;
        assert_eq!(end(known, no_dirty, false, false), (solved, 0, false));
        let first = |u: &mut Verdict| {
            u.board_known.next = true;
            u.first_only.next = true;
        };
        assert_eq!(
            end(first, no_dirty, true, false),
            (solved, FIRST_FOUND as u64, false)
        );
        let second = |u: &mut Verdict| {
            u.board_known.next = true;
            u.solution_kept.next = true;
        };
        assert_eq!(end(second, no_dirty, true, false), (several, 0, true));
        let no_budget = |u: &mut Verdict| u.no_search.next = true;
        assert_eq!(end(no_budget, no_dirty, false, false), (stalled, 0, false));
        assert_eq!(
            end(none, |u| u.contradiction.next = true, false, false),
            (contradiction, 9, false)
        );
        let finish = |u: &mut Verdict| u.search_finish.next = true;
        assert_eq!(
            end(none, finish, true, false),
            (contradiction, SEARCHED as u64, false)
        );
        let kept = |u: &mut Verdict| {
            u.search_finish.next = true;
            u.finish_keeps.next = true;
        };
        assert_eq!(end(none, kept, true, false), (solved, 0, true));
        let gave_up_for = |u: &mut Verdict| {
            u.search_finish.next = true;
            u.finish_gave_up.next = true;
        };
        assert_eq!(
            end(none, gave_up_for, true, false),
            (gave_up, BUDGET_RAN_OUT as u64, false)
        );
        assert_eq!(
            end(none, gave_up_for, true, true),
            (gave_up, TRAIL_RAN_OUT as u64, false)
        );
    }

    /// With no line dirty, the cases that go on to the search: no verdict,
    /// and the hand-over the solver takes. (A probe's full board is one of
    /// its results, but in first-solution mode.)
    #[test]
    fn no_dirty_line_hands_over_to_the_search_or_ends() {
        for case in 0..64u32 {
            let bit = |k: u32| case >> k & 1 == 1;
            let (known, searching, first, kept, no_search) = (bit(0), bit(1), bit(2), bit(3), bit(4));
            let in_probe = bit(5);
            let guessed = searching || in_probe;
            let mut uut = started(|u| u.first_only.next = first);
            uut.board_known.next = known;
            uut.searching.next = searching;
            uut.guessed.next = guessed;
            uut.in_probe.next = in_probe;
            uut.solution_kept.next = kept;
            uut.no_search.next = no_search;
            uut.no_dirty.next = true;
            cycle(&mut uut);
            let save = known && guessed && !in_probe && !first && !kept;
            let check = (!known && !no_search) || (known && in_probe && !first);
            assert_eq!(
                (uut.to_save.val(), uut.to_check.val(), uut.to_search.val()),
                (save, check, save || check),
                "case {case:06b}"
            );
            assert_eq!(uut.done.val(), !(save || check), "case {case:06b}");
        }
    }

    #[test]
    fn an_abort_takes_back_a_verdict_of_the_same_cycle() {
        let mut uut = Verdict::default();
        uut.connect_all();
        uut.board_known.next = true;
        uut.no_dirty.next = true;
        uut.abort.next = true;
        cycle(&mut uut);
        assert!(!uut.done.val());
    }

    #[test]
    fn verilog_synthesises() {
        let mut uut = Verdict::default();
        uut.connect_all();
        yosys_check(&uut, "verdict");
    }
}
