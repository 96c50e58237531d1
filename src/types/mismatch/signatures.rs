//! Why a call's arguments fit none of a function's signatures, in the words of Puppet
//! 7's dispatcher (`TypeMismatchDescriber#describe_signatures`): each signature is
//! described (the count of arguments, then the first argument its parameter rejects,
//! then the block), the findings every signature shares are merged into one ("'split'
//! parameter 'str' expects a String value, got Integer"), and otherwise each signature
//! is listed with what it rejected.

use super::{describe, merge_descriptions, Class, Mismatch, PathElem, What};
use crate::types::disjoint::disjoint;
use crate::types::{accepts, generalize, infer_detailed, instance_of, IntRange, Kind, Type, Value};

/// One signature of a function, as its dispatcher holds it.
pub struct Signature<'a> {
    /// The parameters' names and types; the last repeats when `max` is `None`.
    pub names: &'a [String],
    pub types: &'a [Type],
    pub min: usize,
    pub max: Option<usize>,
    pub block: Option<SignatureBlock<'a>>,
    /// The signature as Puppet prints it (`String str, String pattern`).
    pub text: &'a str,
}

/// The block a signature takes: the lambda's parameter types, and how many
/// parameters it is called with (`None` for a bare `Callable`, which any lambda is).
pub struct SignatureBlock<'a> {
    pub parameters: Option<(&'a [Type], usize, Option<usize>)>,
    pub optional: bool,
}

/// An argument: a value, or any value of a type (what the code allows there).
pub enum Actual<'a> {
    Value(&'a Value),
    AnyOf(&'a Type),
}

/// The lambda given to a call, if any: how many arguments it takes (its parameters
/// without a default, all of them or any number with a rest parameter) and whether
/// any parameter is typed.
#[derive(Clone, Copy)]
pub enum GivenBlock {
    None,
    Lambda {
        min: usize,
        max: Option<usize>,
        typed: bool,
    },
}

/// Puppet's message for a call of `name` whose arguments no signature accepts;
/// `None` when a signature accepts them, or when pupcheck cannot say Puppet's words
/// (an argument known only by a type the parameter shares values with, a regexp it
/// cannot run, a typed lambda).
pub fn describe_signatures(
    name: &str,
    signatures: &[Signature],
    args: &[Actual],
    block: GivenBlock,
) -> Option<String> {
    let mut error_arrays = Vec::with_capacity(signatures.len());
    for (index, signature) in signatures.iter().enumerate() {
        error_arrays.push(describe_arguments(signature, args, index)?);
    }
    // The blocks are described only when some signature takes the arguments.
    if error_arrays.iter().any(Vec::is_empty) {
        let mut block_arrays = Vec::with_capacity(signatures.len());
        for (index, signature) in signatures.iter().enumerate() {
            block_arrays.push(describe_block(signature, block, index)?);
        }
        let failing = block_arrays.iter().filter(|a| !a.is_empty()).count();
        if failing == block_arrays.len() {
            error_arrays = block_arrays;
        } else if failing > 0 {
            for (errors, block_errors) in error_arrays.iter_mut().zip(block_arrays) {
                if errors.is_empty() {
                    *errors = block_errors;
                }
            }
        }
    }
    if error_arrays.iter().any(Vec::is_empty) {
        return None;
    }
    let label = format!("'{name}'");
    let merged = merge_descriptions(0, Class::Count, error_arrays.clone());
    if let [one] = merged.as_slice() {
        return Some(format!("{label} {}", one.format()));
    }
    let rejected = |m: &Mismatch| {
        let mut m = m.clone();
        m.path.remove(0);
        m.format()
    };
    let mut lines = Vec::new();
    if let [signature] = signatures {
        lines.push(format!("{label} expects ({})", signature.text));
        lines.extend(
            error_arrays[0]
                .iter()
                .map(|m| format!("  rejected: {}", rejected(m))),
        );
    } else {
        lines.push(format!(
            "The function {label} was called with arguments it does not accept. It expects one of:"
        ));
        for (signature, errors) in signatures.iter().zip(&error_arrays) {
            lines.push(format!("  ({})", signature.text));
            lines.extend(
                errors
                    .iter()
                    .map(|m| format!("    rejected: {}", rejected(m))),
            );
        }
    }
    Some(lines.join("\n"))
}

fn count_range(min: usize, max: Option<usize>) -> IntRange {
    IntRange::new(Some(min as i64), max.map(|m| m as i64))
}

/// The count of arguments, then the first argument its parameter rejects; `None`
/// when that argument's finding cannot be told.
fn describe_arguments(
    signature: &Signature,
    args: &[Actual],
    index: usize,
) -> Option<Vec<Mismatch>> {
    let path = [PathElem::Signature(index)];
    let n = args.len();
    if n < signature.min || signature.max.is_some_and(|max| n > max) {
        return Some(vec![Mismatch {
            path: path.to_vec(),
            what: What::Count {
                expected: count_range(signature.min, signature.max),
                actual: count_range(n, Some(n)),
            },
        }]);
    }
    for (i, arg) in args.iter().enumerate() {
        let at = i.min(signature.types.len().saturating_sub(1));
        let (Some(expected), Some(name)) = (signature.types.get(at), signature.names.get(at))
        else {
            return None;
        };
        let mut param_path = path.to_vec();
        param_path.push(PathElem::Parameter(name.clone()));
        let found = describe_actual(expected, arg, &param_path)?;
        if !found.is_empty() {
            return Some(found);
        }
    }
    Some(Vec::new())
}

/// Why `actual` is certainly not a `expected`, in Puppet's words: empty when it is
/// one; `None` when that is not certain or Puppet's words for it are not.
pub fn certain_mismatch(expected: &Type, actual: &Actual) -> Option<Vec<String>> {
    describe_actual(expected, actual, &[]).map(|found| found.iter().map(Mismatch::format).collect())
}

fn describe_actual(expected: &Type, actual: &Actual, path: &[PathElem]) -> Option<Vec<Mismatch>> {
    match actual {
        Actual::Value(v) if instance_of(v, expected) => Some(Vec::new()),
        // A regexp pupcheck cannot run proves nothing by not matching.
        Actual::Value(_) if !expected.patterns_runnable() => None,
        Actual::Value(v) => {
            Some(describe(expected, &infer_detailed(v), path)).filter(|d| !d.is_empty())
        }
        Actual::AnyOf(t) if accepts(expected, t) => Some(Vec::new()),
        // Puppet names each value by its own type: certain only for a scalar kind none
        // of whose values is a `expected` (all named alike).
        Actual::AnyOf(t)
            if disjoint(t, expected)
                && matches!(
                    t.kind(),
                    Kind::String(_)
                        | Kind::Enum { .. }
                        | Kind::Pattern(_)
                        | Kind::Boolean(_)
                        | Kind::Undef
                        | Kind::Integer(_)
                        | Kind::Float(_)
                        | Kind::Numeric
                ) =>
        {
            let shown = super::as_value_type(&generalize(t));
            Some(describe(expected, &shown, path)).filter(|d| !d.is_empty())
        }
        Actual::AnyOf(_) => None,
    }
}

/// The block: one given where the signature takes none, none where it needs one, or
/// a lambda with a count of parameters the signature's block is not called with.
fn describe_block(signature: &Signature, given: GivenBlock, index: usize) -> Option<Vec<Mismatch>> {
    let path = vec![PathElem::Signature(index)];
    let mismatch = |path: Vec<PathElem>, what: What| Some(vec![Mismatch { path, what }]);
    match (given, &signature.block) {
        (GivenBlock::None, Some(block)) if !block.optional => mismatch(path, What::MissingBlock),
        (GivenBlock::None, _) => Some(Vec::new()),
        (GivenBlock::Lambda { .. }, None) => mismatch(path, What::UnexpectedBlock),
        (GivenBlock::Lambda { min, max, typed }, Some(block)) => {
            let Some((types, emin, emax)) = block.parameters else {
                return Some(Vec::new());
            };
            // Puppet compares the lambda's count with the block's the other way round
            // from the dispatcher: the block's range must hold the lambda's.
            let holds = emin <= min
                && match (emax, max) {
                    (None, _) => true,
                    (Some(_), None) => false,
                    (Some(e), Some(l)) => l <= e,
                };
            if !holds {
                let mut at = path;
                at.push(PathElem::Block);
                return mismatch(
                    at,
                    What::Count {
                        expected: count_range(emin, emax),
                        actual: count_range(min, max),
                    },
                );
            }
            // An untyped parameter is `Any`: fine where the block's is `Any` too.
            let all_any = types.iter().all(|t| matches!(t.kind(), Kind::Any));
            (!typed && all_any).then(Vec::new)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::t;

    fn names(ns: &[&str]) -> Vec<String> {
        ns.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn one_parameter_every_signature_rejects_is_one_merged_finding() {
        // Puppet 7: regsubst('a', 1, 'b')
        let n = names(&["target", "pattern", "replacement"]);
        let string3 = [t::string(), t::string(), t::string()];
        let regexp = [t::string(), t::regexp(), t::string()];
        let sig = |types: &'static [Type], text: &'static str| Signature {
            names: &n,
            types,
            min: 3,
            max: Some(3),
            block: None,
            text,
        };
        let string3: &'static [Type] = Box::leak(Box::new(string3));
        let regexp: &'static [Type] = Box::leak(Box::new(regexp));
        let a = Value::string("a");
        let one = Value::Integer(1);
        let args = [Actual::Value(&a), Actual::Value(&one), Actual::Value(&a)];
        let message = describe_signatures(
            "regsubst",
            &[sig(string3, "String a"), sig(regexp, "String b")],
            &args,
            GivenBlock::None,
        );
        assert_eq!(
            message.as_deref(),
            Some("'regsubst' parameter 'pattern' expects a value of type String or Regexp, got Integer")
        );
        let accepted = [Actual::Value(&a), Actual::Value(&a), Actual::Value(&a)];
        assert_eq!(
            describe_signatures(
                "regsubst",
                &[sig(string3, "s")],
                &accepted,
                GivenBlock::None
            ),
            None
        );
    }

    #[test]
    fn counts_and_blocks_are_worded_as_the_dispatcher_words_them() {
        let n = names(&["value"]);
        let any = [t::any()];
        let notice = Signature {
            names: &n,
            types: &any,
            min: 0,
            max: None,
            block: None,
            text: "Any values*",
        };
        let one = Value::Integer(1);
        let lambda = GivenBlock::Lambda {
            min: 1,
            max: Some(1),
            typed: false,
        };
        assert_eq!(
            describe_signatures("notice", &[notice], &[Actual::Value(&one)], lambda).as_deref(),
            Some("'notice' does not expect a block")
        );
        let two = Signature {
            names: &n,
            types: &any,
            min: 1,
            max: Some(1),
            block: None,
            text: "Any value",
        };
        let args = [Actual::Value(&one), Actual::Value(&one)];
        assert_eq!(
            describe_signatures("f", &[two], &args, GivenBlock::None).as_deref(),
            Some("'f' expects 1 argument, got 2")
        );
    }

    #[test]
    fn an_argument_known_only_by_a_type_that_may_fit_is_not_judged() {
        let n = names(&["s"]);
        let enum_ab = [t::enumeration(&["a", "b"], false)];
        let sig = Signature {
            names: &n,
            types: &enum_ab,
            min: 1,
            max: Some(1),
            block: None,
            text: "Enum['a', 'b'] s",
        };
        let string = t::string();
        assert_eq!(
            describe_signatures("f", &[sig], &[Actual::AnyOf(&string)], GivenBlock::None),
            None
        );
    }
}
