//! Whether a project uses Lombok, and which version its build names: read from the root's
//! build files (Maven's `org.projectlombok:lombok` dependency, its `${…}` property resolved in
//! the same pom; Gradle's `org.projectlombok:lombok:X` or the `io.freefair.lombok` plugin) and
//! the presence of `lombok.config`. What `doctor` and the server's instructions tell.

use std::path::{Path, PathBuf};

use crate::files::read_text;

/// A project's use of Lombok.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LombokUse {
    /// The file that names it (a build file, or `lombok.config`).
    pub named_in: PathBuf,
    /// The version the build names; None when it is managed elsewhere (a parent, a BOM) or not
    /// written.
    pub version: Option<String>,
}

impl LombokUse {
    /// `Lombok 1.18.30 (pom.xml)`, `Lombok, version managed by the build (build.gradle)`.
    pub fn describe(&self, root: &Path) -> String {
        let file = self.named_in.strip_prefix(root).unwrap_or(&self.named_in).display().to_string();
        match &self.version {
            Some(v) => format!("Lombok {v} ({file})"),
            None => format!("Lombok, its version not written in {file} (managed by a parent or a BOM)"),
        }
    }
}

/// Lombok as `root`'s build names it, looking at the root's own build files and `lombok.config`.
pub fn lombok_use(root: &Path) -> Option<LombokUse> {
    let pom = root.join("pom.xml");
    if let Ok(text) = read_text(&pom)
        && let Some(version) = in_pom(&text)
    {
        return Some(LombokUse { named_in: pom, version });
    }
    for name in ["build.gradle", "build.gradle.kts"] {
        let file = root.join(name);
        if let Ok(text) = read_text(&file)
            && let Some(version) = in_gradle(&text)
        {
            return Some(LombokUse { named_in: file, version });
        }
    }
    let config = root.join("lombok.config");
    config.is_file().then_some(LombokUse { named_in: config, version: None })
}

/// In a pom: Some(version) when it depends on `org.projectlombok:lombok` (the version None when
/// not written or not resolvable from the pom's own properties).
fn in_pom(text: &str) -> Option<Option<String>> {
    let mut rest = text;
    while let Some(i) = rest.find("<dependency>") {
        let block_end = rest[i..].find("</dependency>").map_or(rest.len(), |e| i + e);
        let block = &rest[i..block_end];
        if tag(block, "groupId").as_deref() == Some("org.projectlombok")
            && tag(block, "artifactId").as_deref() == Some("lombok")
        {
            let version =
                tag(block, "version").and_then(|v| match v.strip_prefix("${").and_then(|p| p.strip_suffix('}')) {
                    Some(prop) => tag(text, prop),
                    None => Some(v),
                });
            return Some(version);
        }
        rest = &rest[block_end..];
    }
    None
}

/// The trimmed text of the first `<name>…</name>` in `text`.
fn tag(text: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{name}>"))? + start;
    Some(text[start..end].trim().to_owned())
}

/// In a Gradle build: Some(version) when it names `org.projectlombok:lombok[:X]` or applies the
/// `io.freefair.lombok` plugin.
fn in_gradle(text: &str) -> Option<Option<String>> {
    if let Some(i) = text.find("org.projectlombok:lombok") {
        let after = &text[i + "org.projectlombok:lombok".len()..];
        let version = after
            .strip_prefix(':')
            .map(|v| v.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-').collect::<String>())
            .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()));
        return Some(version);
    }
    text.contains("io.freefair.lombok").then_some(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_a_build_names() {
        let pom = "<project><properties><lombok.version>1.18.30</lombok.version></properties><dependencies>\
            <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0</version></dependency>\
            <dependency><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId><version>${lombok.version}</version><scope>provided</scope></dependency>\
            </dependencies></project>";
        assert_eq!(in_pom(pom), Some(Some("1.18.30".to_owned())));
        let managed = "<dependency><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId><optional>true</optional></dependency>";
        assert_eq!(in_pom(managed), Some(None));
        assert_eq!(
            in_pom("<dependency><groupId>org.slf4j</groupId><artifactId>lombok</artifactId></dependency>"),
            None
        );
        assert_eq!(in_gradle("compileOnly 'org.projectlombok:lombok:1.18.24'\n"), Some(Some("1.18.24".to_owned())));
        assert_eq!(in_gradle("compileOnly \"org.projectlombok:lombok\"\n"), Some(None));
        assert_eq!(in_gradle("plugins { id 'io.freefair.lombok' version '8.4' }"), Some(None));
        assert_eq!(in_gradle("implementation 'com.google.guava:guava:33.0'"), None);
    }

    #[test]
    fn a_root_s_build_files_and_lombok_config() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(lombok_use(dir.path()), None);
        std::fs::write(dir.path().join("lombok.config"), "lombok.accessors.chain = true\n").expect("write");
        let u = lombok_use(dir.path()).expect("lombok.config");
        assert_eq!(
            u.describe(dir.path()),
            "Lombok, its version not written in lombok.config (managed by a parent or a BOM)"
        );
        std::fs::write(
            dir.path().join("build.gradle"),
            "dependencies { compileOnly 'org.projectlombok:lombok:1.18.30' }",
        )
        .expect("write");
        assert_eq!(lombok_use(dir.path()).expect("gradle").describe(dir.path()), "Lombok 1.18.30 (build.gradle)");
    }
}
