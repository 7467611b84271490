//! Counting helpers: sharing squares among kinds of pieces (multinomials, and the sharings a
//! mirror leaves unchanged) and stepping through the distinct orders of a multiset.

/// Number of ways to share `n1 + n2 + ...` squares among kinds of `n1, n2, ...` pieces.
pub(crate) fn multinomial(counts: impl Iterator<Item = usize>) -> u128 {
    let mut total = 0;
    counts.fold(1, |ways, n| {
        total += n;
        ways * binomial(total, n)
    })
}

pub(crate) fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |b, i| b * (n - i) as u128 / (i as u128 + 1))
}

/// Sharings of a mirror-symmetric group (`pairs` pairs of mirror squares, `centre` squares on
/// the centre file) among kinds of `counts` pieces that are their own mirror image: both
/// squares of a pair get the same kind.
pub(crate) fn symmetric_shares(counts: &[usize], pairs: usize, centre: usize) -> u128 {
    let Some((&n, rest)) = counts.split_first() else {
        return (pairs == 0 && centre == 0) as u128;
    };
    (0..=(n / 2).min(pairs))
        .filter(|&a| n - 2 * a <= centre)
        .map(|a| {
            let b = n - 2 * a;
            binomial(pairs, a) * binomial(centre, b) * symmetric_shares(rest, pairs - a, centre - b)
        })
        .sum()
}

/// Steps `v` to its next permutation in lexicographic order (repeated values give distinct
/// permutations once); false after the last one.
pub(crate) fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[i - 1] < v[j]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}
