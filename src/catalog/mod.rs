//! The catalogs of an environment, assembled without a node from what each body gives
//! one (`infer::fragment`): from each entry point (a class alone, a node with the
//! top-level code of its file, a file of top-level code), the classes it certainly
//! includes are evaluated where they are included (once each, a parent before its
//! child), the defined resources it certainly declares after the code that declared
//! them (each instance's body once per title), as Puppet's compiler does. Only what
//! is certain on every path of the bodies and known by value joins a catalog: a
//! finding here is what Puppet raises whenever it compiles the entry point.
//!
//! Found so far: a resource declared twice in one catalog (the two declarations in
//! different bodies, or in two instances of a defined type: within one body,
//! `eval::declared` finds it) and a class declared resource-like after it was
//! declared. Puppet stops at the first error of a compile, so a run stops there too.

pub mod listing;
mod run;

use crate::infer::fragment::{Body, EventKind, Fragment};
use crate::source::{LineIndex, Span};
use foldhash::HashMap;
use std::path::{Path, PathBuf};

/// What the catalog pass reads of one file.
pub struct FileFragments<'a> {
    pub path: &'a Path,
    pub lines: &'a LineIndex,
    pub fragments: Vec<Fragment>,
    /// A file of an installed module (not checked): its bodies join the catalogs that
    /// reach them, but none of them is an entry point, and no finding is located there.
    pub installed: bool,
}

/// A compile error of a catalog, located in the file of the declaration that raises it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub kind: FindingKind,
    /// Puppet's message (its first part: Puppet adds where the first declaration is).
    pub message: String,
    /// The declaration Puppet raises the error at.
    pub at: Span,
    /// The first declaration, when it is in the same file.
    pub first: Option<Span>,
    /// Where the first declaration is and how the catalog reaches both.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// `Duplicate declaration: Package[curl] is already declared`.
    DuplicateResource,
    /// `Duplicate declaration: Class[Ntp] is already declared`.
    DuplicateClass,
    /// `Cannot alias Package[a] to [nil, "curl", nil]`: two titles, one resource.
    Alias,
    /// `Could not find resource 'Package[nope]' in parameter 'require'`: a relationship
    /// to a resource no catalog of the entry point holds.
    MissingTarget,
}

/// The findings of every catalog of an environment, by the file they are in.
#[derive(Debug, Default)]
pub struct Catalogs {
    by_file: HashMap<PathBuf, Vec<Finding>>,
}

impl Catalogs {
    /// The findings located in the file at `path`.
    pub fn findings_in(&self, path: &Path) -> &[Finding] {
        self.by_file.get(path).map_or(&[], Vec::as_slice)
    }

    /// Adds another environment's findings.
    pub fn extend(&mut self, other: Catalogs) {
        self.by_file.extend(other.by_file);
    }

    /// Assembles the catalog of every entry point of the files' fragments (one
    /// environment's files) and keeps what fails them, each failure once.
    /// `declared_elsewhere` says whether code outside the files (a module they do not
    /// reach, which a node classifier may add; one not there) may declare resources of
    /// a type: a relationship to a resource is judged only where neither it nor any
    /// of the files can.
    pub fn join(files: &[FileFragments], declared_elsewhere: &dyn Fn(&str) -> bool) -> Catalogs {
        let index = Index::new(files);
        type Key = (usize, Span, FindingKind, Option<(String, String)>);
        let mut found: HashMap<Key, run::Raised> = HashMap::default();
        let mut environment_may_declare = None;
        for entry in index.entry_points() {
            for raised in run::Run::new(&index).compile(&entry) {
                if let Some((type_name, title)) = &raised.target {
                    let may = environment_may_declare.get_or_insert_with(|| index.may_declare());
                    if may.declares(type_name, title) || declared_elsewhere(type_name) {
                        continue;
                    }
                }
                let key = (
                    raised.at.file,
                    raised.at.span,
                    raised.kind,
                    raised.target.clone(),
                );
                // The same failure reached from several entry points: the one whose
                // chains are shortest says best where it comes from.
                match found.get(&key) {
                    Some(kept) if kept.weight() <= raised.weight() => {}
                    _ => {
                        found.insert(key, raised);
                    }
                }
            }
        }
        let mut by_file: HashMap<PathBuf, Vec<Finding>> = HashMap::default();
        for raised in found.into_values() {
            // (Two installed modules' declarations: the user's code makes neither.)
            let Some(shown) = raised.shown_at(files) else {
                continue;
            };
            let path = files[shown.file].path.to_path_buf();
            by_file.entry(path).or_default().push(raised.finding(files));
        }
        for findings in by_file.values_mut() {
            findings.sort_by_key(|f| (f.at.start, f.at.end));
        }
        Catalogs { by_file }
    }
}

/// A body's fragment: which file, which fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct BodyRef {
    file: usize,
    fragment: usize,
}

/// A place in one of the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Place {
    file: usize,
    span: Span,
}

impl Place {
    fn describe(&self, files: &[FileFragments]) -> String {
        let file = &files[self.file];
        let line = file.lines.line_of(self.span.start) + 1;
        format!("{}:{line}", file.path.display())
    }
}

/// What any body of an environment's files may declare, on any path.
#[derive(Default)]
struct MayDeclare {
    resources: foldhash::HashSet<(String, String)>,
    /// Types declared under titles not known, or that code may declare by another way.
    types: foldhash::HashSet<String>,
    /// Some code may declare a resource of any type.
    any: bool,
}

impl MayDeclare {
    fn declares(&self, type_name: &str, title: &str) -> bool {
        self.any
            || self.types.contains(type_name)
            || self
                .resources
                .contains(&(type_name.to_string(), title.to_string()))
    }
}

impl Index<'_> {
    /// What the files' bodies may declare, whichever of them a node's catalog holds.
    fn may_declare(&self) -> MayDeclare {
        let mut may = MayDeclare::default();
        for event in self
            .files
            .iter()
            .flat_map(|f| &f.fragments)
            .flat_map(|f| &f.events)
        {
            match &event.kind {
                EventKind::Declare {
                    type_name,
                    titles: Some(titles),
                    ..
                } => may
                    .resources
                    .extend(titles.iter().map(|t| (type_name.clone(), t.clone()))),
                EventKind::Declare {
                    type_name,
                    titles: None,
                    ..
                }
                | EventKind::MayDeclare {
                    type_name: Some(type_name),
                } => {
                    may.types.insert(type_name.clone());
                }
                EventKind::MayDeclare { type_name: None } => may.any = true,
                _ => {}
            }
        }
        may
    }

    /// The classes some body includes, declares or inherits from (on any path).
    fn declared_classes(&self) -> foldhash::HashSet<&str> {
        let mut declared = foldhash::HashSet::default();
        for fragment in self.files.iter().flat_map(|f| &f.fragments) {
            if let Body::Class {
                parent: Some(parent),
                ..
            } = &fragment.body
            {
                declared.insert(parent.as_str());
            }
            for event in &fragment.events {
                if let EventKind::Include {
                    classes: Some(classes),
                    ..
                }
                | EventKind::DeclareClass {
                    classes: Some(classes),
                    ..
                } = &event.kind
                {
                    declared.extend(classes.iter().map(String::as_str));
                }
            }
        }
        declared
    }
}

/// Where an entry point starts: the bodies evaluated in order at top scope.
struct EntryPoint {
    /// How the catalog is named in messages (`class profile::web`, `node 'web01'`).
    name: String,
    bodies: Vec<BodyRef>,
}

/// The environment's classes and defined types by name, each only when one body
/// defines it (a name defined twice is judged against neither).
struct Index<'f> {
    files: &'f [FileFragments<'f>],
    classes: HashMap<String, Option<BodyRef>>,
    defines: HashMap<String, Option<BodyRef>>,
    /// The types whose key attributes defaults or overrides may set (`None`: any type).
    keys_may_change: foldhash::HashSet<Option<String>>,
}

impl<'f> Index<'f> {
    fn new(files: &'f [FileFragments<'f>]) -> Index<'f> {
        let mut classes: HashMap<String, Option<BodyRef>> = HashMap::default();
        let mut defines: HashMap<String, Option<BodyRef>> = HashMap::default();
        let mut keys_may_change = foldhash::HashSet::default();
        for (file, fragments) in files.iter().enumerate() {
            for (fragment, f) in fragments.fragments.iter().enumerate() {
                for event in &f.events {
                    if let EventKind::KeysMayChange { type_name } = &event.kind {
                        keys_may_change.insert(type_name.clone());
                    }
                }
                let body = BodyRef { file, fragment };
                let (map, name) = match &f.body {
                    Body::Class { name, .. } => (&mut classes, name),
                    Body::Define { name } => (&mut defines, name),
                    _ => continue,
                };
                map.entry(name.clone())
                    .and_modify(|b| *b = None)
                    .or_insert(Some(body));
            }
        }
        Index {
            files,
            classes,
            defines,
            keys_may_change,
        }
    }

    fn fragment(&self, body: BodyRef) -> &'f Fragment {
        &self.files[body.file].fragments[body.fragment]
    }

    fn class(&self, name: &str) -> Option<BodyRef> {
        self.classes.get(name).copied().flatten()
    }

    /// Whether defaults or overrides may give declarations of the type key attributes
    /// their own attributes do not say.
    fn keys_may_change(&self, type_name: &str) -> bool {
        self.keys_may_change.contains(&None)
            || self.keys_may_change.contains(&Some(type_name.to_string()))
    }

    fn define(&self, name: &str) -> Option<BodyRef> {
        self.defines.get(name).copied().flatten()
    }

    /// Each class no other body declares (nor inherits from), alone; each node after
    /// the top-level code of its file; and the top-level code of each file that defines
    /// no class or defined type (a site manifest, an example) or that declares or
    /// includes something; in the files' order.
    ///
    /// A class another body declares is compiled as part of that body's catalog: alone,
    /// it may fail where its module never declares it so (a private class whose parent
    /// declares it resource-like).
    fn entry_points(&self) -> Vec<EntryPoint> {
        let declared = self.declared_classes();
        let mut out = Vec::new();
        for (file, fragments) in self.files.iter().enumerate() {
            if fragments.installed {
                continue;
            }
            let top = BodyRef { file, fragment: 0 };
            // A file of top-level code (a site manifest, an example), or one whose
            // top-level code declares or includes something besides its definitions
            // (compiled as `puppet apply` compiles it).
            let defines_types = fragments
                .fragments
                .iter()
                .any(|f| matches!(f.body, Body::Class { .. } | Body::Define { .. }));
            let top_level_acts = fragments.fragments[0].events.iter().any(|e| {
                e.certain
                    && matches!(
                        e.kind,
                        EventKind::Declare { .. }
                            | EventKind::Include { .. }
                            | EventKind::DeclareClass { .. }
                    )
            });
            if !defines_types || top_level_acts {
                out.push(EntryPoint {
                    name: format!("the top-level code of {}", fragments.path.display()),
                    bodies: vec![top],
                });
            }
            for (fragment, f) in fragments.fragments.iter().enumerate() {
                let body = BodyRef { file, fragment };
                match &f.body {
                    Body::Class { name, .. }
                        if self.class(name) == Some(body) && !declared.contains(name.as_str()) =>
                    {
                        out.push(EntryPoint {
                            name: format!("class {name}"),
                            bodies: vec![body],
                        })
                    }
                    Body::Node { names } => out.push(EntryPoint {
                        name: format!("node {}", names.join(", ")),
                        bodies: vec![top, body],
                    }),
                    _ => {}
                }
            }
        }
        out
    }
}
