//! Reading definitions from modulepaths on demand, where Puppet's autoloader would find
//! them: a class or defined type `mod::a::b` in `<mod>/manifests/a/b.pp` (`mod` alone in
//! `<mod>/manifests/init.pp`), a type alias `Mod::A::B` in `<mod>/types/a/b.pp`. A
//! module's name is its folder's, else (a folder like `puppetlabs-ntp`) the one in its
//! `metadata.json`. Each file is parsed at most once, by whichever check needs it first.

use super::memo::Memo;
use super::Environment;
use foldhash::{HashMap, HashMapExt, HashSet};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Debug)]
pub struct Loader {
    /// Module roots by module name (the first modulepath holding a name wins).
    modules: HashMap<String, PathBuf>,
    /// Whether the `metadata.json` of each module folder found names a data provider
    /// (read with the module's name).
    data_providers: HashMap<PathBuf, bool>,
    /// The names in each module folder found (listed anyway, to leave out empty ones):
    /// a module without `lib` is not asked for `lib/puppet/type/...` and the like.
    top_entries: HashMap<PathBuf, HashSet<std::ffi::OsString>>,
    /// What each file looked at so far defines.
    files: Memo<PathBuf, Loaded>,
    /// The file the autoloader reads for each class or defined type asked about so far
    /// (one name is asked about by several rules, at every declaration of it: building
    /// its path and hashing it again cost more than the look-up).
    manifests_by_name: Memo<String, Option<Arc<Environment>>>,
    /// The module functions written in Ruby read so far (`None`: absent or unread).
    ruby_functions: Memo<PathBuf, Option<Arc<crate::ruby::function::RubyFunction>>>,
    /// The modules' provider folders (`lib/puppet/provider/<type>`), by type name.
    provider_folders: std::sync::OnceLock<HashMap<String, Vec<PathBuf>>>,
    /// The EPP templates read so far, by file (`None`: absent, unreadable or broken).
    templates: Memo<PathBuf, Option<super::EppTemplate>>,
    /// The 3.x functions' arities looked up so far, by name.
    legacy_arities: Memo<String, Option<i64>>,
    /// The entries of the module folders asked about so far (`lib/puppet/type`...).
    listings: FolderListings,
}

/// The names in one folder of every module (`lib/puppet/type`), listed once per run:
/// whether a module has `lib/puppet/type/<name>.rb` is asked for every name
/// declarations and calls use, of every module on the modulepath (a hundred modules and
/// a few hundred names made forty thousand failed `stat`s, a tenth of a corpus check,
/// and then as many paths built and looked up).
/// (Each folder listed once even when several threads ask at once: the prefetch asks
/// on every core.)
#[derive(Debug, Default)]
struct FolderListings {
    by_folder: Mutex<HashMap<String, Arc<OnceLock<AcrossModules>>>>,
}

/// One folder of every module: the modules holding each name.
#[derive(Debug, Default)]
struct AcrossModules {
    /// The roots of the modules whose folder lists the name, and whether the entry is
    /// a symbolic link there (which may lead nowhere).
    holders: HashMap<std::ffi::OsString, Vec<(PathBuf, bool)>>,
    /// The roots of the modules whose folder could not be listed whole (unreadable, or
    /// too large to keep): their files are asked of the file system one by one.
    unlisted: Vec<PathBuf>,
}

/// Folders with more entries than this are not kept in memory.
const LISTING_LIMIT: usize = 10_000;

impl FolderListings {
    /// The files `relative` (`lib/puppet/type/cron.rb`) of the modules `roots` that
    /// exist.
    fn existing<'r>(
        &self,
        roots: impl Iterator<Item = &'r PathBuf>,
        relative: &str,
    ) -> Vec<PathBuf> {
        let (folder, name) = relative.rsplit_once('/').unwrap_or(("", relative));
        let listing = match self.by_folder.lock() {
            Ok(mut folders) => folders.entry(folder.to_string()).or_default().clone(),
            // (Poisoned by a panic elsewhere: listed again.)
            Err(_) => Arc::default(),
        };
        let across = listing.get_or_init(|| Self::list(roots, folder));
        let listed = across.holders.get(std::ffi::OsStr::new(name));
        let listed = listed
            .into_iter()
            .flatten()
            .map(|(root, link)| (root, *link));
        listed
            .chain(across.unlisted.iter().map(|root| (root, true)))
            .map(|(root, unsure)| (root.join(relative), unsure))
            // A link that leads nowhere is listed but does not exist, as `exists` says.
            .filter(|(file, unsure)| !unsure || file.exists())
            .map(|(file, _)| file)
            .collect()
    }

    fn list<'r>(roots: impl Iterator<Item = &'r PathBuf>, folder: &str) -> AcrossModules {
        let mut across = AcrossModules::default();
        let roots: Vec<&PathBuf> = roots.collect();
        let folders: Vec<PathBuf> = roots.iter().map(|root| root.join(folder)).collect();
        let listings =
            crate::cache::remembered_listings(&format!("whole:{folder}"), &folders, list_whole);
        for (root, listing) in roots.into_iter().zip(listings) {
            match listing {
                Ok(names) => {
                    for (name, link) in names {
                        let holders = across.holders.entry(name).or_default();
                        holders.push((root.clone(), link));
                    }
                }
                // An absent folder holds nothing.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) => across.unlisted.push(root.clone()),
            }
        }
        across
    }
}

/// The names in `folder`, unless it cannot be listed whole or holds more than
/// `LISTING_LIMIT`.
fn list_whole(folder: &Path) -> std::io::Result<crate::cache::Listing> {
    // (The entry's type from the listing: no `stat` unless the file system does not
    // give it.)
    let names: crate::cache::Listing = std::fs::read_dir(folder)?
        .take(LISTING_LIMIT + 1)
        .map(|entry| {
            let entry = entry?;
            let link = entry.file_type().map_or(true, |t| t.is_symlink());
            Ok((entry.file_name(), link))
        })
        .collect::<std::io::Result<_>>()?;
    if names.len() > LISTING_LIMIT {
        return Err(std::io::Error::other("too many names to keep"));
    }
    Ok(names)
}

/// A file the autoloader would read, as pupcheck found it.
#[derive(Debug, Clone)]
enum Loaded {
    /// No such file: Puppet finds nothing there either.
    Absent,
    /// Read and parsed; `complete` when without syntax errors (so what it does not
    /// define, it certainly does not define).
    Parsed {
        env: Arc<Environment>,
        complete: bool,
    },
    /// There, but not readable as a manifest (a FIFO, too large, not UTF-8...): what it
    /// defines is unknown.
    Unreadable,
}

/// Whether `name` is made of lowercase letters, digits and `_` only: a module's name, or
/// a name that may stand in a path pupcheck builds (never `..` or `/`).
pub(crate) fn is_plain_name(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// A module's name: its folder's, as Puppet takes it, when that is a valid module name;
/// else (`puppetlabs-ntp`, as Debian installs modules) `metadata.json`'s `name` after
/// its author (`metadata`: what that file says, read only when needed).
fn module_name(root: &Path, metadata: impl FnOnce() -> Option<ModuleMetadata>) -> Option<String> {
    let folder = root.file_name()?.to_str()?;
    if is_valid_module_name(folder) {
        return Some(folder.to_string());
    }
    metadata()?.name
}

pub(crate) fn is_valid_module_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && is_plain_name(name)
}

/// What the loader reads of a module's `metadata.json`.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct ModuleMetadata {
    /// Its `name` after the author, when that is a valid module name.
    name: Option<String>,
    /// Whether it names a data provider (see `hiera::names_data_provider`).
    names_data_provider: bool,
}

/// What the `metadata.json` of the module at `root` says, if it can be read. Asked of
/// every module on the modulepath: remembered in the cache, as manifests are, so that a
/// warm run stats the file rather than reading it.
fn module_metadata(root: &Path) -> Option<ModuleMetadata> {
    let path = root.join("metadata.json");
    // (One pack for the modulepath's: one file of the cache read, not one per module.)
    crate::cache::remembered_text(
        crate::cache::Packing::Folder(root.parent().unwrap_or(root)),
        "module-metadata",
        &path,
        crate::source::read::SMALL_FILE_LIMIT,
        |text| ModuleMetadata {
            name: name_in_metadata(text),
            names_data_provider: crate::hiera::names_data_provider(text),
        },
    )
}

/// The module name `metadata.json`'s `name` gives (after its author).
fn name_in_metadata(text: &str) -> Option<String> {
    // Only the name is read: the rest of the file is skipped, not built into a tree.
    #[derive(serde::Deserialize)]
    struct Metadata {
        name: String,
    }
    let meta: Metadata = serde_json::from_str(text).ok()?;
    let name = meta.name.rsplit(['-', '/']).next()?;
    is_valid_module_name(name).then(|| name.to_string())
}

/// The names in each of the module folders `roots` (listed once, then kept in the
/// cache under each folder's stamp); `None` for a folder that is empty (a git
/// submodule not checked out, or a module a Puppetfile installs later: what the module
/// holds is unknown, so it is no module pupcheck knows the contents of, nothing is
/// certainly missing from it) or cannot be listed.
fn module_entries(roots: &[PathBuf]) -> Vec<Option<HashSet<std::ffi::OsString>>> {
    let listings = crate::cache::remembered_listings("module folders", roots, |root| {
        std::fs::read_dir(root)?
            .map(|entry| entry.map(|e| (e.file_name(), false)))
            .collect()
    });
    listings
        .into_iter()
        .map(|listing| {
            let names: HashSet<_> = listing.ok()?.into_iter().map(|(name, _)| name).collect();
            (!names.is_empty()).then_some(names)
        })
        .collect()
}

impl Loader {
    /// The modules of `modulepaths` (the first folder of a name wins, as Puppet takes
    /// it), except that a module of `checked_roots` (the modules of checked files) is
    /// the module of its name.
    pub fn new(modulepaths: &[PathBuf], checked_roots: &[PathBuf]) -> Loader {
        let mut modules = HashMap::new();
        let mut data_providers = HashMap::new();
        let mut top_entries = HashMap::new();
        for dir in modulepaths {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            // Folders, and links that may lead to one (the entry's type is known without
            // a system call).
            let mut roots: Vec<(PathBuf, bool)> = entries
                .flatten()
                .filter_map(|e| {
                    let kind = e.file_type().ok()?;
                    (kind.is_dir() || kind.is_symlink()).then(|| (e.path(), kind.is_symlink()))
                })
                .collect();
            roots.sort();
            let roots: Vec<PathBuf> = roots
                .into_iter()
                .filter(|(root, link)| !link || root.is_dir())
                .map(|(root, _)| root)
                .collect();
            let entries = module_entries(&roots);
            // (Each folder's metadata.json read on every core: once, for the module's
            // name and for Hiera.)
            let named: Vec<(Option<String>, PathBuf, bool, HashSet<_>)> = roots
                .into_par_iter()
                .zip(entries)
                .filter_map(|(root, entries)| {
                    let entries = entries?;
                    let metadata = entries
                        .contains(std::ffi::OsStr::new("metadata.json"))
                        .then(|| module_metadata(&root))
                        .flatten()
                        .unwrap_or_default();
                    let provider = metadata.names_data_provider;
                    Some((
                        module_name(&root, || Some(metadata)),
                        root,
                        provider,
                        entries,
                    ))
                })
                .collect();
            for (name, root, provider, entries) in named {
                data_providers.insert(root.clone(), provider);
                top_entries.insert(root.clone(), entries);
                if let Some(name) = name {
                    modules.entry(name).or_insert(root);
                }
            }
        }
        let known: HashSet<PathBuf> = modules.values().cloned().collect();
        for root in checked_roots.iter().filter(|root| !known.contains(*root)) {
            if let Some(name) = module_name(root, || module_metadata(root)) {
                if let Some(known) = modules.get_mut(&name) {
                    *known = root.clone();
                }
            }
        }
        Loader {
            modules,
            data_providers,
            top_entries,
            files: Memo::default(),
            manifests_by_name: Memo::default(),
            ruby_functions: Memo::default(),
            provider_folders: std::sync::OnceLock::new(),
            legacy_arities: Memo::default(),
            templates: Memo::default(),
            listings: FolderListings::default(),
        }
    }

    /// The definitions of the file where the autoloader looks for `name` (a class or
    /// defined type).
    pub fn manifest_for(&self, name: &str) -> Option<Arc<Environment>> {
        self.manifests_by_name.get_or_compute(name, || {
            let mut segments = name.split("::");
            let root = self.modules.get(segments.next()?)?;
            let rest: Vec<&str> = segments.collect();
            let file = if rest.is_empty() {
                root.join("manifests").join("init.pp")
            } else {
                root.join("manifests").join(rest.join("/") + ".pp")
            };
            self.load(&file)
        })
    }

    /// The modules on the modulepaths, by name, with their folders.
    pub fn modules(&self) -> Vec<(String, PathBuf)> {
        let mut modules: Vec<(String, PathBuf)> = self
            .modules
            .iter()
            .map(|(name, root)| (name.clone(), root.clone()))
            .collect();
        modules.sort();
        modules
    }

    /// Whether the `metadata.json` of the module at `root` names a Hiera data provider
    /// ([`crate::hiera::names_data_provider`]).
    pub fn names_data_provider(&self, root: &Path) -> bool {
        match self.data_providers.get(root) {
            Some(&provider) => provider,
            // (A checked module that takes the place of one found.)
            None => crate::hiera::module_names_data_provider(root),
        }
    }

    /// Whether the module folder `root` may hold `name` (`lib`, `facts.d`): not when
    /// the loader listed it without it.
    pub fn module_may_hold(&self, root: &Path, name: &str) -> bool {
        self.top_entries
            .get(root)
            .is_none_or(|entries| entries.contains(std::ffi::OsStr::new(name)))
    }

    /// The roots of the modules on the modulepaths that may hold `name`.
    fn module_roots_holding<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s PathBuf> {
        self.modules
            .values()
            .filter(move |root| self.module_may_hold(root, name))
    }

    /// Whether a module called `name` is on the modulepaths.
    pub fn has_module(&self, name: &str) -> bool {
        self.modules.contains_key(name)
    }

    /// Every file Puppet's type loader reads looking for the class or defined type
    /// `name` (`a::b::c`: `a/manifests/b/c.pp`, `a/manifests/b.pp`, `a/manifests/init.pp`),
    /// as far as they exist; `None` when one of them exists but could not be read whole
    /// (then what they define is unknown).
    pub fn manifests_searched_for(&self, name: &str) -> Option<Vec<Arc<Environment>>> {
        let mut found = Vec::new();
        for file in self.autoload_candidates(name) {
            match self.loaded(&file) {
                Loaded::Absent => {}
                Loaded::Parsed {
                    env,
                    complete: true,
                } => found.push(env),
                Loaded::Parsed { .. } | Loaded::Unreadable => return None,
            }
        }
        Some(found)
    }

    /// Where Puppet's type loader looks for the class or defined type `name`, most
    /// specific first (`a::b::c`: `a/manifests/b/c.pp`, `a/manifests/b.pp`,
    /// `a/manifests/init.pp`); none without a module of its first segment.
    fn autoload_candidates(&self, name: &str) -> Vec<PathBuf> {
        let segments: Vec<&str> = name.split("::").collect();
        let Some(root) = segments.first().and_then(|m| self.modules.get(*m)) else {
            return Vec::new();
        };
        (1..=segments.len())
            .rev()
            .map(|n| match &segments[1..n] {
                [] => root.join("manifests").join("init.pp"),
                rest => root.join("manifests").join(rest.join("/") + ".pp"),
            })
            .collect()
    }

    /// The files Puppet's type loader may read for the class or defined type `name`
    /// (as [`manifests_searched_for`](Self::manifests_searched_for)) that exist, most
    /// specific first: where `pupcheck catalog` reads the bodies of installed modules.
    pub fn manifest_files_for(&self, name: &str) -> Vec<PathBuf> {
        self.autoload_candidates(name)
            .into_iter()
            .filter(|file| file.is_file())
            .collect()
    }

    /// The definitions of the file where the autoloader looks for the type alias `name`
    /// (lowercase).
    pub fn type_alias_for(&self, name: &str) -> Option<Arc<Environment>> {
        self.namespaced(name, "types")
    }

    /// The definitions of the file where the autoloader looks for the Puppet function
    /// `name` (`mod::a::b` in `<mod>/functions/a/b.pp`).
    pub fn function_for(&self, name: &str) -> Option<Arc<Environment>> {
        self.namespaced(name, "functions")
    }

    /// Whether Puppet certainly finds no function `mod::a::b` (lowercase) where it
    /// autoloads one: `mod` is on the modulepaths, `<mod>/functions/a/b.pp` is absent
    /// or read whole without it, and `<mod>/lib/puppet/functions/mod/a/b.rb` is absent.
    pub fn function_certainly_absent(&self, name: &str) -> bool {
        let segments: Vec<&str> = name.split("::").collect();
        let Some(root) = segments.first().and_then(|m| self.modules.get(*m)) else {
            return false;
        };
        if segments.len() < 2 || segments.iter().any(|s| s.is_empty()) {
            return false;
        }
        let ruby = root
            .join("lib/puppet/functions")
            .join(segments.join("/") + ".rb");
        if std::fs::symlink_metadata(ruby).is_ok() {
            return false;
        }
        match self.loaded(&root.join("functions").join(segments[1..].join("/") + ".pp")) {
            Loaded::Absent => true,
            Loaded::Parsed {
                env,
                complete: true,
            } => !env.functions.contains_key(name),
            _ => false,
        }
    }

    /// The function `mod::a::b` written in Ruby with the 4.x API, in
    /// `<mod>/lib/puppet/functions/mod/a/b.rb`, read as text (never run); `None` when
    /// there is none or the reader is not sure of it.
    pub fn ruby_function_for(
        &self,
        name: &str,
    ) -> Option<Arc<crate::ruby::function::RubyFunction>> {
        let segments: Vec<&str> = name.split("::").collect();
        let root = self.modules.get(*segments.first()?)?;
        if segments.len() < 2 || segments.iter().any(|s| s.is_empty()) {
            return None;
        }
        let file = root
            .join("lib/puppet/functions")
            .join(segments.join("/") + ".rb");
        // Remembered on disk, as manifests are. (The kind does not name the function:
        // the file's path does.)
        self.ruby_functions.get_or_compute(&file, || {
            crate::cache::remembered_text(
                crate::cache::Packing::Module,
                "ruby-function",
                &file,
                crate::source::read::SMALL_FILE_LIMIT,
                |text| crate::ruby::function::read_function(text, name),
            )
            .flatten()
            .map(Arc::new)
        })
    }

    /// The resource type `name` written in Ruby by the one module on the modulepaths
    /// that has `lib/puppet/type/<name>.rb`, read as text (never run); `None` when no
    /// module or several have the file, or the reader is not sure of it.
    /// (Asked once per name: `Environment::resource_type` keeps the answer.)
    pub fn ruby_type_for(
        &self,
        name: &str,
    ) -> Option<Arc<crate::builtin::resource_type::ResourceType>> {
        if !is_plain_name(name) {
            return None;
        }
        let file = self.only_module_with(&format!("lib/puppet/type/{name}.rb"))?;
        // Read with a Ruby parser: remembered on disk, as manifests are.
        // (The kind does not name the type: the file's name does.)
        crate::cache::remembered_text(
            crate::cache::Packing::Module,
            "ruby-type",
            &file,
            crate::ruby::resource_type::RUBY_TYPE_LIMIT,
            |text| crate::ruby::resource_type::read_type(text, name),
        )
        .flatten()
        .map(Arc::new)
    }

    /// Whether some module's provider of the resource type `name`
    /// (`lib/puppet/provider/<name>/*.rb`, which Puppet loads with the type) may add
    /// attributes or values to it, as a provider may by reopening the type's class
    /// (augeasproviders_ssh's adds `hash_hostname` to `sshkey`). Read as text.
    pub fn providers_extend(&self, name: &str) -> bool {
        if !is_plain_name(name) {
            return false;
        }
        const EXTENDING: &[&str] = &[
            "newparam",
            "newproperty",
            "newvalue",
            "aliasvalue",
            "ensurable",
            "class Puppet::Type::",
            "class_eval",
            "instance_eval",
        ];
        let folders = self.provider_folders.get_or_init(|| {
            // Every module's provider folders, listed once: a type is asked about for
            // each name declarations use.
            let mut folders: HashMap<String, Vec<PathBuf>> = HashMap::new();
            let provider_folders: Vec<PathBuf> = self
                .module_roots_holding("lib")
                .map(|root| root.join("lib/puppet/provider"))
                .collect();
            // (Each folder's names as far as they can be listed.)
            let listings =
                crate::cache::remembered_listings("providers", &provider_folders, |folder| {
                    Ok(std::fs::read_dir(folder)?
                        .flatten()
                        .map(|entry| (entry.file_name(), false))
                        .collect())
                });
            for (folder, listing) in provider_folders.iter().zip(listings) {
                for (name, _) in listing.into_iter().flatten() {
                    if let Some(type_name) = name.to_str() {
                        folders
                            .entry(type_name.to_string())
                            .or_default()
                            .push(folder.join(&name));
                    }
                }
            }
            folders
        });
        let Some(type_folders) = folders.get(name) else {
            return false;
        };
        // The type's provider folders listed, and what each provider file says
        // remembered, in the cache: asked for every resource type a file declares.
        let listings =
            crate::cache::remembered_listings("provider files", type_folders, |folder| {
                Ok(std::fs::read_dir(folder)?
                    .flatten()
                    .map(|entry| (entry.file_name(), false))
                    .collect())
            });
        type_folders.iter().zip(listings).any(|(folder, listing)| {
            let Ok(listing) = listing else {
                return false;
            };
            listing.iter().any(|(file_name, _)| {
                let path = folder.join(file_name);
                // (One pack for the modulepath's: `<modulepath>/<module>/lib/puppet/
                // provider/<type>`.)
                let modulepath = folder.ancestors().nth(5).unwrap_or(folder);
                path.extension().is_some_and(|e| e == "rb")
                    && crate::cache::remembered_text(
                        crate::cache::Packing::Folder(modulepath),
                        "provider-extends",
                        &path,
                        crate::source::read::SMALL_FILE_LIMIT,
                        |text| EXTENDING.iter().any(|word| text.contains(word)),
                    )
                    // Unreadable: what it does is unknown.
                    .unwrap_or(true)
            })
        })
    }

    /// The arity of the 3.x function `name` (unqualified) a module writes in Ruby
    /// (`lib/puppet/parser/functions/<name>.rb` of the one module that has it), when no
    /// module has a 4.x function of the name (`lib/puppet/functions/<name>.rb`, which
    /// Puppet would call instead) and the file declares one.
    pub fn legacy_arity_for(&self, name: &str) -> Option<i64> {
        if !is_plain_name(name) {
            return None;
        }
        // Asked for every call of such a name: looked up once.
        self.legacy_arities
            .get_or_compute(name, || self.read_legacy_arity(name))
    }

    fn read_legacy_arity(&self, name: &str) -> Option<i64> {
        let modern = format!("lib/puppet/functions/{name}.rb");
        if self.any_module_has(&modern) {
            return None;
        }
        let file = self.only_module_with(&format!("lib/puppet/parser/functions/{name}.rb"))?;
        // Remembered on disk, as manifests are. (The kind does not name the function:
        // the file's name does.)
        crate::cache::remembered_text(
            crate::cache::Packing::Module,
            "legacy-arity",
            &file,
            crate::source::read::SMALL_FILE_LIMIT,
            |text| crate::ruby::function::read_legacy_arity(text, name),
        )
        .flatten()
    }

    /// The files `relative` (`lib/puppet/type/cron.rb`) of the modules on the
    /// modulepaths that exist.
    fn existing(&self, relative: &str) -> Vec<PathBuf> {
        let top = relative.split('/').next().unwrap_or(relative);
        self.listings
            .existing(self.module_roots_holding(top), relative)
    }

    /// Whether some module on the modulepaths has the file `relative` (`lib/puppet/type/cron.rb`).
    pub fn any_module_has(&self, relative: &str) -> bool {
        !self.existing(relative).is_empty()
    }

    /// `relative` in the one module on the modulepaths that has it (`None` when none
    /// or several do: which one Puppet loads is not known).
    fn only_module_with(&self, relative: &str) -> Option<PathBuf> {
        match <[PathBuf; 1]>::try_from(self.existing(relative)) {
            Ok([file]) => Some(file),
            Err(_) => None,
        }
    }

    /// The EPP template `epp()` finds for `name` (`mod/a/b.epp` in
    /// `<mod>/templates/a/b.epp`), with its parameters; `None` when there is no such
    /// file, it cannot be read whole, or the name climbs out of the module.
    pub fn template(&self, name: &str) -> Option<super::EppTemplate> {
        let (module, rest) = name.split_once('/')?;
        let root = self.modules.get(module)?;
        let inside = Path::new(rest);
        if rest.is_empty()
            || !inside
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return None;
        }
        let found = crate::source::walk::FoundFile {
            path: root.join("templates").join(inside),
            kind: crate::source::SourceKind::Epp,
            within: None,
        };
        // Each call site asks: the parameter tag is read once a run, and remembered on
        // disk like a manifest's definitions. A template with a syntax error has no
        // parameters known.
        self.templates.get_or_compute(&found.path, || {
            let parameters = crate::cache::remembered_source("epp-parameters", &found, |source| {
                let parsed = crate::syntax::parse(source);
                (parsed.error_nodes == 0).then_some(parsed.program.epp_parameters)
            })
            .flatten()?;
            Some(super::EppTemplate {
                path: found.path.clone(),
                parameters,
            })
        })
    }

    /// `mod::a::b` in `<mod>/<folder>/a/b.pp`; names without a module have no file.
    fn namespaced(&self, name: &str, folder: &str) -> Option<Arc<Environment>> {
        let mut segments = name.split("::");
        let root = self.modules.get(segments.next()?)?;
        let rest: Vec<&str> = segments.collect();
        if rest.is_empty() {
            return None;
        }
        // A file with syntax errors may define the name partly (an alias cut short):
        // unknown, never judged.
        match self.loaded(&root.join(folder).join(rest.join("/") + ".pp")) {
            Loaded::Parsed {
                env,
                complete: true,
            } => Some(env),
            _ => None,
        }
    }

    fn load(&self, file: &Path) -> Option<Arc<Environment>> {
        match self.loaded(file) {
            Loaded::Parsed { env, .. } => Some(env),
            Loaded::Absent | Loaded::Unreadable => None,
        }
    }

    fn loaded(&self, file: &Path) -> Loaded {
        self.files
            .get_or_compute(file, || match Environment::of_file(file) {
                Some((env, complete)) => Loaded::Parsed {
                    env: Arc::new(env),
                    complete,
                },
                // (Asked only of a file that could not be read: most files asked about are
                // there, and reading one takes its stamp already.)
                None if std::fs::symlink_metadata(file).is_err() => Loaded::Absent,
                None => Loaded::Unreadable,
            })
    }
}

impl crate::hiera::ModuleFolders for Loader {
    fn module_may_hold(&self, root: &Path, name: &str) -> bool {
        Loader::module_may_hold(self, root, name)
    }
    fn names_data_provider(&self, root: &Path) -> bool {
        Loader::names_data_provider(self, root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each module's metadata.json is read once, for its name (a folder whose name is no
    /// module name) and for whether it names a Hiera data provider.
    #[test]
    fn a_modules_metadata_names_it_and_its_data_provider() {
        let dir = tempfile::tempdir().unwrap();
        let modules = dir.path().join("modules");
        for (folder, metadata) in [
            (
                "ntp",
                r#"{"name": "puppetlabs-ntp", "data_provider": "hiera"}"#,
            ),
            ("puppetlabs-apt", r#"{"name": "puppetlabs-apt"}"#),
            ("broken-name", r#"{"name": 7}"#),
        ] {
            std::fs::create_dir_all(modules.join(folder).join("manifests")).unwrap();
            std::fs::write(modules.join(folder).join("metadata.json"), metadata).unwrap();
        }
        let loader = Loader::new(std::slice::from_ref(&modules), &[]);
        let names: Vec<String> = loader.modules().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["apt", "ntp"]);
        assert!(loader.names_data_provider(&modules.join("ntp")));
        assert!(!loader.names_data_provider(&modules.join("puppetlabs-apt")));
        // A folder the loader did not list is read when asked about.
        let other = dir.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("metadata.json"), r#"{"data_provider": "x"}"#).unwrap();
        assert!(loader.names_data_provider(&other));
        assert!(!loader.names_data_provider(&dir.path().join("missing")));
    }

    /// A module's files in `lib/` are found through one listing of each module's folder
    /// (a module without `lib` is not asked); a link there that leads nowhere is no file.
    #[test]
    fn module_files_are_found_by_listing_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        let modules = dir.path().join("modules");
        let types = modules.join("cron/lib/puppet/type");
        std::fs::create_dir_all(&types).unwrap();
        std::fs::write(
            types.join("cron.rb"),
            "Puppet::Type.newtype(:cron) do\nend\n",
        )
        .unwrap();
        std::fs::create_dir_all(modules.join("ntp/manifests")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(types.join("gone.rb"), types.join("dangling.rb")).unwrap();
        let loader = Loader::new(std::slice::from_ref(&modules), &[]);
        assert!(loader.module_may_hold(&modules.join("cron"), "lib"));
        assert!(!loader.module_may_hold(&modules.join("ntp"), "lib"));
        // A folder the loader did not list may hold anything.
        assert!(loader.module_may_hold(&dir.path().join("elsewhere"), "lib"));
        assert_eq!(
            loader.existing("lib/puppet/type/cron.rb"),
            [types.join("cron.rb")]
        );
        assert!(loader.any_module_has("lib/puppet/type/cron.rb"));
        assert!(!loader.any_module_has("lib/puppet/type/dangling.rb"));
        assert!(!loader.any_module_has("lib/puppet/type/absent.rb"));
    }

    #[test]
    fn templates_are_read_inside_their_module_only() {
        let root = std::env::temp_dir().join(format!("pupcheck-templates-{}", std::process::id()));
        let templates = root.join("modules/ntp/templates");
        std::fs::create_dir_all(templates.join("sub")).unwrap();
        std::fs::write(
            templates.join("sub/ntp.conf.epp"),
            "<%- | Integer $port | -%>\nport <%= $port %>\n",
        )
        .unwrap();
        std::fs::write(root.join("modules/secret.epp"), "<%- | $x | -%>\n").unwrap();
        std::fs::write(templates.join("broken.epp"), "<%- | Integer $port -%>\n").unwrap();
        let loader = Loader::new(&[root.join("modules")], &[]);
        let found = loader
            .template("ntp/sub/ntp.conf.epp")
            .expect("the template");
        let params = found.parameters.expect("its parameters");
        assert_eq!(params[0].name.name, "port");
        for outside in [
            "ntp/../secret.epp",
            "ntp//etc/passwd",
            "ntp/",
            "ntp",
            "nosuch/x.epp",
            "ntp/missing.epp",
            // A tag with a syntax error: its parameters are unknown.
            "ntp/broken.epp",
        ] {
            assert!(loader.template(outside).is_none(), "{outside}");
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
