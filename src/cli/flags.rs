//! The flags every command shares: the configuration keys (`--root`, `--no-cache`, …) and
//! `-v`, `-D KEY=VALUE`, and `config`.

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
