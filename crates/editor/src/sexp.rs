//! A small Emacs Lisp reader and printer, and the allowlist's walk over the form it reads.
//!
//! `run_elisp`'s allowlist is checked here, in Rust, on the *read* form, and what Emacs then
//! evaluates is this module's own printing of that form, never the caller's text: whatever
//! this reader and Emacs's might disagree on cannot smuggle a call past the check. The reader
//! knows a deliberately small syntax (lists, dotted pairs, vectors, strings, integers,
//! decimal floats, plain symbols, `'x`, `#'x`, simple `?c` characters, comments) and refuses
//! the rest (backquote, `#` forms, escaped symbols, numbers it cannot print back exactly)
//! with a reason; it nests at most [`MAX_DEPTH`] levels.

use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The deepest nesting the reader accepts.
pub const MAX_DEPTH: usize = 64;

/// A read form.
#[derive(Debug, Clone, PartialEq)]
pub enum Sexp {
    /// A list, with the tail of a dotted list.
    List(Vec<Sexp>, Option<Box<Sexp>>),
    Vector(Vec<Sexp>),
    Symbol(String),
    Str(String),
    Int(i64),
    Float(f64),
}

/// `s` as an Emacs Lisp string literal of printable ASCII only: `"` and `\` escaped, every
/// other character outside printable ASCII as `\uXXXX` or `\UXXXXXXXX`. Whatever `s` holds
/// (quotes, backslashes, newlines, `")(shell-command "x`), Emacs reads it back as one string.
pub fn elisp_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x1_0000 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08X}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

impl Sexp {
    /// The form as text Emacs reads back as the same form.
    pub fn print(&self) -> String {
        let mut out = String::new();
        self.print_into(&mut out);
        out
    }

    fn print_into(&self, out: &mut String) {
        match self {
            Sexp::List(items, tail) => {
                out.push('(');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    x.print_into(out);
                }
                if let Some(t) = tail {
                    out.push_str(" . ");
                    t.print_into(out);
                }
                out.push(')');
            }
            Sexp::Vector(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    x.print_into(out);
                }
                out.push(']');
            }
            Sexp::Symbol(s) => out.push_str(s),
            Sexp::Str(s) => out.push_str(&elisp_string(s)),
            Sexp::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Sexp::Float(f) => {
                let _ = write!(out, "{f:?}");
            }
        }
    }

    fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(s) => Some(s),
            _ => None,
        }
    }
}

/// Reads exactly one form from `text` (comments and whitespace around it allowed).
pub fn read(text: &str) -> Result<Sexp, String> {
    let mut r = Reader { s: text.as_bytes(), text, i: 0 };
    r.skip_space();
    if r.i >= r.s.len() {
        return Err("the code is empty".into());
    }
    let form = r.form(0)?;
    r.skip_space();
    if r.i < r.s.len() {
        return Err(format!("more than one form: text follows the first at byte {}; wrap the forms in (progn …)", r.i));
    }
    Ok(form)
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

/// Characters a plain symbol may hold (a backslash, `?`, `#` and quotes may not).
fn symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-+=*/_~!@$%^&:<>{}.".contains(&c)
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.i < self.s.len() {
            match self.s[self.i] {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.i += 1,
                b';' => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn form(&mut self, depth: usize) -> Result<Sexp, String> {
        if depth >= MAX_DEPTH {
            return Err(format!("the code nests deeper than {MAX_DEPTH} levels"));
        }
        self.skip_space();
        let Some(&c) = self.s.get(self.i) else {
            return Err("the code ends inside a form (a parenthesis is missing)".into());
        };
        let at = self.i;
        match c {
            b'(' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.s.get(self.i) {
                        None => return Err(format!("the list opened at byte {at} is not closed")),
                        Some(b')') => {
                            self.i += 1;
                            return Ok(Sexp::List(items, None));
                        }
                        Some(b'.') if self.s.get(self.i + 1).is_none_or(|&n| !symbol_char(n)) => {
                            if items.is_empty() {
                                return Err(format!("a dot opens the list at byte {at}"));
                            }
                            self.i += 1;
                            let tail = self.form(depth + 1)?;
                            self.skip_space();
                            if self.s.get(self.i) != Some(&b')') {
                                return Err(format!(
                                    "the dotted list at byte {at} has more than one form after its dot"
                                ));
                            }
                            self.i += 1;
                            return Ok(Sexp::List(items, Some(Box::new(tail))));
                        }
                        Some(_) => items.push(self.form(depth + 1)?),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.s.get(self.i) {
                        None => return Err(format!("the vector opened at byte {at} is not closed")),
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Sexp::Vector(items));
                        }
                        Some(_) => items.push(self.form(depth + 1)?),
                    }
                }
            }
            b')' | b']' => Err(format!("an unmatched `{}` at byte {at}", c as char)),
            b'\'' => {
                self.i += 1;
                let x = self.form(depth + 1)?;
                Ok(Sexp::List(vec![Sexp::Symbol("quote".into()), x], None))
            }
            b'#' if self.s.get(self.i + 1) == Some(&b'\'') => {
                self.i += 2;
                let x = self.form(depth + 1)?;
                Ok(Sexp::List(vec![Sexp::Symbol("function".into()), x], None))
            }
            b'"' => self.string(),
            b'?' => self.character(),
            c if symbol_char(c) => self.atom(),
            _ => Err(format!(
                "`{}` at byte {at} is syntax the allowlist's reader does not accept (backquote, `#` forms, escaped symbols)",
                self.text[at..].chars().next().unwrap_or('?')
            )),
        }
    }

    fn string(&mut self) -> Result<Sexp, String> {
        let at = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.i..];
            let Some(c) = rest.chars().next() else {
                return Err(format!("the string opened at byte {at} is not closed"));
            };
            self.i += c.len_utf8();
            match c {
                '"' => return Ok(Sexp::Str(out)),
                '\\' => {
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(format!("the string opened at byte {at} is not closed"));
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'e' => out.push('\x1b'),
                        // A backslash before a newline or a space is dropped by Emacs.
                        b'\n' | b' ' => {}
                        b'u' | b'U' => {
                            let n = if e == b'u' { 4 } else { 8 };
                            let hex = self.text.get(self.i..self.i + n).unwrap_or("");
                            let ch =
                                u32::from_str_radix(hex, 16).ok().filter(|_| hex.len() == n).and_then(char::from_u32);
                            let Some(ch) = ch else {
                                return Err(format!("a bad \\{} escape in the string at byte {at}", e as char));
                            };
                            out.push(ch);
                            self.i += n;
                        }
                        _ => {
                            return Err(format!(
                                "the escape `\\{}` in the string at byte {at} is not one the reader accepts (\\\" \\\\ \\n \\t \\r \\e \\uXXXX)",
                                e as char
                            ));
                        }
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn character(&mut self) -> Result<Sexp, String> {
        let at = self.i;
        let rest = &self.s[self.i + 1..];
        let (value, len) = match rest {
            [b'\\', e, ..] => {
                let v = match e {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b's' => b' ',
                    b'\\' | b'"' | b'(' | b')' | b'\'' | b';' => *e,
                    _ => return Err(format!("the character escape at byte {at} is not one the reader accepts")),
                };
                (v, 2)
            }
            [c, ..] if c.is_ascii_graphic() => (*c, 1),
            _ => return Err(format!("the character literal at byte {at} is not one the reader accepts")),
        };
        self.i += 1 + len;
        if self.s.get(self.i).is_some_and(|&c| symbol_char(c) || c == b'?') {
            return Err(format!("the character literal at byte {at} runs into the next token"));
        }
        Ok(Sexp::Int(i64::from(value)))
    }

    fn atom(&mut self) -> Result<Sexp, String> {
        let at = self.i;
        while self.s.get(self.i).is_some_and(|&c| symbol_char(c)) {
            self.i += 1;
        }
        if self.s.get(self.i).is_some_and(|&c| matches!(c, b'\\' | b'?' | b'#' | b'"' | b'\'' | b',' | b'`')) {
            return Err(format!("the token at byte {at} continues with syntax the reader does not accept"));
        }
        let tok = &self.text[at..self.i];
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let unsigned = tok.strip_prefix(['+', '-']).unwrap_or(tok);
        if digits(unsigned) {
            return tok
                .parse::<i64>()
                .map(Sexp::Int)
                .map_err(|_| format!("the integer `{tok}` at byte {at} is out of range"));
        }
        if let Some((a, b)) = unsigned.split_once('.')
            && digits(a)
            && digits(b)
        {
            return match tok.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Sexp::Float(f)),
                _ => Err(format!("the number `{tok}` at byte {at} is out of range")),
            };
        }
        // Anything else that Emacs could read as a number (`1e5`, `.5`, `1.`) is refused
        // rather than guessed; `1+` and `1-` are the common symbols that start with a digit.
        let first_digit = unsigned.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.');
        if tok == "." || (first_digit && tok != "1+" && tok != "1-") {
            return Err(format!("`{tok}` at byte {at} is neither a plain number nor a plain symbol"));
        }
        Ok(Sexp::Symbol(tok.to_owned()))
    }
}

/// What the allowlist found in a form it let through.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// Every function, macro or special form the form names (called, or quoted and so
    /// callable by what it is given to).
    pub functions: BTreeSet<String>,
    /// The variables it binds (`let`, lambda arguments, `condition-case`, `dolist`): Emacs
    /// refuses the form if one of them is special (a dynamic binding would change what an
    /// allowed function does, `compile-command` under `recompile`).
    pub bound: BTreeSet<String>,
}

/// The higher-order functions whose first argument is called: it must be a quoted symbol or
/// a lambda, never a computed value the walk could not check.
const CALLS_FIRST_ARG: &[&str] = &[
    "funcall",
    "apply",
    "mapcar",
    "mapc",
    "mapcan",
    "mapconcat",
    "seq-map",
    "seq-do",
    "seq-filter",
    "seq-remove",
    "seq-find",
    "seq-some",
    "seq-every-p",
    "seq-reduce",
    "cl-remove-if",
    "cl-remove-if-not",
    "cl-find-if",
    "cl-some",
    "cl-every",
    "maphash",
    "mapatoms",
];

/// Checks `form` against `allow`: every function position, recursively (inside `let`,
/// `progn`, lambdas, `cond`, `condition-case`, `dolist`), every `#'f` and quoted symbol, and
/// the function given to `funcall`/`apply` and the mapping functions. `funcall` and `apply`
/// of a quoted symbol or a lambda count as calls of it and need no entry of their own.
pub fn check(form: &Sexp, allow: &BTreeSet<String>) -> Result<Checked, String> {
    let mut w = Walk { allow, found: Checked::default() };
    w.form(form, 0)?;
    Ok(w.found)
}

struct Walk<'a> {
    allow: &'a BTreeSet<String>,
    found: Checked,
}

impl Walk<'_> {
    fn use_fn(&mut self, name: &str, how: &str) -> Result<(), String> {
        if self.allow.contains(name) {
            self.found.functions.insert(name.to_owned());
            Ok(())
        } else {
            Err(format!("`{name}` ({how}) is not on the allowlist (elisp_allowlist)"))
        }
    }

    fn bind(&mut self, s: &Sexp) -> Result<(), String> {
        match s {
            Sexp::Symbol(name) if name == "nil" || name == "t" || name.starts_with(':') => {
                Err(format!("`{name}` cannot be bound"))
            }
            Sexp::Symbol(name) => {
                self.found.bound.insert(name.clone());
                Ok(())
            }
            other => Err(format!("`{}` is not a variable to bind", other.print())),
        }
    }

    fn forms(&mut self, xs: &[Sexp], depth: usize) -> Result<(), String> {
        xs.iter().try_for_each(|x| self.form(x, depth + 1))
    }

    fn form(&mut self, f: &Sexp, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("the code nests deeper than {MAX_DEPTH} levels"));
        }
        let (items, tail) = match f {
            Sexp::List(items, tail) => (items, tail),
            // A symbol reads a variable; numbers and strings are themselves; a vector is a
            // constant, whose symbols are data that may be called as functions.
            Sexp::Vector(xs) => return xs.iter().try_for_each(|x| self.data(x, depth + 1)),
            _ => return Ok(()),
        };
        if tail.is_some() {
            return Err(format!("`{}` is a dotted list, not a call", f.print()));
        }
        let Some(head) = items.first() else { return Ok(()) };
        let args = &items[1..];
        match head {
            Sexp::Symbol(h) => self.call(h, args, f, depth),
            Sexp::List(inner, None) if inner.first().and_then(Sexp::symbol) == Some("lambda") => {
                self.lambda(inner, depth + 1)?;
                self.forms(args, depth)
            }
            other => Err(format!("`{}` is not a function in `{}`", other.print(), f.print())),
        }
    }

    fn call(&mut self, h: &str, args: &[Sexp], whole: &Sexp, depth: usize) -> Result<(), String> {
        match h {
            "quote" => return args.iter().try_for_each(|x| self.data(x, depth + 1)),
            "function" => {
                return match args {
                    [Sexp::Symbol(s)] => self.use_fn(s, "named with #'"),
                    [Sexp::List(inner, None)] if inner.first().and_then(Sexp::symbol) == Some("lambda") => {
                        self.lambda(inner, depth + 1)
                    }
                    _ => Err(format!("`{}` is not a function quote the walk understands", whole.print())),
                };
            }
            "funcall" | "apply" => {
                let Some((f, rest)) = args.split_first() else {
                    return Err(format!("`{h}` without a function"));
                };
                self.called(f, h, depth)?;
                return self.forms(rest, depth);
            }
            _ => {}
        }
        self.use_fn(h, "called")?;
        match h {
            "lambda" => self.lambda(&[&[Sexp::Symbol("lambda".into())], args].concat(), depth),
            "let" | "let*" => {
                let Some((Sexp::List(bindings, None), body)) = args.split_first() else {
                    return Err(format!("`{}`: its bindings are not a list", whole.print()));
                };
                for b in bindings {
                    match b {
                        Sexp::Symbol(_) => self.bind(b)?,
                        Sexp::List(pair, None) if !pair.is_empty() && pair.len() <= 2 => {
                            self.bind(&pair[0])?;
                            self.forms(&pair[1..], depth)?;
                        }
                        _ => return Err(format!("`{}` is not a binding", b.print())),
                    }
                }
                self.forms(body, depth)
            }
            "cond" => args.iter().try_for_each(|clause| match clause {
                Sexp::List(xs, None) => self.forms(xs, depth),
                _ => Err(format!("`{}` is not a cond clause", clause.print())),
            }),
            "condition-case" => {
                let [var, body, handlers @ ..] = args else {
                    return Err(format!("`{}` is not a condition-case form", whole.print()));
                };
                if var.symbol() != Some("nil") {
                    self.bind(var)?;
                }
                self.form(body, depth + 1)?;
                handlers.iter().try_for_each(|hd| match hd {
                    Sexp::List(xs, None) if !xs.is_empty() => self.forms(&xs[1..], depth),
                    _ => Err(format!("`{}` is not a condition-case handler", hd.print())),
                })
            }
            "dolist" | "dotimes" => {
                let Some((Sexp::List(spec, None), body)) = args.split_first() else {
                    return Err(format!("`{}`: its spec is not a list", whole.print()));
                };
                let Some((var, exprs)) = spec.split_first() else {
                    return Err(format!("`{}`: its spec is empty", whole.print()));
                };
                self.bind(var)?;
                self.forms(exprs, depth)?;
                self.forms(body, depth)
            }
            h if CALLS_FIRST_ARG.contains(&h) => {
                let Some((f, rest)) = args.split_first() else {
                    return Err(format!("`{h}` without a function"));
                };
                self.called(f, h, depth)?;
                self.forms(rest, depth)
            }
            _ => self.forms(args, depth),
        }
    }

    /// The function argument of `funcall`, `apply` or a mapping function: a quoted symbol
    /// (checked as a call) or a lambda (walked); a computed function is refused.
    fn called(&mut self, f: &Sexp, by: &str, depth: usize) -> Result<(), String> {
        if let Sexp::List(q, None) = f
            && let [Sexp::Symbol(kind), x] = q.as_slice()
            && (kind == "quote" || kind == "function")
        {
            return match x {
                Sexp::Symbol(s) => self.use_fn(s, &format!("called through {by}")),
                Sexp::List(inner, None) if inner.first().and_then(Sexp::symbol) == Some("lambda") => {
                    self.lambda(inner, depth + 1)
                }
                _ => Err(format!("`{}` given to {by} is not a function", f.print())),
            };
        }
        if let Sexp::List(inner, None) = f
            && inner.first().and_then(Sexp::symbol) == Some("lambda")
        {
            return self.lambda(inner, depth + 1);
        }
        Err(format!(
            "{by} is given a computed function (`{}`), which the allowlist cannot check; give 'name or a lambda",
            f.print()
        ))
    }

    /// `(lambda ARGS BODY…)`: the arguments are bound, the body walked.
    fn lambda(&mut self, items: &[Sexp], depth: usize) -> Result<(), String> {
        let Some(Sexp::List(params, None)) = items.get(1) else {
            return Err("a lambda without an argument list".into());
        };
        for p in params {
            if !matches!(p, Sexp::Symbol(s) if s.starts_with('&')) {
                self.bind(p)?;
            }
        }
        self.forms(&items[2..], depth)
    }

    /// Quoted data: nothing is evaluated, but a symbol in it may be called by the function it
    /// is given to (`(mapc 'delete-file …)`, a quoted lambda), so every symbol but keywords,
    /// `nil` and `t` must be on the allowlist too.
    fn data(&mut self, x: &Sexp, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("the code nests deeper than {MAX_DEPTH} levels"));
        }
        match x {
            Sexp::Symbol(s) if s == "nil" || s == "t" || s.starts_with(':') => Ok(()),
            Sexp::Symbol(s) => self.use_fn(s, "quoted, so callable by what it is given to"),
            Sexp::List(xs, tail) => {
                xs.iter().try_for_each(|y| self.data(y, depth + 1))?;
                tail.as_deref().map_or(Ok(()), |t| self.data(t, depth + 1))
            }
            Sexp::Vector(xs) => xs.iter().try_for_each(|y| self.data(y, depth + 1)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    const BASE: &[&str] = &["progn", "let", "let*", "message", "buffer-name", "when", "lambda", "mapcar", "cond", "1+"];

    /// One case per rule: the code, and `Ok(canonical print)` or `Err(part of the reason)`.
    fn check_case(code: &str, expect: Result<&str, &str>) {
        let got = read(code).and_then(|f| check(&f, &allow(BASE)).map(|_| f.print()));
        match (got, expect) {
            (Ok(p), Ok(want)) => assert_eq!(p, want, "{code}"),
            (Err(e), Err(want)) => assert!(e.contains(want), "{code}: {e} (wanted {want})"),
            (got, want) => panic!("{code}: got {got:?}, wanted {want:?}"),
        }
    }

    #[test]
    fn the_allowlist_checks_every_function_position() {
        check_case("(message \"hi %s\" (buffer-name))", Ok("(message \"hi %s\" (buffer-name))"));
        check_case("(progn (message \"a\") (delete-file \"x\"))", Err("`delete-file` (called)"));
        check_case("(let ((x (delete-file \"x\"))) x)", Err("`delete-file`"));
        check_case("(let* ((x 1)) (when x (progn (let ((y 2)) (delete-file y)))))", Err("`delete-file`"));
        check_case("(mapcar (lambda (b) (kill-buffer b)) (buffer-list))", Err("`kill-buffer`"));
        check_case("(mapcar #'kill-buffer nil)", Err("`kill-buffer`"));
        check_case("(mapcar 'kill-buffer nil)", Err("`kill-buffer`"));
        check_case("(mapcar (car x) nil)", Err("computed function"));
        check_case("(funcall 'delete-file \"x\")", Err("`delete-file` (called through funcall)"));
        check_case("(apply #'delete-file '(\"x\"))", Err("`delete-file`"));
        check_case("(funcall (intern \"delete-file\") \"x\")", Err("computed function"));
        check_case("(funcall #'message \"ok\")", Ok("(funcall (function message) \"ok\")"));
        check_case("((lambda (f) (delete-file f)) \"x\")", Err("`delete-file`"));
        check_case("(message \"%s\" '(lambda () (delete-file \"x\")))", Err("`delete-file` (quoted"));
        check_case("(message \"%s\" [delete-file])", Err("`delete-file` (quoted"));
        check_case("(cond ((buffer-name) (shell-command \"x\")))", Err("`shell-command`"));
        check_case("(message \"%s\" '(:a nil t 1 \"s\"))", Ok("(message \"%s\" (quote (:a nil t 1 \"s\")))"));
        check_case("(eval (read \"(delete-file 1)\"))", Err("`eval`"));
        check_case(
            "(let ((compile-command \"rm\")) (message compile-command))",
            Ok("(let ((compile-command \"rm\")) (message compile-command))"),
        );
    }

    #[test]
    fn the_reader_refuses_what_it_cannot_print_back() {
        check_case("`(,x)", Err("backquote"));
        check_case("(message #(\"a\" 0 1 (face bold)))", Err("`#`"));
        check_case("(message 1e5)", Err("neither a plain number"));
        check_case("(message .5)", Err("neither a plain number"));
        check_case("(message \"a\") (delete-file \"x\")", Err("more than one form"));
        check_case("(message \"\\x41\")", Err("escape"));
        check_case("(mess\\ age)", Err("does not accept"));
        check_case("(message \"a\"", Err("not closed"));
        check_case("(message ?a ?\\n 1.5 -3 (1+ 2))", Ok("(message 97 10 1.5 -3 (1+ 2))"));
        check_case(
            "; a comment\n(message \"q\\\"b\\\\s\\nl\u{e9}\") ; after",
            Ok("(message \"q\\\"b\\\\s\\u000Al\\u00E9\")"),
        );
        let deep = format!("{}{}", "(progn ".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
        check_case(&deep, Err("deeper than"));
        let (a, b) = (format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000)), "deeper than");
        check_case(&a, Err(b));
    }

    #[test]
    fn bindings_are_collected_for_emacs_to_check() {
        let f =
            read("(let ((a 1) b) (mapcar (lambda (x &optional y) x) nil) (condition-case e (message \"\") (error e)))")
                .expect("read");
        let mut names = allow(BASE);
        names.insert("condition-case".into());
        let c = check(&f, &names).expect("allowed");
        assert_eq!(c.bound, allow(&["a", "b", "x", "y", "e"]));
        assert_eq!(c.functions, allow(&["condition-case", "let", "mapcar", "message"]));
    }

    #[test]
    fn strings_escape_to_printable_ascii() {
        let hostile = "a\"b\\c\nd\")(shell-command \"x\u{1F600}\u{0}";
        let s = elisp_string(hostile);
        assert!(s.bytes().all(|b| (b' '..=b'~').contains(&b)), "{s}");
        assert_eq!(read(&s).expect("reads back"), Sexp::Str(hostile.to_owned()));
    }
}
