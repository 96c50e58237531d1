//! Changes on disk for clients that cannot watch files for the server (Neovim on
//! Linux does not offer `workspace/didChangeWatchedFiles` registration by default):
//! every few seconds the workspace folders' files the checks read are listed with
//! their modification time and size, and what was created, changed or removed since
//! the last listing is handled as the watcher's notification would be.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The least time between two listings; a listing that takes long spaces them out
/// further (`SLOWDOWN` times its own time), so a huge workspace costs little.
const INTERVAL: Duration = Duration::from_secs(2);
const SLOWDOWN: u32 = 50;
/// Files listed at most: past it, the rest of the workspace is not polled.
const MAX_FILES: usize = 100_000;

pub struct Poller {
    folders: Vec<PathBuf>,
    seen: HashMap<PathBuf, (Option<SystemTime>, u64)>,
    pub next: Instant,
}

impl Poller {
    pub fn new(folders: &[PathBuf]) -> Poller {
        let mut poller = Poller {
            folders: folders.to_vec(),
            seen: HashMap::new(),
            next: Instant::now(),
        };
        poller.seen = poller.listing();
        poller
    }

    /// The files created, changed or removed since the last call.
    pub fn changed(&mut self) -> Vec<PathBuf> {
        let started = Instant::now();
        let now = self.listing();
        let mut changed: Vec<PathBuf> = now
            .iter()
            .filter(|(path, stamp)| self.seen.get(*path) != Some(stamp))
            .map(|(path, _)| path.clone())
            .collect();
        changed.extend(self.seen.keys().filter(|p| !now.contains_key(*p)).cloned());
        self.seen = now;
        self.next = Instant::now() + INTERVAL.max(started.elapsed() * SLOWDOWN);
        changed
    }

    fn listing(&self) -> HashMap<PathBuf, (Option<SystemTime>, u64)> {
        let mut out = HashMap::new();
        for folder in &self.folders {
            // Ignored folders count too: r10k installs modules into one.
            let walk = ignore::WalkBuilder::new(folder)
                .standard_filters(false)
                .filter_entry(|e| !is_tool_folder(e.path()))
                .build();
            for entry in walk.flatten() {
                if out.len() >= MAX_FILES {
                    return out;
                }
                if !entry.file_type().is_some_and(|t| t.is_file()) || !is_read(entry.path()) {
                    continue;
                }
                let Ok(metadata) = entry.metadata() else {
                    continue;
                };
                out.insert(
                    entry.path().to_path_buf(),
                    (metadata.modified().ok(), metadata.len()),
                );
            }
        }
        out
    }
}

/// Folders no check reads: version control's, build output, editors' and tools'.
fn is_tool_folder(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        matches!(
            n,
            ".git" | ".hg" | ".svn" | "target" | "node_modules" | ".bundle"
        )
    })
}

/// Whether a check reads the file: manifests, templates, Hiera's files, metadata,
/// Ruby types and functions, configuration.
fn is_read(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    matches!(extension, "pp" | "epp" | "yaml" | "yml" | "eyaml")
        || matches!(
            name,
            "metadata.json"
                | "pupcheck.toml"
                | ".puppet-lint.rc"
                | "environment.conf"
                | "Puppetfile"
        )
        || (extension == "rb" && path.components().any(|c| c.as_os_str() == "puppet"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sees_files_created_changed_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("manifests/a.pp", "class a {}\n");
        write("manifests/b.pp", "class b {}\n");
        write(".git/objects/x.pp", "not read\n");
        let mut poller = Poller::new(&[dir.path().to_path_buf()]);
        assert!(poller.changed().is_empty());
        write("manifests/a.pp", "class a { notice('x') }\n");
        write("manifests/c.pp", "class c {}\n");
        std::fs::remove_file(dir.path().join("manifests/b.pp")).unwrap();
        write("README.md", "not read\n");
        let mut changed = poller.changed();
        changed.sort();
        let names: Vec<_> = changed
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            ["manifests/a.pp", "manifests/b.pp", "manifests/c.pp"].map(PathBuf::from)
        );
        assert!(poller.changed().is_empty());
    }
}
