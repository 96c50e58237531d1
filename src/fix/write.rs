//! Writing a fixed file without ever leaving it half-written: the new text goes to a
//! temporary file in the same folder (same file system), takes the original's
//! permissions (and owner, where allowed), and replaces the original with one rename.
//! A symbolic link stays a link: the file it points to is replaced. A read-only file is
//! refused, as an editor refuses it (renaming over it would succeed even so).

use std::io::Write;
use std::path::Path;

/// Replaces `path`'s content with `text` (with the byte-order mark `original` started
/// with, if any). Returns an error message naming the file.
pub fn write_atomically(path: &Path, original: &[u8], text: &str) -> Result<(), String> {
    let fail = |what: &str, e: std::io::Error| format!("cannot {what} {}: {e}", path.display());
    // Rename onto the link's target, so the link stays a link.
    let target = std::fs::canonicalize(path).map_err(|e| fail("find", e))?;
    let shown = path;
    let path = target.as_path();
    let metadata = std::fs::metadata(path).map_err(|e| fail("read the permissions of", e))?;
    if metadata.permissions().readonly() {
        return Err(format!(
            "cannot write {}: the file is read-only",
            shown.display()
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let permissions = metadata.permissions();
    let temp = dir.join(format!(".{name}.pupcheck-fix-{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp).map_err(|e| fail("write next to", e))?;
        if original.starts_with(b"\xEF\xBB\xBF") {
            file.write_all(b"\xEF\xBB\xBF")
                .map_err(|e| fail("write", e))?;
        }
        file.write_all(text.as_bytes())
            .map_err(|e| fail("write", e))?;
        file.sync_all().map_err(|e| fail("write", e))?;
        keep_owner(&file, &metadata);
        drop(file);
        std::fs::set_permissions(&temp, permissions)
            .map_err(|e| fail("set the permissions of", e))?;
        std::fs::rename(&temp, path).map_err(|e| fail("replace", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
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

    #[test]
    fn replaces_content_keeping_permissions_and_bom() {
        let dir = std::env::temp_dir().join(format!("pupcheck-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.pp");
        std::fs::write(&path, b"\xEF\xBB\xBFold\r\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&path, &std::fs::read(&path).unwrap(), "new\r\n").unwrap();
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
        let err = write_atomically(Path::new("/nonexistent-dir/x.pp"), b"", "x").unwrap_err();
        assert!(err.contains("/nonexistent-dir/x.pp"), "{err}");
    }
}
