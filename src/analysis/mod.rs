//! What the rules share about a file that is not itself a finding: the file as the
//! rules see it (`context`), which spans are code (`code_map`), the walks over its
//! expressions (`walks`), its suppression comments (`suppressions`), where a fix may
//! replace a variable (`variable_sites`), names compared (`names`), its definitions and
//! their names (`definition_names`, `definition_name_rules`), the failures of its
//! interpretation (`failures`), Puppet's naming patterns (`puppet_patterns`), where a
//! module file sits in its module (`module_layout`), where relationship arrows sit
//! (`relationship_arrows`), the tokens of resource bodies as puppet-lint reads them
//! (`resource_tokens`) and Puppet's validator's terms (`validator`). The rules (the
//! layer above) read them; nothing here reports.

pub(crate) mod code_map;
pub(crate) mod context;
pub(crate) mod definition_name_rules;
pub(crate) mod definition_names;
pub(crate) mod failures;
pub(crate) mod module_layout;
pub(crate) mod names;
pub(crate) mod puppet_patterns;
pub(crate) mod relationship_arrows;
pub(crate) mod resource_tokens;
pub(crate) mod suppressions;
pub(crate) mod unset_variables;
pub(crate) mod validator;
pub(crate) mod variable_sites;
pub(crate) mod variables;
pub(crate) mod walks;
