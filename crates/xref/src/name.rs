//! Names that declarations spell (types as written, member and type-parameter names), shared
//! by every declaration read back from the store that spells them. The JDK's 15k files declare
//! about 300k members, whose types and names are mostly a few thousand strings (`String`,
//! `int`, `T`, `get`, `size`): one allocation per distinct name instead of one per use.
//!
//! The store writes each distinct name once, in a table ([`NameTable`]), and a declaration's
//! names as indexes into it: reading the declarations back clones a name from the table by
//! index, with no hashing and no lock (a global interner, even sharded, was a fifth of a CLI
//! `def` on the JDK: issue 38).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, OnceLock};

/// A name, shared: cheap to clone and compared by its text.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

/// rustc's FxHash: a multiply and a rotate per word, quick for the short names most are. The
/// names come from the user's own files, so a flood of colliding names is no concern.
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

/// The distinct names a store's declarations spell, numbered in the order first written.
#[derive(Default)]
pub(crate) struct NameTable {
    index: HashMap<Name, u32, BuildHasherDefault<FxHasher>>,
    names: Vec<Name>,
}

impl NameTable {
    fn index_of(&mut self, n: &Name) -> u32 {
        if let Some(&i) = self.index.get(n.as_str()) {
            return i;
        }
        let i = self.names.len() as u32;
        self.index.insert(n.clone(), i);
        self.names.push(n.clone());
        i
    }

    /// A table holding `names` (distinct, as [`NameTable::restore`] gives them) at their
    /// indexes, to which encoding adds.
    /// `None` if two of them are the same.
    pub(crate) fn seeded(names: &Names) -> Option<NameTable> {
        let mut t = NameTable::default();
        t.index.reserve(names.len());
        (0..names.len()).for_each(|i| {
            t.index_of(&names.get(i).unwrap_or_default());
        });
        (t.names.len() == names.len()).then_some(t)
    }

    /// Every name's text, one after another, and where each ends.
    pub(crate) fn parts(&self) -> (String, Vec<u32>) {
        let mut text = String::with_capacity(self.names.iter().map(|n| n.len()).sum());
        let mut ends = Vec::with_capacity(self.names.len());
        for n in &self.names {
            text.push_str(n);
            ends.push(text.len() as u32);
        }
        (text, ends)
    }

    /// The names of a table written as [`NameTable::parts`], or `None` if the parts do not fit.
    pub(crate) fn restore(text: String, ends: Vec<u32>) -> Option<Arc<Names>> {
        let mut at = 0u32;
        for &e in &ends {
            if e < at || !text.is_char_boundary(e as usize) {
                return None;
            }
            at = e;
        }
        let made = (0..ends.len()).map(|_| OnceLock::new()).collect();
        Some(Arc::new(Names { text: text.into(), ends: ends.into(), made }))
    }
}

/// The names of a store, as [`NameTable::parts`] wrote them: each made (allocated) when a
/// declaration that spells it is first decoded, then shared by every later one (a restart
/// decodes the declarations of a few files: making all the JDK's names was a tenth of a CLI
/// `def`, issue 38).
pub(crate) struct Names {
    text: Box<str>,
    ends: Box<[u32]>,
    made: Box<[OnceLock<Name>]>,
}

impl Names {
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `i`-th name, `None` past the table.
    pub(crate) fn get(&self, i: usize) -> Option<Name> {
        let cell = self.made.get(i)?;
        let name = cell.get_or_init(|| {
            let a = i.checked_sub(1).and_then(|p| self.ends.get(p)).copied().unwrap_or(0);
            let b = self.ends.get(i).copied().unwrap_or(a);
            Name::new(self.text.get(a as usize..b as usize).unwrap_or(""))
        });
        Some(name.clone())
    }
}

/// How this thread writes and reads names: as text, or as indexes into a table.
enum Codec {
    Encode(NameTable),
    Decode(Arc<Names>),
}

thread_local! {
    static CODEC: RefCell<Option<Codec>> = const { RefCell::new(None) };
}

/// Puts the thread back to names as text, however the scope ends.
struct Reset;

impl Drop for Reset {
    fn drop(&mut self) {
        CODEC.with_borrow_mut(|c| *c = None);
    }
}

/// Runs `f` with every name this thread serializes written as its index in `table` (added
/// when new).
pub(crate) fn encoding<R>(table: &mut NameTable, f: impl FnOnce() -> R) -> R {
    CODEC.with_borrow_mut(|c| *c = Some(Codec::Encode(std::mem::take(table))));
    let reset = Reset;
    let r = f();
    CODEC.with_borrow_mut(|c| {
        if let Some(Codec::Encode(t)) = c.take() {
            *table = t;
        }
    });
    drop(reset);
    r
}

/// Runs `f` with every name this thread deserializes read as an index into `names`.
pub(crate) fn decoding<R>(names: &Arc<Names>, f: impl FnOnce() -> R) -> R {
    CODEC.with_borrow_mut(|c| *c = Some(Codec::Decode(names.clone())));
    let _reset = Reset;
    f()
}

impl Name {
    /// A name of its own.
    pub fn new(s: &str) -> Name {
        Name(Arc::from(s))
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
        CODEC.with_borrow_mut(|c| match c {
            Some(Codec::Encode(t)) => s.serialize_u32(t.index_of(self)),
            _ => s.serialize_str(&self.0),
        })
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
                Ok(Name::new(v))
            }
        }
        CODEC.with_borrow(|c| match c {
            Some(Codec::Decode(names)) => {
                let i = <u32 as serde::Deserialize>::deserialize(d)?;
                names.get(i as usize).ok_or_else(|| serde::de::Error::custom("a name index past the table"))
            }
            _ => d.deserialize_str(V),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_as_text_or_through_a_table() {
        let a = Name::new("java.util.List");
        let bytes = postcard::to_stdvec(&a).expect("encodes");
        assert_eq!(bytes, postcard::to_stdvec("java.util.List").expect("encodes"), "stored as the plain string");
        let back: Name = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(back, a);

        let mut table = NameTable::default();
        let pair = (Name::new("int"), vec![Name::new("java.util.List"), Name::new("int")]);
        let bytes = encoding(&mut table, || postcard::to_stdvec(&pair)).expect("encodes");
        assert_eq!(bytes, [0, 2, 1, 0], "each name an index, repeats the same one");
        assert_eq!(postcard::to_stdvec(&a).expect("encodes")[0], 14, "text again once the scope ends");
        let (text, ends) = table.parts();
        assert_eq!((text.as_str(), ends.as_slice()), ("intjava.util.List", &[3, 17][..]));
        let names = NameTable::restore(text, ends).expect("fits");
        let back: (Name, Vec<Name>) = decoding(&names, || postcard::from_bytes(&bytes)).expect("decodes");
        assert_eq!(back, pair);
        assert!(Arc::ptr_eq(&back.0.0, &back.1[1].0), "one allocation for one name");
        let past: Result<Name, _> = decoding(&names, || postcard::from_bytes(&[2]));
        assert!(past.is_err(), "an index past the table is refused");
        assert!(NameTable::restore("int".into(), vec![3, 17]).is_none(), "ends past the text are refused");
        assert!(NameTable::restore("int".into(), vec![3, 1]).is_none(), "ends going back are refused");
        assert!(NameTable::restore("é".into(), vec![1]).is_none(), "an end inside a character is refused");
    }
}
