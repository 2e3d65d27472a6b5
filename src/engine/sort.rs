//! One stable sort for every element type. Core's stable sort is about 3 KB of wasm for
//! each element type and comparator; this sorts positions once (one copy of core's sort,
//! for `usize`) and then moves the elements with swaps, which is all that is per type.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably: the same order as `v.sort_by(cmp)`.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let order = positions(v.len(), &|a, b| cmp(&v[a], &v[b]));
    for (a, b) in swaps(order) {
        v.swap(a, b);
    }
}

/// Sorts `v` by a key, stably: the same order as `v.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)))
}

/// The positions of `0..n` in sorted order.
#[inline(never)]
fn positions(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// The swaps that put the element at `order[i]` at `i`, for every `i`.
#[inline(never)]
fn swaps(order: Vec<usize>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..order.len() {
        // Elements before `i` are placed; the one first at `order[i]` was moved on by
        // earlier swaps, to where its own position's element came from.
        let mut j = order[i];
        while j < i {
            j = order[j];
        }
        if j != i {
            out.push((i, j));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_sorts_as_core_does_stably() {
        let mut seed = 7u64;
        for n in 0..60 {
            let v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (((seed >> 33) % 5) as u8, i)
                })
                .collect();
            let (mut a, mut b) = (v.clone(), v.clone());
            a.sort_by_key(|x| x.0);
            super::sort_by(&mut b, |x, y| x.0.cmp(&y.0));
            assert_eq!(a, b);
            let mut c = v.clone();
            super::sort_by_key(&mut c, |x| std::cmp::Reverse(x.0));
            let mut d = v;
            d.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(c, d);
        }
    }
}
