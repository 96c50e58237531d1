//! `pupcheck check --fix` and `--diff` as users run them: what is written, what is not,
//! and what happens when a file cannot be written; and a property: fixing keeps files
//! parsing and one run reaches the fixed point.

use std::path::PathBuf;
use std::process::{Command, Output};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("pupcheck-fix-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pupcheck"));
        cmd.arg("check")
            .args(args)
            .current_dir(&self.0)
            .env("NO_COLOR", "1");
        match stdin {
            None => cmd.output().unwrap(),
            Some(text) => {
                use std::io::Write;
                let mut child = cmd
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(text.as_bytes())
                    .unwrap();
                child.wait_with_output().unwrap()
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const MESSY: &str = "# @summary x\nclass x {\n  file { '/tmp/a':\n    ensure => file,\n    mode => '0644',\n  }   \n}\n";
const TIDY: &str = "# @summary x\nclass x {\n  file { '/tmp/a':\n    ensure => file,\n    mode   => '0644',\n  }\n}\n";

#[test]
fn fix_rewrites_changed_files_only_and_reports_what_is_left() {
    let s = Scratch::new("basic");
    let messy = s.write("x/manifests/init.pp", MESSY);
    let clean = s.write("x/manifests/clean.pp", "# @summary y\nclass x::clean {}\n");
    let before = std::fs::metadata(&clean).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = s.run(&["--fix", "--format", "concise", "."], None);
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), TIDY);
    assert_eq!(
        std::fs::metadata(&clean).unwrap().modified().unwrap(),
        before,
        "an unchanged file is not written"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Fixed 2 findings in 1 file."), "{err}");
    assert_eq!(out.status.code(), Some(0), "nothing is left to report");
    let again = s.run(&["--fix", "."], None);
    assert!(String::from_utf8(again.stderr)
        .unwrap()
        .contains("Fixed 0 findings"));
}

#[test]
fn diff_previews_and_changes_nothing() {
    let s = Scratch::new("diff");
    let messy = s.write("x/manifests/init.pp", MESSY);
    let out = s.run(&["--diff", "."], None);
    assert_eq!(out.status.code(), Some(1));
    let diff = String::from_utf8(out.stdout).unwrap();
    assert!(
        diff.starts_with("--- a/x/manifests/init.pp\n+++ b/x/manifests/init.pp\n"),
        "{diff}"
    );
    assert!(diff.contains("\n-    mode => '0644',\n"), "{diff}");
    assert!(diff.contains("\n+    mode   => '0644',\n"), "{diff}");
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), MESSY);
    std::fs::write(&messy, TIDY).unwrap();
    assert_eq!(s.run(&["--diff", "."], None).status.code(), Some(0));
}

#[test]
fn line_endings_and_unsafe_fixes() {
    let s = Scratch::new("crlf");
    let path = s.write(
        "x/manifests/init.pp",
        "# @summary x\r\nclass x {  \r\n  $a = \"${b}\"\r\n}\r\n",
    );
    s.run(&["--fix", "."], None);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# @summary x\r\nclass x {\r\n  $a = \"${b}\"\r\n}\r\n",
        "CRLF kept; the unsafe only-variable-string fix is not applied by default"
    );
    s.run(&["--fix", "--unsafe-fixes", "."], None);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("$a = $b\r\n"));
}

#[test]
fn stdin_fix_prints_the_fixed_text() {
    let s = Scratch::new("stdin");
    let out = s.run(
        &["--fix", "--stdin-filename", "x.pp", "-"],
        Some("notice('a')   \n"),
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "notice('a')\n");
}

#[cfg(unix)]
#[test]
fn an_unwritable_file_fails_the_run_but_the_others_are_fixed() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("readonly");
    let ok = s.write("a/manifests/init.pp", MESSY);
    s.write("b/manifests/init.pp", MESSY);
    let locked = s.0.join("b/manifests");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = s.run(&["--fix", "."], None);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    if nix_is_root() {
        return; // root writes anywhere; the folder's permissions prove nothing
    }
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("b/manifests/init.pp"));
    assert_eq!(std::fs::read_to_string(&ok).unwrap(), TIDY);
}

#[cfg(unix)]
fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_even_for_root_and_the_others_are_fixed() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("read-only-file");
    let ok = s.write("a/manifests/init.pp", MESSY);
    let locked = s.write("b/manifests/init.pp", MESSY);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = s.run(&["--fix", "."], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("b/manifests/init.pp: the file is read-only"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&ok).unwrap(), TIDY);
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), MESSY);
}

#[test]
fn an_unchanged_file_is_not_touched() {
    let s = Scratch::new("mtime");
    let tidy = s.write("a/manifests/init.pp", TIDY);
    let messy = s.write("b/manifests/init.pp", MESSY);
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&tidy)
        .unwrap()
        .set_modified(old)
        .unwrap();
    s.run(&["--fix", "."], None);
    assert_eq!(std::fs::metadata(&tidy).unwrap().modified().unwrap(), old);
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), TIDY);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_stays_a_link_to_the_fixed_file() {
    let s = Scratch::new("link");
    let real = s.write("real/init.pp", MESSY);
    let link = s.0.join("x/manifests/init.pp");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    s.run(&["--fix", "x/manifests/init.pp"], None);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), TIDY);
}

#[test]
fn inserted_line_breaks_follow_a_crlf_file() {
    let s = Scratch::new("crlf-insert");
    let path = s.write(
        "x/manifests/init.pp",
        "# @summary x\r\nclass x {\r\n  file { '/a':\r\n    ensure => '/b',\r\n  }\r\n}\r\n",
    );
    s.run(&["--fix", "."], None);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# @summary x\r\nclass x {\r\n  file { '/a':\r\n    ensure => symlink,\r\n    target => '/b',\r\n  }\r\n}\r\n"
    );
}

mod properties {
    use proptest::prelude::*;
    use pupcheck::config::Settings;
    use pupcheck::fix::{fix_source, Allowed};
    use pupcheck::source::SourceKind;

    /// Statements with the mistakes the fixes repair, to combine at random.
    const STATEMENTS: &[&str] = &[
        "file { \"/b\":\n  mode => 644,\n\towner  => \"${owner}\",\n  ensure => '/c',\n}",
        "file { '/a': ensure => file, mode => '0644',\n  content => { 'a' => 1,\n 'bbb' => \"$x-y\" } }",
        "Package['p'] ->\nService['s'] ~> # why\n  Service['t']",
        "/* a\n * comment */\n$a = \"plain\"   ",
        "  $b = \"puppet:///x/y\"\t",
        "node web1, 'web2' { }",
        "class Demo::Thing {\n  package { vim: ensure => installed, }\n}",
        "exec { 'x':\n  command => 'y',\n  ensure => present;\n 'z': ensure => absent, unless => 'q' }",
        "$h = {\n  'a' => 1, 'bb' => 2,\n  'ccc' => 3,\n}",
        // Arrows of nested hashes on the lines of the outer ones (found by fuzzing: each
        // round moved them further right).
        "class e{e{'':s=>{c=>{''=>(''),''=>''},1=>f\n,''=>({})},l=>[]}}",
    ];

    fn fixed(text: &str) -> (String, bool) {
        let fixed = fix_source(
            "x.pp".into(),
            SourceKind::Manifest,
            text.to_string(),
            &Settings::default(),
            &pupcheck::env::Environment::empty(),
            Allowed::Unsafe,
        );
        let parses = fixed
            .report
            .diagnostics
            .iter()
            .all(|d| d.rule.as_str() != "syntax-error");
        (fixed.text, parses)
    }

    #[test]
    fn arrows_of_nested_levels_sharing_lines_reach_a_fixed_point() {
        let text = "class e{e{'':s=>{c=>{''=>(''),''=>''},1=>f\n,''=>({})},l=>[]}}\n";
        let (once, parses) = fixed(text);
        assert!(parses, "{once}");
        assert_eq!(fixed(&once).0, once);
    }

    proptest! {
        #[test]
        fn fixing_keeps_the_file_parsing_and_a_second_fix_changes_nothing(
            statements in proptest::collection::vec((0usize..STATEMENTS.len(), "[ \t]{0,2}"), 0..12),
            crlf in any::<bool>(),
        ) {
            let newline = if crlf { "\r\n" } else { "\n" };
            let text: String = statements
                .iter()
                .map(|(i, indent)| format!("{indent}{}{newline}", STATEMENTS[*i].replace('\n', newline)))
                .collect();
            let (once, parses) = fixed(&text);
            prop_assert!(parses, "the fixed text does not parse:\n{}", once);
            let (twice, _) = fixed(&once);
            prop_assert_eq!(&twice, &once, "a second fix changed the text of:\n{}", text);
            if crlf {
                prop_assert!(!once.replace("\r\n", "").contains('\n'), "a bare line feed:\n{:?}", once);
            }
        }
    }
}

/// `top-scope-facts` fixes only what is certainly a fact: a name Facter reports is
/// rewritten by `--fix`; a name the control repository's site manifest sets at top
/// scope is no fact (no finding, no fix: `$facts['realm']` would be undef); any other
/// name is fixed only with `--unsafe-fixes`.
#[test]
fn top_scope_facts_fixes_only_facts() {
    let dir = Scratch::new("top-scope-facts");
    dir.write("environment.conf", "modulepath = site\n");
    dir.write(
        "manifests/site.pp",
        "$realm = 'prod'\nnode default { include profile }\n",
    );
    let class = "# @summary x\nclass profile {\n  notice($::realm, $::timezone, $::rack)\n}\n";
    let path = dir.write("site/profile/manifests/init.pp", class);
    let select = ["--select", "top-scope-facts", "--no-cache"];
    let out = dir.run(&[&select[..], &["--fix", "site"]].concat(), None);
    assert!(out.status.code().is_some(), "{out:?}");
    let fixed = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        fixed,
        "# @summary x\nclass profile {\n  notice($::realm, $facts['timezone'], $::rack)\n}\n"
    );
    let out = dir.run(
        &[&select[..], &["--fix", "--unsafe-fixes", "site"]].concat(),
        None,
    );
    assert!(out.status.code().is_some(), "{out:?}");
    let fixed = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        fixed,
        "# @summary x\nclass profile {\n  notice($::realm, $facts['timezone'], $facts['rack'])\n}\n"
    );
}
