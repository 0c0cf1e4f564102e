//! The DNF options of a line: every legal placement of its clue's blocks.
//!
//! An option is a word with bit i set when cell i (0 = leftmost / topmost)
//! is filled. Lines are at most 64 cells here; the gateware takes 32.

/// Number of options of a line of `length` cells with clue `blocks`, in
/// closed form: with k blocks and f free cells, C(f + k, k). Zero if the
/// clue cannot fit. Saturates at `u64::MAX`.
pub fn count(blocks: &[usize], length: usize) -> u64 {
    let k = blocks.len();
    let used = blocks.iter().sum::<usize>() + k.saturating_sub(1);
    if used > length {
        return 0;
    }
    let free = (length - used) as u64;
    // C(free + k, k) computed as a running product, exact at each step.
    let mut c: u128 = 1;
    for i in 1..=k as u64 {
        c = c * (free + i) as u128 / i as u128;
        if c > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    c as u64
}

/// Iterator over the options of one line, leftmost placement first.
#[derive(Clone, Debug)]
pub struct LineOptions {
    blocks: Vec<usize>,
    length: usize,
    starts: Vec<usize>,
    done: bool,
}

impl LineOptions {
    /// Options of a line of `length` (≤ 64) cells with clue `blocks` (zeros
    /// are empty blocks and are ignored).
    pub fn new(blocks: &[usize], length: usize) -> LineOptions {
        assert!(length <= 64, "lines are at most 64 cells");
        let blocks: Vec<usize> = blocks.iter().copied().filter(|&b| b > 0).collect();
        let mut starts = Vec::with_capacity(blocks.len());
        let mut at = 0;
        for &b in &blocks {
            starts.push(at);
            at += b + 1;
        }
        let done = count(&blocks, length) == 0;
        LineOptions {
            blocks,
            length,
            starts,
            done,
        }
    }

    fn word(&self) -> u64 {
        self.blocks
            .iter()
            .zip(&self.starts)
            .fold(0, |w, (&b, &s)| w | (((1u128 << b) - 1) as u64) << s)
    }

    /// The last start block `i` may take, with every later block packed after it.
    fn last_start(&self, i: usize) -> usize {
        let tail: usize = self.blocks[i..].iter().sum::<usize>() + (self.blocks.len() - 1 - i);
        self.length - tail
    }
}

impl Iterator for LineOptions {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let word = self.word();
        // Advance: move the rightmost block that can move, repack the rest.
        match (0..self.blocks.len())
            .rev()
            .find(|&i| self.starts[i] < self.last_start(i))
        {
            Some(i) => {
                self.starts[i] += 1;
                for j in i + 1..self.blocks.len() {
                    self.starts[j] = self.starts[j - 1] + self.blocks[j - 1] + 1;
                }
            }
            None => self.done = true,
        }
        Some(word)
    }
}

/// The clue (block lengths) of a line given as a bit word.
pub fn clue_of(word: u64, length: usize) -> Vec<usize> {
    clue_of_cells((0..length).map(|i| word >> i & 1 == 1))
}

/// The clue of a line of any length, given its cells in order (`true` = filled).
pub fn clue_of_cells(cells: impl IntoIterator<Item = bool>) -> Vec<usize> {
    let mut blocks = Vec::new();
    let mut run = 0;
    for filled in cells {
        if filled {
            run += 1;
        } else if run > 0 {
            blocks.push(run);
            run = 0;
        }
    }
    if run > 0 {
        blocks.push(run);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_brute_force_on_every_clue_up_to_twelve_cells() {
        for length in 0..=12usize {
            let mut by_clue: std::collections::BTreeMap<Vec<usize>, Vec<u64>> = Default::default();
            for word in 0..1u64 << length {
                by_clue.entry(clue_of(word, length)).or_default().push(word);
            }
            for (clue, mut expected) in by_clue {
                let mut got: Vec<u64> = LineOptions::new(&clue, length).collect();
                assert_eq!(got.len() as u64, count(&clue, length), "{clue:?} in {length}");
                got.sort();
                expected.sort();
                assert_eq!(got, expected, "{clue:?} in {length}");
            }
        }
    }

    #[test]
    fn clue_that_cannot_fit_has_no_options() {
        assert_eq!(count(&[3, 3], 6), 0);
        assert_eq!(LineOptions::new(&[3, 3], 6).count(), 0);
        assert_eq!(count(&[], 5), 1);
        assert_eq!(LineOptions::new(&[], 5).collect::<Vec<_>>(), vec![0]);
        assert_eq!(LineOptions::new(&[0], 5).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn closed_form_on_long_lines() {
        // 1-blocks in 32 cells: 32 placements; [1,1] in 32: C(31,2)=465.
        assert_eq!(count(&[1], 32), 32);
        assert_eq!(count(&[1, 1], 32), 465);
        assert_eq!(LineOptions::new(&[1, 1], 32).count(), 465);
        assert_eq!(count(&[32], 32), 1);
        assert_eq!(LineOptions::new(&[32], 32).collect::<Vec<_>>(), vec![0xffff_ffff]);
        assert_eq!(LineOptions::new(&[64], 64).collect::<Vec<_>>(), vec![u64::MAX]);
    }
}
