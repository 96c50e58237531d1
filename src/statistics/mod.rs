//! Statistics over a report: findings by rule, by module and by file, most first.
//! `output::statistics` prints them as tables; the JSON report carries them in its
//! summary.

use crate::baseline::fingerprint::stable_path;
use crate::check::Report;
use crate::diagnostics::Severity;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Component, Path};

/// The name files outside any module are counted under.
pub const NO_MODULE: &str = "(no module)";

/// Module folders whose parent is the module (`<module>/manifests/init.pp`).
const MODULE_FOLDERS: &[&str] = &[
    "manifests",
    "templates",
    "functions",
    "types",
    "plans",
    "tasks",
    "examples",
    "spec",
];

#[derive(Debug, Clone, Default, Serialize)]
pub struct Statistics {
    pub by_rule: Vec<RuleCount>,
    pub by_module: Vec<Count>,
    pub by_file: Vec<Count>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    pub rule: String,
    pub severity: Severity,
    pub count: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    pub name: String,
    pub count: usize,
}

impl Statistics {
    pub fn of(report: &Report) -> Statistics {
        let mut by_rule: HashMap<(&str, Severity), usize> = HashMap::new();
        let mut by_module: HashMap<String, usize> = HashMap::new();
        let mut by_file = Vec::new();
        for file in report.files.iter().filter(|f| !f.diagnostics.is_empty()) {
            for d in &file.diagnostics {
                *by_rule.entry((d.rule.as_str(), d.severity)).or_default() += 1;
            }
            *by_module.entry(module_of(&file.path)).or_default() += file.diagnostics.len();
            by_file.push(Count {
                name: stable_path(&file.path),
                count: file.diagnostics.len(),
            });
        }
        let mut by_rule: Vec<RuleCount> = by_rule
            .into_iter()
            .map(|((rule, severity), count)| RuleCount {
                rule: rule.to_string(),
                severity,
                count,
            })
            .collect();
        by_rule.sort_by(|a, b| (b.count, &a.rule).cmp(&(a.count, &b.rule)));
        let mut by_module: Vec<Count> = by_module
            .into_iter()
            .map(|(name, count)| Count { name, count })
            .collect();
        sort_counts(&mut by_module);
        sort_counts(&mut by_file);
        Statistics {
            by_rule,
            by_module,
            by_file,
        }
    }
}

/// Most first, then by name.
fn sort_counts(counts: &mut [Count]) {
    counts.sort_by(|a, b| (b.count, &a.name).cmp(&(a.count, &b.name)));
}

/// The module a file belongs to: the folder holding its `manifests/`, `templates/`, ...
/// folder (the innermost one), or [`NO_MODULE`]. A relative path is taken from the
/// working directory, so `manifests/init.pp` checked inside a module is in that module.
pub fn module_of(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let parts: Vec<&str> = absolute
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => p.to_str(),
            _ => None,
        })
        .collect();
    // The last part is the file itself.
    let folders = &parts[..parts.len().saturating_sub(1)];
    (1..folders.len())
        .rev()
        .find(|&i| MODULE_FOLDERS.contains(&folders[i]))
        .map_or_else(|| NO_MODULE.to_string(), |i| folders[i - 1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_text;
    use std::path::PathBuf;

    #[test]
    fn modules_are_the_folders_above_manifests_and_templates() {
        assert_eq!(module_of(Path::new("modules/ntp/manifests/init.pp")), "ntp");
        assert_eq!(module_of(Path::new("./ntp/templates/a/b.epp")), "ntp");
        assert_eq!(
            module_of(Path::new("/x/site/profile/manifests/base.pp")),
            "profile"
        );
        assert_eq!(module_of(Path::new("/x/site.pp")), NO_MODULE);
        let cwd = std::env::current_dir().unwrap();
        let here = cwd.file_name().unwrap().to_str().unwrap();
        assert_eq!(module_of(Path::new("manifests/site.pp")), here);
    }

    #[test]
    fn counts_are_sorted_most_first() {
        let report = Report {
            files: vec![
                check_text("a/manifests/x.pp".into(), b"$a = \"x\"\n".to_vec()),
                check_text(
                    PathBuf::from("b/manifests/y.pp"),
                    b"$a = \"x\"\n$b = \"y\"\n".to_vec(),
                ),
            ],
            walk_errors: Vec::new(),
            files_checked: 2,
        };
        let stats = Statistics::of(&report);
        assert_eq!(stats.by_rule[0].rule, "double-quoted-strings");
        assert_eq!(stats.by_rule[0].count, 3);
        let modules: Vec<_> = stats.by_module.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(modules, ["b", "a"]);
        assert_eq!(stats.by_file[0].name, "b/manifests/y.pp");
    }
}
