//! The world's tables by name (types by qualified name, packages, simple names, types by
//! member name) in two forms: hashed, as linking builds them, or flat and sorted, as the
//! reference store keeps them and a restart reads them back (issue 38): a few arrays per
//! table, checked once and searched in place, instead of an allocation and a hash insert per
//! entry.
//!
//! The flat form's encoding: each array a u32 count (little-endian) then its items (u32s, or
//! the bytes of a text). Reading checks everything a lookup relies on (bounds, order, ids
//! below the number of types), so a table that does not fit is refused (the world is linked
//! anew), never a panic.

use foldhash::{HashMap, HashSet};

use crate::name::Name;

/// A type of the world (`crate::world`): an index in its types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct TypeId(pub u32);

/// Strings one after another: `text` and where each ends.
#[derive(Default)]
pub(crate) struct Strs {
    text: Box<str>,
    ends: Box<[u32]>,
}

impl Strs {
    fn of<'a>(items: impl Iterator<Item = &'a str>) -> Strs {
        let mut text = String::new();
        let mut ends = Vec::new();
        for s in items {
            text.push_str(s);
            ends.push(text.len() as u32);
        }
        Strs { text: text.into(), ends: ends.into() }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `i`-th string ("" past the end; reading checked every one fits).
    pub(crate) fn get(&self, i: usize) -> &str {
        let a = match i.checked_sub(1) {
            Some(p) => self.ends.get(p).copied().unwrap_or(0),
            None => 0,
        };
        let b = self.ends.get(i).copied().unwrap_or(a);
        self.text.get(a as usize..b as usize).unwrap_or("")
    }

    /// The index of `s` when the strings are sorted (as a store's sorted tables are).
    fn find(&self, s: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid).cmp(s) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    fn write(&self, out: &mut Vec<u8>) {
        text(out, &self.text);
        u32s(out, &self.ends);
    }

    /// Reads strings written by [`Strs::write`]; `sorted`: they must ascend strictly.
    fn read(r: &mut Reader<'_>, sorted: bool) -> Option<Strs> {
        let text = r.text()?;
        let ends = r.u32s()?;
        let mut at = 0u32;
        for &e in &ends {
            if e < at || !text.is_char_boundary(e as usize) {
                return None;
            }
            at = e;
        }
        let s = Strs { text: text.into(), ends: ends.into() };
        if sorted && !(1..s.len()).all(|i| s.get(i - 1) < s.get(i)) {
            return None;
        }
        Some(s)
    }
}

/// Type ids by name, sorted by name: name `i`'s ids are `ids[off[i]..off[i + 1]]`.
pub(crate) struct Sorted {
    names: Strs,
    off: Box<[u32]>,
    ids: Box<[TypeId]>,
}

impl Sorted {
    fn of<'a>(mut pairs: Vec<(&'a str, &'a [TypeId])>) -> Sorted {
        pairs.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut off = Vec::with_capacity(pairs.len() + 1);
        let mut ids = Vec::new();
        off.push(0);
        for (_, v) in &pairs {
            ids.extend_from_slice(v);
            off.push(ids.len() as u32);
        }
        Sorted { names: Strs::of(pairs.iter().map(|p| p.0)), off: off.into(), ids: ids.into() }
    }

    fn at(&self, i: usize) -> &[TypeId] {
        let (a, b) = (self.off.get(i).copied().unwrap_or(0), self.off.get(i + 1).copied().unwrap_or(0));
        self.ids.get(a as usize..b as usize).unwrap_or(&[])
    }

    fn get(&self, name: &str) -> &[TypeId] {
        self.names.find(name).map(|i| self.at(i)).unwrap_or(&[])
    }

    fn iter(&self) -> impl Iterator<Item = (&str, &[TypeId])> + '_ {
        (0..self.names.len()).map(|i| (self.names.get(i), self.at(i)))
    }

    fn write(&self, out: &mut Vec<u8>) {
        self.names.write(out);
        u32s(out, &self.off);
        u32s(out, &self.ids.iter().map(|t| t.0).collect::<Vec<_>>());
    }

    /// Reads a table written by [`Sorted::write`] whose ids are below `ntypes`.
    fn read(r: &mut Reader<'_>, ntypes: usize) -> Option<Sorted> {
        let names = Strs::read(r, true)?;
        let off = r.u32s()?;
        let ids = r.u32s()?;
        let fits = off.len() == names.len() + 1
            && off.first() == Some(&0)
            && off.windows(2).all(|w| w[0] <= w[1])
            && off.last().is_some_and(|&l| l as usize == ids.len())
            && ids.iter().all(|&id| (id as usize) < ntypes);
        fits.then(|| Sorted { names, off: off.into(), ids: ids.into_iter().map(TypeId).collect() })
    }
}

/// Workspace types by qualified name.
pub(crate) enum ByFqn {
    Built(HashMap<Box<str>, TypeId>),
    Stored(Sorted),
}

impl ByFqn {
    pub(crate) fn get(&self, fqn: &str) -> Option<TypeId> {
        match self {
            ByFqn::Built(m) => m.get(fqn).copied(),
            ByFqn::Stored(s) => s.get(fqn).first().copied(),
        }
    }

    pub(crate) fn contains(&self, fqn: &str) -> bool {
        self.get(fqn).is_some()
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        match self {
            ByFqn::Built(m) => Sorted::of(m.iter().map(|(k, v)| (&**k, std::slice::from_ref(v))).collect()).write(out),
            ByFqn::Stored(s) => s.write(out),
        }
    }

    pub(crate) fn read(r: &mut Reader<'_>, ntypes: usize) -> Option<ByFqn> {
        let s = Sorted::read(r, ntypes)?;
        (0..s.names.len()).all(|i| s.at(i).len() == 1).then_some(ByFqn::Stored(s))
    }

    /// Every entry, in no particular order (for tests).
    #[cfg(test)]
    pub(crate) fn entries(&self) -> Vec<(String, u32)> {
        match self {
            ByFqn::Built(m) => m.iter().map(|(k, v)| (k.to_string(), v.0)).collect(),
            ByFqn::Stored(s) => s.iter().map(|(k, v)| (k.to_string(), v[0].0)).collect(),
        }
    }
}

/// Workspace types by the name of a member they declare (each list ascending).
pub(crate) enum ByName {
    Built(HashMap<Name, Vec<TypeId>>),
    Stored(Sorted),
}

impl ByName {
    pub(crate) fn get(&self, name: &str) -> &[TypeId] {
        match self {
            ByName::Built(m) => m.get(name).map(|v| v.as_slice()).unwrap_or(&[]),
            ByName::Stored(s) => s.get(name),
        }
    }

    /// The hashed form, to be edited (see `World::relinked`).
    pub(crate) fn to_map(&self) -> HashMap<Name, Vec<TypeId>> {
        match self {
            ByName::Built(m) => m.clone(),
            ByName::Stored(s) => s.iter().map(|(k, v)| (Name::new(k), v.to_vec())).collect(),
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        match self {
            ByName::Built(m) => Sorted::of(m.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect()).write(out),
            ByName::Stored(s) => s.write(out),
        }
    }

    pub(crate) fn read(r: &mut Reader<'_>, ntypes: usize) -> Option<ByName> {
        Sorted::read(r, ntypes).map(ByName::Stored)
    }

    /// Every entry, sorted (for tests).
    #[cfg(test)]
    pub(crate) fn sorted(&self) -> Vec<(String, Vec<u32>)> {
        let mut v: Vec<(String, Vec<u32>)> = match self {
            ByName::Built(m) => m.iter().map(|(k, v)| (k.to_string(), v.iter().map(|t| t.0).collect())).collect(),
            ByName::Stored(s) => s.iter().map(|(k, v)| (k.to_string(), v.iter().map(|t| t.0).collect())).collect(),
        };
        v.sort();
        v
    }
}

/// The workspace's packages (with every enclosing package).
pub(crate) enum Packages {
    Built(HashSet<Box<str>>),
    Stored(Strs),
}

impl Packages {
    pub(crate) fn contains(&self, p: &str) -> bool {
        match self {
            Packages::Built(s) => s.contains(p),
            Packages::Stored(s) => s.find(p).is_some(),
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        match self {
            Packages::Built(s) => {
                let mut v: Vec<&str> = s.iter().map(|p| &**p).collect();
                v.sort_unstable();
                Strs::of(v.into_iter()).write(out)
            }
            Packages::Stored(s) => s.write(out),
        }
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Option<Packages> {
        Strs::read(r, true).map(Packages::Stored)
    }
}

/// Each workspace type's simple name, by id.
pub(crate) enum Simple {
    Built(Vec<Box<str>>),
    Stored(Strs),
}

impl Simple {
    pub(crate) fn len(&self) -> usize {
        match self {
            Simple::Built(v) => v.len(),
            Simple::Stored(s) => s.len(),
        }
    }

    pub(crate) fn get(&self, i: usize) -> &str {
        match self {
            Simple::Built(v) => v.get(i).map(|s| &**s).unwrap_or(""),
            Simple::Stored(s) => s.get(i),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        match self {
            Simple::Built(v) => Strs::of(v.iter().map(|s| &**s)).write(out),
            Simple::Stored(s) => s.write(out),
        }
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Option<Simple> {
        Strs::read(r, false).map(Simple::Stored)
    }
}

/// Appends a u32 count and the values, little-endian.
pub(crate) fn u32s(out: &mut Vec<u8>, v: &[u32]) {
    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    out.reserve(v.len() * 4);
    v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
}

/// Appends a u32 length and the bytes.
pub(crate) fn text(out: &mut Vec<u8>, s: &str) {
    blob(out, s.as_bytes());
}

/// Appends a u32 length and the bytes.
pub(crate) fn blob(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// Reads what [`u32s`], [`text`] and [`blob`] wrote, every read bounds-checked.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (a, b) = self.bytes.split_at(n);
        self.bytes = b;
        Some(a)
    }

    fn count(&mut self) -> Option<usize> {
        let b: [u8; 4] = self.take(4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b) as usize)
    }

    pub(crate) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.count()?;
        let b = self.take(n.checked_mul(4)?)?;
        Some(b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    pub(crate) fn blob(&mut self) -> Option<&'a [u8]> {
        let n = self.count()?;
        self.take(n)
    }

    pub(crate) fn text(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.blob()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<TypeId> {
        v.iter().map(|&i| TypeId(i)).collect()
    }

    #[test]
    fn a_stored_table_answers_as_the_built_one_and_a_damaged_one_is_refused() {
        let mut m: HashMap<Name, Vec<TypeId>> = HashMap::default();
        for (k, v) in [("size", &[0u32, 2][..]), ("get", &[1]), ("é", &[2]), ("", &[0, 1, 2])] {
            m.insert(Name::new(k), ids(v));
        }
        let built = ByName::Built(m);
        let mut bytes = Vec::new();
        built.write(&mut bytes);
        let stored = ByName::read(&mut Reader::new(&bytes), 3).expect("reads back");
        assert_eq!(stored.sorted(), built.sorted());
        for k in ["size", "get", "é", "", "none", "a", "zz"] {
            assert_eq!(stored.get(k), built.get(k), "{k}");
        }
        assert!(ByName::read(&mut Reader::new(&bytes), 2).is_none(), "an id past the types");
        // Every truncation is refused and no damaged byte panics.
        for n in 0..bytes.len() {
            assert!(ByName::read(&mut Reader::new(&bytes[..n]), 3).is_none(), "truncated at {n}");
        }
        for i in 0..bytes.len() {
            for x in [0x00, 0x01, 0x7f, 0xc3, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= x;
                if let Some(t) = ByName::read(&mut Reader::new(&b), 3) {
                    for k in ["size", "get", "é", ""] {
                        t.get(k);
                    }
                }
            }
        }
        // Names out of order would not be found by a binary search: refused.
        let mut unsorted = Vec::new();
        Strs::of(["b", "a"].into_iter()).write(&mut unsorted);
        u32s(&mut unsorted, &[0, 0, 0]);
        u32s(&mut unsorted, &[]);
        assert!(ByName::read(&mut Reader::new(&unsorted), 3).is_none());
        assert!(ByName::read(&mut Reader::new(&unsorted[..unsorted.len() - 4]), 3).is_none());
    }

    #[test]
    fn stored_packages_and_simple_names_answer_as_the_built_ones() {
        let built = Packages::Built(["java", "java.util", "a"].into_iter().map(Box::from).collect());
        let mut bytes = Vec::new();
        built.write(&mut bytes);
        let stored = Packages::read(&mut Reader::new(&bytes)).expect("reads back");
        for p in ["java", "java.util", "a", "b", "java.uti"] {
            assert_eq!(stored.contains(p), built.contains(p), "{p}");
        }
        let built = Simple::Built(["Map", "Entry", "Map"].into_iter().map(Box::from).collect());
        let mut bytes = Vec::new();
        built.write(&mut bytes);
        let stored = Simple::read(&mut Reader::new(&bytes)).expect("reads back");
        assert_eq!(stored.iter().collect::<Vec<_>>(), built.iter().collect::<Vec<_>>());
        assert_eq!(stored.get(7), "", "past the end");
        // An end inside a character is refused.
        let mut bad = Vec::new();
        text(&mut bad, "é");
        u32s(&mut bad, &[1, 2]);
        assert!(Simple::read(&mut Reader::new(&bad)).is_none());
    }
}
