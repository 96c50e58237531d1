//! One compile of an entry point: the bodies in Puppet's order, stopping at the first
//! error, as Puppet's compiler stops.

use super::{BodyRef, EntryPoint, FileFragments, Finding, FindingKind, Index, Place};
use crate::ast::ResourceForm;
use crate::infer::fragment::{Body, Event, EventKind, Keys, Target};
use crate::types::display::capitalize_segments;
use foldhash::HashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// The most events one compile visits: past it the compile stops, finding nothing
/// more (a bound on what a hostile environment costs, far above real roles).
const MAX_EVENTS: usize = 200_000;

/// How the catalog reached a body: the entry point's name, then each body on the way
/// (`role::web`, `profile::a`, `Apache::Vhost[www]`).
type Chain = Rc<Vec<String>>;

/// The first declaration of a reference.
struct Declared {
    at: Place,
    chain: Chain,
}

/// The error a compile stops at.
pub(super) struct Raised {
    pub kind: FindingKind,
    reference: String,
    pub at: Place,
    chain: Chain,
    first: Place,
    first_chain: Chain,
    entry: String,
    /// The resource a relationship names (`MissingTarget`), by type and title.
    pub target: Option<(String, String)>,
}

impl Raised {
    /// How long the chains that reach the two declarations are.
    pub fn weight(&self) -> usize {
        self.chain.len() + self.first_chain.len()
    }

    /// Where the finding is shown: where Puppet raises it, or, when that is in an
    /// installed module, the first declaration (when that one is checked).
    pub fn shown_at(&self, files: &[FileFragments]) -> Option<Place> {
        if !files[self.at.file].installed {
            Some(self.at)
        } else if !files[self.first.file].installed {
            Some(self.first)
        } else {
            None
        }
    }

    pub fn finding(&self, files: &[FileFragments]) -> Finding {
        let message = match self.kind {
            FindingKind::Alias => format!("Cannot alias {}", self.reference),
            _ => format!(
                "Duplicate declaration: {} is already declared",
                self.reference
            ),
        };
        let mut notes = Vec::new();
        if self.kind == FindingKind::MissingTarget {
            notes.push(format!(
                "in the catalog of {}, reached by {}; no code of the environment declares it",
                self.entry,
                self.chain.join(" -> ")
            ));
            return Finding {
                kind: self.kind,
                message: self.reference.clone(),
                at: self.at.span,
                first: None,
                notes,
            };
        }
        if files[self.at.file].installed {
            // Shown at the first declaration, the one the user's code makes.
            notes.push(format!(
                "declared again at {}, in an installed module, where Puppet raises it",
                self.at.describe(files)
            ));
            notes.push(format!(
                "in the catalog of {}: first by {}, again by {}",
                self.entry,
                self.first_chain.join(" -> "),
                self.chain.join(" -> ")
            ));
            return Finding {
                kind: self.kind,
                message,
                at: self.first.span,
                first: None,
                notes,
            };
        }
        let same_file = self.first.file == self.at.file;
        if !same_file {
            notes.push(format!("first declared at {}", self.first.describe(files)));
        }
        notes.push(if self.first_chain == self.chain {
            format!(
                "in the catalog of {}, both by {}",
                self.entry,
                self.chain.join(" -> ")
            )
        } else {
            format!(
                "in the catalog of {}: first by {}, again by {}",
                self.entry,
                self.first_chain.join(" -> "),
                self.chain.join(" -> ")
            )
        });
        Finding {
            kind: self.kind,
            message,
            at: self.at.span,
            // (Two instances of one defined type declare at one place.)
            first: (same_file && self.first.span != self.at.span).then_some(self.first.span),
            notes,
        }
    }
}

pub(super) struct Run<'i, 'f> {
    index: &'i Index<'f>,
    entry: String,
    classes: HashMap<String, Declared>,
    resources: HashMap<(String, String), Declared>,
    /// Defined resources declared, evaluated after the code that declared them.
    instances: VecDeque<(BodyRef, Chain)>,
    events: usize,
    raised: Option<Raised>,
    /// Puppet stops here with an error of its own (not one this pass reports).
    halted: bool,
    /// Each type's key rules, read once per compile.
    key_rules: HashMap<String, Option<KeyRules>>,
    /// Relationships to resources made on every path, checked when the compile ends.
    relations: Vec<(Place, Chain, Target)>,
    /// Resources the catalog may hold besides those declared on every path: declared
    /// on some paths, or virtual or exported (a collector may bring them).
    maybe: foldhash::HashSet<(String, String)>,
    /// Types of which the catalog may hold resources under titles not known here.
    open_types: foldhash::HashSet<String>,
    /// Whether the catalog may hold anything more: a body not followed (an include on
    /// some paths or of a name not known, a class or defined type without one body).
    open: bool,
}

/// What makes two declarations of a type one resource.
type KeyRules = (
    std::sync::Arc<crate::builtin::resource_type::ResourceType>,
    Option<regex::Regex>,
);

/// A uniqueness key as Ruby's `inspect` writes it (`["/tmp/a"]`, `[nil, "curl", nil]`),
/// where pupcheck writes it as Ruby does: plain printable ASCII.
fn ruby_inspect(key: &[Option<String>]) -> Option<String> {
    let parts: Option<Vec<String>> = key
        .iter()
        .map(|part| match part {
            None => Some("nil".to_string()),
            Some(s)
                if s.chars().all(|c| c.is_ascii_graphic() || c == ' ')
                    && !s.contains(['"', '\\', '#']) =>
            {
                Some(format!("\"{s}\""))
            }
            Some(_) => None,
        })
        .collect();
    Some(format!("[{}]", parts?.join(", ")))
}

impl<'i, 'f> Run<'i, 'f> {
    pub fn new(index: &'i Index<'f>) -> Run<'i, 'f> {
        Run {
            index,
            entry: String::new(),
            classes: HashMap::default(),
            resources: HashMap::default(),
            instances: VecDeque::new(),
            events: 0,
            raised: None,
            halted: false,
            key_rules: HashMap::default(),
            relations: Vec::new(),
            maybe: foldhash::HashSet::default(),
            open_types: foldhash::HashSet::default(),
            open: false,
        }
    }

    /// Compiles the entry point: the error the compile stops at, if it stops at one;
    /// else, when the catalog holds nothing this compile does not know of, each
    /// relationship to a resource it lacks (Puppet checks them as it finishes).
    pub fn compile(mut self, entry: &EntryPoint) -> Vec<Raised> {
        self.entry = entry.name.clone();
        for &body in &entry.bodies {
            let name = match &self.index.fragment(body).body {
                Body::Class { name, .. } => {
                    let place = Place {
                        file: body.file,
                        span: self.index.fragment(body).span,
                    };
                    // The entry point's class is declared by its compile.
                    self.declare_class(name, false, place, &Rc::new(Vec::new()));
                    continue;
                }
                Body::Node { names } => format!("node {}", names.join(", ")),
                _ => "main".to_string(),
            };
            self.evaluate(body, &Rc::new(vec![name]));
        }
        while let Some((body, chain)) = self.instances.pop_front() {
            if self.stopped() {
                break;
            }
            self.evaluate(body, &chain);
        }
        if let Some(raised) = self.raised.take() {
            return vec![raised];
        }
        if self.stopped() || self.open {
            return Vec::new();
        }
        let relations = std::mem::take(&mut self.relations);
        relations
            .into_iter()
            .filter(|(_, _, target)| !self.may_hold(target))
            .map(|(at, chain, target)| Raised {
                kind: FindingKind::MissingTarget,
                reference: target.message,
                at,
                chain: chain.clone(),
                first: at,
                first_chain: chain,
                entry: self.entry.clone(),
                target: Some((target.type_name, target.title)),
            })
            .collect()
    }

    /// Whether the catalog holds, or may hold, the resource a relationship names.
    fn may_hold(&self, target: &Target) -> bool {
        let key = (target.type_name.clone(), target.title.clone());
        // (Puppet's own: the main stage; a file by its path without a trailing slash.)
        let file_path = target.type_name == "file"
            && (target.title.ends_with('/') || target.title.contains("//"));
        matches!(target.type_name.as_str(), "stage" | "node" | "class")
            || file_path
            || self.resources.contains_key(&key)
            || self.maybe.contains(&key)
            || self.open_types.contains(&target.type_name)
    }

    /// What an event on any path says of what else the catalog may hold.
    fn note_openness(&mut self, event: &Event) {
        match &event.kind {
            EventKind::Declare {
                type_name,
                titles,
                form,
                ..
            } => {
                match titles {
                    None => {
                        self.open_types.insert(type_name.clone());
                    }
                    Some(titles) if !event.certain || *form != ResourceForm::Regular => {
                        for title in titles {
                            self.maybe.insert((type_name.clone(), title.clone()));
                        }
                    }
                    Some(_) => {}
                }
                // A defined resource whose body this compile does not follow.
                let defined = crate::builtin::resource_type(type_name).is_none();
                if defined
                    && *form == ResourceForm::Regular
                    && (!event.certain
                        || titles.is_none()
                        || self.index.define(type_name).is_none())
                {
                    self.open = true;
                }
            }
            EventKind::Include { classes, .. } | EventKind::DeclareClass { classes, .. }
                if classes.is_none() || !event.certain =>
            {
                self.open = true;
            }
            EventKind::MayDeclare {
                type_name: Some(type_name),
            } => {
                self.open_types.insert(type_name.clone());
            }
            EventKind::MayDeclare { type_name: None } | EventKind::RelationshipsMayChange => {
                self.open = true
            }
            _ => {}
        }
    }

    fn stopped(&self) -> bool {
        self.raised.is_some() || self.halted || self.events > MAX_EVENTS
    }

    /// Evaluates a body's certain events in order, `chain` having reached it.
    fn evaluate(&mut self, body: BodyRef, chain: &Chain) {
        let fragment = self.index.fragment(body);
        for event in &fragment.events {
            self.events += 1;
            if self.stopped() {
                return;
            }
            self.note_openness(event);
            if !event.certain {
                continue;
            }
            let place = Place {
                file: body.file,
                span: event.span,
            };
            match &event.kind {
                EventKind::Declare {
                    type_name,
                    titles: Some(titles),
                    form,
                    keys,
                    ..
                } => {
                    for title in titles {
                        self.declare_resource(type_name, title, *form, place, chain);
                        self.alias(type_name, title, keys, place, chain);
                    }
                }
                EventKind::Include {
                    classes: Some(classes),
                    ..
                } => {
                    for class in classes {
                        self.declare_class(class, false, place, chain);
                    }
                }
                EventKind::DeclareClass {
                    classes: Some(classes),
                    ..
                } => {
                    for class in classes {
                        self.declare_class(class, true, place, chain);
                    }
                }
                EventKind::Relate { targets } => {
                    for target in targets {
                        self.relations.push((place, chain.clone(), target.clone()));
                    }
                }
                // Puppet stops here, with an error of its own.
                EventKind::Stop => {
                    self.halted = true;
                    return;
                }
                _ => {}
            }
        }
    }

    fn declare_resource(
        &mut self,
        type_name: &str,
        title: &str,
        form: ResourceForm,
        at: Place,
        chain: &Chain,
    ) {
        if self.stopped() {
            return;
        }
        let key = (type_name.to_string(), title.to_string());
        if let Some(first) = self.resources.get(&key) {
            let first = (first.at, first.chain.clone());
            let reference = format!("{}[{title}]", capitalize_segments(type_name));
            self.raise(FindingKind::DuplicateResource, reference, at, chain, first);
            return;
        }
        self.resources.insert(
            key,
            Declared {
                at,
                chain: chain.clone(),
            },
        );
        // A defined resource's body is evaluated later, once per title; a virtual or
        // exported one's only when collected, which this compile does not follow.
        if form == ResourceForm::Regular {
            if let Some(define) = self.index.define(type_name) {
                let mut reached = (**chain).clone();
                reached.push(format!("{}[{title}]", capitalize_segments(type_name)));
                self.instances.push_back((define, Rc::new(reached)));
            }
        }
    }

    /// The alias Puppet makes for a resource of one of its isomorphic types whose
    /// uniqueness key is not its title (`Catalog#create_resource_aliases`): a resource
    /// already declared by that key (or with that key) makes it fail.
    fn alias(&mut self, type_name: &str, title: &str, keys: &Keys, at: Place, chain: &Chain) {
        let Keys::Given(given) = keys else {
            return;
        };
        if self.stopped() || self.index.keys_may_change(type_name) {
            return;
        }
        let Some((resource_type, regex)) = self.key_rules(type_name).cloned() else {
            return;
        };
        let lookup = |attribute: &str| {
            given
                .iter()
                .find(|(name, _)| name == attribute)
                .map(|(_, value)| value.clone())
        };
        let Some(key) = resource_type.uniqueness_key(title, &lookup, regex.as_ref()) else {
            return;
        };
        let shown = capitalize_segments(type_name);
        let (alias, inspected) = match key.as_slice() {
            [Some(one)] if one == title => return,
            [Some(one)] => ((type_name.to_string(), one.clone()), ruby_inspect(&key)),
            _ => (
                (format!("{type_name} (key)"), format!("{key:?}")),
                ruby_inspect(&key),
            ),
        };
        if let Some(first) = self.resources.get(&alias) {
            let first = (first.at, first.chain.clone());
            // (A key Ruby would write otherwise than pupcheck can is not judged.)
            if let Some(inspected) = inspected {
                let reference = format!("{shown}[{title}] to {inspected}");
                self.raise(FindingKind::Alias, reference, at, chain, first);
            }
            return;
        }
        self.resources.insert(
            alias,
            Declared {
                at,
                chain: chain.clone(),
            },
        );
    }

    /// A type's key rules: Puppet's own types only (a module's may not be what the
    /// table says), each read once.
    fn key_rules(&mut self, type_name: &str) -> Option<&KeyRules> {
        if !self.key_rules.contains_key(type_name) {
            let rules = crate::builtin::resource_type(type_name).and_then(|t| {
                let regex = t.title_regex().ok()?;
                Some((t, regex))
            });
            self.key_rules.insert(type_name.to_string(), rules);
        }
        self.key_rules[type_name].as_ref()
    }

    fn declare_class(&mut self, name: &str, resource_like: bool, at: Place, chain: &Chain) {
        if self.stopped() {
            return;
        }
        if let Some(first) = self.classes.get(name) {
            let first = (first.at, first.chain.clone());
            // `include` of a class declared before is nothing; `class { 'x': }` fails.
            if resource_like {
                let reference = format!("Class[{}]", capitalize_segments(name));
                self.raise(FindingKind::DuplicateClass, reference, at, chain, first);
            }
            return;
        }
        self.classes.insert(
            name.to_string(),
            Declared {
                at,
                chain: chain.clone(),
            },
        );
        let Some(body) = self.index.class(name) else {
            // (What a class pupcheck has no one body of declares is not known.)
            self.open = true;
            return;
        };
        // A class's parent is evaluated first.
        if let Body::Class {
            parent: Some(parent),
            ..
        } = &self.index.fragment(body).body
        {
            self.declare_class(parent, false, at, chain);
        }
        let mut reached = (**chain).clone();
        reached.push(name.to_string());
        self.evaluate(body, &Rc::new(reached));
    }

    fn raise(
        &mut self,
        kind: FindingKind,
        reference: String,
        at: Place,
        chain: &Chain,
        (first, first_chain): (Place, Chain),
    ) {
        self.raised = Some(Raised {
            kind,
            reference,
            at,
            chain: chain.clone(),
            first,
            first_chain,
            entry: self.entry.clone(),
            target: None,
        });
    }
}
