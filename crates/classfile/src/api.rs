//! Library classes as declarations for the resolution engine: the classes of a set of archives
//! (jars, jmods, the JDK's `lib/modules`)
//! written in the text format of `mji_xref`'s JDK API table (`jdk_api.txt`; one `T`, `F`, `M`,
//! `C` line per type, field, method, constructor, types fully qualified, wildcards reduced to
//! their bound), so that calls on a library method's result are typed by its signature.
//!
//! Every top-level class (public or not: a public class may inherit public members from a
//! package-private one) with its member classes, read from their own class files; members
//! that code outside the library can use (public and protected), no synthetic or bridge
//! members. The first archive holding a class wins, as on a classpath.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::archive::Archive;
use crate::jimage::JImage;
use crate::reader::{ClassFile, Member, acc};
use crate::signature::{table_class, table_field_type, table_method};

/// Member classes nested deeper than this are left out.
const MAX_NESTING: usize = 16;

/// What [`table`] read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TableStats {
    pub archives: usize,
    pub classes: usize,
    /// Archives that could not be opened, with why.
    pub skipped: Vec<(PathBuf, String)>,
}

/// The API table of the classes in `archives` (jars, jmods, or a JDK's `lib/modules`), in
/// classpath order, each archive read up to [`crate::archive::DEFAULT_MAX_ENTRIES`] entries.
pub fn table(archives: &[PathBuf]) -> (String, TableStats) {
    table_where(archives, &|_| true, crate::archive::DEFAULT_MAX_ENTRIES)
}

/// The table format's version in the cache; a file of another is rebuilt.
const CACHE_FORMAT: &str = "mji-api-table 2"; // 2: `? super X` kept as `java.lang.Object<X>`

/// [`table`], each archive's part kept in `cache_dir` as `<content sha1>.api` (signed with
/// the user's key, found through the archive's stamp like the class lists), so a warm start
/// reads no class file. The first archive holding a top-level class still wins.
pub fn table_cached(archives: &[PathBuf], cache_dir: Option<&std::path::Path>) -> (String, TableStats) {
    table_cached_where(archives, cache_dir, None, crate::archive::DEFAULT_MAX_ENTRIES)
}

/// Which top-level classes (by internal name) a table holds.
pub type Keep<'a> = &'a dyn Fn(&str) -> bool;

/// [`table_cached`] of the top-level classes `filter`'s function accepts ([`table_where`]),
/// each archive read up to `max_entries` entries; the filter's name tells the cached parts
/// apart (`<content sha1>-<name>.e<max_entries>.api`), so it must change whenever what the
/// function accepts does. The JDK image's table is kept so: an image is as immutable as a jar.
pub fn table_cached_where(
    archives: &[PathBuf],
    cache_dir: Option<&std::path::Path>,
    filter: Option<(&str, Keep<'_>)>,
    max_entries: usize,
) -> (String, TableStats) {
    let keep_all: Keep<'_> = &|_| true;
    let (suffix, keep) = match filter {
        Some((name, f)) => (format!("-{name}"), f),
        None => (String::new(), keep_all),
    };
    let Some(dir) = cache_dir else { return table_where(archives, keep, max_entries) };
    let mut out = String::new();
    let mut stats = TableStats::default();
    let mut seen: HashSet<String> = HashSet::new();
    for path in archives {
        let hash = match crate::library::content_hash(path, Some(dir)) {
            Ok(h) => h,
            Err(e) => {
                stats.skipped.push((path.clone(), e.to_string()));
                continue;
            }
        };
        let name = format!("{hash}{suffix}.e{max_entries}.api");
        let file = dir.join(&name);
        let text = match crate::library::read_signed(&file)
            .and_then(|t| t.strip_prefix(CACHE_FORMAT)?.strip_prefix('\n').map(str::to_owned))
        {
            Some(t) => t,
            None => {
                let (t, s) = table_where(std::slice::from_ref(path), keep, max_entries);
                if !s.skipped.is_empty() {
                    stats.skipped.extend(s.skipped);
                    continue;
                }
                crate::library::write_signed(dir, &name, &format!("{CACHE_FORMAT}\n{t}"));
                t
            }
        };
        stats.archives += 1;
        // Whole groups (a top-level type and its members), unless an earlier archive had it.
        let mut keep_group = false;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("T - ") {
                let fqn = rest.split(' ').nth(2).unwrap_or_default();
                keep_group = seen.insert(fqn.to_owned());
            }
            if keep_group {
                if line.starts_with("T ") {
                    stats.classes += 1;
                }
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    (out, stats)
}

/// [`table`] of the top-level classes whose internal name `keep` accepts, among the first
/// `max_entries` entries of each archive.
pub fn table_where(archives: &[PathBuf], keep: &dyn Fn(&str) -> bool, max_entries: usize) -> (String, TableStats) {
    let mut out = String::new();
    let mut stats = TableStats::default();
    let mut seen: HashSet<String> = HashSet::new();
    for path in archives {
        let opened: Result<Box<dyn Classes>, crate::ClassError> = if path.file_name().is_some_and(|n| n == "modules") {
            JImage::open(path).map(|i| Box::new(i) as Box<dyn Classes>)
        } else {
            Archive::open(path, max_entries).map(|a| Box::new(a) as Box<dyn Classes>)
        };
        let mut a = match opened {
            Ok(a) => a,
            Err(e) => {
                stats.skipped.push((path.clone(), e.to_string()));
                continue;
            }
        };
        stats.archives += 1;
        let mut names = a.names();
        names.sort();
        for internal in names {
            if seen.contains(&internal) || !keep(&internal) {
                continue;
            }
            let Some(cf) = load(a.as_mut(), &internal) else { continue };
            // Member, local and anonymous classes are written inside their top-level class.
            if cf.inner_classes.iter().any(|ic| ic.inner == cf.this_class) {
                continue;
            }
            let mut group = Group { lines: String::new(), count: 0 };
            write_type(a.as_mut(), &cf, None, 0, &mut group, &mut seen);
            stats.classes += group.count;
            out.push_str(&group.lines);
        }
    }
    (out, stats)
}

/// Where class files are read from.
trait Classes {
    /// The internal names of the classes (no module-info, package-info or versioned entries).
    fn names(&self) -> Vec<String>;
    fn bytes(&mut self, internal: &str) -> Option<Vec<u8>>;
}

fn plain_class(name: &str) -> bool {
    name.ends_with(".class")
        && !name.starts_with("META-INF/")
        && !name.ends_with("module-info.class")
        && !name.ends_with("package-info.class")
}

impl Classes for Archive {
    fn names(&self) -> Vec<String> {
        let prefix = self.class_prefix();
        self.entries
            .iter()
            .filter_map(|e| e.name.strip_prefix(prefix))
            .filter(|n| plain_class(n))
            .filter_map(|n| Some(n.strip_suffix(".class")?.to_owned()))
            .collect()
    }
    fn bytes(&mut self, internal: &str) -> Option<Vec<u8>> {
        let prefix = self.class_prefix();
        self.read_named(&format!("{prefix}{internal}.class")).ok()?
    }
}

impl Classes for JImage {
    fn names(&self) -> Vec<String> {
        self.resources
            .iter()
            .filter(|r| plain_class(&r.name))
            .filter_map(|r| Some(r.name.strip_suffix(".class")?.to_owned()))
            .collect()
    }
    fn bytes(&mut self, internal: &str) -> Option<Vec<u8>> {
        let r = self.find(&format!("{internal}.class"))?;
        self.read(r).ok()?
    }
}

struct Group {
    lines: String,
    count: usize,
}

fn load(a: &mut dyn Classes, internal: &str) -> Option<ClassFile> {
    let bytes = a.bytes(internal)?;
    crate::reader::parse(&bytes).ok().filter(|cf| cf.this_class == internal)
}

/// Writes `cf` (index `outer` in its group when it is a member class) and its member classes.
fn write_type(
    a: &mut dyn Classes,
    cf: &ClassFile,
    outer: Option<(usize, u16)>,
    depth: usize,
    g: &mut Group,
    seen: &mut HashSet<String>,
) {
    if depth > MAX_NESTING || !seen.insert(cf.this_class.clone()) {
        return;
    }
    let me = g.count;
    g.count += 1;
    let access = outer.map_or(cf.access, |(_, a)| a);
    let kind = if cf.access & acc::ANNOTATION != 0 {
        'a'
    } else if cf.access & acc::INTERFACE != 0 {
        'i'
    } else if cf.access & acc::ENUM != 0 {
        'e'
    } else if cf.super_class.as_deref() == Some("java/lang/Record") {
        'r'
    } else {
        'c'
    };
    let mut flags = String::new();
    // Top-level types are static, as the source reader marks them.
    if outer.is_none() || access & acc::STATIC != 0 || matches!(kind, 'i' | 'a' | 'e' | 'r') {
        flags.push('s');
    }
    if access & acc::FINAL != 0 {
        flags.push('f');
    }
    let sig = cf.signature.as_deref().and_then(table_class);
    let (tparams, mut supers) = match sig {
        Some(s) => {
            let mut v = vec![s.superclass];
            v.extend(s.interfaces);
            (s.type_params, v)
        }
        None => {
            let mut v: Vec<String> = cf.super_class.iter().map(|s| crate::signature::internal_to_source(s)).collect();
            v.extend(cf.interfaces.iter().map(|s| crate::signature::internal_to_source(s)));
            (None, v)
        }
    };
    if matches!(kind, 'i' | 'a') {
        // An interface's class-file superclass is Object, which it does not extend.
        supers.retain(|s| s != "java.lang.Object");
    }
    let fqn = crate::signature::internal_to_source(&cf.this_class);
    let outer_text = outer.map_or("-".to_owned(), |(o, _)| o.to_string());
    g.lines.push_str(&format!(
        "T {outer_text} {kind} {} {fqn} {} {}\n",
        or_dash(&flags),
        tparams.as_deref().filter(|t| !t.is_empty()).unwrap_or("-"),
        list(&supers)
    ));
    let visible = |m: &Member| m.access & (acc::PUBLIC | acc::PROTECTED) != 0 && m.access & acc::SYNTHETIC == 0;
    for f in cf.fields.iter().filter(|f| visible(f)) {
        let Some(ty) = f.signature.as_deref().and_then(table_field_type).or_else(|| table_field_type(&f.descriptor))
        else {
            continue;
        };
        let fl = if f.access & acc::STATIC != 0 { "s" } else { "-" };
        g.lines.push_str(&format!("F {fl} {} {ty}\n", f.name));
    }
    let inner_instance = outer.is_some() && access & acc::STATIC == 0 && kind == 'c';
    for m in cf.methods.iter().filter(|m| visible(m) && m.access & acc::BRIDGE == 0) {
        if m.name == "<clinit>" {
            continue;
        }
        let from_sig = m.signature.as_deref().and_then(table_method);
        let generic = from_sig.is_some();
        let Some(mut s) = from_sig.or_else(|| table_method(&m.descriptor)) else { continue };
        let mut fl = String::new();
        if m.access & acc::STATIC != 0 {
            fl.push('s');
        }
        if m.access & acc::VARARGS != 0 {
            fl.push('v');
        }
        let tps = s.type_params.as_deref().filter(|t| !t.is_empty()).unwrap_or("-").to_owned();
        if m.name == "<init>" {
            // An inner class's constructor descriptor starts with the enclosing instance.
            if inner_instance && !generic && !s.params.is_empty() {
                s.params.remove(0);
            }
            g.lines.push_str(&format!("C {} {tps} {}\n", or_dash(&fl), list(&s.params)));
        } else {
            g.lines.push_str(&format!("M {} {} {tps} {} {}\n", or_dash(&fl), m.name, s.ret, list(&s.params)));
        }
    }
    // Member classes, in the order the class lists them.
    let members: Vec<(String, u16)> = cf
        .inner_classes
        .iter()
        .filter(|ic| ic.outer.as_deref() == Some(&cf.this_class) && ic.inner != cf.this_class)
        .filter(|ic| ic.access & (acc::PRIVATE | acc::SYNTHETIC) == 0)
        .map(|ic| (ic.inner.clone(), ic.access))
        .collect();
    for (inner, access) in members {
        if let Some(icf) = load(a, &inner) {
            write_type(a, &icf, Some((me, access)), depth + 1, g, seen);
        }
    }
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() { "-" } else { s }
}

fn list(items: &[String]) -> String {
    if items.is_empty() { "-".to_owned() } else { items.join(",") }
}
