//! A library archive's Maven coordinates (`group`, `artifact`, `version`) and the top-level
//! classes it holds: what a SCIP export names a library's symbols with
//! (`scip-java maven maven/<group>/<artifact> <version> …`).
//!
//! Coordinates come from, in order: the jar's `META-INF/maven/<group>/<artifact>/pom.properties`
//! (the one whose artifact the file's name starts with when a shaded jar holds several), the
//! path of a Maven repository (`…/repository/<group path>/<artifact>/<version>/<artifact>-<version>*.jar`,
//! or under a repository root the caller names), or of Gradle's cache
//! (`…/files-2.1/<group>/<artifact>/<version>/<hash>/<file>.jar`). Nothing else is guessed.

use std::path::{Component, Path, PathBuf};

use crate::Archive;

/// A library's Maven coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Coordinates {
    pub group: String,
    pub artifact: String,
    pub version: String,
}

/// What one archive gives a SCIP export: its coordinates when known, and its top-level
/// classes' internal names (`a/b/C`; member classes, `a/b/C$D`, are not listed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchiveClasses {
    pub coordinates: Option<Coordinates>,
    pub top_level: Vec<String>,
}

/// Reads `jar`'s coordinates and top-level classes (at most `max_entries` entries listed);
/// `maven_repos` are Maven repository roots its path may be under. An archive that cannot be
/// opened gives its path's coordinates and no classes.
pub fn archive_classes(jar: &Path, maven_repos: &[PathBuf], max_entries: usize) -> ArchiveClasses {
    let Ok(mut a) = Archive::open(jar, max_entries) else {
        return ArchiveClasses { coordinates: from_path(jar, maven_repos), top_level: Vec::new() };
    };
    let prefix = a.class_prefix();
    let top_level = a
        .entries
        .iter()
        .filter_map(|e| e.name.strip_prefix(prefix)?.strip_suffix(".class"))
        .filter(|n| !n.contains('$') && !n.ends_with("module-info") && !n.ends_with("package-info"))
        .map(str::to_string)
        .collect();
    let coordinates = from_pom_properties(&mut a, jar).or_else(|| from_path(jar, maven_repos));
    ArchiveClasses { coordinates, top_level }
}

/// The coordinates a jar's `META-INF/maven/*/*/pom.properties` say: the one whose artifact
/// the jar's file name starts with, else the only one.
fn from_pom_properties(a: &mut Archive, jar: &Path) -> Option<Coordinates> {
    let names: Vec<String> = a
        .entries
        .iter()
        .filter(|e| e.name.starts_with("META-INF/maven/") && e.name.ends_with("/pom.properties"))
        .map(|e| e.name.clone())
        .take(64)
        .collect();
    let stem = jar.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut found: Vec<Coordinates> = Vec::new();
    for n in &names {
        if let Ok(Some(bytes)) = a.read_named(n)
            && let Some(c) = parse_pom_properties(&String::from_utf8_lossy(&bytes))
        {
            found.push(c);
        }
    }
    if let Some(i) = found.iter().position(|c| stem.starts_with(&c.artifact)) {
        return Some(found.swap_remove(i));
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// `groupId`, `artifactId` and `version` of a `pom.properties` (a Java properties file).
pub fn parse_pom_properties(text: &str) -> Option<Coordinates> {
    let (mut g, mut a, mut v) = (None, None, None);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let Some((k, val)) = line.split_once(['=', ':']) else { continue };
        let val = val.trim().to_string();
        match k.trim() {
            "groupId" => g = Some(val),
            "artifactId" => a = Some(val),
            "version" => v = Some(val),
            _ => {}
        }
    }
    let ok = |s: &String| !s.is_empty() && !s.contains(char::is_whitespace);
    match (g, a, v) {
        (Some(g), Some(a), Some(v)) if ok(&g) && ok(&a) && ok(&v) => {
            Some(Coordinates { group: g, artifact: a, version: v })
        }
        _ => None,
    }
}

/// The coordinates a jar's path says: under one of `maven_repos` or a directory named
/// `repository` in Maven's layout, or in Gradle's `files-2.1` cache.
pub fn from_path(jar: &Path, maven_repos: &[PathBuf]) -> Option<Coordinates> {
    let parts: Vec<String> = jar
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let file = parts.last()?;
    // Gradle: files-2.1/<group>/<artifact>/<version>/<hash>/<file>.
    if let Some(i) = parts.iter().rposition(|p| p == "files-2.1")
        && parts.len() == i + 6
    {
        return Some(Coordinates {
            group: parts[i + 1].clone(),
            artifact: parts[i + 2].clone(),
            version: parts[i + 3].clone(),
        });
    }
    // Maven: <root>/<g1>/…/<gn>/<artifact>/<version>/<artifact>-<version>[-classifier].jar.
    let n = parts.len();
    if n < 4 {
        return None;
    }
    let (artifact, version) = (&parts[n - 3], &parts[n - 2]);
    if !file.starts_with(&format!("{artifact}-{version}")) {
        return None;
    }
    let root_len = maven_repos
        .iter()
        .filter(|r| jar.starts_with(r))
        .map(|r| r.components().filter(|c| matches!(c, Component::Normal(_))).count())
        .max()
        .or_else(|| parts[..n - 3].iter().rposition(|p| p == "repository" || p == "maven-repo").map(|i| i + 1))?;
    let group = parts.get(root_len..n - 3).filter(|g| !g.is_empty())?.join(".");
    Some(Coordinates { group, artifact: artifact.clone(), version: version.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(g: &str, a: &str, v: &str) -> Option<Coordinates> {
        Some(Coordinates { group: g.into(), artifact: a.into(), version: v.into() })
    }

    #[test]
    fn coordinates_from_repository_layouts() {
        let m2 = Path::new("/home/u/.m2/repository/org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar");
        assert_eq!(from_path(m2, &[]), c("org.apache.commons", "commons-lang3", "3.12.0"));
        let custom = Path::new("/srv/repo/com/acme/lib/1.0/lib-1.0-tests.jar");
        assert_eq!(from_path(custom, &[PathBuf::from("/srv/repo")]), c("com.acme", "lib", "1.0"));
        assert_eq!(from_path(custom, &[]), None, "no repository root: the group is unknown");
        let gradle = Path::new(
            "/home/u/.gradle/caches/modules-2/files-2.1/com.google.guava/guava/31.1-jre/60458f8/guava-31.1-jre.jar",
        );
        assert_eq!(from_path(gradle, &[]), c("com.google.guava", "guava", "31.1-jre"));
        // The file's name must be the artifact's at that version.
        let other = Path::new("/home/u/.m2/repository/org/x/y/1.0/z-1.0.jar");
        assert_eq!(from_path(other, &[]), None);
        assert_eq!(from_path(Path::new("/usr/share/java/commons-lang3.jar"), &[]), None);
    }

    #[test]
    fn pom_properties_are_read() {
        let text = "#Generated by Maven\n#Tue\ngroupId=org.apache.commons\nartifactId=commons-lang3\nversion=3.12.0\n";
        assert_eq!(parse_pom_properties(text), c("org.apache.commons", "commons-lang3", "3.12.0"));
        assert_eq!(parse_pom_properties("groupId=a\nartifactId=b\n"), None);
    }
}
