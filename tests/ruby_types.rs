//! pupcheck's reader of the resource types modules write in Ruby (ruby::resource_type)
//! against Puppet itself: tests/golden/corpus_ruby_types.jsonl holds the attributes
//! Puppet loads for each type of the corpus (scripts/puppet/ruby_types.rb). A type the
//! reader says it knows must accept every one of them, or pupcheck would report a
//! valid attribute as unknown, and every value Puppet accepts for an attribute it reads
//! a closed list of; the reader may leave a type unknown, never wrong.

mod common;

use pupcheck::ruby::resource_type::read_type;

#[test]
fn every_type_read_accepts_every_attribute_puppet_loads() {
    // Another set (PUPCHECK_RUBY_TYPES=GOLDEN:MODULES, written by the script with the
    // same arguments), e.g. current public modules.
    let other = std::env::var("PUPCHECK_RUBY_TYPES").ok();
    let (golden, modules) = match other.as_deref().and_then(|o| o.split_once(':')) {
        Some((golden, modules)) => (std::path::PathBuf::from(golden), modules.to_string()),
        None => {
            if common::corpus_files().is_none() {
                return;
            }
            let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/golden/corpus_ruby_types.jsonl");
            (golden, common::MODULES.to_string())
        }
    };
    let golden = std::fs::read_to_string(golden).unwrap();
    // A type some module's provider adds to is not judged (Environment::resource_type).
    let loader = pupcheck::env::Loader::new(&[std::path::PathBuf::from(&modules)], &[]);
    let (mut known, mut total, mut problems) = (0, 0, Vec::new());
    let (mut valued, mut typed) = (0, 0);
    for line in golden.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let (module, name) = (
            row["module"].as_str().unwrap(),
            row["type"].as_str().unwrap(),
        );
        let Some(attributes) = row["attributes"].as_array() else {
            continue;
        };
        total += 1;
        if loader.providers_extend(name) {
            continue;
        }
        let file = format!("{modules}/{module}/lib/puppet/type/{name}.rb");
        let text = std::fs::read_to_string(&file).unwrap();
        let Some(read) = read_type(&text, name) else {
            continue;
        };
        known += 1;
        for attribute in attributes {
            let attribute = attribute.as_str().unwrap();
            if !read.accepts_attribute(attribute) {
                problems.push(format!(
                    "{file}: Puppet's attribute '{attribute}' is not read"
                ));
            }
        }
        // A closed list read must hold every value Puppet accepts, and be read only
        // where Puppet's list is closed.
        for (attribute, values) in &read.values {
            let Some(puppets) = row["values"][attribute].as_array() else {
                problems.push(format!(
                    "{file}: '{attribute}' read as taking only {values:?}; Puppet takes more"
                ));
                continue;
            };
            valued += 1;
            let aliases = row["aliases"][attribute].as_array().into_iter().flatten();
            for value in puppets.iter().chain(aliases) {
                let value = value.as_str().unwrap();
                if read.accepts_value(attribute, value) != Some(true) {
                    problems.push(format!("{file}: '{attribute}' accepts '{value}', not read"));
                }
            }
        }
        for (attribute, declared) in &read.types {
            if row["types"][attribute].as_str() != Some(declared.as_str()) {
                problems.push(format!(
                    "{file}: '{attribute}' read as {declared}, Puppet has {}",
                    row["types"][attribute]
                ));
            }
            typed += 1;
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    eprintln!(
        "{known} of {total} Ruby resource types read; {valued} closed value lists, {typed} attribute types"
    );
    if other.is_none() {
        assert!(known * 2 > total, "only {known} of {total} types read");
    }
}
