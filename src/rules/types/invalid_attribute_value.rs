use crate::infer::declarations::{capitalized, each_ruby_resource, RubyResource};
use crate::infer::ExprId;
use crate::rules::InterpretedFile;
use crate::diagnostics::Diagnostic;
use crate::eval::AbstractValue;
use crate::types::from_ast::parse_type_expr;
use crate::types::instance_of;
use crate::types::mismatch::{describe_value, each_named};
use crate::types::resolve::Resolver;
use crate::types::labels::ruby_inspect;
use crate::types::value::Value;

declare_rule! {
    /// ## What it does
    /// Reports a value, known from the code, that an attribute of a resource type written in
    /// Ruby rejects:
    /// - where the type accepts only a closed list of values for the attribute (`replace` of
    ///   `file`, `ensure` of `service`, `ensure` of `mount`, the `newvalues` of a module's
    ///   type) and the value is neither one of them nor one of their aliases;
    /// - where a Resource API type declares the attribute's Puppet type (`type:
    ///   'Optional[Integer[0, 65535]]'`) and the value is not an instance of it;
    /// - `mode` of `file` given a number (`mode => 644`, or the octal `0644`, which is the
    ///   number 420): Puppet's `file` type takes a mode only as a string.
    ///
    /// A `Deferred('join', [...])` value is judged as the agent resolves it, where the
    /// function is one of Puppet's that pupcheck runs and its arguments are known.
    ///
    /// A resource declared in an iteration over a known collection is judged with each
    /// element's values: the first element whose value is rejected fails, named by its
    /// title (`File[/etc/issue]`).
    ///
    /// Puppet's own types and those of the modules it ships (`cron`, `mount`, `host`,
    /// `sshkey`, ...) are data generated from Puppet itself (`data/resource_types.toml`); a
    /// module's types are read from `lib/puppet/type/<name>.rb` (see `unknown-attribute`).
    /// Attributes that validate values their own way (a `validate` block, a regexp among the
    /// values, a parent class) are not judged.
    ///
    /// ## Why it matters
    /// The catalog compiles, but the agent rejects it when it applies it ("Parameter force
    /// failed on File[/tmp/x]: Invalid value \"maybe\". Valid values are true, false, yes,
    /// no."), so nothing of that catalog is applied.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd': ensure => file, replace => 'never' }
    /// ```
    ///
    /// ## How to fix
    /// Use one of the listed values (`replace => false`).
    "invalid-attribute-value" (Type, Error)
    "A resource type written in Ruby is given a value its attribute does not accept"
    { reads_interpretation, check }
}

/// How Puppet compares a value with a listed name: strings as they are, booleans as
/// `true`/`false`; anything else is not judged here. With it, the value as Puppet's
/// message shows it (Ruby's `inspect`).
fn as_name(value: &Value) -> Option<(String, String)> {
    match value {
        Value::String(s) => Some((s.to_string(), ruby_inspect(value))),
        Value::Bool(b) => Some((b.to_string(), b.to_string())),
        _ => None,
    }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let mut resolver = Resolver::new(ctx.env);
    let record = ctx.inference();
    each_ruby_resource(ctx.view(), record, |resource| {
        // Inside an iteration over a known collection, each element's values too.
        let elements = record.element_values(&resource.body.title);
        for attribute in &resource.body.attributes {
            let attribute_name = &attribute.name.name;
            // A Deferred value is checked as the agent resolves it.
            let written = record
                .deferred_value(&attribute.value)
                .or_else(|| record.value(&attribute.value));
            let judged = match written {
                Some(AbstractValue::Known(value)) => {
                    rejections(&mut resolver, &resource, attribute_name, value)
                        .map(|whats| (resource.shown.clone(), whats))
                }
                _ => elements.iter().find_map(|values| {
                    let Some(AbstractValue::Known(value)) =
                        values.get(&ExprId::of(&attribute.value))
                    else {
                        return None;
                    };
                    let whats = rejections(&mut resolver, &resource, attribute_name, value)?;
                    // Puppet names the element's resource by its title.
                    let Some(AbstractValue::Known(Value::String(title))) =
                        values.get(&ExprId::of(&resource.body.title))
                    else {
                        return None;
                    };
                    Some((format!("{}[{title}]", capitalized(resource.type_name)), whats))
                }),
            };
            let Some((shown, whats)) = judged else {
                continue;
            };
            for what in whats {
                out.push(RULE.diagnostic(
                    attribute.value.span,
                    format!("Parameter {attribute_name} failed on {shown}: {what}"),
                ));
            }
        }
    });
}

/// Why the resource's type rejects `value` for `attribute`, in Puppet's words;
/// `None` when it takes it (as far as pupcheck can tell).
fn rejections(
    resolver: &mut Resolver,
    resource: &RubyResource,
    attribute: &str,
    value: &Value,
) -> Option<Vec<String>> {
    let mut whats = Vec::new();
    if let Some((name, shown)) = as_name(value) {
        if resource.resource_type.accepts_value(attribute, &name) == Some(false) {
            let listed = &resource.resource_type.values[attribute];
            whats.push(format!(
                "Invalid value {shown}. Valid values are {}.",
                listed.join(", ")
            ));
        }
    }
    if let Some(what) = validation_failure(resource.type_name, attribute, value) {
        whats.push(what);
    }
    if let Some(declared) = resource.resource_type.types.get(attribute) {
        if let Some(parts) = resource_api_mismatch(resolver, declared, value) {
            let subject = format!("{}.{attribute}", resource.type_name);
            whats.push(each_named(&subject, &parts));
        }
    }
    (!whats.is_empty()).then_some(whats)
}

/// What the `validate` block of one of Puppet's own attributes raises for `value`,
/// for the checks Puppet's resource types write in Ruby that the generated value lists
/// do not hold (each read from Puppet 7's `lib/puppet/type/<type>.rb`).
fn validation_failure(type_name: &str, attribute: &str, value: &Value) -> Option<String> {
    // Ruby's class names, as the messages show them.
    let ruby_class = match value {
        Value::Integer(_) => "Integer",
        Value::Float(_) => "Float",
        _ => return None,
    };
    let type_name = type_name.trim_start_matches("::").to_ascii_lowercase();
    match (type_name.as_str(), attribute) {
        // `mode => 644` (an octal number written without quotes is decimal in Puppet).
        ("file", "mode") => Some(format!(
            "The file mode specification must be a string, not '{ruby_class}'"
        )),
        _ => None,
    }
}

/// Why a Resource API type rejects `value` for an attribute declared `declared`, as
/// Puppet describes it; `None` when it accepts it or pupcheck cannot tell. Undef
/// leaves the attribute out. (The Resource API checks an array whole, unlike a
/// classic property, which checks each element.)
fn resource_api_mismatch(
    resolver: &mut Resolver,
    declared: &str,
    value: &Value,
) -> Option<Vec<String>> {
    if matches!(value, Value::Undef) {
        return None;
    }
    let expected = resolver.resolve(&parse_type_expr(declared).ok()?).ok()?;
    if !expected.patterns_runnable() || instance_of(value, &expected) {
        return None;
    }
    let parts = describe_value(&expected, value, &[]);
    (!parts.is_empty()).then_some(parts)
}
