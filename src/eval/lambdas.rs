//! Entering lambdas in the walk: the body of a lambda given to a call runs where the
//! call is, in a scope of its own that sees the variables around it, with its
//! parameters bound to what the call gives them. The walk enters it once, with each
//! parameter holding what every call of the lambda may give it: the common value or
//! the join of the elements an iteration function walks over (`each`, `map`, ...),
//! the arguments of `with`; for any other function, nothing is known of them (their
//! declared type, if any). A lambda over a collection known to be empty never runs and
//! is not entered.

use super::flow::{join, AtResource, Reached};
use super::{AbstractValue, EvalError, Evaluator};
use crate::ast::{Expr, ExprKind, Lambda, Parameter};
use crate::types::{t, Kind, Type, Value};

/// More elements than this are joined by their types, not their values.
const JOINED_BY_VALUE: usize = 256;

/// At most this many elements are walked one by one (`walk_each_element`).
const ELEMENT_WALKS: usize = 256;

/// Whether `statements` hold a resource expression (outside nested lambdas' own
/// element walks, which are not taken within one).
fn declares_resources(statements: &[Expr]) -> bool {
    crate::ast::any_within(statements, |e| matches!(e.kind, ExprKind::Resource(_)))
}

/// Whether the statements may leave a lambda's body early (`next`, `break`, `return`,
/// `fail`): then what follows them may not run on every call.
fn may_leave(statements: &[Expr]) -> bool {
    crate::ast::any_within(statements, |e| {
        matches!(
            crate::ast::called_name(e),
            Some("next" | "break" | "return" | "fail")
        )
    })
}

/// The functions that call their lambda with the elements of their first argument:
/// one parameter takes an element (a `[key, value]` pair for a hash), two take an
/// index and the element (a key and a value for a hash).
const ITERATING: &[&str] = &[
    "each",
    "map",
    "filter",
    "any",
    "all",
    "reverse_each",
    "step",
    "partition",
    "index",
];

/// What each parameter of a lambda is given, for every call of it.
enum Arguments {
    /// The lambda is never called (an iteration over an empty collection).
    Never,
    /// A value for each parameter, in order; parameters beyond them take their default.
    Given(Vec<AbstractValue>),
}

impl<'a> Evaluator<'a> {
    /// Walks the lambda of `call` (a call or method call the walk reached), if it has
    /// one, in a scope of its own (see the module's documentation).
    pub(super) fn walk_lambda<'p>(&mut self, call: &'p Expr, at: &mut AtResource<'_, 'a, 'p>) {
        let (name, args, lambda): (Option<&str>, Vec<&Expr>, &'p Lambda) = match &call.kind {
            ExprKind::Call(c) => match &c.lambda {
                Some(lambda) => (
                    match &c.function.kind {
                        ExprKind::Name(n) => Some(n.as_str()),
                        _ => None,
                    },
                    c.args.iter().collect(),
                    lambda,
                ),
                None => return,
            },
            ExprKind::MethodCall(m) => match &m.lambda {
                Some(lambda) => (
                    Some(m.method.name.as_str()),
                    std::iter::once(&m.receiver)
                        .chain(m.args.iter().flatten())
                        .collect(),
                    lambda,
                ),
                None => return,
            },
            _ => return,
        };
        let given = match self.lambda_arguments(name.unwrap_or(""), &args, &lambda.params) {
            Arguments::Never => return at(self, Reached::Skipped(&lambda.body.statements)),
            Arguments::Given(values) => values,
        };
        if name == Some("with") {
            self.check_with_arguments(&args, given.len(), lambda);
        }
        let mut scope = super::Scope::default();
        for (i, param) in lambda.params.iter().enumerate() {
            let value = match given.get(i) {
                Some(value) if !param.captures_rest => value.clone(),
                _ => self.parameter_default(param),
            };
            scope.insert(param.name.name.clone(), self.typed_by(param, value));
        }
        self.scopes.push(scope);
        let saved = std::mem::take(&mut self.match_groups);
        let defaults = self.resource_defaults.len();
        // Whether (and how often) Puppet calls the lambda is not always known.
        self.uncertain += 1;
        self.walk(&lambda.body.statements, at);
        self.uncertain -= 1;
        self.resource_defaults.truncate(defaults);
        self.match_groups = saved;
        self.scopes.pop();
        self.walk_each_element(call, name.unwrap_or(""), &args, lambda, at);
        self.check_defaults_per_call(name.unwrap_or(""), &args, lambda);
    }

    /// A resource default in the body of a lambda Puppet certainly calls more than
    /// once (`each`, `map`, `filter` over a known collection of two elements or more)
    /// is set again by the second call, in the scope the lambda shares with its class:
    /// Puppet fails there ("Default already defined for File { mode }; cannot
    /// redefine"). Only a default of the body itself, with nothing before it that may
    /// leave the body.
    fn check_defaults_per_call(&mut self, name: &str, args: &[&Expr], lambda: &Lambda) {
        if self.uncertain > 0 || !matches!(name, "each" | "map" | "filter") {
            return;
        }
        let statements = &lambda.body.statements;
        let Some((index, statement, attribute, type_name)) = statements
            .iter()
            .enumerate()
            .find_map(|(i, s)| match &s.kind {
                ExprKind::ResourceDefaults(d) => Some((
                    i,
                    s,
                    d.set_attributes().next()?,
                    super::flow::default_type_name(d)?,
                )),
                _ => None,
            })
        else {
            return;
        };
        if may_leave(&statements[..index]) {
            return;
        }
        let Some(Ok(AbstractValue::Known(subject))) = args.first().map(|a| self.eval(a)) else {
            return;
        };
        if !super::calls::elements(&subject).is_ok_and(|elements| elements.len() >= 2) {
            return;
        }
        let failure = super::Failure {
            message: super::flow::already_defined(&type_name, attribute),
            span: statement.span,
            kind: super::FailureKind::Other,
        };
        if !self.failures.contains(&failure) {
            self.failures.push(failure);
        }
    }

    /// Walks the lambda of an iteration over a known collection once more for each
    /// element, its parameters holding that element's values, so that a declaration in
    /// the body is seen with each (`Reached::ForElement`; nothing else is reported from
    /// these walks, and their errors are dropped). Only where Puppet calls the lambda
    /// for every element in order (`each`, `map`, `filter`), for a collection of at
    /// most `ELEMENT_WALKS` elements, and not within another element walk. An element
    /// a typed parameter of the lambda refuses fails the call there, as Puppet checks
    /// the lambda's arguments before its body runs (the one finding of these walks).
    fn walk_each_element<'p>(
        &mut self,
        call: &Expr,
        name: &str,
        args: &[&Expr],
        lambda: &'p Lambda,
        at: &mut AtResource<'_, 'a, 'p>,
    ) {
        if self.element_walk
            || !matches!(name, "each" | "map" | "filter")
            || !declares_resources(&lambda.body.statements)
        {
            return;
        }
        let Some(Ok(AbstractValue::Known(subject))) = args.first().map(|a| self.eval(a)) else {
            return;
        };
        let Ok(elements) = super::calls::elements(&subject) else {
            return;
        };
        if elements.is_empty() || elements.len() > ELEMENT_WALKS {
            return;
        }
        self.budget.note_iteration(elements.len());
        let is_hash = matches!(subject, Value::Hash(_));
        let failures = self.failures.len();
        let conditional = self.conditional.len();
        let mut refused = None;
        for (index, element) in elements.iter().enumerate() {
            if self.budget.spent() {
                break;
            }
            let given: Vec<Value> = match (lambda.params.len(), is_hash, element) {
                (2, true, Value::Array(kv)) => kv.to_vec(),
                (2, false, _) => vec![Value::Integer(index as i64), element.clone()],
                (1, _, _) => vec![element.clone()],
                _ => return,
            };
            if let Some(why) =
                lambda.params.iter().zip(&given).find_map(|(param, value)| {
                    match self.check_block_argument(param, value) {
                        Err(EvalError::FailedAs(why, _)) => Some(why),
                        _ => None,
                    }
                })
            {
                refused = Some(why);
                break;
            }
            let mut scope = super::Scope::default();
            for (param, value) in lambda.params.iter().zip(given) {
                let value = self.typed_by(param, AbstractValue::Known(value));
                scope.insert(param.name.name.clone(), value);
            }
            self.scopes.push(scope);
            let saved = std::mem::take(&mut self.match_groups);
            let defaults = self.resource_defaults.len();
            self.element_walk = true;
            self.uncertain += 1;
            self.walk(&lambda.body.statements, &mut |evaluator, reached| {
                if let Reached::ForElement(_) = reached {
                    at(evaluator, reached)
                }
            });
            self.uncertain -= 1;
            self.element_walk = false;
            self.resource_defaults.truncate(defaults);
            self.match_groups = saved;
            self.scopes.pop();
        }
        self.failures.truncate(failures);
        self.conditional.truncate(conditional);
        if let Some(why) = refused {
            use super::calls::CallSite;
            let site = match call.kind {
                ExprKind::MethodCall(_) => CallSite::Method,
                _ => CallSite::Function,
            }
            .name();
            let failure = super::Failure {
                message: format!("Error while evaluating a {site}, {why}"),
                span: call.span,
                kind: super::FailureKind::FunctionArguments,
            };
            // The joined evaluation finds it too where it could run the body.
            if !self.failures.contains(&failure) {
                if self.uncertain > 0 {
                    self.conditional.push(failure.span);
                }
                self.failures.push(failure);
            }
        }
    }

    /// What a call named `name` gives its lambda's parameters.
    fn lambda_arguments(&mut self, name: &str, args: &[&Expr], params: &[Parameter]) -> Arguments {
        let unknown = || AbstractValue::Inferred(t::any());
        let value_of = |this: &mut Self, e: &Expr| this.eval(e).unwrap_or_else(|_| unknown());
        if name == "with" {
            return Arguments::Given(args.iter().map(|a| value_of(self, a)).collect());
        }
        let iterating = ITERATING.contains(&name);
        if !iterating && name != "reduce" {
            return Arguments::Given(Vec::new());
        }
        let Some(subject) = args.first() else {
            return Arguments::Given(Vec::new());
        };
        let subject = value_of(self, subject);
        let Some(elements) = Elements::of(&subject) else {
            return Arguments::Given(Vec::new());
        };
        if elements.empty {
            return Arguments::Never;
        }
        if name == "reduce" {
            // The memo is the start value or any result of the lambda: not known.
            return Arguments::Given(vec![unknown(), elements.element]);
        }
        if params.len() >= 2 {
            let (first, second) = match elements.entry {
                Some((key, value)) => (key, value),
                None => (elements.index, elements.element),
            };
            Arguments::Given(vec![first, second])
        } else {
            Arguments::Given(vec![elements.element])
        }
    }

    /// `with` calls its lambda once with its arguments: a parameter without a default
    /// that no argument reaches fails the call (a splat's count is not known).
    fn check_with_arguments(&mut self, args: &[&Expr], given: usize, lambda: &Lambda) {
        let splat = |e: &&Expr| {
            matches!(
                e.kind,
                ExprKind::Unary {
                    op: crate::ast::UnaryOp::Splat,
                    ..
                }
            )
        };
        if args.iter().any(splat) {
            return;
        }
        let missing = lambda
            .params
            .iter()
            .skip(given)
            .find(|p| p.default.is_none() && !p.captures_rest);
        if let Some(param) = missing {
            let failure = super::Failure {
                message: format!(
                    "Parameter ${} is required but no value was given",
                    param.name.name
                ),
                span: param.span,
                kind: super::FailureKind::FunctionArguments,
            };
            if self.uncertain > 0 {
                self.conditional.push(failure.span);
            }
            self.failures.push(failure);
        }
    }

    /// A parameter no argument reaches: its default, if it has one it can evaluate.
    fn parameter_default(&mut self, param: &Parameter) -> AbstractValue {
        match &param.default {
            Some(default) if !param.captures_rest => self
                .eval(default)
                .unwrap_or_else(|_| AbstractValue::Inferred(t::any())),
            _ => AbstractValue::Inferred(t::any()),
        }
    }

    /// A value of which nothing is known is known by the parameter's declared type
    /// (a value the type rejects fails the call; that is not judged here).
    fn typed_by(&mut self, param: &Parameter, value: AbstractValue) -> AbstractValue {
        let declared = param
            .type_expr
            .as_ref()
            .and_then(|ty| self.resolve_type(ty).ok());
        match (value, declared) {
            (AbstractValue::Inferred(actual), Some(declared))
                if matches!(actual.kind(), Kind::Any) =>
            {
                AbstractValue::Inferred(declared)
            }
            (value, _) => value,
        }
    }
}

/// What an iteration walks over: each element, and for a hash each key and value.
struct Elements {
    empty: bool,
    /// An element (a `[key, value]` pair for a hash).
    element: AbstractValue,
    /// The index of an element.
    index: AbstractValue,
    /// The key and the value of a hash entry.
    entry: Option<(AbstractValue, AbstractValue)>,
}

impl Elements {
    /// `None` when what is iterated is not known well enough (or cannot be iterated).
    fn of(subject: &AbstractValue) -> Option<Elements> {
        match subject {
            AbstractValue::Known(value) => Elements::of_value(value),
            AbstractValue::Inferred(ty) => Elements::of_type(ty),
        }
    }

    fn of_value(value: &Value) -> Option<Elements> {
        // A long collection is joined by its type without listing it (an integer's
        // range may be longer than the budget lets the evaluator list).
        let long = match value {
            Value::Integer(n) => *n > JOINED_BY_VALUE as i64,
            Value::Array(items) => items.len() > JOINED_BY_VALUE,
            Value::Hash(map) => map.len() > JOINED_BY_VALUE,
            Value::String(s) => s.chars().count() > JOINED_BY_VALUE,
            _ => false,
        };
        if long {
            return Elements::of_type(&crate::types::infer_detailed(value));
        }
        let values = super::calls::elements(value).ok()?;
        if values.len() > JOINED_BY_VALUE {
            return Elements::of_type(&crate::types::infer_detailed(value));
        }
        let known = |vs: Vec<Value>| -> AbstractValue {
            join(&vs.into_iter().map(AbstractValue::Known).collect::<Vec<_>>())
        };
        let entry = match value {
            Value::Hash(map) => Some((
                known(map.keys().cloned().collect()),
                known(map.values().cloned().collect()),
            )),
            _ => None,
        };
        Some(Elements {
            empty: values.is_empty(),
            index: index_below(values.len() as i64),
            element: if values.is_empty() {
                AbstractValue::Inferred(t::any())
            } else {
                known(values)
            },
            entry,
        })
    }

    fn of_type(ty: &Type) -> Option<Elements> {
        let inferred = AbstractValue::Inferred;
        let any_index = inferred(t::integer_range(Some(0), None));
        match ty.kind() {
            Kind::Array { elem, size } => Some(Elements {
                empty: size.is_some_and(|s| s.hi() <= 0),
                element: inferred(elem.clone()),
                index: any_index,
                entry: None,
            }),
            Kind::Tuple { types, .. } if !types.is_empty() => Some(Elements {
                empty: false,
                element: join(
                    &types
                        .iter()
                        .map(|t| inferred(t.clone()))
                        .collect::<Vec<_>>(),
                ),
                index: any_index,
                entry: None,
            }),
            Kind::Hash { key, value, size } => Some(Elements {
                empty: size.is_some_and(|s| s.hi() <= 0),
                element: inferred(t::tuple(vec![key.clone(), value.clone()], None)),
                index: any_index,
                entry: Some((inferred(key.clone()), inferred(value.clone()))),
            }),
            Kind::Integer(range) if range.lo() >= 1 && range.hi() < i64::MAX as i128 => {
                let below = index_below(range.hi() as i64);
                Some(Elements {
                    empty: false,
                    element: below.clone(),
                    index: below,
                    entry: None,
                })
            }
            Kind::Alias(alias) => Elements::of_type(&alias.resolved()),
            _ => None,
        }
    }
}

/// An index of a sequence of `len` elements.
fn index_below(len: i64) -> AbstractValue {
    match len {
        1 => AbstractValue::Known(Value::Integer(0)),
        _ => AbstractValue::Inferred(t::integer_range(Some(0), Some((len - 1).max(0)))),
    }
}
