//! Where a checked file sits in an estate: its repository, its module, and whether it is
//! the module's code or its examples and tests. Two control repositories each have a
//! `profile` module; a module's `examples/` and `spec/` are no code a node runs. The
//! report keeps all of these apart.

use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The part of a module a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// Manifests, templates, functions, types, plans: what a catalog is made of (and
    /// files outside any module: a control repository's `site.pp`).
    Code,
    /// `examples/` (and puppet-lint's older `tests/` smoke manifests).
    Examples,
    /// `spec/`: fixtures of rspec-puppet.
    Spec,
}

impl Part {
    /// The part of the file at `path`, relative to its repository: the outermost module
    /// folder decides (`spec/fixtures/modules/x/manifests/a.pp` is a test fixture,
    /// `ntp/manifests/tests/a.pp` the class `ntp::tests::a`).
    pub fn of(path: &Path) -> Part {
        path.parent()
            .into_iter()
            .flat_map(Path::components)
            .filter_map(|c| c.as_os_str().to_str())
            .find_map(|folder| match folder {
                "spec" => Some(Part::Spec),
                "examples" | "tests" => Some(Part::Examples),
                "manifests" | "templates" | "functions" | "types" | "plans" | "tasks" => {
                    Some(Part::Code)
                }
                _ => None,
            })
            .unwrap_or(Part::Code)
    }

    pub fn name(self) -> &'static str {
        match self {
            Part::Code => "code",
            Part::Examples => "examples",
            Part::Spec => "spec",
        }
    }
}

/// The repository of each file: the innermost folder holding `.git` between the file
/// and the root it was found under, else that root (a folder of modules without git is
/// one repository). Answers are kept per folder: an estate's files share few folders.
pub struct Repositories {
    roots: std::collections::HashSet<PathBuf>,
    known: HashMap<PathBuf, PathBuf>,
}

impl Repositories {
    /// `roots`: the paths the run was given (files or folders).
    pub fn new(roots: &[PathBuf]) -> Repositories {
        Repositories {
            roots: roots
                .iter()
                .map(|r| {
                    let folder = if r.is_file() {
                        r.parent().map(Path::to_path_buf).unwrap_or_default()
                    } else {
                        r.clone()
                    };
                    absolute(&folder)
                })
                .collect(),
            known: HashMap::new(),
        }
    }

    /// The repository folder of `file` (absolute).
    pub fn of(&mut self, file: &Path) -> PathBuf {
        let file = absolute(file);
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        if let Some(found) = self.known.get(&folder) {
            return found.clone();
        }
        // The innermost root holding the file bounds the search for `.git` (an estate
        // may be given hundreds of roots: its folders are looked up, not compared).
        let root = folder
            .ancestors()
            .find(|a| self.roots.contains(*a))
            .map_or_else(|| folder.clone(), Path::to_path_buf);
        let found = folder
            .ancestors()
            .take_while(|a| a.starts_with(&root))
            .find(|a| a.join(".git").exists())
            .map_or(root, Path::to_path_buf);
        self.known.insert(folder, found.clone());
        found
    }
}

/// `path` made absolute from the working directory, `..` and `.` resolved by name.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                clean.pop();
            }
            std::path::Component::CurDir => {}
            other => clean.push(other),
        }
    }
    clean
}

/// How a repository folder is shown: from the working directory when inside it.
pub fn shown(folder: &Path) -> String {
    let cwd = std::env::current_dir().map(|d| absolute(&d)).ok();
    match cwd.as_deref().and_then(|cwd| folder.strip_prefix(cwd).ok()) {
        Some(relative) if relative.as_os_str().is_empty() => ".".to_string(),
        Some(relative) => relative.display().to_string(),
        None => folder.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_and_spec_are_apart_from_code() {
        assert_eq!(Part::of(Path::new("ntp/manifests/init.pp")), Part::Code);
        assert_eq!(Part::of(Path::new("ntp/examples/init.pp")), Part::Examples);
        assert_eq!(Part::of(Path::new("ntp/tests/init.pp")), Part::Examples);
        assert_eq!(
            Part::of(Path::new("ntp/spec/fixtures/modules/x/manifests/a.pp")),
            Part::Spec
        );
        assert_eq!(Part::of(Path::new("manifests/site.pp")), Part::Code);
        assert_eq!(Part::of(Path::new("ntp/manifests/tests/a.pp")), Part::Code);
        // The file's own name is no folder.
        assert_eq!(Part::of(Path::new("spec")), Part::Code);
    }

    #[test]
    fn the_repository_is_the_innermost_git_folder_under_the_root() {
        let estate = tempfile::tempdir().unwrap();
        let root = estate.path();
        for repo in ["a", "b"] {
            std::fs::create_dir_all(root.join(repo).join(".git")).unwrap();
            std::fs::create_dir_all(root.join(repo).join("site/profile/manifests")).unwrap();
        }
        std::fs::create_dir_all(root.join("loose/manifests")).unwrap();
        let mut repositories = Repositories::new(&[root.to_path_buf()]);
        let a = repositories.of(&root.join("a/site/profile/manifests/base.pp"));
        let b = repositories.of(&root.join("b/site/profile/manifests/base.pp"));
        assert_eq!(a, absolute(&root.join("a")));
        assert_eq!(b, absolute(&root.join("b")));
        assert_eq!(
            repositories.of(&root.join("loose/manifests/init.pp")),
            absolute(root)
        );
        // A `.git` above the root given is not looked at: the root is the repository.
        let mut inner = Repositories::new(&[root.join("a/site")]);
        assert_eq!(
            inner.of(&root.join("a/site/profile/manifests/base.pp")),
            absolute(&root.join("a/site"))
        );
    }
}
