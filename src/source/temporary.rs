//! Temporary files that become a file whole or are removed: what `--fix` and the cache
//! write a file's new content to before renaming it into place.
//!
//! A temporary file is created in an open [`Folder`] under an unpredictable name with
//! `O_EXCL` (a link planted at the name is never followed), and is registered from the
//! moment it exists until it is renamed or removed. Creating, renaming and the signal
//! handler's clean-up each hold one lock, so SIGINT, SIGTERM or SIGHUP arriving at any
//! moment leaves no temporary file: the handler waits for a rename under way, removes
//! every registered file and ends the process, and no writer creates a file after it.

use super::confined::Folder;
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once};

/// The temporary files that exist now (each one's folder and name), by a number of
/// their own.
type Live = Option<HashMap<u64, (Arc<Folder>, OsString)>>;

static LIVE: Mutex<Live> = Mutex::new(None);

static NEXT: AtomicU64 = AtomicU64::new(0);

fn lock_live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A file being written, removed when dropped unless it was renamed into place.
pub struct Temporary {
    folder: Arc<Folder>,
    name: OsString,
    file: File,
    id: u64,
}

impl Temporary {
    /// Creates `<prefix><random><suffix>` in `folder`, readable and writable by its
    /// owner only.
    pub fn create(folder: &Arc<Folder>, prefix: &str, suffix: &str) -> io::Result<Temporary> {
        remove_on_signals();
        let mut tries = 0;
        loop {
            let name = OsString::from(format!("{prefix}{}{suffix}", random_word()));
            let mut live = lock_live();
            match folder.create_new(&name) {
                Ok(file) => {
                    let id = NEXT.fetch_add(1, Ordering::Relaxed);
                    live.get_or_insert_with(HashMap::new)
                        .insert(id, (Arc::clone(folder), name.clone()));
                    return Ok(Temporary {
                        folder: Arc::clone(folder),
                        name,
                        file,
                        id,
                    });
                }
                // Someone holds the name (by chance or planted): draw another.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The open file, to write the content to.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Renames the file to `name` in its folder, replacing what is there whole.
    pub fn replace(self, name: &OsStr) -> io::Result<()> {
        let mut live = lock_live();
        let renamed = self.folder.rename(&self.name, name);
        if renamed.is_ok() {
            if let Some(live) = live.as_mut() {
                live.remove(&self.id);
            }
        }
        drop(live);
        // On failure, dropping `self` removes the file.
        renamed
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut live = lock_live();
        if let Some((folder, name)) = live.as_mut().and_then(|live| live.remove(&self.id)) {
            let _ = folder.remove(&name);
        }
    }
}

/// Sixteen hexadecimal digits no other process can predict: a hash of a counter under
/// the standard library's per-process random keys.
fn random_word() -> String {
    use std::hash::{BuildHasher, Hasher};
    static DRAWN: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(DRAWN.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    format!("{:016x}", hasher.finish())
}

/// From the first temporary file on, SIGINT, SIGTERM and SIGHUP remove the temporary
/// files and end the process (status 130, as a shell reports an interrupted command).
fn remove_on_signals() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            // Holding the lock until the process ends: no file is created or renamed
            // after this, and a rename under way has finished.
            let mut live = lock_live();
            for (folder, name) in live.take().unwrap_or_default().into_values() {
                let _ = folder.remove(&name);
            }
            std::process::exit(130);
        });
    });
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_temporary_is_renamed_whole_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let folder = Arc::new(Folder::open(&root).unwrap());
        let mut kept = Temporary::create(&folder, ".t-", ".tmp").unwrap();
        kept.file().write_all(b"new").unwrap();
        kept.replace(OsStr::new("x")).unwrap();
        let dropped = Temporary::create(&folder, ".t-", ".tmp").unwrap();
        drop(dropped);
        let names = folder.entry_names().unwrap();
        assert_eq!(names, vec![OsString::from("x")]);
        assert_eq!(std::fs::read(root.join("x")).unwrap(), b"new");
    }

    #[test]
    fn names_are_not_repeated() {
        let a = random_word();
        let b = random_word();
        assert_ne!(a, b);
        assert_eq!(a.len(), 16);
    }
}
