//! The search's counts and its budget: the nodes (guesses, counted as
//! `clue_model::search` counts them), the backtracks, and the registered
//! compare of the cycle count with the budget that Check gives up on.
//!
//! The step machine pulses `count_node` and `count_backtrack` in the step
//! that guesses or goes back; the counts change a cycle later, so that
//! their wide enables come from flip-flops.

use crate::clue::clue_model::BUDGET_UNIT_BITS;
use crate::common::params::CYCLE_BITS;
use rust_hdl::prelude::*;

// The budget compare takes the cycle count's bits 31..20.
const _: () = assert!(BUDGET_UNIT_BITS == 20 && CYCLE_BITS == 32);

#[derive(LogicBlock, Default)]
pub struct SearchCounts {
    pub clock: Signal<In, Clock>,
    /// A new board, with its budget in units of 2^20 cycles (0: no search).
    pub start: Signal<In, Bit>,
    pub budget: Signal<In, Bits<12>>,
    /// The solver's cycle count.
    pub cycles: Signal<In, Bits<CYCLE_BITS>>,
    /// From the step machine: this step guesses; this step goes back.
    pub count_node: Signal<In, Bit>,
    pub count_backtrack: Signal<In, Bit>,
    /// No budget (kept from the start); past the budget (registered).
    pub no_search: Signal<Out, Bit>,
    pub over_budget: Signal<Out, Bit>,
    /// A branch has been made since the start.
    pub branched: Signal<Out, Bit>,
    pub nodes: Signal<Out, Bits<32>>,
    pub backtracks: Signal<Out, Bits<32>>,
    budget_q: DFF<Bits<12>>,
    no_search_q: DFF<Bit>,
    over_budget_q: DFF<Bit>,
    nodes_q: DFF<Bits<32>>,
    backtracks_q: DFF<Bits<32>>,
    // The step's pulses, a cycle late.
    node_q: DFF<Bit>,
    backtrack_q: DFF<Bit>,
    branched_q: DFF<Bit>,
}

impl Logic for SearchCounts {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            budget_q,
            no_search_q,
            over_budget_q,
            nodes_q,
            backtracks_q,
            node_q,
            backtrack_q,
            branched_q
        );
        self.node_q.d.next = self.count_node.val();
        self.backtrack_q.d.next = self.count_backtrack.val();
        if self.node_q.q.val() {
            self.nodes_q.d.next = self.nodes_q.q.val() + 1;
        }
        if self.backtrack_q.q.val() {
            self.backtracks_q.d.next = self.backtracks_q.q.val() + 1;
        }
        self.over_budget_q.d.next =
            !self.no_search_q.q.val() & (self.cycles.val().get_bits::<12>(20) >= self.budget_q.q.val());
        if self.node_q.q.val() {
            self.branched_q.d.next = true;
        }
        if self.start.val() {
            self.budget_q.d.next = self.budget.val();
            self.branched_q.d.next = false;
            self.no_search_q.d.next = self.budget.val() == 0;
            self.nodes_q.d.next = 0.into();
            self.backtracks_q.d.next = 0.into();
        }
        self.no_search.next = self.no_search_q.q.val();
        self.over_budget.next = self.over_budget_q.q.val();
        self.branched.next = self.branched_q.q.val();
        self.nodes.next = self.nodes_q.q.val();
        self.backtracks.next = self.backtracks_q.q.val();
    }
}
