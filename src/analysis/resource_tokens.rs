//! The tokens of resource bodies as puppet-lint's resource checks read them (comments
//! dropped, strings and heredocs one token each): built once per file
//! ([`FileContext::resource_body_tokens`]) for the rules that look at arrows.

use crate::analysis::code_map::OPAQUE_LOOK_BACK;
use crate::analysis::context::FileContext;
use crate::analysis::walks::each_expr;
use crate::ast::{CommentKind, ExprKind};
use crate::source::Span;

/// A token of a resource body as puppet-lint sees it (comments dropped).
#[derive(Clone, Copy)]
pub struct Token {
    pub span: Span,
    pub kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Arrow,
    Open,
    Close,
    Semicolon,
    Other,
}

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

/// Sorted spans asked about at offsets that only grow (the tokens of one body): the
/// spans starting at or before the offset are counted on from the last question, not by
/// a binary search per token (a scan per character was quadratic in the size of a
/// file; a search per token was a third of the tokens' time).
struct Cursor<'a> {
    spans: &'a [Span],
    /// How many spans start at or before the last offset asked about.
    started: usize,
    /// How many of the last spans started may hold an offset (spans nest: a string
    /// inside an interpolation), as `CodeMap::opaque_at` looks back.
    look_back: usize,
}

impl<'a> Cursor<'a> {
    fn new(spans: &'a [Span], from: u32, look_back: usize) -> Cursor<'a> {
        Cursor {
            spans,
            started: spans.partition_point(|s| s.start < from),
            look_back,
        }
    }

    /// The longest span among the last `look_back` started that holds `at`; `at` is no
    /// less than any offset asked about before.
    fn holding(&mut self, at: u32) -> Option<Span> {
        while self.spans.get(self.started).is_some_and(|s| s.start <= at) {
            self.started += 1;
        }
        self.spans[..self.started]
            .iter()
            .rev()
            .take(self.look_back)
            .filter(|s| s.contains(at))
            .max_by_key(|s| s.len())
            .copied()
    }
}

/// The code tokens from `start` (the title's colon) to the end of the body: the `;` or
/// `}` that closes it at the same brace depth.
fn body_tokens(ctx: &FileContext, comments: &[Span], start: u32, limit: u32) -> Vec<Token> {
    let text = ctx.source.text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = start as usize;
    let mut depth = 0i32;
    // A comment is the last one started or none (comments never nest).
    let mut comment_at = Cursor::new(comments, start, 1);
    let mut opaque_at = Cursor::new(ctx.code.opaque_spans(), start, OPAQUE_LOOK_BACK);
    while i < limit as usize {
        let c = text[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some(comment) = comment_at.holding(i as u32) {
            i = comment.end as usize;
            continue;
        }
        if let Some(opaque) = opaque_at.holding(i as u32) {
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

/// The code tokens of every resource body of the file (from its title's colon to the
/// `;` or `}` that ends it), in source order: what puppet-lint's resource checks read.
pub fn resource_body_tokens(ctx: &FileContext<'_>) -> Vec<Vec<Token>> {
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
