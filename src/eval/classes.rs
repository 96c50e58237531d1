//! Classes (spec 004 "Classes" and "Resource Expressions"; Puppet 7's class
//! evaluation): definitions are known before evaluation starts (Puppet loads them,
//! it does not run them); `include`/`contain`/`require` and `class { 'x': }` declare a
//! class, which evaluates it once, in a scope of its own whose parent is the top scope
//! (or the scope of the class it inherits from), never the scope that declared it.
//! What a declared class leaves behind is read with `$x::y` and `Class[x][param]`.

use super::{AbstractValue, EvalError, Evaluator, R};
use crate::ast::{ClassDef, Expr, ExprKind, Program, ResourceExpr};
use crate::types::mismatch::{describe_value, PathElem};
use crate::types::value::Value;
use crate::types::{infer_generalized, instance_of, t, Kind};
use indexmap::IndexMap;

/// A class definition, found before evaluation.
pub(super) struct ClassDefinition<'a> {
    def: &'a ClassDef,
    /// The module the definition is in (`$module_name`); empty outside modules.
    module: String,
}

/// What a declared class left behind.
#[derive(Default, Clone)]
pub(super) struct ClassScope {
    /// The parameters with the values they were given or defaulted to.
    params: IndexMap<String, Value>,
    /// Every variable of the class's scope (parameters included).
    variables: super::Scope,
    /// The class it inherits from: its variables are visible as this class's.
    parent: Option<String>,
    /// False while the class is being evaluated, or when part of its body could not be
    /// (a variable it lacks may then still exist in Puppet).
    complete: bool,
}

impl ClassScope {
    /// Freezes the class's variables, so that copies share them (`Evaluator::suspend`).
    pub(super) fn freeze(&mut self) {
        self.variables.fork();
    }
}

/// The parameters of the class being declared whose defaults are not evaluated yet: a
/// default may only read the parameters before it.
pub(super) struct PendingParams {
    class: String,
    param: String,
    later: Vec<String>,
}

/// `::Foo::Bar` is the class `foo::bar`.
fn class_key(name: &str) -> String {
    name.trim_start_matches("::").to_lowercase()
}

/// How Puppet names a class in messages: `Class[Foo::Bar]`.
fn display_name(key: &str) -> String {
    crate::types::display::capitalize_segments(key)
}

fn failed(message: String) -> EvalError {
    EvalError::Failed(message)
}

impl<'a> Evaluator<'a> {
    /// Makes the classes defined in `program` (nested ones too, as `outer::inner`)
    /// known to this evaluator; `module` is their `$module_name`.
    pub fn define_classes(&mut self, program: &'a Program, module: &str) {
        self.define_classes_in(&program.body, "", module);
    }

    fn define_classes_in(&mut self, statements: &'a [Expr], outer: &str, module: &str) {
        for statement in statements {
            if let ExprKind::Class(def) = &statement.kind {
                let key = crate::env::qualified_name(outer, &def.name.name);
                self.define_classes_in(&def.body.statements, &key, module);
                self.classes.insert(
                    key,
                    ClassDefinition {
                        def,
                        module: module.to_string(),
                    },
                );
            }
        }
    }

    /// `include a, b` (also `contain`, `require`): declares each class named by a
    /// string, a `Class[x]` or an array of those; the value is the array of `Class[x]`.
    pub(super) fn include(&mut self, function: &str, args: &[Value]) -> R<Value> {
        self.classes_are_all_known()?;
        let mut names = Vec::new();
        let refused = |v: &Value, _index: usize| match v {
            Value::Undef => failed("Cannot use undef as a class name".into()),
            Value::String(s) if s.is_empty() => {
                failed("Cannot use empty string as a class name".into())
            }
            // (Puppet fails here with a Ruby NoMethodError and the lines of its own
            // source; pupcheck says what is wrong instead.)
            Value::Type(ty) => failed(format!(
                "'{function}' expects a class name or a Class[name], got {ty}"
            )),
            other => failed(format!("'{function}' expects a class name, got {other}")),
        };
        collect_class_names(args, &mut names, &refused)
            .map_err(|e| prefixed("Function Call", e))?;
        let mut declared = Vec::with_capacity(names.len());
        for name in names {
            self.declare_class(&name, IndexMap::new(), false)
                .map_err(|e| prefixed("Function Call", e))?;
            declared.push(Value::Type(t::class_named(Some(&class_key(&name)))));
        }
        Ok(Value::array(declared))
    }

    /// `class { 'x': param => value }`: declares each titled class with the given
    /// parameters; the value is the array of references `Class['X']`.
    pub(super) fn class_resource(&mut self, resource: &ResourceExpr) -> R<AbstractValue> {
        self.classes_are_all_known()?;
        let mut references = Vec::new();
        for body in &resource.bodies {
            let mut titles = Vec::new();
            collect_class_names(&[self.known(&body.title)?], &mut titles, &refused_title)?;
            let mut given = IndexMap::new();
            for attribute in &body.attributes {
                let value = self.known(&attribute.value)?;
                if attribute.name.name == "*" {
                    let Value::Hash(map) = value else {
                        return Err(failed(format!(
                            "Expected value of type Hash, got {}",
                            infer_generalized(&value)
                        )));
                    };
                    for (k, v) in map.iter() {
                        given.insert(super::query::string_form(k), v.clone());
                    }
                } else {
                    given.insert(attribute.name.name.clone(), value);
                }
            }
            for title in titles {
                self.declare_class(&title, given.clone(), true)
                    .map_err(|e| prefixed("Resource Statement", e))?;
                let shown = display_name(&class_key(&title));
                references.push(Value::Type(t::resource_named(Some("Class"), Some(&shown))));
            }
        }
        Ok(AbstractValue::Known(Value::array(references)))
    }

    /// Evaluates the class `name` unless it already was. A resource-like declaration
    /// (`class { 'x': }`) of a class declared before is an error; `include` is not.
    fn declare_class(
        &mut self,
        name: &str,
        mut given: IndexMap<String, Value>,
        resource_like: bool,
    ) -> R<()> {
        let key = class_key(name);
        let shown = format!("Class[{}]", display_name(&key));
        if self.declared.contains_key(&key) {
            return if resource_like {
                Err(failed(format!(
                    "Duplicate declaration: {shown} is already declared; cannot redeclare"
                )))
            } else {
                Ok(())
            };
        }
        let Some(definition) = self.classes.get(&key) else {
            return Err(failed(format!("Could not find class ::{key}")));
        };
        let (def, module) = (definition.def, definition.module.clone());
        let parent = match &def.parent {
            Some(parent) => {
                let parent = class_key(&parent.name);
                self.declare_class(&parent, IndexMap::new(), false)?;
                Some(parent)
            }
            None => None,
        };
        for name in given.keys() {
            let known = def.params.iter().flatten().any(|p| &p.name.name == name);
            // `name` and `title` are accepted too (the resource's own).
            let own = matches!(name.as_str(), "name" | "title");
            if !known && !own && !crate::builtin::is_metaparameter_or_retired(name) {
                return Err(failed(format!("{shown}: has no parameter named '{name}'")));
            }
        }
        // Declared from here on: a class that includes itself (directly or not) does
        // not evaluate it again.
        self.declared.insert(key.clone(), ClassScope::default());

        // The class's scope: the top scope, then what it inherits, then its own.
        let mut outer = std::mem::take(&mut self.scopes);
        let mut stack = vec![std::mem::take(&mut outer[0])];
        if let Some(parent) = &parent {
            stack.push(self.declared[parent].variables.clone());
        }
        let mut own = super::Scope::default();
        let known = |v: Value| AbstractValue::Known(v);
        own.insert("name".to_string(), known(Value::string(&key)));
        own.insert("title".to_string(), known(Value::string(&key)));
        own.insert("module_name".to_string(), known(Value::string(&module)));
        stack.push(own);
        self.scopes = stack;
        let saved_groups = std::mem::take(&mut self.match_groups);

        let result = self
            .bind_class_parameters(def, &shown, &mut given)
            .map(|params| (params, self.evaluate_body(def)));

        self.match_groups = saved_groups;
        let mut stack = std::mem::take(&mut self.scopes);
        let mut variables = stack.pop().unwrap_or_default();
        // Frozen: a class that inherits from this one starts from a copy of them.
        variables.fork();
        outer[0] = stack.swap_remove(0);
        self.scopes = outer;

        let (params, complete) = match result {
            Ok((params, Ok(()))) => (params, true),
            // The body went past what pupcheck evaluates: what it set so far stays.
            Ok((params, Err(EvalError::Unsupported(_)))) => (params, false),
            Ok((_, Err(e))) | Err(e) => {
                self.declared.remove(&key);
                return Err(e);
            }
        };
        let scope = self.declared.get_mut(&key).expect("inserted above");
        scope.params = params;
        scope.variables = variables;
        scope.complete = complete;
        scope.parent = parent;
        Ok(())
    }

    /// Binds the parameters: given values, else defaults, each checked against its type.
    fn bind_class_parameters(
        &mut self,
        def: &'a ClassDef,
        shown: &str,
        given: &mut IndexMap<String, Value>,
    ) -> R<IndexMap<String, Value>> {
        let params = def.params.as_deref().unwrap_or(&[]);
        let mut values = IndexMap::new();
        let mut failure = None;
        let mut bound_so_far = 0;
        let mut value_of = |evaluator: &mut Self, p: &'a crate::ast::Parameter| {
            let i = bound_so_far;
            bound_so_far += 1;
            match evaluator.class_parameter(params, i, p, shown, given) {
                Ok(value) => {
                    values.insert(p.name.name.clone(), value.clone());
                    super::Binding::To(AbstractValue::Known(value))
                }
                Err(e) => {
                    failure = Some(e);
                    super::Binding::Refused
                }
            }
        };
        let _ = self.bind_parameters(None, params, &mut value_of);
        match failure {
            Some(e) => Err(e),
            None => Ok(values),
        }
    }

    /// The value of the `i`th parameter `p` of a class declared as `shown`: the one
    /// given, else its default (evaluated seeing the parameters before it), checked
    /// against its type.
    fn class_parameter(
        &mut self,
        params: &[crate::ast::Parameter],
        i: usize,
        p: &crate::ast::Parameter,
        shown: &str,
        given: &mut IndexMap<String, Value>,
    ) -> R<Value> {
        let name = &p.name.name;
        let value = match (given.shift_remove(name), &p.default) {
            (Some(v), _) => v,
            (None, Some(default)) => {
                self.pending = Some(PendingParams {
                    class: shown.to_string(),
                    param: name.clone(),
                    later: params[i..].iter().map(|p| p.name.name.clone()).collect(),
                });
                let v = self.known(default);
                self.pending = None;
                v?
            }
            (None, None) => {
                return Err(failed(format!(
                    "{shown}: expects a value for parameter '{name}'"
                )));
            }
        };
        if let Some(type_expr) = &p.type_expr {
            self.check_parameter(shown, name, type_expr, &value)?;
        }
        Ok(value)
    }

    fn evaluate_body(&mut self, def: &'a ClassDef) -> R<()> {
        for statement in &def.body.statements {
            self.match_groups.clear();
            self.eval(statement)?;
        }
        Ok(())
    }

    fn check_parameter(&mut self, shown: &str, name: &str, type_expr: &Expr, v: &Value) -> R<()> {
        let ty = self.resolve_type(type_expr)?;
        if instance_of(v, &ty) {
            return Ok(());
        }
        let why = describe_value(&ty, v, &[PathElem::Parameter(name.to_string())]);
        // Puppet's `validate_parameters`: one reason on the line, several each on a
        // line of their own, indented.
        Err(failed(match why.as_slice() {
            [one] => format!("{shown}: {one}"),
            several => format!("{shown}:\n  {}", several.join("\n  ")),
        }))
    }

    /// Classes are declared only where all the code there is was given: elsewhere a
    /// class the evaluation has not seen may be defined or declared by code it does not
    /// read (other manifests, a node classifier), so nothing about them is certain.
    fn classes_are_all_known(&self) -> R<()> {
        if self.closed_world {
            Ok(())
        } else {
            Err(EvalError::Unsupported(
                "classes, outside a closed world".into(),
            ))
        }
    }

    /// A default expression reading a parameter that comes after it is Puppet's error.
    pub(super) fn check_not_pending(&self, variable: &str) -> R<()> {
        match &self.pending {
            Some(p) if p.later.iter().any(|l| l == variable) => Err(failed(format!(
                "{}: default expression for ${} tries to illegally access not yet evaluated ${variable}",
                p.class, p.param
            ))),
            _ => Ok(()),
        }
    }

    /// `$class::variable`: what the class left, once declared.
    /// `$class::variable`: what the class (or a class it inherits from) left, once
    /// declared.
    pub(super) fn class_variable(&self, class: &str, variable: &str) -> AbstractValue {
        let mut key = class_key(class);
        loop {
            let Some(scope) = self.declared.get(&key) else {
                // Maybe declared by code pupcheck does not evaluate, or later.
                return self.unknown_variable();
            };
            if let Some(v) = scope.variables.get(variable) {
                return v.clone();
            }
            if !scope.complete {
                return AbstractValue::Inferred(t::any());
            }
            match &scope.parent {
                Some(parent) => key = parent.clone(),
                // Puppet warns about an unknown variable and reads undef.
                None => return AbstractValue::Known(Value::Undef),
            }
        }
    }

    /// `[$a, $b] = Class[x]`: the class's variable (a parameter or not), which must
    /// exist.
    pub(super) fn class_variable_for_assignment(&self, class: &str, variable: &str) -> R<Value> {
        self.classes_are_all_known()?;
        let key = class_key(class);
        if !self.declared.contains_key(&key) {
            return Err(failed(format!("Resource not found: Class['{key}']")));
        }
        match self.class_variable(&key, variable) {
            AbstractValue::Known(v) if self.has_variable(&key, variable) => Ok(v),
            AbstractValue::Known(_) => Err(failed(format!(
                "No value for required variable '${key}::{variable}' in assignment to variables from class reference"
            ))),
            AbstractValue::Inferred(_) => Err(EvalError::Unsupported(format!(
                "a variable of Class['{key}'], whose evaluation stopped"
            ))),
        }
    }

    /// Whether the class (or one it inherits from) has the variable.
    fn has_variable(&self, key: &str, variable: &str) -> bool {
        let mut key = key.to_string();
        while let Some(scope) = self.declared.get(&key) {
            if scope.variables.contains_key(variable) {
                return true;
            }
            match &scope.parent {
                Some(parent) => key = parent.clone(),
                None => return false,
            }
        }
        false
    }

    /// `Class[x][p]`, `Class[x][p, q]`: the values a declared class's parameters have.
    pub(super) fn class_parameters(&self, class: &str, keys: &[Value]) -> R<Value> {
        let key = class_key(class);
        let Some(scope) = self.declared.get(&key) else {
            return Err(failed(format!("Resource not found: Class['{key}']")));
        };
        let mut values = Vec::with_capacity(keys.len());
        for k in keys {
            let name = super::query::string_form(k);
            match scope.params.get(&name) {
                Some(v) => values.push(v.clone()),
                None if !scope.complete => {
                    return Err(EvalError::Unsupported(format!(
                        "a parameter of Class['{key}'], whose evaluation stopped"
                    )))
                }
                None => {
                    return Err(failed(format!(
                        "The resource Class['{key}'] does not have a parameter called '{name}'"
                    )))
                }
            }
        }
        Ok(match values.len() {
            1 => values.pop().expect("one value"),
            _ => Value::array(values),
        })
    }
}

/// The class names in `include`'s (or a class resource's title's) arguments, arrays
/// flattened; `refused` words the error for a value that names no class, given its
/// index among the names.
/// Puppet's error for a title it refuses, `index` its place among the titles.
fn refused_title(v: &Value, index: usize) -> EvalError {
    match v {
        Value::Undef => failed("Missing title. The title expression resulted in undef".into()),
        Value::String(_) => failed(format!(
            "Empty string title at {index}. Title strings must have a length greater than zero."
        )),
        other => failed(format!(
            "Illegal title type at index {index}. Expected String, got {}",
            infer_generalized(other)
        )),
    }
}

/// The first title of `titles` (arrays flattened) Puppet refuses for a resource:
/// anything but a non-empty string.
fn refused_resource_title(titles: &[Value], index: &mut usize) -> Option<EvalError> {
    for title in titles {
        match title {
            Value::String(s) if !s.is_empty() => *index += 1,
            Value::Array(items) => {
                if let Some(refused) = refused_resource_title(items, index) {
                    return Some(refused);
                }
            }
            other => return Some(refused_title(other, *index)),
        }
    }
    None
}

impl Evaluator<'_> {
    /// A resource body's title (other than a class's, judged where it is declared)
    /// Puppet refuses ("Illegal title type at index 0. Expected String, got Integer"),
    /// known from the code or by a type no title has (a number, a boolean): noted
    /// among the failures, at the title.
    pub fn check_resource_title(
        &mut self,
        resource: &ResourceExpr,
        title: &Expr,
        value: &AbstractValue,
    ) {
        let is_class = matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "class");
        if is_class || matches!(title.kind, ExprKind::Default) {
            return;
        }
        let refused = match value {
            AbstractValue::Known(v) => refused_resource_title(std::slice::from_ref(v), &mut 0),
            AbstractValue::Inferred(t) => match t.kind() {
                Kind::Integer(_) | Kind::Float(_) | Kind::Boolean(_) => Some(failed(format!(
                    "Illegal title type at index 0. Expected String, got {}",
                    crate::types::mismatch::simple_name(t)
                ))),
                _ => None,
            },
        };
        let Some(EvalError::Failed(message)) = refused else {
            return;
        };
        let failure = super::Failure {
            message,
            span: title.span,
            kind: super::FailureKind::Other,
        };
        if self.failures.contains(&failure) {
            return;
        }
        if self.uncertain > 0 {
            self.conditional.push(failure.span);
        }
        self.failures.push(failure);
    }
}

/// The classes `include`-like arguments name (strings, `Class[x]`, arrays of those), as
/// Puppet keys them (`::Foo` is `foo`); none when one is not a class name.
pub fn class_names(args: &[Value]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    collect_class_names(args, &mut names, &|_, _| failed(String::new())).ok()?;
    Some(names.iter().map(|n| class_key(n)).collect())
}

fn collect_class_names(
    args: &[Value],
    out: &mut Vec<String>,
    refused: &dyn Fn(&Value, usize) -> EvalError,
) -> R<()> {
    for a in args {
        match a {
            Value::String(s) if !s.is_empty() => out.push(s.to_string()),
            Value::Array(items) => collect_class_names(items, out, refused)?,
            Value::Type(ty) => match ty.kind() {
                Kind::Class(Some(name)) => out.push(name.to_string()),
                Kind::Resource {
                    type_name: Some(ty),
                    title: Some(title),
                } if ty.eq_ignore_ascii_case("class") => out.push(title.to_string()),
                _ => return Err(refused(a, out.len())),
            },
            other => return Err(refused(other, out.len())),
        }
    }
    Ok(())
}

/// Puppet's "Error while evaluating a Function Call, ..." around an error of a
/// declaration.
fn prefixed(what: &str, e: EvalError) -> EvalError {
    match e {
        EvalError::Failed(m) if !m.starts_with("Error while evaluating") => {
            EvalError::Failed(format!("Error while evaluating a {what}, {m}"))
        }
        EvalError::FailedAs(m, kind) if !m.starts_with("Error while evaluating") => {
            EvalError::FailedAs(format!("Error while evaluating a {what}, {m}"), kind)
        }
        EvalError::FailedAt(mut failure)
            if !failure.message.starts_with("Error while evaluating") =>
        {
            failure.message = format!("Error while evaluating a {what}, {}", failure.message);
            EvalError::FailedAt(failure)
        }
        other => other,
    }
}
