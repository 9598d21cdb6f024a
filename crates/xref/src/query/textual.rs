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

fn has_word(line: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
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
}
