//! Puppet's built-in tables (`data/*.toml`, generated from Puppet by the scripts under
//! `scripts/puppet/`), embedded in the binary as JSON by `build.rs`: the repository keeps
//! them as TOML, a run reads JSON (several times faster to read, and read on every run).

use serde::de::DeserializeOwned;

/// One of the tables under `data/`.
#[derive(Clone, Copy, Debug)]
pub enum Table {
    Facts,
    Functions,
    Hiera,
    Init,
    LegacyFacts,
    Pcore,
    ResourceTypes,
}

impl Table {
    /// The file the table is generated as.
    pub fn file(self) -> &'static str {
        match self {
            Table::Facts => "data/facts.toml",
            Table::Functions => "data/functions.toml",
            Table::Hiera => "data/hiera.toml",
            Table::Init => "data/init.toml",
            Table::LegacyFacts => "data/legacy_facts.toml",
            Table::Pcore => "data/pcore.toml",
            Table::ResourceTypes => "data/resource_types.toml",
        }
    }

    fn json(self) -> &'static str {
        macro_rules! embedded {
            ($stem:literal) => {
                include_str!(concat!(env!("OUT_DIR"), "/", $stem, ".json"))
            };
        }
        match self {
            Table::Facts => embedded!("facts"),
            Table::Functions => embedded!("functions"),
            Table::Hiera => embedded!("hiera"),
            Table::Init => embedded!("init"),
            Table::LegacyFacts => embedded!("legacy_facts"),
            Table::Pcore => embedded!("pcore"),
            Table::ResourceTypes => embedded!("resource_types"),
        }
    }

    /// The table read into `T`. The build read the same document and the suite reads
    /// every table, so an error here is a bug in `T`: it panics, naming the file.
    pub fn read<T: DeserializeOwned>(self) -> T {
        serde_json::from_str(self.json())
            .unwrap_or_else(|e| panic!("{} does not read as its table: {e}", self.file()))
    }
}
