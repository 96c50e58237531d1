
use crate::rules::FileContext;
use crate::ast::{ExprKind, StringPart};
use crate::diagnostics::Diagnostic;
use crate::source::Span;

declare_rule! {
    /// ## What it does
    /// Reports each line with code outside the classes and defined types of a manifest (off by
    /// default, as in puppet-lint; it reports once a line, where puppet-lint reports every
    /// token of the line). Templates are not judged: their code can only be at top scope, and
    /// puppet-lint does not read them.
    ///
    /// ## Why it matters
    /// In a module, code at top scope runs whenever the file is loaded (or is refused, see
    /// `illegal-top-construct-location`); variables and resource defaults set there leak into
    /// every class.
    ///
    /// ## Example
    /// ```puppet
    /// $ntp_server = 'pool.ntp.org'
    /// class ntp { }
    /// ```
    ///
    /// ## How to fix
    /// Move the code into a class (or, in an environment, into a node definition).
    "code-on-top-scope" (Style, Warning)
    "Code outside any class or defined type"
    { off_by_default, puppet_lint: "code_on_top_scope", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    if ctx.source.kind == crate::source::SourceKind::Epp {
        return;
    }
    let text = &ctx.source.text;
    // Class and define bodies and comments, merged into sorted disjoint intervals.
    let mut scopes: Vec<Span> = ctx
        .program
        .body
        .iter()
        .filter(|s| matches!(s.kind, ExprKind::Class(_) | ExprKind::Define(_)))
        .map(|s| s.span)
        .chain(ctx.program.comments.iter().map(|c| c.span))
        .collect();
    scopes.sort_by_key(|s| s.start);
    let mut merged: Vec<Span> = Vec::with_capacity(scopes.len());
    for s in scopes {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    // Where each expression interpolated in a string or heredoc starts (`$x`, the
    // expression of `${...}`, and every expression inside one that spans lines):
    // puppet-lint's lexer makes a token there, inside the string.
    struct Starts(Vec<u32>);
    impl<'p> crate::ast::Visitor<'p> for Starts {
        fn visit_expr(&mut self, expr: &'p crate::ast::Expr) {
            self.0.push(expr.span.start);
            crate::ast::walk_expr(self, expr);
        }
    }
    let mut starts = Starts(Vec::new());
    for e in &ctx.exprs {
        let parts: &[StringPart] = match &e.kind {
            ExprKind::Interpolated(parts) => parts,
            ExprKind::Heredoc(heredoc) => &heredoc.parts,
            _ => &[],
        };
        for part in parts {
            if let StringPart::Interpolation(expr) = part {
                crate::ast::Visitor::visit_expr(&mut starts, expr);
            }
        }
    }
    let mut interpolations = starts.0;
    interpolations.sort_unstable();
    interpolations.dedup();
    // Tokens whose text is not what is written at their start: a regular expression's is
    // its pattern, without the slashes; an interpolated string's first token is its text
    // up to the first interpolation's `$`.
    let values: std::collections::HashMap<u32, &str> = ctx
        .exprs
        .iter()
        .filter_map(|e| match &e.kind {
            // As written between the slashes (`\/` stays escaped).
            ExprKind::Regex(_) => text
                .get(e.span.start as usize + 1..(e.span.end as usize).saturating_sub(1))
                .map(|pattern| (e.span.start, pattern)),
            ExprKind::Interpolated(parts) => {
                let first = parts.iter().find_map(|part| match part {
                    StringPart::Interpolation(expr) => Some(expr.span.start as usize),
                    StringPart::Text(..) => None,
                })?;
                let dollar = if text.as_bytes().get(first) == Some(&b'$') {
                    first
                } else {
                    text[..first].rfind("${")?
                };
                let open = e.span.start as usize + 1;
                (dollar >= open).then(|| (e.span.start, &text[open..dollar]))
            }
            _ => None,
        })
        .collect();
    // Where each heredoc's body starts, with the text of its first token there: up to
    // its first interpolation's `$`, else up to its end marker (puppet-lint's token).
    let heredoc_bodies: std::collections::HashMap<u32, u32> = ctx
        .exprs
        .iter()
        .filter_map(|e| match &e.kind {
            ExprKind::Heredoc(heredoc) => {
                // The body's span starts at the header line's end.
                let body = heredoc.body_span.start
                    + u32::from(text.as_bytes().get(heredoc.body_span.start as usize) == Some(&b'\n'));
                let first_interpolation = heredoc.parts.iter().find_map(|part| match part {
                    StringPart::Interpolation(expr) => Some(expr.span.start),
                    StringPart::Text(..) => None,
                });
                let until = match first_interpolation {
                    // `$x` starts at its `$`; `${x}`'s expression after the `${`.
                    Some(at) if text.as_bytes().get(at as usize) == Some(&b'$') => at,
                    Some(at) => text[..at as usize].rfind("${").map_or(at, |d| d as u32),
                    None => end_marker(text, heredoc.body_span),
                };
                Some((body, until.max(body)))
            }
            _ => None,
        })
        .collect();
    // The interval holding `at`, if any.
    let inside = |at: u32| -> Option<Span> {
        let i = merged.partition_point(|s| s.start <= at);
        merged[..i].last().filter(|s| at < s.end).copied()
    };
    for (start, line) in ctx.source.each_line() {
        let end = start + line.len() as u32;
        let mut at = start;
        let mut first = None;
        // A heredoc's body starts a token on its first line, at its start.
        if let Some(&until) = heredoc_bodies.get(&start).filter(|_| inside(start).is_none()) {
            first = Some((start, Some(until)));
            at = end;
        }
        while at < end {
            let c = text[at as usize..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                at += c.len_utf8() as u32;
            } else if let Some(scope) = inside(at) {
                at = scope.end;
            } else if let Some(string) = ctx.code.opaque_at(at).filter(|s| s.start < start) {
                // The rest of a string or heredoc begun on an earlier line: no token
                // starts here (puppet-lint reports the line its token starts on), but
                // at an interpolation on this line.
                let i = interpolations.partition_point(|&p| p < at);
                match interpolations.get(i) {
                    Some(&p) if p < end.min(string.end) => at = p,
                    _ => at = string.end,
                }
                if at != string.end {
                    first = Some((at, None));
                    break;
                }
            } else {
                first = Some((at, None));
                break;
            }
        }
        if let Some((at, until)) = first {
            let (span, value) = match until {
                Some(until) => (
                    Span::new(at, until),
                    &text[at as usize..until as usize],
                ),
                None => {
                    let token = token_at(&text[at as usize..]);
                    let value = values
                        .get(&at)
                        .copied()
                        .unwrap_or_else(|| token_value(token));
                    (Span::new(at, at + token.len() as u32), value)
                }
            };
            out.push(RULE.diagnostic(
                span,
                format!("code outside of class or define block - {value}"),
            ));
        }
    }
}

/// Where a heredoc's end marker starts: the first character of its last line that is
/// not a space (`|`, `-` or the tag).
fn end_marker(text: &str, heredoc: Span) -> u32 {
    let body = &text[..(heredoc.end as usize).min(text.len())];
    let line_start = body.trim_end().rfind('\n').map_or(0, |i| i + 1);
    let indent = body[line_start..].len() - body[line_start..].trim_start().len();
    (line_start + indent) as u32
}

/// The token starting `rest`, as written: a quoted string, a variable, a word, or an
/// operator.
fn token_at(rest: &str) -> &str {
    let mut chars = rest.char_indices();
    let Some((_, first)) = chars.next() else {
        return rest;
    };
    let end = match first {
        '\'' | '"' => rest[1..].find(first).map_or(rest.len(), |i| i + 2),
        '$' | ':' | '_' | 'a'..='z' | 'A'..='Z' | '0'..='9' => {
            // A name's `::` separators are part of it; a lone `:` (`default:`) is not.
            let bytes = rest.as_bytes();
            let mut end = if rest.starts_with("::") { 2 } else { 1 };
            while end < bytes.len() {
                let b = bytes[end];
                if b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii() {
                    end += rest[end..].chars().next().map_or(1, char::len_utf8);
                } else if rest[end..].starts_with("::") {
                    end += 2;
                } else {
                    break;
                }
            }
            // puppet-lint's variable token takes the indexes written after it
            // (`$i['platform']`), each up to its first `]` on the line.
            if first == '$' {
                while rest[end..].starts_with('[') {
                    match rest[end..].find([']', '\n']) {
                        Some(i) if rest.as_bytes()[end + i] == b']' && i > 1 => end += i + 1,
                        _ => break,
                    }
                }
            }
            end
        }
        _ => {
            let two = rest.get(..2).unwrap_or("");
            if [
                "=>", "->", "~>", "<-", "<~", "==", "!=", "+>", "<|", "|>", "=~", "!~",
            ]
            .contains(&two)
            {
                2
            } else {
                first.len_utf8()
            }
        }
    };
    &rest[..end.min(rest.len())]
}

/// What puppet-lint prints for the token: a string without its quotes, a variable
/// without its `$`.
fn token_value(token: &str) -> &str {
    if token.len() >= 2 && (token.starts_with('\'') || token.starts_with('"')) {
        &token[1..token.len() - 1]
    } else {
        token.strip_prefix('$').unwrap_or(token)
    }
}

#[cfg(test)]
mod tests {
    /// The lines the rule reports in `code`.
    fn reported_lines(code: &str) -> Vec<u32> {
        let mut settings = crate::config::Settings::default();
        settings.rules.apply(&crate::config::RuleLayer {
            select: Some(vec![crate::config::Selector::Rule(super::RULE.id)]),
            ..Default::default()
        });
        let env = crate::env::Environment::empty();
        let report =
            crate::check::check_text_with("top.pp".into(), code.as_bytes().to_vec(), &settings, &env);
        let source = report.source.as_ref().expect("a source");
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule == super::RULE.id)
            .map(|d| source.position(d.span.start).line)
            .collect()
    }

    /// A line inside a string begun on an earlier line holds no token (puppet-lint
    /// reports the line a token starts on), nor does a heredoc's body after its first
    /// line; code after the string's end on that line does. Checked with puppet-lint 3.0.1.
    #[test]
    fn lines_inside_strings_and_heredocs_are_not_code() {
        let code = "$motd = @(EOT)\n  Managed by Puppet\n  | EOT\n$banner = \"Welcome,\n  visitor\"\n$two = 'a\nb' + 'c'\n";
        assert_eq!(reported_lines(code), [1, 2, 4, 6, 7]);
    }

    /// An interpolation starts a token on its line, inside a string or heredoc begun
    /// earlier (puppet-lint 3.0.1 reports these lines).
    #[test]
    fn interpolations_start_tokens_inside_strings() {
        let code = "$x = @(\"EOT\")\n  line1\n  hello ${name}\n  world\n  more $name and\n  | EOT\n$y = \"a\n  ${name} b\n  c\"\n";
        assert_eq!(reported_lines(code), [1, 2, 3, 5, 7, 8]);
    }
}
