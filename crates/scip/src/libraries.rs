//! Which classpath archive a library type came from, and that archive's coordinates: a
//! library symbol is written `scip-java maven maven/<group>/<artifact> <version> …` as
//! scip-java writes it (its `MavenPackage`), `. .` when the archive's coordinates are not
//! known. Each archive is read once and kept while its stamp is the same.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mji_classfile::maven::{ArchiveClasses, archive_classes};
use mji_fs::stamp::Stamp;

use crate::symbols::Coordinates;

/// Top-level library classes (`a/b/C`) to their archive's coordinates: the first archive on
/// the classpath that holds a class wins, as for javac.
#[derive(Debug, Default)]
pub struct LibraryPackages {
    by_class: HashMap<Box<str>, u32>,
    coordinates: Vec<Coordinates>,
}

impl LibraryPackages {
    /// The coordinates of the archive holding the top-level class `internal` (`a/b/C`).
    pub fn of_class(&self, internal: &str) -> Option<&Coordinates> {
        self.by_class.get(internal).and_then(|&i| self.coordinates.get(i as usize))
    }

    /// How many classes have known coordinates.
    pub fn len(&self) -> usize {
        self.by_class.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_class.is_empty()
    }
}

/// scip-java's package name and version of Maven coordinates.
pub fn scip_coordinates(c: &mji_classfile::maven::Coordinates) -> Coordinates {
    Coordinates { name: format!("maven/{}/{}", c.group, c.artifact), version: c.version.clone() }
}

/// An archive as read, with its stamp then.
type Read = (Option<Stamp>, Arc<ArchiveClasses>);

/// The archives read so far, by path.
#[derive(Default)]
pub(crate) struct ArchiveCache {
    read: Mutex<HashMap<PathBuf, Read>>,
}

impl ArchiveCache {
    /// The packages of `jars` in classpath order (archives read now only when new or changed).
    pub(crate) fn packages(&self, jars: &[PathBuf], maven_repos: &[PathBuf], max_entries: usize) -> LibraryPackages {
        let mut out = LibraryPackages::default();
        let Ok(mut read) = self.read.lock() else { return out };
        read.retain(|p, _| jars.contains(p));
        let mut index: HashMap<Coordinates, u32> = HashMap::new();
        for jar in jars {
            let stamp = stamp_of(jar);
            let classes = match read.get(jar) {
                Some((s, c)) if *s == stamp && stamp.is_some() => c.clone(),
                _ => {
                    let c = Arc::new(archive_classes(jar, maven_repos, max_entries));
                    read.insert(jar.clone(), (stamp, c.clone()));
                    c
                }
            };
            let Some(coords) = classes.coordinates.as_ref().map(scip_coordinates) else {
                // Unknown coordinates still claim their classes: a later archive's do not apply.
                for c in &classes.top_level {
                    out.by_class.entry(c.as_str().into()).or_insert(u32::MAX);
                }
                continue;
            };
            let next = out.coordinates.len() as u32;
            let i = *index.entry(coords.clone()).or_insert(next);
            if i == next {
                out.coordinates.push(coords);
            }
            for c in &classes.top_level {
                out.by_class.entry(c.as_str().into()).or_insert(i);
            }
        }
        out.by_class.retain(|_, i| *i != u32::MAX);
        out
    }

    /// A key that changes when any archive of `jars` changes.
    pub(crate) fn key(jars: &[PathBuf]) -> Vec<(PathBuf, Option<Stamp>)> {
        jars.iter().map(|j| (j.clone(), stamp_of(j))).collect()
    }
}

fn stamp_of(p: &Path) -> Option<Stamp> {
    std::fs::metadata(p).ok().map(|m| Stamp::of(&m))
}
