//! Structural refactorings proved on real code: seeded random picks on commons-lang3 3.12.0
//! (`target/corpus/commons-lang3`), each applied through `refactor_actions` on one working
//! copy and the whole library compiled with javac after it. Every pick is counted as applied,
//! refused (with its reason) or broken (applied, and javac then failed: the file is restored
//! so the next pick starts from code that compiles). Broken must be 0.
//!
//! Picks: `inline` of local variables (any `T x = …;` declarator in a method body),
//! `extract_variable` of expressions (a method call, or an operator expression, inside a
//! statement of a method body), `safe_delete` of methods and fields (by their name's
//! position), `extract_method` of runs of one to three whole statements of a block in a method
//! body (by startLine/endLine, `replaceAll`: their duplicates in the class too), `inline_method` of methods whose body is one statement (by their
//! name's position: every call), and `change_signature` of methods (by their name's position), in turn: the first
//! two parameters swapped, an `int` parameter added (default `0`), the last parameter removed,
//! the first renamed; and `move` of top-level types to a new package
//! (`org.apache.commons.lang3.moved`); `move_member` of static methods and fields of top-level
//! classes (by their name's position) to a new empty class, in turn of the root package
//! (`org.apache.commons.lang3.MoveTarget`) and of another (`….moved.Target`); `move_nested`:
//! `move` of the member types of top-level classes (by their name's position) to the same
//! classes in turn; `convert` of `for`
//! statements shaped like indexed loops over an array or a list (by their line);
//! `convert_lambda`: `convert` of anonymous classes (by their `new`'s position); `rename_method`,
//! `rename_field`, `rename_type`, `rename_local`: `rename` of methods, fields, types and local
//! variables (by their name's position) to the name with `Renamed` appended.
//!
//! `cargo bench --bench refactor --profile dev` (`REFACTOR_N`: picks per action, default 20;
//! `REFACTOR_SEED`; `REFACTOR_ONLY`: one action, or several separated by commas).
//!
//! The torture run (issue 53): `REFACTOR_CORPUS=DIR` (a project's source folder, copied) proves
//! the same picks on any project that javac compiles offline, with `REFACTOR_CLASSPATH` (jars,
//! `:`-separated), `REFACTOR_MODULE_PATH` (for a `module-info.java`) and `REFACTOR_LOMBOK=1`
//! (Lombok as javac's processor), all given to the workspace as its classpath too;
//! `REFACTOR_NAME` names it in the report; `REFACTOR_TESTS` (a shell command, run in the copy
//! with `REFACTOR_CLASSES` naming the classes javac just wrote) runs the project's tests after
//! each apply that compiles: a failure a second run repeats counts as broken. Each action prints a row `| project | action | picks
//! | applied | refused (a reason in the code) | refused (an engine limit: it could not bind, type
//! or read what it needed) | broken |` and the project a total row.
//!
//! `REFACTOR_CORPUS=java.base`: the same picks on the JDK's java.base sources
//! (`target/jdk-src/java.base`, or `JDK_SRC_DIR`). After each apply the touched files, plus for
//! a `safe_delete`, `change_signature`, `move_member` or `move_nested` every file of the module that spells
//! the member's name, are compiled with
//! `javac --patch-module java.base=DIR` (DIR holding just those files), so they compile against
//! the rest of the module as the JDK built it; a failure counts as broken only when the same
//! files compile unchanged. When they do not (patching hundreds of the module's files at once
//! fails even unchanged), the touched files alone are checked; when those do not either, the
//! pick is counted apart as unproven.

use std::path::{Path, PathBuf};
use std::time::Instant;

use mcp_java_index::config::{Config, Flags};
use mcp_java_index::tools::host::Host;
use mcp_java_index::tools::tool::refactor_actions::{ParamArg, RefactorAction, RefactorArgs};

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        mcp_java_index::fs::walk::walk(dir, |p| p.extension().is_some_and(|x| x == "java")).files;
    files.sort();
    files
}

/// javac over the whole library (`REFACTOR_CLASSPATH`, `REFACTOR_MODULE_PATH` and, with
/// `REFACTOR_LOMBOK=1`, Lombok as the processor) into `classes` (emptied first): None when it
/// compiles, else its first error lines.
fn compile_errors(root: &Path, classes: &Path) -> Option<String> {
    let out = tempfile::tempdir().expect("out");
    let list = out.path().join("sources.txt");
    let files: Vec<String> = java_files(root).iter().map(|f| f.to_string_lossy().into_owned()).collect();
    std::fs::write(&list, files.join("\n")).expect("source list");
    let _ = std::fs::remove_dir_all(classes);
    let mut javac = std::process::Command::new("javac");
    javac.args(["-nowarn", "-encoding", "UTF-8", "-d"]).arg(classes);
    let lombok = std::env::var("REFACTOR_LOMBOK").is_ok_and(|v| v == "1");
    let mut cp = std::env::var("REFACTOR_CLASSPATH").unwrap_or_default();
    if lombok {
        let jar = std::env::var("LOMBOK_JAR").unwrap_or_else(|_| "/usr/share/java/lombok.jar".into());
        javac.arg("-processorpath").arg(&jar);
        cp = if cp.is_empty() { jar } else { format!("{jar}:{cp}") };
    } else {
        javac.arg("-proc:none");
    }
    if !cp.is_empty() {
        javac.arg("-cp").arg(cp);
    }
    if let Ok(mp) = std::env::var("REFACTOR_MODULE_PATH") {
        javac.arg("--module-path").arg(mp);
    }
    let o = javac.arg(format!("@{}", list.display())).output().expect("javac runs");
    (!o.status.success()).then(|| String::from_utf8_lossy(&o.stderr).lines().take(4).collect::<Vec<_>>().join(" | "))
}

/// `REFACTOR_TESTS`: the project's tests (a shell command) run on the classes just compiled
/// (`REFACTOR_CLASSES`) of the copy `root` (`REFACTOR_WORK`): None without the option, else
/// `Ok(their counts)` or `Err(their counts and first failures)` when a second run fails too.
fn run_tests(root: &Path, classes: &Path) -> Option<Result<String, String>> {
    let cmd = std::env::var("REFACTOR_TESTS").ok().filter(|c| !c.is_empty())?;
    // A failure the same run does not repeat is the machine's, not the edit's: jsoup's
    // `handlesManyChildren` asserts a parse takes under a second, which a loaded machine
    // misses now and then. Said with the result.
    match tests_once(&cmd, root, classes) {
        Err(first) => Some(match tests_once(&cmd, root, classes) {
            Ok(again) => Ok(format!("{again} (on a second run; the first failed: {first})")),
            Err(again) => Err(again),
        }),
        ok => Some(ok),
    }
}

/// One run of the tests' command `cmd`: its counts, or its counts and first failures.
fn tests_once(cmd: &str, root: &Path, classes: &Path) -> Result<String, String> {
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("REFACTOR_CLASSES", classes)
        .env("REFACTOR_WORK", root)
        .current_dir(root)
        .output()
        .expect("the tests' command runs");
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    // JUnit's console launcher ends with its counts; other runners' last lines.
    let counts: Vec<&str> =
        text.lines().filter(|l| l.contains("tests successful") || l.contains("tests failed")).collect();
    let tail: Vec<&str> = if counts.is_empty() {
        text.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect()
    } else {
        counts
    };
    let summary =
        tail.iter().map(|l| l.trim().trim_matches(|c| c == '[' || c == ']').trim()).collect::<Vec<_>>().join(", ");
    if o.status.success() {
        Ok(summary)
    } else {
        let failed: Vec<&str> =
            text.lines().filter(|l| l.contains("MethodSource") || l.contains("=>")).take(6).collect();
        Err(format!("{summary}; {}", failed.join(" | ")))
    }
}

/// java.base: the files `rel` of `root` compiled against the module (`--patch-module` with a
/// directory of just those files); None when they compile, else the first error lines.
fn compile_patched(root: &Path, rel: &[String]) -> Option<String> {
    let patch = tempfile::tempdir().expect("patch");
    let out = tempfile::tempdir().expect("out");
    let mut files = Vec::new();
    for r in rel {
        let to = patch.path().join(r);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(root.join(r), &to).expect("copy");
        files.push(to);
    }
    let o = std::process::Command::new("javac")
        .args(["-J-Xmx2g", "-nowarn", "-XDsuppressNotes", "-proc:none", "-implicit:none", "-encoding", "UTF-8"])
        .arg("--patch-module")
        .arg(format!("java.base={}", patch.path().display()))
        .arg("-d")
        .arg(out.path())
        .args(&files)
        // javac leaves the arguments of a long failing command line in its directory.
        .current_dir(out.path())
        .output()
        .expect("javac runs");
    (!o.status.success()).then(|| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| l.contains("error:"))
            .take(3)
            .map(|l| l.replace(&*patch.path().to_string_lossy(), ""))
            .collect::<Vec<_>>()
            .join(" | ")
    })
}

/// The files of `root` (relative) in which `name` appears as a word.
fn spelling(root: &Path, name: &str) -> Vec<String> {
    let word = |t: &str| {
        t.match_indices(name).any(|(i, _)| {
            let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
            !t[..i].ends_with(ident) && !t[i + name.len()..].starts_with(ident)
        })
    };
    java_files(root)
        .into_iter()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| word(&t)))
        .map(|f| f.strip_prefix(root).expect("under root").to_string_lossy().into_owned())
        .collect()
}

/// One pick: where, the name it names (safe_delete) and the arguments of its action.
struct Pick {
    label: String,
    file: PathBuf,
    name: String,
    args: RefactorArgs,
}

/// Every candidate of an action, in a fixed order: (file relative to the root, 1-based line,
/// column, end line, end column, the expression's text).
fn candidates(root: &Path, action: &str) -> Vec<(String, u32, u32, u32, u32, String)> {
    let mut out = Vec::new();
    for f in java_files(root) {
        let rel = f.strip_prefix(root).expect("under root").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&f).expect("read");
        let Some(tree) = mcp_java_index::parser::parse_tree(&text) else { continue };
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
            // Line from the line starts, column in UTF-16 units from its line's start.
            let pos = |b: usize| {
                let line = starts.partition_point(|&s| s <= b);
                let col = text[starts[line - 1]..b].encode_utf16().count() as u32 + 1;
                (line as u32, col)
            };
            let in_body = || {
                let mut p = n.parent();
                let mut found = false;
                while let Some(x) = p {
                    if matches!(x.kind(), "method_declaration" | "constructor_declaration") {
                        found = true;
                        break;
                    }
                    p = x.parent();
                }
                found
            };
            if action == "extract_method" {
                // Runs of 1..=3 statements of a block in a method body, by whole lines.
                if n.kind() == "block" && in_body() {
                    let mut c = n.walk();
                    let stmts: Vec<_> = n.named_children(&mut c).filter(|s| !s.kind().ends_with("comment")).collect();
                    for i in 0..stmts.len() {
                        for len in 1..=3 {
                            if let Some(last) = stmts.get(i + len - 1) {
                                let (l, _) = pos(stmts[i].start_byte());
                                let (el, _) = pos(last.end_byte());
                                out.push((rel.clone(), l, 0, el, 0, String::new()));
                            }
                        }
                    }
                }
                continue;
            }
            let wanted = match action {
                // Methods and fields (their name's position); types are rarely unused.
                "safe_delete" => {
                    matches!(n.kind(), "method_declaration")
                        || (n.kind() == "variable_declarator"
                            && n.parent().is_some_and(|p| p.kind() == "field_declaration"))
                }
                // Methods whose body is one statement (what an IDE offers to inline).
                "inline_method" => {
                    n.kind() == "method_declaration"
                        && n.child_by_field_name("body").is_some_and(|b| {
                            let mut c = b.walk();
                            b.named_children(&mut c).filter(|s| !s.kind().ends_with("comment")).count() == 1
                        })
                }
                "change_signature" => n.kind() == "method_declaration",
                // Loops shaped like `for (int i = 0; i < a.length; …)` or `… < list.size(); …`.
                "convert" => {
                    // The first 120 bytes, cut back to a character's start (jsoup's tests hold
                    // Japanese text).
                    let mut cut = n.end_byte().min(n.start_byte() + 120);
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    let head = &text[n.start_byte()..cut];
                    n.kind() == "for_statement"
                        && head.starts_with("for (int ")
                        && head.contains(" = 0; ")
                        && (head.contains(".length; ") || head.contains(".size(); "))
                }
                "convert_lambda" => {
                    n.kind() == "object_creation_expression"
                        && n.named_child(n.named_child_count().saturating_sub(1) as u32)
                            .is_some_and(|b| b.kind() == "class_body")
                }
                "move" => {
                    matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration")
                        && n.parent().is_some_and(|p| p.kind() == "program")
                }
                // Static methods and fields (one declarator) of a top-level class.
                "move_member" => {
                    let decl = if n.kind() == "variable_declarator" { n.parent() } else { Some(n) };
                    decl.is_some_and(|d| {
                        let mut c = d.walk();
                        let one = d.kind() == "method_declaration"
                            || (d.kind() == "field_declaration"
                                && d.children_by_field_name("declarator", &mut c).count() == 1);
                        let mut c = d.walk();
                        let is_static = d.children(&mut c).any(|m| {
                            m.kind() == "modifiers"
                                && text[m.start_byte()..m.end_byte()].split_whitespace().any(|w| w == "static")
                        });
                        one && is_static
                            && (n.kind() == "method_declaration" || n.kind() == "variable_declarator")
                            && d.parent().and_then(|b| b.parent()).is_some_and(|c| {
                                c.kind() == "class_declaration" && c.parent().is_some_and(|p| p.kind() == "program")
                            })
                    })
                }
                // Member types (inner classes too: refused) of a top-level class.
                "move_nested" => {
                    matches!(
                        n.kind(),
                        "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration"
                    ) && n.parent().and_then(|b| b.parent()).is_some_and(|c| {
                        c.kind() == "class_declaration" && c.parent().is_some_and(|p| p.kind() == "program")
                    })
                }
                "rename_method" => n.kind() == "method_declaration",
                "rename_field" => {
                    n.kind() == "variable_declarator" && n.parent().is_some_and(|p| p.kind() == "field_declaration")
                }
                "rename_type" => matches!(
                    n.kind(),
                    "class_declaration"
                        | "interface_declaration"
                        | "enum_declaration"
                        | "record_declaration"
                        | "annotation_type_declaration"
                ),
                "rename_local" | "inline" => {
                    n.kind() == "variable_declarator"
                        && n.parent().is_some_and(|p| p.kind() == "local_variable_declaration")
                        && in_body()
                }
                _ => {
                    matches!(n.kind(), "method_invocation" | "binary_expression")
                        && in_body()
                        && n.start_position().row == n.end_position().row
                        && n.parent().is_some_and(|p| {
                            matches!(
                                p.kind(),
                                "argument_list"
                                    | "variable_declarator"
                                    | "return_statement"
                                    | "binary_expression"
                                    | "if_statement"
                                    | "parenthesized_expression"
                            )
                        })
                }
            };
            if !wanted {
                continue;
            }
            let at = if action == "extract_variable" { n } else { n.child_by_field_name("name").unwrap_or(n) };
            let (l, c) = pos(at.start_byte());
            let (el, ec) = pos(at.end_byte());
            if action == "change_signature" {
                // The end line carries the number of parameters.
                let count = n.child_by_field_name("parameters").map_or(0, |p| {
                    let mut c = p.walk();
                    p.named_children(&mut c)
                        .filter(|k| matches!(k.kind(), "formal_parameter" | "spread_parameter"))
                        .count()
                });
                out.push((rel.clone(), l, c, count as u32, ec, text[at.start_byte()..at.end_byte()].to_owned()));
                continue;
            }
            out.push((rel.clone(), l, c, el, ec, text[at.start_byte()..at.end_byte()].to_owned()));
        }
    }
    out.sort();
    out
}

/// The classes `move_member` moves static members to, written into both copies before the
/// proof: (qualified name, file). java.base's are in java.util and java.lang; a project's are
/// `MoveTarget` in its shortest package (commons-lang3's `org.apache.commons.lang3`) and
/// `Target` in that package's new subpackage `moved`, where `move` moves types too.
fn move_targets(root: &Path, jdk: bool) -> [(String, String); 2] {
    let pkg = if jdk {
        "java.util".to_owned()
    } else {
        java_files(root)
            .iter()
            .filter_map(|f| {
                let t = std::fs::read_to_string(f).ok()?;
                let line = t.lines().find(|l| l.starts_with("package "))?;
                Some(line.trim_start_matches("package ").trim_end_matches(';').trim().to_owned())
            })
            .min_by_key(|p| (p.matches('.').count(), p.clone()))
            .unwrap_or_default()
    };
    let file = |fqn: &str| format!("{}.java", fqn.replace('.', "/"));
    let (a, b) = if jdk {
        ("java.util.MoveTarget".to_owned(), "java.lang.MoveTarget".to_owned())
    } else {
        (format!("{pkg}.MoveTarget"), format!("{pkg}.moved.Target"))
    };
    [(a.clone(), file(&a)), (b.clone(), file(&b))]
}

#[derive(Default)]
struct Tally {
    applied: usize,
    refused: Vec<String>,
    broken: Vec<String>,
    /// java.base: applied, but neither the files it touched nor those spelling the name
    /// compile together unchanged (no proof either way).
    unproven: Vec<String>,
    /// Applied picks after which the project's tests (`REFACTOR_TESTS`) ran and passed.
    tested: usize,
}

fn run(action: &str, n: usize, seed: u64, work: &Path, pristine: &Path, jdk: bool) -> Tally {
    let targets = move_targets(pristine, jdk);
    // Not the empty classes written for move_member.
    let pool: Vec<_> =
        candidates(pristine, action).into_iter().filter(|c| targets.iter().all(|t| t.1 != c.0)).collect();
    println!("{action}: {} candidates", pool.len());
    let mut seed = seed;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut picks = Vec::new();
    while picks.len() < n.min(pool.len()) {
        let (file, line, column, end_line, end_column, name) = pool[next(pool.len())].clone();
        if picks.iter().any(|p: &Pick| p.label.starts_with(&format!("{file}:{line}:"))) {
            continue;
        }
        let mut args = RefactorArgs { file_path: file.clone(), line, column, apply: true, ..Default::default() };
        args.action = match action {
            "change_signature" => RefactorAction::ChangeSignature,
            "move" | "move_member" | "move_nested" => RefactorAction::Move,
            "convert" | "convert_lambda" => RefactorAction::Convert,
            "inline" => RefactorAction::Inline,
            "safe_delete" => RefactorAction::SafeDelete,
            "inline_method" => RefactorAction::Inline,
            "extract_method" => RefactorAction::ExtractMethod,
            a if a.starts_with("rename_") => RefactorAction::Rename,
            _ => RefactorAction::ExtractVariable,
        };
        if action == "extract_variable" || action == "extract_method" {
            args.end_line = end_line;
            args.end_column = end_column;
        }
        if action.starts_with("rename_") {
            // A type's file is renamed with it: its pristine copy is restored by name below.
            args.new_name = format!("{name}Renamed");
        }
        // extract_method replaces the statements' duplicates in the class too.
        args.replace_all = action == "extract_method";
        if action == "move" {
            args.destination = targets[1].0.rsplit_once('.').map_or(String::new(), |x| x.0.to_owned());
        }
        if action == "move_member" || action == "move_nested" {
            // In turn: a class of the root package, and one of a new package.
            args.destination = targets[picks.len() % 2].0.clone();
        }
        if action == "change_signature" {
            let count = end_line;
            let keep = |i: u32| ParamArg { from: Some(i), ..Default::default() };
            let mut params: Vec<ParamArg> = (0..count).map(keep).collect();
            match (picks.len() % 4, count) {
                (0, 2..) => params.swap(0, 1),
                (2, 1..) => {
                    params.pop();
                }
                (3, 1..) => params[0].name = "renamed".into(),
                _ => params.push(ParamArg {
                    from: None,
                    name: "added".into(),
                    ty: "int".into(),
                    default_value: "0".into(),
                }),
            }
            args.parameters = Some(params);
        }
        let label = if action == "extract_method" {
            format!("{file}:{line}-{end_line}")
        } else {
            format!("{file}:{line}:{column}")
        };
        picks.push(Pick { label, file: work.join(&file), name, args });
    }
    let mut flags = Flags::roots([work]).set("watch", false).set("cache", false).set("compile_after_apply", false);
    let jars: Vec<String> = std::env::var("REFACTOR_CLASSPATH")
        .into_iter()
        .chain(std::env::var("REFACTOR_MODULE_PATH"))
        .flat_map(|v| v.split(':').filter(|p| !p.is_empty()).map(str::to_owned).collect::<Vec<_>>())
        .chain(
            std::env::var("REFACTOR_LOMBOK")
                .ok()
                .filter(|v| v == "1")
                .map(|_| std::env::var("LOMBOK_JAR").unwrap_or_else(|_| "/usr/share/java/lombok.jar".into())),
        )
        .collect();
    if !jars.is_empty() {
        flags.give("classpath", jars);
    }
    let ws = Host::open(Config::load(&flags, &|_| None).expect("config")).expect("workspace");
    ws.build_index();
    let mut tally = Tally::default();
    for p in picks {
        // Positions were taken on the pristine copy: each pick runs on a fresh copy of its file.
        let rel = p.file.strip_prefix(work).expect("under work").to_path_buf();
        std::fs::copy(pristine.join(&rel), &p.file).expect("reset the file");
        ws.index().changed(std::slice::from_ref(&p.file));
        let t = Instant::now();
        let mut touched: Vec<String> = Vec::new();
        match mcp_java_index::tools::tool::refactor_actions::run(&ws, &p.args) {
            Err(e) => {
                println!("  refused {}: {e}", p.label);
                tally.refused.push(format!("{}: {e}", p.label));
            }
            Ok(r) => {
                let ms = t.elapsed().as_millis();
                // Every file the edit wrote goes back to the pristine copy after the pick.
                touched.extend(r.files.iter().flat_map(|f| std::iter::once(f.file.clone()).chain(f.moved_to.clone())));
                // Ok(None): compiled; Ok(Some(errors)): broken; Err(()): unproven (the files do
                // not compile together even unchanged).
                let errors: Result<Option<String>, ()> = if jdk {
                    let mut own: Vec<String> = r.files.iter().map(|f| f.file.clone()).collect();
                    own.sort();
                    own.dedup();
                    let mut all = own.clone();
                    // A call the edit missed would break a file it did not touch.
                    if matches!(action, "safe_delete" | "change_signature" | "move_member" | "move_nested") {
                        all.extend(spelling(work, &p.name));
                    }
                    all.sort();
                    all.dedup();
                    // Files that do not compile together as they were prove nothing (patching
                    // hundreds of java.base files at once does not); then the touched ones alone.
                    let verdict = |rel: &[String]| match compile_patched(work, rel) {
                        None => Some(None),
                        Some(e) if compile_patched(pristine, rel).is_none() => Some(Some(e)),
                        Some(_) => None,
                    };
                    verdict(&all).or_else(|| if all != own { verdict(&own) } else { None }).ok_or(())
                } else {
                    let classes = work.with_file_name("classes");
                    Ok(compile_errors(work, &classes).or_else(|| match run_tests(work, &classes)? {
                        Ok(summary) => {
                            tally.tested += 1;
                            println!("  tests held: {summary}");
                            None
                        }
                        Err(failure) => Some(format!("compiles, but its tests fail: {failure}")),
                    }))
                };
                match errors {
                    Ok(None) => {
                        tally.applied += 1;
                        println!("  applied {} ({ms} ms): {}", p.label, r.summary);
                    }
                    Err(()) => {
                        println!(
                            "  UNPROVEN {} ({ms} ms): {}: its files do not compile even unchanged",
                            p.label, r.summary
                        );
                        tally.unproven.push(p.label.clone());
                    }
                    Ok(Some(err)) => {
                        println!(
                            "  BROKEN {}: {}\n{}\n    javac: {err}",
                            p.label,
                            r.summary,
                            r.files.iter().map(|f| f.diff.as_str()).collect::<String>()
                        );
                        tally.broken.push(p.label.clone());
                    }
                }
            }
        }
        // A move may have removed the directory it emptied.
        std::fs::create_dir_all(p.file.parent().expect("parent")).expect("mkdir");
        std::fs::copy(pristine.join(&rel), &p.file).expect("restore the file");
        let mut changed = vec![p.file.clone()];
        for f in touched {
            let (from, to) = (pristine.join(&f), work.join(&f));
            if from.is_file() {
                std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
                std::fs::copy(&from, &to).expect("restore a file");
            } else {
                let _ = std::fs::remove_file(&to);
            }
            changed.push(to);
        }
        ws.index().changed(&changed);
    }
    tally
}

/// Whether a refusal is the engine's limit (it could not bind, type or read what it needed)
/// rather than a reason in the code (a use, a clash, a shape the refactoring does not take).
fn engine_limit(reason: &str) -> bool {
    const LIMITS: &[&str] = &[
        "the engine",
        "could not be bound",
        "could not bind",
        "cannot type",
        "could not type",
        "does not type",
        "cannot be typed",
        "not sure",
        "includeLikely",
        "is not indexed",
        "not known to",
        "does not know",
        "not in the workspace or its libraries",
        "unreadable",
        "untypable",
        "could not be read",
        // A local's type the binder could infer, an assignment flow analysis could prove.
        "its type is not written",
        "the syntax cannot tell",
    ];
    LIMITS.iter().any(|l| reason.contains(l))
}

fn main() {
    let jdk = std::env::var("REFACTOR_CORPUS").is_ok_and(|c| c == "java.base");
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    let given = std::env::var_os("REFACTOR_CORPUS").filter(|_| !jdk).map(PathBuf::from);
    let corpus = if jdk {
        std::env::var_os("JDK_SRC_DIR").map_or(target.join("jdk-src"), PathBuf::from).join("java.base")
    } else {
        given.clone().unwrap_or_else(|| target.join("corpus/commons-lang3/src/main/java"))
    };
    let project = std::env::var("REFACTOR_NAME").unwrap_or_else(|_| match &given {
        Some(d) => d.file_name().map_or("project".into(), |n| n.to_string_lossy().into_owned()),
        None if jdk => "java.base".into(),
        None => "commons-lang3".into(),
    });
    let present =
        if given.is_some() { corpus.is_dir() } else { corpus.join(if jdk { "java" } else { "org" }).is_dir() };
    if !present {
        eprintln!("no corpus at {} (run .ci/run)", corpus.display());
        return;
    }
    let n: usize = std::env::var("REFACTOR_N").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let seed: u64 = std::env::var("REFACTOR_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(34);
    let only = std::env::var("REFACTOR_ONLY").unwrap_or_default();
    let scratch = tempfile::tempdir().expect("tmp");
    let pristine = scratch.path().join("pristine");
    let work = scratch.path().join("work");
    for to in [&pristine, &work] {
        let ok = std::process::Command::new("cp").arg("-a").arg(&corpus).arg(to).status();
        assert!(ok.is_ok_and(|s| s.success()), "cp -a {}", corpus.display());
    }
    let pristine = pristine.canonicalize().expect("canon");
    let work = work.canonicalize().expect("canon");
    for (fqn, file) in &move_targets(&pristine, jdk) {
        let (pkg, simple) = fqn.rsplit_once('.').expect("qualified");
        for root in [&pristine, &work] {
            let to = root.join(file);
            std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
            std::fs::write(
                &to,
                format!("package {pkg};\n\npublic final class {simple} {{\n    private {simple}() {{\n    }}\n}}\n"),
            )
            .expect("write a move target");
        }
    }
    if !jdk {
        let classes = pristine.with_file_name("classes");
        assert_eq!(compile_errors(&pristine, &classes), None, "the corpus compiles as it is");
        match run_tests(&pristine, &classes) {
            Some(Err(e)) => panic!("the project's tests fail before any edit: {e}"),
            Some(Ok(summary)) => println!("the project's tests before any edit: {summary}"),
            None => {}
        }
    } else {
        // The check can fail: a file compiles against the module as it is, and not once broken.
        let objects = "java/util/Objects.java".to_owned();
        if let Some(e) = compile_patched(&pristine, std::slice::from_ref(&objects)) {
            println!("java.base's sources do not compile against this JDK's module ({e}); no proof");
            return;
        }
        let text = std::fs::read_to_string(work.join(&objects)).expect("read");
        std::fs::write(work.join(&objects), text.replace("return (a == b)", "return (a = b)")).expect("write");
        assert!(compile_patched(&work, std::slice::from_ref(&objects)).is_some(), "a broken file compiles");
        std::fs::copy(pristine.join(&objects), work.join(&objects)).expect("restore");
    }
    let mut broken = 0;
    // The project's row: picks, applied, refused for a reason of the code, refused for a limit
    // of the engine, broken.
    let mut row = [0usize; 5];
    for action in [
        "inline",
        "extract_variable",
        "safe_delete",
        "extract_method",
        "inline_method",
        "change_signature",
        "move",
        "move_member",
        "move_nested",
        "convert",
        "convert_lambda",
        "rename_method",
        "rename_field",
        "rename_type",
        "rename_local",
    ] {
        if !only.is_empty() && !only.split(',').any(|a| a == action) {
            continue;
        }
        let t = Instant::now();
        let tally = run(action, n, seed, &work, &pristine, jdk);
        // Refusals grouped by reason: names and numbers blanked out.
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for r in &tally.refused {
            let why = [
                "not inlined: ",
                "not extracted: ",
                "not deleted: ",
                "not changed: ",
                "not moved: ",
                "not converted: ",
            ]
            .iter()
            .find_map(|p| r.split_once(*p))
            .map_or(r.as_str(), |x| x.1);
            let mut blank = String::new();
            let mut quoted = false;
            // The reason without its list (`it has 2 uses: a, b` -> `it has N uses`).
            let why = why.split(';').next().unwrap_or(why);
            let why = if why.starts_with("it has") { why.split(':').next().unwrap_or(why) } else { why };
            for c in why.chars() {
                if c == '`' {
                    quoted = !quoted;
                    if quoted {
                        blank.push_str("`…`");
                    }
                } else if !quoted {
                    blank.push(if c.is_ascii_digit() { 'N' } else { c });
                }
            }
            *reasons.entry(blank.replace("NN", "N").replace("NN", "N")).or_default() += 1;
        }
        let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{n}× {r}")).collect();
        println!(
            "{action} proof on {} (seed {seed}): {} picks, {} applied and compiled, {} refused, {} broken{} ({:.0} s); refusals: {}",
            project,
            tally.applied + tally.refused.len() + tally.broken.len() + tally.unproven.len(),
            tally.applied,
            tally.refused.len(),
            tally.broken.len(),
            if tally.unproven.is_empty() && std::env::var("REFACTOR_TESTS").is_err() {
                String::new()
            } else if tally.unproven.is_empty() {
                format!(", the tests held after {} of them", tally.tested)
            } else {
                format!(", {} applied but unproven (not compiling even unchanged)", tally.unproven.len())
            },
            t.elapsed().as_secs_f64(),
            reasons.join("; ")
        );
        broken += tally.broken.len();
        let limits = tally.refused.iter().filter(|r| engine_limit(r)).count();
        for r in tally.refused.iter().filter(|r| engine_limit(r)) {
            println!("  engine limit: {r}");
        }
        let picks = tally.applied + tally.refused.len() + tally.broken.len() + tally.unproven.len();
        for (i, v) in
            [picks, tally.applied, tally.refused.len() - limits, limits, tally.broken.len()].into_iter().enumerate()
        {
            row[i] += v;
        }
        println!(
            "| {project} | {action} | {picks} | {} | {} | {limits} | {} |",
            tally.applied,
            tally.refused.len() - limits,
            tally.broken.len()
        );
    }
    println!(
        "| {project} | all (seed {seed}, {n} per action) | {} | {} | {} | {} | {} |",
        row[0], row[1], row[2], row[3], row[4]
    );
    assert_eq!(broken, 0, "refactorings broke the build");
}
