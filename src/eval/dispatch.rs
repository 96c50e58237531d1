//! Calls of functions written in Ruby (Puppet's own, and a module's 4.x ones read from
//! their files) judged as Puppet's dispatcher judges them, before the function runs:
//! the first signature (in the order of `data/functions.toml`, or of the file) that
//! takes the arguments and the lambda is the one called, and what it returns is known
//! by its declared return type; a call no signature takes fails with the dispatcher's
//! message; a 3.x function only counts its arguments.

use super::{AbstractValue, EvalError, Evaluator, Failure, FailureKind, R};
use crate::ast::{Expr, ExprKind, Lambda, UnaryOp};
use crate::builtin::functions::{self as builtin, Block, Dispatch, Function};
use crate::ruby::function::{ParamKind, RubyFunction};
use crate::types::disjoint::disjoint;
use crate::types::mismatch::{describe_signatures, Actual, GivenBlock, Signature, SignatureBlock};
use crate::types::{accepts, instance_of, Kind, Type, Value};

/// What the dispatcher does with a call.
pub(super) enum Judgement {
    /// A signature takes the call (a 3.x function takes any arguments once their
    /// count is right): what it is known to return (`None`: nothing known).
    Accepted(Option<Type>),
    /// No signature takes it: Puppet's message.
    Rejected(String),
    /// Which signature takes it, if any, depends on what is not known.
    Unknown,
}

/// Whether a signature takes a call.
#[derive(PartialEq)]
enum Fit {
    Takes,
    Refuses,
    Unknown,
}

impl Fit {
    fn and(self, other: impl FnOnce() -> Fit) -> Fit {
        match self {
            Fit::Refuses => Fit::Refuses,
            Fit::Takes => other(),
            Fit::Unknown => match other() {
                Fit::Refuses => Fit::Refuses,
                _ => Fit::Unknown,
            },
        }
    }
}

/// The built-in function `name`, if its calls are judged here.
pub(super) fn builtin(name: &str) -> Option<&'static Function> {
    builtin::function(name)
}

/// Judges a call of `function` (called `name`) with `args` (the receiver of a method
/// call first) and `lambda`.
pub(super) fn judge(
    name: &str,
    function: &Function,
    args: &[AbstractValue],
    lambda: Option<&Lambda>,
) -> Judgement {
    let given = given_block(lambda);
    match function {
        Function::Legacy { arity, returns } => {
            judge_legacy(name, *arity, args.len(), lambda, returns)
        }
        Function::Typed(dispatches) => {
            for dispatch in dispatches {
                match fit(dispatch, args, given) {
                    Fit::Refuses => continue,
                    // A handler takes the call to raise an error of its own words.
                    Fit::Takes if dispatch.mismatch_handler => return Judgement::Unknown,
                    Fit::Takes => return Judgement::Accepted(declared_return(dispatch)),
                    Fit::Unknown => return Judgement::Unknown,
                }
            }
            let signatures: Vec<Signature> = dispatches
                .iter()
                .filter(|d| !d.mismatch_handler)
                .map(signature)
                .collect();
            let actuals: Vec<Actual> = args
                .iter()
                .map(|a| match a {
                    AbstractValue::Known(v) => Actual::Value(v),
                    AbstractValue::Inferred(t) => Actual::AnyOf(t),
                })
                .collect();
            match describe_signatures(name, &signatures, &actuals, given) {
                Some(message) => Judgement::Rejected(message),
                None => Judgement::Unknown,
            }
        }
    }
}

/// A 3.x function's own count check (`newfunction`'s arity); its block is not judged.
fn judge_legacy(
    name: &str,
    arity: i64,
    given: usize,
    lambda: Option<&Lambda>,
    returns: &Option<Type>,
) -> Judgement {
    if lambda.is_some() {
        return Judgement::Unknown;
    }
    let n = given as i64;
    if arity >= 0 && n != arity {
        Judgement::Rejected(format!(
            "{name}(): Wrong number of arguments given ({n} for {arity})"
        ))
    } else if arity < 0 && n < -(arity + 1) {
        Judgement::Rejected(format!(
            "{name}(): Wrong number of arguments given ({n} for minimum {})",
            -(arity + 1)
        ))
    } else {
        Judgement::Accepted(returns.clone().filter(|t| !matches!(t.kind(), Kind::Any)))
    }
}

fn given_block(lambda: Option<&Lambda>) -> GivenBlock {
    match lambda {
        None => GivenBlock::None,
        Some(l) => {
            let rest = l.params.iter().any(|p| p.captures_rest);
            GivenBlock::Lambda {
                min: l
                    .params
                    .iter()
                    .filter(|p| p.default.is_none() && !p.captures_rest)
                    .count(),
                max: (!rest).then_some(l.params.len()),
                typed: l.params.iter().any(|p| p.type_expr.is_some()),
            }
        }
    }
}

fn signature(d: &Dispatch) -> Signature<'_> {
    Signature {
        names: &d.names,
        types: &d.types,
        min: d.min,
        max: d.max,
        block: d.block.as_ref().map(|b| SignatureBlock {
            parameters: b.parameters(),
            optional: b.optional,
        }),
        text: &d.signature,
    }
}

/// Whether `dispatch` takes the arguments and the lambda, as Puppet's `callable_with?`
/// decides: each argument an instance of its parameter's type, the lambda's type one
/// the block's accepts.
fn fit(dispatch: &Dispatch, args: &[AbstractValue], given: GivenBlock) -> Fit {
    let n = args.len();
    if n < dispatch.min || dispatch.max.is_some_and(|max| n > max) {
        return Fit::Refuses;
    }
    let mut result = Fit::Takes;
    for (i, arg) in args.iter().enumerate() {
        let Some(expected) = dispatch
            .types
            .get(i.min(dispatch.types.len().saturating_sub(1)))
        else {
            return Fit::Unknown;
        };
        result = result.and(|| fit_argument(expected, arg));
        if result == Fit::Refuses {
            return result;
        }
    }
    result.and(|| fit_block(dispatch.block.as_ref(), given))
}

fn fit_argument(expected: &Type, arg: &AbstractValue) -> Fit {
    match arg {
        AbstractValue::Known(v) if instance_of(v, expected) => Fit::Takes,
        // A regexp pupcheck cannot run proves nothing by not matching.
        AbstractValue::Known(_) if !expected.patterns_runnable() => Fit::Unknown,
        AbstractValue::Known(_) => Fit::Refuses,
        AbstractValue::Inferred(t) if accepts(expected, t) => Fit::Takes,
        AbstractValue::Inferred(t) if disjoint(t, expected) => Fit::Refuses,
        AbstractValue::Inferred(_) => Fit::Unknown,
    }
}

/// A lambda fits a block whose calls it can take: its count of parameters holds the
/// block's (Puppet compares the callables contravariantly), and an untyped parameter
/// takes anything.
fn fit_block(block: Option<&Block>, given: GivenBlock) -> Fit {
    match (block, given) {
        (None, GivenBlock::None) => Fit::Takes,
        (None, GivenBlock::Lambda { .. }) => Fit::Refuses,
        (Some(b), GivenBlock::None) => {
            if b.optional {
                Fit::Takes
            } else {
                Fit::Refuses
            }
        }
        (Some(b), GivenBlock::Lambda { min, max, typed }) => {
            let Some((_, emin, emax)) = b.parameters() else {
                return Fit::Takes;
            };
            let holds = min <= emin
                && match (max, emax) {
                    (None, _) => true,
                    (Some(_), None) => false,
                    (Some(l), Some(e)) => e <= l,
                };
            match (holds, typed) {
                (false, _) => Fit::Refuses,
                (true, false) => Fit::Takes,
                (true, true) => Fit::Unknown,
            }
        }
    }
}

impl Evaluator<'_> {
    /// Evaluates a call's arguments, each known or known by its type, unfolding
    /// `*$array`.
    pub(super) fn abstract_arguments(&mut self, exprs: &[Expr]) -> R<Vec<AbstractValue>> {
        let mut args = Vec::with_capacity(exprs.len());
        for a in exprs {
            match &a.kind {
                ExprKind::Unary {
                    op: UnaryOp::Splat,
                    operand,
                } => match self.eval(operand)? {
                    AbstractValue::Known(Value::Array(items)) => {
                        args.extend(items.iter().cloned().map(AbstractValue::Known))
                    }
                    AbstractValue::Known(other) => args.push(AbstractValue::Known(other)),
                    AbstractValue::Inferred(t) => {
                        return Err(EvalError::Unsupported(format!(
                            "arguments spread from a value known only by its type ({t})"
                        )))
                    }
                },
                _ => args.push(self.eval(a)?),
            }
        }
        Ok(args)
    }

    /// The dispatcher's judgement of a call of `function` at `at`: its error, or what
    /// the signature that takes it declares it returns.
    pub(super) fn dispatch(
        &mut self,
        at: &Expr,
        site: &str,
        name: &str,
        function: &Function,
        args: &[AbstractValue],
        lambda: Option<&Lambda>,
    ) -> R<Option<Type>> {
        match judge(name, function, args, lambda) {
            Judgement::Accepted(returns) => Ok(returns),
            Judgement::Unknown => Ok(None),
            Judgement::Rejected(message) => Err(EvalError::FailedAt(Failure {
                message: format!("Error while evaluating a {site}, {message}"),
                span: at.span,
                kind: FailureKind::FunctionArguments,
            })),
        }
    }
}

/// What a call returns when the function itself is not run: any value of the
/// signature's declared return type (`Any` says nothing).
fn declared_return(dispatch: &Dispatch) -> Option<Type> {
    dispatch
        .returns
        .clone()
        .filter(|t| !matches!(t.kind(), Kind::Any))
}

impl Evaluator<'_> {
    /// A module's Ruby function as the dispatcher holds it: its types resolved where
    /// the call is (the module's aliases), its signatures printed as Puppet prints
    /// them; `None` when a type does not resolve.
    pub(super) fn ruby_dispatches(&mut self, function: &RubyFunction) -> Option<Function> {
        use crate::types::from_ast::parse_type_expr;
        use crate::types::resolve::{AliasTable, Layered, Resolver};
        // Its `local_types` first, then the aliases where the call is.
        let mut local = AliasTable::partial();
        for (name, body) in &function.local_types {
            local.insert(name, parse_type_expr(body).ok()?);
        }
        let layered = Layered {
            local,
            outer: self.resolver.source(),
        };
        let mut resolver = Resolver::new(&layered);
        let mut resolve = |text: &str| resolver.resolve(&parse_type_expr(text).ok()?).ok();
        let mut dispatches = Vec::with_capacity(function.dispatches.len());
        for d in &function.dispatches {
            let mut types = Vec::with_capacity(d.params.len());
            for p in &d.params {
                types.push(resolve(&p.type_text)?);
            }
            let required =
                |k: ParamKind| matches!(k, ParamKind::Required | ParamKind::RequiredRepeated);
            let repeated =
                |k: ParamKind| matches!(k, ParamKind::Repeated | ParamKind::RequiredRepeated);
            let min = d.params.iter().filter(|p| required(p.kind)).count();
            let max = (!d.params.iter().any(|p| repeated(p.kind))).then_some(d.params.len());
            let block = match &d.block {
                None => None,
                Some((text, _, optional)) => Some(Block {
                    ty: match text {
                        Some(text) => resolve(text)?,
                        None => crate::types::t::callable_of(None, None, None),
                    },
                    optional: *optional,
                }),
            };
            let returns = match &d.returns {
                Some(text) => Some(resolve(text)?),
                None => None,
            };
            let names: Vec<String> = d.params.iter().map(|p| p.name.clone()).collect();
            let signature = signature_text(
                &names,
                &types,
                min,
                max,
                block.as_ref(),
                d.block.as_ref().map(|b| b.1.as_str()),
            );
            dispatches.push(Dispatch {
                names,
                types,
                min,
                max,
                block,
                returns,
                signature,
                mismatch_handler: d.mismatch_handler,
            });
        }
        Some(Function::Typed(dispatches))
    }
}

/// A signature as Puppet's describer prints it: `Type name` for each parameter, `?`
/// after an optional one (its `Optional` dropped), `*` or `+` after a repeated last
/// one, then the block.
fn signature_text(
    names: &[String],
    types: &[Type],
    min: usize,
    max: Option<usize>,
    block: Option<&Block>,
    block_name: Option<&str>,
) -> String {
    let mut parts = Vec::with_capacity(names.len() + 1);
    for (index, (name, ty)) in names.iter().zip(types).enumerate() {
        let (shown, indicator) = if max.is_none() && index + 1 == names.len() {
            (ty.clone(), if min == names.len() { "+" } else { "*" })
        } else if index + 1 > min {
            let inner = match ty.kind() {
                Kind::Optional(Some(inner)) => inner.clone(),
                _ => ty.clone(),
            };
            (inner, "?")
        } else {
            (ty.clone(), "")
        };
        parts.push(format!("{shown} {name}{indicator}"));
    }
    if let (Some(block), Some(name)) = (block, block_name) {
        let optional = if block.optional { "?" } else { "" };
        parts.push(format!("{} {name}{optional}", block.ty));
    }
    parts.join(", ")
}
