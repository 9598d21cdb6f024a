//! Names that declarations spell (types as written, member and type-parameter names), shared
//! by every declaration read back from the store that spells them. The JDK's 15k files declare
//! about 300k members, whose types and names are mostly a few thousand strings (`String`,
//! `int`, `T`, `get`, `size`): one allocation per distinct name instead of one per use.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// A name, shared: cheap to clone and compared by its text.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

/// The names in use, and the size past which those no declaration holds any more are dropped.
struct Interner {
    names: HashSet<Arc<str>, BuildHasherDefault<FxHasher>>,
    purge_at: usize,
}

/// The table is split in this many shards, by a hash of the name, so the threads that decode
/// a store's declarations in parallel rarely wait for each other (one lock, and SipHash, were a
/// sixth of a CLI `refs` on the JDK, issue 38).
const SHARDS: usize = 64;

/// Below this many names a shard is never purged.
const MIN_PURGE: usize = (1 << 16) / SHARDS;

/// rustc's FxHash: a multiply and a rotate per word, quick for the short names most are. The
/// names come from the user's own signed store, so a flood of colliding names is no concern.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let mut w = [0u8; 8];
        w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(w) ^ bytes.len() as u64);
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

fn interner(s: &str) -> &'static Mutex<Interner> {
    static TABLE: OnceLock<Vec<Mutex<Interner>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..SHARDS).map(|_| Mutex::new(Interner { names: HashSet::default(), purge_at: MIN_PURGE })).collect()
    });
    // The hash's top bits pick the shard; the shard's set uses its low bits.
    let h = BuildHasherDefault::<FxHasher>::default().hash_one(s);
    &table[(h >> 58) as usize % SHARDS]
}

impl Name {
    /// A name of its own, not shared: what parsing a file gives. A pass that parses every
    /// file allocates these between its temporaries; shared ones made there would outlive
    /// the pass (the table holds them) and keep those pages resident after the keeper reads
    /// the store back (see `XrefEngine::reload`).
    pub fn new(s: &str) -> Name {
        Name(Arc::from(s))
    }

    /// The shared name for `s`: what reading declarations back from the store gives. A shard
    /// of the table forgets a name once nothing else holds it, checked whenever the shard has
    /// doubled since its last check, so a long session's edits do not grow it without bound.
    pub fn shared(s: &str) -> Name {
        let Ok(mut t) = interner(s).lock() else { return Name::new(s) };
        if let Some(n) = t.names.get(s) {
            return Name(n.clone());
        }
        if t.names.len() >= t.purge_at {
            t.names.retain(|n| Arc::strong_count(n) > 1);
            t.purge_at = (t.names.len() * 2).max(MIN_PURGE);
        }
        let n: Arc<str> = Arc::from(s);
        t.names.insert(n.clone());
        Name(n)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::new(&s)
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::new(s)
    }
}

impl From<Box<str>> for Name {
    fn from(s: Box<str>) -> Name {
        Name::new(&s)
    }
}

impl From<&Name> for Box<str> {
    fn from(n: &Name) -> Box<str> {
        n.as_str().into()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<Box<str>> for Name {
    fn eq(&self, other: &Box<str>) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for Box<str> {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::new("")
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Name;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Name, E> {
                Ok(Name::shared(v))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_names_share_one_allocation_and_round_trip() {
        let (a, b) = (Name::shared("java.util.List"), Name::shared(&String::from("java.util.List")));
        assert!(Arc::ptr_eq(&a.0, &b.0), "one allocation for one name");
        assert!(!Arc::ptr_eq(&a.0, &Name::new("java.util.List").0), "a parsed name is its own");
        assert_eq!(a, "java.util.List");
        let bytes = postcard::to_stdvec(&a).expect("encodes");
        assert_eq!(bytes, postcard::to_stdvec("java.util.List").expect("encodes"), "stored as the plain string");
        let back: Name = postcard::from_bytes(&bytes).expect("decodes");
        assert!(Arc::ptr_eq(&a.0, &back.0), "decoding interns");
    }

    #[test]
    fn names_nothing_holds_are_forgotten_when_the_table_doubles() {
        let kept = Name::shared("kept-name-for-the-purge-test");
        let shard = interner(&kept);
        // Names of the kept one's shard (each shard purges on its own).
        let (mut i, mut same) = (0, 0);
        while same < MIN_PURGE * 3 {
            let name = format!("dropped-{i}");
            i += 1;
            if std::ptr::eq(interner(&name), shard) {
                same += 1;
            }
            drop(Name::shared(&name));
        }
        let t = shard.lock().expect("lock");
        assert!(t.names.len() < MIN_PURGE * 2 + 64, "purged: {} names", t.names.len());
        assert!(t.names.contains("kept-name-for-the-purge-test"), "a held name stays");
        drop(t);
        assert_eq!(kept, "kept-name-for-the-purge-test");
    }
}
