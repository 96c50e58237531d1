//! Whether an environment is *closed*: pupcheck sees every module Puppet would load for
//! it, so a name that resolves nowhere is an error Puppet raises, not a module pupcheck
//! was not shown (docs/certainty.md). Decided from evidence, or by `environment =
//! "closed"` / `"open"` in `pupcheck.toml`; either way a module that the repository
//! itself names and that is not there keeps the environment open, and the findings it
//! would have made are warnings saying what to install.

use serde::Serialize;
use std::path::{Path, PathBuf};

/// What `pupcheck.toml` declares of the environment (`environment = "closed"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredWorld {
    /// Nothing outside the repository holds a module its code uses ($basemodulepath,
    /// modules installed by other means than its `Puppetfile`).
    Closed,
    /// Something outside the repository may: names that resolve nowhere only warn.
    Open,
}

/// Whether pupcheck sees every module of an environment, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Closure {
    pub closed: bool,
    /// Why it is closed, or what keeps it open and how to close it (a sentence each).
    pub reasons: Vec<String>,
    /// The modules the repository names that no folder of the modulepath holds.
    pub missing: Vec<MissingModule>,
    /// The modules the repository installs from elsewhere (its `Puppetfile`'s and
    /// `.fixtures.yml`'s), present or not.
    pub installed: Vec<String>,
}

/// A module something names that is not installed, or not at a version it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingModule {
    pub name: String,
    /// What names it: "the Puppetfile", "the .fixtures.yml", "the metadata.json of 'x'".
    pub named_by: String,
    /// The version installed and the requirement it does not meet (`None`: not
    /// installed at all).
    pub wrong_version: Option<(String, String)>,
}

impl MissingModule {
    /// What to tell a user whose code names the module.
    pub fn advice(&self) -> String {
        if let Some((installed, wanted)) = &self.wrong_version {
            return format!(
                "module '{}' {installed} is installed, and {} asks for '{wanted}'",
                self.name, self.named_by
            );
        }
        let how = if self.named_by == "the Puppetfile" {
            "run `r10k puppetfile install` or pass --modulepath"
        } else if self.named_by == "the .fixtures.yml" {
            "run `rake spec_prep` or pass --modulepath"
        } else {
            "install it or pass --modulepath"
        };
        format!(
            "module '{}' named in {} is not installed: {how}",
            self.name, self.named_by
        )
    }
}

impl Closure {
    /// The closure of the environment whose folder is `root` (a control repository or a
    /// module's repository), with the modules the loader found on its modulepath.
    pub fn of(
        root: Option<&Path>,
        declared: Option<DeclaredWorld>,
        modules: &[(String, PathBuf)],
    ) -> Closure {
        let Some(root) = root else {
            return Closure::open(
                "the files are in no environment or module repository: what Puppet loads \
                 with them is not known",
            );
        };
        let present = |name: &str| modules.iter().any(|(m, _)| m == name);
        let mut missing: Vec<MissingModule> = Vec::new();
        let note = |name: String, named_by: String, missing: &mut Vec<MissingModule>| {
            if !present(&name) && !missing.iter().any(|m| m.name == name) {
                missing.push(MissingModule {
                    name,
                    named_by,
                    wrong_version: None,
                });
            }
        };
        let control = super::discover::is_control_repository(root);
        let puppetfile = root.join("Puppetfile").is_file();
        // What the repository installs from elsewhere.
        let mut installed = super::survey::puppetfile_modules(root);
        for name in &installed {
            note(name.clone(), "the Puppetfile".into(), &mut missing);
        }
        let fixtures = fixture_modules(root);
        for name in fixtures.iter().flatten() {
            note(name.clone(), "the .fixtures.yml".into(), &mut missing);
        }
        installed.extend(fixtures.iter().flatten().cloned());
        // What the modules the environment uses depend on is installed with them: those
        // it installs, those in the repository (its own module too), and theirs in
        // turn; not every module another folder of the modulepath happens to hold.
        let own = (!control)
            .then(|| {
                let dependencies = Metadata::of(root)?.dependencies?;
                Some(("this module".to_string(), dependencies))
            })
            .flatten();
        let mut used: Vec<&str> = modules
            .iter()
            .filter(|(name, path)| installed.contains(name) || path.starts_with(root))
            .map(|(name, _)| name.as_str())
            .collect();
        let mut pending = own.into_iter().collect::<Vec<_>>();
        let mut next = 0;
        loop {
            for (of, dependencies) in pending.drain(..) {
                for (name, requirement) in dependencies {
                    let named_by = format!("the metadata.json of {of}");
                    if let Some((present, path)) = modules.iter().find(|(m, _)| *m == name) {
                        if !used.contains(&present.as_str()) {
                            used.push(present);
                        }
                        // A version it does not accept may lack what it uses.
                        let version = Metadata::of(path).and_then(|m| m.version);
                        if let Some((installed, wanted)) = unmet(version, requirement) {
                            if !missing.iter().any(|m| m.name == name) {
                                missing.push(MissingModule {
                                    name,
                                    named_by,
                                    wrong_version: Some((installed, wanted)),
                                });
                            }
                        }
                        continue;
                    }
                    note(name, named_by, &mut missing);
                }
            }
            let Some(name) = used.get(next) else {
                break;
            };
            next += 1;
            let path = &modules
                .iter()
                .find(|(m, _)| m == name)
                .expect("a module found")
                .1;
            if let Some(dependencies) = Metadata::of(path).and_then(|m| m.dependencies) {
                pending.push((format!("'{name}'"), dependencies));
            }
        }
        let mut closure = match declared {
            Some(DeclaredWorld::Open) => {
                Closure::open("pupcheck.toml declares the environment open")
            }
            Some(DeclaredWorld::Closed) => {
                Closure::closed("pupcheck.toml declares the environment closed")
            }
            None if control && puppetfile => {
                match folder_outside(root).or_else(|| manifest_outside(root)) {
                    Some(why) => Closure::open(&format!(
                    "{why}: declare `environment = \"closed\"` in pupcheck.toml if it holds no \
                     module the code uses"
                )),
                    None => Closure::closed("every module its Puppetfile names is installed"),
                }
            }
            None if control => Closure::open(
                "no Puppetfile names the modules it uses: declare `environment = \"closed\"` \
                 in pupcheck.toml if every one is in the repository",
            ),
            None if fixtures.is_some() => {
                Closure::closed("every module its .fixtures.yml names is installed")
            }
            None => Closure::open(
                "no Puppetfile or .fixtures.yml names the modules it is compiled with: \
                 declare `environment = \"closed\"` in pupcheck.toml to judge names",
            ),
        };
        // A module that is not there keeps any environment open. One at a version its
        // dependent does not accept is there: it keeps open only an environment closed
        // by pupcheck's own judgement, not one the user declared closed.
        let opens = |m: &MissingModule| {
            m.wrong_version.is_none() || declared != Some(DeclaredWorld::Closed)
        };
        if missing.iter().any(opens) {
            let mut reasons: Vec<String> = missing.iter().map(MissingModule::advice).collect();
            // What else keeps it open stays said (`$basemodulepath`), so that installing
            // the modules is not the last step a user is told of.
            if !closure.closed {
                reasons.extend(closure.reasons);
            }
            closure.closed = false;
            closure.reasons = reasons;
        } else if !missing.is_empty() {
            closure
                .reasons
                .extend(missing.iter().map(MissingModule::advice));
        }
        closure.missing = missing;
        closure.installed = installed;
        closure
    }

    fn open(why: &str) -> Closure {
        Closure {
            closed: false,
            reasons: vec![why.to_string()],
            missing: Vec::new(),
            installed: Vec::new(),
        }
    }

    fn closed(why: &str) -> Closure {
        Closure {
            closed: true,
            ..Closure::open(why)
        }
    }

    /// Why a name of the module `module` (or of no module, `None`) is not certainly
    /// missing: the module is named but not installed, else the first reason the
    /// environment is open. `None` when the environment is closed.
    pub fn why_open(&self, module: Option<&str>) -> Option<String> {
        if self.closed {
            return None;
        }
        if let Some(missing) = module.and_then(|m| self.missing.iter().find(|x| x.name == m)) {
            return Some(missing.advice());
        }
        let open = self.why_open_at_all();
        Some(match module {
            Some(module) => format!("no module '{module}' is on the modulepath, and {open}"),
            None => open,
        })
    }

    /// What keeps the environment open, in a sentence.
    fn why_open_at_all(&self) -> String {
        match self.missing.as_slice() {
            [] => self.reasons.first().cloned().unwrap_or_default(),
            [one] => one.advice(),
            [first, ..] => {
                let mut names: Vec<&str> = self.missing.iter().map(|m| m.name.as_str()).collect();
                names.sort_unstable();
                let shown = names
                    .iter()
                    .take(5)
                    .copied()
                    .collect::<Vec<_>>()
                    .join("', '");
                let more = if names.len() > 5 { ", ..." } else { "" };
                let what = if self.missing.iter().any(|m| m.wrong_version.is_some()) {
                    "are not installed, or not at a version asked for"
                } else {
                    "are not installed"
                };
                format!(
                    "{} modules named in the repository {what} ('{shown}'{more}); the first: {}",
                    names.len(),
                    first.advice()
                )
            }
        }
    }
}

/// What of the modulepath of the environment at `root` lies outside the repository, said
/// as a reason: `$basemodulepath` (Puppet's default modulepath, `modules:$basemodulepath`,
/// has it; Puppet Enterprise keeps its modules there, and some install modules there by
/// hand), another setting, or a folder outside. `None`: every folder is the repository's.
fn folder_outside(root: &Path) -> Option<String> {
    let Some(line) = super::survey::configured_modulepath(root) else {
        return Some(
            "it has no environment.conf, so Puppet's modulepath for it is the default, \
             `modules:$basemodulepath`, and $basemodulepath is outside the repository \
             (the folders pupcheck reads modules from are its own choice)"
                .into(),
        );
    };
    let line = line.trim_matches(|c| c == '"' || c == '\'');
    line.split(':').find_map(|entry| {
        let outside = entry.contains('$')
            || (Path::new(entry).is_absolute() && !Path::new(entry).starts_with(root))
            || entry.split('/').any(|part| part == "..");
        outside.then(|| format!("its modulepath names `{entry}`, outside the repository"))
    })
}

/// The main manifest `environment.conf` names outside the repository, said as a
/// reason: its top-scope code and definitions are not seen.
fn manifest_outside(root: &Path) -> Option<String> {
    let line = super::survey::configured(root, "manifest")?;
    let entry = line.trim_matches(|c| c == '"' || c == '\'');
    let outside = entry.contains('$')
        || (Path::new(entry).is_absolute() && !Path::new(entry).starts_with(root))
        || entry.split('/').any(|part| part == "..");
    outside.then(|| format!("its main manifest is `{entry}`, outside the repository"))
}

/// What a module's `metadata.json` says of its version and its dependencies (by module
/// name, with the version requirement each states, as written; `None` without a list).
pub(super) struct Metadata {
    pub version: Option<String>,
    pub dependencies: Option<Vec<(String, Option<String>)>>,
}

impl Metadata {
    pub fn of(root: &Path) -> Option<Metadata> {
        let text = crate::source::read::read_text(
            &root.join("metadata.json"),
            crate::source::read::SMALL_FILE_LIMIT,
        )
        .ok()?;
        let metadata: serde_json::Value = serde_json::from_str(&text).ok()?;
        // (Every entry must name a module: else the list is not read.)
        let dependencies = metadata
            .get("dependencies")
            .and_then(|d| d.as_array())
            .and_then(|list| {
                list.iter()
                    .map(|d| {
                        let full = d.get("name")?.as_str()?;
                        let name = full.rsplit(['/', '-']).next()?.to_ascii_lowercase();
                        let requirement = d
                            .get("version_requirement")
                            .and_then(|r| r.as_str())
                            .map(str::to_string);
                        Some((name, requirement))
                    })
                    .collect()
            });
        Some(Metadata {
            version: metadata
                .get("version")
                .and_then(|v| v.as_str())
                .map(str::to_string),
            dependencies,
        })
    }
}

/// The installed version and the requirement, when `version` certainly does not meet
/// `requirement` (a Forge requirement: `>= 4.13.1 < 10.0.0`, `4.x`); `None` when it
/// does or either cannot be read.
fn unmet(version: Option<String>, requirement: Option<String>) -> Option<(String, String)> {
    let (version, requirement) = (version?, requirement?);
    let parsed = semver::Version::parse(version.trim()).ok()?;
    // The Forge writes comparators apart with blanks (`>= 1.0.0 < 2.0.0`); semver joins
    // them with commas and the operator to the version.
    let operators = regex::Regex::new(r"(>=|<=|>|<|=|~|\^)?\s*([0-9xX*][0-9xX*.]*)").ok()?;
    let comparators: Vec<String> = operators
        .captures_iter(&requirement)
        .map(|c| format!("{}{}", c.get(1).map_or("", |o| o.as_str()), &c[2]))
        .collect();
    let wanted = semver::VersionReq::parse(&comparators.join(", ")).ok()?;
    (!wanted.matches(&parsed)).then_some((version, requirement))
}

/// The modules a module repository's `.fixtures.yml` installs for its tests
/// (`fixtures:` `forge_modules`, `repositories`, `symlinks`, by their keys); `None`
/// when it has none, or one that cannot be read as such. A key that is no module's
/// name (`../acceptance/data`: a checkout the tests put beside the modules) is not one.
pub fn fixture_modules(root: &Path) -> Option<Vec<String>> {
    let text = crate::source::read::read_text(
        &root.join(".fixtures.yml"),
        crate::source::read::SMALL_FILE_LIMIT,
    )
    .ok()?;
    let documents = yaml_rust2::YamlLoader::load_from_str(&text).ok()?;
    let fixtures = &documents.first()?["fixtures"];
    let fixtures = fixtures.as_hash()?;
    let mut names = Vec::new();
    for (kind, entries) in fixtures {
        if !matches!(
            kind.as_str(),
            Some("forge_modules" | "repositories" | "symlinks")
        ) {
            continue;
        }
        // `~` or an empty section holds nothing.
        let Some(entries) = entries.as_hash() else {
            continue;
        };
        for name in entries.keys() {
            let name = name.as_str()?.to_ascii_lowercase();
            if super::loader::is_valid_module_name(&name) {
                names.push(name);
            }
        }
    }
    Some(names)
}

/// Where a module repository's tests install the modules of its `.fixtures.yml`.
pub fn fixtures_folder(root: &Path) -> PathBuf {
    root.join("spec/fixtures/modules")
}

/// Whether a name whose first segment is `name` (a module's, or a plain name itself)
/// may come from Puppet Enterprise's own modules, which it installs in
/// `$basemodulepath` outside every repository (`puppet_enterprise::...`, `pe_*`, their
/// types and functions `pe_ini_setting`, `pe_build_version`): never taken as missing.
pub fn may_be_puppet_enterprise(name: &str) -> bool {
    name == "puppet_enterprise" || name.starts_with("pe_")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn modules(names: &[&str]) -> Vec<(String, PathBuf)> {
        names
            .iter()
            .map(|n| (n.to_string(), PathBuf::from(format!("/m/{n}"))))
            .collect()
    }

    #[test]
    fn a_control_repository_is_closed_when_its_puppetfile_is_installed() {
        let dir = tree(&[
            (
                "Puppetfile",
                "mod 'puppetlabs/stdlib'\nmod 'puppetlabs-apache'\n",
            ),
            ("environment.conf", "modulepath = site:modules\n"),
        ]);
        let closure = Closure::of(Some(dir.path()), None, &modules(&["stdlib", "apache"]));
        assert!(closure.closed, "{closure:?}");
        // $basemodulepath may hold modules the code uses.
        std::fs::write(
            dir.path().join("environment.conf"),
            "modulepath = site:modules:$basemodulepath\n",
        )
        .unwrap();
        let closure = Closure::of(Some(dir.path()), None, &modules(&["stdlib", "apache"]));
        assert!(!closure.closed);
        assert!(
            closure.reasons[0].contains("`$basemodulepath`"),
            "{closure:?}"
        );
        std::fs::write(
            dir.path().join("environment.conf"),
            "modulepath = site:modules\n",
        )
        .unwrap();
        let closure = Closure::of(Some(dir.path()), None, &modules(&["stdlib"]));
        assert!(!closure.closed);
        assert_eq!(
            closure.why_open(Some("apache")).unwrap(),
            "module 'apache' named in the Puppetfile is not installed: run \
             `r10k puppetfile install` or pass --modulepath"
        );
        // A declaration does not close what the repository shows open.
        let declared = Closure::of(
            Some(dir.path()),
            Some(DeclaredWorld::Closed),
            &modules(&["stdlib"]),
        );
        assert!(!declared.closed);
        let declared = Closure::of(
            Some(dir.path()),
            Some(DeclaredWorld::Open),
            &modules(&["stdlib", "apache"]),
        );
        assert!(!declared.closed);
    }

    #[test]
    fn only_the_dependencies_of_modules_the_environment_uses_count() {
        let dir = tree(&[
            ("Puppetfile", "mod 'puppetlabs/apache'\n"),
            ("environment.conf", "modulepath = modules\n"),
            (
                "modules/apache/metadata.json",
                r#"{"name": "puppetlabs-apache", "dependencies": [{"name": "puppetlabs/concat"}]}"#,
            ),
        ]);
        // A module of another folder of the modulepath, which nothing uses.
        let elsewhere = tree(&[(
            "unused/metadata.json",
            r#"{"name": "acme-unused", "dependencies": [{"name": "acme/absent"}]}"#,
        )]);
        let at = |name: &str, folder: &str| (name.to_string(), dir.path().join(folder));
        let mut modules = vec![
            at("apache", "modules/apache"),
            ("unused".to_string(), elsewhere.path().join("unused")),
        ];
        let closure = Closure::of(Some(dir.path()), None, &modules);
        assert_eq!(closure.missing.len(), 1, "{closure:?}");
        assert_eq!(closure.missing[0].name, "concat");
        assert_eq!(closure.missing[0].named_by, "the metadata.json of 'apache'");
        modules.push(at("concat", "modules/concat"));
        assert!(Closure::of(Some(dir.path()), None, &modules).closed);
    }

    #[test]
    fn a_dependency_at_a_version_its_dependent_does_not_accept_keeps_it_open() {
        let meets = |v: &str, r: &str| unmet(Some(v.into()), Some(r.into())).is_none();
        assert!(meets("4.25.1", ">=3.2.0 <5.0.0"));
        assert!(!meets("9.7.0", ">=3.2.0 <5.0.0"));
        assert!(meets("9.7.0", ">= 4.13.1 < 10.0.0"));
        assert!(meets("4.2.0", "4.x"));
        assert!(!meets("5.0.0", "4.x"));
        assert!(
            meets("1.0.0", "no requirement semver reads"),
            "unreadable: not unmet"
        );
        let dir = tree(&[
            ("Puppetfile", "mod 'acme/bind'\n"),
            ("environment.conf", "modulepath = modules\n"),
            (
                "modules/bind/metadata.json",
                r#"{"name": "acme-bind", "dependencies": [{"name": "puppetlabs/stdlib", "version_requirement": ">=3.2.0 <5.0.0"}]}"#,
            ),
            (
                "modules/stdlib/metadata.json",
                r#"{"name": "puppetlabs-stdlib", "version": "9.7.0"}"#,
            ),
        ]);
        let at = |name: &str| (name.to_string(), dir.path().join("modules").join(name));
        let closure = Closure::of(Some(dir.path()), None, &[at("bind"), at("stdlib")]);
        assert!(!closure.closed);
        assert_eq!(
            closure.reasons[0],
            "module 'stdlib' 9.7.0 is installed, and the metadata.json of 'bind' asks for \
             '>=3.2.0 <5.0.0'"
        );
        // The module is there: a user who declares the environment closed is believed.
        let declared = Closure::of(
            Some(dir.path()),
            Some(DeclaredWorld::Closed),
            &[at("bind"), at("stdlib")],
        );
        assert!(declared.closed, "{declared:?}");
        assert_eq!(declared.reasons.len(), 2, "{declared:?}");
    }

    #[test]
    fn every_reason_that_keeps_it_open_is_said() {
        let dir = tree(&[
            ("Puppetfile", "mod 'puppetlabs/stdlib'\n"),
            (
                "environment.conf",
                "modulepath = site:modules:$basemodulepath\n",
            ),
        ]);
        let closure = Closure::of(Some(dir.path()), None, &[]);
        assert!(!closure.closed);
        assert_eq!(closure.reasons.len(), 2, "{closure:?}");
        assert!(closure.reasons[0].contains("'stdlib'"), "{closure:?}");
        assert!(
            closure.reasons[1].contains("`$basemodulepath`"),
            "{closure:?}"
        );
    }

    #[test]
    fn a_main_manifest_outside_the_repository_keeps_it_open() {
        let dir = tree(&[
            ("Puppetfile", ""),
            (
                "environment.conf",
                "modulepath = site:modules\nmanifest = /etc/puppet/manifests/\n",
            ),
        ]);
        let closure = Closure::of(Some(dir.path()), None, &[]);
        assert!(!closure.closed);
        assert!(
            closure.reasons[0].contains("main manifest is `/etc/puppet/manifests/`"),
            "{closure:?}"
        );
    }

    #[test]
    fn a_control_repository_without_a_puppetfile_is_closed_only_when_declared() {
        let dir = tree(&[("environment.conf", "modulepath = site:modules\n")]);
        assert!(!Closure::of(Some(dir.path()), None, &[]).closed);
        assert!(Closure::of(Some(dir.path()), Some(DeclaredWorld::Closed), &[]).closed);
        assert!(!Closure::of(None, Some(DeclaredWorld::Closed), &[]).closed);
    }

    #[test]
    fn a_module_repository_is_closed_by_its_installed_fixtures_and_dependencies() {
        let dir = tree(&[
            (
                ".fixtures.yml",
                "fixtures:\n  forge_modules:\n    stdlib: puppetlabs/stdlib\n  symlinks:\n    \
                 ntp: \"#{source_dir}\"\n  repositories:\n    \
                 \"../acceptance/skeleton\": https://example.com/skeleton.git\n",
            ),
            (
                "metadata.json",
                r#"{"name": "me-ntp", "dependencies": [{"name": "puppetlabs/concat"}]}"#,
            ),
        ]);
        assert_eq!(fixture_modules(dir.path()).unwrap(), ["stdlib", "ntp"]);
        let closure = Closure::of(Some(dir.path()), None, &modules(&["stdlib", "ntp"]));
        assert!(!closure.closed);
        assert_eq!(
            closure.missing[0].named_by,
            "the metadata.json of this module"
        );
        let closure = Closure::of(
            Some(dir.path()),
            None,
            &modules(&["stdlib", "ntp", "concat"]),
        );
        assert!(closure.closed, "{closure:?}");
    }
}
