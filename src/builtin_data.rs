//! Puppet's built-in tables (`data/*.toml`, generated from Puppet by the scripts under
//! `scripts/puppet/`), embedded in the binary as JSON by `build.rs`: the repository keeps
//! them as TOML, a run reads JSON (several times faster to read, and read on every run).

use serde::de::DeserializeOwned;

/// Declares the tables once: each variant with the stem of its file under `data/`.
macro_rules! tables {
    ($($table:ident => $stem:literal,)*) => {
        /// One of the tables under `data/`.
        #[derive(Clone, Copy, Debug)]
        pub enum Table {
            $($table,)*
        }

        impl Table {
            /// The file the table is generated as.
            pub fn file(self) -> &'static str {
                match self {
                    $(Table::$table => concat!("data/", $stem, ".toml"),)*
                }
            }

            fn json(self) -> &'static str {
                match self {
                    $(Table::$table => include_str!(concat!(env!("OUT_DIR"), "/", $stem, ".json")),)*
                }
            }
        }
    };
}

tables! {
    Facts => "facts",
    Functions => "functions",
    Hiera => "hiera",
    Init => "init",
    LegacyFacts => "legacy_facts",
    Pcore => "pcore",
    ResourceTypes => "resource_types",
}

impl Table {
    /// The table read into `T`. The build read the same document and the suite reads
    /// every table, so an error here is a bug in `T`: it panics, naming the file.
    pub fn read<T: DeserializeOwned>(self) -> T {
        serde_json::from_str(self.json())
            .unwrap_or_else(|e| panic!("{} does not read as its table: {e}", self.file()))
    }
}
