//! Types written with the Resource API:
//! `Puppet::ResourceApi.register_type(name: 'x', attributes: { port: { type:
//! 'Integer', ... }, ... })`, a hash literal naming each attribute with its Puppet
//! type. An attribute whose type is not a literal string is accepted by name and its
//! values are not judged; a `read_only` one neither (Puppet reports it elsewhere).

use super::super::tree::{arguments, hash_pairs, RubyTree};
use crate::builtin::resource_type::ResourceType;
use tree_sitter::Node;

pub fn read(tree: &RubyTree, name: &str) -> Option<ResourceType> {
    let mut registrations = Vec::new();
    for (node, method) in tree.calls() {
        match method {
            "register_type" => registrations.push(node),
            // Attributes added the classic way beside it.
            "newparam" | "newproperty" | "ensurable" | "instance_eval" | "class_eval" => {
                return None
            }
            _ => {}
        }
    }
    let [call] = registrations.as_slice() else {
        return None;
    };
    if !matches!(
        tree.receiver(*call),
        Some("Puppet::ResourceApi" | "::Puppet::ResourceApi")
    ) {
        return None;
    }
    // Keyword arguments, or one hash literal.
    let args = arguments(*call);
    let pairs: Vec<Node> = match args.as_slice() {
        [hash] if hash.kind() == "hash" => hash_pairs(*hash)?,
        _ if args.iter().all(|a| a.kind() == "pair") => args,
        _ => return None,
    };
    if tree.literal_name(tree.pair_value(&pairs, "name")?)? != name {
        return None;
    }
    let mut read = ResourceType::default();
    for attribute in hash_pairs(tree.pair_value(&pairs, "attributes")?)? {
        if attribute.kind() != "pair" {
            return None;
        }
        let attribute_name = tree.pair_key(attribute)?.to_string();
        let definition = hash_pairs(attribute.child_by_field_name("value")?)?;
        let behaviour = tree
            .pair_value(&definition, "behaviour")
            .and_then(|b| tree.literal_name(b));
        let declared = tree
            .pair_value(&definition, "type")
            .filter(|t| t.kind() == "string")
            .and_then(|t| tree.literal_name(t));
        if let (Some(declared), false) = (declared, behaviour == Some("read_only")) {
            read.types
                .insert(attribute_name.clone(), declared.to_string());
        }
        read.attributes.push(attribute_name);
    }
    read.attributes.sort();
    read.attributes.dedup();
    Some(read)
}
