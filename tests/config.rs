//! Configuration as users write it: `pupcheck.toml` found above the checked files,
//! `.puppet-lint.rc` where there is none, `--config`, and the command line's rule
//! options, each changing which findings `pupcheck check` reports.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch project folder, removed when dropped.
struct Project(PathBuf);

impl Project {
    fn new(name: &str) -> Project {
        let dir = std::env::temp_dir().join(format!("pupcheck-cfg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Project(dir)
    }

    fn write(&self, path: &str, text: &str) -> &Project {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    fn check(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pupcheck"))
            .arg("check")
            .args(["--format", "concise", "-q"])
            .args(args)
            .current_dir(&self.0)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    /// `(path, rule)` of every finding.
    fn findings(&self, args: &[&str]) -> Vec<(String, String)> {
        let out = self.check(args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| {
                let (path, rest) = l.split_once(':')?;
                let rule = rest.split_whitespace().nth(1)?;
                Some((path.to_string(), rule.to_string()))
            })
            .collect()
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Trailing whitespace, a hard tab and an undocumented class.
const STYLE: &str = "class demo {\n\tnotice('x') \n}\n";

fn rules(findings: &[(String, String)]) -> Vec<&str> {
    let mut rules: Vec<&str> = findings.iter().map(|(_, r)| r.as_str()).collect();
    rules.sort();
    rules.dedup();
    rules
}

#[test]
fn defaults_without_configuration() {
    let p = Project::new("defaults");
    p.write("manifests/init.pp", STYLE);
    let found = p.findings(&["."]);
    assert_eq!(
        rules(&found),
        [
            "autoloader-layout",
            "documentation",
            "hard-tabs",
            "trailing-whitespace",
            "two-space-soft-tabs"
        ]
    );
}

#[test]
fn pupcheck_toml_selects_ignores_and_excludes() {
    let p = Project::new("toml");
    p.write("manifests/init.pp", STYLE)
        .write("vendor/x/manifests/init.pp", STYLE)
        .write(
            "pupcheck.toml",
            "ignore = [\"documentation\", \"autoloader_layout\"]\nexclude = [\"vendor\"]\n\
             [severity]\nhard-tabs = \"error\"\n",
        );
    let out = p.check(&["."]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("vendor"), "{text}");
    assert!(!text.contains("documentation"), "{text}");
    assert!(
        text.contains("hard-tabs") && text.contains("trailing-whitespace"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1), "hard-tabs is now an error");
}

#[test]
fn the_nearest_configuration_governs_a_file_and_overrides_match_paths() {
    let p = Project::new("nearest");
    p.write("pupcheck.toml", "select = [\"hard-tabs\"]\n[[overrides]]\nfiles = [\"legacy/**\"]\nignore = [\"hard-tabs\"]\n")
        .write("manifests/init.pp", STYLE)
        .write("legacy/manifests/init.pp", STYLE)
        .write("other/pupcheck.toml", "select = [\"trailing-whitespace\"]\n")
        .write("other/manifests/init.pp", STYLE);
    let found = p.findings(&["."]);
    assert_eq!(
        found,
        [
            ("./manifests/init.pp".to_string(), "hard-tabs".to_string()),
            (
                "./other/manifests/init.pp".to_string(),
                "trailing-whitespace".to_string()
            ),
        ]
    );
}

#[test]
fn command_line_rules_win_over_the_configuration() {
    let p = Project::new("cli");
    p.write("manifests/init.pp", STYLE)
        .write("pupcheck.toml", "select = [\"hard-tabs\"]\n");
    let found = p.findings(&[
        "--select",
        "style",
        "--ignore",
        "hard_tabs,autoloader-layout,2sp_soft_tabs,strict_indent",
        ".",
    ]);
    assert_eq!(rules(&found), ["trailing-whitespace"]);
    let found = p.findings(&["--extend-select", "documentation", "."]);
    assert_eq!(rules(&found), ["documentation", "hard-tabs"]);
}

/// The warnings the syntax layer finds while parsing (unrecognized-escape) follow the
/// selection as every rule does; syntax errors are reported whatever it says.
#[test]
fn parsing_warnings_follow_the_selection_and_syntax_errors_do_not() {
    let p = Project::new("parsing");
    p.write("escape.pp", "notice(\"a\\q\")\n")
        .write("broken.pp", "class {\n");
    let all = p.findings(&["."]);
    assert!(rules(&all).contains(&"unrecognized-escape"), "{all:?}");
    let ignored = p.findings(&["--ignore", "unrecognized-escape", "."]);
    assert!(
        !rules(&ignored).contains(&"unrecognized-escape"),
        "{ignored:?}"
    );
    let selected = p.findings(&["--select", "trailing-whitespace", "."]);
    assert_eq!(rules(&selected), ["syntax-error"]);
}

#[test]
fn configuration_errors_name_file_and_line_and_exit_2() {
    let p = Project::new("errors");
    p.write("manifests/init.pp", STYLE).write(
        "pupcheck.toml",
        "line-length = 100\nignore = [\"hard-tabs\", \"no-such-rule\"]\n",
    );
    let out = p.check(&["."]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("pupcheck.toml:2: unknown rule or category 'no-such-rule'"),
        "{err}"
    );

    p.write("pupcheck.toml", "[tool]\nx = 1\n");
    let err = String::from_utf8(p.check(&["."]).stderr).unwrap();
    assert!(
        err.contains("pupcheck.toml:1: unknown field `tool`"),
        "{err}"
    );

    let out = p.check(&["--select", "nonsense", "."]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn puppet_lint_rc_is_honoured_without_pupcheck_toml() {
    let p = Project::new("rc");
    p.write("manifests/init.pp", STYLE).write(
        ".puppet-lint.rc",
        "--no-documentation-check\n--no-hard_tabs-check --relative\n--no-some_plugin-check\n--fail-on-warnings\n--ignore-paths=vendor/**\n",
    );
    p.write("vendor/a.pp", STYLE);
    let out = p.check(&["."]);
    assert_eq!(out.status.code(), Some(1), "--fail-on-warnings");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("trailing-whitespace"), "{text}");
    assert!(
        !text.contains("hard-tabs") && !text.contains("documentation"),
        "{text}"
    );
    assert!(!text.contains("autoloader-layout"), "--relative: {text}");
    assert!(!text.contains("vendor"), "{text}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("some_plugin"),
        "the skipped check is named: {err}"
    );
    // With a pupcheck.toml beside it, the rc file is not read.
    p.write("pupcheck.toml", "");
    assert!(rules(&p.findings(&["."])).contains(&"hard-tabs"));
}

#[test]
fn line_length_sets_the_limit_of_line_too_long() {
    let p = Project::new("length");
    let long = format!(
        "# @summary x\nclass demo {{\n  $x = '{}'\n}}\n",
        "a".repeat(100)
    );
    p.write("manifests/demo.pp", &long);
    assert!(!rules(&p.findings(&["manifests"])).contains(&"line-too-long"));
    p.write("pupcheck.toml", "line-length = 80\n");
    assert!(rules(&p.findings(&["manifests"])).contains(&"line-too-long"));
}

#[test]
fn explicit_config_replaces_discovery() {
    let p = Project::new("explicit");
    p.write("manifests/init.pp", STYLE)
        .write("pupcheck.toml", "select = [\"hard-tabs\"]\n")
        .write("ci.toml", "select = [\"trailing-whitespace\"]\n");
    assert_eq!(
        rules(&p.findings(&["--config", "ci.toml", "."])),
        ["trailing-whitespace"]
    );
    let missing = p.check(&["--config", "nope.toml", "."]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn strict_variables_false_makes_unknown_variables_warnings() {
    let p = Project::new("strict-variables");
    p.write(
        "site.pp",
        "class ntp { $servers = [] }\ninclude ntp\nnotice($ntp::server)\n",
    );
    let json = |p: &Project| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
            .args([
                "check",
                "--format",
                "json",
                "--select",
                "unknown-variable",
                ".",
            ])
            .current_dir(&p.0)
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // Puppet 8's default: the compile fails.
    assert_eq!(json(&p)["diagnostics"][0]["severity"], "error");
    p.write("pupcheck.toml", "strict-variables = false\n");
    assert_eq!(json(&p)["diagnostics"][0]["severity"], "warning");
}
