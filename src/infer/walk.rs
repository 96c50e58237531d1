//! Walking every body of a file in evaluation order (the top level, then each class,
//! defined type, function and node body with its parameters known by their declared
//! types), calling back at each resource expression and call with an evaluator holding
//! what is known at that point: what the record ([`super::FileInference`]) is made of,
//! and what explaining an expression (`pupcheck explain`, a hover) walks again.
//!
//! Explaining walks only the bodies holding the expressions asked about, and stops
//! after them. In a long body it starts at the nearest of the resumptions the check's
//! own walk kept ([`ResumePoints`], `eval::resume`), so a hover in the middle of a 5 MB
//! class costs a few thousand statements, not half the class.

use super::ExprId;
use crate::ast::{Expr, ExprKind, FunctionDef, Parameter};
use crate::eval::flow::Reached;
use crate::eval::FileAliases;
use crate::eval::{AbstractValue, EvalError, Evaluator, Failure, Resumption, TitleAndName};
use crate::source::Span;
use crate::types::{t, Value};
use foldhash::HashMap;

/// Which long bodies keep resumptions of their walk, and how far apart.
#[derive(Debug, Clone, Copy)]
pub struct Spacing {
    /// The fewest statements (at its top level) a body keeping resumptions has.
    pub min_statements: usize,
    /// The most resumptions one body keeps: a walk resumed in it covers at least this
    /// fraction of it.
    pub most: usize,
}

impl Spacing {
    /// An editor's: bodies of 512 statements or more, at most 32 resumptions each (a
    /// hover in a 75,000-statement class walks at most 2,400 of them). A resumption costs
    /// the check one layer of each scope (`eval::scope`).
    pub const EDITOR: Spacing = Spacing {
        min_statements: 512,
        most: 32,
    };

    /// How many statements apart the resumptions of a body of `statements` are.
    fn step(self, statements: usize) -> Option<usize> {
        (statements >= self.min_statements.max(2)).then(|| statements.div_ceil(self.most.max(1)))
    }
}

/// The resumptions kept of the walk of each long body (by the body's first statement),
/// each with the index of the statement it comes before, in order.
#[derive(Default)]
pub struct ResumePoints(HashMap<ExprId, Vec<(usize, Resumption)>>);

impl ResumePoints {
    /// The latest resumption of the walk of `statements` before the statement holding
    /// `offset` (or following it), with that statement's index.
    fn before(&self, statements: &[Expr], offset: u32) -> Option<(usize, &Resumption)> {
        let points = self.0.get(&ExprId::of(statements.first()?))?;
        let holding = statements.partition_point(|s| s.span.end <= offset);
        let reached = points.partition_point(|(index, _)| *index <= holding);
        points[..reached]
            .last()
            .map(|(index, resumption)| (*index, resumption))
    }

    /// How many resumptions are kept, over all bodies.
    pub fn len(&self) -> usize {
        self.0.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a walk does with resumptions: keeps them (the check's walk in an editor), starts
/// from them (explaining), or neither.
pub(super) enum Resumptions<'r> {
    None,
    Keep(Spacing, &'r mut ResumePoints),
    From(&'r ResumePoints),
}

/// What walking the bodies found: the errors of the code it ran, and what the watched
/// expression evaluated to each time it was reached.
#[derive(Default)]
pub(super) struct Walked {
    pub failures: Vec<Failure>,
    pub duplicates: Vec<crate::eval::Duplicate>,
    pub watched: Vec<(usize, Result<AbstractValue, EvalError>)>,
}

/// A walk of a file's bodies: what every body's walk shares.
pub(super) struct Walker<'w, 'a, 'p> {
    pub aliases: &'w FileAliases<'a>,
    pub at: &'w mut dyn FnMut(&mut Evaluator, Reached<'p>),
    pub resumptions: Resumptions<'w>,
    pub walked: Walked,
}

impl<'p> Walker<'_, '_, 'p> {
    /// Walks every body of the file (those holding `watch` only, when it is not empty)
    /// and calls `at` at each resource expression and call.
    pub fn walk_bodies(mut self, ctx: &super::FileView<'p>, watch: &[&Expr]) -> Walked {
        // Top-level code runs in the scope of the class `main`; a template's with the
        // parameters its tag declares.
        let main = Some(AbstractValue::Known(Value::string("main")));
        let template_params = ctx.program.epp_parameters.as_deref().unwrap_or(&[]);
        let top = &ctx.program.body;
        // Explaining expressions walks only the bodies that hold them: each body's walk
        // is its own (a hover on a big file costs its body, not the file).
        let within = |span: Span, w: &Expr| span.start <= w.span.start && w.span.end <= span.end;
        let holds = |span: Span| watch.is_empty() || watch.iter().any(|w| within(span, w));
        let definitions: Vec<Span> = if watch.is_empty() {
            Vec::new()
        } else {
            ctx.exprs
                .iter()
                .filter(|e| e.kind.is_definition())
                .map(|e| e.span)
                .collect()
        };
        let in_a_definition = !watch.is_empty()
            && watch
                .iter()
                .all(|w| definitions.iter().any(|&d| within(d, w)));
        if !in_a_definition {
            let outside: Vec<&Expr> = watch
                .iter()
                .copied()
                .filter(|w| !definitions.iter().any(|&d| within(d, w)))
                .collect();
            self.walk_body(main, template_params, top, None, &outside);
        }
        for expr in ctx.exprs {
            if !holds(expr.span) {
                continue;
            }
            let mut function = None;
            let (title, params, body) = match &expr.kind {
                ExprKind::Class(c) => {
                    // A class nested in another is named after it too (`outer::inner`).
                    let top_level = ctx.program.body.iter().any(|e| std::ptr::eq(e, *expr));
                    let title = if top_level {
                        AbstractValue::Known(Value::string(c.name.name.trim_start_matches("::")))
                    } else {
                        AbstractValue::Inferred(t::string())
                    };
                    (Some(title), c.params.as_deref().unwrap_or(&[]), &c.body)
                }
                ExprKind::Define(d) => (
                    Some(AbstractValue::Inferred(t::string())),
                    d.params.as_deref().unwrap_or(&[]),
                    &d.body,
                ),
                ExprKind::Function(func) => {
                    function = Some(&**func);
                    (None, func.params.as_deref().unwrap_or(&[]), &func.body)
                }
                ExprKind::Node(n) => (None, &[][..], &n.body),
                _ => continue,
            };
            let inside: Vec<&Expr> = watch
                .iter()
                .copied()
                .filter(|w| within(expr.span, w))
                .collect();
            self.walk_body(title, params, &body.statements, function, &inside);
        }
        self.walked
    }

    /// Walks one body: `title` is what `$title` and `$name` hold in it (a class's name,
    /// a defined resource's title; functions and nodes have none), then the parameters;
    /// a function's body is checked against its return type at its end.
    fn walk_body(
        &mut self,
        title: Option<AbstractValue>,
        params: &[Parameter],
        statements: &'p [Expr],
        function: Option<&FunctionDef>,
        watch: &[&Expr],
    ) {
        let mut evaluator = Evaluator::new(self.aliases).with_functions(self.aliases);
        for watched in watch {
            evaluator.watch(watched);
        }
        let names = title.map(|title| TitleAndName {
            // A defined type's `name` may be given another value than the title.
            name: match &title {
                AbstractValue::Known(_) => title.clone(),
                AbstractValue::Inferred(_) => AbstractValue::Inferred(t::not_undef_any()),
            },
            title,
        });
        evaluator.bind_by_types(names, params);
        let at = &mut *self.at;
        let mut at = |evaluator: &mut Evaluator, reached: Reached<'p>| at(evaluator, reached);
        match &mut self.resumptions {
            Resumptions::Keep(spacing, points) => match spacing.step(statements.len()) {
                Some(step) => {
                    let mut kept = Vec::new();
                    evaluator.walk_observed(statements, &mut at, &mut |evaluator, index| {
                        if index > 0 && index % step == 0 {
                            kept.push((index, evaluator.suspend()));
                        }
                    });
                    points.0.insert(ExprId::of(&statements[0]), kept);
                }
                None => evaluator.walk(statements, &mut at),
            },
            Resumptions::From(points) => {
                let first = watch.iter().map(|w| w.span.start).min();
                match first.and_then(|offset| points.before(statements, offset)) {
                    Some((index, resumption)) => {
                        evaluator.resume(resumption);
                        evaluator.walk(&statements[index..], &mut at);
                    }
                    None => evaluator.walk(statements, &mut at),
                }
            }
            Resumptions::None => evaluator.walk(statements, &mut at),
        }
        if let Some(function) = function {
            evaluator.check_return(function);
        }
        self.walked.failures.extend(evaluator.take_failures());
        self.walked.duplicates.extend(evaluator.take_duplicates());
        self.walked.watched.extend(evaluator.take_watched());
    }
}
