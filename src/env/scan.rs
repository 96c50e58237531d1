//! What the files of an environment (its folder and every module on its modulepath)
//! say, read as text rather than parsed, for the questions whose answer may lie in any
//! of them:
//! - which classes may be declared with parameters: a class declared like a resource
//!   (`class { 'ntp': servers => [...] }`), or by `create_resources('class', ...)` or
//!   `ensure_resource('class', ...)`, may have its parameters given before an
//!   `include` of it is evaluated, so what an `include` lacks is not judged for it;
//! - which Hiera keys may be looked up by name (`lookup('ntp::servers')`, `hiera(...)`,
//!   a `%{lookup('...')}` or `%{alias('...')}` interpolation in data): such a key binds
//!   something even when no class has a parameter of its name.
//!
//! A match in a comment or an unrelated string only makes pupcheck judge less.

use foldhash::HashMap;
use foldhash::HashSet;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Larger files are not read (and make any class declared, any key looked up).
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The extensions of the files searched: manifests, templates, Ruby (functions call
/// `lookup` too) and Hiera data (interpolations).
const EXTENSIONS: &[&str] = &[
    "pp", "epp", "erb", "rb", "yaml", "eyaml", "yml", "json", "txt",
];

#[derive(Debug, Default)]
pub struct Scan {
    /// Classes declared like a resource with a literal title, lowercase, without `::`.
    classes_named: HashSet<String>,
    /// Some declaration's class is not written literally (a variable, a list, a
    /// function's argument): any class may be declared so.
    any_class: bool,
    /// The texts where a key may be written (data files: their interpolations only):
    /// a key written anywhere in them (as a whole token) may be looked up.
    key_texts: Vec<String>,
    /// The keys a lookup of an interpolated string may name (`"${module_name}::x"`,
    /// the module's name put in).
    key_patterns: Vec<Regex>,
    /// Some lookup's key is not written as a string: any key may be looked up.
    any_key: bool,
    /// The words (runs of letters, digits and `_`) of the modules' custom facts
    /// (`lib/facter/`) and external facts (`facts.d/`): a fact named anywhere in them
    /// may be defined there. (Asked for every fact the code reads: a set, not a search.)
    /// Only `of_facts` fills it.
    fact_words: HashSet<String>,
    /// The searches of the folders `of_folders` read, shared with the other environments
    /// of the run: their texts are searched where this one's are (the rest is merged in).
    folders: Vec<Arc<Scan>>,
}

/// The searches of module folders made so far in a run, by the module's name and
/// folder, shared by its environments: repositories checked side by side read one
/// another as their modules, and every environment searched them all again (463
/// repositories: 463 times each, most of the run). An environment asking for a folder
/// another is searching waits for that search.
#[derive(Debug, Default)]
pub struct FolderScans {
    by_folder: Mutex<Searches>,
    /// The words of each module's custom and external facts (`Scan::of_facts`), by
    /// the module's folder, kept as the searches are.
    fact_words: Mutex<FactSearches>,
}

#[derive(Debug, Default)]
struct FactSearches {
    by_root: HashMap<PathBuf, FactWords>,
    /// The modules asked for since [`FolderScans::keep_used`] was last called.
    used: HashSet<PathBuf>,
}

/// One module's fact words, read by the first environment asking (the others wait).
type FactWords = Arc<OnceLock<Arc<HashSet<String>>>>;

#[derive(Debug, Default)]
struct Searches {
    by_folder: HashMap<ModuleFolder, Search>,
    /// The folders asked for since [`FolderScans::keep_used`] was last called.
    used: HashSet<ModuleFolder>,
}

/// A module's name (none for an environment's own folder) and folder.
type ModuleFolder = (Option<String>, PathBuf);

/// One folder's search, made by the first environment asking (the others wait for it).
type Search = Arc<OnceLock<Arc<Scan>>>;

impl FolderScans {
    /// The search of each of `modules`' folders, each made once per run: the folders
    /// on every core (on threads of their own, not rayon's), each folder's files in turn.
    pub fn of_modules(&self, modules: &[ModuleFolder]) -> Vec<Arc<Scan>> {
        let searches: Vec<Search> = match self.by_folder.lock() {
            Ok(mut searched) => {
                searched.used.extend(modules.iter().cloned());
                modules
                    .iter()
                    .map(|module| {
                        searched
                            .by_folder
                            .entry(module.clone())
                            .or_default()
                            .clone()
                    })
                    .collect()
            }
            // (Poisoned by a panic elsewhere: searched again.)
            Err(_) => modules.iter().map(|_| Arc::default()).collect(),
        };
        let items: Vec<_> = modules.iter().zip(&searches).collect();
        crate::parallel::map_reduce(
            &items,
            |((module, folder), search)| {
                let scan =
                    search.get_or_init(|| Arc::new(Scan::of_folder(module.as_deref(), folder)));
                vec![scan.clone()]
            },
            Vec::new,
            |mut all, more| {
                all.extend(more);
                all
            },
        )
    }

    /// Lets go of the searches of the folders not asked for since the last call: a
    /// run checking one environment after another keeps what the next one may read
    /// again (the same modulepath), not every environment's.
    pub fn keep_used(&self) {
        if let Ok(mut searched) = self.by_folder.lock() {
            let used = std::mem::take(&mut searched.used);
            searched.by_folder.retain(|folder, _| used.contains(folder));
        }
        if let Ok(mut facts) = self.fact_words.lock() {
            let used = std::mem::take(&mut facts.used);
            facts.by_root.retain(|root, _| used.contains(root));
        }
    }

    /// The fact words of the module at `root` (what [`Scan::of_facts`] reads of it),
    /// read once per run.
    fn fact_words_of(
        &self,
        root: &Path,
        read: impl FnOnce() -> HashSet<String>,
    ) -> Arc<HashSet<String>> {
        let once = match self.fact_words.lock() {
            Ok(mut known) => {
                known.used.insert(root.to_path_buf());
                known.by_root.entry(root.to_path_buf()).or_default().clone()
            }
            Err(_) => Arc::default(),
        };
        once.get_or_init(|| Arc::new(read())).clone()
    }
}

impl Scan {
    /// The custom (`lib/facter/`) and external (`facts.d/`) facts of `modules` only:
    /// what [`may_define_fact`](Self::may_define_fact) asks, without reading the rest.
    /// (`loader`: what it listed of each module's folder; a module without `lib` or
    /// `facts.d` is not asked for them.)
    pub fn of_facts(
        modules: &[(Option<String>, PathBuf)],
        loader: Option<&super::loader::Loader>,
        searched: &FolderScans,
    ) -> Scan {
        let may_hold = |root: &Path, name: &str| {
            loader.is_none_or(|loader| loader.module_may_hold(root, name))
        };
        let roots: Vec<&PathBuf> = modules
            .iter()
            .map(|(_, root)| root)
            .filter(|root| may_hold(root, "lib") || may_hold(root, "facts.d"))
            .collect();
        // Each module's once per run (`FolderScans`), the modules on every core.
        let words = crate::parallel::map_reduce(
            &roots,
            |root| vec![searched.fact_words_of(root, || module_fact_words(root))],
            Vec::new,
            |mut all, more| {
                all.extend(more);
                all
            },
        );
        Scan {
            fact_words: words.iter().flat_map(|w| w.iter().cloned()).collect(),
            ..Scan::default()
        }
    }

    /// Searches every file of [`EXTENSIONS`] under `folders` (`(module name, folder)`;
    /// hidden folders and `.gitignore`d files included: a module installed by r10k is
    /// usually ignored), `.git` left out.
    pub fn of_folders(folders: &[(Option<String>, PathBuf)]) -> Scan {
        let files: Vec<(Option<&str>, PathBuf)> = folders
            .iter()
            .flat_map(|(module, folder)| files_under(folder).map(|path| (module.as_deref(), path)))
            .collect();
        // (Searched first by a check, inside the environment's `OnceLock`: on threads
        // of their own, not rayon's, see `crate::parallel`.)
        crate::parallel::map_reduce(
            &files,
            |(module, path)| {
                let mut found = Scan::default();
                found.add_file(*module, path);
                found
            },
            Scan::default,
            Scan::merged,
        )
    }

    /// [`Scan::of_folders`] of one folder, its files in turn.
    fn of_folder(module: Option<&str>, folder: &Path) -> Scan {
        let mut found = Scan::default();
        for path in files_under(folder) {
            found.add_file(module, &path);
        }
        found
    }

    /// What one file's text says (a file that cannot be read may say anything).
    fn add_file(&mut self, module: Option<&str>, path: &Path) {
        match crate::source::read::read_text(path, MAX_FILE_BYTES) {
            Ok(text) => self.add(&text, module, path),
            Err(_) => {
                self.any_class = true;
                self.any_key = true;
            }
        }
    }

    /// This search with `shared`'s (another environment's too): what it found of
    /// classes and keys merged in, its texts searched where they are.
    pub fn with_shared(mut self, shared: Arc<Scan>) -> Scan {
        self.classes_named
            .extend(shared.classes_named.iter().cloned());
        self.any_class |= shared.any_class;
        self.key_patterns
            .extend(shared.key_patterns.iter().cloned());
        self.any_key |= shared.any_key;
        self.folders.push(shared);
        self
    }

    fn merged(mut self, other: Scan) -> Scan {
        self.classes_named.extend(other.classes_named);
        self.any_class |= other.any_class;
        self.key_texts.extend(other.key_texts);
        self.key_patterns.extend(other.key_patterns);
        self.any_key |= other.any_key;
        self
    }

    fn add(&mut self, text: &str, module: Option<&str>, path: &Path) {
        // Only custom and external facts are read in these forms (`of_facts`).
        if path
            .extension()
            .is_some_and(|e| e == "yml" || e == "json" || e == "txt")
        {
            return;
        }
        static LITERAL_CLASS: OnceLock<Regex> = OnceLock::new();
        static OTHER_CLASS: OnceLock<Regex> = OnceLock::new();
        static INTERPOLATED_LOOKUP: OnceLock<Regex> = OnceLock::new();
        static OTHER_LOOKUP: OnceLock<regex::bytes::Regex> = OnceLock::new();
        let is_manifest = path.extension().is_some_and(|e| e == "pp");
        if is_manifest {
            let literal = LITERAL_CLASS.get_or_init(|| {
                Regex::new(
                    r#"(?i)\bclass\s*\{\s*(?:'|")?(?:::)?([a-z0-9_]+(?:::[a-z0-9_]+)*)(?:'|")?\s*:"#,
                )
                .expect("a valid pattern")
            });
            let other = OTHER_CLASS.get_or_init(|| {
                Regex::new(
                    r#"(?i)\bclass\s*\{\s*[^\s'"a-z0-9_:]|\b(?:create_resources|ensure_resources?)\s*\(\s*(?:'|")?(?:::)?class\b"#,
                )
                .expect("a valid pattern")
            });
            for capture in literal.captures_iter(text) {
                self.classes_named.insert(capture[1].to_ascii_lowercase());
            }
            self.any_class |= other.is_match(text);
        }
        let is_data = path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "eyaml");
        if is_data {
            // In data, only an interpolation names a key (`%{alias('ntp::servers')}`):
            // the data's own keys are what is being judged.
            static INTERPOLATION: OnceLock<Regex> = OnceLock::new();
            let interpolation =
                INTERPOLATION.get_or_init(|| Regex::new(r"%\{[^}]*\}").expect("a valid pattern"));
            self.key_texts.extend(
                interpolation
                    .find_iter(text)
                    .map(|span| span.as_str().to_string()),
            );
            return;
        }
        if text.contains("::") {
            self.key_texts.push(text.to_string());
        }
        let lookup = r#"\b(?:lookup|hiera|hiera_array|hiera_hash|hiera_include)\s*\(\s*"#;
        let interpolated = INTERPOLATED_LOOKUP
            .get_or_init(|| Regex::new(&format!(r#"{lookup}"([^"]*)""#)).expect("a valid pattern"));
        for capture in interpolated.captures_iter(text) {
            let key = &capture[1];
            if !key.contains('$') {
                continue;
            }
            let key = match module {
                Some(module) => key
                    .replace("${module_name}", module)
                    .replace("$module_name", module),
                None => key.to_string(),
            };
            self.key_patterns.push(interpolation_pattern(&key));
        }
        // A key given as something else than a string or a hash of options: a
        // variable, a call (Ruby's `call_function('lookup', key)` too).
        // (ASCII classes: compiling Unicode ones was a twentieth of a one-file check; a
        // non-ASCII character after `lookup(` matches, which only looks up more keys.)
        let other = OTHER_LOOKUP.get_or_init(|| {
            regex::bytes::Regex::new(&format!(
                r#"(?-u){lookup}[^'"\s{{)\w]|{lookup}[a-z_]\w*\s*\(|call_function\(\s*['"](?:lookup|hiera\w*)['"]\s*,\s*[^'"\s]"#
            ))
            .expect("a valid pattern")
        });
        self.any_key |= other.is_match(text.as_bytes());
    }

    /// Whether class `name` may be declared with parameters.
    pub fn may_declare_class(&self, name: &str) -> bool {
        self.any_class
            || self
                .classes_named
                .contains(&name.trim_start_matches("::").to_ascii_lowercase())
    }

    /// Whether a module's custom or external facts may define the fact `name` (it is
    /// written in one of their files).
    pub fn may_define_fact(&self, name: &str) -> bool {
        // A name that is not one word is not looked for: it may be there.
        !name.chars().all(is_word_char) || self.fact_words.contains(name)
    }

    /// Whether some code or data may look the Hiera key `key` up by name.
    pub fn may_look_up(&self, key: &str) -> bool {
        self.any_key
            || self.key_texts.iter().any(|text| written(text, key))
            || self.key_patterns.iter().any(|p| p.is_match(key))
            || (self.folders.iter())
                .any(|folder| folder.key_texts.iter().any(|text| written(text, key)))
    }
}

/// The files of [`EXTENSIONS`] under `folder` (hidden folders and `.gitignore`d files
/// included: a module installed by r10k is usually ignored), `.git` left out.
fn files_under(folder: &Path) -> impl Iterator<Item = PathBuf> {
    ignore::WalkBuilder::new(folder)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build()
        .flatten()
        .filter(|entry| {
            has_extension(entry.path()) && entry.file_type().is_some_and(|t| t.is_file())
        })
        .map(|entry| entry.into_path())
}

/// The words of the custom (`lib/facter/`) and external (`facts.d/`) facts of the module
/// at `root`. Only the words are kept (nothing else is asked of this search), each
/// file's remembered in the cache, as manifests are: a warm run stats the modules' fact
/// files rather than reading them.
fn module_fact_words(root: &Path) -> HashSet<String> {
    let mut words = HashSet::default();
    for folder in ["lib/facter", "facts.d"].map(|f| root.join(f)) {
        if !folder.is_dir() {
            continue;
        }
        for path in files_under(&folder) {
            // (One pack for the modulepath's.)
            let found = crate::cache::remembered_text(
                crate::cache::Packing::Folder(root.parent().unwrap_or(root)),
                "fact-words",
                &path,
                MAX_FILE_BYTES,
                |text| {
                    let mut words: Vec<String> = fact_words(text).map(str::to_string).collect();
                    words.sort_unstable();
                    words.dedup();
                    words
                },
            );
            words.extend(found.unwrap_or_default());
        }
    }
    words
}

/// The words (runs of letters, digits and `_`) of a fact file's text.
fn fact_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `key` is written in `text` as a whole token (`ntp::server` is not in
/// `ntp::servers`), with or without a leading `::`.
fn written(text: &str, key: &str) -> bool {
    text.match_indices(key).any(|(at, _)| {
        let before = &text[..at];
        let after = text[at + key.len()..].chars().next();
        // A key after `::` is the same key written from the top scope (`$::ntp::x`).
        let starts = before.ends_with("::")
            || before
                .chars()
                .next_back()
                .is_none_or(|c| !is_word_char(c) && c != ':');
        let ends = after.is_none_or(|c| !is_word_char(c) && c != ':');
        starts && ends
    })
}

fn has_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e))
}

/// A key written with interpolations (`"profile::${name}::port"`) as a pattern over
/// keys: each interpolation any text.
fn interpolation_pattern(key: &str) -> Regex {
    static INTERPOLATION: OnceLock<Regex> = OnceLock::new();
    let interpolation = INTERPOLATION.get_or_init(|| {
        Regex::new(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_:]*").expect("a valid pattern")
    });
    let mut pattern = String::from("^");
    let mut last = 0;
    for m in interpolation.find_iter(key) {
        pattern.push_str(&regex::escape(&key[last..m.start()]));
        pattern.push_str(".*");
        last = m.end();
    }
    pattern.push_str(&regex::escape(&key[last..]));
    pattern.push('$');
    Regex::new(&pattern).expect("an escaped pattern")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environments_of_a_run_search_a_module_folder_once() {
        let modules = tempfile::tempdir().unwrap();
        let ntp = modules.path().join("ntp");
        std::fs::create_dir_all(ntp.join("manifests")).unwrap();
        std::fs::write(
            ntp.join("manifests/init.pp"),
            "class ntp { class { 'ntp::server': port => 1 } }\n",
        )
        .unwrap();
        let folders = [(Some("ntp".to_string()), ntp.clone())];
        let searched = FolderScans::default();
        let first = searched.of_modules(&folders);
        assert!(Scan::default()
            .with_shared(first[0].clone())
            .may_declare_class("ntp::server"));
        // Another environment of the run reading the module: the same search.
        let again = searched.of_modules(&folders);
        assert!(Arc::ptr_eq(&first[0], &again[0]));
        // Kept while the last environment read it; let go once one did not.
        searched.keep_used();
        assert!(Arc::ptr_eq(&first[0], &searched.of_modules(&folders)[0]));
        searched.keep_used();
        searched.keep_used();
        assert!(!Arc::ptr_eq(&first[0], &searched.of_modules(&folders)[0]));
        // The module's facts too.
        std::fs::create_dir_all(ntp.join("lib/facter")).unwrap();
        std::fs::write(
            ntp.join("lib/facter/drift.rb"),
            "Facter.add(:ntp_drift) {}\n",
        )
        .unwrap();
        let facts = Scan::of_facts(&folders, None, &searched);
        assert!(facts.may_define_fact("ntp_drift") && !facts.may_define_fact("ntp_skew"));
        let words = searched.fact_words_of(&ntp, HashSet::default);
        assert!(words.contains("ntp_drift"), "read again instead of shared");
    }

    fn of(text: &str) -> Scan {
        let mut found = Scan::default();
        found.add(text, None, Path::new("x.pp"));
        found
    }

    #[test]
    fn resource_like_declarations_are_found_by_their_title() {
        let found = of("class { 'ntp::server': port => 1 }\nclass {\"::Web\":\n}\nclass foo { }\n");
        assert!(found.may_declare_class("ntp::server") && found.may_declare_class("web"));
        assert!(!found.may_declare_class("foo") && !found.any_class);
    }

    #[test]
    fn declarations_not_written_literally_may_declare_any_class() {
        assert!(of("class { $role: }").any_class);
        assert!(of("class { ['a', 'b']: }").any_class);
        assert!(of("create_resources('class', $classes)").any_class);
        assert!(of("ensure_resource('class', 'ntp', {})").any_class);
        assert!(!of("create_resources('file', $files)").any_class);
    }

    #[test]
    fn a_key_is_written_as_a_whole_token() {
        assert!(written("lookup('ntp::server')", "ntp::server"));
        assert!(written("$::ntp::server", "ntp::server"));
        assert!(!written("$ntp::servers", "ntp::server"));
        assert!(!written("$myntp::server", "ntp::server"));
        assert!(!written("ntp::server::x", "ntp::server"));
    }

    #[test]
    fn keys_looked_up_by_name_or_by_a_pattern() {
        let mut found = Scan::default();
        found.add(
            "$a = lookup('site::ntp_servers')\n$b = lookup(\"${module_name}::registries\", Hash)\n",
            Some("docker"),
            Path::new("init.pp"),
        );
        found.add(
            "x: \"%{alias('site::dns')}\"\n",
            None,
            Path::new("common.yaml"),
        );
        assert!(found.may_look_up("site::ntp_servers") && found.may_look_up("site::dns"));
        assert!(found.may_look_up("docker::registries"));
        assert!(!found.may_look_up("docker::images") && !found.any_key);
        found.add("$c = lookup($key)\n", None, Path::new("x.pp"));
        assert!(found.any_key);
        let mut ruby = Scan::default();
        ruby.add("call_function('lookup', key)", None, Path::new("f.rb"));
        assert!(ruby.any_key);
        let mut options = Scan::default();
        options.add("lookup({ 'name' => 'x::y' })", None, Path::new("x.pp"));
        assert!(!options.any_key && options.may_look_up("x::y"));
    }
}
