//! The `metadata.json` of each module under the paths the user named, judged by
//! `metadata-json`.

use super::{data_report, data_source, Environments, FileReport, Plan};
use crate::config::Settings;
use crate::rules::documentation::metadata_json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The reports on the modules' `metadata.json` files: only the files with findings.
/// `files`: the planned files of the environments to judge; `seen`: the files judged
/// before (each is judged once, with the first environment that reaches it).
pub fn reports<'p>(
    plan: &Plan,
    environments: &Environments,
    files: impl Iterator<Item = (&'p Path, &'p Arc<Settings>)>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> Vec<FileReport> {
    let mut environments_done = std::collections::HashSet::new();
    let mut reports = Vec::new();
    for (file, settings) in files {
        // Each environment once, with the settings of its first file.
        if !environments_done.insert(environments.root_of(file)) {
            continue;
        }
        if !settings
            .rules
            .enabled()
            .any(|r| r.id == metadata_json::RULE.id)
        {
            continue;
        }
        let env = environments.for_file(file);
        // The modules on the modulepath, and each named folder (a module whose
        // metadata.json cannot be read has no name the modulepath knows it by).
        let roots = env
            .modules()
            .into_iter()
            .map(|(_, root)| root)
            .chain(plan.named_folders.iter().cloned());
        for module_root in roots {
            let path = module_root.join("metadata.json");
            let Some(real) = plan.named_real_path(&path) else {
                continue;
            };
            if !seen.insert(real) {
                continue;
            }
            let Ok(text) =
                crate::source::read::read_text(&path, crate::source::read::SMALL_FILE_LIMIT)
            else {
                continue;
            };
            let source = data_source(&path, text);
            let diagnostics = metadata_json::check_metadata(&source);
            reports.extend(data_report(source, diagnostics, settings));
        }
    }
    reports
}
