//! Text-level helpers for style rules: which parts of a file are code and which are
//! strings, heredoc bodies, regexes or comments (puppet-lint works on tokens, so
//! whitespace inside a string or a comment is never "trailing whitespace").

use crate::analysis::context::FileContext;
use crate::ast::{walk_expr, Expr, ExprKind, Program, StringPart, Visitor};
use crate::source::{SourceFile, Span};

/// How many of the spans starting before an offset may hold it: spans nest (a string
/// inside an interpolation inside a string), never this deep in code Puppet parses.
pub const OPAQUE_LOOK_BACK: usize = 8;

/// The spans of a file that are not code, sorted.
pub struct CodeMap {
    opaque: Vec<Span>,
}

impl CodeMap {
    pub fn new(_source: &SourceFile, program: &Program) -> CodeMap {
        struct Collect(Vec<Span>);
        impl Visitor<'_> for Collect {
            fn visit_expr(&mut self, expr: &Expr) {
                match &expr.kind {
                    ExprKind::String(_) | ExprKind::Interpolated(_) | ExprKind::Regex(_) => {
                        self.0.push(expr.span)
                    }
                    ExprKind::Heredoc(h) => {
                        self.0.push(expr.span);
                        self.0.push(h.body_span);
                    }
                    ExprKind::EppText(_) => self.0.push(expr.span),
                    _ => walk_expr(self, expr),
                }
            }
        }
        let mut collect = Collect(program.comments.iter().map(|c| c.span).collect());
        for statement in &program.body {
            collect.visit_expr(statement);
        }
        let mut opaque = collect.0;
        opaque.sort();
        CodeMap { opaque }
    }

    /// Every string, comment, regex and heredoc body span, sorted by start (spans can
    /// nest: a string inside an interpolation).
    pub fn opaque_spans(&self) -> &[Span] {
        &self.opaque
    }

    /// The string, comment or regex span that holds `offset`, if any (the outermost).
    pub fn opaque_at(&self, offset: u32) -> Option<Span> {
        let i = self.opaque.partition_point(|s| s.start <= offset);
        self.opaque[..i]
            .iter()
            .rev()
            .take(OPAQUE_LOOK_BACK)
            .filter(|s| s.contains(offset))
            .max_by_key(|s| s.len())
            .copied()
    }

    /// Whether the byte at `offset` is code (not inside a string, comment or regex).
    pub fn is_code(&self, offset: u32) -> bool {
        let i = self.opaque.partition_point(|s| s.start <= offset);
        // Spans can nest (a string inside an interpolation): look back a little.
        !self.opaque[..i]
            .iter()
            .rev()
            .take(OPAQUE_LOOK_BACK)
            .any(|s| s.contains(offset))
    }
}

/// Calls `f` on every expression of the file, outermost first, in source order.
pub fn each_expr<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&'p Expr)) {
    for &expr in &ctx.exprs {
        f(expr);
    }
}

/// From `offset` to the end of its line: where a finding on a YAML node is shown.
pub fn rest_of_line(text: &str, offset: usize) -> Span {
    let mut start = offset.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    Span::new(start as u32, end as u32)
}

/// The raw text between the quotes of a string literal's span.
pub fn quoted_content(text: &str, span: Span) -> &str {
    let raw = &text[span.range()];
    if raw.len() >= 2 {
        &raw[1..raw.len() - 1]
    } else {
        ""
    }
}

/// The spans of the keys in `$var[...]` and `$var[...][...]`. puppet-lint's lexer reads
/// such an access as part of the variable, so its string checks never see these keys.
pub fn variable_access_keys<'p>(ctx: &FileContext<'p>) -> Vec<Span> {
    fn rooted_at_variable(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Variable(_) => true,
            ExprKind::Access { object, .. } => rooted_at_variable(object),
            _ => false,
        }
    }
    let mut keys = Vec::new();
    each_expr(ctx, |expr| {
        if let ExprKind::Access { object, args } = &expr.kind {
            if rooted_at_variable(object) {
                keys.extend(args.iter().map(|a| a.span));
            }
        }
    });
    keys.sort();
    keys
}

/// Every parameter list of the file ([`crate::ast::each_parameter_list`]).
pub fn each_parameter_list<'p>(
    ctx: &FileContext<'p>,
    f: impl FnMut(String, &[crate::ast::Parameter]),
) {
    crate::ast::each_parameter_list(ctx.program, &ctx.exprs, f)
}

/// The assignments of the program: `(assignment, left-hand side)` for `=` only.
pub fn each_assignment<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&Expr, &Expr)) {
    each_expr(ctx, |expr| {
        if let ExprKind::Assignment {
            op: crate::ast::AssignOp::Assign,
            left,
            ..
        } = &expr.kind
        {
            f(expr, left);
        }
    });
}

/// The places a left-hand side assigns to: itself, or each element of `[$a, $b] = ...`.
pub fn assignment_targets(left: &Expr) -> Vec<&Expr> {
    match &left.kind {
        ExprKind::Array(items) => items.iter().flat_map(assignment_targets).collect(),
        _ => vec![left],
    }
}

/// Every resource body of the program with its resource type name (`file`, `class`...),
/// for resources whose type is a bare name.
pub fn each_resource_body<'p>(
    ctx: &FileContext<'p>,
    mut f: impl FnMut(&str, &crate::ast::ResourceBody),
) {
    each_expr(ctx, |expr| {
        if let ExprKind::Resource(r) = &expr.kind {
            if let ExprKind::Name(t) = &r.type_expr.kind {
                for b in &r.bodies {
                    f(t, b);
                }
            }
        }
    });
}

/// Calls `f` on the expression of every interpolation (`$x`, `${...}`) of every string
/// and heredoc of the file.
pub fn each_interpolation<'p>(ctx: &FileContext<'p>, mut f: impl FnMut(&'p Expr)) {
    each_expr(ctx, |expr| {
        let parts = match &expr.kind {
            ExprKind::Interpolated(parts) => parts,
            ExprKind::Heredoc(h) => &h.parts,
            _ => return,
        };
        for part in parts {
            if let StringPart::Interpolation(e) = part {
                f(e);
            }
        }
    });
}

/// Where a fix may put code in place of a variable reference (`$::kernel`): the
/// starts of the variables interpolated without braces (`"x $::kernel"`), whose
/// replacement needs `${...}` to stay one interpolation.
pub struct VariableSites {
    bare_interpolations: std::collections::HashSet<u32>,
}

impl VariableSites {
    pub fn of(ctx: &FileContext) -> VariableSites {
        let text = &ctx.source.text;
        let mut bare_interpolations = std::collections::HashSet::new();
        each_interpolation(ctx, |e| {
            if text[e.span.range()].starts_with('$') {
                bare_interpolations.insert(e.span.start);
            }
        });
        VariableSites {
            bare_interpolations,
        }
    }

    /// The text replacing the variable at `span` by the expression `code` (written
    /// without a leading `$`: `facts['kernel']`): `$code` in code, `${code}` in a string,
    /// and `code` alone inside `${...}`, where the `$` is outside the span.
    pub fn replacement(&self, ctx: &FileContext, span: Span, code: &str) -> String {
        if !ctx.source.text[span.range()].starts_with('$') {
            code.to_string()
        } else if self.bare_interpolations.contains(&span.start) {
            format!("${{{code}}}")
        } else {
            format!("${code}")
        }
    }
}

/// For each item, the index of the first earlier item with the same key (`None` for a
/// first occurrence or an item without a key): one pass with a map, so a hash of 60,000
/// keys on one line costs no more than 60,000 lookups.
pub fn earlier_duplicates<'a, T, K: std::hash::Hash + Eq>(
    items: &'a [T],
    key: impl Fn(&'a T) -> Option<K>,
) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let k = key(item)?;
            match first.entry(k) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                    None
                }
            }
        })
        .collect()
}

/// The name among `names` nearest to `name`, when within two edits of it (and `name`
/// is long enough for that to mean a misspelling).
pub fn nearest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if name.len() < 4 {
        return None;
    }
    // Names whose lengths differ by more than 2 are further apart than that: the
    // distance (which allocates a table per pair) is computed for the others only.
    let length = name.chars().count();
    names
        .filter(|candidate| candidate.chars().count().abs_diff(length) <= 2)
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, candidate)| candidate)
}
