//! The checks of open documents, on a thread of their own: while a 5 MB class is
//! checked again after a keystroke, hovers and completions are answered.
//!
//! A check is three steps. The main thread decides what to check (a job: the text with
//! its version, the settings); the checking thread parses it and sends what it defines
//! back (`Event::Parsed`); the main thread, which owns the workspace, notes the
//! definitions (a changed one makes the environment be read again and the documents
//! using it checked), keeps the parse for requests and answers with the environment;
//! the checking thread then interprets the file and runs its rules (`Event::Checked`).
//! A job whose document changed since is dropped at the second step: a newer one is
//! due.
//!
//! Architecture Invariant: the checking thread never touches the server's state (the
//! documents, the workspace and its caches): everything it reads comes in a job or an
//! answer, so no lock is needed and a request never waits for a check.

use crate::diagnostics::Diagnostic;
use crate::env::Environment;
use crate::infer::ResumePoints;
use crate::source::{SourceFile, SourceKind};
use crossbeam_channel::{Receiver, Sender};
use lsp_types::Url;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A document's text to check.
pub struct Job {
    pub uri: Url,
    pub version: i32,
    pub path: PathBuf,
    pub kind: SourceKind,
    pub text: String,
    pub settings: Arc<crate::config::Settings>,
}

/// What the checking thread tells the main thread. Every job submitted ends in one
/// `Checked` or one `Dropped`.
pub enum Event {
    /// The job's text parsed, with what it defines for other files (`workspace::
    /// definitions`). The check goes on in the environment sent on `reply`; `None` (or
    /// nothing) drops it.
    Parsed {
        uri: Url,
        version: i32,
        source: Arc<SourceFile>,
        program: Arc<crate::ast::Program>,
        definitions: BTreeMap<String, String>,
        reply: Sender<Option<Arc<Environment>>>,
    },
    /// The job's findings, and the resumptions its interpretation kept.
    Checked {
        uri: Url,
        version: i32,
        /// The program interpreted (the resumptions are of its expressions).
        program: Arc<crate::ast::Program>,
        findings: Findings,
        resume: Option<Arc<ResumePoints>>,
    },
    /// A job ended without findings: superseded by a newer job of its document, stale
    /// when parsed, or failed.
    Dropped,
}

/// What one check of a document found, with the text it was made on (none when it
/// was not parsed).
pub struct Findings {
    pub source: Option<Arc<SourceFile>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Findings {
    pub fn of(diagnostics: Vec<Diagnostic>) -> Findings {
        Findings {
            source: None,
            diagnostics,
        }
    }
}

/// The checking thread: jobs go in, events come out.
pub struct Checker {
    jobs: Sender<Job>,
    pub events: Receiver<Event>,
    /// The jobs submitted whose end (`Checked`, `Dropped`) has not come yet.
    pub in_flight: usize,
    /// The version of each document last submitted.
    pub submitted: std::collections::HashMap<Url, i32>,
}

impl Checker {
    pub fn start() -> Checker {
        let (jobs, queued) = crossbeam_channel::unbounded::<Job>();
        let (sender, events) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("pupcheck-checks".into())
            .spawn(move || {
                let send = |event| sender.send(event).is_ok();
                while let Ok(first) = queued.recv() {
                    let (latest, superseded) = latest_per_document(first, &queued);
                    for _ in 0..superseded {
                        send(Event::Dropped);
                    }
                    for job in latest {
                        // (A bug in a check ends that check, not the thread.)
                        let checked =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                run(job, &send)
                            }));
                        if !matches!(checked, Ok(true)) {
                            send(Event::Dropped);
                        }
                    }
                }
            })
            .expect("start the checking thread");
        Checker {
            jobs,
            events,
            in_flight: 0,
            submitted: Default::default(),
        }
    }

    pub fn submit(&mut self, job: Job) {
        let (uri, version) = (job.uri.clone(), job.version);
        if self.jobs.send(job).is_ok() {
            self.in_flight += 1;
            self.submitted.insert(uri, version);
        }
    }
}

/// The jobs queued, each document's newest only (a document typed into while it was
/// checked is checked once more, not once per keystroke), in the order they came; and
/// how many were left out.
fn latest_per_document(first: Job, queued: &Receiver<Job>) -> (Vec<Job>, usize) {
    let mut jobs = vec![first];
    jobs.extend(queued.try_iter());
    let count = jobs.len();
    let mut latest: Vec<Job> = Vec::new();
    for job in jobs {
        latest.retain(|older| older.uri != job.uri);
        latest.push(job);
    }
    let superseded = count - latest.len();
    (latest, superseded)
}

/// Checks one job, telling `send` what it found; stops when it is answered no
/// environment. Whether it sent the job's findings.
fn run(job: Job, send: &dyn Fn(Event) -> bool) -> bool {
    let Job {
        uri,
        version,
        path,
        kind,
        text,
        settings,
    } = job;
    let (file, definitions) = match parse(path, kind, text) {
        Ok(parsed) => parsed,
        Err(unreadable) => {
            // (Nothing parsed: the document's last parse stays for requests.)
            let checked = Event::Checked {
                uri,
                version,
                program: Arc::default(),
                findings: Findings::of(unreadable),
                resume: None,
            };
            return send(checked);
        }
    };
    let (reply, answer) = crossbeam_channel::bounded(1);
    let parsed = Event::Parsed {
        uri: uri.clone(),
        version,
        source: file.source.clone(),
        program: file.program.clone(),
        definitions,
        reply,
    };
    if !send(parsed) {
        return false;
    }
    let Ok(Some(env)) = answer.recv() else {
        return false;
    };
    let program = file.program.clone();
    let (findings, resume) = check(file, &settings, &env);
    send(Event::Checked {
        uri,
        version,
        program,
        findings,
        resume,
    })
}

/// The text parsed, with what it defines for other files; the finding that it cannot
/// be read as source instead.
pub fn parse(
    path: PathBuf,
    kind: SourceKind,
    text: String,
) -> Result<(crate::syntax::ParsedFile, BTreeMap<String, String>), Vec<Diagnostic>> {
    let source = crate::source::walk::source_from_bytes(path, kind, text.into_bytes())
        .map_err(|diagnostic| vec![diagnostic.into()])?;
    let parsed = crate::syntax::parse(&source);
    let definitions = super::workspace::definitions(&source, &parsed.program);
    Ok((crate::syntax::ParsedFile::new(source, parsed), definitions))
}

/// The findings of a parsed file in `env`, and the resumptions of its interpretation
/// (kept for hovers in long bodies).
pub fn check(
    file: crate::syntax::ParsedFile,
    settings: &crate::config::Settings,
    env: &Environment,
) -> (Findings, Option<Arc<ResumePoints>>) {
    // The interpretation the rules read, keeping resumptions of long bodies' walks.
    // (A panic there is the check's to report: it runs it again.)
    let interpreted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let exprs = crate::ast::preorder(&file.program);
        let view = crate::infer::FileView {
            program: &file.program,
            exprs: &exprs,
            env,
        };
        crate::infer::FileInference::infer_resumable(&view, crate::infer::Spacing::EDITOR)
    }))
    .ok();
    let (inference, resume) = interpreted.unzip();
    let source = file.source.clone();
    // (One document: its rules use two threads, for the editor's sake.)
    let threads = crate::check::RuleThreads::Split;
    let report = match inference {
        Some(inference) => {
            crate::check::run_interpreted_checks(file, settings, env, threads, inference)
        }
        None => crate::check::run_checks(file, settings, env, threads),
    };
    let findings = Findings {
        source: Some(source),
        diagnostics: report.diagnostics,
    };
    (findings, resume.map(Arc::new))
}
