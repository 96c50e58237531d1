//! A cache on disk of what pupcheck reads from the files it does not check: what a
//! module's manifest gives the index (its classes, defined types, functions and type
//! aliases with their parameters), and what a module's Ruby resource type accepts.
//!
//! A pre-commit hook checks one file, but that file may declare classes of a hundred
//! other modules; reading their manifests is parsing them, and was most of the run
//! (the corpus's largest file names 327 manifests of other modules: two thirds of its
//! time). Those files rarely change between two runs, so what each gave is kept, under
//! a key made of its path and its whole text.
//!
//! Architecture Invariant: an entry is found only for the same path with the same text,
//! asked for the same kind and type of value, by the same pupcheck executable (the
//! cache's folder is named after its build), so a warm run reports exactly what a cold
//! one does. The files a run checks are never read from the cache: their syntax tree
//! is needed by the rules anyway.
//!
//! Entries are postcard's binary serde format, which a build's own types decode fast
//! (decoding JSON was three quarters of a warm one-file check's reading of entries).
//!
//! The cache is best effort: a folder that cannot be created, an entry that cannot be
//! written, read or decoded is a miss, never an error. It lives in the user's cache
//! folder (`$PUPCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/pupcheck`, else
//! `~/.cache/pupcheck`), never in a repository, so a repository cannot bring entries
//! of its own; `--no-cache` or `PUPCHECK_NO_CACHE=1` turns it off, and the language
//! server, which never writes a file, runs without it.
//!
//! Architecture Invariant: the cache writes only inside its own folder, files it names
//! after digests it computes (and `CACHEDIR.TAG`); nothing a repository holds names a
//! path it writes to.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The folder of this build's entries, once known; `None`: no cache this run.
static CACHE: OnceLock<Option<Cache>> = OnceLock::new();

/// Bumped when the layout of an entry changes (the build's name changes anyway when the
/// executable does; this keeps two builds of one source apart from older layouts).
const LAYOUT: u32 = 2;

/// An entry larger than this is a miss (a manifest's summary is a few KB; the largest
/// file of the corpus, 285 KB of code, gives 6 KB).
const ENTRY_LIMIT: u64 = 64 * 1024 * 1024;

/// Another build's folder not written to for this long is removed when a new build
/// makes its own.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// Turns the cache off for this process (before anything reads it).
pub fn disable() {
    let _ = CACHE.set(None);
}

/// The value `compute` gives for the file at `path` holding `text`, from the cache when
/// a run of this build computed it for the same path and text; `kind` names what is
/// computed (and anything else it depends on).
pub fn remembered<T>(kind: &str, path: &Path, text: &str, compute: impl FnOnce() -> T) -> T
where
    T: Serialize + DeserializeOwned,
{
    let Some(cache) = CACHE.get_or_init(Cache::from_environment) else {
        return compute();
    };
    // (The value's type is part of the key: postcard's entries do not say what they
    // hold, so one read as another type could decode to nonsense.)
    let key = Key::of(
        &format!("{kind}:{}", std::any::type_name::<T>()),
        path,
        text,
    );
    if let Some(value) = cache.read(&key) {
        return value;
    }
    let value = compute();
    cache.write(&key, &value);
    value
}

struct Cache {
    /// This build's folder.
    dir: PathBuf,
}

/// What an entry is for: its file name, and what it holds besides the value to confirm
/// it (two different texts with the same 128-bit name would still differ there).
struct Key {
    name: String,
    path: String,
    len: usize,
}

#[derive(Serialize)]
struct EntryOut<'a, T> {
    path: &'a str,
    len: usize,
    value: &'a T,
}

#[derive(Deserialize)]
struct EntryIn<T> {
    path: String,
    len: usize,
    value: T,
}

impl Key {
    fn of(kind: &str, path: &Path, text: &str) -> Key {
        let path = path.to_string_lossy().into_owned();
        // foldhash with fixed seeds: its output may change with its version, but a
        // build's entries are read only by that build; several times faster than
        // SipHash over the texts, which are the most a warm run hashes.
        let half = |seed: u64| {
            foldhash::quality::FixedState::with_seed(seed).hash_one((kind, &path, text))
        };
        Key {
            name: format!("{:016x}{:016x}", half(1), half(2)),
            path,
            len: text.len(),
        }
    }
}

impl Cache {
    fn from_environment() -> Option<Cache> {
        if std::env::var_os("PUPCHECK_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
            return None;
        }
        let root = cache_root()?;
        let dir = root.join(build_name()?);
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir).ok()?;
            // Marks the folder as a cache for backup tools (https://bford.info/cachedir/).
            let _ = std::fs::write(
                root.join("CACHEDIR.TAG"),
                "Signature: 8a477f597d28d172789f06886806bc55\n\
                 # This file is a cache directory tag created by pupcheck.\n",
            );
            remove_stale_builds(&root, &dir);
        }
        Some(Cache { dir })
    }

    fn entry_path(&self, key: &Key) -> PathBuf {
        self.dir.join(&key.name[..2]).join(&key.name[2..])
    }

    fn read<T: DeserializeOwned>(&self, key: &Key) -> Option<T> {
        // Through `source::read`, as every read: a regular file, bounded.
        let bytes = crate::source::read::read_bytes(&self.entry_path(key), ENTRY_LIMIT).ok()?;
        // Whole: bytes left over are a damaged entry, or one of another type.
        let (entry, rest): (EntryIn<T>, _) = postcard::take_from_bytes(&bytes).ok()?;
        if !rest.is_empty() {
            return None;
        }
        (entry.path == key.path && entry.len == key.len).then_some(entry.value)
    }

    fn write<T: Serialize>(&self, key: &Key, value: &T) {
        let entry = EntryOut {
            path: &key.path,
            len: key.len,
            value,
        };
        let Ok(bytes) = postcard::to_allocvec(&entry) else {
            return;
        };
        let path = self.entry_path(key);
        let Some(folder) = path.parent() else {
            return;
        };
        // Written whole under a name of its own, then renamed: a run reading the entry
        // meanwhile (another thread, another pupcheck) sees it whole or not at all.
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let temporary = folder.join(format!(
            ".{}.{}.{}",
            key.name,
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&temporary, bytes))
            .and_then(|()| std::fs::rename(&temporary, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

fn cache_root() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute("PUPCHECK_CACHE_DIR")
        .or_else(|| absolute("XDG_CACHE_HOME").map(|p| p.join("pupcheck")))
        .or_else(|| absolute("HOME").map(|p| p.join(".cache").join("pupcheck")))
}

/// A name for this build of pupcheck: its version, the layout of entries, and the size
/// and time of its executable (each build writes a new one).
fn build_name() -> Option<String> {
    let exe = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
    let modified = exe
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (env!("CARGO_PKG_VERSION"), exe.len(), modified.as_nanos()).hash(&mut hasher);
    Some(format!("build-v{LAYOUT}-{:016x}", hasher.finish()))
}

/// Removes the folders of other builds nothing wrote to for a week.
fn remove_stale_builds(root: &Path, current: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_build = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with("build-"));
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_dir())
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if is_build && stale && path != current {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_folder(dir: &tempfile::TempDir) -> Cache {
        Cache {
            dir: dir.path().to_path_buf(),
        }
    }

    #[test]
    fn an_entry_is_found_for_the_same_path_and_text_only() {
        let dir = tempfile::tempdir().unwrap();
        let cache = in_folder(&dir);
        let key = Key::of("k", Path::new("/m/a.pp"), "class a {}");
        assert_eq!(cache.read::<Vec<String>>(&key), None);
        cache.write(&key, &vec!["a".to_string()]);
        assert_eq!(cache.read::<Vec<String>>(&key), Some(vec!["a".to_string()]));
        for other in [
            Key::of("k", Path::new("/m/a.pp"), "class b {}"),
            Key::of("k", Path::new("/m/b.pp"), "class a {}"),
            Key::of("other", Path::new("/m/a.pp"), "class a {}"),
        ] {
            assert_ne!(other.name, key.name);
            assert_eq!(cache.read::<Vec<String>>(&other), None);
        }
        // An entry that does not decode as the value asked for is a miss.
        assert_eq!(cache.read::<u32>(&key), None);
        // A damaged entry is a miss too.
        std::fs::write(cache.entry_path(&key), b"\x07/m/a.p").unwrap();
        assert_eq!(cache.read::<Vec<String>>(&key), None);
        // No temporary file is left behind.
        let folder = cache.entry_path(&key).parent().unwrap().to_path_buf();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    }

    #[test]
    fn an_entry_whose_confirmation_differs_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = in_folder(&dir);
        let key = Key::of("k", Path::new("/m/a.pp"), "class a {}");
        let forged = Key {
            name: key.name.clone(),
            path: "/m/other.pp".to_string(),
            len: key.len,
        };
        cache.write(&forged, &1u32);
        assert_eq!(cache.read::<u32>(&key), None);
    }
}
