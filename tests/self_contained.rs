//! The repository stands on its own: a user who clones it has none of the team's
//! folders and none of the build machine's paths, so no file may name them (scripts
//! install what they need with scripts/setup.sh; the oracle is scripts/oracle/).

use std::path::Path;

/// What must not appear: the team's shared folder beside the project, and home or work
/// folders of a build machine. Built from pieces so this file does not name them.
fn forbidden() -> Vec<String> {
    let shared = ["..", "shared", ""].join("/");
    let work = ["", "work", ""].join("/");
    let root_home = ["", "root", ""].join("/");
    vec![shared, work, root_home]
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let forbidden = forbidden();
    let mut offenders = Vec::new();
    // The files git would commit: .gitignore'd build output and caches are left out.
    let walk = ignore::WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walk.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue; // binary
        };
        for (number, line) in text.lines().enumerate() {
            if let Some(found) = forbidden.iter().find(|f| line.contains(f.as_str())) {
                let relative = entry.path().strip_prefix(root).unwrap().display();
                offenders.push(format!("{relative}:{}: names {found}", number + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "files naming paths outside the repository:\n{}",
        offenders.join("\n")
    );
}
