//! The library index's members by name, for `java_find_symbol`'s `scope`: every public and
//! protected method, constructor and field of the index's public classes (no synthetic or
//! bridge members), as a table from each distinct name to its members. Each archive's part is
//! cached beside its class list (`libraries/<content sha1>.members`, signed with the user's
//! key) and read only when a member search asks for it; the merged table keeps the first
//! archive's class, as the index does.

use std::collections::HashMap;
use std::path::Path;

use crate::archive::Archive;
use crate::library::{LibraryIndex, content_hash, read_signed, write_signed};
use crate::reader::{self, acc};
use crate::signature;

/// The cache format; a file of another version is rebuilt.
const FORMAT: &str = "mji-library-members 2";

/// What a member is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemberKind {
    Method,
    Constructor,
    Field,
    EnumConstant,
}

impl MemberKind {
    fn code(self) -> char {
        match self {
            MemberKind::Method => 'm',
            MemberKind::Constructor => 'c',
            MemberKind::Field => 'f',
            MemberKind::EnumConstant => 'e',
        }
    }

    fn from_code(c: &str) -> Option<MemberKind> {
        Some(match c {
            "m" => MemberKind::Method,
            "c" => MemberKind::Constructor,
            "f" => MemberKind::Field,
            "e" => MemberKind::EnumConstant,
            _ => return None,
        })
    }
}

/// One member of a library class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryMember {
    /// Its class: an index into [`LibraryIndex::classes`].
    pub class: u32,
    pub kind: MemberKind,
    pub access: u16,
    pub descriptor: Box<str>,
    /// The generic signature, when the class file has one.
    pub generic: Option<Box<str>>,
}

impl LibraryMember {
    /// The generic signature, else the descriptor.
    pub fn signature(&self) -> &str {
        self.generic.as_deref().unwrap_or(&self.descriptor)
    }

    /// The erased parameter types, qualified, as the resolution engine's keys spell them
    /// (`java.lang.Object[],int`); `None` for a field.
    pub fn erased_params(&self) -> Option<String> {
        if matches!(self.kind, MemberKind::Field | MemberKind::EnumConstant) {
            return None;
        }
        signature::method(&self.descriptor).map(|s| s.params.join(","))
    }
}

/// Every member of the index by name: distinct names, each with its members.
#[derive(Debug, Default)]
pub struct MemberTable {
    pub names: Vec<Box<str>>,
    pub members: Vec<Vec<LibraryMember>>,
    /// Archives whose members could not be read, with why.
    pub skipped: Vec<(std::path::PathBuf, String)>,
}

impl MemberTable {
    /// How many members the table holds.
    pub fn len(&self) -> usize {
        self.members.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The table of `ix`'s archives, each archive's part from `cache_dir` when it is there.
    pub fn build(ix: &LibraryIndex, cache_dir: Option<&Path>) -> MemberTable {
        let mut by_name: HashMap<Box<str>, Vec<LibraryMember>> = HashMap::new();
        let mut skipped = Vec::new();
        for (a, archive) in ix.archives.iter().enumerate() {
            let part = match archive_members(&archive.path, cache_dir, ix.max_entries, archive.capped.is_some()) {
                Ok(p) => p,
                Err(e) => {
                    skipped.push((archive.path.clone(), e.to_string()));
                    continue;
                }
            };
            for (internal, members) in part {
                // The index's class of that name, when this archive is where it comes from.
                let Some(class) = ix.position(&internal).filter(|&i| ix.classes[i].archive as usize == a) else {
                    continue;
                };
                for (kind, access, name, descriptor, generic) in members {
                    by_name.entry(name).or_default().push(LibraryMember {
                        class: class as u32,
                        kind,
                        access,
                        descriptor,
                        generic,
                    });
                }
            }
        }
        let mut pairs: Vec<(Box<str>, Vec<LibraryMember>)> = by_name.into_iter().collect();
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let (names, members) = pairs.into_iter().unzip();
        MemberTable { names, members, skipped }
    }
}

/// One member as cached: kind, access, name, descriptor, generic signature.
type RawMember = (MemberKind, u16, Box<str>, Box<str>, Option<Box<str>>);

/// One archive's classes (internal names) with their members.
type ArchiveMembers = Vec<(String, Vec<RawMember>)>;

/// The members of the public classes among an archive's first `max_entries` entries, from
/// the cache when it holds them (`capped`: the archive has more entries, and its part is kept
/// under a name of its own for this cap).
fn archive_members(
    path: &Path,
    cache_dir: Option<&Path>,
    max_entries: usize,
    capped: bool,
) -> Result<ArchiveMembers, crate::ClassError> {
    let hash = match cache_dir {
        Some(dir) => Some((content_hash(path, Some(dir))?, dir)),
        None => None,
    };
    let name = |h: &str| if capped { format!("{h}.{max_entries}.members") } else { format!("{h}.members") };
    if let Some((h, dir)) = &hash
        && let Some(parsed) = read_signed(&dir.join(name(h))).and_then(|t| parse(&t))
    {
        return Ok(parsed);
    }
    let members = read_members(path, max_entries)?;
    if let Some((h, dir)) = &hash {
        write_signed(dir, &name(h), &render(&members));
    }
    Ok(members)
}

/// Reads every public class among an archive's first `max_entries` entries (the cold path:
/// each class parsed once).
fn read_members(path: &Path, max_entries: usize) -> Result<ArchiveMembers, crate::ClassError> {
    let mut a = Archive::open(path, max_entries)?;
    let prefix = a.class_prefix();
    let entries = crate::library::class_entries(&a);
    let mut out = Vec::new();
    for e in entries {
        // One unreadable class never fails the archive.
        let Ok(bytes) = a.read(&e) else { continue };
        let Ok(cf) = reader::parse(&bytes) else { continue };
        if cf.access & acc::PUBLIC == 0 || format!("{prefix}{}.class", cf.this_class) != e.name {
            continue;
        }
        let visible = |access: u16| access & (acc::PUBLIC | acc::PROTECTED) != 0 && access & acc::SYNTHETIC == 0;
        let mut members = Vec::new();
        for f in cf.fields.iter().filter(|f| visible(f.access)) {
            let kind = if f.access & acc::ENUM != 0 { MemberKind::EnumConstant } else { MemberKind::Field };
            members.push((
                kind,
                f.access,
                f.name.as_str().into(),
                f.descriptor.as_str().into(),
                f.signature.as_deref().map(Box::from),
            ));
        }
        for m in cf.methods.iter().filter(|m| visible(m.access) && m.access & acc::BRIDGE == 0) {
            let (kind, name) = match m.name.as_str() {
                "<clinit>" => continue,
                "<init>" => {
                    let simple = cf.this_class.rsplit(['/', '$']).next().unwrap_or(&cf.this_class);
                    (MemberKind::Constructor, simple)
                }
                n => (MemberKind::Method, n),
            };
            members.push((
                kind,
                m.access,
                name.into(),
                m.descriptor.as_str().into(),
                m.signature.as_deref().map(Box::from),
            ));
        }
        out.push((cf.this_class, members));
    }
    Ok(out)
}

/// The cache text: the format line, then per class `C <internal>` and one line per member,
/// `<kind> <access> <name> <descriptor>[ <generic signature>]` (none of them holds a space).
fn render(members: &ArchiveMembers) -> String {
    let mut out = format!("{FORMAT}\n");
    for (internal, ms) in members {
        out.push_str("C ");
        out.push_str(internal);
        out.push('\n');
        for (kind, access, name, descriptor, generic) in ms {
            out.push_str(&format!("{} {access} {name} {descriptor}", kind.code()));
            if let Some(g) = generic {
                out.push(' ');
                out.push_str(g);
            }
            out.push('\n');
        }
    }
    out
}

fn parse(text: &str) -> Option<ArchiveMembers> {
    let mut lines = text.lines();
    if lines.next()? != FORMAT {
        return None;
    }
    let mut out: ArchiveMembers = Vec::new();
    for line in lines {
        if let Some(internal) = line.strip_prefix("C ") {
            out.push((internal.to_owned(), Vec::new()));
            continue;
        }
        let mut it = line.splitn(5, ' ');
        let kind = MemberKind::from_code(it.next()?)?;
        let access = it.next()?.parse().ok()?;
        let (name, descriptor, generic) = (it.next()?, it.next()?, it.next());
        out.last_mut()?.1.push((kind, access, name.into(), descriptor.into(), generic.map(Box::from)));
    }
    Some(out)
}

/// A member as Java source text: modifiers, type parameters, types and name, the way
/// `javap` prints it (`public static <T> java.util.List<T> of(T...)`). Parameter names are
/// not in the table.
pub fn render_signature(name: &str, m: &LibraryMember) -> String {
    let mut out = String::new();
    for (flag, word) in [
        (acc::PUBLIC, "public"),
        (acc::PROTECTED, "protected"),
        (acc::STATIC, "static"),
        (acc::FINAL, "final"),
        (acc::ABSTRACT, "abstract"),
    ] {
        if m.access & flag != 0 {
            out.push_str(word);
            out.push(' ');
        }
    }
    match m.kind {
        MemberKind::Field | MemberKind::EnumConstant => {
            let ty = signature::field_type(m.signature()).unwrap_or_else(|| m.signature().to_owned());
            out.push_str(&format!("{ty} {name}"));
        }
        MemberKind::Method | MemberKind::Constructor => match signature::method(m.signature()) {
            Some(s) => {
                if let Some(tp) = &s.type_params {
                    out.push_str(tp);
                    out.push(' ');
                }
                if m.kind == MemberKind::Method {
                    out.push_str(&s.ret);
                    out.push(' ');
                }
                let mut params = s.params.clone();
                if m.access & acc::VARARGS != 0
                    && let Some(last) = params.last_mut()
                    && let Some(elem) = last.strip_suffix("[]")
                {
                    *last = format!("{elem}...");
                }
                out.push_str(&format!("{name}({})", params.join(", ")));
                if !s.throws.is_empty() {
                    out.push_str(&format!(" throws {}", s.throws.join(", ")));
                }
            }
            None => out.push_str(&format!("{name}{}", m.signature())),
        },
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(kind: MemberKind, access: u16, descriptor: &str, generic: Option<&str>) -> LibraryMember {
        LibraryMember { class: 0, kind, access, descriptor: descriptor.into(), generic: generic.map(Box::from) }
    }

    #[test]
    fn the_cache_text_reads_back_what_was_written() {
        let members: ArchiveMembers = vec![
            (
                "java/util/List".to_owned(),
                vec![
                    (
                        MemberKind::Method,
                        0x89,
                        "of".into(),
                        "([Ljava/lang/Object;)Ljava/util/List;".into(),
                        Some("<E:Ljava/lang/Object;>([TE;)Ljava/util/List<TE;>;".into()),
                    ),
                    (MemberKind::Method, 0x401, "size".into(), "()I".into(), None),
                ],
            ),
            ("java/util/Map$Entry".to_owned(), Vec::new()),
            (
                "java/lang/Thread$State".to_owned(),
                vec![(MemberKind::EnumConstant, 0x4019, "NEW".into(), "Ljava/lang/Thread$State;".into(), None)],
            ),
        ];
        assert_eq!(parse(&render(&members)), Some(members));
        assert_eq!(parse("mji-library-members 1\nC a/B\n"), None, "another format is rebuilt");
        assert_eq!(parse(&format!("{FORMAT}\nm 1 x ()V\n")), None, "a member before its class");
    }

    #[test]
    fn members_print_as_javap_prints_them() {
        let of = member(
            MemberKind::Method,
            acc::PUBLIC | acc::STATIC | acc::VARARGS,
            "([Ljava/lang/Object;)Ljava/util/List;",
            Some("<E:Ljava/lang/Object;>([TE;)Ljava/util/List<TE;>;"),
        );
        assert_eq!(render_signature("of", &of), "public static <E> java.util.List<E> of(E...)");
        assert_eq!(of.erased_params().as_deref(), Some("java.lang.Object[]"));
        let wait = member(MemberKind::Method, acc::PUBLIC | acc::FINAL, "(J)V", None);
        let wait = LibraryMember { generic: Some("(J)V^Ljava/lang/InterruptedException;".into()), ..wait };
        assert_eq!(
            render_signature("wait", &wait),
            "public final void wait(long) throws java.lang.InterruptedException"
        );
        let new = member(
            MemberKind::EnumConstant,
            acc::PUBLIC | acc::STATIC | acc::FINAL | acc::ENUM,
            "Ljava/lang/Thread$State;",
            None,
        );
        assert_eq!(render_signature("NEW", &new), "public static final java.lang.Thread.State NEW");
        assert_eq!(new.erased_params(), None);
        let ctor = member(MemberKind::Constructor, acc::PROTECTED, "(ILjava/lang/String;)V", None);
        assert_eq!(render_signature("Widget", &ctor), "protected Widget(int, java.lang.String)");
        assert_eq!(ctor.erased_params().as_deref(), Some("int,java.lang.String"));
    }
}
