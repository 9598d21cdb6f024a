//! Which workspace files are never served: secrets that live inside a root (`.git/` internals,
//! `.env` files, private keys and keystores, credential files). Every layer that reads, lists or
//! searches a workspace file asks one [`ReadPolicy`]: the built-in patterns, the user's
//! `read_allow` globs (which only the user may set) and `read_deny` globs (which a repository may
//! add: they only narrow).
//!
//! A pattern is a glob matched, case-insensitively, against the path relative to its root with
//! `/` separators, as in `.gitignore`: without a leading `/` it matches at any depth
//! (`id_rsa*`, `.docker/config.json`), with one only from the root (`/deploy/*.pem`); a trailing
//! `/` matches a directory and everything under it (`.ssh/`); `*` stays within one component and
//! `**` crosses them. A pattern without a trailing `/` also covers everything under a directory
//! of that name.

use std::fmt;
use std::path::{Component, Path};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// What a built-in pattern protects, in words for the refusal.
const GIT: &str = "Git's internal files (the remote URLs in .git/config may carry credentials)";
const ENV: &str = "an environment file, which usually holds secrets";
const KEY: &str = "a private key or keystore";
const CREDENTIALS: &str = "a credentials file";

/// The built-in patterns and what each protects.
pub const DEFAULT_DENY: &[(&str, &str)] = &[
    (".git", GIT),
    (".env", ENV),
    (".env.*", ENV),
    ("id_rsa*", KEY),
    ("id_dsa*", KEY),
    ("id_ecdsa*", KEY),
    ("id_ed25519*", KEY),
    ("*.pem", KEY),
    ("*.key", KEY),
    ("*.p12", KEY),
    ("*.pfx", KEY),
    ("*.jks", KEY),
    ("*.keystore", KEY),
    (".netrc", CREDENTIALS),
    ("_netrc", CREDENTIALS),
    (".npmrc", CREDENTIALS),
    (".pypirc", CREDENTIALS),
    (".git-credentials", CREDENTIALS),
    (".docker/config.json", CREDENTIALS),
    (".aws/", CREDENTIALS),
    (".ssh/", CREDENTIALS),
    (".gnupg/", CREDENTIALS),
    // Issue 50: credential files of build tools, databases, web servers and clusters.
    (".m2/", CREDENTIALS),
    ("settings-security.xml", CREDENTIALS),
    (".gradle/gradle.properties", CREDENTIALS),
    ("credentials.json", CREDENTIALS),
    (".pgpass", CREDENTIALS),
    (".htpasswd", CREDENTIALS),
    ("kubeconfig", CREDENTIALS),
    (".kube/", CREDENTIALS),
    ("*secrets*.yml", CREDENTIALS),
    ("*secrets*.yaml", CREDENTIALS),
    ("*.env", ENV),
];

/// What a masked value reads as.
pub const MASK: &str = "********";

/// Whether a key or element name names a secret (`signing.password`, `apiToken`,
/// `<passphrase>`).
fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "api-key", "credential", "privatekey"]
        .iter()
        .any(|w| n.contains(w))
}

/// Which files are served with their secret values masked rather than refused: their values
/// are secrets only in part (a build's `gradle.properties`, Maven's `settings.xml`), and the rest
/// is what an agent needs (versions, repositories, mirrors).
pub fn masks(rel: &Path) -> bool {
    let name = rel.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    name == "gradle.properties" || name == "settings.xml"
}

/// `bytes` with every secret value replaced by [`MASK`], line for line (the lines stay where
/// they were): in a properties file, the value of a key that names a secret; in an XML file, the
/// text of an element that does. Unchanged when [`masks`] is false for `rel`.
pub fn mask<'a>(rel: &Path, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
    if !masks(rel) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let text = String::from_utf8_lossy(bytes);
    let xml = rel.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml"));
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if xml { mask_xml_line(line, &mut out) } else { mask_property_line(line, &mut out) }
    }
    std::borrow::Cow::Owned(out.into_bytes())
}

/// A `key = value` (or `key: value`, `key value`) line with the value masked when the key
/// names a secret.
fn mask_property_line(line: &str, out: &mut String) {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') || trimmed.starts_with('!') {
        out.push_str(line);
        return;
    }
    let Some(sep) = trimmed.find(['=', ':']).or_else(|| trimmed.find(char::is_whitespace)) else {
        out.push_str(line);
        return;
    };
    if !secret_name(&trimmed[..sep]) || trimmed[sep + 1..].trim().is_empty() {
        out.push_str(line);
        return;
    }
    let head = line.len() - trimmed.len() + sep + 1;
    let end = line.trim_end_matches(['\n', '\r']).len();
    out.push_str(&line[..head]);
    out.push_str(MASK);
    out.push_str(&line[end..]);
}

/// A line of XML with the text of every element named for a secret masked
/// (`<password>x</password>`; text over several lines is not this line's to mask).
fn mask_xml_line(line: &str, out: &mut String) {
    let mut rest = line;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        let tag = &after[..close];
        let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or_default();
        let body = &after[close + 1..];
        let end_tag = format!("</{name}");
        if !name.is_empty()
            && !tag.starts_with(['/', '?', '!'])
            && !tag.ends_with('/')
            && secret_name(name)
            && let Some(end) = body.find(&end_tag)
        {
            out.push_str(&rest[..open + 1 + close + 1]);
            out.push_str(if body[..end].trim().is_empty() { &body[..end] } else { MASK });
            rest = &body[end..];
            continue;
        }
        out.push_str(&rest[..open + 1 + close + 1]);
        rest = body;
    }
    out.push_str(rest);
}

/// Why a file is not served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The pattern that matched, as written.
    pub pattern: String,
    /// What it protects; `None` for a `read_deny` pattern.
    pub what: Option<&'static str>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.what {
            Some(what) => write!(
                f,
                "is not served: it matches `{}`, {what}; the server never reads, lists or searches such files. \
                 If the agent should read it, the user can add a glob matching it to `read_allow` in the user \
                 config (~/.config/mcp-java-index/config.toml, or --read-allow); a repository's own file cannot",
                self.pattern
            ),
            None => write!(
                f,
                "is not served: it matches the `read_deny` pattern `{}`; remove the pattern to read it",
                self.pattern
            ),
        }
    }
}

/// A set of patterns and, for each glob built from them, the pattern it came from.
#[derive(Debug, Clone)]
struct Patterns {
    /// The globs, compiled into `set` when a path first needs them: most commands' paths hold
    /// none of the literals below, and compiling the built-in globs' regular expressions was
    /// about half a millisecond of every command's start (issue 38).
    globs: Vec<globset::Glob>,
    set: std::sync::OnceLock<GlobSet>,
    /// For each glob in `set`, the index of its pattern.
    origin: Vec<usize>,
    written: Vec<String>,
    /// One literal text of each glob, which every path it matches contains (ASCII, without
    /// regard to case); None when some glob has none ([`required_literal`]).
    literals: Option<aho_corasick::AhoCorasick>,
}

impl Patterns {
    fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> (Patterns, Vec<String>) {
        let mut compiled = Vec::new();
        let (mut origin, mut written, mut problems) = (Vec::new(), Vec::new(), Vec::new());
        let mut globs: Vec<String> = Vec::new();
        for p in patterns {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            match globs_of(p) {
                Ok(gs) => {
                    for g in gs {
                        globs.push(g.glob().to_owned());
                        compiled.push(g);
                        origin.push(written.len());
                    }
                    written.push(p.to_owned());
                }
                Err(e) => problems.push(format!("`{p}` is not a glob ({e})")),
            }
        }
        let literals = globs.iter().map(|g| required_literal(g)).collect::<Option<Vec<&str>>>().and_then(|l| {
            // A contiguous NFA: the automaton `build` picks for a few patterns, a DFA, took
            // half a millisecond of every command's start to make, to match paths of a
            // few dozen bytes (issue 38).
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                .build(l)
                .ok()
        });
        (Patterns { globs: compiled, set: std::sync::OnceLock::new(), origin, written, literals }, problems)
    }

    /// Whether a path (relative to its root, as it is spelt) may match: false only when it is
    /// ASCII and holds none of the globs' literals, so that no glob can match its text.
    fn may_match(&self, raw: &[u8]) -> bool {
        match &self.literals {
            _ if self.globs.is_empty() => false,
            Some(literals) if raw.is_ascii() => literals.is_match(raw),
            _ => true,
        }
    }

    /// The first pattern (as written) matching `rel`.
    fn first_match(&self, rel: &str) -> Option<usize> {
        if self.globs.is_empty() {
            return None;
        }
        let set = self.set.get_or_init(|| {
            let mut builder = GlobSetBuilder::new();
            for g in &self.globs {
                builder.add(g.clone());
            }
            builder.build().unwrap_or_else(|_| GlobSet::empty())
        });
        if !set.is_match(rel) {
            return None;
        }
        set.matches(rel).into_iter().map(|i| self.origin[i]).min()
    }
}

/// The globs a pattern stands for (see the module's documentation).
fn globs_of(pattern: &str) -> Result<Vec<globset::Glob>, globset::Error> {
    let (anchored, rest) = match pattern.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, pattern),
    };
    let (dir_only, base) = match rest.strip_suffix('/') {
        Some(b) => (true, b.trim_end_matches('/')),
        None => (false, rest),
    };
    let base = if anchored { base.to_owned() } else { format!("**/{base}") };
    let mut texts = vec![format!("{base}/**")];
    if !dir_only {
        texts.push(base);
    }
    texts
        .iter()
        .map(|t| GlobBuilder::new(t).literal_separator(true).case_insensitive(true).backslash_escape(true).build())
        .collect()
}

/// The longest run of literal characters in a glob (split at `*`, `?` and `/`): the text of
/// every path the glob matches holds it, without regard to case, and within one component.
/// None for a glob with none, with a class, alternatives or an escape, or not ASCII (whose
/// case folds beyond ASCII's).
fn required_literal(glob: &str) -> Option<&str> {
    if !glob.is_ascii() || glob.contains(['[', ']', '{', '}', '\\']) {
        return None;
    }
    glob.split(['*', '?', '/']).max_by_key(|run| run.len()).filter(|run| !run.is_empty())
}

/// Which workspace files may be read, listed and searched.
#[derive(Debug, Clone)]
pub struct ReadPolicy {
    builtin: &'static Patterns,
    allow: Patterns,
    deny: Patterns,
}

impl Default for ReadPolicy {
    /// The built-in patterns alone.
    fn default() -> ReadPolicy {
        ReadPolicy::new(&[], &[]).0
    }
}

impl ReadPolicy {
    /// The built-in patterns, less what `allow` (the user's `read_allow`) matches, plus `deny`
    /// (`read_deny`), which wins over both. Returns the patterns that are not globs, each said
    /// once: an invalid `read_deny` pattern still refuses a path that is exactly it.
    pub fn new(allow: &[String], deny: &[String]) -> (ReadPolicy, Vec<String>) {
        // Built once per process: every workspace (and every `Roots`) has the same, and
        // compiling them was a share of each command's start (issue 38).
        static BUILTIN: std::sync::OnceLock<Patterns> = std::sync::OnceLock::new();
        let builtin = BUILTIN.get_or_init(|| Patterns::new(DEFAULT_DENY.iter().map(|(p, _)| *p)).0);
        let (allow, mut problems) = Patterns::new(allow.iter().map(String::as_str));
        let (mut deny_set, deny_problems) = Patterns::new(deny.iter().map(String::as_str));
        if !deny_problems.is_empty() {
            // Refuse the bad patterns literally rather than not at all.
            let literal: Vec<String> = deny
                .iter()
                .map(|p| p.trim())
                .map(|p| if globs_of(p).is_ok() { p.to_owned() } else { globset::escape(p) })
                .collect();
            deny_set = Patterns::new(literal.iter().map(String::as_str)).0;
            problems.extend(deny_problems.into_iter().map(|p| format!("read_deny: {p}; matched literally")));
        }
        (ReadPolicy { builtin, allow, deny: deny_set }, problems)
    }

    /// Why the file at `rel` (relative to its root) is not served, or `None` when it may be.
    pub fn refusal(&self, rel: &Path) -> Option<Refusal> {
        // Most paths hold no pattern's literal: answered without the globs' regular
        // expressions or the path's text (on the JDK's java.base, a tenth of the walk).
        let raw = rel.as_os_str().as_encoded_bytes();
        if !self.deny.may_match(raw) && !self.builtin.may_match(raw) {
            return None;
        }
        self.refusal_by_globs(rel)
    }

    /// [`ReadPolicy::refusal`] by the globs alone.
    fn refusal_by_globs(&self, rel: &Path) -> Option<Refusal> {
        let rel = relative_text(rel)?;
        if let Some(i) = self.deny.first_match(&rel) {
            return Some(Refusal { pattern: self.deny.written[i].clone(), what: None });
        }
        let i = self.builtin.first_match(&rel)?;
        if self.allow.first_match(&rel).is_some() {
            return None;
        }
        Some(Refusal { pattern: DEFAULT_DENY[i].0.to_owned(), what: Some(DEFAULT_DENY[i].1) })
    }

    /// Whether the file at `rel` (relative to its root) may be read, listed and searched.
    pub fn allows(&self, rel: &Path) -> bool {
        self.refusal(rel).is_none()
    }
}

/// `rel` with `/` separators, its normal components only; `None` for the root itself.
fn relative_text(rel: &Path) -> Option<String> {
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(policy: &ReadPolicy, rel: &str) -> bool {
        policy.refusal(Path::new(rel)).is_some()
    }

    #[test]
    fn the_built_in_patterns_refuse_secrets_at_any_depth_and_nothing_else() {
        let p = ReadPolicy::default();
        for secret in [
            ".git/config",
            "sub/.git/HEAD",
            ".git",
            ".env",
            "app/.env.production",
            "deploy/id_rsa",
            "id_rsa.pub",
            "id_ed25519",
            "certs/server.PEM",
            "tls.key",
            "a.p12",
            "b.pfx",
            "src/main/resources/store.jks",
            "release.keystore",
            ".netrc",
            ".npmrc",
            "py/.pypirc",
            ".git-credentials",
            ".docker/config.json",
            "home/.docker/config.json",
            ".aws/credentials",
            ".ssh/known_hosts",
            "x/.gnupg/pubring.kbx",
            ".m2/settings.xml",
            "ci/.m2/settings-security.xml",
            "settings-security.xml",
            "home/.gradle/gradle.properties",
            "config/credentials.json",
            ".pgpass",
            "web/.htpasswd",
            "kubeconfig",
            "ops/.kube/config",
            "config/secrets.yml",
            "k8s/app-secrets.yaml",
            "deploy/prod.env",
        ] {
            assert!(refused(&p, secret), "{secret} should be refused");
        }
        for fine in [
            "Hello.java",
            ".gitignore",
            ".gitattributes",
            "src/main/java/env/Env.java",
            "environment.properties",
            ".envrc.example.java.txt",
            "keys/README.md",
            "docker/config.json",
            "monkey.java",
            "aws/Main.java",
            "settings.xml",
            "gradle.properties",
            "src/main/java/Secrets.java",
            "environment.java",
            "",
        ] {
            assert!(!refused(&p, fine), "{fine} should be served");
        }
    }

    #[test]
    fn build_files_are_served_with_their_secret_values_masked_line_for_line() {
        let props = "version=1.2\nsigning.password = hunter2\r\nsonatypeToken: abc\n# password=not-a-value\nempty.secret=\norg.gradle.jvmargs=-Xmx2g\n";
        let got = String::from_utf8(mask(Path::new("gradle.properties"), props.as_bytes()).into_owned()).expect("utf8");
        assert_eq!(
            got,
            "version=1.2\nsigning.password =********\r\nsonatypeToken:********\n# password=not-a-value\nempty.secret=\norg.gradle.jvmargs=-Xmx2g\n"
        );
        let xml = "<servers>\n  <server><id>r</id><username>u</username><password>p@ss</password></server>\n  <passphrase/>\n  <privateKey>${user.home}/.ssh/id</privateKey>\n</servers>\n";
        let got = String::from_utf8(mask(Path::new("ci/settings.xml"), xml.as_bytes()).into_owned()).expect("utf8");
        assert_eq!(
            got,
            "<servers>\n  <server><id>r</id><username>u</username><password>********</password></server>\n  <passphrase/>\n  <privateKey>********</privateKey>\n</servers>\n"
        );
        assert_eq!(got.lines().count(), xml.lines().count());
        assert!(matches!(mask(Path::new("pom.xml"), xml.as_bytes()), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn allow_widens_deny_narrows_and_deny_wins() {
        let (p, problems) = ReadPolicy::new(
            &["deploy/id_rsa".to_owned(), "/test-certs/*.pem".to_owned()],
            &["*.secret".to_owned(), "private/".to_owned(), "deploy/id_rsa".to_owned()],
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert!(refused(&p, "deploy/id_rsa"), "read_deny wins over read_allow");
        assert!(!refused(&p, "test-certs/a.pem"));
        assert!(refused(&p, "sub/test-certs/a.pem"), "a leading / anchors at the root");
        assert!(refused(&p, "x/db.secret") && refused(&p, "private/notes.txt"));
        let r = p.refusal(Path::new("private/a")).expect("refused");
        assert!(r.to_string().contains("read_deny") && r.what.is_none(), "{r}");
        let r = p.refusal(Path::new(".env")).expect("refused");
        let msg = r.to_string();
        assert!(msg.contains("`.env`") && msg.contains("read_allow") && msg.contains("user config"), "{msg}");
        let (p, _) = ReadPolicy::new(&["other/id_rsa".to_owned()], &[]);
        assert!(refused(&p, "deploy/id_rsa") && !refused(&p, "other/id_rsa"));
    }

    /// The literal pre-check never changes an answer: over built-in, allowed and denied
    /// patterns (some without a literal, with classes or alternatives), paths that hold a
    /// literal in any case, at any depth, spelt with `.` and doubled separators, and not ASCII.
    /// The globs are compiled when a path first holds one of their literals, not before: a
    /// policy that has only answered ordinary paths has compiled nothing (issue 38).
    #[test]
    fn the_globs_are_compiled_when_a_path_first_needs_them() {
        let (p, _) = ReadPolicy::new(&[], &["build/out/".to_owned()]);
        assert_eq!(p.refusal(Path::new("src/main/java/a/Foo.java")), None);
        assert!(p.deny.set.get().is_none(), "no path needed the deny globs yet");
        assert!(p.refusal(Path::new("build/out/Foo.java")).is_some());
        assert!(p.deny.set.get().is_some());
    }

    #[test]
    fn the_literal_pre_check_answers_as_the_globs_do() {
        let policies = [
            ReadPolicy::default(),
            ReadPolicy::new(&["deploy/id_rsa".to_owned()], &["*.secret".to_owned(), "private/".to_owned()]).0,
            ReadPolicy::new(&[], &["*".to_owned()]).0,
            ReadPolicy::new(&[], &["[ab]/x.tok".to_owned(), "{c,d}.key2".to_owned(), "a?c/**/z".to_owned()]).0,
        ];
        let names = [
            "Hello.java",
            ".git",
            ".GIT",
            "ID_RSA.pub",
            "id_rsa",
            "KeyStore.java",
            "x.KEYSTORE",
            "a.pem",
            "a.PEM.java",
            ".env.local",
            ".envrc",
            "config.json",
            ".docker",
            ".Docker",
            "_netrc",
            "x.secret",
            "x.Secret",
            "private",
            "a",
            "b",
            "abc",
            "c.key2",
            "D.KEY2",
            "x.tok",
            "z",
            "\u{017f}sh",
            ".\u{017f}\u{017f}h",
            "\u{212a}ey.pem",
            "caf\u{e9}.key",
            "id_\u{212a}sa",
        ];
        let mut paths: Vec<String> = Vec::new();
        for a in names {
            paths.push(a.to_owned());
            for b in names {
                for sep in ["/", "/./", "//"] {
                    paths.push(format!("{a}{sep}{b}"));
                    paths.push(format!("src/{a}{sep}{b}"));
                }
            }
        }
        let mut refused = 0;
        for (k, p) in policies.iter().enumerate() {
            for path in &paths {
                let want = p.refusal_by_globs(Path::new(path));
                refused += usize::from(want.is_some());
                assert_eq!(p.refusal(Path::new(path)), want, "policy {k}, {path}");
            }
        }
        assert!(refused > 1000 && refused < policies.len() * paths.len(), "{refused}");
        assert!(ReadPolicy::default().builtin.literals.is_some(), "the built-in patterns have a pre-check");
    }

    #[test]
    fn a_pattern_that_is_no_glob_is_said_and_a_bad_deny_still_refuses_its_literal_path() {
        let (p, problems) = ReadPolicy::new(&["a{b".to_owned()], &["[x".to_owned(), "*.tok".to_owned()]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(refused(&p, "[x") && refused(&p, "d/t.tok") && !refused(&p, "x"));
    }
}
