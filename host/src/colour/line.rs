//! Colour line logic: given each cell's possible colours (a bit set), the
//! colours each cell can still have in some fill of the line that keeps
//! its clue. Exact, like the black-and-white line solver: a colour stays
//! possible in a cell exactly when some fill of the whole line gives it
//! that colour.
//!
//! * Blocks: a forward and a backward pass over (blocks placed, cells used),
//!   O(blocks × cells). A block may touch a block of another colour; two
//!   blocks of one colour need a background cell between them.
//! * Counts: an automaton over (cells of each colour so far, whether each
//!   colour's run has started, is open, or closed), forward then backward.
//!   The states are few for TPDNE's lines (10 and 15 cells, 4 colours).

use super::{Hint, Rule};
use rustc_hash::FxHashSet;

/// A cell's possible colours: bit c set when colour c is possible.
pub type Cell = u32;

/// Buffers kept between calls.
#[derive(Default)]
pub struct LineSolver {
    forward: Vec<bool>,
    backward: Vec<bool>,
    allowed: Vec<u32>,
    cover: Vec<i32>,
    layers: Vec<FxHashSet<u64>>,
}

impl LineSolver {
    /// The cells' possible colours after line logic on one line, or `None`
    /// when no fill keeps the clue.
    pub fn solve(&mut self, rule: Rule, clue: &[Hint], cells: &[Cell]) -> Option<Vec<Cell>> {
        match rule {
            Rule::Blocks => self.blocks(clue, cells),
            Rule::Counts => self.counts(clue, cells),
        }
    }

    fn blocks(&mut self, clue: &[Hint], cells: &[Cell]) -> Option<Vec<Cell>> {
        let (k, n) = (clue.len(), cells.len());
        let at = |i: usize, j: usize| i * (n + 1) + j;
        let background = |j: usize| cells[j] & 1 != 0;
        // allowed[c * (n+1) + j]: cells that may have colour c in cells[..j],
        // for each colour the clue uses.
        let colours = clue.iter().map(|h| h.colour as usize + 1).max().unwrap_or(0);
        self.allowed.clear();
        self.allowed.resize(colours * (n + 1), 0);
        let mut counted = 0u32;
        for h in clue {
            let c = h.colour as usize;
            if counted >> c & 1 != 0 {
                continue;
            }
            counted |= 1 << c;
            let mut count = 0;
            for (j, &cell) in cells.iter().enumerate() {
                count += (cell >> c) & 1;
                self.allowed[c * (n + 1) + j + 1] = count;
            }
        }
        let allowed = &self.allowed;
        let run_fits = |b: usize, s: usize| {
            let (e, c) = (s + clue[b].len, clue[b].colour as usize);
            e <= n && allowed[c * (n + 1) + e] - allowed[c * (n + 1) + s] == clue[b].len as u32
        };
        // forward[at(i, j)]: blocks 0..i fit in cells[..j], the rest of
        // which is background.
        let forward = &mut self.forward;
        forward.clear();
        forward.resize((k + 1) * (n + 1), false);
        forward[at(0, 0)] = true;
        for j in 1..=n {
            forward[at(0, j)] = forward[at(0, j - 1)] && background(j - 1);
        }
        // Block b may start at s given what lies left of it.
        let left_ok = |forward: &[bool], b: usize, s: usize| {
            if b > 0 && clue[b - 1].colour == clue[b].colour {
                s >= 1 && background(s - 1) && forward[at(b, s - 1)]
            } else {
                forward[at(b, s)]
            }
        };
        for i in 1..=k {
            let len = clue[i - 1].len;
            for j in 0..=n {
                let mut ok = j >= 1 && forward[at(i, j - 1)] && background(j - 1);
                if !ok && j >= len {
                    let s = j - len;
                    ok = run_fits(i - 1, s) && left_ok(forward, i - 1, s);
                }
                forward[at(i, j)] = ok;
            }
        }
        if !forward[at(k, n)] {
            return None;
        }
        // backward[at(i, j)]: blocks i..k fit in cells[j..], the rest background.
        let backward = &mut self.backward;
        backward.clear();
        backward.resize((k + 1) * (n + 1), false);
        backward[at(k, n)] = true;
        for j in (0..n).rev() {
            backward[at(k, j)] = backward[at(k, j + 1)] && background(j);
        }
        // Block b may end at e given what lies right of it.
        let right_ok = |backward: &[bool], b: usize, e: usize| {
            if b + 1 < k && clue[b + 1].colour == clue[b].colour {
                e < n && background(e) && backward[at(b + 1, e + 1)]
            } else {
                backward[at(b + 1, e)]
            }
        };
        for i in (0..k).rev() {
            for j in (0..=n).rev() {
                let mut ok = j < n && backward[at(i, j + 1)] && background(j);
                if !ok && run_fits(i, j) {
                    ok = right_ok(backward, i, j + clue[i].len);
                }
                backward[at(i, j)] = ok;
            }
        }
        let mut out = vec![0 as Cell; n];
        // Background wherever some split point leaves the cell empty.
        for j in 0..n {
            if background(j) && (0..=k).any(|i| forward[at(i, j)] && backward[at(i, j + 1)]) {
                out[j] |= 1;
            }
        }
        // Each block's colour over every start it can take.
        let cover = &mut self.cover;
        for (b, h) in clue.iter().enumerate() {
            cover.clear();
            cover.resize(n + 1, 0);
            for s in 0..n {
                if run_fits(b, s) && left_ok(forward, b, s) && right_ok(backward, b, s + h.len) {
                    cover[s] += 1;
                    cover[s + h.len] -= 1;
                }
            }
            let mut depth = 0;
            for j in 0..n {
                depth += cover[j];
                if depth > 0 {
                    out[j] |= 1 << h.colour;
                }
            }
        }
        Some(out)
    }

    fn counts(&mut self, clue: &[Hint], cells: &[Cell]) -> Option<Vec<Cell>> {
        let colours = clue.len();
        assert!(
            colours <= 8 && cells.len() < 256,
            "count rule: at most 8 colours, 255 cells"
        );
        // A state: 8 bits of count, then 2 bits of phase, per colour:
        // 0 not seen, 1 in its run, 2 run closed, 3 a second run seen.
        let count = |s: u64, c: usize| (s >> (10 * c)) & 0xff;
        let phase = |s: u64, c: usize| (s >> (10 * c + 8)) & 3;
        let step = |s: u64, c: usize| -> Option<u64> {
            if count(s, c) as usize >= clue[c].len {
                return None;
            }
            let contiguous = clue[c].circled && clue[c].len > 1;
            let mut t = s + (1 << (10 * c));
            let p = match phase(s, c) {
                0 | 1 => 1,
                2 if contiguous => return None,
                _ => 3,
            };
            t = (t & !(3 << (10 * c + 8))) | (p << (10 * c + 8));
            for d in (0..colours).filter(|&d| d != c) {
                if phase(t, d) == 1 {
                    t = (t & !(3 << (10 * d + 8))) | (2 << (10 * d + 8));
                }
            }
            Some(t)
        };
        let accepts = |s: u64| {
            (0..colours).all(|c| {
                let h = clue[c];
                count(s, c) as usize == h.len && (h.len < 2 || h.circled || phase(s, c) == 3)
            })
        };
        let n = cells.len();
        let layers = &mut self.layers;
        layers.resize_with(n + 1, FxHashSet::default);
        layers.iter_mut().for_each(|l| l.clear());
        layers[0].insert(0);
        for j in 0..n {
            let (now, next) = layers.split_at_mut(j + 1);
            for &s in now[j].iter() {
                for c in (0..colours).filter(|&c| cells[j] >> c & 1 != 0) {
                    if let Some(t) = step(s, c) {
                        next[0].insert(t);
                    }
                }
            }
        }
        layers[n].retain(|&s| accepts(s));
        if layers[n].is_empty() {
            return None;
        }
        let mut out = vec![0 as Cell; n];
        for j in (0..n).rev() {
            let (now, next) = layers.split_at_mut(j + 1);
            let alive = &next[0];
            now[j].retain(|&s| {
                let mut live = false;
                for c in (0..colours).filter(|&c| cells[j] >> c & 1 != 0) {
                    if step(s, c).is_some_and(|t| alive.contains(&t)) {
                        out[j] |= 1 << c;
                        live = true;
                    }
                }
                live
            });
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::clue_of_line;
    use super::*;

    /// Every fill of `n` cells with `colours` colours (colours^n of them).
    fn fills(n: usize, colours: u8) -> Vec<Vec<u8>> {
        let mut all = vec![vec![]];
        for _ in 0..n {
            all = all
                .into_iter()
                .flat_map(|f| {
                    (0..colours).map(move |c| {
                        let mut g = f.clone();
                        g.push(c);
                        g
                    })
                })
                .collect();
        }
        all
    }

    /// The line solver's answer, by enumerating every fill.
    fn brute(rule: Rule, colours: u8, clue: &[Hint], cells: &[Cell]) -> Option<Vec<Cell>> {
        let mut out = vec![0; cells.len()];
        let mut any = false;
        for f in fills(cells.len(), colours) {
            let allowed = f.iter().zip(cells).all(|(&c, &m)| m >> c & 1 != 0);
            if allowed && clue_of_line(rule, colours as usize, &f) == clue {
                any = true;
                for (o, &c) in out.iter_mut().zip(&f) {
                    *o |= 1 << c;
                }
            }
        }
        any.then_some(out)
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random lines: a clue from a random fill (or a random other fill's,
    /// to get contradictions too), and random cell masks that often keep
    /// the fill's colours.
    fn agree_with_brute_force(rule: Rule, colours: u8, max_len: usize, trials: usize) {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut solver = LineSolver::default();
        let mut contradictions = 0;
        for _ in 0..trials {
            let n = 1 + (xorshift(&mut seed) % max_len as u64) as usize;
            let fill: Vec<u8> = (0..n)
                .map(|_| (xorshift(&mut seed) % colours as u64) as u8)
                .collect();
            let clue = clue_of_line(rule, colours as usize, &fill);
            let cells: Vec<Cell> = fill
                .iter()
                .map(|&c| {
                    let r = xorshift(&mut seed);
                    let keep = if r % 4 == 0 { 0 } else { 1 << c };
                    (keep | (r >> 8) as u32) & ((1 << colours) - 1)
                })
                .collect();
            let want = brute(rule, colours, &clue, &cells);
            contradictions += want.is_none() as usize;
            assert_eq!(
                solver.solve(rule, &clue, &cells),
                want,
                "clue {clue:?} cells {cells:?}"
            );
        }
        // The trials reach both verdicts.
        assert!(contradictions > 0 && contradictions < trials);
    }

    #[test]
    fn blocks_agree_with_brute_force() {
        agree_with_brute_force(Rule::Blocks, 2, 9, 3000);
        agree_with_brute_force(Rule::Blocks, 3, 8, 3000);
        agree_with_brute_force(Rule::Blocks, 4, 7, 3000);
    }

    /// The colour engine's automaton (`nonogram_hdl::colour::line_logic`)
    /// against this solver's block DP on lines too long to enumerate: two
    /// algorithms, the same answers.
    #[test]
    fn blocks_agree_with_the_colour_engines_automaton() {
        use nonogram_hdl::colour::line_logic::{solve_line, Block, MAX_LENGTH};
        let mut seed = 0x51ce_c010_0a11_0001u64;
        let mut solver = LineSolver::default();
        let (mut contradictions, mut trials) = (0, 0);
        for _ in 0..20_000 {
            let colours = 2 + (xorshift(&mut seed) % 7) as u8;
            let n = 1 + (xorshift(&mut seed) % MAX_LENGTH as u64) as usize;
            let background = xorshift(&mut seed) % 90;
            let fill: Vec<u8> = (0..n)
                .map(|_| {
                    if xorshift(&mut seed) % 100 < background {
                        0
                    } else {
                        1 + (xorshift(&mut seed) % (colours as u64 - 1)) as u8
                    }
                })
                .collect();
            let clue = clue_of_line(Rule::Blocks, colours as usize, &fill);
            let narrowed = xorshift(&mut seed) % 100;
            let cells: Vec<Cell> = fill
                .iter()
                .map(|&c| {
                    let r = xorshift(&mut seed);
                    if r % 100 >= narrowed {
                        return (1 << colours) - 1;
                    }
                    let keep = if r % 7 == 0 { 0 } else { 1 << c };
                    (keep | (r >> 8) as u32) & ((1 << colours) - 1)
                })
                .collect();
            let blocks: Vec<Block> = clue
                .iter()
                .map(|h| Block {
                    length: h.len,
                    ink: h.colour,
                })
                .collect();
            let mut engine: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
            let engine =
                solve_line(&blocks, &mut engine).then(|| engine.iter().map(|&c| c as Cell).collect());
            let want = solver.solve(Rule::Blocks, &clue, &cells);
            contradictions += want.is_none() as usize;
            trials += 1;
            assert_eq!(engine, want, "clue {clue:?} cells {cells:?}");
        }
        assert!(
            contradictions > 1000 && contradictions < trials - 1000,
            "{contradictions} of {trials}"
        );
    }

    #[test]
    fn counts_agree_with_brute_force() {
        agree_with_brute_force(Rule::Counts, 2, 9, 2000);
        agree_with_brute_force(Rule::Counts, 4, 7, 2000);
    }

    #[test]
    fn same_colour_blocks_need_a_gap_and_others_may_touch() {
        let h = |len, colour| Hint {
            len,
            colour,
            circled: false,
        };
        let mut s = LineSolver::default();
        let all = vec![0b111; 3];
        // 1r 2g in 3 cells: exactly r g g.
        assert_eq!(
            s.solve(Rule::Blocks, &[h(1, 1), h(2, 2)], &all),
            Some(vec![2, 4, 4])
        );
        // 1r 2r in 3 cells cannot fit.
        assert_eq!(s.solve(Rule::Blocks, &[h(1, 1), h(2, 1)], &all), None);
    }
}
