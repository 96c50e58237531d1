//! Calls the evaluator knows: the type conversions (`Integer('0x1F')`, spec 001 "new
//! function" of each type) and the pure built-in functions whose result follows from
//! their arguments. Any other call is [`EvalError::Unsupported`].

use super::{AbstractValue, EvalError, Evaluator, R};
use crate::ast::{Call, Expr, ExprKind, Lambda, MethodCall};
use crate::builtin::functions::Function;
use crate::types::labels::ruby_inspect;
use crate::types::mismatch::{describe_value, PathElem};
use crate::types::value::{IteratorValue, Value};
use crate::types::{infer_detailed, infer_generalized, t, Type};

fn failed(message: impl Into<String>) -> EvalError {
    EvalError::Failed(message.into())
}

/// Where a function is called from, which Puppet names when the function fails.
#[derive(Clone, Copy)]
pub(super) enum CallSite {
    /// `f(x)`
    Function,
    /// `x.f()`
    Method,
}

/// Puppet's RUNTIME_ERROR around an error the function itself raised ("Error while
/// evaluating a Function Call, ...", "... a Method call, ..."). An error of an
/// argument or of the lambda's body is not the call's and keeps its own words.
fn raised_by(site: CallSite, e: EvalError) -> EvalError {
    let site = site.name();
    match e {
        EvalError::Failed(m) => failed(format!("Error while evaluating a {site}, {m}")),
        EvalError::FailedAs(m, kind) => {
            EvalError::FailedAs(format!("Error while evaluating a {site}, {m}"), kind)
        }
        other => other,
    }
}

impl CallSite {
    /// How Puppet names it in an error ("Error while evaluating a Function Call, ...").
    pub(super) fn name(self) -> &'static str {
        match self {
            CallSite::Function => "Function Call",
            CallSite::Method => "Method call",
        }
    }
}

impl Evaluator<'_> {
    /// Evaluates arguments that must all be known, unfolding `*$array`.
    fn arguments(&mut self, exprs: &[Expr]) -> R<Vec<Value>> {
        known_arguments(self.abstract_arguments(exprs)?)
    }

    pub(super) fn call(&mut self, e: &Expr, call: &Call) -> R<AbstractValue> {
        if let (ExprKind::Name(name), None, [expected, value]) =
            (&call.function.kind, &call.lambda, call.args.as_slice())
        {
            if name == "assert_type" {
                return self.assert_type(expected, value);
            }
        }
        if let Some(set) = self.defined_variable(call) {
            return Ok(AbstractValue::Known(Value::Bool(set)));
        }
        if let Some(value) = self.body_result(e, call) {
            return value.map(AbstractValue::Known);
        }
        if let Some(result) = self.declared_result(call) {
            return result;
        }
        if let ExprKind::Name(name) = &call.function.kind {
            if self.written_in_puppet(name) {
                // Its body was not evaluated for these arguments: known to be anything.
                self.abstract_arguments(&call.args)?;
                return Ok(AbstractValue::Inferred(crate::types::t::any()));
            }
            if let Some(function) = self.ruby_function(name) {
                let args = self.abstract_arguments(&call.args)?;
                let site = CallSite::Function;
                let lambda = call.lambda.as_ref();
                return self.call_builtin(e, site, name, &function, args, lambda);
            }
        }
        let args = self.abstract_arguments(&call.args)?;
        if let (ExprKind::TypeRef(name), None) = (&call.function.kind, &call.lambda) {
            if let Some(result) = convert_each_alternative(name, &args) {
                return result;
            }
        }
        let args = known_arguments(args)?;
        if let Some(lambda) = &call.lambda {
            let ExprKind::Name(name) = &call.function.kind else {
                return Err(EvalError::Unsupported(
                    "a computed call with a lambda".into(),
                ));
            };
            let site = CallSite::Function;
            return Ok(AbstractValue::Known(
                self.iterate(site, name, &args, lambda)?,
            ));
        }
        let raised = |e| raised_by(CallSite::Function, e);
        let v = match &call.function.kind {
            ExprKind::TypeRef(name) => convert(name, &args).map_err(raised)?,
            ExprKind::Name(name) if matches!(name.as_str(), "include" | "contain" | "require") => {
                self.include(name, &args)?
            }
            ExprKind::Name(name) => function(name, &args).map_err(raised)?,
            _ => {
                return Err(EvalError::Unsupported(
                    "a call of a computed function".into(),
                ))
            }
        };
        Ok(AbstractValue::Known(v))
    }
}

impl Evaluator<'_> {
    /// `defined('$x')` of a variable this scope has set on every path to here (a
    /// parameter, even undef, or an assignment): true, as Puppet answers. Anything
    /// else (a variable set elsewhere, a class, a type) is left to the call.
    fn defined_variable(&self, call: &Call) -> Option<bool> {
        let (ExprKind::Name(name), None, [arg]) =
            (&call.function.kind, &call.lambda, call.args.as_slice())
        else {
            return None;
        };
        let ExprKind::String(text) = &arg.kind else {
            return None;
        };
        let variable = text.value.strip_prefix('$')?;
        if name != "defined" || variable.contains("::") {
            return None;
        }
        self.scopes
            .iter()
            .rev()
            .any(|scope| scope.contains_key(variable) && !scope.maybe_unset().contains(variable))
            .then_some(true)
    }

    /// Whether a call of `name` calls a function the code defines in the Puppet
    /// language (never one of Puppet's own of the name, nor a module's in Ruby).
    fn written_in_puppet(&self, name: &str) -> bool {
        self.functions
            .is_some_and(|f| f.defines_puppet_function(name))
    }

    /// The function written in Ruby a call of `name` calls, if its signatures are
    /// known: one of Puppet's own (they come first), a module's namespaced 4.x one, or a
    /// module's 3.x one with the arity it declares.
    fn ruby_function(&mut self, name: &str) -> Option<std::borrow::Cow<'static, Function>> {
        if let Some(builtin) = super::dispatch::builtin(name) {
            return Some(std::borrow::Cow::Borrowed(builtin));
        }
        if !name.contains("::") {
            // A module's 3.x function counts its arguments.
            let arity = self.functions?.legacy_arity(name)?;
            return Some(std::borrow::Cow::Owned(Function::Legacy {
                arity,
                returns: None,
            }));
        }
        let read = self.functions?.ruby_function(name)?;
        self.ruby_dispatches(&read).map(std::borrow::Cow::Owned)
    }

    /// A call of a module's Puppet-language function with known arguments: the value
    /// its body gives for them, when the evaluation knows it. A checked return type
    /// that refuses it fails the call, as Puppet does ("value returned from f has wrong
    /// type"), where the function takes arguments (a function without any fails the
    /// same way at every call, which its own finding says once).
    fn body_result(&mut self, e: &Expr, call: &Call) -> Option<R<Value>> {
        let ExprKind::Name(name) = &call.function.kind else {
            return None;
        };
        if call.lambda.is_some() || !name.contains("::") {
            return None;
        }
        let functions = self.functions?;
        let args = self.arguments(&call.args).ok()?;
        let value = functions.call_result(name, &args, self.calls)?;
        if let Some(declared) = functions.checked_return(name) {
            let Ok(AbstractValue::Known(Value::Type(ty))) = self.eval(&declared) else {
                return None;
            };
            if !crate::types::instance_of(&value, &ty) {
                let why = certain_mismatch(&ty, &AbstractValue::Known(value))?;
                if args.is_empty() || functions.refuses_every_return(name, self.calls) {
                    return None;
                }
                let name = name.trim_start_matches("::");
                return Some(Err(EvalError::FailedAt(super::Failure {
                    message: format!(
                        "Error while evaluating a Function Call, {}",
                        crate::types::mismatch::each_named(
                            &format!("value returned from {name} has wrong type,"),
                            &why
                        )
                    ),
                    span: e.span,
                    kind: super::FailureKind::ReturnType,
                })));
            }
        }
        Some(Ok(value))
    }

    /// A call of a module's Puppet-language function whose return type Puppet checks:
    /// its value is known by that type, once its arguments are evaluated (an error
    /// there is the call's).
    fn declared_result(&mut self, call: &Call) -> Option<R<AbstractValue>> {
        let ExprKind::Name(name) = &call.function.kind else {
            return None;
        };
        if call.lambda.is_some() || !name.contains("::") {
            return None;
        }
        let declared = self.functions?.checked_return(name)?;
        for arg in &call.args {
            if let Err(e @ EvalError::FailedAt(_)) = self.eval(arg) {
                return Some(Err(e));
            }
        }
        Some(match self.eval(&declared) {
            Ok(AbstractValue::Known(Value::Type(ty))) => Ok(AbstractValue::Inferred(ty)),
            _ => Err(EvalError::Unsupported(format!(
                "the return type of {name}, which cannot be resolved"
            ))),
        })
    }

    /// `assert_type(T, value)` without a block: the value when it is a `T`, else
    /// Puppet's mismatch. A value known only by its type fails when no value of that
    /// type is a `T` and Puppet names every such value alike; otherwise it passes as a
    /// `T`, which is all the code after the call can count on.
    fn assert_type(&mut self, expected: &Expr, value: &Expr) -> R<AbstractValue> {
        let expected = match self.known(expected)? {
            Value::Type(expected) => expected,
            // A type written in a string (`assert_type('Integer', $x)`) is parsed as one.
            Value::String(name) => {
                let parsed = crate::types::from_ast::parse_type_expr(&name).map_err(|_| {
                    EvalError::Unsupported(
                        "assert_type with a type name that does not parse".into(),
                    )
                })?;
                self.resolver.resolve(&parsed).map_err(super::type_error)?
            }
            _ => {
                return Err(EvalError::Unsupported(
                    "assert_type with this kind of type".into(),
                ))
            }
        };
        let value = self.eval(value)?;
        match certain_mismatch(&expected, &value) {
            Some(why) => Err(raised_by(
                CallSite::Function,
                failed(crate::types::mismatch::each_named("assert_type():", &why)),
            )),
            None => Ok(match value {
                AbstractValue::Known(v) => AbstractValue::Known(v),
                AbstractValue::Inferred(_) => AbstractValue::Inferred(expected),
            }),
        }
    }

    /// A call of a built-in function, judged by Puppet's dispatcher first; then run
    /// where the evaluator models the function and every argument is known, and
    /// otherwise known by the return type of the signature that takes it.
    fn call_builtin(
        &mut self,
        at: &Expr,
        site: CallSite,
        name: &str,
        callee: &Function,
        args: Vec<AbstractValue>,
        lambda: Option<&Lambda>,
    ) -> R<AbstractValue> {
        let returns = self.dispatch(at, site.name(), name, callee, &args, lambda)?;
        let known_arguments = args.clone();
        let known: Option<Vec<Value>> = args
            .into_iter()
            .map(|a| match a {
                AbstractValue::Known(v) => Some(v),
                AbstractValue::Inferred(_) => None,
            })
            .collect();
        let ran = match (known, lambda) {
            (None, _) => Err(EvalError::Unsupported(format!(
                "the function {name} with an argument known only by its type"
            ))),
            (Some(args), Some(lambda)) => self.iterate(site, name, &args, lambda),
            (Some(args), None) if matches!(name, "include" | "contain" | "require") => {
                self.include(name, &args)
            }
            (Some(args), None) => function(name, &args).map_err(|e| raised_by(site, e)),
        };
        match ran {
            Ok(v) => Ok(AbstractValue::Known(v)),
            Err(EvalError::Unsupported(why)) => {
                if let Some(found) = self.looked_up(site, name, &known_arguments, lambda) {
                    return Ok(found);
                }
                match returns {
                    Some(returns) => Ok(AbstractValue::Inferred(returns)),
                    None => Err(EvalError::Unsupported(why)),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// What `lookup('key')` (`lookup('key', Type)`, `hiera('key')`) gives, when every
    /// value the data can give for the key is known and the call has no default: the
    /// value, when there is one, else one of their types. `None` when the call is not
    /// such a lookup or pupcheck is not sure (a value `Type` rejects fails the lookup:
    /// `hiera-lookup-type` says so).
    fn looked_up(
        &self,
        site: CallSite,
        name: &str,
        args: &[AbstractValue],
        lambda: Option<&Lambda>,
    ) -> Option<AbstractValue> {
        let defaulted = match name {
            "lookup" => args.len() >= 4,
            "hiera" => args.len() >= 2,
            _ => return None,
        };
        if !matches!(site, CallSite::Function) || lambda.is_some() || defaulted {
            return None;
        }
        let Some(AbstractValue::Known(Value::String(key))) = args.first() else {
            return None;
        };
        // lookup(name, options) may hold a default; another merge than the first found
        // gives what no file holds.
        let first_found = match args.get(2) {
            None | Some(AbstractValue::Known(Value::Undef)) => true,
            Some(AbstractValue::Known(Value::String(merge))) => &**merge == "first",
            Some(_) => false,
        };
        let options = matches!(args.get(1), Some(AbstractValue::Known(Value::Hash(_))));
        if name == "lookup" && (options || !first_found) {
            return None;
        }
        let values = self.functions?.hiera_values(key)?;
        if let Some(AbstractValue::Known(Value::Type(expected))) = args.get(1) {
            if values
                .iter()
                .any(|v| !crate::types::instance_of(v, expected))
            {
                return None;
            }
        }
        match values.as_slice() {
            [] => None,
            [one] => Some(AbstractValue::Known(one.clone())),
            many => {
                let mut types = many.iter().map(crate::types::infer);
                let first = types.next()?;
                Some(AbstractValue::Inferred(
                    types.fold(first, |a, b| crate::types::common(&a, &b)),
                ))
            }
        }
    }

    /// `$x.f(args) |...| { }` is `f($x, args) |...| { }` (spec 004 "Method Call").
    pub(super) fn method_call(&mut self, e: &Expr, call: &MethodCall) -> R<AbstractValue> {
        let name = call.method.name.as_str();
        if self.written_in_puppet(name) {
            self.eval(&call.receiver)?;
            self.abstract_arguments(call.args.as_deref().unwrap_or(&[]))?;
            return Ok(AbstractValue::Inferred(crate::types::t::any()));
        }
        if let Some(function) = self.ruby_function(name) {
            let mut args = vec![self.eval(&call.receiver)?];
            args.extend(self.abstract_arguments(call.args.as_deref().unwrap_or(&[]))?);
            let site = CallSite::Method;
            let lambda = call.lambda.as_ref();
            return self.call_builtin(e, site, name, &function, args, lambda);
        }
        let mut args = vec![self.known(&call.receiver)?];
        args.extend(self.arguments(call.args.as_deref().unwrap_or(&[]))?);
        let name = call.method.name.as_str();
        let v = match &call.lambda {
            Some(lambda) => self.iterate(CallSite::Method, name, &args, lambda)?,
            None => function(name, &args).map_err(|e| raised_by(CallSite::Method, e))?,
        };
        Ok(AbstractValue::Known(v))
    }

    /// The iteration functions with a lambda: `each`, `map`, `filter`, `reduce`,
    /// `reverse_each`, `step`.
    fn iterate(&mut self, site: CallSite, name: &str, args: &[Value], lambda: &Lambda) -> R<Value> {
        // `with` calls its lambda once with its arguments, one a parameter (a count
        // that differs is Puppet's error, judged where the walk checks it).
        if name == "with" {
            let one_each =
                lambda.params.len() == args.len() && lambda.params.iter().all(|p| !p.captures_rest);
            if !one_each {
                return Err(EvalError::Unsupported(
                    "with and a lambda taking another count".into(),
                ));
            }
            return self
                .call_lambda(lambda, args)
                .map_err(|e| raised_by(site, e));
        }
        // Only the iteration functions below are modelled (`then`, a module's
        // function: their lambdas take other arguments).
        if !matches!(
            name,
            "each" | "map" | "filter" | "reduce" | "reverse_each" | "step"
        ) {
            return Err(EvalError::Unsupported(format!(
                "the function {name} with a lambda"
            )));
        }
        // The dispatcher took the call (`super::dispatch`): the subject is iterable,
        // `step`'s a positive integer, the lambda takes what the function gives.
        let raised = |e| raised_by(site, e);
        let Some(subject) = args.first() else {
            return Err(EvalError::Unsupported(format!("{name} without arguments")));
        };
        let mut elements = elements(subject).map_err(raised)?;
        self.budget.note_iteration(elements.len());
        if elements.len() > super::budget::MAX_ITERATIONS || self.budget.spent() {
            return Err(EvalError::Unsupported(format!(
                "{name} over {} elements, past the evaluation budget",
                elements.len()
            )));
        }
        match name {
            "reverse_each" => elements.reverse(),
            "step" => elements = stepped(elements, args.get(1))?,
            _ => {}
        }
        // Two parameters take a hash entry's key and value, or an element's index and
        // the element (spec 004 "each": `|$key, $value|`, `|$index, $value|`).
        let two = lambda.params.len() == 2;
        let is_hash = matches!(subject, Value::Hash(_));
        // A parameter that refuses its argument is the call's error (the body's own
        // errors are located in it already).
        let call_given = |this: &mut Self, given: &[Value]| -> R<Value> {
            if this.budget.spent() {
                return Err(EvalError::Unsupported(format!(
                    "{name} past the evaluation budget"
                )));
            }
            this.call_lambda(lambda, given).map_err(raised)
        };
        let call_with = |this: &mut Self, i: usize, e: &Value| -> R<Value> {
            match (two, is_hash, e) {
                (true, true, Value::Array(kv)) => call_given(this, kv),
                (true, false, _) => call_given(this, &[Value::Integer(i as i64), e.clone()]),
                _ => call_given(this, std::slice::from_ref(e)),
            }
        };
        match name {
            "each" => {
                for (i, e) in elements.iter().enumerate() {
                    call_with(self, i, e)?;
                }
                Ok(subject.clone())
            }
            // Puppet's `reverse_each` and `step` with a block return nothing useful.
            "reverse_each" | "step" => {
                for (i, e) in elements.iter().enumerate() {
                    call_with(self, i, e)?;
                }
                Ok(Value::Undef)
            }
            "map" => {
                let mut out = Vec::with_capacity(elements.len());
                for (i, e) in elements.iter().enumerate() {
                    out.push(call_with(self, i, e)?);
                }
                Ok(Value::array(out))
            }
            // A hash's `filter` gives a hash of the entries kept; anything else, an
            // array of the elements kept.
            "filter" => {
                let mut out = Vec::new();
                for (i, e) in elements.iter().enumerate() {
                    if super::truthy(&call_with(self, i, e)?) {
                        out.push(e.clone());
                    }
                }
                if !is_hash {
                    return Ok(Value::array(out));
                }
                let entries = out.into_iter().filter_map(|pair| match pair {
                    Value::Array(kv) if kv.len() == 2 => Some((kv[0].clone(), kv[1].clone())),
                    _ => None,
                });
                Ok(Value::hash(entries.collect()))
            }
            "reduce" => {
                let mut rest = elements.into_iter();
                let mut memo = match args.get(1) {
                    Some(start) => start.clone(),
                    None => rest.next().unwrap_or(Value::Undef),
                };
                for e in rest {
                    memo = call_given(self, &[memo, e])?;
                }
                Ok(memo)
            }
            _ => Err(EvalError::Unsupported(format!(
                "the function {name} with a lambda"
            ))),
        }
    }
}

/// Why `value` is not a `expected`, when that is certain and Puppet's words for it are
/// too: a known value that is not an instance, or a value known by a scalar type none
/// of whose values is one (Puppet names them all alike). `None` otherwise.
pub(super) fn certain_mismatch(expected: &Type, value: &AbstractValue) -> Option<Vec<String>> {
    use crate::types::mismatch::{certain_mismatch, Actual};
    let actual = match value {
        AbstractValue::Known(v) => Actual::Value(v),
        AbstractValue::Inferred(t) => Actual::AnyOf(t),
    };
    certain_mismatch(expected, &actual).filter(|why| !why.is_empty())
}

/// What an iteration function walks (see [`iterable_elements`]); the dispatcher has
/// refused a value that is not iterable before any function walks it.
pub(super) fn elements(v: &Value) -> R<Vec<Value>> {
    iterable_elements(v)?
        .ok_or_else(|| EvalError::Unsupported(format!("iterating {}", infer_generalized(v))))
}

/// What an iteration function walks: an array's elements, a hash's `[key, value]`
/// pairs, a string's characters, `0..n` for an integer `n`, the integers of a bounded
/// `Integer[a, b]`, an `Enum`'s values, an iterator's elements; `None` for a value that
/// is not iterable.
fn iterable_elements(v: &Value) -> R<Option<Vec<Value>>> {
    let range = |from: i64, to: i64| -> R<Vec<Value>> {
        if to.saturating_sub(from) >= super::budget::MAX_ITERATIONS as i64 {
            return Err(EvalError::Unsupported(format!(
                "iterating over more than {} values",
                super::budget::MAX_ITERATIONS
            )));
        }
        Ok((from..=to).map(Value::Integer).collect())
    };
    let elements = match v {
        Value::Array(items) => items.to_vec(),
        Value::Hash(map) => map
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect(),
        Value::String(s) => s
            .chars()
            .map(|c| Value::string(c.encode_utf8(&mut [0; 4])))
            .collect(),
        Value::Integer(n) => range(0, n - 1)?,
        Value::Iterator(it) => it.elements.clone(),
        Value::Type(t) => match t
            .dealiased()
            .ok_or_else(|| EvalError::Unsupported("iterating an unresolved alias".into()))?
            .kind()
        {
            crate::types::Kind::Integer(r)
                if !r.unbounded() && r.lo() > i64::MIN as i128 && r.hi() < i64::MAX as i128 =>
            {
                range(r.lo() as i64, r.hi() as i64)?
            }
            crate::types::Kind::Enum { values, .. } => {
                values.iter().map(|s| Value::string(s)).collect()
            }
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(elements))
}

/// The dispatcher's message when no signature of a function takes its arguments:
/// each signature with why it refused them.
fn signatures_refused(name: &str, signatures: &[(&str, String)]) -> String {
    let mut message = format!(
        "The function '{name}' was called with arguments it does not accept. It expects one of:"
    );
    for (signature, why) in signatures {
        message.push_str(&format!("\n  ({signature})\n    rejected: {why}"));
    }
    message
}

/// Every `n`th element from the first (`step`'s `n` must be a positive integer).
fn stepped(elements: Vec<Value>, n: Option<&Value>) -> R<Vec<Value>> {
    match n {
        Some(Value::Integer(n)) if *n >= 1 => {
            Ok(elements.into_iter().step_by(*n as usize).collect())
        }
        // The dispatcher refuses these (`Integer[1] step`).
        _ => Err(EvalError::Unsupported(
            "step without a positive step".into(),
        )),
    }
}

/// An iterator over `subject`'s elements in the given order (what `reverse_each` and
/// `step` return without a lambda).
fn iterator(subject: &Value, elements: Vec<Value>) -> R<Value> {
    let element_type = crate::types::infer::iteration_element_type(subject).ok_or_else(|| {
        EvalError::Unsupported(format!("iterating {}", infer_generalized(subject)))
    })?;
    Ok(Value::Iterator(std::sync::Arc::new(IteratorValue {
        elements,
        element_type,
    })))
}

/// Pure built-in functions.
fn function(name: &str, args: &[Value]) -> R<Value> {
    if let Some(value) = super::pure::call(name, args) {
        return value;
    }
    match (name, args) {
        // An Error's attributes (`$e.message`, `$e.kind`).
        ("message" | "msg", [Value::Object(o)]) => Ok(o.get("msg")),
        ("kind" | "details" | "issue_code", [Value::Object(o)]) => Ok(o.get(name)),
        // `T.new(x)`: the conversion `T(x)`, which the type's parameters must then accept.
        ("new", [Value::Type(ty), rest @ ..]) => {
            let shown = ty.to_string();
            let bare = shown.split('[').next().unwrap_or(&shown);
            let value = convert(bare, rest)?;
            if crate::types::instance_of(&value, ty) {
                Ok(value)
            } else {
                Err(EvalError::Unsupported(format!(
                    "{shown}.new of a value it rejects"
                )))
            }
        }
        ("type", [v]) => Ok(Value::Type(infer_detailed(v))),
        ("sprintf", [Value::String(format), rest @ ..]) => {
            Ok(Value::string(&super::format::sprintf(format, rest)?))
        }
        ("type", [v, Value::String(mode)]) => match &**mode {
            "detailed" => Ok(Value::Type(infer_detailed(v))),
            "generalized" => Ok(Value::Type(infer_generalized(v))),
            // An array's element types reduced to their common type, with its size.
            "reduced" => match v {
                Value::Array(items) if !items.is_empty() => {
                    let common = items
                        .iter()
                        .map(crate::types::infer)
                        .reduce(|a, b| crate::types::common(&a, &b))
                        .expect("a non-empty array");
                    let n = items.len() as i64;
                    Ok(Value::Type(crate::types::t::array_sized(
                        common,
                        Some(crate::types::IntRange::new(Some(n), Some(n))),
                    )))
                }
                _ => Err(EvalError::Unsupported(
                    "type(x, 'reduced') of this value".into(),
                )),
            },
            _ => Err(EvalError::Unsupported(format!("type(x, '{mode}')"))),
        },
        ("reverse_each", [subject]) => {
            let mut items = elements(subject)?;
            items.reverse();
            iterator(subject, items)
        }
        ("step", [subject, n]) => iterator(subject, stepped(elements(subject)?, Some(n))?),
        ("notice" | "info" | "warning" | "debug" | "err" | "alert" | "crit" | "emerg", _) => {
            Ok(Value::Undef)
        }
        _ => Err(EvalError::Unsupported(format!("the function {name}"))),
    }
}

/// Arguments that must all be known.
fn known_arguments(args: Vec<AbstractValue>) -> R<Vec<Value>> {
    args.into_iter()
        .map(|a| match a {
            AbstractValue::Known(v) => Ok(v),
            AbstractValue::Inferred(t) => Err(EvalError::Unsupported(format!(
                "a value known only by its type ({t})"
            ))),
        })
        .collect()
}

/// How many argument lists a call is tried with, at most, when its arguments are each
/// one of a few known strings.
const MOST_ALTERNATIVES: usize = 16;

/// Every list of known arguments a call can be given when each argument is known or
/// one of a few strings (an `Enum`, where paths that each gave a string met). `None`
/// when an argument is known otherwise only by its type, or there are too many lists.
fn alternatives(args: &[AbstractValue]) -> Option<Vec<Vec<Value>>> {
    let mut lists: Vec<Vec<Value>> = vec![Vec::with_capacity(args.len())];
    for arg in args {
        let choices = match arg {
            AbstractValue::Known(v) => vec![v.clone()],
            inferred => super::transfer::enum_members(inferred)?,
        };
        if lists.len() * choices.len() > MOST_ALTERNATIVES {
            return None;
        }
        lists = lists
            .into_iter()
            .flat_map(|list| {
                choices.iter().map(move |choice| {
                    let mut next = list.clone();
                    next.push(choice.clone());
                    next
                })
            })
            .collect();
    }
    Some(lists)
}

/// `T($v)` where an argument is one of a few strings: when the conversion of every one
/// fails, the call fails on every path (Puppet's message names the value of the path
/// taken; this one, the first); when every one converts, the value is one of theirs.
/// `None` when the arguments are all known, or some convert and some do not.
fn convert_each_alternative(type_name: &str, args: &[AbstractValue]) -> Option<R<AbstractValue>> {
    if args.iter().all(|a| matches!(a, AbstractValue::Known(_))) {
        return None;
    }
    let results: Vec<R<Value>> = alternatives(args)?
        .iter()
        .map(|list| convert(type_name, list))
        .collect();
    if results
        .iter()
        .all(|r| matches!(r, Err(EvalError::Failed(_))))
    {
        let first = results.into_iter().next()?;
        return Some(
            first
                .map(AbstractValue::Known)
                .map_err(|e| raised_by(CallSite::Function, e)),
        );
    }
    let values: Option<Vec<AbstractValue>> = results
        .into_iter()
        .map(|r| r.ok().map(AbstractValue::Known))
        .collect();
    Some(Ok(super::flow::join(&values?)))
}

/// What `type_name.new(args)` gives (a `convert_to` of Hiera's `lookup_options` calls it
/// on the value found): the value, or Puppet's message when the conversion fails;
/// `None` for a conversion pupcheck does not model.
pub fn new_value(type_name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    match convert(type_name, args) {
        Ok(value) => Some(Ok(value)),
        Err(EvalError::Failed(message)) => Some(Err(message)),
        Err(_) => None,
    }
}

/// `Type(value, ...)`: the conversions of spec 001 ("Creating values with new").
fn convert(type_name: &str, args: &[Value]) -> R<Value> {
    match (type_name, args) {
        ("Integer", [v]) => to_integer(v, None),
        ("Integer", [v, Value::Integer(radix)]) => to_integer(v, Some(*radix)),
        ("Numeric", [v]) => to_numeric(v),
        ("Float", [v]) => to_float(v),
        ("Boolean", [v]) => to_boolean(v),
        // A Float's default format is `%f` (String(1.5) is '1.500000').
        ("String", [v]) => Ok(Value::string(&super::format::default_string(v))),
        ("String", [v, format]) => Ok(Value::string(&super::format::format_value(v, format)?)),
        ("Timespan", [v]) => to_timespan(v),
        ("SemVer", [Value::String(s)]) => semver::Version::parse(s.trim())
            .map(|v| Value::SemVer(std::sync::Arc::new(v)))
            .map_err(|_| {
                failed(format!(
                    "'new_Version' The string '{s}' cannot be converted to a SemVer"
                ))
            }),
        ("SemVerRange", [Value::String(s)])
            if crate::types::semver_range::VersionRange::too_many_alternatives(s) =>
        {
            Err(EvalError::Unsupported(
                "a version range of too many alternatives".into(),
            ))
        }
        ("SemVerRange", [Value::String(s)]) => crate::types::semver_range::VersionRange::parse(s)
            .map(|r| Value::SemVerRange(std::sync::Arc::new(r)))
            .ok_or_else(|| failed(format!("Unparsable version range: \"{s}\""))),
        ("Timestamp", [v]) => to_timestamp(v),
        // A sensitive value given to Sensitive is not wrapped twice.
        ("Sensitive", [Value::Sensitive(inner)]) => Ok(Value::Sensitive(inner.clone())),
        ("Sensitive", [v]) => Ok(Value::Sensitive(std::sync::Arc::new(v.clone()))),
        ("Binary", [v]) => to_binary(v, "%B"),
        ("Binary", [v, Value::String(format)]) => to_binary(v, format),
        ("Array" | "Tuple", [v]) => to_array(v),
        ("Hash" | "Struct", [v]) => to_hash(v),
        ("Error", _) => new_error(args),
        ("Regexp", [Value::String(s)]) => Ok(Value::Regexp(crate::types::model::Regex::new(s))),
        ("Regexp", [r @ Value::Regexp(_)]) => Ok(r.clone()),
        // `Array(x, true)`: an array stays as it is, anything else is wrapped.
        ("Array" | "Tuple", [v, Value::Bool(true)]) => Ok(match v {
            Value::Array(_) => v.clone(),
            other => Value::array(vec![other.clone()]),
        }),
        ("Numeric" | "Float", [from, abs]) if !matches!(abs, Value::Bool(_)) => {
            Err(abs_refused(type_name, from, abs))
        }
        // Puppet takes `abs` (a Boolean); pupcheck does not (an error kept as it was).
        ("Numeric" | "Float", [_, _]) => Err(failed(format!(
            "Converted value from {type_name}.new() has wrong type"
        ))),
        _ => Err(EvalError::Unsupported(format!(
            "{type_name}.new with these arguments"
        ))),
    }
}

/// `Error(msg, kind, details, issue_code)`, or `Error({'msg' => ...})`: an Error value,
/// where the arguments are those `new_Error` takes (others are not modelled).
fn new_error(args: &[Value]) -> R<Value> {
    const NAMES: [&str; 4] = ["msg", "kind", "details", "issue_code"];
    let given: Vec<Value> = match args {
        [Value::Hash(h)] => NAMES
            .iter()
            .map(|n| h.get(&Value::string(n)).cloned().unwrap_or(Value::Undef))
            .collect(),
        _ => args.to_vec(),
    };
    let unsupported = || EvalError::Unsupported("Error.new with these arguments".into());
    if given.is_empty() || given.len() > NAMES.len() {
        return Err(unsupported());
    }
    let text = |v: &Value| matches!(v, Value::Undef) || v.as_str().is_some_and(|s| !s.is_empty());
    let fits = match given.as_slice() {
        [msg, rest @ ..] => {
            msg.as_str().is_some_and(|s| !s.is_empty())
                && rest.iter().enumerate().all(|(i, v)| match i {
                    1 => matches!(v, Value::Undef | Value::Hash(_)),
                    _ => text(v),
                })
        }
        [] => false,
    };
    if !fits {
        return Err(unsupported());
    }
    let mut attributes: Vec<(std::sync::Arc<str>, Value)> = NAMES
        .iter()
        .zip(given.iter().cloned().chain(std::iter::repeat(Value::Undef)))
        .map(|(n, v)| (std::sync::Arc::from(*n), v))
        .collect();
    attributes.truncate(NAMES.len());
    Ok(Value::Object(std::sync::Arc::new(
        crate::types::value::ObjectValue {
            type_name: std::sync::Arc::from("Error"),
            attributes,
        },
    )))
}

/// `Hash(x)`: a hash as it is; an array of `[key, value]` pairs, or a flat array of
/// keys and values, as a hash.
fn to_hash(v: &Value) -> R<Value> {
    let pairs = |items: &[Value]| -> Option<Vec<(Value, Value)>> {
        if items
            .iter()
            .all(|i| matches!(i, Value::Array(p) if p.len() == 2))
        {
            return Some(
                items
                    .iter()
                    .map(|i| match i {
                        Value::Array(p) => (p[0].clone(), p[1].clone()),
                        _ => unreachable!("pairs only"),
                    })
                    .collect(),
            );
        }
        items.len().is_multiple_of(2).then(|| {
            items
                .chunks(2)
                .map(|c| (c[0].clone(), c[1].clone()))
                .collect()
        })
    };
    match v {
        Value::Hash(_) => Ok(v.clone()),
        Value::Array(items) => pairs(items)
            .map(|p| Value::hash(p.into_iter().collect()))
            .ok_or_else(|| failed("odd number of arguments for Hash")),
        Value::Undef => Err(failed("Value of type Undef cannot be converted to Hash")),
        _ => Err(EvalError::Unsupported("Hash.new of this value".into())),
    }
}

/// `Binary(x)`, `Binary(x, format)`: the bytes of a base64 string (`%B`, strict, the
/// default), of a string as it is (`%s`), or of an array of byte values.
fn to_binary(v: &Value, format: &str) -> R<Value> {
    use base64::Engine;
    let binary = |bytes: Vec<u8>| Ok(Value::Binary(std::sync::Arc::new(bytes)));
    match (v, format) {
        (Value::String(s), "%B") => {
            match base64::engine::general_purpose::STANDARD.decode(s.as_bytes()) {
                Ok(bytes) => binary(bytes),
                // Ruby's ArgumentError; the call adds that it was evaluating one.
                Err(_) => Err(failed("invalid base64")),
            }
        }
        (Value::String(s), "%s") => binary(s.as_bytes().to_vec()),
        (Value::Array(items), _) => {
            let bytes: Option<Vec<u8>> = items
                .iter()
                .map(|i| match i {
                    Value::Integer(n) => u8::try_from(*n).ok(),
                    _ => None,
                })
                .collect();
            match bytes {
                Some(bytes) => binary(bytes),
                None => Err(EvalError::Unsupported("Binary.new of these values".into())),
            }
        }
        _ => Err(EvalError::Unsupported(format!(
            "Binary.new with the format '{format}'"
        ))),
    }
}

/// `Array(x)`: the elements of anything iterable (a hash's `[key, value]` pairs, a
/// string's characters, `0..n-1` for an integer).
/// `Tuple(x)` is `Array(x)`, whose errors name Array.
fn to_array(v: &Value) -> R<Value> {
    if matches!(v, Value::Type(ty) if ty.dealiased().is_none()) {
        return Err(EvalError::Unsupported(
            "Array.new of an unresolved alias".into(),
        ));
    }
    if crate::types::infer::iteration_element_type(v).is_none() {
        return Err(failed(format!(
            "'new_array' Value of type {} cannot be converted to Array",
            infer_generalized(v)
        )));
    }
    Ok(Value::array(elements(v)?))
}

/// Puppet's integer literal forms in strings: `0x1F`, `0b101`, `017` (octal), `17`,
/// with a sign; a radix given explicitly rules out the other forms' prefixes but its own.
fn parse_integer(s: &str, radix: Option<i64>) -> Option<i64> {
    let t = s.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = digits.to_ascii_lowercase();
    let (base, body) = match radix {
        None => {
            if let Some(h) = lower.strip_prefix("0x") {
                (16, h.to_string())
            } else if let Some(b) = lower.strip_prefix("0b") {
                (2, b.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower)
            }
        }
        // Puppet 7 wants the prefix even with the radix given ('ff' fails, '0xff' not).
        Some(16) => (16, lower.strip_prefix("0x")?.to_string()),
        Some(2) => (2, lower.strip_prefix("0b").unwrap_or(&lower).to_string()),
        Some(8) => (
            8,
            lower
                .strip_prefix('0')
                .filter(|r| !r.is_empty())
                .unwrap_or(&lower)
                .to_string(),
        ),
        Some(10) => (10, lower),
        Some(_) => return None,
    };
    if body.is_empty() || body.contains('_') {
        return None;
    }
    let n = i64::from_str_radix(&body, base).ok()?;
    Some(if negative { -n } else { n })
}

/// Puppet's pattern of the strings `Integer.new` hands to Ruby's `Integer()`
/// (`INTEGER_PATTERN_LENIENT`).
const INTEGER_PATTERN_LENIENT: &str = r"\A[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)\z";

/// Puppet's pattern of the strings `Float.new` and `Numeric.new` accept
/// (`FLOAT_PATTERN`), as Puppet prints it in their signatures.
const FLOAT_PATTERN: &str = r"\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z";

fn matches_pattern(pattern: &str, s: &str) -> bool {
    crate::types::model::Regex::new(pattern)
        .try_match(s)
        .unwrap_or(false)
}

/// A string `Integer.new` refuses. One its signature takes goes to Ruby's
/// `Integer()`, whose error it is ("invalid value for Integer(): \"08\""); any other
/// string is refused by the function itself, which names itself `new`.
fn not_an_integer(s: &str, radix: Option<i64>) -> EvalError {
    match radix {
        Some(2 | 8 | 10 | 16) | None => {}
        Some(r) => {
            return failed(format!(
                "Illegal radix: {r}, expected 2, 8, 10, 16, or default"
            ))
        }
    }
    if matches_pattern(INTEGER_PATTERN_LENIENT, s) {
        failed(format!(
            "invalid value for Integer(): {}",
            ruby_inspect(&Value::string(s))
        ))
    } else {
        failed(format!(
            "'new' The string '{s}' cannot be converted to Integer"
        ))
    }
}

/// A string `Float.new` refuses: Ruby's `Float()` error for one its signature takes,
/// the function's own (`new_float`) for any other.
fn not_a_float(s: &str) -> EvalError {
    if matches_pattern(FLOAT_PATTERN, s) {
        failed(format!(
            "invalid value for Float(): {}",
            ruby_inspect(&Value::string(s))
        ))
    } else {
        failed(format!(
            "'new_float' The string '{s}' cannot be converted to Float"
        ))
    }
}

/// A string `Numeric.new` refuses (its own message, `new_numeric`).
fn not_numeric(s: &str) -> EvalError {
    failed(format!(
        "'new_numeric' The string '{s}' cannot be converted to Numeric"
    ))
}

/// `Numeric(x, y)` or `Float(x, y)` with a second argument that is not `abs` (a
/// Boolean): Puppet's dispatcher lists both signatures and why each refused.
fn abs_refused(type_name: &str, from: &Value, abs: &Value) -> EvalError {
    let (function, numbers) = match type_name {
        "Float" => ("new_float", "Numeric"),
        _ => ("new_numeric", "Integer, Float"),
    };
    let convertible = format!(
        "Convertible = Variant[{numbers}, Boolean, Pattern[/{FLOAT_PATTERN}/], Timespan, Timestamp]"
    );
    let from_is_convertible = match from {
        Value::Integer(_)
        | Value::Float(_)
        | Value::Bool(_)
        | Value::Timespan(_)
        | Value::Timestamp(_) => true,
        Value::String(s) => matches_pattern(FLOAT_PATTERN, s),
        _ => false,
    };
    let why = if from_is_convertible {
        describe_value(&t::boolean(), abs, &[PathElem::Parameter("abs".into())]).join("\n")
    } else {
        // What the value is, as the describer says it after "got".
        let described = describe_value(&t::boolean(), from, &[]).join("\n");
        let got = described.rsplit(", got ").next().unwrap_or("");
        format!("parameter 'from' expects a {convertible} value, got {got}")
    };
    failed(signatures_refused(
        function,
        &[
            (&format!("{convertible} from, Boolean abs?"), why),
            (
                &format!(
                    "NamedArgs = Struct[{{'from' => {convertible}, Optional['abs'] => Boolean}}] hash_args"
                ),
                "expects 1 argument, got 2".into(),
            ),
        ],
    ))
}

/// A conversion's refusal of a value of a kind it never takes (undef, default, a
/// collection), in Puppet's words: `'new_float' Value of type Array[Integer] cannot be
/// converted to Float` (`dispatcher` names the function Puppet's dispatch fails in).
fn not_convertible(dispatcher: &str, v: &Value, to: &str) -> EvalError {
    failed(format!(
        "'{dispatcher}' Value of type {} cannot be converted to {to}",
        infer_generalized(v)
    ))
}

fn to_integer(v: &Value, radix: Option<i64>) -> R<Value> {
    match v {
        Value::Integer(i) => Ok(Value::Integer(*i)),
        Value::Float(f) if f.is_finite() && f.abs() < 9.2e18 => {
            Ok(Value::Integer(f.trunc() as i64))
        }
        Value::Bool(b) => Ok(Value::Integer(*b as i64)),
        Value::String(s) => parse_integer(s, radix)
            .map(Value::Integer)
            .ok_or_else(|| not_an_integer(s, radix)),
        Value::Undef | Value::Default | Value::Array(_) => {
            Err(not_convertible("new", v, "Integer"))
        }
        _ => Err(EvalError::Unsupported(format!("Integer.new({v})"))),
    }
}

fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim();
    let looks_numeric = t
        .trim_start_matches(['-', '+'])
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    if !looks_numeric || t.contains('_') {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

pub(super) fn to_numeric(v: &Value) -> R<Value> {
    match v {
        Value::Integer(_) | Value::Float(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Integer(*b as i64)),
        Value::String(s) => {
            let number = |text: &str| {
                parse_integer(text, None)
                    .map(Value::Integer)
                    .or_else(|| parse_float(text).map(Value::Float))
            };
            // Puppet also reads blanks between the sign and the digits ('- 3').
            let unblanked = match s.strip_prefix(['-', '+']) {
                Some(rest) if rest.starts_with(char::is_whitespace) => {
                    Some(format!("{}{}", &s[..1], rest.trim_start()))
                }
                _ => None,
            };
            number(s)
                .or_else(|| unblanked.as_deref().and_then(number))
                .ok_or_else(|| not_numeric(s))
        }
        Value::Undef | Value::Default | Value::Array(_) | Value::Hash(_) => {
            Err(not_convertible("new_numeric", v, "Numeric"))
        }
        _ => Err(EvalError::Unsupported(format!("Numeric.new({v})"))),
    }
}

fn to_float(v: &Value) -> R<Value> {
    match v {
        Value::Integer(i) => Ok(Value::Float(*i as f64)),
        Value::Float(_) => Ok(v.clone()),
        Value::Bool(b) => Ok(Value::Float(*b as i64 as f64)),
        Value::String(s) => parse_float(s)
            .or_else(|| parse_integer(s, None).map(|i| i as f64))
            .map(Value::Float)
            .ok_or_else(|| not_a_float(s)),
        Value::Undef | Value::Default | Value::Array(_) | Value::Hash(_) => {
            Err(not_convertible("new_float", v, "Float"))
        }
        _ => Err(EvalError::Unsupported(format!("Float.new({v})"))),
    }
}

fn to_boolean(v: &Value) -> R<Value> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Bool(*i != 0)),
        Value::Float(f) => Ok(Value::Bool(*f != 0.0)),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" => Ok(Value::Bool(true)),
            "false" | "no" | "n" => Ok(Value::Bool(false)),
            _ => Err(failed(format!(
                "'new_boolean' The string '{s}' cannot be converted to Boolean"
            ))),
        },
        Value::Undef | Value::Default | Value::Array(_) | Value::Hash(_) => {
            Err(not_convertible("new_boolean", v, "Boolean"))
        }
        _ => Err(EvalError::Unsupported(format!("Boolean.new({v})"))),
    }
}

/// `Timespan(x)`: seconds, a string in Puppet's default formats, or a hash of parts.
fn to_timespan(v: &Value) -> R<Value> {
    use crate::types::time::{parse_timespan, NANOS_PER_SEC, TIMESPAN_FORMATS};
    match v {
        Value::Timespan(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Timespan(i128::from(*i) * NANOS_PER_SEC)),
        Value::Float(f) if f.is_finite() => {
            Ok(Value::Timespan((*f * NANOS_PER_SEC as f64) as i128))
        }
        Value::String(s) => parse_timespan(s).map(Value::Timespan).ok_or_else(|| {
            failed(format!(
                "Unable to parse '{s}' using any of the formats {TIMESPAN_FORMATS}"
            ))
        }),
        Value::Hash(h) => Ok(Value::Timespan(crate::types::resolve::timespan_from_hash(
            h,
        ))),
        _ => Err(EvalError::Unsupported(format!("Timespan.new({v})"))),
    }
}

/// `Timestamp(x)`: seconds since the epoch, or a string in Puppet's default formats.
fn to_timestamp(v: &Value) -> R<Value> {
    use crate::types::time::{parse_timestamp, NANOS_PER_SEC, TIMESTAMP_FORMATS};
    match v {
        Value::Timestamp(_) => Ok(v.clone()),
        Value::Integer(i) => Ok(Value::Timestamp(i128::from(*i) * NANOS_PER_SEC)),
        Value::Float(f) if f.is_finite() => {
            Ok(Value::Timestamp((*f * NANOS_PER_SEC as f64) as i128))
        }
        Value::String(s) => parse_timestamp(s).map(Value::Timestamp).ok_or_else(|| {
            failed(format!(
                "Unable to parse '{s}' using any of the formats {TIMESTAMP_FORMATS}"
            ))
        }),
        _ => Err(EvalError::Unsupported(format!("Timestamp.new({v})"))),
    }
}

impl Evaluator<'_> {
    /// What the agent makes of `Deferred('function', [args])` before it applies the
    /// catalog: the function called with the arguments, when both are known and the
    /// function is one of Puppet's this evaluator runs (`join`, `sprintf`, ...).
    /// `None` for anything else: another function (a lookup in a vault), or what is not
    /// known here.
    pub fn resolved_deferred(&mut self, e: &Expr) -> Option<Value> {
        let ExprKind::Call(call) = &e.kind else {
            return None;
        };
        let (ExprKind::TypeRef(ty), None) = (&call.function.kind, &call.lambda) else {
            return None;
        };
        if !ty.eq_ignore_ascii_case("deferred") {
            return None;
        }
        let (name, args) = match call.args.as_slice() {
            [name] => (self.known(name).ok()?, Vec::new()),
            [name, args] => match self.known(args).ok()? {
                Value::Array(items) => (self.known(name).ok()?, items.to_vec()),
                _ => return None,
            },
            _ => return None,
        };
        let Value::String(name) = name else {
            return None;
        };
        function(&name, &args).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_strings_follow_their_prefix_or_the_radix() {
        // spec 001, Integer.new: "0x" hex, "0b" binary, a leading 0 octal.
        assert_eq!(parse_integer("0xFF", None), Some(255));
        assert_eq!(parse_integer("010", None), Some(8));
        assert_eq!(parse_integer("010", Some(10)), Some(10));
        assert_eq!(parse_integer("0x10", Some(10)), None);
        assert_eq!(parse_integer("-0b101", None), Some(-5));
    }
}
