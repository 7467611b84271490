//! A small seeded pseudo-random generator (SplitMix64), so that every random choice in koma-hasami
//! (random agent, openings, exploration in training) is reproducible from one `u64` seed.

/// SplitMix64: 64 bits of state, passes BigCrush, trivially serialisable for checkpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator from a seed; equal seeds give equal sequences.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The current state, for checkpoints (`Rng::new(r.state())` continues the sequence).
    pub fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix(self.state);
        self.state = state;
        out
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-40 here).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A generator derived from this seed and a stream number, independent for practical purposes.
    pub fn derive(seed: u64, stream: u64) -> Rng {
        let (_, a) = splitmix(seed ^ 0x5851_f42d_4c95_7f2d);
        let (_, b) = splitmix(a ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        Rng::new(b)
    }
}

/// One SplitMix64 step: (next state, output). `const` so Zobrist keys are built at compile time.
pub(crate) const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_state_resumes() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut c = Rng::new(a.state());
        assert_eq!(a.next_u64(), c.next_u64());
        assert_ne!(Rng::derive(1, 0).next_u64(), Rng::derive(1, 1).next_u64());
    }

    #[test]
    fn below_covers_range() {
        let mut r = Rng::new(3);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[r.below(5)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert!((0..100).all(|_| (0.0..1.0).contains(&r.unit())));
    }
}
