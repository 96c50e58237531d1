use crate::diagnostics::Diagnostic;
use crate::hiera::DataFile;

declare_rule! {
    /// ## What it does
    /// Reports a syntax error in a `hiera.yaml` or in a data file one of its levels can name,
    /// at the place the YAML parser stops. Hiera reads YAML with Ruby's Psych (libyaml);
    /// pupcheck reports only the errors that libyaml raises on the same text (measured on real
    /// data files and on mutants of them: scripts/differential/yaml_diff.py), and none in a
    /// file that uses anchors. The message says what pupcheck's parser found; Puppet's (from
    /// libyaml) may word it otherwise and place it a little further on. A file too deep, or
    /// too large once its aliases are expanded, for pupcheck to read is reported by
    /// `unreadable-file` instead.
    ///
    /// ## Why it matters
    /// Puppet fails every lookup that reads the file ("Unable to parse (data/common.yaml):
    /// mapping values are not allowed in this context"), so every catalog whose classes look
    /// up a key in that hierarchy fails to compile, whatever the manifests say.
    ///
    /// ## Example
    /// ```yaml
    /// # data/common.yaml
    /// ntp::servers:
    ///   - 'pool.ntp.org'
    ///  ntp::enable: true     # one space too few
    /// ```
    ///
    /// ## How to fix
    /// Correct the YAML where the message points (indentation, an unclosed quote, a tab, an
    /// escape such as `\d` inside double quotes, which YAML does not know: use single quotes).
    "hiera-syntax" (Type, Error)
    "A Hiera configuration or data file is not YAML Hiera can read"
}

/// The syntax error of one Hiera file, if it has one that Psych raises too; a file
/// over pupcheck's bounds is reported as unreadable.
pub fn check_file(file: &DataFile) -> Vec<Diagnostic> {
    let Err(error) = &file.document else {
        return Vec::new();
    };
    let span = crate::analysis::code_map::rest_of_line(&file.text, error.offset);
    if error.over_bounds {
        return vec![
            crate::rules::syntax::unreadable_file::RULE.diagnostic(span, format!("not read: {}", error.message))
        ];
    }
    if !error.psych_fails_too(&file.text) {
        return Vec::new();
    }
    vec![RULE.diagnostic(span, format!("Unable to parse: {}", error.message))]
}

