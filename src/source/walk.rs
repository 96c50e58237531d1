//! Finding the files to check under the paths a user gives (files, modules, a
//! modulepath, a control repository), and reading them.

use super::{SourceFile, SourceKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files larger than this are reported, not parsed. Checking takes about 80 bytes of
/// memory per byte of source (tree, AST and index), so this bounds one thread's memory
/// near 1.3 GB; the largest real manifests are well under 1 MB.
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// Directories never descended into unless named on the command line: version control,
/// vendored gems, built packages and the copies of other modules that rspec-puppet
/// places under `spec/fixtures`.
const SKIPPED_DIRECTORIES: &[&str] = &[".git", ".hg", ".svn", "vendor", "pkg", "node_modules"];

/// A file to check, as found under a path the user gave.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FoundFile {
    pub path: PathBuf,
    pub kind: SourceKind,
    /// The real folder the file must lie in to be read: the folder walked (its real
    /// path), or for a link named on the command line the working folder. Its real path
    /// is checked when it is read, and it is read through its folder opened without
    /// following links ([`super::read::read_bytes_within`]): a link out, or a folder
    /// swapped for one after the walk, is reported as unreadable, never read. `None`:
    /// read where the path leads (a file named itself, a module's file).
    pub within: Option<std::sync::Arc<Path>>,
}

/// A path that could not be walked.
#[derive(Debug, Clone)]
pub struct WalkError {
    pub path: PathBuf,
    pub message: String,
    /// A folder left out on purpose (a link leading outside the folder checked, as a
    /// Puppetfile's modules linked in from elsewhere are): said, but no error.
    pub deliberate: bool,
}

/// The `.pp` and `.epp` files under `roots`, sorted by path, without duplicates. A file
/// named directly is always checked: as a template if it ends in `.epp`, as data if it
/// is YAML or JSON (judged with the Hiera files or the `metadata.json` it is, never
/// parsed as Puppet), else as a manifest. Directories are walked honouring
/// `.gitignore`, skipping the usual non-source folders.
///
/// Nothing outside them is read: a link found in a folder that leads outside it (to
/// a secret, `/proc/self/environ`, `/`) is not followed; a file named on the command
/// line that is a link is followed only into the working folder.
pub fn find_files(roots: &[PathBuf]) -> (Vec<FoundFile>, Vec<WalkError>) {
    use rayon::prelude::*;
    let working_folder: Option<Arc<Path>> = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .ok()
        .map(Arc::from);
    let mut files = Vec::new();
    let mut errors = Vec::new();
    // (Read on every core: a pre-commit hook, or a list of files, names each file.)
    let metadata: Vec<std::io::Result<std::fs::Metadata>> =
        roots.par_iter().map(std::fs::metadata).collect();
    for (root, metadata) in roots.iter().zip(metadata) {
        match metadata {
            Ok(meta) if !meta.is_dir() => {
                // A FIFO or device named on the command line is reported when read, never
                // passed over as if it held nothing.
                let kind =
                    SourceKind::from_path(root).unwrap_or(if SourceKind::is_data_path(root) {
                        SourceKind::Data
                    } else {
                        SourceKind::Manifest
                    });
                let is_link = std::fs::symlink_metadata(root).is_ok_and(|m| m.is_symlink());
                // (A working folder that could not be resolved holds nothing: an empty
                // path is no real folder.)
                let within = is_link.then(|| {
                    working_folder
                        .clone()
                        .unwrap_or_else(|| Arc::from(Path::new("")))
                });
                files.push(FoundFile {
                    path: root.clone(),
                    kind,
                    within,
                });
            }
            Ok(_) => walk_directory(root, &mut files, &mut errors),
            Err(e) => errors.push(WalkError {
                path: root.clone(),
                message: e.to_string(),
                deliberate: false,
            }),
        }
    }
    // By path, then kind (`FoundFile`'s order), comparing bytes, not components.
    files.sort_by_key(|file| file.kind);
    super::path_order::sort_by_path(&mut files, |file| &file.path);
    files.dedup();
    // The walk lists folders in parallel: errors come in any order.
    errors.sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
    (files, errors)
}

fn walk_directory(root: &Path, files: &mut Vec<FoundFile>, errors: &mut Vec<WalkError>) {
    // Links are followed inside the folder only (its real path: it may be a link).
    let real_root: Option<Arc<Path>> = std::fs::canonicalize(root).ok().map(Arc::from);
    let outward_folders = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (filter_root, outward) = (real_root.clone(), outward_folders.clone());
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .parents(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(true)
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if !is_dir || entry.depth() == 0 {
                return true;
            }
            if entry.path_is_symlink() && leads_outside(entry.path(), filter_root.as_deref()) {
                if let Ok(mut outward) = outward.lock() {
                    outward.push(WalkError {
                        path: entry.path().to_path_buf(),
                        message: "not walked: a link to a folder outside the folder checked".into(),
                        deliberate: true,
                    });
                }
                return false;
            }
            let name = entry.file_name().to_string_lossy();
            if SKIPPED_DIRECTORIES.contains(&name.as_ref()) {
                return false;
            }
            // spec/fixtures holds copies of other modules for rspec-puppet.
            if name == "fixtures"
                && entry
                    .path()
                    .parent()
                    .and_then(|p| p.file_name())
                    .is_some_and(|p| p == "spec")
            {
                return false;
            }
            // A module's files/ holds what Puppet serves to agents, never code it
            // compiles: a `.pp` there is as often an SELinux policy package (binary),
            // which is no manifest. (Named, a file there is checked.)
            !(name == "files" && entry.path().parent().is_some_and(is_module_folder))
        })
        .threads(rayon::current_num_threads())
        .build_parallel();
    // The folders are listed on every core (listing thousands of folders was a serial
    // tenth of a one-thread corpus check); the caller sorts what is found.
    let found = std::sync::Mutex::new((Vec::new(), Vec::new()));
    walker.run(|| {
        Box::new(|entry| {
            let mut local_files = Vec::new();
            let mut local_errors = Vec::new();
            take_entry(
                root,
                real_root.as_ref(),
                entry,
                &mut local_files,
                &mut local_errors,
            );
            if !(local_files.is_empty() && local_errors.is_empty()) {
                if let Ok(mut found) = found.lock() {
                    found.0.append(&mut local_files);
                    found.1.append(&mut local_errors);
                }
            }
            ignore::WalkState::Continue
        })
    });
    let (found_files, found_errors) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    files.extend(found_files);
    errors.extend(found_errors);
    let outward = match outward_folders.lock() {
        Ok(mut outward) => std::mem::take(&mut *outward),
        Err(_) => Vec::new(),
    };
    errors.extend(outward);
}

/// Whether the link at `path` leads outside `inside` (a real path; `None` when it could
/// not be read: then nothing is inside). A dangling link leads nowhere: reading it
/// reports it.
fn leads_outside(path: &Path, inside: Option<&Path>) -> bool {
    match std::fs::canonicalize(path) {
        Ok(real) => !inside.is_some_and(|folder| real.starts_with(folder)),
        Err(_) => false,
    }
}

/// What a file found in a walk of `real_root` must lie in: the root, and for a link
/// when the root could not be resolved, nothing (an empty path is no real folder).
fn within_root(real_root: Option<&Arc<Path>>, is_link: bool) -> Option<Arc<Path>> {
    match real_root {
        Some(root) => Some(Arc::clone(root)),
        None => is_link.then(|| Arc::from(Path::new(""))),
    }
}

/// One entry of a folder's walk: a file named like a manifest or template, or an error
/// worth reporting.
fn take_entry(
    root: &Path,
    real_root: Option<&Arc<Path>>,
    entry: Result<ignore::DirEntry, ignore::Error>,
    files: &mut Vec<FoundFile>,
    errors: &mut Vec<WalkError>,
) {
    match entry {
        Ok(entry) => {
            // Anything named like a manifest but a folder is checked, so a FIFO or
            // device is reported when read rather than passed over.
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                return;
            }
            if let Some(kind) = SourceKind::from_path(entry.path()) {
                let within = within_root(real_root, entry.path_is_symlink());
                files.push(FoundFile {
                    path: entry.into_path(),
                    kind,
                    within,
                });
            }
        }
        // A link back to a folder being walked (a Bolt project's
        // `Boltdir/site/<module>` pointing at the module) leads only to files the walk
        // finds anyway: nothing is lost and nothing is wrong.
        Err(e) if is_loop(&e) => {}
        Err(e) => match dangling_link(&e) {
            // A dangling link is nothing to check unless it is named like a
            // manifest; then reading it reports it.
            Some(path) => {
                if let Some(kind) = SourceKind::from_path(&path) {
                    files.push(FoundFile {
                        path,
                        kind,
                        within: within_root(real_root, true),
                    });
                }
            }
            None => errors.push(WalkError {
                path: root.to_path_buf(),
                message: e.to_string(),
                deliberate: false,
            }),
        },
    }
}

/// Whether `folder` is a module's: it holds a `manifests` folder or a `metadata.json`.
fn is_module_folder(folder: &Path) -> bool {
    folder.join("manifests").is_dir() || folder.join("metadata.json").is_file()
}

/// Whether a walk error is a link to an ancestor of the folder it is in.
fn is_loop(error: &ignore::Error) -> bool {
    match error {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

/// The path of a walk error that is a symbolic link to nothing.
fn dangling_link(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::WithPath { path, .. } => {
            let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
            (is_link && !path.exists()).then(|| path.clone())
        }
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            dangling_link(err)
        }
        _ => None,
    }
}

/// Why a file is not checked: it cannot be read, is too large or is not UTF-8. The
/// message is the `unreadable-file` finding's (the diagnostics layer turns it into one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

/// Reads a file to check. A file that cannot be read, is too large or is not UTF-8
/// gives the reason instead.
pub fn read_file(found: &FoundFile) -> Result<SourceFile, Unreadable> {
    let unreadable = Unreadable;
    let bytes = read_found_bytes(found).map_err(|e| match e {
        super::read::ReadError::TooLarge(limit) => unreadable(format!(
            "the file is larger than the {} pupcheck checks",
            super::read::human_size(limit)
        )),
        super::read::ReadError::Outside(target) => unreadable(format!(
            "not read: the file is a link to {}, outside the folders checked",
            target.display()
        )),
        e => unreadable(format!("cannot read the file: {e}")),
    })?;
    source_from_bytes(found.path.clone(), found.kind, bytes)
}

/// The bytes of a found file, at most [`MAX_FILE_SIZE`], read only inside the folder it
/// must lie in ([`FoundFile::within`]).
pub fn read_found_bytes(found: &FoundFile) -> Result<Vec<u8>, super::read::ReadError> {
    match &found.within {
        Some(root) => super::read::read_bytes_within(&found.path, root, MAX_FILE_SIZE),
        None => super::read::read_bytes(&found.path, MAX_FILE_SIZE),
    }
}

/// Builds a source file from raw bytes (a file's content or stdin).
pub fn source_from_bytes(
    path: PathBuf,
    kind: SourceKind,
    bytes: Vec<u8>,
) -> Result<SourceFile, Unreadable> {
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(Unreadable(format!(
            "the input is {} MB, more than the {} MB pupcheck checks",
            bytes.len() / (1024 * 1024),
            MAX_FILE_SIZE / (1024 * 1024)
        )));
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            // A byte-order mark is not part of the program: reported, then left out.
            let byte_order_mark = text.starts_with('\u{feff}');
            if byte_order_mark {
                text.replace_range(..3, "");
            }
            let mut file = SourceFile::new(path, kind, text);
            file.byte_order_mark = byte_order_mark;
            Ok(file)
        }
        Err(e) => {
            let valid_up_to = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line = bytes[..valid_up_to].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(Unreadable(format!(
                    "the file is not valid UTF-8 (invalid byte 0x{:02x} at byte offset {valid_up_to}, line {line}); Puppet reads manifests as UTF-8",
                    bytes[valid_up_to]
                ),
            ))
        }
    }
}
