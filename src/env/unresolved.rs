//! Names that resolve nowhere: a class, defined or resource type, or function that no
//! file of the run, no module on the modulepath and nothing of Puppet's own defines.
//! Whether Puppet then certainly fails depends on whether the environment is closed
//! ([`super::closure`]): in a closed one it does; in an open one the name may come from
//! what pupcheck was not shown, and the answer says what that is.

use super::closure::{may_be_puppet_enterprise, Closure};
use super::{definition_key, loader, Environment, Table};
use crate::ast::names;

/// A name no definition pupcheck sees answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// Puppet certainly finds none: the name's module is there without it.
    Certain,
    /// Puppet finds none in this environment, which is closed: certain for the
    /// environment's own code, which runs with what it holds.
    Closed,
    /// Something pupcheck was not shown may define it: what, and how to show it.
    Uncertain(String),
}

impl Environment {
    /// Whether `environment = "closed"` or `"open"` (`pupcheck.toml`) was declared for
    /// this environment, before [`closure`](Self::closure) is first asked.
    pub fn set_declared_world(&mut self, declared: Option<super::DeclaredWorld>) {
        self.declared_world = declared;
    }

    /// Whether `pupcheck.toml` declares the environment open: something outside the
    /// repository (a node classifier, the global Hiera layer, modules) may give what
    /// the repository lacks, so what depends on the world is only a warning.
    pub fn declared_open(&self) -> bool {
        self.declared_world == Some(super::DeclaredWorld::Open)
    }

    /// Whether the names `file` uses are judged against what the environment holds
    /// ([`Unresolved::Closed`], [`Unresolved::Uncertain`]): not in the code of a module
    /// the repository installs from elsewhere (its `Puppetfile`, `.fixtures.yml`), whose
    /// optional integrations name modules the repository need not have, nor in
    /// `examples/` (and a module's `tests/`, its name before the PDK), which run
    /// wherever their reader compiles them.
    pub fn judges_unseen_names_in(&self, file: &std::path::Path) -> bool {
        let Some(root) = self.root.as_deref() else {
            return false;
        };
        let Ok(file) = std::path::absolute(file) else {
            return false;
        };
        let relative = file.strip_prefix(root).unwrap_or(&file);
        let smoke_tests = relative.ancestors().any(|folder| {
            folder.file_name() == Some("tests".as_ref())
                && folder
                    .parent()
                    .is_some_and(|module| root.join(module).join("manifests").is_dir())
        });
        if smoke_tests || relative.components().any(|c| c.as_os_str() == "examples") {
            return false;
        }
        let closure = self.closure();
        !self.modules().iter().any(|(name, module_root)| {
            module_root.as_path() != root
                && file.starts_with(module_root)
                && closure.installed.iter().any(|n| n == name)
        })
    }

    /// Whether pupcheck sees every module of the environment, decided on first use.
    pub fn closure(&self) -> &Closure {
        self.closure
            .get_or_init(|| Closure::of(self.root.as_deref(), self.declared_world, &self.modules()))
    }

    /// The class `name` when nothing defines it (`None`: found, or not judged).
    pub fn unresolved_class(&self, name: &str) -> Option<Unresolved> {
        if self.class_certainly_missing(name) {
            return Some(Unresolved::Certain);
        }
        let key = definition_key(name);
        let module = key.split("::").next().unwrap_or_default();
        if self.has_module(module)
            || self.class(&key).is_some()
            || self.is_ambiguous(Table::Class, &key)
        {
            return None;
        }
        self.unresolved_in(&key, |main| main.classes.contains_key(&key))
    }

    /// The resource type `name` (a declaration's type, lowercase or not) when nothing
    /// defines it: not Puppet's, not a defined type, not a module's type written in
    /// Ruby.
    pub fn unresolved_resource_type(&self, name: &str) -> Option<Unresolved> {
        let key = definition_key(name);
        if key == "class"
            || crate::builtin::resource_type_exists(&key)
            || self.define(&key).is_some()
            || self.is_ambiguous(Table::Define, &key)
            // (A class declared as a resource is another error.)
            || self.class(&key).is_some()
        {
            return None;
        }
        let loader = self.loader.as_ref()?;
        let in_main = |main: &Environment| main.defines.contains_key(&key);
        if names::is_qualified(&key) {
            let module = key.split("::").next().unwrap_or_default();
            if loader.has_module(module) {
                // Certain when every file the autoloader reads for it was read whole
                // without it.
                let searched = loader.manifests_searched_for(&key)?;
                let certain = searched.iter().all(|file| !file.defines.contains_key(&key))
                    && self.main_manifest_lacks(in_main);
                return certain.then_some(Unresolved::Certain);
            }
            return self.unresolved_in(&key, in_main);
        }
        if !loader::is_plain_name(&key)
            || loader.any_module_has(&format!("lib/puppet/type/{key}.rb"))
        {
            return None;
        }
        self.unresolved_in(&key, in_main)
    }

    /// The function `name` when nothing defines it: not Puppet's, not written in
    /// Puppet in the run or a module, not in a module's `lib/puppet/functions` or
    /// (3.x) `lib/puppet/parser/functions`.
    pub fn unresolved_function(&self, name: &str) -> Option<Unresolved> {
        if self.function_certainly_missing(name) {
            return Some(Unresolved::Certain);
        }
        let key = definition_key(name);
        if crate::builtin::functions::exists(&key)
            || crate::builtin::functions::from_server_gem(&key)
            || key.starts_with("environment::")
            || self.function(&key).is_some()
            || self.is_ambiguous(Table::Function, &key)
        {
            return None;
        }
        let loader = self.loader.as_ref()?;
        if names::is_qualified(&key) {
            let module = key.split("::").next().unwrap_or_default();
            if loader.has_module(module) {
                return None;
            }
            return self.unresolved_in(&key, |main| main.functions.contains_key(&key));
        }
        if !loader::is_plain_name(&key)
            || loader.any_module_has(&format!("lib/puppet/functions/{key}.rb"))
            || loader.any_module_has(&format!("lib/puppet/parser/functions/{key}.rb"))
        {
            return None;
        }
        self.unresolved_in(&key, |main| main.functions.contains_key(&key))
    }

    /// What to say of a name of `module` (`None`: a name of no module) that neither the
    /// run nor the modules define, when the main manifest does not either (`defines`
    /// asks it).
    fn unresolved_in(
        &self,
        key: &str,
        defines: impl Fn(&Environment) -> bool,
    ) -> Option<Unresolved> {
        self.root.as_ref()?;
        // (A plain name's first segment is the name: `pe_build_version`.)
        let first = key.split("::").next().unwrap_or_default();
        if may_be_puppet_enterprise(first) {
            return None;
        }
        let module = names::is_qualified(key).then_some(first);
        if !self.main_manifest_lacks(defines) {
            return None;
        }
        Some(match self.closure().why_open(module) {
            None => Unresolved::Closed,
            Some(why) => Unresolved::Uncertain(why),
        })
    }

    /// Whether the environment's main manifest, read whole, does not define what
    /// `defines` asks (false when a file of it could not be read whole).
    fn main_manifest_lacks(&self, defines: impl Fn(&Environment) -> bool) -> bool {
        let Some(root) = self.root.as_deref() else {
            return true;
        };
        let main = self
            .main_manifest
            .get_or_init(|| super::top_scope::MainManifest::read(root));
        main.whole && !defines(&main.index)
    }
}
