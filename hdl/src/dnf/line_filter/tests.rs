use super::*;
use crate::bench::{tick, xorshift, yosys_check};
use crate::dnf::option_store::OptionStore;

/// The filter on a real option store.
#[derive(LogicBlock, Default)]
struct Bench {
    clock: Signal<In, Clock>,
    store: OptionStore,
    filter: LineFilter,
}

impl Logic for Bench {
    #[hdl_gen]
    fn update(&mut self) {
        self.store.clock.next = self.clock.val();
        self.filter.clock.next = self.clock.val();
        PairPort::join(&mut self.filter.store, &mut self.store.pairs);
    }
}

struct Line {
    options: Vec<u64>,
    known: u64,
    value: u64,
}

/// Streams the lines back to back, then checks each result (and the
/// cycle it came in) and the survivors left in each line's region.
fn check(lines: &[Line]) {
    let mut b = Bench::default();
    b.connect_all();
    let mut bases = vec![];
    for line in lines {
        bases.push(b.store.len.val().to_u64());
        for &o in &line.options {
            b.store.append.next = true;
            b.store.append_data.next = o.into();
            tick(&mut b, |b| &mut b.clock);
        }
    }
    b.store.append.next = false;
    let keep = |l: &Line| -> Vec<u64> {
        l.options
            .iter()
            .copied()
            .filter(|o| (o ^ l.value) & l.known == 0)
            .collect()
    };
    let mut next = 0;
    let mut take_cycle = vec![];
    let mut results = vec![];
    for cycle in 0..10_000u64 {
        let take = next < lines.len() && b.filter.free.val();
        b.filter.take.next = take;
        if take {
            let l = &lines[next];
            b.filter.take_index.next = (next as u64).into();
            b.filter.take_base.next = bases[next].into();
            b.filter.take_count.next = (l.options.len() as u64).into();
            b.filter.take_known.next = l.known.into();
            b.filter.take_value.next = l.value.into();
            take_cycle.push(cycle);
            next += 1;
        }
        if b.filter.result.val() {
            assert_eq!(
                b.filter.result_empty.val(),
                b.filter.result_survivors.val() == 0,
                "line {}: result_empty",
                b.filter.result_index.val().index()
            );
            results.push((
                cycle,
                b.filter.result_index.val().index(),
                b.filter.result_survivors.val().index(),
                b.filter.result_all.val().to_u64(),
                b.filter.result_any.val().to_u64(),
            ));
        }
        tick(&mut b, |b| &mut b.clock);
        if next == lines.len() && !b.filter.busy.val() {
            break;
        }
    }
    assert_eq!(results.len(), lines.len(), "one result per line");
    for (j, (l, &(cycle, index, survivors, all, any))) in lines.iter().zip(&results).enumerate() {
        let kept = keep(l);
        let pairs = l.options.len().div_ceil(2).max(1) as u64;
        assert_eq!(index, j);
        assert_eq!(cycle, take_cycle[j] + pairs + 3, "line {j}: the result's cycle");
        assert_eq!(survivors, kept.len(), "line {j}: survivors");
        assert_eq!(
            all,
            kept.iter().fold(u32::MAX as u64, |a, o| a & o),
            "line {j}: AND"
        );
        assert_eq!(any, kept.iter().fold(0, |a, o| a | o), "line {j}: OR");
    }
    // The survivors are at the front of each region, in some order (the
    // last writes land through the store's write registers first).
    tick(&mut b, |b| &mut b.clock);
    for (j, l) in lines.iter().enumerate() {
        let mut kept = keep(l);
        let mut stored: Vec<u64> = (bases[j]..bases[j] + kept.len() as u64)
            .map(|s| b.store.peek(s))
            .collect();
        kept.sort();
        stored.sort();
        assert_eq!(stored, kept, "line {j}: the region's survivors");
    }
}

#[test]
fn keeps_what_agrees_and_streams_lines_back_to_back() {
    let mut rand = xorshift(0x2545_f491_4f6c_dd1du64);
    for _ in 0..30 {
        let lines: Vec<Line> = (0..1 + rand() % 12)
            .map(|_| {
                // Short lines (0..=3 options) exercise the hand-over.
                let count = if rand() % 2 == 0 { rand() % 4 } else { rand() % 40 };
                let options = (0..count).map(|_| rand() & 0xff).collect();
                Line {
                    options,
                    known: rand() & rand() & 0xff,
                    value: rand() & 0xff,
                }
            })
            .collect();
        check(&lines);
    }
}

#[test]
fn verilog_synthesises() {
    let mut uut = LineFilter::default();
    uut.connect_all();
    yosys_check(&uut, "line_filter");
}
