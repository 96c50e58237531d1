use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use foldhash::HashSet;

declare_rule! {
    /// ## What it does
    /// Reports variables used in a class or defined type that are neither its parameters, nor
    /// assigned in it, nor lambda parameters, nor one of the variables Puppet always sets
    /// (`$name`, `$title`, `$facts`, `$trusted`, metaparameters...), and are written without a
    /// namespace. It follows puppet-lint's check, which works on the file's text: a variable
    /// assigned in an earlier class of the same file counts as known.
    ///
    /// ## Why it matters
    /// An unqualified variable that is not local is looked up in the node and top scope: a
    /// silent dependency on whatever is defined there, and `undef` when nothing is.
    ///
    /// ## Example
    /// ```puppet
    /// class demo {
    ///   notice($port)
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Make it a parameter, or qualify it (`$demo::params::port`, `$facts['os']`).
    "variable-scope" (Style, Warning)
    "A class or defined type uses a variable it does not define, without a namespace"
    { puppet_lint: "variable_scope", check }
}

/// Variables Puppet sets in every class and defined type: puppet-lint's list, kept as
/// it is for parity (its metaparameters lack `consume` and `export`).
const ALWAYS_SET: &[&str] = &[
    "name",
    "title",
    "module_name",
    "environment",
    "clientcert",
    "clientversion",
    "servername",
    "serverip",
    "serverversion",
    "caller_module_name",
    "alias",
    "audit",
    "before",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
    "facts",
    "trusted",
    "server_facts",
];

/// What one class or define body reads and sets (names borrowed from the syntax tree:
/// the largest file reads variables ten thousand times).
#[derive(Default)]
struct Usage<'p> {
    assigned: Vec<&'p str>,
    /// Every variable read, with where.
    read: Vec<(&'p str, crate::source::Span)>,
    /// Lambda parameters with the lines they are visible on.
    lambda_params: Vec<(&'p str, u32, u32)>,
}

struct Collect<'c, 'p> {
    ctx: &'c FileContext<'c>,
    usage: Usage<'p>,
}

impl<'p> Collect<'_, 'p> {
    fn assigned_targets(&mut self, left: &'p Expr) {
        match &left.kind {
            ExprKind::Variable(n) => self.usage.assigned.push(n),
            ExprKind::Array(items) => items.iter().for_each(|i| self.assigned_targets(i)),
            _ => {}
        }
    }

    fn nested_params(&mut self, params: Option<&'p [Parameter]>) {
        for p in params.unwrap_or(&[]) {
            if p.default.is_some() {
                self.usage.assigned.push(&p.name.name);
            } else {
                self.usage.read.push((&p.name.name, p.name.span));
            }
        }
    }

    fn lambda(&mut self, lambda: &'p Lambda) {
        let first = self.ctx.source.position(lambda.span.start).line;
        let last = self.ctx.source.position(lambda.span.end).line;
        for p in &lambda.params {
            self.usage.lambda_params.push((&p.name.name, first, last));
        }
    }
}

impl<'p> Visitor<'p> for Collect<'_, 'p> {
    fn visit_expr(&mut self, e: &'p Expr) {
        match &e.kind {
            ExprKind::Variable(n) => {
                // `$x` inside a string is not a variable token for puppet-lint.
                let unenclosed_in_string = self.ctx.source.text.as_bytes()[e.span.start as usize]
                    == b'$'
                    && !self.ctx.code.is_code(e.span.start);
                if !unenclosed_in_string {
                    self.usage.read.push((n, e.span));
                }
            }
            ExprKind::Assignment {
                op: AssignOp::Assign,
                left,
                ..
            } => self.assigned_targets(left),
            // A definition inside this one: puppet-lint reads its parameter list as
            // part of the outer body's text, where `$p =` assigns and `$p,` reads.
            ExprKind::Define(d) => self.nested_params(d.params.as_deref()),
            ExprKind::Class(c) => self.nested_params(c.params.as_deref()),
            ExprKind::Call(c) => {
                if let Some(l) = &c.lambda {
                    self.lambda(l);
                }
            }
            ExprKind::MethodCall(c) => {
                if let Some(l) = &c.lambda {
                    self.lambda(l);
                }
            }
            _ => {}
        }
        walk_expr(self, e);
    }

    // Parameter names are not reads; their types and defaults are.
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    // Classes first, then defined types, each in source order (puppet-lint's order),
    // with one set of known variables for the whole file.
    let definitions = crate::analysis::definition_names::definitions(ctx.program);
    let (classes, defines): (Vec<_>, Vec<_>) = definitions.iter().partition(|d| d.what == "class");
    let mut known: HashSet<&str> = ALWAYS_SET.iter().copied().collect();
    for d in classes.into_iter().chain(defines) {
        let (params, body) = (d.params, d.body);
        let mut collect = Collect {
            ctx,
            usage: Usage::default(),
        };
        for p in params.unwrap_or(&[]) {
            known.insert(&p.name.name);
            collect.visit_parameter(p);
        }
        // puppet-lint takes every variable of the parameter list that is followed by `,`,
        // `=` or `)` for a parameter: `$x = $fqdn,` puts `fqdn` in scope.
        let text = ctx.source.text.as_bytes();
        for (name, span) in &collect.usage.read {
            let mut i = span.end as usize;
            while i < text.len() && text[i].is_ascii_whitespace() {
                i += 1;
            }
            let next = text.get(i).copied();
            let after = text.get(i + 1).copied();
            if matches!(next, Some(b',') | Some(b')'))
                || (next == Some(b'=') && !matches!(after, Some(b'=') | Some(b'>') | Some(b'~')))
            {
                known.insert(name);
            }
        }
        collect.visit_block(body);
        let usage = collect.usage;
        known.extend(usage.assigned.iter().copied());
        let lambda_lines = LambdaLines::of(&usage.lambda_params);
        for (name, span) in &usage.read {
            let line = ctx.source.position(span.start).line;
            if lambda_lines.covers(name, line)
                || name.contains("::")
                || known.contains(name)
                || name.bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            out.push(RULE.diagnostic(
                *span,
                "top-scope variable being used without an explicit namespace",
            ));
        }
    }
}

/// The lines on which each name is a lambda's parameter, asked in logarithmic time (a
/// body of many lambdas read the same name from each: a scan of every lambda per read
/// made a 2 MB manifest take seconds).
struct LambdaLines<'p> {
    /// Per name: the lambdas' first lines in order, and for each, the furthest last line
    /// of it and the lambdas before it.
    by_name: foldhash::HashMap<&'p str, (Vec<u32>, Vec<u32>)>,
}

impl<'p> LambdaLines<'p> {
    fn of(params: &[(&'p str, u32, u32)]) -> LambdaLines<'p> {
        let mut ranges: foldhash::HashMap<&str, Vec<(u32, u32)>> = Default::default();
        for &(name, first, last) in params {
            ranges.entry(name).or_default().push((first, last));
        }
        let by_name = ranges
            .into_iter()
            .map(|(name, mut ranges)| {
                ranges.sort_unstable();
                let firsts = ranges.iter().map(|r| r.0).collect();
                let furthest = ranges
                    .iter()
                    .scan(0, |furthest, r| {
                        *furthest = r.1.max(*furthest);
                        Some(*furthest)
                    })
                    .collect();
                (name, (firsts, furthest))
            })
            .collect();
        LambdaLines { by_name }
    }

    /// Whether `line` lies within a lambda that has a parameter `name`.
    fn covers(&self, name: &str, line: u32) -> bool {
        let Some((firsts, furthest)) = self.by_name.get(name) else {
            return false;
        };
        // The lambdas starting on or before the line; one of them reaches it when the
        // furthest last line among them does.
        let starting = firsts.partition_point(|&first| first <= line);
        starting > 0 && furthest[starting - 1] >= line
    }
}

#[cfg(test)]
mod tests {
    use super::LambdaLines;

    #[test]
    fn the_analysis_reading_its_suppressions_names_this_rule() {
        assert_eq!(super::RULE.id, crate::analysis::unset_variables::VARIABLE_SCOPE);
    }

    #[test]
    fn a_line_is_covered_by_any_lambda_of_the_name_around_it() {
        let lines = LambdaLines::of(&[("e", 10, 20), ("e", 12, 13), ("e", 30, 30), ("x", 1, 99)]);
        for (line, covered) in [(9, false), (10, true), (14, true), (20, true), (21, false), (30, true), (31, false)] {
            assert_eq!(lines.covers("e", line), covered, "line {line}");
        }
        assert!(lines.covers("x", 50));
        assert!(!lines.covers("y", 50));
    }
}
