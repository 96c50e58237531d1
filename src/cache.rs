//! A cache on disk of what pupcheck reads from the files it does not check: what a
//! module's manifest gives the index (its classes, defined types, functions and type
//! aliases with their parameters), what a module's Ruby resource type accepts, and
//! the little it reads of the modules' other files (a Ruby function's signatures, a
//! provider's, a `metadata.json`'s name, a custom fact file's words).
//!
//! A pre-commit hook checks one file, but that file may declare classes of a hundred
//! other modules; reading their manifests is parsing them, and was most of the run
//! (the corpus's largest file names 327 manifests of other modules: two thirds of its
//! time). Those files rarely change between two runs, so what each gave is kept, by its
//! path, with a digest of its content and its stamp (size, times, inode: `Stamp`). A
//! file whose stamp is what it was is not even read: opening and reading the 327 files
//! to hash them was, after parsing, the largest part of a warm run. The entries of one
//! module's files are kept together in one file of the cache, a pack (`pack_folder`),
//! written when the run ends (`flush`): a file per entry made reading them a tenth of
//! the check in system calls. A kind every module has a file or two of (`metadata.json`,
//! custom facts) is kept in one pack for the modulepath (`Packing::Folder`). (Two
//! runs writing one pack at once: the last one's is kept, and the other's new entries
//! are computed again by a later run.)
//!
//! The names the autoloader's folders hold (each module's `lib/puppet/type`, ...) are
//! kept the same way (`remembered_listings`), under each folder's stamp: a folder whose
//! names change changes its times.
//!
//! Architecture Invariant: an entry is used only for the same path with the same
//! content (a folder's: the same names), asked for the same kind and type of value, by
//! the same pupcheck executable (the cache's folder is named after its build), so a
//! warm run reports exactly what a cold one does. The content is the same when its
//! digest is, or when the file's stamp is the one taken when the entry was written, at
//! least two seconds after the file last changed (a later write changes the stamp). The files a run checks are never
//! read from the cache: their syntax tree is needed by the rules anyway.
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

use crate::source::confined::Folder;
use crate::source::temporary::Temporary;
use foldhash::HashMap;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::hash::{BuildHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The folder of this build's entries, once known; `None`: no cache this run.
static CACHE: OnceLock<Option<Cache>> = OnceLock::new();

/// Bumped when the layout of an entry changes (the build's name changes anyway when the
/// executable does; this keeps two builds of one source apart from older layouts).
const LAYOUT: u32 = 4;

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

/// Which pack of the cache a file's entry is kept in.
#[derive(Debug, Clone, Copy)]
pub enum Packing<'a> {
    /// The pack of the file's module (`pack_folder`): a manifest, a resource type.
    Module,
    /// The pack of the files of this folder: for a kind every module has a file or two
    /// of (`metadata.json`, custom facts), one pack for the modulepath is read where
    /// one per module would be.
    Folder(&'a Path),
}

/// What `compute` gives for the file at `path` (as `read` reads it), from the cache
/// when a run of this build computed it for the same path and the same content; `None`
/// when the file cannot be read. `kind` names what is computed (and anything else it
/// depends on); `digest` is [`digest`] of what the value depends on in what was read.
///
/// The file is not read at all when its stamp says it has not changed since the entry
/// was written (see `Stamp`); otherwise its content's digest decides.
pub fn remembered_file<S, T>(
    packing: Packing,
    kind: &str,
    path: &Path,
    read: impl FnOnce() -> Option<S>,
    digest: impl FnOnce(&S) -> u128,
    compute: impl FnOnce(&S) -> T,
) -> Option<T>
where
    T: Serialize + DeserializeOwned,
{
    let Some(cache) = CACHE.get_or_init(Cache::from_environment) else {
        return read().map(|source| compute(&source));
    };
    // Taken before the file is read: a change while it is read then shows in the
    // next run's stamp.
    let metadata = std::fs::metadata(path);
    // No file there (the autoloader's search tries several): no entry to look for,
    // and it is read as without a cache (and found absent, or there by now).
    if metadata
        .as_ref()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        return read().map(|source| compute(&source));
    }
    let stamp = metadata.ok().and_then(|metadata| Stamp::settled(&metadata));
    let group = match packing {
        Packing::Module => pack_folder(path),
        Packing::Folder(folder) => folder,
    };
    let pack = cache.pack_of::<T>(kind, group);
    cache.remembered_file(&pack, path, stamp, read, digest, compute)
}

/// The names a folder holds, each with whether it is a symbolic link (which may lead
/// nowhere), as a `list` function of [`remembered_listings`] gives them.
pub type Listing = Vec<(std::ffi::OsString, bool)>;

/// What `list` gives for each of `folders`, from one entry of the cache for them all
/// (`kind` names the folders and how they are listed): a folder whose stamp is the one
/// taken when it was listed is not listed again. A folder that is not there is
/// `Err(NotFound)`, without listing it.
///
/// A folder's stamp is a file's (`Stamp`): adding, removing or renaming a name in it
/// changes its times. Listing the folders a run asks about (the `lib/puppet/type` of
/// every module, for each kind) was a tenth of the largest file's check in system
/// calls alone; their stamps are a third of that.
pub fn remembered_listings(
    kind: &str,
    folders: &[PathBuf],
    list: impl Fn(&Path) -> std::io::Result<Listing>,
) -> Vec<std::io::Result<Listing>> {
    match CACHE.get_or_init(Cache::from_environment) {
        Some(cache) => cache.remembered_listings(kind, folders, folder_stamp, list),
        None => folders.iter().map(|folder| list(folder)).collect(),
    }
}

/// A folder's stamp, when it has settled; `Err(NotFound)` when it is not there.
fn folder_stamp(folder: &Path) -> std::io::Result<Option<Stamp>> {
    Ok(Stamp::settled_folder(&std::fs::metadata(folder)?))
}

/// The folders' listings in the cache: by folder, its stamp when it was listed and
/// what it held then.
type KeptListings = HashMap<std::ffi::OsString, (Stamp, Listing)>;

impl Cache {
    /// [`remembered_listings`] in this cache.
    fn remembered_listings(
        &self,
        kind: &str,
        folders: &[PathBuf],
        stamp_of: impl Fn(&Path) -> std::io::Result<Option<Stamp>>,
        list: impl Fn(&Path) -> std::io::Result<Listing>,
    ) -> Vec<std::io::Result<Listing>> {
        // Keyed by the set of folders (callers may list them in any order); each
        // folder's listing is then found by its own path.
        let mut sorted: Vec<&PathBuf> = folders.iter().collect();
        sorted.sort();
        let key = Key::of(
            &format!("listings:{kind}"),
            Path::new(&format!("{:032x}", digest(&sorted))),
        );
        let mut kept: KeptListings = self
            .read::<KeptListings>(&key)
            .map(|entry| entry.value)
            .unwrap_or_default();
        let before = kept.len();
        let mut keep = KeptListings::default();
        // Whether a folder was listed that the entry can keep (settled).
        let mut newly_kept = false;
        let found = folders
            .iter()
            .map(|folder| {
                // Taken before the folder is listed: a change while it is listed then
                // shows in the next run's stamp.
                let stamp = stamp_of(folder)?;
                let name = folder.as_os_str().to_os_string();
                let listing = match kept.remove(&name) {
                    Some((was, listing)) if Some(was) == stamp => listing,
                    _ => {
                        let listing = list(folder)?;
                        newly_kept |= stamp.is_some();
                        listing
                    }
                };
                if let Some(stamp) = stamp {
                    keep.insert(name, (stamp, listing.clone()));
                }
                Ok(listing)
            })
            .collect();
        if newly_kept || keep.len() != before {
            self.write(
                &key,
                &EntryOut {
                    path: &key.path,
                    value: &keep,
                },
            );
        }
        found
    }

    /// [`remembered_file`] in this cache's `pack`, for a file with this stamp.
    fn remembered_file<S, T>(
        &self,
        pack: &Pack,
        path: &Path,
        stamp: Option<Stamp>,
        read: impl FnOnce() -> Option<S>,
        digest: impl FnOnce(&S) -> u128,
        compute: impl FnOnce(&S) -> T,
    ) -> Option<T>
    where
        T: Serialize + DeserializeOwned,
    {
        let entry: Option<(Option<Stamp>, u128, T)> = pack.get(path.as_os_str());
        let entry = match entry {
            Some((kept, _, value)) if stamp.is_some() && kept == stamp => return Some(value),
            entry => entry,
        };
        let source = read()?;
        let digest = digest(&source);
        let value = match entry {
            Some((_, kept, value)) if kept == digest => {
                // (A settled stamp equal to the entry's returned above.)
                if stamp.is_none() {
                    return Some(value);
                }
                // The same content under a new stamp (touched, copied, checked out
                // again): stamped anew, so that the next run need not read it.
                value
            }
            _ => compute(&source),
        };
        pack.put(path.as_os_str(), stamp, digest, &value);
        Some(value)
    }

    /// The pack of values of type `T` of `kind` for the files of `group`.
    fn pack_of<T>(&self, kind: &str, group: &Path) -> Arc<Pack> {
        // (The value's type is part of the pack's key: postcard's entries do not say
        // what they hold, so one read as another type could decode to nonsense.)
        self.pack(&format!("{kind}:{}", std::any::type_name::<T>()), group)
    }

    /// The pack of `kind` for the files of `folder`, read from the cache on first use.
    fn pack(&self, kind: &str, folder: &Path) -> Arc<Pack> {
        let key = Key::of(&format!("pack:{kind}"), folder);
        let pack = {
            let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
            let pack = packs.entry(key.name.clone()).or_insert_with(|| {
                Arc::new(Pack {
                    key,
                    entries: OnceLock::new(),
                    changed: AtomicBool::new(false),
                })
            });
            pack.clone()
        };
        // (Read outside the lock of all packs: another thread asking for this pack
        // meanwhile waits for it.)
        pack.entries.get_or_init(|| {
            let kept = self.read::<HashMap<std::ffi::OsString, Packed>>(&pack.key);
            Mutex::new(kept.map(|entry| entry.value).unwrap_or_default())
        });
        pack
    }

    /// Writes the packs this run changed.
    fn flush(&self) {
        let packs: Vec<Arc<Pack>> = {
            let packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
            packs.values().cloned().collect()
        };
        for pack in packs {
            if !pack.changed.swap(false, Ordering::Relaxed) {
                continue;
            }
            let entries = pack.entries();
            self.write(
                &pack.key,
                &EntryOut {
                    path: &pack.key.path,
                    value: &*entries,
                },
            );
        }
    }
}

/// Writes what this run added to the cache (the packs it changed). Called once the
/// checks are done, before the process ends.
pub fn flush() {
    if let Some(Some(cache)) = CACHE.get() {
        cache.flush();
    }
}

/// The folder whose files' entries are kept together, in one pack per kind: the
/// module's (the folder holding the nearest `manifests`, `types`, `functions`, `lib`
/// or `templates` folder above the file), else the file's own folder. A check reads
/// the definitions of a few hundred files of a few dozen modules: reading an entry per
/// file was, in system calls, a tenth of the check of the largest file.
fn pack_folder(path: &Path) -> &Path {
    const MODULE_PARTS: &[&str] = &["manifests", "types", "functions", "lib", "templates"];
    for folder in path.ancestors().skip(1) {
        let name = folder.file_name().and_then(|name| name.to_str());
        if name.is_some_and(|name| MODULE_PARTS.contains(&name)) {
            return folder.parent().unwrap_or(folder);
        }
    }
    path.parent().unwrap_or(path)
}

/// The entries of one kind for the files of one folder ([`pack_folder`]), kept in one
/// file of the cache.
struct Pack {
    key: Key,
    /// By file: read from the cache by `Cache::pack` (which hands packs out), then
    /// added to by the run.
    entries: OnceLock<Mutex<HashMap<std::ffi::OsString, Packed>>>,
    /// Whether the run added or replaced an entry, so that the pack is written again.
    changed: AtomicBool,
}

/// A file's entry in a pack: the file's stamp when the value was computed, if it had
/// settled; the digest of what the value was computed from; the value (postcard's
/// bytes, decoded as the type the pack's kind names).
#[derive(Serialize, Deserialize)]
struct Packed {
    stamp: Option<Stamp>,
    digest: u128,
    value: Vec<u8>,
}

impl Pack {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<std::ffi::OsString, Packed>> {
        // (Read by then: `Cache::pack` hands out only packs it has read.)
        self.entries
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The stamp, digest and value of `file`'s entry (`None`: none, or one that does
    /// not decode).
    fn get<T: DeserializeOwned>(&self, file: &std::ffi::OsStr) -> Option<(Option<Stamp>, u128, T)> {
        let entries = self.entries();
        let packed = entries.get(file)?;
        let value = postcard::from_bytes(&packed.value).ok()?;
        Some((packed.stamp, packed.digest, value))
    }

    fn put<T: Serialize>(
        &self,
        file: &std::ffi::OsStr,
        stamp: Option<Stamp>,
        digest: u128,
        value: &T,
    ) {
        let Ok(value) = postcard::to_allocvec(value) else {
            return;
        };
        self.entries().insert(
            file.to_os_string(),
            Packed {
                stamp,
                digest,
                value,
            },
        );
        self.changed.store(true, Ordering::Relaxed);
    }
}

/// [`remembered_file`] for a manifest or template, read as pupcheck reads the files it
/// checks (a byte-order mark left out of the text, and part of what the value depends
/// on: it is a syntax error).
pub fn remembered_source<T>(
    kind: &str,
    found: &crate::source::walk::FoundFile,
    compute: impl FnOnce(&crate::source::SourceFile) -> T,
) -> Option<T>
where
    T: Serialize + DeserializeOwned,
{
    remembered_file(
        Packing::Module,
        kind,
        &found.path,
        || crate::source::walk::read_file(found).ok(),
        |source| digest(&(source.byte_order_mark, &source.text)),
        compute,
    )
}

/// [`remembered_file`] for a small file read as text (`source::read::read_text`, at
/// most `limit` bytes), the value depending on all of it: a module's Ruby file, its
/// `metadata.json`.
pub fn remembered_text<T>(
    packing: Packing,
    kind: &str,
    path: &Path,
    limit: u64,
    compute: impl FnOnce(&str) -> T,
) -> Option<T>
where
    T: Serialize + DeserializeOwned,
{
    remembered_file(
        packing,
        kind,
        path,
        || crate::source::read::read_text(path, limit).ok(),
        |text: &String| digest(text),
        |text| compute(text),
    )
}

/// A digest of what a cached value depends on (a file's text), for
/// [`remembered_file`].
pub fn digest(content: &(impl Hash + ?Sized)) -> u128 {
    // foldhash with fixed seeds: its output may change with its version, but a
    // build's entries are read only by that build; several times faster than SipHash
    // over the texts, which are the most a run without stamps hashes.
    let half = |seed: u64| foldhash::quality::FixedState::with_seed(seed).hash_one(content);
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// What a file's metadata says of its content without reading it: its size, its
/// modification and change times (to the nanosecond), its inode and device. Any
/// write to the file changes its change time, which no program can set.
///
/// A stamp is only taken of a file that last changed at least [`SETTLED_AFTER`] ago:
/// the clock that times a change ticks in steps (a few milliseconds), so a file
/// written again within the tick of a change could keep its times; one that has not
/// changed for longer cannot change again without a later time. Such a file has no
/// stamp, and its content's digest decides (as git decides for the files it calls
/// racily clean).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
    inode: u64,
    device: u64,
}

/// How long a file must not have changed for its stamp to be taken.
const SETTLED_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

impl Stamp {
    /// The stamp of the regular file at `path` (following a symbolic link), when it has
    /// settled.
    #[cfg(test)]
    fn settled_of(path: &Path) -> Option<Stamp> {
        Stamp::settled(&std::fs::metadata(path).ok()?)
    }

    /// The stamp of a regular file with this `metadata`, when it has settled.
    fn settled(metadata: &std::fs::Metadata) -> Option<Stamp> {
        metadata.is_file().then(|| Stamp::settled_any(metadata))?
    }

    /// The stamp of a folder with this `metadata`, when it has settled.
    fn settled_folder(metadata: &std::fs::Metadata) -> Option<Stamp> {
        metadata.is_dir().then(|| Stamp::settled_any(metadata))?
    }

    #[cfg(unix)]
    fn settled_any(metadata: &std::fs::Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let now = std::time::SystemTime::now();
        let stamp = Stamp {
            len: metadata.len(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
            inode: metadata.ino(),
            device: metadata.dev(),
        };
        let latest = stamp.modified.max(stamp.changed);
        let latest = std::time::UNIX_EPOCH
            + std::time::Duration::new(
                u64::try_from(latest.0).ok()?,
                u32::try_from(latest.1).ok()?,
            );
        // (A time in the future, or one the clock cannot tell: not settled.)
        let age = now.duration_since(latest).ok()?;
        (age >= SETTLED_AFTER).then_some(stamp)
    }

    /// Without a change time no program can set, every file is read.
    #[cfg(not(unix))]
    fn settled_any(_metadata: &std::fs::Metadata) -> Option<Stamp> {
        None
    }
}

struct Cache {
    /// This build's folder, opened without following links: entries are written
    /// through it.
    folder: Arc<Folder>,
    /// The packs of entries read or begun this run, by their key's name.
    packs: Mutex<HashMap<String, Arc<Pack>>>,
}

/// Where an entry is: its file name (a digest of what is computed, for which path),
/// and the path it must hold (two keys with the same 128-bit name would still differ
/// there).
struct Key {
    name: String,
    path: String,
}

/// An entry as written: the path of its key, and its value (a pack, a folder's
/// listings).
#[derive(Serialize)]
struct EntryOut<'a, T> {
    path: &'a str,
    value: &'a T,
}

#[derive(Deserialize)]
struct EntryIn<T> {
    path: String,
    value: T,
}

impl Key {
    fn of(kind: &str, path: &Path) -> Key {
        let path = path.to_string_lossy().into_owned();
        let name = digest(&(kind, &path));
        Key {
            name: format!("{name:032x}"),
            path,
        }
    }
}

impl Cache {
    fn from_environment() -> Option<Cache> {
        if std::env::var_os("PUPCHECK_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
            return None;
        }
        let root = cache_root()?;
        std::fs::create_dir_all(&root).ok()?;
        // The root is where the user's settings say (links there are theirs); from it
        // on, nothing is reached through a link, so a link planted in a shared cache
        // (at the build's folder, an entry's folder, a temporary name or the tag)
        // cannot send a write elsewhere.
        let root = Folder::open(&std::fs::canonicalize(&root).ok()?).ok()?;
        let name = build_name()?;
        let is_new = !root.path().join(&name).is_dir();
        let folder = root.child(name.as_ref(), true).ok()?;
        if is_new {
            // Marks the folder as a cache for backup tools (https://bford.info/cachedir/).
            if let Ok(mut tag) = root.create_new("CACHEDIR.TAG".as_ref()) {
                let _ = tag.write_all(
                    b"Signature: 8a477f597d28d172789f06886806bc55\n\
                      # This file is a cache directory tag created by pupcheck.\n",
                );
            }
            remove_stale_builds(root.path(), folder.path());
        }
        Some(Cache {
            folder: Arc::new(folder),
            packs: Mutex::default(),
        })
    }

    fn entry_path(&self, key: &Key) -> PathBuf {
        self.folder.path().join(&key.name[..2]).join(&key.name[2..])
    }

    fn read<T: DeserializeOwned>(&self, key: &Key) -> Option<EntryIn<T>> {
        // Through `source::read`, as every read: a regular file, bounded. (An entry is
        // never written in place, only renamed into it whole.)
        let bytes =
            crate::source::read::read_written_file(&self.entry_path(key), ENTRY_LIMIT).ok()?;
        // Whole: bytes left over are a damaged entry, or one of another type.
        let (entry, rest): (EntryIn<T>, _) = postcard::take_from_bytes(&bytes).ok()?;
        if !rest.is_empty() {
            return None;
        }
        (entry.path == key.path).then_some(entry)
    }

    fn write<T: Serialize>(&self, key: &Key, entry: &EntryOut<'_, T>) {
        let Ok(bytes) = postcard::to_allocvec(entry) else {
            return;
        };
        let (folder, name) = key.name.split_at(2);
        let Ok(folder) = self.folder.child(folder.as_ref(), true) else {
            return;
        };
        // Written whole under a name of its own, then renamed: a run reading the entry
        // meanwhile (another thread, another pupcheck) sees it whole or not at all.
        let Ok(mut temporary) = Temporary::create(&Arc::new(folder), ".", ".tmp") else {
            return;
        };
        if temporary.file().write_all(&bytes).is_ok() {
            let _ = temporary.replace(name.as_ref());
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
        let dir = std::fs::canonicalize(dir.path()).unwrap();
        Cache {
            folder: Arc::new(Folder::open(&dir).unwrap()),
            packs: Mutex::default(),
        }
    }

    /// [`remembered_file`] in `cache`, in the pack of the file's module.
    fn remembered<S, T: Serialize + DeserializeOwned>(
        cache: &Cache,
        kind: &str,
        path: &Path,
        stamp: Option<Stamp>,
        read: impl FnOnce() -> Option<S>,
        digest: impl FnOnce(&S) -> u128,
        compute: impl FnOnce(&S) -> T,
    ) -> Option<T> {
        let pack = cache.pack_of::<T>(kind, pack_folder(path));
        cache.remembered_file(&pack, path, stamp, read, digest, compute)
    }

    /// A summary of a text, as a cached value.
    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    /// Remembered in `cache`: the words of the file at `path`, and whether they were
    /// computed (not found in the cache) and the file read.
    fn words_of(cache: &Cache, path: &Path) -> (Option<Vec<String>>, bool, bool) {
        let (mut computed, mut read) = (false, false);
        let value = remembered(
            cache,
            "words",
            path,
            Stamp::settled_of(path),
            || {
                read = true;
                std::fs::read_to_string(path).ok()
            },
            digest,
            |text| {
                computed = true;
                words(text)
            },
        );
        (value, computed, read)
    }

    /// Sets a file's modification time `ago` in the past (its change time stays now).
    fn aged(path: &Path, ago: std::time::Duration) {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(std::time::SystemTime::now() - ago)
            .unwrap();
    }

    #[test]
    fn a_file_just_written_is_read_and_its_digest_decides() {
        let dir = tempfile::tempdir().unwrap();
        let cache = in_folder(&dir);
        let file = dir.path().join("a.pp");
        std::fs::write(&file, "class a").unwrap();
        assert_eq!(
            words_of(&cache, &file),
            (Some(words("class a")), true, true)
        );
        // Unchanged: found, but read (it changed too recently to trust its stamp).
        assert_eq!(
            words_of(&cache, &file),
            (Some(words("class a")), false, true)
        );
        // The same size, written within the same instant: the digest tells.
        std::fs::write(&file, "class b").unwrap();
        assert_eq!(
            words_of(&cache, &file),
            (Some(words("class b")), true, true)
        );
        // Gone: nothing, whatever the cache holds.
        std::fs::remove_file(&file).unwrap();
        assert_eq!(words_of(&cache, &file), (None, false, true));
    }

    #[test]
    fn a_settled_file_whose_stamp_is_unchanged_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let cache = in_folder(&dir);
        let file = dir.path().join("a.pp");
        std::fs::write(&file, "class a").unwrap();
        aged(&file, std::time::Duration::from_secs(60));
        // Its change time is now: still not settled.
        assert_eq!(Stamp::settled_of(&file), None);
        let settled = Stamp {
            changed: (0, 0),
            ..stamp_now(&file)
        };
        // An entry written when the file had settled (as if by a run two seconds on).
        cache
            .pack(
                &format!("words:{}", std::any::type_name::<Vec<String>>()),
                pack_folder(&file),
            )
            .put(
                file.as_os_str(),
                Some(settled),
                digest("class a"),
                &words("forged, to show the file was not read"),
            );
        let found = remembered(
            &cache,
            "words",
            &file,
            Some(settled),
            || -> Option<String> { panic!("read although its stamp is unchanged") },
            digest,
            |text| words(text),
        );
        assert_eq!(found, Some(words("forged, to show the file was not read")));
        // Another stamp (the file was written since): read, and found by its digest.
        assert_eq!(
            words_of(&cache, &file),
            (
                Some(words("forged, to show the file was not read")),
                false,
                true
            )
        );
    }

    /// The stamp of a file, settled or not.
    fn stamp_now(path: &Path) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).unwrap();
        Stamp {
            len: m.len(),
            modified: (m.mtime(), m.mtime_nsec()),
            changed: (m.ctime(), m.ctime_nsec()),
            inode: m.ino(),
            device: m.dev(),
        }
    }

    #[test]
    fn an_entry_for_another_path_or_kind_or_type_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = in_folder(&dir);
        let file = dir.path().join("a.pp");
        std::fs::write(&file, "class a").unwrap();
        words_of(&cache, &file);
        cache.flush();
        // Another run finds the entry (reading the file: it has not settled).
        let again = in_folder(&dir);
        assert_eq!(
            words_of(&again, &file),
            (Some(words("class a")), false, true)
        );
        // Another kind, another value's type, another file: computed.
        let computed = |kind: &str| {
            let mut computed = false;
            remembered(
                &again,
                kind,
                &file,
                None,
                || Some("class a".to_string()),
                digest,
                |text| {
                    computed = true;
                    text.len()
                },
            );
            computed
        };
        assert!(computed("other"));
        assert!(computed("words"));
        let other = dir.path().join("b.pp");
        std::fs::write(&other, "class a").unwrap();
        assert_eq!(
            words_of(&again, &other),
            (Some(words("class a")), true, true)
        );

        let key = Key::of(
            &format!("pack:words:{}", std::any::type_name::<Vec<String>>()),
            pack_folder(&file),
        );
        type Entries = HashMap<std::ffi::OsString, Packed>;
        assert!(cache.read::<Entries>(&key).is_some());
        // An entry that does not decode as the value asked for is a miss.
        assert!(cache.read::<u32>(&key).is_none());
        // An entry naming another path is a miss (two paths with one digest).
        let forged = Key {
            name: key.name.clone(),
            path: "/m/other".to_string(),
        };
        assert!(cache.read::<Entries>(&forged).is_none());
        // A damaged entry is a miss too.
        std::fs::write(cache.entry_path(&key), b"\x07/m/a.p").unwrap();
        assert!(cache.read::<Entries>(&key).is_none());
        // No temporary file is left behind.
        let folder = cache.entry_path(&key).parent().unwrap().to_path_buf();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    }

    #[test]
    fn a_modules_files_share_one_pack() {
        for (file, folder) in [
            ("/m/ntp/manifests/a/b.pp", "/m/ntp"),
            ("/m/ntp/manifests/init.pp", "/m/ntp"),
            ("/m/ntp/types/port.pp", "/m/ntp"),
            ("/m/ntp/lib/puppet/type/ntp_peer.rb", "/m/ntp"),
            ("/m/ntp/templates/a.epp", "/m/ntp"),
            ("/elsewhere/site.pp", "/elsewhere"),
        ] {
            assert_eq!(pack_folder(Path::new(file)), Path::new(folder), "{file}");
        }
    }

    /// The listings of `folders` in `cache`, each folder's stamp given by `stamps`
    /// (absent: no such folder), and the folders listed.
    fn listings_of(
        cache: &Cache,
        folders: &[&str],
        stamps: &HashMap<&str, Option<Stamp>>,
    ) -> (Vec<Option<Listing>>, Vec<String>) {
        let listed = Mutex::new(Vec::new());
        let folders: Vec<PathBuf> = folders.iter().map(PathBuf::from).collect();
        let found = cache.remembered_listings(
            "test",
            &folders,
            |folder| {
                stamps
                    .get(folder.to_str().unwrap())
                    .copied()
                    .ok_or_else(|| std::io::ErrorKind::NotFound.into())
            },
            |folder| {
                let name = folder.to_str().unwrap().to_string();
                listed.lock().unwrap().push(name.clone());
                Ok(vec![(format!("in {name}").into(), false)])
            },
        );
        let found = found.into_iter().map(Result::ok).collect();
        (found, listed.into_inner().unwrap())
    }

    #[test]
    fn a_settled_folder_whose_stamp_is_unchanged_is_not_listed_again() {
        let dir = tempfile::tempdir().unwrap();
        let stamp = |n: u64| Stamp {
            len: 0,
            modified: (1, 0),
            changed: (1, 0),
            inode: n,
            device: 1,
        };
        let listing = |name: &str| Some(vec![(format!("in {name}").into(), false)]);
        let mut stamps: HashMap<&str, Option<Stamp>> =
            [("/a", Some(stamp(1))), ("/b", Some(stamp(2))), ("/c", None)]
                .into_iter()
                .collect();
        let all = ["/a", "/b", "/c", "/absent"];
        let expected = vec![listing("/a"), listing("/b"), listing("/c"), None];
        // The first run lists every folder there.
        let (found, listed) = listings_of(&in_folder(&dir), &all, &stamps);
        assert_eq!(found, expected);
        assert_eq!(listed, ["/a", "/b", "/c"]);
        // The next lists only the one that has not settled, whatever the order asked.
        let (found, listed) =
            listings_of(&in_folder(&dir), &["/c", "/absent", "/b", "/a"], &stamps);
        assert_eq!(
            found,
            vec![listing("/c"), None, listing("/b"), listing("/a")]
        );
        assert_eq!(listed, ["/c"]);
        // A folder whose stamp changed is listed again, then kept under its new stamp.
        stamps.insert("/b", Some(stamp(3)));
        let (found, listed) = listings_of(&in_folder(&dir), &all, &stamps);
        assert_eq!(found, expected);
        assert_eq!(listed, ["/b", "/c"]);
        let (_, listed) = listings_of(&in_folder(&dir), &all, &stamps);
        assert_eq!(listed, ["/c"]);
    }
}
