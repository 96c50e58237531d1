//! Which unqualified variable reads (`$x`) no scope of their own body answers, as
//! Puppet looks variables up: the innermost lambda's scope outwards to the body's (a
//! class's, a defined type's, a function's, a node's or the file's top scope), each
//! holding its parameters and what it has assigned *before* the read (Puppet assigns
//! as it evaluates, in order; a lambda runs where it is called). What a read finds
//! beyond its body (a class's parent, the top scope, node scope, facts) is the rule's
//! to judge with the environment: this walk knows one file.
//!
//! Architecture Invariant: no read is listed from a file holding a syntax error, from
//! a plan, or from a definition nested in another (its scope is not the one around it
//! in the text): what such code sets is not all known.

use crate::ast::{ExprKind, *};
use crate::source::Span;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// The body a read is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The file's top scope (its code outside definitions, lambdas in it included).
    TopScope,
    /// A node definition's scope.
    Node,
    /// A class body, with the class it inherits from (lowercase, no leading `::`).
    Class {
        parent: Option<String>,
    },
    Define,
    Function,
}

/// A read of `$name` that its body does not answer.
#[derive(Debug)]
pub struct UnresolvedRead<'p> {
    pub name: &'p str,
    pub span: Span,
    pub place: Place,
    /// The read's body (or the lambda it is in) assigns the name unconditionally, but
    /// only after the read: the code means a variable of its own that is not set yet
    /// (at top scope, a variable set before would make that assignment fail).
    pub assigned_later: bool,
    /// That assignment is the statement the read is in (`$x = downcase($x)`): in a
    /// class or node, the idiom that shadows a top-scope variable with a local one.
    pub assigned_by_its_statement: bool,
    /// A lambda of the same body that has a variable of this name (a parameter, or one
    /// its body assigns), read here outside it: where that variable is.
    pub lambda_variable: Option<Span>,
    /// Names the read could see, for a "did you mean": the first `len` names each
    /// scope (by its place in [`VariableReads::names`]) had assigned then
    /// ([`VariableReads::visible`]). Kept as lengths, not lists: a big body's reads
    /// would otherwise each hold every name before them.
    visible: Vec<(usize, usize)>,
}

/// What a file's reads need answered.
#[derive(Debug, Default)]
pub struct VariableReads<'p> {
    pub unresolved: Vec<UnresolvedRead<'p>>,
    /// Names the file tests with `defined('$x')`: a read of them may be guarded.
    pub tested_with_defined: HashSet<String>,
    /// Every name the file's top scope or its node definitions assign (in
    /// conditionals too): a class may read them.
    pub assigned_at_top: HashSet<String>,
    /// Each scope walked, the names it knows in the order it came to know them.
    names: Vec<Vec<&'p str>>,
}

impl<'p> VariableReads<'p> {
    /// How many names `read` could see.
    pub fn visible_count(&self, read: &UnresolvedRead<'p>) -> usize {
        read.visible.iter().map(|&(_, len)| len).sum()
    }

    /// The names `read` could see.
    pub fn visible(&self, read: &UnresolvedRead<'p>) -> Vec<&'p str> {
        read.visible
            .iter()
            .flat_map(|&(scope, len)| self.names[scope][..len].iter().copied())
            .collect()
    }
}

/// The reads of `program` no scope of their body answers.
pub fn variable_reads(program: &Program) -> VariableReads<'_> {
    if program.body.iter().any(contains_error) {
        return VariableReads::default();
    }
    let mut walk = Walk {
        frames: Vec::new(),
        found: VariableReads::default(),
        lambda_variables: Vec::new(),
        nested: 0,
    };
    walk.push_frame(Frame::new(Place::TopScope, false, &program.body), []);
    walk.found.assigned_at_top = crate::env::top_scope::top_and_node_assignments(program)
        .into_iter()
        .collect();
    for statement in &program.body {
        walk.visit_expr(statement);
    }
    walk.finish()
}

/// One scope being walked.
struct Frame<'p> {
    place: Place,
    /// A lambda's scope (the body's scope is below it).
    lambda: bool,
    /// Parameters, and the variables assigned so far.
    known: HashSet<&'p str>,
    /// Its place in [`VariableReads::names`].
    scope: usize,
    /// Where each assignment its statements make unconditionally starts and ends, by
    /// name.
    unconditional: HashMap<&'p str, Vec<(u32, u32)>>,
}

impl<'p> Frame<'p> {
    fn new(place: Place, lambda: bool, statements: &'p [Expr]) -> Self {
        Frame {
            place,
            lambda,
            known: HashSet::new(),
            scope: 0,
            unconditional: unconditional_assignments(statements),
        }
    }
}

struct Walk<'p> {
    frames: Vec<Frame<'p>>,
    found: VariableReads<'p>,
    /// Each lambda's variables, with the lambda's span and the body's frame depth.
    lambda_variables: Vec<(usize, Span, HashSet<&'p str>)>,
    /// How many definitions deep inside another definition the walk is.
    nested: usize,
}

impl<'p> Walk<'p> {
    /// Enters a scope that knows `names` from its start.
    fn push_frame(&mut self, mut frame: Frame<'p>, names: impl IntoIterator<Item = &'p str>) {
        frame.scope = self.found.names.len();
        self.found.names.push(Vec::new());
        self.frames.push(frame);
        for name in names {
            self.know(name);
        }
    }

    /// The innermost scope knows `name` from here on.
    fn know(&mut self, name: &'p str) {
        if let Some(frame) = self.frames.last_mut() {
            if frame.known.insert(name) {
                self.found.names[frame.scope].push(name);
            }
        }
    }

    /// The frames of the body being walked: the innermost non-lambda frame and the
    /// lambdas above it.
    fn body_frames(&self) -> &[Frame<'p>] {
        let start = self.frames.iter().rposition(|f| !f.lambda).unwrap_or(0);
        &self.frames[start..]
    }

    fn read(&mut self, name: &'p str, span: Span) {
        if self.nested > 0 || !is_plain_name(name) {
            return;
        }
        let body = self.body_frames();
        if body.iter().any(|f| f.known.contains(name)) {
            return;
        }
        let place = body[0].place.clone();
        let body_depth = self.frames.len() - body.len();
        let visible = body
            .iter()
            .map(|f| (f.scope, self.found.names[f.scope].len()))
            .collect();
        let later: Vec<(u32, u32)> = body
            .iter()
            .filter_map(|f| f.unconditional.get(name))
            .flatten()
            .copied()
            .filter(|&(_, end)| end > span.start)
            .collect();
        let assigned_later = !later.is_empty();
        let assigned_by_its_statement = later.iter().all(|&(start, _)| start <= span.start);
        let assigned_by_its_statement = assigned_later && assigned_by_its_statement;
        let lambda_variable = self
            .lambda_variables
            .iter()
            .find(|(depth, lambda, names)| {
                *depth == body_depth && names.contains(name) && !lambda.contains(span.start)
            })
            .map(|(_, lambda, _)| *lambda);
        self.found.unresolved.push(UnresolvedRead {
            name,
            span,
            place,
            assigned_later,
            assigned_by_its_statement,
            lambda_variable,
            visible,
        });
    }

    fn assign_targets(&mut self, target: &'p Expr) {
        match &target.kind {
            ExprKind::Variable(name) => self.know(name.as_str()),
            ExprKind::Array(items) => items.iter().for_each(|i| self.assign_targets(i)),
            _ => self.visit_expr(target),
        }
    }

    /// Walks a definition's body in a frame of its own, its parameters known.
    fn definition(&mut self, place: Place, params: Option<&'p [Parameter]>, body: &'p Block) {
        let nested = self.frames.len() > 1;
        let frame = Frame::new(place, false, &body.statements);
        let names = params
            .unwrap_or_default()
            .iter()
            .map(|p| p.name.name.as_str());
        self.push_frame(frame, names);
        if nested {
            self.nested += 1;
        }
        for p in params.unwrap_or_default() {
            self.visit_parameter(p);
        }
        self.visit_block(body);
        if nested {
            self.nested -= 1;
        }
        self.frames.pop();
    }

    fn finish(self) -> VariableReads<'p> {
        self.found
    }
}

impl<'p> Visitor<'p> for Walk<'p> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        match &expr.kind {
            ExprKind::Variable(name) => self.read(name, expr.span),
            // The value is evaluated before the variable is bound: `$x = $x + 1`
            // reads an `$x` from before.
            ExprKind::Assignment { left, right, .. } => {
                self.visit_expr(right);
                self.assign_targets(left);
            }
            ExprKind::Call(call) if matches!(&call.function.kind, ExprKind::Name(f) if f == "defined") =>
            {
                let tested = call.args.iter().filter_map(|arg| match &arg.kind {
                    ExprKind::String(s) => s.value.strip_prefix('$'),
                    _ => None,
                });
                for name in tested {
                    let name = name.trim_start_matches("::").to_string();
                    self.found.tested_with_defined.insert(name);
                }
                walk_expr(self, expr);
            }
            ExprKind::Class(class) => self.definition(
                Place::Class {
                    parent: class
                        .parent
                        .as_ref()
                        .map(|p| crate::env::definition_key(&p.name)),
                },
                class.params.as_deref(),
                &class.body,
            ),
            ExprKind::Define(define) => {
                self.definition(Place::Define, define.params.as_deref(), &define.body)
            }
            ExprKind::Function(function) => {
                if let Some(r) = &function.return_type {
                    self.visit_expr(r);
                }
                self.definition(Place::Function, function.params.as_deref(), &function.body)
            }
            ExprKind::Node(node) => {
                node.matches.iter().for_each(|m| self.visit_expr(m));
                self.definition(Place::Node, None, &node.body)
            }
            // Plans run in Bolt, with scopes of their own; Pcore object types hold no code
            // evaluated here.
            ExprKind::Plan(_) | ExprKind::TypeDefinition(_) => {}
            _ => walk_expr(self, expr),
        }
    }

    fn visit_lambda(&mut self, lambda: &'p Lambda) {
        let place = self.body_frames()[0].place.clone();
        let frame = Frame::new(place, true, &lambda.body.statements);
        self.push_frame(frame, lambda.params.iter().map(|p| p.name.name.as_str()));
        walk_lambda_parts(self, lambda);
        let frame = self.frames.pop().expect("the lambda's frame");
        let body_depth = self.frames.len() - self.body_frames().len();
        self.lambda_variables
            .push((body_depth, lambda.span, frame.known));
    }
}

/// Where each assignment `statements` make unconditionally starts and ends (the
/// statements that are assignments; `$a = $b = 1` assigns both), by name.
fn unconditional_assignments(statements: &[Expr]) -> HashMap<&str, Vec<(u32, u32)>> {
    let mut found: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for statement in statements {
        let mut assignment = statement;
        while let ExprKind::Assignment { left, right, .. } = &assignment.kind {
            assignment_targets(left, &mut |n| {
                found
                    .entry(n)
                    .or_default()
                    .push((statement.span.start, statement.span.end))
            });
            assignment = right;
        }
    }
    found
}

fn assignment_targets<'p>(target: &'p Expr, found: &mut impl FnMut(&'p str)) {
    match &target.kind {
        ExprKind::Variable(name) => found(name.as_str()),
        ExprKind::Array(items) => items.iter().for_each(|i| assignment_targets(i, found)),
        _ => {}
    }
}

/// A name a variable of a scope can have: not qualified (`$a::b`, `$::x`), not a match
/// variable (`$1`), lowercase as Puppet requires of assigned names.
fn is_plain_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(code: &str) -> Program {
        let source = crate::source::SourceFile::new(
            "t.pp",
            crate::source::SourceKind::Manifest,
            code.to_string(),
        );
        crate::syntax::parse(&source).program
    }

    fn unresolved(code: &str) -> Vec<(String, Place, bool, bool)> {
        variable_reads(&parse(code))
            .unresolved
            .into_iter()
            .map(|r| {
                (
                    r.name.to_string(),
                    r.place,
                    r.assigned_later,
                    r.lambda_variable.is_some(),
                )
            })
            .collect()
    }

    #[test]
    fn a_read_before_the_assignment_at_top_scope_is_listed_as_such() {
        assert_eq!(
            unresolved("notice($x)\n$x = 1\nnotice($x)\n"),
            [("x".into(), Place::TopScope, true, false)]
        );
        assert_eq!(
            unresolved("$x = $x + 1\n"),
            [("x".into(), Place::TopScope, true, false)]
        );
        // A fact may set it: then the assignment is not made.
        assert_eq!(
            unresolved("unless $x { $x = 1 }\n"),
            [("x".into(), Place::TopScope, false, false)]
        );
    }

    #[test]
    fn a_read_in_its_own_assignment_is_told_apart() {
        let reads = |code: &str| -> Vec<(bool, bool)> {
            variable_reads(&parse(code))
                .unresolved
                .iter()
                .map(|r| (r.assigned_later, r.assigned_by_its_statement))
                .collect()
        };
        assert_eq!(reads("class c { $x = downcase($x) }\n"), [(true, true)]);
        assert_eq!(reads("class c { notice($x) $x = 1 }\n"), [(true, false)]);
        assert_eq!(reads("class c { notice($x) }\n"), [(false, false)]);
    }

    #[test]
    fn lambda_variables_are_their_lambdas_own() {
        let found = unresolved("[1].each |$i| { $t = $i notice($t) }\nnotice($t, $i)\n");
        assert_eq!(
            found,
            [
                ("t".into(), Place::TopScope, false, true),
                ("i".into(), Place::TopScope, false, true)
            ]
        );
        // A lambda sees its body's variables assigned before it runs.
        assert!(unresolved("$y = 1\n[1].each |$i| { notice($y + $i) }\n").is_empty());
        assert_eq!(
            unresolved("[1].each |$i| { notice($y) }\n$y = 2\n"),
            [("y".into(), Place::TopScope, true, false)]
        );
    }

    #[test]
    fn a_body_knows_its_parameters_and_what_it_has_assigned() {
        let code = "class c ($p = $q, $q = 1) inherits c::params {\n  if $p { $v = 1 }\n  notice($p, $v, $title, $w)\n  $w = 2\n}\n";
        let class = Place::Class {
            parent: Some("c::params".into()),
        };
        assert_eq!(
            unresolved(code),
            [
                ("title".into(), class.clone(), false, false),
                ("w".into(), class, true, false)
            ]
        );
    }

    #[test]
    fn qualified_match_and_nested_reads_are_not_listed() {
        assert!(unresolved("notice($::osfamily, $ntp::servers, $1)\n").is_empty());
        assert!(unresolved("class a { class b { notice($x) } }\n").is_empty());
        assert!(unresolved("$x = = 1 }\nnotice($x)\n").is_empty());
    }

    #[test]
    fn defined_names_are_collected() {
        let program = parse("if defined('$x') { notice($x) }\n");
        let reads = variable_reads(&program);
        assert!(reads.tested_with_defined.contains("x"));
    }
}
