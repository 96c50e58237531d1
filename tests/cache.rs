//! The cache on disk of what other modules' files define (`src/cache.rs`): a warm run
//! reports what a cold one does, a changed file is read again, and `--no-cache` and
//! `PUPCHECK_NO_CACHE` leave the cache alone.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir =
        std::env::temp_dir().join(format!("pupcheck-cache-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The rules and lines of the findings of checking `site`'s manifest, with the cache in
/// `cache` (and `more` arguments).
fn findings(root: &Path, cache: &Path, more: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
        .args(["check", "--format", "json", "--select", "type"])
        .args(more)
        .arg(root.join("modules/site/manifests/init.pp"))
        .env("PUPCHECK_CACHE_DIR", cache)
        .env_remove("PUPCHECK_NO_CACHE")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}:{} {}", d["rule"], d["line"], d["message"]))
        .collect()
}

fn entries(cache: &Path) -> usize {
    fn count(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .flatten()
                .map(|e| {
                    let path = e.path();
                    if path.is_dir() {
                        count(&path)
                    } else {
                        usize::from(path.file_name().unwrap() != "CACHEDIR.TAG")
                    }
                })
                .sum()
        })
    }
    count(cache)
}

const NTP_TYPE: &str = "Puppet::Type.newtype(:ntp_peer) do\n  newparam(:name, namevar: true)\n  newproperty(:port)\nend\n";

fn environment(root: &Path) {
    write(
        &root.join("modules/ntp/manifests/init.pp"),
        "class ntp (Integer $port = 123) {}\n",
    );
    write(
        &root.join("modules/ntp/lib/puppet/type/ntp_peer.rb"),
        NTP_TYPE,
    );
    write(
        &root.join("modules/site/manifests/init.pp"),
        "class site {\n  class { 'ntp': port => 'x' }\n  ntp_peer { 'a': weight => 1 }\n}\n",
    );
}

#[test]
fn a_warm_run_reports_what_a_cold_one_does_and_reads_changed_files_again() {
    let root = scratch("warm");
    let cache = root.0.join("cache");
    environment(&root.0);
    let cold = findings(&root.0, &cache, &[], &[]);
    assert_eq!(cold.len(), 2, "{cold:?}");
    assert!(cold[0].contains("parameter-type-mismatch"), "{cold:?}");
    assert!(cold[1].contains("unknown-attribute"), "{cold:?}");
    // The class's manifest and the resource type were remembered.
    assert_eq!(entries(&cache), 2);
    assert_eq!(findings(&root.0, &cache, &[], &[]), cold);
    assert_eq!(findings(&root.0, &cache, &["--no-cache"], &[]), cold);

    // Changed files are read again: the parameter takes strings now, and the type has
    // the attribute.
    write(
        &root.0.join("modules/ntp/manifests/init.pp"),
        "class ntp (String $port = '123') {}\n",
    );
    write(
        &root.0.join("modules/ntp/lib/puppet/type/ntp_peer.rb"),
        &NTP_TYPE.replace(
            "newproperty(:port)",
            "newproperty(:port)\n  newproperty(:weight)",
        ),
    );
    assert_eq!(findings(&root.0, &cache, &[], &[]), Vec::<String>::new());
    assert_eq!(entries(&cache), 4);
}

#[test]
fn no_cache_leaves_the_cache_alone() {
    let root = scratch("off");
    environment(&root.0);
    let cache = root.0.join("cache");
    let with_flag = findings(&root.0, &cache, &["--no-cache"], &[]);
    let with_variable = findings(&root.0, &cache, &[], &[("PUPCHECK_NO_CACHE", "1")]);
    assert_eq!(with_flag.len(), 2, "{with_flag:?}");
    assert_eq!(with_flag, with_variable);
    assert!(!cache.exists());
}
