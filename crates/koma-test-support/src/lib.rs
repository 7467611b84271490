//! Test helpers the koma crates share, as a dev-dependency only: property-test strategies that
//! make malformed input from valid input, for the `bad_input` tests that check a reader never
//! panics and what it accepts writes back. It depends on no koma crate, so any of them can use
//! it without a cycle.
//!
//! ```
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let mut runner = TestRunner::deterministic();
//! let text = koma_test_support::mutated_text(&["R2B2"])
//!     .new_tree(&mut runner)
//!     .unwrap()
//!     .current();
//! assert_ne!(text, "R2B2"); // edited (the deterministic runner's first case)
//! ```

use std::fmt::Debug;

use proptest::prelude::*;

/// How many edits a mutated input gets: one to four.
const EDITS: std::ops::Range<usize> = 1..5;

/// Applies `edits` to `items`: each `(at, item, op)` replaces (op 0), inserts (op 1) or removes
/// (op 2) at `at` modulo the length plus one; at the end, a replace or remove appends instead.
fn apply<T>(items: &mut Vec<T>, edits: Vec<(usize, T, u8)>) {
    for (at, item, op) in edits {
        let i = at % (items.len() + 1);
        match op {
            0 if i < items.len() => items[i] = item,
            1 => items.insert(i, item),
            _ if i < items.len() => {
                items.remove(i);
            }
            _ => items.push(item),
        }
    }
}

/// One of the `valid` inputs with one to four bytes replaced, inserted or removed (so multi-byte
/// characters get cut and encodings broken).
pub fn mutated_bytes<S>(valid: &'static [S]) -> impl Strategy<Value = Vec<u8>>
where
    S: AsRef<[u8]> + Clone + Debug + 'static,
{
    (
        prop::sample::select(valid),
        prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), EDITS),
    )
        .prop_map(|(input, edits)| {
            let mut bytes = input.as_ref().to_vec();
            apply(&mut bytes, edits);
            bytes
        })
}

/// One of the `valid` texts with one to four characters (any Unicode scalar) replaced, inserted
/// or removed.
pub fn mutated_text(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        prop::sample::select(valid),
        prop::collection::vec((any::<usize>(), any::<char>(), 0u8..3), EDITS),
    )
        .prop_map(|(text, edits)| {
            let mut chars: Vec<char> = text.chars().collect();
            apply(&mut chars, edits);
            chars.into_iter().collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_replace_insert_and_remove() {
        let mut v = vec![1, 2, 3];
        apply(&mut v, vec![(0, 9, 0), (1, 8, 1), (7, 0, 2), (3, 5, 0)]);
        // 9 at 0; 8 inserted at 1; 7 % 5 = 2 removes the 2; 3 % 4 = 3 is the end: appended.
        assert_eq!(v, [9, 8, 3, 5]);
    }
}
