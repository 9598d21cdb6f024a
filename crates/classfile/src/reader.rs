//! The class-file format (JVMS §4) read into plain data: every length checked against the
//! bytes left, every constant-pool index checked for its kind, so hostile bytes give an error,
//! never a panic or an unbounded allocation.

use crate::ClassError;

/// Access flags (JVMS tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A).
pub mod acc {
    pub const PUBLIC: u16 = 0x0001;
    pub const PRIVATE: u16 = 0x0002;
    pub const PROTECTED: u16 = 0x0004;
    pub const STATIC: u16 = 0x0008;
    pub const FINAL: u16 = 0x0010;
    pub const SYNCHRONIZED: u16 = 0x0020;
    pub const VOLATILE: u16 = 0x0040;
    pub const BRIDGE: u16 = 0x0040;
    pub const TRANSIENT: u16 = 0x0080;
    pub const VARARGS: u16 = 0x0080;
    pub const NATIVE: u16 = 0x0100;
    pub const INTERFACE: u16 = 0x0200;
    pub const ABSTRACT: u16 = 0x0400;
    pub const STRICT: u16 = 0x0800;
    pub const SYNTHETIC: u16 = 0x1000;
    pub const ANNOTATION: u16 = 0x2000;
    pub const ENUM: u16 = 0x4000;
}

/// Annotations nest (an element value may be an annotation or an array); deeper than this is
/// refused rather than recursed into.
const MAX_ANNOTATION_DEPTH: usize = 16;

/// One class file, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassFile {
    pub major: u16,
    pub access: u16,
    /// Internal name: `java/util/HashMap`.
    pub this_class: String,
    pub super_class: Option<String>,
    pub interfaces: Vec<String>,
    pub fields: Vec<Member>,
    pub methods: Vec<Member>,
    pub signature: Option<String>,
    pub inner_classes: Vec<InnerClass>,
    /// The `Record` attribute's components (name, descriptor, signature), if any.
    pub record: Option<Vec<(String, String, Option<String>)>>,
    pub permitted: Vec<String>,
    pub annotations: Vec<String>,
    pub deprecated: bool,
    pub source_file: Option<String>,
    /// The `kotlin.Metadata` annotation's arguments, when the class was compiled from Kotlin
    /// (decoded by [`crate::kotlin`]).
    pub kotlin: Option<KotlinMetadata>,
}

/// The raw arguments of a `kotlin.Metadata` annotation (its elements as kotlinc writes them):
/// `k` the kind, `mv` the metadata version, `d1` the protobuf message (strings of BitEncoding),
/// `d2` the string table, `xs` a multi-file part's facade, `pn` the package name when it is not
/// the class's, `xi` extra flags. At most [`MAX_METADATA_STRINGS`] strings are kept per array.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KotlinMetadata {
    pub k: i32,
    pub mv: Vec<i32>,
    pub d1: Vec<String>,
    pub d2: Vec<String>,
    pub xs: Option<String>,
    pub pn: Option<String>,
    pub xi: i32,
}

/// The most strings of one `d1` or `d2` array kept (the JVM bounds an array by 65535 anyway).
pub const MAX_METADATA_STRINGS: usize = 65_535;

/// A field or a method.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Member {
    pub access: u16,
    pub name: String,
    pub descriptor: String,
    pub signature: Option<String>,
    /// The `Exceptions` attribute (internal names).
    pub exceptions: Vec<String>,
    /// Runtime-visible annotations, as type descriptors turned into names.
    pub annotations: Vec<String>,
    pub deprecated: bool,
    /// From `MethodParameters` (every descriptor parameter, synthetic ones included).
    pub method_parameters: Option<Vec<Option<String>>>,
    /// From the `LocalVariableTable`: (slot, name) of the locals live at pc 0.
    pub locals_at_entry: Vec<(u16, String)>,
}

/// An `InnerClasses` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerClass {
    pub inner: String,
    pub outer: Option<String>,
    pub simple_name: Option<String>,
    pub access: u16,
}

#[derive(Debug, Clone)]
enum Const {
    Empty,
    Utf8(String),
    Class(u16),
    Int(i32),
    Other,
}

struct Bytes<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ClassError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.b.len()).ok_or(ClassError::Truncated(self.pos))?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, ClassError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, ClassError> {
        let s = self.take(2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, ClassError> {
        let s = self.take(4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn len32(&mut self) -> Result<usize, ClassError> {
        usize::try_from(self.u32()?).map_err(|_| ClassError::Truncated(self.pos))
    }
}

struct Pool(Vec<Const>);

impl Pool {
    fn utf8(&self, i: u16) -> Result<&str, ClassError> {
        match self.0.get(usize::from(i)) {
            Some(Const::Utf8(s)) => Ok(s),
            _ => Err(ClassError::BadIndex(i)),
        }
    }
    fn class(&self, i: u16) -> Result<&str, ClassError> {
        match self.0.get(usize::from(i)) {
            Some(Const::Class(n)) => self.utf8(*n),
            _ => Err(ClassError::BadIndex(i)),
        }
    }
    fn int(&self, i: u16) -> Result<i32, ClassError> {
        match self.0.get(usize::from(i)) {
            Some(Const::Int(v)) => Ok(*v),
            _ => Err(ClassError::BadIndex(i)),
        }
    }
    fn opt_class(&self, i: u16) -> Result<Option<String>, ClassError> {
        if i == 0 { Ok(None) } else { self.class(i).map(|s| Some(s.to_owned())) }
    }
}

/// Modified UTF-8 (JVMS §4.4.7): NUL as two bytes, supplementary characters as surrogate
/// pairs. Plain UTF-8 is the common case; anything undecodable becomes U+FFFD.
fn modified_utf8(b: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(b) {
        return s.to_owned();
    }
    let mut units: Vec<u16> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            units.push(u16::from(c));
            i += 1;
        } else if c & 0xE0 == 0xC0 && i + 1 < b.len() {
            units.push((u16::from(c & 0x1F) << 6) | u16::from(b[i + 1] & 0x3F));
            i += 2;
        } else if c & 0xF0 == 0xE0 && i + 2 < b.len() {
            units.push((u16::from(c & 0x0F) << 12) | (u16::from(b[i + 1] & 0x3F) << 6) | u16::from(b[i + 2] & 0x3F));
            i += 3;
        } else {
            units.push(0xFFFD);
            i += 1;
        }
    }
    String::from_utf16_lossy(&units)
}

/// Reads a class file.
pub fn parse(b: &[u8]) -> Result<ClassFile, ClassError> {
    let mut r = Bytes { b, pos: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return Err(ClassError::NotAClass);
    }
    let _minor = r.u16()?;
    let major = r.u16()?;
    let count = r.u16()?;
    let mut pool = Vec::with_capacity(usize::from(count));
    pool.push(Const::Empty);
    let mut i = 1u32;
    while i < u32::from(count) {
        let tag = r.u8()?;
        let (c, wide) = match tag {
            1 => {
                let n = r.u16()?;
                (Const::Utf8(modified_utf8(r.take(usize::from(n))?)), false)
            }
            7 => (Const::Class(r.u16()?), false),
            3 => (Const::Int(r.u32()? as i32), false),
            4 => (r.take(4).map(|_| Const::Other)?, false),
            5 | 6 => (r.take(8).map(|_| Const::Other)?, true),
            8 | 16 | 19 | 20 => (r.take(2).map(|_| Const::Other)?, false),
            9..=12 | 17 | 18 => (r.take(4).map(|_| Const::Other)?, false),
            15 => (r.take(3).map(|_| Const::Other)?, false),
            t => return Err(ClassError::BadTag(t, r.pos)),
        };
        pool.push(c);
        i += 1;
        if wide {
            pool.push(Const::Empty);
            i += 1;
        }
    }
    let pool = Pool(pool);
    let access = r.u16()?;
    let this_class = pool.class(r.u16()?)?.to_owned();
    let super_class = pool.opt_class(r.u16()?)?;
    let n = r.u16()?;
    let mut interfaces = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        interfaces.push(pool.class(r.u16()?)?.to_owned());
    }
    let mut cf = ClassFile { major, access, this_class, super_class, interfaces, ..ClassFile::default() };
    for methods in [false, true] {
        let n = r.u16()?;
        for _ in 0..n {
            let m = member(&mut r, &pool, methods)?;
            if methods { cf.methods.push(m) } else { cf.fields.push(m) }
        }
    }
    let n = r.u16()?;
    for _ in 0..n {
        let name = pool.utf8(r.u16()?)?;
        let len = r.len32()?;
        let mut a = Bytes { b: r.take(len)?, pos: 0 };
        match name {
            "Signature" => cf.signature = Some(pool.utf8(a.u16()?)?.to_owned()),
            "SourceFile" => cf.source_file = Some(pool.utf8(a.u16()?)?.to_owned()),
            "Deprecated" => cf.deprecated = true,
            "RuntimeVisibleAnnotations" => cf.annotations = annotations(&mut a, &pool, Some(&mut cf.kotlin))?,
            "PermittedSubclasses" => {
                for _ in 0..a.u16()? {
                    cf.permitted.push(pool.class(a.u16()?)?.to_owned());
                }
            }
            "InnerClasses" => {
                for _ in 0..a.u16()? {
                    let inner = pool.class(a.u16()?)?.to_owned();
                    let outer = pool.opt_class(a.u16()?)?;
                    let ni = a.u16()?;
                    let simple_name = if ni == 0 { None } else { Some(pool.utf8(ni)?.to_owned()) };
                    let access = a.u16()?;
                    cf.inner_classes.push(InnerClass { inner, outer, simple_name, access });
                }
            }
            "Record" => {
                let mut comps = Vec::new();
                for _ in 0..a.u16()? {
                    let name = pool.utf8(a.u16()?)?.to_owned();
                    let desc = pool.utf8(a.u16()?)?.to_owned();
                    let mut sig = None;
                    for _ in 0..a.u16()? {
                        let an = pool.utf8(a.u16()?)?;
                        let len = a.len32()?;
                        let body = a.take(len)?;
                        if an == "Signature" && body.len() >= 2 {
                            sig = Some(pool.utf8(u16::from_be_bytes([body[0], body[1]]))?.to_owned());
                        }
                    }
                    comps.push((name, desc, sig));
                }
                cf.record = Some(comps);
            }
            _ => {}
        }
    }
    if cf.annotations.iter().any(|a| a == "java.lang.Deprecated") {
        cf.deprecated = true;
    }
    Ok(cf)
}

fn member(r: &mut Bytes, pool: &Pool, method: bool) -> Result<Member, ClassError> {
    let access = r.u16()?;
    let name = pool.utf8(r.u16()?)?.to_owned();
    let descriptor = pool.utf8(r.u16()?)?.to_owned();
    let mut m = Member { access, name, descriptor, ..Member::default() };
    for _ in 0..r.u16()? {
        let an = pool.utf8(r.u16()?)?;
        let len = r.len32()?;
        let mut a = Bytes { b: r.take(len)?, pos: 0 };
        match an {
            "Signature" => m.signature = Some(pool.utf8(a.u16()?)?.to_owned()),
            "Deprecated" => m.deprecated = true,
            "RuntimeVisibleAnnotations" => m.annotations = annotations(&mut a, pool, None)?,
            "Exceptions" if method => {
                for _ in 0..a.u16()? {
                    m.exceptions.push(pool.class(a.u16()?)?.to_owned());
                }
            }
            "MethodParameters" if method => {
                let mut names = Vec::new();
                for _ in 0..a.u8()? {
                    let ni = a.u16()?;
                    let _flags = a.u16()?;
                    names.push(if ni == 0 { None } else { Some(pool.utf8(ni)?.to_owned()) });
                }
                m.method_parameters = Some(names);
            }
            "Code" if method => m.locals_at_entry = code_locals(&mut a, pool)?,
            _ => {}
        }
    }
    if m.annotations.iter().any(|a| a == "java.lang.Deprecated") {
        m.deprecated = true;
    }
    Ok(m)
}

/// The locals the `LocalVariableTable` shows live at pc 0: the parameters.
fn code_locals(a: &mut Bytes, pool: &Pool) -> Result<Vec<(u16, String)>, ClassError> {
    a.take(4)?;
    let code_len = a.len32()?;
    a.take(code_len)?;
    let ex = usize::from(a.u16()?);
    a.take(ex * 8)?;
    let mut out = Vec::new();
    for _ in 0..a.u16()? {
        let an = pool.utf8(a.u16()?)?;
        let len = a.len32()?;
        let mut t = Bytes { b: a.take(len)?, pos: 0 };
        if an == "LocalVariableTable" {
            for _ in 0..t.u16()? {
                let start = t.u16()?;
                let _len = t.u16()?;
                let name = t.u16()?;
                let _desc = t.u16()?;
                let slot = t.u16()?;
                if start == 0 {
                    out.push((slot, pool.utf8(name)?.to_owned()));
                }
            }
        }
    }
    Ok(out)
}

/// The annotation types of a `RuntimeVisibleAnnotations` attribute, as qualified names; a
/// `kotlin.Metadata` annotation's arguments into `kotlin` when it is given.
fn annotations(
    a: &mut Bytes,
    pool: &Pool,
    mut kotlin: Option<&mut Option<KotlinMetadata>>,
) -> Result<Vec<String>, ClassError> {
    let mut out = Vec::new();
    for _ in 0..a.u16()? {
        if let Some(k) = kotlin.as_deref_mut()
            && pool
                .utf8(u16::from_be_bytes([
                    a.b.get(a.pos).copied().unwrap_or(0),
                    a.b.get(a.pos + 1).copied().unwrap_or(0),
                ]))
                .is_ok_and(|t| t == KOTLIN_METADATA)
        {
            let start = a.pos;
            // Read once for the arguments (a malformed one is no Kotlin view, not an error),
            // then again as any annotation.
            let mut probe = Bytes { b: a.b, pos: start };
            *k = kotlin_metadata(&mut probe, pool).ok();
        }
        out.push(annotation(a, pool, 0)?);
    }
    Ok(out)
}

/// The descriptor of Kotlin's metadata annotation.
pub const KOTLIN_METADATA: &str = "Lkotlin/Metadata;";

/// The arguments of a `kotlin.Metadata` annotation at `a` (its type index first).
fn kotlin_metadata(a: &mut Bytes, pool: &Pool) -> Result<KotlinMetadata, ClassError> {
    a.u16()?;
    let mut m = KotlinMetadata { k: 1, ..KotlinMetadata::default() };
    for _ in 0..a.u16()? {
        let name = pool.utf8(a.u16()?)?;
        match (name, a.u8()?) {
            ("k", b'I') => m.k = pool.int(a.u16()?)?,
            ("xi", b'I') => m.xi = pool.int(a.u16()?)?,
            ("xs", b's') => m.xs = Some(pool.utf8(a.u16()?)?.to_owned()),
            ("pn", b's') => m.pn = Some(pool.utf8(a.u16()?)?.to_owned()),
            ("mv", b'[') => {
                for _ in 0..a.u16()? {
                    if a.u8()? != b'I' {
                        return Err(ClassError::BadTag(0, a.pos));
                    }
                    m.mv.push(pool.int(a.u16()?)?);
                }
            }
            (d @ ("d1" | "d2"), b'[') => {
                let n = usize::from(a.u16()?);
                let mut strings = Vec::with_capacity(n.min(MAX_METADATA_STRINGS));
                for _ in 0..n {
                    if a.u8()? != b's' {
                        return Err(ClassError::BadTag(0, a.pos));
                    }
                    strings.push(pool.utf8(a.u16()?)?.to_owned());
                }
                if d == "d1" { m.d1 = strings } else { m.d2 = strings }
            }
            _ => {
                // Another argument (`bv`, a future one): skipped by its tag.
                a.pos -= 1;
                element_value(a, pool, 1)?;
            }
        }
    }
    Ok(m)
}

fn annotation(a: &mut Bytes, pool: &Pool, depth: usize) -> Result<String, ClassError> {
    if depth > MAX_ANNOTATION_DEPTH {
        return Err(ClassError::TooDeep);
    }
    let ty = pool.utf8(a.u16()?)?;
    let name = crate::signature::descriptor_type(ty).unwrap_or_else(|| ty.to_owned());
    for _ in 0..a.u16()? {
        a.u16()?;
        element_value(a, pool, depth + 1)?;
    }
    Ok(name)
}

fn element_value(a: &mut Bytes, pool: &Pool, depth: usize) -> Result<(), ClassError> {
    if depth > MAX_ANNOTATION_DEPTH {
        return Err(ClassError::TooDeep);
    }
    match a.u8()? {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => {
            a.u16()?;
        }
        b'e' => {
            a.u32()?;
        }
        b'@' => {
            annotation(a, pool, depth + 1)?;
        }
        b'[' => {
            for _ in 0..a.u16()? {
                element_value(a, pool, depth + 1)?;
            }
        }
        t => return Err(ClassError::BadTag(t, a.pos)),
    }
    Ok(())
}

/// Just the header: access flags, this class's internal name, and whether its constant pool
/// names Kotlin's metadata annotation (compiled from Kotlin), without reading members (what the
/// library index keeps for every class of an archive).
pub fn header(b: &[u8]) -> Result<(u16, String, bool), ClassError> {
    let mut r = Bytes { b, pos: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return Err(ClassError::NotAClass);
    }
    r.take(4)?;
    let count = r.u16()?;
    let mut utf8: Vec<Option<(usize, usize)>> = vec![None; usize::from(count)];
    let mut classes: Vec<u16> = vec![0; usize::from(count)];
    let mut kotlin = false;
    let mut i = 1usize;
    while i < usize::from(count) {
        let tag = r.u8()?;
        match tag {
            1 => {
                let n = usize::from(r.u16()?);
                let start = r.pos;
                kotlin |= r.take(n)? == KOTLIN_METADATA.as_bytes();
                utf8[i] = Some((start, n));
            }
            7 => classes[i] = r.u16()?,
            3 | 4 | 9..=12 | 17 | 18 => {
                r.take(4)?;
            }
            5 | 6 => {
                r.take(8)?;
                i += 1;
            }
            8 | 16 | 19 | 20 => {
                r.take(2)?;
            }
            15 => {
                r.take(3)?;
            }
            t => return Err(ClassError::BadTag(t, r.pos)),
        }
        i += 1;
    }
    let access = r.u16()?;
    let this = r.u16()?;
    let name_idx = classes.get(usize::from(this)).copied().ok_or(ClassError::BadIndex(this))?;
    let (s, n) = utf8.get(usize::from(name_idx)).copied().flatten().ok_or(ClassError::BadIndex(name_idx))?;
    Ok((access, modified_utf8(&b[s..s + n]), kotlin))
}
