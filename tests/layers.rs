//! The layers of `src/` as ARCHITECTURE.md states them: each top-level module stands on
//! one floor of the `layers` block there (top floor first) and imports only modules on
//! the floors below its own. Read from the `use` paths and every other `crate::` and
//! `super::` path of the code (comments, strings and `#[cfg(test)]` modules aside: a
//! test may look anywhere), so that an upward import fails here, not in review.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The floors of the `layers` block of ARCHITECTURE.md, bottom floor first, each a set of
/// top-level module names.
fn floors_of(architecture: &str) -> Vec<Vec<String>> {
    let start = architecture
        .find("```layers\n")
        .expect("ARCHITECTURE.md has a ```layers block")
        + "```layers\n".len();
    let end = start
        + architecture[start..]
            .find("```")
            .expect("the layers block is closed");
    let mut floors: Vec<Vec<String>> = architecture[start..end]
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .filter(|floor: &Vec<String>| !floor.is_empty())
        .collect();
    floors.reverse();
    floors
}

/// The code of a Rust file with comments and the contents of string and character
/// literals blanked out (so that a path named in prose or a message is not an import).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && !is_ident(chars.get(i.wrapping_sub(1)))
        {
            // A raw string: r"..." or r#"..."#.
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// `code` without its `#[cfg(test)]` modules.
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let after = &out[at..];
        let is_module = after["#[cfg(test)]".len()..]
            .trim_start()
            .starts_with("mod ");
        let Some(open) = after.find('{').filter(|_| is_module) else {
            // Not a module: only the attribute goes.
            out.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(at..at + end, "");
    }
    out
}

/// The module path of a file under `src/` (`src/eval/flow.rs` is `eval::flow`); the
/// crate root's files have none.
fn module_path(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop()?;
    let stem = file.strip_suffix(".rs")?;
    if parts.is_empty() && (stem == "lib" || stem == "main") {
        return None;
    }
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    Some(parts)
}

/// The first segments of the paths a `path` expression leads to after its prefix: `a`
/// for `a::b`, `a` and `c` for `{a::b, c}`.
fn first_segments(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 1;
        let mut items = Vec::new();
        let mut current = String::new();
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ',' if depth == 1 => {
                    items.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        items.push(current);
        items
            .iter()
            .filter_map(|item| first_segments(item).into_iter().next())
            .collect()
    } else {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            Vec::new()
        } else {
            vec![name]
        }
    }
}

/// The top-level modules other than its own that a file's code names.
fn imported_modules(module: &[String], code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let at_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let rest = &code[i..];
        let (depth, after) = if at_word && rest.starts_with("crate::") {
            (0, &rest["crate::".len()..])
        } else if at_word && rest.starts_with("super::") {
            let mut depth = module.len();
            let mut after = rest;
            while let Some(r) = after.strip_prefix("super::") {
                depth = depth.saturating_sub(1);
                after = r;
            }
            (depth, after)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        if depth == 0 {
            found.extend(first_segments(after));
        }
        i = code.len() - after.len();
    }
    found.retain(|m| module.first() != Some(m));
    found
}

/// Every import of a module from a floor not below its own, as a message; and every
/// top-level module on no floor. `files` are `(path under src/, text)`.
fn upward_imports(floors: &[Vec<String>], files: &[(PathBuf, String)]) -> Vec<String> {
    let floor_of = |name: &str| floors.iter().position(|f| f.iter().any(|m| m == name));
    let mut problems = BTreeSet::new();
    for (path, text) in files {
        let Some(module) = module_path(path) else {
            continue;
        };
        let own = &module[0];
        let Some(own_floor) = floor_of(own) else {
            problems.insert(format!(
                "src/{own}: on no floor of ARCHITECTURE.md's layers block"
            ));
            continue;
        };
        let code = without_test_modules(&code_only(text));
        for imported in imported_modules(&module, &code) {
            match floor_of(&imported) {
                Some(floor) if floor < own_floor => {}
                Some(_) => {
                    problems.insert(format!(
                        "src/{}: `{own}` imports `{imported}`, which is not on a floor below its own",
                        path.display()
                    ));
                }
                // Not a module of the crate (a macro's or a function at the root).
                None => {}
            }
        }
    }
    problems.into_iter().collect()
}

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

#[test]
fn every_module_imports_only_the_floors_below_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let floors = floors_of(&architecture);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &root.join("src"), &mut files);
    assert!(files.len() > 100, "src/ was read");
    let problems = upward_imports(&floors, &files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every floor names modules that exist.
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|(path, _)| module_path(path)?.into_iter().next())
        .collect();
    for name in floors.iter().flatten() {
        assert!(
            modules.contains(name),
            "the layers block names `{name}`, which src/ lacks"
        );
    }
}

#[test]
fn an_upward_import_fails_in_any_form() {
    let floors = floors_of("```layers\ncheck\nrules\nast source\n```\n");
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_string());
    let files = [
        file(
            "rules/mod.rs",
            "use crate::ast::Expr;\nuse crate::source::Span;\n",
        ),
        file("rules/style/a.rs", "fn f() { crate::check::run(); }\n"),
        file(
            "rules/style/b.rs",
            "use crate::{ast::Expr, check::{run, Report}};\n",
        ),
        file(
            "rules/style/c.rs",
            "use super::super::super::check::Report;\nuse super::super::style::x;\n",
        ),
        file(
            "ast/mod.rs",
            "pub fn f() -> super::rules::Rule { todo!() }\n",
        ),
        file("source/mod.rs", "use crate::ast::Expr;\n"),
        // Not imports: prose, messages, tests, a module's own paths.
        file(
            "rules/style/d.rs",
            "// crate::check::run\n/* crate::check */\nconst M: &str = \"crate::check::x\";\n\
             const R: &str = r#\"crate::check\"#;\nfn g<'a>(c: &'a char) -> char { '\"' }\n\
             use crate::rules::Rule;\nuse super::b;\n\
             #[cfg(test)]\nmod tests { use crate::check::Report; }\n",
        ),
        file("lib.rs", "pub mod check;\npub use crate::check::Report;\n"),
        file("stray/mod.rs", "\n"),
    ];
    let problems = upward_imports(&floors, &files);
    assert_eq!(
        problems,
        [
            "src/ast/mod.rs: `ast` imports `rules`, which is not on a floor below its own",
            "src/rules/style/a.rs: `rules` imports `check`, which is not on a floor below its own",
            "src/rules/style/b.rs: `rules` imports `check`, which is not on a floor below its own",
            "src/rules/style/c.rs: `rules` imports `check`, which is not on a floor below its own",
            "src/source/mod.rs: `source` imports `ast`, which is not on a floor below its own",
            "src/stray: on no floor of ARCHITECTURE.md's layers block",
        ]
    );
}
