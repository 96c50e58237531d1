//! The cache on disk of what other modules' files define (`src/cache.rs`): a warm run
//! reports what a cold one does, a changed file is read again, and `--no-cache` and
//! `PUPCHECK_NO_CACHE` leave the cache alone.

use std::path::Path;
use std::process::Command;

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
    let root = tempfile::tempdir().unwrap();
    let cache = root.path().join("cache");
    environment(root.path());
    let cold = findings(root.path(), &cache, &[], &[]);
    assert_eq!(cold.len(), 2, "{cold:?}");
    assert!(cold[0].contains("parameter-type-mismatch"), "{cold:?}");
    assert!(cold[1].contains("unknown-attribute"), "{cold:?}");
    // The class's manifest and the resource type were remembered.
    assert_eq!(entries(&cache), 2);
    assert_eq!(findings(root.path(), &cache, &[], &[]), cold);
    assert_eq!(findings(root.path(), &cache, &["--no-cache"], &[]), cold);

    // Changed files are read again: the parameter takes strings now, and the type has
    // the attribute.
    write(
        &root.path().join("modules/ntp/manifests/init.pp"),
        "class ntp (String $port = '123') {}\n",
    );
    write(
        &root.path().join("modules/ntp/lib/puppet/type/ntp_peer.rb"),
        &NTP_TYPE.replace(
            "newproperty(:port)",
            "newproperty(:port)\n  newproperty(:weight)",
        ),
    );
    assert_eq!(
        findings(root.path(), &cache, &[], &[]),
        Vec::<String>::new()
    );
    // One entry per file and kind: a changed file's replaces the old one.
    assert_eq!(entries(&cache), 2);
}

#[test]
fn no_cache_leaves_the_cache_alone() {
    let root = tempfile::tempdir().unwrap();
    environment(root.path());
    let cache = root.path().join("cache");
    let with_flag = findings(root.path(), &cache, &["--no-cache"], &[]);
    let with_variable = findings(root.path(), &cache, &[], &[("PUPCHECK_NO_CACHE", "1")]);
    assert_eq!(with_flag.len(), 2, "{with_flag:?}");
    assert_eq!(with_flag, with_variable);
    assert!(!cache.exists());
}
