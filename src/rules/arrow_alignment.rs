use super::text::each_expr;
use super::{Category, FileContext, Rule};
use crate::ast::CommentKind;
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "arrow-alignment",
    summary: "The `=>` of a resource body or hash are not aligned",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: false,
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
};

/// A token of a resource body as puppet-lint sees it (comments dropped).
#[derive(Clone, Copy)]
struct Token {
    span: Span,
    kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    Arrow,
    Open,
    Close,
    Semicolon,
    Other,
}

/// The code tokens from `start` (the title's colon) to the end of the body: the `;` or
/// `}` that closes it at the same brace depth.
fn body_tokens(ctx: &FileContext, start: u32, limit: u32) -> Vec<Token> {
    let text = ctx.source.text.as_bytes();
    let comments: Vec<Span> = ctx
        .program
        .comments
        .iter()
        .filter(|c| c.kind != CommentKind::Epp)
        .map(|c| c.span)
        .collect();
    let mut tokens = Vec::new();
    let mut i = start as usize;
    let mut depth = 0i32;
    while i < limit as usize {
        let c = text[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some(comment) = comments.iter().find(|s| s.contains(i as u32)) {
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
    arrows: Vec<(u32, u32, Span)>, // (line, column, span)
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
                let this_column = if level.arrows.iter().any(|a| a.0 == arrow_line) {
                    level.param_column.unwrap_or(0) + param_length + 1
                } else {
                    column(param.span) + param_length + 1
                };
                level.arrow_column = level.arrow_column.max(this_column);
                level
                    .arrows
                    .push((arrow_line, column(token.span), token.span));
            }
            TokenKind::Open => levels.push(Level {
                arrow_column: 0,
                param_column: None,
                arrows: Vec::new(),
            }),
            TokenKind::Close | TokenKind::Semicolon => {
                let Some(level) = levels.pop() else { break };
                let mut lines: Vec<u32> = level.arrows.iter().map(|a| a.0).collect();
                lines.dedup();
                if lines.len() > 1 && level.arrows.len() > 1 {
                    for &(_, col, span) in &level.arrows {
                        if col != level.arrow_column {
                            out.push(RULE.diagnostic(
                                span,
                                format!(
                                    "indentation of => is not properly aligned (expected in column {}, but found it in column {col})",
                                    level.arrow_column
                                ),
                            ));
                        }
                    }
                }
                if levels.is_empty() {
                    break;
                }
            }
            TokenKind::Other => {}
        }
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
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
    for (start, end) in bodies {
        let tokens = body_tokens(ctx, start + 1, end);
        check_body(ctx, &tokens, out);
    }
}
