//! Go to definition and find references.

use super::document::{position_in, Document};
use super::target::Target;
use super::workspace::Workspace;
use crate::ast::{walk_expr, Block, Expr, ExprKind, Lambda, Parameter, Program, Visitor};
use crate::env::symbols::SymbolKind;
use crate::env::{definition_key, Environment};
use crate::source::Span;
use lsp_types::{Location, Range, Url};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a name is defined: a file and the definition's kind and name in it.
pub struct Site {
    pub path: PathBuf,
    pub kind: Option<SymbolKind>,
    pub name: String,
}

/// The definition `target` names, in the index.
pub fn site(env: &Environment, target: &Target, here: &Path) -> Option<Site> {
    let at = |path: PathBuf, kind: SymbolKind, name: &str| Site {
        path,
        kind: Some(kind),
        name: definition_key(name),
    };
    match target {
        Target::Definition(kind, name) => Some(at(here.to_path_buf(), *kind, name)),
        Target::Class(name) => Some(at(env.class(name)?.path.clone(), SymbolKind::Class, name)),
        Target::Function(name) => match env.function(name) {
            Some(function) => Some(at(function.path.clone(), SymbolKind::Function, name)),
            None => ruby_function_file(env, name).map(|path| Site {
                path,
                kind: None,
                name: definition_key(name),
            }),
        },
        Target::ResourceType(name) => define_or_ruby_type(env, name),
        Target::TypeName(name) => match env.alias_path(name) {
            Some(path) => Some(at(path, SymbolKind::TypeAlias, name)),
            None => define_or_ruby_type(env, name),
        },
        Target::Template(name) => template_file(env, name).map(|path| Site {
            path,
            kind: None,
            name: name.clone(),
        }),
        Target::Variable(_) | Target::HieraKey(_) | Target::Attribute { .. } => None,
    }
}

/// The file a template name (`ntp/ntp.conf.epp`) stands for: `templates/ntp.conf.epp`
/// of the module `ntp`.
pub fn template_file(env: &Environment, name: &str) -> Option<PathBuf> {
    let (module, inside) = name.split_once('/')?;
    if inside
        .split('/')
        .any(|part| part == ".." || part.is_empty())
    {
        return None;
    }
    env.modules()
        .into_iter()
        .filter(|(name, _)| name == module)
        .map(|(_, folder)| folder.join("templates").join(inside))
        .find(|path| path.is_file())
}

/// Where an attribute's name is declared: the parameter of the class or defined type,
/// or the `newparam`/`newproperty` of a resource type a module writes in Ruby
/// (Puppet's own types have no file here).
pub fn attribute_location(
    env: &Environment,
    owner: &Target,
    name: &str,
    workspace: &Workspace,
    documents: &BTreeMap<Url, Document>,
) -> Option<Location> {
    let definition = match owner {
        Target::Class(class) => env.class(class),
        Target::ResourceType(type_name) => env.define(&definition_key(type_name)),
        _ => None,
    };
    if let Some(definition) = definition {
        let param = definition.param(name)?;
        let text = workspace.text(&definition.path, documents)?;
        return location(&definition.path, &text, param.name.span);
    }
    let Target::ResourceType(type_name) = owner else {
        return None;
    };
    let site = define_or_ruby_type(env, type_name)?;
    let text = workspace.text(&site.path, documents)?;
    let at = [format!("newparam(:{name}"), format!("newproperty(:{name}")]
        .iter()
        .find_map(|needle| text.find(needle.as_str()))?;
    location(&site.path, &text, Span::new(at as u32, at as u32))
}

fn define_or_ruby_type(env: &Environment, name: &str) -> Option<Site> {
    let key = definition_key(name);
    if let Some(define) = env.define(&key) {
        return Some(Site {
            path: define.path.clone(),
            kind: Some(SymbolKind::Define),
            name: key,
        });
    }
    let file = format!("{key}.rb");
    env.modules().into_iter().find_map(|(_, folder)| {
        let path = folder.join("lib/puppet/type").join(&file);
        path.is_file().then(|| Site {
            path,
            kind: None,
            name: key.clone(),
        })
    })
}

/// The file of a module's function `name` written in Ruby: `lib/puppet/functions/`
/// (the 4.x API; a namespaced name in its module's folder of that name) or
/// `lib/puppet/parser/functions/` (3.x). None for Puppet's own functions, which no
/// module's file replaces.
pub fn ruby_function_file(env: &Environment, name: &str) -> Option<PathBuf> {
    let key = definition_key(name);
    if crate::builtin::functions::function(&key).is_some() {
        return None;
    }
    let modules = env.modules();
    match key.split_once("::") {
        Some((module, _)) => {
            let relative = format!("lib/puppet/functions/{}.rb", key.replace("::", "/"));
            modules
                .iter()
                .filter(|(name, _)| name == module)
                .map(|(_, folder)| folder.join(&relative))
                .find(|path| path.is_file())
        }
        None => ["functions", "parser/functions"].iter().find_map(|api| {
            modules
                .iter()
                .map(|(_, folder)| folder.join(format!("lib/puppet/{api}/{key}.rb")))
                .find(|path| path.is_file())
        }),
    }
}

/// Where a Ruby file defines its function or type: its `create_function`,
/// `newfunction` or `newtype` call (the file's start when it has none).
pub fn ruby_definition_span(text: &str) -> Span {
    static DEFINITION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(?:create_function|newfunction|newtype)\b").expect("a valid pattern")
    });
    DEFINITION
        .find(text)
        .map_or(Span::at(0), |m| Span::new(m.start() as u32, m.end() as u32))
}

/// The location of a file's text span.
pub fn location(path: &Path, text: &str, span: Span) -> Option<Location> {
    Some(Location::new(
        Url::from_file_path(path).ok()?,
        Range::new(
            position_in(text, span.start as usize),
            position_in(text, span.end as usize),
        ),
    ))
}

/// The location of a span pupcheck reported in `source` (its text without the
/// byte-order mark, which the editor counts on the first line).
pub fn source_location(source: &crate::source::SourceFile, span: Span) -> Option<Location> {
    let mut found = location(&source.path, &source.text, span)?;
    if source.byte_order_mark {
        for position in [&mut found.range.start, &mut found.range.end] {
            if position.line == 0 {
                position.character += 1;
            }
        }
    }
    Some(found)
}

/// Where `site`'s name is in its file (the file's start for a Ruby type).
pub fn site_location(
    site: &Site,
    workspace: &Workspace,
    documents: &BTreeMap<Url, Document>,
) -> Option<Location> {
    let text = workspace.text(&site.path, documents)?;
    let Some(kind) = site.kind else {
        let span = if site.path.extension().is_some_and(|e| e == "rb") {
            ruby_definition_span(&text)
        } else {
            Span::at(0)
        };
        return location(&site.path, &text, span);
    };
    let (_, parsed) = super::workspace::parse(site.path.clone(), &text)?;
    let symbol = crate::env::symbols::find(&parsed.program, kind, &site.name)?;
    location(&site.path, &text, symbol.name_span)
}

/// Where the variable `name` read at `offset` of `program` is set: an assignment in
/// its scope or an enclosing one, or a parameter; for `$a::b::x`, in class `a::b`.
pub fn variable_locations(
    name: &str,
    offset: u32,
    doc: &Document,
    program: &Program,
    env: &Environment,
    workspace: &Workspace,
    documents: &BTreeMap<Url, Document>,
) -> Vec<Location> {
    let name = name.strip_prefix("::").unwrap_or(name);
    if let Some((class, variable)) = name.rsplit_once("::") {
        let Some(definition) = env.class(class) else {
            return Vec::new();
        };
        let Some(text) = workspace.text(&definition.path, documents) else {
            return Vec::new();
        };
        let Some((_, parsed)) = super::workspace::parse(definition.path.clone(), &text) else {
            return Vec::new();
        };
        let Some(symbol) = crate::env::symbols::find(&parsed.program, SymbolKind::Class, class)
        else {
            return Vec::new();
        };
        let span = symbol
            .params
            .into_iter()
            .flatten()
            .find(|p| p.name.name == variable)
            .map(|p| p.name.span)
            .or_else(|| {
                symbol
                    .body
                    .and_then(|b| assignment_in(&b.statements, variable))
            });
        return span
            .and_then(|span| location(&definition.path, &text, span))
            .into_iter()
            .collect();
    }
    let shift = doc.offset_shift();
    let at = |span: Span| {
        let mut locations = Vec::new();
        locations.extend(location(
            &doc.path,
            &doc.text,
            Span::new(span.start + shift, span.end + shift),
        ));
        locations
    };
    // The scopes holding the offset, innermost first: lambdas, then the definition.
    let mut scopes = Scopes {
        offset,
        found: Vec::new(),
    };
    for statement in &program.body {
        scopes.visit_expr(statement);
    }
    for scope in scopes.found.iter().rev() {
        if let Some(param) = scope.params.iter().find(|p| p.name.name == name) {
            return at(param.name.span);
        }
        if let Some(span) = assignment_in(&scope.body.statements, name) {
            return at(span);
        }
    }
    match assignment_in(&program.body, name) {
        Some(span) => at(span),
        None => Vec::new(),
    }
}

/// A scope: a definition's or a lambda's parameters and body.
struct Scope<'a> {
    params: &'a [Parameter],
    body: &'a Block,
}

/// The scopes holding `offset`, outermost first.
struct Scopes<'a> {
    offset: u32,
    found: Vec<Scope<'a>>,
}

impl<'a> Visitor<'a> for Scopes<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if !expr.span.contains(self.offset) && expr.span.end != self.offset {
            return;
        }
        let (params, body) = match &expr.kind {
            ExprKind::Class(c) => (c.params.as_deref(), Some(&c.body)),
            ExprKind::Define(d) => (d.params.as_deref(), Some(&d.body)),
            ExprKind::Function(f) => (f.params.as_deref(), Some(&f.body)),
            ExprKind::Node(n) => (None, Some(&n.body)),
            _ => (None, None),
        };
        if let Some(body) = body {
            self.found.push(Scope {
                params: params.unwrap_or(&[]),
                body,
            });
        }
        walk_expr(self, expr);
    }

    fn visit_lambda(&mut self, lambda: &'a Lambda) {
        if lambda.span.contains(self.offset) {
            self.found.push(Scope {
                params: &lambda.params,
                body: &lambda.body,
            });
        }
        crate::ast::walk_lambda_parts(self, lambda);
    }
}

/// The first assignment of `$name` in `statements`, in branches too, not in the
/// definitions or lambdas they hold (their own scopes).
fn assignment_in(statements: &[Expr], name: &str) -> Option<Span> {
    struct Assignments<'n> {
        name: &'n str,
        found: Option<Span>,
    }
    impl Assignments<'_> {
        fn target(&mut self, left: &Expr) {
            match &left.kind {
                ExprKind::Variable(v) if v == self.name && self.found.is_none() => {
                    self.found = Some(left.span);
                }
                ExprKind::Array(items) => items.iter().for_each(|i| self.target(i)),
                _ => {}
            }
        }
    }
    impl<'a> Visitor<'a> for Assignments<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match &expr.kind {
                ExprKind::Class(_) | ExprKind::Define(_) | ExprKind::Function(_) => return,
                ExprKind::Assignment { left, .. } => self.target(left),
                _ => {}
            }
            walk_expr(self, expr);
        }
        fn visit_lambda(&mut self, _: &'a Lambda) {}
    }
    let mut finder = Assignments { name, found: None };
    for statement in statements {
        finder.visit_expr(statement);
    }
    finder.found
}

/// Where Hiera binds `key`: the key in each data file a lookup may read it from.
pub fn hiera_locations(env: &Environment, key: &str) -> Vec<Location> {
    env.hiera()
        .candidates(key)
        .filter_map(|(file, _)| {
            let (_, key_node, _) = file.entries().into_iter().find(|(k, _, _)| *k == key)?;
            let start = key_node.offset as u32;
            location(
                &file.path,
                &file.text,
                Span::new(start, start + key.len() as u32),
            )
        })
        .collect()
}

/// The class or defined type a reference search is about.
pub fn referenced_definition(env: &Environment, target: &Target) -> Option<(SymbolKind, String)> {
    match target {
        Target::Definition(kind @ (SymbolKind::Class | SymbolKind::Define), name)
        | Target::Definition(kind @ SymbolKind::Function, name) => Some((*kind, name.clone())),
        Target::Class(name) => Some((SymbolKind::Class, definition_key(name))),
        Target::ResourceType(name) | Target::TypeName(name) => {
            let key = definition_key(name);
            env.define(&key).map(|_| (SymbolKind::Define, key))
        }
        Target::Function(name) => Some((SymbolKind::Function, definition_key(name))),
        _ => None,
    }
}

/// Where `program` uses the class, defined type or function `name`: declarations
/// (`include`, `contain`, `require`, `class { }`, `name { }`), references
/// (`Class['name']`, `Name['title']`), `inherits`, calls.
pub fn uses_in(program: &Program, kind: SymbolKind, name: &str) -> Vec<Span> {
    struct Uses<'n> {
        kind: SymbolKind,
        name: &'n str,
        found: Vec<Span>,
    }
    impl Uses<'_> {
        fn names(&self, e: &Expr) -> bool {
            match &e.kind {
                ExprKind::String(s) => definition_key(&s.value) == self.name,
                ExprKind::Name(n) | ExprKind::TypeRef(n) => definition_key(n) == self.name,
                _ => false,
            }
        }
        fn class_args(&mut self, args: &[Expr]) {
            for arg in args {
                match &arg.kind {
                    ExprKind::Array(items) => self.class_args(items),
                    _ if self.names(arg) => self.found.push(arg.span),
                    _ => {}
                }
            }
        }
    }
    impl<'a> Visitor<'a> for Uses<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            match (&expr.kind, self.kind) {
                (ExprKind::Resource(r), SymbolKind::Class) => {
                    if matches!(&r.type_expr.kind, ExprKind::Name(t) if t.eq_ignore_ascii_case("class"))
                    {
                        for body in &r.bodies {
                            if self.names(&body.title) {
                                self.found.push(body.title.span);
                            }
                        }
                    }
                }
                (ExprKind::Resource(r), SymbolKind::Define) if self.names(&r.type_expr) => {
                    self.found.push(r.type_expr.span);
                }
                (ExprKind::Call(call), SymbolKind::Class) => {
                    if matches!(&call.function.kind, ExprKind::Name(f)
                        if ["include", "contain", "require"].contains(&f.to_ascii_lowercase().as_str()))
                    {
                        self.class_args(&call.args);
                    }
                }
                (ExprKind::Call(call), SymbolKind::Function) if self.names(&call.function) => {
                    self.found.push(call.function.span);
                }
                (ExprKind::MethodCall(call), SymbolKind::Function)
                    if definition_key(&call.method.name) == self.name =>
                {
                    self.found.push(call.method.span);
                }
                (ExprKind::Access { object, args }, SymbolKind::Class) => {
                    if matches!(&object.kind, ExprKind::TypeRef(t) if t.eq_ignore_ascii_case("class"))
                    {
                        let named: Vec<Span> = args
                            .iter()
                            .filter(|a| self.names(a))
                            .map(|a| a.span)
                            .collect();
                        self.found.extend(named);
                    }
                }
                (ExprKind::TypeRef(_), SymbolKind::Define) if self.names(expr) => {
                    self.found.push(expr.span);
                }
                (ExprKind::Class(c), SymbolKind::Class) => {
                    if let Some(parent) = c
                        .parent
                        .as_ref()
                        .filter(|p| definition_key(&p.name) == self.name)
                    {
                        self.found.push(parent.span);
                    }
                }
                _ => {}
            }
            walk_expr(self, expr);
        }
    }
    let mut uses = Uses {
        kind,
        name,
        found: Vec::new(),
    };
    for statement in &program.body {
        uses.visit_expr(statement);
    }
    uses.found.sort_by_key(|s| s.start);
    uses.found.dedup();
    uses.found
}
