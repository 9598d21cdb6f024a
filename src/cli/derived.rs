//! The query commands' flags, derived from their tools' input schemas: one source for each
//! argument's name, default, enum values and help. A command is a [`Cmd`]: its tool and a
//! small table of [`Arg`]s saying only what the schema cannot (which properties are
//! positional, a short alias, a flag spelled otherwise, the command line's own flags);
//! [`Query`] builds the clap arguments from it when clap builds the command, and turns what
//! was given back into the tool's JSON arguments, untouched but for paths ([`super::query::file_arg`]).

use std::marker::PhantomData;

use clap::{ArgMatches, FromArgMatches};
use serde_json::{Map, Value};

use super::WorkspaceFlags;
use super::query::Output;

/// One query command: the tool it calls and its arguments.
#[derive(Debug)]
pub struct Cmd {
    pub tool: &'static str,
    pub args: &'static [Arg],
    /// Arguments the command always sends (`find`: the workspace's symbols only).
    pub fixed: &'static [(&'static str, &'static str)],
}

/// How a value is written on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// `--name` (`None`: the property's name in kebab case).
    Flag(Option<&'static str>),
    /// A positional, with its value name.
    Positional(&'static str),
}

/// One argument of a command: a property of the tool's input schema (its type, default, enum
/// values and help are the schema's), or with [`Arg::own`] one the command line alone has.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    /// The tool's property, or the id of an argument of the command line's own.
    pub prop: &'static str,
    place: Place,
    short: Option<char>,
    /// Repeatable values may also be comma-separated.
    comma: bool,
    /// Values are file paths: relative to the current directory ([`super::query::file_arg`]).
    pub path: bool,
    required: bool,
    /// Required unless this other argument is given (and not both).
    unless: Option<&'static str>,
    hidden: bool,
    /// Not sent as it is: the command's code reads it (a target that may be a position, …).
    pub special: bool,
    /// The command line's own help, where the value means more here than in the tool (a
    /// position as a target), or where the argument is the command line's own.
    help: Option<&'static str>,
    /// The command line's own argument: its shape, as the schema would say it.
    own: Option<Own>,
}

/// The shape of an argument the tool's schema does not have.
#[derive(Debug, Clone, Copy)]
pub enum Own {
    /// A yes/no flag.
    Switch,
    /// One value, with its value name.
    Value(&'static str),
    /// Repeatable, with its value name.
    Many(&'static str),
}

impl Arg {
    const fn new(prop: &'static str, place: Place) -> Arg {
        Arg {
            prop,
            place,
            short: None,
            comma: false,
            path: false,
            required: false,
            unless: None,
            hidden: false,
            special: false,
            help: None,
            own: None,
        }
    }

    /// `--prop-in-kebab-case`.
    pub const fn flag(prop: &'static str) -> Arg {
        Arg::new(prop, Place::Flag(None))
    }

    /// `--long`, setting `prop`.
    pub const fn long(prop: &'static str, long: &'static str) -> Arg {
        Arg::new(prop, Place::Flag(Some(long)))
    }

    /// A positional argument shown as `value_name`.
    pub const fn positional(prop: &'static str, value_name: &'static str) -> Arg {
        Arg::new(prop, Place::Positional(value_name))
    }

    /// An argument of the command line's own (no property of the tool), read by the command.
    pub const fn own(mut self, shape: Own, help: &'static str) -> Arg {
        self.own = Some(shape);
        self.help = Some(help);
        self.special = true;
        self
    }

    pub const fn short(mut self, c: char) -> Arg {
        self.short = Some(c);
        self
    }

    pub const fn comma(mut self) -> Arg {
        self.comma = true;
        self
    }

    pub const fn path(mut self) -> Arg {
        self.path = true;
        self
    }

    pub const fn required(mut self) -> Arg {
        self.required = true;
        self
    }

    pub const fn required_unless(mut self, other: &'static str) -> Arg {
        self.unless = Some(other);
        self
    }

    pub const fn hidden(mut self) -> Arg {
        self.hidden = true;
        self
    }

    pub const fn special(mut self) -> Arg {
        self.special = true;
        self
    }

    pub const fn help(mut self, help: &'static str) -> Arg {
        self.help = Some(help);
        self
    }
}

/// A query command's parsed arguments: the matches, the output flag and the workspace flags.
pub struct Query<S> {
    matches: ArgMatches,
    pub out: Output,
    pub ws: WorkspaceFlags,
    spec: PhantomData<S>,
}

impl<S> std::fmt::Debug for Query<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query").field("matches", &self.matches).field("out", &self.out).finish_non_exhaustive()
    }
}

/// The command a marker type of [`super::query`] stands for.
pub trait Spec {
    const CMD: &'static Cmd;
}

/// A property of `tool`'s input schema.
fn property(tool: &str, prop: &str) -> Option<&'static Map<String, Value>> {
    let schema = &crate::tools::registry::find(tool)?.spec.input_schema;
    schema.get("properties")?.get(prop)?.as_object()
}

/// What a property's value is on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Switch,
    /// A yes/no value (a default of true).
    Bool,
    Number,
    Text,
    List,
}

fn kind_of(a: &Arg, prop: Option<&Map<String, Value>>) -> Kind {
    match (a.own, prop.and_then(|p| p.get("type")).and_then(Value::as_str)) {
        (Some(Own::Switch), _) => Kind::Switch,
        (Some(Own::Value(_)), _) => Kind::Text,
        (Some(Own::Many(_)), _) => Kind::List,
        (None, Some("boolean")) if prop.and_then(|p| p.get("default")) == Some(&Value::Bool(true)) => Kind::Bool,
        (None, Some("boolean")) => Kind::Switch,
        (None, Some("integer")) => Kind::Number,
        (None, Some("array")) => Kind::List,
        _ => Kind::Text,
    }
}

/// `includeLineNumbers` as `include-line-numbers`.
fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The values a property takes (an array's items'), its default first, taken in any case and
/// sent as the tool spells them.
fn choices(prop: &Map<String, Value>) -> Option<clap::builder::ValueParser> {
    let items = prop.get("items").and_then(Value::as_object).unwrap_or(prop);
    let mut values: Vec<String> =
        items.get("enum")?.as_array()?.iter().filter_map(Value::as_str).map(str::to_owned).collect();
    let default = prop.get("default").and_then(Value::as_str);
    if let Some(i) = default.and_then(|d| values.iter().position(|v| v == d)) {
        let first = values.remove(i);
        values.insert(0, first);
    }
    let spelled = values.clone();
    let spell = move |given: String| spelled.iter().find(|v| v.eq_ignore_ascii_case(&given)).cloned().unwrap_or(given);
    Some(clap::builder::TypedValueParser::map(clap::builder::PossibleValuesParser::new(values), spell).into())
}

/// The clap argument of `a`, from the tool's schema.
fn clap_arg(tool: &str, a: &Arg) -> clap::Arg {
    let prop = property(tool, a.prop);
    let kind = kind_of(a, prop);
    let mut arg = clap::Arg::new(a.prop).required(a.required).hide(a.hidden);
    if let Some(other) = a.unless {
        arg = arg.required_unless_present(other).conflicts_with(other);
    }
    let (value_name, positional) = match a.place {
        Place::Positional(name) => (name.to_owned(), true),
        Place::Flag(long) => {
            let long = long.map_or_else(|| kebab(a.prop), str::to_owned);
            // `-D KEY=VALUE`: a short flag alone, as Maven spells it.
            if !long.is_empty() {
                arg = arg.long(long.clone());
            }
            let name = match a.own {
                Some(Own::Value(v) | Own::Many(v)) => v.to_owned(),
                _ if long.is_empty() => kebab(a.prop).to_uppercase(),
                _ => long.replace('-', "_").to_uppercase(),
            };
            (name, false)
        }
    };
    if let Some(c) = a.short {
        arg = arg.short(c);
    }
    if let Some(help) = a.help.or_else(|| prop.and_then(|p| p.get("description")).and_then(Value::as_str)) {
        arg = arg.help(help);
    }
    arg = match kind {
        Kind::Switch => arg.action(clap::ArgAction::SetTrue),
        Kind::Bool => arg.action(clap::ArgAction::Set).value_parser(clap::value_parser!(bool)).value_name("BOOL"),
        Kind::Number => {
            arg.value_parser(clap::value_parser!(u32)).value_name(if positional { value_name } else { "N".to_owned() })
        }
        Kind::Text => arg.value_name(value_name),
        Kind::List => {
            let arg = arg.action(clap::ArgAction::Append).value_name(value_name);
            if a.comma { arg.value_delimiter(',') } else { arg }
        }
    };
    if let Some(p) = choices_of(prop) {
        arg = arg.value_parser(p).ignore_case(true);
    }
    match prop.and_then(|p| p.get("default")) {
        Some(Value::String(s)) => arg.default_value(s.clone()),
        Some(d @ (Value::Number(_) | Value::Bool(_))) => arg.default_value(d.to_string()),
        _ => arg,
    }
}

fn choices_of(prop: Option<&Map<String, Value>>) -> Option<clap::builder::ValueParser> {
    choices(prop?)
}

impl<S: Spec> clap::Args for Query<S> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let spec = S::CMD;
        let cmd = cmd.args(spec.args.iter().map(|a| clap_arg(spec.tool, a)));
        WorkspaceFlags::augment_args(Output::augment_args(cmd))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl<S> FromArgMatches for Query<S> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Query {
            matches: m.clone(),
            out: Output::from_arg_matches(m)?,
            ws: WorkspaceFlags::from_arg_matches(m)?,
            spec: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<S: Spec> Query<S> {
    /// The tool the command calls.
    pub fn tool(&self) -> &'static str {
        S::CMD.tool
    }

    /// The tool's arguments: every argument given (or defaulted by the schema) as the tool
    /// names it, paths made relative to the roots' view by `path`; not the special ones.
    pub fn arguments(&self, path: &dyn Fn(&str) -> String) -> Map<String, Value> {
        let mut out = Map::new();
        for (k, v) in S::CMD.fixed {
            out.insert((*k).to_owned(), Value::from(*v));
        }
        for a in S::CMD.args.iter().filter(|a| !a.special) {
            if let Some(v) = self.value(a, path) {
                out.insert(a.prop.to_owned(), v);
            }
        }
        out
    }

    /// The value of argument `id` as the tool would take it (`None`: not given).
    pub fn get(&self, id: &str, path: &dyn Fn(&str) -> String) -> Option<Value> {
        S::CMD.args.iter().find(|a| a.prop == id).and_then(|a| self.value(a, path))
    }

    /// The strings given for argument `id` (none: an empty list).
    pub fn strings(&self, id: &str) -> Vec<String> {
        let given = self.matches.try_get_many::<String>(id).ok().flatten();
        given.into_iter().flatten().cloned().collect()
    }

    /// Whether the switch `id` was given.
    pub fn switch(&self, id: &str) -> bool {
        self.matches.try_get_one::<bool>(id).ok().flatten() == Some(&true)
    }

    fn value(&self, a: &Arg, path: &dyn Fn(&str) -> String) -> Option<Value> {
        let m = &self.matches;
        let text = |s: &String| if a.path { path(s) } else { s.clone() };
        match kind_of(a, property(S::CMD.tool, a.prop)) {
            Kind::Switch => m.get_flag(a.prop).then_some(Value::Bool(true)),
            Kind::Bool => m.get_one::<bool>(a.prop).map(|b| Value::Bool(*b)),
            Kind::Number => m.get_one::<u32>(a.prop).map(|n| Value::from(*n)),
            Kind::Text => m.get_one::<String>(a.prop).map(|s| Value::from(text(s))),
            Kind::List => {
                let items: Vec<Value> = m.get_many::<String>(a.prop)?.map(|s| Value::from(text(s))).collect();
                (!items.is_empty()).then_some(Value::Array(items))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn a_property_s_name_in_kebab_case() {
        assert_eq!(kebab("includeLineNumbers"), "include-line-numbers");
        assert_eq!(kebab("limit"), "limit");
    }

    /// Every argument of every query command is a property of its tool's schema or one of the
    /// command line's own, and shows the schema's default: a renamed or dropped property fails here.
    #[test]
    fn every_argument_is_its_tool_s_property_with_the_tool_s_default() {
        let cli = crate::cli::Cli::command();
        let mut seen = 0;
        for sub in cli.get_subcommands() {
            let Some(cmd) = crate::cli::query::spec_of(sub.get_name()) else { continue };
            for a in cmd.args.iter().filter(|a| a.own.is_none()) {
                let prop = property(cmd.tool, a.prop)
                    .unwrap_or_else(|| panic!("{}: {} has no {}", sub.get_name(), cmd.tool, a.prop));
                let arg = sub.get_arguments().find(|x| x.get_id() == a.prop).unwrap_or_else(|| panic!("no {}", a.prop));
                let shown: String = arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
                let declared = match prop.get("default") {
                    Some(Value::String(s)) => s.clone(),
                    Some(d) => d.to_string(),
                    None => String::new(),
                };
                assert_eq!(shown, declared, "{} --{}", sub.get_name(), a.prop);
                seen += 1;
            }
        }
        assert!(seen > 50, "{seen}");
    }

    /// Enum values are the tool's, taken in any case and sent as the tool spells them; the
    /// tool's default is listed first.
    #[test]
    fn enum_values_are_the_tool_s_taken_in_any_case_and_sent_as_the_tool_spells_them() {
        let parse = |args: &[&str]| crate::cli::Cli::command().try_get_matches_from(args);
        let m = parse(&["x", "problems", "--severity", "error,WARNING"]).expect("parses");
        let (_, sub) = m.subcommand().expect("a command");
        let given: Vec<&String> = sub.get_many::<String>("severityFilter").expect("given").collect();
        assert_eq!(given, ["Error", "Warning"]);
        let err = parse(&["x", "types", "Color", "--kind", "colour"]).expect_err("refused");
        assert!(
            err.to_string().contains("[possible values: any, class, interface, enum, record, annotation]"),
            "{err}"
        );
        assert!(parse(&["x", "problems", "--severity", "fatal"]).is_err());
    }
}
