//! Where the index looks for what the checked files do not define: a file inside a
//! module (under its `manifests/`, `types/` or `functions/` folder) makes the folder
//! holding that module a modulepath, as Puppet would have it.

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

/// The folders holding the modules of the `checked` files (their modulepaths), with the
/// folders of `modulepath`, sorted, without duplicates.
pub fn modulepaths(checked: &[PathBuf], modulepath: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths: BTreeSet<PathBuf> = modulepath.iter().cloned().collect();
    for file in checked {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.clone());
        if let Some(parent) = module_root(&absolute).and_then(Path::parent) {
            paths.insert(parent.to_path_buf());
        }
    }
    paths.into_iter().collect()
}
