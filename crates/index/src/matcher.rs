//! Name matching as an IDE does it: exact, then prefix, then camelCase (`gSV` finds
//! `getSomeValue`, `NPE` finds `NullPointerException`), then substring; and `*`/`?` wildcards.

/// How well a name matched; lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Exact = 0,
    Prefix = 1,
    CamelCase = 2,
    Substring = 3,
    Wildcard = 4,
}

/// A compiled name pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    raw: String,
    lower: String,
    case_sensitive: bool,
    humps: Vec<String>,
    wildcard: bool,
}

impl Pattern {
    pub fn new(raw: &str, case_sensitive: bool) -> Pattern {
        let raw = raw.trim().to_owned();
        Pattern {
            lower: raw.to_lowercase(),
            humps: humps(&raw).into_iter().map(|h| h.to_owned()).collect(),
            wildcard: raw.contains(['*', '?']),
            case_sensitive,
            raw,
        }
    }

    pub(crate) fn is_wildcard(&self) -> bool {
        self.wildcard
    }

    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The lowercase text every substring/prefix match contains (for prefiltering).
    pub fn lower(&self) -> &str {
        &self.lower
    }

    /// The lowercase initials of the pattern's humps (`gSV` -> `gsv`), for camelCase
    /// prefiltering; empty when the pattern has a single hump.
    pub fn initials(&self) -> String {
        if self.humps.len() < 2 {
            return String::new();
        }
        self.humps.iter().filter_map(|h| h.chars().next()).flat_map(char::to_lowercase).collect()
    }

    /// How `name` matches, if at all.
    /// How well `name` matches, if it does.
    pub fn tier(&self, name: &str) -> Option<Tier> {
        if self.raw.is_empty() {
            return Some(Tier::Prefix);
        }
        if self.wildcard {
            return wildcard_match(&self.raw, name, self.case_sensitive).then_some(Tier::Wildcard);
        }
        let eq = |a: &str, b: &str| {
            if self.case_sensitive { a == b } else { a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase() }
        };
        if eq(name, &self.raw) {
            return Some(Tier::Exact);
        }
        if name.len() > self.raw.len()
            && name.is_char_boundary(self.raw.len())
            && eq(&name[..self.raw.len()], &self.raw)
        {
            return Some(Tier::Prefix);
        }
        if self.humps.len() >= 2 && camel_match(&self.humps, name) {
            return Some(Tier::CamelCase);
        }
        let contains =
            if self.case_sensitive { name.contains(&self.raw) } else { name.to_lowercase().contains(&self.lower) };
        contains.then_some(Tier::Substring)
    }
}

/// Splits a pattern into humps: every capital starts one (`NPE` -> N, P, E; `gSV` -> g, S, V).
pub(crate) fn humps(s: &str) -> Vec<&str> {
    split_humps(s, false)
}

/// Name humps, where a run of capitals followed by lowercase keeps its last capital for the
/// next hump (`HTTPServer` -> HTTP, Server), as names are written.
fn name_humps(s: &str) -> Vec<&str> {
    split_humps(s, true)
}

/// Hump boundaries: a capital after a non-capital (or, for patterns, after anything), a digit
/// run, and `_`/`$` separators. With `capital_runs`, a capital inside a run of capitals starts
/// a hump only when a lowercase letter follows it.
fn split_humps(s: &str, capital_runs: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    for k in 1..chars.len() {
        let (i, c) = chars[k];
        let prev = chars[k - 1].1;
        let next = chars.get(k + 1).map(|x| x.1);
        let capital =
            c.is_uppercase() && (!prev.is_uppercase() || !capital_runs || next.is_some_and(|n| n.is_lowercase()));
        let boundary = capital || (c.is_ascii_digit() && !prev.is_ascii_digit()) || prev == '_' || prev == '$';
        if boundary && i > start {
            out.push(&s[start..i]);
            start = i;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out.into_iter().map(|h| h.trim_matches(['_', '$'])).filter(|h| !h.is_empty()).collect()
}

/// The lowercase initials of a name's humps (`getSomeValue` -> `gsv`).
#[cfg(test)]
pub(crate) fn name_initials(name: &str) -> String {
    name_humps(name).iter().filter_map(|h| h.chars().next()).flat_map(char::to_lowercase).collect()
}

/// Appends the lowercase initials of `name`'s humps to `out`: `name_initials`, without
/// allocating (the search table takes every symbol's on a process's first query: a fifth of
/// a one-shot `types` on the JDK went to the humps' vectors, issue 38). The same boundaries as
/// [`split_humps`] with capital runs, walked in place.
pub(crate) fn push_name_initials(name: &str, out: &mut String) {
    if name.is_ascii() {
        return push_ascii_initials(name.as_bytes(), out);
    }
    let mut push = |hump: &str| {
        if let Some(c) = hump.trim_matches(['_', '$']).chars().next() {
            out.extend(c.to_lowercase());
        }
    };
    let mut chars = name.char_indices().peekable();
    let Some((_, mut prev)) = chars.next() else { return };
    let mut start = 0;
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|x| x.1);
        let capital = c.is_uppercase() && (!prev.is_uppercase() || next.is_some_and(|n| n.is_lowercase()));
        let boundary = capital || (c.is_ascii_digit() && !prev.is_ascii_digit()) || prev == '_' || prev == '$';
        if boundary && i > start {
            push(&name[start..i]);
            start = i;
        }
        prev = c;
    }
    if start < name.len() {
        push(&name[start..]);
    }
}

/// [`push_name_initials`] of an ASCII name, byte by byte: the same boundaries, with the ASCII
/// case tests `char`'s give ASCII (on the JDK, a third faster to build the search table).
fn push_ascii_initials(name: &[u8], out: &mut String) {
    let mut push = |hump: &[u8]| {
        if let Some(c) = hump.iter().find(|c| !matches!(c, b'_' | b'$')) {
            out.push(char::from(c.to_ascii_lowercase()));
        }
    };
    let Some(&first) = name.first() else { return };
    let mut prev = first;
    let mut start = 0;
    for i in 1..name.len() {
        let c = name[i];
        let next = name.get(i + 1);
        let capital =
            c.is_ascii_uppercase() && (!prev.is_ascii_uppercase() || next.is_some_and(|n| n.is_ascii_lowercase()));
        let boundary = capital || (c.is_ascii_digit() && !prev.is_ascii_digit()) || prev == b'_' || prev == b'$';
        if boundary {
            push(&name[start..i]);
            start = i;
        }
        prev = c;
    }
    push(&name[start..]);
}

/// camelCase: each pattern hump is a case-insensitive prefix of consecutive name humps,
/// starting at the name's first hump. A pattern hump may also span several name humps when
/// it is longer (`HMap` matches `HashMap`; `NPExc` matches `NullPointerException`).
fn camel_match(pattern: &[String], name: &str) -> bool {
    let nh = name_humps(name);
    if pattern.len() > nh.len() {
        return false;
    }
    pattern.iter().zip(nh.iter()).all(|(p, n)| {
        let (p, n) = (p.to_lowercase(), n.to_lowercase());
        n.starts_with(&p)
    })
}

/// `*` any run, `?` one character; the whole name must match.
pub fn wildcard_match(pattern: &str, name: &str, case_sensitive: bool) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = if case_sensitive {
        (pattern.chars().collect(), name.chars().collect())
    } else {
        (pattern.to_lowercase().chars().collect(), name.to_lowercase().chars().collect())
    };
    let (mut pi, mut ni) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(pattern: &str, name: &str, want: Option<Tier>) {
        assert_eq!(Pattern::new(pattern, false).tier(name), want, "{pattern} vs {name}");
    }

    #[test]
    fn tiers() {
        check("doThing", "doThing", Some(Tier::Exact));
        check("dothing", "doThing", Some(Tier::Exact));
        check("doTh", "doThing", Some(Tier::Prefix));
        check("gSV", "getSomeValue", Some(Tier::CamelCase));
        check("NPE", "NullPointerException", Some(Tier::CamelCase));
        check("HMap", "HashMap", Some(Tier::CamelCase));
        check("NPExc", "NullPointerException", Some(Tier::CamelCase));
        check("HM", "HTTPMessage", Some(Tier::CamelCase));
        check("Thing", "doThing", Some(Tier::Substring));
        check("xyz", "doThing", None);
        check("NPE", "NoSuchElementException", None);
        check("*Map", "HashMap", Some(Tier::Wildcard));
        check("H?shMap", "HashMap", Some(Tier::Wildcard));
        check("*Map", "MapEntry", None);
        assert_eq!(Pattern::new("dothing", true).tier("doThing"), None);
    }

    #[test]
    fn initials() {
        assert_eq!(name_initials("getSomeValue"), "gsv");
        // The in-place walk gives what splitting gives, on every shape of name.
        for name in [
            "",
            "a",
            "A",
            "_",
            "$",
            "__",
            "getSomeValue",
            "HTTPServer",
            "NullPointerException",
            "URLs",
            "ABC",
            "aB",
            "Ab",
            "x1y22Z",
            "a_b",
            "_a_",
            "$Proxy0",
            "get$Impl",
            "__init__",
            "ÉtatCivil",
            "straßeStraße",
            "İstanbulCity",
            "ǅemal",
            "UTF8Decoder",
            "X509Certificate",
            "a$$b",
            "A_B_C",
            "v1_2",
            "Σίσυφος",
        ] {
            let mut out = String::from("prefix\n");
            push_name_initials(name, &mut out);
            assert_eq!(out, format!("prefix\n{}", name_initials(name)), "{name:?}");
        }
        assert_eq!(name_initials("HTTPServer"), "hs");
        assert_eq!(name_initials("NullPointerException"), "npe");
        assert_eq!(Pattern::new("gSV", false).initials(), "gsv");
        assert_eq!(Pattern::new("get", false).initials(), "");
    }
}
