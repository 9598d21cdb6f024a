//! `setup CLIENT`: registers the server with an MCP client for one project by writing that
//! client's project configuration file, merged into what is there (other servers and keys
//! kept in their order), or prints it (`--print`), or removes our entry (`--uninstall`).
//! An entry of the same name that is not ours is never replaced or removed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Deserialize;
use serde_json::value::RawValue;

/// The MCP clients `setup` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Client {
    /// Claude Code: `.mcp.json` at the project root (its project scope, what `claude mcp add
    /// --scope project` writes).
    ClaudeCode,
    /// VS Code: `.vscode/mcp.json`.
    Vscode,
    /// Cursor: `.cursor/mcp.json`.
    Cursor,
    /// Codex: `.codex/config.toml` (read in trusted projects).
    Codex,
    /// Gemini CLI: `.gemini/settings.json`.
    Gemini,
    /// The language server (`lsp`) for Claude Code's LSP tool: a plugin whose `lspServers`
    /// runs it on `.java` files, in a local marketplace under `.claude/mcp-java-index-lsp/`
    /// (then `/plugin marketplace add ./.claude/mcp-java-index-lsp` and `/plugin install
    /// mcp-java-index-lsp@mcp-java-index` in Claude Code).
    ClaudeCodeLsp,
    /// The language server for Neovim 0.11+: a `vim.lsp.config` snippet, printed.
    Neovim,
    /// The language server for Helix: a `languages.toml` snippet (for `.helix/languages.toml`),
    /// printed.
    Helix,
    /// The language server for Emacs' eglot: an `eglot-server-programs` form, printed.
    Eglot,
}

impl Client {
    pub const ALL: [Client; 5] = [Client::ClaudeCode, Client::Vscode, Client::Cursor, Client::Codex, Client::Gemini];

    /// The configuration file, relative to the project.
    pub fn file(self) -> &'static str {
        match self {
            Client::ClaudeCode => ".mcp.json",
            Client::Vscode => ".vscode/mcp.json",
            Client::Cursor => ".cursor/mcp.json",
            Client::Codex => ".codex/config.toml",
            Client::Gemini => ".gemini/settings.json",
            Client::ClaudeCodeLsp => LSP_PLUGIN,
            // Printed, not written.
            Client::Neovim | Client::Helix | Client::Eglot => "",
        }
    }

    /// The JSON key that holds the servers (TOML's `mcp_servers` for Codex).
    pub fn servers_key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            Client::Codex => "mcp_servers",
            _ => "mcpServers",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            Client::Vscode => "vscode",
            Client::Cursor => "cursor",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
            Client::ClaudeCodeLsp => "claude-code-lsp",
            Client::Neovim => "neovim",
            Client::Helix => "helix",
            Client::Eglot => "eglot",
        }
    }

    /// A form of the language server (`lsp`), not of the MCP server.
    pub fn is_lsp(self) -> bool {
        matches!(self, Client::ClaudeCodeLsp | Client::Neovim | Client::Helix | Client::Eglot)
    }
}

/// The Claude Code plugin's local marketplace, relative to the project.
const LSP_MARKETPLACE: &str = ".claude/mcp-java-index-lsp/.claude-plugin/marketplace.json";
/// The plugin's manifest (with its `lspServers`), relative to the project.
const LSP_PLUGIN: &str = ".claude/mcp-java-index-lsp/plugin/.claude-plugin/plugin.json";

/// How the client starts the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Via {
    /// This binary's path (or `mcp-java-index` when that name on PATH is this binary).
    Path,
    /// `npx -y mcp-java-index …` (the npm package).
    Npx,
    /// `uvx mcp-java-index …` (the Python package).
    Uvx,
}

#[derive(Debug, Args)]
pub struct SetupArgs {
    /// The client to register with
    #[arg(value_enum)]
    pub client: Client,
    /// Register `bridge` (one warm server shared by every session on the project) instead of
    /// `serve` (a server per session)
    #[arg(long)]
    pub bridge: bool,
    /// Print the file as it would be written, and write nothing
    #[arg(long)]
    pub print: bool,
    /// Remove our entry (an entry of that name that is not ours is left alone)
    #[arg(long)]
    pub uninstall: bool,
    /// The project (default: the current directory)
    #[arg(long, default_value = ".")]
    pub project: PathBuf,
    /// The server's name in the client's configuration
    #[arg(long, default_value = "java-index")]
    pub name: String,
    /// How the client starts the server (default: as this process was started: npx, uvx, or
    /// this binary's path)
    #[arg(long, value_enum)]
    pub via: Option<Via>,
}

/// What `setup` did, for its message.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Added,
    Updated,
    Removed,
    Absent,
}

pub fn run(args: SetupArgs) -> anyhow::Result<ExitCode> {
    if args.name.is_empty() || !args.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        anyhow::bail!("--name {:?}: use letters, digits, `-` and `_`", args.name);
    }
    let project =
        std::fs::canonicalize(&args.project).map_err(|e| anyhow::anyhow!("project {}: {e}", args.project.display()))?;
    if !project.is_dir() {
        anyhow::bail!("project {} is not a directory", project.display());
    }
    if args.client.is_lsp() {
        return run_lsp(&args, &project);
    }
    let path = project.join(args.client.file());
    // The project's file is the repository's: read and written without following a link (a
    // committed `.mcp.json -> ~/.claude.json` or `.codex -> ~/.codex` is refused, not merged).
    let existing = read_client_file(&project, Path::new(args.client.file()))
        .map_err(|e| anyhow::anyhow!("reading {}: {e}; nothing written", path.display()))?;
    let entry = if args.uninstall {
        None
    } else {
        let via = args.via.unwrap_or_else(detect_via);
        Some(Entry::new(args.client, via, args.bridge, &project)?)
    };
    let edited = match args.client {
        Client::Codex => edit_toml(existing.as_deref(), &args.name, entry.as_ref()),
        c => edit_json(existing.as_deref(), c, &args.name, entry.as_ref()),
    }
    .map_err(|e| match &entry {
        Some(en) => anyhow::anyhow!(
            "{}: {e}; nothing written. Add this entry by hand:\n{}",
            path.display(),
            en.snippet(args.client, &args.name)
        ),
        None => anyhow::anyhow!("{}: {e}; nothing written", path.display()),
    })?;
    let (text, outcome) = edited;
    if args.print {
        let mut out = std::io::stdout().lock();
        write!(out, "{text}")?;
        eprintln!("{} (--print: not written)", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    match outcome {
        Outcome::Absent => eprintln!("{}: no `{}` entry, nothing to remove", path.display(), args.name),
        o => {
            mji_fs::write::write_below(&project, Path::new(args.client.file()), text.as_bytes(), Default::default())
                .map_err(|e| anyhow::anyhow!("{e}; nothing written"))?;
            let verb = match o {
                Outcome::Added => "added",
                Outcome::Updated => "updated",
                _ => "removed",
            };
            eprintln!("{verb} `{}` in {}", args.name, path.display());
            if args.client == Client::Codex && o != Outcome::Removed {
                eprintln!("Codex reads .codex/config.toml in trusted projects only (`codex` asks once per project)");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The language server's forms: the command that starts `lsp` (no `--root`: the roots are the
/// client's workspace folders), then the Claude Code plugin written (or removed), or an editor's
/// snippet printed.
fn run_lsp(args: &SetupArgs, project: &Path) -> anyhow::Result<ExitCode> {
    let via = args.via.unwrap_or_else(detect_via);
    let (command, mut argv) = match via {
        Via::Npx => ("npx".to_owned(), vec!["-y".to_owned(), "mcp-java-index".to_owned()]),
        Via::Uvx => ("uvx".to_owned(), vec!["mcp-java-index".to_owned()]),
        Via::Path => (this_command()?, Vec::new()),
    };
    argv.push("lsp".to_owned());
    let q = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    let quoted: Vec<String> = std::iter::once(&command).chain(&argv).map(|a| q(a)).collect();
    let text = match args.client {
        Client::Neovim => format!(
            "vim.lsp.config('{name}', {{\n  cmd = {{ {cmd} }},\n  filetypes = {{ 'java' }},\n  root_markers = {{ 'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', '.git' }},\n}})\nvim.lsp.enable('{name}')\n",
            name = args.name,
            cmd = quoted.join(", ")
        ),
        Client::Helix => format!(
            "[language-server.{name}]\ncommand = {}\nargs = [{}]\n\n[[language]]\nname = \"java\"\nlanguage-servers = [\"{name}\"]\n",
            quoted[0],
            quoted[1..].join(", "),
            name = args.name
        ),
        Client::Eglot => {
            let words: Vec<String> = quoted.clone();
            format!(
                "(with-eval-after-load 'eglot\n  (add-to-list 'eglot-server-programs\n               '((java-mode java-ts-mode) {})))\n",
                words.join(" ")
            )
        }
        _ => return claude_code_plugin(args, project, &command, &argv),
    };
    if args.uninstall {
        eprintln!(
            "{}: nothing was written, nothing to remove (remove the snippet where you put it)",
            args.client.name()
        );
        return Ok(ExitCode::SUCCESS);
    }
    print!("{text}");
    let place = match args.client {
        Client::Neovim => "in your Neovim configuration (init.lua)",
        Client::Helix => "in .helix/languages.toml (the project's) or ~/.config/helix/languages.toml",
        _ => "in your Emacs init file",
    };
    eprintln!("{}: add this {place} (printed: nothing written)", args.client.name());
    Ok(ExitCode::SUCCESS)
}

/// Claude Code's plugin: a local marketplace listing one plugin whose `lspServers` runs the
/// language server on `.java` files. Written under `.claude/mcp-java-index-lsp/` (`--print`:
/// shown; `--uninstall`: both files removed when they are ours).
fn claude_code_plugin(args: &SetupArgs, project: &Path, command: &str, argv: &[String]) -> anyhow::Result<ExitCode> {
    let marketplace = serde_json::json!({
        "name": "mcp-java-index",
        "owner": {"name": "mcp-java-index"},
        "plugins": [{
            "name": "mcp-java-index-lsp",
            "source": "./plugin",
            "description": "Java code intelligence from mcp-java-index's language server",
        }],
    });
    let plugin = serde_json::json!({
        "name": "mcp-java-index-lsp",
        "description": "Java code intelligence from mcp-java-index's language server (mcp-java-index lsp)",
        "lspServers": {
            args.name.clone(): {
                "command": command,
                "args": argv,
                "extensionToLanguage": {".java": "java"},
            }
        },
    });
    let files = [(LSP_MARKETPLACE, marketplace), (LSP_PLUGIN, plugin)];
    if args.print {
        for (rel, v) in &files {
            println!("// {rel}\n{}", serde_json::to_string_pretty(v)?);
        }
        eprintln!("{} (--print: not written)", project.join(".claude/mcp-java-index-lsp").display());
        return Ok(ExitCode::SUCCESS);
    }
    for (rel, v) in &files {
        let existing = read_client_file(project, Path::new(rel))
            .map_err(|e| anyhow::anyhow!("reading {}: {e}; nothing written", project.join(rel).display()))?;
        if existing.as_deref().is_some_and(|t| !is_ours(t)) {
            anyhow::bail!("{} is not ours: left alone, nothing written", project.join(rel).display());
        }
        if args.uninstall {
            if existing.is_some() {
                std::fs::remove_file(project.join(rel))
                    .map_err(|e| anyhow::anyhow!("removing {}: {e}", project.join(rel).display()))?;
            }
            continue;
        }
        let text = format!("{}\n", serde_json::to_string_pretty(v)?);
        mji_fs::write::write_below(project, Path::new(rel), text.as_bytes(), Default::default())
            .map_err(|e| anyhow::anyhow!("{e}; nothing written"))?;
    }
    let dir = project.join(".claude/mcp-java-index-lsp");
    if args.uninstall {
        eprintln!(
            "removed the plugin's files in {} (`/plugin uninstall mcp-java-index-lsp@mcp-java-index` in Claude Code)",
            dir.display()
        );
    } else {
        eprintln!(
            "wrote the plugin in {}; in Claude Code: /plugin marketplace add ./.claude/mcp-java-index-lsp, then /plugin install mcp-java-index-lsp@mcp-java-index",
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// How this process was started: from npx's cache (`~/.npm/_npx/…`), from uv's cache
/// (`…/uv/archive-v0/…`, where `uvx` unpacks a tool), or anything else.
fn detect_via() -> Via {
    let exe = std::env::current_exe().map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
    if exe.contains("/_npx/") {
        Via::Npx
    } else if exe.contains("/archive-v") {
        Via::Uvx
    } else {
        Via::Path
    }
}

/// One server entry: the command and its arguments.
#[derive(Debug)]
struct Entry {
    command: String,
    args: Vec<String>,
    /// VS Code wants `"type": "stdio"`.
    typed: bool,
}

impl Entry {
    fn new(client: Client, via: Via, bridge: bool, project: &Path) -> anyhow::Result<Entry> {
        // VS Code expands ${workspaceFolder}; the others get the project's absolute path.
        let root = if client == Client::Vscode {
            "${workspaceFolder}".to_owned()
        } else {
            project.to_string_lossy().into_owned()
        };
        let mut args: Vec<String> = Vec::new();
        let command = match via {
            Via::Npx => {
                args.extend(["-y".to_owned(), "mcp-java-index".to_owned()]);
                "npx".to_owned()
            }
            Via::Uvx => {
                args.push("mcp-java-index".to_owned());
                "uvx".to_owned()
            }
            Via::Path => this_command()?,
        };
        args.push(if bridge { "bridge" } else { "serve" }.to_owned());
        args.extend(["--root".to_owned(), root]);
        // Claude Code passes structuredContent to the model instead of the text when both
        // come (README, "Register the server").
        if client == Client::ClaudeCode {
            args.push("--no-structured-content".to_owned());
        }
        Ok(Entry { command, args, typed: client == Client::Vscode })
    }

    fn json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        if self.typed {
            m.insert("type".to_owned(), "stdio".into());
        }
        m.insert("command".to_owned(), self.command.clone().into());
        m.insert("args".to_owned(), self.args.clone().into());
        serde_json::Value::Object(m)
    }

    /// The entry as JSON text at `indent` (its keys in the order clients document them).
    fn json_text(&self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let q = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
        let mut lines = Vec::new();
        if self.typed {
            lines.push(format!("{pad}  \"type\": \"stdio\""));
        }
        lines.push(format!("{pad}  \"command\": {}", q(&self.command)));
        let args: Vec<String> = self.args.iter().map(|a| q(a)).collect();
        lines.push(format!("{pad}  \"args\": [{}]", args.join(", ")));
        format!("{{\n{}\n{pad}}}", lines.join(",\n"))
    }

    fn toml(&self, name: &str) -> String {
        let q = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let args: Vec<String> = self.args.iter().map(|a| q(a)).collect();
        format!("[mcp_servers.{name}]\ncommand = {}\nargs = [{}]\n", q(&self.command), args.join(", "))
    }

    fn snippet(&self, client: Client, name: &str) -> String {
        match client {
            Client::Codex => self.toml(name),
            c => format!(
                "{{\n  {}: {{\n    {}: {}\n  }}\n}}",
                serde_json::Value::String(c.servers_key().to_owned()),
                serde_json::Value::String(name.to_owned()),
                self.json_text(4)
            ),
        }
    }
}

/// The command that starts this binary: `mcp-java-index` when that name on PATH is this
/// binary or the npm launcher that started it (`MCP_JAVA_INDEX_LAUNCHER`), else its path.
fn this_command() -> anyhow::Result<String> {
    let exe = std::env::current_exe().map_err(|e| anyhow::anyhow!("finding this binary: {e}"))?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    let launcher = std::env::var_os("MCP_JAVA_INDEX_LAUNCHER").and_then(|l| std::fs::canonicalize(l).ok());
    let name = if cfg!(windows) { "mcp-java-index.exe" } else { "mcp-java-index" };
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join(name)).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|p| p.is_file());
    if on_path.and_then(|p| std::fs::canonicalize(p).ok()).is_some_and(|p| p == exe || Some(&p) == launcher.as_ref()) {
        return Ok("mcp-java-index".to_owned());
    }
    Ok(exe.to_string_lossy().into_owned())
}

/// Whether an entry (its text) starts this server: it names `mcp-java-index` somewhere.
pub fn is_ours(entry_text: &str) -> bool {
    entry_text.contains("mcp-java-index")
}

/// A JSON object's members in their order, each value as written.
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut v = Vec::new();
                while let Some(kv) = map.next_entry::<String, Box<RawValue>>()? {
                    v.push(kv);
                }
                Ok(Members(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// Renders members as an object at `indent` spaces, each value as its text.
fn render(members: &[(String, String)], indent: usize) -> String {
    if members.is_empty() {
        return "{}".to_owned();
    }
    let pad = " ".repeat(indent + 2);
    let body: Vec<String> =
        members.iter().map(|(k, v)| format!("{pad}{}: {v}", serde_json::Value::String(k.clone()))).collect();
    format!("{{\n{}\n{}}}", body.join(",\n"), " ".repeat(indent))
}

/// The JSON file with our entry set (or removed when `entry` is None).
fn edit_json(
    existing: Option<&str>,
    client: Client,
    name: &str,
    entry: Option<&Entry>,
) -> Result<(String, Outcome), String> {
    let top: Vec<(String, Box<RawValue>)> = match existing.filter(|t| !t.trim().is_empty()) {
        None => Vec::new(),
        Some(t) => {
            serde_json::from_str::<Members>(t)
                .map_err(|e| format!("not a JSON object this can merge into ({e}; comments are not kept)"))?
                .0
        }
    };
    let key = client.servers_key();
    let servers: Vec<(String, Box<RawValue>)> = match top.iter().find(|(k, _)| k == key) {
        None => Vec::new(),
        Some((_, v)) => serde_json::from_str::<Members>(v.get()).map_err(|_| format!("`{key}` is not an object"))?.0,
    };
    let mut outcome = if entry.is_some() { Outcome::Added } else { Outcome::Absent };
    let mut new_servers: Vec<(String, String)> = Vec::new();
    for (k, v) in &servers {
        if k != name {
            new_servers.push((k.clone(), v.get().to_owned()));
            continue;
        }
        if !is_ours(v.get()) {
            return Err(format!("`{key}.{name}` is another server's entry, left alone (choose another --name)"));
        }
        match entry {
            Some(e) => {
                new_servers.push((k.clone(), e.json_text(4)));
                outcome = Outcome::Updated;
            }
            None => outcome = Outcome::Removed,
        }
    }
    if let (Some(e), Outcome::Added) = (entry, &outcome) {
        new_servers.push((name.to_owned(), e.json_text(4)));
    }
    if outcome == Outcome::Absent {
        return Ok((existing.unwrap_or_default().to_owned(), outcome));
    }
    let servers_text = render(&new_servers, 2);
    let mut new_top: Vec<(String, String)> = Vec::new();
    let mut placed = false;
    for (k, v) in &top {
        if k == key {
            new_top.push((k.clone(), servers_text.clone()));
            placed = true;
        } else {
            new_top.push((k.clone(), v.get().to_owned()));
        }
    }
    if !placed {
        new_top.push((key.to_owned(), servers_text));
    }
    let text = format!("{}\n", render(&new_top, 0));
    // What we write must read back as JSON with our entry as meant.
    let back: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("the merged file is not JSON ({e})"))?;
    let got = back.get(key).and_then(|s| s.get(name));
    if got != entry.map(Entry::json).as_ref() {
        return Err("the merged file does not read back as meant".to_owned());
    }
    Ok((text, outcome))
}

/// The header lines that open our table or one of its subtables.
fn opens_ours(line: &str, name: &str) -> bool {
    let l = line.trim();
    let Some(inner) = l.strip_prefix('[').and_then(|l| l.split(']').next()) else {
        return false;
    };
    let inner: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
    [format!("mcp_servers.{name}"), format!("mcp_servers.\"{name}\"")]
        .iter()
        .any(|h| inner == *h || inner.starts_with(&format!("{h}.")))
}

/// The TOML file with our table set (or removed when `entry` is None). Edited as text, so
/// comments and layout stay; the result is parsed to check it.
fn edit_toml(existing: Option<&str>, name: &str, entry: Option<&Entry>) -> Result<(String, Outcome), String> {
    let text = existing.unwrap_or_default();
    let parsed: toml::Table = text.parse().map_err(|e| format!("not TOML this can merge into ({e})"))?;
    let current = parsed.get("mcp_servers").and_then(|s| s.get(name));
    if let Some(c) = current
        && !is_ours(&c.to_string())
    {
        return Err(format!("`mcp_servers.{name}` is another server's entry, left alone (choose another --name)"));
    }
    // Our table's lines go; the rest stays as written.
    let mut kept = String::new();
    let mut inside = false;
    let mut removed = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with('[') {
            inside = opens_ours(line, name);
            removed |= inside;
        }
        if !inside {
            kept.push_str(line);
        }
    }
    if current.is_some() && !removed {
        return Err(format!("`mcp_servers.{name}` is not written as a [mcp_servers.{name}] table"));
    }
    let outcome = match (entry, current.is_some()) {
        (Some(_), false) => Outcome::Added,
        (Some(_), true) => Outcome::Updated,
        (None, true) => Outcome::Removed,
        (None, false) => return Ok((text.to_owned(), Outcome::Absent)),
    };
    if let Some(e) = entry {
        if !kept.is_empty() && !kept.ends_with('\n') {
            kept.push('\n');
        }
        if !kept.trim().is_empty() && !kept.ends_with("\n\n") {
            kept.push('\n');
        }
        kept.push_str(&e.toml(name));
    }
    let back: toml::Table = kept.parse().map_err(|e| format!("the merged file is not TOML ({e})"))?;
    let got = back.get("mcp_servers").and_then(|s| s.get(name));
    let meant = entry.map(|e| {
        let mut t = toml::Table::new();
        t.insert("command".to_owned(), e.command.clone().into());
        t.insert("args".to_owned(), toml::Value::Array(e.args.iter().map(|a| a.clone().into()).collect()));
        toml::Value::Table(t)
    });
    if got != meant.as_ref() {
        return Err("the merged file does not read back as meant".to_owned());
    }
    Ok((kept, outcome))
}

/// The most bytes of a client's configuration file read: the largest real ones are a few
/// hundred kilobytes (Claude Code's user file, with its history); `/dev/zero` or a FIFO in their
/// place is refused, not read without end.
pub const CLIENT_FILE_CAP: u64 = 16 * 1024 * 1024;

/// A client's file below `anchor` (the project: no link below it followed), as text; `None`
/// when absent.
fn read_client_file(anchor: &Path, rel: &Path) -> std::io::Result<Option<String>> {
    mji_fs::write::read_below(anchor, rel, CLIENT_FILE_CAP)?
        .map(|b| String::from_utf8(b).map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "is not UTF-8")))
        .transpose()
}

/// Where `doctor` looks for a client's configuration of this server: the project's file and
/// the user's own (where the client has one), each with the names of our entries in it.
pub fn configured(project: &Path) -> Vec<(Client, PathBuf, Vec<String>)> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let mut out = Vec::new();
    for c in Client::ALL {
        // The project's file (no link below the project followed), then the user's own (theirs:
        // a dotfile kept as a link is followed), each read with a bound.
        let mut files = vec![project.join(c.file())];
        if let Some(h) = &home {
            match c {
                Client::ClaudeCode => files.push(h.join(".claude.json")),
                Client::Cursor => files.push(h.join(".cursor/mcp.json")),
                Client::Codex => files.push(
                    std::env::var_os("CODEX_HOME")
                        .map(PathBuf::from)
                        .unwrap_or_else(|| h.join(".codex"))
                        .join("config.toml"),
                ),
                Client::Gemini => files.push(h.join(".gemini/settings.json")),
                // (Client::ALL holds the MCP clients alone.)
                Client::Vscode | Client::ClaudeCodeLsp | Client::Neovim | Client::Helix | Client::Eglot => {}
            }
        }
        for f in files {
            let read = match f.strip_prefix(project) {
                Ok(rel) => read_client_file(project, rel),
                Err(_) => mji_fs::write::read_user(&f, CLIENT_FILE_CAP).and_then(|b| {
                    b.map(|b| String::from_utf8(b).map_err(|_| std::io::Error::other("is not UTF-8"))).transpose()
                }),
            };
            let Ok(Some(text)) = read else { continue };
            let names = ours_in(c, &text, project);
            out.push((c, f, names));
        }
    }
    out
}

/// The names of the entries that start this server in a client's file (Claude Code's user
/// file: its user servers and this project's).
fn ours_in(client: Client, text: &str, project: &Path) -> Vec<String> {
    let names_of = |servers: Option<&serde_json::Value>| -> Vec<String> {
        servers
            .and_then(|s| s.as_object())
            .map(|m| m.iter().filter(|(_, v)| is_ours(&v.to_string())).map(|(k, _)| k.clone()).collect())
            .unwrap_or_default()
    };
    if client == Client::Codex {
        let Ok(t) = text.parse::<toml::Table>() else { return Vec::new() };
        return t
            .get("mcp_servers")
            .and_then(|s| s.as_table())
            .map(|m| m.iter().filter(|(_, v)| is_ours(&v.to_string())).map(|(k, _)| k.clone()).collect())
            .unwrap_or_default();
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let mut names = names_of(v.get(client.servers_key()));
    if client == Client::ClaudeCode
        && let Some(p) = v.get("projects").and_then(|p| p.get(project.to_string_lossy().as_ref()))
    {
        names.extend(names_of(p.get("mcpServers")));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            command: "mcp-java-index".into(),
            args: vec!["serve".into(), "--root".into(), "/p".into()],
            typed: false,
        }
    }

    #[test]
    fn json_merge_keeps_order_and_other_servers_and_refuses_a_foreign_entry() {
        let before =
            "{\n  \"z\": 1,\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  },\n  \"a\": [1, 2]\n}\n";
        let (text, o) = edit_json(Some(before), Client::Cursor, "java-index", Some(&entry())).expect("merged");
        assert_eq!(o, Outcome::Added);
        let keys: Vec<&str> = ["\"z\"", "\"mcpServers\"", "\"other\"", "\"java-index\"", "\"a\""]
            .into_iter()
            .filter(|k| text.contains(k))
            .collect();
        assert_eq!(keys.len(), 5, "{text}");
        let pos = |k: &str| text.find(k).unwrap_or(usize::MAX);
        assert!(
            pos("\"z\"") < pos("\"other\"")
                && pos("\"other\"") < pos("\"java-index\"")
                && pos("\"java-index\"") < pos("\"a\""),
            "{text}"
        );
        let (again, o) = edit_json(Some(&text), Client::Cursor, "java-index", Some(&entry())).expect("again");
        assert_eq!((again.as_str(), o), (text.as_str(), Outcome::Updated));
        let e = edit_json(Some(before), Client::Cursor, "other", Some(&entry())).expect_err("foreign");
        assert!(e.contains("another server's entry"), "{e}");
        assert!(edit_json(Some("{ // c\n}"), Client::Cursor, "x", Some(&entry())).is_err());
        let (removed, o) = edit_json(Some(&text), Client::Cursor, "java-index", None).expect("removed");
        assert_eq!(o, Outcome::Removed);
        assert!(!removed.contains("java-index") && removed.contains("\"other\""), "{removed}");
    }

    #[test]
    fn toml_edit_keeps_comments_and_removes_only_our_tables() {
        let before = "# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let (text, o) = edit_toml(Some(before), "java-index", Some(&entry())).expect("merged");
        assert_eq!(o, Outcome::Added);
        assert!(text.starts_with(before) && text.contains("[mcp_servers.java-index]\n"), "{text}");
        let with_env = format!("{text}\n[mcp_servers.java-index.env]\nA = \"1\"\n\n[tail]\nk = 1\n");
        let (removed, o) = edit_toml(Some(&with_env), "java-index", None).expect("removed");
        assert_eq!(o, Outcome::Removed);
        assert!(
            !removed.contains("java-index") && removed.contains("[tail]") && removed.contains("# mine"),
            "{removed}"
        );
        let e = edit_toml(Some(before), "other", None).expect_err("foreign");
        assert!(e.contains("another server's entry"), "{e}");
        assert!(opens_ours("[ mcp_servers.\"java-index\" ]", "java-index"));
        assert!(!opens_ours("[mcp_servers.java-index2]", "java-index"));
    }
}
