//! `--format checkstyle`: Checkstyle's XML report, which Jenkins, reviewdog and many
//! code review tools read: every checked file with an `<error>` per finding.

use super::{positions, xml};
use crate::baseline::fingerprint::stable_path;
use crate::check::Report;
use std::io::Write;

pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let mut writer = xml::writer(out)?;
    writer
        .create_element("checkstyle")
        .with_attribute(xml::attr("version", "4.3"))
        .write_inner_content(|w| {
            for file in &report.files {
                let name = stable_path(&file.path);
                let element = w
                    .create_element("file")
                    .with_attribute(xml::attr("name", &name));
                if file.diagnostics.is_empty() {
                    element.write_empty()?;
                    continue;
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
            }
            Ok(())
        })?;
    xml::finish(writer)
}
