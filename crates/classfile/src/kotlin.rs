//! Kotlin's view of a class compiled from Kotlin: its `kotlin.Metadata` annotation
//! ([`crate::reader::KotlinMetadata`]) decoded into the declarations Kotlin wrote — a class's or a
//! file's functions, properties (with the JVM names of their getter, setter and backing field),
//! constructors, type aliases, companion object — by a small protobuf reader written here (the
//! few messages needed do not justify a protobuf crate and its generated code).
//!
//! The formats, from JetBrains/kotlin:
//! - `core/metadata/src/metadata.proto` (`Class`, `Package`, `Function`, `Property`,
//!   `Constructor`, `ValueParameter`, `TypeAlias`, `Type`, `TypeParameter`, `TypeTable`,
//!   `EnumEntry`: the field numbers of the `fields` modules below) and the flag layout of
//!   `core/metadata/src/org/jetbrains/kotlin/metadata/deserialization/Flags.java` (bit 0
//!   hasAnnotations, 1-3 visibility, 4-5 modality, then a class's kind (6-8), isInner, isData…;
//!   a member's kind (6-7), then a property's isVar, hasGetter, hasSetter, isConst, isLateinit…
//!   and a function's isOperator, isInfix, isInline, isTailrec, isExternal, isSuspend);
//! - `core/metadata.jvm/src/jvm_metadata.proto` (`StringTableTypes` and its `Record`, written
//!   delimited before the class's or package's message; `JvmMethodSignature`,
//!   `JvmFieldSignature`, `JvmPropertySignature`, the extensions numbered 100);
//! - `JvmNameResolverBase.kt` (how a record turns `d2`'s string into a name: its predefined
//!   string, substring, replaced character and operation) and `BitEncoding.java` (how `d1`'s
//!   strings hold the bytes: UTF-8 mode after a `\0` marker, else 8-to-7 bit packing).
//!
//! A jar is untrusted input: every length is checked against what is left, every loop is
//! bounded by the bytes it consumes or a cap, nesting by [`MAX_DEPTH`]; malformed metadata is
//! `None` ("no Kotlin view"), never a panic.

use crate::reader::KotlinMetadata;

/// How deep types and messages nest before the metadata is refused.
const MAX_DEPTH: usize = 24;
/// The most declarations of one kind read from one message.
const MAX_MEMBERS: usize = 65_536;
/// The most type parameters read from one declaration (each member's scope copies its owner's).
const MAX_TYPE_PARAMS: usize = 256;
/// The most bytes `d1` may decode to.
const MAX_D1_BYTES: usize = 16 << 20;

/// What `k` says the class file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A class, interface, object, enum or annotation class (`k = 1`).
    Class,
    /// The facade class of one file's top-level declarations (`FooKt`, `k = 2`).
    FileFacade,
    /// A lambda's or a `when`'s class, `$DefaultImpls` (`k = 3`): nothing to show.
    Synthetic,
    /// The facade of several files' parts (`@JvmMultifileClass`, `k = 4`): `d1` names its parts.
    MultiFileFacade,
    /// One file's part of a multi-file facade (`k = 5`; `xs` names the facade).
    MultiFilePart,
}

/// Kotlin's visibilities (`Visibility` in metadata.proto).
fn visibility(flags: u64) -> &'static str {
    match (flags >> 1) & 7 {
        0 => "internal",
        1 | 4 => "private",
        2 => "protected",
        5 => "local",
        _ => "public",
    }
}

/// Kotlin's modalities (`Modality` in metadata.proto); `final` is Kotlin's default.
fn modality(flags: u64) -> Option<&'static str> {
    match (flags >> 4) & 3 {
        1 => Some("open"),
        2 => Some("abstract"),
        3 => Some("sealed"),
        _ => None,
    }
}

fn bit(flags: u64, n: u32) -> bool {
    flags >> n & 1 == 1
}

/// A class's kind as Kotlin declares it (`Class.Kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    Class,
    Interface,
    EnumClass,
    EnumEntry,
    AnnotationClass,
    Object,
    CompanionObject,
}

/// What Kotlin declares of a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    /// `kotlin/collections/Map.Entry`.
    pub fq_name: String,
    pub kind: ClassKind,
    /// Kotlin's modifiers: visibility, modality, `data`, `inner`, `value`, `fun`…
    pub modifiers: Vec<String>,
    /// The companion object's simple name (`Companion`).
    pub companion: Option<String>,
    pub type_params: Vec<String>,
    pub supertypes: Vec<String>,
    pub enum_entries: Vec<String>,
}

/// A JVM member's name and descriptor as the metadata gives them (either may be absent: the
/// default one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JvmSig {
    pub name: Option<String>,
    pub desc: Option<String>,
}

/// A function as Kotlin declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// `public`, `inline`, `suspend`, `operator`…
    pub modifiers: Vec<String>,
    pub type_params: Vec<String>,
    /// An extension function's receiver type.
    pub receiver: Option<String>,
    /// (name, type as Kotlin writes it; `vararg` first when it is one).
    pub params: Vec<(String, String)>,
    pub return_type: String,
    /// The JVM method: name (when it differs from Kotlin's) and descriptor.
    pub jvm: JvmSig,
}

impl Function {
    /// `fun <T> CharSequence.name(a: Int): String`.
    pub fn signature(&self) -> String {
        let mut s = self.modifiers.join(" ");
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str("fun ");
        if !self.type_params.is_empty() {
            s.push_str(&format!("<{}> ", self.type_params.join(", ")));
        }
        if let Some(r) = &self.receiver {
            s.push_str(r);
            s.push('.');
        }
        s.push_str(&self.name);
        s.push('(');
        s.push_str(&params_text(&self.params));
        s.push_str("): ");
        s.push_str(&self.return_type);
        s
    }
}

fn params_text(params: &[(String, String)]) -> String {
    params
        .iter()
        .map(|(n, t)| match t.strip_prefix("vararg ") {
            Some(t) => format!("vararg {n}: {t}"),
            None => format!("{n}: {t}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A property as Kotlin declares it, with the JVM members Java uses for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    pub name: String,
    /// `public`, `const`, `lateinit`, `abstract`… (not `val`/`var`: see `mutable`).
    pub modifiers: Vec<String>,
    pub mutable: bool,
    pub type_text: String,
    /// An extension property's receiver type.
    pub receiver: Option<String>,
    /// The getter's JVM name and descriptor, when the property has a getter.
    pub getter: Option<JvmSig>,
    pub setter: Option<JvmSig>,
    /// The backing field (its name when it is not the property's).
    pub field: Option<JvmSig>,
}

impl Property {
    /// `val length: Int`.
    pub fn declaration(&self) -> String {
        let recv = self.receiver.as_deref().map(|r| format!("{r}.")).unwrap_or_default();
        let kw = if self.mutable { "var" } else { "val" };
        format!("{kw} {recv}{}: {}", self.name, self.type_text)
    }
}

/// A constructor as Kotlin declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constructor {
    pub modifiers: Vec<String>,
    pub secondary: bool,
    pub params: Vec<(String, String)>,
    pub jvm_desc: Option<String>,
}

impl Constructor {
    /// `constructor(first: A, second: B)`.
    pub fn signature(&self) -> String {
        let mut s = self.modifiers.join(" ");
        if !s.is_empty() {
            s.push(' ');
        }
        format!("{s}constructor({})", params_text(&self.params))
    }
}

/// A type alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeAlias {
    pub name: String,
    pub modifiers: Vec<String>,
    pub type_params: Vec<String>,
    pub underlying: String,
}

/// Kotlin's view of one class file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub kind: Kind,
    /// For [`Kind::Class`].
    pub class: Option<ClassInfo>,
    pub constructors: Vec<Constructor>,
    pub functions: Vec<Function>,
    pub properties: Vec<Property>,
    pub type_aliases: Vec<TypeAlias>,
    /// A multi-file facade's parts (internal names).
    pub parts: Vec<String>,
    /// A multi-file part's facade (internal name).
    pub facade: Option<String>,
    /// The package when it is not the class's (`@JvmPackageName`).
    pub package: Option<String>,
}

/// Decodes `m`; `None` when it is malformed or of a kind this reader does not know.
pub fn decode(m: &KotlinMetadata) -> Option<View> {
    let kind = match m.k {
        1 => Kind::Class,
        2 => Kind::FileFacade,
        3 => Kind::Synthetic,
        4 => Kind::MultiFileFacade,
        5 => Kind::MultiFilePart,
        _ => return None,
    };
    let mut v = View {
        kind,
        class: None,
        constructors: Vec::new(),
        functions: Vec::new(),
        properties: Vec::new(),
        type_aliases: Vec::new(),
        parts: Vec::new(),
        facade: m.xs.clone().filter(|_| kind == Kind::MultiFilePart),
        package: m.pn.clone(),
    };
    match kind {
        Kind::Synthetic => return Some(v),
        Kind::MultiFileFacade => {
            v.parts = m.d1.iter().take(MAX_MEMBERS).cloned().collect();
            return Some(v);
        }
        _ => {}
    }
    let bytes = decode_bytes(&m.d1)?;
    let mut input = Pb::new(&bytes);
    let len = usize::try_from(input.varint()?).ok()?;
    let table = input.take(len)?;
    let names = Names::new(table, &m.d2)?;
    let body = input.rest();
    let cx = Cx { names: &names, steps: std::cell::Cell::new(MAX_TYPE_STEPS) };
    if kind == Kind::Class {
        cx.class(body, &mut v)?;
    } else {
        cx.package(body, &mut v)?;
    }
    Some(v)
}

/// `d1`'s strings back into bytes (`BitEncoding.decodeBytes`).
pub fn decode_bytes(d1: &[String]) -> Option<Vec<u8>> {
    let total: usize = d1.iter().map(|s| s.len()).sum();
    if total > MAX_D1_BYTES {
        return None;
    }
    let mut chars = d1.iter().flat_map(|s| s.chars());
    let first = d1.first().and_then(|s| s.chars().next());
    if first == Some('\0') {
        // UTF-8 mode: each char is one byte.
        chars.next();
        return Some(chars.map(|c| c as u32 as u8).collect());
    }
    if first == Some('\u{FFFF}') {
        chars.next();
    }
    // 8-to-7 mode: each char holds 7 bits, every byte incremented by one modulo 0x80.
    let data: Vec<u8> = chars.map(|c| ((c as u32 as u8).wrapping_add(0x7f)) & 0x7f).collect();
    let n = 7 * data.len() / 8;
    let mut out = Vec::with_capacity(n);
    let (mut i, mut bit) = (0usize, 0u32);
    for _ in 0..n {
        let first = u32::from(*data.get(i)?) >> bit;
        i += 1;
        let second = (u32::from(*data.get(i)?) & ((1 << (bit + 1)) - 1)) << (7 - bit);
        out.push((first + second) as u8);
        if bit == 6 {
            i += 1;
            bit = 0;
        } else {
            bit += 1;
        }
    }
    Some(out)
}

/// One protobuf field's value.
#[derive(Debug, Clone, Copy)]
enum Val<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

/// A protobuf message's fields, read in order.
struct Pb<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Pb<'a> {
    fn new(b: &'a [u8]) -> Self {
        Pb { b, pos: 0 }
    }
    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = *self.b.get(self.pos)?;
            self.pos += 1;
            if shift < 64 {
                v |= u64::from(byte & 0x7f) << shift;
            }
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.b.len())?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Some(s)
    }
    fn rest(&self) -> &'a [u8] {
        &self.b[self.pos.min(self.b.len())..]
    }
    /// The next field: `Some(None)` at the end, `None` when malformed.
    fn field(&mut self) -> Option<Option<(u64, Val<'a>)>> {
        if self.pos >= self.b.len() {
            return Some(None);
        }
        let key = self.varint()?;
        let val = match key & 7 {
            0 => Val::Varint(self.varint()?),
            1 => self.take(8).map(|_| Val::Fixed)?,
            2 => {
                let n = usize::try_from(self.varint()?).ok()?;
                Val::Bytes(self.take(n)?)
            }
            5 => self.take(4).map(|_| Val::Fixed)?,
            _ => return None,
        };
        Some(Some((key >> 3, val)))
    }
    /// Every field of the message, to `f`; `None` when malformed.
    fn each(b: &'a [u8], mut f: impl FnMut(u64, Val<'a>) -> Option<()>) -> Option<()> {
        let mut p = Pb::new(b);
        // Each field consumes at least one byte: the loop is bounded by the message's length.
        while let Some((n, v)) = p.field()? {
            f(n, v)?;
        }
        Some(())
    }
}

fn int(v: Val) -> Option<u64> {
    match v {
        Val::Varint(x) => Some(x),
        _ => None,
    }
}

fn bytes<'a>(v: Val<'a>) -> Option<&'a [u8]> {
    match v {
        Val::Bytes(b) => Some(b),
        _ => None,
    }
}

/// A repeated int32: packed (one length-delimited run) or one varint.
fn ints(v: Val, out: &mut Vec<u64>) -> Option<()> {
    match v {
        Val::Varint(x) => out.push(x),
        Val::Bytes(b) => {
            let mut p = Pb::new(b);
            while p.pos < b.len() {
                out.push(p.varint()?);
            }
        }
        Val::Fixed => return None,
    }
    Some(())
}

/// The strings every name and type refers to: `d2` through `StringTableTypes`' records
/// (`JvmNameResolverBase`).
struct Names {
    strings: Vec<String>,
}

/// `JvmNameResolverBase.PREDEFINED_STRINGS`, in order.
const PREDEFINED: [&str; 43] = [
    "kotlin/Any",
    "kotlin/Nothing",
    "kotlin/Unit",
    "kotlin/Throwable",
    "kotlin/Number",
    "kotlin/Byte",
    "kotlin/Double",
    "kotlin/Float",
    "kotlin/Int",
    "kotlin/Long",
    "kotlin/Short",
    "kotlin/Boolean",
    "kotlin/Char",
    "kotlin/CharSequence",
    "kotlin/String",
    "kotlin/Comparable",
    "kotlin/Enum",
    "kotlin/Array",
    "kotlin/ByteArray",
    "kotlin/DoubleArray",
    "kotlin/FloatArray",
    "kotlin/IntArray",
    "kotlin/LongArray",
    "kotlin/ShortArray",
    "kotlin/BooleanArray",
    "kotlin/CharArray",
    "kotlin/Cloneable",
    "kotlin/Annotation",
    "kotlin/collections/Iterable",
    "kotlin/collections/MutableIterable",
    "kotlin/collections/Collection",
    "kotlin/collections/MutableCollection",
    "kotlin/collections/List",
    "kotlin/collections/MutableList",
    "kotlin/collections/Set",
    "kotlin/collections/MutableSet",
    "kotlin/collections/Map",
    "kotlin/collections/MutableMap",
    "kotlin/collections/Map.Entry",
    "kotlin/collections/MutableMap.MutableEntry",
    "kotlin/collections/Iterator",
    "kotlin/collections/MutableIterator",
    "kotlin/collections/ListIterator",
];

impl Names {
    fn new(table: &[u8], d2: &[String]) -> Option<Names> {
        let mut strings: Vec<String> = Vec::with_capacity(d2.len());
        Pb::each(table, |n, v| {
            if n != 1 {
                return Some(());
            }
            // One record, repeated `range` times (at most as many strings as `d2` has).
            let (mut range, mut predefined, mut string, mut op) = (1u64, None, None, 0u64);
            let (mut sub, mut rep) = (Vec::new(), Vec::new());
            Pb::each(bytes(v)?, |n, v| {
                match n {
                    1 => range = int(v)?,
                    2 => predefined = Some(int(v)?),
                    3 => op = int(v)?,
                    4 => ints(v, &mut sub)?,
                    5 => ints(v, &mut rep)?,
                    6 => string = Some(String::from_utf8_lossy(bytes(v)?).into_owned()),
                    _ => {}
                }
                Some(())
            })?;
            for _ in 0..range {
                let i = strings.len();
                if i >= d2.len() {
                    break;
                }
                let mut s = match (&string, predefined) {
                    (Some(s), _) => s.clone(),
                    (None, Some(p)) if (p as usize) < PREDEFINED.len() => PREDEFINED[p as usize].to_owned(),
                    _ => d2[i].clone(),
                };
                if let [b, e, ..] = sub[..]
                    && b <= e
                    && (e as usize) <= s.chars().count()
                {
                    s = s.chars().skip(b as usize).take((e - b) as usize).collect();
                }
                if let [from, to, ..] = rep[..]
                    && let (Some(from), Some(to)) = (char::from_u32(from as u32), char::from_u32(to as u32))
                {
                    s = s.replace(from, &to.to_string());
                }
                match op {
                    1 => s = s.replace('$', "."),
                    2 => {
                        if s.chars().count() >= 2 {
                            let n = s.chars().count();
                            s = s.chars().skip(1).take(n - 2).collect();
                        }
                        s = s.replace('$', ".");
                    }
                    _ => {}
                }
                strings.push(s);
            }
            Some(())
        })?;
        // Strings without a record are `d2`'s as they are.
        strings.extend(d2.iter().skip(strings.len()).cloned());
        Some(Names { strings })
    }
    fn get(&self, i: u64) -> Option<&str> {
        self.strings.get(usize::try_from(i).ok()?).map(String::as_str)
    }
}

/// A type table (`TypeTable`): its types' messages, and from which index they are nullable.
#[derive(Default)]
struct Types<'a> {
    types: Vec<&'a [u8]>,
    first_nullable: Option<u64>,
}

impl<'a> Types<'a> {
    fn read(b: &'a [u8]) -> Option<Types<'a>> {
        let mut t = Types::default();
        Pb::each(b, |n, v| {
            match n {
                1 if t.types.len() < MAX_MEMBERS => t.types.push(bytes(v)?),
                2 => t.first_nullable = Some(int(v)?),
                _ => {}
            }
            Some(())
        })?;
        Some(t)
    }
}

/// The most types one decode renders: a type table's entries may refer to each other by id,
/// so without it a few hostile bytes could ask for exponentially many.
const MAX_TYPE_STEPS: usize = 200_000;

/// What a type's rendering needs: the names, and the work left ([`MAX_TYPE_STEPS`]).
struct Cx<'n> {
    names: &'n Names,
    steps: std::cell::Cell<usize>,
}

/// The type parameters in scope, by id.
type Scope = Vec<(u64, String)>;

impl Cx<'_> {
    fn name(&self, v: Val) -> Option<String> {
        self.names.get(int(v)?).map(str::to_owned)
    }

    /// A type as Kotlin writes it (`List<String>?`), its class names without their package.
    fn ty(&self, b: &[u8], tt: &Types, scope: &Scope, depth: usize, nullable: bool) -> Option<String> {
        if depth > MAX_DEPTH || self.steps.get() == 0 {
            return None;
        }
        self.steps.set(self.steps.get() - 1);
        let (mut base, mut args, mut null) = (None, Vec::new(), nullable);
        Pb::each(b, |n, v| {
            match n {
                2 => args.push(self.type_arg(bytes(v)?, tt, scope, depth + 1)?),
                3 => null |= int(v)? != 0,
                6 | 12 => {
                    let q = self.names.get(int(v)?)?;
                    base = Some(q.rsplit('/').next().unwrap_or(q).to_owned());
                }
                7 => {
                    let id = int(v)?;
                    base = Some(scope.iter().find(|(i, _)| *i == id).map_or("?".to_owned(), |(_, n)| n.clone()));
                }
                9 => base = Some(self.name(v)?),
                _ => {}
            }
            Some(())
        })?;
        let mut s = base?;
        if !args.is_empty() {
            s = format!("{s}<{}>", args.join(", "));
        }
        if null {
            s.push('?');
        }
        Some(s)
    }

    /// A type given inline (`inline_field`) or by its id in the table (`id_field`).
    fn type_by_id(&self, id: u64, tt: &Types, scope: &Scope, depth: usize) -> Option<String> {
        let b = tt.types.get(usize::try_from(id).ok()?)?;
        let nullable = tt.first_nullable.is_some_and(|f| id >= f);
        self.ty(b, tt, scope, depth + 1, nullable)
    }

    fn type_arg(&self, b: &[u8], tt: &Types, scope: &Scope, depth: usize) -> Option<String> {
        let (mut proj, mut t) = (2u64, None);
        Pb::each(b, |n, v| {
            match n {
                1 => proj = int(v)?,
                2 => t = Some(self.ty(bytes(v)?, tt, scope, depth + 1, false)?),
                3 => t = Some(self.type_by_id(int(v)?, tt, scope, depth)?),
                _ => {}
            }
            Some(())
        })?;
        Some(match (proj, t) {
            (3, _) | (_, None) => "*".to_owned(),
            (0, Some(t)) => format!("in {t}"),
            (1, Some(t)) => format!("out {t}"),
            (_, Some(t)) => t,
        })
    }

    /// A message's type parameters (field `field`) into `scope`, and as written (`T : Any`).
    fn type_params(&self, b: &[u8], field: u64, tt: &Types, scope: &mut Scope) -> Option<Vec<String>> {
        let mut raw = Vec::new();
        Pb::each(b, |n, v| {
            if n == field && raw.len() < MAX_TYPE_PARAMS {
                raw.push(bytes(v)?);
            }
            Some(())
        })?;
        let mut bounds = Vec::new();
        for tp in &raw {
            let (mut id, mut name, mut variance, mut reified, mut ub) = (0, String::new(), 2, false, Vec::new());
            Pb::each(tp, |n, v| {
                match n {
                    1 => id = int(v)?,
                    2 => name = self.name(v)?,
                    3 => reified = int(v)? != 0,
                    4 => variance = int(v)?,
                    5 => ub.push(Err(bytes(v)?)),
                    6 => {
                        let mut ids = Vec::new();
                        ints(v, &mut ids)?;
                        ub.extend(ids.into_iter().map(Ok));
                    }
                    _ => {}
                }
                Some(())
            })?;
            scope.push((id, name.clone()));
            bounds.push((name, variance, reified, ub));
        }
        let mut out = Vec::new();
        for (name, variance, reified, ub) in bounds {
            let mut s = String::new();
            if reified {
                s.push_str("reified ");
            }
            s.push_str(match variance {
                0 => "in ",
                1 => "out ",
                _ => "",
            });
            s.push_str(&name);
            let bounds: Vec<String> = ub
                .into_iter()
                .filter_map(|b| match b {
                    Err(b) => self.ty(b, tt, scope, 1, false),
                    Ok(id) => self.type_by_id(id, tt, scope, 1),
                })
                .filter(|b| b != "Any?")
                .collect();
            if let [one] = &bounds[..] {
                s.push_str(&format!(" : {one}"));
            }
            out.push(s);
        }
        Some(out)
    }

    /// A message's own type table (field 30), if it has one (else its owner's applies).
    fn own_table<'b>(&self, b: &'b [u8]) -> Option<Option<Types<'b>>> {
        let mut t = None;
        Pb::each(b, |n, v| {
            if n == 30 {
                t = Some(Types::read(bytes(v)?)?);
            }
            Some(())
        })?;
        Some(t)
    }

    fn value_params(&self, raw: &[&[u8]], tt: &Types, scope: &Scope) -> Option<Vec<(String, String)>> {
        raw.iter()
            .map(|p| {
                let (mut name, mut ty, mut vararg) = (String::new(), None, None);
                Pb::each(p, |n, v| {
                    match n {
                        2 => name = self.name(v)?,
                        3 => ty = self.ty(bytes(v)?, tt, scope, 1, false),
                        5 => ty = self.type_by_id(int(v)?, tt, scope, 1),
                        4 => vararg = self.ty(bytes(v)?, tt, scope, 1, false),
                        6 => vararg = self.type_by_id(int(v)?, tt, scope, 1),
                        _ => {}
                    }
                    Some(())
                })?;
                let ty = match vararg {
                    Some(e) => format!("vararg {e}"),
                    None => ty.unwrap_or_else(|| "?".to_owned()),
                };
                Some((name, ty))
            })
            .collect()
    }

    fn jvm_sig(&self, b: &[u8]) -> Option<JvmSig> {
        let mut s = JvmSig::default();
        Pb::each(b, |n, v| {
            match n {
                1 => s.name = Some(self.name(v)?),
                2 => s.desc = Some(self.name(v)?),
                _ => {}
            }
            Some(())
        })?;
        Some(s)
    }

    /// The members a class and a package share (fields `function`, `property`, `type_alias`).
    fn members(&self, b: &[u8], fields: [u64; 3], tt: &Types, scope: &Scope, v: &mut View) -> Option<()> {
        let mut raw: [Vec<&[u8]>; 3] = Default::default();
        Pb::each(b, |n, val| {
            let i = fields.iter().position(|f| *f == n);
            if let Some(i) = i
                && raw[i].len() < MAX_MEMBERS
            {
                raw[i].push(bytes(val)?);
            }
            Some(())
        })?;
        for f in &raw[0] {
            if let Some(x) = self.function(f, tt, scope) {
                v.functions.push(x);
            }
        }
        for p in &raw[1] {
            if let Some(x) = self.property(p, tt, scope) {
                v.properties.push(x);
            }
        }
        for a in &raw[2] {
            if let Some(x) = self.type_alias(a, tt, scope) {
                v.type_aliases.push(x);
            }
        }
        Some(())
    }

    fn function(&self, b: &[u8], outer: &Types, scope: &Scope) -> Option<Function> {
        let own = self.own_table(b)?;
        let tt = own.as_ref().unwrap_or(outer);
        let mut scope = scope.clone();
        let type_params = self.type_params(b, 4, tt, &mut scope)?;
        let (mut flags, mut name, mut ret, mut recv, mut params, mut jvm) =
            (6u64, String::new(), None, None, Vec::new(), JvmSig::default());
        Pb::each(b, |n, v| {
            match n {
                9 => flags = int(v)?,
                2 => name = self.name(v)?,
                3 => ret = self.ty(bytes(v)?, tt, &scope, 1, false),
                7 => ret = self.type_by_id(int(v)?, tt, &scope, 1),
                5 => recv = self.ty(bytes(v)?, tt, &scope, 1, false),
                8 => recv = self.type_by_id(int(v)?, tt, &scope, 1),
                6 if params.len() < MAX_MEMBERS => params.push(bytes(v)?),
                100 => jvm = self.jvm_sig(bytes(v)?)?,
                _ => {}
            }
            Some(())
        })?;
        let mut modifiers = vec![visibility(flags).to_owned()];
        modifiers.extend(modality(flags).map(str::to_owned));
        for (b, word) in
            [(8, "operator"), (9, "infix"), (10, "inline"), (11, "tailrec"), (12, "external"), (13, "suspend")]
        {
            if bit(flags, b) {
                modifiers.push(word.to_owned());
            }
        }
        Some(Function {
            name,
            modifiers,
            type_params,
            receiver: recv,
            params: self.value_params(&params, tt, &scope)?,
            return_type: ret.unwrap_or_else(|| "Unit".to_owned()),
            jvm,
        })
    }

    fn property(&self, b: &[u8], tt: &Types, scope: &Scope) -> Option<Property> {
        let mut scope = scope.clone();
        let _ = self.type_params(b, 4, tt, &mut scope)?;
        let (mut flags, mut name, mut ty, mut recv, mut sig) = (518u64, String::new(), None, None, None);
        Pb::each(b, |n, v| {
            match n {
                11 => flags = int(v)?,
                2 => name = self.name(v)?,
                3 => ty = self.ty(bytes(v)?, tt, &scope, 1, false),
                9 => ty = self.type_by_id(int(v)?, tt, &scope, 1),
                5 => recv = self.ty(bytes(v)?, tt, &scope, 1, false),
                10 => recv = self.type_by_id(int(v)?, tt, &scope, 1),
                100 => sig = Some(bytes(v)?),
                _ => {}
            }
            Some(())
        })?;
        let mut modifiers = vec![visibility(flags).to_owned()];
        modifiers.extend(modality(flags).map(str::to_owned));
        for (b, word) in [(11, "const"), (12, "lateinit")] {
            if bit(flags, b) {
                modifiers.push(word.to_owned());
            }
        }
        let (mut field, mut getter, mut setter) = (None, None, None);
        if let Some(s) = sig {
            Pb::each(s, |n, v| {
                match n {
                    1 => field = Some(self.jvm_sig(bytes(v)?)?),
                    3 => getter = Some(self.jvm_sig(bytes(v)?)?),
                    4 => setter = Some(self.jvm_sig(bytes(v)?)?),
                    _ => {}
                }
                Some(())
            })?;
        }
        Some(Property {
            name,
            modifiers,
            mutable: bit(flags, 8),
            type_text: ty.unwrap_or_else(|| "?".to_owned()),
            receiver: recv,
            getter: getter.filter(|_| bit(flags, 9)),
            setter: setter.filter(|_| bit(flags, 10)),
            field,
        })
    }

    fn type_alias(&self, b: &[u8], tt: &Types, scope: &Scope) -> Option<TypeAlias> {
        let mut scope = scope.clone();
        let type_params = self.type_params(b, 3, tt, &mut scope)?;
        let (mut flags, mut name, mut under) = (6u64, String::new(), None);
        Pb::each(b, |n, v| {
            match n {
                1 => flags = int(v)?,
                2 => name = self.name(v)?,
                4 => under = self.ty(bytes(v)?, tt, &scope, 1, false),
                5 => under = self.type_by_id(int(v)?, tt, &scope, 1),
                _ => {}
            }
            Some(())
        })?;
        Some(TypeAlias {
            name,
            modifiers: vec![visibility(flags).to_owned()],
            type_params,
            underlying: under.unwrap_or_else(|| "?".to_owned()),
        })
    }

    fn class(&self, b: &[u8], v: &mut View) -> Option<()> {
        let tt = self.own_table(b)?.unwrap_or_default();
        let mut scope = Scope::new();
        let type_params = self.type_params(b, 5, &tt, &mut scope)?;
        let (mut flags, mut fq, mut companion) = (6u64, String::new(), None);
        let (mut supers, mut ctors, mut entries) = (Vec::new(), Vec::new(), Vec::new());
        Pb::each(b, |n, val| {
            match n {
                1 => flags = int(val)?,
                3 => fq = self.names.get(int(val)?)?.to_owned(),
                4 => companion = Some(self.name(val)?),
                6 if supers.len() < MAX_MEMBERS => supers.push(Err(bytes(val)?)),
                2 => {
                    let mut ids = Vec::new();
                    ints(val, &mut ids)?;
                    supers.extend(ids.into_iter().take(MAX_MEMBERS).map(Ok));
                }
                8 if ctors.len() < MAX_MEMBERS => ctors.push(bytes(val)?),
                13 if entries.len() < MAX_MEMBERS => entries.push(bytes(val)?),
                _ => {}
            }
            Some(())
        })?;
        let kind = match (flags >> 6) & 7 {
            0 => ClassKind::Class,
            1 => ClassKind::Interface,
            2 => ClassKind::EnumClass,
            3 => ClassKind::EnumEntry,
            4 => ClassKind::AnnotationClass,
            5 => ClassKind::Object,
            6 => ClassKind::CompanionObject,
            _ => return None,
        };
        let mut modifiers = vec![visibility(flags).to_owned()];
        let default_modality = matches!(kind, ClassKind::Interface) && (flags >> 4) & 3 == 2;
        if !default_modality {
            modifiers.extend(modality(flags).map(str::to_owned));
        }
        for (b, word) in [(9, "inner"), (10, "data"), (11, "external"), (13, "value"), (14, "fun")] {
            if bit(flags, b) {
                modifiers.push(word.to_owned());
            }
        }
        match kind {
            ClassKind::Object => modifiers.push("object".to_owned()),
            ClassKind::CompanionObject => modifiers.extend(["companion".to_owned(), "object".to_owned()]),
            _ => {}
        }
        let supertypes = supers
            .into_iter()
            .filter_map(|s| match s {
                Err(b) => self.ty(b, &tt, &scope, 1, false),
                Ok(id) => self.type_by_id(id, &tt, &scope, 1),
            })
            .filter(|s| s != "Any")
            .collect();
        let enum_entries = entries
            .iter()
            .filter_map(|e| {
                let mut name = None;
                Pb::each(e, |n, v| {
                    if n == 1 {
                        name = Some(self.name(v)?);
                    }
                    Some(())
                })?;
                name
            })
            .collect();
        for c in &ctors {
            let (mut cflags, mut params, mut desc) = (6u64, Vec::new(), None);
            Pb::each(c, |n, val| {
                match n {
                    1 => cflags = int(val)?,
                    2 if params.len() < MAX_MEMBERS => params.push(bytes(val)?),
                    100 => desc = self.jvm_sig(bytes(val)?)?.desc,
                    _ => {}
                }
                Some(())
            })?;
            v.constructors.push(Constructor {
                modifiers: vec![visibility(cflags).to_owned()],
                secondary: bit(cflags, 4),
                params: self.value_params(&params, &tt, &scope)?,
                jvm_desc: desc,
            });
        }
        self.members(b, [9, 10, 11], &tt, &scope, v)?;
        v.class = Some(ClassInfo { fq_name: fq, kind, modifiers, companion, type_params, supertypes, enum_entries });
        Some(())
    }

    fn package(&self, b: &[u8], v: &mut View) -> Option<()> {
        let tt = self.own_table(b)?.unwrap_or_default();
        self.members(b, [3, 4, 5], &tt, &Scope::new(), v)
    }
}

/// The JVM getter name Kotlin gives a property by default (`JvmAbi.getterName`): `isX` kept,
/// else `get` and the name capitalised.
pub fn default_getter(name: &str) -> String {
    if name.starts_with("is") && !name[2..].starts_with(|c: char| c.is_lowercase()) && name.len() > 2 {
        name.to_owned()
    } else {
        format!("get{}", capitalize(name))
    }
}

fn capitalize(n: &str) -> String {
    let mut cs = n.chars();
    cs.next().map(|c| c.to_uppercase().collect::<String>() + cs.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_encoding_round_trips_both_modes() {
        // UTF-8 mode: a `\0` marker, then a char per byte.
        let d1 = vec!["\0\u{1}\u{ff}A".to_owned()];
        assert_eq!(decode_bytes(&d1), Some(vec![1, 0xff, b'A']));
        // 8-to-7 mode: 0x00 0xff 0x10 packed 7 bits a char, each plus one modulo 0x80.
        let packed = [0x00u8, 0x7e, 0x43, 0x00].map(|b| char::from((b + 1) & 0x7f));
        let d1 = vec![packed.iter().collect::<String>()];
        assert_eq!(decode_bytes(&d1), Some(vec![0x00, 0xff, 0x10]));
    }

    #[test]
    fn malformed_metadata_is_no_view_never_a_panic() {
        let mut m = KotlinMetadata { k: 1, d1: vec!["\0\u{ff}\u{ff}\u{ff}".to_owned()], ..Default::default() };
        assert_eq!(decode(&m), None);
        m.k = 9;
        assert_eq!(decode(&m), None);
        // Every prefix of a small valid message, and garbage: no panic.
        for k in [1, 2, 5] {
            for len in 0..64u32 {
                let s: String =
                    std::iter::once('\0').chain((0..len).map(|i| char::from((i * 37 % 256) as u8))).collect();
                let _ = decode(&KotlinMetadata { k, d1: vec![s], d2: vec!["a".into(); 8], ..Default::default() });
            }
        }
    }

    /// A protobuf field: key and a varint, or key and length-delimited bytes.
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }
    fn field_int(out: &mut Vec<u8>, n: u64, v: u64) {
        varint(out, n << 3);
        varint(out, v);
    }
    fn field_bytes(out: &mut Vec<u8>, n: u64, b: &[u8]) {
        varint(out, n << 3 | 2);
        varint(out, b.len() as u64);
        out.extend_from_slice(b);
    }

    /// A package whose function returns type 0 of its table, each of types 0 to 9 having eight
    /// arguments of the next: rendering stops at the step cap (8^10 types without it).
    #[test]
    fn types_referring_to_themselves_stop_at_the_cap() {
        // Types 0 to 9 each have eight arguments of the next type; type 10 is `Foo`.
        let mut table = Vec::new();
        for i in 0..10 {
            let mut arg = Vec::new();
            field_int(&mut arg, 3, i + 1);
            let mut ty = Vec::new();
            for _ in 0..8 {
                field_bytes(&mut ty, 2, &arg);
            }
            field_int(&mut ty, 6, 0);
            field_bytes(&mut table, 1, &ty);
        }
        let mut leaf = Vec::new();
        field_int(&mut leaf, 6, 0);
        field_bytes(&mut table, 1, &leaf);
        let mut fun = Vec::new();
        field_int(&mut fun, 2, 1);
        field_int(&mut fun, 7, 0);
        let mut package = Vec::new();
        field_bytes(&mut package, 3, &fun);
        field_bytes(&mut package, 30, &table);
        let mut d1 = vec![0u8];
        d1.extend(package);
        let m = KotlinMetadata {
            k: 2,
            d1: vec![std::iter::once('\0').chain(d1.iter().map(|&b| char::from(b))).collect()],
            d2: vec!["kotlin/Foo".into(), "f".into()],
            ..Default::default()
        };
        let started = std::time::Instant::now();
        let v = decode(&m).expect("a view");
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
        // The function is kept; its type is cut short where the cap stopped it.
        assert_eq!(v.functions.len(), 1);
        assert_eq!(v.functions[0].name, "f");
    }

    #[test]
    fn default_getters_are_kotlins() {
        assert_eq!(default_getter("length"), "getLength");
        assert_eq!(default_getter("isEmpty"), "isEmpty");
        assert_eq!(default_getter("issue"), "getIssue");
    }
}
