//! `pupcheck env [PATH]`: the world a check of PATH sees (`env::survey`): the
//! environment root and why, the main manifest, the modulepath, the modules found,
//! whether the environment is closed and what the repository names that is not
//! installed, and the Hiera files each layer reads.

use super::EXIT_CLEAN;
use crate::env::survey::Survey;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct EnvArgs {
    /// A file or folder (the working folder by default).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Folders of modules (separated by `:`) searched first, as `check --modulepath`.
    #[arg(long, value_name = "DIRS", value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EnvFormat::Human)]
    format: EnvFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EnvFormat {
    Human,
    Json,
}

pub fn env(args: EnvArgs) -> i32 {
    // What the path's pupcheck.toml says of its world (an unreadable one is reported by
    // `check`; here it counts as absent).
    let settings = crate::config::Resolver::defaults()
        .settings_for(&args.path.join("x.pp"))
        .unwrap_or_default();
    let survey = Survey::of(
        &args.path,
        &args.modulepath,
        settings.hiera_global.clone(),
        settings.environment,
    );
    match args.format {
        EnvFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&survey).expect("a survey is plain data")
        ),
        EnvFormat::Human => print!("{}", human(&survey)),
    }
    EXIT_CLEAN
}

fn human(survey: &Survey) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let there = |present: bool| if present { "" } else { "  (missing)" };
    match &survey.root {
        Some(root) => {
            let _ = writeln!(out, "environment: {}", root.folder.display());
            let _ = writeln!(out, "  because {}", root.why);
            let main = &root.main_manifest;
            let _ = writeln!(
                out,
                "  main manifest: {}{}",
                main.path.display(),
                there(main.present)
            );
            if let Some(line) = &root.configured_modulepath {
                let _ = writeln!(out, "  environment.conf: modulepath = {line}");
            }
        }
        None => {
            let _ = writeln!(
                out,
                "environment: none (no environment.conf, Puppetfile, control repository \
                 or Git repository above {}): the files share one index, without an \
                 environment Hiera layer",
                survey.path.display()
            );
        }
    }
    let _ = writeln!(out, "modulepath:");
    for folder in &survey.modulepath {
        let _ = writeln!(out, "  {}{}", folder.path.display(), there(folder.present));
    }
    let names: Vec<&str> = survey.modules.iter().map(|(n, _)| n.as_str()).collect();
    let _ = writeln!(out, "modules: {} ({})", names.len(), names.join(", "));
    let closure = &survey.closure;
    let _ = writeln!(
        out,
        "{}",
        if closure.closed {
            "closed: pupcheck sees every module; a name nothing defines is an error"
        } else {
            "open: a name nothing pupcheck sees defines is only a warning"
        }
    );
    for reason in &closure.reasons {
        let _ = writeln!(out, "  {reason}");
    }
    let hiera = &survey.hiera;
    let _ = writeln!(out, "hiera:");
    match (&hiera.environment_config, hiera.environment_whole) {
        (_, None) => {
            let _ = writeln!(out, "  environment layer: none");
        }
        (None, Some(_)) => {
            let _ = writeln!(
                out,
                "  environment layer: no hiera.yaml (Puppet 7 gives it no data)"
            );
        }
        (Some(config), Some(whole)) => {
            let _ = writeln!(
                out,
                "  environment layer: {} ({})",
                config.display(),
                if whole {
                    "read whole: a key no file binds is unbound"
                } else {
                    "not read whole: data kept elsewhere, another backend or a file \
                     pupcheck cannot read may bind any key"
                }
            );
            for level in &hiera.environment_levels {
                let named: Vec<String> = level
                    .paths
                    .iter()
                    .map(|p| level.datadir.join(p).display().to_string())
                    .collect();
                let _ = writeln!(out, "    level '{}': {}", level.name, named.join(", "));
                if let Some(why) = &level.unread {
                    let _ = writeln!(out, "      not read: {why}");
                }
                for (file, unread) in &level.files {
                    match unread {
                        None => {
                            let _ = writeln!(out, "      {}", file.display());
                        }
                        Some(why) => {
                            let _ = writeln!(
                                out,
                                "      {}  (not read: {why}; any key may be bound)",
                                file.display()
                            );
                        }
                    }
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "  global layer: {}",
        if hiera.global_whole {
            "taken as empty (hiera-global in pupcheck.toml names one)"
        } else {
            "not read whole"
        }
    );
    for (module, files) in &hiera.modules {
        let _ = writeln!(out, "  module {module}: {files} data file(s)");
    }
    out
}
