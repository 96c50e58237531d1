use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};
use crate::types::semver_range::VersionRange;

declare_rule! {
    /// ## What it does
    /// Checks the `metadata.json` of each module under the checked paths: that it is JSON
    /// (Puppet 7 warns and ignores the file, Puppet 8 fails every catalog that loads the
    /// module: "ntp has an invalid and unparsable metadata.json file"); that it has the keys
    /// Puppet needs to use it at all (`name`, `version`, `author`, `license`, `source`,
    /// `dependencies`: without one, Puppet treats the module as having no metadata); that its
    /// `version` is a semantic version; and that `dependencies` is a list of modules, each
    /// named `author/module` (or `author-module`) with a `version_requirement` in Puppet's
    /// range syntax (`>= 4.13.1 < 10.0.0`, `1.x`).
    ///
    /// ## Why it matters
    /// Dependencies that cannot be read are not resolved by `puppet module install`, r10k's
    /// dependency checks or the Forge; a version that is not semantic cannot be published.
    ///
    /// ## Example
    /// ```json
    /// { "name": "acme-ntp", "version": "1.0", "dependencies": [] }
    /// ```
    ///
    /// ## How to fix
    /// Write the file as the Forge's metadata format asks (`"version": "1.0.0"`, and the
    /// missing keys).
    "metadata-json" (Documentation, Warning)
    "A module's metadata.json that Puppet cannot read or ignores"
}

/// The findings on a module's `metadata.json` (`source`).
pub fn check_metadata(source: &SourceFile) -> Vec<Diagnostic> {
    let text = &source.text;
    let whole = Span::new(0, text.find('\n').unwrap_or(text.len()) as u32);
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            let at = source
                .offset(error.line() as u32, error.column().max(1) as u32)
                .unwrap_or(0);
            return vec![RULE.diagnostic(
                Span::new(at, at),
                format!("metadata.json is not valid JSON: {error}"),
            )];
        }
    };
    let Some(object) = value.as_object() else {
        return vec![RULE.diagnostic(whole, "metadata.json is not a JSON object")];
    };
    // Where a key is written, to show a finding about its value there.
    let key_span = |key: &str| {
        text.find(&format!("\"{key}\""))
            .map(|at| Span::new(at as u32, (at + key.len() + 2) as u32))
            .unwrap_or(whole)
    };
    let mut out = Vec::new();
    let missing: Vec<&str> = [
        "name",
        "version",
        "author",
        "license",
        "source",
        "dependencies",
    ]
    .into_iter()
    .filter(|k| !object.contains_key(*k))
    .collect();
    if !missing.is_empty() {
        out.push(RULE.diagnostic(
            whole,
            format!(
                "metadata.json lacks {}: Puppet ignores metadata without name, version, author, license, source and dependencies",
                missing.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if let Some(version) = object.get("version") {
        let valid = version
            .as_str()
            .is_some_and(|v| semver::Version::parse(v).is_ok());
        if !valid {
            out.push(RULE.diagnostic(
                key_span("version"),
                format!("'version' is not a semantic version: {version}"),
            ));
        }
    }
    match object.get("dependencies") {
        None => {}
        Some(serde_json::Value::Array(dependencies)) => {
            for dependency in dependencies {
                if let Some(problem) = dependency_problem(dependency) {
                    out.push(RULE.diagnostic(key_span("dependencies"), problem));
                }
            }
        }
        Some(_) => out.push(RULE.diagnostic(
            key_span("dependencies"),
            "'dependencies' is not a list of modules",
        )),
    }
    out
}

/// What is wrong with one entry of `dependencies`, if anything.
fn dependency_problem(dependency: &serde_json::Value) -> Option<String> {
    let Some(name) = dependency.get("name").and_then(|n| n.as_str()) else {
        return Some(format!("a dependency without a module name: {dependency}"));
    };
    let well_named = name.split_once(['/', '-']).is_some_and(|(author, module)| {
        !author.is_empty()
            && !module.is_empty()
            && module
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    });
    if !well_named {
        return Some(format!(
            "dependency '{name}' is not named author/module (or author-module)"
        ));
    }
    match dependency.get("version_requirement") {
        None => None,
        Some(serde_json::Value::String(range)) if VersionRange::is_valid(range) => None,
        Some(range) => Some(format!(
            "dependency '{name}': version_requirement {range} is not a version range Puppet reads"
        )),
    }
}
