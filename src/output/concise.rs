//! `--format concise`: one line per finding, `path:line:col: rule message`, the form
//! editors and `grep`-style tools read.

use super::positions;
use crate::check::Report;
use std::io::Write;

pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    for (file, d) in report.diagnostics() {
        let (start, _) = positions(file, d);
        writeln!(
            out,
            "{}:{}:{}: {} {}",
            file.path.display(),
            start.line,
            start.column,
            d.rule,
            one_line(&d.message)
        )?;
    }
    Ok(())
}

/// A message on one line (a line-oriented format cannot carry newlines).
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
