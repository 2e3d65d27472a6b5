//! Deterministic randomness. A debate's random choices are drawn from its seed (stored in
//! its first event) and the name of the choice, not from a shared sequence, so one extra
//! draw somewhere (a retry, a call that ran in another order) never shifts the others; and
//! every choice is recorded as a decision anyway, so a replay makes the same one.

/// SplitMix64's output step: a well-mixed 64-bit value from any 64-bit input.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform float in [0, 1) for the choice named `key` in the debate seeded with `seed`.
pub fn uniform(seed: u64, key: &str) -> f64 {
    (mix(seed ^ fnv1a(key.as_bytes())) >> 11) as f64 / (1u64 << 53) as f64
}

/// FNV-1a, used to fingerprint a request so a replay can warn when a prompt changed.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::uniform;

    #[test]
    fn draws_depend_on_seed_and_name_only() {
        let a = uniform(42, "pick/speaker");
        assert_eq!(a, uniform(42, "pick/speaker"));
        assert_ne!(a, uniform(43, "pick/speaker"));
        assert_ne!(a, uniform(42, "pick/other"));
        let mean: f64 = (0..1000).map(|i| uniform(7, &i.to_string())).sum::<f64>() / 1000.0;
        assert!((0.45..0.55).contains(&mean), "{mean}");
    }
}
