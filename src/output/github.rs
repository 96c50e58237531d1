//! `--format github`: GitHub Actions workflow commands, one annotation per finding:
//! `::error file=P,line=L,col=C,endLine=EL,endColumn=EC,title=pupcheck (RULE)::MESSAGE`.
//! GitHub shows them on the pull request's diff.

use super::positions;
use crate::baseline::fingerprint::stable_path;
use crate::diagnostics::Severity;
use std::io::Write;

/// Some of a file's findings (`range`), a workflow command each.
pub(super) fn part(
    file: &crate::check::FileReport,
    range: std::ops::Range<usize>,
) -> std::io::Result<Vec<u8>> {
    let mut part = Vec::new();
    let path = property(&stable_path(&file.path));
    for d in &file.diagnostics[range] {
        let (start, end) = positions(file, d);
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        writeln!(
            part,
            "::{command} file={path},line={},col={},endLine={},endColumn={},title={}::{}",
            start.line,
            start.column,
            end.line,
            end.column,
            property(&format!("pupcheck ({})", d.rule)),
            data(&d.message)
        )?;
    }
    Ok(part)
}

fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value (GitHub's `escapeProperty`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_as_the_actions_toolkit_does() {
        assert_eq!(super::data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(super::property("a:b,c"), "a%3Ab%2Cc");
    }
}
