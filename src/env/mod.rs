//! The environment index (design: "index"): what is defined where across the module
//! trees a run can see (classes, defined types, type aliases), so the check of one file
//! can read the definitions of others. Built once per run from parsed programs and then
//! only read, by every per-file check at once; it never evaluates anything.
//!
//! Two sources feed it: the programs of the run (every file checked, indexed up front)
//! and, for a name they do not define, the modulepaths around them, read the way
//! Puppet's autoloader reads them (`ntp::config` from `<ntp>/manifests/config.pp`,
//! `Stdlib::Port` from `<stdlib>/types/port.pp`), each file parsed once, when first
//! needed ([`Loader`]). Checking one file of a big control repository so parses only
//! the few files it names.
//!
//! The index is partial by nature: a node's real environment may hold modules pupcheck
//! was not shown. So a name it lacks is *unknown*, never "does not exist", and checks
//! judge nothing that depends on one.

pub mod closure;
mod discover;
mod loader;
mod memo;
mod scan;
pub mod survey;
pub(crate) mod symbols;
pub(crate) mod top_scope;
mod unresolved;

pub use closure::{Closure, DeclaredWorld};
pub use discover::{
    checked_module_root, environment_root, modulepaths, EnvironmentRoots, FolderEvidence,
};
pub use loader::Loader;
pub use scan::FolderScans;
pub use unresolved::Unresolved;

use crate::ast::names;
use crate::ast::{ExprKind, Parameter, Program};
use crate::source::SourceKind;
use crate::types::expr::TypeExpr;
use crate::types::from_ast::type_expr_from_ast;
use crate::types::resolve::AliasSource;
use foldhash::{HashMap, HashMapExt, HashSet};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A class or defined type: what a declaration of it is checked against.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Definition {
    /// Lowercase, without a leading `::` (`ntp::config`).
    pub name: String,
    /// `None` when the definition has no parameter list at all.
    pub params: Option<Vec<Parameter>>,
    pub path: PathBuf,
    /// A class's own variables: every name its body assigns, on any path (lambdas'
    /// variables are theirs). `None` for other definitions, and for a class whose body
    /// holds a syntax error (what it assigns is not all known).
    pub variables: Option<Vec<String>>,
    /// The class it inherits from (`class a inherits b`), lowercase.
    pub parent: Option<String>,
    /// A function's return type (`>> T`), when Puppet checks every value the function
    /// returns against it: not when its body may `return` early (Puppet 7 does not check
    /// the value given to `return`).
    pub checked_return: Option<crate::ast::Expr>,
}

impl Definition {
    pub fn param(&self, name: &str) -> Option<&Parameter> {
        self.params.iter().flatten().find(|p| p.name.name == name)
    }
}

/// An EPP template of a module, as `epp('mod/file.epp', ...)` finds it.
#[derive(Debug, Clone)]
pub struct EppTemplate {
    pub path: PathBuf,
    /// Its `<%- | ... | -%>` parameters; `None` without that tag (then it takes any
    /// variables it is given).
    pub parameters: Option<Vec<crate::ast::Parameter>>,
}

/// The variables a class body assigns (see [`Definition::variables`]).
pub(crate) fn assigned_variables(statements: &[crate::ast::Expr]) -> Option<Vec<String>> {
    use crate::ast::{Expr, Lambda, Visitor};
    struct Assigned(Vec<String>, bool);
    impl Assigned {
        fn targets(&mut self, target: &Expr) {
            match &target.kind {
                ExprKind::Variable(name) => self.0.push(names::without_top_scope(name).to_string()),
                ExprKind::Array(items) => items.iter().for_each(|item| self.targets(item)),
                _ => {}
            }
        }
    }
    impl<'p> Visitor<'p> for Assigned {
        fn visit_expr(&mut self, expr: &'p Expr) {
            match &expr.kind {
                ExprKind::Error => self.1 = true,
                ExprKind::Assignment { left, .. } => self.targets(left),
                // Nested definitions have scopes of their own.
                ExprKind::Class(_)
                | ExprKind::Define(_)
                | ExprKind::Function(_)
                | ExprKind::Node(_)
                | ExprKind::Plan(_) => return,
                _ => {}
            }
            crate::ast::walk_expr(self, expr);
        }
        fn visit_lambda(&mut self, _: &'p Lambda) {}
    }
    let mut assigned = Assigned(Vec::new(), false);
    for statement in statements {
        assigned.visit_expr(statement);
    }
    (!assigned.1).then_some(assigned.0)
}

/// The module names a module's `metadata.json` lists as dependencies; `None` when it
/// cannot be read.
fn declared_dependencies(root: &Path) -> Option<Vec<String>> {
    let dependencies = closure::Metadata::of(root)?.dependencies?;
    Some(dependencies.into_iter().map(|(name, _)| name).collect())
}

/// A module and the modules its `metadata.json` depends on (module names), with those
/// they depend on in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleDependencies {
    pub name: String,
    pub dependencies: Vec<String>,
}

/// What the index knows.
#[derive(Debug, Default)]
pub struct Environment {
    classes: HashMap<String, Arc<Definition>>,
    defines: HashMap<String, Arc<Definition>>,
    /// Functions written in Puppet (`function ntp::port(...) { }`).
    functions: HashMap<String, Arc<Definition>>,
    /// Type alias bodies by lowercase name, with the file defining them.
    aliases: HashMap<String, (TypeExpr, PathBuf)>,
    /// Where names the programs lack are looked for.
    loader: Option<Loader>,
    /// Names defined by more than one file of the run (`Table::key`): a run over many
    /// repositories or environments may hold several versions of a module, and which
    /// one a file is compiled with is not known, so the name is known to exist but its
    /// definition is not.
    ambiguous: HashSet<String>,
    /// The resource types (lowercase) whose attributes some code of the run sets apart
    /// from their declarations: a resource default (`Web::Vhost { port => 80 }`), an
    /// override of a reference (`Web::Vhost['a'] { ... }`) or of a collection
    /// (`Web::Vhost <| |> { ... }`); `*` when the type of one is not a plain name.
    /// What a declaration lacks may be given there (defaults are dynamically scoped).
    attributes_set_apart: HashSet<String>,
    /// The environment's folder (`None`: files in no environment, or an index built
    /// for one file).
    root: Option<PathBuf>,
    /// Its Hiera files and theirs of its modules, read on first use.
    hiera: std::sync::OnceLock<crate::hiera::Hiera>,
    /// The global Hiera layer's configuration, if the settings name one.
    hiera_global: Option<PathBuf>,
    /// What the text of its files says (classes declared with parameters, Hiera keys
    /// looked up by name), read on first use.
    scan: std::sync::OnceLock<scan::Scan>,
    /// The modules' custom and external facts, read on first use.
    fact_scan: std::sync::OnceLock<scan::Scan>,
    /// The folders searched for `scan` so far, shared with the run's other environments.
    folder_scans: std::sync::Arc<scan::FolderScans>,
    /// The dependencies of each module asked about, by its folder.
    dependencies: memo::Memo<PathBuf, Option<ModuleDependencies>>,
    /// What each folder above a `manifests/` asked about holds (every file of a module
    /// asks, `Environment::folder_evidence`).
    module_folders: memo::Memo<PathBuf, discover::FolderEvidence>,
    /// The resource types written in Ruby asked about, by name: each declaration asks,
    /// and finding one looks at every module's folders.
    resource_types: memo::Memo<String, Option<Arc<crate::builtin::resource_type::ResourceType>>>,
    /// The variables the run's files set at top scope and in node definitions.
    top_scope: top_scope::TopScopeVariables,
    /// The environment's main manifest (what it sets at top scope, what it defines),
    /// read on first use.
    main_manifest: std::sync::OnceLock<top_scope::MainManifest>,
    /// The files whose definitions' bodies were asked for (a declaration evaluated with
    /// the values it gives), parsed once each.
    definition_files: memo::Memo<PathBuf, Option<Arc<DefinitionFile>>>,
    /// What `pupcheck.toml` declares of the environment (`environment = "closed"`).
    declared_world: Option<DeclaredWorld>,
    /// Whether pupcheck sees every module of the environment, decided on first use.
    closure: std::sync::OnceLock<Closure>,
}

/// A file holding definitions, read and parsed for their bodies.
#[derive(Debug)]
pub struct DefinitionFile {
    pub source: Arc<crate::source::SourceFile>,
    pub program: Arc<Program>,
}

/// What one file gives the index, as the cache on disk keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct FileSummary {
    classes: Vec<Definition>,
    defines: Vec<Definition>,
    functions: Vec<Definition>,
    aliases: Vec<(String, TypeExpr, PathBuf)>,
    ambiguous: Vec<String>,
    attributes_set_apart: Vec<String>,
    top_scope: top_scope::TopScopeVariables,
    /// Whether the file parsed without syntax errors.
    complete: bool,
}

impl FileSummary {
    fn of(env: Environment, complete: bool) -> FileSummary {
        let definitions = |table: HashMap<String, Arc<Definition>>| {
            table
                .into_values()
                .map(Arc::unwrap_or_clone)
                .collect::<Vec<_>>()
        };
        FileSummary {
            classes: definitions(env.classes),
            defines: definitions(env.defines),
            functions: definitions(env.functions),
            aliases: env
                .aliases
                .into_iter()
                .map(|(name, (body, path))| (name, body, path))
                .collect(),
            ambiguous: env.ambiguous.into_iter().collect(),
            attributes_set_apart: env.attributes_set_apart.into_iter().collect(),
            top_scope: env.top_scope,
            complete,
        }
    }

    fn into_environment(self) -> (Environment, bool) {
        let definitions = |list: Vec<Definition>| {
            list.into_iter()
                .map(|d| (d.name.clone(), Arc::new(d)))
                .collect::<HashMap<_, _>>()
        };
        let env = Environment {
            classes: definitions(self.classes),
            defines: definitions(self.defines),
            functions: definitions(self.functions),
            aliases: self
                .aliases
                .into_iter()
                .map(|(name, body, path)| (name, (body, path)))
                .collect(),
            ambiguous: self.ambiguous.into_iter().collect(),
            attributes_set_apart: self.attributes_set_apart.into_iter().collect(),
            top_scope: self.top_scope,
            ..Environment::empty()
        };
        (env, self.complete)
    }
}

/// Puppet's name for "any resource type" in [`Environment::attributes_set_apart`].
const ANY_TYPE: &str = "*";

/// The types whose attributes `statements` set apart from a declaration (see
/// [`Environment::attributes_set_apart`]), anywhere in them.
fn attributes_set_apart(statements: &[crate::ast::Expr], into: &mut HashSet<String>) {
    use crate::ast::{Expr, Visitor};
    struct Found<'a>(&'a mut HashSet<String>);
    impl Found<'_> {
        fn type_of(&mut self, e: &Expr) {
            let name = match &e.kind {
                // `Resource['web::vhost', ...]` names its type in a string.
                ExprKind::TypeRef(name) | ExprKind::Name(name)
                    if !name.eq_ignore_ascii_case("resource") =>
                {
                    definition_key(name)
                }
                ExprKind::Access { object, .. } => return self.type_of(object),
                _ => ANY_TYPE.to_string(),
            };
            self.0.insert(name);
        }
    }
    impl<'p> Visitor<'p> for Found<'_> {
        fn visit_expr(&mut self, expr: &'p Expr) {
            match &expr.kind {
                ExprKind::ResourceDefaults(d) => self.type_of(&d.type_ref),
                ExprKind::ResourceOverride(o) => self.type_of(&o.target),
                ExprKind::Collector(c) if c.overrides.is_some() => self.type_of(&c.type_expr),
                _ => {}
            }
            crate::ast::walk_expr(self, expr);
        }
    }
    let mut found = Found(into);
    for statement in statements {
        found.visit_expr(statement);
    }
}

/// The tables of the index, naming an ambiguous entry.
#[derive(Clone, Copy)]
enum Table {
    Class,
    Define,
    Function,
    Alias,
}

impl Table {
    fn key(self, name: &str) -> String {
        let table = match self {
            Table::Class => "class",
            Table::Define => "define",
            Table::Function => "function",
            Table::Alias => "alias",
        };
        format!("{table}:{name}")
    }
}

/// Adds `value` under `key` unless there is one: then the name stays with the first
/// definition, and is ambiguous when the two come from different files (a second
/// definition in the same file is Puppet's error, reported where it is).
fn add_definition<V>(
    into: &mut HashMap<String, V>,
    ambiguous: &mut HashSet<String>,
    table: Table,
    key: String,
    value: V,
    path: fn(&V) -> &Path,
) {
    match into.entry(key) {
        std::collections::hash_map::Entry::Occupied(existing) => {
            if path(existing.get()) != path(&value) {
                ambiguous.insert(table.key(existing.key()));
            }
        }
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(value);
        }
    }
}

/// `::Foo::Bar` is `foo::bar`.
/// The name Puppet gives a definition written `name` inside the class `outer` (empty
/// at the top): `outer::name`, unless it is written absolute (`::name`).
pub fn qualified_name(outer: &str, name: &str) -> String {
    let own = definition_key(name);
    if outer.is_empty() || name.starts_with("::") {
        own
    } else {
        format!("{outer}::{own}")
    }
}

pub fn definition_key(name: &str) -> String {
    names::without_top_scope(name).to_lowercase()
}

impl Environment {
    /// An index of nothing: every name is unknown.
    pub fn empty() -> Environment {
        Environment::default()
    }

    /// What the folder `dir` above a file's `manifests/` shows of itself (a
    /// `metadata.json`, a control repository's files): looked at once per run,
    /// whichever of its files asks first.
    pub fn folder_evidence(&self, dir: &Path) -> discover::FolderEvidence {
        self.module_folders
            .get_or_compute(dir, || discover::FolderEvidence::of(dir))
    }

    /// The index of `programs` (already parsed) and of the files `more` (parsed here,
    /// in parallel, and dropped once read).
    pub fn build<'p>(
        programs: impl IntoIterator<Item = (&'p Path, &'p Program)>,
        more: &[PathBuf],
    ) -> Environment {
        let on_disk = more
            .par_iter()
            .filter_map(|path| Environment::of_file(path).map(|(env, _)| env))
            .reduce(Environment::empty, Environment::merged);
        // Each program's definitions in parallel, then merged in order: a name two files
        // define is ambiguous, and the first path's definition stays, as when added
        // one by one.
        let programs: Vec<(&Path, &Program)> = programs.into_iter().collect();
        let parsed = programs
            .par_iter()
            .map(|(path, program)| {
                let mut env = Environment::empty();
                env.add_program(path, program);
                env
            })
            .reduce(Environment::empty, Environment::merged);
        on_disk.merged(parsed)
    }

    /// The index of one file on disk, and whether it parsed without syntax errors;
    /// `None` when it cannot be read.
    /// What it gives is remembered on disk (`crate::cache`): the files of other
    /// modules a check reads rarely change from one run to the next.
    pub fn of_file(path: &Path) -> Option<(Environment, bool)> {
        let found = crate::source::walk::FoundFile {
            path: path.to_path_buf(),
            kind: SourceKind::Manifest,
            within: None,
        };
        let summary = crate::cache::remembered_source("manifest-index", &found, |source| {
            let parsed = crate::syntax::parse(source);
            let mut env = Environment::empty();
            env.add_program(path, &parsed.program);
            FileSummary::of(env, parsed.error_nodes == 0)
        })?;
        Some(summary.into_environment())
    }

    /// Adds the definitions of one file (nested classes and defined types as
    /// `outer::inner`). The first definition of a name stays: a second one is Puppet's
    /// error, reported where it is.
    pub fn add_program(&mut self, path: &Path, program: &Program) {
        self.add_statements(path, &program.body, "");
        attributes_set_apart(&program.body, &mut self.attributes_set_apart);
        self.top_scope.add_program(path, program);
    }

    /// Whether some code of the run may set attributes of resources of `type_name`
    /// apart from their declarations (a default, an override).
    pub fn may_set_attributes_apart(&self, type_name: &str) -> bool {
        self.attributes_set_apart.contains(ANY_TYPE)
            || self
                .attributes_set_apart
                .contains(&definition_key(type_name))
    }

    fn add_statements(&mut self, path: &Path, statements: &[crate::ast::Expr], outer: &str) {
        let qualified = |name: &str| qualified_name(outer, name);
        for statement in statements {
            match &statement.kind {
                ExprKind::Class(class) => {
                    let name = qualified(&class.name.name);
                    self.add_statements(path, &class.body.statements, &name);
                    let definition = Arc::new(Definition {
                        name: name.clone(),
                        params: class.params.clone(),
                        path: path.to_path_buf(),
                        variables: assigned_variables(&class.body.statements),
                        parent: class.parent.as_ref().map(|p| definition_key(&p.name)),
                        checked_return: None,
                    });
                    add_definition(
                        &mut self.classes,
                        &mut self.ambiguous,
                        Table::Class,
                        name,
                        definition,
                        |d| &d.path,
                    );
                }
                ExprKind::Define(define) => {
                    let name = qualified(&define.name.name);
                    let definition = Arc::new(Definition {
                        name: name.clone(),
                        params: define.params.clone(),
                        path: path.to_path_buf(),
                        variables: None,
                        parent: None,
                        checked_return: None,
                    });
                    add_definition(
                        &mut self.defines,
                        &mut self.ambiguous,
                        Table::Define,
                        name,
                        definition,
                        |d| &d.path,
                    );
                }
                ExprKind::Function(function) => {
                    let name = definition_key(&function.name.name);
                    let definition = Arc::new(Definition {
                        name: name.clone(),
                        params: function.params.clone(),
                        path: path.to_path_buf(),
                        variables: None,
                        parent: None,
                        checked_return: function
                            .return_type
                            .clone()
                            .filter(|_| !crate::ast::calls_return(&function.body.statements)),
                    });
                    add_definition(
                        &mut self.functions,
                        &mut self.ambiguous,
                        Table::Function,
                        name,
                        definition,
                        |d| &d.path,
                    );
                }
                // An alias cut short by a syntax error is unknown (Puppet cannot load it).
                ExprKind::TypeAlias(alias) if crate::ast::contains_error(&alias.type_expr) => {}
                ExprKind::TypeAlias(alias) => {
                    add_definition(
                        &mut self.aliases,
                        &mut self.ambiguous,
                        Table::Alias,
                        definition_key(&alias.name.name),
                        (type_expr_from_ast(&alias.type_expr), path.into()),
                        |a| &a.1,
                    );
                }
                _ => {}
            }
        }
    }

    /// Both indexes in one. A name defined in both keeps the definition from the file
    /// whose path sorts first, so the result does not depend on thread scheduling, and
    /// is ambiguous when the two files differ.
    fn merged(mut self, other: Environment) -> Environment {
        fn merge<V>(
            into: &mut HashMap<String, V>,
            ambiguous: &mut HashSet<String>,
            table: Table,
            from: HashMap<String, V>,
            path: fn(&V) -> &Path,
        ) {
            for (k, v) in from {
                match into.get(&k) {
                    Some(existing) if path(existing) == path(&v) => {}
                    Some(existing) => {
                        ambiguous.insert(table.key(&k));
                        if path(&v) < path(existing) {
                            into.insert(k, v);
                        }
                    }
                    None => {
                        into.insert(k, v);
                    }
                }
            }
        }
        self.attributes_set_apart.extend(other.attributes_set_apart);
        self.top_scope.merge(other.top_scope);
        let ambiguous = &mut self.ambiguous;
        ambiguous.extend(other.ambiguous);
        merge(
            &mut self.classes,
            ambiguous,
            Table::Class,
            other.classes,
            |d| &d.path,
        );
        merge(
            &mut self.defines,
            ambiguous,
            Table::Define,
            other.defines,
            |d| &d.path,
        );
        merge(
            &mut self.functions,
            ambiguous,
            Table::Function,
            other.functions,
            |d| &d.path,
        );
        merge(
            &mut self.aliases,
            ambiguous,
            Table::Alias,
            other.aliases,
            |a| &a.1,
        );
        self
    }

    /// The modules on the modulepaths, by name, with their folders.
    pub fn modules(&self) -> Vec<(String, PathBuf)> {
        self.loader
            .as_ref()
            .map(Loader::modules)
            .unwrap_or_default()
    }

    /// Reads the modules on the modulepaths around the `checked` files (and
    /// `modulepath`, first) for names the indexed programs lack. A checked file's
    /// module is the module of its name, whatever other folder of the modulepaths
    /// holds a module of that name too.
    pub fn with_modulepaths_for(self, checked: &[PathBuf], modulepath: &[PathBuf]) -> Environment {
        self.with_loader(Environment::modulepath_loader(checked, modulepath))
    }

    /// Searches module folders once for all the environments given `searched` (those of
    /// one run: the files do not change during it).
    pub fn with_folder_scans(mut self, searched: std::sync::Arc<FolderScans>) -> Environment {
        self.folder_scans = searched;
        self
    }

    /// Reads definitions the indexed programs lack with `loader` (made by
    /// [`Environment::modulepath_loader`]).
    pub fn with_loader(mut self, loader: Loader) -> Environment {
        self.loader = Some(loader);
        self
    }

    /// The reader of the modulepaths around `checked` (see
    /// [`with_modulepaths_for`](Self::with_modulepaths_for)). It needs only the files'
    /// paths, so it can be made while they are parsed: finding the modules (a folder
    /// listing and a `metadata.json` each) is system calls, not work for a core.
    pub fn modulepath_loader(checked: &[PathBuf], modulepath: &[PathBuf]) -> Loader {
        let modulepaths = discover::modulepaths(checked, modulepath);
        // One file per folder stands for the folder's files.
        // (Keyed by the folder's bytes: hashing a `Path` walks its components.)
        let mut folders: HashMap<&std::ffi::OsStr, &PathBuf> = HashMap::new();
        for file in checked {
            folders
                .entry(file.parent().unwrap_or(Path::new("")).as_os_str())
                .or_insert(file);
        }
        let checked_roots: std::collections::BTreeSet<PathBuf> = folders
            .into_values()
            .filter_map(|file| {
                let file = std::path::absolute(file).ok()?;
                discover::checked_module_root(&file).map(Path::to_path_buf)
            })
            .collect();
        let checked_roots: Vec<PathBuf> = checked_roots.into_iter().collect();
        Loader::new(&modulepaths, &checked_roots)
    }

    /// The environment's folder (`None`: files in no environment).
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The environment's folder: its Hiera layer is read there.
    pub fn with_root(mut self, root: Option<PathBuf>) -> Environment {
        self.root = root;
        self
    }

    /// The global Hiera layer's configuration (`hiera-global`), before the layers are
    /// first read.
    pub fn set_hiera_global(&mut self, config: Option<PathBuf>) {
        self.hiera_global = config;
    }

    /// The environment's Hiera files: its own layer (none for files in no
    /// environment) and its modules'.
    pub fn hiera(&self) -> &crate::hiera::Hiera {
        self.hiera.get_or_init(|| {
            crate::hiera::read_with_global(
                self.hiera_global.as_deref(),
                self.root.as_deref(),
                &self.modules(),
                self.loader
                    .as_ref()
                    .map(|l| l as &dyn crate::hiera::ModuleFolders),
            )
        })
    }

    /// What the text of the environment's files says (`scan::Scan`), searched on
    /// first use; `None` for files in no environment.
    fn scan(&self) -> Option<&scan::Scan> {
        self.root.as_ref()?;
        Some(self.scan_all())
    }

    /// [`scan`](Self::scan) of the environment's folder, if any, and its modules.
    fn scan_all(&self) -> &scan::Scan {
        self.scan.get_or_init(|| {
            let own: Vec<_> = self.root.iter().map(|r| (None, r.clone())).collect();
            // (A module folder's search is the same for every environment of a run
            // whose modulepath holds it: made once, `FolderScans`.)
            let modules: Vec<_> = self
                .modules()
                .into_iter()
                .map(|(name, path)| (Some(name), path))
                .collect();
            let modules = self.folder_scans.of_modules(&modules);
            modules
                .into_iter()
                .fold(scan::Scan::of_folders(&own), scan::Scan::with_shared)
        })
    }

    /// The existing files of the modulepaths where Puppet's type loader looks for the
    /// class or defined type `name`, most specific first.
    pub fn manifest_files_for(&self, name: &str) -> Vec<PathBuf> {
        self.loader
            .as_ref()
            .map(|l| l.manifest_files_for(name))
            .unwrap_or_default()
    }

    /// Whether a module called `name` is on the modulepaths.
    pub fn has_module(&self, name: &str) -> bool {
        self.loader.as_ref().is_some_and(|l| l.has_module(name))
    }

    /// The module `file` is in and the modules its `metadata.json` lists as
    /// dependencies (by module name), when it has a readable one and is not a module
    /// of a control repository (whose Puppetfile installs what its modules use).
    pub fn module_dependencies(&self, file: &Path) -> Option<ModuleDependencies> {
        let file = std::path::absolute(file).ok()?;
        let (name, root) = self
            .modules()
            .into_iter()
            .filter(|(_, root)| file.starts_with(root))
            .max_by_key(|(_, root)| root.components().count())?;
        self.dependencies
            .get_or_compute(&root, || self.dependencies_of(name, &root))
    }

    fn dependencies_of(&self, name: String, root: &Path) -> Option<ModuleDependencies> {
        let in_control_repository = root
            .ancestors()
            .skip(1)
            .any(|dir| dir.join("Puppetfile").is_file() || dir.join("environment.conf").is_file());
        if in_control_repository {
            return None;
        }
        // What the module lists, and what those list in turn (installed with it).
        let mut dependencies = declared_dependencies(root)?;
        let roots: HashMap<String, PathBuf> = self.modules().into_iter().collect();
        let mut next = 0;
        while next < dependencies.len() {
            let more = roots
                .get(&dependencies[next])
                .and_then(|r| declared_dependencies(r))
                .unwrap_or_default();
            for dependency in more {
                if !dependencies.contains(&dependency) {
                    dependencies.push(dependency);
                }
            }
            next += 1;
        }
        Some(ModuleDependencies { name, dependencies })
    }

    /// Whether a module on the modulepaths may define the fact `name` (custom facts in
    /// `lib/facter/`, external facts in `facts.d/`, searched as text).
    pub fn may_define_fact(&self, name: &str) -> bool {
        if self.loader.is_none() {
            return true;
        }
        self.fact_scan().may_define_fact(name)
    }

    /// The search of the modules' custom and external facts, on first use.
    fn fact_scan(&self) -> &scan::Scan {
        self.fact_scan.get_or_init(|| {
            let modules: Vec<_> = self
                .modules()
                .into_iter()
                .map(|(name, path)| (Some(name), path))
                .collect();
            scan::Scan::of_facts(&modules, self.loader.as_ref(), &self.folder_scans)
        })
    }

    /// Searches the environment's files and its modules' facts now (as `scan` and
    /// `may_define_fact` would on first use): the prefetch's, on a core of its own.
    pub fn search_texts(&self) {
        if self.loader.is_some() {
            self.fact_scan();
        }
        self.scan();
    }

    /// Whether code other than `file` may set the variable `name` where a class reads
    /// it without a namespace: at top scope or in a node definition of another file
    /// of the run, or of the environment's main manifest (`manifests/`).
    pub fn top_scope_variable_outside(&self, name: &str, file: &Path) -> bool {
        if self.top_scope.set_outside(name, file) {
            return true;
        }
        let Some(root) = &self.root else {
            return false;
        };
        let main = &self
            .main_manifest
            .get_or_init(|| top_scope::MainManifest::read(root))
            .index
            .top_scope;
        // (The file's real path, which the main manifest's paths are, only for a name
        // the main manifest sets: most are not.)
        main.sets(name) && {
            let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
            main.set_outside(name, &file)
        }
    }

    /// The number of arguments the 3.x (legacy) Ruby function `name` of a module on
    /// the modulepaths takes, if the index finds it.
    pub fn legacy_arity(&self, name: &str) -> Option<i64> {
        self.loader.as_ref()?.legacy_arity_for(name)
    }

    /// Whether custom or external facts of the modules may define `name` (never in
    /// an index without modulepaths, whose agents' facts are not known).
    pub fn modules_may_define_fact(&self, name: &str) -> bool {
        self.loader.is_some() && self.may_define_fact(name)
    }

    /// Whether some manifest of the environment (its own folder and every module on
    /// its modulepath, read as text) may declare the class `name` with parameters
    /// (`class { 'name': ... }`, `create_resources('class', ...)`,
    /// `ensure_resource('class', ...)`): then a declaration by `include` may find its
    /// parameters given. Always true for files in no environment.
    pub fn may_declare_class_with_parameters(&self, name: &str) -> bool {
        self.scan().is_none_or(|scan| scan.may_declare_class(name))
    }

    /// Whether some code or data of the environment may look the Hiera key `key` up
    /// by name (`lookup('key')`, `%{alias('key')}`, a lookup of an interpolated
    /// string that may be it, or of a key not written as a string). Always true for
    /// files in no environment.
    pub fn may_look_up(&self, key: &str) -> bool {
        self.scan().is_none_or(|scan| scan.may_look_up(key))
    }

    /// The file defining the type alias `name`, if the index has it.
    pub fn alias_path(&self, name: &str) -> Option<PathBuf> {
        let key = definition_key(name);
        if let Some((_, path)) = self.aliases.get(&key) {
            return Some(path.clone());
        }
        let loaded = self.loader.as_ref()?.type_alias_for(&key)?;
        loaded.aliases.get(&key).map(|(_, path)| path.clone())
    }

    /// The file at `path` (a definition's), parsed; `None` when it cannot be read or
    /// holds a syntax error (its bodies are then not all known).
    pub fn definition_file(&self, path: &Path) -> Option<Arc<DefinitionFile>> {
        self.definition_files.get_or_compute(path, || {
            let found = crate::source::walk::FoundFile {
                path: path.to_path_buf(),
                kind: SourceKind::Manifest,
                within: None,
            };
            let source = crate::source::walk::read_file(&found).ok()?;
            let parsed = crate::syntax::parse(&source);
            (parsed.error_nodes == 0).then(|| {
                Arc::new(DefinitionFile {
                    source: Arc::new(source),
                    program: Arc::new(parsed.program),
                })
            })
        })
    }

    /// Gives `definition_file` a manifest the run has parsed already (so that a
    /// declaration evaluated with its values does not read and parse it again).
    pub fn share_definition_file(&self, file: &crate::syntax::ParsedFile) {
        if file.error_nodes == 0 && file.source.kind == SourceKind::Manifest {
            self.definition_files.insert(
                file.source.path.clone(),
                Some(Arc::new(DefinitionFile {
                    source: file.source.clone(),
                    program: file.program.clone(),
                })),
            );
        }
    }

    pub fn class(&self, name: &str) -> Option<Arc<Definition>> {
        self.definition(name, Table::Class, |env| &env.classes)
    }

    pub fn define(&self, name: &str) -> Option<Arc<Definition>> {
        self.definition(name, Table::Define, |env| &env.defines)
    }

    /// Whether more than one file of the run defines the name in `table`.
    fn is_ambiguous(&self, table: Table, key: &str) -> bool {
        !self.ambiguous.is_empty() && self.ambiguous.contains(&table.key(key))
    }

    /// Whether Puppet certainly finds no class `name`: the checked files do not define
    /// it, its module is on the modulepaths, and no file Puppet's type loader reads for
    /// it does either. (A class defined in a main manifest pupcheck was not shown would
    /// be missed; classes of a module live in the module.)
    pub fn class_certainly_missing(&self, name: &str) -> bool {
        let key = definition_key(name);
        let Some(loader) = &self.loader else {
            return false;
        };
        let module = key.split("::").next().unwrap_or_default();
        !self.classes.contains_key(&key)
            && loader.has_module(module)
            && loader
                .manifests_searched_for(&key)
                .is_some_and(|files| files.iter().all(|file| !file.classes.contains_key(&key)))
    }

    /// Whether Puppet certainly finds no function `name`: a namespaced name of a
    /// module on the modulepaths that Puppet does not have and that no file of the run
    /// defines, where neither autoload path of the module holds it. An unqualified name
    /// may come from outside the modules (a gem on the server), so it is never missing.
    pub fn function_certainly_missing(&self, name: &str) -> bool {
        let key = definition_key(name);
        let Some(loader) = &self.loader else {
            return false;
        };
        names::is_qualified(&key)
            && !key.starts_with("environment::")
            && !crate::builtin::functions::exists(&key)
            && !self.functions.contains_key(&key)
            && !self.is_ambiguous(Table::Function, &key)
            && loader.function_certainly_absent(&key)
    }

    /// The template `epp()` reads for `name` (`mod/file.epp`), from the modulepaths.
    pub fn epp_template(&self, name: &str) -> Option<EppTemplate> {
        self.loader.as_ref()?.template(name)
    }

    /// Whether a call of the global (unnamespaced) name `name` calls the function
    /// written in Puppet the index has (an environment's own, in a manifest, which
    /// Puppet finds before its own of the name): when no module on the modulepaths has
    /// one written in Ruby too (which of them Puppet calls is not known).
    pub fn calls_global_puppet_function(&self, name: &str) -> bool {
        let key = definition_key(name);
        !names::is_qualified(&key)
            && self.function(&key).is_some()
            && self.loader.as_ref().is_some_and(|loader| {
                !loader.any_module_has(&format!("lib/puppet/functions/{key}.rb"))
                    && !loader.any_module_has(&format!("lib/puppet/parser/functions/{key}.rb"))
            })
    }

    /// Reads now what a call of `name`, none of Puppet's own functions, reads of the
    /// modules' functions written in Ruby when the interpretation reaches it: a 3.x
    /// function's arity for a plain name, a 4.x function's signatures for a namespaced
    /// one (the prefetch's, on a core of its own).
    pub fn read_ruby_function(&self, name: &str) {
        if name.contains("::") {
            self.ruby_function(name);
        } else if let Some(loader) = &self.loader {
            loader.legacy_arity_for(name);
        }
    }

    /// The module function `name` written in Ruby with the 4.x API, where no function
    /// written in Puppet has the name (which of two Puppet would load is not known).
    pub fn ruby_function(&self, name: &str) -> Option<Arc<crate::ruby::function::RubyFunction>> {
        let key = definition_key(name);
        if self.is_ambiguous(Table::Function, &key) || self.function(&key).is_some() {
            return None;
        }
        self.loader.as_ref()?.ruby_function_for(&key)
    }

    /// The resource type `name` written in Ruby that a declaration `name { ... }` names:
    /// Puppet's own; else, where no defined type has the name, the one module's
    /// `lib/puppet/type/<name>.rb` read as text; else, where no module on the
    /// modulepaths has that file, the type of a module Puppet ships with itself (`cron`).
    /// `None` when it is unknown or not sure, and when a module's provider of the type
    /// may add to it.
    pub fn resource_type(
        &self,
        name: &str,
    ) -> Option<Arc<crate::builtin::resource_type::ResourceType>> {
        let key = definition_key(name);
        self.resource_types
            .get_or_compute(&key, || self.find_resource_type(&key))
    }

    fn find_resource_type(
        &self,
        key: &str,
    ) -> Option<Arc<crate::builtin::resource_type::ResourceType>> {
        // A module's provider may add to any type, Puppet's own too.
        if self
            .loader
            .as_ref()
            .is_some_and(|loader| loader.providers_extend(key))
        {
            return None;
        }
        if let Some(own) = crate::builtin::resource_type(key) {
            return Some(own);
        }
        if !loader::is_plain_name(key)
            || self.define(key).is_some()
            || self.is_ambiguous(Table::Define, key)
        {
            return None;
        }
        let loader = self.loader.as_ref()?;
        if loader.any_module_has(&format!("lib/puppet/type/{key}.rb")) {
            loader.ruby_type_for(key)
        } else {
            crate::builtin::bundled_resource_type(key)
        }
    }

    pub fn function(&self, name: &str) -> Option<Arc<Definition>> {
        let key = definition_key(name);
        if self.is_ambiguous(Table::Function, &key) {
            return None;
        }
        if let Some(found) = self.functions.get(&key) {
            return Some(found.clone());
        }
        let loaded = self.loader.as_ref()?.function_for(&key)?;
        loaded.functions.get(&key).cloned()
    }

    /// A class or defined type (`table` says which) from the programs, else from where
    /// the autoloader would find it.
    fn definition(
        &self,
        name: &str,
        kind: Table,
        table: fn(&Environment) -> &HashMap<String, Arc<Definition>>,
    ) -> Option<Arc<Definition>> {
        let key = definition_key(name);
        if self.is_ambiguous(kind, &key) {
            return None;
        }
        if let Some(found) = table(self).get(&key) {
            return Some(found.clone());
        }
        let loaded = self.loader.as_ref()?.manifest_for(&key)?;
        table(&loaded).get(&key).cloned()
    }
}

impl AliasSource for Environment {
    fn alias_body(&self, name: &str) -> Option<TypeExpr> {
        let key = definition_key(name);
        if self.is_ambiguous(Table::Alias, &key) {
            return None;
        }
        if let Some((body, _)) = self.aliases.get(&key) {
            return Some(body.clone());
        }
        let loaded = self.loader.as_ref()?.type_alias_for(&key)?;
        loaded.aliases.get(&key).map(|(body, _)| body.clone())
    }

    /// Never: modules the index was not shown may define more.
    fn knows_every_alias(&self) -> bool {
        false
    }

    /// One of Puppet's own resource types: a module's aliases are named in its
    /// namespace (`mymod::Port`), so none not seen is `Package`.
    fn is_surely_resource_type(&self, name: &str) -> bool {
        !name.contains("::") && crate::builtin::resource_type(&definition_key(name)).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        crate::syntax::parse_text(text, SourceKind::Manifest).program
    }

    #[test]
    fn a_name_two_files_define_is_known_to_exist_but_not_by_its_definition() {
        let old = program("class ntp ($servers) { }\ntype Ntp::Port = Integer\n");
        let new = program("class ntp ($servers, $peers) { }\ntype Ntp::Port = String\n");
        let same = program("class web ($port) { }\n");
        let env = Environment::build(
            [
                (Path::new("a/ntp/manifests/init.pp"), &old),
                (Path::new("b/ntp/manifests/init.pp"), &new),
                (Path::new("a/web/manifests/init.pp"), &same),
            ],
            &[],
        );
        assert!(env.class("ntp").is_none());
        assert!(!env.class_certainly_missing("ntp"));
        assert!(env.alias_body("Ntp::Port").is_none());
        assert!(env.class("web").is_some());
        // The same when the index is built in parts and merged.
        let mut a = Environment::empty();
        a.add_program(Path::new("a/ntp/manifests/init.pp"), &old);
        let mut b = Environment::empty();
        b.add_program(Path::new("b/ntp/manifests/init.pp"), &new);
        let merged = a.merged(b);
        assert!(merged.class("ntp").is_none());
        assert!(merged.alias_body("ntp::port").is_none());
    }

    #[test]
    fn a_name_defined_twice_in_one_file_keeps_its_first_definition() {
        let twice = program("class ntp ($servers) { }\nclass ntp ($peers) { }\n");
        let env = Environment::build([(Path::new("site.pp"), &twice)], &[]);
        let ntp = env.class("ntp").expect("the first definition");
        assert_eq!(ntp.params.as_ref().unwrap()[0].name.name, "servers");
    }
}
