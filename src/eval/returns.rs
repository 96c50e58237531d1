//! A Puppet-language function's declared return type (`function f() >> String { }`):
//! Puppet checks the value of the body's last statement against it when the body ends
//! there, and fails the call otherwise ("value returned from f has wrong type, ...").
//! An explicit `return(...)` is not checked by Puppet 7.

use super::calls::certain_mismatch;
use super::{AbstractValue, Evaluator, Failure, FailureKind};
use crate::ast::{ExprKind, FunctionDef};
use crate::types::mismatch::each_named;
use crate::types::Value;

impl Evaluator<'_> {
    /// After the walk of `function`'s body: notes Puppet's error when the value the
    /// body ends with is certainly not of the declared return type. Judged only where
    /// the body ends at its last statement: no `return` anywhere in it (the end may not
    /// be reached), no `fail` among its statements, and a last statement that is an
    /// expression (its value evaluated again in the scope the walk left; an error then
    /// means no verdict). A conditional ends the body with the value of the branch
    /// taken: where that is not known, with any branch's, so only a value every branch
    /// gives the wrong type is judged (a branch that fails or cannot be evaluated
    /// judges nothing).
    pub fn check_return(&mut self, function: &FunctionDef) {
        let (Some(declared), Some(last)) = (&function.return_type, function.body.statements.last())
        else {
            return;
        };
        if crate::ast::calls_return(&function.body.statements)
            || function.body.statements.iter().any(super::flow::calls_fail)
            || matches!(
                last.kind,
                ExprKind::Assignment { .. }
                    | ExprKind::Resource(_)
                    | ExprKind::ResourceDefaults(_)
                    | ExprKind::ResourceOverride(_)
                    | ExprKind::Collector(_)
                    | ExprKind::Relationship { .. }
            )
        {
            return;
        }
        let Ok(AbstractValue::Known(Value::Type(expected))) = self.eval(declared) else {
            return;
        };
        let Ok(value) = self.eval(last) else {
            return;
        };
        if let Some(why) = certain_mismatch(&expected, &value) {
            let name = function.name.name.trim_start_matches("::");
            self.failures.push(Failure {
                message: format!(
                    "Error while evaluating a Function Call, {}",
                    each_named(&format!("value returned from {name} has wrong type,"), &why)
                ),
                span: last.span,
                kind: FailureKind::ReturnType,
            });
        }
    }
}
