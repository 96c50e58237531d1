//! `--format concise`: one line per finding, `path:line:col: rule message`, the form
//! editors and `grep`-style tools read.

use super::positions;
use std::io::Write;

/// Some of a file's findings (`range`), a line each.
pub(super) fn part(
    file: &crate::check::FileReport,
    range: std::ops::Range<usize>,
) -> std::io::Result<Vec<u8>> {
    let mut part = Vec::new();
    for d in &file.diagnostics[range] {
        let (start, _) = positions(file, d);
        writeln!(
            part,
            "{}:{}:{}: {} {}",
            file.path.display(),
            start.line,
            start.column,
            d.rule,
            one_line(&d.message)
        )?;
    }
    Ok(part)
}

pub(super) fn one_line(message: &str) -> std::borrow::Cow<'_, str> {
    if message.contains(['\n', '\r']) {
        message
            .replace("\r\n", " ")
            .replace(['\n', '\r'], " ")
            .into()
    } else {
        message.into()
    }
}
