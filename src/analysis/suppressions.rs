//! Suppression comments, read: pupcheck's own and puppet-lint's control comments.
//!
//! - `# pupcheck:ignore:<rule>` (or `# lint:ignore:<check>`) at the end of a line of code
//!   suppresses that rule on that line;
//! - the same comment alone on its line opens a block that `# pupcheck:endignore` (or
//!   `# lint:endignore`) closes (or the end of the file);
//! - several names may follow (`# lint:ignore:140chars lint:ignore:hard_tabs`), then
//!   free text, the reason.
//!
//! puppet-lint check names map to rules through each rule's `puppet_lint` name (the
//! rule catalogue answers, given as `rule_id`). Applying them, and reporting those that
//! suppress nothing, is the rule runner's (`check::suppress`); names of puppet-lint checks
//! pupcheck does not implement (plugins) are kept and left alone.

use crate::ast::{CommentKind, Program};
use crate::diagnostics::RuleId;
use crate::source::{SourceFile, Span};

/// One suppression comment.
pub struct Suppression {
    /// The rule ids it names (`None`: a puppet-lint check pupcheck does not
    /// implement), each with the name as written.
    pub names: Vec<(Option<RuleId>, String)>,
    /// 1-based inclusive line range.
    pub first_line: u32,
    pub last_line: u32,
    pub comment: Span,
}

/// The suppression comments of a file, in order.
#[derive(Default)]
pub struct Suppressions {
    pub comments: Vec<Suppression>,
    /// `pupcheck:ignore:<name>` comments naming no rule: where, and the name.
    pub unknown_rules: Vec<(Span, String)>,
}

impl Suppressions {
    /// Reads the suppression comments of a file; `rule_id` gives the id of the rule a
    /// name (an id or a puppet-lint check name) stands for.
    pub fn read(
        source: &SourceFile,
        program: &Program,
        rule_id: impl Fn(&str) -> Option<RuleId>,
    ) -> Suppressions {
        let mut found = Suppressions::default();
        let mut open_blocks: Vec<usize> = Vec::new();
        let text = &source.text;
        for comment in program
            .comments
            .iter()
            .filter(|c| c.kind == CommentKind::Hash)
        {
            let body = text[comment.span.range()].trim_start_matches('#').trim();
            // Most comments are prose: only these begin a control comment.
            if !(body.starts_with("lint:") || body.starts_with("pupcheck:")) {
                continue;
            }
            let line = source.position(comment.span.start).line;
            if body.starts_with("lint:endignore") || body.starts_with("pupcheck:endignore") {
                if let Some(i) = open_blocks.pop() {
                    found.comments[i].last_line = line;
                }
                continue;
            }
            let mut names = Vec::new();
            for word in body.split_whitespace() {
                let name = word
                    .strip_prefix("lint:ignore:")
                    .map(|n| (n, false))
                    .or_else(|| word.strip_prefix("pupcheck:ignore:").map(|n| (n, true)));
                let Some((name, ours)) = name else { break };
                match rule_id(name) {
                    Some(id) => names.push((Some(id), name.to_string())),
                    None if ours => found.unknown_rules.push((comment.span, name.to_string())),
                    None => names.push((None, name.to_string())),
                }
            }
            if names.is_empty() {
                continue;
            }
            let line_start = source.lines.line_start(line as usize - 1).unwrap_or(0);
            let code_before = text[line_start as usize..comment.span.start as usize]
                .chars()
                .any(|c| !c.is_whitespace());
            found.comments.push(Suppression {
                names,
                first_line: line,
                last_line: if code_before { line } else { u32::MAX },
                comment: comment.span,
            });
            if !code_before {
                open_blocks.push(found.comments.len() - 1);
            }
        }
        found
    }

    /// The lines where a comment suppresses the rule `rule_id`.
    pub fn lines_of(&self, rule_id: RuleId) -> Vec<std::ops::RangeInclusive<u32>> {
        self.comments
            .iter()
            .filter(|s| s.names.iter().any(|(id, _)| *id == Some(rule_id)))
            .map(|s| s.first_line..=s.last_line)
            .collect()
    }
}
