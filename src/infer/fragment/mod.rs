//! What each body of a file gives a catalog, read off the file's interpretation: the
//! resources it declares, the classes it includes or declares, in the order Puppet
//! evaluates them, each marked certain when the walk reached it on every path of the
//! body. The catalog pass (the layer above) joins the fragments of an environment
//! along the includes; a fragment never looks past its own body.
//!
//! A value the walk did not know (a title known only by its type, an include of a
//! computed name) is kept as unknown: the join judges only what is known.

mod iterations;
pub(crate) mod relationships;

use super::{AbstractValue, FileInference};
use crate::ast::{Expr, ExprKind, ResourceForm, Visitor};
use crate::source::Span;
use crate::types::Value;

/// What one body gives a catalog.
#[derive(Debug, Clone)]
pub struct Fragment {
    pub body: Body,
    /// Where the definition is (the whole file for its top-level code).
    pub span: Span,
    /// In the order Puppet evaluates them.
    pub events: Vec<Event>,
}

/// Which body a fragment is of.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// The code of a file outside its definitions.
    TopLevel,
    /// A class, by its key (`profile::web`), and the class it inherits from.
    Class {
        name: String,
        parent: Option<String>,
    },
    /// A defined type, by its key.
    Define { name: String },
    /// A node definition: what its names match, as written (`'web01'`, `/^db/`,
    /// `default`).
    Node { names: Vec<String> },
}

/// Something a body does that a catalog holds.
#[derive(Debug, Clone)]
pub struct Event {
    /// The title declared (a resource's or a class's), or the call.
    pub span: Span,
    /// Whether Puppet evaluates it whenever it evaluates the body.
    pub certain: bool,
    pub kind: EventKind,
}

#[derive(Debug, Clone)]
pub enum EventKind {
    /// A resource (or a defined type's instance): its type in lower case and its
    /// titles, when known.
    Declare {
        type_name: String,
        titles: Option<Vec<String>>,
        form: ResourceForm,
        /// The key attributes it gives, for the aliases Puppet makes.
        keys: Keys,
        /// What a listing of the catalog shows (`Detail::Values` only).
        detail: Option<Box<Declared>>,
    },
    /// `include`, `contain` or `require` of these classes, when known; `contained`
    /// for `contain` (the body contains them too).
    Include {
        classes: Option<Vec<String>>,
        contained: bool,
    },
    /// `class { 'x': }`: a resource-like declaration of these classes, when known.
    DeclareClass {
        classes: Option<Vec<String>>,
        /// What a listing of the catalog shows (`Detail::Values` only).
        detail: Option<Box<Declared>>,
    },
    /// Resource defaults, an override or a collector's override set an attribute that
    /// may be a key attribute of this type (of any type, when the type is not known):
    /// declarations of it may have keys their own attributes do not say.
    KeysMayChange { type_name: Option<String> },
    /// Puppet stops evaluating here (an error the walk found, a `fail`, a duplicate
    /// within the body): nothing after it is in any catalog.
    Stop,
    /// Relationships to these resources (not classes), each with the error Puppet
    /// raises when the catalog lacks it.
    Relate { targets: Vec<Target> },
    /// Code that may put resources of this type (of any type: `None`) in a catalog
    /// under titles not known here: a collector (exported resources of other nodes, a
    /// virtual one realized), a resource-making function, a declaration whose type is
    /// not written out, or one that gives a resource another name (`alias`, a namevar,
    /// `* =>`).
    MayDeclare { type_name: Option<String> },
    /// An override (`File['x'] { ... }`, a collector's `{ ... }`) that sets a
    /// relationship metaparameter (or may, through `* =>`): it may remove or replace the
    /// relationships of resources declared anywhere in the catalog.
    RelationshipsMayChange,
}

/// A resource a relationship names.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// In lower case (`package`).
    pub type_name: String,
    pub title: String,
    /// Puppet's error when no resource of the catalog is this one (`Could not find
    /// resource 'Package[nope]' in parameter 'require'`).
    pub message: String,
}

/// The key attributes a declaration of one of Puppet's isomorphic types gives
/// (`Resource#uniqueness_key`'s parts): two declarations with one key are one resource.
#[derive(Debug, Clone)]
pub enum Keys {
    /// Not such a type.
    None,
    /// Given with a value not known (or maybe through `* =>`).
    Unknown,
    /// The key attributes given (the namevar also as `name`), with their values.
    Given(Vec<(String, String)>),
}

/// What a declaration gives a listing of the catalog: its title and attributes as the
/// walk knew them (`None`: not evaluated there).
#[derive(Debug, Clone)]
pub struct Declared {
    pub title: Option<AbstractValue>,
    pub attributes: Vec<(String, Option<AbstractValue>)>,
}

/// How much a fragment keeps: what the catalog pass judges, or also the values a
/// listing of the catalog shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    References,
    Values,
}

/// The fragments of every body of a file, given its interpretation.
pub fn fragments(
    program: &crate::ast::Program,
    record: &FileInference,
    detail: Detail,
) -> Vec<Fragment> {
    let mut out = Vec::new();
    let top = Span::new(0, u32::MAX);
    // Where Puppet certainly stops (an error of code it runs, a duplicate within a
    // body), in order: each body takes those in its span.
    let mut stops: Vec<Span> = record.failures().iter().map(|f| f.span).collect();
    stops.extend(record.duplicates().iter().map(|d| d.at));
    stops.sort_by_key(|s| (s.start, s.end));
    let record = Record {
        record,
        detail,
        stops,
    };
    out.push(fragment(Body::TopLevel, top, &program.body, &record));
    definitions(&program.body, "", &record, &mut out);
    out
}

/// The interpretation read, and how much of it is kept.
struct Record<'r> {
    record: &'r FileInference,
    detail: Detail,
    /// Where Puppet certainly stops, in order.
    stops: Vec<Span>,
}

fn definitions(statements: &[Expr], outer: &str, record: &Record, out: &mut Vec<Fragment>) {
    for statement in statements {
        match &statement.kind {
            ExprKind::Class(c) => {
                let name = crate::env::qualified_name(outer, &c.name.name);
                let parent = c
                    .parent
                    .as_ref()
                    .map(|p| crate::env::definition_key(&p.name));
                let body = Body::Class {
                    name: name.clone(),
                    parent,
                };
                out.push(fragment(body, statement.span, &c.body.statements, record));
                definitions(&c.body.statements, &name, record, out);
            }
            ExprKind::Define(d) => {
                let name = crate::env::qualified_name(outer, &d.name.name);
                let body = Body::Define { name };
                out.push(fragment(body, statement.span, &d.body.statements, record));
            }
            ExprKind::Node(n) => {
                let names = n.matches.iter().map(node_match).collect();
                let body = Body::Node { names };
                out.push(fragment(body, statement.span, &n.body.statements, record));
            }
            _ => {}
        }
    }
}

fn node_match(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::String(s) => s.value.clone(),
        ExprKind::Name(s) => s.clone(),
        ExprKind::Regex(r) => format!("/{r}/"),
        ExprKind::Default => "default".into(),
        _ => "?".into(),
    }
}

fn fragment(body: Body, span: Span, statements: &[Expr], record: &Record) -> Fragment {
    let mut collect = Collect {
        record: record.record,
        detail: record.detail,
        events: Vec::new(),
        iterations: Vec::new(),
        defaults_related: std::collections::HashMap::new(),
    };
    for statement in statements {
        collect.visit_expr(statement);
    }
    let mut events = collect.events;
    // The stops in the body's statements (not in its nested definitions).
    let first = record.stops.partition_point(|s| s.start < span.start);
    let last = record.stops.partition_point(|s| s.start < span.end);
    for &at in &record.stops[first..last] {
        // The statement that may hold it (statements are in order: one search).
        let next = statements.partition_point(|s| s.span.start <= at.start);
        let within = next
            .checked_sub(1)
            .map(|i| &statements[i])
            .is_some_and(|s| !s.kind.is_definition() && super::enclosing::contains(s.span, at));
        if within {
            events.push(Event {
                span: at,
                certain: true,
                kind: EventKind::Stop,
            });
        }
    }
    // (A stop at a declaration comes before it: Puppet raises there.)
    events.sort_by_key(|e| (e.span.start, e.span.end, !matches!(e.kind, EventKind::Stop)));
    Fragment { body, span, events }
}

/// The events of a body's statements, not entering nested definitions.
struct Collect<'r> {
    record: &'r FileInference,
    detail: Detail,
    events: Vec<Event>,
    /// The iterations over known collections around the expression walked, innermost
    /// last.
    iterations: Vec<iterations::Iteration>,
    /// The resource defaults whose relationships are events already (by where their
    /// value is written), and whether certainly.
    defaults_related: std::collections::HashMap<Span, bool>,
}

impl Collect<'_> {
    fn known(&self, expr: &Expr) -> Option<&Value> {
        match self.record.value(expr)? {
            super::AbstractValue::Known(v) => Some(v),
            super::AbstractValue::Inferred(_) => None,
        }
    }

    fn resource(&mut self, expr: &Expr, resource: &crate::ast::ResourceExpr) {
        if self.record.is_skipped(expr) {
            return;
        }
        let type_name = match &resource.type_expr.kind {
            ExprKind::Name(name) => crate::env::definition_key(name),
            _ => {
                self.may_declare(expr, None);
                return;
            }
        };
        self.relationships_of(expr, &type_name, resource);
        for body in &resource.bodies {
            // A title the walk knows only by type, in a lambda over a known collection:
            // the title of each turn.
            let iterated = match self.known(&body.title) {
                Some(_) => None,
                None => self
                    .iterations
                    .last()
                    .and_then(|turns| turns.titles(&body.title)),
            };
            let every_turn = match self.iterations.as_slice() {
                [only] => only.certain && only.runs_every_turn(expr.span),
                _ => false,
            };
            let certain = self.record.is_certain(&body.title) || (iterated.is_some() && every_turn);
            let iterated = iterated.map(|titles| Value::Array(std::sync::Arc::new(titles)));
            let detail = (self.detail == Detail::Values).then(|| {
                Box::new(Declared {
                    title: self.record.value(&body.title).cloned(),
                    attributes: body
                        .attributes
                        .iter()
                        .map(|a| (a.name.name.clone(), self.record.value(&a.value).cloned()))
                        .collect(),
                })
            });
            let kind = if type_name == "class" {
                let classes = self
                    .known(&body.title)
                    .and_then(|v| crate::eval::class_names(std::slice::from_ref(v)));
                EventKind::DeclareClass { classes, detail }
            } else {
                let titles = self
                    .known(&body.title)
                    .or(iterated.as_ref())
                    .and_then(crate::eval::title_strings);
                EventKind::Declare {
                    type_name: type_name.clone(),
                    titles,
                    form: resource.form,
                    keys: self.keys(&type_name, body),
                    detail,
                }
            };
            self.events.push(Event {
                span: body.title.span,
                certain,
                kind,
            });
        }
    }

    /// The key attributes a body of a built-in isomorphic type gives.
    fn keys(&self, type_name: &str, body: &crate::ast::ResourceBody) -> Keys {
        let Some(resource_type) = crate::builtin::resource_type(type_name) else {
            return Keys::None;
        };
        if resource_type.key_attributes.is_empty() {
            return Keys::None;
        }
        let mut given = Vec::new();
        for attribute in &body.attributes {
            let name = attribute.name.name.as_str();
            let namevar = resource_type.title_attribute.as_deref();
            let key = match name {
                "*" => return Keys::Unknown,
                // `name` is every type's other name for its namevar.
                "name" => namevar.unwrap_or("name"),
                other if resource_type.key_attributes.iter().any(|k| k == other) => other,
                _ => continue,
            };
            match self.known(&attribute.value) {
                Some(Value::String(v)) => given.push((key.to_string(), v.to_string())),
                _ => return Keys::Unknown,
            }
        }
        Keys::Given(given)
    }

    /// Resource defaults, overrides and collectors' overrides that set an attribute
    /// which may be a key attribute (or may set any, through `* =>`).
    fn keys_may_change(&mut self, expr: &Expr) {
        let (type_expr, attributes) = match &expr.kind {
            ExprKind::ResourceDefaults(d) => (Some(&d.type_ref), &d.attributes),
            ExprKind::ResourceOverride(o) => (None, &o.attributes),
            ExprKind::Collector(c) => match &c.overrides {
                Some(attributes) => (Some(&c.type_expr), attributes),
                None => return,
            },
            _ => return,
        };
        let keyish = |name: &str| {
            name == "*"
                || name == "name"
                || name == "alias"
                || crate::builtin::resource_types_keys().any(|k| k == name)
        };
        if !attributes.iter().any(|a| keyish(&a.name.name)) {
            return;
        }
        let type_name = type_expr.and_then(|t| match &t.kind {
            ExprKind::Name(n) | ExprKind::TypeRef(n) => Some(crate::env::definition_key(n)),
            _ => None,
        });
        self.events.push(Event {
            span: expr.span,
            certain: false,
            kind: EventKind::KeysMayChange { type_name },
        });
    }

    fn call(&mut self, expr: &Expr, call: &crate::ast::Call) {
        if self.record.is_skipped(expr) {
            return;
        }
        let Some(name) = crate::ast::called_name(expr) else {
            return;
        };
        let certain = self.record.is_certain(expr);
        let kind = match name {
            "include" | "contain" | "require" => {
                let args: Option<Vec<Value>> =
                    call.args.iter().map(|a| self.known(a).cloned()).collect();
                let classes = args.and_then(|args| crate::eval::class_names(&args));
                EventKind::Include {
                    classes,
                    contained: name == "contain",
                }
            }
            "fail" => EventKind::Stop,
            // What stdlib's and Puppet's resource-making functions declare, for a
            // listing only: `ensure_*` declares what is not declared yet (no duplicate,
            // nothing the catalog pass judges), `create_resources` as a declaration
            // would, but its attributes come from a hash the walk may not know.
            _ if self.detail == Detail::Values => match self.made_resources(name, call) {
                Some(kind) => kind,
                None => return,
            },
            _ => {
                if let Some(type_name) =
                    relationships::may_make_resources(name, call, |e| self.known(e))
                {
                    self.may_declare(expr, type_name);
                }
                return;
            }
        };
        self.events.push(Event {
            span: expr.span,
            certain,
            kind,
        });
    }
}

impl Collect<'_> {
    /// The resources a call of `create_resources`, `ensure_resource(s)` or
    /// `ensure_packages` declares: their type (as far as the call says it) and titles
    /// (when its arguments are known).
    fn made_resources(&self, name: &str, call: &crate::ast::Call) -> Option<EventKind> {
        let arg = |i: usize| call.args.get(i).and_then(|a| self.known(a));
        let keys = |value: Option<&Value>| match value {
            Some(Value::Hash(hash)) => hash
                .keys()
                .map(|k| match k {
                    Value::String(s) if !s.is_empty() => Some(s.to_string()),
                    _ => None,
                })
                .collect::<Option<Vec<String>>>(),
            _ => None,
        };
        let (written_type, titles) = match name.trim_start_matches("::") {
            "create_resources" | "ensure_resources" => {
                let Some(Value::String(t)) = arg(0) else {
                    return None;
                };
                (t.to_string(), keys(arg(1)))
            }
            "ensure_resource" => {
                let Some(Value::String(t)) = arg(0) else {
                    return None;
                };
                (t.to_string(), arg(1).and_then(crate::eval::title_strings))
            }
            "ensure_packages" | "stdlib::ensure_packages" => {
                let titles = match arg(0) {
                    Some(hash @ Value::Hash(_)) => keys(Some(hash)),
                    Some(other) => crate::eval::title_strings(other),
                    None => None,
                };
                ("package".to_string(), titles)
            }
            _ => return None,
        };
        // `create_resources('@@nagios_host', ...)`: exported (`@`: virtual).
        let (form, bare) = if let Some(t) = written_type.strip_prefix("@@") {
            (ResourceForm::Exported, t)
        } else if let Some(t) = written_type.strip_prefix('@') {
            (ResourceForm::Virtual, t)
        } else {
            (ResourceForm::Regular, written_type.as_str())
        };
        let type_name = crate::env::definition_key(bare);
        if type_name.is_empty() || type_name == "class" {
            return None;
        }
        Some(EventKind::Declare {
            type_name,
            titles,
            form,
            keys: Keys::Unknown,
            detail: Some(Box::new(Declared {
                title: None,
                attributes: Vec::new(),
            })),
        })
    }
}

impl Collect<'_> {
    /// The turns of `each` or `map` over a collection the walk knows.
    fn iteration(&self, expr: &Expr) -> Option<iterations::Iteration> {
        let (collection, lambda) = match &expr.kind {
            ExprKind::Call(call) => (call.args.first()?, call.lambda.as_ref()?),
            ExprKind::MethodCall(call) => (&call.receiver, call.lambda.as_ref()?),
            _ => return None,
        };
        let function = crate::ast::called_name(expr)?;
        let certain = self.record.is_certain(expr) && !self.record.is_skipped(expr);
        iterations::Iteration::of(function, self.known(collection)?, lambda, certain)
    }
}

impl<'p> Visitor<'p> for Collect<'_> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        match &expr.kind {
            kind if kind.is_definition() => return,
            ExprKind::Resource(resource) => self.resource(expr, resource),
            ExprKind::Call(call) => self.call(expr, call),
            ExprKind::ResourceDefaults(_) => self.keys_may_change(expr),
            ExprKind::ResourceOverride(o) => {
                self.keys_may_change(expr);
                self.relationships_may_change(expr, &o.attributes);
            }
            ExprKind::Collector(collector) => {
                self.keys_may_change(expr);
                if let Some(attributes) = &collector.overrides {
                    self.relationships_may_change(expr, attributes);
                }
                let type_name = match &collector.type_expr.kind {
                    ExprKind::Name(n) | ExprKind::TypeRef(n) => Some(crate::env::definition_key(n)),
                    _ => None,
                };
                self.may_declare(expr, type_name);
            }
            ExprKind::Relationship { .. } => self.arrow(expr),
            _ => {}
        }
        match self.iteration(expr) {
            Some(iteration) => {
                self.iterations.push(iteration);
                crate::ast::walk_expr(self, expr);
                self.iterations.pop();
            }
            None => crate::ast::walk_expr(self, expr),
        }
    }
}
