//! The outline of a document (`textDocument/documentSymbol`): its classes, defined
//! types, functions, plans, type aliases and node definitions, each holding the
//! resources its body declares (in branches and lambdas too) and the definitions
//! nested in it.

use super::document::Document;
use crate::ast::{Expr, ExprKind, Program, Visitor};
use crate::source::Span;
use lsp_types::{DocumentSymbol, SymbolKind};

/// How many resources an outline lists (every definition is listed): a generated
/// class of 100,000 resources would make an outline of megabytes no editor shows.
const MAX_RESOURCES: usize = 5_000;

/// The document's symbols, as a tree, in the order they are written.
pub fn outline(program: &Program, doc: &Document) -> Vec<DocumentSymbol> {
    let resources_left = std::cell::Cell::new(MAX_RESOURCES);
    let mut collect = Collect {
        doc,
        found: Vec::new(),
        resources_left: &resources_left,
    };
    for statement in &program.body {
        collect.visit_expr(statement);
    }
    collect.found
}

struct Collect<'d> {
    doc: &'d Document,
    found: Vec<DocumentSymbol>,
    /// The resources the outline may still list.
    resources_left: &'d std::cell::Cell<usize>,
}

impl Collect<'_> {
    fn symbol(
        &self,
        name: String,
        detail: &str,
        kind: SymbolKind,
        whole: Span,
        name_span: Span,
        children: Vec<DocumentSymbol>,
    ) -> DocumentSymbol {
        #[allow(deprecated)] // (`deprecated` is a field every client still reads.)
        DocumentSymbol {
            name: if name.is_empty() { "?".into() } else { name },
            detail: Some(detail.to_string()),
            kind,
            tags: None,
            deprecated: None,
            range: self.doc.reported_range(whole),
            selection_range: self.doc.reported_range(name_span),
            children: (!children.is_empty()).then_some(children),
        }
    }

    /// The symbols `statements` hold, as the children of a definition.
    fn children(&self, statements: &[Expr]) -> Vec<DocumentSymbol> {
        let mut inner = Collect {
            doc: self.doc,
            found: Vec::new(),
            resources_left: self.resources_left,
        };
        for statement in statements {
            inner.visit_expr(statement);
        }
        inner.found
    }

    /// Each body of a resource declaration: `File['/etc/a']`, the title as written
    /// when it is not a plain string.
    fn resource(&mut self, expr: &Expr, resource: &crate::ast::ResourceExpr) {
        let type_name = match &resource.type_expr.kind {
            ExprKind::Name(name) => crate::types::display::capitalize_segments(name),
            _ => "Resource".to_string(),
        };
        let form = match resource.form {
            crate::ast::ResourceForm::Regular => "resource",
            crate::ast::ResourceForm::Virtual => "virtual resource",
            crate::ast::ResourceForm::Exported => "exported resource",
        };
        for body in &resource.bodies {
            let Some(left) = self.resources_left.get().checked_sub(1) else {
                return;
            };
            self.resources_left.set(left);
            let title = match &body.title.kind {
                ExprKind::String(s) => format!("'{}'", s.value),
                _ => one_line(self.doc.text.get(body.title.span.range()).unwrap_or("?")),
            };
            let whole = Span::new(body.title.span.start.min(expr.span.start), expr.span.end);
            let symbol = self.symbol(
                format!("{type_name}[{title}]"),
                form,
                SymbolKind::OBJECT,
                whole,
                body.title.span,
                Vec::new(),
            );
            self.found.push(symbol);
        }
    }
}

/// A title written over several lines, on one (and not too long for an outline).
fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

impl<'p> Visitor<'p> for Collect<'_> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        let symbol = match &expr.kind {
            ExprKind::Class(c) => {
                let children = self.children(&c.body.statements);
                let name = c.name.name.trim_start_matches("::").to_string();
                self.symbol(
                    name,
                    "class",
                    SymbolKind::CLASS,
                    expr.span,
                    c.name.span,
                    children,
                )
            }
            ExprKind::Define(d) => {
                let children = self.children(&d.body.statements);
                let name = d.name.name.trim_start_matches("::").to_string();
                self.symbol(
                    name,
                    "define",
                    SymbolKind::STRUCT,
                    expr.span,
                    d.name.span,
                    children,
                )
            }
            ExprKind::Function(f) => {
                let children = self.children(&f.body.statements);
                let name = f.name.name.trim_start_matches("::").to_string();
                let kind = SymbolKind::FUNCTION;
                self.symbol(name, "function", kind, expr.span, f.name.span, children)
            }
            ExprKind::Plan(p) => {
                let children = self.children(&p.body.statements);
                let name = p.name.name.trim_start_matches("::").to_string();
                let kind = SymbolKind::FUNCTION;
                self.symbol(name, "plan", kind, expr.span, p.name.span, children)
            }
            ExprKind::TypeAlias(a) => {
                let kind = SymbolKind::TYPE_PARAMETER;
                self.symbol(
                    a.name.name.clone(),
                    "type",
                    kind,
                    expr.span,
                    a.name.span,
                    Vec::new(),
                )
            }
            ExprKind::Node(n) => {
                let children = self.children(&n.body.statements);
                let names: Vec<String> = n
                    .matches
                    .iter()
                    .map(|m| one_line(self.doc.text.get(m.span.range()).unwrap_or("?")))
                    .collect();
                let at = n.matches.first().map_or(expr.span, |m| m.span);
                let kind = SymbolKind::NAMESPACE;
                self.symbol(names.join(", "), "node", kind, expr.span, at, children)
            }
            ExprKind::Resource(resource) => {
                self.resource(expr, resource);
                return;
            }
            _ => {
                crate::ast::walk_expr(self, expr);
                return;
            }
        };
        self.found.push(symbol);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_class_lists_its_first_resources() {
        let mut text = String::from("class big {\n");
        for i in 0..MAX_RESOURCES + 100 {
            text.push_str(&format!("  file {{ '/tmp/{i}': }}\n"));
        }
        text.push_str("}\nclass after {}\n");
        let doc = Document::new(
            lsp_types::Url::parse("file:///m/manifests/big.pp").unwrap(),
            "/m/manifests/big.pp".into(),
            1,
            text,
        );
        let (_, parsed) = super::super::workspace::parse(doc.path.clone(), &doc.text).unwrap();
        let symbols = outline(&parsed.program, &doc);
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["big", "after"]);
        let listed = symbols[0].children.as_ref().map_or(0, Vec::len);
        assert_eq!(listed, MAX_RESOURCES);
    }
}
