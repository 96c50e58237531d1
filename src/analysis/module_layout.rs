//! Which files Puppet autoloads from a module, and the namespace each one owns
//! (checker4_0.rb's `namespace_for_file` / `dir_to_names`): shared by the rules about
//! what a module file may contain.

use crate::env::FolderEvidence;
use std::path::Path;

/// The folders of a module that Puppet autoloads `.pp` files from.
const AUTOLOADED: &[&str] = &["manifests", "functions", "types", "plans"];

/// Folder names that hold modules by convention (a modulepath entry).
const MODULEPATH_NAMES: &[&str] = &["modules", "site", "site-modules", "dist"];

/// Whether a file holds a Bolt plan (a `plan` definition, or a file under a `plans/`
/// folder): Bolt, not Puppet, runs it, with functions and types of its own.
pub fn is_plan_file(program: &crate::ast::Program, path: &Path) -> bool {
    program
        .body
        .iter()
        .any(|s| matches!(s.kind, crate::ast::ExprKind::Plan(_)))
        || path.components().any(|c| c.as_os_str() == "plans")
}

/// A `.pp` file Puppet would autoload from a module.
pub struct ModuleFile {
    /// What every definition's name must start with: `mymod::sub::file`, or `mymod` for
    /// `mymod/manifests/init.pp` (lowercase; Puppet compares case-insensitively).
    pub namespace: String,
    /// The path from the module's folder on (`ntp/manifests/config.pp`): stable wherever
    /// pupcheck runs, unlike the path it was given.
    pub in_module: String,
}

/// Puppet checks a file's namespace only when it lies in a module on the modulepath.
/// pupcheck does not know the modulepath, so it needs evidence the folder above
/// `manifests/` (or `functions/`, ...) is a module: a valid module name, and a
/// `metadata.json` in it or a conventional modulepath folder (`modules`, `site`, ...)
/// above it, and it is no control repository (`FolderEvidence`). A control
/// repository's `manifests/site.pp` therefore never counts, whatever the folder's name.
/// `evidence` tells what a folder holds (`Environment::folder_evidence` looks once a
/// run).
pub fn module_file(
    path: &Path,
    evidence: impl FnOnce(&Path) -> FolderEvidence,
) -> Option<ModuleFile> {
    if path.extension()? != "pp" {
        return None;
    }
    let absolute = std::path::absolute(path).ok()?;
    let parts: Vec<&str> = absolute.iter().map(|c| c.to_str().unwrap_or("")).collect();
    let is_autoloaded = |name: &str| AUTOLOADED.iter().any(|a| a.eq_ignore_ascii_case(name));
    // The nearest autoloaded folder whose parent can be a module.
    let dir = (1..parts.len().saturating_sub(1)).rev().find(|&i| {
        is_autoloaded(parts[i]) && is_module_name(parts[i - 1]) && !is_autoloaded(parts[i - 1])
    })?;
    let parts: Vec<String> = parts.iter().map(|p| p.to_lowercase()).collect();
    let module_dir: std::path::PathBuf = absolute.iter().take(dir).collect();
    let evidence = evidence(&module_dir);
    if evidence.control_repository {
        return None;
    }
    let in_modulepath_folder = parts
        .get(dir.wrapping_sub(2))
        .is_some_and(|p| MODULEPATH_NAMES.contains(&p.as_str()));
    if !evidence.module_metadata && !in_modulepath_folder {
        return None;
    }
    // A module in a modulepath folder is loaded under its folder's name; a repository
    // checked as it is, under the name its metadata.json gives (the folder of a clone
    // is named at will: `production`, `ntp-fork`).
    let module = match evidence.metadata_name {
        Some(name) if !in_modulepath_folder => name,
        _ => parts[dir - 1].clone(),
    };
    let inner = &parts[dir + 1..];
    let (file, subdirs) = inner.split_last()?;
    let mut names = vec![module];
    names.extend(subdirs.iter().cloned());
    if !(subdirs.is_empty() && file == "init.pp") {
        names.push(file.trim_end_matches(".pp").to_string());
    }
    let in_module: Vec<String> = absolute
        .iter()
        .skip(dir - 1)
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    Some(ModuleFile {
        namespace: names.join("::"),
        in_module: in_module.join("/"),
    })
}

/// Puppet's module names: a lowercase letter, then lowercase letters, digits and `_`.
fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn namespace(path: &str) -> Option<String> {
        module_file(Path::new(path), FolderEvidence::of).map(|m| m.namespace)
    }

    #[test]
    fn namespaces_follow_puppets_dir_to_names() {
        // checker4_0.rb dir_to_names: <module>/manifests/<subdirs>/<file>.pp
        assert_eq!(
            namespace("/e/modules/ntp/manifests/init.pp").as_deref(),
            Some("ntp")
        );
        assert_eq!(
            namespace("/e/modules/ntp/manifests/config/file.pp").as_deref(),
            Some("ntp::config::file")
        );
        assert_eq!(
            namespace("/e/site/ntp/functions/f.pp").as_deref(),
            Some("ntp::f")
        );
        assert_eq!(
            namespace("/e/modules/ntp/manifests/sub/init.pp").as_deref(),
            Some("ntp::sub::init")
        );
    }

    /// A repository checked as it is (a Git repository's root) takes the module name
    /// its metadata.json gives, whatever its folder is called; in a modulepath folder,
    /// the folder's name is the module's (Puppet loads it under that name).
    #[test]
    fn a_repository_is_the_module_its_metadata_names() {
        let dir = tempfile::tempdir().unwrap();
        for folder in ["production", "modules/ntp2"] {
            let root = dir.path().join(folder);
            std::fs::create_dir_all(root.join("manifests")).unwrap();
            std::fs::create_dir_all(root.join(".git")).unwrap();
            std::fs::write(root.join("metadata.json"), "{\"name\": \"puppetlabs-ntp\"}").unwrap();
        }
        let namespace = |file: &str| {
            module_file(&dir.path().join(file), FolderEvidence::of).map(|m| m.namespace)
        };
        assert_eq!(
            namespace("production/manifests/config.pp").as_deref(),
            Some("ntp::config")
        );
        assert_eq!(
            namespace("modules/ntp2/manifests/init.pp").as_deref(),
            Some("ntp2")
        );
    }

    #[test]
    fn files_outside_a_module_have_no_namespace() {
        assert_eq!(
            namespace("/e/environments/production/manifests/site.pp"),
            None
        );
        assert_eq!(
            namespace("/e/modules/puppetlabs-ntp/manifests/init.pp"),
            None
        );
        assert_eq!(namespace("/e/modules/ntp/templates/x.epp"), None);
        assert_eq!(namespace("/e/elsewhere/ntp/manifests/init.pp"), None);
    }
}
