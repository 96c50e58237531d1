//! Where the index looks for what the checked files do not define: a file inside a
//! module (under its `manifests/`, `types/` or `functions/` folder) makes the folder
//! holding that module a modulepath, as Puppet would have it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folders of a module whose `.pp` files define things Puppet autoloads.
const DEFINING_FOLDERS: &[&str] = &["manifests", "types", "functions", "templates"];

/// The module a file belongs to: the folder above its `manifests/`, `types/`,
/// `functions/` or `templates/` folder.
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

/// The module a data file belongs to: its `hiera.yaml` or `metadata.json` (the folder
/// holding it), or Hiera data under its `data/` folder, where that folder is a module
/// (it has `manifests/` or a `metadata.json`).
fn data_module_root(file: &Path) -> Option<&Path> {
    let is_module = |dir: &Path| {
        (dir.join("manifests").is_dir() || dir.join("metadata.json").is_file())
            && !is_control_repository(dir)
    };
    let folder = file.parent()?;
    if is_module(folder) {
        return Some(folder);
    }
    folder
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|n| n == "data"))
        .and_then(Path::parent)
        .filter(|root| is_module(root))
}

/// The module a checked file belongs to: a manifest's, template's or type alias's
/// (`module_root`), or a data file's (`data_module_root`).
pub fn checked_module_root(file: &Path) -> Option<&Path> {
    module_root(file).or_else(|| {
        crate::source::SourceKind::is_data_path(file)
            .then(|| data_module_root(file))
            .flatten()
    })
}

/// The modulepath an `environment.conf` sets (`modulepath = site:modules:$basemodulepath`),
/// its relative folders taken from the environment's folder; settings (`$...`) left out.
pub fn environment_conf_modulepath(environment: &Path) -> Option<Vec<PathBuf>> {
    let text = crate::source::read::read_text(
        &environment.join("environment.conf"),
        crate::source::read::SMALL_FILE_LIMIT,
    )
    .ok()?;
    let line = text.lines().find_map(|l| {
        let (key, value) = l.split_once('=')?;
        (key.trim() == "modulepath").then(|| value.trim().trim_matches(['"', '\'']).to_string())
    })?;
    Some(
        line.split(':')
            .map(str::trim)
            .filter(|p| !p.is_empty() && !p.starts_with('$'))
            .map(|p| environment.join(p))
            .collect(),
    )
}

/// The environment a file belongs to: the nearest folder above it with an
/// `environment.conf` or a `Puppetfile` (a control repository), or that is the root of
/// a Git repository (a module's or a control repository's own). Files of different
/// environments are compiled apart by Puppet, each with its own version of the modules
/// it uses, so a run over many repositories checks each against its own; files outside
/// any share one index (modules side by side, as on one modulepath).
pub fn environment_root(file: &Path) -> Option<PathBuf> {
    EnvironmentRoots::default().of(file)
}

/// `environment_root` for many files, each folder looked at once: the files of a run
/// share most of their ancestors.
#[derive(Default)]
pub struct EnvironmentRoots {
    /// The root each folder looked at is in (`None`: in none).
    by_folder: std::collections::HashMap<PathBuf, Option<PathBuf>>,
    /// Whether each folder [`EnvironmentRoots::look_at_folders_of`] was given is a root.
    looked_at: std::collections::HashMap<PathBuf, bool>,
}

impl EnvironmentRoots {
    pub fn of(&mut self, file: &Path) -> Option<PathBuf> {
        let file = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let folder = file.parent()?;
        self.of_folder(folder)
    }

    /// Tells, on every core, which of the folders of `files` are environment roots,
    /// before [`EnvironmentRoots::of`] is asked about those files (a file's own folder is
    /// the first it looks at: three system calls each, for the hundreds of folders of
    /// a run over many modules).
    pub fn look_at_folders_of(&mut self, files: &[&Path]) {
        use rayon::prelude::*;
        let looked_at: Vec<(PathBuf, bool)> = files
            .par_iter()
            .filter_map(|file| {
                let file = std::path::absolute(file).ok()?;
                let folder = file.parent()?;
                Some((folder.to_path_buf(), is_environment_root(folder)))
            })
            .collect();
        self.looked_at.extend(looked_at);
    }

    fn of_folder(&mut self, folder: &Path) -> Option<PathBuf> {
        // The folders below the first known one (or the top), nearest first.
        let mut unknown = Vec::new();
        let mut found = None;
        for dir in folder.ancestors() {
            if let Some(known) = self.by_folder.get(dir) {
                found = known.clone();
                break;
            }
            let is_root = match self.looked_at.get(dir) {
                Some(&is_root) => is_root,
                None => is_environment_root(dir),
            };
            if is_root {
                found = Some(dir.to_path_buf());
                unknown.push(dir);
                break;
            }
            unknown.push(dir);
        }
        for dir in unknown {
            self.by_folder.insert(dir.to_path_buf(), found.clone());
        }
        found
    }
}

/// What a folder holding `manifests/` (or another autoloaded folder) shows of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderEvidence {
    /// It holds a `metadata.json`, as a module does.
    pub module_metadata: bool,
    /// The module name its `metadata.json` gives (`ntp` for `puppetlabs-ntp`), where
    /// it differs from the folder's and the folder is a module repository checked as it
    /// is (a Git repository's root, no control repository above it): the name it is
    /// installed under, whatever its clone's folder is called. Elsewhere (in a control
    /// repository, a folder of modules) Puppet loads a module under its folder's name.
    pub metadata_name: Option<String>,
    /// It is a control repository: it holds an `environment.conf` or a `Puppetfile`.
    /// r10k deploys one as a folder named after its branch (`production`, a valid
    /// module name), and many carry a `metadata.json` for their tooling: its
    /// `manifests/` is the main manifest, never a module's.
    pub control_repository: bool,
}

impl FolderEvidence {
    pub fn of(dir: &Path) -> FolderEvidence {
        let metadata = dir.join("metadata.json");
        let module_metadata = metadata.is_file();
        let folder_name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let metadata_name = module_metadata
            .then(|| metadata_module_name(&metadata))
            .flatten()
            .filter(|name| name != folder_name)
            .filter(|_| {
                dir.join(".git").exists() && !dir.ancestors().skip(1).any(is_control_repository)
            });
        FolderEvidence {
            metadata_name,
            module_metadata,
            control_repository: is_control_repository(dir),
        }
    }
}

/// The module part of the `name` a `metadata.json` gives (`puppetlabs-ntp` and
/// `puppetlabs/ntp` are `ntp`), when it is a valid module name.
fn metadata_module_name(metadata: &Path) -> Option<String> {
    let text =
        crate::source::read::read_text(metadata, crate::source::read::SMALL_FILE_LIMIT).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let name = value.get("name")?.as_str()?;
    let module = name.rsplit(['-', '/']).next()?;
    let valid = module
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && module
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    valid.then(|| module.to_string())
}

/// Whether `dir` is a control repository (an environment's folder), from what it
/// holds: an `environment.conf` or a `Puppetfile`; or, as Puppet takes any folder of
/// its environments for one, a `hiera.yaml` with a main manifest (`site.pp`, or
/// `manifests/` holding `site.pp` or no `init.pp`) and no `metadata.json`, in a folder
/// that is not a modulepath's (`site/`, `modules/`, ...: a module of a control
/// repository without `metadata.json` looks the same).
pub fn is_control_repository(dir: &Path) -> bool {
    if dir.join("environment.conf").is_file() || dir.join("Puppetfile").is_file() {
        return true;
    }
    let in_modulepath_folder = dir
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .is_some_and(|n| CONTROL_REPO_MODULE_FOLDERS.contains(&n));
    let manifests = dir.join("manifests");
    let main_manifest = dir.join("site.pp").is_file()
        || manifests.join("site.pp").is_file()
        || (manifests.is_dir() && !manifests.join("init.pp").exists());
    main_manifest
        && !in_modulepath_folder
        && dir.join("hiera.yaml").is_file()
        && !dir.join("metadata.json").exists()
}

/// Why `dir` is an environment root, in words (`None`: it is none).
pub fn why_environment_root(dir: &Path) -> Option<&'static str> {
    if dir.join("environment.conf").is_file() {
        Some("it holds an environment.conf")
    } else if dir.join("Puppetfile").is_file() {
        Some("it holds a Puppetfile (a control repository)")
    } else if is_control_repository(dir) {
        Some("it holds a hiera.yaml and a main manifest, and no metadata.json")
    } else if dir.join(".git").exists() {
        Some("it is the root of a Git repository")
    } else {
        None
    }
}

fn is_environment_root(dir: &Path) -> bool {
    is_control_repository(dir)
        // A directory, or a file in a worktree or submodule.
        || dir.join(".git").exists()
}

/// Folders Puppet control repositories conventionally keep modules in, beside their
/// `Puppetfile`.
const CONTROL_REPO_MODULE_FOLDERS: &[&str] = &["site", "site-modules", "modules", "dist"];

/// The modulepath of the environment (control repository) a folder is in: the nearest
/// `environment.conf`'s, else the usual module folders of the nearest control repository.
fn environment_modulepath(dir: &Path) -> Vec<PathBuf> {
    for ancestor in dir.ancestors() {
        if let Some(paths) = environment_conf_modulepath(ancestor) {
            return paths;
        }
        if is_control_repository(ancestor) {
            return CONTROL_REPO_MODULE_FOLDERS
                .iter()
                .map(|f| ancestor.join(f))
                .filter(|p| p.is_dir())
                .collect();
        }
    }
    Vec::new()
}

/// Where to look for modules, first first: the folders of `modulepath` (`--modulepath`),
/// the modulepath of the environment each checked file is in, and the folder holding
/// each checked file's module, then the modules its `.fixtures.yml` installed
/// (`spec/fixtures/modules`). Without duplicates.
pub fn modulepaths(checked: &[PathBuf], modulepath: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths: indexmap::IndexSet<PathBuf> = modulepath.iter().cloned().collect();
    // One file per folder stands for the folder (many files share one), keeping what
    // kind of file it is.
    // Files are grouped by their folder as given before each folder is made absolute
    // and ordered: making a path absolute and comparing paths component by component
    // cost more than the rest of this, once per file of a large run.
    // (Keyed by the folder's bytes: hashing a `Path` walks its components.)
    let mut given_folders: indexmap::IndexMap<&std::ffi::OsStr, &PathBuf> = Default::default();
    for file in checked {
        given_folders
            .entry(file.parent().unwrap_or(Path::new("")).as_os_str())
            .or_insert(file);
    }
    let mut folders: std::collections::BTreeMap<PathBuf, PathBuf> = Default::default();
    for file in given_folders.into_values() {
        let file = std::path::absolute(file).unwrap_or_else(|_| file.clone());
        let Some(folder) = file.parent().map(Path::to_path_buf) else {
            continue;
        };
        let name = if crate::source::SourceKind::is_data_path(&file) {
            "x.yaml"
        } else {
            "x"
        };
        folders
            .entry(folder.clone())
            .or_insert_with(|| folder.join(name));
    }
    let mut environments_seen = BTreeSet::new();
    for (folder, standing) in &folders {
        let module = checked_module_root(standing)
            .map(Path::to_path_buf)
            .unwrap_or_else(|| folder.clone());
        if environments_seen.insert(module.clone()) {
            paths.extend(environment_modulepath(&module));
        }
        // A control repository's own `manifests/` (site.pp) is not a module's.
        if let Some(root) = checked_module_root(standing).filter(|r| !is_control_repository(r)) {
            if let Some(parent) = root.parent() {
                paths.insert(parent.to_path_buf());
            }
            // The modules its tests compile with (`.fixtures.yml`, once installed).
            let fixtures = super::closure::fixtures_folder(root);
            if fixtures.is_dir() {
                paths.insert(fixtures);
            }
        }
    }
    paths.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_repository_gives_its_environment_conf_modulepath() {
        let root = std::env::temp_dir().join(format!("pupcheck-env-{}", std::process::id()));
        let profile = root.join("site/profile/manifests");
        std::fs::create_dir_all(&profile).unwrap();
        std::fs::create_dir_all(root.join("modules/ntp/manifests")).unwrap();
        std::fs::write(
            root.join("environment.conf"),
            "modulepath = site:modules:$basemodulepath\n",
        )
        .unwrap();
        let found = modulepaths(&[profile.join("base.pp")], &[PathBuf::from("/extra")]);
        assert_eq!(
            found,
            vec![
                PathBuf::from("/extra"),
                root.join("site"),
                root.join("modules"),
            ]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
