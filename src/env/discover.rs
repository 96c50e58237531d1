//! Which files the index reads: the modules around the files being checked. A file
//! inside a module (under its `manifests/`, `types/` or `functions/` folder) makes the
//! folder holding that module a modulepath, and every module there is read, as Puppet
//! would load them; folders given with `--modulepath` are read the same way.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folders of a module whose `.pp` files define things Puppet autoloads.
const DEFINING_FOLDERS: &[&str] = &["manifests", "types", "functions"];

/// The module a file belongs to: the folder above its `manifests/`, `types/` or
/// `functions/` folder.
fn module_root(file: &Path) -> Option<&Path> {
    file.ancestors()
        .skip(1)
        .find(|dir| {
            dir.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| DEFINING_FOLDERS.contains(&n))
        })
        .and_then(Path::parent)
}

fn is_module(dir: &Path) -> bool {
    DEFINING_FOLDERS.iter().any(|f| dir.join(f).is_dir())
}

/// The `.pp` files of every module in the modulepaths around `checked` (and in the
/// folders of `modulepath`), sorted, without duplicates.
pub fn module_files(checked: &[PathBuf], modulepath: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths: BTreeSet<PathBuf> = modulepath.iter().cloned().collect();
    for file in checked {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.clone());
        if let Some(parent) = module_root(&absolute).and_then(Path::parent) {
            paths.insert(parent.to_path_buf());
        }
    }
    let mut modules = BTreeSet::new();
    for dir in &paths {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && is_module(&path) {
                modules.insert(path);
            }
        }
    }
    let roots: Vec<PathBuf> = modules
        .iter()
        .flat_map(|m| DEFINING_FOLDERS.iter().map(move |f| m.join(f)))
        .filter(|d| d.is_dir())
        .collect();
    let (found, _) = crate::source::walk::find_files(&roots);
    found
        .into_iter()
        .filter(|f| f.kind == crate::source::SourceKind::Manifest)
        .map(|f| f.path)
        .collect()
}
