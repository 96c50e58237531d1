//! One evaluation of every body of a file, recorded for the rules (rust-analyzer's
//! `InferenceResult`, ty's per-scope inference): the evaluator walks each body once, in
//! the order Puppet evaluates it (`eval::flow`), and writes down what the value of each
//! expression a rule judges was at the point the walk reached it. Rules read the record;
//! none drives an evaluator of its own.
//!
//! Recorded today: the titles and attribute values of every resource expression, the
//! arguments (a method call's receiver first) of every call, and every parameter's
//! default. Bodies walked: the top
//! level, then every class, defined type, function and node body with its parameters
//! known by their declared types, entering the lambdas of the calls it reaches.
//! Resources and calls the walk does not reach (in a lambda of a parameter's default,
//! say) are evaluated on their own, with every variable unknown: what they hold is
//! then known only when the code fixes it there.
//!
//! Layering: `infer` reads `ast`, `env`, `eval` and `types`; rules read `infer`.

pub mod answer;
pub mod declarations;
mod declared;
mod declared_values;
pub mod enclosing;
pub mod fragment;
pub mod node_dependent;
pub mod parameter_values;
mod walk;

pub use declared::DeclaredFailure;
pub use declared_values::{Rejected, RejectedValue};
pub use walk::{ResumePoints, Spacing};
use walk::{Resumptions, Walker};

use crate::ast::{Expr, ExprKind, ResourceExpr, Visitor};
use crate::eval::flow::Reached;
use crate::eval::FileAliases;
use crate::eval::{by_type, AbstractValue, EvalError, Evaluator, Failure, ResourceDefault};
use foldhash::{HashMap, HashSet, HashSetExt};

/// What the interpretation reads of a file: its AST, its expressions in order
/// ([`crate::ast::preorder`]) and its environment.
#[derive(Clone, Copy)]
pub struct FileView<'a> {
    pub program: &'a crate::ast::Program,
    pub exprs: &'a [&'a Expr],
    pub env: &'a crate::env::Environment,
}

/// An expression of the file's syntax tree, by identity. The tree is immutable while
/// the file is checked and the record never outlives it, so an expression's address
/// names it uniquely (the same expression text at two places is two expressions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExprId(usize);

impl ExprId {
    pub fn of(expr: &Expr) -> ExprId {
        ExprId(std::ptr::from_ref(expr) as usize)
    }
}

/// What the evaluation of a file's bodies found, shared by every rule.
#[derive(Default)]
pub struct FileInference {
    /// The value of each recorded expression where the walk reached it (absent: its
    /// evaluation stopped, at something not modelled or at an evaluation error).
    values: HashMap<ExprId, AbstractValue>,
    /// The expressions evaluated so far, recorded or not: each is evaluated once.
    evaluated: HashSet<ExprId>,
    /// The errors Puppet raises in code the walk ran, once per place, in order.
    failures: Vec<Failure>,
    /// The declarations and calls in code Puppet does not run (a branch a known
    /// condition does not take, after a `fail`, a lambda over an empty collection).
    skipped: HashSet<ExprId>,
    /// The resource defaults in force at each resource expression the walk reached,
    /// latest first (by the resource expression's type expression).
    defaults: HashMap<ExprId, Vec<ResourceDefault>>,
    /// The errors Puppet raises in the bodies this file's declarations evaluate, for
    /// the values they give (`declared`).
    declared: Vec<DeclaredFailure>,
    /// The values the file's declarations give or leave that the parameters' types
    /// reject (`declared_values`), found the first time a rule asks.
    rejected_values: std::sync::OnceLock<Vec<RejectedValue>>,
    /// For a resource body inside the lambda of an iteration over a known collection
    /// (by its title), the values of its title and attributes for each element, in
    /// order (`Reached::ForElement`).
    element_values: HashMap<ExprId, Vec<HashMap<ExprId, AbstractValue>>>,
    /// The declarations that repeat a reference their body already declared.
    duplicates: Vec<crate::eval::Duplicate>,
    /// The resource bodies (by title) and calls the walk reached on every path of their
    /// body (`Evaluator::walks_every_path`): Puppet evaluates them whenever it
    /// evaluates the body.
    certain: HashSet<ExprId>,
    /// What an attribute written `Deferred('join', [...])` holds once the agent has
    /// called the function (`Evaluator::resolved_deferred`), by the attribute's value.
    deferred: HashMap<ExprId, AbstractValue>,
}

impl FileInference {
    /// Walks every body of the file once and records what rules ask about.
    pub fn infer(ctx: &FileView) -> FileInference {
        Self::infer_with(ctx, Resumptions::None)
    }

    /// As [`FileInference::infer`], keeping resumptions of the walks of long bodies
    /// (`spacing`) that explaining an expression starts from (an editor's hover).
    pub fn infer_resumable(ctx: &FileView, spacing: Spacing) -> (FileInference, ResumePoints) {
        let mut points = ResumePoints::default();
        let record = Self::infer_with(ctx, Resumptions::Keep(spacing, &mut points));
        (record, points)
    }

    fn infer_with(ctx: &FileView, resumptions: Resumptions) -> FileInference {
        let mut record = FileInference::default();
        let aliases = FileAliases::new(ctx.program, ctx.env);
        let walker = Walker {
            aliases: &aliases,
            at: &mut |evaluator, reached| record.reached(evaluator, reached),
            resumptions,
            walked: Default::default(),
        };
        let walked = walker.walk_bodies(ctx, &[]);
        record.duplicates = walked.duplicates;
        let failures = walked.failures;
        let mut places = HashSet::new();
        record.failures = failures
            .into_iter()
            .filter(|f| places.insert((f.span.start, f.span.end)))
            .collect();
        record.parameter_defaults(ctx, &aliases);
        // What the walk did not reach, on its own: no variable known. (Errors there are
        // not noted: Puppet may never run that code.)
        let mut alone = Evaluator::new(&aliases).with_functions(&aliases);
        for expr in ctx.exprs {
            match &expr.kind {
                ExprKind::Resource(resource) => record.resource(&mut alone, resource),
                ExprKind::Call(_) | ExprKind::MethodCall(_) => record.call(&mut alone, expr),
                _ => {}
            }
        }
        record.declared = declared::failures(ctx, &record, aliases.budget());
        record
    }

    /// What the walk holds for `expr` each time it reaches it (`pupcheck explain`, a
    /// hover): the value, or the error Puppet raises there. Empty when the walk does not
    /// reach it: code Puppet does not run, or after something not modelled.
    /// In a long body the walk starts from the nearest of `resume`'s resumptions, kept by
    /// the walk of the same program and environment ([`FileInference::infer_resumable`]).
    pub fn explain(
        ctx: &FileView,
        expr: &Expr,
        resume: Option<&ResumePoints>,
    ) -> Vec<Result<AbstractValue, EvalError>> {
        Self::explain_each(ctx, &[expr], resume)
            .into_iter()
            .map(|(_, result)| result)
            .collect()
    }

    /// What each of `exprs` evaluates to each time the walk reaches it, by the
    /// expression's address, in one walk of the bodies holding them (the inlay hints
    /// of a screenful of assignments).
    pub fn explain_each(
        ctx: &FileView,
        exprs: &[&Expr],
        resume: Option<&ResumePoints>,
    ) -> Vec<(usize, Result<AbstractValue, EvalError>)> {
        if exprs.is_empty() {
            return Vec::new();
        }
        let mut record = FileInference::default();
        let aliases = FileAliases::new(ctx.program, ctx.env);
        let walker = Walker {
            aliases: &aliases,
            at: &mut |evaluator, reached| record.reached(evaluator, reached),
            resumptions: resume.map_or(Resumptions::None, Resumptions::From),
            walked: Default::default(),
        };
        walker.walk_bodies(ctx, exprs).watched
    }

    fn reached(&mut self, evaluator: &mut Evaluator, reached: Reached) {
        let certain = evaluator.walks_every_path();
        match reached {
            Reached::Resource(resource) => {
                if certain {
                    let titles = resource.bodies.iter().map(|b| ExprId::of(&b.title));
                    self.certain.extend(titles);
                }
                self.resource(evaluator, resource)
            }
            Reached::Call(call) => {
                if certain {
                    self.certain.insert(ExprId::of(call));
                }
                self.call(evaluator, call)
            }
            Reached::Arrow(arrow) => {
                if certain {
                    self.certain.insert(ExprId::of(arrow));
                }
            }
            Reached::Skipped(statements) => self.skip(statements),
            Reached::ForElement(resource) => self.resource_for_element(evaluator, resource),
        }
    }

    /// What the walk for one element of an iteration holds for `resource`'s title and
    /// attributes.
    fn resource_for_element(&mut self, evaluator: &mut Evaluator, resource: &ResourceExpr) {
        for body in &resource.bodies {
            let mut values = HashMap::default();
            for expr in std::iter::once(&body.title).chain(body.attributes.iter().map(|a| &a.value))
            {
                if let Ok(value) = evaluator.run(expr) {
                    values.insert(ExprId::of(expr), value);
                }
            }
            self.element_values
                .entry(ExprId::of(&body.title))
                .or_default()
                .push(values);
        }
    }

    /// The values of a resource body's title and attributes for each element of the
    /// known collection whose iteration declares it (empty elsewhere).
    pub fn element_values(&self, title: &Expr) -> &[HashMap<ExprId, AbstractValue>] {
        self.element_values
            .get(&ExprId::of(title))
            .map_or(&[], Vec::as_slice)
    }

    /// What the agent gives an attribute written as a `Deferred` call, where pupcheck
    /// can run its function: resource types check that value when the agent builds
    /// the resource.
    pub fn deferred_value(&self, expr: &Expr) -> Option<&AbstractValue> {
        self.deferred.get(&ExprId::of(expr))
    }

    /// The declarations that repeat a resource reference their body certainly declared
    /// before (`eval::declared`).
    pub fn duplicates(&self) -> &[crate::eval::Duplicate] {
        &self.duplicates
    }

    /// The errors Puppet raises in the code the walk ran (for every value that can
    /// reach them), once per place.
    pub fn failures(&self) -> &[Failure] {
        &self.failures
    }

    /// The errors Puppet raises in the bodies the file's declarations evaluate, for the
    /// values they give, where the bodies' own walk does not find them.
    pub fn declared_failures(&self) -> &[DeclaredFailure] {
        &self.declared
    }

    /// The values the file's declarations give the classes and defined types they
    /// declare, or leave them as defaults, that the parameters' types reject: those of
    /// `include` and the like first, then each declaration's in order. `ctx` is the file
    /// this record is of.
    pub fn rejected_values(&self, ctx: FileView) -> &[RejectedValue] {
        self.rejected_values
            .get_or_init(|| declared_values::rejected_values(ctx, self))
    }

    /// Whether the walk reached `expr` (a resource body's title, a call, or a chaining
    /// arrow that is a statement) on every path of its body: Puppet evaluates it whenever it evaluates the body.
    pub fn is_certain(&self, expr: &Expr) -> bool {
        self.certain.contains(&ExprId::of(expr))
    }

    /// Whether `expr` (a declaration or a call) is in code Puppet does not run.
    pub fn is_skipped(&self, expr: &Expr) -> bool {
        self.skipped.contains(&ExprId::of(expr))
    }

    /// The value recorded for `expr`: known, or known by its type.
    pub fn value(&self, expr: &Expr) -> Option<&AbstractValue> {
        self.values.get(&ExprId::of(expr))
    }

    /// The resource defaults in force where the walk reached `resource` for its type,
    /// latest first.
    pub fn resource_defaults(&self, resource: &ResourceExpr) -> &[ResourceDefault] {
        self.defaults
            .get(&ExprId::of(&resource.type_expr))
            .map_or(&[], Vec::as_slice)
    }

    fn resource(&mut self, evaluator: &mut Evaluator, resource: &ResourceExpr) {
        if let ExprKind::Name(type_name) = &resource.type_expr.kind {
            let defaults = evaluator.resource_defaults(&type_name.to_ascii_lowercase());
            if !defaults.is_empty() {
                self.defaults
                    .entry(ExprId::of(&resource.type_expr))
                    .or_insert(defaults);
            }
        }
        for body in &resource.bodies {
            self.evaluate(evaluator, &body.title);
            if let Some(title) = self.values.get(&ExprId::of(&body.title)) {
                evaluator.check_resource_title(resource, &body.title, title);
                evaluator.note_declared(resource, &body.title, title);
            }
            for attribute in &body.attributes {
                self.evaluate(evaluator, &attribute.value);
                if let Some(value) = evaluator.resolved_deferred(&attribute.value) {
                    self.deferred
                        .insert(ExprId::of(&attribute.value), AbstractValue::Known(value));
                }
            }
        }
    }

    fn call(&mut self, evaluator: &mut Evaluator, call: &Expr) {
        match &call.kind {
            ExprKind::Call(c) => {
                for arg in &c.args {
                    self.evaluate(evaluator, arg);
                    // A hash written out (an EPP template's parameters): each entry's
                    // value too, which the whole may not be known without.
                    let known = matches!(
                        self.values.get(&ExprId::of(arg)),
                        Some(AbstractValue::Known(_))
                    );
                    if let (ExprKind::Hash(entries), false) = (&arg.kind, known) {
                        for entry in entries {
                            self.note_value(evaluator, &entry.key);
                            self.note_value(evaluator, &entry.value);
                        }
                    }
                }
            }
            ExprKind::MethodCall(c) => {
                self.evaluate(evaluator, &c.receiver);
                for arg in c.args.iter().flatten() {
                    self.evaluate(evaluator, arg);
                }
            }
            _ => {}
        }
    }

    /// The default of every parameter (of classes, defined types, functions, plans,
    /// lambdas and EPP templates), each list in a scope of its own where the parameters
    /// before a default are known by their declared types, as Puppet evaluates a
    /// default when nothing is given. (Errors are not noted: the rules that judge
    /// defaults say what fails.)
    fn parameter_defaults(&mut self, ctx: &FileView, aliases: &FileAliases) {
        crate::ast::each_parameter_list(ctx.program, ctx.exprs, |_, params| {
            let mut evaluator = Evaluator::new(aliases).with_functions(aliases);
            let _ = evaluator.bind_parameters(None, params, |evaluator, p| {
                if let Some(default) = &p.default {
                    let id = ExprId::of(default);
                    if self.evaluated.insert(id) {
                        if let Ok(value) = evaluator.eval(default) {
                            self.values.insert(id, value);
                        }
                    }
                }
                by_type(evaluator, p)
            });
        });
    }

    /// Marks what rules ask about in code Puppet does not run as evaluated, with no
    /// value: nothing there is judged.
    fn skip(&mut self, statements: &[Expr]) {
        /// The parts of the skipped code's declarations and calls, judged as Puppet
        /// judges them (not at all), and the declarations and calls themselves.
        struct Judged<'r> {
            evaluated: &'r mut HashSet<ExprId>,
            skipped: &'r mut HashSet<ExprId>,
        }
        impl<'p> Visitor<'p> for Judged<'_> {
            fn visit_expr(&mut self, expr: &'p Expr) {
                match &expr.kind {
                    ExprKind::Resource(resource) => {
                        self.skipped.insert(ExprId::of(expr));
                        for body in &resource.bodies {
                            self.evaluated.insert(ExprId::of(&body.title));
                            for attribute in &body.attributes {
                                self.evaluated.insert(ExprId::of(&attribute.value));
                            }
                        }
                    }
                    ExprKind::Call(c) => {
                        self.skipped.insert(ExprId::of(expr));
                        self.evaluated.extend(c.args.iter().map(ExprId::of));
                    }
                    ExprKind::MethodCall(c) => {
                        self.skipped.insert(ExprId::of(expr));
                        self.evaluated.insert(ExprId::of(&c.receiver));
                        self.evaluated
                            .extend(c.args.iter().flatten().map(ExprId::of));
                    }
                    _ => {}
                }
                crate::ast::walk_expr(self, expr);
            }
        }
        let mut judged = Judged {
            evaluated: &mut self.evaluated,
            skipped: &mut self.skipped,
        };
        for statement in statements {
            judged.visit_expr(statement);
        }
    }

    /// Records the value of `expr`, a part of an expression already evaluated (and its
    /// errors noted): evaluated again for its value only.
    fn note_value(&mut self, evaluator: &mut Evaluator, expr: &Expr) {
        let id = ExprId::of(expr);
        if self.evaluated.insert(id) {
            if let Ok(value) = evaluator.eval(expr) {
                self.values.insert(id, value);
            }
        }
    }

    /// Records `expr`'s value the first time it is reached (the walk reaches each
    /// expression once; the pass over what it did not reach comes after it).
    fn evaluate(&mut self, evaluator: &mut Evaluator, expr: &Expr) {
        let id = ExprId::of(expr);
        if !self.evaluated.insert(id) {
            return;
        }
        if let Ok(value) = evaluator.run(expr) {
            self.values.insert(id, value);
        }
    }
}
