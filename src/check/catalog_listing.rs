//! `pupcheck catalog`: the catalogs a selector names, from the planned files and the
//! bodies of the installed modules the catalogs reach.

use super::Environments;
use super::{
    environment_groups, index_environments, interpret_all, parse_found_file, ParseResult, Plan,
};
use crate::catalog::listing::{Listing, Selector};
use crate::catalog::FileFragments;
use crate::config::Settings;
use crate::infer::fragment::{self, Detail, Fragment};
use crate::syntax::ParsedFile;
use rayon::prelude::*;
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
        // (The searches the last environment read are kept for this one, the rest let
        // go.)
        plan.keep_used_searches();
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
        let installed = super::installed::installed_bodies(
            env,
            checked
                .iter()
                .map(|(file, fragments)| (file.source.path.as_path(), fragments.as_slice())),
            Detail::Values,
        );
        for file in &installed {
            if has_syntax_error(&file.0) {
                unparsed.push(file.0.source.path.clone());
            }
        }
        let mut files: Vec<FileFragments> = checked
            .into_iter()
            .map(|(file, fragments)| file_fragments(file, fragments, false))
            .chain(
                installed
                    .iter()
                    .map(|(file, fragments)| file_fragments(file, fragments.clone(), true)),
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

pub(super) fn file_fragments(
    file: &ParsedFile,
    fragments: Vec<Fragment>,
    installed: bool,
) -> FileFragments<'_> {
    FileFragments {
        path: &file.source.path,
        lines: &file.source.lines,
        fragments,
        installed,
    }
}
