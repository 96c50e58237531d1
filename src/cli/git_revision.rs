//! A tree as a git revision holds it, written out to a temporary folder, for
//! `pupcheck catalog --diff-rev REV`: the catalogs of the change's base, compared with
//! those of the working tree.
//!
//! It asks the `git` program (`rev-parse`, `ls-tree`, `cat-file --batch`, `ls-files`),
//! which every repository a user runs this in comes with, rather than a git library:
//! reading a tree and its blobs is all this needs, and a library would weigh more on
//! the build than everything else here. The repository may be untrusted (a pull
//! request's): its configuration can name programs git runs (`core.fsmonitor` when the
//! index is read, hooks), so every call turns those off (`SAFE_SETTINGS`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A revision's files, written out; removed when dropped.
pub struct RevisionTree {
    _folder: tempfile::TempDir,
    /// Where the tree asked for is within it (the repository's root, or the same
    /// subfolder as in the working tree).
    pub tree: PathBuf,
}

/// Writes out the files `rev` holds in the git repository around `tree`, and says
/// where `tree` is among them. The working tree's ignored folders (the modules r10k
/// installs, say) are linked in at their places: the revision does not hold them, and
/// both sides of a comparison read the same installed modules.
pub fn write_out(tree: &Path, rev: &str) -> Result<RevisionTree, String> {
    let dir = if tree.is_dir() {
        tree.to_path_buf()
    } else {
        tree.parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    };
    let top = PathBuf::from(
        git(&dir, &["rev-parse", "--show-toplevel"])
            .map_err(|e| format!("{}: not in a git repository ({e})", tree.display()))?
            .trim_end(),
    );
    let prefix = git(&dir, &["rev-parse", "--show-prefix"])?;
    let object = format!("{rev}^{{tree}}");
    let tree_id = git(&top, &["rev-parse", "--verify", "--quiet", &object])
        .map_err(|_| format!("{rev}: no such revision in {}", top.display()))?;
    let folder = tempfile::Builder::new()
        .prefix("pupcheck-rev-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let entries = tree_entries(&top, tree_id.trim())?;
    write_blobs(&top, folder.path(), &entries)?;
    link_ignored(&top, folder.path())?;
    let mut inside = folder.path().join(prefix.trim_end());
    if !tree.is_dir() {
        if let Some(name) = tree.file_name() {
            inside.push(name);
        }
    }
    Ok(RevisionTree {
        _folder: folder,
        tree: inside,
    })
}

/// One file of a git tree.
struct Entry {
    mode: String,
    id: String,
    path: PathBuf,
}

/// Every file of the tree (`ls-tree -r`), submodules left out: their commits are not
/// in this repository.
fn tree_entries(top: &Path, tree_id: &str) -> Result<Vec<Entry>, String> {
    let listing = git_bytes(top, &["ls-tree", "-r", "-z", "--full-tree", tree_id])?;
    let mut entries = Vec::new();
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let tab = record
            .iter()
            .position(|&b| b == b'\t')
            .ok_or("git ls-tree: no tab")?;
        let head = String::from_utf8_lossy(&record[..tab]);
        let mut fields = head.split(' ');
        let (Some(mode), Some(kind), Some(id)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("git ls-tree: cannot read {head:?}"));
        };
        if kind != "blob" {
            continue;
        }
        let path = path_of(&record[tab + 1..]);
        // (git refuses such paths; a tree made by other means might hold them.)
        if path.is_absolute()
            || path
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(format!("git ls-tree: refusing the path {}", path.display()));
        }
        entries.push(Entry {
            mode: mode.to_string(),
            id: id.to_string(),
            path,
        });
    }
    Ok(entries)
}

#[cfg(unix)]
fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Writes each entry's content (`cat-file --batch`, one process for all of them) under
/// `into`; a symbolic link is made a link where the system has them.
fn write_blobs(top: &Path, into: &Path, entries: &[Entry]) -> Result<(), String> {
    let mut child = git_command(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("git cat-file: no input")?;
    let ids: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    // Written from another thread: git answers as it reads, and both pipes are finite.
    let writer = std::thread::spawn(move || {
        for id in ids {
            if writeln!(stdin, "{id}").is_err() {
                break;
            }
        }
    });
    let mut out = BufReader::new(child.stdout.take().ok_or("git cat-file: no output")?);
    let mut result = Ok(());
    for entry in entries {
        let content = match read_blob(&mut out, &entry.id) {
            Ok(content) => content,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        let path = into.join(&entry.path);
        if let Err(e) = write_entry(&path, &entry.mode, &content) {
            result = Err(format!("cannot write {}: {e}", path.display()));
            break;
        }
    }
    drop(out);
    let _ = writer.join();
    let _ = child.wait();
    result
}

/// One answer of `cat-file --batch`: `<id> blob <size>\n<content>\n`.
fn read_blob(out: &mut impl BufRead, id: &str) -> Result<Vec<u8>, String> {
    let mut header = String::new();
    out.read_line(&mut header)
        .map_err(|e| format!("git cat-file: {e}"))?;
    let mut fields = header.split_whitespace();
    let size = match (fields.next(), fields.next(), fields.next()) {
        (Some(got), Some("blob"), Some(size)) if got == id => size
            .parse::<usize>()
            .map_err(|_| format!("git cat-file: cannot read {header:?}"))?,
        _ => {
            return Err(format!(
                "git cat-file: no blob {id} ({})",
                header.trim_end()
            ))
        }
    };
    let mut content = vec![0; size + 1];
    out.read_exact(&mut content)
        .map_err(|e| format!("git cat-file: {e}"))?;
    content.pop();
    Ok(content)
}

fn write_entry(path: &Path, mode: &str, content: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    #[cfg(unix)]
    if mode == "120000" {
        return std::os::unix::fs::symlink(path_of(content), path);
    }
    let _ = mode;
    std::fs::write(path, content)
}

/// Links each folder of the working tree that git ignores as a whole into `into`, at
/// the same place, unless the revision has something there.
fn link_ignored(top: &Path, into: &Path) -> Result<(), String> {
    let listing = git_bytes(
        top,
        &[
            "ls-files",
            "-z",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--directory",
        ],
    )?;
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        if record.last() != Some(&b'/') {
            continue;
        }
        let relative = path_of(&record[..record.len() - 1]);
        let (from, to) = (top.join(&relative), into.join(&relative));
        if to.symlink_metadata().is_ok() || !from.is_dir() {
            continue;
        }
        if let Some(parent) = to.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink(&from, &to);
        #[cfg(windows)]
        let _ = std::os::windows::fs::symlink_dir(&from, &to);
    }
    Ok(())
}

/// Settings given on git's command line, which outrank the repository's own: no
/// program of the repository's choosing runs (none of these commands runs hooks,
/// filters or a pager; `core.fsmonitor` runs when `ls-files` reads the index).
const SAFE_SETTINGS: &[&str] = &[
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.untrackedCache=false",
];

fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .args(SAFE_SETTINGS)
        .arg("-C")
        .arg(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0");
    command
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    git_bytes(dir, args).map(|out| String::from_utf8_lossy(&out).into_owned())
}

fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = git_command(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}
