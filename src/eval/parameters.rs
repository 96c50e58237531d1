//! How a body's variables get their values before it runs, written once for every
//! caller that evaluates a body (the walk of a body on its own, a declaration evaluated
//! into its body, the defaults a declaration leaves, a called function): `$title`,
//! then `$name`, then each parameter in the order written, so that a default sees
//! `$title`, `$name` and the parameters before it, as Puppet evaluates them. What each
//! parameter gets (a given value, its default, any value of its type) is the caller's.

use super::{AbstractValue, Evaluator};
use crate::ast::Parameter;

/// What a caller gives one parameter.
pub enum Binding {
    /// This value.
    To(AbstractValue),
    /// No variable (a captures-rest parameter the caller leaves out).
    Unbound,
    /// Nothing: Puppet fails before the body (a value the parameter's type rejects, a
    /// required parameter not given).
    Refused,
}

/// What `$title` and `$name` hold in a class or defined-type body (functions, nodes
/// and lambdas have neither).
pub struct TitleAndName {
    pub title: AbstractValue,
    pub name: AbstractValue,
}

impl Evaluator<'_> {
    /// Binds `names` (when the body has them), then each of `params` in order to what
    /// `value_of` gives it, called with this evaluator so that a default is evaluated
    /// seeing what is bound before it. `None` as soon as `value_of` refuses a parameter;
    /// what was bound before stays.
    pub fn bind_parameters<'p>(
        &mut self,
        names: Option<TitleAndName>,
        params: &'p [Parameter],
        mut value_of: impl FnMut(&mut Self, &'p Parameter) -> Binding,
    ) -> Option<()> {
        if let Some(TitleAndName { title, name }) = names {
            self.bind("title", title);
            self.bind("name", name);
        }
        for param in params {
            match value_of(self, param) {
                Binding::To(value) => self.bind(&param.name.name, value),
                Binding::Unbound => {}
                Binding::Refused => return None,
            }
        }
        Some(())
    }

    /// Binds each parameter (but a captures-rest one) to any value of its declared
    /// type, as a body is walked on its own: `Any` where the type is absent or cannot
    /// be resolved.
    pub fn bind_by_types(&mut self, names: Option<TitleAndName>, params: &[Parameter]) {
        // (`by_type` refuses no parameter.)
        let _ = self.bind_parameters(names, params, by_type);
    }

    /// The type `param` declares, resolved here; `Any` where it declares none or it
    /// cannot be resolved.
    pub fn declared_type_or_any(&mut self, param: &Parameter) -> crate::types::Type {
        param
            .type_expr
            .as_ref()
            .and_then(|t| self.resolve_type(t).ok())
            .unwrap_or_else(crate::types::t::any)
    }
}

/// Any value of the parameter's declared type, as a body is walked on its own (a
/// captures-rest parameter is left unbound).
pub fn by_type(evaluator: &mut Evaluator, param: &Parameter) -> Binding {
    if param.captures_rest {
        return Binding::Unbound;
    }
    Binding::To(AbstractValue::Inferred(
        evaluator.declared_type_or_any(param),
    ))
}
