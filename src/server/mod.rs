//! `pupcheck server`: a language server over stdio (LSP 3.17), on the crates
//! rust-analyzer uses (`lsp-server`, `lsp-types`). It runs the checking pipeline on
//! the editor's text of each open document, against the environment index of its
//! workspace (`workspace`), and answers hover, go to definition, references,
//! completion of attribute names and code actions from the same analyses.
//!
//! One thread handles every message in order; the checks run on another
//! (`checker`), after typing pauses (`DEBOUNCE`), so requests are answered while a long
//! file is checked. A panic while handling one message is that message's error
//! response: the server goes on.

mod actions;
mod checker;
mod completion;
mod document;
mod folding;
mod formatting;
mod frame;
mod hover;
mod inlay;
mod names;
mod navigation;
mod outline;
mod poll;
mod rename;
mod scopes;
mod target;
mod transport;
mod workspace;

use crate::diagnostics::{Diagnostic, Severity};
use document::Document;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionItem, CompletionItemKind, CompletionOptions,
    CompletionParams, CompletionResponse, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, Location, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ReferenceParams, SaveOptions, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use workspace::Workspace;

/// The most class names a completion offers.
const MAX_COMPLETIONS: usize = 500;
/// How many autoloaded manifests a completion of resource types reads to know whether
/// each defines a type.
const MAX_DEFINED_TYPES_READ: usize = 200;

/// The most definitions a workspace symbol search answers with.
const MAX_WORKSPACE_SYMBOLS: usize = 1_000;

/// How long typing must pause before a changed document is checked again.
const DEBOUNCE: Duration = Duration::from_millis(250);

/// Runs the server on stdin and stdout until the client says `exit`; the process's
/// exit status (LSP: 0 after `shutdown`, 1 otherwise).
pub fn run_stdio() -> i32 {
    let (connection, threads) = transport::stdio();
    let status = run(connection);
    threads.join();
    status
}

/// Runs the server on `connection` until `exit` (or the client is gone).
pub fn run(connection: Connection) -> i32 {
    let mut server: Option<Server> = None;
    let mut shut_down = false;
    loop {
        // The client's next message, what the checking thread found, or the time for
        // what is due (checks after typing paused, a listing of the workspace).
        let deadline = server.as_ref().and_then(Server::next_deadline);
        let due = deadline.map_or_else(crossbeam_channel::never, crossbeam_channel::at);
        let events = server
            .as_ref()
            .map_or_else(crossbeam_channel::never, |s| s.checker.events.clone());
        let message = crossbeam_channel::select! {
            recv(connection.receiver) -> message => match message {
                Ok(message) => message,
                Err(_) => return 1,
            },
            recv(events) -> event => {
                if let (Ok(event), Some(server)) = (event, server.as_mut()) {
                    guarded(|| server.event(event), ());
                }
                continue;
            }
            recv(due) -> _ => {
                if let Some(server) = server.as_mut() {
                    guarded(|| server.tick(), ());
                }
                continue;
            }
        };
        match message {
            Message::Request(request) => {
                let response = if request.method == lsp_types::request::Initialize::METHOD {
                    match server {
                        Some(_) => error(
                            &request.id,
                            ErrorCode::InvalidRequest,
                            "already initialized",
                        ),
                        None => match initialize(&connection, &request) {
                            Ok((started, result)) => {
                                server = Some(started);
                                Response::new_ok(request.id.clone(), result)
                            }
                            Err(message) => error(&request.id, ErrorCode::InvalidParams, &message),
                        },
                    }
                } else if request.method == lsp_types::request::Shutdown::METHOD {
                    if let (Some(server), false) = (server.as_mut(), shut_down) {
                        guarded(|| server.finish_checks(), ());
                    }
                    shut_down = true;
                    Response::new_ok(request.id.clone(), ())
                } else {
                    match server.as_mut() {
                        None => error(
                            &request.id,
                            ErrorCode::ServerNotInitialized,
                            "the server is not initialized",
                        ),
                        Some(_) if shut_down => error(
                            &request.id,
                            ErrorCode::InvalidRequest,
                            "the server is shutting down",
                        ),
                        Some(server) => {
                            let id = request.id.clone();
                            guarded(|| Some(server.request(request)), None).unwrap_or_else(|| {
                                error(
                                    &id,
                                    ErrorCode::InternalError,
                                    "pupcheck failed on this request",
                                )
                            })
                        }
                    }
                };
                if connection.sender.send(response.into()).is_err() {
                    return 1;
                }
            }
            Message::Notification(notification) => {
                if notification.method == lsp_types::notification::Exit::METHOD {
                    return if shut_down { 0 } else { 1 };
                }
                if notification.method == transport::UNREADABLE {
                    let message = notification.params.as_str().unwrap_or_default().to_string();
                    let log = lsp_types::LogMessageParams {
                        typ: lsp_types::MessageType::ERROR,
                        message,
                    };
                    let _ = connection
                        .sender
                        .send(Message::Notification(Notification::new(
                            lsp_types::notification::LogMessage::METHOD.to_string(),
                            log,
                        )));
                    continue;
                }
                if let (Some(server), false) = (server.as_mut(), shut_down) {
                    guarded(|| server.notification(notification), ());
                }
            }
            // Answers to the server's own requests (registering watchers): nothing to do.
            Message::Response(_) => {}
        }
    }
}

/// Runs `f`; a panic (a bug) gives `fallback` instead of ending the server.
fn guarded<T>(f: impl FnOnce() -> T, fallback: T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(fallback)
}

fn error(id: &RequestId, code: ErrorCode, message: &str) -> Response {
    Response::new_err(id.clone(), code as i32, message.to_string())
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        signature_help_provider: Some(lsp_types::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            ..lsp_types::SignatureHelpOptions::default()
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        references_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        // (`:` for `ntp::`, a quote for `include '`, `Class['`, `lookup('` and
        // `$facts['`; `$` for variables, `.` for a method call.)
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                ":".into(),
                "'".into(),
                "\"".into(),
                "$".into(),
                ".".into(),
            ]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE_FIX_ALL,
            ]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

fn initialize(
    connection: &Connection,
    request: &Request,
) -> Result<(Server, serde_json::Value), String> {
    let params: InitializeParams = serde_json::from_value(request.params.clone())
        .map_err(|e| format!("invalid initialize parameters: {e}"))?;
    let mut folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| f.uri.to_file_path().ok())
        .collect();
    #[allow(deprecated)]
    if folders.is_empty() {
        folders.extend(params.root_uri.as_ref().and_then(|u| u.to_file_path().ok()));
    }
    let watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "pupcheck", "version": crate::VERSION },
    });
    let poller = (!watch).then(|| poll::Poller::new(&folders));
    let inlay_hints = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("inlayHints"))
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    let server = Server {
        sender: connection.sender.clone(),
        checker: checker::Checker::start(),
        poller,
        workspace: Workspace::new(folders),
        documents: BTreeMap::new(),
        pending: HashMap::new(),
        definitions: HashMap::new(),
        config_published: Vec::new(),
        watch,
        inlay_hints,
        next_id: 0,
    };
    Ok((server, result))
}

struct Server {
    sender: crossbeam_channel::Sender<Message>,
    /// The thread the documents are checked on.
    checker: checker::Checker,
    workspace: Workspace,
    documents: BTreeMap<Url, Document>,
    /// Documents to check, each when its time comes (typing paused).
    pending: HashMap<Url, Instant>,
    /// What each open document defines for the others, as last checked.
    definitions: HashMap<Url, BTreeMap<String, String>>,
    /// The configuration files a diagnostic was published on.
    config_published: Vec<PathBuf>,
    /// Whether to ask the client to tell of changed files on disk.
    watch: bool,
    /// Where the client cannot tell, the listing of the workspace's files that finds
    /// what changed on disk.
    poller: Option<poll::Poller>,
    /// Whether the client asked for inlay hints (`initializationOptions`).
    inlay_hints: bool,
    next_id: i32,
}

/// An attribute a resource body can set: a parameter of a class or defined type
/// (its type and default as written), or a resource type's attribute.
struct BodyAttribute {
    name: String,
    ty: String,
    default: Option<String>,
    is_parameter: bool,
}

/// What checking an open document takes: findings known at once (a file excluded, a
/// Hiera document), or a check on the checking thread.
enum Work {
    Found(checker::Findings),
    Check(checker::Job),
}

impl Server {
    fn next_deadline(&self) -> Option<Instant> {
        let poll = self.poller.as_ref().map(|p| p.next);
        self.pending.values().copied().chain(poll).min()
    }

    /// What is due: the checks of documents whose typing paused, a listing of the
    /// workspace's files.
    fn tick(&mut self) {
        self.check_due();
        let Some(poller) = self.poller.as_mut().filter(|p| p.next <= Instant::now()) else {
            return;
        };
        let uris: Vec<Url> = poller
            .changed()
            .iter()
            .filter_map(|p| Url::from_file_path(p).ok())
            .collect();
        if !uris.is_empty() {
            self.disk_changed(&uris);
        }
    }

    fn send(&self, message: impl Into<Message>) {
        let _ = self.sender.send(message.into());
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params));
    }

    fn request(&mut self, request: Request) -> Response {
        use lsp_types::request::*;
        fn json<T: serde::Serialize>(answer: Option<T>) -> serde_json::Value {
            serde_json::to_value(answer).unwrap_or(serde_json::Value::Null)
        }
        let id = request.id.clone();
        let document = request
            .params
            .get("textDocument")
            .and_then(|d| d.get("uri"));
        if let Some(uri) = document.and_then(|u| Url::parse(u.as_str()?).ok()) {
            self.await_parse(&uri);
        }
        let result = match request.method.as_str() {
            HoverRequest::METHOD => params(request).and_then(|p| self.hover(p)).map(json),
            GotoDefinition::METHOD => params(request).and_then(|p| self.definition(p)).map(json),
            References::METHOD => params(request).and_then(|p| self.references(p)).map(json),
            Completion::METHOD => params(request).and_then(|p| self.completion(p)).map(json),
            SignatureHelpRequest::METHOD => params(request)
                .and_then(|p| self.signature_help(p))
                .map(json),
            WorkspaceSymbolRequest::METHOD => params(request)
                .and_then(|p| self.workspace_symbols(p))
                .map(json),
            FoldingRangeRequest::METHOD => params(request)
                .and_then(|p| self.folding_ranges(p))
                .map(json),
            DocumentSymbolRequest::METHOD => params(request)
                .and_then(|p| self.document_symbols(p))
                .map(json),
            CodeActionRequest::METHOD => {
                params(request).and_then(|p| self.code_actions(p)).map(json)
            }
            PrepareRenameRequest::METHOD => params(request)
                .and_then(|p| self.prepare_rename(p))
                .map(json),
            Rename::METHOD => params(request).and_then(|p| self.rename(p)).map(json),
            InlayHintRequest::METHOD => params(request).and_then(|p| self.inlay_hints(p)).map(json),
            Formatting::METHOD => params(request)
                .and_then(|p: lsp_types::DocumentFormattingParams| {
                    self.formatting(&p.text_document.uri, None)
                })
                .map(json),
            RangeFormatting::METHOD => params(request)
                .and_then(|p: lsp_types::DocumentRangeFormattingParams| {
                    self.formatting(&p.text_document.uri, Some(p.range))
                })
                .map(json),
            _ => {
                return error(
                    &id,
                    ErrorCode::MethodNotFound,
                    &format!("pupcheck does not answer {}", request.method),
                )
            }
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => error(&id, ErrorCode::InvalidParams, &message),
        }
    }

    fn notification(&mut self, notification: Notification) {
        use lsp_types::notification::*;
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<DidOpenTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let Some(path) = document_path(&p.text_document.uri) else {
                    return;
                };
                let uri = p.text_document.uri.clone();
                let doc = Document::new(
                    uri.clone(),
                    path,
                    p.text_document.version,
                    p.text_document.text,
                );
                self.workspace
                    .forget_environment(Some(&crate::env::environment_root(&doc.path)));
                self.documents.insert(uri.clone(), doc);
                self.publish(&uri);
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<DidChangeTextDocumentParams>(notification.params)
                else {
                    return;
                };
                if let Some(doc) = self.documents.get_mut(&p.text_document.uri) {
                    if doc.apply(p.text_document.version, p.content_changes) {
                        self.pending
                            .insert(p.text_document.uri, Instant::now() + DEBOUNCE);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<DidSaveTextDocumentParams>(notification.params)
                else {
                    return;
                };
                self.disk_changed(&[p.text_document.uri]);
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<DidCloseTextDocumentParams>(notification.params)
                else {
                    return;
                };
                let uri = p.text_document.uri;
                let mut discarded = false;
                if let Some(doc) = self.documents.remove(&uri) {
                    self.workspace
                        .forget_environment(Some(&crate::env::environment_root(&doc.path)));
                    // Closed with edits not saved: the other documents were checked
                    // against text that is gone, the file on disk is what holds now.
                    discarded =
                        std::fs::read(&doc.path).ok().as_deref() != Some(doc.text.as_bytes());
                }
                self.pending.remove(&uri);
                self.definitions.remove(&uri);
                self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
                    uri,
                    Vec::new(),
                    None,
                ));
                if discarded {
                    let open: Vec<Url> = self.documents.keys().cloned().collect();
                    for other in open {
                        self.publish(&other);
                    }
                }
            }
            DidChangeWatchedFiles::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<DidChangeWatchedFilesParams>(notification.params)
                else {
                    return;
                };
                let uris: Vec<Url> = p.changes.into_iter().map(|c| c.uri).collect();
                self.disk_changed(&uris);
            }
            Initialized::METHOD => self.register_watchers(),
            _ => {}
        }
    }

    /// Asks the client to tell of changes to the files the index reads.
    fn register_watchers(&mut self) {
        if !self.watch {
            return;
        }
        let watchers: Vec<serde_json::Value> = [
            "**/*.pp",
            "**/*.epp",
            "**/*.{yaml,yml,eyaml}",
            "**/metadata.json",
            "**/lib/puppet/**/*.rb",
            "**/{pupcheck.toml,.puppet-lint.rc}",
        ]
        .iter()
        .map(|glob| serde_json::json!({ "globPattern": glob }))
        .collect();
        self.next_id += 1;
        let registration = serde_json::json!({
            "registrations": [{
                "id": "pupcheck-watched-files",
                "method": lsp_types::notification::DidChangeWatchedFiles::METHOD,
                "registerOptions": { "watchers": watchers },
            }]
        });
        self.send(Request::new(
            RequestId::from(format!("pupcheck-{}", self.next_id)),
            lsp_types::request::RegisterCapability::METHOD.to_string(),
            registration,
        ));
    }

    /// Files changed on disk (saved, or changed outside the editor): the indexes and
    /// configurations read from disk are read again, and the open documents checked.
    fn disk_changed(&mut self, uris: &[Url]) {
        let configuration = uris.iter().any(|u| {
            u.path().ends_with("/pupcheck.toml") || u.path().ends_with("/.puppet-lint.rc")
        });
        if configuration {
            self.workspace.reload_configuration();
        }
        self.workspace.forget_environment(None);
        let open: Vec<Url> = self.documents.keys().cloned().collect();
        for uri in open {
            self.publish(&uri);
        }
        if configuration {
            self.publish_config_errors();
        }
    }

    /// Checks the documents whose typing has paused.
    fn check_due(&mut self) {
        let now = Instant::now();
        let due: Vec<Url> = self
            .pending
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(u, _)| u.clone())
            .collect();
        for uri in due {
            self.pending.remove(&uri);
            self.publish(&uri);
        }
    }

    /// Checks an open document (on the checking thread) and publishes its findings;
    /// when what it defines for other files changed, the open documents that use those
    /// names are checked too.
    fn publish(&mut self, uri: &Url) {
        self.pending.remove(uri);
        let Some(version) = self.documents.get(uri).map(|d| d.version) else {
            return;
        };
        match self.work(uri) {
            Some(Work::Found(findings)) => self.publish_findings(uri, version, findings),
            Some(Work::Check(job)) => self.checker.submit(job),
            None => {}
        }
    }

    /// What the checking thread found.
    fn event(&mut self, event: checker::Event) {
        if matches!(
            event,
            checker::Event::Checked { .. } | checker::Event::Dropped
        ) {
            self.checker.in_flight = self.checker.in_flight.saturating_sub(1);
        }
        match event {
            checker::Event::Dropped => {}
            checker::Event::Parsed {
                uri,
                version,
                source,
                program,
                definitions,
                reply,
            } => {
                let env = self.parsed(&uri, version, source, program, definitions);
                let _ = reply.send(env);
            }
            checker::Event::Checked {
                uri,
                version,
                program,
                findings,
                resume,
            } => {
                // (Findings of an older text: a check of the newer one is due.)
                if self
                    .documents
                    .get(&uri)
                    .is_some_and(|d| d.version == version)
                {
                    self.keep_resumptions(&uri, &program, resume);
                    self.publish_findings(&uri, version, findings);
                }
            }
        }
    }

    /// Before a request on a document whose check is under way: waits for the parse the
    /// checking thread makes first (parsing a long file again here would make the
    /// request wait longer, and slow the check).
    fn await_parse(&mut self, uri: &Url) {
        loop {
            let Some(doc) = self.documents.get(uri) else {
                return;
            };
            let parsed = doc
                .analysed
                .as_ref()
                .is_some_and(|a| a.version == doc.version);
            let checking = self.checker.submitted.get(uri) == Some(&doc.version);
            if parsed || !checking || self.checker.in_flight == 0 {
                return;
            }
            match self.checker.events.recv() {
                Ok(event) => self.event(event),
                Err(_) => return,
            }
        }
    }

    /// Waits for the checks under way and publishes their findings (the client shutting
    /// down still gets the findings of what it opened).
    fn finish_checks(&mut self) {
        while self.checker.in_flight > 0 {
            match self.checker.events.recv() {
                Ok(event) => self.event(event),
                Err(_) => break,
            }
        }
    }

    /// Publishes a document's findings, and keeps them for its code actions while the
    /// document is at that version.
    fn publish_findings(&mut self, uri: &Url, version: i32, findings: checker::Findings) {
        let findings = std::sync::Arc::new(findings);
        if let Some(doc) = self.documents.get_mut(uri) {
            doc.findings = Some((version, findings.clone()));
        }
        let Some(doc) = self.documents.get(uri) else {
            return;
        };
        let diagnostics = findings
            .diagnostics
            .iter()
            .map(|d| self.shown(doc, d))
            .collect();
        self.notify::<lsp_types::notification::PublishDiagnostics>(PublishDiagnosticsParams::new(
            uri.clone(),
            diagnostics,
            Some(version),
        ));
        self.publish_config_errors();
    }

    /// The configuration files that cannot be read, each with its error (and the files
    /// that no longer have one, cleared).
    fn publish_config_errors(&mut self) {
        let now: Vec<PathBuf> = self.workspace.config_errors.keys().cloned().collect();
        for path in self.config_published.iter().filter(|p| !now.contains(p)) {
            if let Ok(uri) = Url::from_file_path(path) {
                self.notify::<lsp_types::notification::PublishDiagnostics>(
                    PublishDiagnosticsParams::new(uri, Vec::new(), None),
                );
            }
        }
        for (path, e) in &self.workspace.config_errors {
            let Ok(uri) = Url::from_file_path(path) else {
                continue;
            };
            let line = e.line.map_or(0, |l| l.saturating_sub(1)) as u32;
            // The whole line (LSP numbers stop at 2^31 - 1).
            let diagnostic = lsp_types::Diagnostic {
                range: lsp_types::Range::new(
                    lsp_types::Position::new(line, 0),
                    lsp_types::Position::new(line + 1, 0),
                ),
                severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                code: Some(lsp_types::NumberOrString::String("config".into())),
                source: Some("pupcheck".into()),
                message: format!(
                    "{}; the files it governs are checked with the default settings",
                    e.message
                ),
                ..lsp_types::Diagnostic::default()
            };
            self.notify::<lsp_types::notification::PublishDiagnostics>(
                PublishDiagnosticsParams::new(uri, vec![diagnostic], None),
            );
        }
        self.config_published = now;
    }

    /// Checks an open document's text now (for a request that needs its findings).
    fn check(&mut self, uri: &Url) -> Option<checker::Findings> {
        let job = match self.work(uri)? {
            Work::Found(findings) => return Some(findings),
            Work::Check(job) => job,
        };
        let (file, definitions) = match checker::parse(job.path, job.kind, job.text) {
            Ok(parsed) => parsed,
            Err(unreadable) => return Some(checker::Findings::of(unreadable)),
        };
        let (source, program) = (file.source.clone(), file.program.clone());
        let env = self.parsed(uri, job.version, source, program.clone(), definitions)?;
        let (findings, resume) = checker::check(file, &job.settings, &env);
        self.keep_resumptions(uri, &program, resume);
        Some(findings)
    }

    /// What checking an open document takes.
    fn work(&mut self, uri: &Url) -> Option<Work> {
        let doc = self.documents.get(uri)?;
        let path = doc.path.clone();
        if self.workspace.is_excluded(&path) {
            return Some(Work::Found(checker::Findings::of(Vec::new())));
        }
        let settings = self.workspace.settings(&path);
        if is_hiera_document(&path) {
            let env = self.workspace.environment(&path, &self.documents);
            let doc = self.documents.get(uri)?;
            let diagnostics =
                crate::check::hiera::document_findings(&path, &doc.text, &env, &settings);
            return Some(Work::Found(checker::Findings::of(
                diagnostics.unwrap_or_default(),
            )));
        }
        Some(Work::Check(checker::Job {
            uri: uri.clone(),
            version: doc.version,
            path,
            kind: doc.kind(),
            text: doc.text.clone(),
            settings,
        }))
    }

    /// Notes a document's text parsed for a check: requests read that parse from now
    /// on, and what it defines for other files (a change is read into the environment,
    /// and the documents using it are checked again). The environment to check it in;
    /// none when the document is closed or changed since (its check is dropped).
    fn parsed(
        &mut self,
        uri: &Url,
        version: i32,
        source: std::sync::Arc<crate::source::SourceFile>,
        program: std::sync::Arc<crate::ast::Program>,
        defined: BTreeMap<String, String>,
    ) -> Option<std::sync::Arc<crate::env::Environment>> {
        let doc = self
            .documents
            .get_mut(uri)
            .filter(|d| d.version == version)?;
        // What requests read until the text changes (a hover does not parse again).
        doc.analysed = Some(document::Analysed {
            version,
            source,
            program,
            resume: None,
        });
        let path = doc.path.clone();
        let before = self.definitions.insert(uri.clone(), defined.clone());
        let root = crate::env::environment_root(&path);
        if before.as_ref().is_some_and(|b| *b != defined) {
            self.workspace.forget_environment(Some(&root));
            self.schedule_dependents(uri, &root, before.as_ref(), &defined);
        }
        Some(self.workspace.environment(&path, &self.documents))
    }

    /// Keeps the resumptions a check's interpretation kept, while requests read the
    /// program it interpreted.
    fn keep_resumptions(
        &mut self,
        uri: &Url,
        program: &std::sync::Arc<crate::ast::Program>,
        resume: Option<std::sync::Arc<crate::infer::ResumePoints>>,
    ) {
        let analysed = self
            .documents
            .get_mut(uri)
            .and_then(|d| d.analysed.as_mut());
        if let Some(analysed) = analysed.filter(|a| std::sync::Arc::ptr_eq(&a.program, program)) {
            analysed.resume = resume;
        }
    }

    /// Schedules the open documents of `root` that mention a name whose definition
    /// changed between `before` and `after`.
    fn schedule_dependents(
        &mut self,
        changed_in: &Url,
        root: &workspace::Root,
        before: Option<&BTreeMap<String, String>>,
        after: &BTreeMap<String, String>,
    ) {
        let empty = BTreeMap::new();
        let before = before.unwrap_or(&empty);
        let names: Vec<String> = before
            .iter()
            .filter(|(k, v)| after.get(*k) != Some(v))
            .chain(after.iter().filter(|(k, v)| before.get(*k) != Some(v)))
            .map(|(k, _)| {
                let name = workspace::summary_name(k);
                name.rsplit("::")
                    .next()
                    .unwrap_or(name)
                    .to_ascii_lowercase()
            })
            .collect();
        let now = Instant::now();
        for doc in self.documents.values() {
            if &doc.uri == changed_in || crate::env::environment_root(&doc.path) != *root {
                continue;
            }
            let text = doc.text.to_ascii_lowercase();
            if names.iter().any(|n| text.contains(n.as_str())) {
                self.pending.insert(doc.uri.clone(), now);
            }
        }
    }

    /// A finding as the editor shows it.
    fn shown(&self, doc: &Document, d: &Diagnostic) -> lsp_types::Diagnostic {
        let mut message = d.message.clone();
        for note in &d.notes {
            message.push('\n');
            message.push_str(note);
        }
        let related: Vec<lsp_types::DiagnosticRelatedInformation> = d
            .labels
            .iter()
            .map(|l| lsp_types::DiagnosticRelatedInformation {
                location: Location::new(doc.uri.clone(), doc.reported_range(l.span)),
                message: l.message.clone(),
            })
            .collect();
        lsp_types::Diagnostic {
            range: doc.reported_range(d.span),
            severity: Some(match d.severity {
                Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
                Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
                Severity::Info => lsp_types::DiagnosticSeverity::INFORMATION,
            }),
            code: Some(lsp_types::NumberOrString::String(d.rule.to_string())),
            source: Some("pupcheck".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..lsp_types::Diagnostic::default()
        }
    }

    /// The open document, its text parsed, the index it is checked against, and the
    /// offset of `position` in pupcheck's terms.
    fn at<'s>(&'s mut self, uri: &Url, position: lsp_types::Position) -> Result<At<'s>, String> {
        let doc = self.open_document(uri)?;
        let offset = doc.reported_offset(position);
        let (source, program) = current_program(doc)?;
        let resume = doc
            .analysed
            .as_ref()
            .filter(|analysed| std::sync::Arc::ptr_eq(&analysed.program, &program))
            .and_then(|analysed| analysed.resume.clone());
        let path = doc.path.clone();
        let env = self.workspace.environment(&path, &self.documents);
        Ok(At {
            resume,
            doc: &self.documents[uri],
            workspace: &self.workspace,
            documents: &self.documents,
            source,
            program,
            env,
            offset,
        })
    }

    /// The signatures of the function whose arguments the cursor is in: Puppet's own
    /// (each dispatch, as Puppet prints it) or one the environment defines in Puppet.
    fn signature_help(
        &mut self,
        p: lsp_types::SignatureHelpParams,
    ) -> Result<Option<lsp_types::SignatureHelp>, String> {
        let position = p.text_document_position_params;
        let uri = position.text_document.uri;
        let doc = self.open_document(&uri)?;
        let offset = doc.offset(position.position) as usize;
        let Some((name, argument)) = completion::call_at(&doc.text, offset) else {
            return self.resource_signature(&uri, offset);
        };
        let key = crate::env::definition_key(&name);
        let mut signatures = Vec::new();
        if let Some(crate::builtin::functions::Function::Typed(dispatches)) =
            crate::builtin::functions::function(&key)
        {
            for dispatch in dispatches.iter().filter(|d| !d.mismatch_handler) {
                let parameters: Vec<String> = dispatch
                    .names
                    .iter()
                    .zip(&dispatch.types)
                    .map(|(name, ty)| format!("{ty} ${name}"))
                    .collect();
                let returns = dispatch.returns.as_ref().map(|t| t.to_string());
                signatures.push(signature(&key, &parameters, returns.as_deref()));
            }
        } else {
            let path = doc.path.clone();
            let env = self.workspace.environment(&path, &self.documents);
            if let Some(function) = env.function(&key) {
                let text = self.workspace.text(&function.path, &self.documents);
                let parameters: Vec<String> = function
                    .params
                    .iter()
                    .flatten()
                    .filter_map(|p| Some(text.as_deref()?.get(p.span.range())?.to_string()))
                    .collect();
                signatures.push(signature(&key, &parameters, None));
            }
        }
        if signatures.is_empty() {
            return Ok(None);
        }
        // The dispatch that takes as many arguments as written, else the first.
        let active = signatures
            .iter()
            .position(|s| {
                s.parameters
                    .as_ref()
                    .is_some_and(|p| p.len() as u32 > argument)
            })
            .unwrap_or(0);
        Ok(Some(lsp_types::SignatureHelp {
            signatures,
            active_signature: Some(active as u32),
            active_parameter: Some(argument),
        }))
    }

    /// The definitions of the workspace whose name holds the query (any case): classes,
    /// defined types, functions and type aliases, the first `MAX_WORKSPACE_SYMBOLS`.
    fn workspace_symbols(
        &mut self,
        p: lsp_types::WorkspaceSymbolParams,
    ) -> Result<Option<lsp_types::WorkspaceSymbolResponse>, String> {
        let query = p.query.to_ascii_lowercase();
        let mut found = Vec::new();
        for file in self.workspace.programs(&self.documents) {
            for symbol in crate::env::symbols::symbols(&file.program) {
                if found.len() >= MAX_WORKSPACE_SYMBOLS {
                    break;
                }
                if !symbol.name.contains(&query) {
                    continue;
                }
                let kind = match symbol.kind {
                    crate::env::symbols::SymbolKind::Class => lsp_types::SymbolKind::CLASS,
                    crate::env::symbols::SymbolKind::Define => lsp_types::SymbolKind::STRUCT,
                    crate::env::symbols::SymbolKind::Function => lsp_types::SymbolKind::FUNCTION,
                    crate::env::symbols::SymbolKind::TypeAlias => {
                        lsp_types::SymbolKind::TYPE_PARAMETER
                    }
                };
                let Some(location) =
                    navigation::location(&file.source.path, &file.source.text, symbol.name_span)
                else {
                    continue;
                };
                #[allow(deprecated)] // (`deprecated` is a field every client still reads.)
                found.push(lsp_types::SymbolInformation {
                    name: symbol.name,
                    kind,
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: Some(symbol.kind.to_string()),
                });
            }
        }
        Ok(Some(lsp_types::WorkspaceSymbolResponse::Flat(found)))
    }

    fn open_document(&self, uri: &Url) -> Result<&Document, String> {
        self.documents
            .get(uri)
            .ok_or_else(|| format!("{uri} is not open"))
    }

    /// An open document of Puppet code and its program (`None` for a Hiera file).
    fn puppet_program(
        &self,
        uri: &Url,
    ) -> Result<Option<(&Document, std::sync::Arc<crate::ast::Program>)>, String> {
        let doc = self.open_document(uri)?;
        if is_hiera_document(&doc.path) {
            return Ok(None);
        }
        Ok(Some((doc, current_program(doc)?.1)))
    }

    /// Where the document folds: definitions, declarations, blocks, comment runs.
    fn folding_ranges(
        &mut self,
        p: lsp_types::FoldingRangeParams,
    ) -> Result<Option<Vec<lsp_types::FoldingRange>>, String> {
        let Some((doc, program)) = self.puppet_program(&p.text_document.uri)? else {
            return Ok(None);
        };
        Ok(Some(folding::folding_ranges(&program, doc)))
    }

    /// The document's outline: definitions holding the resources they declare.
    fn document_symbols(
        &mut self,
        p: lsp_types::DocumentSymbolParams,
    ) -> Result<Option<lsp_types::DocumentSymbolResponse>, String> {
        let Some((doc, program)) = self.puppet_program(&p.text_document.uri)? else {
            return Ok(None);
        };
        Ok(Some(lsp_types::DocumentSymbolResponse::Nested(
            outline::outline(&program, doc),
        )))
    }

    fn hover(&mut self, p: HoverParams) -> Result<Option<Hover>, String> {
        let position = p.text_document_position_params;
        let at = self.at(&position.text_document.uri, position.position)?;
        // (Only what a hover reads: the expressions holding the place, found by
        // descending the tree, and the index; not a check's context.)
        let exprs = crate::ast::holding(at.program(), at.offset);
        let view = crate::infer::FileView {
            program: at.program(),
            exprs: &exprs,
            env: &at.env,
        };
        let markdown = (|| {
            // A comment is no expression's (not the `if` around it). (Comments are in
            // source order: the one starting last before the offset is the candidate.)
            let comments = &at.program().comments;
            let before = comments.partition_point(|c| c.span.start <= at.offset);
            if before > 0 && at.offset < comments[before - 1].span.end {
                return None;
            }
            let found = target::target_at(at.program(), &exprs, at.offset);
            if let Some((target::Target::Attribute { owner, name }, span)) = &found {
                let markdown = hover::attribute(&at.env, owner, name, |path| {
                    at.workspace.text(path, at.documents)
                });
                return markdown.map(|m| (m, *span));
            }
            if let Some((found, span)) = &found {
                let site = navigation::site(&at.env, found, &at.doc.path);
                let text = site
                    .as_ref()
                    .and_then(|s| at.workspace.text(&s.path, at.documents));
                let described = hover::describe(found, &at.env, site.as_ref().zip(text.as_deref()));
                if let Some(markdown) = described {
                    return Some((markdown, *span));
                }
            }
            let (span, answers) =
                crate::infer::answer::answers_at(&view, at.offset, at.resume.as_deref())?;
            let mut markdown = hover::answers(at.source.slice(span), &answers);
            if let Some((target::Target::Variable(name), _)) = &found {
                markdown.push_str(&hover::class_parameter(name, &at.env, |path| {
                    at.workspace.text(path, at.documents)
                }));
            }
            Some((markdown, span))
        })();
        Ok(markdown.map(|(value, span)| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(at.doc.reported_range(span)),
        }))
    }

    fn definition(
        &mut self,
        p: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>, String> {
        let position = p.text_document_position_params;
        let at = self.at(&position.text_document.uri, position.position)?;
        let exprs = crate::ast::holding(at.program(), at.offset);
        let Some((found, _)) = target::target_at(at.program(), &exprs, at.offset) else {
            return Ok(None);
        };
        let locations: Vec<Location> = match &found {
            target::Target::Variable(name) => navigation::variable_locations(
                name,
                at.offset,
                at.doc,
                at.program(),
                &at.env,
                at.workspace,
                at.documents,
            ),
            target::Target::HieraKey(key) => navigation::hiera_locations(&at.env, key),
            target::Target::Attribute { owner, name } => {
                navigation::attribute_location(&at.env, owner, name, at.workspace, at.documents)
                    .into_iter()
                    .collect()
            }
            other => navigation::site(&at.env, other, &at.doc.path)
                .and_then(|site| navigation::site_location(&site, at.workspace, at.documents))
                .into_iter()
                .collect(),
        };
        Ok(match locations.len() {
            0 => None,
            1 => Some(GotoDefinitionResponse::Scalar(
                locations.into_iter().next().expect("one"),
            )),
            _ => Some(GotoDefinitionResponse::Array(locations)),
        })
    }

    fn references(&mut self, p: ReferenceParams) -> Result<Option<Vec<Location>>, String> {
        let position = p.text_document_position;
        let (kind, name) = {
            let at = self.at(&position.text_document.uri, position.position)?;
            let exprs = crate::ast::holding(at.program(), at.offset);
            let Some((found, _)) = target::target_at(at.program(), &exprs, at.offset) else {
                return Ok(None);
            };
            let Some(referenced) = navigation::referenced_definition(&at.env, &found) else {
                return Ok(None);
            };
            referenced
        };
        let mut locations = Vec::new();
        let programs = self.workspace.programs(&self.documents);
        for file in &programs {
            let mut spans = navigation::uses_in(&file.program, kind, &name);
            if p.context.include_declaration {
                spans.extend(
                    crate::env::symbols::find(&file.program, kind, &name)
                        .map(|symbol| symbol.name_span),
                );
            }
            locations.extend(
                spans
                    .into_iter()
                    .filter_map(|span| navigation::source_location(&file.source, span)),
            );
        }
        Ok(Some(locations))
    }

    fn completion(&mut self, p: CompletionParams) -> Result<Option<CompletionResponse>, String> {
        let position = p.text_document_position;
        let uri = position.text_document.uri;
        let doc = self.open_document(&uri)?;
        let offset = doc.offset(position.position) as usize;
        if let Some(prefix) = completion::class_name_prefix(&doc.text, offset) {
            return Ok(Some(self.class_completion(&uri, &prefix)));
        }
        let Some(body) = completion::resource_body(&doc.text, offset) else {
            return self.name_completion(&uri, offset);
        };
        let path = doc.path.clone();
        let Some(attributes) = self.body_attributes(&path, &body) else {
            return Ok(None);
        };
        let item = |name: &str, detail: String, kind: CompletionItemKind| CompletionItem {
            label: name.to_string(),
            kind: Some(kind),
            detail: Some(detail),
            insert_text: Some(format!("{name} => ")),
            filter_text: Some(name.to_string()),
            ..CompletionItem::default()
        };
        let mut items: Vec<CompletionItem> = attributes
            .into_iter()
            .map(|a| {
                let (detail, kind) = match a.default {
                    Some(_) if a.is_parameter => {
                        (format!("{} (optional)", a.ty), CompletionItemKind::FIELD)
                    }
                    _ if a.is_parameter => (a.ty, CompletionItemKind::FIELD),
                    _ => (a.ty, CompletionItemKind::PROPERTY),
                };
                item(&a.name, detail, kind)
            })
            .collect();
        for meta in crate::builtin::metaparameters() {
            if !items.iter().any(|i| &i.label == meta) {
                items.push(item(
                    meta,
                    "metaparameter".to_string(),
                    CompletionItemKind::PROPERTY,
                ));
            }
        }
        items.retain(|i| !body.given.contains(&i.label));
        Ok(Some(CompletionResponse::Array(items)))
    }

    /// What a resource body can set (metaparameters aside): the parameters of the class
    /// or defined type it declares, with their types and defaults as written, or the
    /// attributes of the resource type.
    fn body_attributes(
        &mut self,
        path: &std::path::Path,
        body: &completion::ResourceBody,
    ) -> Option<Vec<BodyAttribute>> {
        let env = self.workspace.environment(path, &self.documents);
        let is_class = body.type_name.eq_ignore_ascii_case("class");
        let definition = if is_class {
            body.title.as_deref().and_then(|t| env.class(t))
        } else {
            env.define(&body.type_name)
        };
        if let Some(definition) = definition {
            let text = self.workspace.text(&definition.path, &self.documents);
            let written = |e: &crate::ast::Expr| {
                text.as_deref()
                    .and_then(|t| t.get(e.span.start as usize..e.span.end as usize))
                    .map(str::to_string)
            };
            return Some(
                definition
                    .params
                    .iter()
                    .flatten()
                    .map(|param| BodyAttribute {
                        name: param.name.name.clone(),
                        ty: param
                            .type_expr
                            .as_ref()
                            .and_then(written)
                            .unwrap_or_else(|| "Any".to_string()),
                        default: param
                            .default
                            .as_ref()
                            .map(|d| written(d).unwrap_or_default()),
                        is_parameter: true,
                    })
                    .collect(),
            );
        }
        let found = (!is_class)
            .then(|| env.resource_type(&body.type_name))
            .flatten()?;
        Some(
            found
                .attributes
                .iter()
                .map(|attribute| BodyAttribute {
                    name: attribute.clone(),
                    ty: found
                        .types
                        .get(attribute)
                        .cloned()
                        .or_else(|| found.values.get(attribute).map(|v| v.join(", ")))
                        .unwrap_or_else(|| "attribute".to_string()),
                    default: None,
                    is_parameter: false,
                })
                .collect(),
        )
    }

    /// Signature help inside a resource body, where an attribute's name is written:
    /// what the class, defined type or resource type takes; the attribute being
    /// written (else the first the body does not set yet) active.
    fn resource_signature(
        &mut self,
        uri: &Url,
        offset: usize,
    ) -> Result<Option<lsp_types::SignatureHelp>, String> {
        let doc = self.open_document(uri)?;
        let Some(body) = completion::resource_body(&doc.text, offset) else {
            return Ok(None);
        };
        let typed: String = doc.text[..offset.min(doc.text.len())]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let path = doc.path.clone();
        let Some(attributes) = self.body_attributes(&path, &body) else {
            return Ok(None);
        };
        if attributes.is_empty() {
            return Ok(None);
        }
        let shown: Vec<String> = attributes
            .iter()
            .map(|a| match (&a.default, a.is_parameter) {
                (Some(default), true) => format!("{} ${} = {default}", a.ty, a.name),
                (None, true) => format!("{} ${}", a.ty, a.name),
                _ => format!("{} => {}", a.name, a.ty),
            })
            .collect();
        let name = match &body.title {
            Some(title) if body.type_name.eq_ignore_ascii_case("class") => {
                format!("class {title}")
            }
            _ => body.type_name.clone(),
        };
        let active = attributes
            .iter()
            .position(|a| !typed.is_empty() && a.name.starts_with(&typed))
            .or_else(|| {
                attributes
                    .iter()
                    .position(|a| !body.given.contains(&a.name))
            })
            .unwrap_or(0);
        let mut signature = signature(&name, &shown, None);
        signature.active_parameter = Some(active as u32);
        Ok(Some(lsp_types::SignatureHelp {
            signatures: vec![signature],
            active_signature: Some(0),
            active_parameter: Some(active as u32),
        }))
    }

    /// The names that can be written where the cursor is: variables, `$facts` keys,
    /// Hiera keys in `lookup()`, functions and resource types.
    fn name_completion(
        &mut self,
        uri: &Url,
        offset: usize,
    ) -> Result<Option<CompletionResponse>, String> {
        use completion::Place;
        let doc = self.open_document(uri)?;
        let Some(place) = completion::place_at(&doc.text, offset) else {
            return Ok(None);
        };
        let path = doc.path.clone();
        let env = self.workspace.environment(&path, &self.documents);
        let doc = self.open_document(uri)?;
        let (prefix, offers, kind) = match &place {
            Place::Variable(prefix) => {
                let prefix = prefix.trim_start_matches("::");
                let offers = match prefix.rsplit_once("::") {
                    Some((class, _)) => names::class_variables(&env, class),
                    None => {
                        let (source, program) = current_program(doc)?;
                        names::variables_at(
                            &source,
                            &program,
                            (offset as u32).saturating_sub(doc.offset_shift()),
                        )
                    }
                };
                (prefix, offers, CompletionItemKind::VARIABLE)
            }
            Place::Fact { path, prefix } => (
                prefix.as_str(),
                names::fact_keys(path),
                CompletionItemKind::FIELD,
            ),
            Place::HieraKey(prefix) => (
                prefix.as_str(),
                names::hiera_keys(&env),
                CompletionItemKind::VALUE,
            ),
            Place::Method(prefix) => (
                prefix.as_str(),
                names::functions(&env),
                CompletionItemKind::FUNCTION,
            ),
            Place::Name(prefix) => {
                let prefix = prefix.trim_start_matches("::");
                let mut offers = names::functions(&env);
                offers.extend(names::resource_types(&env, prefix, MAX_DEFINED_TYPES_READ));
                (prefix, offers, CompletionItemKind::FUNCTION)
            }
        };
        let items = offers
            .into_iter()
            .filter(|o| o.name.starts_with(prefix))
            .take(MAX_COMPLETIONS)
            .map(|o| CompletionItem {
                // (Resource types among the names of a statement.)
                kind: Some(if o.detail.contains("resource type") {
                    CompletionItemKind::STRUCT
                } else {
                    kind
                }),
                label: o.name,
                detail: Some(o.detail),
                ..CompletionItem::default()
            })
            .collect();
        Ok(Some(CompletionResponse::Array(items)))
    }

    /// The classes whose name starts with `prefix`: those the environment's modules
    /// autoload, and those the open documents define.
    fn class_completion(&mut self, uri: &Url, prefix: &str) -> CompletionResponse {
        let Some(path) = self.documents.get(uri).map(|d| d.path.clone()) else {
            return CompletionResponse::Array(Vec::new());
        };
        let env = self.workspace.environment(&path, &self.documents);
        let mut classes = completion::autoloaded_classes(&env.modules());
        for doc in self.documents.values() {
            if let Ok((_, program)) = current_program(doc) {
                for symbol in crate::env::symbols::symbols(&program) {
                    if symbol.kind == crate::env::symbols::SymbolKind::Class {
                        let module = symbol.name.split("::").next().unwrap_or_default();
                        classes.push((symbol.name.clone(), module.to_string()));
                    }
                }
            }
        }
        classes.sort();
        classes.dedup_by(|a, b| a.0 == b.0);
        let items = classes
            .into_iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .take(MAX_COMPLETIONS)
            .map(|(name, module)| CompletionItem {
                label: name,
                kind: Some(CompletionItemKind::CLASS),
                detail: Some(format!("class (module {module})")),
                ..CompletionItem::default()
            })
            .collect();
        CompletionResponse::Array(items)
    }

    /// The variable a rename at the position would rename, or why it cannot be.
    fn prepare_rename(
        &mut self,
        p: lsp_types::TextDocumentPositionParams,
    ) -> Result<Option<lsp_types::PrepareRenameResponse>, String> {
        let (span, name) = {
            let at = self.at(&p.text_document.uri, p.position)?;
            let scopes = scopes::Scopes::of(at.program());
            let Some((name, span)) = rename::variable_at(&at.source.text, &scopes, at.offset)
            else {
                return Ok(None);
            };
            (span, name)
        };
        self.renamed(&p.text_document.uri, p.position, None)?;
        let doc = self.open_document(&p.text_document.uri)?;
        Ok(Some(
            lsp_types::PrepareRenameResponse::RangeWithPlaceholder {
                range: doc.reported_range(span),
                placeholder: name,
            },
        ))
    }

    fn rename(
        &mut self,
        p: lsp_types::RenameParams,
    ) -> Result<Option<lsp_types::WorkspaceEdit>, String> {
        let position = p.text_document_position;
        let new_name = p.new_name.trim_start_matches('$');
        self.renamed(
            &position.text_document.uri,
            position.position,
            Some(new_name),
        )
        .map(Some)
    }

    /// The edits renaming the variable at `position` to `new_name` (only checked
    /// whether it can be renamed without one).
    fn renamed(
        &mut self,
        uri: &Url,
        position: lsp_types::Position,
        new_name: Option<&str>,
    ) -> Result<lsp_types::WorkspaceEdit, String> {
        // (The workspace's files are read only for a class's variable.)
        let documents = &self.documents;
        let mut programs = None;
        let at = {
            let doc = self
                .documents
                .get(uri)
                .ok_or_else(|| format!("{uri} is not open"))?;
            let offset = doc.reported_offset(position);
            let (source, program) = current_program(doc)?;
            (doc, offset, source, program)
        };
        let (doc, offset, source, program) = at;
        let workspace = &mut self.workspace;
        let changes = rename::renames(
            &doc.path,
            &source.text,
            &program,
            offset,
            new_name,
            &mut || {
                programs
                    .get_or_insert_with(|| workspace.programs(documents))
                    .clone()
            },
        )?;
        let mut edits: HashMap<Url, Vec<lsp_types::TextEdit>> = HashMap::new();
        for (path, text, spans) in changes {
            let replacement = new_name.unwrap_or_default().to_string();
            let file_edits = spans.into_iter().filter_map(|span| {
                let range = if path == doc.path {
                    doc.reported_range(span)
                } else {
                    navigation::location(&path, &text, span)?.range
                };
                Some(lsp_types::TextEdit::new(range, replacement.clone()))
            });
            let uri = if path == doc.path {
                doc.uri.clone()
            } else {
                Url::from_file_path(&path).map_err(|()| format!("{}: no URL", path.display()))?
            };
            edits.entry(uri).or_default().extend(file_edits);
        }
        Ok(lsp_types::WorkspaceEdit {
            changes: Some(edits),
            ..lsp_types::WorkspaceEdit::default()
        })
    }

    /// The inferred types of the variables assigned in the range, when the client asked
    /// for hints.
    fn inlay_hints(
        &mut self,
        p: lsp_types::InlayHintParams,
    ) -> Result<Option<Vec<lsp_types::InlayHint>>, String> {
        if !self.inlay_hints || self.puppet_program(&p.text_document.uri)?.is_none() {
            return Ok(None);
        }
        let at = self.at(&p.text_document.uri, p.range.start)?;
        let range = crate::source::Span::new(at.offset, at.doc.reported_offset(p.range.end));
        let exprs = crate::ast::preorder(at.program());
        let view = crate::infer::FileView {
            program: at.program(),
            exprs: &exprs,
            env: &at.env,
        };
        let hints = inlay::assignment_types(&view, range, at.resume.as_deref())
            .into_iter()
            .map(|(offset, label)| lsp_types::InlayHint {
                position: at.doc.reported_range(crate::source::Span::at(offset)).start,
                label: lsp_types::InlayHintLabel::String(label),
                kind: Some(lsp_types::InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: None,
                padding_right: Some(true),
                data: None,
            })
            .collect();
        Ok(Some(hints))
    }

    /// The document as `--fix` leaves it (safe fixes), as line edits; with a range, the
    /// fixes whose edits all lie in its lines (`fix::fix_source_within`). Nothing for a
    /// Hiera file or a file that does not parse (`--fix` fixes nothing there either).
    fn formatting(
        &mut self,
        uri: &Url,
        range: Option<lsp_types::Range>,
    ) -> Result<Option<Vec<lsp_types::TextEdit>>, String> {
        let doc = self.open_document(uri)?;
        let (path, kind, text) = (doc.path.clone(), doc.kind(), doc.text.clone());
        if is_hiera_document(&path) || self.workspace.is_excluded(&path) {
            return Ok(None);
        }
        let settings = self.workspace.settings(&path);
        let env = self.workspace.environment(&path, &self.documents);
        let fixed = match range {
            None => {
                crate::fix::fix_source(path, kind, text, &settings, &env, crate::fix::Allowed::Safe)
            }
            Some(range) => {
                let doc = self.open_document(uri)?;
                // Whole lines: a fix of the selection's first or last line counts.
                let start = doc.reported_offset(lsp_types::Position::new(range.start.line, 0));
                let end = doc.reported_offset(lsp_types::Position::new(range.end.line + 1, 0));
                crate::fix::fix_source_within(
                    path,
                    kind,
                    text,
                    crate::source::Span::new(start, end),
                    &settings,
                    &env,
                    crate::fix::Allowed::Safe,
                )
            }
        };
        let doc = self.open_document(uri)?;
        Ok(Some(formatting::edits(doc, &fixed.text)))
    }

    fn code_actions(
        &mut self,
        p: CodeActionParams,
    ) -> Result<Option<Vec<CodeActionOrCommand>>, String> {
        let uri = p.text_document.uri;
        // The findings published for this text (an editor asks at every move of the
        // cursor: a long file is not checked again each time), else a check now.
        let published = self.open_document(&uri)?.findings.clone();
        let version = self.open_document(&uri)?.version;
        let checked = match published.filter(|(at, _)| *at == version) {
            Some((_, findings)) => findings,
            None => std::sync::Arc::new(
                self.check(&uri)
                    .ok_or_else(|| format!("{uri} is not open"))?,
            ),
        };
        let doc = &self.documents[&uri];
        let Some(source) = &checked.source else {
            return Ok(Some(Vec::new()));
        };
        // (The program the check parsed, while it is of this text.)
        let program = match &doc.analysed {
            Some(analysed) if std::sync::Arc::ptr_eq(&analysed.source, source) => {
                analysed.program.clone()
            }
            _ => std::sync::Arc::new(crate::syntax::parse(source).program),
        };
        let wanted = |kind: &CodeActionKind| {
            p.context
                .only
                .as_ref()
                .is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
        };
        let mut actions = Vec::new();
        if wanted(&CodeActionKind::QUICKFIX) {
            for d in &checked.diagnostics {
                let range = doc.reported_range(d.span);
                let overlaps = range.start <= p.range.end && p.range.start <= range.end;
                if !overlaps {
                    continue;
                }
                let shown = self.shown(doc, d);
                actions.extend(actions::fix(doc, d, &shown).map(CodeActionOrCommand::CodeAction));
                actions.extend(
                    actions::suppress(doc, source, &program, d, &shown)
                        .map(CodeActionOrCommand::CodeAction),
                );
            }
        }
        if wanted(&CodeActionKind::SOURCE_FIX_ALL)
            && checked.diagnostics.iter().any(|d| d.fix.is_some())
        {
            let path = doc.path.clone();
            let settings = self.workspace.settings(&path);
            let env = self.workspace.environment(&path, &self.documents);
            let fixed = crate::fix::fix_source(
                path,
                source.kind,
                source.text.clone(),
                &settings,
                &env,
                crate::fix::Allowed::Safe,
            );
            let doc = &self.documents[&uri];
            actions.extend(
                actions::fix_all(doc, &source.text, &fixed.text)
                    .map(CodeActionOrCommand::CodeAction),
            );
        }
        Ok(Some(actions))
    }
}

/// A request's place, with everything answering it needs.
struct At<'s> {
    doc: &'s Document,
    workspace: &'s Workspace,
    documents: &'s BTreeMap<Url, Document>,
    source: std::sync::Arc<crate::source::SourceFile>,
    program: std::sync::Arc<crate::ast::Program>,
    env: std::sync::Arc<crate::env::Environment>,
    /// Where explaining starts its walk in a long body, while the check's analysis is of
    /// this text.
    resume: Option<std::sync::Arc<crate::infer::ResumePoints>>,
    offset: u32,
}

impl At<'_> {
    fn program(&self) -> &crate::ast::Program {
        &self.program
    }
}

/// A request's parameters, or why they are not what its method takes.
fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, String> {
    serde_json::from_value(request.params)
        .map_err(|e| format!("invalid parameters for {}: {e}", request.method))
}

/// A function's signature, its parameters marked in the label by their offsets.
fn signature(
    name: &str,
    parameters: &[String],
    returns: Option<&str>,
) -> lsp_types::SignatureInformation {
    let mut label = format!("{name}(");
    let mut marked = Vec::new();
    for (i, parameter) in parameters.iter().enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = label.encode_utf16().count() as u32;
        label.push_str(parameter);
        let end = label.encode_utf16().count() as u32;
        marked.push(lsp_types::ParameterInformation {
            label: lsp_types::ParameterLabel::LabelOffsets([start, end]),
            documentation: None,
        });
    }
    label.push(')');
    if let Some(returns) = returns {
        label.push_str(" >> ");
        label.push_str(returns);
    }
    lsp_types::SignatureInformation {
        label,
        documentation: None,
        parameters: Some(marked),
        active_parameter: None,
    }
}

/// The document's text and program: as the last check parsed them while the version
/// is the same (a request does not parse the file again), else parsed now.
fn current_program(
    doc: &Document,
) -> Result<
    (
        std::sync::Arc<crate::source::SourceFile>,
        std::sync::Arc<crate::ast::Program>,
    ),
    String,
> {
    match &doc.analysed {
        Some(analysed) if analysed.version == doc.version => {
            Ok((analysed.source.clone(), analysed.program.clone()))
        }
        _ => {
            let (source, parsed) = workspace::parse(doc.path.clone(), &doc.text)
                .ok_or_else(|| "the document is too large to check".to_string())?;
            Ok((
                std::sync::Arc::new(source),
                std::sync::Arc::new(parsed.program),
            ))
        }
    }
}

/// A YAML document: one of a Hiera layer's files, or nothing pupcheck judges (it is
/// never read as Puppet).
fn is_hiera_document(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml" | "eyaml")
    )
}

/// The file a document is: only `file:` URIs are checked (an unsaved buffer's
/// `untitled:` has no place to find its modules from).
fn document_path(uri: &Url) -> Option<PathBuf> {
    if uri.scheme() != "file" {
        return None;
    }
    uri.to_file_path()
        .ok()
        .filter(|p: &PathBuf| p.is_absolute() && !Path::new(p).as_os_str().is_empty())
}
