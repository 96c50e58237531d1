//! `pupcheck catalog`: the catalog pupcheck assembles for a class, a node or every
//! role of a tree (`check::catalog_listings`), as a table or as JSON; with `--diff`
//! (another tree) or `--diff-rev` (a git revision), what a change adds, removes and
//! changes in them.

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};
use crate::catalog::listing::{Listing, Selector};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CatalogArgs {
    /// The tree: a control repository, a module, a folder of modules.
    #[arg(default_value = ".")]
    tree: PathBuf,
    /// The catalog of this class, compiled alone.
    #[arg(long, value_name = "NAME", conflicts_with = "node")]
    class: Option<String>,
    /// The catalog of this node: the node definition Puppet picks for the name.
    #[arg(long, value_name = "NAME")]
    node: Option<String>,
    /// Compare with the same catalogs of this tree (the base of a change): what the
    /// tree adds, removes and changes. Exit status 1 when something changed.
    #[arg(long, value_name = "BASE_TREE")]
    diff: Option<PathBuf>,
    /// Compare with the same catalogs of the tree at this git revision (a commit, a
    /// branch, a tag: the base of a pull request), read from the repository around the
    /// tree; the working tree's ignored folders (installed modules) serve both. Exit
    /// status 1 when something changed.
    #[arg(long, value_name = "REV", conflicts_with = "diff")]
    diff_rev: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CatalogFormat::Table)]
    format: CatalogFormat,
    /// Folders of modules (separated by `:`) to read definitions from.
    #[arg(long, value_name = "DIRS", value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CatalogFormat {
    Table,
    Json,
}

pub fn catalog(args: CatalogArgs) -> i32 {
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(super::WORKER_STACK)
        .build_global();
    let selector = match (&args.class, &args.node) {
        (Some(class), _) => Selector::Class(class.clone()),
        (None, Some(node)) => Selector::Node(node.clone()),
        (None, None) => Selector::Roles,
    };
    let listings = match listings_of(&args.tree, &args.modulepath, &selector) {
        Ok(listings) => listings,
        Err(message) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
    };
    let comparing = args.diff.is_some() || args.diff_rev.is_some();
    if listings.is_empty() && !comparing {
        eprintln!("pupcheck: {}", nothing_named(&selector, &args.tree));
        return EXIT_USAGE;
    }
    if !comparing {
        match args.format {
            CatalogFormat::Json => {
                let all: Vec<_> = listings
                    .iter()
                    .map(crate::output::catalog::listing_json)
                    .collect();
                let json = match (&selector, all.len()) {
                    (Selector::Roles, _) => serde_json::Value::Array(all),
                    (_, _) => all.into_iter().next().unwrap_or_default(),
                };
                println!(
                    "{}",
                    serde_json::to_string_pretty(&json).expect("plain data")
                );
            }
            CatalogFormat::Table => print!("{}", crate::output::catalog::listings_table(&listings)),
        }
        return EXIT_CLEAN;
    }
    let before = match base_listings(&args, &selector) {
        Ok(before) => before,
        Err(message) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
    };
    let diff = crate::output::catalog::diff(&before, &listings);
    match args.format {
        CatalogFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&diff.json()).expect("plain data")
        ),
        CatalogFormat::Table => print!("{}", diff.table()),
    }
    if diff.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FINDINGS
    }
}

/// The catalogs of the base of the comparison: another tree, or the tree at a git
/// revision.
fn base_listings(args: &CatalogArgs, selector: &Selector) -> Result<Vec<Listing>, String> {
    match (&args.diff, &args.diff_rev) {
        (Some(base), _) => listings_of(base, &args.modulepath, selector),
        (None, Some(rev)) => {
            let base = super::git_revision::write_out(&args.tree, rev)?;
            listings_of(&base.tree, &args.modulepath, selector)
        }
        (None, None) => Ok(Vec::new()),
    }
}

/// The catalogs the selector names in a tree, with the tree's own settings.
fn listings_of(
    tree: &std::path::Path,
    modulepath: &[PathBuf],
    selector: &Selector,
) -> Result<Vec<Listing>, String> {
    if !tree.exists() {
        return Err(format!("{}: no such file or folder", tree.display()));
    }
    let mut resolver = crate::config::Resolver::defaults();
    let mut plan =
        crate::check::plan(&[tree.to_path_buf()], &mut resolver).map_err(|e| e.to_string())?;
    plan.modulepath = modulepath.to_vec();
    let listed = crate::check::catalog_listings(&plan, selector);
    for path in &listed.unparsed {
        eprintln!(
            "pupcheck: warning: {} does not parse (`pupcheck check` says where): what it declares may be missing",
            path.display()
        );
    }
    Ok(listed.listings)
}

fn nothing_named(selector: &Selector, tree: &std::path::Path) -> String {
    match selector {
        Selector::Class(name) => format!("{}: no class {name} is defined there", tree.display()),
        Selector::Node(name) => format!(
            "{}: no node definition matches {name} (nor a default one)",
            tree.display()
        ),
        Selector::Roles => format!("{}: no class or node definition there", tree.display()),
    }
}
