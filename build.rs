//! Records the commit the binary is built from, for `pupcheck --version`: the short hash
//! of HEAD. A build outside a git checkout (a source archive) says `unknown commit`.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
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
