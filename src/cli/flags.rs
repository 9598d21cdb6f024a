//! The flags every command shares: the configuration keys (`--root`, `--no-cache`, …) and
//! `-v`, the enum values the query commands take (any case), `-D KEY=VALUE`, and `config`.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;

use crate::config::{Config, Flags};

/// The help heading of the configuration flags.
const HEADING: &str = "Configuration";

/// Settings shared by every command that opens a workspace: a flag for each configuration key
/// (`mji_config::KEYS`; see `config --reference`), and `-v`. A command's `--help` shows its
/// own options, `--root` and `-v`; the other keys are accepted everywhere but listed once, by
/// `config --reference`.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceFlags(pub(crate) Flags);

/// The configuration keys a command's `--help` shows (the rest: `config --reference`).
const SHOWN_KEYS: &[&str] = &["roots"];

impl clap::Args for WorkspaceFlags {
    /// The flags are added when clap builds the command, which it does only for the command
    /// being run (and for every command for help and completions): adding them to each of
    /// the ~30 commands of the tree at every start was a twentieth of a `range` command's
    /// time (issue 38). They are the last arguments of every command, so the help's order is
    /// the same.
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| {
            cmd.args(key_args().iter().cloned()).after_help(
                "Every configuration key is also a flag (--no-cache, --trust, --answer-tokens N, …): \
                 `mcp-java-index config --reference` lists them.",
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The configuration keys' flags and `-v`, built once per process and cloned into each
/// command: every command of the tree takes them, and formatting each key's flag and help
/// for each command was a share of every command's start (issue 38).
fn key_args() -> &'static [clap::Arg] {
    static ARGS: std::sync::OnceLock<Vec<clap::Arg>> = std::sync::OnceLock::new();
    ARGS.get_or_init(|| {
        let verbose = clap::Arg::new("verbose")
            .short('v')
            .long("verbose")
            .action(clap::ArgAction::Count)
            .help("More logs on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides");
        let args = crate::config::KEYS.iter().map(|key| {
            let flag = key.flag();
            let arg = clap::Arg::new(key.name()).long(flag.long).help(flag.help);
            let arg = arg.hide(!SHOWN_KEYS.contains(&key.name()));
            match flag.value_name {
                None => arg.action(clap::ArgAction::SetTrue),
                Some(v) if flag.repeatable => arg.value_name(v).action(clap::ArgAction::Append),
                Some(v) => arg.value_name(v),
            }
        });
        args.chain([verbose]).map(|a| a.global(true).help_heading(HEADING)).collect()
    })
}

impl clap::FromArgMatches for WorkspaceFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = Self::default();
        flags.update_from_arg_matches(m)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        let level = match m.get_count("verbose") {
            0 => None,
            1 => Some("info"),
            2 => Some("debug"),
            _ => Some("trace"),
        };
        if let Some(level) = level {
            self.0.give("log_level", vec![level.to_owned()]);
        }
        for key in crate::config::KEYS {
            if key.flag().value_name.is_none() {
                if m.get_flag(key.name()) {
                    self.0.give(key.name(), vec![key.switch_value()]);
                }
            } else if let Some(values) = m.get_many::<String>(key.name()) {
                self.0.give(key.name(), values.cloned().collect());
            }
        }
        Ok(())
    }
}

impl WorkspaceFlags {
    pub(crate) fn config(&self) -> anyhow::Result<Config> {
        let c = Config::load(&self.0, &|k| std::env::var(k).ok())?;
        // Settings the repository tried to set but may not: said on stderr, never stdout.
        for w in &c.ignored {
            eprintln!("warning: {w}");
        }
        Ok(c)
    }
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Print the reference table of every key (README's) instead
    #[arg(long)]
    pub reference: bool,
    #[command(flatten)]
    pub ws: WorkspaceFlags,
}

/// `config`: the effective configuration, each key spelled as the configuration file spells
/// it (`log_level`), with its value and where it came from; `--reference`: every key.
pub fn config(a: ConfigArgs) -> anyhow::Result<ExitCode> {
    if a.reference {
        write!(std::io::stdout().lock(), "{}", crate::config::reference())?;
    } else {
        super::print_json(&a.ws.config()?.report(), false)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `-D KEY=VALUE` flags as the tools' `properties` object.
pub(crate) fn defines(d: &[String]) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    d.iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_owned(), serde_json::Value::from(v)))
                .ok_or_else(|| anyhow::anyhow!("-D {kv}: give KEY=VALUE"))
        })
        .collect()
}

/// The values a tool takes for its argument `name`, read from its input schema (an array
/// argument: its items'), its default first: a command's flag offers, checks and completes
/// the tool's own values, taken in any case and sent as the tool spells them.
pub(crate) fn tool_values(tool: &str, name: &str) -> impl clap::builder::TypedValueParser<Value = String> {
    let prop = crate::tools::registry::find(tool)
        .and_then(|e| e.spec.input_schema.get("properties"))
        .and_then(|p| p.get(name));
    let default = prop.and_then(|p| p.get("default")).and_then(serde_json::Value::as_str);
    let items = prop.map(|p| p.get("items").unwrap_or(p));
    let listed = items.and_then(|p| p.get("enum")).and_then(serde_json::Value::as_array);
    let mut values: Vec<String> =
        listed.into_iter().flatten().filter_map(serde_json::Value::as_str).map(str::to_owned).collect();
    if let Some(i) = default.and_then(|d| values.iter().position(|v| v == d)) {
        let first = values.remove(i);
        values.insert(0, first);
    }
    let spelled = values.clone();
    let spell = move |given: String| spelled.iter().find(|v| v.eq_ignore_ascii_case(&given)).cloned().unwrap_or(given);
    clap::builder::TypedValueParser::map(clap::builder::PossibleValuesParser::new(values), spell)
}

/// The default the tool `tool` gives its argument `name`, read from its input schema: a
/// command's flag shows and sends the tool's own (0 where the tool has none, which the
/// test below refuses).
pub(crate) fn tool_default(tool: &str, name: &str) -> u32 {
    schema_default(tool, name).and_then(|v| v.as_u64()).map_or(0, |n| n.min(u64::from(u32::MAX)) as u32)
}

/// [`tool_default`] of a yes/no argument.
pub(crate) fn tool_default_bool(tool: &str, name: &str) -> bool {
    schema_default(tool, name).and_then(serde_json::Value::as_bool).unwrap_or(false)
}

fn schema_default(tool: &str, name: &str) -> Option<&'static serde_json::Value> {
    let schema = &crate::tools::registry::find(tool)?.spec.input_schema;
    schema.get("properties")?.get(name)?.get("default")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Probe {
        #[arg(long, ignore_case = true, value_parser = tool_values("get_problems", "severityFilter"))]
        severity: String,
        #[arg(long, ignore_case = true, value_parser = tool_values("find_type", "kind"))]
        kind: String,
    }

    /// Enum values are the tool's, taken in any case and sent as the tool spells them; the
    /// tool's default is listed first.
    #[test]
    fn enum_values_are_the_tool_s_taken_in_any_case_and_sent_as_the_tool_spells_them() {
        let p = Probe::try_parse_from(["x", "--severity", "error", "--kind", "INTERFACE"]).expect("parses");
        assert_eq!((p.severity.as_str(), p.kind.as_str()), ("Error", "interface"));
        let err = Probe::try_parse_from(["x", "--severity", "Error", "--kind", "colour"]).expect_err("refused");
        assert!(
            err.to_string().contains("[possible values: any, class, interface, enum, record, annotation]"),
            "{err}"
        );
        assert!(Probe::try_parse_from(["x", "--severity", "fatal", "--kind", "class"]).is_err());
    }

    /// A query command shows and sends its tool's defaults, as the tool's schema declares them.
    #[test]
    fn the_commands_defaults_are_their_tools() {
        use clap::CommandFactory;
        let cli = crate::cli::Cli::command();
        let shown = |cmd: &str, arg: &str| -> String {
            let sub = cli.find_subcommand(cmd).unwrap_or_else(|| panic!("no command {cmd}"));
            let a = sub.get_arguments().find(|a| a.get_id() == arg).unwrap_or_else(|| panic!("{cmd}: no {arg}"));
            a.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect()
        };
        for (cmd, arg, tool, name) in [
            ("refs", "limit", "find_references", "limit"),
            ("hierarchy", "depth", "type_hierarchy", "depth"),
            ("deps", "max_depth", "analyze_type_dependencies", "maxDepth"),
            ("range", "max_chars", "java_read_range", "maxChars"),
            ("javadoc", "include_line_numbers", "java_read_javadoc", "includeLineNumbers"),
        ] {
            let declared = schema_default(tool, name).map(|v| v.to_string()).unwrap_or_default();
            assert_eq!(shown(cmd, arg), declared, "{cmd} --{arg}");
        }
    }
}
