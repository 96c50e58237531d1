use crate::analysis::code_map::rest_of_line;
use crate::diagnostics::Diagnostic;
use crate::hiera::DataFile;
use crate::env::Environment;

declare_rule! {
    /// ## What it does
    /// Reports a key of a Hiera data file that no lookup will ever return:
    /// - in a module's data, a key outside the module's namespace (`other::x` in `ntp`'s
    ///   `data/common.yaml`): Puppet drops it with a warning ("Module 'ntp': ... must use keys
    ///   qualified with the name of the module");
    /// - a key `<class>::<name>` of a class pupcheck has read that has no parameter `name`
    ///   (`ntp::serverz` for `ntp::servers`), when nothing in the environment may look it up
    ///   by name: no file of the environment or of its modules writes it (a `lookup('...')`,
    ///   a `%{alias('...')}` in data, a string anywhere), no lookup of an interpolated string
    ///   may name it, and no lookup names its key otherwise than as a string.
    ///
    /// ## Why it matters
    /// A mistyped key is silently ignored: the class keeps its default, and the setting the
    /// data was written for never takes effect.
    ///
    /// ## Example
    /// ```yaml
    /// # data/common.yaml, for class ntp (Array[String] $servers = [])
    /// ntp::server: ['pool.ntp.org']
    /// ```
    ///
    /// ## How to fix
    /// Name the parameter as the class does (`ntp::servers`), move the key to the data of the
    /// module it belongs to, or remove it.
    "hiera-unknown-key" (Type, Warning)
    "A Hiera key that binds nothing: a class lacks the parameter, or a module's data names another namespace"
}

/// The findings on one data file of the environment `env`.
pub fn check_data_file(file: &DataFile, shown: &str, env: &Environment) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (key, key_node, _) in file.entries() {
        if key == "lookup_options" {
            continue;
        }
        let at = rest_of_line(&file.text, key_node.offset);
        if let Some(module) = &file.module {
            if !key.starts_with(&format!("{module}::")) {
                out.push(RULE.diagnostic(
                    at,
                    format!(
                        "Module '{module}': Value returned from data_hash function 'yaml_data', when using location '{shown}', must use keys qualified with the name of the module ('{key}' is dropped)"
                    ),
                ));
                continue;
            }
        }
        let Some((class, param)) = key.rsplit_once("::").filter(|_| !key.starts_with("::")) else {
            continue;
        };
        let Some(definition) = env.class(class) else {
            continue;
        };
        let has_param = definition
            .params
            .iter()
            .flatten()
            .any(|p| p.name.name == param);
        if has_param || env.may_look_up(key) {
            continue;
        }
        out.push(
            RULE.diagnostic(
                at,
                format!(
                    "'{key}' binds no parameter: class {} has no parameter '{param}', and nothing looks the key up",
                    definition.name
                ),
            )
            .with_note(format!(
                "class {} is defined in {}",
                definition.name,
                crate::source::shown_path(&definition.path)
            )),
        );
    }
    out
}
