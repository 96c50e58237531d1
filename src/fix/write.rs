//! Writing a fixed file without ever leaving it half-written, and without ever writing
//! anywhere else, whatever a repository plants beside it or swaps in while pupcheck runs.
//!
//! The file's folder is opened by its canonical path without following a link
//! ([`Folder`]), and everything after is relative to that open folder: a folder on the
//! path swapped for a link to elsewhere makes the open fail, and one swapped after it
//! was opened changes nothing (the write goes to the folder that was checked). The new
//! text goes to a [`Temporary`] file there, which takes the original's permissions,
//! owner and extended attributes, and replaces the original with one rename, which
//! never writes through a link. A symbolic link that is checked stays a link: the file
//! it points to is replaced, but only when that file lies inside a folder the user asked
//! to check.
//!
//! The fix is refused, the file left as it was, when the result could not be what the
//! original was: a read-only file (as an editor refuses it; renaming over it would
//! succeed even so), a file of another owner or group the new file cannot be given (a
//! fix by another user would hand a root-owned file to that user), extended attributes
//! (ACLs, security labels) the new file cannot carry, and a file changed since it was
//! read (someone's edit would be lost).
//!
//! Temporary files end in `.tmp`, so they are never checked; a signal removes them
//! ([`crate::source::temporary`]), and the leftovers of a run killed outright (SIGKILL)
//! are removed by the next `--fix` that writes in their folder ([`remove_leftovers`]).

use crate::source::confined::Folder;
use crate::source::temporary::Temporary;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How every temporary file's name starts: `.pupcheck-fix-<pid>-<random>.tmp`.
const TEMP_PREFIX: &str = ".pupcheck-fix-";
const TEMP_SUFFIX: &str = ".tmp";

/// Replaces `path`'s content with `text` (with the byte-order mark `original` started
/// with, if any). `original` is the content the fix was computed from: a file that no
/// longer holds it is not written. `inside` are the folders (canonical) the file must
/// lie in once links are followed; empty means anywhere (the file was named on its own).
/// Returns an error message naming the file.
pub fn write_atomically(
    path: &Path,
    original: &[u8],
    text: &str,
    inside: &[PathBuf],
) -> Result<(), String> {
    let fail = |what: &str, e: std::io::Error| format!("cannot {what} {}: {e}", path.display());
    let refuse = |why: String| format!("cannot write {}: {why}", path.display());
    // Rename onto the link's target, so the link stays a link.
    let target = std::fs::canonicalize(path).map_err(|e| fail("find", e))?;
    if !inside.is_empty() && !inside.iter().any(|root| target.starts_with(root)) {
        return Err(refuse(format!(
            "it is a link to {}, outside the folders being checked",
            target.display()
        )));
    }
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(refuse("not a regular file".to_string()));
    };
    let folder = Folder::open(dir).map_err(|e| {
        refuse(format!(
            "its folder {} changed while pupcheck ran ({e})",
            dir.display()
        ))
    })?;
    let folder = Arc::new(folder);
    let mut current = folder
        .open_file(name)
        .map_err(|e| refuse(format!("it changed while pupcheck ran ({e})")))?;
    let metadata = current
        .metadata()
        .map_err(|e| fail("read the permissions of", e))?;
    if metadata.permissions().readonly() {
        return Err(refuse("the file is read-only".to_string()));
    }
    if !holds(&mut current, original) {
        return Err(refuse(
            "it changed since pupcheck read it (run the fix again)".to_string(),
        ));
    }
    let attributes = attributes::read(&current).map_err(|e| fail("read the attributes of", e))?;
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    let mut temp =
        Temporary::create(&folder, &prefix, TEMP_SUFFIX).map_err(|e| fail("write next to", e))?;
    let file = temp.file();
    let written = (|| {
        if original.starts_with(b"\xEF\xBB\xBF") {
            file.write_all(b"\xEF\xBB\xBF")?;
        }
        file.write_all(text.as_bytes())
    })();
    written.map_err(|e| fail("write", e))?;
    keep_owner(file, &metadata).map_err(refuse)?;
    file.set_permissions(metadata.permissions())
        .map_err(|e| fail("set the permissions of", e))?;
    attributes::write(file, &attributes).map_err(refuse)?;
    file.sync_all().map_err(|e| fail("write", e))?;
    // On failure the temporary file is removed.
    temp.replace(name).map_err(|e| fail("replace", e))
}

/// Whether `file` holds exactly `expected`.
fn holds(file: &mut std::fs::File, expected: &[u8]) -> bool {
    let mut now = Vec::with_capacity(expected.len() + 1);
    let limit = expected.len() as u64 + 1;
    Read::by_ref(file).take(limit).read_to_end(&mut now).is_ok() && now == expected
}

/// Removes the temporary files a `--fix` killed outright left in `dir`: only regular
/// files (never links) named as this module names them, whose process no longer runs.
pub fn remove_leftovers(dir: &Path) {
    let Ok(folder) = std::fs::canonicalize(dir).and_then(|dir| Folder::open(&dir)) else {
        return;
    };
    for name in folder.entry_names().unwrap_or_default() {
        let Some(pid) = name.to_str().and_then(leftover_pid) else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) && folder.is_file(&name) {
            let _ = folder.remove(&name);
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

/// Gives the new file the old one's owner and group; when that is not allowed (we are
/// not root, or not in the group) and the new file's differ, the fix is refused: the
/// file would otherwise change hands.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, metadata: &std::fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let (uid, gid) = (metadata.uid(), metadata.gid());
    if std::os::unix::fs::fchown(file, Some(uid), Some(gid)).is_ok() {
        return Ok(());
    }
    match file.metadata() {
        Ok(new) if new.uid() == uid && new.gid() == gid => Ok(()),
        _ => Err(format!(
            "it belongs to user {uid} and group {gid}, and pupcheck cannot give the fixed \
             file the same owner (run the fix as its owner)"
        )),
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) -> Result<(), String> {
    Ok(())
}

/// Extended attributes (ACLs, security labels, `user.*` notes): read from the original
/// and written to the new file, whose fix is refused when one cannot be.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod attributes {
    use std::ffi::CString;

    /// At most this many bytes of names, and of each value: the kernel's own limit.
    const LIMIT: usize = 64 * 1024;

    pub fn read(file: &std::fs::File) -> std::io::Result<Vec<(CString, Vec<u8>)>> {
        let mut names = vec![0u8; LIMIT];
        let length = match rustix::fs::flistxattr(file, &mut names[..]) {
            Ok(length) => length,
            // The file system keeps none.
            Err(rustix::io::Errno::OPNOTSUPP) => 0,
            Err(e) => return Err(e.into()),
        };
        let mut attributes = Vec::new();
        for name in names[..length].split(|&b| b == 0).filter(|n| !n.is_empty()) {
            let name = CString::new(name).map_err(std::io::Error::other)?;
            let mut value = vec![0u8; LIMIT];
            let length = rustix::fs::fgetxattr(file, name.as_c_str(), &mut value[..])?;
            value.truncate(length);
            attributes.push((name, value));
        }
        Ok(attributes)
    }

    pub fn write(file: &std::fs::File, attributes: &[(CString, Vec<u8>)]) -> Result<(), String> {
        for (name, value) in attributes {
            rustix::fs::fsetxattr(
                file,
                name.as_c_str(),
                value,
                rustix::fs::XattrFlags::empty(),
            )
            .map_err(|e| {
                format!(
                    "its extended attribute {} cannot be kept ({e})",
                    name.to_string_lossy()
                )
            })?;
        }
        Ok(())
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod attributes {
    pub fn read(_: &std::fs::File) -> std::io::Result<Vec<()>> {
        Ok(Vec::new())
    }

    pub fn write(_: &std::fs::File, _: &[()]) -> Result<(), String> {
        Ok(())
    }
}

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
