use crate::analysis::text::{each_expr, earlier_duplicates};
use crate::rules::{Category, FileContext, Rule};
use crate::ast::CommentKind;
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Edit, Fix, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "arrow-alignment",
    summary: "The `=>` of a resource body or hash are not aligned",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    puppet_lint: Some("arrow_alignment"),
    docs: "\
## What it does
Reports `=>` arrows of a resource body (and of the hashes and selectors inside it) that
are not in the same column as the others of their block, when the block spans several
lines. The column is the one after the longest name, as puppet-lint computes it.

## Why it matters
The style guide aligns arrows so attribute values read as a column.

## Example
```puppet
file { '/etc/motd':
  ensure => file,
  mode => '0644',
}
```

## How to fix
Pad the names with spaces so every `=>` is one space after the longest name.
",
    check: Some(check),
    on_expr: None,
};

/// A token of a resource body as puppet-lint sees it (comments dropped).
#[derive(Clone, Copy)]
pub(in crate::rules) struct Token {
    pub(in crate::rules) span: Span,
    pub(in crate::rules) kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::rules) enum TokenKind {
    Arrow,
    Open,
    Close,
    Semicolon,
    Other,
}

/// The code tokens from `start` (the title's colon) to the end of the body: the `;` or
/// `}` that closes it at the same brace depth.
/// The file's comments (EPP comments aside), sorted by start: built once per file.
fn comment_spans(ctx: &FileContext) -> Vec<Span> {
    let mut comments: Vec<Span> = ctx
        .program
        .comments
        .iter()
        .filter(|c| c.kind != CommentKind::Epp)
        .map(|c| c.span)
        .collect();
    comments.sort_by_key(|c| c.start);
    comments
}

/// The comment holding offset `at`, found by binary search (a scan per character was
/// quadratic in the size of a file).
fn comment_at(comments: &[Span], at: u32) -> Option<Span> {
    let after = comments.partition_point(|c| c.start <= at);
    comments[..after].last().copied().filter(|c| c.contains(at))
}

fn body_tokens(ctx: &FileContext, comments: &[Span], start: u32, limit: u32) -> Vec<Token> {
    let text = ctx.source.text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = start as usize;
    let mut depth = 0i32;
    while i < limit as usize {
        let c = text[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some(comment) = comment_at(comments, i as u32) {
            i = comment.end as usize;
            continue;
        }
        if let Some(opaque) = ctx.code.opaque_at(i as u32) {
            // A string, regex or heredoc: one token.
            tokens.push(Token {
                span: opaque,
                kind: TokenKind::Other,
            });
            i = opaque.end.max(i as u32 + 1) as usize;
            continue;
        }
        let (len, kind) = match c {
            b'=' if text.get(i + 1) == Some(&b'>') => (2, TokenKind::Arrow),
            b'{' => (1, TokenKind::Open),
            b'}' => (1, TokenKind::Close),
            b';' => (1, TokenKind::Semicolon),
            b'$' | b':' | b'_' | b'-' | b'.' if i + 1 < text.len() => {
                (word_len(text, i), TokenKind::Other)
            }
            c if c.is_ascii_alphanumeric() || c >= 0x80 => (word_len(text, i), TokenKind::Other),
            _ => (1, TokenKind::Other),
        };
        let span = Span::new(i as u32, (i + len) as u32);
        tokens.push(Token { span, kind });
        i += len;
        match kind {
            TokenKind::Open => depth += 1,
            TokenKind::Close | TokenKind::Semicolon if depth == 0 => break,
            TokenKind::Close => depth -= 1,
            _ => {}
        }
    }
    tokens
}

fn word_len(text: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < text.len()
        && (text[j].is_ascii_alphanumeric()
            || matches!(text[j], b'_' | b':' | b'-' | b'.')
            || text[j] >= 0x80)
    {
        // `::` is part of a name, a single `:` ends it (a title's colon)
        if text[j] == b':'
            && text.get(j + 1) != Some(&b':')
            && text.get(j.wrapping_sub(1)) != Some(&b':')
        {
            break;
        }
        if text[j] == b'.' || text[j] == b'-' {
            // part of a number or a bare word only when followed by a word character
            if !text.get(j + 1).is_some_and(|b| b.is_ascii_alphanumeric()) {
                break;
            }
        }
        j += 1;
    }
    j - start
}

struct Level {
    arrow_column: u32,
    param_column: Option<u32>,
    arrows: Vec<Arrow>,
}

struct Arrow {
    line: u32,
    column: u32,
    span: Span,
    /// The token before the arrow (the key or parameter name).
    param: Span,
}

fn check_body(ctx: &FileContext, tokens: &[Token], out: &mut Vec<Diagnostic>) {
    let arrows: Vec<&Token> = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Arrow)
        .collect();
    let (Some(first), Some(last)) = (arrows.first(), arrows.last()) else {
        return;
    };
    let line = |s: Span| ctx.source.position(s.start).line;
    let column = |s: Span| ctx.source.position(s.start).column;
    if line(first.span) == line(last.span) {
        return;
    }
    let mut levels = vec![Level {
        arrow_column: 0,
        param_column: None,
        arrows: Vec::new(),
    }];
    let mut closed: Vec<Level> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::Arrow => {
                let Some(param) = tokens[..i].last() else {
                    continue;
                };
                let text = &ctx.source.text[param.span.range()];
                let param_length = text.chars().count() as u32;
                let level = levels.last_mut().expect("a level is open");
                if level.param_column.is_none() {
                    level.param_column = Some(column(param.span));
                }
                let arrow_line = line(token.span);
                // Arrows come in order: an earlier one on this line is the last one.
                let this_column = if level.arrows.last().is_some_and(|a| a.line == arrow_line) {
                    level.param_column.unwrap_or(0) + param_length + 1
                } else {
                    column(param.span) + param_length + 1
                };
                level.arrow_column = level.arrow_column.max(this_column);
                level.arrows.push(Arrow {
                    line: arrow_line,
                    column: column(token.span),
                    span: token.span,
                    param: param.span,
                });
            }
            TokenKind::Open => levels.push(Level {
                arrow_column: 0,
                param_column: None,
                arrows: Vec::new(),
            }),
            TokenKind::Close | TokenKind::Semicolon => {
                let Some(level) = levels.pop() else { break };
                closed.push(level);
                if levels.is_empty() {
                    break;
                }
            }
            TokenKind::Other => {}
        }
    }
    // Which level each line's arrows belong to: moving the arrows of one level moves
    // those of another on the same line, so neither is fixed (each fix would undo
    // the other's alignment, round after round).
    let mut owner: std::collections::HashMap<u32, Option<usize>> = std::collections::HashMap::new();
    for (index, level) in closed.iter().enumerate() {
        for arrow in &level.arrows {
            owner
                .entry(arrow.line)
                .and_modify(|o| {
                    if *o != Some(index) {
                        *o = None
                    }
                })
                .or_insert(Some(index));
        }
    }
    for (index, level) in closed.iter().enumerate() {
        report_level(ctx, level, out, |line| {
            owner.get(&line) == Some(&Some(index))
        });
    }
}

/// The findings of one level of arrows whose lines differ, fixed only where every line
/// of the level holds arrows of it alone.
fn report_level(
    ctx: &FileContext,
    level: &Level,
    out: &mut Vec<Diagnostic>,
    alone_on_line: impl Fn(u32) -> bool,
) {
    let mut lines: Vec<u32> = level.arrows.iter().map(|a| a.line).collect();
    lines.dedup();
    if lines.len() <= 1 || level.arrows.len() <= 1 {
        return;
    }
    let fixable = level.arrows.iter().all(|a| alone_on_line(a.line));
    let earlier_on_line = earlier_duplicates(&level.arrows, |a| Some(a.line));
    for (arrow, earlier) in level.arrows.iter().zip(earlier_on_line) {
        if arrow.column == level.arrow_column {
            continue;
        }
        let d = RULE.diagnostic(
            arrow.span,
            format!(
                "indentation of => is not properly aligned (expected in column {}, but found it in column {})",
                level.arrow_column, arrow.column
            ),
        );
        let shares_line = earlier.is_some();
        out.push(
            match fixable
                .then(|| fix(ctx, arrow, level, shares_line))
                .flatten()
            {
                Some(fix) => d.with_fix(fix),
                None => d,
            },
        );
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for tokens in resource_body_tokens(ctx) {
        check_body(ctx, &tokens, out);
    }
}

/// The code tokens of every resource body of the file (from its title's colon to the
/// `;` or `}` that ends it), in source order: what puppet-lint's resource checks read.
pub(in crate::rules) fn resource_body_tokens(ctx: &FileContext) -> Vec<Vec<Token>> {
    let text = &ctx.source.text;
    let mut bodies = Vec::new();
    each_expr(ctx, |expr| {
        if let ExprKind::Resource(r) = &expr.kind {
            for body in &r.bodies {
                // from the colon after the title to the end of the resource
                let after_title = body.title.span.end as usize;
                if let Some(colon) = text[after_title..].find(':') {
                    bodies.push(((after_title + colon) as u32, expr.span.end));
                }
            }
        }
    });
    let comments = comment_spans(ctx);
    bodies
        .into_iter()
        .map(|(start, end)| body_tokens(ctx, &comments, start + 1, end))
        .collect()
}

/// puppet-lint's fix: pad the blanks before the arrow to reach the level's column; an
/// arrow that shares its line with an earlier one first moves its key to a line of its
/// own, indented like the level's first key.
fn fix(ctx: &FileContext, arrow: &Arrow, level: &Level, shares_line: bool) -> Option<Fix> {
    let text = &ctx.source.text;
    let blanks_before = |at: u32| -> Span {
        let start = text[..at as usize].trim_end_matches([' ', '\t']).len() as u32;
        Span::new(start, at)
    };
    let mut edits = Vec::new();
    let mut arrow_blanks = blanks_before(arrow.span.start);
    let param_length = text[arrow.param.range()].chars().count() as i64;
    let padding = if shares_line {
        let indent = level.param_column? as i64 - 1;
        edits.push(Edit {
            span: blanks_before(arrow.param.start),
            replacement: format!("\n{}", " ".repeat(indent.max(0) as usize)),
        });
        level.arrow_column as i64 - 1 - indent - param_length
    } else {
        // Blanks that start their line are indentation, which puppet-lint keeps: it
        // inserts the padding after them.
        if arrow_blanks.start == 0 || text[..arrow_blanks.start as usize].ends_with('\n') {
            arrow_blanks = Span::at(arrow.span.start);
        }
        let current = text[arrow_blanks.range()].chars().count() as i64;
        current + level.arrow_column as i64 - arrow.column as i64
    };
    if padding < 0 {
        return None;
    }
    edits.push(Edit {
        span: arrow_blanks,
        replacement: " ".repeat(padding as usize),
    });
    Some(Fix::safe(edits))
}
