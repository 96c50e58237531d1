//! `pupcheck catalog`: the catalogs a selector names, from the planned files and the
//! bodies of the installed modules the catalogs reach.

use super::Environments;
use super::{
    environment_groups, index_environments, interpret_all, parse_found_file, ParseResult, Plan,
};
use crate::catalog::listing::{Listing, Selector};
use crate::catalog::FileFragments;
use crate::config::Settings;
use crate::env::Environment;
use crate::infer::fragment::{self, Body, Detail, EventKind, Fragment};
use crate::source::walk::FoundFile;
use crate::source::SourceKind;
use crate::syntax::ParsedFile;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The catalogs `pupcheck catalog` lists, and the files that do not parse (what they
/// declare is missing from them).
pub struct CatalogListings {
    pub listings: Vec<Listing>,
    pub unparsed: Vec<PathBuf>,
}

/// The catalogs the selector names in the planned files: each environment's files
/// parsed, indexed and interpreted as a check does, with the bodies of the installed
/// modules (the modulepath's, not checked) that the catalogs reach, then listed.
pub fn catalog_listings(plan: &Plan, selector: &Selector) -> CatalogListings {
    let mut listings = Vec::new();
    let mut unparsed = Vec::new();
    for group in environment_groups(plan) {
        let planned = group.all_files(plan);
        let paths: Vec<PathBuf> = planned.iter().map(|(p, _)| p.to_path_buf()).collect();
        let (parsed, loaders): (Vec<(ParseResult, &Arc<Settings>)>, _) = rayon::join(
            || {
                group
                    .files
                    .par_iter()
                    .map(|&i| (parse_found_file(&plan.files[i].0), &plan.files[i].1))
                    .collect()
            },
            || Environments::loaders(&group.roots, &paths, &plan.modulepath),
        );
        let environments = index_environments(plan, &group, &planned, loaders, &parsed);
        let env_of = |path: &Path| environments.for_file(path);
        let inferences = interpret_all(&parsed, &env_of, &|_| true);
        let mut checked: Vec<(&ParsedFile, Vec<Fragment>)> = Vec::new();
        for ((file, _), inference) in parsed.iter().zip(&inferences) {
            match file {
                Ok(file) if !has_syntax_error(file) => {}
                Ok(file) => unparsed.push(file.source.path.clone()),
                Err(report) => unparsed.push(report.path.clone()),
            }
            if let (Ok(file), Some(inference)) = (file, inference) {
                let fragments = fragment::fragments(&file.program, inference, Detail::Values);
                checked.push((file, fragments));
            }
        }
        let Some(first) = checked.first() else {
            continue;
        };
        let env = environments.for_file(&first.0.source.path);
        let installed = installed_bodies(env, &checked);
        for file in &installed {
            if has_syntax_error(&file.0) {
                unparsed.push(file.0.source.path.clone());
            }
        }
        let mut files: Vec<FileFragments> = checked
            .into_iter()
            .map(|(file, fragments)| file_fragments(file, fragments))
            .chain(
                installed
                    .iter()
                    .map(|(file, fragments)| file_fragments(file, fragments.clone())),
            )
            .collect();
        crate::source::path_order::sort_by_path(&mut files, |f| f.path);
        listings.extend(crate::catalog::listing::list(&files, selector));
    }
    unparsed.sort();
    CatalogListings { listings, unparsed }
}

fn has_syntax_error(file: &ParsedFile) -> bool {
    file.diagnostics
        .iter()
        .any(|d| d.rule == crate::diagnostics::rule_ids::SYNTAX_ERROR)
}

fn file_fragments(file: &ParsedFile, fragments: Vec<Fragment>) -> FileFragments<'_> {
    FileFragments {
        path: &file.source.path,
        lines: &file.source.lines,
        fragments,
    }
}

/// The most files of installed modules one environment's listing reads (a bound on a
/// hostile modulepath; far above a real role's closure).
const MAX_INSTALLED_FILES: usize = 20_000;

/// The files of the environment's modulepath, outside the checked files, that define
/// the classes and defined types the bodies name and no checked file defines (and, in
/// turn, what those name), each parsed and interpreted in the environment, with what
/// each body gives a catalog.
fn installed_bodies(
    env: &Environment,
    checked: &[(&ParsedFile, Vec<Fragment>)],
) -> Vec<(ParsedFile, Vec<Fragment>)> {
    let mut read: BTreeSet<PathBuf> = checked
        .iter()
        .filter_map(|(file, _)| std::path::absolute(&file.source.path).ok())
        .collect();
    let mut defined = BTreeSet::new();
    let mut named = BTreeSet::new();
    for (_, fragments) in checked {
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
            .filter_map(|path| interpret_installed(env, path))
            .collect();
        for (_, fragments) in &read_now {
            names_of(fragments, &mut defined, &mut named);
        }
        installed.extend(read_now);
    }
}

/// One installed file, parsed and interpreted in the environment; `None` when it cannot
/// be read or its interpretation fails.
fn interpret_installed(env: &Environment, path: PathBuf) -> Option<(ParsedFile, Vec<Fragment>)> {
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
    let fragments = fragment::fragments(&file.program, &inference, Detail::Values);
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
