use crate::rules::FileContext;
use crate::diagnostics::{Diagnostic, Fix};
use crate::source::{SourceKind, Span};

declare_rule! {
    /// ## What it does
    /// Checks every line's indentation against the nesting, as the puppet-lint plugin
    /// `strict_indent` does (off by default): two spaces more on the line after an opening
    /// bracket that is closed on a later line, and after a resource title's `:`; two spaces
    /// less on the line of the closing bracket, and after the `;` ending a resource body; two
    /// spaces more, for one line only, after a line ending in `=` or `=>`. Blank lines,
    /// comment lines and the lines of strings and heredocs are not checked. It reports the
    /// badly indented line itself (the plugin reports the line before it).
    ///
    /// ## Why it matters
    /// Consistent indentation makes nesting visible; reviewers read structure from it.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///     file { '/etc/motd': ensure => file }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Indent by two spaces a level; the fix rewrites the line's leading blanks.
    "strict-indent" (Style, Warning)
    "A line is not indented by two spaces a nesting level"
    { off_by_default, fixable, puppet_lint: "strict_indent", check }
}

const STEP: usize = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Open(u8),
    Close(u8),
    Colon,
    Semicolon,
    Equals,
    FatArrow,
    Comment,
    /// A string, heredoc body or other opaque text.
    Opaque,
    Newline,
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    at: usize,
    line: usize,
}

/// The tokens the check looks at, in order; blanks are dropped.
fn tokens(ctx: &FileContext) -> Vec<Token> {
    let text = ctx.source.text.as_bytes();
    let comments: std::collections::HashSet<u32> =
        ctx.program.comments.iter().map(|c| c.span.start).collect();
    let opaque = ctx.code.opaque_spans();
    let mut next_opaque = 0;
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < text.len() {
        // Opaque spans are sorted by start; those behind `i` were skipped inside an outer
        // one. Of the spans starting here, the longest is the outermost.
        while next_opaque < opaque.len() && (opaque[next_opaque].start as usize) < i {
            next_opaque += 1;
        }
        let mut outer: Option<Span> = None;
        while next_opaque < opaque.len() && opaque[next_opaque].start as usize == i {
            let s = opaque[next_opaque];
            outer = Some(outer.map_or(s, |o| if s.end > o.end { s } else { o }));
            next_opaque += 1;
        }
        if let Some(span) = outer {
            let kind = if comments.contains(&span.start) {
                Kind::Comment
            } else {
                Kind::Opaque
            };
            out.push(Token { kind, at: i, line });
            let end = (span.end as usize).max(i + 1);
            line += text[i..end].iter().filter(|&&b| b == b'\n').count();
            i = end;
            continue;
        }
        let next = text.get(i + 1).copied();
        let (kind, len) = match text[i] {
            b'\n' => (Kind::Newline, 1),
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b @ (b'{' | b'[' | b'(') => (Kind::Open(b), 1),
            b'}' => (Kind::Close(b'{'), 1),
            b']' => (Kind::Close(b'['), 1),
            b')' => (Kind::Close(b'('), 1),
            b':' if next == Some(b':') => (Kind::Other, 2),
            b':' => (Kind::Colon, 1),
            b';' => (Kind::Semicolon, 1),
            b'=' if next == Some(b'>') => (Kind::FatArrow, 2),
            b'=' if matches!(next, Some(b'=' | b'~')) => (Kind::Other, 2),
            b'=' => (Kind::Equals, 1),
            b'!' | b'<' | b'>' | b'+' | b'-' if next == Some(b'=') => (Kind::Other, 2),
            _ => (Kind::Other, 1),
        };
        out.push(Token { kind, at: i, line });
        if kind == Kind::Newline {
            line += 1;
        }
        i += len;
    }
    out
}

/// For each bracket, the index of its partner (brackets of each kind matched apart, as
/// the plugin does).
fn partners(tokens: &[Token]) -> Vec<Option<usize>> {
    let mut partner = vec![None; tokens.len()];
    let mut open: Vec<(u8, usize)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::Open(b) => open.push((b, i)),
            Kind::Close(b) => {
                if let Some(pos) = open.iter().rposition(|(k, _)| *k == b) {
                    let (_, j) = open.remove(pos);
                    partner[i] = Some(j);
                    partner[j] = Some(i);
                }
            }
            _ => {}
        }
    }
    partner
}

/// The deepest indentation a fix writes (200 levels).
const MAX_FIXED_INDENT: usize = 400;

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    if ctx.source.kind != SourceKind::Manifest {
        return;
    }
    let text = &ctx.source.text;
    let tokens = tokens(ctx);
    let partner = partners(&tokens);
    let mut indent: i64 = 0;
    let mut colon_line: Option<usize> = None;
    let newlines: Vec<usize> = (0..tokens.len())
        .filter(|&i| tokens[i].kind == Kind::Newline && i + 1 < tokens.len())
        .collect();
    let mut line_start = 0;
    for (k, &n) in newlines.iter().enumerate() {
        let previous = &tokens[line_start..n];
        // Brackets opened on the previous line and closed on a later one.
        let opened = (line_start..n)
            .filter(|&i| matches!(tokens[i].kind, Kind::Open(_)))
            .filter(|&i| partner[i].is_none_or(|p| tokens[p].line > tokens[i].line))
            .count() as i64;
        indent += opened;
        let mut one_line = 0;
        match previous.last().map(|t| t.kind) {
            Some(Kind::Colon) if opened == 0 && colon_line.is_none() => {
                colon_line = Some(tokens[n].line);
                indent += 1;
            }
            Some(Kind::Semicolon) if colon_line.is_some() => {
                colon_line = None;
                indent -= 1;
            }
            Some(Kind::Equals | Kind::FatArrow) => one_line = 1,
            _ => {}
        }
        let next_end = newlines.get(k + 1).copied().unwrap_or(tokens.len());
        for i in n + 1..next_end {
            if let Kind::Close(b) = tokens[i].kind {
                if let Some(p) = partner[i] {
                    if tokens[p].line < tokens[i].line {
                        indent -= 1;
                    }
                    if b == b'{' && colon_line.is_some_and(|c| tokens[p].line < c) {
                        indent -= 1;
                        colon_line = None;
                    }
                }
            }
        }
        line_start = n + 1;
        if indent < 0 {
            return; // the plugin gives up here too
        }
        let first = tokens[n + 1];
        match first.kind {
            Kind::Comment | Kind::Newline => continue,
            // A heredoc body: its lines belong to the text.
            Kind::Opaque if !text[first.at..].starts_with(['\'', '"']) => continue,
            _ => {}
        }
        let line_begin = tokens[n].at + 1;
        let actual = first.at - line_begin;
        let expected = ((indent + one_line) as usize) * STEP;
        if actual != expected {
            let blanks = Span::new(line_begin as u32, first.at as u32);
            let d = RULE.diagnostic(
                Span::new(line_begin as u32, first.at as u32 + 1),
                format!("indent should be {expected} chars and is {actual}"),
            );
            // Past any real nesting, no fix: each fix holds its indentation, so fixes
            // for thousands of nested lines would take memory in the square of the depth.
            out.push(if expected <= MAX_FIXED_INDENT {
                d.with_fix(Fix::replace(blanks, " ".repeat(expected)))
            } else {
                d
            });
        }
    }
}
