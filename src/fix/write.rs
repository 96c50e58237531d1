//! Writing a fixed file without ever leaving it half-written, and without ever writing
//! anywhere else, whatever a repository plants beside it.
//!
//! The new text goes to a temporary file created in the same folder (same file system)
//! with an unpredictable name and `O_EXCL` (the `tempfile` crate), so a symlink planted
//! where the temporary file will be is never followed. It takes the original's
//! permissions (and owner, where allowed) and replaces the original with one rename,
//! which replaces the folder entry and never writes through a link. A symbolic link
//! that is checked stays a link: the file it points to is replaced, but only when that
//! file lies inside a folder the user asked to check. A read-only file is refused, as an
//! editor refuses it (renaming over it would succeed even so).
//!
//! Temporary files are registered while they exist: SIGINT, SIGTERM and SIGHUP remove
//! them before the process ends ([`remove_temporaries_on_signals`]), and the leftovers of
//! a run killed outright (SIGKILL) are removed by the next `--fix` that writes in their
//! folder ([`remove_leftovers`]). They end in `.tmp`, so they are never checked.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How every temporary file's name starts: `.pupcheck-fix-<pid>-<random>.tmp`.
const TEMP_PREFIX: &str = ".pupcheck-fix-";
const TEMP_SUFFIX: &str = ".tmp";

/// The temporary files that exist now. A rename and a signal's clean-up each hold the
/// lock, so a file is either renamed into place or removed, never both half-way.
static LIVE_TEMPORARIES: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Replaces `path`'s content with `text` (with the byte-order mark `original` started
/// with, if any). `inside` are the folders (canonical) the file must lie in once links
/// are followed; empty means anywhere (the file was named on its own). Returns an error
/// message naming the file.
pub fn write_atomically(
    path: &Path,
    original: &[u8],
    text: &str,
    inside: &[PathBuf],
) -> Result<(), String> {
    let fail = |what: &str, e: std::io::Error| format!("cannot {what} {}: {e}", path.display());
    // Rename onto the link's target, so the link stays a link.
    let target = std::fs::canonicalize(path).map_err(|e| fail("find", e))?;
    if !inside.is_empty() && !inside.iter().any(|root| target.starts_with(root)) {
        return Err(format!(
            "cannot write {}: it is a link to {}, outside the folders being checked",
            path.display(),
            target.display()
        ));
    }
    let metadata =
        std::fs::symlink_metadata(&target).map_err(|e| fail("read the permissions of", e))?;
    if !metadata.is_file() {
        return Err(format!(
            "cannot write {}: not a regular file",
            path.display()
        ));
    }
    if metadata.permissions().readonly() {
        return Err(format!(
            "cannot write {}: the file is read-only",
            path.display()
        ));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    let mut temp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(|e| fail("write next to", e))?;
    register(temp.path(), true);
    let written = (|| {
        let file = temp.as_file_mut();
        if original.starts_with(b"\xEF\xBB\xBF") {
            file.write_all(b"\xEF\xBB\xBF")?;
        }
        file.write_all(text.as_bytes())?;
        keep_owner(file, &metadata);
        file.set_permissions(metadata.permissions())?;
        file.sync_all()
    })();
    if let Err(e) = written {
        register(temp.path(), false);
        return Err(fail("write", e));
    }
    let mut live = lock_live();
    let temp_path = temp.path().to_path_buf();
    let renamed = temp.persist(&target);
    live.get_or_insert_with(HashSet::new).remove(&temp_path);
    drop(live);
    // On failure the temporary file is removed when the error (holding it) is dropped.
    renamed.map(|_| ()).map_err(|e| fail("replace", e.error))
}

fn lock_live() -> std::sync::MutexGuard<'static, Option<HashSet<PathBuf>>> {
    LIVE_TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn register(path: &Path, live: bool) {
    let mut set = lock_live();
    let set = set.get_or_insert_with(HashSet::new);
    if live {
        set.insert(path.to_path_buf());
    } else {
        set.remove(path);
    }
}

/// Removes the temporary files that exist now; what a signal handler calls.
fn remove_live_temporaries() {
    let mut set = lock_live();
    for path in set.take().unwrap_or_default() {
        let _ = std::fs::remove_file(path);
    }
}

/// From now on, SIGINT, SIGTERM and SIGHUP remove the temporary files being written and
/// end the process (status 130, as a shell reports an interrupted command). Called once,
/// before fixes are written.
pub fn remove_temporaries_on_signals() {
    let _ = ctrlc::set_handler(|| {
        remove_live_temporaries();
        std::process::exit(130);
    });
}

/// Removes the temporary files a `--fix` killed outright left in `dir`: only regular
/// files (never links) named as this module names them, whose process no longer runs.
pub fn remove_leftovers(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(pid) = leftover_pid(name) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && pid != std::process::id() && !process_runs(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary file's name, if `name` is one.
fn leftover_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?.strip_suffix(TEMP_SUFFIX)?;
    let (pid, random) = rest.split_once('-')?;
    (!random.is_empty()).then_some(())?;
    pid.parse().ok()
}

#[cfg(unix)]
fn process_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // Signal 0 checks the process exists; EPERM means it does, owned by someone else.
    // SAFETY: kill with signal 0 sends nothing.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_runs(_: u32) -> bool {
    true
}

/// Gives the new file the old one's owner and group when allowed (as root, or a group
/// of ours); otherwise it is the writer's, as with any editor.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, metadata: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("pupcheck-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_content_keeping_permissions_and_bom() {
        let dir = scratch("keep");
        let path = dir.join("x.pp");
        std::fs::write(&path, b"\xEF\xBB\xBFold\r\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&path, &std::fs::read(&path).unwrap(), "new\r\n", &[]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"\xEF\xBB\xBFnew\r\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_folder_is_an_error_naming_the_file() {
        let err = write_atomically(Path::new("/nonexistent-dir/x.pp"), b"", "x", &[]).unwrap_err();
        assert!(err.contains("/nonexistent-dir/x.pp"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_checked_folders_is_not_written() {
        let dir = scratch("outside");
        let repo = dir.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(dir.join("victim.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(dir.join("victim.txt"), repo.join("x.pp")).unwrap();
        let inside = [std::fs::canonicalize(&repo).unwrap()];
        let err = write_atomically(&repo.join("x.pp"), b"secret", "fixed", &inside).unwrap_err();
        assert!(err.contains("outside the folders being checked"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("victim.txt")).unwrap(),
            "secret"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn leftover_names_carry_the_writers_pid() {
        assert_eq!(leftover_pid(".pupcheck-fix-123-abC9.tmp"), Some(123));
        assert_eq!(leftover_pid(".pupcheck-fix-123-.tmp"), None);
        assert_eq!(leftover_pid(".init.pp.pupcheck-fix-123"), None);
        assert_eq!(leftover_pid("init.pp"), None);
    }

    #[cfg(unix)]
    #[test]
    fn leftovers_of_dead_processes_are_removed_links_never() {
        let dir = scratch("leftovers");
        // A pid that cannot run: above Linux's pid_max.
        let dead = dir.join(".pupcheck-fix-4194305-abcdef.tmp");
        std::fs::write(&dead, "x").unwrap();
        let ours = dir.join(format!(".pupcheck-fix-{}-abcdef.tmp", std::process::id()));
        std::fs::write(&ours, "x").unwrap();
        let link = dir.join(".pupcheck-fix-4194306-abcdef.tmp");
        std::os::unix::fs::symlink(dir.join("elsewhere"), &link).unwrap();
        remove_leftovers(&dir);
        assert!(!dead.exists());
        assert!(ours.exists());
        assert!(std::fs::symlink_metadata(&link).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
