//! The variables code sets where every class can read them without a namespace: at top
//! scope (a file's code outside definitions, the main manifest's above all) and in node
//! definitions (a class declared in a node sees the node's scope). A class reading
//! `$x` that no scope of its own sets finds one of these, a fact, or nothing.

use crate::ast::{ExprKind, Program};
use foldhash::HashMap;
use std::path::{Path, PathBuf};

/// Variable names set at top or node scope, with the files that set them.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct TopScopeVariables {
    by_name: HashMap<String, Vec<PathBuf>>,
}

impl TopScopeVariables {
    /// Adds what `program` sets at top scope (in conditionals too, not in lambdas,
    /// whose variables are their own) and in its node definitions.
    pub fn add_program(&mut self, path: &Path, program: &Program) {
        for name in top_and_node_assignments(program) {
            let files = self.by_name.entry(name).or_default();
            if !files.iter().any(|f| f == path) {
                files.push(path.to_path_buf());
            }
        }
    }

    pub fn merge(&mut self, other: TopScopeVariables) {
        for (name, files) in other.by_name {
            let into = self.by_name.entry(name).or_default();
            for file in files {
                if !into.contains(&file) {
                    into.push(file);
                }
            }
        }
    }

    /// Whether some file sets `name` at top or node scope.
    pub fn sets(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Whether a file other than `file` sets `name` at top or node scope.
    pub fn set_outside(&self, name: &str, file: &Path) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|files| files.iter().any(|f| f != file))
    }
}

/// The main manifest of an environment (the file or folder `environment.conf`'s
/// `manifest` names, else `manifests/`), read once for what it defines and what it sets
/// at top and node scope.
#[derive(Debug, Default)]
pub(crate) struct MainManifest {
    /// Its definitions and top-scope variables, by real path (as the file asking is
    /// compared with them).
    pub index: Box<super::Environment>,
    /// Whether every file of it was read and parsed whole: else what it defines is not
    /// all known.
    pub whole: bool,
}

impl MainManifest {
    pub fn read(root: &Path) -> MainManifest {
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut main = MainManifest {
            whole: true,
            ..MainManifest::default()
        };
        for path in main_manifest_files(&root) {
            match super::Environment::of_file(&path) {
                Some((env, complete)) => {
                    main.whole &= complete;
                    let index = std::mem::take(&mut *main.index);
                    *main.index = index.merged(env);
                }
                None => main.whole = false,
            }
        }
        main
    }
}

/// The variables `program` assigns at top scope (in conditionals too, not in lambdas,
/// whose variables are their own) and in its node definitions; none where a syntax
/// error leaves that code unknown.
pub(crate) fn top_and_node_assignments(program: &Program) -> Vec<String> {
    let mut names = super::assigned_variables(&program.body).unwrap_or_default();
    for statement in &program.body {
        if let ExprKind::Node(node) = &statement.kind {
            names.extend(super::assigned_variables(&node.body.statements).unwrap_or_default());
        }
    }
    names
}

/// The files of the main manifest of the environment at `root`: the file, or every
/// manifest under the folder.
pub(crate) fn main_manifest_files(root: &Path) -> Vec<PathBuf> {
    let main = main_manifest(root);
    let mut files = Vec::new();
    if main.is_file() {
        files.push(main);
    } else if main.is_dir() {
        let walk = ignore::WalkBuilder::new(&main)
            .standard_filters(false)
            .follow_links(false)
            .max_depth(Some(8))
            .build();
        files.extend(
            walk.flatten()
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                .map(|e| e.into_path())
                .filter(|p| p.extension().is_some_and(|e| e == "pp")),
        );
    }
    files
}

/// The main manifest Puppet reads for the environment at `root`.
pub(crate) fn main_manifest(root: &Path) -> PathBuf {
    super::survey::configured(root, "manifest")
        .as_deref()
        .map(|value| value.trim_matches(|c| c == '"' || c == '\''))
        .filter(|value| !value.is_empty() && !value.contains('$'))
        .map_or_else(|| root.join("manifests"), |value| root.join(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn environment(files: &[(&str, &str)]) -> PathBuf {
        let root = std::env::temp_dir().join(format!(
            "pupcheck-top-scope-{}-{}",
            std::process::id(),
            files.len()
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    #[test]
    fn the_main_manifest_sets_top_scope_and_node_variables() {
        let root = environment(&[(
            "manifests/site.pp",
            "$dc = 'a'\nnode default { $rack = 1 [1].each |$i| { $n = $i } }\n",
        )]);
        let main = MainManifest::read(&root).index.top_scope;
        let elsewhere = Path::new("/elsewhere.pp");
        assert!(main.set_outside("dc", elsewhere) && main.set_outside("rack", elsewhere));
        assert!(!main.set_outside("n", elsewhere) && !main.set_outside("i", elsewhere));
        let site = std::fs::canonicalize(root.join("manifests/site.pp")).unwrap();
        assert!(
            !main.set_outside("dc", &site),
            "a file's own variables are not outside it"
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn the_main_manifest_defines_what_it_holds_when_read_whole() {
        let root = environment(&[
            ("manifests/site.pp", "define site_user () { }\n"),
            (
                "manifests/nodes/web.pp",
                "function site_name() { 'main' }\n",
            ),
        ]);
        let main = MainManifest::read(&root);
        assert!(main.whole);
        assert!(main.index.defines.contains_key("site_user"));
        assert!(main.index.functions.contains_key("site_name"));
        std::fs::write(root.join("manifests/broken.pp"), "class {\n").unwrap();
        assert!(!MainManifest::read(&root).whole);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn environment_conf_names_the_main_manifest() {
        let root = environment(&[
            ("environment.conf", "manifest = site/main.pp\n"),
            ("site/main.pp", "$dc = 'a'\n"),
            ("manifests/other.pp", "$other = 1\n"),
        ]);
        let main = MainManifest::read(&root).index.top_scope;
        let elsewhere = Path::new("/elsewhere.pp");
        assert!(main.set_outside("dc", elsewhere) && !main.set_outside("other", elsewhere));
        std::fs::remove_dir_all(root).unwrap();
    }
}
