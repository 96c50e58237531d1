//! The catalog of one entry point as a list of resources and containment edges, for
//! `pupcheck catalog`: what the entry point certainly holds, and what it holds on some
//! paths only (a branch pupcheck cannot decide, a lambda), marked so. Titles and
//! parameters are values where the code fixes them, types where only the type is
//! known.

use super::{BodyRef, FileFragments, Index};
use crate::ast::ResourceForm;
use crate::eval::AbstractValue;
use crate::infer::fragment::{Body, Declared, EventKind};
use crate::types::display::capitalize_segments;
use foldhash::{HashMap, HashSet};
use std::collections::VecDeque;
use std::path::PathBuf;

/// Which catalogs to list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// The class of this name, compiled alone.
    Class(String),
    /// The node definition Puppet picks for this node name, after the top-level code of
    /// its file.
    Node(String),
    /// Every role: the classes named `role::...` (or `roles::...`); where there are
    /// none, every class no other body declares and every node definition.
    Roles,
}

/// The catalog of one entry point.
#[derive(Debug, Clone)]
pub struct Listing {
    /// `class role::web`, `node web01.example.com`.
    pub name: String,
    pub resources: Vec<ListedResource>,
    /// Containment: (container, contained), as references (`Class[Role::Web]`).
    pub edges: Vec<(String, String)>,
}

/// A resource of a listed catalog.
#[derive(Debug, Clone)]
pub struct ListedResource {
    /// As Puppet writes it (`Package`, `Apache::Vhost`, `Class`).
    pub type_name: String,
    pub title: Title,
    /// The attributes the declaration gives (`None`: not evaluated).
    pub parameters: Vec<(String, Option<AbstractValue>)>,
    pub file: PathBuf,
    pub line: usize,
    /// In the catalog whatever path the code takes (else only on some).
    pub certain: bool,
    pub form: ResourceForm,
}

#[derive(Debug, Clone)]
pub enum Title {
    Known(String),
    /// Not known where it is declared: known by this type, if at all.
    Unknown(Option<AbstractValue>),
}

impl ListedResource {
    /// `Package[curl]`; a title not known is shown as `?`.
    pub fn reference(&self) -> String {
        match &self.title {
            Title::Known(t) => format!("{}[{t}]", self.type_name),
            Title::Unknown(_) => format!("{}[?]", self.type_name),
        }
    }
}

/// The catalogs the selector names, in order; none when it names nothing.
pub fn list(files: &[FileFragments], selector: &Selector) -> Vec<Listing> {
    let index = Index::new(files);
    let mut listings = Vec::new();
    for (name, bodies) in entries(&index, selector) {
        let mut lister = Lister::new(&index, name);
        for (body, container) in bodies {
            lister.enter(body, container);
        }
        listings.push(lister.finish());
    }
    listings
}

/// The entry points a selector names: each a name and its bodies, each with the
/// reference of what contains it.
fn entries(index: &Index, selector: &Selector) -> Vec<(String, Vec<(BodyRef, String)>)> {
    let class_entry = |name: &str| {
        let body = index.class(name)?;
        Some((
            format!("class {name}"),
            vec![(body, "Stage[main]".to_string())],
        ))
    };
    let node_entry = |body: BodyRef, names: &[String]| {
        let top = BodyRef {
            file: body.file,
            fragment: 0,
        };
        let shown = names.join(", ");
        let container = format!("Node[{}]", names.first().map_or("default", |n| n));
        (
            format!("node {shown}"),
            vec![(top, "Class[Main]".to_string()), (body, container)],
        )
    };
    match selector {
        Selector::Class(name) => class_entry(&crate::env::definition_key(name))
            .into_iter()
            .collect(),
        Selector::Node(node) => pick_node(index, node)
            .map(|(body, names)| node_entry(body, &names))
            .into_iter()
            .collect(),
        Selector::Roles => {
            let mut roles: Vec<&String> = index
                .classes
                .iter()
                .filter(|(name, body)| {
                    body.is_some() && (name.starts_with("role::") || name.starts_with("roles::"))
                })
                .map(|(name, _)| name)
                .collect();
            if roles.is_empty() {
                let declared = index.declared_classes();
                roles = index
                    .classes
                    .iter()
                    .filter(|(name, body)| {
                        body.is_some_and(|b| !index.files[b.file].installed)
                            && !declared.contains(name.as_str())
                    })
                    .map(|(name, _)| name)
                    .collect();
            }
            roles.sort();
            let mut out: Vec<_> = roles.into_iter().filter_map(|n| class_entry(n)).collect();
            if !index
                .classes
                .keys()
                .any(|n| n.starts_with("role::") || n.starts_with("roles::"))
            {
                for (body, names) in nodes(index) {
                    out.push(node_entry(body, &names));
                }
            }
            out
        }
    }
}

/// Every node definition, with what its names match.
fn nodes(index: &Index) -> Vec<(BodyRef, Vec<String>)> {
    let mut out = Vec::new();
    for (file, fragments) in index.files.iter().enumerate() {
        for (fragment, f) in fragments.fragments.iter().enumerate() {
            if let Body::Node { names } = &f.body {
                out.push((BodyRef { file, fragment }, names.clone()));
            }
        }
    }
    out
}

/// The node definition Puppet picks for `node`: one naming it (without case), else
/// one whose regular expression matches it, else `default`.
fn pick_node(index: &Index, node: &str) -> Option<(BodyRef, Vec<String>)> {
    let all = nodes(index);
    let named =
        |(_, names): &&(BodyRef, Vec<String>)| names.iter().any(|n| n.eq_ignore_ascii_case(node));
    let matched = |(_, names): &&(BodyRef, Vec<String>)| {
        names.iter().any(|n| {
            n.strip_prefix('/')
                .and_then(|n| n.strip_suffix('/'))
                .and_then(|pattern| regex::Regex::new(pattern).ok())
                .is_some_and(|r| r.is_match(node))
        })
    };
    let default = |(_, names): &&(BodyRef, Vec<String>)| names.iter().any(|n| n == "default");
    all.iter()
        .find(named)
        .or_else(|| all.iter().find(matched))
        .or_else(|| all.iter().find(default))
        .cloned()
}

/// One entry point's catalog being listed.
struct Lister<'i, 'f> {
    index: &'i Index<'f>,
    name: String,
    resources: Vec<ListedResource>,
    /// Each resource by reference (type in lower case, title), by its place in
    /// `resources`.
    by_reference: HashMap<(String, String), usize>,
    /// Resources whose titles are not known, by where they are declared.
    by_place: HashMap<(usize, crate::source::Span), usize>,
    edges: Vec<(String, String)>,
    edge_set: HashSet<(String, String)>,
    /// The classes declared, and whether certainly.
    classes: HashMap<String, bool>,
    /// Defined resources to evaluate after the code that declared them.
    instances: VecDeque<(BodyRef, String, bool)>,
    /// Bodies evaluated, and how (certainly or not): each at most once each way.
    evaluated: HashSet<(BodyRef, String, bool)>,
    steps: usize,
}

/// The most events one listing visits (a bound on a hostile environment).
const MAX_STEPS: usize = 500_000;

impl<'i, 'f> Lister<'i, 'f> {
    fn new(index: &'i Index<'f>, name: String) -> Lister<'i, 'f> {
        Lister {
            index,
            name,
            resources: Vec::new(),
            by_reference: HashMap::default(),
            by_place: HashMap::default(),
            edges: Vec::new(),
            edge_set: HashSet::default(),
            classes: HashMap::default(),
            instances: VecDeque::new(),
            evaluated: HashSet::default(),
            steps: 0,
        }
    }

    fn enter(&mut self, body: BodyRef, container: String) {
        match &self.index.fragment(body).body {
            Body::Class { name, .. } => {
                let name = name.clone();
                let place = (body.file, self.index.fragment(body).span);
                self.declare_class(&name, true, &container, place, None);
            }
            _ => self.evaluate(body, container, true),
        }
        while let Some((body, reference, certain)) = self.instances.pop_front() {
            self.evaluate(body, reference, certain);
        }
    }

    fn finish(self) -> Listing {
        Listing {
            name: self.name,
            resources: self.resources,
            edges: self.edges,
        }
    }

    fn line(&self, file: usize, span: crate::source::Span) -> usize {
        self.index.files[file].lines.line_of(span.start) + 1
    }

    fn edge(&mut self, from: &str, to: &str) {
        let edge = (from.to_string(), to.to_string());
        if self.edge_set.insert(edge.clone()) {
            self.edges.push(edge);
        }
    }

    /// Evaluates a body's events, `certain` when the body is certainly evaluated.
    fn evaluate(&mut self, body: BodyRef, container: String, certain: bool) {
        if !self.evaluated.insert((body, container.clone(), certain)) {
            return;
        }
        let fragment = self.index.fragment(body);
        for event in &fragment.events {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return;
            }
            let certain = certain && event.certain;
            let place = (body.file, event.span);
            match &event.kind {
                EventKind::Declare {
                    type_name,
                    titles,
                    form,
                    detail,
                    ..
                } => {
                    let detail = detail.as_deref();
                    match titles {
                        Some(titles) => {
                            for title in titles {
                                self.declare(type_name, Some(title), *form, certain, place, detail);
                                let reference =
                                    format!("{}[{title}]", capitalize_segments(type_name));
                                self.edge(&container, &reference);
                            }
                        }
                        None => {
                            let at = self.declare(type_name, None, *form, certain, place, detail);
                            let reference = self.resources[at].reference();
                            self.edge(&container, &reference);
                        }
                    }
                }
                EventKind::Include {
                    classes: Some(classes),
                    contained,
                } => {
                    for class in classes {
                        self.declare_class(class, certain, "Stage[main]", place, None);
                        // (`contain`: the stage and the body both contain it.)
                        if *contained {
                            let reference = format!("Class[{}]", capitalize_segments(class));
                            self.edge(&container, &reference);
                        }
                    }
                }
                EventKind::DeclareClass {
                    classes: Some(classes),
                    detail,
                } => {
                    for class in classes {
                        self.declare_class(class, certain, "Stage[main]", place, detail.as_deref());
                    }
                }
                _ => {}
            }
        }
    }

    /// Adds a resource (once per reference, or per place when its title is not known);
    /// its index in the listing.
    fn declare(
        &mut self,
        type_name: &str,
        title: Option<&str>,
        form: ResourceForm,
        certain: bool,
        place: (usize, crate::source::Span),
        detail: Option<&Declared>,
    ) -> usize {
        let existing = match title {
            Some(title) => self
                .by_reference
                .get(&(type_name.to_string(), title.to_string()))
                .copied(),
            None => self.by_place.get(&place).copied(),
        };
        if let Some(at) = existing {
            self.resources[at].certain |= certain;
            return at;
        }
        let at = self.resources.len();
        self.resources.push(ListedResource {
            type_name: capitalize_segments(type_name),
            title: match title {
                Some(t) => Title::Known(t.to_string()),
                None => Title::Unknown(detail.and_then(|d| d.title.clone())),
            },
            parameters: detail.map(|d| d.attributes.clone()).unwrap_or_default(),
            file: self.index.files[place.0].path.to_path_buf(),
            line: self.line(place.0, place.1),
            certain,
            form,
        });
        match title {
            Some(title) => {
                self.by_reference
                    .insert((type_name.to_string(), title.to_string()), at);
                // A defined resource's body is evaluated after the code that declared
                // it; a virtual or exported one's only when collected.
                if form == ResourceForm::Regular {
                    if let Some(define) = self.index.define(type_name) {
                        let reference = format!("{}[{title}]", capitalize_segments(type_name));
                        self.instances.push_back((define, reference, certain));
                    }
                }
            }
            None => {
                self.by_place.insert(place, at);
                // An instance whose title is not known: its body is listed once, as
                // what some paths hold, under `Type[?]`.
                if form == ResourceForm::Regular {
                    if let Some(define) = self.index.define(type_name) {
                        let reference = format!("{}[?]", capitalize_segments(type_name));
                        self.instances.push_back((define, reference, false));
                    }
                }
            }
        }
        at
    }

    fn declare_class(
        &mut self,
        name: &str,
        certain: bool,
        container: &str,
        place: (usize, crate::source::Span),
        detail: Option<&Declared>,
    ) {
        let reference = format!("Class[{}]", capitalize_segments(name));
        match self.classes.get(name) {
            Some(&known) if known || !certain => return,
            _ => {}
        }
        let first = !self.classes.contains_key(name);
        self.classes.insert(name.to_string(), certain);
        if first {
            let title = capitalize_segments(name);
            let at = self.declare(
                "class",
                Some(&title),
                ResourceForm::Regular,
                certain,
                place,
                None,
            );
            if let Some(detail) = detail {
                self.resources[at].parameters = detail.attributes.clone();
            }
        } else if let Some(&at) = self
            .by_reference
            .get(&("class".to_string(), capitalize_segments(name)))
        {
            self.resources[at].certain = true;
        }
        self.edge(container, &reference);
        let Some(body) = self.index.class(name) else {
            return;
        };
        if let Body::Class {
            parent: Some(parent),
            ..
        } = &self.index.fragment(body).body
        {
            let parent = parent.clone();
            self.declare_class(&parent, certain, container, place, None);
        }
        self.evaluate(body, reference, certain);
    }
}
