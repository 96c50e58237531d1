//! Hiera 5 data an environment binds to class parameters (automatic parameter lookup):
//! the environment layer (its `hiera.yaml`; Puppet 7 reads no environment data without
//! one) and each module's layer (the module's `hiera.yaml`). Each level's path is read
//! with every file it can name: an interpolation (`%{facts.os.family}`) matches any name
//! within a path segment. Only the YAML backend (`data_hash: yaml_data`, the default)
//! is read (`mapped_paths` as the path its template names); a level with another
//! backend or with `uri` is left out, as
//! is a configuration that is not version 5. Files are read as text through
//! `source::read`, within bounds (see `yaml`).

pub mod merge;
pub mod options;
pub mod yaml;

use crate::source::read;
use std::path::{Path, PathBuf};
use yaml::{Node, NodeKind};

/// At most this many data files are read for one hierarchy level.
const MAX_FILES_PER_LEVEL: usize = 10_000;

/// One data file of a hierarchy, read.
#[derive(Debug)]
pub struct DataFile {
    pub path: PathBuf,
    pub text: String,
    /// Its top-level mapping, or why it is not YAML pupcheck reads.
    pub document: Result<Option<Node>, yaml::YamlError>,
    /// The module whose layer it is in (its keys are that module's only); `None` for
    /// the environment layer.
    pub module: Option<String>,
    /// Read through hiera-eyaml (`lookup_key: eyaml_lookup_key`): its keys bind, but
    /// its values are decrypted before Puppet sees them.
    pub encrypted: bool,
    /// Its place in the order Hiera looks in: the environment's levels, then the
    /// modules', each level's paths in order (files one interpolated path names share
    /// one). Lower looks first.
    pub rank: usize,
    /// Named by a path without interpolation or wildcard: read for every node.
    pub everywhere: bool,
}

impl DataFile {
    /// Whether a lookup of `key` reads this file's layer: a module's layer serves the
    /// keys of the module's namespace only.
    pub fn serves(&self, key: &str) -> bool {
        self.module
            .as_ref()
            .is_none_or(|m| key.starts_with(&format!("{m}::")))
    }

    /// The value this file binds `key` to.
    pub fn value_of(&self, key: &str) -> Option<&Node> {
        self.string_entries()
            .find(|(k, _, _)| *k == key)
            .map(|(_, _, value)| value)
    }

    /// The top-level entries whose key is a string: `(key, key node, value node)`.
    pub fn entries(&self) -> Vec<(&str, &Node, &Node)> {
        self.string_entries().collect()
    }

    fn string_entries(&self) -> impl Iterator<Item = (&str, &Node, &Node)> {
        let entries = match &self.document {
            Ok(Some(Node {
                kind: NodeKind::Mapping(entries),
                ..
            })) => entries.as_slice(),
            _ => &[],
        };
        entries.iter().filter_map(|(k, v)| match &k.kind {
            NodeKind::Scalar {
                text,
                tagged: false,
                ..
            } => Some((text.as_str(), k, v)),
            _ => None,
        })
    }
}

/// The Hiera files of an environment: its layers' configurations (`hiera.yaml`) and
/// the data files their levels can name.
#[derive(Debug, Default)]
pub struct Hiera {
    pub configs: Vec<DataFile>,
    pub data: Vec<DataFile>,
    /// Whether the environment's own layer was read whole (`None`: not read at all,
    /// for files in no environment).
    environment_layer_whole: Option<bool>,
    /// The modules whose layer may hold keys pupcheck did not read.
    modules_not_whole: std::collections::HashSet<String>,
    /// The data files (indexes in `data`) binding each key.
    bindings: std::collections::HashMap<String, Vec<usize>>,
    /// The data folders the environment's levels read (relative to it).
    read_datadirs: Vec<PathBuf>,
    /// The rank the next level path gets (`DataFile::rank`).
    next_rank: usize,
    /// Whether the global layer was read whole (or is taken as empty).
    global_layer_whole: bool,
    /// Each level read, in the order Hiera looks in them.
    pub levels: Vec<LevelSurvey>,
}

/// The Hiera files of the environment at `root` (none of its own for `None`, files in
/// no environment) and of the modules on `modules` (`(name, root)`), in that order.
pub fn read(root: Option<&Path>, modules: &[(String, PathBuf)]) -> Hiera {
    read_with_global(None, root, modules, None)
}

/// Whether the `metadata.json` of the module at `root` names a data provider, read now
/// (the loader reads it once with the module's name).
pub fn module_names_data_provider(root: &Path) -> bool {
    small_text(&root.join("metadata.json")).is_some_and(|m| names_data_provider(&m))
}

/// Whether a module's `metadata.json` (its text) names a data provider: Hiera 4's way,
/// still honoured without a hiera.yaml, whose data pupcheck does not read.
pub fn names_data_provider(metadata: &str) -> bool {
    metadata.contains("data_provider")
}

/// What the index read of the modules' folders, asked instead of the file system
/// (the environment's module loader answers).
pub trait ModuleFolders {
    /// Whether the module at `root` may hold a top-level entry `name`.
    fn module_may_hold(&self, root: &Path, name: &str) -> bool;
    /// Whether the module's `metadata.json` names a data provider.
    fn names_data_provider(&self, root: &Path) -> bool;
}

/// [`read`], with the global layer's configuration `global` (`hiera-global`) read
/// first, as Hiera looks in it first; without one the global layer is taken as empty.
/// `loader`: what it read of each module's folder (whether it holds a `hiera.yaml`,
/// whether its `metadata.json` names a data provider), asked instead of the file
/// system.
pub fn read_with_global(
    global: Option<&Path>,
    root: Option<&Path>,
    modules: &[(String, PathBuf)],
    loader: Option<&dyn ModuleFolders>,
) -> Hiera {
    let mut hiera = Hiera::default();
    if let Some(config) = global {
        let base = config.parent().unwrap_or(Path::new("."));
        // A global configuration pupcheck cannot read (Hiera 3's, say) may bind any key.
        hiera.global_layer_whole = config.is_file() && hiera.read_config(config, base, None);
    } else {
        hiera.global_layer_whole = true;
    }
    // A module's repository is no environment: its `hiera.yaml` is its module layer.
    // (A control repository may have a metadata.json too, beside its environment.conf
    // or Puppetfile.)
    let is_module = |root: &Path| {
        root.join("metadata.json").is_file()
            && !root.join("environment.conf").is_file()
            && !root.join("Puppetfile").is_file()
    };
    if let Some(root) = root.filter(|root| !is_module(root)) {
        // Without a `hiera.yaml`, Puppet 7 gives the environment no data layer
        // (`LookupAdapter#initialize_env_provider`), unless `environment.conf` names a
        // data provider, which pupcheck does not read.
        let provider = small_text(&root.join("environment.conf"))
            .is_some_and(|conf| conf.contains("environment_data_provider"));
        let whole = hiera.read_layer(root, None) && !provider;
        // Without one, or with data folders none of its levels reads, the global
        // layer (outside the repository) may read the environment's data: a Hiera 3
        // global configuration's `:datadir:` often names the environment's
        // `hieradata/`.
        let configured = root.join("hiera.yaml").is_file();
        let data_unread = ["hieradata", "data"].iter().any(|folder| {
            root.join(folder).is_dir()
                && !hiera
                    .read_datadirs
                    .iter()
                    .any(|d| d.starts_with(root.join(folder)))
        });
        hiera.environment_layer_whole = Some(whole && configured && !data_unread);
    }
    for (name, module_root) in modules {
        // (What the loader read of the module's folder, when there is one: whether it
        // holds a `hiera.yaml`, and its metadata.json.)
        let layer_whole = loader.is_some_and(|l| !l.module_may_hold(module_root, "hiera.yaml"))
            || hiera.read_layer(module_root, Some(name));
        // A module may name a data provider in its metadata.json instead.
        let names_provider = match loader {
            Some(loader) => loader.names_data_provider(module_root),
            None => module_names_data_provider(module_root),
        };
        if !layer_whole || names_provider {
            hiera.modules_not_whole.insert(name.clone());
        }
    }
    for (index, file) in hiera.data.iter().enumerate() {
        for (key, _, _) in file.entries() {
            // A key written twice in one file is one binding (each check of a binding
            // walks the others: 200,000 copies of a key were 40 billion steps).
            let files = hiera.bindings.entry(key.to_string()).or_default();
            if files.last() != Some(&index) {
                files.push(index);
            }
        }
    }
    hiera
}

/// A small file's text, read within bounds (never a FIFO or a device).
fn small_text(path: &Path) -> Option<String> {
    crate::source::read::read_text(path, crate::source::read::SMALL_FILE_LIMIT).ok()
}

impl Hiera {
    /// Every key some data file binds where a lookup of it reads (a module's layer
    /// serves its own namespace only), in no order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.bindings.iter().filter_map(|(key, files)| {
            files
                .iter()
                .any(|&i| self.data[i].serves(key))
                .then_some(key.as_str())
        })
    }

    /// Whether the environment's own layer was read whole: every level's files read
    /// as YAML pupcheck knows the keys of (`None`: files in no environment).
    pub fn environment_layer_whole(&self) -> Option<bool> {
        self.environment_layer_whole
    }

    /// The data folders the environment's levels name (absolute).
    pub fn environment_datadirs(&self) -> &[PathBuf] {
        &self.read_datadirs
    }

    /// Whether the global layer was read whole (or, unconfigured, is taken as empty).
    pub fn global_layer_whole(&self) -> bool {
        self.global_layer_whole
    }

    /// Whether some layer of the environment may bind `key` (a class parameter's
    /// `class::parameter`): a data file pupcheck read holds it, or a layer that could
    /// was not read whole. Keys of a module's layer are that module's only. The global
    /// layer, outside the repository, is taken as empty.
    pub fn may_bind(&self, key: &str) -> bool {
        let module = key.split("::").next().unwrap_or_default().to_string();
        self.environment_layer_whole != Some(true)
            || !self.global_layer_whole
            || self.modules_not_whole.contains(&module)
            || self.binding_files(key).any(|file| file.serves(key))
    }

    /// Every value a lookup of `key` can give, when all are known: every layer read
    /// whole, the key's `lookup_options` known and without `convert_to`, each value
    /// read (no interpolation, not hiera-eyaml's), merged as its options say, values no
    /// node sees left out. Empty when no data binds the key; `None` when pupcheck
    /// cannot be sure.
    pub fn values(&self, key: &str) -> Option<Vec<crate::types::Value>> {
        let module = key.split("::").next().unwrap_or_default().to_string();
        if self.environment_layer_whole != Some(true)
            || !self.global_layer_whole
            || self.modules_not_whole.contains(&module)
            || key.contains('.')
        {
            return None;
        }
        let options = self.lookup_options(key)?;
        if options.convert_to.is_some() {
            return None;
        }
        let mut values = Vec::new();
        for found in self.found(key, &options.merge) {
            let value = found.value?;
            if !values.contains(&value) {
                values.push(value);
            }
        }
        Some(values)
    }

    /// Whether every node that reads `file` finds `key` first in another file: one
    /// Hiera looks in before it, read for every node (`common.yaml` above
    /// `defaults.yaml`; the environment's data above a module's), in a layer that
    /// serves the key (a module's serves its own keys only).
    pub fn shadowed(&self, file: &DataFile, key: &str) -> bool {
        self.binding_files(key)
            .any(|other| other.rank < file.rank && other.everywhere && other.serves(key))
    }

    /// The files some lookup of `key` may take its value from, with that value: those
    /// of a layer that serves the key, not hidden for every node by a file read before.
    pub fn candidates<'a>(
        &'a self,
        key: &'a str,
    ) -> impl Iterator<Item = (&'a DataFile, &'a Node)> {
        self.binding_files(key)
            .filter(move |file| file.serves(key) && !self.shadowed(file, key))
            .filter_map(move |file| Some((file, file.value_of(key)?)))
    }

    /// The data files binding `key`, in the order Hiera reads them.
    fn binding_files<'a>(&'a self, key: &str) -> impl Iterator<Item = &'a DataFile> {
        self.bindings
            .get(key)
            .into_iter()
            .flatten()
            .map(|&index| &self.data[index])
    }

    /// Reads the layer whose `hiera.yaml` is in `base`, if it has one; whether every
    /// key the layer can bind was read (a layer without a configuration binds none).
    fn read_layer(&mut self, base: &Path, module: Option<&String>) -> bool {
        let path = base.join("hiera.yaml");
        if !path.exists() {
            return true;
        }
        self.read_config(&path, base, module)
    }

    /// Reads the configuration at `path` and the data files its levels name (relative
    /// to `base`); whether every key the layer can bind was read.
    fn read_config(&mut self, path: &Path, base: &Path, module: Option<&String>) -> bool {
        let path = path.to_path_buf();
        let Some(text) = small_text(&path) else {
            return false;
        };
        let config = DataFile {
            document: yaml::parse(&text),
            path,
            text,
            module: module.cloned(),
            encrypted: false,
            rank: 0,
            everywhere: true,
        };
        let whole = match levels(&config) {
            Some((levels, every_level)) => {
                if module.is_none() {
                    self.read_datadirs
                        .extend(levels.iter().map(|l| base.join(&l.datadir)));
                }
                read_levels(
                    base,
                    &levels,
                    module,
                    &mut self.data,
                    &mut self.next_rank,
                    &mut self.levels,
                ) && every_level
            }
            None => false,
        };
        self.configs.push(config);
        whole
    }
}

/// A hierarchy level pupcheck reads: its data folder (relative to the configuration's
/// folder) and path patterns.
#[derive(Debug, Clone, PartialEq)]
struct Level {
    name: String,
    datadir: PathBuf,
    paths: Vec<String>,
    /// hiera-eyaml's files: YAML whose values are encrypted.
    encrypted: bool,
    /// Why pupcheck does not read the level (another backend), if it does not.
    unread: Option<String>,
}

/// What one hierarchy level of a layer gave, for `pupcheck env`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LevelSurvey {
    /// The module whose layer it is (`None`: the environment's).
    pub module: Option<String>,
    pub name: String,
    /// The data folder and the paths (patterns) it names, as written.
    pub datadir: PathBuf,
    pub paths: Vec<String>,
    /// The files it names that are there, each with why pupcheck could not read it,
    /// if it could not.
    pub files: Vec<(PathBuf, Option<String>)>,
    /// Why the level was not read (another backend, a data folder kept elsewhere).
    pub unread: Option<String>,
}

/// The YAML levels of a `hiera.yaml`, and whether they are all its levels; `None` when
/// it is not a version 5 configuration pupcheck reads.
fn levels(config: &DataFile) -> Option<(Vec<Level>, bool)> {
    let document = config.document.as_ref().ok()?.clone()?;
    let get = |node: &'_ Node, key: &str| -> Option<Node> {
        let NodeKind::Mapping(entries) = &node.kind else {
            return None;
        };
        entries
            .iter()
            .find(|(k, _)| matches!(&k.kind, NodeKind::Scalar { text, .. } if text == key))
            .map(|(_, v)| v.clone())
    };
    let scalar = |node: &Node| match &node.kind {
        NodeKind::Scalar { text, .. } => Some(text.clone()),
        _ => None,
    };
    if get(&document, "version")
        .and_then(|v| scalar(&v))
        .as_deref()
        != Some("5")
    {
        return None;
    }
    let defaults = get(&document, "defaults");
    let default_datadir = defaults
        .as_ref()
        .and_then(|d| get(d, "datadir"))
        .and_then(|d| scalar(&d))
        .unwrap_or_else(|| "data".to_string());
    let default_backend = defaults
        .as_ref()
        .and_then(|d| get(d, "data_hash"))
        .and_then(|d| scalar(&d));
    let NodeKind::Sequence(hierarchy) = get(&document, "hierarchy")?.kind else {
        return None;
    };
    let mut levels = Vec::new();
    let mut every_level = true;
    for level in &hierarchy {
        let encrypted = get(level, "lookup_key")
            .and_then(|b| scalar(&b))
            .is_some_and(|b| b == "eyaml_lookup_key");
        let other_backend = ["data_dig", "uri", "uris", "hiera3_backend"]
            .iter()
            .any(|k| get(level, k).is_some())
            || (get(level, "lookup_key").is_some() && !encrypted);
        let backend = get(level, "data_hash")
            .and_then(|b| scalar(&b))
            .or_else(|| default_backend.clone());
        let other_data_hash = !encrypted && backend.as_deref().is_some_and(|b| b != "yaml_data");
        let name = get(level, "name")
            .and_then(|n| scalar(&n))
            .unwrap_or_default();
        if other_backend || other_data_hash {
            every_level = false;
            levels.push(Level {
                name,
                datadir: PathBuf::new(),
                paths: Vec::new(),
                encrypted,
                unread: Some("a backend pupcheck does not read: any key may be bound".into()),
            });
            continue;
        }
        let mut paths = Vec::new();
        for key in ["path", "glob"] {
            paths.extend(get(level, key).and_then(|p| scalar(&p)));
        }
        for key in ["paths", "globs"] {
            if let Some(Node {
                kind: NodeKind::Sequence(items),
                ..
            }) = get(level, key)
            {
                paths.extend(items.iter().filter_map(scalar));
            }
        }
        // `mapped_paths: [fact, variable, template]`: the template, interpolated with
        // each element of the fact, names the files (each some nodes read).
        if let Some(Node {
            kind: NodeKind::Sequence(items),
            ..
        }) = get(level, "mapped_paths")
        {
            match items.as_slice() {
                [_, _, template] => paths.extend(scalar(template)),
                _ => every_level = false,
            }
        }
        let datadir = get(level, "datadir")
            .and_then(|d| scalar(&d))
            .unwrap_or_else(|| default_datadir.clone());
        if paths.is_empty() || datadir.contains("%{") {
            every_level = false;
        }
        levels.push(Level {
            name,
            datadir: PathBuf::from(datadir),
            paths,
            encrypted,
            unread: None,
        });
    }
    Some((levels, every_level))
}

/// Reads every file the levels' patterns can name, once each; whether every file they
/// can name was read as YAML pupcheck knows the keys of.
fn read_levels(
    base: &Path,
    levels: &[Level],
    module: Option<&String>,
    into: &mut Vec<DataFile>,
    next_rank: &mut usize,
    surveys: &mut Vec<LevelSurvey>,
) -> bool {
    let mut whole = true;
    for level in levels {
        let datadir = base.join(&level.datadir);
        let mut survey = LevelSurvey {
            module: module.cloned(),
            name: level.name.clone(),
            datadir: datadir.clone(),
            paths: level.paths.clone(),
            files: Vec::new(),
            unread: level.unread.clone(),
        };
        let first_file = into.len();
        whole &= read_level(level, &datadir, module, into, next_rank, &mut survey.unread);
        survey.files = into[first_file..]
            .iter()
            .map(|file| {
                let why = file.document.as_ref().err().map(|e| e.message.clone());
                (file.path.clone(), why)
            })
            .collect();
        surveys.push(survey);
    }
    whole
}

/// Reads the files of one level into `into`; whether all were read whole. `unread`:
/// why the level is not read at all.
fn read_level(
    level: &Level,
    datadir: &Path,
    module: Option<&String>,
    into: &mut Vec<DataFile>,
    next_rank: &mut usize,
    unread: &mut Option<String>,
) -> bool {
    let mut whole = true;
    if unread.is_some() {
        return false;
    }
    {
        // A data folder outside the configuration's folder is not read.
        if !level.datadir.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        }) {
            *unread = Some("a data folder outside the layer's folder: any key may be bound".into());
            return false;
        }
        // An environment's data folder that is not in the repository is kept
        // elsewhere (deployed apart, or encrypted data left out): its keys are unknown,
        // never absent. (A module ships its data: a module's missing folder has none.)
        if module.is_none() && !datadir.is_dir() {
            *unread = Some("the data folder is not in the repository: any key may be bound".into());
            return false;
        }
        for pattern in &level.paths {
            let rank = *next_rank;
            *next_rank += 1;
            let everywhere = !pattern.contains("%{") && !pattern.contains(['*', '?', '[', '{']);
            let Some(paths) = matching_files(datadir, pattern) else {
                whole = false;
                continue;
            };
            for path in paths {
                if into.iter().any(|f| f.path == path) {
                    continue;
                }
                // A file the level names that cannot be read whole (a FIFO, over the
                // size read, not UTF-8) is one whose keys are unknown, and a finding on
                // it, never a file that binds nothing.
                let text = match read::read_text(&path, read::SMALL_FILE_LIMIT) {
                    Ok(text) => text,
                    Err(why) => {
                        whole = false;
                        into.push(DataFile {
                            path,
                            text: String::new(),
                            document: Err(yaml::YamlError {
                                message: why.to_string(),
                                offset: 0,
                                over_bounds: true,
                            }),
                            module: module.cloned(),
                            encrypted: level.encrypted,
                            rank,
                            everywhere,
                        });
                        continue;
                    }
                };
                let document = yaml::parse(&text);
                // A file whose keys are not all known: not YAML pupcheck reads, not a
                // mapping, or one with Psych's `<<` merge keys.
                let keys_known = match &document {
                    Ok(None) => true,
                    Ok(Some(Node {
                        kind: NodeKind::Mapping(entries),
                        ..
                    })) => entries.iter().all(|(k, _)| {
                        matches!(&k.kind, NodeKind::Scalar { tagged: false, text, .. } if text != "<<")
                    }),
                    _ => false,
                };
                whole &= keys_known;
                into.push(DataFile {
                    path,
                    text,
                    document,
                    module: module.cloned(),
                    encrypted: level.encrypted,
                    rank,
                    everywhere,
                });
            }
        }
    }
    whole
}

/// The files under `datadir` a path pattern can name: an interpolation or a glob's `*`
/// matches any name within one segment; `..` never climbs out.
fn matching_files(datadir: &Path, pattern: &str) -> Option<Vec<PathBuf>> {
    let segments: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    if segments.iter().any(|s| *s == ".." || s.contains("**")) {
        return None;
    }
    let mut current = vec![datadir.to_path_buf()];
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let matcher = segment_matcher(segment);
        let mut next = Vec::new();
        for dir in &current {
            match &matcher {
                None => {
                    // The last segment names any file that is not a folder: one that is
                    // not regular (a FIFO) is named too, and found unreadable.
                    let path = dir.join(segment);
                    let is_dir = path.is_dir();
                    if (last && !is_dir && path.exists()) || (!last && is_dir) {
                        next.push(path);
                    }
                }
                Some(matcher) => {
                    let Ok(entries) = std::fs::read_dir(dir) else {
                        continue;
                    };
                    let mut found: Vec<PathBuf> = entries
                        .flatten()
                        .filter(|e| {
                            e.file_name()
                                .to_str()
                                .is_some_and(|n| matcher.is_match(n.as_bytes()))
                        })
                        .filter(|e| {
                            // The entry's type from the listing (no `stat`, which each
                            // level's pattern made of every file of the folder), a
                            // link's from what it leads to.
                            let kind = match e.file_type() {
                                Ok(kind) if !kind.is_symlink() => Some(kind),
                                _ => std::fs::metadata(e.path()).ok().map(|m| m.file_type()),
                            };
                            kind.is_some_and(|k| if last { !k.is_dir() } else { k.is_dir() })
                        })
                        .map(|e| e.path())
                        .collect();
                    found.sort();
                    next.extend(found);
                }
            }
            if next.len() > MAX_FILES_PER_LEVEL {
                return None;
            }
        }
        current = next;
    }
    Some(current)
}

/// A segment with interpolations or glob characters as a pattern over names; `None`
/// for a literal name.
fn segment_matcher(segment: &str) -> Option<SegmentPattern> {
    if !segment.contains("%{") && !segment.contains(['*', '?', '[', '{']) {
        return None;
    }
    let mut tokens = Vec::new();
    let mut rest = segment;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("%{") {
            let end = after.find('}').map_or(after.len(), |e| e + 1);
            tokens.push(Token::AnyRun);
            rest = &after[end..];
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        match c {
            // (A brace or bracket alternative is matched loosely, as anything.)
            '*' | '{' | '}' | ',' | '[' | ']' => tokens.push(Token::AnyRun),
            '?' => tokens.push(Token::AnyByte),
            other => tokens.extend(other.to_string().bytes().map(Token::Byte)),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(SegmentPattern { tokens })
}

/// A path segment's pattern, matched against a folder's names by their bytes: an
/// interpolation or a glob's `*` stands for any run of bytes, `?` for any one byte.
/// (Compiling each as a regex was a tenth of a few-file check's reading of Hiera.)
#[derive(Debug)]
struct SegmentPattern {
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Byte(u8),
    AnyByte,
    AnyRun,
}

impl SegmentPattern {
    /// Whether the whole of `name` matches (a name with a line break never does).
    fn is_match(&self, name: &[u8]) -> bool {
        if name.contains(&b'\n') {
            return false;
        }
        // The classic wildcard walk: on a mismatch, the last `AnyRun` takes one byte
        // more and the match resumes after it.
        let (mut t, mut n) = (0, 0);
        let mut last_run: Option<(usize, usize)> = None;
        while n < name.len() {
            match self.tokens.get(t) {
                Some(Token::AnyRun) => {
                    last_run = Some((t, n));
                    t += 1;
                }
                Some(Token::AnyByte) => {
                    t += 1;
                    n += 1;
                }
                Some(Token::Byte(b)) if *b == name[n] => {
                    t += 1;
                    n += 1;
                }
                _ => match last_run {
                    Some((run, taken)) => {
                        last_run = Some((run, taken + 1));
                        t = run + 1;
                        n = taken + 1;
                    }
                    None => return false,
                },
            }
        }
        self.tokens[t..].iter().all(|token| *token == Token::AnyRun)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_match_names_as_globs_with_interpolations() {
        let m = segment_matcher("nodes-%{trusted.certname}.y*ml").expect("a pattern");
        assert!(m.is_match(b"nodes-web1.example.com.yaml"));
        assert!(!m.is_match(b"other-web1.yaml"));
        // Names outside ASCII match by their bytes.
        let m = segment_matcher("r\u{e9}gion-%{facts.region}.yaml").expect("a pattern");
        assert!(m.is_match("r\u{e9}gion-\u{1f600}.yaml".as_bytes()));
        assert!(!m.is_match(b"region-x.yaml"));
        assert!(segment_matcher("common.yaml").is_none());
        // Runs match nothing or anything; `?` one byte; the whole name must match.
        let m = segment_matcher("*-%{x}?.yaml").expect("a pattern");
        assert!(m.is_match(b"-a.yaml"));
        assert!(m.is_match(b"a-b-c-dd.yaml"));
        assert!(!m.is_match(b"a-.yaml"));
        assert!(!m.is_match(b"a-b.yaml.bak"));
        // A run gives back what a later literal needs (backtracking).
        let m = segment_matcher("%{a}aab").expect("a pattern");
        assert!(m.is_match(b"aaaab"));
        assert!(!m.is_match(b"aaaa"));
        // A line break in a name is matched by nothing.
        let m = segment_matcher("%{a}.yaml").expect("a pattern");
        assert!(m.is_match(b"xy.yaml"));
        assert!(!m.is_match(b"x\ny.yaml"));
    }

    #[test]
    fn levels_name_every_file_their_patterns_can() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("hiera.yaml"),
            "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: os\n    paths:\n      - \"os/%{facts.os.family}.yaml\"\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n  - name: common\n    path: common.yaml\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("data/nodes")).unwrap();
        std::fs::create_dir_all(root.join("data/os")).unwrap();
        std::fs::write(root.join("data/nodes/web1.example.com.yaml"), "a: 1\n").unwrap();
        std::fs::write(root.join("data/os/Debian.yaml"), "a: 2\n").unwrap();
        std::fs::write(root.join("data/os/notes.txt"), "").unwrap();
        std::fs::write(root.join("data/secrets.eyaml"), "a: ENC[x]\n").unwrap();
        std::fs::write(root.join("data/common.yaml"), "ntp::servers: 42\n").unwrap();
        let files = read(Some(root), &[]).data;
        let names: Vec<String> = files
            .iter()
            .map(|f| f.path.strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "data/nodes/web1.example.com.yaml",
                "data/os/Debian.yaml",
                "data/secrets.eyaml",
                "data/common.yaml"
            ]
        );
        assert!(files[2].encrypted && !files[3].encrypted);
        assert_eq!(files[3].entries()[0].0, "ntp::servers");
    }

    #[test]
    fn a_key_may_be_bound_unless_every_layer_was_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let module = root.join("modules/ntp");
        std::fs::create_dir_all(root.join("data")).unwrap();
        std::fs::create_dir_all(module.join("data")).unwrap();
        let config = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";
        std::fs::write(root.join("hiera.yaml"), config).unwrap();
        std::fs::write(root.join("data/common.yaml"), "ntp::servers: [a]\n").unwrap();
        std::fs::write(module.join("hiera.yaml"), config).unwrap();
        std::fs::write(module.join("data/common.yaml"), "ntp::port: 1\nweb::x: 1\n").unwrap();
        let modules = [("ntp".to_string(), module.clone())];
        let hiera = read(Some(root), &modules);
        assert!(hiera.may_bind("ntp::servers") && hiera.may_bind("ntp::port"));
        assert!(!hiera.may_bind("ntp::mode"));
        assert!(
            !hiera.may_bind("web::x"),
            "a module's layer binds its own keys only"
        );
        // A level pupcheck cannot read (another backend) may bind anything.
        std::fs::write(
            root.join("hiera.yaml"),
            format!("{config}  - name: db\n    data_hash: json_data\n    path: x.json\n"),
        )
        .unwrap();
        assert!(read(Some(root), &modules).may_bind("ntp::mode"));
        // Files in no environment: its layer is unknown.
        assert!(read(None, &modules).may_bind("ntp::mode"));
        // No hiera.yaml, or a data folder no level reads: the global layer may read
        // the environment's data (a Hiera 3 `:datadir:` naming its `hieradata/`).
        std::fs::write(root.join("hiera.yaml"), config).unwrap();
        std::fs::create_dir_all(root.join("hieradata")).unwrap();
        assert!(read(Some(root), &modules).may_bind("ntp::mode"));
        std::fs::remove_dir(root.join("hieradata")).unwrap();
        assert!(!read(Some(root), &modules).may_bind("ntp::mode"));
        // A data folder the environment's levels name that is not in the repository
        // (kept elsewhere): its keys are unknown. A module's missing folder has none.
        std::fs::rename(root.join("data"), root.join("elsewhere")).unwrap();
        assert!(read(Some(root), &modules).may_bind("ntp::mode"));
        std::fs::rename(root.join("elsewhere"), root.join("data")).unwrap();
        std::fs::rename(module.join("data"), module.join("elsewhere")).unwrap();
        assert!(!read(Some(root), &modules).may_bind("ntp::mode"));
        std::fs::remove_file(root.join("hiera.yaml")).unwrap();
        assert!(read(Some(root), &modules).may_bind("ntp::mode"));
    }

    #[test]
    fn without_a_configuration_the_environment_has_no_data() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        std::fs::write(dir.path().join("data/common.yaml"), "x::y: 1\n").unwrap();
        assert!(read(Some(dir.path()), &[]).data.is_empty());
    }
}
