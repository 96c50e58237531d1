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
    let modules: BTreeMap<String, u64> = report["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let findings = m["errors"].as_u64().unwrap() + m["warnings"].as_u64().unwrap();
            (m["module"].as_str().unwrap().to_string(), findings)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    assert_eq!(modules, checked);
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
