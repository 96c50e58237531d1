//! What every check produces: a [`Diagnostic`] names its rule, its severity, a message
//! and the span it points at, with optional secondary labels and notes. No format is
//! known here; `output` renders them.

use crate::source::Span;
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A secondary location that explains the primary one ("the block opened here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A rule's id: stable, kebab-case (`syntax-error`). Made only where a rule is
/// declared (`declare_rule!`, and [`rule_ids`] for the findings no rule makes), so that
/// a diagnostic names a rule that exists and code compares ids, never strings; a name
/// from the user (configuration, a suppression comment) is looked up as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct RuleId(&'static str);

impl RuleId {
    /// The id of a rule being declared: for `declare_rule!` and [`rule_ids`] only.
    #[doc(hidden)]
    pub const fn declared(id: &'static str) -> RuleId {
        RuleId(id)
    }

    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule that found it.
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// How to repair the finding automatically, when the rule knows (`--fix`).
    /// Boxed: most diagnostics have none, and the struct travels in `Result`s.
    pub fix: Option<Box<Fix>>,
}

/// One replacement of a byte range of the file's text (an insertion when the span is
/// empty, a deletion when the replacement is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// Whether `--fix` may apply a fix without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the program's meaning (whitespace, quoting, equivalent spellings).
    Safe,
    /// May change meaning; shown, never applied by `--fix`.
    Unsafe,
}

/// The edits that repair one diagnostic; they never overlap and are applied together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

impl Fix {
    pub fn safe(edits: Vec<Edit>) -> Fix {
        Fix {
            edits,
            applicability: Applicability::Safe,
        }
    }

    /// One safe replacement.
    pub fn replace(span: Span, replacement: impl Into<String>) -> Fix {
        Fix::safe(vec![Edit {
            span,
            replacement: replacement.into(),
        }])
    }
}

impl Diagnostic {
    pub fn new(
        rule: RuleId,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            rule,
            severity,
            message: message.into(),
            span,
            labels: Vec::new(),
            notes: Vec::new(),
            fix: None,
        }
    }

    pub fn error(rule: RuleId, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule, Severity::Error, span, message)
    }

    pub fn warning(rule: RuleId, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule, Severity::Warning, span, message)
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(Box::new(fix));
        self
    }
}

/// Rule ids of the diagnostics the syntax layer and the file reader produce.
/// A file the reader could not take is its `unreadable-file` finding, at its start.
impl From<crate::source::walk::Unreadable> for Diagnostic {
    fn from(unreadable: crate::source::walk::Unreadable) -> Diagnostic {
        Diagnostic::error(rule_ids::UNREADABLE_FILE, Span::at(0), unreadable.0)
    }
}

pub mod rule_ids {
    use super::RuleId;
    /// The file does not parse.
    pub const SYNTAX_ERROR: RuleId = RuleId::declared("syntax-error");
    /// The file cannot be read, is not UTF-8, or is too large.
    pub const UNREADABLE_FILE: RuleId = RuleId::declared("unreadable-file");
    /// pupcheck itself failed on the file (a bug): the other files are still checked.
    pub const INTERNAL_ERROR: RuleId = RuleId::declared("internal-error");
    /// Lexical findings the syntax layer makes while lowering, of rules declared in the
    /// catalogue like any other.
    pub const NUMERIC_OVERFLOW: RuleId = RuleId::declared("numeric-overflow");
    pub const UNRECOGNIZED_ESCAPE: RuleId = RuleId::declared("unrecognized-escape");
    /// Every id named here (each must be a rule of the catalogue: `rules`' tests).
    pub const ALL: &[RuleId] = &[
        SYNTAX_ERROR,
        UNREADABLE_FILE,
        INTERNAL_ERROR,
        NUMERIC_OVERFLOW,
        UNRECOGNIZED_ESCAPE,
    ];
    /// The findings reported whatever the selection and suppression comments say: a
    /// file that is not read or not parsed whole is never silently passed.
    pub const ALWAYS_REPORTED: &[RuleId] = &[SYNTAX_ERROR, UNREADABLE_FILE, INTERNAL_ERROR];
}
