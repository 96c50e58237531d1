//! What the interpretation of one file sees of its environment: its own type aliases,
//! then the index's, and the Puppet-language functions it may call, whose bodies are
//! evaluated here (on the file's budget) when a call's result or return type is asked
//! for. The index itself ([`crate::env`]) only finds definitions; it never evaluates.

use crate::ast::{ExprKind, Program};
use crate::env::Environment;
use crate::ruby::function as ruby;
use crate::types::expr::TypeExpr;
use crate::types::from_ast::type_expr_from_ast;
use crate::types::resolve::AliasSource;
use std::sync::Arc;

/// The aliases a file sees: its own, then the index's.
pub struct FileAliases<'a> {
    own: crate::types::resolve::AliasTable,
    env: &'a Environment,
    /// What the interpretation of the file may spend, its calls into other files'
    /// bodies included.
    budget: crate::eval::Budget,
}

impl<'a> FileAliases<'a> {
    /// The aliases of `program`, whose interpretation starts a budget of its own (in
    /// proportion to the file's size).
    pub fn new(program: &Program, env: &'a Environment) -> FileAliases<'a> {
        let bytes = program.body.last().map_or(0, |e| e.span.end as usize);
        Self::with_budget(program, env, crate::eval::Budget::for_source(bytes))
    }

    /// The aliases of `program`, a file whose bodies this file's interpretation runs
    /// (a function it calls, a class it declares): on this file's budget.
    pub fn for_program(&self, program: &Program) -> FileAliases<'a> {
        Self::with_budget(program, self.env, self.budget.clone())
    }

    /// The aliases of `program`, interpreted on `budget`.
    pub fn with_budget(
        program: &Program,
        env: &'a Environment,
        budget: crate::eval::Budget,
    ) -> FileAliases<'a> {
        let mut own = crate::types::resolve::AliasTable::partial();
        for statement in &program.body {
            if let ExprKind::TypeAlias(alias) = &statement.kind {
                own.insert(&alias.name.name, type_expr_from_ast(&alias.type_expr));
            }
        }
        FileAliases { own, env, budget }
    }

    /// What the interpretation may still spend.
    pub fn budget(&self) -> &crate::eval::Budget {
        &self.budget
    }
}

/// How many Puppet-language function bodies deep a call's result is evaluated.
const MAX_FUNCTION_CALLS: usize = 8;

/// Whether `statements` may leave early (`return`), which the value of a body's last
/// statement does not account for.
fn may_return_early(statements: &[crate::ast::Expr]) -> bool {
    use crate::ast::{Expr, Visitor};
    struct Finds(bool);
    impl<'p> Visitor<'p> for Finds {
        fn visit_expr(&mut self, expr: &'p Expr) {
            if let ExprKind::Call(call) = &expr.kind {
                if matches!(&call.function.kind, ExprKind::Name(n) if n == "return") {
                    self.0 = true;
                }
            }
            crate::ast::walk_expr(self, expr);
        }
    }
    let mut finds = Finds(false);
    for statement in statements {
        finds.visit_expr(statement);
    }
    finds.0
}

/// What the `i`th parameter `p` of a called function holds for `args`: the argument (for
/// a captures-rest parameter, the arguments from there on), else its default where the
/// evaluation knows it. `None` where the body would not run: no value, or one its type
/// rejects (Puppet's dispatcher refuses the call: another rule's finding).
fn argument(
    evaluator: &mut crate::eval::Evaluator,
    p: &crate::ast::Parameter,
    args: &[crate::types::Value],
    i: usize,
) -> Option<crate::types::Value> {
    use crate::eval::AbstractValue;
    let value = if p.captures_rest {
        crate::types::Value::array(args.get(i..).unwrap_or(&[]).to_vec())
    } else if let Some(v) = args.get(i) {
        v.clone()
    } else {
        match evaluator.eval(p.default.as_ref()?) {
            Ok(AbstractValue::Known(v)) => v,
            _ => return None,
        }
    };
    if let Some(type_expr) = &p.type_expr {
        let ty = evaluator.resolve_type(type_expr).ok()?;
        let fits = match &value {
            crate::types::Value::Array(items) if p.captures_rest => {
                items.iter().all(|v| crate::types::instance_of(v, &ty))
            }
            _ if p.captures_rest => false,
            _ => crate::types::instance_of(&value, &ty),
        };
        if !fits {
            return None;
        }
    }
    Some(value)
}

impl crate::eval::FunctionSource for FileAliases<'_> {
    fn defines_puppet_function(&self, name: &str) -> bool {
        self.env.function(name).is_some()
    }

    fn budget(&self) -> Option<&crate::eval::Budget> {
        Some(&self.budget)
    }

    fn refuses_every_return(&self, name: &str, calls: usize) -> bool {
        use crate::env::symbols::{self, SymbolKind};
        use crate::eval::{Evaluator, FailureKind};
        if calls >= MAX_FUNCTION_CALLS || self.budget.spent() {
            return false;
        }
        let Some(definition) = self.env.function(name) else {
            return false;
        };
        let Some(file) = self.env.definition_file(&definition.path) else {
            return false;
        };
        let Some(symbol) = symbols::find(&file.program, SymbolKind::Function, name) else {
            return false;
        };
        let ExprKind::Function(function) = &symbol.expr.kind else {
            return false;
        };
        // The body walked as the function's own check walks it: each parameter known
        // by its type.
        let aliases = self.for_program(&file.program);
        let mut evaluator = Evaluator::new(&aliases)
            .with_functions(&aliases)
            .with_calls(calls + 1);
        evaluator.bind_by_types(None, function.params.as_deref().unwrap_or(&[]));
        evaluator.walk(&function.body.statements, &mut |_, _| {});
        evaluator.check_return(function);
        evaluator
            .take_failures()
            .iter()
            .any(|f| f.kind == FailureKind::ReturnType)
    }

    fn call_result(
        &self,
        name: &str,
        args: &[crate::types::Value],
        calls: usize,
    ) -> Option<crate::types::Value> {
        use crate::env::symbols::{self, SymbolKind};
        use crate::eval::{AbstractValue, Binding, Evaluator};
        if calls >= MAX_FUNCTION_CALLS || self.budget.spent() {
            return None;
        }
        let definition = self.env.function(name)?;
        let file = self.env.definition_file(&definition.path)?;
        let symbol = symbols::find(&file.program, SymbolKind::Function, name)?;
        let ExprKind::Function(function) = &symbol.expr.kind else {
            return None;
        };
        if may_return_early(&function.body.statements) {
            return None;
        }
        let aliases = self.for_program(&file.program);
        let mut evaluator = Evaluator::new(&aliases)
            .with_functions(&aliases)
            .with_calls(calls + 1);
        let params = function.params.as_deref().unwrap_or(&[]);
        if args.len() > params.len() && !params.iter().any(|p| p.captures_rest) {
            return None;
        }
        let mut position = 0;
        evaluator.bind_parameters(None, params, |evaluator, p| {
            let i = position;
            position += 1;
            match argument(evaluator, p, args, i) {
                Some(value) => Binding::To(AbstractValue::Known(value)),
                None => Binding::Refused,
            }
        })?;
        match evaluator.eval_block(&function.body.statements) {
            Ok(AbstractValue::Known(v)) => Some(v),
            _ => None,
        }
    }

    fn checked_return(&self, name: &str) -> Option<crate::ast::Expr> {
        self.env.function(name)?.checked_return.clone()
    }
    fn ruby_function(&self, name: &str) -> Option<Arc<ruby::RubyFunction>> {
        self.env.ruby_function(name)
    }
    fn legacy_arity(&self, name: &str) -> Option<i64> {
        self.env.legacy_arity(name)
    }
    fn hiera_values(&self, key: &str) -> Option<Vec<crate::types::Value>> {
        self.env.root()?;
        self.env.hiera().values(key)
    }
    fn may_define_fact(&self, name: &str) -> bool {
        // Outside an environment no module is known to define one.
        self.env.modules_may_define_fact(name)
    }
}

impl AliasSource for FileAliases<'_> {
    fn alias_body(&self, name: &str) -> Option<TypeExpr> {
        self.own
            .alias_body(name)
            .or_else(|| self.env.alias_body(name))
    }

    fn knows_every_alias(&self) -> bool {
        false
    }

    fn is_surely_resource_type(&self, name: &str) -> bool {
        self.env.is_surely_resource_type(name)
    }
}
