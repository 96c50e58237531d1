use crate::analysis::names::earlier_duplicates;
use crate::rules::FileContext;
use crate::analysis::resource_tokens::{Token, TokenKind};
use crate::diagnostics::{Diagnostic, Edit, Fix};
use crate::source::Span;
use foldhash::{HashMap, HashMapExt};

declare_rule! {
    /// ## What it does
    /// Reports `=>` arrows of a resource body (and of the hashes and selectors inside it) that
    /// are not in the same column as the others of their block, when the block spans several
    /// lines. The column is the one after the longest name, as puppet-lint computes it.
    ///
    /// ## Why it matters
    /// The style guide aligns arrows so attribute values read as a column.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   ensure => file,
    ///   mode => '0644',
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Pad the names with spaces so every `=>` is one space after the longest name.
    "arrow-alignment" (Style, Warning)
    "The `=>` of a resource body or hash are not aligned"
    { fixable, puppet_lint: "arrow_alignment", check }
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
                let param_column = ctx.source.position(param.span.start).column;
                let first_param_column = *level.param_column.get_or_insert(param_column);
                let arrow_at = ctx.source.position(token.span.start);
                // Arrows come in order: an earlier one on this line is the last one.
                let this_column = if level.arrows.last().is_some_and(|a| a.line == arrow_at.line) {
                    first_param_column + param_length + 1
                } else {
                    param_column + param_length + 1
                };
                level.arrow_column = level.arrow_column.max(this_column);
                level.arrows.push(Arrow {
                    line: arrow_at.line,
                    column: arrow_at.column,
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
    let mut owner: HashMap<u32, Option<usize>> = HashMap::new();
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
    for tokens in ctx.resource_body_tokens() {
        check_body(ctx, tokens, out);
    }
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
