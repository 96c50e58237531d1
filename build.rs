//! Records the commit the binary is built from, for `pupcheck --version`: the short hash
//! of HEAD. A build outside a git checkout (a source archive) says `unknown commit`.
//!
//! Embeds Puppet's built-in tables (every `data/*.toml`, generated from Puppet by the
//! scripts under `scripts/puppet/`) as JSON: the tables stay TOML in the repository,
//! where they are reviewed and diffed, and a run reads them as JSON, which serde_json
//! reads several times faster than the toml crate reads TOML (reading them was some
//! 5 % of the instructions of a one-file check). `crate::builtin_data` names them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes each `data/<table>.toml` as `$OUT_DIR/<table>.json`: the same document
/// (TOML's tables are JSON's objects, its arrays and scalars JSON's; the tables hold no
/// dates).
fn embed_tables() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let data = Path::new("data");
    // (A folder: cargo looks at every file under it.)
    println!("cargo:rerun-if-changed={}", data.display());
    let entries = std::fs::read_dir(data).unwrap_or_else(|e| panic!("data: {e}"));
    for entry in entries {
        let source = entry.unwrap_or_else(|e| panic!("data: {e}")).path();
        if source.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let document: toml::Table =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let json = serde_json::to_string(&document)
            .unwrap_or_else(|e| panic!("{} as JSON: {e}", source.display()));
        let target = out.join(source.with_extension("json").file_name().expect("a file"));
        std::fs::write(&target, json).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    embed_tables();
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    println!(
        "cargo:rustc-env=PUPCHECK_COMMIT={}",
        commit.unwrap_or_else(|| "unknown commit".to_string())
    );
    // Again when HEAD moves (a commit, a checkout).
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        for file in ["HEAD", "packed-refs"] {
            let path = Path::new(&git_dir).join(file);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let path = Path::new(&git_dir).join(reference);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
