use crate::analysis::text::lines;
use crate::rules::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::Span;

pub static RULE: Rule = Rule {
    id: "code-on-top-scope",
    summary: "Code outside any class or defined type",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: false,
    fixable: false,
    puppet_lint: Some("code_on_top_scope"),
    docs: "\
## What it does
Reports each line with code outside the classes and defined types of the file (off by
default, as in puppet-lint; it reports once a line, where puppet-lint reports every
token of the line).

## Why it matters
In a module, code at top scope runs whenever the file is loaded (or is refused, see
`illegal-top-construct-location`); variables and resource defaults set there leak into
every class.

## Example
```puppet
$ntp_server = 'pool.ntp.org'
class ntp { }
```

## How to fix
Move the code into a class (or, in an environment, into a node definition).
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
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
    // The interval holding `at`, if any.
    let inside = |at: u32| -> Option<Span> {
        let i = merged.partition_point(|s| s.start <= at);
        merged[..i].last().filter(|s| at < s.end).copied()
    };
    for (start, line) in lines(text) {
        let end = start + line.len() as u32;
        let mut at = start;
        let mut first = None;
        while at < end {
            let c = text[at as usize..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                at += c.len_utf8() as u32;
            } else if let Some(scope) = inside(at) {
                at = scope.end;
            } else if let Some(string) = ctx.code.opaque_at(at).filter(|s| s.start < start) {
                // The rest of a string or heredoc begun on an earlier line: no token
                // starts here (puppet-lint reports the line its token starts on).
                at = string.end;
            } else {
                first = Some((at, c));
                break;
            }
        }
        if let Some((at, _)) = first {
            let token = token_at(&text[at as usize..]);
            out.push(RULE.diagnostic(
                Span::new(at, at + token.len() as u32),
                format!(
                    "code outside of class or define block - {}",
                    token_value(token)
                ),
            ));
        }
    }
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
        '$' | ':' | '_' | 'a'..='z' | 'A'..='Z' | '0'..='9' => rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == ':'))
            .map_or(rest.len(), |(i, _)| i),
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

    /// A line inside a heredoc body or a string begun on an earlier line holds no token
    /// (puppet-lint reports the line a token starts on); code after the string's end
    /// on that line does.
    #[test]
    fn lines_inside_strings_and_heredocs_are_not_code() {
        let code = "$motd = @(EOT)\n  Managed by Puppet\n  | EOT\n$banner = \"Welcome,\n  visitor\"\n$two = 'a\nb' + 'c'\n";
        assert_eq!(reported_lines(code), [1, 4, 6, 7]);
    }
}
