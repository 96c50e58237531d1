//! The checking pipeline: find files, read and parse them in parallel, run the checks,
//! and return the findings in a deterministic order.
//!
//! ```text
//! paths ─walk─▶ files ─read─▶ SourceFile ─parse+lower─▶ Program ─┬──────────▶ checks ─▶ Diagnostics
//!                                                     index ─▶ Environment ─┘
//! ```
//! Reading and parsing, then the checks, run per file on rayon's pool; between them the
//! environment index is built once from the parsed files, reading the modulepaths
//! around them for the other names the checks ask for (`env`). The result is sorted by path, so the output is the same whatever the
//! number of threads.

mod catalog_listing;
pub(crate) mod hiera;
mod installed;
mod isolate;
mod metadata;
mod prefetch;
mod rule_runner;
pub mod shard;
pub use catalog_listing::{catalog_listings, CatalogListings};
mod suppress;

pub use isolate::catch_file_panic;
pub(crate) use isolate::{catch_part_panic, resume_part_panic};

use crate::analysis::context::Prepared;
use crate::config::{ConfigError, Resolver, Settings};
use crate::diagnostics::{Diagnostic, Severity};
use crate::env::{Environment, Loader};
use crate::source::walk::{self, FoundFile};
use crate::source::{Position, SourceFile, SourceKind, Span};
use crate::syntax::{self, ParsedFile};
use rayon::prelude::*;
pub use rule_runner::{check_file, with_context, RuleThreads};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Everything found in one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: PathBuf,
    /// The text, kept only when there is something to show from it.
    pub source: Option<Arc<SourceFile>>,
    pub diagnostics: Vec<Diagnostic>,
    /// The whole file's part of the report in the run's format, rendered by the
    /// check's worker as soon as the file's findings were final
    /// ([`Plan::render`]); `None`: rendered with the report.
    pub rendered: Option<Vec<u8>>,
}

/// The result of a run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Paths that could not be walked (missing, unreadable directories).
    pub walk_errors: Vec<(PathBuf, String)>,
    pub files_checked: usize,
}

impl Report {
    pub fn count(&self, severity: Severity) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    }

    pub fn diagnostics(&self) -> impl Iterator<Item = (&FileReport, &Diagnostic)> {
        self.files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| (f, d)))
    }
}

/// Told how a run advances (a progress bar). Called from the worker threads.
pub trait Progress: Sync {
    /// The files to check have been found.
    fn found(&self, files: usize);
    /// One more file has been checked.
    fn checked(&self);
}

/// No progress reporting.
impl Progress for () {
    fn found(&self, _: usize) {}
    fn checked(&self) {}
}

/// Checks every file under `roots` with the default settings.
pub fn check_paths(roots: &[PathBuf]) -> Report {
    check_paths_with_progress(roots, &())
}

/// Checks every file under `roots` with the default settings, telling `progress` as
/// files are done.
pub fn check_paths_with_progress(roots: &[PathBuf], progress: &dyn Progress) -> Report {
    check_paths_configured(roots, &mut Resolver::defaults(), progress)
        .expect("the default configuration reads no file")
}

/// Checks every file under `roots` that its configuration does not exclude, each with
/// the settings of its configuration. Configuration errors stop the run before any
/// file is checked.
pub fn check_paths_configured(
    roots: &[PathBuf],
    resolver: &mut Resolver,
    progress: &dyn Progress,
) -> Result<Report, ConfigError> {
    let plan = plan(roots, resolver)?;
    Ok(check_plan(&plan, progress))
}

/// Checks the planned files, telling `progress` as files are done: one environment
/// after another (`env::environment_root`), so that only one environment's parsed
/// programs and index are held at a time, whatever the number of environments.
pub fn check_plan(plan: &Plan, progress: &dyn Progress) -> Report {
    progress.found(plan.files.len());
    let mut files: Vec<FileReport> = Vec::new();
    let mut data = Vec::new();
    let mut metadata_seen = std::collections::HashSet::new();
    let groups = environment_groups(plan);
    let last = groups.len().saturating_sub(1);
    for (n, group) in groups.into_iter().enumerate() {
        let environments = check_environment(plan, &group, progress, &mut files);
        plan.keep_used_searches();
        let planned = group.all_files(plan);
        data.extend(hiera::reports(plan, &environments, planned.iter().copied()));
        data.extend(metadata::reports(
            plan,
            &environments,
            planned.iter().copied(),
            &mut metadata_seen,
        ));
        if plan.ends_process && n == last {
            std::mem::forget(environments);
        }
    }
    let manifests = files.len();
    data.retain(|report| plan.reports_on(&report.path));
    // The data files named are checked whether or not they have findings (those found
    // in folders are counted only with findings).
    let files_checked = manifests + data.len().max(plan.data_files.len());
    files.extend(data);
    crate::source::path_order::sort_by_path(&mut files, |f| &f.path);
    Report {
        files_checked,
        files,
        walk_errors: plan.walk_errors.clone(),
    }
}

/// The planned files of one environment, by their places in the plan's lists.
#[derive(Default)]
struct EnvironmentGroup {
    files: Vec<usize>,
    data_files: Vec<usize>,
    /// The environment root of each of its files' folders (all the same one).
    roots: foldhash::HashMap<PathBuf, Option<PathBuf>>,
}

impl EnvironmentGroup {
    /// Its files, manifests then data, in the plan's order (as `Plan::all_files`).
    fn all_files<'p>(&self, plan: &'p Plan) -> Vec<(&'p Path, &'p Arc<Settings>)> {
        let manifests = self.files.iter().map(|&i| {
            let (f, settings) = &plan.files[i];
            (f.path.as_path(), settings)
        });
        let data = self.data_files.iter().map(|&i| {
            let (path, settings) = &plan.data_files[i];
            (path.as_path(), settings)
        });
        manifests.chain(data).collect()
    }
}

/// The environment root of each folder, found once per folder: many files share one.
#[derive(Default)]
struct FolderRoots {
    finder: crate::env::EnvironmentRoots,
    by_folder: foldhash::HashMap<PathBuf, Option<PathBuf>>,
}

impl FolderRoots {
    fn root_of(&mut self, path: &Path) -> Option<PathBuf> {
        let folder = path.parent().unwrap_or(Path::new(""));
        if let Some(root) = self.by_folder.get(folder) {
            return root.clone();
        }
        let root = self.finder.of(path);
        self.by_folder.insert(folder.to_path_buf(), root.clone());
        root
    }
}

/// The plan's files by environment, the environments in the order their first file has
/// in the plan (what is reported once per run, such as a `metadata.json` several
/// environments share, is reported with that first environment's settings, as before),
/// each with the roots of its files' folders.
fn environment_groups(plan: &Plan) -> Vec<EnvironmentGroup> {
    let mut roots = FolderRoots::default();
    let mut groups: Vec<(Option<PathBuf>, EnvironmentGroup)> = Vec::new();
    let mut index_of: foldhash::HashMap<Option<PathBuf>, usize> = Default::default();
    // Files share folders: each folder's group is found once. (Keyed by the folder's
    // bytes: hashing a `Path` walks its components.)
    let mut group_of_folder: foldhash::HashMap<&std::ffi::OsStr, usize> = Default::default();
    let manifests = plan.files.iter().map(|(f, _)| (false, f.path.as_path()));
    let data = plan
        .data_files
        .iter()
        .map(|(path, _)| (true, path.as_path()));
    let files: Vec<(bool, &Path)> = manifests.chain(data).collect();
    // One file of each folder: what each folder is, asked on every core first.
    let mut seen = foldhash::HashSet::default();
    let one_a_folder: Vec<&Path> = files
        .iter()
        .map(|(_, path)| *path)
        .filter(|path| seen.insert(path.parent().unwrap_or(Path::new("")).as_os_str()))
        .collect();
    roots.finder.look_at_folders_of(&one_a_folder);
    let mut index = [0, 0];
    for (is_data, path) in files {
        let folder = path.parent().unwrap_or(Path::new(""));
        let g = match group_of_folder.get(folder.as_os_str()) {
            Some(&g) => g,
            None => {
                let root = roots.root_of(path);
                let g = *index_of.entry(root.clone()).or_insert_with(|| {
                    groups.push((root.clone(), EnvironmentGroup::default()));
                    groups.len() - 1
                });
                groups[g].1.roots.insert(folder.to_path_buf(), root);
                group_of_folder.insert(folder.as_os_str(), g);
                g
            }
        };
        let group = &mut groups[g].1;
        let (list, i) = if is_data {
            (&mut group.data_files, &mut index[1])
        } else {
            (&mut group.files, &mut index[0])
        };
        list.push(*i);
        *i += 1;
    }
    groups.into_iter().map(|(_, group)| group).collect()
}

/// Parses and checks the manifests of one environment, adding their reports to
/// `reports`; gives back the environment's index, for its data files.
fn check_environment(
    plan: &Plan,
    group: &EnvironmentGroup,
    progress: &dyn Progress,
    reports: &mut Vec<FileReport>,
) -> Environments {
    // The largest files first, in both parallel phases: one started last would keep a
    // thread busy while the others wait at the end.
    // (The sizes are asked on every core: a system call per file.)
    let mut sized: Vec<(u64, &(FoundFile, Arc<Settings>))> = group
        .files
        .par_iter()
        .map(|&i| {
            let file = &plan.files[i];
            let size = std::fs::symlink_metadata(&file.0.path).map_or(0, |m| m.len());
            (size, file)
        })
        .collect();
    sized.sort_by(|(a, f), (b, g)| b.cmp(a).then_with(|| f.0.path.cmp(&g.0.path)));
    let largest_first = sized;
    // A few files leave threads idle (not when the run was given one thread: it uses
    // one core). While they are parsed, one reads the built-in tables most checks ask
    // for, which would otherwise be read on first use.
    let workers = rayon::current_num_threads();
    let few = group.files.len() < 4 * workers;
    let idle_cores = few && workers > 1;
    if idle_cores {
        crate::builtin::read_tables_in_background();
    }
    let planned = group.all_files(plan);
    let paths: Vec<PathBuf> = planned.iter().map(|(p, _)| p.to_path_buf()).collect();
    // The modulepaths' readers need the files' paths only: made while they are parsed.
    // Each file's parse and check reserves its working memory from the run's pool, so
    // that many large files on many threads are not all worked on at once.
    let pool = crate::parallel::MemoryPool::for_files();
    let (parsed, loaders): (Vec<(ParseResult, &Arc<Settings>)>, _) = rayon::join(
        || {
            largest_first
                .into_par_iter()
                .map(|(size, (f, settings))| {
                    let _working = pool.reserve_for_source(size);
                    (parse_found_file(f), settings)
                })
                .collect()
        },
        || Environments::loaders(&group.roots, &paths, &plan.modulepath),
    );
    let environments = index_environments(plan, group, &planned, loaders, &parsed);
    // A few files leave threads idle while each loads, one by one, what it declares:
    // those definitions are loaded first, on every core.
    if few {
        prefetch::prefetch_declared(parsed.iter().filter_map(|(file, _)| {
            let file = file.as_ref().ok()?;
            Some((environments.for_file(&file.source.path), &*file.program))
        }));
    }
    let (inferences, catalogs) = catalog_pass(
        &parsed,
        &|path| environments.for_file(path),
        Installed::Reached,
    );
    let prepared: Vec<_> = parsed.into_iter().zip(inferences).collect();
    reports.par_extend(
        prepared
            .into_par_iter()
            .map(|((file, settings), inference)| {
                let mut report = match file {
                    Ok(file) => {
                        let _working = pool.reserve_for_source(file.source.text.len() as u64);
                        let env = environments.for_file(&file.source.path);
                        // (Idle cores: each file's rules run as tasks of their own. When every
                        // core has files to check, a file's rules stay on its thread.)
                        let threads = if idle_cores {
                            RuleThreads::Split
                        } else {
                            RuleThreads::One
                        };
                        let prepared = Prepared {
                            inference,
                            catalog: catalogs.findings_in(&file.source.path),
                        };
                        run_prepared_checks(file, settings, env, threads, prepared)
                    }
                    Err(report) => *report,
                };
                if let Some(render) = &plan.render {
                    report.rendered = render(&report);
                }
                progress.checked();
                report
            }),
    );
    environments
}

/// The index of a group's environments, from its parsed files (in path order) and the
/// modulepaths' readers.
fn index_environments(
    plan: &Plan,
    group: &EnvironmentGroup,
    planned: &[(&Path, &Arc<Settings>)],
    loaders: foldhash::HashMap<Option<PathBuf>, Loader>,
    parsed: &[(ParseResult, &Arc<Settings>)],
) -> Environments {
    // The index is built from the programs in path order, as before.
    let mut programs: Vec<(&Path, &crate::ast::Program)> = parsed
        .iter()
        .filter_map(|(p, _)| p.as_ref().ok())
        .map(|p| (p.source.path.as_path(), &*p.program))
        .collect();
    crate::source::path_order::sort_by_path(&mut programs, |p| p.0);
    let mut environments = Environments::with_roots(
        group.roots.clone(),
        loaders,
        &programs,
        &plan.modulepath,
        &[],
        &plan.folder_scans,
    );
    environments.set_world_settings(planned.iter().copied());
    for file in parsed.iter().filter_map(|(file, _)| file.as_ref().ok()) {
        environments
            .for_file(&file.source.path)
            .share_definition_file(file);
    }
    environments
}

/// Each file's interpretation, made on every core, and what the catalogs of its
/// environment raise (`crate::catalog`), joined from what each body gives one. The
/// interpretations are kept for the rules: each file is interpreted once. A file whose
/// interpretation panics gets none (its check reports the panic).
/// Whether the catalog pass reads the installed modules its catalogs reach.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Installed {
    Reached,
    Left,
}

fn catalog_pass<'e>(
    parsed: &[(ParseResult, &Arc<Settings>)],
    env_of: &(dyn Fn(&Path) -> &'e Environment + Sync),
    reach: Installed,
) -> (
    Vec<Option<crate::infer::FileInference>>,
    crate::catalog::Catalogs,
) {
    let wanted = |settings: &Settings| {
        crate::rules::catalog_rules().any(|rule| settings.rules.is_enabled(rule))
    };
    let inferences = interpret_all(parsed, env_of, &wanted);
    let mut catalogs = crate::catalog::Catalogs::default();
    let detail = crate::infer::fragment::Detail::References;
    for mut files in environment_fragments(parsed, &inferences, env_of, detail) {
        // The installed modules the catalogs reach join them: a profile's package that
        // a module it includes declares too is Puppet's duplicate.
        let env = env_of(files[0].path);
        let checked = files.iter().map(|f| (f.path, f.fragments.as_slice()));
        let installed = match reach {
            Installed::Reached => installed::installed_bodies(env, checked, detail),
            Installed::Left => Vec::new(),
        };
        files.extend(installed.iter().map(|(file, fragments)| {
            catalog_listing::file_fragments(file, fragments.clone(), true)
        }));
        crate::source::path_order::sort_by_path(&mut files, |f| f.path);
        let indexed: std::collections::BTreeSet<PathBuf> = files
            .iter()
            .filter_map(|f| std::path::absolute(f.path).ok())
            .collect();
        let asked = std::cell::RefCell::new(foldhash::HashMap::<String, bool>::default());
        let declared_elsewhere = |type_name: &str| {
            if let Some(&answer) = asked.borrow().get(type_name) {
                return answer;
            }
            let answer = installed::declared_elsewhere(env, &indexed, type_name);
            asked.borrow_mut().insert(type_name.to_string(), answer);
            answer
        };
        catalogs.extend(crate::catalog::Catalogs::join(&files, &declared_elsewhere));
    }
    (inferences, catalogs)
}

/// The interpretation of each parsed file whose settings want it, on every core.
fn interpret_all<'e>(
    parsed: &[(ParseResult, &Arc<Settings>)],
    env_of: &(dyn Fn(&Path) -> &'e Environment + Sync),
    wanted: &(dyn Fn(&Settings) -> bool + Sync),
) -> Vec<Option<crate::infer::FileInference>> {
    parsed
        .par_iter()
        .map(|(file, settings)| {
            let file = file.as_ref().ok()?;
            if !wanted(settings) {
                return None;
            }
            let env = env_of(&file.source.path);
            let exprs = crate::ast::preorder(&file.program);
            let view = crate::infer::FileView {
                program: &file.program,
                exprs: &exprs,
                env,
            };
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::infer::FileInference::infer(&view)
            }))
            .ok()
        })
        .collect()
}

/// What the bodies of the interpreted files give a catalog, one list per environment
/// (no definition crosses from one to another), each in path order.
fn environment_fragments<'p, 'e>(
    parsed: &'p [(ParseResult, &Arc<Settings>)],
    inferences: &[Option<crate::infer::FileInference>],
    env_of: &(dyn Fn(&Path) -> &'e Environment + Sync),
    detail: crate::infer::fragment::Detail,
) -> Vec<Vec<crate::catalog::FileFragments<'p>>> {
    let mut groups: Vec<(*const Environment, Vec<crate::catalog::FileFragments>)> = Vec::new();
    for ((file, _), inference) in parsed.iter().zip(inferences) {
        let (Ok(file), Some(inference)) = (file, inference) else {
            continue;
        };
        let env: *const Environment = env_of(&file.source.path);
        let fragments = catalog_listing::file_fragments(
            file,
            crate::infer::fragment::fragments(&file.program, inference, detail),
            false,
        );
        match groups.iter_mut().find(|(e, _)| *e == env) {
            Some((_, files)) => files.push(fragments),
            None => groups.push((env, vec![fragments])),
        }
    }
    groups
        .into_iter()
        .map(|(_, mut files)| {
            crate::source::path_order::sort_by_path(&mut files, |f| f.path);
            files
        })
        .collect()
}

/// A data file pupcheck reads besides the manifests (Hiera's YAML, a metadata.json),
/// named from the working folder as the user names the checked files.
fn data_source(path: &Path, text: String) -> SourceFile {
    SourceFile::new(
        PathBuf::from(crate::source::shown_path(path)),
        SourceKind::Data,
        text,
    )
}

/// The report on a data file: its findings at the severities the settings give them,
/// in order; `None` without findings.
fn data_report(
    source: SourceFile,
    mut diagnostics: Vec<Diagnostic>,
    settings: &Settings,
) -> Option<FileReport> {
    if diagnostics.is_empty() {
        return None;
    }
    for d in diagnostics.iter_mut() {
        if let Some(severity) = settings.rules.severity_override(d.rule) {
            d.severity = severity;
        }
    }
    sort_diagnostics(&mut diagnostics);
    Some(FileReport {
        path: source.path.clone(),
        source: Some(Arc::new(source)),
        diagnostics,
        rendered: None,
    })
}

/// The files to check, each with its settings, and the paths that could not be walked.
pub struct Plan {
    /// The manifests and templates to parse and check.
    pub files: Vec<(FoundFile, Arc<Settings>)>,
    /// The data files the user named (a Hiera YAML file, a `metadata.json`): judged
    /// with their environment's Hiera files and modules, never parsed as Puppet.
    pub data_files: Vec<(PathBuf, Arc<Settings>)>,
    pub walk_errors: Vec<(PathBuf, String)>,
    /// Folders left out on purpose (links leading outside), with why: said, no error.
    pub not_walked: Vec<(PathBuf, String)>,
    /// Folders of modules to read definitions from, besides those found around the
    /// files (`--modulepath`).
    pub modulepath: Vec<PathBuf>,
    /// The folders and files the user named, links resolved: `--fix` writes only files
    /// inside them, whatever links a repository holds.
    pub write_roots: Vec<PathBuf>,
    /// The folders among them (a module's `metadata.json` is looked for in each).
    pub named_folders: Vec<PathBuf>,
    /// `write_roots` as a set, for [`Plan::is_named`].
    named: std::collections::HashSet<PathBuf>,
    /// When the user named only files (a pre-commit hook): their file identities, for
    /// [`Plan::named_real_path`] (read with their links, on every core).
    named_files: Option<NamedFiles>,
    /// With `--shard`: which files are this job's (the planned files are only those).
    pub shard: Option<shard::Assignment>,
    /// The process ends after this run (the command line): the last environment's
    /// index is left to the kernel to take back, not freed one allocation at a time on
    /// one thread (about 5 % of a run over a whole modulepath).
    pub ends_process: bool,
    /// Renders a file's part of the report in the run's format, called by the
    /// worker that checked the file as soon as its findings are final: the output
    /// is made on every core while files are checked, and what remains after the
    /// check is writing it. Only for runs whose findings nothing filters after the
    /// check (no baseline).
    pub render: Option<FileRenderer>,
    /// The searches of module folders (`env::FolderScans`) shared by the run's
    /// environments: repositories side by side read one another as their modules. Kept
    /// from one environment to the next for the folders both read only.
    folder_scans: Arc<crate::env::FolderScans>,
}

/// Renders one file's whole part of the report ([`Plan::render`]); `None` leaves it
/// to the report's writer.
pub type FileRenderer = Arc<dyn Fn(&FileReport) -> Option<Vec<u8>> + Send + Sync>;

impl Plan {
    /// Keeps this job's part of the files (`--shard I/N`), as every job splits them.
    pub fn keep_shard(&mut self, part: shard::Shard) {
        let assignment = shard::Assignment::new(part, self.all_files().map(|(path, _)| path));
        self.files.retain(|(f, _)| assignment.is_mine(&f.path));
        self.data_files.retain(|(path, _)| assignment.is_mine(path));
        self.shard = Some(assignment);
    }

    /// Whether `real` (a path with links resolved) is one the user named or is inside
    /// a folder they named.
    pub fn is_named(&self, real: &Path) -> bool {
        real.ancestors().any(|a| self.named.contains(a))
    }

    /// The real path of the file at `path` (a Hiera file, a module's `metadata.json`,
    /// as found on the modulepath) when the user named it or a folder holding it.
    ///
    /// A run that named only files asks first whether `path` is one of them, by its
    /// file identity: one system call, where resolving the path reads every link on
    /// its way (a check of one file asks this of every module's files).
    pub fn named_real_path(&self, path: &Path) -> Option<PathBuf> {
        if let Some(files) = &self.named_files {
            if !files.may_hold(path) {
                return None;
            }
        }
        let real = std::fs::canonicalize(path).ok()?;
        self.is_named(&real).then_some(real)
    }

    /// Whether a file found beside the planned ones (Hiera data, a metadata.json) is
    /// this job's to report.
    fn reports_on(&self, path: &Path) -> bool {
        self.shard.as_ref().is_none_or(|a| a.is_mine(path))
    }
}

/// The identities (device and inode) of the files a run named, when it named no
/// folder: a file with another identity is not one of them, whatever its path.
#[derive(Debug)]
struct NamedFiles(std::collections::HashSet<FileIdentity>);

/// A file's device and inode.
type FileIdentity = (u64, u64);

impl NamedFiles {
    /// Whether the file at `path` may be one of the named ones (links followed).
    fn may_hold(&self, path: &Path) -> bool {
        std::fs::metadata(path)
            .ok()
            .and_then(|metadata| file_identity(&metadata))
            .is_some_and(|id| self.0.contains(&id))
    }
}

/// The device and inode of the file `metadata` was read of.
#[cfg(unix)]
fn file_identity(metadata: &std::fs::Metadata) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_identity(_: &std::fs::Metadata) -> Option<FileIdentity> {
    None
}

/// Walks `roots` and resolves each file's configuration, leaving out excluded files.
/// The configuration is resolved on one thread (it is read from files and cached per
/// folder, and an error in it must stop the run before any file is checked); the named
/// paths' links, independent of it, are resolved on the other cores meanwhile.
pub fn plan(roots: &[PathBuf], resolver: &mut Resolver) -> Result<Plan, ConfigError> {
    let (configured, named) =
        rayon::join(|| configured_files(roots, resolver), || write_roots(roots));
    let Configured {
        files,
        data_files,
        walk_errors,
    } = configured?;
    let NamedRoots {
        real: write_roots,
        folders: named_folders,
        files: named_files,
    } = named;
    let named = write_roots.iter().cloned().collect();
    Ok(Plan {
        files,
        data_files,
        shard: None,
        ends_process: false,
        render: None,
        folder_scans: Arc::default(),
        modulepath: Vec::new(),
        write_roots,
        named_folders,
        named,
        named_files,
        not_walked: walk_errors
            .iter()
            .filter(|e| e.deliberate)
            .map(|e| (e.path.clone(), e.message.clone()))
            .collect(),
        walk_errors: walk_errors
            .into_iter()
            .filter(|e| !e.deliberate)
            .map(|e| (e.path, e.message))
            .collect(),
    })
}

/// The files found under the named paths, each with its settings.
struct Configured {
    files: Vec<(FoundFile, Arc<Settings>)>,
    data_files: Vec<(PathBuf, Arc<Settings>)>,
    walk_errors: Vec<walk::WalkError>,
}

/// The manifests and the data files under `roots`, each with its settings, excluded
/// files left out; and the paths that could not be walked.
fn configured_files(roots: &[PathBuf], resolver: &mut Resolver) -> Result<Configured, ConfigError> {
    let (found, walk_errors) = walk::find_files(roots);
    let paths: Vec<&Path> = found.iter().map(|file| file.path.as_path()).collect();
    resolver.look_in_folders_of(&paths);
    let mut files = Vec::with_capacity(found.len());
    let mut data_files = Vec::new();
    for file in found {
        if !resolver.is_excluded(&file.path)? {
            let settings = resolver.settings_for(&file.path)?;
            match file.kind {
                SourceKind::Data => data_files.push((file.path, settings)),
                _ => files.push((file, settings)),
            }
        }
    }
    Ok(Configured {
        files,
        data_files,
        walk_errors,
    })
}

/// The paths the user named, links resolved ([`write_roots`]).
struct NamedRoots {
    /// Each named path's real path (those that exist).
    real: Vec<PathBuf>,
    /// The folders among them.
    folders: Vec<PathBuf>,
    /// When they are all files: their identities.
    files: Option<NamedFiles>,
}

/// `roots` with links resolved: a folder, below which found files may be written, or a
/// file the user named (theirs to have fixed, wherever its link points); the folders
/// among them; and, when there is none, the files' identities. On every core: a
/// pre-commit hook names each file it checks.
fn write_roots(roots: &[PathBuf]) -> NamedRoots {
    use rayon::prelude::*;
    // Each folder holding named files is resolved once (a pre-commit hook names many
    // files of few folders; resolving a path reads every link on its way, a system call
    // per component).
    let mut parents: Vec<&Path> = roots.iter().filter_map(|r| plain_parent(r)).collect();
    parents.sort();
    parents.dedup();
    let real_parents: foldhash::HashMap<&Path, PathBuf> = parents
        .par_iter()
        .filter_map(|p| Some((*p, std::fs::canonicalize(p).ok()?)))
        .collect();
    // Each with whether it is a folder and its identity (the metadata read anyway).
    let resolved: Vec<(PathBuf, bool, Option<FileIdentity>)> = roots
        .par_iter()
        .filter_map(|r| {
            // A file or folder that is not itself a link, in a resolved folder: the
            // folder's real path and its name.
            let in_real_parent = plain_parent(r)
                .and_then(|p| real_parents.get(p))
                .zip(r.file_name());
            if let Some((real_parent, name)) = in_real_parent {
                let metadata = std::fs::symlink_metadata(r).ok()?;
                if !metadata.file_type().is_symlink() {
                    let real = real_parent.join(name);
                    return Some((real, metadata.is_dir(), file_identity(&metadata)));
                }
            }
            let real = std::fs::canonicalize(r).ok()?;
            let metadata = std::fs::metadata(&real).ok();
            let is_folder = metadata.as_ref().is_some_and(std::fs::Metadata::is_dir);
            Some((real, is_folder, metadata.as_ref().and_then(file_identity)))
        })
        .collect();
    let folders: Vec<PathBuf> = resolved
        .iter()
        .filter(|(_, is_folder, _)| *is_folder)
        .map(|(real, _, _)| real.clone())
        .collect();
    // (A named file whose identity cannot be read: every path is resolved.)
    let files = if folders.is_empty() {
        resolved
            .iter()
            .map(|(_, _, identity)| *identity)
            .collect::<Option<_>>()
            .map(NamedFiles)
    } else {
        None
    };
    NamedRoots {
        real: resolved.into_iter().map(|(real, _, _)| real).collect(),
        folders,
        files,
    }
}

/// The folder holding `path` when its last component is a plain name (not `..`, `.` or
/// a root): `.` for a name alone.
fn plain_parent(path: &Path) -> Option<&Path> {
    match path.components().next_back()? {
        std::path::Component::Normal(_) => {}
        _ => return None,
    }
    // `a/b/.` ends in `b` for `components`, but resolves as `a/b`: only a path whose
    // text ends in the name itself takes the short way.
    let text = path.as_os_str().as_encoded_bytes();
    if text.ends_with(b"/.") || text.ends_with(b"/") {
        return None;
    }
    match path.parent()? {
        p if p.as_os_str().is_empty() => Some(Path::new(".")),
        p => Some(p),
    }
}

/// The planned files' paths, data files too.
fn planned_paths(plan: &Plan) -> Vec<PathBuf> {
    plan.all_files()
        .map(|(path, _)| path.to_path_buf())
        .collect()
}

impl Plan {
    /// Lets go of the searches of module folders the environment just indexed did not
    /// read (`env::FolderScans::keep_used`): the next one may read the same modulepath,
    /// and a run holds about one environment's searches.
    pub(crate) fn keep_used_searches(&self) {
        self.folder_scans.keep_used();
    }

    /// Every planned file, manifests and data, with its settings.
    pub fn all_files(&self) -> impl Iterator<Item = (&Path, &Arc<Settings>)> {
        self.files
            .iter()
            .map(|(f, settings)| (f.path.as_path(), settings))
            .chain(
                self.data_files
                    .iter()
                    .map(|(p, settings)| (p.as_path(), settings)),
            )
    }
}

/// The indexes of the planned files, reading the modulepaths around them for more (for
/// `--fix`, which checks each file several times).
pub fn environments_for(plan: &Plan) -> Environments {
    let planned = planned_paths(plan);
    let mut environments = Environments::build(&planned, &[], &plan.modulepath, &planned);
    environments.set_world_settings(plan.all_files());
    environments
}

/// The index each checked file sees: one per environment (`env::environment_root`: a
/// control repository or a Git repository), built from that environment's files and
/// modulepaths only, so a
/// run over many repositories never judges a file against another environment's
/// version of a module. Files outside any environment share one.
pub struct Environments {
    by_root: foldhash::HashMap<Option<PathBuf>, Environment>,
    /// The environment of each checked file's folder.
    roots: foldhash::HashMap<PathBuf, Option<PathBuf>>,
    none: Environment,
}

impl Environments {
    /// `files`: every checked file; `programs`: those already parsed; `read`: files to
    /// parse for the index (when nothing is parsed yet).
    pub fn build(
        files: &[PathBuf],
        programs: &[(&Path, &crate::ast::Program)],
        modulepath: &[PathBuf],
        read: &[PathBuf],
    ) -> Environments {
        let mut roots = FolderRoots::default();
        for file in files
            .iter()
            .map(PathBuf::as_path)
            .chain(programs.iter().map(|(p, _)| *p))
        {
            roots.root_of(file);
        }
        let loaders = Environments::loaders(&roots.by_folder, files, modulepath);
        let searched = Arc::default();
        Environments::with_roots(
            roots.by_folder,
            loaders,
            programs,
            modulepath,
            read,
            &searched,
        )
    }

    /// The modulepath reader of each environment of `files` (grouped by the roots of
    /// their folders, which `roots` holds): what the index needs of the files' paths
    /// only, made while they are parsed.
    fn loaders(
        roots: &foldhash::HashMap<PathBuf, Option<PathBuf>>,
        files: &[PathBuf],
        modulepath: &[PathBuf],
    ) -> foldhash::HashMap<Option<PathBuf>, Loader> {
        let mut members: foldhash::HashMap<Option<PathBuf>, Vec<PathBuf>> = Default::default();
        for file in files {
            members
                .entry(folder_root(roots, file))
                .or_default()
                .push(file.clone());
        }
        members
            .into_iter()
            .map(|(root, members)| (root, Environment::modulepath_loader(&members, modulepath)))
            .collect()
    }

    /// [`build`](Self::build), with the environment root of the folder of every file
    /// and program already found, and the modulepath reader of each environment
    /// ([`loaders`](Self::loaders)).
    fn with_roots(
        roots: foldhash::HashMap<PathBuf, Option<PathBuf>>,
        mut loaders: foldhash::HashMap<Option<PathBuf>, Loader>,
        programs: &[(&Path, &crate::ast::Program)],
        modulepath: &[PathBuf],
        read: &[PathBuf],
        searched: &Arc<crate::env::FolderScans>,
    ) -> Environments {
        let mut groups: foldhash::HashMap<Option<PathBuf>, (Vec<_>, Vec<_>)> = Default::default();
        for root in loaders.keys() {
            groups.entry(root.clone()).or_default();
        }
        for program in programs {
            groups
                .entry(folder_root(&roots, program.0))
                .or_default()
                .0
                .push(*program);
        }
        for file in read {
            if let Some(group) = groups.get_mut(&folder_root(&roots, file)) {
                group.1.push(file.clone());
            }
        }
        let by_root = groups
            .into_iter()
            .map(|(root, (parsed, unread))| {
                // (Programs of no checked file's environment: the modulepath alone.)
                let loader = loaders
                    .remove(&root)
                    .unwrap_or_else(|| Environment::modulepath_loader(&[], modulepath));
                let env = Environment::build(parsed, &unread)
                    .with_loader(loader)
                    .with_root(root.clone())
                    .with_folder_scans(searched.clone());
                (root, env)
            })
            .collect();
        Environments {
            by_root,
            roots,
            none: Environment::empty(),
        }
    }

    /// Gives each environment what the settings of its first planned file (of `files`,
    /// in the plan's order) say of its world: the global Hiera layer (`hiera-global`)
    /// and whether it is closed (`environment`).
    pub fn set_world_settings<'p>(
        &mut self,
        files: impl Iterator<Item = (&'p Path, &'p Arc<Settings>)>,
    ) {
        let mut done = std::collections::HashSet::new();
        for (file, settings) in files {
            let root = self.root_of(file);
            if done.insert(root.clone()) {
                if let Some(env) = self.by_root.get_mut(&root) {
                    env.set_hiera_global(settings.hiera_global.clone());
                    env.set_declared_world(settings.environment);
                }
            }
        }
    }

    /// The environment root `path` is in, if any.
    pub fn root_of(&self, path: &Path) -> Option<PathBuf> {
        let folder = path.parent().unwrap_or(Path::new(""));
        match self.roots.get(folder) {
            Some(root) => root.clone(),
            None => crate::env::environment_root(path),
        }
    }

    /// The index of the environment at `root` (`None`: the files in no environment).
    pub fn for_environment(&self, root: Option<&Path>) -> &Environment {
        self.by_root
            .get(&root.map(Path::to_path_buf))
            .unwrap_or(&self.none)
    }

    /// The index of the environment `path` is in.
    pub fn for_file(&self, path: &Path) -> &Environment {
        let folder = path.parent().unwrap_or(Path::new(""));
        let root = match self.roots.get(folder) {
            Some(root) => root.clone(),
            None => crate::env::environment_root(path),
        };
        self.by_root.get(&root).unwrap_or(&self.none)
    }
}

/// The environment root of the folder of `path`, which `roots` holds.
fn folder_root(
    roots: &foldhash::HashMap<PathBuf, Option<PathBuf>>,
    path: &Path,
) -> Option<PathBuf> {
    roots[path.parent().unwrap_or(Path::new(""))].clone()
}

/// The index for one file checked on its own (stdin): the file as it is on disk, if it
/// is, and the modulepaths around it.
pub fn environment_around(path: &std::path::Path, modulepath: &[PathBuf]) -> Environment {
    let file = [path.to_path_buf()];
    let on_disk: &[PathBuf] = if path.is_file() { &file } else { &[] };
    Environment::build([], on_disk).with_modulepaths_for(&file, modulepath)
}

/// A parsed file, or the report of a file that could not be read.
pub type ParseResult = Result<ParsedFile, Box<FileReport>>;

/// Reads and parses one found file; a file that cannot be read is its own report.
pub fn parse_found_file(found: &FoundFile) -> ParseResult {
    let read_and_parse = || -> Result<ParsedFile, Diagnostic> {
        let source = walk::read_file(found)?;
        let parsed = syntax::parse(&source);
        Ok(ParsedFile::new(source, parsed))
    };
    catch_file_panic(read_and_parse)
        .and_then(|parsed| parsed)
        .map_err(|diagnostic| {
            Box::new(FileReport {
                path: found.path.clone(),
                source: None,
                diagnostics: vec![diagnostic],
                rendered: None,
            })
        })
}

/// Reads and checks one found file.
pub fn check_found_file(found: &FoundFile, settings: &Settings, env: &Environment) -> FileReport {
    match parse_found_file(found) {
        Ok(file) => run_checks(file, settings, env, RuleThreads::One),
        Err(report) => *report,
    }
}

/// Checks one file's text with the default settings and an empty index.
pub fn check_source(source: SourceFile) -> FileReport {
    check_source_with(source, &Settings::default(), &Environment::empty())
}

/// Checks one file's text.
pub fn check_source_with(source: SourceFile, settings: &Settings, env: &Environment) -> FileReport {
    let parsed = syntax::parse(&source);
    let settings = Arc::new(settings.clone());
    let parsed = vec![(Ok(ParsedFile::new(source, parsed)), &settings)];
    check_parsed_together(parsed, env)
        .pop()
        .expect("one report per file")
}

/// Runs the rules on a parsed file; a panic while doing so is the file's internal error.
pub fn run_checks(
    file: ParsedFile,
    settings: &Settings,
    env: &Environment,
    threads: RuleThreads,
) -> FileReport {
    run_prepared_checks(file, settings, env, threads, Prepared::default())
}

/// As [`run_checks`], with the file's interpretation made before (an editor keeps
/// resumptions of it, `infer::ResumePoints`).
pub fn run_interpreted_checks(
    file: ParsedFile,
    settings: &Settings,
    env: &Environment,
    threads: RuleThreads,
    inference: crate::infer::FileInference,
) -> FileReport {
    let prepared = Prepared {
        inference: Some(inference),
        catalog: &[],
    };
    run_prepared_checks(file, settings, env, threads, prepared)
}

/// As [`run_checks`], with what was found of the file before (its interpretation, what
/// the catalogs raise in it).
fn run_prepared_checks(
    file: ParsedFile,
    settings: &Settings,
    env: &Environment,
    threads: RuleThreads,
    prepared: Prepared,
) -> FileReport {
    let path = file.source.path.clone();
    catch_file_panic(|| run_checks_unguarded(file, settings, env, threads, prepared))
        .unwrap_or_else(|diagnostic| FileReport {
            path,
            source: None,
            diagnostics: vec![diagnostic],
            rendered: None,
        })
}

fn run_checks_unguarded(
    file: ParsedFile,
    settings: &Settings,
    env: &Environment,
    threads: RuleThreads,
    prepared: Prepared,
) -> FileReport {
    let ParsedFile {
        source,
        program,
        mut diagnostics,
        ..
    } = file;
    isolate::panic_if_marked(&source.text);
    check_file(
        &source,
        &program,
        settings,
        env,
        threads,
        prepared,
        &mut diagnostics,
    );
    sort_diagnostics(&mut diagnostics);
    FileReport {
        path: source.path.clone(),
        source: if diagnostics.is_empty() {
            None
        } else {
            Some(source)
        },
        diagnostics,
        rendered: None,
    }
}

/// Checks text given directly, reported under `path`, with the default settings and an
/// empty index.
pub fn check_text(path: PathBuf, bytes: Vec<u8>) -> FileReport {
    check_text_with(path, bytes, &Settings::default(), &Environment::empty())
}

/// Checks text given directly (stdin), reported under `path`.
pub fn check_text_with(
    path: PathBuf,
    bytes: Vec<u8>,
    settings: &Settings,
    env: &Environment,
) -> FileReport {
    let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::Manifest);
    match walk::source_from_bytes(path.clone(), kind, bytes) {
        Ok(source) => check_source_with(source, settings, env),
        Err(unreadable) => FileReport {
            path,
            source: None,
            diagnostics: vec![unreadable.into()],
            rendered: None,
        },
    }
}

/// Checks texts given directly, reported under their paths, together: as a run checks
/// the files of one environment (`env`), the catalogs they assemble included.
pub fn check_texts_with(
    files: Vec<(PathBuf, Vec<u8>)>,
    settings: &Settings,
    env: &Environment,
) -> Vec<FileReport> {
    let settings = Arc::new(settings.clone());
    let parsed: Vec<(ParseResult, &Arc<Settings>)> = files
        .into_iter()
        .map(|(path, bytes)| {
            let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::Manifest);
            let parsed = match walk::source_from_bytes(path.clone(), kind, bytes) {
                Ok(source) => {
                    let parsed = syntax::parse(&source);
                    Ok(ParsedFile::new(source, parsed))
                }
                Err(unreadable) => Err(Box::new(FileReport {
                    path,
                    source: None,
                    diagnostics: vec![unreadable.into()],
                    rendered: None,
                })),
            };
            (parsed, &settings)
        })
        .collect();
    check_parsed_together(parsed, env)
}

/// Checks parsed files of one environment together, on this thread, the catalogs they
/// assemble included.
fn check_parsed_together(
    parsed: Vec<(ParseResult, &Arc<Settings>)>,
    env: &Environment,
) -> Vec<FileReport> {
    // (Per document, as an editor asks: the installed modules are not read again at
    // every keystroke.)
    let (inferences, catalogs) = catalog_pass(&parsed, &|_| env, Installed::Left);
    parsed
        .into_iter()
        .zip(inferences)
        .map(|((file, settings), inference)| match file {
            Ok(file) => {
                let prepared = Prepared {
                    inference,
                    catalog: catalogs.findings_in(&file.source.path),
                };
                run_prepared_checks(file, settings, env, RuleThreads::One, prepared)
            }
            Err(report) => *report,
        })
        .collect()
}

/// The 1-based start and end positions of a diagnostic in its file (1:1 when the file's
/// text is not available, e.g. it could not be read).
pub fn positions(file: &FileReport, diagnostic: &Diagnostic) -> (Position, Position) {
    span_positions(file, diagnostic.span)
}

/// The 1-based start and end positions of a span in a file (1:1 without its text).
pub fn span_positions(file: &FileReport, span: Span) -> (Position, Position) {
    match &file.source {
        Some(source) => (source.position(span.start), source.position(span.end)),
        None => {
            let p = Position { line: 1, column: 1 };
            (p, p)
        }
    }
}

/// Position, then rule, then message: a stable order for any output.
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule, &a.message).cmp(&(
            b.span.start,
            b.span.end,
            b.rule,
            &b.message,
        ))
    });
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A file's rules split in two (a run of a few files) find what they find on one
    /// thread, in the same order once sorted: the bundled example, whose files have
    /// type and style findings, checked against its own index.
    #[test]
    fn rules_split_in_two_find_the_same_as_on_one_thread() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo/manifests");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        let parsed: Vec<ParsedFile> = paths
            .iter()
            .map(|path| {
                let found = FoundFile {
                    path: path.clone(),
                    kind: SourceKind::Manifest,
                    within: None,
                };
                parse_found_file(&found).unwrap_or_else(|_| panic!("{} parses", path.display()))
            })
            .collect();
        let env = Environment::build(
            parsed
                .iter()
                .map(|p| (p.source.path.as_path(), &*p.program)),
            &[],
        );
        let settings = Settings::default();
        let mut categories = std::collections::BTreeSet::new();
        let copy = |file: &ParsedFile| ParsedFile {
            source: file.source.clone(),
            program: file.program.clone(),
            diagnostics: file.diagnostics.clone(),
            error_nodes: file.error_nodes,
        };
        for file in &parsed {
            let report = |threads| run_checks(copy(file), &settings, &env, threads).diagnostics;
            let one = report(RuleThreads::One);
            let debug = |found: &[Diagnostic]| format!("{found:#?}");
            assert_eq!(
                debug(&report(RuleThreads::Split)),
                debug(&one),
                "{}",
                file.source.path.display()
            );
            categories.extend(one.iter().map(|d| {
                crate::rules::find(d.rule.as_str())
                    .map(|r| r.category == crate::rules::Category::Type)
            }));
        }
        assert!(
            categories.contains(&Some(true)) && categories.contains(&Some(false)),
            "the example has findings of type rules and of others: {categories:?}"
        );
    }

    /// A file found on the modulepath is reported only when the user named it (through
    /// any link) or a folder holding it, whether the run named only files (asked by
    /// file identity first) or a folder too.
    #[test]
    fn a_found_file_is_named_through_links_whether_files_or_folders_were_named() {
        let dir = std::env::temp_dir().join(format!("pupcheck-named-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("mod/data")).unwrap();
        std::fs::create_dir_all(dir.join("other")).unwrap();
        for file in [
            "mod/data/common.yaml",
            "mod/metadata.json",
            "other/common.yaml",
        ] {
            std::fs::write(dir.join(file), "{}").unwrap();
        }
        std::os::unix::fs::symlink(dir.join("mod"), dir.join("linked")).unwrap();
        let real = |p: &str| std::fs::canonicalize(dir.join(p)).unwrap();
        let plan_of = |named: &[&str]| {
            let roots: Vec<PathBuf> = named.iter().map(|n| dir.join(n)).collect();
            plan(&roots, &mut Resolver::defaults()).unwrap()
        };
        // Only files named: the Hiera file itself, by a path through a link.
        let files = plan_of(&["linked/data/common.yaml"]);
        assert!(files.named_files.is_some());
        assert_eq!(
            files.named_real_path(&dir.join("mod/data/common.yaml")),
            Some(real("mod/data/common.yaml"))
        );
        assert_eq!(files.named_real_path(&dir.join("other/common.yaml")), None);
        assert_eq!(files.named_real_path(&dir.join("mod/metadata.json")), None);
        assert_eq!(files.named_real_path(&dir.join("mod/missing.yaml")), None);
        // A folder named: everything under it, through links too, and nothing else.
        let folder = plan_of(&["linked", "other/common.yaml"]);
        assert_eq!(
            folder.named_real_path(&dir.join("linked/metadata.json")),
            Some(real("mod/metadata.json"))
        );
        assert!(folder.named_files.is_none());
        assert_eq!(
            folder.named_real_path(&dir.join("other/common.yaml")),
            Some(real("other/common.yaml"))
        );
        assert_eq!(folder.named_real_path(&dir.join("other")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn write_roots_are_the_real_paths_canonicalize_gives() {
        let dir = std::env::temp_dir().join(format!("pupcheck-roots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real/sub")).unwrap();
        std::fs::write(dir.join("real/a.pp"), "").unwrap();
        std::fs::write(dir.join("real/sub/b.pp"), "").unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("linked")).unwrap();
        std::os::unix::fs::symlink(dir.join("real/a.pp"), dir.join("real/sub/to_a.pp")).unwrap();
        let roots: Vec<PathBuf> = [
            "real/a.pp",
            "linked/a.pp",
            "linked/sub/b.pp",
            "real/sub/to_a.pp",
            "linked/sub/../a.pp",
            "real/sub/.",
            "linked/",
            "real/missing.pp",
        ]
        .iter()
        .map(|r| dir.join(r))
        .collect();
        let NamedRoots {
            real: resolved,
            folders,
            files,
        } = write_roots(&roots);
        assert!(files.is_none(), "folders are named");
        let expected: Vec<PathBuf> = roots
            .iter()
            .filter_map(|r| std::fs::canonicalize(r).ok())
            .collect();
        assert_eq!(resolved, expected);
        let real = std::fs::canonicalize(dir.join("real")).unwrap();
        assert_eq!(folders, [real.join("sub"), real.clone()]);
        assert_eq!(resolved[1], real.join("a.pp"));
        assert_eq!(resolved[3], real.join("a.pp"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
