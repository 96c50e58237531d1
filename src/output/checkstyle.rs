//! `--format checkstyle`: Checkstyle's XML report, which Jenkins, reviewdog and many
//! code review tools read: every checked file with an `<error>` per finding.

use super::{positions, xml};
use crate::baseline::fingerprint::stable_path;
use crate::check::{FileReport, Report};
use std::io::Write;

pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let (before, after) = xml::frame(|w| {
        w.create_element("checkstyle")
            .with_attribute(xml::attr("version", "4.3"))
            .write_inner_content(|w| {
                w.create_element(xml::FILES_PLACE).write_empty()?;
                Ok(())
            })?;
        Ok(())
    })?;
    xml::write_document(report, (before, after), part, out)
}

/// A file's `<file>` element, with an `<error>` for each finding.
pub(super) fn part(file: &FileReport) -> std::io::Result<Vec<u8>> {
    xml::part(1, |w| {
        let name = stable_path(&file.path);
        let element = w
            .create_element("file")
            .with_attribute(xml::attr("name", &name));
        if file.diagnostics.is_empty() {
            element.write_empty()?;
            return Ok(());
        }
        element.write_inner_content(|w| {
            for d in &file.diagnostics {
                let (start, _) = positions(file, d);
                w.create_element("error")
                    .with_attribute(xml::attr("line", &start.line.to_string()))
                    .with_attribute(xml::attr("column", &start.column.to_string()))
                    .with_attribute(xml::attr("severity", &d.severity.to_string()))
                    .with_attribute(xml::attr("message", &d.message))
                    .with_attribute(xml::attr("source", &format!("pupcheck.{}", d.rule)))
                    .write_empty()?;
            }
            Ok(())
        })?;
        Ok(())
    })
}
