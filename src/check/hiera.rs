//! The Hiera files of the checked environments, judged: each environment's layer and
//! its modules' (`hiera::read`), under the paths the user named.

use super::{data_report, data_source, Environments, FileReport, Plan};
use crate::config::Settings;
use crate::diagnostics::{Diagnostic, RuleId};
use crate::env::Environment;
use crate::hiera::DataFile;
use crate::rules::syntax::unreadable_file;
use crate::rules::types::{hiera_config, hiera_parameter_type, hiera_syntax, hiera_unknown_key};
use crate::source::SourceFile;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The reports on the Hiera files of each environment the planned files are in (files
/// in no environment have their modules' layers only), with the settings of the
/// environment's first file: only the files with findings.
pub fn reports<'p>(
    plan: &Plan,
    environments: &Environments,
    files: impl Iterator<Item = (&'p Path, &'p Arc<Settings>)>,
) -> Vec<FileReport> {
    let mut settings_by_root: Vec<(Option<PathBuf>, &Arc<Settings>)> = Vec::new();
    for (file, settings) in files {
        let root = environments.root_of(file);
        if !settings_by_root.iter().any(|(r, _)| *r == root) {
            settings_by_root.push((root, settings));
        }
    }
    let mut reports = Vec::new();
    for (root, settings) in settings_by_root {
        let enabled = |id: RuleId| settings.rules.enabled().any(|r| r.id == id);
        let rules = [
            hiera_config::RULE.id,
            hiera_parameter_type::RULE.id,
            hiera_syntax::RULE.id,
            hiera_unknown_key::RULE.id,
        ];
        if !rules.iter().any(|&id| enabled(id)) {
            continue;
        }
        let env = environments.for_environment(root.as_deref());
        let hiera = env.hiera();
        let configs = hiera.configs.iter().map(|f| (f, true));
        let files: Vec<_> = configs
            .chain(hiera.data.iter().map(|f| (f, false)))
            .collect();
        // Each file on its own, on every core.
        let judged = files.par_iter().filter_map(|&(file, is_config)| {
            // Only files under the paths the user named are reported: other modules on
            // the modulepath have Hiera files too, but are not theirs to check.
            plan.named_real_path(&file.path)?;
            let source = data_source(&file.path, file.text.clone());
            let diagnostics = judge(file, is_config, &source, env, &enabled);
            data_report(source, diagnostics, settings)
        });
        reports.par_extend(judged);
    }
    reports
}

/// The findings of the enabled Hiera rules on one file of an environment's layers (a
/// layer's `hiera.yaml` when `is_config`, else a data file its levels read).
fn judge(
    file: &DataFile,
    is_config: bool,
    source: &SourceFile,
    env: &Environment,
    enabled: &dyn Fn(RuleId) -> bool,
) -> Vec<Diagnostic> {
    // Each rule runs only when enabled: some read much (hiera-unknown-key searches the
    // text of every module once).
    let shown = source.path.display().to_string();
    let mut diagnostics = hiera_syntax::check_file(file);
    if is_config && enabled(hiera_config::RULE.id) {
        diagnostics.extend(hiera_config::check_config(file, &shown));
    }
    if !is_config && enabled(hiera_unknown_key::RULE.id) {
        diagnostics.extend(hiera_unknown_key::check_data_file(file, &shown, env));
    }
    if !is_config && enabled(hiera_parameter_type::RULE.id) {
        diagnostics.extend(hiera_parameter_type::check_data_file(file, source, env));
    }
    enabled_only(diagnostics, enabled)
}

/// The findings on the text an editor holds of a Hiera file of `env`'s layers (`None`:
/// the file is in none of them, so nothing judges it), at the severities `settings`
/// give, in order.
pub fn document_findings(
    path: &Path,
    text: &str,
    env: &Environment,
    settings: &Settings,
) -> Option<Vec<Diagnostic>> {
    let hiera = env.hiera();
    let same = |file: &&DataFile| {
        file.path == path
            || std::fs::canonicalize(&file.path).ok() == std::fs::canonicalize(path).ok()
    };
    let (file, is_config) = match hiera.configs.iter().find(same) {
        Some(file) => (file, true),
        None => (hiera.data.iter().find(same)?, false),
    };
    let edited = DataFile {
        path: file.path.clone(),
        text: text.to_string(),
        document: crate::hiera::yaml::parse(text),
        module: file.module.clone(),
        encrypted: file.encrypted,
        rank: file.rank,
        everywhere: file.everywhere,
    };
    let source = data_source(path, text.to_string());
    let enabled = |id: RuleId| settings.rules.enabled().any(|r| r.id == id);
    let diagnostics = judge(&edited, is_config, &source, env, &enabled);
    Some(data_report(source, diagnostics, settings).map_or_else(Vec::new, |r| r.diagnostics))
}

/// The findings of enabled rules (and files pupcheck could not read).
fn enabled_only(diagnostics: Vec<Diagnostic>, enabled: &dyn Fn(RuleId) -> bool) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter(|d| d.rule == unreadable_file::RULE.id || enabled(d.rule))
        .collect()
}
