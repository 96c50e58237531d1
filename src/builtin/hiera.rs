//! What Puppet requires of a version 5 `hiera.yaml`, as data (`data/hiera.toml`,
//! generated from Puppet's `HieraConfigV5` by `scripts/puppet/hiera.rb`).

use crate::types::from_ast::parse_type_expr;
use crate::types::resolve::{AliasTable, Resolver};
use crate::types::Type;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Debug, Deserialize)]
struct Table {
    v5: V5Entry,
}

#[derive(Debug, Deserialize)]
struct V5Entry {
    config_type: String,
    function_keys: Vec<String>,
    all_function_keys: Vec<String>,
    location_keys: Vec<String>,
    reserved_option_keys: Vec<String>,
}

/// A version 5 configuration's requirements.
#[derive(Debug)]
pub struct V5 {
    /// The type the whole configuration must match.
    pub config_type: Type,
    /// The keys naming a level's data provider function (`data_hash`, ...) that
    /// `defaults` may hold too.
    pub function_keys: Vec<String>,
    /// All keys naming a level's data provider function.
    pub all_function_keys: Vec<String>,
    /// The keys naming a level's data files (`path`, `paths`, `glob`, ...).
    pub location_keys: Vec<String>,
    /// Option keys Puppet keeps for itself.
    pub reserved_option_keys: Vec<String>,
}

/// The requirements of a version 5 `hiera.yaml`.
pub fn v5() -> &'static V5 {
    static V5_TABLE: OnceLock<V5> = OnceLock::new();
    V5_TABLE.get_or_init(|| {
        let table: Table = crate::builtin_data::Table::Hiera.read();
        let aliases = AliasTable::partial();
        let expr = parse_type_expr(&table.v5.config_type).expect("the configuration type parses");
        let config_type = Resolver::new(&aliases)
            .resolve(&expr)
            .expect("the configuration type resolves");
        V5 {
            config_type,
            function_keys: table.v5.function_keys,
            all_function_keys: table.v5.all_function_keys,
            location_keys: table.v5.location_keys,
            reserved_option_keys: table.v5.reserved_option_keys,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_type_is_read_whole() {
        let v5 = v5();
        let shown = v5.config_type.to_string();
        assert!(
            shown.starts_with("Struct[{'version' => Integer[5, 5]"),
            "{shown}"
        );
        assert!(v5.location_keys.iter().any(|k| k == "mapped_paths"));
    }
}
