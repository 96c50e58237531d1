//! Baselines as a team adopting pupcheck uses them: record today's findings, edit the
//! code, and see only what is new.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of `tests/fixtures/legacy` in a fresh temporary directory.
struct Module {
    root: PathBuf,
    dir: PathBuf,
}

impl Module {
    fn new(name: &str) -> Module {
        let root =
            std::env::temp_dir().join(format!("pupcheck-baseline-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // The module's folder is named as its class (autoloader layout).
        let dir = root.join("legacy");
        std::fs::create_dir_all(dir.join("manifests")).unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/legacy");
        std::fs::copy(
            fixture.join("manifests/init.pp"),
            dir.join("manifests/init.pp"),
        )
        .unwrap();
        Module { root, dir }
    }

    fn check(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pupcheck"))
            .arg("check")
            .args(args)
            .current_dir(&self.dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    fn manifest(&self) -> String {
        std::fs::read_to_string(self.dir.join("manifests/init.pp")).unwrap()
    }

    fn edit(&self, edit: impl FnOnce(String) -> String) {
        let text = edit(self.manifest());
        std::fs::write(self.dir.join("manifests/init.pp"), text).unwrap();
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn concise(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn only_new_findings_are_reported_after_lines_move() {
    let module = Module::new("moved");
    let out = module.check(&["--write-baseline", "baseline.json", "."]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Wrote 5 findings"));
    let out = module.check(&["--baseline", "baseline.json", "--format", "concise", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert!(concise(&out).is_empty(), "{out:?}");

    module.edit(|text| {
        text
            // Two lines above the file-mode findings (and every later one).
            .replace(
                "  file { $path:",
                "  # Managed by the platform team.\n  $owner = 'root'\n\n  file { $path:",
            )
            // A line right above the last double-quoted string.
            .replace(
                "  $greeting = \"hello\"",
                "  notice('greeting')\n  $greeting = \"hello\"",
            )
            // One new finding, an error.
            .replace("  notice($greeting)", "  notice($greeting)\n  $facts = {}")
    });
    let out = module.check(&["--baseline", "baseline.json", "--format", "concise", "."]);
    assert_eq!(
        concise(&out),
        ["./manifests/init.pp:16:3: reserved-variable-assignment Attempt to assign to a reserved variable name: '$facts'"],
        "{}",
        module.manifest()
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("5 known findings hidden by the baseline."),
        "{stderr}"
    );
    assert!(!stderr.contains("fixed"), "{stderr}");
}

#[test]
fn fixed_findings_are_counted_for_pruning() {
    let module = Module::new("fixed");
    module.check(&["--write-baseline", "baseline.json", "."]);
    module.edit(|text| {
        text.replace("755", "'0755'")
            .replace("\"hello\"", "'hello'")
    });
    let out = module.check(&["--baseline", "baseline.json", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"], serde_json::json!([]));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("4 baseline entries are fixed; run --write-baseline to prune."),
        "{stderr}"
    );
}

#[test]
fn the_baseline_file_is_readable_json() {
    let module = Module::new("format");
    module.check(&["--write-baseline", "baseline.json", "."]);
    let text = std::fs::read_to_string(module.dir.join("baseline.json")).unwrap();
    let baseline: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(baseline["version"], 1);
    let first = &baseline["findings"][0];
    assert_eq!(first["path"], "manifests/init.pp");
    assert_eq!(first["rule"], "double-quoted-strings");
    assert_eq!(first["line"], 3);
    assert_eq!(first["fingerprint"].as_str().unwrap().len(), 32);
}

#[test]
fn a_broken_baseline_is_a_usage_error() {
    let module = Module::new("broken");
    std::fs::write(module.dir.join("baseline.json"), "[1, 2").unwrap();
    let out = module.check(&["--baseline", "baseline.json", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a pupcheck baseline"));
    let out = module.check(&["--baseline", "missing.json", "."]);
    assert_eq!(out.status.code(), Some(2));
    let out = module.check(&["--baseline", "a.json", "--write-baseline", "b.json", "."]);
    assert_eq!(out.status.code(), Some(2));
}
