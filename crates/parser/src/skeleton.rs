//! The skeleton of a Java file: its declarations with the inside of every member body (method
//! and constructor bodies, initializers, field initializer blocks, enum constant bodies) and
//! of every comment removed, line terminators kept. Parsing it gives the same declarations with the same lines in a
//! fraction of the time, because tree-sitter no longer parses statements. Used by the workspace
//! index, which needs declarations but not body errors.
//!
//! A brace opens a type body when the tokens since the previous `;`, `{` or `}` at its level
//! include `class`, `interface`, `enum` or `record`; any other brace met directly in a type
//! body opens a member body and is blanked to its matching brace. Strings, characters, text
//! blocks and comments are lexed, so braces inside them do not count. Misjudging a member
//! body as a type body only costs time; the reverse cannot happen, since every type header
//! has its keyword.

/// The skeleton of `text` (whose unicode escapes must already be translated, see
/// [`super::Prepared`]), or None when the text is unbalanced and should be parsed whole. It has the same lines (every line
/// terminator is kept) but not the same columns: member bodies shrink to `{`, their line
/// terminators and `}`; comments to their terminators (javadoc keeps `/**` and `*/`).
pub fn skeleton(text: &str) -> Option<String> {
    skeleton_of(text, false).map(|(s, _)| s)
}

/// [`skeleton`] with fewer bytes and tokens for the parser, for the workspace index: the same
/// tokens, lines and line terminators but for
/// - an import of the plain form (`import [static] a.b.C[.*];`, no comment in it) at the top
///   level, right after the file's start or a `;` (white space between), which becomes white
///   space: a whole top-level item, never one a javadoc or an annotation before it belongs to;
/// - a field initializer (after a field's `=`, to its `;` or `,`) that is one simple
///   expression: literals, names, parentheses, unary and binary operators
///   ([`simple_expression`]); it becomes `0`. Calls, `new`, lambdas, casts, conditionals and
///   array initializers stay;
/// - white space after white space (outside literals), dropped: tree-sitter lexes every byte,
///   and a run of blanks costs it as much as a token's bytes.
///
/// An outline reads neither imports (but for Lombok's names) nor a field's value, and they
/// were a fifth of the JDK's skeleton tokens; the dropped blanks another quarter of its bytes.
/// A file that mentions `lombok` is not compacted (its generator reads imports and fields).
/// [`DeclarationSkeleton::plain_offset`] maps an offset back to [`skeleton`]'s, through the
/// sorted table of the cuts (a binary search).
///
/// Both blanked forms are valid Java before and after, so where the plain skeleton has a
/// syntax error the result has one too; the caller parses the plain skeleton when the result
/// has one (its error recovery may differ with fewer tokens before the error).
pub fn declaration_skeleton(text: &str) -> Option<DeclarationSkeleton> {
    skeleton_of(text, true).map(|(text, cuts)| DeclarationSkeleton {
        text,
        compacted: cuts.compacted,
        cuts: cuts.table,
    })
}

/// A compacted skeleton ([`declaration_skeleton`]).
#[derive(Debug, Clone)]
pub struct DeclarationSkeleton {
    pub text: String,
    /// Whether anything was blanked or dropped (else `text` is [`skeleton`]'s).
    pub compacted: bool,
    /// (offset in `text` where bytes were dropped before it, bytes dropped so far), sorted.
    cuts: Vec<(usize, usize)>,
}

impl DeclarationSkeleton {
    /// A plain skeleton as one that compacted nothing.
    pub fn plain(text: String) -> DeclarationSkeleton {
        DeclarationSkeleton { text, compacted: false, cuts: Vec::new() }
    }

    /// The offset in [`skeleton`]'s text of the byte at `t` in this one.
    pub fn plain_offset(&self, t: usize) -> usize {
        plain_offset(&self.cuts, t)
    }

    /// The cut table, for [`plain_offset`].
    pub fn cuts(&self) -> &[(usize, usize)] {
        &self.cuts
    }
}

/// The offset in the plain skeleton of the byte at `t` in a compacted one whose cut table is
/// `cuts` (see [`DeclarationSkeleton`]).
pub fn plain_offset(cuts: &[(usize, usize)], t: usize) -> usize {
    match cuts.partition_point(|c| c.0 <= t) {
        0 => t,
        i => t + cuts[i - 1].1,
    }
}

/// The blanks a compacted skeleton drops, and whether it blanked anything.
struct Cuts {
    on: bool,
    compacted: bool,
    dropped: usize,
    table: Vec<(usize, usize)>,
}

impl Cuts {
    /// Pushes white space `c` (no line terminator), or drops it after white space when
    /// compacting.
    fn space(&mut self, out: &mut Vec<u8>, c: u8) {
        if self.on && out.last().is_some_and(|l| l.is_ascii_whitespace()) {
            self.dropped += 1;
            self.compacted = true;
            match self.table.last_mut() {
                Some(last) if last.0 == out.len() => last.1 = self.dropped,
                _ => self.table.push((out.len(), self.dropped)),
            }
        } else {
            out.push(c);
        }
    }

    /// Replaces `part` by white space (line terminators kept), its first other byte by
    /// `first` when given.
    fn blank(&mut self, out: &mut Vec<u8>, part: &[u8], mut first: Option<u8>) {
        self.compacted = true;
        for &c in part {
            match c {
                b'\r' | b'\n' => out.push(c),
                _ => match first.take() {
                    Some(f) => out.push(f),
                    None => self.space(out, b' '),
                },
            }
        }
    }
}

fn skeleton_of(text: &str, compact: bool) -> Option<(String, Cuts)> {
    let b = text.as_bytes();
    // Lombok's generator reads a file's imports and fields: a file that names it keeps both.
    let compact = compact && memchr::memmem::find(b, b"lombok").is_none();
    let mut cuts = Cuts { on: compact, compacted: false, dropped: 0, table: Vec::new() };
    let mut out: Vec<u8> = Vec::with_capacity(b.len() / 3);
    // A lone CR ends a line as LF does; kept as LF so that it cannot join an LF kept after
    // it (from beyond the blanked text) into one CRLF line break.
    let keep_newlines = |out: &mut Vec<u8>, part: &[u8]| {
        // memchr: a byte loop over every blanked body was 1.5% of a cold index of the JDK.
        for k in memchr::memchr2_iter(b'\n', b'\r', part) {
            match part[k] {
                b'\r' if part.get(k + 1) == Some(&b'\n') => out.push(b'\r'),
                _ => out.push(b'\n'),
            }
        }
    };
    // Open braces: true for a type body.
    let mut stack: Vec<bool> = Vec::new();
    let mut header_has_type_keyword = false;
    let mut paren_depth = 0usize;
    // The last word was `default`: a brace now is an annotation element's array value
    // (`String[] tags() default { "a" }`), part of the declaration, kept as written.
    let mut after_default = false;
    // Where an annotation's name stands (`@a.B`): a parenthesis after it opens its arguments.
    let mut at_name = AtName::None;
    // The paren depths at which annotation arguments opened, and the braces open inside them:
    // there a brace is an element's array value (`@Tags({"a"})`), kept as written, and never a
    // member body or a type body.
    let mut annotation_parens: Vec<usize> = Vec::new();
    let mut annotation_braces = 0usize;
    let mut i = 0;
    while i < b.len() {
        let was_default = std::mem::take(&mut after_default);
        let was_at_name = std::mem::replace(&mut at_name, AtName::None);
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = skip_line_comment(b, i);
                cuts.space(&mut out, b' ');
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = skip_block_comment(b, i)?;
                let comment = &b[i..end];
                if comment == b"/**/" {
                    out.extend_from_slice(comment);
                } else if comment.starts_with(b"/**") {
                    out.extend_from_slice(b"/**");
                    keep_newlines(&mut out, &comment[3..comment.len() - 2]);
                    out.extend_from_slice(b" */");
                } else {
                    cuts.space(&mut out, b' ');
                    keep_newlines(&mut out, comment);
                }
                i = end;
            }
            b'"' => {
                let end = skip_string(b, i)?;
                out.extend_from_slice(&b[i..end]);
                i = end;
            }
            b'\'' => {
                let end = skip_char(b, i)?;
                out.extend_from_slice(&b[i..end]);
                i = end;
            }
            b'@' => {
                at_name = AtName::Dot;
                out.push(b'@');
                i += 1;
            }
            b'.' if matches!(was_at_name, AtName::Word | AtName::Space) => {
                at_name = AtName::Dot;
                out.push(b'.');
                i += 1;
            }
            c if was_at_name != AtName::None && c.is_ascii_whitespace() => {
                at_name = if was_at_name == AtName::Word { AtName::Space } else { was_at_name };
                match c {
                    b'\n' | b'\r' => out.push(c),
                    _ => cuts.space(&mut out, c),
                }
                i += 1;
            }
            b'(' => {
                paren_depth += 1;
                if matches!(was_at_name, AtName::Word | AtName::Space) {
                    annotation_parens.push(paren_depth);
                }
                out.push(b'(');
                i += 1;
            }
            b')' => {
                if annotation_parens.last() == Some(&paren_depth) {
                    annotation_parens.pop();
                }
                paren_depth = paren_depth.saturating_sub(1);
                out.push(b')');
                i += 1;
            }
            b'{' if !annotation_parens.is_empty() => {
                annotation_braces += 1;
                out.push(b'{');
                i += 1;
            }
            b'}' if annotation_braces > 0 => {
                annotation_braces -= 1;
                out.push(b'}');
                i += 1;
            }
            b'{' => {
                let member_level = stack.last() == Some(&true);
                if header_has_type_keyword && paren_depth == 0 {
                    stack.push(true);
                    out.push(b'{');
                    i += 1;
                } else if member_level && was_default {
                    let end = matching_brace(b, i)?;
                    out.extend_from_slice(&b[i..=end]);
                    i = end + 1;
                } else if member_level {
                    let end = matching_brace(b, i)?;
                    out.push(b'{');
                    keep_newlines(&mut out, &b[i + 1..end]);
                    out.push(b'}');
                    i = end + 1;
                } else {
                    stack.push(false);
                    out.push(b'{');
                    i += 1;
                }
                header_has_type_keyword = false;
                paren_depth = 0;
            }
            b'}' => {
                stack.pop();
                header_has_type_keyword = false;
                paren_depth = 0;
                out.push(b'}');
                i += 1;
            }
            b'=' if compact
                && stack.last() == Some(&true)
                && paren_depth == 0
                && annotation_parens.is_empty()
                && b.get(i + 1) != Some(&b'=')
                && !matches!(out.last(), Some(b'=' | b'!' | b'<' | b'>')) =>
            {
                out.push(b'=');
                i += 1;
                if let Some(end) = initializer_end(b, i).filter(|&end| simple_expression(&b[i..end])) {
                    cuts.blank(&mut out, &b[i..end], Some(b'0'));
                    i = end;
                }
            }
            b'i' if compact
                && stack.is_empty()
                && b[i..].starts_with(b"import")
                && paren_depth == 0
                && out.iter().rev().find(|c| !c.is_ascii_whitespace()).is_none_or(|&c| c == b';')
                && plain_import_end(b, i).is_some() =>
            {
                let end = plain_import_end(b, i).unwrap_or(i + 1);
                cuts.blank(&mut out, &b[i..end], None);
                i = end;
            }
            b';' => {
                if paren_depth == 0 {
                    header_has_type_keyword = false;
                }
                out.push(b';');
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
                    i += 1;
                }
                let word = &b[start..i];
                if was_at_name == AtName::Dot {
                    at_name = AtName::Word;
                }
                if matches!(word, b"class" | b"interface" | b"enum" | b"record") && paren_depth == 0 {
                    // `Foo.class` is a literal, not a declaration: it only makes the next
                    // brace count as a type body, which is safe.
                    header_has_type_keyword = true;
                }
                after_default = word == b"default";
                out.extend_from_slice(word);
            }
            c => {
                after_default = was_default && c.is_ascii_whitespace();
                match c {
                    b' ' | b'\t' | 0x0C => cuts.space(&mut out, c),
                    _ => out.push(c),
                }
                i += 1;
            }
        }
    }
    // White space dropped at the very end would drop the last line when it is only blanks.
    if cuts.table.last().is_some_and(|c| c.0 == out.len()) {
        out.push(b' ');
    }
    // Same lines, or no skeleton: a CR kept from the text between blanked parts could still
    // meet a kept LF.
    if line_breaks(&out) != line_breaks(b) {
        return None;
    }
    String::from_utf8(out).ok().map(|s| (s, cuts))
}

/// How far the skeleton's lexer is through an annotation's name (`@ a . B (`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum AtName {
    None,
    /// After `@` or a `.` of its name: a word comes next.
    Dot,
    /// After a word of the name.
    Word,
    /// After a word and white space: only `.` or `(` continue it.
    Space,
}

/// Line breaks as Java counts them: CR, LF and CRLF each end a line.
fn line_breaks(b: &[u8]) -> usize {
    let crlf = memchr::memmem::find_iter(b, b"\r\n").count();
    memchr::memchr2_iter(b'\n', b'\r', b).count() - crlf
}

pub(crate) fn skip_line_comment(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() && b[j] != b'\n' && b[j] != b'\r' {
        j += 1;
    }
    j
}

pub(crate) fn skip_block_comment(b: &[u8], i: usize) -> Option<usize> {
    let rest = b.get(i + 2..)?;
    memchr::memmem::find(rest, b"*/").map(|k| i + 2 + k + 2)
}

/// Skips a string literal or a text block starting at `i`; returns the index after it.
pub(crate) fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i..i + 3) == Some(b"\"\"\"") {
        let mut j = i + 3;
        while j < b.len() {
            match b[j] {
                b'\\' => j += 2,
                b'"' if b.get(j..j + 3) == Some(b"\"\"\"") => return Some(j + 3),
                _ => j += 1,
            }
        }
        return None;
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            b'\n' | b'\r' => return None,
            _ => j += 1,
        }
    }
    None
}

pub(crate) fn skip_char(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\'' => return Some(j + 1),
            b'\n' | b'\r' => return None,
            _ => j += 1,
        }
    }
    None
}

/// Where a field initializer starting at `from` (just after its `=`) ends: the `;` or `,`
/// outside every bracket, skipping literals and comments; None when a closer comes first or
/// the text ends.
fn initializer_end(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(b, i)?,
            b'"' => i = skip_string(b, i)?,
            b'\'' => i = skip_char(b, i)?,
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                i += 1;
            }
            b';' | b',' if depth == 0 => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Whether `e` is one expression that tree-sitter-java parses without an error: operands
/// (a string or character literal on one line with Java's escapes, a decimal or hexadecimal
/// number, a name or a qualified name that is no keyword but `true`, `false`, `null` or a
/// leading `this`, a parenthesized expression) with unary operators before them, joined by
/// binary operators. No comment, no text block, no call, no `new`, no cast, no conditional.
fn simple_expression(e: &[u8]) -> bool {
    let ws = |i: &mut usize| {
        while *i < e.len() && e[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let mut i = 0;
    let mut depth = 0usize;
    loop {
        // An operand, after its unary operators and opening parentheses.
        loop {
            ws(&mut i);
            match e.get(i) {
                Some(b'-' | b'+' | b'~' | b'!') => i += 1,
                Some(b'(') => {
                    depth += 1;
                    i += 1;
                }
                _ => break,
            }
        }
        let Some(&c) = e.get(i) else { return false };
        i = match c {
            b'"' if e.get(i..i + 3) != Some(b"\"\"\"") => match string_literal_end(e, i, b'"') {
                Some(end) => end,
                None => return false,
            },
            b'\'' => match string_literal_end(e, i, b'\'').filter(|&end| char_literal(&e[i + 1..end - 1])) {
                Some(end) => end,
                None => return false,
            },
            b'0'..=b'9' => {
                let start = i;
                while i < e.len()
                    && (word(e[i]) || e[i] == b'.' || (matches!(e[i], b'+' | b'-') && matches!(e[i - 1], b'e' | b'E')))
                {
                    i += 1;
                }
                if !number_literal(&e[start..i]) {
                    return false;
                }
                i
            }
            c if word(c) => {
                let mut first = true;
                loop {
                    let start = i;
                    while i < e.len() && word(e[i]) {
                        i += 1;
                    }
                    let name = &e[start..i];
                    let allowed = match std::str::from_utf8(name) {
                        Ok("true" | "false" | "null") => first,
                        Ok("this") => first,
                        Ok(n) => !n.is_empty() && !e[start].is_ascii_digit() && !crate::KEYWORDS.contains(&n),
                        Err(_) => false,
                    };
                    if !allowed {
                        return false;
                    }
                    let mut j = i;
                    ws(&mut j);
                    if e.get(j) != Some(&b'.') || matches!(name, b"true" | b"false" | b"null") {
                        break;
                    }
                    j += 1;
                    ws(&mut j);
                    if !e.get(j).is_some_and(|&c| word(c)) {
                        return false;
                    }
                    i = j;
                    first = false;
                }
                i
            }
            _ => return false,
        };
        // Closing parentheses, then a binary operator or the end.
        loop {
            ws(&mut i);
            if e.get(i) == Some(&b')') && depth > 0 {
                depth -= 1;
                i += 1;
            } else {
                break;
            }
        }
        if i == e.len() {
            return depth == 0;
        }
        let ops: [&[u8]; 19] = [
            b">>>", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"+", b"-", b"*", b"/", b"%", b"&", b"|",
            b"^", b"<", b">",
        ];
        let Some(op) = ops.iter().find(|op| e[i..].starts_with(op)) else { return false };
        i += op.len();
        // `a + = b`, `a / / c`, `a & & b`: an operator character right after is no operand.
        if e.get(i).is_some_and(|c| b"=<>&|/*".contains(c)) {
            return false;
        }
    }
}

/// The end of a string (`"`) or character (`'`) literal at `i`: its closing quote on the same
/// line, every escape one of Java's (`\b \t \n \f \r \s \" \' \\`, octal).
fn string_literal_end(e: &[u8], i: usize, quote: u8) -> Option<usize> {
    let mut j = i + 1;
    while j < e.len() {
        match e[j] {
            b'\\' => {
                if !e.get(j + 1).is_some_and(|c| b"btnfrs\"'\\01234567".contains(c)) {
                    return None;
                }
                j += 2;
            }
            b'\n' | b'\r' => return None,
            c if c == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Whether the inside of a character literal is one character or one escape.
pub(crate) fn char_literal(inside: &[u8]) -> bool {
    match inside {
        [b'\\', c] => b"btnfrs\"'\\01234567".contains(c),
        [b'\\', rest @ ..] => rest.len() <= 3 && rest.iter().all(|c| (b'0'..=b'7').contains(c)),
        _ => std::str::from_utf8(inside).is_ok_and(|s| s.chars().count() == 1),
    }
}

/// Whether `n` is a decimal integer or floating-point literal (`12`, `1.5e-3f`, `7L`) or a
/// hexadecimal integer (`0x1F`, `0xFFL`); no underscores, no hexadecimal floats.
pub(crate) fn number_literal(n: &[u8]) -> bool {
    let digits = |s: &[u8], hex: bool| {
        s.iter().take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }).count()
    };
    if let Some(rest) = n.strip_prefix(b"0x").or_else(|| n.strip_prefix(b"0X")) {
        let k = digits(rest, true);
        return k > 0 && matches!(&rest[k..], b"" | b"l" | b"L");
    }
    let mut k = digits(n, false);
    if k == 0 {
        return false;
    }
    let mut float = false;
    if n.get(k) == Some(&b'.') {
        float = true;
        k += 1;
        k += digits(&n[k..], false);
    }
    if matches!(n.get(k), Some(b'e' | b'E')) {
        float = true;
        k += 1;
        if matches!(n.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let d = digits(&n[k..], false);
        if d == 0 {
            return false;
        }
        k += d;
    }
    match &n[k..] {
        b"" | b"f" | b"F" | b"d" | b"D" => true,
        b"l" | b"L" => !float,
        _ => false,
    }
}

/// The end (after its `;`) of an import of the plain form at `i`: `import`, optionally
/// `static`, a qualified name, optionally `.*`, then `;`, with white space only between.
fn plain_import_end(b: &[u8], i: usize) -> Option<usize> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let rest = b.get(i..)?;
    if !rest.starts_with(b"import") || rest.get(6).is_none_or(|c| !c.is_ascii_whitespace()) {
        return None;
    }
    if i > 0 && word(b[i - 1]) {
        return None;
    }
    let ws = |j: &mut usize| {
        while *j < b.len() && b[*j].is_ascii_whitespace() {
            *j += 1;
        }
    };
    let name = |j: &mut usize| -> Option<()> {
        let start = *j;
        if b.get(start).is_none_or(|c| c.is_ascii_digit()) {
            return None;
        }
        while *j < b.len() && word(b[*j]) {
            *j += 1;
        }
        let n = std::str::from_utf8(&b[start..*j]).ok()?;
        (!n.is_empty() && !crate::KEYWORDS.contains(&n)).then_some(())
    };
    let mut j = i + 6;
    ws(&mut j);
    if b[j..].starts_with(b"static") && b.get(j + 6).is_some_and(|c| c.is_ascii_whitespace()) {
        j += 6;
        ws(&mut j);
    }
    name(&mut j)?;
    loop {
        ws(&mut j);
        match b.get(j)? {
            b';' => return Some(j + 1),
            b'.' => {
                j += 1;
                ws(&mut j);
                if b.get(j) == Some(&b'*') {
                    j += 1;
                    ws(&mut j);
                    return (b.get(j) == Some(&b';')).then_some(j + 1);
                }
                name(&mut j)?;
            }
            _ => return None,
        }
    }
}

/// The index of the `}` matching the `{` at `open`, skipping literals and comments.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(b, i)?,
            b'"' => i = skip_string(b, i)?,
            b'\'' => i = skip_char(b, i)?,
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::skeleton;

    #[test]
    fn member_bodies_and_comments_shrink_type_bodies_stay() {
        let src = "class A {\n  int[] a = {1, 2};\n  /** doc\n   */\n  void f() { if (x) {\n y(\"}\"); } } // c\n  static class B { void g() { } }\n  record R(int x) { R { } }\n}\n";
        let s = skeleton(src).expect("skeleton");
        assert_eq!(s.lines().count(), src.lines().count());
        assert!(s.contains("int[] a = {};"), "{s}");
        assert!(s.contains("/**\n */"), "{s}");
        assert!(s.contains("void f() {\n}  \n"), "{s}");
        assert!(s.contains("static class B { void g() {} }"), "{s}");
        assert!(s.contains("record R(int x) { R {} }"), "{s}");
    }

    /// Found by replaying the outline fixtures through the `parse` fuzz harness: an annotation
    /// element's array default is part of its declaration (the index showed `default { }`).
    #[test]
    fn an_annotation_elements_array_default_is_kept() {
        let src = "@interface A {\n  String[] tags() default { \"a\", \"}\" };\n  default void f() { g(); }\n}\n";
        let s = skeleton(src).expect("skeleton");
        assert!(s.contains("default { \"a\", \"}\" };"), "{s}");
        assert!(s.contains("default void f() {}"), "{s}");
    }

    /// Found by the `parse` fuzz target: a brace inside an annotation's arguments is an
    /// element's array value, kept as written, and no member body; a method's parameter list
    /// after an annotated header is no annotation argument list, so its body still shrinks.
    #[test]
    fn an_annotation_arguments_braces_are_kept() {
        let src = "class A {\n  @S({\"a\", \"}\"}) void f(Object @ p . T ({1}) ... xs) { g(); }\n  @Override public void h(int x) { if (x) { y(); } }\n  @interface I { }\n  int[] a = {1};\n}\n";
        let s = skeleton(src).expect("skeleton");
        assert!(s.contains("@S({\"a\", \"}\"}) void f(Object @ p . T ({1}) ... xs) {}"), "{s}");
        assert!(s.contains("public void h(int x) {}"), "{s}");
        assert!(s.contains("@interface I { }"), "{s}");
        assert!(s.contains("int[] a = {};"), "{s}");
    }

    /// Found by the `parse` fuzz target: a lone CR inside a method body, then an LF after the
    /// body's end, became one CRLF in the skeleton, which lost a line.
    #[test]
    fn a_lone_cr_in_a_blanked_body_keeps_its_line() {
        for src in [
            "class A {\n  void f() { g(a\r b);\n  }\n  int x;\n}\n",
            "class A {\n  void f() { g(); }\r/* c\n */ int x;\n}\n",
            "class A {\n  int x;\r/* c\n */ void f() {}\n}\n",
        ] {
            if let Some(s) = skeleton(src) {
                assert_eq!(super::line_breaks(s.as_bytes()), super::line_breaks(src.as_bytes()), "{src:?} -> {s:?}");
            }
        }
        let s =
            skeleton("class A {\n  void f() { g(a\r b);\n  }\n}\n").expect("a lone CR in a body keeps the fast path");
        assert_eq!(s.matches('\n').count(), 5, "{s:?}");
    }

    /// The compacted skeleton blanks plain imports and simple field initializers to spaces
    /// (`0` for an initializer), line terminators kept; everything else as the plain one.
    #[test]
    fn the_declaration_skeleton_blanks_imports_and_simple_initializers_in_place() {
        let src = "package p;\nimport a.b.C;\nimport static a.B.*;\r\nimport\n  x.y;\nclass A {\n  static final String T = \"a\" +\n    \"b\", U = \"c\";\n  int[] a = {1}; long n = -0x1FL << 2, m = f(1);\n  Map<K, V> h = K.X < 1, j = 2;\n  double d = 1.5e-3 * (A.B - this.c);\n  char c = '\\n'; boolean z = !true;\n  void f() { int k = 1; }\n}\n";
        let d = super::declaration_skeleton(src).expect("skeleton");
        assert!(d.compacted);
        let plain = skeleton(src).expect("skeleton");
        let s = d.text.as_str();
        assert_eq!(super::line_breaks(s.as_bytes()), super::line_breaks(src.as_bytes()));
        let want = "package p;\n\n\r\n\n\nclass A {\nstatic final String T =0 \n, U =0 ;\nint[] a = {}; long n =0 , m = f(1);\nMap<K, V> h =0 , j =0 ;\ndouble d =0 ;\nchar c =0 ; boolean z =0 ;\nvoid f() {}\n}\n";
        assert_eq!(s, want);
        // Every byte kept is the plain skeleton's byte at its mapped offset (a blanked
        // initializer's `0` stands where its first byte was).
        for (t, &c) in s.as_bytes().iter().enumerate() {
            let o = d.plain_offset(t);
            assert!(plain.as_bytes()[o] == c || c == b'0' || c == b' ', "{t} -> {o}: {c}");
        }
        assert_eq!(&plain[d.plain_offset(s.find("double").expect("double"))..][..6], "double");
        // An array initializer and a call are kept as the plain skeleton has them.
        assert!(plain.contains("int[] a = {}; long n = -0x1FL << 2, m = f(1);"), "{plain:?}");
        // Nothing to blank or drop: not compacted, the plain skeleton's text.
        let d = super::declaration_skeleton("class A { int x = f(); }").expect("skeleton");
        assert!(!d.compacted);
        assert_eq!(d.text, "class A { int x = f(); }");
        // Blanks at the end keep the last line.
        let d = super::declaration_skeleton("class A {}\n   ").expect("skeleton");
        assert_eq!(d.text, "class A {}\n ");
        assert_eq!(crate::LineIndex::new(&d.text).line_count(), crate::LineIndex::new("class A {}\n   ").line_count());
    }

    /// Imports stay where an outline may read them (Lombok's names) or where blanking them
    /// could change what a comment or an annotation before them belongs to; initializers stay
    /// when they may not be one simple expression.
    #[test]
    fn the_declaration_skeleton_keeps_what_it_cannot_prove_unread() {
        for src in [
            "import lombok.Getter;\nclass A {}\n",
            "/** doc */\nimport a.B;\nclass A {}\n",
            "@Deprecated\nimport a.B;\nclass A {}\n",
            "import a./* c */B;\nclass A {}\n",
            "import a.B\nclass A {}\n",
            "import a.class;\nclass A {}\n",
            "class A { int x = 1 +; }",
            "class A { int x = f(1); }",
            "class A { int x = (int) y; }",
            "class A { String s = \"\\u0041\"; }",
            "class A { String s = \"\"\"\n  x\"\"\"; }",
            "class A { int x = 1_000; }",
            "class A { int x = a ? 1 : 2; }",
            "class A { Object o = new Object(); }",
            "class A { Class<?> c = A.class; }",
            "class A { int x = a.; }",
            "class A { int x = a+/* c */b; }",
            "class A { int x = 1.2.3; }",
        ] {
            let d = super::declaration_skeleton(src).expect("skeleton");
            assert!(!d.compacted, "{src:?} -> {:?}", d.text);
            assert_eq!(d.text, skeleton(src).expect("skeleton"), "{src:?}");
        }
    }

    /// The outline of every fixture, and of java.base's files when the JDK's sources are
    /// unpacked (`target/jdk-src`), is the same from the compacted skeleton as from the plain
    /// one: every declaration, line, javadoc span and error.
    #[test]
    fn compacted_and_plain_skeletons_give_the_same_outlines() {
        let (files, _) = crate::test_corpus();
        let lombok = crate::lombok::config::default_config();
        let mut compacted = 0;
        for f in &files {
            let bytes = std::fs::read(f).expect("read");
            let name = f.to_string_lossy();
            let plain = crate::declarations_from(&name, &bytes, String::new(), &lombok, false, false);
            let compact = crate::declarations_from(&name, &bytes, String::new(), &lombok, true, false);
            assert_eq!(compact, plain, "{name}");
            let text = crate::SourceText::decode(&bytes).text;
            compacted += usize::from(super::declaration_skeleton(&text).is_some_and(|d| d.compacted));
        }
        assert!(compacted * 2 > files.len(), "only {compacted} of {} files compacted", files.len());
    }

    #[test]
    fn unbalanced_text_falls_back() {
        assert!(skeleton("class A { void f() { \"unterminated }\n }").is_none());
        assert!(skeleton("class A { void f() { /* open }\n }").is_none());
    }
}

/// Lexical problems a person would name, with their byte offsets: unterminated string, char,
/// text block or comment (where it starts), a `}` that closes nothing, and `{`s never closed.
/// Complements tree-sitter's error nodes, whose position is often far from the cause.
pub fn lexical_problems(text: &str) -> Vec<(usize, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let next = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => Some(skip_line_comment(b, i)),
            b'/' if b.get(i + 1) == Some(&b'*') => skip_block_comment(b, i).or_else(|| {
                out.push((i, "unterminated comment: `/*` is never closed by `*/`".to_owned()));
                None
            }),
            b'"' => skip_string(b, i).or_else(|| {
                let block = b.get(i..i + 3) == Some(b"\"\"\"");
                out.push((i, format!("unterminated {}", if block { "text block" } else { "string literal" })));
                // A string literal ends at its line (as javac reads it); a text block runs on.
                (!block).then(|| skip_line_comment(b, i))
            }),
            b'\'' => skip_char(b, i).or_else(|| {
                out.push((i, "unterminated character literal".to_owned()));
                Some(skip_line_comment(b, i))
            }),
            b'{' => {
                open.push(i);
                Some(i + 1)
            }
            b'}' => {
                if open.pop().is_none() {
                    out.push((i, "unexpected `}`: it closes nothing".to_owned()));
                }
                Some(i + 1)
            }
            _ => Some(i + 1),
        };
        match next {
            Some(n) => i = n,
            // The rest of the file is inside the unterminated literal or comment.
            None => return out,
        }
    }
    if let Some(&first) = open.first() {
        let more = if open.len() > 1 { format!(" ({} `{{` in all)", open.len()) } else { String::new() };
        out.push((first, format!("unclosed `{{`: the file ends before its `}}`{more}")));
    }
    out
}

/// A `(` or `[` that a statement or block ends before it is closed: javac reports "`)`
/// expected" where its statement ends, and tree-sitter's error recovery may run from it over
/// the rest of the file. `at` is where the closer is missing, as javac places it: just after
/// the token before the `;` ending the statement, the `{` of a block met inside it, the `}`
/// closing the enclosing block, or the other kind of closer; `closer` is the missing character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unclosed {
    pub open: usize,
    pub at: usize,
    pub closer: u8,
}

/// The `(` and `[` of `text` (unicode escapes translated, see [`super::Prepared`]) left open
/// at the end of their statement, innermost first at each place, in text order. Lexed as
/// [`lexical_problems`] lexes (strings, characters, text blocks and comments skipped; the scan
/// stops at an unterminated comment or text block). A `;` inside the parentheses of `for` and
/// `try` is theirs; a `{` inside parentheses may open a lambda body, an anonymous class or an
/// array initializer, so only the `}` of the block around the parentheses closes them (the
/// closer then belongs before the first `{` met inside them, as in `if (a > 1 {`). A stray
/// `)`, `]` or `}` is left to the parser.
pub fn unclosed_brackets(text: &str) -> Vec<Unclosed> {
    struct Open {
        at: usize,
        kind: u8,
        /// A `(` of `for` or `try`: its `;` separate the header's parts.
        header: bool,
        /// The first `{` opened directly inside this bracket.
        brace: Option<usize>,
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut word_end = 0;
    let mut word_start = 0;
    // The end of the last token (not a comment, not white space).
    let mut token_end = 0;
    let closer = |kind: u8| if kind == b'(' { b')' } else { b']' };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let comment = c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*'));
        let at = token_end;
        let next = match c {
            b'/' if b.get(i + 1) == Some(&b'/') => Some(skip_line_comment(b, i)),
            b'/' if b.get(i + 1) == Some(&b'*') => skip_block_comment(b, i),
            b'"' => skip_string(b, i).or_else(|| (b.get(i..i + 3) != Some(b"\"\"\"")).then(|| skip_line_comment(b, i))),
            b'\'' => Some(skip_char(b, i).unwrap_or_else(|| skip_line_comment(b, i))),
            b'(' | b'[' => {
                let word = &b[word_start..word_end];
                let header = c == b'('
                    && (word == b"for" || word == b"try")
                    && b[word_end..i].iter().all(u8::is_ascii_whitespace);
                stack.push(Open { at: i, kind: c, header, brace: None });
                Some(i + 1)
            }
            b'{' => {
                if let Some(top) = stack.last_mut()
                    && top.kind != b'{'
                {
                    top.brace.get_or_insert(at);
                }
                stack.push(Open { at: i, kind: b'{', header: false, brace: None });
                Some(i + 1)
            }
            b')' | b']' => {
                let want = if c == b')' { b'(' } else { b'[' };
                let block = stack.iter().rposition(|o| o.kind == b'{').map_or(0, |k| k + 1);
                if let Some(k) = stack[block..].iter().rposition(|o| o.kind == want).map(|k| k + block) {
                    // The brackets opened after the one this closes are left open.
                    while stack.len() > k + 1 {
                        if let Some(o) = stack.pop() {
                            out.push(Unclosed { open: o.at, at, closer: closer(o.kind) });
                        }
                    }
                    stack.pop();
                }
                Some(i + 1)
            }
            b';' => {
                while let Some(o) = stack.last()
                    && o.kind != b'{'
                    && !o.header
                {
                    out.push(Unclosed { open: o.at, at, closer: closer(o.kind) });
                    stack.pop();
                }
                Some(i + 1)
            }
            b'}' => {
                if stack.iter().any(|o| o.kind == b'{') {
                    while let Some(o) = stack.pop() {
                        if o.kind == b'{' {
                            break;
                        }
                        out.push(Unclosed { open: o.at, at: o.brace.unwrap_or(at), closer: closer(o.kind) });
                    }
                }
                Some(i + 1)
            }
            _ => {
                if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
                    if word_end != i {
                        word_start = i;
                    }
                    word_end = i + 1;
                }
                Some(i + 1)
            }
        };
        match next {
            Some(n) => {
                if !comment && !c.is_ascii_whitespace() {
                    token_end = n;
                }
                i = n;
            }
            None => break,
        }
    }
    out.sort_by_key(|u| u.at);
    out
}

#[cfg(test)]
mod problem_tests {
    use super::{Unclosed, lexical_problems, unclosed_brackets};

    #[test]
    fn brackets_open_at_the_end_of_their_statement() {
        let balanced = [
            "class A { void f() { for (int i = 0; i < n; i++) { g(i); } } }",
            "class A { void f() { try (var a = x(); var b = y()) { } } }",
            "class A { void f() { run(() -> { a(); b[0] = 1; }); } }",
            "class A { Object o = new Object() { int h() { return 1; } }; int[] a = new int[]{1, 2}; }",
            "class A { void f() { g(\"(\", ';', /* ( */ h()); // (\n } }",
            "@A(x = {1, 2}) class A { void f() { int v = switch (k) { case 1 -> { yield g(1); } default -> 0; }; } }",
        ];
        for text in balanced {
            assert_eq!(unclosed_brackets(text), [], "{text}");
        }
        let u = |open, at, closer| Unclosed { open, at, closer };
        // javac's "')' expected" is just after the token before the `;`.
        assert_eq!(unclosed_brackets("class A { void f() { g(f(x) ; } }"), [u(22, 27, b')')]);
        // Innermost first where both end.
        assert_eq!(unclosed_brackets("class A { void f() { g(a[1; } }"), [u(24, 26, b']'), u(22, 26, b')')]);
        // Before the `{` met inside it, when the block's `}` finds it open.
        assert_eq!(unclosed_brackets("class A { void f() { if (a > 1 { g(); } } }"), [u(24, 30, b')')]);
        // The other closer.
        assert_eq!(unclosed_brackets("class A { void f() { g(a[1); } }"), [u(24, 26, b']')]);
    }

    #[test]
    fn names_the_cause_where_it_starts() {
        let p = lexical_problems("class A {\n  String s = \"open;\n}\n");
        assert_eq!(p, [(23, "unterminated string literal".to_owned())]);
        let p = lexical_problems("class A {\n  void f() {\n}\n");
        assert_eq!(p.len(), 1);
        assert!(p[0].1.contains("unclosed") && p[0].0 == 8, "{p:?}");
        assert_eq!(lexical_problems("class A { } }").len(), 1);
        assert!(lexical_problems("class A { /* x */ char c = '}'; String t = \"\"\"\n }\n \"\"\"; }").is_empty());
    }
}
