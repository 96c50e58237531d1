//! What the server knows beyond one document: the configuration of each file
//! (`pupcheck.toml`, `.puppet-lint.rc`), the environment index of each environment the
//! open documents are in (their modules, Hiera data, type aliases), with the open
//! documents' text in place of the files on disk, and the files of the workspace
//! folders for finding references.

use super::document::Document;
use crate::ast::Program;
use crate::config::{ConfigError, Resolver, Settings};
use crate::env::{DefinitionFile, Environment};
use crate::source::walk::{self, FoundFile};
use crate::source::{SourceFile, SourceKind};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The environment root of a file (`env::environment_root`; `None`: in no
/// environment).
pub type Root = Option<PathBuf>;

pub struct Workspace {
    /// The workspace folders the client opened.
    pub folders: Vec<PathBuf>,
    resolver: Resolver,
    /// The configuration files that could not be read, by path, with why.
    pub config_errors: BTreeMap<PathBuf, ConfigError>,
    environments: HashMap<Root, Arc<Environment>>,
    /// The parsed manifests of the workspace folders (for references), with the
    /// modification time they were read at.
    files: HashMap<PathBuf, (Option<std::time::SystemTime>, Arc<DefinitionFile>)>,
}

impl Workspace {
    pub fn new(folders: Vec<PathBuf>) -> Workspace {
        Workspace {
            folders,
            resolver: Resolver::defaults(),
            config_errors: BTreeMap::new(),
            environments: HashMap::new(),
            files: HashMap::new(),
        }
    }

    /// Forgets the configurations read (one changed on disk).
    pub fn reload_configuration(&mut self) {
        self.resolver = Resolver::defaults();
        self.config_errors.clear();
        self.environments.clear();
    }

    /// Forgets the index of `root` (a definition in it changed), or of every
    /// environment.
    pub fn forget_environment(&mut self, root: Option<&Root>) {
        match root {
            Some(root) => {
                self.environments.remove(root);
            }
            None => self.environments.clear(),
        }
    }

    /// Whether the configuration of `path` leaves it out.
    pub fn is_excluded(&mut self, path: &Path) -> bool {
        match self.resolver.is_excluded(path) {
            Ok(excluded) => excluded,
            Err(e) => {
                self.config_errors.insert(e.path.clone(), e);
                false
            }
        }
    }

    /// The settings `path` is checked with; the defaults when its configuration
    /// cannot be read (the error is kept in `config_errors`, shown on that file).
    pub fn settings(&mut self, path: &Path) -> Arc<Settings> {
        match self.resolver.settings_for(path) {
            Ok(settings) => settings,
            Err(e) => {
                self.config_errors.insert(e.path.clone(), e);
                Arc::new(Settings::default())
            }
        }
    }

    /// The index `path` is checked against: its environment's modules, with the open
    /// documents of that environment as the editor has them.
    pub fn environment(
        &mut self,
        path: &Path,
        documents: &BTreeMap<lsp_types::Url, Document>,
    ) -> Arc<Environment> {
        let root = crate::env::environment_root(path);
        if let Some(env) = self.environments.get(&root) {
            return env.clone();
        }
        let members: Vec<&Document> = documents
            .values()
            .filter(|d| crate::env::environment_root(&d.path) == root)
            .collect();
        let parsed: Vec<(PathBuf, crate::syntax::Parsed)> = members
            .iter()
            // (Puppet code only: an open YAML document is Hiera's.)
            .filter(|d| SourceKind::from_path(&d.path).is_some())
            .filter_map(|d| Some((d.path.clone(), parse(d.path.clone(), &d.text)?.1)))
            .collect();
        let mut files: Vec<PathBuf> = members.iter().map(|d| d.path.clone()).collect();
        if !files.iter().any(|f| f == path) {
            files.push(path.to_path_buf());
        }
        let programs = parsed
            .iter()
            .map(|(p, parsed)| (p.as_path(), &parsed.program));
        let mut env = Environment::build(programs, &[])
            .with_modulepaths_for(&files, &[])
            .with_root(root.clone());
        let settings = self.settings(path);
        env.set_hiera_global(settings.hiera_global.clone());
        env.set_declared_world(settings.environment);
        let env = Arc::new(env);
        self.environments.insert(root, env.clone());
        env
    }

    /// The text of `path`: the open document's, else the file's on disk.
    pub fn text(
        &self,
        path: &Path,
        documents: &BTreeMap<lsp_types::Url, Document>,
    ) -> Option<String> {
        if let Some(doc) = documents.values().find(|d| d.path == path) {
            return Some(doc.text.clone());
        }
        let found = FoundFile {
            path: path.to_path_buf(),
            kind: SourceKind::from_path(path).unwrap_or(SourceKind::Manifest),
            within: None,
        };
        walk::read_file(&found).ok().map(|source| source.text)
    }

    /// Every manifest and template of the workspace folders (and the open documents),
    /// parsed: the open documents as the editor has them, the others from disk, each
    /// parsed again only when it changed.
    pub fn programs(
        &mut self,
        documents: &BTreeMap<lsp_types::Url, Document>,
    ) -> Vec<Arc<DefinitionFile>> {
        use rayon::prelude::*;
        let (found, _) = walk::find_files(&self.folders);
        let open: std::collections::HashSet<&Path> =
            documents.values().map(|d| d.path.as_path()).collect();
        let stale: Vec<&FoundFile> = found
            .iter()
            .filter(|f| !open.contains(f.path.as_path()))
            .filter(|f| {
                let modified = modified(&f.path);
                self.files
                    .get(&f.path)
                    .is_none_or(|(at, _)| at.is_none() || *at != modified)
            })
            .collect();
        let read: Vec<(PathBuf, Option<std::time::SystemTime>, Arc<DefinitionFile>)> = stale
            .par_iter()
            .filter_map(|f| {
                let source = walk::read_file(f).ok()?;
                let program = crate::syntax::parse(&source).program;
                let file = Arc::new(DefinitionFile {
                    source: Arc::new(source),
                    program: Arc::new(program),
                });
                Some((f.path.clone(), modified(&f.path), file))
            })
            .collect();
        for (path, at, file) in read {
            self.files.insert(path, (at, file));
        }
        let mut all: Vec<Arc<DefinitionFile>> = documents
            .values()
            .filter_map(|doc| {
                let (source, parsed) = parse(doc.path.clone(), &doc.text)?;
                Some(Arc::new(DefinitionFile {
                    source: Arc::new(source),
                    program: Arc::new(parsed.program),
                }))
            })
            .collect();
        all.extend(
            found
                .iter()
                .filter(|f| !open.contains(f.path.as_path()))
                .filter_map(|f| Some(self.files.get(&f.path)?.1.clone())),
        );
        all
    }
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
}

/// The source pupcheck reads from a document's text, and its parse; `None` when the
/// text is not one pupcheck checks (too large).
pub fn parse(path: PathBuf, text: &str) -> Option<(SourceFile, crate::syntax::Parsed)> {
    let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::Manifest);
    let source = walk::source_from_bytes(path, kind, text.as_bytes().to_vec()).ok()?;
    let parsed = crate::syntax::parse(&source);
    Some((source, parsed))
}

/// What other files see of a program: each class, defined type, function and type
/// alias it defines, by name, with its text (parameters, body: a class's variables are
/// seen too, and a declaration elsewhere evaluates its body), comments left out. When
/// this changes, the files that use a name in it are checked again (and the index built
/// again): typing in a comment changes nothing.
pub fn definitions(source: &SourceFile, program: &Program) -> BTreeMap<String, String> {
    crate::env::symbols::symbols(program)
        .into_iter()
        .map(|s| {
            (
                format!("{} {}", s.kind, s.name),
                code_text(source, program, s.expr.span),
            )
        })
        .collect()
}

/// The text of `span` without its comments.
fn code_text(source: &SourceFile, program: &Program, span: crate::source::Span) -> String {
    let mut out = String::new();
    let mut at = span.start;
    let first = program
        .comments
        .partition_point(|c| c.span.start < span.start);
    let comments = program.comments[first..]
        .iter()
        .take_while(|c| c.span.end <= span.end);
    for comment in comments {
        out.push_str(source.slice(crate::source::Span::new(at, comment.span.start)));
        at = comment.span.end;
    }
    out.push_str(source.slice(crate::source::Span::new(at, span.end)));
    out
}

/// The names a definition summary holds (`class ntp::config` → `ntp::config`).
pub fn summary_name(key: &str) -> &str {
    key.split_once(' ').map_or(key, |(_, name)| name)
}
