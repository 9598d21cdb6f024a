//! The `missing-dependency` marking: with an incomplete classpath, javac's complaints about
//! packages and types a missing library would provide.

use std::path::Path;

use crate::Problem;
use mji_build::classpath::read_text;

/// With an incomplete classpath, marks javac's complaints about packages and types that a
/// missing library would provide: `package x does not exist`, and `cannot find symbol` for a
/// name imported from such a package.
pub(crate) fn mark_missing_dependencies(file: &Path, problems: &mut [Problem]) {
    let mut packages: Vec<String> = Vec::new();
    for p in problems.iter_mut() {
        if p.code == "compiler.err.doesnt.exist" {
            if let Some(pkg) = p.message.strip_prefix("package ").and_then(|r| r.strip_suffix(" does not exist")) {
                packages.push(pkg.to_owned());
            }
            p.cause = Some(crate::MISSING_DEPENDENCY.to_owned());
        }
    }
    if packages.is_empty() {
        return;
    }
    let text = read_text(file).unwrap_or_default();
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("import ") else { continue };
        let rest = rest.trim_start_matches("static ").trim().trim_end_matches(';').trim();
        if packages.iter().any(|p| rest.starts_with(&format!("{p}."))) {
            let parts: Vec<&str> = rest.split('.').collect();
            names.extend(parts.iter().rev().take(2).filter(|n| **n != "*").map(|n| (*n).to_owned()));
        }
    }
    for p in problems.iter_mut() {
        if p.cause.is_none() && p.code.starts_with("compiler.err.cant.resolve") {
            let symbol = p.message.lines().find_map(|l| l.trim().strip_prefix("symbol:")).unwrap_or("");
            let name = symbol.split_whitespace().nth(1).unwrap_or("");
            let name = name.split('(').next().unwrap_or(name);
            if names.iter().any(|n| n == name) {
                p.cause = Some(crate::MISSING_DEPENDENCY.to_owned());
            }
        }
    }
}

/// Marks javac's `cannot find symbol … class X` where X is a type the build generates but has
/// not generated yet (a Modello model's class, an ANTLR grammar's parser: `generated`, from
/// [`mji_build::generated`]), and `package x does not exist` of a package it generates.
pub(crate) fn mark_generated_sources(generated: &[String], problems: &mut [Problem]) {
    if generated.is_empty() {
        return;
    }
    for p in problems.iter_mut() {
        // A package the build generates (Modello's): more exact than an incomplete classpath.
        if p.code == "compiler.err.doesnt.exist"
            && let Some(pkg) = p.message.strip_prefix("package ").and_then(|r| r.strip_suffix(" does not exist"))
            && generated.iter().any(|g| g == pkg)
        {
            p.cause = Some(crate::GENERATED_SOURCE.to_owned());
            continue;
        }
        if p.cause.is_some() || !p.code.starts_with("compiler.err.cant.resolve") {
            continue;
        }
        let symbol = p.message.lines().find_map(|l| l.trim().strip_prefix("symbol:")).unwrap_or("");
        let mut words = symbol.split_whitespace();
        if words.next() == Some("class") && words.next().is_some_and(|n| generated.iter().any(|g| g == n)) {
            p.cause = Some(crate::GENERATED_SOURCE.to_owned());
        }
    }
}
