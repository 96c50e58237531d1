//! The types pupcheck gives facts (`data/facts.toml`, from Facter's schema) against
//! what Facter itself resolves on this machine: every fact and key the schema types
//! must hold a value of that type, or the evaluator would judge code by a type the
//! fact does not have. Facter comes with Puppet (scripts/setup.sh); without it the
//! test says so and passes, unless PUPCHECK_REQUIRE_CORPUS=1 requires it.

use pupcheck::builtin::facts::value_type;
use pupcheck::types::{instance_of, t, Value};

/// A value of the JSON value's kind: enough to ask which scalar or collection type it
/// is an instance of.
fn kind_of(json: &serde_json::Value) -> Value {
    match json {
        serde_json::Value::Null => Value::Undef,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) if n.is_i64() => Value::Integer(n.as_i64().unwrap()),
        serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(0.0)),
        serde_json::Value::String(s) => Value::string(s),
        serde_json::Value::Array(_) => Value::array(Vec::new()),
        serde_json::Value::Object(_) => Value::Hash(Default::default()),
    }
}

fn walk(
    path: &mut Vec<String>,
    json: &serde_json::Value,
    checked: &mut usize,
    out: &mut Vec<String>,
) {
    if let Some(ty) = value_type(path) {
        *checked += 1;
        // A fact a node lacks is undef, as the evaluator takes it too.
        let value = kind_of(json);
        if !instance_of(&value, &t::optional(ty.clone())) {
            out.push(format!(
                "{}: Facter gives {json}, typed {ty}",
                path.join(".")
            ));
        }
    }
    if let serde_json::Value::Object(entries) = json {
        for (key, child) in entries {
            path.push(key.clone());
            walk(path, child, checked, out);
            path.pop();
        }
    }
}

#[test]
fn every_typed_fact_facter_resolves_is_of_its_type() {
    let run = std::process::Command::new("facter")
        .args(["--json", "--show-legacy"])
        .output();
    // In a container Facter cannot read some of /proc: it says so and exits 1, with the
    // facts it resolved on stdout.
    let facts: Option<serde_json::Value> = run
        .ok()
        .and_then(|o| serde_json::from_slice(&o.stdout).ok());
    let facts = match facts {
        Some(facts) => facts,
        None => {
            if std::env::var("PUPCHECK_REQUIRE_CORPUS").as_deref() == Ok("1") {
                panic!("facter is not installed: run scripts/setup.sh");
            }
            eprintln!("facter not installed; skipping");
            return;
        }
    };
    let (mut checked, mut problems) = (0, Vec::new());
    walk(&mut Vec::new(), &facts, &mut checked, &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked > 50, "only {checked} facts typed");
    eprintln!("{checked} facts and keys Facter resolves are of their schema's type");
}
