//! The representation of Puppet types (spec 001 "Types, Values, and Variables").
//!
//! A [`Type`] is an `Arc` around a [`Kind`]: cloning is a reference-count bump, and
//! nested types share structure. The shapes follow Puppet 7's `Puppet::Pops::Types`
//! classes, because the operations (accepts, common, normalize, display) are defined
//! over those shapes and must give Puppet's answers, including where the spec differs
//! (see `DEVIATIONS.md`).

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// A Puppet type. Cheap to clone.
#[derive(Clone)]
pub struct Type(Arc<Kind>);

impl Type {
    /// For a type with one optional contained type (`Type[T]`, `Optional[T]`,
    /// `Iterable[T]`...): `f` applied to the contained type, rebuilt with `make`; the
    /// type itself when `f` changes nothing; `dflt()` when there is no contained type.
    pub fn map_contained(
        &self,
        inner: &Option<Type>,
        f: fn(&Type) -> Type,
        dflt: fn() -> Type,
        make: fn(Type) -> Type,
    ) -> Type {
        match inner {
            None => dflt(),
            Some(i) => {
                let mapped = f(i);
                if mapped.ptr_eq(i) {
                    self.clone()
                } else {
                    make(mapped)
                }
            }
        }
    }

    /// The same Struct, Tuple or Callable with `f` applied to each component type (struct
    /// values, tuple elements, callable parameters, block and return type); an
    /// unparameterised one is returned as it is. Other kinds are returned unchanged.
    pub fn map_components(&self, f: fn(&Type) -> Type) -> Type {
        match self.kind() {
            Kind::Struct(elems) => {
                if elems.is_empty() {
                    return t::structure();
                }
                t::structure_of(
                    elems
                        .iter()
                        .map(|e| StructElem {
                            key: e.key.clone(),
                            value: f(&e.value),
                        })
                        .collect(),
                )
            }
            Kind::Tuple { types, size } => {
                if types.is_empty() && size.is_none() {
                    return self.clone();
                }
                Type::new(Kind::Tuple {
                    types: types.iter().map(f).collect(),
                    size: *size,
                })
            }
            Kind::Callable { params, block, ret } => {
                if params.is_none() && block.is_none() && ret.is_none() {
                    return self.clone();
                }
                Type::new(Kind::Callable {
                    params: params.as_ref().map(f),
                    block: block.as_ref().map(f),
                    ret: ret.as_ref().map(f),
                })
            }
            _ => self.clone(),
        }
    }

    pub fn new(kind: Kind) -> Type {
        Type(Arc::new(kind))
    }
    pub fn kind(&self) -> &Kind {
        &self.0
    }
    /// Whether both handles point at the very same node (Ruby's `equal?`).
    pub fn ptr_eq(&self, other: &Type) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Type {
    type Target = Kind;
    fn deref(&self) -> &Kind {
        &self.0
    }
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl Hash for Type {
    // Equal types print equally (Variant and Pattern members are compared as sets,
    // so they are hashed by their kind only). Types as hash keys are rare.
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self.kind()).hash(state);
        match self.kind() {
            Kind::Variant(_) | Kind::Pattern(_) => {}
            _ => self.to_string().hash(state),
        }
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Types in the order first given, each once. A few are compared with each one added;
/// past that, the ones added are found by their hashes (a `Variant` of thousands of
/// members would otherwise cost the square of its size to build).
struct Distinct {
    list: Vec<Type>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl Distinct {
    /// How many types are compared one by one before hashes are used.
    const COMPARED: usize = 16;

    fn with_capacity(n: usize) -> Distinct {
        Distinct {
            list: Vec::with_capacity(n),
            by_hash: HashMap::new(),
        }
    }

    fn hash(t: &Type) -> u64 {
        use std::hash::BuildHasher;
        foldhash::fast::FixedState::default().hash_one(t)
    }

    fn push(&mut self, t: Type) {
        if self.list.len() < Self::COMPARED {
            if !self.list.contains(&t) {
                self.list.push(t);
            }
            return;
        }
        if self.by_hash.is_empty() {
            for (i, seen) in self.list.iter().enumerate() {
                self.by_hash.entry(Self::hash(seen)).or_default().push(i);
            }
        }
        let bucket = self.by_hash.entry(Self::hash(&t)).or_default();
        if bucket.iter().any(|&i| self.list[i] == t) {
            return;
        }
        bucket.push(self.list.len());
        self.list.push(t);
    }
}

/// An integer range; `None` at either end is unbounded (Puppet's `default`/infinity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntRange {
    pub from: Option<i64>,
    pub to: Option<i64>,
}

impl IntRange {
    pub const UNBOUNDED: IntRange = IntRange {
        from: None,
        to: None,
    };
    /// The default size of a collection: `Integer[0, default]`.
    pub const DEFAULT_SIZE: IntRange = IntRange {
        from: Some(0),
        to: None,
    };
    pub fn new(from: Option<i64>, to: Option<i64>) -> IntRange {
        IntRange { from, to }
    }
    pub fn exact(n: i64) -> IntRange {
        IntRange {
            from: Some(n),
            to: Some(n),
        }
    }
    /// Lower bound as i128 (unbounded = far below any i64).
    pub fn lo(&self) -> i128 {
        self.from.map(i128::from).unwrap_or(i128::MIN)
    }
    pub fn hi(&self) -> i128 {
        self.to.map(i128::from).unwrap_or(i128::MAX)
    }
    pub fn unbounded(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
    pub fn contains(&self, n: i128) -> bool {
        self.lo() <= n && n <= self.hi()
    }
    /// `self` covers `o` (Puppet `PIntegerType#_assignable?`).
    pub fn covers(&self, o: &IntRange) -> bool {
        self.lo() <= o.lo() && self.hi() >= o.hi()
    }
    /// Puppet's `PIntegerType#to_size`: a size range never goes below zero.
    pub fn to_size(self) -> IntRange {
        if self.lo() >= 0 {
            self
        } else {
            IntRange {
                from: Some(0),
                to: self.to.map(|t| t.max(0)),
            }
        }
    }
    pub fn is_empty_range(&self) -> bool {
        self.from == Some(0) && self.to == Some(0)
    }
}

/// A float range; infinities are unbounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatRange {
    pub from: f64,
    pub to: f64,
}

impl FloatRange {
    pub const UNBOUNDED: FloatRange = FloatRange {
        from: f64::NEG_INFINITY,
        to: f64::INFINITY,
    };
    pub fn unbounded(&self) -> bool {
        self.from == f64::NEG_INFINITY && self.to == f64::INFINITY
    }
    pub fn covers(&self, o: &FloatRange) -> bool {
        self.from <= o.from && self.to >= o.to
    }
}

/// A time range in nanoseconds (Timespan: a duration; Timestamp: since the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeRange {
    pub from: Option<i128>,
    pub to: Option<i128>,
}

impl TimeRange {
    pub const UNBOUNDED: TimeRange = TimeRange {
        from: None,
        to: None,
    };
    pub fn lo(&self) -> i128 {
        self.from.unwrap_or(i128::MIN)
    }
    pub fn hi(&self) -> i128 {
        self.to.unwrap_or(i128::MAX)
    }
    pub fn covers(&self, o: &TimeRange) -> bool {
        self.lo() <= o.lo() && self.hi() >= o.hi()
    }
    pub fn unbounded(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

/// A regular expression as Puppet keeps it: the source text, compiled on demand.
/// Ruby and Rust regexes differ in corner cases; the source text is what is
/// compared and printed, so only matching can differ.
#[derive(Clone)]
pub struct Regex {
    pub source: Arc<str>,
    compiled: Arc<OnceLock<Option<Arc<fancy_regex::Regex>>>>,
}

/// Compiled regexps by source, shared by every `Regex` with that source: types are
/// resolved again for each check, and compiling a large pattern (stdlib's address
/// types) costs far more than matching it.
/// The backtracking steps one match of a regexp that needs backtracking (lookaround,
/// back-references) may take before it gives up (and pupcheck cannot tell): a tenth
/// of fancy-regex's default, some 4 ms; real patterns on real strings take a few
/// hundred.
pub const BACKTRACK_LIMIT: usize = 100_000;

fn compile_cached(source: &str) -> Option<Arc<fancy_regex::Regex>> {
    type Cache =
        std::sync::Mutex<std::collections::HashMap<String, Option<Arc<fancy_regex::Regex>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok()?.get(source) {
        return found.clone();
    }
    let compiled = ruby_to_rust_regex(source)
        .and_then(|translated| {
            fancy_regex::RegexBuilder::new(&translated)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .ok()
        })
        .map(Arc::new);
    cache
        .lock()
        .ok()?
        .insert(source.to_string(), compiled.clone());
    compiled
}

/// A Ruby (Onigmo) regexp in the syntax of fancy-regex: `^` and `$` match at line
/// boundaries in Ruby (so the pattern runs in multi-line mode), Ruby's `m` flag is
/// "dot matches newline" (`s`), `\Z` allows a final newline, `\h` is a hex digit,
/// `\0` a NUL, `(?<name>` a named group (not a lookbehind), and where there is one,
/// plain groups do not capture.
///
/// Classes as Onigmo reads them for Puppet's UTF-8 strings (Puppet 7 through the
/// oracle: `'é' =~ /\w/` is false, `'é' =~ /[[:alpha:]]/` true): `\w`, `\d`, `\s`
/// and their negations are ASCII, where Rust's are Unicode; the POSIX brackets
/// (`[:alpha:]`) are Unicode, where Rust's are ASCII, except `[:xdigit:]`. `None`
/// for a bracket whose Unicode set has no short form here (`[:graph:]`, a negated
/// one, an unknown name): such a pattern is not run (see `Type::patterns_runnable`),
/// rather than run with another meaning.
pub fn ruby_to_rust_regex(source: &str) -> Option<String> {
    let mut out = String::with_capacity(source.len() + 8);
    out.push_str("(?m)");
    let chars: Vec<char> = source.chars().collect();
    // With a named group, Onigmo's plain groups do not capture.
    let named_groups = chars
        .windows(4)
        .any(|w| w[0] == '(' && w[1] == '?' && w[2] == '<' && w[3] != '=' && w[3] != '!');
    let mut in_class = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                let next = chars[i + 1];
                if let Some(class) = ascii_escape_class(next) {
                    // Inside a bracket, the set's items; a negated set stays a bracket,
                    // nested (`[^\W_]`).
                    let items_only = in_class > 0 && !class.starts_with("[^");
                    out.push_str(if items_only {
                        &class[1..class.len() - 1]
                    } else {
                        class
                    });
                    i += 2;
                    continue;
                }
                match (next, in_class > 0) {
                    ('Z', false) => out.push_str("(?=\\n?\\z)"),
                    ('0', _) if !chars.get(i + 2).is_some_and(|d| d.is_ascii_digit()) => {
                        out.push_str("\\x00")
                    }
                    _ => {
                        out.push(c);
                        out.push(next);
                    }
                }
                i += 2;
                continue;
            }
            '[' if in_class > 0 && chars.get(i + 1) == Some(&':') => {
                let name_end = chars[i + 2..]
                    .iter()
                    .position(|c| *c == ':')
                    .map(|at| i + 2 + at)?;
                if chars.get(name_end + 1) != Some(&']') {
                    return None;
                }
                let name: String = chars[i + 2..name_end].iter().collect();
                out.push_str(posix_bracket_items(&name)?);
                i = name_end + 2;
                continue;
            }
            '[' => in_class += 1,
            ']' if in_class > 0 => in_class -= 1,
            '(' if in_class == 0 && named_groups && chars.get(i + 1) != Some(&'?') => {
                out.push_str("(?:");
                i += 1;
                continue;
            }
            '(' if in_class == 0 && chars.get(i + 1) == Some(&'?') => {
                // `(?<name>`: a named group; `(?<=` and `(?<!` are lookbehinds.
                if chars.get(i + 2) == Some(&'<')
                    && chars.get(i + 3).is_some_and(|c| *c != '=' && *c != '!')
                {
                    out.push_str("(?P<");
                    i += 3;
                    continue;
                }
                // Inline flags: Ruby's `m` is `s` here.
                let mut j = i + 2;
                while chars.get(j).is_some_and(|c| "imx-".contains(*c)) {
                    j += 1;
                }
                if j > i + 2 && matches!(chars.get(j), Some(')') | Some(':')) {
                    out.push_str("(?");
                    for f in &chars[i + 2..j] {
                        out.push(if *f == 'm' { 's' } else { *f });
                    }
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    Some(out)
}

/// Onigmo's `\d`, `\w`, `\s`, `\h` (a hex digit) and their negations, which are
/// ASCII for Puppet's strings, as brackets (`\s` is Ruby's `[ \t\r\n\f\v]`).
fn ascii_escape_class(escape: char) -> Option<&'static str> {
    Some(match escape {
        'h' => "[0-9a-fA-F]",
        'H' => "[^0-9a-fA-F]",
        'd' => "[0-9]",
        'D' => "[^0-9]",
        'w' => "[a-zA-Z0-9_]",
        'W' => "[^a-zA-Z0-9_]",
        's' => "[\\t\\n\\x0B\\x0C\\r ]",
        'S' => "[^\\t\\n\\x0B\\x0C\\r ]",
        _ => return None,
    })
}

/// The items of a bracket that Onigmo's POSIX bracket `[:name:]` stands for on
/// Unicode strings (Onigmo's doc/RE), in Rust's syntax. `None` for one without a
/// short form here: `[:graph:]` and `[:print:]` (everything but some categories),
/// `[:cntrl:]` (unassigned code points), a negated one (`[:^alpha:]`), an unknown name.
fn posix_bracket_items(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => "\\p{Alphabetic}",
        "alnum" => "\\p{Alphabetic}\\p{Nd}",
        "digit" => "\\p{Nd}",
        "lower" => "\\p{Lowercase}",
        "upper" => "\\p{Uppercase}",
        "word" => "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}",
        "blank" => "\\p{Zs}\\t",
        "space" => "\\p{Zs}\\p{Zl}\\p{Zp}\\t\\n\\x0B\\x0C\\r\\x{85}",
        "punct" => "\\p{P}$+<=>^`|~",
        "xdigit" => "0-9a-fA-F",
        _ => return None,
    })
}

impl Regex {
    pub fn new(source: &str) -> Regex {
        Regex {
            source: Arc::from(source),
            compiled: Arc::new(OnceLock::new()),
        }
    }
    /// The compiled regex, or `None` when the Ruby syntax is not understood.
    pub fn compiled(&self) -> Option<&fancy_regex::Regex> {
        self.compiled
            .get_or_init(|| compile_cached(&self.source))
            .as_deref()
    }
    /// Whether the regexp matches somewhere in `s`; `None` when pupcheck cannot tell
    /// (a pattern it cannot compile, or one that gives up backtracking).
    pub fn try_match(&self, s: &str) -> Option<bool> {
        self.compiled().and_then(|r| r.is_match(s).ok())
    }
    /// Whether the regexp matches somewhere in `s`, for a type's judgement: a pattern
    /// pupcheck cannot compile matches nothing (`Type::patterns_runnable` keeps such
    /// types from findings), and one that gives up backtracking is taken to match, so
    /// an answer pupcheck does not know is never a mismatch; the give-up is noted for
    /// the evaluator ([`take_gave_up`]), which then knows nothing of the result.
    pub fn is_match(&self, s: &str) -> bool {
        match self.compiled() {
            None => false,
            Some(regex) => regex.is_match(s).unwrap_or_else(|_| {
                GAVE_UP.set(true);
                true
            }),
        }
    }
    pub fn is_valid(&self) -> bool {
        self.compiled().is_some()
    }
}

thread_local! {
    /// Whether a type's pattern gave up backtracking on this thread since the last
    /// [`take_gave_up`].
    static GAVE_UP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a type's pattern gave up backtracking on this thread since the last call;
/// clears the note.
pub fn take_gave_up() -> bool {
    GAVE_UP.replace(false)
}

impl PartialEq for Regex {
    fn eq(&self, o: &Regex) -> bool {
        self.source == o.source
    }
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}/", self.source)
    }
}

/// `String`, `String[min, max]`, or the internal string-with-value form that type
/// inference produces (`type('a')` is a `String` whose value is known; it prints as
/// `String`).
#[derive(Debug, Clone, PartialEq)]
pub enum StringSpec {
    Any,
    Size(IntRange),
    Value(Arc<str>),
}

/// A member of a `Struct`: the key type is a string-with-value type, possibly wrapped
/// in `Optional` (the key may be absent) or `NotUndef`.
#[derive(Debug, Clone, PartialEq)]
pub struct StructElem {
    pub key: Type,
    pub value: Type,
}

impl StructElem {
    /// The key string.
    pub fn name(&self) -> &str {
        fn inner(t: &Type) -> &str {
            match t.kind() {
                Kind::String(StringSpec::Value(v)) => v,
                Kind::Optional(Some(t)) | Kind::NotUndef(Some(t)) => inner(t),
                Kind::Enum { values, .. } if values.len() == 1 => &values[0],
                _ => "",
            }
        }
        inner(&self.key)
    }
}

/// A type alias (`type X = ...`). The body is set once after creation so that an
/// alias may refer to itself or to aliases defined after it.
pub struct Alias {
    pub name: String,
    body: OnceLock<Type>,
    self_recursive: OnceLock<bool>,
}

impl Alias {
    pub fn new(name: &str) -> Arc<Alias> {
        Arc::new(Alias {
            name: name.to_string(),
            body: OnceLock::new(),
            self_recursive: OnceLock::new(),
        })
    }
    /// Sets the body; ignored when already set.
    pub fn set_body(&self, body: Type) {
        let _ = self.body.set(body);
    }
    /// The resolved body; an unresolved alias behaves as `Any`... it should not happen
    /// in practice: resolution sets every body before the alias is used.
    pub fn resolved(&self) -> Type {
        self.body
            .get()
            .cloned()
            .unwrap_or_else(|| Type::new(Kind::Any))
    }
    pub fn is_resolved(&self) -> bool {
        self.body.get().is_some()
    }
    pub fn id(&self) -> usize {
        self as *const Alias as usize
    }
    /// Whether the alias reaches itself through its body (Puppet's `self_recursion?`).
    pub fn self_recursive(&self) -> bool {
        // Never cached before the body is set: asked during resolution (by
        // normalisation), a cached `false` made `type G = G` recurse without end later.
        let Some(body) = self.body.get() else {
            return false;
        };
        *self.self_recursive.get_or_init(|| {
            let mut seen = Vec::new();
            reaches(body, self.id(), &mut seen)
        })
    }
}

/// Whether `t` contains the alias `target` (following other aliases, each once).
fn reaches(t: &Type, target: usize, seen: &mut Vec<usize>) -> bool {
    // The type itself first: a body that is an alias (`type G = G`, `type A = B`) has no
    // children to find it among.
    if let Kind::Alias(a) = t.kind() {
        if a.id() == target {
            return true;
        }
        if seen.contains(&a.id()) {
            return false;
        }
        seen.push(a.id());
        return a.body.get().is_some_and(|b| reaches(b, target, seen));
    }
    let mut found = false;
    t.for_each_child(&mut |c| {
        if found {
            return;
        }
        if let Kind::Alias(a) = c.kind() {
            if a.id() == target {
                found = true;
                return;
            }
            if seen.contains(&a.id()) {
                return;
            }
            seen.push(a.id());
            if let Some(b) = a.body.get() {
                if reaches(b, target, seen) {
                    found = true;
                }
            }
            return;
        }
        if reaches(c, target, seen) {
            found = true;
        }
    });
    found
}

impl fmt::Debug for Alias {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Alias({})", self.name)
    }
}

impl PartialEq for Alias {
    fn eq(&self, o: &Alias) -> bool {
        self.name == o.name
    }
}

/// Members of a Variant or patterns of a Pattern: compared as sets, as Puppet does.
#[derive(Debug, Clone)]
pub struct Members<T>(pub Vec<T>);

impl<T: PartialEq> PartialEq for Members<T> {
    fn eq(&self, o: &Members<T>) -> bool {
        self.0.len() == o.0.len() && self.0.iter().all(|x| o.0.contains(x))
    }
}

impl<T> Deref for Members<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

/// A Pcore object type. pupcheck does not evaluate Pcore definitions: it keeps a type's
/// definition as Puppet's normal form prints it and compares types by it.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectType {
    /// `None` for `Object` itself and for an object type without a name.
    pub name: Option<Arc<str>>,
    /// The definition's hash as the normal form prints it (`{}` for `Object` itself,
    /// `{name => 'My::Obj'}`; Error's whole definition).
    pub definition: Arc<str>,
    /// The type parameters given (`Error['my/kind', undef]`).
    pub parameters: Option<Arc<[super::value::Value]>>,
}

impl ObjectType {
    /// `Object` itself, which every object type is.
    pub fn is_any(&self) -> bool {
        self.name.is_none() && &*self.definition == "{}"
    }

    /// One of the object types Puppet defines (`Error`, `Deferred`), by the normal form
    /// `data/pcore.toml` holds.
    pub fn builtin(name: &str) -> ObjectType {
        let key = name.to_ascii_lowercase();
        let printed = pcore_forms().get(&key).map_or("Object[{}]", String::as_str);
        let definition = printed
            .strip_prefix("Object[")
            .and_then(|d| d.strip_suffix(']'))
            .unwrap_or("{}");
        ObjectType {
            name: Some(Arc::from(name)),
            definition: Arc::from(definition),
            parameters: None,
        }
    }
}

/// The normal forms of the Pcore types Puppet defines (`data/pcore.toml`, generated by
/// `scripts/puppet/pcore.rb`), by lowercase key.
pub fn pcore_forms() -> &'static std::collections::HashMap<String, String> {
    static FORMS: OnceLock<std::collections::HashMap<String, String>> = OnceLock::new();
    FORMS.get_or_init(|| crate::builtin_data::Table::Pcore.read())
}

/// Every kind of type. Parameters that Puppet leaves `nil` are `None` here, because
/// `nil` and an explicit unbounded value print and compare differently.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Any,
    /// Puppet's internal `Unit` type: the element type of an empty array; accepts
    /// and is accepted by everything.
    Unit,
    Undef,
    Default,
    Scalar,
    ScalarData,
    Numeric,
    Integer(IntRange),
    Float(FloatRange),
    String(StringSpec),
    /// Values sorted and unique, as Puppet keeps them.
    Enum {
        values: Vec<Arc<str>>,
        case_insensitive: bool,
    },
    Pattern(Members<Regex>),
    Boolean(Option<bool>),
    Regexp(Option<Regex>),
    SemVer(Vec<super::semver_range::VersionRange>),
    SemVerRange,
    Timespan(TimeRange),
    Timestamp(TimeRange),
    Collection(Option<IntRange>),
    Array {
        elem: Type,
        size: Option<IntRange>,
    },
    Hash {
        key: Type,
        value: Type,
        size: Option<IntRange>,
    },
    Struct(Vec<StructElem>),
    Tuple {
        types: Vec<Type>,
        size: Option<IntRange>,
    },
    Variant(Members<Type>),
    Optional(Option<Type>),
    NotUndef(Option<Type>),
    Iterable(Option<Type>),
    Iterator(Option<Type>),
    CatalogEntry,
    Resource {
        type_name: Option<Arc<str>>,
        title: Option<Arc<str>>,
    },
    Class(Option<Arc<str>>),
    Type(Option<Type>),
    Callable {
        /// A `Tuple` of parameter types, `None` for a bare `Callable`.
        params: Option<Type>,
        block: Option<Type>,
        ret: Option<Type>,
    },
    Sensitive(Type),
    Runtime {
        runtime: Option<Arc<str>>,
        name: Option<RuntimeName>,
    },
    Binary,
    Uri(Option<Arc<str>>),
    /// `Init[T, args...]`: the type, and the arguments `T.new` is given after the value.
    Init(Option<Type>, std::sync::Arc<[super::value::Value]>),
    /// A Pcore object type: `Object` itself (any object), one written `Object[{...}]`,
    /// or one Puppet defines (`Error`, `Deferred`).
    Object(Arc<ObjectType>),
    TypeSet,
    Alias(Arc<Alias>),
    /// A reference to a type that could not be resolved (`TypeReference['X']`).
    Reference(Arc<str>),
}

/// The second parameter of `Runtime[ruby, 'Foo']` (a name or a pattern).
#[derive(Debug, Clone, PartialEq)]
pub enum RuntimeName {
    Name(Arc<str>),
    Pattern(Regex, Arc<str>),
}

impl Kind {
    /// Calls `f` on each directly contained type.
    pub fn for_each_child(&self, f: &mut dyn FnMut(&Type)) {
        match self {
            Kind::Array { elem, .. } => f(elem),
            Kind::Hash { key, value, .. } => {
                f(key);
                f(value)
            }
            Kind::Struct(elems) => {
                for e in elems {
                    f(&e.key);
                    f(&e.value)
                }
            }
            Kind::Tuple { types, .. } => types.iter().for_each(f),
            Kind::Variant(ts) => ts.iter().for_each(f),
            Kind::Optional(Some(t))
            | Kind::NotUndef(Some(t))
            | Kind::Iterable(Some(t))
            | Kind::Iterator(Some(t))
            | Kind::Type(Some(t))
            | Kind::Init(Some(t), _)
            | Kind::Sensitive(t) => f(t),
            Kind::Callable { params, block, ret } => {
                for t in [params, block, ret].into_iter().flatten() {
                    f(t)
                }
            }
            _ => {}
        }
    }

    /// Puppet's class hierarchy: is this kind a `PScalarType` (or subclass)?
    pub fn is_scalar_family(&self) -> bool {
        matches!(
            self,
            Kind::Scalar
                | Kind::SemVer(_)
                | Kind::Regexp(_)
                | Kind::Timespan(_)
                | Kind::Timestamp(_)
        ) || self.is_scalar_data_family()
    }
    /// Is this kind a `PScalarDataType` (or subclass)?
    pub fn is_scalar_data_family(&self) -> bool {
        matches!(
            self,
            Kind::ScalarData
                | Kind::Numeric
                | Kind::Integer(_)
                | Kind::Float(_)
                | Kind::String(_)
                | Kind::Enum { .. }
                | Kind::Pattern(_)
                | Kind::Boolean(_)
        )
    }
    /// Is this kind a `PCollectionType` (or subclass)?
    pub fn is_collection_family(&self) -> bool {
        matches!(
            self,
            Kind::Collection(_) | Kind::Array { .. } | Kind::Hash { .. }
        )
    }
    /// Is this kind a `PCatalogEntryType` (or subclass)?
    pub fn is_catalog_entry_family(&self) -> bool {
        matches!(
            self,
            Kind::CatalogEntry | Kind::Resource { .. } | Kind::Class(_)
        )
    }
}

// ------------------------------------------------------------------ constructors

/// Shared instances of the parameterless types, and constructors that apply the
/// same canonicalisation as Puppet's constructors (so that equal types compare equal).
pub mod t {
    use super::*;

    macro_rules! shared {
        ($name:ident, $kind:expr) => {
            pub fn $name() -> Type {
                static CELL: OnceLock<Type> = OnceLock::new();
                CELL.get_or_init(|| Type::new($kind)).clone()
            }
        };
    }
    shared!(any, Kind::Any);
    shared!(unit, Kind::Unit);
    shared!(undef, Kind::Undef);
    shared!(default, Kind::Default);
    shared!(scalar, Kind::Scalar);
    shared!(scalar_data, Kind::ScalarData);
    shared!(numeric, Kind::Numeric);
    shared!(integer, Kind::Integer(IntRange::UNBOUNDED));
    shared!(float, Kind::Float(FloatRange::UNBOUNDED));
    shared!(string, Kind::String(StringSpec::Any));
    shared!(boolean, Kind::Boolean(None));
    shared!(regexp, Kind::Regexp(None));
    shared!(semver, Kind::SemVer(Vec::new()));
    shared!(semver_range, Kind::SemVerRange);
    shared!(timespan, Kind::Timespan(TimeRange::UNBOUNDED));
    shared!(timestamp, Kind::Timestamp(TimeRange::UNBOUNDED));
    shared!(collection, Kind::Collection(None));
    shared!(
        array,
        Kind::Array {
            elem: any(),
            size: None
        }
    );
    shared!(
        hash,
        Kind::Hash {
            key: any(),
            value: any(),
            size: None
        }
    );
    shared!(
        empty_array,
        Kind::Array {
            elem: unit(),
            size: Some(IntRange::exact(0))
        }
    );
    shared!(
        empty_hash,
        Kind::Hash {
            key: unit(),
            value: unit(),
            size: Some(IntRange::exact(0))
        }
    );
    shared!(structure, Kind::Struct(Vec::new()));
    shared!(
        tuple_any,
        Kind::Tuple {
            types: Vec::new(),
            size: None
        }
    );
    shared!(variant_empty, Kind::Variant(Members(Vec::new())));
    shared!(optional_any, Kind::Optional(None));
    shared!(not_undef_any, Kind::NotUndef(None));
    shared!(iterable, Kind::Iterable(None));
    shared!(iterator, Kind::Iterator(None));
    shared!(catalog_entry, Kind::CatalogEntry);
    shared!(
        resource,
        Kind::Resource {
            type_name: None,
            title: None
        }
    );
    shared!(class, Kind::Class(None));
    shared!(type_any, Kind::Type(None));
    shared!(
        callable,
        Kind::Callable {
            params: None,
            block: None,
            ret: None
        }
    );
    shared!(sensitive, Kind::Sensitive(any()));
    shared!(
        runtime,
        Kind::Runtime {
            runtime: None,
            name: None
        }
    );
    shared!(binary, Kind::Binary);
    shared!(uri, Kind::Uri(None));
    shared!(init, Kind::Init(None, std::sync::Arc::new([])));
    shared!(
        object,
        Kind::Object(Arc::new(ObjectType {
            name: None,
            definition: Arc::from("{}"),
            parameters: None,
        }))
    );
    shared!(error, Kind::Object(Arc::new(ObjectType::builtin("Error"))));
    shared!(
        deferred,
        Kind::Object(Arc::new(ObjectType::builtin("Deferred")))
    );
    shared!(type_set, Kind::TypeSet);
    shared!(
        enum_any,
        Kind::Enum {
            values: Vec::new(),
            case_insensitive: false
        }
    );
    shared!(pattern_any, Kind::Pattern(Members(Vec::new())));
    shared!(
        non_empty_string,
        Kind::String(StringSpec::Size(IntRange {
            from: Some(1),
            to: None
        }))
    );

    pub fn integer_range(from: Option<i64>, to: Option<i64>) -> Type {
        Type::new(Kind::Integer(IntRange { from, to }))
    }
    pub fn integer_value(n: i64) -> Type {
        Type::new(Kind::Integer(IntRange::exact(n)))
    }
    pub fn float_range(from: f64, to: f64) -> Type {
        Type::new(Kind::Float(FloatRange { from, to }))
    }
    pub fn string_sized(size: IntRange) -> Type {
        Type::new(Kind::String(StringSpec::Size(size.to_size())))
    }
    pub fn string_value(v: &str) -> Type {
        Type::new(Kind::String(StringSpec::Value(Arc::from(v))))
    }
    pub fn boolean_value(b: bool) -> Type {
        Type::new(Kind::Boolean(Some(b)))
    }
    /// `Enum[...]`: values sorted and deduplicated, as Puppet stores them.
    pub fn enumeration<S: AsRef<str>>(values: &[S], case_insensitive: bool) -> Type {
        let mut v: Vec<Arc<str>> = values.iter().map(|s| Arc::from(s.as_ref())).collect();
        v.sort();
        v.dedup();
        Type::new(Kind::Enum {
            values: v,
            case_insensitive,
        })
    }
    pub fn pattern(regexes: Vec<Regex>) -> Type {
        let mut uniq: Vec<Regex> = Vec::new();
        for r in regexes {
            if !uniq.contains(&r) {
                uniq.push(r)
            }
        }
        Type::new(Kind::Pattern(Members(uniq)))
    }
    pub fn regexp_of(source: &str) -> Type {
        Type::new(Kind::Regexp(Some(Regex::new(source))))
    }
    pub fn array_sized(elem: Type, size: Option<IntRange>) -> Type {
        let size = size.map(IntRange::to_size);
        let elem = if size.is_some_and(|s| s.is_empty_range()) {
            unit()
        } else {
            elem
        };
        Type::new(Kind::Array { elem, size })
    }
    pub fn array_of(elem: Type) -> Type {
        array_sized(elem, None)
    }
    pub fn hash_sized(key: Type, value: Type, size: Option<IntRange>) -> Type {
        let size = size.map(IntRange::to_size);
        if size.is_some_and(|s| s.is_empty_range()) {
            return Type::new(Kind::Hash {
                key: unit(),
                value: unit(),
                size,
            });
        }
        Type::new(Kind::Hash { key, value, size })
    }
    pub fn hash_of(key: Type, value: Type) -> Type {
        hash_sized(key, value, None)
    }
    pub fn collection_sized(size: Option<IntRange>) -> Type {
        Type::new(Kind::Collection(size.map(IntRange::to_size)))
    }
    pub fn tuple(types: Vec<Type>, size: Option<IntRange>) -> Type {
        Type::new(Kind::Tuple {
            types,
            size: size.map(IntRange::to_size),
        })
    }
    /// `Variant[...]` as Puppet's `maybe_create`: nested variants flattened,
    /// duplicates removed, a single member returned as itself.
    pub fn variant(types: Vec<Type>) -> Type {
        let mut flat = Distinct::with_capacity(types.len());
        for t in types {
            match t.kind() {
                Kind::Variant(inner) => {
                    for i in inner.iter() {
                        flat.push(i.clone());
                    }
                }
                _ => flat.push(t),
            }
        }
        let mut flat = flat.list;
        if flat.len() == 1 {
            return flat.pop().expect("one member");
        }
        Type::new(Kind::Variant(Members(flat)))
    }
    /// `Variant[...]` exactly as written (no flattening): the evaluator's
    /// `Variant[...]` does flatten, so this is only for internal use.
    pub fn variant_raw(types: Vec<Type>) -> Type {
        Type::new(Kind::Variant(Members(types)))
    }
    pub fn optional(t: Type) -> Type {
        Type::new(Kind::Optional(Some(t)))
    }
    /// `NotUndef[T]`; `NotUndef[Any]` is `NotUndef`.
    pub fn not_undef(t: Type) -> Type {
        if matches!(t.kind(), Kind::Any) {
            return not_undef_any();
        }
        Type::new(Kind::NotUndef(Some(t)))
    }
    pub fn type_of(t: Type) -> Type {
        Type::new(Kind::Type(Some(t)))
    }
    pub fn iterable_of(t: Type) -> Type {
        Type::new(Kind::Iterable(Some(t)))
    }
    pub fn iterator_of(t: Type) -> Type {
        Type::new(Kind::Iterator(Some(t)))
    }
    /// `Sensitive[T]`: Puppet keeps only the generalised contained type.
    pub fn sensitive_of(t: Type) -> Type {
        Type::new(Kind::Sensitive(super::super::generalize::generalize(&t)))
    }
    pub fn resource_named(type_name: Option<&str>, title: Option<&str>) -> Type {
        Type::new(Kind::Resource {
            type_name: type_name.map(Arc::from),
            title: title.map(Arc::from),
        })
    }
    pub fn class_named(name: Option<&str>) -> Type {
        Type::new(Kind::Class(name.map(Arc::from)))
    }
    pub fn alias(a: Arc<Alias>) -> Type {
        Type::new(Kind::Alias(a))
    }
    pub fn callable_of(params: Option<Type>, block: Option<Type>, ret: Option<Type>) -> Type {
        let ret = ret.filter(|r| !matches!(r.kind(), Kind::Any));
        Type::new(Kind::Callable { params, block, ret })
    }
    /// A Struct from (key type, value type) pairs, applying Puppet's rule that a
    /// plain string key whose value type accepts `Undef` becomes an optional key.
    pub fn structure_of(elems: Vec<StructElem>) -> Type {
        Type::new(Kind::Struct(elems))
    }

    /// The built-in aliases `Data`, `RichData`, `RichDataKey` (Puppet's static loader).
    pub fn data() -> Type {
        builtin_aliases().0.clone()
    }
    pub fn rich_data() -> Type {
        builtin_aliases().1.clone()
    }
    pub fn rich_data_key() -> Type {
        builtin_aliases().2.clone()
    }

    fn builtin_aliases() -> &'static (Type, Type, Type) {
        static CELL: OnceLock<(Type, Type, Type)> = OnceLock::new();
        CELL.get_or_init(|| {
            // Data = Variant[ScalarData, Undef, Hash[String, Data], Array[Data]],
            // normalised as Puppet does on alias resolution.
            let data = Alias::new("Data");
            let data_t = alias(data.clone());
            // Puppet resolves the built-in aliases without normalising them.
            data.set_body(variant(vec![
                scalar_data(),
                undef(),
                hash_of(string(), data_t.clone()),
                array_of(data_t.clone()),
            ]));
            let key = Alias::new("RichDataKey");
            let key_t = alias(key.clone());
            key.set_body(variant(vec![string(), numeric()]));
            let rich = Alias::new("RichData");
            let rich_t = alias(rich.clone());
            rich.set_body(variant(vec![
                scalar(),
                semver_range(),
                binary(),
                sensitive(),
                type_any(),
                type_set(),
                uri(),
                object(),
                undef(),
                default(),
                hash_of(key_t.clone(), rich_t.clone()),
                array_of(rich_t.clone()),
            ]));
            (data_t, rich_t, key_t)
        })
    }
}

pub fn is_builtin_alias(name: &str) -> bool {
    matches!(name, "Data" | "RichData" | "RichDataKey")
}

impl Type {
    /// The type an alias stands for, through chains of aliases (`type A = B`); the type
    /// itself when it is no alias. `None` for an alias whose body is not set, or one
    /// that reaches itself (its values are not one kind of type).
    pub fn dealiased(&self) -> Option<Type> {
        let mut ty = self.clone();
        // A chain longer than this is a loop the self-recursion check did not see.
        for _ in 0..64 {
            let Kind::Alias(a) = ty.kind() else {
                return Some(ty);
            };
            if !a.is_resolved() || a.self_recursive() {
                return None;
            }
            ty = a.resolved();
        }
        None
    }
}

impl Type {
    /// Whether every regexp in the type (through aliases, recursive ones included) is
    /// one pupcheck can run. When not, a value failing to match it proves nothing.
    pub fn patterns_runnable(&self) -> bool {
        fn walk(ty: &Type, seen: &mut Vec<usize>) -> bool {
            match ty.kind() {
                Kind::Pattern(members) => members.0.iter().all(Regex::is_valid),
                Kind::Regexp(Some(r)) => r.is_valid(),
                Kind::Alias(a) => {
                    if seen.contains(&a.id()) {
                        return true;
                    }
                    seen.push(a.id());
                    walk(&a.resolved(), seen)
                }
                kind => {
                    let mut runnable = true;
                    kind.for_each_child(&mut |child| runnable = runnable && walk(child, seen));
                    runnable
                }
            }
        }
        walk(self, &mut Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_classes_keep_onigmos_sets() {
        // `tests/golden/types/regex_classes.jsonl` holds Puppet's answers; these are the
        // translations themselves.
        assert_eq!(
            ruby_to_rust_regex(r"\A\w+\z").as_deref(),
            Some(r"(?m)\A[a-zA-Z0-9_]+\z")
        );
        assert_eq!(
            ruby_to_rust_regex(r"[^\s\d]").as_deref(),
            Some(r"(?m)[^\t\n\x0B\x0C\r 0-9]")
        );
        assert_eq!(
            ruby_to_rust_regex(r"[x\W]").as_deref(),
            Some(r"(?m)[x[^a-zA-Z0-9_]]")
        );
        assert_eq!(
            ruby_to_rust_regex(r"[[:alpha:]_]").as_deref(),
            Some(r"(?m)[\p{Alphabetic}_]")
        );
        assert_eq!(
            ruby_to_rust_regex(r"[x\H]").as_deref(),
            Some(r"(?m)[x[^0-9a-fA-F]]")
        );
        // An escaped backslash before a letter is no class.
        assert_eq!(ruby_to_rust_regex(r"\\w").as_deref(), Some(r"(?m)\\w"));
    }

    #[test]
    fn brackets_without_a_faithful_form_are_not_run() {
        for source in ["[[:graph:]]", "[[:^alpha:]]", "[[:nonsense:]]", "[[:alpha]"] {
            assert_eq!(ruby_to_rust_regex(source), None, "{source}");
        }
        assert!(Regex::new("[[:print:]]").compiled().is_none());
        assert!(Regex::new(r"\A[x\W]\z").compiled().is_some());
    }
}
