//! Textual uses outside Java: a member used only from a view or configuration file (Jelly,
//! JSP, Thymeleaf, FreeMarker, Velocity, Spring XML, properties, Groovy, Kotlin) binds to no
//! Java reference, so `find_references` would answer 0 without a word. These are the words
//! such files spell a target with, and the lines of a file that hold one of them as a whole
//! word. Nothing is bound: a match is a name that occurs, said as such.

use crate::Category;
use crate::query::target::Target;

/// The file extensions searched (lowercase, without the dot).
pub const EXTENSIONS: &[&str] =
    &["jelly", "jsp", "jspx", "xhtml", "html", "ftl", "vm", "xml", "properties", "groovy", "kt"];

/// Whether a file name has one of [`EXTENSIONS`].
pub fn is_searched(file_name: &str) -> bool {
    file_name.rsplit_once('.').is_some_and(|(_, ext)| EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// The words a view or configuration file spells the target with: a type's qualified name
/// (`class="com.acme.Foo"`); a member's name, and for a getter, setter or `is` method its
/// bean property too (`getFooBar`, `isFooBar`, `setFooBar` → `fooBar`, as `${it.fooBar}`
/// reads it); a constructor's type's qualified name.
pub fn words_of(target: &Target) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for key in &target.keys {
        let (owner, member) = match key.split_once('#') {
            Some((o, m)) => (o, Some(m.split('(').next().unwrap_or(m))),
            None => (key.as_str(), None),
        };
        let mut add = |w: String| {
            if !w.is_empty() && !out.contains(&w) {
                out.push(w);
            }
        };
        match (target.category, member) {
            (Category::Method, Some(m)) => {
                add(m.to_owned());
                if let Some(p) = bean_property(m) {
                    add(p);
                }
            }
            (Category::Field, Some(m)) => add(m.to_owned()),
            _ => add(owner.to_owned()),
        }
    }
    out
}

/// `getFooBar`/`isFooBar`/`setFooBar` → `fooBar` (`getURL` → `URL`, as the JavaBeans
/// decapitalization keeps a leading run of capitals).
pub fn bean_property(method: &str) -> Option<String> {
    let rest = ["get", "is", "set"].iter().find_map(|p| method.strip_prefix(p))?;
    let mut chars = rest.chars();
    let first = chars.next().filter(|c| c.is_uppercase())?;
    let second_upper = rest.chars().nth(1).is_some_and(char::is_uppercase);
    Some(if second_upper { rest.to_owned() } else { first.to_lowercase().chain(chars).collect() })
}

/// One line of a file that holds a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMatch {
    /// 1-based.
    pub line: u32,
    /// The line, trimmed.
    pub text: String,
}

/// The lines of `text` holding one of `words` as a whole word (identifier characters, and a
/// dot for qualified names, do not continue it on either side).
pub fn matching_lines(text: &str, words: &[String]) -> Vec<LineMatch> {
    let mut out = Vec::new();
    if words.iter().all(|w| !text.contains(w.as_str())) {
        return out;
    }
    for (i, line) in text.lines().enumerate() {
        if words.iter().any(|w| has_word(line, w)) {
            out.push(LineMatch { line: i as u32 + 1, text: line.trim().to_owned() });
        }
    }
    out
}

/// Whether a character continues a word: a match of a word is whole when neither the
/// character before it nor the one after it is one ([`has_word`], [`WordRuns`]).
fn part(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

fn has_word(line: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        let before = line[..s].chars().next_back().is_none_or(|c| !part(c));
        let after = line[e..].chars().next().is_none_or(|c| !part(c));
        if before && after {
            return true;
        }
        from = e;
    }
    false
}

/// A text's word filter: the hashes of its runs of word characters ([`part`], the characters
/// [`has_word`] does not end a word at), sorted and distinct. A whole-word match of a word
/// starts and ends at a run's edges, and every piece of the word between its other
/// characters (the segments of a qualified name) is then itself a whole run of the text: so
/// a word one of whose pieces is no run of the text is nowhere in it ([`WordRuns::may_hold`]
/// false), and [`matching_lines`] finds no line for it. A hash shared by two runs only makes
/// a file read that need not have been.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WordRuns(Box<[u32]>);

impl WordRuns {
    /// The filter of `text` (the text [`matching_lines`] would search: a file's bytes decoded
    /// the same way, lossily).
    pub fn of(text: &str) -> WordRuns {
        let mut out: Vec<u32> = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in text.char_indices() {
            match (part(c), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    out.push(run_hash(&text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push(run_hash(&text[s..]));
        }
        out.sort_unstable();
        out.dedup();
        WordRuns(out.into())
    }

    /// False only when `word` is in no line of the text as a whole word (as
    /// [`matching_lines`] sees it): one of its pieces (its runs of word characters) is no run
    /// of the text. A word with no word character at all may be anywhere.
    pub fn may_hold(&self, word: &str) -> bool {
        word.split(|c: char| !part(c)).filter(|p| !p.is_empty()).all(|p| self.0.binary_search(&run_hash(p)).is_ok())
    }

    /// How many hashes the filter keeps (4 bytes each).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the text has no run of word characters.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// FNV-1a of a run's UTF-8 bytes.
fn run_hash(run: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in run.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(category: Category, keys: &[&str]) -> Target {
        Target {
            label: keys.join(", "),
            category,
            keys: keys.iter().map(|k| (*k).to_owned()).collect(),
            names: Vec::new(),
            decls: Vec::new(),
            overriders: Default::default(),
            undeclared: false,
        }
    }

    #[test]
    fn words_are_the_name_and_its_bean_property() {
        let t = target(Category::Method, &["a.Job#isEnabled()", "a.Job#getURL()", "a.Job#run()"]);
        assert_eq!(words_of(&t), ["isEnabled", "enabled", "getURL", "URL", "run"]);
        assert_eq!(words_of(&target(Category::Type, &["a.b.Job"])), ["a.b.Job"]);
        assert_eq!(words_of(&target(Category::Field, &["a.Job#count"])), ["count"]);
        assert_eq!(bean_property("settle"), None);
        assert_eq!(bean_property("get"), None);
    }

    #[test]
    fn a_match_is_a_whole_word_on_its_line() {
        let text = "<j:if test=\"${it.enabled}\">\n  ${it.enabledAll}\n<bean class=\"a.b.Job\"/>\n";
        let words = vec!["enabled".to_owned(), "a.b.Job".to_owned()];
        let m = matching_lines(text, &words);
        assert_eq!(m.iter().map(|m| m.line).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(m[0].text, "<j:if test=\"${it.enabled}\">");
        assert!(matching_lines("nothing here", &words).is_empty());
        assert!(!has_word("a.b.Jobs", "a.b.Job"));
    }

    /// The filter keeps every word a text holds as a whole word: a word followed or preceded by
    /// a character that is not a word character but not ASCII either (a no-break space, an
    /// em dash, U+FFFD), a qualified name, `$` and `_` names, CRLF lines, a word at the very
    /// end. A filter of the identifier runs of the bytes (a byte at or over 0x80 continuing
    /// a run, as the Java files' filter reads them) would lose `Foo` in `Foo\u{a0}bar`.
    #[test]
    fn the_word_filter_keeps_every_word_a_text_holds() {
        let texts = [
            "<a>Foo\u{a0}bar</a>",
            "x\u{2014}Foo\u{2014}y",
            "\u{fffd}Foo\u{fffd}",
            "<bean class=\"a.b.Job\"/>\r\n${it.enabled}\r\n",
            "a.b.Job.Inner x$y _z",
            "é Fooé Foo",
            "Foo",
            "",
            "a..b",
        ];
        let words = [
            "Foo",
            "bar",
            "a.b.Job",
            "Job",
            "enabled",
            "x$y",
            "_z",
            "a.b.Job.Inner",
            "Fooé",
            "y",
            "b",
            "é",
            "a..b",
            ".",
            "Zzz",
        ];
        for text in texts {
            let runs = WordRuns::of(text);
            for w in words {
                let held = !matching_lines(text, &[w.to_owned()]).is_empty();
                assert!(!held || runs.may_hold(w), "{w:?} is in {text:?} but the filter lost it");
            }
        }
        // And it does filter: a word that is only part of a run, or absent, is ruled out.
        let runs = WordRuns::of("<a>FooBar a.b.Jobs</a>");
        assert!(!runs.may_hold("Foo") && !runs.may_hold("a.b.Job") && !runs.may_hold("Zzz"));
        assert!(runs.may_hold("FooBar") && runs.may_hold("a.b.Jobs") && runs.may_hold("b.Jobs"));
        // The byte-level runs would not hold `Foo` here; these do.
        assert!(WordRuns::of("Foo\u{a0}bar").may_hold("Foo"));
    }
}
