//! `pom.xml` read with a real XML parser (`roxmltree`): coordinates, parent, properties,
//! modules, dependencies (and their management), profiles, source directories; `${…}`
//! interpolation over the pom, its active profiles and its parents. Only what the effective
//! model of the project needs — plugins and their configuration are Maven's business.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A `<parent>` reference.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parent {
    pub group_id: String,
    pub artifact_id: String,
    pub version: String,
    /// `<relativePath>`; Maven's default `../pom.xml` when absent, none when empty.
    pub relative_path: Option<String>,
}

/// One `<dependency>` as written (placeholders not yet expanded).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependency {
    pub group_id: String,
    pub artifact_id: String,
    pub version: Option<String>,
    pub scope: Option<String>,
    pub classifier: Option<String>,
    pub kind: Option<String>,
    pub optional: bool,
}

impl Dependency {
    /// `group:artifact`.
    pub fn key(&self) -> String {
        format!("{}:{}", self.group_id, self.artifact_id)
    }
}

/// A `<profile>`: what it adds when active.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub id: String,
    pub active_by_default: bool,
    pub modules: Vec<String>,
    pub properties: Vec<(String, String)>,
    pub dependencies: Vec<Dependency>,
}

/// One pom's own content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pom {
    pub group_id: Option<String>,
    pub artifact_id: String,
    pub version: Option<String>,
    pub packaging: Option<String>,
    pub parent: Option<Parent>,
    pub properties: Vec<(String, String)>,
    pub modules: Vec<String>,
    pub dependencies: Vec<Dependency>,
    pub managed: Vec<Dependency>,
    pub profiles: Vec<Profile>,
    pub source_directory: Option<String>,
    pub test_source_directory: Option<String>,
    /// `<build><plugins>`: what the build generates sources from.
    pub plugins: Vec<Plugin>,
}

/// A build plugin, as far as it generates or adds sources.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plugin {
    pub artifact_id: String,
    /// `build-helper-maven-plugin`'s `add-source` directories, as written.
    pub added_sources: Vec<String>,
    /// `modello-maven-plugin`'s `<models>`, as written.
    pub models: Vec<String>,
}

/// `<build><plugins><plugin>`s with the sources they add or generate from.
fn plugins(build: Option<roxmltree::Node<'_, '_>>) -> Vec<Plugin> {
    let Some(list) = build.and_then(|b| child(b, "plugins")) else { return Vec::new() };
    children(list, "plugin")
        .map(|p| {
            // Every `<configuration>`: the plugin's own and its executions'.
            let configs: Vec<roxmltree::Node> =
                p.descendants().filter(|d| d.is_element() && d.tag_name().name() == "configuration").collect();
            let texts = |list: &'static str, item: &'static str| -> Vec<String> {
                configs
                    .iter()
                    .filter_map(|c| child(*c, list))
                    .flat_map(|l| children(l, item).filter_map(|s| s.text()).map(|t| t.trim().to_owned()))
                    .filter(|t| !t.is_empty())
                    .collect()
            };
            Plugin {
                artifact_id: text(p, "artifactId").unwrap_or_default(),
                added_sources: texts("sources", "source"),
                models: texts("models", "model"),
            }
        })
        .collect()
}

fn children<'a, 'i>(n: roxmltree::Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    n.children().filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, name: &'static str) -> Option<roxmltree::Node<'a, 'i>> {
    children(n, name).next()
}

/// The trimmed text of a child element; None when absent.
fn text(n: roxmltree::Node<'_, '_>, name: &'static str) -> Option<String> {
    child(n, name).map(|c| c.text().unwrap_or("").trim().to_owned())
}

fn dependencies(n: Option<roxmltree::Node<'_, '_>>) -> Vec<Dependency> {
    let Some(n) = n else { return Vec::new() };
    children(n, "dependency")
        .map(|d| Dependency {
            group_id: text(d, "groupId").unwrap_or_default(),
            artifact_id: text(d, "artifactId").unwrap_or_default(),
            version: text(d, "version"),
            scope: text(d, "scope"),
            classifier: text(d, "classifier"),
            kind: text(d, "type"),
            optional: text(d, "optional").is_some_and(|o| o == "true"),
        })
        .collect()
}

fn properties(n: Option<roxmltree::Node<'_, '_>>) -> Vec<(String, String)> {
    let Some(n) = n else { return Vec::new() };
    n.children()
        .filter(|c| c.is_element())
        .map(|c| (c.tag_name().name().to_owned(), c.text().unwrap_or("").trim().to_owned()))
        .collect()
}

fn modules(n: Option<roxmltree::Node<'_, '_>>) -> Vec<String> {
    let Some(n) = n else { return Vec::new() };
    children(n, "module").filter_map(|m| m.text()).map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()).collect()
}

impl Pom {
    /// Parses a pom's text; the error names what is wrong (not XML, not a `<project>`).
    pub fn parse(xml: &str) -> Result<Pom, String> {
        let doc = roxmltree::Document::parse_with_options(
            xml,
            roxmltree::ParsingOptions { allow_dtd: false, ..Default::default() },
        )
        .map_err(|e| format!("not well-formed XML: {e}"))?;
        let p = doc.root_element();
        if p.tag_name().name() != "project" {
            return Err(format!("the root element is <{}>, not <project>", p.tag_name().name()));
        }
        let parent = child(p, "parent").map(|n| Parent {
            group_id: text(n, "groupId").unwrap_or_default(),
            artifact_id: text(n, "artifactId").unwrap_or_default(),
            version: text(n, "version").unwrap_or_default(),
            relative_path: match child(n, "relativePath") {
                None => Some("../pom.xml".to_owned()),
                Some(r) => Some(r.text().unwrap_or("").trim().to_owned()).filter(|t| !t.is_empty()),
            },
        });
        let build = child(p, "build");
        let profiles = child(p, "profiles")
            .map(|ps| {
                children(ps, "profile")
                    .map(|pr| Profile {
                        id: text(pr, "id").unwrap_or_default(),
                        active_by_default: child(pr, "activation")
                            .and_then(|a| text(a, "activeByDefault"))
                            .is_some_and(|t| t == "true"),
                        modules: modules(child(pr, "modules")),
                        properties: properties(child(pr, "properties")),
                        dependencies: dependencies(child(pr, "dependencies")),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Pom {
            group_id: text(p, "groupId"),
            artifact_id: text(p, "artifactId").unwrap_or_default(),
            version: text(p, "version"),
            packaging: text(p, "packaging"),
            parent,
            properties: properties(child(p, "properties")),
            modules: modules(child(p, "modules")),
            dependencies: dependencies(child(p, "dependencies")),
            managed: dependencies(child(p, "dependencyManagement").and_then(|m| child(m, "dependencies"))),
            profiles,
            source_directory: build.and_then(|b| text(b, "sourceDirectory")),
            test_source_directory: build.and_then(|b| text(b, "testSourceDirectory")),
            plugins: plugins(build),
        })
    }

    /// Reads and parses `path`.
    pub fn read(path: &Path) -> Result<Pom, String> {
        let text = crate::files::read_text(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        Pom::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The profiles active without command-line selection (`activeByDefault`), plus `chosen`.
    pub fn active_profiles<'a>(&'a self, chosen: &'a [String]) -> impl Iterator<Item = &'a Profile> + 'a {
        let any_chosen = self.profiles.iter().any(|p| chosen.contains(&p.id));
        // Maven: activeByDefault profiles are off once another profile of the pom is chosen.
        self.profiles.iter().filter(move |p| chosen.contains(&p.id) || (p.active_by_default && !any_chosen))
    }

    /// `<modules>` plus those of the active profiles.
    pub fn all_modules(&self, chosen: &[String]) -> Vec<String> {
        let mut m = self.modules.clone();
        for p in self.active_profiles(chosen) {
            m.extend(p.modules.iter().cloned());
        }
        m.dedup();
        m
    }
}

/// A pom with its parents (those found in the workspace or the local repository), for
/// interpolation and inherited dependencies: `chain[0]` is the pom itself.
#[derive(Debug, Clone, Default)]
pub struct Effective {
    pub chain: Vec<Pom>,
    pub profiles: Vec<String>,
    /// Parent poms a `relativePath` named outside the workspace roots, not read, with why.
    pub left_out: Vec<String>,
}

impl Effective {
    /// The pom at `path` and its parents: by `relativePath` when the pom there is the parent
    /// named and lies inside `bounds` (the workspace roots), else from `repo` (the local
    /// repository). At most 16 levels.
    pub fn load(
        path: &Path,
        repo: Option<&Path>,
        profiles: &[String],
        bounds: &crate::bounds::Bounds,
    ) -> Result<Effective, String> {
        let pom = Pom::read(path)?;
        let mut chain = vec![pom];
        let mut left_out = Vec::new();
        let mut at: PathBuf = path.to_path_buf();
        while chain.len() < 16 {
            let Some(parent) = chain.last().and_then(|p| p.parent.clone()) else { break };
            let local = parent.relative_path.as_ref().map(|r| {
                let p = at.parent().unwrap_or(Path::new(".")).join(r);
                if p.is_dir() { p.join("pom.xml") } else { p }
            });
            let local = local.filter(|p| match bounds.admits(p, crate::bounds::Kind::Sources) {
                Some(false) => {
                    let base = path.parent().unwrap_or(path);
                    left_out.push(bounds.note(
                        p,
                        crate::bounds::Kind::Sources,
                        base,
                        &[(p.clone(), format!("{} parent relativePath", crate::bounds::relative(&at, base)))],
                    ));
                    false
                }
                _ => true,
            });
            let found = local
                .filter(|p| p.is_file())
                .and_then(|p| Pom::read(&p).ok().map(|pom| (p, pom)))
                .filter(|(_, pom)| pom.artifact_id == parent.artifact_id);
            let found = found.or_else(|| {
                let r = repo?;
                let p = r
                    .join(parent.group_id.replace('.', "/"))
                    .join(&parent.artifact_id)
                    .join(&parent.version)
                    .join(format!("{}-{}.pom", parent.artifact_id, parent.version));
                Pom::read(&p).ok().map(|pom| (p, pom))
            });
            let Some((p, pom)) = found else { break };
            at = p;
            chain.push(pom);
        }
        Ok(Effective { chain, profiles: profiles.to_vec(), left_out })
    }

    /// One pom without its parents.
    pub fn single(pom: Pom) -> Effective {
        Effective { chain: vec![pom], profiles: Vec::new(), left_out: Vec::new() }
    }

    pub fn pom(&self) -> &Pom {
        &self.chain[0]
    }

    /// The groupId (inherited from the parent when the pom has none).
    pub fn group_id(&self) -> String {
        let own = self.pom().group_id.clone().or_else(|| self.pom().parent.as_ref().map(|p| p.group_id.clone()));
        self.expand(&own.unwrap_or_default())
    }

    pub fn version(&self) -> String {
        let own = self.pom().version.clone().or_else(|| self.pom().parent.as_ref().map(|p| p.version.clone()));
        self.expand(&own.unwrap_or_default())
    }

    /// Every property in scope, the nearest definition winning (the pom's active profiles
    /// over the pom over its parents).
    fn property(&self, name: &str) -> Option<String> {
        for pom in &self.chain {
            for p in pom.active_profiles(&self.profiles) {
                if let Some((_, v)) = p.properties.iter().find(|(k, _)| k == name) {
                    return Some(v.clone());
                }
            }
            if let Some((_, v)) = pom.properties.iter().find(|(k, _)| k == name) {
                return Some(v.clone());
            }
        }
        None
    }

    fn builtin(&self, name: &str) -> Option<String> {
        let me = self.pom();
        let name = name.strip_prefix("pom.").map(|n| format!("project.{n}")).unwrap_or_else(|| name.to_owned());
        match name.as_str() {
            "project.groupId" | "groupId" => {
                me.group_id.clone().or_else(|| me.parent.as_ref().map(|p| p.group_id.clone()))
            }
            "project.version" | "version" => {
                me.version.clone().or_else(|| me.parent.as_ref().map(|p| p.version.clone()))
            }
            "project.artifactId" | "artifactId" => Some(me.artifact_id.clone()),
            "project.parent.groupId" => me.parent.as_ref().map(|p| p.group_id.clone()),
            "project.parent.version" => me.parent.as_ref().map(|p| p.version.clone()),
            "project.parent.artifactId" => me.parent.as_ref().map(|p| p.artifact_id.clone()),
            _ => None,
        }
    }

    /// `v` with `${…}` replaced (recursively, bounded); unknown placeholders are kept.
    pub fn expand(&self, v: &str) -> String {
        let mut cur = v.trim().to_owned();
        for _ in 0..8 {
            if !cur.contains("${") {
                break;
            }
            let mut out = String::new();
            let mut rest = cur.as_str();
            let mut changed = false;
            while let Some(at) = rest.find("${") {
                let Some(end) = rest[at..].find('}') else { break };
                let name = &rest[at + 2..at + end];
                out.push_str(&rest[..at]);
                match self.builtin(name).or_else(|| self.property(name)) {
                    Some(value) => {
                        out.push_str(&value);
                        changed = true;
                    }
                    None => out.push_str(&rest[at..at + end + 1]),
                }
                rest = &rest[at + end + 1..];
            }
            out.push_str(rest);
            cur = out;
            if !changed {
                break;
            }
        }
        cur
    }

    /// The dependencies the pom declares (its own, its active profiles', then inherited ones
    /// it does not redeclare), expanded, versions from dependency management when absent.
    pub fn dependencies(&self) -> Vec<Dependency> {
        let mut out: Vec<Dependency> = Vec::new();
        let mut seen: HashMap<String, ()> = HashMap::new();
        for pom in &self.chain {
            let profile_deps = pom.active_profiles(&self.profiles).flat_map(|p| p.dependencies.iter());
            for d in pom.dependencies.iter().chain(profile_deps) {
                let mut d = d.clone();
                d.group_id = self.expand(&d.group_id);
                d.artifact_id = self.expand(&d.artifact_id);
                d.version = d.version.map(|v| self.expand(&v));
                if seen.insert(d.key(), ()).is_none() {
                    out.push(d);
                }
            }
        }
        for d in &mut out {
            let managed = self
                .chain
                .iter()
                .flat_map(|p| p.managed.iter())
                .find(|m| self.expand(&m.group_id) == d.group_id && self.expand(&m.artifact_id) == d.artifact_id);
            if let Some(m) = managed {
                if d.version.is_none() {
                    d.version = m.version.as_ref().map(|v| self.expand(v));
                }
                if d.scope.is_none() {
                    d.scope = m.scope.clone();
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POM: &str = r#"<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <!-- <dependencies><dependency><groupId>commented</groupId></dependency></dependencies> -->
  <parent><groupId>org.p</groupId><artifactId>parent</artifactId><version>7</version></parent>
  <artifactId>me</artifactId>
  <properties><lib.version>1.2</lib.version><both>${lib.version}-x</both></properties>
  <modules><module>core</module><module> app </module></modules>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.m</groupId><artifactId>managed</artifactId><version>9</version><scope>test</scope></dependency>
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>${project.groupId}</groupId><artifactId>${project.artifactId}-core</artifactId><version>${both}</version></dependency>
    <dependency><groupId>org.m</groupId><artifactId>managed</artifactId></dependency>
  </dependencies>
  <build><testSourceDirectory>src/it/java</testSourceDirectory>
    <plugins><plugin><dependencies><dependency><groupId>plugin.only</groupId><artifactId>x</artifactId></dependency></dependencies></plugin></plugins>
  </build>
  <profiles>
    <profile><id>extra</id><activation><activeByDefault>true</activeByDefault></activation>
      <modules><module>extra</module></modules>
      <properties><lib.version>2.0</lib.version></properties>
    </profile>
    <profile><id>other</id><modules><module>other</module></modules></profile>
  </profiles>
</project>"#;

    #[test]
    fn a_pom_is_read_as_xml_with_comments_plugins_and_profiles_apart() {
        let pom = Pom::parse(POM).expect("parses");
        assert_eq!(pom.artifact_id, "me");
        assert_eq!(pom.modules, ["core", "app"]);
        assert_eq!(pom.all_modules(&[]), ["core", "app", "extra"]);
        assert_eq!(pom.all_modules(&["other".to_owned()]), ["core", "app", "other"]);
        assert_eq!(pom.dependencies.len(), 2, "{:?}", pom.dependencies);
        assert_eq!(pom.test_source_directory.as_deref(), Some("src/it/java"));
        let e = Effective::single(pom);
        assert_eq!(e.group_id(), "org.p");
        assert_eq!(e.version(), "7");
        let deps = e.dependencies();
        assert_eq!(deps[0].key(), "org.p:me-core");
        // The active-by-default profile's property wins over the pom's.
        assert_eq!(deps[0].version.as_deref(), Some("2.0-x"));
        assert_eq!(deps[1].version.as_deref(), Some("9"));
        assert_eq!(deps[1].scope.as_deref(), Some("test"));
        assert_eq!(e.expand("${unknown}"), "${unknown}");
    }

    #[test]
    fn broken_poms_are_errors_with_a_reason() {
        assert!(Pom::parse("<project><artifactId>x</project>").expect_err("refused").contains("not well-formed"));
        assert!(Pom::parse("<settings/>").expect_err("refused").contains("not <project>"));
        // A DTD (entity expansion) is refused.
        assert!(Pom::parse("<!DOCTYPE p [<!ENTITY a \"aaaa\">]><project>&a;</project>").is_err());
    }
}
