//! `pupcheck.toml`: read with the toml crate into typed structs; every unknown key and
//! every unknown rule or category is an error naming the file and line.
//!
//! ```toml
//! select = ["validation", "style"]        # replaces the rules enabled by default
//! extend-select = ["80chars"]             # adds rules or categories
//! ignore = ["documentation"]              # removes them
//! exclude = ["vendor/**", "spec/fixtures/**"]
//! line-length = 120                       # for line-too-long
//! fail-on = "warning"                     # the least severity that fails the run
//! strict-variables = false                # Puppet 7's default: unknown variables warn
//! hiera-global = "/etc/puppetlabs/puppet/hiera.yaml"   # the global Hiera layer
//! environment = "closed"                  # every module the code uses is in view
//!
//! [severity]                              # per rule or category
//! trailing-whitespace = "error"
//!
//! [[overrides]]                           # per path, applied in order
//! files = ["site/legacy/**"]
//! ignore = ["variable-scope"]
//! ```

use super::selection::{RuleLayer, Selector};
use crate::diagnostics::Severity;
use indexmap::IndexMap;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A configuration error, located in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based; `None` when the problem is the file as a whole (unreadable).
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    select: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    extend_select: Vec<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    line_length: Option<Spanned<i64>>,
    fail_on: Option<Spanned<String>>,
    strict_variables: Option<bool>,
    #[serde(default)]
    top_scope_variables: Vec<String>,
    hiera_global: Option<String>,
    environment: Option<Spanned<String>>,
    #[serde(default)]
    severity: IndexMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOverride {
    files: Vec<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    extend_select: Vec<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    severity: IndexMap<Spanned<String>, Spanned<String>>,
}

/// Settings that hold for some of the files under the config's folder.
#[derive(Debug, Clone)]
pub struct PathOverride {
    pub files: globset::GlobSet,
    pub rules: RuleLayer,
}

/// A configuration file, read and checked.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// Globs and paths are relative to this folder.
    pub root: PathBuf,
    pub rules: RuleLayer,
    pub exclude: globset::GlobSet,
    pub line_length: Option<usize>,
    pub fail_on: Option<Severity>,
    /// Puppet's `strict_variables`: whether reading an unknown variable fails the
    /// compile (Puppet 8's default) or only warns (Puppet 7's).
    pub strict_variables: Option<bool>,
    /// The global Hiera layer's `hiera.yaml` (relative paths from the file's folder).
    pub hiera_global: Option<PathBuf>,
    /// `environment = "closed"` or `"open"`: whether something outside the repository
    /// ($basemodulepath, modules installed by other means) may define what its code uses.
    pub environment: Option<crate::env::DeclaredWorld>,
    pub overrides: Vec<PathOverride>,
    /// puppet-lint's `--relative`: module layout is checked relative to the module root.
    pub relative_layout: bool,
    /// Variables the node classifier or the agents' facts set at top scope
    /// (`top-scope-variables`, or puppet-lint 4's `--top-scope-variables` in
    /// `.puppet-lint.rc`): each name and the names it starts.
    pub top_scope_variables: Vec<String>,
    /// Things worth telling the user that are not errors (from `.puppet-lint.rc`).
    pub warnings: Vec<String>,
}

impl ConfigFile {
    /// An empty configuration rooted at `root` (nothing changed from the defaults).
    pub fn empty(path: PathBuf, root: PathBuf) -> ConfigFile {
        ConfigFile {
            path,
            root,
            rules: RuleLayer::default(),
            exclude: globset::GlobSet::empty(),
            line_length: None,
            fail_on: None,
            strict_variables: None,
            hiera_global: None,
            environment: None,
            overrides: Vec::new(),
            relative_layout: false,
            top_scope_variables: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reads a `pupcheck.toml`.
    pub fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
        ConfigFile::parse(path, &read_config_text(path)?)
    }

    /// Parses the text of a `pupcheck.toml` found at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
        let at = |offset: usize, message: String| ConfigError {
            path: path.to_path_buf(),
            line: Some(line_of(text, offset)),
            message,
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            at(offset, e.message().trim().to_string())
        })?;
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let mut config = ConfigFile::empty(path.to_path_buf(), root);
        config.rules = RuleLayer {
            select: raw
                .select
                .as_deref()
                .map(|s| selectors(s, &at))
                .transpose()?,
            extend_select: selectors(&raw.extend_select, &at)?,
            ignore: selectors(&raw.ignore, &at)?,
            severity: severities(&raw.severity, &at)?,
        };
        config.exclude = globs(&raw.exclude, &at)?;
        config.strict_variables = raw.strict_variables;
        config.top_scope_variables = raw.top_scope_variables;
        config.hiera_global = raw.hiera_global.as_deref().map(|p| config.root.join(p));
        if let Some(world) = &raw.environment {
            config.environment = Some(match world.get_ref().as_str() {
                "closed" => crate::env::DeclaredWorld::Closed,
                "open" => crate::env::DeclaredWorld::Open,
                other => {
                    return Err(at(
                        world.span().start,
                        format!("environment must be \"closed\" or \"open\", not {other:?}"),
                    ))
                }
            });
        }
        if let Some(n) = raw.line_length {
            let value = *n.get_ref();
            if !(1..=100_000).contains(&value) {
                return Err(at(
                    n.span().start,
                    format!("line-length must be between 1 and 100000, not {value}"),
                ));
            }
            config.line_length = Some(value as usize);
        }
        if let Some(f) = raw.fail_on {
            config.fail_on = Some(match f.get_ref().as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                other => {
                    return Err(at(
                        f.span().start,
                        format!("fail-on must be \"error\" or \"warning\", not \"{other}\""),
                    ))
                }
            });
        }
        for o in &raw.overrides {
            if o.files.is_empty() {
                return Err(at(0, "an [[overrides]] entry needs `files`".into()));
            }
            config.overrides.push(PathOverride {
                files: globs(&o.files, &at)?,
                rules: RuleLayer {
                    select: o.select.as_deref().map(|s| selectors(s, &at)).transpose()?,
                    extend_select: selectors(&o.extend_select, &at)?,
                    ignore: selectors(&o.ignore, &at)?,
                    severity: severities(&o.severity, &at)?,
                },
            });
        }
        Ok(config)
    }
}

fn selectors(
    names: &[Spanned<String>],
    at: &impl Fn(usize, String) -> ConfigError,
) -> Result<Vec<Selector>, ConfigError> {
    names
        .iter()
        .map(|n| Selector::parse(n.get_ref()).map_err(|m| at(n.span().start, m)))
        .collect()
}

fn severities(
    table: &IndexMap<Spanned<String>, Spanned<String>>,
    at: &impl Fn(usize, String) -> ConfigError,
) -> Result<Vec<(Selector, Severity)>, ConfigError> {
    table
        .iter()
        .map(|(name, severity)| {
            let selector = Selector::parse(name.get_ref()).map_err(|m| at(name.span().start, m))?;
            let severity = match severity.get_ref().as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "info" => Severity::Info,
                other => {
                    return Err(at(
                        severity.span().start,
                        format!(
                            "a severity is \"error\", \"warning\" or \"info\", not \"{other}\""
                        ),
                    ))
                }
            };
            Ok((selector, severity))
        })
        .collect()
}

/// Glob patterns relative to the config's folder; one without a `/` matches a file or
/// folder of that name anywhere below it (as in `.gitignore`).
/// The text of a configuration file (a regular file, at most 4 MB).
pub fn read_config_text(path: &Path) -> Result<String, ConfigError> {
    crate::source::read::read_text(path, crate::source::read::SMALL_FILE_LIMIT).map_err(|e| {
        ConfigError {
            path: path.to_path_buf(),
            line: None,
            message: format!("cannot read the configuration: {e}"),
        }
    })
}

pub fn build_globs(
    patterns: impl IntoIterator<Item = String>,
) -> Result<globset::GlobSet, (usize, String)> {
    let mut set = globset::GlobSetBuilder::new();
    for (i, pattern) in patterns.into_iter().enumerate() {
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        let anchored = if pattern.contains('/') {
            pattern.trim_start_matches('/').to_string()
        } else {
            format!("**/{pattern}")
        };
        for p in [anchored.clone(), format!("{anchored}/**")] {
            let glob = globset::GlobBuilder::new(&p)
                .literal_separator(true)
                .build()
                .map_err(|e| (i, format!("invalid glob '{pattern}': {}", e.kind())))?;
            set.add(glob);
        }
    }
    set.build().map_err(|e| (0, format!("invalid globs: {e}")))
}

fn globs(
    patterns: &[Spanned<String>],
    at: &impl Fn(usize, String) -> ConfigError,
) -> Result<globset::GlobSet, ConfigError> {
    build_globs(patterns.iter().map(|p| p.get_ref().clone()))
        .map_err(|(i, m)| at(patterns.get(i).map_or(0, |p| p.span().start), m))
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigFile, ConfigError> {
        ConfigFile::parse(Path::new("/p/pupcheck.toml"), text)
    }

    #[test]
    fn reads_every_setting() {
        let c = parse(
            "select = [\"validation\"]\nextend-select = [\"hard_tabs\"]\nignore = [\"not-rvalue\"]\n\
             exclude = [\"vendor\"]\nline-length = 100\nfail-on = \"warning\"\n\
             [severity]\nhard-tabs = \"error\"\n[[overrides]]\nfiles = [\"legacy/**\"]\nignore = [\"style\"]\n",
        )
        .unwrap();
        assert_eq!(c.line_length, Some(100));
        assert_eq!(c.strict_variables, None);
        let enc = parse("top-scope-variables = [\"role\", \"dc_\"]\n").unwrap();
        assert_eq!(enc.top_scope_variables, ["role", "dc_"]);
        let lenient = parse("strict-variables = false\n").unwrap();
        assert_eq!(lenient.strict_variables, Some(false));
        assert_eq!(parse("strict-variables = 1\n").unwrap_err().line, Some(1));
        assert_eq!(c.fail_on, Some(Severity::Warning));
        assert!(c.exclude.is_match("vendor/a/b.pp"));
        assert!(c.exclude.is_match("x/vendor/b.pp"));
        assert!(c.overrides[0].files.is_match("legacy/x/y.pp"));
        assert_eq!(c.rules.severity.len(), 1);
    }

    #[test]
    fn unknown_keys_name_the_line() {
        let e = parse("line-length = 100\nselct = [\"style\"]\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("selct"), "{}", e.message);
        assert!(e.to_string().starts_with("/p/pupcheck.toml:2: "));
    }

    #[test]
    fn unknown_rules_name_the_line() {
        let e = parse("\nignore = [\n  \"hard-tabs\",\n  \"no-such-rule\",\n]\n").unwrap_err();
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("no-such-rule"));
        let e = parse("[severity]\nnope = \"error\"\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse("[severity]\nhard-tabs = \"fatal\"\n").unwrap_err();
        assert!(e.message.contains("fatal"));
    }

    #[test]
    fn bad_values_are_errors() {
        assert_eq!(parse("line-length = 0\n").unwrap_err().line, Some(1));
        assert!(parse("fail-on = \"info\"\n").is_err());
        assert!(parse("exclude = [\"a[\"]\n").is_err());
    }
}
