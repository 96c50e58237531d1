//! The evaluator: one abstract interpreter over the AST (design: "constant folding and
//! type inference are the same code path"). An expression evaluates to an
//! [`AbstractValue`]: `Known` when its value follows from the code alone (literals,
//! operators, conversions, variables assigned from those), `Inferred` with the type it
//! must have when it does not (a fact, a parameter, a function pupcheck does not model).
//!
//! Semantics come from spec 004 ("Expressions") and 001 ("Types, Values, and
//! Variables"); where Puppet 7 differs, Puppet wins (`oracle/golden/DISCREPANCIES.md`).
//! Constructs not modelled yet evaluate to [`EvalError::Unsupported`], never to a guess.
//!
//! Layering: `eval` reads `ast` and `types`; `types` never reads `eval`.

pub mod budget;
mod calls;
mod classes;
mod declared;
mod dispatch;
mod file_aliases;
pub mod flow;
mod format;
mod lambdas;
mod operators;
mod parameters;
mod pure;
pub mod query;
mod resume;
mod returns;
mod scope;
mod transfer;

pub use calls::new_value;
pub use operators::{equals, truthy};

/// Whether Puppet's own functions include `name` (so a call of it never reads a
/// module's).
pub fn is_builtin_function(name: &str) -> bool {
    dispatch::builtin(name).is_some()
}

use crate::ast::names;
use crate::ast::*;
use crate::types::labels;
use crate::types::resolve::{AliasSource, Resolver};
use crate::types::value::Value;
use crate::types::Type;
pub use budget::Budget;
pub use classes::class_names;
pub use declared::{title_strings, Duplicate};
pub use file_aliases::FileAliases;
use indexmap::IndexMap;
pub use parameters::{by_type, Binding, TitleAndName};
pub use resume::Resumption;
use scope::Scope;
use std::sync::Arc;

/// What is known about an expression's value.
#[derive(Debug, Clone)]
pub enum AbstractValue {
    Known(Value),
    /// Not known; the value is an instance of this type.
    Inferred(Type),
}

/// The module functions the code may call (the environment index answers for a
/// checked file).
pub trait FunctionSource {
    /// The return type Puppet checks every result of the Puppet-language function
    /// `name` against, if it does.
    fn checked_return(&self, name: &str) -> Option<Expr>;
    /// The function `name` written in Ruby with the 4.x API, as its file reads.
    fn ruby_function(
        &self,
        _name: &str,
    ) -> Option<std::sync::Arc<crate::ruby::function::RubyFunction>> {
        None
    }
    /// The arity a module's 3.x function `name` declares (`newfunction`'s `:arity`).
    fn legacy_arity(&self, _name: &str) -> Option<i64> {
        None
    }
    /// Every value a lookup of the Hiera key `key` can find, when pupcheck knows them
    /// all (every layer read whole, each value known, no `lookup_options` for the key);
    /// empty when no layer binds it.
    fn hiera_values(&self, _key: &str) -> Option<Vec<crate::types::Value>> {
        None
    }
    /// Whether a module may define the fact `name` itself (a custom or external fact),
    /// whose value then need not be what Facter's schema says.
    fn may_define_fact(&self, _name: &str) -> bool {
        false
    }
    /// What a call of the Puppet-language function `name` with the known `args`
    /// returns, its body evaluated (`calls`: how deep in such calls the caller already
    /// is); `None` when that is not known.
    fn call_result(&self, _name: &str, _args: &[Value], _calls: usize) -> Option<Value> {
        None
    }
    /// Whether the Puppet-language function `name` returns a value its checked return
    /// type refuses whatever arguments it is given (its parameters known by their
    /// types): then its own finding says so, and its calls need not.
    fn refuses_every_return(&self, _name: &str, _calls: usize) -> bool {
        false
    }
    /// Whether the code defines a function `name` in the Puppet language: a call of the
    /// name calls it, even where Puppet has a function of the name (the functions a
    /// manifest defines are found before Puppet's own: asked of Puppet 7).
    fn defines_puppet_function(&self, _name: &str) -> bool {
        false
    }
    /// The budget of the interpretation these functions are called from: their bodies
    /// draw on it too.
    fn budget(&self) -> Option<&Budget> {
        None
    }
}

/// Why evaluation stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    /// Puppet raises an evaluation error here, with this message (Puppet 7's words;
    /// tests/types_golden.rs `error_messages` compares them); where is not known yet
    /// (the expression being evaluated locates it, `FailedAt`).
    Failed(String),
    /// As `Failed`, of a kind known where it is raised (a division by zero, a block's
    /// argument its parameter's type refuses) rather than by the expression it comes
    /// out of.
    FailedAs(String, FailureKind),
    /// Puppet raises an evaluation error with this message at the innermost expression
    /// whose evaluation failed.
    FailedAt(Failure),
    /// A construct the evaluator does not model yet.
    Unsupported(String),
}

type R<T> = Result<T, EvalError>;

/// Deeper nesting than this is not evaluated (the parser bounds it too).
const MAX_DEPTH: usize = 512;

/// Evaluates expressions in one scope (top scope; classes and lambdas come later).
pub struct Evaluator<'a> {
    resolver: Resolver<'a>,
    /// The scopes, innermost last: top scope, then one per lambda being called. A
    /// variable is known, or known only by its type (a parameter's, for one).
    scopes: Vec<Scope>,
    /// `$0`, `$1`, ... of the last successful regexp match; they live until the end of
    /// the statement (Puppet's ephemeral scope).
    match_groups: Vec<Value>,
    depth: usize,
    /// How many Puppet-language function bodies deep this evaluation is (a bound on
    /// recursion: `FunctionSource::call_result`).
    calls: usize,
    /// The classes defined, by name (`define_classes`).
    classes: std::collections::HashMap<String, classes::ClassDefinition<'a>>,
    /// The classes declared so far and what they left.
    declared: std::collections::HashMap<String, classes::ClassScope>,
    /// While a class parameter's default is evaluated: the parameters after it.
    pending: Option<classes::PendingParams>,
    /// Whether all the code there is was given (`closed_world`): then a variable
    /// nothing set is `undef`, as Puppet reads it, instead of unknown.
    closed_world: bool,
    /// The errors Puppet raises in the code the walk runs (`run`), in order.
    failures: Vec<Failure>,
    /// How many walks the current statement is inside that Puppet may not take: a
    /// branch of a condition not known, a lambda's body.
    uncertain: usize,
    /// The places of the failures noted inside such walks: raised if reached, but
    /// perhaps never reached.
    conditional: Vec<crate::source::Span>,
    /// The expressions `explain` asks about (by address), and what each evaluated to
    /// each time it was reached.
    watch: std::collections::HashSet<usize>,
    /// Where the last watched expression ends: statements after it, once one was
    /// reached, change nothing of what they evaluate to.
    watch_end: u32,
    watched: Vec<(usize, Result<AbstractValue, EvalError>)>,
    /// Where the results of Puppet-language functions are looked up (`with_functions`).
    functions: Option<&'a dyn FunctionSource>,
    /// The resource defaults (`Web::Vhost { port => 80 }`) in force where the walk
    /// is, in the order they were set: certain ones only (set on every path to here).
    resource_defaults: Vec<ResourceDefault>,
    /// The (type, attribute) pairs resource defaults certainly set in the body walked:
    /// Puppet keeps them in the scope of the class or defined type, which its `if`s
    /// and lambdas share, and refuses to set one twice.
    defaults_set: Vec<(String, String)>,
    /// The resources the body certainly declares, and the declarations that repeat
    /// one (`declared`).
    resources_declared: declared::Declared,
    duplicates: Vec<declared::Duplicate>,
    /// What the interpretation may still spend (`budget`).
    budget: Budget,
    /// Whether the walk is one of a lambda's body for a single element
    /// (`Reached::ForElement`).
    element_walk: bool,
}

/// An attribute's default for the resources of a type declared after it, in its
/// scope and those within (Puppet's resource defaults).
#[derive(Debug, Clone)]
pub struct ResourceDefault {
    /// The type's name in lower case (`web::vhost`).
    pub type_name: String,
    pub attribute: String,
    pub value: AbstractValue,
    /// Where the value is written.
    pub span: crate::source::Span,
    /// Set on every path of the body walked (not in a branch the walk does not know to
    /// be taken, nor in a lambda's body).
    pub certain: bool,
}

/// An error Puppet raises while evaluating code it runs: the message, at the innermost
/// expression whose evaluation failed, and what kind of expression that is.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub message: String,
    pub span: crate::source::Span,
    pub kind: FailureKind,
}

/// What failed, by the kind of the innermost expression Puppet fails in: each kind is
/// reported by its own rule, so a team can select or ignore one (`operator-type`,
/// `division-by-zero`, `access`, `conversion`, `assert-type`, `selector-no-match`);
/// the rest (reassignments, declarations, other calls) by `evaluation-error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    Operator,
    DivisionByZero,
    Access,
    Conversion,
    AssertType,
    SelectorNoMatch,
    /// A function's body ends with a value its declared return type rejects.
    ReturnType,
    /// A built-in function is called with arguments no signature of it takes.
    FunctionArguments,
    Other,
}

impl FailureKind {
    /// The kind of a failure raised by evaluating `e` itself (not one of its operands:
    /// those are located at the operand), when the raising site did not say
    /// (`EvalError::FailedAs`).
    fn of(e: &Expr) -> FailureKind {
        let called = |function: &str| match function {
            "assert_type" => FailureKind::AssertType,
            "new" => FailureKind::Conversion,
            _ => FailureKind::Other,
        };
        match &e.kind {
            ExprKind::Binary { .. } | ExprKind::Unary { .. } => FailureKind::Operator,
            ExprKind::Access { .. } => FailureKind::Access,
            ExprKind::Selector { .. } => FailureKind::SelectorNoMatch,
            ExprKind::Call(call) => match &call.function.kind {
                // `Integer('8080')`: a type called is its `new`.
                ExprKind::TypeRef(_) => FailureKind::Conversion,
                ExprKind::Name(name) => called(name),
                _ => FailureKind::Other,
            },
            ExprKind::MethodCall(call) => match &call.receiver.kind {
                ExprKind::TypeRef(_) if call.method.name == "new" => FailureKind::Conversion,
                _ => called(&call.method.name),
            },
            _ => FailureKind::Other,
        }
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(aliases: &'a dyn AliasSource) -> Evaluator<'a> {
        Evaluator {
            resolver: Resolver::new(aliases),
            scopes: vec![Scope::default()],
            match_groups: Vec::new(),
            depth: 0,
            calls: 0,
            classes: Default::default(),
            declared: Default::default(),
            pending: None,
            closed_world: false,
            failures: Vec::new(),
            uncertain: 0,
            conditional: Vec::new(),
            watch: std::collections::HashSet::new(),
            watch_end: 0,
            watched: Vec::new(),
            functions: None,
            resource_defaults: Vec::new(),
            defaults_set: Vec::new(),
            resources_declared: declared::Declared::default(),
            duplicates: Vec::new(),
            budget: Budget::for_source(0),
            element_walk: false,
        }
    }

    /// Knows the results of the Puppet-language functions `functions` has: a call's value
    /// is known by the function's checked return type.
    /// Draws on their budget, if they have one.
    pub fn with_functions(mut self, functions: &'a dyn FunctionSource) -> Self {
        self.functions = Some(functions);
        if let Some(budget) = functions.budget() {
            self.budget = budget.clone();
        }
        self
    }

    /// An evaluator of a function body `calls` calls deep.
    pub fn with_calls(mut self, calls: usize) -> Self {
        self.calls = calls;
        self
    }

    /// Says that the code evaluated is all there is: no facts, no node classifier, no
    /// other manifests (puppet-oracle's cases), so a variable nothing set is `undef`.
    pub fn closed_world(mut self) -> Self {
        self.closed_world = true;
        self
    }

    /// What reading a variable nothing set gives.
    fn unknown_variable(&self) -> AbstractValue {
        if self.closed_world {
            AbstractValue::Known(Value::Undef)
        } else {
            AbstractValue::Inferred(crate::types::t::any())
        }
    }

    /// Evaluates statements in order; the value of the last (`undef` for none).
    pub fn eval_statements(&mut self, statements: &[Expr]) -> R<AbstractValue> {
        let mut last = AbstractValue::Known(Value::Undef);
        for s in statements {
            self.match_groups.clear();
            last = self.eval(s)?;
        }
        Ok(last)
    }

    /// Evaluates a nested block (of an `if`, `unless` or `case`): match variables set by
    /// its condition stay visible in it.
    /// The value of a block: its last statement's (a function's body, which must not
    /// `return` early).
    pub fn eval_block(&mut self, statements: &[Expr]) -> R<AbstractValue> {
        let mut last = AbstractValue::Known(Value::Undef);
        for s in statements {
            last = self.eval(s)?;
        }
        Ok(last)
    }

    /// The type a type expression (a parameter's type) denotes. An error is Puppet's
    /// (`Failed`), or a name this evaluator does not know (`Unsupported`).
    pub fn resolve_type(&mut self, type_expr: &Expr) -> R<Type> {
        self.resolver
            .resolve(&crate::types::from_ast::type_expr_from_ast(type_expr))
            .map_err(type_error)
    }

    /// Evaluates an expression where Puppet runs it (not one a check only asks
    /// about): an error Puppet raises there is noted among the `failures`.
    pub fn run(&mut self, e: &Expr) -> R<AbstractValue> {
        let result = self.eval(e);
        if let Err(EvalError::FailedAt(failure)) = &result {
            self.failures.push(failure.clone());
            if self.uncertain > 0 {
                self.conditional.push(failure.span);
            }
        }
        result
    }

    /// Whether the walk is where Puppet certainly runs the code (not in a branch of a
    /// condition not known, nor in a lambda's body).
    pub fn is_certain(&self) -> bool {
        self.uncertain == 0
    }

    /// The failures noted so far in code the walk reached for certain: not in a branch
    /// of a condition it did not know, nor in a lambda's body.
    pub fn take_certain_failures(&mut self) -> Vec<Failure> {
        let conditional = std::mem::take(&mut self.conditional);
        self.take_failures()
            .into_iter()
            .filter(|f| !conditional.contains(&f.span))
            .collect()
    }

    /// The defaults in force for resources of the type `type_name` (lower case),
    /// latest first.
    pub fn resource_defaults(&self, type_name: &str) -> Vec<ResourceDefault> {
        self.resource_defaults
            .iter()
            .rev()
            .filter(|d| d.type_name == type_name)
            .cloned()
            .collect()
    }

    /// Notes what `e` evaluates to each time it is reached (`take_watched`), besides
    /// the expressions already watched.
    pub fn watch(&mut self, e: &Expr) {
        self.watch.insert(std::ptr::from_ref(e) as usize);
        self.watch_end = self.watch_end.max(e.span.end);
    }

    /// What the watched expressions (by address) evaluated to so far, taken out.
    pub fn take_watched(&mut self) -> Vec<(usize, Result<AbstractValue, EvalError>)> {
        std::mem::take(&mut self.watched)
    }

    /// Whether the walk is where Puppet certainly evaluates: on every path of the body
    /// walked (no branch of a condition not known, no lambda's body), not in a walk for
    /// one element of an iteration.
    pub fn walks_every_path(&self) -> bool {
        self.uncertain == 0 && !self.element_walk
    }

    /// The errors noted by `run` so far, taken out.
    pub fn take_failures(&mut self) -> Vec<Failure> {
        std::mem::take(&mut self.failures)
    }

    /// Evaluates one expression.
    pub fn eval(&mut self, e: &Expr) -> R<AbstractValue> {
        if self.depth > MAX_DEPTH {
            return Err(EvalError::Unsupported("nesting too deep".into()));
        }
        if !self.budget.charge(1) {
            return Err(EvalError::Unsupported(
                "the evaluation budget is spent".into(),
            ));
        }
        self.depth += 1;
        let result = self.eval_inner(e);
        self.depth -= 1;
        let result = match result {
            Ok(AbstractValue::Known(value))
                if builds_values(e) && !self.budget.fits(&value, e.span.len() as usize) =>
            {
                Ok(AbstractValue::Inferred(budget::kind_of(&value)))
            }
            // The innermost expression an error comes out of is where Puppet fails.
            Err(EvalError::Failed(message)) => Err(EvalError::FailedAt(Failure {
                kind: FailureKind::of(e),
                message,
                span: e.span,
            })),
            Err(EvalError::FailedAs(message, kind)) => Err(EvalError::FailedAt(Failure {
                kind,
                message,
                span: e.span,
            })),
            other => other,
        };
        if !self.watch.is_empty() {
            let at = std::ptr::from_ref(e) as usize;
            if self.watch.contains(&at) {
                self.watched.push((at, result.clone()));
            }
        }
        result
    }

    /// Evaluates an expression whose value must be known to go on.
    fn known(&mut self, e: &Expr) -> R<Value> {
        match self.eval(e)? {
            AbstractValue::Known(v) => Ok(v),
            AbstractValue::Inferred(t) => Err(EvalError::Unsupported(format!(
                "a value known only by its type ({t})"
            ))),
        }
    }

    fn eval_inner(&mut self, e: &Expr) -> R<AbstractValue> {
        let known = |v: Value| Ok(AbstractValue::Known(v));
        match &e.kind {
            ExprKind::Integer(i) => known(Value::Integer(*i)),
            ExprKind::Float(f) => known(Value::Float(*f)),
            ExprKind::String(s) => known(Value::string(&s.value)),
            ExprKind::Boolean(b) => known(Value::Bool(*b)),
            ExprKind::Undef => known(Value::Undef),
            ExprKind::Default => known(Value::Default),
            ExprKind::Regex(r) => known(Value::Regexp(crate::types::model::Regex::new(r))),
            ExprKind::Name(n) => known(Value::string(n)),
            ExprKind::Interpolated(parts) => self.interpolate(parts, e.span.len() as usize),
            // A template's text and `<%= ... %>` output: what is rendered is not needed,
            // only what evaluating the expression raises.
            // Template text is rendered as it is reached; as a value it is undef (an
            // `if` whose branch is text gives undef, not the text: asked of Puppet 7).
            // It is left unknown: code that uses such a value is a template's slip whose
            // guards (`type($x) == String`) pupcheck may not follow, and what fails
            // beyond them is never reached.
            ExprKind::EppText(_) => Err(EvalError::Unsupported("template text as a value".into())),
            ExprKind::EppRender(inner) => self.eval(inner),
            ExprKind::Heredoc(h) => self.interpolate(&h.parts, e.span.len() as usize),
            ExprKind::Paren(inner) => self.eval(inner),
            ExprKind::TypeRef(name) => {
                let span = (e.span.start as usize, e.span.end as usize);
                let t = self.resolver.named_type(name, span).map_err(type_error)?;
                known(Value::Type(t))
            }
            // `$0`, `$1`, ...: the groups of the statement's last regexp match. Where no
            // match of this statement is known (a match in an enclosing `if` condition,
            // a `case` option or a selector, which this evaluator does not carry into the
            // body), the value is unknown, never `undef`.
            ExprKind::Variable(name) if name.bytes().all(|b| b.is_ascii_digit()) => {
                if self.match_groups.is_empty() {
                    return Err(EvalError::Unsupported(format!(
                        "${name} outside the match that sets it"
                    )));
                }
                let n: usize = name.parse().unwrap_or(usize::MAX);
                known(self.match_groups.get(n).cloned().unwrap_or(Value::Undef))
            }
            ExprKind::Variable(name) => self.variable(name),
            ExprKind::Array(items) => self.array(items),
            ExprKind::Hash(entries) => {
                let mut map = IndexMap::new();
                for entry in entries {
                    let k = self.known(&entry.key)?;
                    let v = self.known(&entry.value)?;
                    map.insert(k, v);
                }
                known(Value::Hash(Arc::new(map)))
            }
            ExprKind::Assignment {
                op: AssignOp::Assign,
                left,
                right,
            } => match (&left.kind, self.eval(right)) {
                // A value not modelled is still assigned: Puppet fails on a variable
                // already assigned whatever the value (unless computing it fails first,
                // which fails the compile too).
                (ExprKind::Variable(_), Err(EvalError::Unsupported(why))) => {
                    self.assign_abstract(left, AbstractValue::Inferred(crate::types::t::any()))?;
                    Err(EvalError::Unsupported(why))
                }
                (_, Err(e)) => Err(e),
                // `$x = $param`: $x is known by the parameter's type too.
                (ExprKind::Variable(_), Ok(AbstractValue::Inferred(t))) => {
                    self.assign_abstract(left, AbstractValue::Inferred(t.clone()))?;
                    Ok(AbstractValue::Inferred(t))
                }
                (_, Ok(AbstractValue::Known(value))) => {
                    self.assign(left, &value)?;
                    known(value)
                }
                (_, Ok(AbstractValue::Inferred(t))) => Err(EvalError::Unsupported(format!(
                    "assigning a value known only by its type ({t}) to several variables"
                ))),
            },
            ExprKind::Unary { op, operand } => {
                let v = self.known(operand)?;
                match op {
                    UnaryOp::Not => known(Value::Bool(!truthy(&v))),
                    // Puppet makes the operand a number as arithmetic does (a numeric
                    // string is one; anything else NOT_NUMERIC), then negates it.
                    UnaryOp::Negate => match operators::coerce_numeric(&v)? {
                        // Puppet does not hold `-` to its integer range: -(-2**63) is
                        // 2**63, which pupcheck's integers cannot hold.
                        Value::Integer(i) => i
                            .checked_neg()
                            .map(Value::Integer)
                            .map(AbstractValue::Known)
                            .ok_or_else(|| {
                                EvalError::Unsupported("an integer beyond 64 bits".into())
                            }),
                        Value::Float(f) => known(Value::Float(-f)),
                        Value::Timespan(n) => known(Value::Timespan(-n)),
                        // Ruby's error: a version is a Numeric it cannot negate.
                        Value::SemVer(_) => Err(EvalError::Failed(
                            "Error while evaluating an Unary Minus, can't convert SemanticPuppet::Version into Float".into(),
                        )),
                        other => Err(EvalError::Unsupported(format!("-{other}"))),
                    },
                    // `*x` on its own is an array (`2 ** 3` is `2 * [3]`, an error).
                    UnaryOp::Splat => known(Value::array(unfold(v))),
                }
            }
            ExprKind::Binary {
                op, left, right, ..
            } => self.binary(*op, left, right),
            ExprKind::Access { object, args } => self.access(e, object, args),
            ExprKind::If(i) => {
                let condition = match self.eval(&i.condition)? {
                    AbstractValue::Known(c) => c,
                    // Either branch may be the one taken: the join of their values.
                    AbstractValue::Inferred(_) => {
                        let otherwise: &[Expr] = match &i.else_branch {
                            Some(ElseBranch::Elsif(next)) => std::slice::from_ref(next),
                            Some(ElseBranch::Else(block)) => &block.statements,
                            None => &[],
                        };
                        return self.any_branch(&[&i.then_block.statements, otherwise]);
                    }
                };
                if truthy(&condition) {
                    self.eval_block(&i.then_block.statements)
                } else {
                    match &i.else_branch {
                        Some(ElseBranch::Elsif(next)) => self.eval(next),
                        Some(ElseBranch::Else(block)) => self.eval_block(&block.statements),
                        None => known(Value::Undef),
                    }
                }
            }
            ExprKind::Unless(u) => {
                let condition = match self.eval(&u.condition)? {
                    AbstractValue::Known(c) => c,
                    AbstractValue::Inferred(_) => {
                        let otherwise: &[Expr] =
                            u.else_block.as_ref().map_or(&[], |b| &b.statements);
                        return self.any_branch(&[&u.then_block.statements, otherwise]);
                    }
                };
                if !truthy(&condition) {
                    self.eval_block(&u.then_block.statements)
                } else if let Some(block) = &u.else_block {
                    self.eval_block(&block.statements)
                } else {
                    known(Value::Undef)
                }
            }
            ExprKind::Case(c) => {
                let subject = match self.eval(&c.subject)? {
                    AbstractValue::Known(v) => v,
                    // Any option may be the one taken (or none, without a default).
                    AbstractValue::Inferred(_) => {
                        let mut bodies: Vec<&[Expr]> =
                            c.options.iter().map(|o| &o.body.statements[..]).collect();
                        let has_default = c.options.iter().any(|o| {
                            o.matchers
                                .iter()
                                .any(|m| matches!(m.kind, ExprKind::Default))
                        });
                        if !has_default {
                            bodies.push(&[]);
                        }
                        return self.any_branch(&bodies);
                    }
                };
                let mut fallback = None;
                for option in &c.options {
                    for m in &option.matchers {
                        if matches!(m.kind, ExprKind::Default) {
                            fallback = Some(&option.body);
                            continue;
                        }
                        let candidate = self.known(m)?;
                        if self.case_matches(&subject, &candidate)? {
                            return self.eval_block(&option.body.statements);
                        }
                    }
                }
                match fallback {
                    Some(body) => self.eval_block(&body.statements),
                    None => known(Value::Undef),
                }
            }
            ExprKind::Selector { subject, entries } => {
                let subject = match self.eval(subject)? {
                    AbstractValue::Known(v) => v,
                    // No entry can match a value of the type, and there is no default:
                    // Puppet fails whatever the value (its message names the value,
                    // which only the node knows).
                    AbstractValue::Inferred(ty) if self.no_entry_matches(&ty, entries) => {
                        return Err(EvalError::Failed(
                            "No matching entry for selector parameter with value".into(),
                        ));
                    }
                    // Any entry may be the one taken: the join of their values.
                    AbstractValue::Inferred(_) => return self.any_of(entries),
                };
                let mut fallback = None;
                for entry in entries {
                    if matches!(entry.matcher.kind, ExprKind::Default) {
                        fallback = Some(&entry.value);
                        continue;
                    }
                    let candidate = self.known(&entry.matcher)?;
                    if self.case_matches(&subject, &candidate)? {
                        return self.eval(&entry.value);
                    }
                }
                match fallback {
                    Some(value) => self.eval(value),
                    None => Err(EvalError::Failed(format!(
                        "No matching entry for selector parameter with value '{}'",
                        query::string_form(&subject)
                    ))),
                }
            }
            ExprKind::Call(call) => self.call(e, call),
            ExprKind::MethodCall(call) => self.method_call(e, call),
            // Definitions are known before evaluation starts (`define_classes`, the
            // alias table); where they stand they do nothing.
            ExprKind::TypeAlias(_)
            | ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Function(_) => known(Value::Undef),
            ExprKind::Resource(r)
                if matches!(&r.type_expr.kind, ExprKind::Name(n) if n == "class")
                    && r.form == ResourceForm::Regular =>
            {
                self.class_resource(r)
            }
            other => Err(EvalError::Unsupported(construct(other).to_string())),
        }
    }

    /// Assigns `value` to a variable, or to an array of them (spec 004 "Assignment
    /// Operator": from an array by position, from a hash by name, from a class by its
    /// variables).
    fn assign(&mut self, target: &Expr, value: &Value) -> R<()> {
        match &target.kind {
            ExprKind::Variable(_) => {
                self.assign_abstract(target, AbstractValue::Known(value.clone()))
            }
            ExprKind::Array(targets) => self.assign_many(targets, value),
            ExprKind::Access { .. } => Err(EvalError::Failed(
                "Illegal attempt to assign via [index/key]. Not an assignable reference".into(),
            )),
            _ => Err(EvalError::Unsupported(
                "assignment to a non-variable".into(),
            )),
        }
    }

    /// Binds a variable of the innermost scope.
    fn assign_abstract(&mut self, target: &Expr, value: AbstractValue) -> R<()> {
        match &target.kind {
            ExprKind::Variable(name) if names::is_qualified(names::without_top_scope(name)) => {
                Err(EvalError::Failed(format!(
                    "Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces"
                )))
            }
            ExprKind::Variable(name) => {
                let name = names::without_top_scope(name).to_string();
                let scope = self.scopes.last_mut().expect("the top scope");
                if scope.maybe_unset().contains(&name) {
                    // The path taken may not have set it.
                    return Err(EvalError::Unsupported(format!(
                        "assigning ${name}, which some paths may not have set"
                    )));
                }
                match scope.get(&name) {
                    // Puppet names the two variables every scope has apart.
                    Some(_) if matches!(name.as_str(), "name" | "title") => {
                        return Err(EvalError::Failed(format!(
                            "Cannot reassign built in (or already assigned) variable '${name}'"
                        )))
                    }
                    Some(_) => {
                        return Err(EvalError::Failed(format!(
                            "Cannot reassign variable '${name}'"
                        )))
                    }
                    None => {}
                }
                scope.insert(name, value);
                Ok(())
            }
            _ => Err(EvalError::Unsupported(
                "assignment to a non-variable".into(),
            )),
        }
    }

    /// Binds variables in the innermost scope before evaluation (a definition's
    /// parameters, known by their types when the caller is not known).
    pub fn bind(&mut self, name: &str, value: AbstractValue) {
        self.scopes
            .last_mut()
            .expect("the top scope")
            .insert(name.to_string(), value);
    }

    fn assign_many(&mut self, targets: &[Expr], value: &Value) -> R<()> {
        let name_of = |t: &Expr| match &t.kind {
            ExprKind::Variable(n) => Ok(n.clone()),
            _ => Err(EvalError::Unsupported(
                "a nested target in an assignment from a hash or class".into(),
            )),
        };
        match value {
            Value::Array(values) if values.len() == targets.len() => {
                for (t, v) in targets.iter().zip(values.iter()) {
                    self.assign(t, v)?;
                }
                Ok(())
            }
            Value::Hash(map) => {
                for t in targets {
                    let name = name_of(t)?;
                    let Some(v) = map.get(&Value::string(&name)) else {
                        return Err(EvalError::Failed(format!(
                            "No value for required key '{name}' in assignment to variables from hash"
                        )));
                    };
                    self.assign(t, &v.clone())?;
                }
                Ok(())
            }
            Value::Type(ty) if matches!(ty.kind(), crate::types::Kind::Class(Some(_))) => {
                let crate::types::Kind::Class(Some(class)) = ty.kind() else {
                    unreachable!("matched above")
                };
                for t in targets {
                    let v = self.class_variable_for_assignment(class, &name_of(t)?)?;
                    self.assign(t, &v)?;
                }
                Ok(())
            }
            other => {
                let got = match other {
                    Value::Array(values) => values.len(),
                    _ => 1,
                };
                Err(EvalError::Failed(format!(
                    "Mismatched number of assignable entries and values, expected {}, got {got}",
                    targets.len()
                )))
            }
        }
    }

    /// A case option or selector entry matches: a regexp or type matches the subject,
    /// an array of options matches any of them, anything else by `==`.
    /// Whether a selector has no `default` and no entry can match any value of `ty`:
    /// each entry's matcher is known, and its values (a regular expression's strings,
    /// a type's instances, a value and what equals it) are none of `ty`'s.
    fn no_entry_matches(
        &mut self,
        ty: &crate::types::Type,
        entries: &[crate::ast::SelectorEntry],
    ) -> bool {
        use crate::types::{disjoint::disjoint, t};
        entries.iter().all(|entry| {
            if matches!(entry.matcher.kind, ExprKind::Default) {
                return false;
            }
            let Ok(AbstractValue::Known(candidate)) = self.eval(&entry.matcher) else {
                return false;
            };
            let matched = match &candidate {
                Value::Regexp(_) => t::string(),
                Value::Type(matcher) => matcher.clone(),
                // Equality: strings without case, numbers across Integer and Float.
                Value::String(_) => t::string(),
                Value::Integer(_) | Value::Float(_) => t::numeric(),
                Value::Bool(_) => t::boolean(),
                Value::Undef => t::undef(),
                _ => return false,
            };
            disjoint(ty, &matched)
        })
    }

    fn case_matches(&mut self, subject: &Value, candidate: &Value) -> R<bool> {
        match candidate {
            Value::Regexp(_) => {
                let matched = matches!(subject, Value::String(_))
                    && self.budgeted_match(subject, candidate)?;
                if matched {
                    self.record_groups(subject, candidate);
                }
                Ok(matched)
            }
            Value::Type(t) => Ok(crate::types::instance_of(subject, t)),
            _ => Ok(equals(subject, candidate)),
        }
    }

    /// What `$facts['os']['family']` gives: a value of the type Facter's schema says
    /// on a node that has the fact, undef on one that does not. `None` for a path the
    /// schema does not type, and where no facts exist (a closed world).
    fn fact_access(&self, access: &Expr) -> Option<AbstractValue> {
        if self.closed_world || self.scopes.iter().any(|s| s.get("facts").is_some()) {
            return None;
        }
        let path = crate::builtin::facts::facts_path(access)?;
        let name = path.first()?;
        if self.functions.is_some_and(|f| f.may_define_fact(name)) {
            return None;
        }
        let ty = crate::builtin::facts::value_type(&path)?;
        Some(AbstractValue::Inferred(crate::types::t::optional(ty)))
    }

    /// A top-scope variable no code sets (`$::osfamily`): the fact of the name, typed
    /// as `fact_access` types it.
    fn top_scope_fact(&self, name: &str) -> Option<AbstractValue> {
        if self.closed_world || self.functions.is_some_and(|f| f.may_define_fact(name)) {
            return None;
        }
        let ty = crate::builtin::facts::value_type(&[name.to_string()])?;
        Some(AbstractValue::Inferred(crate::types::t::optional(ty)))
    }

    /// A variable's value: `$::x` from the top scope, `$a::b::x` from the class
    /// `a::b`, `$x` from the innermost scope that has it. Unknown is not undef here: a
    /// fact, or a variable of code not evaluated, is known only to be `Any`.
    fn variable(&self, name: &str) -> R<AbstractValue> {
        let found =
            |v: Option<&AbstractValue>| v.cloned().unwrap_or_else(|| self.unknown_variable());
        let unqualified = names::without_top_scope(name);
        if let Some((class, variable)) = names::split_last(unqualified) {
            return Ok(self.class_variable(class, variable));
        }
        if name.starts_with("::") {
            return Ok(match self.scopes[0].get(unqualified) {
                Some(v) => v.clone(),
                None => self
                    .top_scope_fact(unqualified)
                    .unwrap_or_else(|| self.unknown_variable()),
            });
        }
        self.check_not_pending(name)?;
        Ok(found(self.scopes.iter().rev().find_map(|s| s.get(name))))
    }

    /// A typed parameter of a lambda takes only its type's values: Puppet checks them
    /// as it checks a function's arguments, before the body runs.
    pub(super) fn check_block_argument(&mut self, p: &Parameter, v: &Value) -> R<()> {
        let Some(type_expr) = &p.type_expr else {
            return Ok(());
        };
        let ty = self.resolve_type(type_expr)?;
        if crate::types::instance_of(v, &ty) {
            return Ok(());
        }
        use crate::types::mismatch::{describe_value, PathElem};
        let path = [PathElem::Block, PathElem::Parameter(p.name.name.clone())];
        Err(match describe_value(&ty, v, &path).as_slice() {
            // The block's argument, judged as a function's arguments are.
            [why] if ty.patterns_runnable() => {
                EvalError::FailedAs(why.clone(), FailureKind::FunctionArguments)
            }
            _ => EvalError::Unsupported("a block parameter's type".into()),
        })
    }

    /// Calls a lambda with arguments bound to its parameters in a scope of its own.
    pub(super) fn call_lambda(&mut self, lambda: &Lambda, args: &[Value]) -> R<Value> {
        if lambda.params.len() < args.len().min(1) && !lambda.params.is_empty() {
            return Err(EvalError::Failed(
                "wrong number of arguments for the lambda".into(),
            ));
        }
        let mut scope = Scope::default();
        for (i, p) in lambda.params.iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => v.clone(),
                None => match &p.default {
                    Some(d) => self.known(d)?,
                    None => {
                        return Err(EvalError::Failed(format!(
                            "Parameter ${} is required but no value was given",
                            p.name.name
                        )))
                    }
                },
            };
            self.check_block_argument(p, &v)?;
            scope.insert(p.name.name.clone(), AbstractValue::Known(v));
        }
        self.scopes.push(scope);
        let saved = std::mem::take(&mut self.match_groups);
        let result = self.eval_statements(&lambda.body.statements);
        self.match_groups = saved;
        self.scopes.pop();
        let value = match result? {
            AbstractValue::Known(v) => v,
            AbstractValue::Inferred(t) => {
                return Err(EvalError::Unsupported(format!(
                    "a lambda returning a value known only by its type ({t})"
                )))
            }
        };
        // A declared return type (`|$x| >> String { ... }`) is checked as a function's.
        if let Some(type_expr) = &lambda.return_type {
            let ty = self.resolve_type(type_expr)?;
            if !crate::types::instance_of(&value, &ty) {
                let why = crate::types::mismatch::describe_value(&ty, &value, &[]);
                if why.is_empty() || !ty.patterns_runnable() {
                    return Err(EvalError::Unsupported("a lambda's return type".into()));
                }
                return Err(EvalError::FailedAs(
                    crate::types::mismatch::each_named(
                        "value returned from lambda has wrong type,",
                        &why,
                    ),
                    FailureKind::ReturnType,
                ));
            }
        }
        Ok(value)
    }

    /// A match (`=~`, a case option, a selector entry) on the budget: one that gives
    /// up backtracking is charged the steps it took; past the budget none is run.
    fn budgeted_match(&mut self, a: &Value, b: &Value) -> R<bool> {
        self.charged_match(true, || operators::matches(a, b))
    }

    /// Runs `matching` (none when `only_within_budget` and the budget is spent), unknown
    /// when a regexp or a type's pattern gave up backtracking, which is charged.
    fn charged_match(
        &mut self,
        only_within_budget: bool,
        matching: impl FnOnce() -> R<bool>,
    ) -> R<bool> {
        if only_within_budget && self.budget.spent() {
            return Err(EvalError::Unsupported(
                "a match past the evaluation budget".into(),
            ));
        }
        crate::types::model::take_gave_up();
        let result = gave_up_unknown(matching());
        if matches!(result, Err(EvalError::Unsupported(_))) {
            self.budget
                .charge(crate::types::model::BACKTRACK_LIMIT as u64);
        }
        result
    }

    /// `=~`, setting `$0`, `$1`, ... when a regexp matched.
    fn regex_match(&mut self, a: &Value, b: &Value) -> R<bool> {
        let matched = self.budgeted_match(a, b)?;
        if matched {
            self.record_groups(a, b);
        }
        Ok(matched)
    }

    /// `in`: a regexp that finds an element sets `$0`, `$1`, ... from that element.
    fn contains(&mut self, a: &Value, b: &Value) -> R<bool> {
        // A regexp runs a match per element: charged as `=~`'s are (a match that gives
        // up ends the operator, unknown).
        let regexp = matches!(a, Value::Regexp(_));
        let found = self.charged_match(regexp, || operators::contains(a, b))?;
        if found {
            if let (Value::Regexp(_), Value::Array(items)) = (a, b) {
                let hit = items.iter().find(|e| {
                    matches!(e, Value::String(_)) && operators::matches(e, a).unwrap_or(false)
                });
                if let Some(hit) = hit.cloned() {
                    self.record_groups(&hit, a);
                }
            }
        }
        Ok(found)
    }

    fn record_groups(&mut self, subject: &Value, pattern: &Value) {
        let (Value::String(s), Value::Regexp(r)) = (subject, pattern) else {
            return;
        };
        if let Some(captures) = r.compiled().and_then(|re| re.captures(&**s).ok().flatten()) {
            self.match_groups = captures
                .iter()
                .map(|g| g.map_or(Value::Undef, |m| Value::string(m.as_str())))
                .collect();
        }
    }

    fn binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr) -> R<AbstractValue> {
        // `and` / `or` evaluate their right operand only when needed.
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            let l = match self.eval(left)? {
                AbstractValue::Known(v) => truthy(&v),
                // Whether the right operand is evaluated depends on the left one.
                AbstractValue::Inferred(_) => {
                    return Ok(AbstractValue::Inferred(crate::types::t::boolean()))
                }
            };
            if (op == BinaryOp::And) != l {
                return Ok(AbstractValue::Known(Value::Bool(l)));
            }
            return Ok(match self.eval(right)? {
                AbstractValue::Known(v) => AbstractValue::Known(Value::Bool(truthy(&v))),
                AbstractValue::Inferred(_) => AbstractValue::Inferred(crate::types::t::boolean()),
            });
        }
        let (a, b) = match (self.eval(left)?, self.eval(right)?) {
            (AbstractValue::Known(a), AbstractValue::Known(b)) => (a, b),
            (a, b) => {
                if let Some(failure) = self.kind_failure(op, &a, &b) {
                    return Err(failure);
                }
                return transfer::binary(op, &a, &b);
            }
        };
        let v = match op {
            BinaryOp::Equal => Value::Bool(equals(&a, &b)),
            BinaryOp::NotEqual => Value::Bool(!equals(&a, &b)),
            BinaryOp::Less => operators::compare("<", &a, &b)?,
            BinaryOp::LessEqual => operators::compare("<=", &a, &b)?,
            BinaryOp::Greater => operators::compare(">", &a, &b)?,
            BinaryOp::GreaterEqual => operators::compare(">=", &a, &b)?,
            BinaryOp::Match => Value::Bool(self.regex_match(&a, &b)?),
            BinaryOp::NotMatch => Value::Bool(!self.regex_match(&a, &b)?),
            BinaryOp::In => Value::Bool(self.contains(&a, &b)?),
            BinaryOp::Add => operators::arithmetic("+", &a, &b)?,
            BinaryOp::Subtract => operators::arithmetic("-", &a, &b)?,
            BinaryOp::Multiply => operators::arithmetic("*", &a, &b)?,
            BinaryOp::Divide => operators::arithmetic("/", &a, &b)?,
            BinaryOp::Modulo => operators::arithmetic("%", &a, &b)?,
            BinaryOp::ShiftLeft => operators::arithmetic("<<", &a, &b)?,
            BinaryOp::ShiftRight => operators::arithmetic(">>", &a, &b)?,
            BinaryOp::And | BinaryOp::Or => unreachable!("handled above"),
        };
        Ok(AbstractValue::Known(v))
    }

    /// The error of a comparison or a match whose operands, some known only by their
    /// types, are of kinds Puppet cannot compare or match whatever the values
    /// (`1 < $flag` with a Boolean, `$port =~ /^8/` with an Integer).
    fn kind_failure(
        &mut self,
        op: BinaryOp,
        a: &AbstractValue,
        b: &AbstractValue,
    ) -> Option<EvalError> {
        // Every pair of samples must fail: a value that may be undef (a fact a node
        // may lack) fails only if undef fails too.
        let (left, right) = (transfer::samples_of(a)?, transfer::samples_of(b)?);
        let mut first = None;
        for sa in &left {
            for sb in &right {
                let failed = self
                    .kind_failure_of(op, sa, sb, b)
                    .filter(|e| matches!(e, EvalError::Failed(_) | EvalError::FailedAs(..)))?;
                first.get_or_insert(failed);
            }
        }
        first
    }

    fn kind_failure_of(
        &mut self,
        op: BinaryOp,
        sa: &Value,
        sb: &Value,
        b: &AbstractValue,
    ) -> Option<EvalError> {
        match op {
            BinaryOp::Less => operators::compare("<", sa, sb).err(),
            BinaryOp::LessEqual => operators::compare("<=", sa, sb).err(),
            BinaryOp::Greater => operators::compare(">", sa, sb).err(),
            BinaryOp::GreaterEqual => operators::compare(">=", sa, sb).err(),
            // A string matches or not by its text; any other left operand fails.
            BinaryOp::Match | BinaryOp::NotMatch if !matches!(sa, Value::String(_)) => {
                matches!(b, AbstractValue::Known(Value::Regexp(_) | Value::String(_)))
                    .then(|| self.regex_match(sa, sb).err())
                    .flatten()
            }
            _ => None,
        }
    }

    /// `x[...]` on a type (a parameterised type), a string, an array or a hash (spec
    /// 004 "Access Operator").
    fn access(&mut self, e: &Expr, object: &Expr, args: &[Expr]) -> R<AbstractValue> {
        if let Some(fact) = self.fact_access(e) {
            return Ok(fact);
        }
        let (base, by_kind) = match self.eval(object)? {
            AbstractValue::Known(v) => (v, false),
            // Known by its type: accessing a value of its kind fails whatever the value
            // is (an Integer, keys an Array does not take), or the result is not known.
            AbstractValue::Inferred(ty) => match transfer::sample(&ty) {
                Some(sample) if !matches!(sample, Value::Hash(_)) => (sample, true),
                _ => {
                    return Err(EvalError::Unsupported(format!(
                        "access on a value known only by its type ({ty})"
                    )))
                }
            },
        };
        if by_kind {
            // What the access gives is not known; only its failure is.
            self.access_known(e, base, args)?;
            return Err(EvalError::Unsupported(
                "access on a value known only by its type".into(),
            ));
        }
        self.access_known(e, base, args).map(AbstractValue::Known)
    }

    /// `access` on a known value.
    fn access_known(&mut self, e: &Expr, base: Value, args: &[Expr]) -> R<Value> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            match &a.kind {
                ExprKind::Unary {
                    op: UnaryOp::Splat,
                    operand,
                } => values.extend(unfold(self.known(operand)?)),
                _ => values.push(self.known(a)?),
            }
        }
        let span = (e.span.start as usize, e.span.end as usize);
        let v = match base {
            Value::Type(t) if matches!(t.kind(), crate::types::Kind::Class(Some(_))) => {
                let crate::types::Kind::Class(Some(name)) = t.kind() else {
                    unreachable!("matched above")
                };
                self.class_parameters(name, &values)?
            }
            // The parameters of a declared resource: pupcheck does not model resources.
            Value::Type(t)
                if matches!(
                    t.kind(),
                    crate::types::Kind::Resource { title: Some(_), .. }
                ) =>
            {
                return Err(EvalError::Unsupported(
                    "the parameters of a resource".into(),
                ))
            }
            Value::Type(t) => {
                // A parameterised type takes new parameters from its bare type
                // (`Array[String][Integer]` is `Array[Integer]`).
                let shown = t.to_string();
                let bare = shown.split('[').next().unwrap_or(&shown).to_string();
                let base = if shown != bare {
                    self.resolver.named_type(&bare, span).map_err(type_error)?
                } else {
                    t
                };
                self.resolver
                    .access_with_values(&base, values, span)
                    .map_err(type_access_error)?
            }
            Value::String(s) => index_string(&s, &values)?,
            Value::Array(items) => index_array(&items, &values)?,
            Value::Binary(bytes) => index_binary(&bytes, &values)?,
            Value::Hash(map) => match values.as_slice() {
                [key] => map.get(key).cloned().unwrap_or(Value::Undef),
                keys => Value::array(keys.iter().filter_map(|k| map.get(k).cloned()).collect()),
            },
            other => {
                return Err(EvalError::Failed(format!(
                    "Operator '[]' is not applicable to {}.",
                    labels::a_an(&labels::label(&other))
                )))
            }
        };
        Ok(v)
    }

    /// A selector whose subject is not known: one of its values, each evaluated (an
    /// entry that cannot be is `Any`, so the join is too).
    fn any_of(&mut self, entries: &[SelectorEntry]) -> R<AbstractValue> {
        let mut values = Vec::with_capacity(entries.len());
        for entry in entries {
            match self.eval(&entry.value) {
                Ok(value) => values.push(value),
                // An entry that cannot be evaluated, or that fails: if it is the one
                // taken, the selector gives nothing; either way nothing is certain.
                Err(_) => values.push(AbstractValue::Inferred(crate::types::t::any())),
            }
        }
        if values.is_empty() {
            return Err(EvalError::Unsupported("a selector without entries".into()));
        }
        Ok(flow::join(&values))
    }

    /// A conditional used as a value whose condition is not known: one of its
    /// branches' values (an empty branch gives `undef`). Each branch is evaluated from
    /// the same scope; a variable they set holds what any of them left, as after a
    /// conditional statement (`merge_branches`). A branch that cannot be evaluated, or
    /// that fails (perhaps it is never taken), is `Any`, so the join is too, and what
    /// it set is forgotten.
    fn any_branch(&mut self, branches: &[&[Expr]]) -> R<AbstractValue> {
        let start = self.fork_scopes();
        let scopes = self.scopes.clone();
        let defaults = self.resource_defaults.len();
        let groups = self.match_groups.clone();
        let mut values = Vec::with_capacity(branches.len());
        let mut outcomes = Vec::with_capacity(branches.len());
        let mut all_evaluated = true;
        for statements in branches {
            match self.eval_block(statements) {
                Ok(value) => {
                    values.push(value);
                    outcomes.push(self.scopes.last().expect("a scope").clone());
                }
                Err(_) => {
                    values.push(AbstractValue::Inferred(crate::types::t::any()));
                    all_evaluated = false;
                }
            }
            self.scopes.clone_from(&scopes);
            self.resource_defaults.truncate(defaults);
            self.match_groups.clone_from(&groups);
        }
        // (The copy shares the scopes' layers: dropped, the next fork adds to them in place.)
        drop(scopes);
        if all_evaluated {
            self.merge_branches(&start, outcomes);
        }
        Ok(flow::join(&values))
    }

    /// An array literal: known when every element is; otherwise a `Tuple` of what each
    /// element is known to be (an element not evaluated is `Any`), unless an element
    /// fails for certain or a splat of unknown length makes the size unknown.
    fn array(&mut self, items: &[Expr]) -> R<AbstractValue> {
        let mut values = Vec::with_capacity(items.len());
        let mut types = Vec::with_capacity(items.len());
        let mut all_known = true;
        for item in items {
            match &item.kind {
                // `*$x` in an array literal unfolds it (spec 004 "Unfold").
                ExprKind::Unary {
                    op: UnaryOp::Splat,
                    operand,
                } => {
                    let unfolded = unfold(self.known(operand)?);
                    types.extend(unfolded.iter().map(crate::types::infer_detailed));
                    values.extend(unfolded);
                }
                _ => match self.eval(item) {
                    Ok(AbstractValue::Known(v)) => {
                        types.push(crate::types::infer_detailed(&v));
                        values.push(v);
                    }
                    Ok(AbstractValue::Inferred(t)) => {
                        all_known = false;
                        types.push(t);
                    }
                    Err(EvalError::Unsupported(_)) => {
                        all_known = false;
                        types.push(crate::types::t::any());
                    }
                    Err(failed) => return Err(failed),
                },
            }
        }
        Ok(if all_known {
            AbstractValue::Known(Value::array(values))
        } else {
            AbstractValue::Inferred(crate::types::t::tuple(types, None))
        })
    }

    /// A string with interpolations: known when every part is; otherwise still a
    /// `String` (whatever the parts hold), unless a part fails for certain.
    /// (`source_bytes`: the length of its text, which it may always reach.)
    fn interpolate(&mut self, parts: &[StringPart], source_bytes: usize) -> R<AbstractValue> {
        let limit = budget::MAX_TEXT_BYTES.max(source_bytes);
        let mut out = String::new();
        let mut all_known = true;
        for part in parts {
            match part {
                StringPart::Text(t, _) => out.push_str(t),
                StringPart::Interpolation(e) => match self.eval(e) {
                    Ok(AbstractValue::Known(v)) if all_known => out.push_str(&interpolated(&v)),
                    Ok(_) | Err(EvalError::Unsupported(_)) => all_known = false,
                    Err(failed) => return Err(failed),
                },
            }
            // A string past the budget's size is known as a String only; the parts
            // after it are still evaluated (they may fail).
            if out.len() > limit {
                all_known = false;
                out = String::new();
            }
        }
        Ok(if all_known {
            AbstractValue::Known(Value::string(&out))
        } else {
            AbstractValue::Inferred(crate::types::t::string())
        })
    }
}

/// A value as interpolation writes it: strings as they are, also inside arrays and
/// hashes (`"${[1, 'a']}"` is `[1, a]`), `undef` as nothing.
fn interpolated(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(interpolated).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{} => {}", interpolated(k), interpolated(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        // Puppet interpolates an iterator as its type's name, not its elements, and a
        // Binary as its base64.
        Value::Iterator(_) => format!("{}-Value", crate::types::infer_generalized(v)),
        Value::Binary(_) => labels::ruby_to_s(v),
        other => query::string_form(other),
    }
}

/// A type expression's error: Puppet's, or a name pupcheck does not know (then the
/// expression is not evaluated, rather than called wrong).
fn type_error(e: crate::types::resolve::TypeError) -> EvalError {
    if e.unknown_name {
        EvalError::Unsupported(e.message)
    } else {
        EvalError::Failed(e.message)
    }
}

/// An error of `Type[...]`. The ones Puppet's type constructors raise as Ruby
/// ArgumentErrors (not as issues of the access operator) come prefixed with the
/// expression, as Puppet's RUNTIME_ERROR.
fn type_access_error(e: crate::types::resolve::TypeError) -> EvalError {
    const RAISED_BY_CONSTRUCTORS: &[&str] = &[
        "'from' must be less or equal to 'to'",
        "Struct element key cannot be an empty String",
        "Unable to parse '",
    ];
    match type_error(e) {
        EvalError::Failed(m) if RAISED_BY_CONSTRUCTORS.iter().any(|p| m.starts_with(p)) => {
            EvalError::Failed(format!("Error while evaluating a '[]' expression, {m}"))
        }
        other => other,
    }
}

/// Whether evaluating `e` may build a value larger than its operands, whose size the
/// budget then measures (reading a variable or an element builds nothing).
/// A match's result, unknown when a type's pattern gave up backtracking while it was
/// computed (the type took the value as matching, which only a type's judgement may).
fn gave_up_unknown(result: R<bool>) -> R<bool> {
    if crate::types::model::take_gave_up() {
        return Err(EvalError::Unsupported(
            "a pattern that gives up backtracking".into(),
        ));
    }
    result
}

fn builds_values(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Array(_)
            | ExprKind::Hash(_)
            | ExprKind::Binary { .. }
            | ExprKind::Call(_)
            | ExprKind::MethodCall(_)
    )
}

/// What to call a construct the evaluator does not model yet.
fn construct(kind: &ExprKind) -> &'static str {
    match kind {
        ExprKind::MethodCall(_) => "method calls",
        ExprKind::Assignment { .. } => "this assignment",
        ExprKind::Relationship { .. } => "relationships",
        ExprKind::Resource(_)
        | ExprKind::ResourceDefaults(_)
        | ExprKind::ResourceOverride(_)
        | ExprKind::Collector(_) => "catalog expressions",
        ExprKind::Class(_) | ExprKind::Define(_) | ExprKind::Node(_) | ExprKind::Function(_) => {
            "definitions"
        }
        _ => "this expression",
    }
}

/// The position an index names, from the end when negative; `None` when outside.
fn position(index: i64, len: usize) -> Option<usize> {
    let i = if index < 0 { len as i64 + index } else { index };
    (0..len as i64).contains(&i).then_some(i as usize)
}

/// The keys of `array[...]` or `string[...]`, nested arrays of keys flattened, as
/// Puppet's access operator takes them.
fn flattened(values: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        match v {
            Value::Array(items) => out.extend(flattened(items)),
            other => out.push(other.clone()),
        }
    }
    out
}

/// The indexes of `array[...]` as Puppet's access operator takes them: each made a
/// number first (a numeric string is one; anything else is NOT_NUMERIC), then each
/// required to be an Integer.
fn array_indexes(keys: &[Value]) -> R<Vec<i64>> {
    let numbers = keys
        .iter()
        .map(operators::coerce_numeric)
        .collect::<R<Vec<Value>>>()?;
    numbers
        .iter()
        .map(|n| match n {
            Value::Integer(i) => Ok(*i),
            other => Err(EvalError::Failed(format!(
                "An Array[] cannot use {} where Integer is expected",
                key_type_name(other)
            ))),
        })
        .collect()
}

/// The character indexes of `string[...]`: each made a number if it is a numeric
/// string, then each required to be an Integer.
fn string_indexes(keys: &[Value]) -> R<Vec<i64>> {
    let numbers: Vec<Value> = keys
        .iter()
        .map(|k| match k {
            Value::String(_) => calls::to_numeric(k).unwrap_or_else(|_| k.clone()),
            other => other.clone(),
        })
        .collect();
    numbers
        .iter()
        .map(|n| match n {
            Value::Integer(i) => Ok(*i),
            other => Err(EvalError::Failed(format!(
                "A substring operation does not accept {} as a character index. Expected an Integer",
                labels::a_an(&key_type_name(other))
            ))),
        })
        .collect()
}

/// How Puppet's access operator names a bad key: `Undef`, `Default`, or the key's
/// generalised type (`Float`, `Array[Integer]`).
fn key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        other => crate::types::infer_generalized(other).to_string(),
    }
}

/// `x[start, count]` (Puppet's access operator): a negative start counts from the end,
/// a negative count stops that far from the end, a start before the first element
/// shortens the count; then Ruby's `x[start, count]`. `None` where Ruby gives `nil`.
fn slice(start: i64, count: i64, len: usize) -> Option<(usize, usize)> {
    // In 128 bits: a count near the 64-bit limit must not overflow the end.
    let len = len as i128;
    let (mut start, mut count) = (i128::from(start), i128::from(count));
    if start < 0 {
        start += len;
    }
    if count < 0 {
        count = len - start + count + 1;
    }
    if start < 0 {
        count += start;
        start = 0;
    }
    if start > len || count < 0 {
        return None;
    }
    Some((start as usize, (start + count).min(len) as usize))
}

fn index_string(s: &str, values: &[Value]) -> R<Value> {
    let values = &flattened(values);
    if !matches!(values.len(), 1 | 2) {
        return Err(EvalError::Failed(format!(
            "String supports [] with one or two arguments. Got {}",
            values.len()
        )));
    }
    let chars: Vec<char> = s.chars().collect();
    let text = match string_indexes(values)?[..] {
        [one] => position(one, chars.len())
            .map(|p| chars[p].to_string())
            .unwrap_or_default(),
        [start, count] => slice(start, count, chars.len())
            .map(|(from, to)| chars[from..to].iter().collect())
            .unwrap_or_default(),
        _ => unreachable!("one or two indexes"),
    };
    Ok(Value::string(&text))
}

/// `binary[i]`, `binary[start, count]`: bytes as a string's characters are taken, and
/// always a Binary (an index past the end gives an empty one).
fn index_binary(bytes: &[u8], values: &[Value]) -> R<Value> {
    let values = &flattened(values);
    if !matches!(values.len(), 1 | 2) {
        return Err(EvalError::Failed(format!(
            "Binary supports [] with one or two arguments. Got {}",
            values.len()
        )));
    }
    let taken = match string_indexes(values)?[..] {
        [one] => position(one, bytes.len())
            .map(|p| vec![bytes[p]])
            .unwrap_or_default(),
        [start, count] => slice(start, count, bytes.len())
            .map(|(from, to)| bytes[from..to].to_vec())
            .unwrap_or_default(),
        _ => unreachable!("one or two indexes"),
    };
    Ok(Value::Binary(taken.into()))
}

/// What `*value` unfolds to in an array, an access or a call (spec 004 "Unfold"): an
/// array's elements, a hash's `[key, value]` pairs, nothing for `undef`, else the
/// value itself.
fn unfold(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.to_vec(),
        Value::Hash(map) => map
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect(),
        Value::Undef => Vec::new(),
        other => vec![other],
    }
}

fn index_array(items: &[Value], values: &[Value]) -> R<Value> {
    let values = &flattened(values);
    if !matches!(values.len(), 1 | 2) {
        return Err(EvalError::Failed(format!(
            "Array supports [] with one or two arguments. Got {}",
            values.len()
        )));
    }
    Ok(match array_indexes(values)?[..] {
        [one] => position(one, items.len())
            .map(|p| items[p].clone())
            .unwrap_or(Value::Undef),
        [start, count] => Value::array(
            slice(start, count, items.len())
                .map(|(from, to)| items[from..to].to_vec())
                .unwrap_or_default(),
        ),
        _ => unreachable!("one or two indexes"),
    })
}
