//! Hard links into the roots from outside them. A hard link is the file itself under a second
//! name: a workspace that holds a hard link to `~/.aws/credentials` (an archive unpacked by a
//! tool that honours its hard-link entries, a copy made with `cp -al`) passes every check by
//! path — it is a regular file, inside a root, named nothing secret.
//!
//! The rule, argued: a file with one link is what it seems. A file with `n > 1` links is served
//! only when all `n` names are inside the roots: a census of the roots' files with more than one
//! link counts, by device and inode, the names found inside; fewer than `n` means some name is
//! outside (or where the census cannot look: a directory it may not read), and the file is
//! refused — refused when unsure. The census is made when such a file is first read (most
//! workspaces have none, and pay nothing: the link count comes with the `fstat` every read
//! already makes), and made again, at most every [`FRESH_FOR`], when a file's count disagrees
//! with it (links made since).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a census is trusted before a disagreeing file makes it anew.
pub const FRESH_FOR: Duration = Duration::from_secs(2);

/// The deepest directory the census descends into.
const MAX_DEPTH: usize = 256;

/// The names inside the roots of each file with more than one link, by (device, inode).
type Counts = HashMap<(u64, u64), u64>;

/// A census of the roots and when it was made.
#[derive(Debug, Default)]
pub struct Census {
    made: Mutex<Option<(Instant, Counts)>>,
}

impl Census {
    /// How many of a file's `links` names (device `dev`, inode `ino`) are inside `roots`, as a
    /// census made at most [`FRESH_FOR`] ago says (made again when it says fewer than `links`).
    pub fn inside(&self, roots: &[PathBuf], dev: u64, ino: u64, links: u64) -> u64 {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        let found = |m: &Option<(Instant, Counts)>| m.as_ref().map(|(_, c)| c.get(&(dev, ino)).copied().unwrap_or(0));
        if let Some(n) = found(&made)
            && (n >= links || made.as_ref().is_some_and(|(at, _)| at.elapsed() < FRESH_FOR))
        {
            return n;
        }
        *made = Some((Instant::now(), count(roots)));
        found(&made).unwrap_or(0)
    }
}

/// The census of `roots`: every file with more than one link, each name counted once (a root
/// nested in another is walked once).
fn count(roots: &[PathBuf]) -> Counts {
    use std::os::unix::fs::MetadataExt;
    let mut out = Counts::new();
    let mut seen: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    let mut stack: Vec<(PathBuf, usize)> = roots.iter().map(|r| (r.clone(), 0)).collect();
    while let Some((dir, depth)) = stack.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            // `DirEntry::metadata` does not follow a link.
            let Ok(m) = e.metadata() else { continue };
            if m.is_dir() && depth < MAX_DEPTH {
                stack.push((e.path(), depth + 1));
            } else if m.is_file() && m.nlink() > 1 {
                *out.entry((m.dev(), m.ino())).or_default() += 1;
            }
        }
    }
    out
}

/// The error for a file linked from outside the roots.
pub fn linked_from_outside(shown: &Path, links: u64, inside: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!(
            "{} has {links} hard links and {inside} of them are inside the workspace roots: a file linked from outside them is not served (copy it in, or add the directory holding its other name as a root)",
            shown.display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_inside_when_every_name_of_it_is() {
        let root = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let real = std::fs::canonicalize(root.path()).expect("canon");
        let roots = vec![real.clone()];
        std::fs::write(real.join("a.txt"), "a").expect("write");
        std::fs::create_dir(real.join("d")).expect("mkdir");
        std::fs::hard_link(real.join("a.txt"), real.join("d/b.txt")).expect("link");
        std::fs::write(outside.path().join("credentials"), "secret").expect("write");
        std::fs::hard_link(outside.path().join("credentials"), real.join("notes.txt")).expect("link");
        let ino = |p: &Path| {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::metadata(p).expect("meta");
            (m.dev(), m.ino(), m.nlink())
        };
        let census = Census::default();
        let (d, i, n) = ino(&real.join("a.txt"));
        assert_eq!((census.inside(&roots, d, i, n), n), (2, 2));
        let (d, i, n) = ino(&real.join("notes.txt"));
        assert_eq!((census.inside(&roots, d, i, n), n), (1, 2), "one name is outside");
        // A link made inside since: counted once the census is made again.
        std::thread::sleep(FRESH_FOR);
        std::fs::remove_file(outside.path().join("credentials")).expect("rm");
        std::fs::hard_link(real.join("notes.txt"), real.join("d/again.txt")).expect("link");
        let (d, i, n) = ino(&real.join("notes.txt"));
        assert_eq!((census.inside(&roots, d, i, n), n), (2, 2));
    }
}
