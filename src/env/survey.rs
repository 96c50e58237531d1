//! What pupcheck finds of the world a path lives in (`pupcheck env`): the environment
//! root and why, the main manifest, the modulepath with each folder's presence, the
//! modules found, the modules a `Puppetfile` names that no folder of the modulepath
//! holds, and the Hiera files each layer reads. Every check of the path sees this.

use super::{discover, Environment};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The world of one path, as a check of it sees it.
#[derive(Debug, Serialize)]
pub struct Survey {
    /// The path asked about.
    pub path: PathBuf,
    /// The environment's folder and why it is one; `None`: the path is in no
    /// environment (modules side by side share one index, without Hiera of their own).
    pub root: Option<Root>,
    /// Each folder of the modulepath, first first, and whether it is there.
    pub modulepath: Vec<Folder>,
    /// The modules found on it, by name.
    pub modules: Vec<(String, PathBuf)>,
    /// Whether pupcheck sees every module of the environment (closed), why, and the
    /// modules the repository names (its `Puppetfile`, `.fixtures.yml`, the modules'
    /// `metadata.json`) that no folder of the modulepath holds.
    pub closure: super::Closure,
    pub hiera: HieraLayers,
}

#[derive(Debug, Serialize)]
pub struct Root {
    pub folder: PathBuf,
    pub why: &'static str,
    /// The main manifest Puppet reads (`environment.conf`'s `manifest`, else
    /// `manifests/`), and whether it is there.
    pub main_manifest: Folder,
    /// The `modulepath` line of its `environment.conf`, as written, when it has one.
    pub configured_modulepath: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Folder {
    pub path: PathBuf,
    pub present: bool,
}

/// The Hiera files the layers read.
#[derive(Debug, Serialize)]
pub struct HieraLayers {
    /// The environment layer's `hiera.yaml`, when it has one.
    pub environment_config: Option<PathBuf>,
    /// The data files its levels name that are there.
    pub environment_data: Vec<PathBuf>,
    /// Its levels, in the order Hiera looks in them, with the files each names.
    pub environment_levels: Vec<crate::hiera::LevelSurvey>,
    /// The data folders its levels name that the repository does not hold (data kept
    /// elsewhere: the layer is not read whole).
    pub missing_datadirs: Vec<PathBuf>,
    /// Whether every level was read whole (`None`: no environment layer); when not, a
    /// key no file binds may still be bound (data kept elsewhere, another backend, a
    /// file pupcheck cannot read), and no missing key is reported.
    pub environment_whole: Option<bool>,
    /// Whether the global layer was read whole (unconfigured, it is taken as empty).
    pub global_whole: bool,
    /// The modules with a data layer, and how many data files each has.
    pub modules: Vec<(String, usize)>,
}

impl Survey {
    /// The world of `path` (a file or a folder), with `modulepath` (`--modulepath`)
    /// first.
    /// `hiera_global` and `declared` are what the path's `pupcheck.toml` says
    /// (`hiera-global`, `environment`).
    pub fn of(
        path: &Path,
        modulepath: &[PathBuf],
        hiera_global: Option<PathBuf>,
        declared: Option<super::DeclaredWorld>,
    ) -> Survey {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        // A folder stands for the files in it.
        let standing = if absolute.is_dir() {
            absolute.join("x.pp")
        } else {
            absolute.clone()
        };
        let folder = discover::environment_root(&standing);
        // The files a check of the folder reads decide its modulepath (a module's root
        // is seen through its manifests, as `check` sees it), not a name in the folder.
        let mut checked = vec![standing.clone()];
        if absolute.is_dir() {
            let (found, _) = crate::source::walk::find_files(std::slice::from_ref(&absolute));
            checked.extend(found.into_iter().map(|file| file.path));
        }
        let mut env = Environment::build([], &[])
            .with_root(folder.clone())
            .with_modulepaths_for(&checked, modulepath);
        env.set_hiera_global(hiera_global);
        env.set_declared_world(declared);
        let folders = discover::modulepaths(&checked, modulepath);
        let modules = env.modules();
        let root = folder.as_ref().map(|folder| Root {
            why: discover::why_environment_root(folder).unwrap_or("it holds the path"),
            main_manifest: present(super::top_scope::main_manifest(folder)),
            configured_modulepath: configured_modulepath(folder),
            folder: folder.clone(),
        });
        let hiera = env.hiera();
        let mut module_data: Vec<(String, usize)> = Vec::new();
        for file in &hiera.data {
            if let Some(module) = &file.module {
                match module_data.iter_mut().find(|(m, _)| m == module) {
                    Some((_, n)) => *n += 1,
                    None => module_data.push((module.clone(), 1)),
                }
            }
        }
        let hiera = HieraLayers {
            environment_config: folder
                .as_ref()
                .map(|f| f.join("hiera.yaml"))
                .filter(|c| hiera.configs.iter().any(|f| &f.path == c)),
            environment_data: hiera
                .data
                .iter()
                .filter(|f| f.module.is_none())
                .map(|f| f.path.clone())
                .collect(),
            environment_levels: hiera
                .levels
                .iter()
                .filter(|level| level.module.is_none())
                .cloned()
                .collect(),
            missing_datadirs: {
                let mut missing: Vec<PathBuf> = Vec::new();
                for dir in hiera.environment_datadirs() {
                    if !dir.is_dir() && !missing.contains(dir) {
                        missing.push(dir.clone());
                    }
                }
                missing
            },
            environment_whole: hiera.environment_layer_whole(),
            global_whole: hiera.global_layer_whole(),
            modules: module_data,
        };
        Survey {
            path: path.to_path_buf(),
            root,
            modulepath: folders.into_iter().map(present).collect(),
            modules,
            closure: env.closure().clone(),
            hiera,
        }
    }
}

fn present(path: PathBuf) -> Folder {
    Folder {
        present: path.exists(),
        path,
    }
}

/// The `modulepath` value of the `environment.conf` in `root`, as written.
pub(crate) fn configured_modulepath(root: &Path) -> Option<String> {
    configured(root, "modulepath")
}

/// The value `environment.conf` in `root` gives the setting `name`, as written.
pub(crate) fn configured(root: &Path, name: &str) -> Option<String> {
    let text = crate::source::read::read_text(
        &root.join("environment.conf"),
        crate::source::read::SMALL_FILE_LIMIT,
    )
    .ok()?;
    text.lines().find_map(|l| {
        let (key, value) = l.split_once('=')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

/// The names of the modules a `Puppetfile` in `root` declares (`mod 'puppetlabs/apache'`,
/// `mod 'puppetlabs-apache', '5.0.0'`, `mod 'apache', :git => ...`): the part after
/// the author.
pub fn puppetfile_modules(root: &Path) -> Vec<String> {
    let Ok(text) = crate::source::read::read_text(
        &root.join("Puppetfile"),
        crate::source::read::SMALL_FILE_LIMIT,
    ) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("mod") else {
            continue;
        };
        let rest = rest.trim_start_matches([' ', '\t', '(']);
        let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
            continue;
        };
        let Some(name) = rest[1..].split(quote).next() else {
            continue;
        };
        let name = name.rsplit(['/', '-']).next().unwrap_or(name).to_string();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puppetfile_names_its_modules_after_their_authors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Puppetfile"),
            "forge 'https://forge.puppet.com'\nmod 'puppetlabs/stdlib', '9.0.0'\n\
             mod \"puppetlabs-apache\"\nmod 'site_ntp',\n  :git => 'https://example.com/ntp.git'\n\
             # mod 'commented/out'\nmoduledir 'modules'\n",
        )
        .unwrap();
        assert_eq!(
            puppetfile_modules(dir.path()),
            ["stdlib", "apache", "site_ntp"]
        );
    }
}
