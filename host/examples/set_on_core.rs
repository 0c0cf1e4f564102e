//! Puzzles of a tournament set through the probing core's Verilog (the
//! 32×32 build, Verilated), against its cycle-exact model, in
//! first-solution mode (the tournaments' task): reply for reply and cycle
//! for cycle, every first solution checked against the clues, every
//! contradiction against the software search. Issue 26's check on the sets'
//! hard half:
//!
//! ```sh
//! cargo run --release -p nonohost --example set_on_core -- ../shared/tournament/icga2016.txt 10 $(seq 501 550)
//! ```
//!
//! Arguments: the set, the search budget in units of 2^20 cycles, and the
//! puzzle numbers (from 1). Exits 1 on any disagreement.
use nonogram_hdl::board_model::Engine;
use nonogram_hdl::link::protocol::status::outcome;
use nonogram_sim::Backend;
use nonohost::sweep::Core;
use std::process::exit;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: set_on_core SET BUDGET N...");
        exit(2);
    }
    let set = nonohost::tournament::read_set(std::path::Path::new(&a[1])).unwrap_or_else(|e| {
        eprintln!("{e}");
        exit(2)
    });
    let budget: u16 = a[2].parse().expect("the budget, in units of 2^20 cycles");
    let picks: Vec<usize> = a[3..]
        .iter()
        .map(|x| x.parse().expect("a puzzle number"))
        .collect();
    let mut core = Core::new(Engine::Probing, Backend::Verilator)
        .unwrap_or_else(|e| {
            eprintln!("cannot start the Verilated probing core: {e}");
            exit(2)
        })
        .with_budget(budget)
        .with_first(true);
    let (mut solved, mut gave_up, mut disagreements, mut cycles) = (0, 0, 0, 0u64);
    for &n in &picks {
        let Some(puzzle) = set.get(n.wrapping_sub(1)) else {
            eprintln!("the set has no puzzle {n}");
            exit(2);
        };
        let run = core.run(puzzle, false);
        let e = &run.expected;
        solved += (e.outcome == outcome::SOLVED) as usize;
        gave_up += (e.outcome == outcome::GAVE_UP) as usize;
        cycles += e.cycles;
        println!(
            "#{n}: outcome {}, {} nodes, {} cycles{}",
            e.outcome,
            e.nodes,
            e.cycles,
            if run.differences.is_empty() {
                String::new()
            } else {
                format!(": DISAGREEMENT {:?}", run.differences)
            }
        );
        disagreements += !run.differences.is_empty() as usize;
    }
    println!(
        "{} puzzles through the probing core: {solved} solved, {gave_up} gave up, {} board seconds at 100 MHz, {disagreements} disagreements",
        picks.len(),
        cycles as f64 / 1e8
    );
    exit((disagreements > 0) as i32);
}
