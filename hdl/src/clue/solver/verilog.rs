//! The emitted Verilog, simulated by Icarus, against the model.

use super::*;
use crate::bench::boards::{coin_clues, random_clues, Rng};
use crate::bench::iverilog_run;
use crate::clue::clue_model;
use crate::dnf::model::clues_of_picture;
use crate::link::protocol::status::outcome;

const TESTBENCH: &str = r#"
module tb;
  reg clock = 0;
  reg abort = 0, start = 0, first_only = 0, probe = 0, clue_write = 0, line_write = 0, read_value = 0, read_differs = 0;
  reg [11:0] budget;
  reg [6:0] rows, columns, clue_length, line_number;
  reg [10:0] clue_address, line_first;
  reg [5:0] line_blocks, read_row;
  wire [63:0] row_word;
  wire busy, done, all_known;
  wire [31:0] nodes, backtracks;
  wire [2:0] outcome;
  wire [7:0] detail, passes;
  wire [31:0] cycles;
  top uut(.clock(clock), .abort(abort), .start(start), .rows(rows), .columns(columns),
      .clue_write(clue_write), .clue_address(clue_address), .clue_length(clue_length),
      .line_write(line_write), .line_number(line_number), .line_first(line_first),
      .line_blocks(line_blocks), .budget(budget), .first_only(first_only), .probe(probe), .read_row(read_row), .read_value(read_value),
          .read_differs(read_differs), .all_known(all_known), .nodes(nodes), .backtracks(backtracks),
      .row_word(row_word), .busy(busy), .done(done), .outcome(outcome),
      .detail(detail), .cycles(cycles), .passes(passes));
  // Boards: m, n, budget, probing, then per line its block count and
  // blocks; 0 0 ends.
  reg [15:0] stimulus [0:65535];
  integer at, line, b, k, r, guard;
  reg [63:0] known, value;
  always #5 clock = ~clock;
  initial begin
$readmemh("stimulus.hex", stimulus);
at = 0;
while (stimulus[at] != 0) begin
  rows = stimulus[at]; columns = stimulus[at + 1]; budget = stimulus[at + 2];
  probe = stimulus[at + 3]; at = at + 4;
  abort = 1; @(posedge clock); #1; abort = 0;
  clue_address = 0;
  for (line = 0; line < rows + columns; line = line + 1) begin
    k = stimulus[at]; at = at + 1;
    line_write = 1; line_number = line; line_first = clue_address; line_blocks = k;
    for (b = 0; b < k; b = b + 1) begin
      clue_write = 1; clue_length = stimulus[at]; at = at + 1;
      @(posedge clock); #1;
      line_write = 0; clue_address = clue_address + 1;
    end
    @(posedge clock); #1;
    clue_write = 0; line_write = 0;
  end
  start = 1; @(posedge clock); #1; start = 0;
  guard = 0;
  while (!done && guard < 2000000) begin @(posedge clock); #1; guard = guard + 1; end
  $display("%0d %0d %0d %0d %0d %0d %0d", outcome, detail, passes, cycles,
           nodes, backtracks, all_known);
  for (r = 0; r < rows; r = r + 1) begin
    read_row = r; read_value = 0; @(posedge clock); #1; known = row_word;
    read_value = 1; @(posedge clock); #1; value = row_word;
    read_differs = 1; @(posedge clock); #1; read_differs = 0;
    $display("%h %h %h", known, value, row_word);
  end
end
$finish;
  end
endmodule
"#;

#[test]
fn verilog_matches_the_model() {
    let mut rng = Rng(0x1ca5_b0a4d);
    let mut boards = vec![clues_of_picture(
        64,
        64,
        &(0..64 * 64).map(|i| i % 64 <= i / 64).collect::<Vec<_>>(),
    )];
    boards.push((vec![vec![2], vec![]], vec![vec![], vec![1]]));
    for _ in 0..10 {
        let (m, n) = (1 + rng.below(24) as usize, 1 + rng.below(24) as usize);
        let density = 40 + rng.below(40);
        boards.push(random_clues(&mut rng, m, n, density));
    }
    let mut budgets = vec![0; boards.len()];
    // Search: random boards at ½, some with the columns of another picture.
    for trial in 0..24 {
        let (m, n) = (4 + rng.below(12) as usize, 4 + rng.below(12) as usize);
        let (r, mut c) = coin_clues(&mut rng, m, n);
        if trial % 4 == 3 {
            c = coin_clues(&mut rng, m, n).1;
        }
        boards.push((r, c));
        budgets.push(4095);
    }
    // Some of them again, probing (the model's `Mode::probe`), and sparse
    // ones that need more search. (Icarus is slow: 8 and 2 took 110 s more
    // than the rest together; ICARUS_PROBED and ICARUS_SPARSE ask for more.)
    let first_searched = boards.len() - budgets.iter().filter(|&&b| b > 0).count();
    let mut probing = vec![false; boards.len()];
    let again: usize = std::env::var("ICARUS_PROBED").map_or(4, |t| t.parse().unwrap());
    let sparse: usize = std::env::var("ICARUS_SPARSE").map_or(1, |t| t.parse().unwrap());
    for i in first_searched..first_searched + again {
        boards.push(boards[i].clone());
        budgets.push(4095);
        probing.push(true);
    }
    for _ in 0..sparse {
        let (m, n) = (8 + rng.below(4) as usize, 8 + rng.below(4) as usize);
        let density = 35 + rng.below(11);
        boards.push(random_clues(&mut rng, m, n, density));
        budgets.push(4095);
        probing.push(true);
    }
    let mut words = vec![];
    for (((r, c), budget), &probe) in boards.iter().zip(&budgets).zip(&probing) {
        words.extend([r.len(), c.len(), *budget, probe as usize]);
        for clue in r.iter().chain(c) {
            words.push(clue.len());
            words.extend(clue);
        }
    }
    words.extend([0, 0]);
    let hex: String = words.iter().map(|w| format!("{w:04x}\n")).collect();
    let mut uut = ClueSolver::default();
    uut.connect_all();
    let Some(out) = iverilog_run(&uut, "clue_solver", TESTBENCH, &[("stimulus.hex", hex)]) else {
        return;
    };
    let mut lines = out
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("VCD") && !l.starts_with("WARNING"));
    let mut searched = 0;
    for (((r, c), &budget), &probe) in boards.iter().zip(&budgets).zip(&probing) {
        let mode = clue_model::Mode {
            budget: budget as u16,
            first: false,
            probe,
        };
        let v = clue_model::run(r, c, mode);
        searched += (v.nodes > 0) as usize;
        let head = format!(
            "{} {} {} {} {} {}",
            v.outcome,
            if v.outcome == outcome::CONTRADICTION {
                v.detail
            } else {
                0
            },
            v.passes,
            v.cycles,
            v.nodes,
            v.backtracks
        );
        let got = lines.next().expect("a verdict line");
        let got_head: Vec<&str> = got.split(' ').collect();
        let line_field = if v.outcome == outcome::CONTRADICTION {
            got_head[1]
        } else {
            "0"
        };
        assert_eq!(
            format!(
                "{} {} {} {} {} {}",
                got_head[0], line_field, got_head[2], got_head[3], got_head[4], got_head[5]
            ),
            head,
            "rows {r:?} columns {c:?}"
        );
        let all_known = got_head[6] == "1";
        for row in 0..r.len() {
            let got = lines.next().expect("a row");
            if v.outcome == outcome::CONTRADICTION {
                continue; // cells as far as the solve got: compared in RustHDL's bench
            }
            let cells = &v.cells[row * c.len()..(row + 1) * c.len()];
            let known = cells
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, x)| w | (x.is_some() as u64) << i);
            let value = cells
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, x)| w | ((*x == Some(true)) as u64) << i);
            let words: Vec<&str> = got.split(' ').collect();
            let mask = if c.len() == 64 {
                u64::MAX
            } else {
                (1 << c.len()) - 1
            };
            // The reply reads Known words only when some cell is unknown.
            let gk = if all_known {
                mask
            } else {
                u64::from_str_radix(words[0], 16).unwrap() & mask
            };
            let gv = u64::from_str_radix(words[1], 16).unwrap() & mask & gk;
            assert_eq!((gk, gv), (known, value), "row {row}, rows {r:?} columns {c:?}");
            if v.outcome == outcome::SEVERAL {
                let differs = v.differs[row * c.len()..(row + 1) * c.len()]
                    .iter()
                    .enumerate()
                    .fold(0u64, |w, (i, &d)| w | (d as u64) << i);
                let gd = u64::from_str_radix(words[2], 16).unwrap() & mask;
                assert_eq!(gd, differs, "differs, row {row}, rows {r:?} columns {c:?}");
            }
        }
    }
    assert!(searched >= 5, "{searched} boards searched");
}
