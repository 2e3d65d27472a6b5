//! A map over a vector, for the engine's and session's small maps (a few hundred entries at
//! most). Every `HashMap<K, V>` type instantiates its own copy of hashbrown's code in the
//! wasm bundle; a linear scan costs far less code and, at these sizes, no noticeable time.

#[derive(Clone, Debug)]
pub struct SmallMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap(Vec::new())
    }
}

impl<K: PartialEq, V> SmallMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: PartialEq<Q>,
        Q: ?Sized,
    {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: PartialEq<Q>,
        Q: ?Sized,
    {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: PartialEq<Q>,
        Q: ?Sized,
    {
        self.get(key).is_some()
    }

    /// Inserts or replaces; returns the old value.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: PartialEq<Q>,
        Q: ?Sized,
    {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.swap_remove(i).1)
    }

    /// The value for `key`, inserted with `make` if absent.
    pub fn entry_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.0.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.0.push((key, make()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::SmallMap;

    #[test]
    fn behaves_like_a_map() {
        let mut m = SmallMap::new();
        assert_eq!(m.insert("a".to_string(), 1), None);
        assert_eq!(m.insert("b".to_string(), 2), None);
        assert_eq!(m.insert("a".to_string(), 3), Some(1));
        assert_eq!(m.get("a"), Some(&3));
        *m.entry_or_insert_with("c".to_string(), || 0) += 5;
        *m.entry_or_insert_with("c".to_string(), || 0) += 5;
        assert_eq!(m.get("c"), Some(&10));
        assert_eq!(m.remove("b"), Some(2));
        assert!(!m.contains_key("b"));
        assert_eq!(m.len(), 2);
    }
}
