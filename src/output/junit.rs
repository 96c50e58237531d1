//! `--format junit`: a JUnit XML report for CI test tabs: one test case per checked file
//! (its class name is the file's module), failing with one `<failure>` per finding; a
//! path that could not be checked is a test case with an `<error>`.

use super::{positions, xml};
use crate::baseline::fingerprint::stable_path;
use crate::check::{FileReport, Report};
use crate::statistics::module_of;
use std::io::Write;

pub fn write(report: &Report, duration_ms: u128, out: &mut dyn Write) -> std::io::Result<()> {
    let tests = (report.files.len() + report.walk_errors.len()).to_string();
    let failures = report
        .files
        .iter()
        .filter(|f| !f.diagnostics.is_empty())
        .count()
        .to_string();
    let errors = report.walk_errors.len().to_string();
    let time = format!("{:.3}", duration_ms as f64 / 1000.0);
    let counts = [
        ("tests", tests.as_str()),
        ("failures", failures.as_str()),
        ("errors", errors.as_str()),
        ("time", time.as_str()),
    ];
    let (before, after) = xml::frame(|w| {
        w.create_element("testsuites")
            .with_attribute(xml::attr("name", "pupcheck"))
            .with_attributes(counts.map(|(k, v)| xml::attr(k, v)))
            .write_inner_content(|w| {
                w.create_element("testsuite")
                    .with_attribute(xml::attr("name", "pupcheck"))
                    .with_attributes(counts.map(|(k, v)| xml::attr(k, v)))
                    .with_attribute(xml::attr("skipped", "0"))
                    .write_inner_content(|w| {
                        w.create_element(xml::FILES_PLACE).write_empty()?;
                        for (path, message) in &report.walk_errors {
                            let name = stable_path(path);
                            let message = format!("cannot check: {message}");
                            w.create_element("testcase")
                                .with_attribute(xml::attr("name", &name))
                                .with_attribute(xml::attr("classname", "pupcheck"))
                                .write_inner_content(|w| {
                                    w.create_element("error")
                                        .with_attribute(xml::attr("message", &message))
                                        .write_empty()?;
                                    Ok(())
                                })?;
                        }
                        Ok(())
                    })?;
                Ok(())
            })?;
        Ok(())
    })?;
    xml::write_document(report, (before, after), part, out)
}

/// A file's `<testcase>`, with a `<failure>` for each finding.
pub(super) fn part(file: &FileReport) -> std::io::Result<Vec<u8>> {
    xml::part(2, |w| {
        let name = stable_path(&file.path);
        let case = w
            .create_element("testcase")
            .with_attribute(xml::attr("name", &name))
            .with_attribute(xml::attr("classname", &module_of(&file.path)))
            .with_attribute(xml::attr("file", &name));
        if file.diagnostics.is_empty() {
            case.write_empty()?;
            return Ok(());
        }
        case.write_inner_content(|w| {
            for d in &file.diagnostics {
                let (start, _) = positions(file, d);
                let at = format!("{}:{}", start.line, start.column);
                let message = format!("{at}: {}", d.message);
                let body = format!("{}[{}] {name}:{at}: {}", d.severity, d.rule, d.message);
                w.create_element("failure")
                    .with_attribute(xml::attr("type", d.rule.as_str()))
                    .with_attribute(xml::attr("message", &message))
                    .write_text_content(xml::text(&body))?;
            }
            Ok(())
        })?;
        Ok(())
    })
}
