//! The bodies of installed modules (the modulepath's, not checked) that an
//! environment's catalogs reach: each file Puppet's loader would read for a class or
//! defined type the checked bodies name (and, in turn, what those name), parsed and
//! interpreted in the environment as a checked file is.

use super::parse_found_file;
use crate::env::Environment;
use crate::infer::fragment::{self, Body, Detail, EventKind, Fragment};
use crate::source::walk::FoundFile;
use crate::source::SourceKind;
use crate::syntax::ParsedFile;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most files of installed modules one environment's catalogs read (a bound on a
/// hostile modulepath; far above a real role's closure).
const MAX_INSTALLED_FILES: usize = 20_000;

/// The files of the environment's modulepath, outside the `checked` files (each a path
/// and its fragments), that define the classes and defined types the bodies name and
/// no checked file defines (and, in turn, what those name), each parsed and
/// interpreted in the environment, with what each body gives a catalog.
pub(super) fn installed_bodies<'c>(
    env: &Environment,
    checked: impl Iterator<Item = (&'c Path, &'c [Fragment])>,
    detail: Detail,
) -> Vec<(ParsedFile, Vec<Fragment>)> {
    let mut read = BTreeSet::new();
    let mut defined = BTreeSet::new();
    let mut named = BTreeSet::new();
    for (path, fragments) in checked {
        read.extend(std::path::absolute(path).ok());
        names_of(fragments, &mut defined, &mut named);
    }
    let mut asked = BTreeSet::new();
    let mut installed: Vec<(ParsedFile, Vec<Fragment>)> = Vec::new();
    loop {
        let wanted: Vec<String> = named
            .difference(&defined)
            .filter(|n| !asked.contains(*n))
            .cloned()
            .collect();
        let mut files = Vec::new();
        for name in wanted {
            for file in env.manifest_files_for(&name) {
                if read.insert(file.clone()) {
                    files.push(file);
                }
            }
            asked.insert(name);
        }
        if files.is_empty() || installed.len() >= MAX_INSTALLED_FILES {
            return installed;
        }
        let read_now: Vec<(ParsedFile, Vec<Fragment>)> = files
            .into_par_iter()
            .filter_map(|path| interpret_installed(env, path, detail))
            .collect();
        for (_, fragments) in &read_now {
            names_of(fragments, &mut defined, &mut named);
        }
        installed.extend(read_now);
    }
}

/// One installed file, parsed and interpreted in the environment; `None` when it cannot
/// be read or its interpretation fails.
fn interpret_installed(
    env: &Environment,
    path: PathBuf,
    detail: Detail,
) -> Option<(ParsedFile, Vec<Fragment>)> {
    let found = FoundFile {
        path,
        kind: SourceKind::Manifest,
        within: None,
    };
    let file = parse_found_file(&found).ok()?;
    let exprs = crate::ast::preorder(&file.program);
    let view = crate::infer::FileView {
        program: &file.program,
        exprs: &exprs,
        env,
    };
    let inference = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::infer::FileInference::infer(&view)
    }))
    .ok()?;
    let fragments = fragment::fragments(&file.program, &inference, detail);
    drop(exprs);
    Some((file, fragments))
}

/// Adds the classes and defined types the fragments define to `defined`, and those
/// they name (include, declare, inherit from, declare instances of) to `named`.
fn names_of(fragments: &[Fragment], defined: &mut BTreeSet<String>, named: &mut BTreeSet<String>) {
    for fragment in fragments {
        match &fragment.body {
            Body::Class { name, parent } => {
                defined.insert(name.clone());
                named.extend(parent.iter().cloned());
            }
            Body::Define { name } => {
                defined.insert(name.clone());
            }
            Body::TopLevel | Body::Node { .. } => {}
        }
        for event in &fragment.events {
            match &event.kind {
                EventKind::Include {
                    classes: Some(classes),
                    ..
                }
                | EventKind::DeclareClass {
                    classes: Some(classes),
                    ..
                } => named.extend(classes.iter().cloned()),
                EventKind::Declare { type_name, .. }
                    if type_name != "class"
                        && crate::builtin::resource_type(type_name).is_none() =>
                {
                    named.insert(type_name.clone());
                }
                _ => {}
            }
        }
    }
}

/// Whether code of the environment outside `indexed` (the absolute paths of the files
/// whose bodies the catalogs hold) may declare resources of `type_name`: always in an
/// open environment (a module pupcheck was not shown may, and a node classifier may
/// add its classes to any node); in a closed one, when a manifest of a module on the
/// modulepath that no catalog reaches declares or collects one, or calls a
/// resource-making function or `Resource[...]`. Read as text: a match in a comment
/// only makes pupcheck judge less.
pub(super) fn declared_elsewhere(
    env: &Environment,
    indexed: &BTreeSet<PathBuf>,
    type_name: &str,
) -> bool {
    if env.closure().why_open(None).is_some() || env.declared_open() {
        return true;
    }
    let pattern = format!(
        r"(?i)(?:^|[^\w:])@{{0,2}}{}\s*(?:\{{|<<?\|)|\b(?:create_resources|ensure_resources?|ensure_packages|create_\w+)\b|\bresource\s*\[",
        regex::escape(type_name)
    );
    let Ok(declares) = regex::Regex::new(&pattern) else {
        return true;
    };
    let mut manifests = Vec::new();
    for (_, root) in env.modules() {
        manifests_under(&root.join("manifests"), 0, &mut manifests);
    }
    manifests
        .iter()
        .filter(|file| std::path::absolute(file).map_or(true, |f| !indexed.contains(&f)))
        .any(|file| std::fs::read_to_string(file).map_or(true, |text| declares.is_match(&text)))
}

/// The `.pp` files under `folder` (links to folders not followed past a few levels).
fn manifests_under(folder: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && depth < 16 {
            manifests_under(&path, depth + 1, out);
        } else if path.extension().is_some_and(|e| e == "pp") {
            out.push(path);
        }
    }
}
