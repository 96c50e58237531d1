//! Configuration: which rules run on which file, at what severity, and which files are
//! skipped. Read from the nearest `pupcheck.toml` above each checked file (or
//! `.puppet-lint.rc` where there is none), from `--config`, and from the command line,
//! in that order of precedence (the command line last, so it wins).

pub mod file;
pub mod puppet_lint_rc;
pub mod selection;

pub use file::{ConfigError, ConfigFile};
pub use selection::{RuleLayer, RuleSelection, Selector};

use crate::diagnostics::Severity;
use foldhash::{HashMap, HashMapExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file names pupcheck looks for, nearest folder first; in one folder the first wins.
pub const CONFIG_FILE: &str = "pupcheck.toml";
pub const PUPPET_LINT_RC: &str = ".puppet-lint.rc";

pub use crate::analysis::context::{RuleOptions, DEFAULT_LINE_LENGTH};

/// What the rules of one file are run with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settings {
    /// Which rules run, at what severity.
    pub rules: RuleSelection,
    /// What the rules read of the configuration.
    pub options: RuleOptions,
    /// The global Hiera layer's `hiera.yaml` (`hiera-global`): outside the repository,
    /// it is taken as empty without it.
    pub hiera_global: Option<std::path::PathBuf>,
    /// What `environment` declares (closed or open), if it is set.
    pub environment: Option<crate::env::DeclaredWorld>,
}

/// Finds the configuration of each file and computes its [`Settings`].
pub struct Resolver {
    /// `--config FILE`: used for every file instead of discovery.
    explicit: Option<Arc<ConfigFile>>,
    /// The command line's `--select`, `--extend-select`, `--ignore`.
    command_line: RuleLayer,
    /// The command line's `--exclude` (relative to the working directory).
    command_line_exclude: globset::GlobSet,
    working_dir: PathBuf,
    /// Folder → the configuration that governs it (discovery is cached per folder).
    found: HashMap<PathBuf, Option<Arc<ConfigFile>>>,
    /// Folder → the configuration file in it, if any, for the folders
    /// [`Resolver::look_in_folders_of`] was given (looked at on every core).
    looked_in: HashMap<PathBuf, Option<PathBuf>>,
    /// Settings are shared between files with the same configuration and overrides.
    settings: HashMap<(usize, Vec<bool>), Arc<Settings>>,
}

impl Resolver {
    /// `explicit` is `--config`; `exclude` the command line's globs.
    pub fn new(
        explicit: Option<&Path>,
        command_line: RuleLayer,
        exclude: &[String],
    ) -> Result<Resolver, ConfigError> {
        let working_dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let explicit = explicit
            .map(|p| read_config(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())))
            .transpose()?
            .map(Arc::new);
        let command_line_exclude =
            file::build_globs(exclude.iter().cloned()).map_err(|(_, message)| ConfigError {
                path: PathBuf::from("--exclude"),
                line: None,
                message,
            })?;
        Ok(Resolver {
            explicit,
            command_line,
            command_line_exclude,
            working_dir,
            found: HashMap::new(),
            looked_in: HashMap::new(),
            settings: HashMap::new(),
        })
    }

    /// Defaults only: no configuration file, no command-line rules.
    pub fn defaults() -> Resolver {
        Resolver {
            explicit: None,
            command_line: RuleLayer::default(),
            command_line_exclude: globset::GlobSet::empty(),
            working_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            found: HashMap::new(),
            looked_in: HashMap::new(),
            settings: HashMap::new(),
        }
    }

    /// The configuration governing `file` (`None`: defaults).
    pub fn config_for(&mut self, file: &Path) -> Result<Option<Arc<ConfigFile>>, ConfigError> {
        if let Some(config) = &self.explicit {
            return Ok(Some(config.clone()));
        }
        let absolute = self.absolute(file);
        let Some(dir) = absolute.parent() else {
            return Ok(None);
        };
        self.discover(dir)
    }

    /// The configuration of the working directory: where run-wide settings (`fail-on`)
    /// come from.
    pub fn run_config(&mut self) -> Result<Option<Arc<ConfigFile>>, ConfigError> {
        if let Some(config) = &self.explicit {
            return Ok(Some(config.clone()));
        }
        let dir = self.working_dir.clone();
        self.discover(&dir)
    }

    /// Whether `file` is excluded by its configuration or the command line.
    pub fn is_excluded(&mut self, file: &Path) -> Result<bool, ConfigError> {
        let absolute = self.absolute(file);
        if let Ok(relative) = absolute.strip_prefix(&self.working_dir) {
            if self.command_line_exclude.is_match(relative) {
                return Ok(true);
            }
        }
        Ok(match self.config_for(file)? {
            Some(config) => absolute
                .strip_prefix(&config.root)
                .is_ok_and(|relative| config.exclude.is_match(relative)),
            None => false,
        })
    }

    /// The settings `file`'s rules run with.
    pub fn settings_for(&mut self, file: &Path) -> Result<Arc<Settings>, ConfigError> {
        let config = self.config_for(file)?;
        let matched: Vec<bool> = match &config {
            Some(c) => {
                let relative = self.absolute(file);
                let relative = relative.strip_prefix(&c.root).unwrap_or(&relative);
                c.overrides
                    .iter()
                    .map(|o| o.files.is_match(relative))
                    .collect()
            }
            None => Vec::new(),
        };
        let key = (
            config.as_ref().map_or(0, |c| Arc::as_ptr(c) as usize),
            matched.clone(),
        );
        if let Some(settings) = self.settings.get(&key) {
            return Ok(settings.clone());
        }
        let mut settings = Settings::default();
        if let Some(c) = &config {
            settings.rules.apply(&c.rules);
            for (o, _) in c.overrides.iter().zip(&matched).filter(|(_, m)| **m) {
                settings.rules.apply(&o.rules);
            }
            settings.options = RuleOptions {
                line_length: c.line_length.unwrap_or(DEFAULT_LINE_LENGTH),
                relative_layout: c.relative_layout,
                top_scope_variables: c.top_scope_variables.clone(),
                strict_variables: c.strict_variables.unwrap_or(true),
            };
            settings.hiera_global = c.hiera_global.clone();
            settings.environment = c.environment;
        }
        settings.rules.apply(&self.command_line);
        let settings = Arc::new(settings);
        self.settings.insert(key, settings.clone());
        Ok(settings)
    }

    /// The least severity that fails the run, if the configuration sets it.
    pub fn fail_on(&mut self) -> Result<Option<Severity>, ConfigError> {
        Ok(self.run_config()?.and_then(|c| c.fail_on))
    }

    /// Warnings from the configuration files read so far (`.puppet-lint.rc` options
    /// pupcheck skips), each with its file.
    pub fn warnings(&self) -> Vec<String> {
        let mut seen: Vec<&Arc<ConfigFile>> = self.found.values().flatten().collect();
        seen.extend(self.explicit.iter());
        seen.sort_by(|a, b| a.path.cmp(&b.path));
        seen.dedup_by(|a, b| Arc::ptr_eq(a, b));
        seen.iter()
            .flat_map(|c| {
                c.warnings
                    .iter()
                    .map(|w| format!("{}: {w}", c.path.display()))
            })
            .collect()
    }

    fn absolute(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.working_dir.join(path)
        }
    }

    /// Looks, on every core, for a configuration file in the folder of each of `files`
    /// (the first folder each file's discovery looks in: two system calls each, for the
    /// hundreds of folders of a run over many modules). What is in them is read when a
    /// file asks, in the files' order, as without it.
    pub fn look_in_folders_of(&mut self, files: &[&Path]) {
        use rayon::prelude::*;
        if self.explicit.is_some() {
            return;
        }
        let mut folders: Vec<PathBuf> = files
            .iter()
            .filter_map(|file| Some(self.absolute(file).parent()?.to_path_buf()))
            .filter(|folder| !self.found.contains_key(folder))
            .collect();
        folders.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
        folders.dedup();
        let looked_in: Vec<(PathBuf, Option<PathBuf>)> = folders
            .into_par_iter()
            .map(|folder| {
                let here = config_file_in(&folder);
                (folder, here)
            })
            .collect();
        self.looked_in.extend(looked_in);
    }

    /// The nearest configuration at or above `dir`.
    fn discover(&mut self, dir: &Path) -> Result<Option<Arc<ConfigFile>>, ConfigError> {
        if let Some(found) = self.found.get(dir) {
            return Ok(found.clone());
        }
        let here = match self.looked_in.get(dir) {
            Some(here) => here.clone(),
            None => config_file_in(dir),
        };
        let found = match here {
            Some(path) => Some(Arc::new(read_config(&path)?)),
            None => match dir.parent() {
                Some(parent) => self.discover(parent)?,
                None => None,
            },
        };
        self.found.insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }
}

/// The configuration file in `dir`, if there is one. Anything by these names counts, so
/// a folder, a FIFO or a dangling link named `pupcheck.toml` is an error when read,
/// never silently passed over.
fn config_file_in(dir: &Path) -> Option<PathBuf> {
    [CONFIG_FILE, PUPPET_LINT_RC]
        .iter()
        .map(|name| dir.join(name))
        .find(|p| std::fs::symlink_metadata(p).is_ok())
}

/// Reads a `pupcheck.toml`, or a `.puppet-lint.rc` by its name.
pub fn read_config(path: &Path) -> Result<ConfigFile, ConfigError> {
    if path.file_name().is_some_and(|n| n == PUPPET_LINT_RC) {
        puppet_lint_rc::read(path)
    } else {
        ConfigFile::read(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_config_wins_and_overrides_apply_by_path() {
        let dir = std::env::temp_dir().join(format!("pupcheck-config-{}", std::process::id()));
        let sub = dir.join("site/legacy/manifests");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(
            dir.join(CONFIG_FILE),
            "ignore = [\"documentation\"]\nexclude = [\"vendor\"]\nline-length = 100\n\
             [[overrides]]\nfiles = [\"site/legacy/**\"]\nignore = [\"style\"]\n",
        )
        .unwrap();
        let mut resolver = Resolver::defaults();
        let legacy = resolver.settings_for(&sub.join("init.pp")).unwrap();
        let top = resolver.settings_for(&dir.join("init.pp")).unwrap();
        assert_eq!(top.options.line_length, 100);
        assert!(!top
            .rules
            .enabled()
            .any(|r| r.id.as_str() == "documentation"));
        assert!(top
            .rules
            .enabled()
            .any(|r| r.id.as_str() == "trailing-whitespace"));
        assert!(!legacy
            .rules
            .enabled()
            .any(|r| r.id.as_str() == "trailing-whitespace"));
        assert!(resolver.is_excluded(&dir.join("vendor/x.pp")).unwrap());
        assert!(!resolver.is_excluded(&dir.join("site/x.pp")).unwrap());
        // A .puppet-lint.rc nearer the file governs it instead.
        std::fs::write(sub.join(PUPPET_LINT_RC), "--no-hard_tabs-check\n").unwrap();
        let mut resolver = Resolver::defaults();
        let rc = resolver.settings_for(&sub.join("init.pp")).unwrap();
        assert!(!rc.rules.enabled().any(|r| r.id.as_str() == "hard-tabs"));
        assert_eq!(rc.options.line_length, DEFAULT_LINE_LENGTH);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
