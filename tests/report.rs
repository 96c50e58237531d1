//! `pupcheck report` counts exactly what `pupcheck check` finds: the same roots checked
//! both ways give the same totals by severity, by rule and by module, and every type
//! mismatch of the check is in the report's groups. On the example, the public
//! workspace of the language server's tests, and the corpus when it is installed.

use std::collections::BTreeMap;
use std::process::Command;

fn run(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", String::from_utf8_lossy(&out.stderr)))
}

fn agree(roots: &[&str]) {
    let check = run(&[&["check", "--format", "json", "--quiet"], roots].concat());
    let report = run(&[&["report", "--format", "json", "--quiet"], roots].concat());
    let diagnostics = check["diagnostics"].as_array().unwrap();
    let count = |severity: &str| {
        diagnostics
            .iter()
            .filter(|d| d["severity"] == severity)
            .count()
    };
    assert_eq!(report["errors"].as_u64().unwrap() as usize, count("error"));
    assert_eq!(
        report["warnings"].as_u64().unwrap() as usize,
        count("warning")
    );
    assert_eq!(report["files_checked"], check["summary"]["files"]);
    // By rule.
    let mut by_rule: BTreeMap<String, u64> = BTreeMap::new();
    for d in diagnostics {
        *by_rule
            .entry(d["rule"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let reported: BTreeMap<String, u64> = report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_string(),
                r["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(reported, by_rule);
    // By module, as check's summary counts them.
    let checked: BTreeMap<String, u64> = check["summary"]["by_module"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["count"].as_u64().unwrap(),
            )
        })
        .collect();
    // The report keeps a module's examples and tests, and same-named modules of
    // different repositories, apart: added up by name they are check's.
    let mut modules: BTreeMap<String, u64> = BTreeMap::new();
    for m in report["modules"].as_array().unwrap() {
        let findings = m["errors"].as_u64().unwrap() + m["warnings"].as_u64().unwrap();
        *modules
            .entry(m["module"].as_str().unwrap().to_string())
            .or_default() += findings;
    }
    modules.retain(|_, n| *n > 0);
    assert_eq!(modules, checked);
    // Every error is in one group of the "fix first" sections, with its location.
    let errors: Vec<(String, u64, u64)> = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut grouped: Vec<(String, u64, u64)> = report["fix_first"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["locations"].as_array().unwrap())
        .map(|l| {
            (
                l["path"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
                l["column"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut errors = errors;
    errors.sort();
    grouped.sort();
    assert_eq!(grouped, errors);
    // The repositories add up to the whole.
    let repositories = report["repositories"].as_array().unwrap();
    let total = |key: &str| -> u64 { repositories.iter().map(|r| r[key].as_u64().unwrap()).sum() };
    assert_eq!(total("errors"), report["errors"].as_u64().unwrap());
    assert_eq!(total("files"), report["files_checked"].as_u64().unwrap());
    // Every mismatch the check reports (Puppet's "expects X, got Y") is in a group,
    // once; the groups by parameter and by definition count no more than that.
    let mismatches = diagnostics
        .iter()
        .filter(|d| {
            let m = d["message"].as_str().unwrap();
            m.contains(" expects ") && m.contains(", got ")
        })
        .count() as u64;
    let sum = |key: &str| -> u64 {
        report[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["count"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(report["type_mismatches"].as_u64().unwrap(), mismatches);
    assert_eq!(sum("mismatches"), mismatches);
    assert!(sum("parameters") <= mismatches && sum("definitions") <= mismatches);
}

#[test]
fn the_report_counts_what_check_finds() {
    agree(&["examples/demo"]);
    agree(&["examples/demo", "tests/lsp/workspace", "tests/fixtures"]);
}

#[test]
fn the_report_of_the_corpus_counts_what_check_finds() {
    let corpus = "/usr/share/puppet/modules.available";
    if !std::path::Path::new(corpus).is_dir() {
        assert!(
            std::env::var_os("PUPCHECK_REQUIRE_CORPUS").is_none(),
            "the corpus is required (scripts/setup.sh)"
        );
        return;
    }
    agree(&[corpus]);
    for format in ["terminal", "markdown", "html"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
            .args(["report", "--quiet", "--format", format, corpus])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("quagga::bgpd"), "{format}");
    }
}

#[test]
fn every_format_renders() {
    for format in ["terminal", "markdown", "html", "json"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
            .args(["report", "--quiet", "--format", format, "examples/demo"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("motd_lines"), "{format}: {text}");
        assert!(text.contains("parameter-type-mismatch"), "{format}");
    }
}

fn pupcheck(args: &[&str], cwd: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pupcheck"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const BASE: &str = "# @param port\nclass profile::base(Integer $port = 1) {\n}\n";

/// Two control repositories with a `profile` module each, one with an example.
fn estate() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for repo in ["alpha", "beta"] {
        let root = dir.path().join(repo);
        std::fs::create_dir_all(root.join(".git")).unwrap();
        write(&root.join("site/profile/manifests/base.pp"), BASE);
    }
    write(
        &dir.path().join("alpha/site/profile/manifests/app.pp"),
        "# app\nclass profile::app {\n  class { 'profile::base': port => 'x' }\n}\n",
    );
    write(
        &dir.path().join("alpha/site/profile/examples/init.pp"),
        "class { 'profile::base': port => 'y' }\n",
    );
    dir
}

#[test]
fn repositories_modules_and_examples_are_kept_apart() {
    let dir = estate();
    let out = pupcheck(&["report", "--quiet", "--format", "json", "."], dir.path());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let repositories: Vec<&str> = report["repositories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["repository"].as_str().unwrap())
        .collect();
    assert_eq!(repositories, ["alpha", "beta"]);
    let modules: Vec<(&str, &str, &str, u64)> = report["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["repository"].as_str().unwrap(),
                m["module"].as_str().unwrap(),
                m["part"].as_str().unwrap(),
                m["errors"].as_u64().unwrap(),
            )
        })
        .collect();
    // By errors per thousand lines: the one-line example first.
    assert_eq!(
        modules,
        [
            ("alpha", "profile", "examples", 1),
            ("alpha", "profile", "code", 1),
            ("beta", "profile", "code", 0),
        ]
    );
    // The example's error is in its own section, after the code's.
    let groups: Vec<(&str, &str, &str)> = report["fix_first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["rule"].as_str().unwrap(),
                g["subject"].as_str().unwrap(),
                g["part"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("parameter-type-mismatch", "class profile::base", "code"),
            ("parameter-type-mismatch", "class profile::base", "examples"),
        ]
    );
    // Links are relative to the report's file.
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    let out = pupcheck(
        &[
            "report",
            "--quiet",
            "--format",
            "json",
            "-o",
            "reports/r.json",
            "alpha",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("reports/r.json")).unwrap()).unwrap();
    assert_eq!(
        report["fix_first"][0]["locations"][0]["link"],
        "../alpha/site/profile/manifests/app.pp#L3"
    );
    // From a web base, inside the repository.
    let out = pupcheck(
        &[
            "report",
            "--quiet",
            "--format",
            "json",
            "--link-base",
            "https://github.com/acme/{repository}/blob/main/",
            ".",
        ],
        dir.path(),
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["fix_first"][0]["locations"][0]["link"],
        "https://github.com/acme/alpha/blob/main/site/profile/manifests/app.pp#L3"
    );
}

#[test]
fn fail_on_fails_the_report_as_it_fails_check() {
    let dir = estate();
    let status = |args: &[&str]| pupcheck(args, dir.path()).status.code();
    assert_eq!(status(&["report", "--quiet", "."]), Some(0));
    assert_eq!(
        status(&["report", "--quiet", "--fail-on", "error", "."]),
        Some(1)
    );
    assert_eq!(
        status(&["report", "--quiet", "--fail-on", "error", "beta"]),
        Some(0)
    );
    assert_eq!(
        status(&["report", "--quiet", "--fail-on", "warning", "beta"]),
        pupcheck(
            &["check", "--quiet", "--fail-on", "warning", "beta"],
            dir.path()
        )
        .status
        .code()
    );
}

#[test]
fn compare_shows_what_changed_since_an_earlier_report() {
    let dir = estate();
    let out = pupcheck(
        &[
            "report", "--quiet", "--format", "json", "-o", "old.json", ".",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    write(
        &dir.path().join("beta/site/profile/manifests/app.pp"),
        "# app\nclass profile::app {\n  profile::base::x { 'a': }\n  $p = 'p'\n  $p = 'q'\n}\n",
    );
    std::fs::remove_file(dir.path().join("alpha/site/profile/examples/init.pp")).unwrap();
    let out = pupcheck(
        &[
            "report",
            "--quiet",
            "--format",
            "json",
            "--compare",
            "old.json",
            ".",
        ],
        dir.path(),
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let compared = &report["compared"];
    let change = |section: &str, name: &str| -> (u64, u64) {
        let row = compared[section]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{section} {name}: {compared:#}"));
        (
            row["before"].as_u64().unwrap(),
            row["now"].as_u64().unwrap(),
        )
    };
    assert_eq!(change("totals", "errors"), (2, 3));
    assert_eq!(change("repositories", "beta"), (0, 2));
    assert_eq!(change("errors", "evaluation-error"), (0, 1));
    assert_eq!(
        change(
            "errors",
            "parameter-type-mismatch: class profile::base (examples)"
        ),
        (1, 0)
    );
    // Unchanged groups are not listed.
    assert!(compared["errors"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["name"] != "parameter-type-mismatch: class profile::base"));
    for format in ["terminal", "markdown", "html"] {
        let out = pupcheck(
            &[
                "report",
                "--quiet",
                "--format",
                format,
                "--compare",
                "old.json",
                ".",
            ],
            dir.path(),
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Since old.json"), "{format}");
        assert!(text.contains("evaluation-error"), "{format}");
    }
    // An earlier report that is no report: a clear error.
    write(&dir.path().join("bad.json"), "[]");
    let out = pupcheck(
        &["report", "--quiet", "--compare", "bad.json", "."],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a report"));
}

#[test]
fn the_fixable_count_is_what_fix_clears() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("m/manifests/init.pp"),
        "class m {\n  $a = \"plain\"   \n  file { '/x':\n    ensure => present,\n    mode => '0644',\n  }\n}\n",
    );
    let findings = || -> u64 {
        let out = pupcheck(&["check", "--quiet", "--format", "json", "."], dir.path());
        let check: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        check["diagnostics"].as_array().unwrap().len() as u64
    };
    let out = pupcheck(&["report", "--quiet", "--format", "json", "."], dir.path());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fixable = report["fixable"].as_u64().unwrap();
    assert!(fixable >= 3, "{report:#}");
    let before = findings();
    assert!(pupcheck(&["check", "--quiet", "--fix", "."], dir.path())
        .status
        .code()
        .is_some());
    assert_eq!(before - findings(), fixable);
}
