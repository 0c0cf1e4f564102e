//! First-solution times on chosen puzzles of a tournament set, the slowest
//! listed: the software solver's (wall time, capped), or with `MODEL=1` the
//! probing engine's cycle-exact model (board time at 100 MHz; `BUDGET` in
//! units of 2^20 cycles, default 96, about 1 s). `nonohost tournament` runs
//! whole sets; this looks at a band of one, such as the hard middle:
//!
//! ```sh
//! cargo run --release -p nonohost --example set_slice -- ../shared/tournament/icga2016.txt 60 $(seq 401 500)
//! MODEL=1 cargo run --release -p nonohost --example set_slice -- ../shared/tournament/icga2016.txt 60 $(seq 401 500)
//! ```
//!
//! The software's solutions are checked against the clues.
//!
//! `UNIQUE=1` decides uniqueness instead (a search for two solutions, as
//! `nonohost tournament --unique` does); the totals then count the puzzles
//! with one solution and with several.
//!
//! `SET` may also be `random:SIZE:DENSITY:SEED`: puzzle N is then the
//! random picture `nonohost tournament --size SIZE --density DENSITY --seed
//! SEED` runs as its puzzle N (`tournament::puzzle`), e.g. 200 random 30×30
//! at density ½ in uniqueness mode:
//!
//! ```sh
//! UNIQUE=1 cargo run --release -p nonohost --example set_slice -- random:30:0.5:2011 60 $(seq 1 200)
//! ```
//!
//! `SAT_AFTER=N` hands the software's search to the SAT solver after N
//! nodes instead of `solver::sat::SAT_AFTER_NODES` (`SAT_AFTER=never`: not
//! at all, the search as it was before the hand-over).
//!
//! `POLICY=specified` runs the model with the probing policy first
//! specified, `POLICY=product,fewer,skip,keep,resume` (and `ROUNDS=2`) with
//! the listed changes to it (`clue_model::Policy`); without `POLICY`, the
//! planned engine's policy.
//!
//! `SPEEDUPS` prices unbuilt speed-ups in the model (`clue_model::Speedups`),
//! a comma-separated list of `finder`, `writes`, `passes`, `values` or
//! `cells` (two probes at once), and `cache=N` (a line-result cache of N
//! entries). With `MODEL=1` each puzzle's figures go to
//! stderr, and the totals add nodes, visits and cycles per visit.
use nonohost::solver::{Budget, Solver};
use std::time::{Duration, Instant};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let cap: f64 = a[2].parse().unwrap();
    let picks: Vec<usize> = a[3..].iter().map(|x| x.parse().unwrap()).collect();
    let set = match a[1].strip_prefix("random:") {
        Some(spec) => {
            let spec: Vec<&str> = spec.split(':').collect();
            let [size, density, seed] = spec[..] else {
                panic!("random:SIZE:DENSITY:SEED");
            };
            let (size, density, seed) = (
                size.parse().unwrap(),
                density.parse().unwrap(),
                seed.parse().unwrap(),
            );
            let last = picks.iter().copied().max().unwrap_or(0);
            (1..=last)
                .map(|n| nonohost::tournament::puzzle(seed, n as u64 - 1, last as u64, size, Some(density)))
                .collect()
        }
        None => nonohost::tournament::read_set(std::path::Path::new(&a[1])).unwrap(),
    };
    let limit = if std::env::var("UNIQUE").is_ok_and(|u| u == "1") {
        2
    } else {
        1
    };
    // Puzzles found with one solution, with several.
    let mut verdicts = [0usize; 2];
    let mut total = 0.0;
    let mut all = vec![];
    let speedups = std::env::var("SPEEDUPS").unwrap_or_default();
    let has = |s: &str| speedups.split(',').any(|x| x == s);
    use nonogram_hdl::clue::clue_model::{Pairs, Speedups};
    let speedups = Speedups {
        finder: has("finder"),
        fast_writes: has("writes"),
        both_passes: has("passes"),
        cache: speedups
            .split(',')
            .find_map(|x| {
                x.strip_prefix("cache=")
                    .map(|n| n.parse().expect("cache=ENTRIES"))
            })
            .unwrap_or(0),
        pairs: if has("cells") {
            Pairs::Cells
        } else if has("values") {
            Pairs::Values
        } else {
            Pairs::None
        },
    };
    // The probing policy: the planned engine's (`Policy::default`), or with
    // `POLICY` the first specification (`Policy::SPECIFIED`) with the listed
    // changes: `product`, `fewer`, `skip`, `keep`, `resume`, `alike`;
    // `ROUNDS` caps the rounds at a node.
    use nonogram_hdl::clue::clue_model::{Policy, Score};
    let policy = match std::env::var("POLICY") {
        Err(_) => Policy::default(),
        Ok(list) => {
            let on = |s: &str| list.split(',').any(|x| x == s);
            Policy {
                score: if on("product") { Score::Product } else { Score::Min },
                fewer_first: on("fewer"),
                skip_second: on("skip"),
                keep_best: on("keep"),
                resume: on("resume"),
                max_rounds: std::env::var("ROUNDS").map_or(0, |b| b.parse().unwrap()),
                alike: on("alike"),
            }
        }
    };
    // Nodes, visits, all cycles, line logic's cycles.
    let mut sums = [0u64; 4];
    for n in picks {
        let p = &set[n - 1];
        if std::env::var("MODEL").is_ok() {
            use nonogram_hdl::clue::clue_model::{run_policy, Mode};
            let (v, line_cycles) = run_policy(
                &p.rows,
                &p.columns,
                Mode {
                    budget: std::env::var("BUDGET").map_or(96, |b| b.parse().unwrap()),
                    first: true,
                    probe: true,
                },
                speedups,
                policy,
            );
            eprintln!(
                "#{n} outcome {} nodes {} visits {} cycles {} line_cycles {line_cycles} probes {} rounds {} forced {} cache_hits {}",
                v.outcome, v.nodes, v.visits, v.cycles, v.probes, v.rounds, v.forced, v.cache_hits
            );
            if v.outcome == nonogram_hdl::link::protocol::status::outcome::SOLVED {
                let cells: Vec<bool> = v.cells.iter().map(|c| c.unwrap_or(false)).collect();
                p.check_solution(&cells)
                    .unwrap_or_else(|e| panic!("#{n}: the model's solution breaks the clues: {e}"));
            }
            for (s, x) in sums.iter_mut().zip([v.nodes, v.visits, v.cycles, line_cycles]) {
                *s += x;
            }
            let dt = v.cycles as f64 / 1e8;
            total += dt;
            all.push((
                dt,
                n,
                v.nodes,
                v.outcome != nonogram_hdl::link::protocol::status::outcome::SOLVED,
            ));
            continue;
        }
        let t = Instant::now();
        let mut s = Solver::new();
        if let Ok(nodes) = std::env::var("SAT_AFTER") {
            s.set_sat_after(nodes.parse().unwrap_or(u64::MAX));
        }
        s.set_budget(Budget {
            deadline: Some(t + Duration::from_secs_f64(cap)),
            ..Default::default()
        });
        let f = s.count_solutions(&p.rows, &p.columns, limit);
        let dt = t.elapsed().as_secs_f64();
        for cells in [&f.first, &f.second].into_iter().flatten() {
            p.check_solution(cells)
                .unwrap_or_else(|e| panic!("#{n}: the software's solution breaks the clues: {e}"));
        }
        if !f.gave_up && f.count > 0 {
            verdicts[(f.count > 1) as usize] += 1;
        }
        eprintln!(
            "#{n} gave_up {} nodes {} solutions {} by_sat {} seconds {dt:.3}",
            f.gave_up, f.nodes, f.count, f.by_sat
        );
        total += dt;
        sums[0] += f.nodes;
        all.push((dt, n, f.nodes, f.gave_up));
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0));
    let capped = all.iter().filter(|a| a.3).count();
    let median = match all.len() {
        0 => 0.0,
        n if n % 2 == 1 => all[n / 2].0,
        n => (all[n / 2 - 1].0 + all[n / 2].0) / 2.0,
    };
    println!(
        "total {total:.2} s over {} puzzles, {capped} capped, median {median:.3} s; slowest:",
        all.len()
    );
    if sums[1] == 0 {
        let mode = if limit == 2 {
            "uniqueness"
        } else {
            "first solution"
        };
        println!(
            "software ({mode}): {} nodes, {} with one solution, {} with several",
            sums[0], verdicts[0], verdicts[1]
        );
    } else {
        println!(
            "{speedups:?} {policy:?}: {} nodes, {} visits, {:.1} cycles a visit in line logic, {:.1} all told",
            sums[0],
            sums[1],
            sums[3] as f64 / sums[1] as f64,
            sums[2] as f64 / sums[1] as f64
        );
    }
    for (dt, n, nodes, cap) in all.iter().take(10) {
        println!(
            "  #{n}: {dt:.2} s, {nodes} nodes{}",
            if *cap { " (cap)" } else { "" }
        );
    }
}
