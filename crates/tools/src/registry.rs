//! The tool registry: every tool is one file in `tool/` implementing [`Tool`] (its arguments,
//! result, description, annotations, whether it waits for the index, its call and its text
//! rendering) and one line in `tool/mod.rs`'s `tools!` list, which declares the module and
//! registers it in [`TOOLS`]. The MCP server and the CLI both iterate the registry;
//! schemas are derived from the types, so a result cannot drift from its `outputSchema`.

use std::sync::OnceLock;

use mji_model::cancel::Cancel;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::ToolError;
use crate::catalog::{Schema, ToolSpec, output_schema_of, schema_of};
use crate::host::Host;
use crate::tool::TOOLS;

/// MCP's four behaviour hints, set explicitly on every tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// A tool that only reads the workspace.
pub(crate) const READ_ONLY: Annotations =
    Annotations { read_only: true, destructive: false, idempotent: true, open_world: false };

/// What a tool needs to be listed: a tool that could only refuse here is left out of
/// `tools/list`, since every listed tool costs the client's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// An editor configured or running ([`mji_editor::Editor::reachable`]).
    Editor,
    /// The first root is a Maven build (the goal runs there).
    MavenBuild,
    /// The first root is a Gradle build.
    GradleBuild,
}

pub use crate::host::Start;

/// One tool: declared once, called by every shell.
pub trait Tool {
    /// The snake_case name clients call.
    const NAME: &'static str;
    /// A short human title.
    const TITLE: &'static str;
    /// When to use the tool, for the model.
    const DESCRIPTION: &'static str;
    const ANNOTATIONS: Annotations = READ_ONLY;
    /// Whether a call waits (up to the configured time) for the first indexing pass.
    const WAITS_FOR_INDEX: bool = false;
    /// The group the `tools` setting lists or leaves out (one of `mji_config::TOOL_GROUPS`).
    const GROUP: &'static str = "navigation";
    /// Older spellings of this tool's arguments, each with the one spelling `tools/list`
    /// shows: `(old, new)`. A call that uses the old one still works (see [`normalize`]).
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// What the workspace must have for `tools/list` to show the tool (it stays callable and
    /// then says what is missing).
    const SHOWN_WHEN: Needs = Needs::Nothing;

    type Args: DeserializeOwned + Serialize + JsonSchema + Clone;
    type Output: Serialize + JsonSchema + Clone;

    /// What a call needs of a host opened for it alone ([`Start`]): by default the index
    /// when the call waits for it ([`Tool::WAITS_FOR_INDEX`]).
    const START: Start = if Self::WAITS_FOR_INDEX { Start::Index } else { Start::Nothing };

    /// [`Tool::START`] for a call with `args` (a read names its file by a type's name, say).
    fn start(_args: &Self::Args) -> Start {
        Self::START
    }

    /// The domain call: typed arguments in, typed result out.
    fn call(ws: &Host, args: Self::Args) -> Result<Self::Output, ToolError>;

    /// The text a model reads; `None` sends the structured value serialized as JSON.
    fn render(_output: &Self::Output) -> Option<String> {
        None
    }

    /// How many items the answer's main list holds (results, references, lines, members), for
    /// the answer budget to shorten it; `None`: the answer has no such list and fits whole or
    /// not at all.
    fn page_len(_output: &Self::Output) -> Option<usize> {
        None
    }

    /// Keeps the first `n` of those items and records in the answer that the rest was left
    /// out: `truncated`, and where the next call continues (its offset or start line).
    fn cut(_output: &mut Self::Output, _args: &Self::Args, _n: usize) {}

    /// A copy of `output` [`Tool::cut`] to `n` items; a tool whose cut rebuilds the answer can
    /// skip cloning what it replaces.
    fn cut_copy(output: &Self::Output, args: &Self::Args, n: usize) -> Self::Output {
        let mut cut = output.clone();
        Self::cut(&mut cut, args, n);
        cut
    }

    /// The whole answer, fitted to the budget. Tools with extra `_meta` override it and call
    /// [`fit`] themselves.
    fn answer(ws: &Host, args: Self::Args, budget: Budget) -> Result<Answer, String> {
        let output = Self::call(ws, args.clone()).map_err(|e| e.to_string())?;
        fit::<Self>(output, &args, budget)
    }
}

pub use crate::budget::Budget;

/// The answer of `output`, within `budget` tokens in both renderings (the text a model reads
/// and the structured JSON, which some clients pass to the model instead). An answer over the
/// budget is cut to the most items that fit, and says so; one that cannot be cut is refused
/// with how to narrow the call. Never cut silently.
pub fn fit<T: Tool + ?Sized>(output: T::Output, args: &T::Args, budget: Budget) -> Result<Answer, String> {
    let whole = render::<T>(&output)?;
    if whole.fits_by_length(budget) {
        return Ok(whole.answer());
    }
    let key = page_key::<T>(&whole, args, budget);
    let kept = kept_pages().lock().ok().and_then(|pages| pages.get(&key).copied());
    let n = match kept {
        Some(n) => n,
        None => {
            let n = page_len::<T>(&output, &whole, args, budget)?;
            if let (Some(_), Ok(mut pages)) = (n, kept_pages().lock()) {
                if pages.len() >= MAX_KEPT_PAGES {
                    pages.clear();
                }
                pages.insert(key, n);
            }
            n
        }
    };
    match n {
        None => Ok(whole.answer()),
        Some(n) => {
            let mut cut = output;
            T::cut(&mut cut, args, n);
            Ok(render::<T>(&cut)?.answer())
        }
    }
}

/// How many of `output`'s items fit the budget: `None` for all of them. The most that fit, at
/// least one, found by bisection; tokens grow with the items kept.
fn page_len<T: Tool + ?Sized>(
    output: &T::Output,
    whole: &Rendered,
    args: &T::Args,
    budget: Budget,
) -> Result<Option<usize>, String> {
    if whole.fits(budget) {
        return Ok(None);
    }
    let Some(len) = T::page_len(output) else {
        return Err(too_large::<T>(budget.tokens, "narrow the call"));
    };
    // `hi` items do not fit; `lo` do (or lo == 0). The next cut is interpolated from the
    // renderings' lengths and the bytes per token measured so far (a bisection step whenever
    // that did not halve the interval), so a large answer is counted a few times, not log2(len).
    let (mut lo, mut hi) = (0usize, len);
    let mut lo_bytes = [0usize; 2];
    let mut hi_bytes = whole.lengths();
    let mut bytes_per_token = [3.0f64; 2];
    let mut best = None;
    let mut bisect = false;
    while hi - lo > 1 {
        let estimate = |b: [usize; 2], rho: [f64; 2]| -> f64 {
            whole.counted(budget).iter().map(|&i| b[i] as f64 / rho[i]).fold(0.0, f64::max)
        };
        let (e_lo, e_hi) = (estimate(lo_bytes, bytes_per_token), estimate(hi_bytes, bytes_per_token));
        let mid = if bisect || e_hi <= e_lo {
            lo + (hi - lo) / 2
        } else {
            let at = (budget.tokens as f64 - e_lo) / (e_hi - e_lo) * (hi - lo) as f64;
            lo + (at.max(0.0) as usize).clamp(1, hi - lo - 1)
        };
        let r = render::<T>(&T::cut_copy(output, args, mid))?;
        let before = hi - lo;
        match r.tokens(budget) {
            Ok(counts) => {
                for (i, n) in counts.iter().enumerate() {
                    if let Some(n) = n.filter(|&n| n > 0) {
                        bytes_per_token[i] = r.lengths()[i] as f64 / n as f64;
                    }
                }
                (lo, lo_bytes, best) = (mid, r.lengths(), Some(mid));
            }
            Err(over) => {
                // More than the budget: at most this many bytes per token.
                bytes_per_token[over] = bytes_per_token[over].min(r.lengths()[over] as f64 / budget.tokens as f64);
                (hi, hi_bytes) = (mid, r.lengths());
            }
        }
        bisect = !bisect && (hi - lo) * 2 > before;
    }
    match best {
        Some(n) => Ok(Some(n)),
        None => Err(too_large::<T>(budget.tokens, "even its first item does not fit; narrow the call")),
    }
}

/// Pages the budget cut recently, by what decides the cut: the tool, its arguments, the whole
/// answer in both renderings and the budget. A client asking again (an outline read again, the
/// same search next turn) gets the same page without counting its tokens again, which is most
/// of a large answer's cost. At most this many; then the table starts afresh.
const MAX_KEPT_PAGES: usize = 1024;

fn kept_pages() -> &'static std::sync::Mutex<std::collections::HashMap<u64, Option<usize>>> {
    static PAGES: OnceLock<std::sync::Mutex<std::collections::HashMap<u64, Option<usize>>>> = OnceLock::new();
    PAGES.get_or_init(Default::default)
}

fn page_key<T: Tool + ?Sized>(whole: &Rendered, args: &T::Args, budget: Budget) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (T::NAME, serde_json::to_string(args).unwrap_or_default(), budget.tokens, budget.structured).hash(&mut h);
    (&whole.text, &whole.json).hash(&mut h);
    h.finish()
}

/// Both renderings of one output, as the client receives them.
struct Rendered {
    text: Option<String>,
    json: String,
    value: Value,
}

impl Rendered {
    fn answer(self) -> Answer {
        Answer { value: self.value, text: self.text, meta: None }
    }
}

impl Rendered {
    /// Fits without counting: a BPE token is at least one byte.
    fn fits_by_length(&self, budget: Budget) -> bool {
        let text = self.text.as_ref().map_or(0, String::len);
        text <= budget.tokens && (self.text.is_some() && !budget.structured || self.json.len() <= budget.tokens)
    }

    /// The renderings' lengths in bytes: the text (or the JSON when there is none), the JSON.
    fn lengths(&self) -> [usize; 2] {
        [self.text.as_ref().map_or(self.json.len(), String::len), self.json.len()]
    }

    /// Which renderings the budget counts, as indexes into [`Rendered::lengths`].
    fn counted(&self, budget: Budget) -> &'static [usize] {
        match (&self.text, budget.structured) {
            (None, _) => &[1],
            (Some(_), false) => &[0],
            (Some(_), true) => &[0, 1],
        }
    }

    /// The tokens of each rendering the budget counts (`None`: not counted, its length shows it
    /// fits), or the index of one that does not fit. The longer is counted first.
    fn tokens(&self, budget: Budget) -> Result<[Option<usize>; 2], usize> {
        let lengths = self.lengths();
        let mut order = self.counted(budget).to_vec();
        order.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
        let mut counts = [None; 2];
        for i in order {
            if lengths[i] <= budget.tokens {
                continue;
            }
            let text = if i == 0 { self.text.as_deref().unwrap_or(&self.json) } else { &self.json };
            counts[i] = Some(crate::budget::count_up_to(text, budget.tokens).ok_or(i)?);
        }
        Ok(counts)
    }

    fn fits(&self, budget: Budget) -> bool {
        let fits = |s: &str| crate::budget::fits(s, budget.tokens);
        match self.text.as_deref() {
            // The text is the JSON.
            None => fits(&self.json),
            Some(t) if !budget.structured => fits(t),
            // The longer first: the likelier not to fit, and then the other is not counted.
            Some(t) if t.len() >= self.json.len() => fits(t) && fits(&self.json),
            Some(t) => fits(&self.json) && fits(t),
        }
    }
}

fn render<T: Tool + ?Sized>(output: &T::Output) -> Result<Rendered, String> {
    // The JSON counted is the JSON sent: the value's (its keys sorted).
    let value = serde_json::to_value(output).map_err(internal_serialize)?;
    let json = value.to_string();
    Ok(Rendered { text: T::render(output), json, value })
}

fn too_large<T: Tool + ?Sized>(budget: usize, how: &str) -> String {
    format!(
        "answer too large: {}'s answer would cost more than the answer budget of {budget} tokens; {how}{}",
        T::NAME,
        narrowing::<T>()
    )
}

/// The arguments that narrow or page this tool's answer, as the tool spells them: an error
/// that says what to do next names only arguments the tool has.
pub(crate) fn narrowing<T: Tool + ?Sized>() -> String {
    const NARROW: &[&str] = &[
        "limit",
        "maxDepth",
        "excludedPackages",
        "paths",
        "filePath",
        "startLine",
        "endLine",
        "severity",
        "scope",
        "targetKind",
    ];
    let schema = crate::catalog::schema_of::<T::Args>();
    let props = schema.get("properties").and_then(Value::as_object);
    let has = |name: &str| props.is_some_and(|p| p.contains_key(name));
    let mut args: Vec<String> = NARROW.iter().filter(|a| has(a)).map(|a| format!("`{a}`")).collect();
    if has("transitive") {
        args.push("`transitive: false`".to_owned());
    }
    let narrow = if args.is_empty() { String::new() } else { format!(" with {}", args.join(", ")) };
    let page = if has("offset") { " and page with `offset`" } else { "" };
    format!("{narrow}{page}")
}

/// A tool's answer: the structured value, its text (the value as JSON when `None`), and
/// `_meta` for the client.
#[derive(Debug, Clone)]
pub struct Answer {
    pub value: Value,
    pub text: Option<String>,
    pub meta: Option<Map<String, Value>>,
}

impl Answer {
    /// The text content: the rendering, or the structured value as JSON.
    pub fn text(&self) -> String {
        self.text.clone().unwrap_or_else(|| self.value.to_string())
    }
}

/// A registered tool with its type erased: metadata plus a call on JSON arguments.
pub struct ToolEntry {
    pub spec: ToolSpec,
    pub waits_for_index: bool,
    /// The tool's older argument spellings ([`Tool::ALIASES`]).
    pub aliases: &'static [(&'static str, &'static str)],
    pub needs: Needs,
    call: ErasedCall,
    start: fn(Map<String, Value>) -> Start,
    /// The whole output schema with its nested shapes (`spec` carries the shallow one that
    /// `tools/list` sends), for the checks that walk every name an answer can hold.
    #[cfg(test)]
    pub(crate) full_output_schema: fn() -> Map<String, Value>,
}

/// A tool's call with its types erased: JSON arguments in, an answer within the budget out.
type ErasedCall = fn(&Host, Map<String, Value>, Budget) -> Result<Answer, String>;

impl ToolEntry {
    /// What a call with `args` (as a client sends them) needs of a host opened for it alone
    /// ([`Tool::start`]); arguments the tool would refuse need nothing.
    pub fn start(&self, args: &Map<String, Value>) -> Start {
        (self.start)(args.clone())
    }

    /// Calls the tool on JSON arguments within the workspace's configured answer budget; the
    /// error is the tool-error text.
    pub fn call(&self, ws: &Host, args: Map<String, Value>) -> Result<Answer, String> {
        (self.call)(ws, args, ws.answer_budget())
    }

    /// Calls the tool within `budget`: a server fits each answer to the client that asked
    /// (a text-only client's answer is measured by its text alone).
    pub fn call_within(&self, ws: &Host, args: Map<String, Value>, budget: Budget) -> Result<Answer, String> {
        (self.call)(ws, args, budget)
    }
}

pub(crate) fn entry<T: Tool>() -> ToolEntry {
    let a = T::ANNOTATIONS;
    ToolEntry {
        spec: ToolSpec {
            name: T::NAME,
            title: T::TITLE,
            description: T::DESCRIPTION,
            input_schema: Schema::new(schema_of::<T::Args>),
            output_schema: Schema::new(output_schema_of::<T::Output>),
            read_only: a.read_only,
            destructive: a.destructive,
            idempotent: a.idempotent,
            open_world: a.open_world,
            group: T::GROUP,
        },
        waits_for_index: T::WAITS_FOR_INDEX,
        aliases: T::ALIASES,
        needs: T::SHOWN_WHEN,
        call: call_erased::<T>,
        start: start_erased::<T>,
        #[cfg(test)]
        full_output_schema: crate::catalog::full_output_schema_of::<T::Output>,
    }
}

/// The most characters one string argument may hold.
pub(crate) const MAX_ARG_STRING_CHARS: usize = 64 * 1024;
/// The most items one list argument may hold.
pub(crate) const MAX_ARG_LIST_ITEMS: usize = 10_000;
/// The deepest nesting of arrays and objects in the arguments.
pub(crate) const MAX_ARG_DEPTH: usize = 32;
/// The largest answer, in bytes of its text (about 250k tokens, ten times what clients pass
/// to a model): a bigger one is refused with how to narrow the call, never sent.
pub(crate) const MAX_ANSWER_BYTES: usize = 1024 * 1024;

/// Checks the arguments against the limits above, naming the argument and the limit.
pub(crate) fn check_limits(tool: &str, args: &Map<String, Value>) -> Result<(), String> {
    // Iterative, so no nesting can overflow the stack before the depth check.
    let mut stack: Vec<(String, &Value, usize)> = args.iter().map(|(k, v)| (k.clone(), v, 1)).collect();
    while let Some((path, v, depth)) = stack.pop() {
        if depth > MAX_ARG_DEPTH {
            return Err(format!("invalid arguments for {tool}: `{path}` nests deeper than {MAX_ARG_DEPTH} levels"));
        }
        match v {
            Value::String(s) if s.len() > MAX_ARG_STRING_CHARS && s.chars().count() > MAX_ARG_STRING_CHARS => {
                return Err(format!(
                    "invalid arguments for {tool}: `{path}` is {} characters, over the limit of {MAX_ARG_STRING_CHARS}",
                    s.chars().count()
                ));
            }
            Value::Array(items) => {
                if items.len() > MAX_ARG_LIST_ITEMS {
                    return Err(format!(
                        "invalid arguments for {tool}: `{path}` has {} items, over the limit of {MAX_ARG_LIST_ITEMS}",
                        items.len()
                    ));
                }
                stack.extend(items.iter().enumerate().map(|(i, x)| (format!("{path}[{i}]"), x, depth + 1)));
            }
            Value::Object(m) => stack.extend(m.iter().map(|(k, x)| (format!("{path}.{k}"), x, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// The longest tool error, in characters; a longer one is cut (it would only echo its input).
pub const MAX_ERROR_CHARS: usize = 8 * 1024;

/// The long strings (names and values) of the arguments an error might quote, longest first,
/// at most 64 of them.
fn long_strings(args: &Map<String, Value>) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut stack: Vec<(&str, &Value, usize)> = args.iter().map(|(k, v)| (k.as_str(), v, 1)).collect();
    while let Some((key, v, depth)) = stack.pop() {
        if key.len() > mji_fs::CLIP_CHARS {
            out.push(key);
        }
        match v {
            Value::String(s) if s.len() > mji_fs::CLIP_CHARS => out.push(s),
            Value::Array(items) if depth <= MAX_ARG_DEPTH => stack.extend(items.iter().map(|x| ("", x, depth + 1))),
            Value::Object(m) if depth <= MAX_ARG_DEPTH => {
                stack.extend(m.iter().map(|(k, x)| (k.as_str(), x, depth + 1)))
            }
            _ => {}
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out.truncate(64);
    out
}

/// An error message that quotes at most a short prefix ([`mji_fs::clip`]) of each long string
/// among `long` (as sent, trimmed, or escaped as serde quotes it), and is at most
/// [`MAX_ERROR_CHARS`] long: a call is never answered with what it sent.
pub fn unecho(message: String, long: &[&str]) -> String {
    let mut message = message;
    for v in long {
        let escaped = format!("{v:?}");
        let escaped = &escaped[1..escaped.len() - 1];
        for form in [*v, v.trim(), escaped] {
            if form.chars().count() > mji_fs::CLIP_CHARS && message.contains(form) {
                message = message.replace(form, &mji_fs::clip(form));
            }
        }
    }
    match mji_fs::clip_to(&message, MAX_ERROR_CHARS) {
        std::borrow::Cow::Owned(cut) => cut,
        std::borrow::Cow::Borrowed(_) => message,
    }
}

fn call_erased<T: Tool>(ws: &Host, args: Map<String, Value>, budget: Budget) -> Result<Answer, String> {
    let long: Vec<String> = long_strings(&args).into_iter().map(str::to_owned).collect();
    let long: Vec<&str> = long.iter().map(String::as_str).collect();
    call_checked::<T>(ws, args, budget).map_err(|e| unecho(e, &long))
}

fn start_erased<T: Tool>(args: Map<String, Value>) -> Start {
    let parsed = normalize(T::NAME, T::ALIASES, args)
        .ok()
        .and_then(|args| serde_json::from_value::<T::Args>(Value::Object(args)).ok());
    parsed.map_or(Start::Nothing, |a| T::start(&a))
}

fn call_checked<T: Tool>(ws: &Host, args: Map<String, Value>, budget: Budget) -> Result<Answer, String> {
    check_limits(T::NAME, &args)?;
    let args = normalize(T::NAME, T::ALIASES, args)?;
    let args: T::Args = serde_json::from_value(Value::Object(args))
        .map_err(|e| format!("invalid arguments for {}: {e}; see the tool's inputSchema", T::NAME))?;
    let answer = T::answer(ws, args, budget);
    // Work stopped by a cancellation is partial: never pass it off as an answer.
    if Cancel::current().is_cancelled() {
        return Err(format!("cancelled: {} stopped before it finished", T::NAME));
    }
    let mut answer = answer?;
    // Serialized once here: sent as the text content (the budget was checked by `fit`).
    let text = answer.text.take().unwrap_or_else(|| answer.value.to_string());
    if text.len() > MAX_ANSWER_BYTES {
        return Err(format!(
            "answer too large: {} would answer {} bytes, over the limit of {MAX_ANSWER_BYTES}; narrow the call{}",
            T::NAME,
            text.len(),
            narrowing::<T>()
        ));
    }
    answer.text = Some(text);
    Ok(answer)
}

/// The arguments in the one spelling `tools/list` shows, so every spelling a tool ever took
/// keeps working (issue 32, item 9): options nested under `options` (the spec's first tools
/// nested them) are lifted to the top, where every tool takes them; an old name in
/// `aliases` becomes its new one; then every name must be one the tool's schema has, so a
/// typo is an error that lists what the tool takes, never an argument silently ignored.
pub(crate) fn normalize(
    tool: &str,
    aliases: &[(&str, &str)],
    mut args: Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let entry = find(tool);
    let props = entry.and_then(|e| e.spec.input_schema.get("properties")).and_then(Value::as_object);
    let takes = |name: &str| props.is_none_or(|p| p.contains_key(name));
    if !takes("options")
        && matches!(args.get("options"), Some(Value::Object(_)))
        && let Some(Value::Object(nested)) = args.remove("options")
    {
        for (k, v) in nested {
            if args.contains_key(&k) {
                return Err(format!("invalid arguments for {tool}: `{k}` is given twice, at the top and in `options`"));
            }
            args.insert(k, v);
        }
    }
    for (old, new) in aliases {
        if let Some(v) = args.remove(*old) {
            if args.contains_key(*new) {
                return Err(format!(
                    "invalid arguments for {tool}: `{old}` and `{new}` are one argument; give `{new}`"
                ));
            }
            args.insert((*new).to_owned(), v);
        }
    }
    if let Some(props) = props
        && let Some(unknown) = args.keys().find(|k| !props.contains_key(k.as_str()))
    {
        let mut names: Vec<&str> = props.keys().map(String::as_str).collect();
        names.sort_unstable();
        return Err(format!(
            "invalid arguments for {tool}: unknown argument `{}`; it takes {}",
            mji_fs::clip(unknown),
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(args)
}

/// The message for a result that could not be serialized (a bug, never the caller's fault).
pub(crate) fn internal_serialize(e: serde_json::Error) -> String {
    format!("internal error: serializing the result: {e}")
}

/// Every registered tool, built once (schemas are generated on first use).
pub fn registry() -> &'static [ToolEntry] {
    static REGISTRY: OnceLock<Vec<ToolEntry>> = OnceLock::new();
    REGISTRY.get_or_init(|| TOOLS.iter().map(|make| make()).collect())
}

/// The registered tool of that name.
pub fn find(name: &str) -> Option<&'static ToolEntry> {
    registry().iter().find(|e| e.spec.name == name)
}

/// The tools the workspace's configuration enables (its `tools` groups): these may be called.
pub fn enabled(ws: &Host) -> impl Iterator<Item = &'static ToolEntry> + '_ {
    registry().iter().filter(|e| ws.config().tool_groups.iter().any(|g| g == e.spec.group))
}

/// The enabled tools `tools/list` shows: those whose [`Tool::SHOWN_WHEN`] the workspace meets
/// (each need judged once per listing), so a client does not pay for tools it cannot use.
/// They stay callable and then say what is missing.
pub fn listed(ws: &Host) -> impl Iterator<Item = &'static ToolEntry> + '_ {
    let editor = OnceLock::new();
    let system = OnceLock::new();
    let system = move || *system.get_or_init(|| mji_build::project::system_at(&ws.roots().paths()[0]));
    enabled(ws).filter(move |e| match e.needs {
        Needs::Nothing => true,
        Needs::Editor => *editor.get_or_init(|| ws.editor().reachable()),
        Needs::MavenBuild => system() == mji_build::project::BuildSystem::Maven,
        Needs::GradleBuild => system() == mji_build::project::BuildSystem::Gradle,
    })
}

/// Calls a tool by name with JSON arguments; the error is the tool-error text.
pub fn dispatch(ws: &Host, name: &str, args: Map<String, Value>) -> Result<Answer, String> {
    dispatch_within(ws, name, args, ws.answer_budget())
}

/// [`dispatch`] within `budget` (see [`ToolEntry::call_within`]).
pub fn dispatch_within(ws: &Host, name: &str, args: Map<String, Value>, budget: Budget) -> Result<Answer, String> {
    match find(name) {
        Some(e) => e.call_within(ws, args, budget),
        None => Err(format!("unknown tool {}", mji_fs::clip(name))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool whose answer is a list of words, paged by the budget.
    struct Words;

    #[derive(Clone, serde::Serialize, serde::Deserialize, JsonSchema)]
    struct WordsArgs {
        offset: usize,
    }

    #[derive(Clone, serde::Serialize, JsonSchema)]
    struct WordsOutput {
        words: Vec<String>,
        next_offset: Option<usize>,
    }

    impl Tool for Words {
        const NAME: &'static str = "words";
        const TITLE: &'static str = "Words";
        const DESCRIPTION: &'static str = "Words.";
        type Args = WordsArgs;
        type Output = WordsOutput;

        fn call(_ws: &Host, _args: Self::Args) -> Result<Self::Output, ToolError> {
            unreachable!("the test calls fit")
        }

        fn render(output: &Self::Output) -> Option<String> {
            Some(output.words.join(" "))
        }

        fn page_len(output: &Self::Output) -> Option<usize> {
            Some(output.words.len())
        }

        fn cut(output: &mut Self::Output, args: &Self::Args, n: usize) {
            output.words.truncate(n);
            output.next_offset = Some(args.offset + n);
        }
    }

    /// The most words that fit, found by counting every cut (all of them: the whole answer).
    fn most_that_fit(output: &WordsOutput, args: &WordsArgs, budget: Budget) -> usize {
        (1..=output.words.len())
            .rev()
            .find(|&n| {
                let mut cut = output.clone();
                Words::cut(&mut cut, args, n);
                let json = serde_json::to_value(&cut).expect("json").to_string();
                crate::budget::fits(&cut.words.join(" "), budget.tokens)
                    && (!budget.structured || crate::budget::fits(&json, budget.tokens))
            })
            .expect("one fits")
    }

    /// A paged answer keeps the most items that fit, in both renderings or the text alone;
    /// asked again, it is the same page (then from the pages kept), and other arguments or
    /// another budget are fitted afresh.
    #[test]
    fn pages_keep_the_most_that_fit_and_are_kept_for_the_next_call() {
        let output = WordsOutput {
            words: (0..400).map(|i| format!("word{i} \u{00e9}t\u{00e9}{}", "x".repeat(i % 7))).collect(),
            next_offset: None,
        };
        for (offset, tokens, structured) in [(0, 300, true), (0, 300, false), (9_990, 300, true), (0, 700, true)] {
            let (args, budget) = (WordsArgs { offset }, Budget { tokens, structured });
            let want = most_that_fit(&output, &args, budget);
            let first = fit::<Words>(output.clone(), &args, budget).expect("fits");
            assert_eq!(first.value["words"].as_array().map(Vec::len), Some(want), "{offset} {tokens} {structured}");
            assert_eq!(first.value["next_offset"], offset + want);
            let key = page_key::<Words>(&render::<Words>(&output).expect("render"), &args, budget);
            assert_eq!(kept_pages().lock().expect("lock").get(&key), Some(&Some(want)));
            let again = fit::<Words>(output.clone(), &args, budget).expect("fits");
            assert_eq!((again.value, again.text), (first.value, first.text));
        }
        // Many budgets, both kinds of client: the interpolated search finds what counting every
        // cut finds.
        for tokens in [40, 95, 160, 333, 512, 1_000, 1_700] {
            for structured in [true, false] {
                let (args, budget) = (WordsArgs { offset: 7 }, Budget { tokens, structured });
                let want = most_that_fit(&output, &args, budget);
                let got = fit::<Words>(output.clone(), &args, budget).expect("fits");
                assert_eq!(got.value["words"].as_array().map(Vec::len), Some(want), "{tokens} {structured}");
            }
        }
        // A whole answer that fits is sent whole.
        let small = WordsOutput { words: output.words[..3].to_vec(), next_offset: None };
        let a = fit::<Words>(small, &WordsArgs { offset: 0 }, Budget { tokens: 300, structured: true }).expect("fits");
        assert_eq!(a.value["next_offset"], Value::Null);
    }

    #[test]
    fn an_error_quotes_a_short_prefix_of_each_long_argument_and_is_capped() {
        let long = format!("  {}\"x\n  ", "Q".repeat(1000));
        let mut args = Map::new();
        args.insert("pattern".to_owned(), Value::String(long.clone()));
        args.insert("K".repeat(200), Value::from(1));
        let keys = long_strings(&args);
        assert_eq!(keys.len(), 2);
        let msg = format!("no type `{}`; unknown field `{}`; serde: {:?}", long.trim(), "K".repeat(200), long);
        let out = unecho(msg, &keys);
        assert!(out.len() < 700 && !out.contains(&"Q".repeat(100)) && !out.contains(&"K".repeat(100)), "{out}");
        assert!(out.contains("characters)"), "{out}");
        let huge = "x".repeat(MAX_ERROR_CHARS * 2);
        assert!(unecho(huge, &[]).chars().count() < MAX_ERROR_CHARS + 30);
    }
}
