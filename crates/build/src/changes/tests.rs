//! Tests of [`super`]: the changed lines are right, and a repository whose config names
//! commands (fsmonitor, textconv, a clean filter, an embedded bare repository's config) never
//! gets one run.

use super::*;

const CAP: u64 = 1 << 20;

const OLD: &str = "class A {\n  int a() { return 1; }\n  int b() { return 2; }\n  int c() { return 3; }\n}\n";
const NEW: &str = "class A {\n  int a() { return 1; }\n  int b() { return 20; }\n  int c() { return 3; }\n}\n";

fn git_in(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A repository at `<tmp>/w` with `A.java` (and `extra` files) committed, then `A.java`'s
/// line 3 changed and an untracked `B.java` added; and a directory outside it for markers.
struct Fixture {
    tmp: tempfile::TempDir,
}

impl Fixture {
    fn new(extra: &[(&str, &str)]) -> Fixture {
        let tmp = tempfile::tempdir().expect("tempdir");
        let w = tmp.path().join("w");
        std::fs::create_dir_all(w.join("src")).expect("mkdir");
        std::fs::write(w.join("src/A.java"), OLD).expect("write");
        for (p, text) in extra {
            std::fs::write(w.join(p), text).expect("write");
        }
        git_in(&w, &["init", "-q"]);
        git_in(&w, &["add", "-A"]);
        git_in(&w, &["commit", "-qm", "one"]);
        std::fs::write(w.join("src/A.java"), NEW).expect("write");
        std::fs::write(w.join("src/B.java"), "class B {}\n").expect("write");
        Fixture { tmp }
    }

    fn work(&self) -> PathBuf {
        self.tmp.path().join("w")
    }

    fn marker(&self) -> PathBuf {
        self.tmp.path().join("ran")
    }

    /// An executable that creates the marker, then copies its input (a filter, a textconv) or
    /// answers nothing (an fsmonitor hook).
    fn hook(&self) -> PathBuf {
        let hook = self.tmp.path().join("hook.sh");
        std::fs::write(
            &hook,
            format!(
                "#!/bin/sh\ntouch '{}'\nif [ -f \"$1\" ]; then cat \"$1\"; else cat; fi\n",
                self.marker().display()
            ),
        )
        .expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        hook
    }

    fn add_config(&self, git_dir: &Path, text: &str) {
        let config = git_dir.join("config");
        let mut old = std::fs::read_to_string(&config).expect("config");
        old.push_str(text);
        std::fs::write(&config, old).expect("write config");
    }

    /// The answer for the whole work tree, asserted right: line 3 of A, and B new.
    fn assert_right_and_nothing_ran(&self, root: &Path) {
        let got = changed_since_head(root, &[], CAP);
        assert!(!self.marker().exists(), "the repository's command ran");
        let got = got.expect("changes");
        let w = self.work();
        assert_eq!(
            got,
            vec![
                Changed { path: w.join("src/A.java"), lines: vec![(3, 3)] },
                Changed { path: w.join("src/B.java"), lines: Vec::new() },
            ]
        );
    }
}

#[test]
fn a_repository_fsmonitor_hook_never_runs() {
    let f = Fixture::new(&[]);
    let hook = f.hook();
    f.add_config(&f.work().join(".git"), &format!("[core]\n\tfsmonitor = {}\n", hook.display()));
    f.assert_right_and_nothing_ran(&f.work());
}

#[test]
fn a_repository_textconv_named_by_gitattributes_never_runs() {
    let f = Fixture::new(&[(".gitattributes", "*.java diff=evil\n")]);
    let hook = f.hook();
    f.add_config(&f.work().join(".git"), &format!("[diff \"evil\"]\n\ttextconv = {}\n", hook.display()));
    f.assert_right_and_nothing_ran(&f.work());
}

#[test]
fn a_repository_clean_filter_named_by_gitattributes_never_runs() {
    let f = Fixture::new(&[(".gitattributes", "*.java filter=evil\n")]);
    let hook = f.hook();
    f.add_config(
        &f.work().join(".git"),
        &format!(
            "[filter \"evil\"]\n\tclean = {}\n\tsmudge = {}\n\tprocess = {}\n",
            hook.display(),
            hook.display(),
            hook.display()
        ),
    );
    f.assert_right_and_nothing_ran(&f.work());
}

/// A served module directory that is a bare repository committed as plain files (`HEAD`,
/// `config` with `core.worktree` and `core.fsmonitor`, `objects/`, `refs/`): git would
/// discover it from the module directory and run its hook; the clone's own `.git` is used.
#[test]
fn an_embedded_bare_repository_in_the_served_directory_is_never_read() {
    let f = Fixture::new(&[]);
    let hook = f.hook();
    let served = f.work().join("src");
    // A copy of the clone's repository as plain files of the module directory.
    let from = f.work().join(".git");
    for name in ["HEAD", "index"] {
        std::fs::copy(from.join(name), served.join(name)).expect("copy");
    }
    copy_dir(&from.join("objects"), &served.join("objects"));
    copy_dir(&from.join("refs"), &served.join("refs"));
    std::fs::write(
        served.join("config"),
        format!("[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = {}\n", hook.display()),
    )
    .expect("config");
    git_in(&f.work(), &["add", "src/HEAD", "src/config", "src/objects", "src/refs"]);
    git_in(&f.work(), &["commit", "-qm", "embedded", "--", "src/HEAD", "src/config", "src/objects", "src/refs"]);
    f.assert_right_and_nothing_ran(&served);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

#[test]
fn a_bare_repository_with_no_work_tree_above_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let bare = tmp.path().join("b");
    std::fs::create_dir_all(&bare).expect("mkdir");
    git_in(&bare, &["init", "-q", "--bare"]);
    let err = changed_since_head(&bare, &[], CAP).expect_err("refused");
    assert!(err.contains("is not inside a git work tree this can read without running its configuration"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_dot_git_that_is_a_link_is_refused() {
    let f = Fixture::new(&[]);
    let elsewhere = f.tmp.path().join("elsewhere");
    std::fs::rename(f.work().join(".git"), &elsewhere).expect("move");
    std::os::unix::fs::symlink(&elsewhere, f.work().join(".git")).expect("link");
    let err = changed_since_head(&f.work(), &[], CAP).expect_err("refused");
    assert!(err.contains("is a symbolic link"), "{err}");
}

#[test]
fn a_linked_worktree_is_read() {
    let f = Fixture::new(&[]);
    git_in(&f.work(), &["stash", "-u", "-q"]);
    let other = f.tmp.path().join("other");
    git_in(&f.work(), &["worktree", "add", "-q", other.to_str().expect("utf-8"), "-b", "side"]);
    std::fs::write(other.join("src/A.java"), NEW).expect("write");
    let got = changed_since_head(&other, &[], CAP).expect("changes");
    assert_eq!(got, vec![Changed { path: other.join("src/A.java"), lines: vec![(3, 3)] }]);
}

#[test]
fn only_the_named_files_and_only_under_the_root() {
    let f = Fixture::new(&[]);
    let w = f.work();
    let got = changed_since_head(&w, &[w.join("src/A.java")], CAP).expect("changes");
    assert_eq!(got, vec![Changed { path: w.join("src/A.java"), lines: vec![(3, 3)] }]);
    let got = changed_since_head(&w, &[w.join("src/B.java")], CAP).expect("changes");
    assert_eq!(got, vec![Changed { path: w.join("src/B.java"), lines: Vec::new() }]);
    // A root below the change sees none of it.
    std::fs::create_dir_all(w.join("other")).expect("mkdir");
    assert_eq!(changed_since_head(&w.join("other"), &[], CAP).expect("changes"), Vec::new());
}

#[cfg(unix)]
#[test]
fn a_tracked_file_replaced_by_a_link_out_of_the_tree_is_not_read() {
    let f = Fixture::new(&[]);
    let w = f.work();
    let outside = f.tmp.path().join("Outside.java");
    std::fs::write(&outside, "class X {}\n").expect("write");
    std::fs::remove_file(w.join("src/A.java")).expect("rm");
    std::os::unix::fs::symlink(&outside, w.join("src/A.java")).expect("link");
    let got = changed_since_head(&w, &[w.join("src/A.java")], CAP).expect("changes");
    assert_eq!(got, Vec::new());
}

#[test]
fn line_ending_changes_alone_are_no_change() {
    let f = Fixture::new(&[]);
    let w = f.work();
    std::fs::write(w.join("src/A.java"), OLD.replace('\n', "\r\n")).expect("write");
    let got = changed_since_head(&w, &[w.join("src/A.java")], CAP).expect("changes");
    assert_eq!(got, Vec::new());
}

#[test]
fn changed_lines_mark_replacements_insertions_and_both_neighbours_of_a_deletion() {
    let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    // Line 3 replaced; lines 6-7 deleted (between new lines 5 and 6); three lines inserted
    // after old line 10 (new lines 9-11).
    let new = "1\n2\nthree\n4\n5\n8\n9\n10\na\nb\nc\n11\n12\n";
    assert_eq!(changed_lines(old.as_bytes(), new.as_bytes()), vec![(3, 3), (5, 6), (9, 11)]);
    // A deletion at the top marks line 1.
    assert_eq!(changed_lines(b"x\ny\n", b"y\n"), vec![(1, 1)]);
    assert_eq!(changed_lines(b"same\n", b"same\n"), Vec::new());
}

#[test]
fn blob_ids_are_gits() {
    // `printf 'hello\n' | git hash-object --stdin`
    assert_eq!(blob_id(b"hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
    assert_eq!(blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}
