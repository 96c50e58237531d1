//! The `pupcheck` command as users run it: exit codes, formats, stdin, determinism.

use std::process::{Command, Output};

fn pupcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pupcheck"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("valid JSON on stdout")
}

/// The text field `field` of every finding of a JSON report.
fn each_finding(output: &Output, field: &str) -> Vec<String> {
    json(output)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[field].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn example_module_reports_its_mistakes_and_exits_1() {
    let out = pupcheck(&["check", "--format", "json", "examples/demo"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let found: Vec<(String, u64, &str)> = diagnostics
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["rule"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "examples/demo/manifests/config.pp".to_string(),
                6,
                "syntax-error"
            ),
            (
                "examples/demo/manifests/profile.pp".to_string(),
                4,
                "parameter-type-mismatch"
            ),
            (
                "examples/demo/manifests/profile.pp".to_string(),
                5,
                "parameter-type-mismatch"
            ),
            (
                "examples/demo/templates/motd.epp".to_string(),
                4,
                "syntax-error"
            ),
        ]
    );
    assert_eq!(report["summary"]["files"], 5);
    assert_eq!(report["summary"]["errors"], 4);
    assert_eq!(report["version"], 1);
}

#[test]
fn human_output_ends_with_a_summary() {
    let out = pupcheck(&["check", "examples/demo"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("error[syntax-error]: Syntax error at 'mode'"),
        "{text}"
    );
    let summary = text.trim_end().lines().last().unwrap();
    assert!(summary.starts_with("Checked 5 files in "), "{summary}");
    assert!(summary.ends_with(" ms: 4 errors, 0 warnings."), "{summary}");
}

#[test]
fn clean_files_exit_0() {
    let out = pupcheck(&[
        "check",
        "examples/demo/manifests/init.pp",
        "examples/demo/manifests/install.pp",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        pupcheck(&["check", "--format", "nope"]).status.code(),
        Some(2)
    );
    assert_eq!(pupcheck(&["check", "no/such/path"]).status.code(), Some(2));
    assert_eq!(pupcheck(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn output_is_the_same_whatever_the_thread_count() {
    let one = pupcheck(&[
        "check",
        "--format",
        "json",
        "--threads",
        "1",
        "examples",
        "tree-sitter-puppet/test",
    ]);
    let four = pupcheck(&[
        "check",
        "--format",
        "json",
        "--threads",
        "4",
        "examples",
        "tree-sitter-puppet/test",
    ]);
    assert_eq!(json(&one)["diagnostics"], json(&four)["diagnostics"]);
}

#[test]
fn non_utf8_files_get_a_clear_diagnostic() {
    let dir = std::env::temp_dir().join(format!("pupcheck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.pp");
    std::fs::write(&file, b"# caf\xe9\n$a = 1\n").unwrap();
    let out = pupcheck(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let d = &json(&out)["diagnostics"][0];
    assert_eq!(d["rule"], "unreadable-file");
    assert!(d["message"].as_str().unwrap().contains("not valid UTF-8"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn types_questions_answer_as_puppet_does() {
    let out = pupcheck(&["types", "common", "Integer", "String"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "ScalarData");
    let out = pupcheck(&["types", "accepts", "Integer[0, 10]", "Integer[5, 20]"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("false"), "{text}");
    let out = pupcheck(&["types", "normalize", "Variant[Integer, Undef]"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        "Optional[Integer]"
    );
}

const REPORT_FIXTURE: &str = "tests/fixtures/report";

#[test]
fn output_file_gets_the_report_and_stderr_a_summary() {
    let dir = std::env::temp_dir().join(format!("pupcheck-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.sarif");
    let out = pupcheck(&[
        "check",
        "--format",
        "sarif",
        "--output-file",
        file.to_str().unwrap(),
        "examples/demo",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(" ms: 4 errors, 0 warnings.\nReport written to "),
        "{stderr}"
    );
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 4);
    let quiet = pupcheck(&[
        "check",
        "--quiet",
        "--output-file",
        file.to_str().unwrap(),
        "examples/demo",
    ]);
    assert!(quiet.stderr.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fail_on_warning_fails_on_warnings() {
    let root = format!("{REPORT_FIXTURE}/site");
    assert_eq!(pupcheck(&["check", &root]).status.code(), Some(0));
    let out = pupcheck(&["check", "--fail-on", "warning", &root]);
    assert_eq!(out.status.code(), Some(1));
    let out = pupcheck(&["check", "--fail-on", "info", &root]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_documents_exit_codes() {
    for args in [&["--help"][..], &["check", "--help"]] {
        let text = String::from_utf8(pupcheck(args).stdout).unwrap();
        assert!(text.contains("1  findings at or above --fail-on"), "{text}");
    }
}

#[test]
fn many_roots_make_one_report_with_statistics() {
    let out = pupcheck(&[
        "check",
        "--format",
        "json",
        "--statistics",
        &format!("{REPORT_FIXTURE}/modules"),
        &format!("{REPORT_FIXTURE}/site"),
        "examples/demo",
    ]);
    let report = json(&out);
    assert_eq!(report["summary"]["files"], 10);
    let by_module: Vec<(String, u64)> = report["summary"]["by_module"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by_module,
        [
            ("web".to_string(), 8),
            ("demo".to_string(), 4),
            ("(no module)".to_string(), 2)
        ]
    );
    assert_eq!(
        report["summary"]["by_rule"][0],
        serde_json::json!({"rule": "double-quoted-strings", "severity": "warning", "count": 3})
    );
    // With a machine-readable format the table goes to stderr.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("Findings by rule:\n"), "{stderr}");
    assert!(stderr.contains("Findings by module:\n"), "{stderr}");
}

#[test]
fn statistics_follow_the_human_report() {
    let out = pupcheck(&["check", "--statistics", REPORT_FIXTURE]);
    let text = String::from_utf8(out.stdout).unwrap();
    let table = &text[text.find("Findings by rule:").expect("a table")..];
    assert!(
        table.starts_with(
            "Findings by rule:\n  count  rule                     severity\n      3  double-quoted-strings    warning\n"
        ),
        "{table}"
    );
    assert!(
        table.contains("      8  modules/web/manifests/init.pp\n") || table.contains("init.pp")
    );
}

/// The pre-commit hook definition has the fields pre-commit needs and selects Puppet's
/// files only (manifests, templates, Hiera's files, metadata.json). (`tests/precommit/run.sh` runs it through pre-commit itself.)
#[test]
fn pre_commit_hook_definition_is_complete() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    let field = |name: &str| -> String {
        let prefix = format!("  {name}: ");
        let line = text
            .lines()
            .find_map(|l| {
                l.strip_prefix(&prefix)
                    .or_else(|| l.strip_prefix(&format!("- {name}: ")))
            })
            .unwrap_or_else(|| panic!("no `{name}` in the hook:\n{text}"));
        line.trim().to_string()
    };
    assert_eq!(field("id"), "pupcheck");
    assert_eq!(field("language"), "rust");
    assert!(field("entry").starts_with("pupcheck check"));
    assert_eq!(field("types_or"), "[puppet, text]");
    assert_eq!(field("exclude_types"), "[binary]");
    assert_eq!(field("require_serial"), "true");
    let files = regex::Regex::new(field("files").trim_matches('\'')).unwrap();
    for path in [
        "site.pp",
        "modules/ntp/manifests/init.pp",
        "templates/motd.epp",
        "hiera.yaml",
        "data/common.yaml",
        "data/nodes/web01.example.com.yaml",
        "site-modules/role/data/common.yaml",
        "hieradata/secrets.eyaml",
        "modules/ntp/metadata.json",
    ] {
        assert!(files.is_match(path), "{path}");
    }
    for path in [
        "Gemfile",
        "x.rb",
        "app.pp.bak",
        "x.erb",
        ".gitlab-ci.yml",
        "docker-compose.yaml",
        "spec/fixtures/data.yaml",
        "metadata.json.bak",
    ] {
        assert!(!files.is_match(path), "{path}");
    }
}

/// Declarations are checked against modules found on `--modulepath` (read where
/// Puppet's autoloader would look), and only against what pupcheck has read.
#[test]
fn modulepath_gives_the_definitions_declarations_are_checked_against() {
    let dir = std::env::temp_dir().join(format!("pupcheck-modulepath-{}", std::process::id()));
    let module = dir.join("modules/ntp/manifests");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::write(
        module.join("init.pp"),
        "class ntp (Array[String] $servers = []) { }\n",
    )
    .unwrap();
    let site = dir.join("site.pp");
    std::fs::write(
        &site,
        "class { 'ntp': servers => 'pool.ntp.org', server => 1 }\n",
    )
    .unwrap();
    let modulepath = dir.join("modules");
    let with = pupcheck(&[
        "check",
        "--format",
        "json",
        "--modulepath",
        modulepath.to_str().unwrap(),
        site.to_str().unwrap(),
    ]);
    let rules = each_finding(&with, "rule");
    assert_eq!(
        rules,
        ["parameter-type-mismatch", "unknown-parameter"],
        "{with:?}"
    );
    let without = pupcheck(&["check", "--format", "json", site.to_str().unwrap()]);
    assert!(json(&without)["diagnostics"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An empty module folder (a git submodule not checked out) holds a module whose
/// contents are unknown: its functions and classes are not reported missing, as those
/// of a module with files are.
#[test]
fn an_empty_module_folder_is_a_module_of_unknown_contents() {
    let dir = std::env::temp_dir().join(format!("pupcheck-submodule-{}", std::process::id()));
    let modules = dir.join("site-modules");
    std::fs::create_dir_all(modules.join("vendored")).unwrap();
    std::fs::create_dir_all(modules.join("present/manifests")).unwrap();
    std::fs::write(
        modules.join("present/manifests/init.pp"),
        "class present {}\n",
    )
    .unwrap();
    let plan = dir.join("site.pp");
    std::fs::write(
        &plan,
        "vendored::notify('x')\ninclude vendored::thing\npresent::notify('x')\n",
    )
    .unwrap();
    let output = pupcheck(&[
        "check",
        "--format",
        "json",
        "--modulepath",
        modules.to_str().unwrap(),
        plan.to_str().unwrap(),
    ]);
    let found: Vec<(String, u64)> = json(&output)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [("unknown-function".to_string(), 3)], "{output:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_shows_the_value_and_its_type() {
    let out = pupcheck(&["eval", "[1, 2] + [3]"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[1, 2, 3]\ntype: Tuple[Integer[1, 1], Integer[2, 2], Integer[3, 3]]\n"
    );
}

#[test]
fn eval_shows_puppets_error_where_it_is_raised_and_exits_1() {
    let out = pupcheck(&["eval", "$base = 8000\n$base + 'eighty'"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error: The value 'eighty' cannot be converted to Numeric.")
            && text.contains("<expression>:2:1"),
        "{text}"
    );
    let out = pupcheck(&["eval", "--format", "json", "1 / 0"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["error"], "Division by 0");
}

#[test]
fn eval_reads_a_prelude_first() {
    let dir = tempfile::tempdir().unwrap();
    let prelude = dir.path().join("prelude.pp");
    std::fs::write(&prelude, "$base = 10\nfunction twice($x) { $x * 2 }\n").unwrap();
    let out = pupcheck(&["eval", "--prelude", prelude.to_str().unwrap(), "$base * 3"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "30\ntype: Integer[30, 30]\n"
    );
}

#[test]
fn explain_shows_what_the_evaluation_knows_at_a_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("web.pp");
    std::fs::write(
        &file,
        "class web (Integer[1, 65535] $port = 80) {\n  $next = $port + 1\n  [1, 2].each |$i| {\n    notice($i)\n  }\n}\n",
    )
    .unwrap();
    let at = |line: u32, column: u32| {
        let out = pupcheck(&["explain", &format!("{}:{line}:{column}", file.display())]);
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // A parameter is known by its type; the variable an assignment sets, by its value.
    assert!(at(2, 11)
        .ends_with(": $port\nany value of type Integer[1, 65535] (not known from the code)\n"));
    assert!(at(2, 4).contains("$next = $port + 1\nany value of type Integer (not known"));
    // A called function's name is its call.
    assert!(at(4, 5).contains(": notice($i)\n"), "{}", at(4, 5));
    // A lambda's parameter, with each element the iteration gives it.
    assert!(at(4, 12).ends_with(
        "reached with 2 different values:\n1\ntype: Integer[1, 1]\n2\ntype: Integer[2, 2]\n"
    ));
    let out = pupcheck(&["explain", &format!("{}:99:1", file.display())]);
    assert_eq!(out.status.code(), Some(2));
    let out = pupcheck(&["explain", "web.pp"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn each_repository_is_checked_against_its_own_modules() {
    // Repository a has its version of ntp; b uses another version it does not hold. A
    // run over both must not judge b's declaration against a's class.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir_all(a.join(".git")).unwrap();
    std::fs::create_dir_all(a.join("ntp/manifests")).unwrap();
    std::fs::write(
        a.join("ntp/manifests/init.pp"),
        "class ntp (Array $servers = []) { }\n",
    )
    .unwrap();
    std::fs::write(a.join("site.pp"), "class { 'ntp': servers => [] }\n").unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("Puppetfile"), "mod 'puppetlabs/ntp', '1.0.0'\n").unwrap();
    std::fs::write(b.join("site.pp"), "class { 'ntp': peers => [] }\n").unwrap();
    let findings = || {
        let out = pupcheck(&[
            "check",
            "--format",
            "json",
            "--select",
            "unknown-parameter",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ]);
        json(&out)["diagnostics"].as_array().unwrap().clone()
    };
    assert_eq!(findings(), Vec::<serde_json::Value>::new());
    // Within one repository the class is known, and judged.
    std::fs::write(a.join("other.pp"), "class { 'ntp': peers => [] }\n").unwrap();
    let found = findings();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0]["path"].as_str().unwrap().ends_with("a/other.pp"));
}

/// A Hiera data file, `hiera.yaml` or `metadata.json` named alone (as a pre-commit hook
/// names a staged file) is judged with its module's Hiera files and classes, never
/// parsed as Puppet; a YAML file no `hiera.yaml` reads is left alone.
#[test]
fn a_data_file_named_alone_is_judged_as_data() {
    let dir = std::env::temp_dir().join(format!("pupcheck-data-alone-{}", std::process::id()));
    let module = dir.join("motd");
    std::fs::create_dir_all(module.join("manifests")).unwrap();
    std::fs::create_dir_all(module.join("data")).unwrap();
    std::fs::write(
        module.join("manifests/init.pp"),
        "class motd (String $message = 'Welcome') { }\n",
    )
    .unwrap();
    std::fs::write(
        module.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    )
    .unwrap();
    std::fs::write(module.join("data/common.yaml"), "---\nmotd::message: 42\n").unwrap();
    std::fs::write(dir.join("compose.yaml"), "services: [\n").unwrap();
    let rules = |path: &std::path::Path| -> Vec<String> {
        let out = pupcheck(&["check", "--format", "json", path.to_str().unwrap()]);
        each_finding(&out, "rule")
    };
    assert_eq!(
        rules(&module.join("data/common.yaml")),
        ["hiera-parameter-type"]
    );
    assert!(rules(&module.join("hiera.yaml")).is_empty());
    assert!(rules(&dir.join("compose.yaml")).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check --shard I/N` splits the files by module, every file in exactly one part, and
/// `merge` joins the parts' reports into what one run reports: the same JSON findings
/// and totals, the same SARIF log byte for byte.
#[test]
fn sharded_runs_merge_into_the_unsharded_report() {
    let dir = std::env::temp_dir().join(format!("pupcheck-shards-{}", std::process::id()));
    for (module, body) in [
        ("ntp", "class ntp (Integer $port = 1) { }\n"),
        ("motd", "class motd { class { 'ntp': port => 'x' } }\n"),
        ("web", "class web { $x = 1\n  $x = 2 }\n"),
        ("db", "class db {\tinclude ntp }\n"),
    ] {
        std::fs::create_dir_all(dir.join(module).join("manifests")).unwrap();
        std::fs::write(dir.join(module).join("manifests/init.pp"), body).unwrap();
    }
    let root = dir.to_str().unwrap();
    let run = |args: &[&str]| -> String {
        let out = pupcheck(args);
        String::from_utf8(out.stdout).unwrap()
    };
    for format in ["json", "sarif"] {
        let whole = run(&["check", "--format", format, root]);
        let mut parts = Vec::new();
        for index in 1..=3 {
            let path = dir.join(format!("part{index}.{format}"));
            let shard = format!("{index}/3");
            std::fs::write(
                &path,
                run(&["check", "--format", format, "--shard", &shard, root]),
            )
            .unwrap();
            parts.push(path);
        }
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(|p| p.to_str().unwrap()));
        let merged = run(&args);
        if format == "sarif" {
            assert_eq!(merged, whole);
        } else {
            let (merged, whole) = (json_text(&merged), json_text(&whole));
            assert_eq!(merged["diagnostics"], whole["diagnostics"]);
            for key in [
                "files",
                "errors",
                "warnings",
                "by_rule",
                "by_module",
                "by_file",
            ] {
                assert_eq!(merged["summary"][key], whole["summary"][key], "{key}");
            }
            assert!(whole["summary"]["errors"].as_u64().unwrap() >= 2);
        }
        for part in parts {
            std::fs::remove_file(part).unwrap();
        }
    }
    let bad = pupcheck(&["check", "--shard", "4/3", root]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn json_text(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// Two folders beside each other may hold a module of one name (forks, checkouts named
/// `owner+module`): the module of the checked files is the module of that name, so its
/// own Ruby functions are known, whichever folder sorts first.
#[test]
fn the_checked_module_wins_over_a_sibling_of_its_name() {
    let dir = std::env::temp_dir().join(format!("pupcheck-sibling-{}", std::process::id()));
    let metadata = |name: &str| {
        format!("{{\"name\": \"{name}\", \"version\": \"1.0.0\", \"dependencies\": []}}")
    };
    let fork = dir.join("a+foo");
    std::fs::create_dir_all(fork.join("manifests")).unwrap();
    std::fs::write(fork.join("metadata.json"), metadata("a-foo")).unwrap();
    std::fs::write(fork.join("manifests/init.pp"), "class foo {}\n").unwrap();
    let checked = dir.join("z+foo");
    std::fs::create_dir_all(checked.join("manifests")).unwrap();
    std::fs::create_dir_all(checked.join("lib/puppet/functions/foo")).unwrap();
    std::fs::write(checked.join("metadata.json"), metadata("z-foo")).unwrap();
    std::fs::write(
        checked.join("lib/puppet/functions/foo/bar.rb"),
        "Puppet::Functions.create_function(:'foo::bar') do\n  dispatch :bar do\n    param 'String', :s\n  end\n  def bar(s)\n    s\n  end\nend\n",
    )
    .unwrap();
    std::fs::write(
        checked.join("manifests/init.pp"),
        "class foo (String $p = 'x') {\n  notice(foo::bar($p))\n}\n",
    )
    .unwrap();
    let output = pupcheck(&["check", "--format", "json", checked.to_str().unwrap()]);
    let errors: Vec<String> = json(&output)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A template's code can only be at top scope, and puppet-lint does not read templates:
/// code-on-top-scope judges manifests only.
#[test]
fn code_on_top_scope_leaves_templates_alone() {
    let dir = std::env::temp_dir().join(format!("pupcheck-top-epp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let template = dir.join("t.epp");
    std::fs::write(
        &template,
        "<%- | String $x | -%>\n<% if $x { -%>\nyes\n<% } -%>\n",
    )
    .unwrap();
    let manifest = dir.join("m.pp");
    std::fs::write(&manifest, "notice('x')\n").unwrap();
    let output = pupcheck(&[
        "check",
        "--format",
        "json",
        "--select",
        "code-on-top-scope",
        template.to_str().unwrap(),
        manifest.to_str().unwrap(),
    ]);
    let files = each_finding(&output, "path");
    assert_eq!(files, [manifest.to_str().unwrap()], "{output:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A module's `files/` holds what Puppet serves to agents: a walk does not look for
/// manifests there (an SELinux policy package is named `.pp` and is binary), but a file
/// there named on the command line is checked.
#[test]
fn a_walk_leaves_out_a_modules_served_files() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("profile");
    std::fs::create_dir_all(module.join("manifests")).unwrap();
    std::fs::create_dir_all(module.join("files/selinux")).unwrap();
    std::fs::create_dir_all(dir.path().join("notes/files")).unwrap();
    std::fs::write(
        module.join("manifests/init.pp"),
        "# @summary Profile.\nclass profile {\n}\n",
    )
    .unwrap();
    // The magic number an SELinux policy package starts with, then binary data.
    let policy = module.join("files/selinux/local.pp");
    std::fs::write(&policy, b"\x8f\xff\x7c\xf9\x01\x00\x00\x00\x00\xff").unwrap();
    // Not a module's folder: looked in as any other.
    std::fs::write(dir.path().join("notes/files/x.pp"), "$x = \n").unwrap();
    let root = dir.path().to_str().unwrap();
    let out = pupcheck(&["check", "--format", "concise", "-q", root]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("local.pp"), "{text}");
    assert!(
        text.contains("notes/files/x.pp") && text.contains("syntax-error"),
        "{text}"
    );
    let out = pupcheck(&[
        "check",
        "--format",
        "concise",
        "-q",
        policy.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("unreadable-file"),
        "a named file is checked"
    );
}

/// A control repository deployed as r10k deploys it, in a folder named after its branch
/// (`production`, a valid module name) and carrying a `metadata.json` for its tooling,
/// is an environment, not a module: its `manifests/site.pp` may hold nodes and
/// top-level code, named alone or with the folder, with an `environment.conf` or only a
/// `Puppetfile`. A folder with a `metadata.json` and neither is a module.
#[test]
fn an_r10k_deployed_control_repository_is_no_module() {
    let dir = std::env::temp_dir().join(format!("pupcheck-r10k-{}", std::process::id()));
    let site = "File { backup => false }\nnode default {\n  notice('x')\n}\n";
    let rules = |root: &std::path::Path, marker: Option<&str>| -> Vec<String> {
        let _ = std::fs::remove_dir_all(root);
        std::fs::create_dir_all(root.join("manifests")).unwrap();
        std::fs::write(root.join("manifests/site.pp"), site).unwrap();
        std::fs::write(
            root.join("metadata.json"),
            "{\"name\": \"acme-production\"}\n",
        )
        .unwrap();
        if let Some(marker) = marker {
            std::fs::write(root.join(marker), "").unwrap();
        }
        let alone = pupcheck(&[
            "check",
            "--format",
            "json",
            "--no-cache",
            root.join("manifests/site.pp").to_str().unwrap(),
        ]);
        let folder = pupcheck(&[
            "check",
            "--format",
            "json",
            "--no-cache",
            root.to_str().unwrap(),
        ]);
        let mut found = each_finding(&alone, "rule");
        found.extend(each_finding(&folder, "rule"));
        found.retain(|r| r == "illegal-top-construct-location");
        found
    };
    let production = dir.join("environments/production");
    assert!(rules(&production, Some("environment.conf")).is_empty());
    assert!(rules(&production, Some("Puppetfile")).is_empty());
    assert_eq!(rules(&dir.join("modules/production"), None).len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A control repository without `environment.conf` or `Puppetfile` (a `hiera.yaml`, its
/// `data/`, `manifests/site.pp`, modules under `modules/`, no `metadata.json`) is what
/// Puppet takes for an environment: its Hiera data binds class parameters, judged
/// against their types, and is not a module's (whose keys would have to be qualified
/// with the folder's name). A module of it without `metadata.json` stays a module.
#[test]
fn a_control_repository_without_environment_conf_has_its_hiera_checked() {
    let dir = std::env::temp_dir().join(format!("pupcheck-bare-env-{}", std::process::id()));
    let write = scratch_tree(&dir);
    let hiera = "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";
    write("acme/hiera.yaml", hiera);
    write(
        "acme/data/common.yaml",
        "---\nprofile::web::port: 'eighty'\n",
    );
    write(
        "acme/manifests/site.pp",
        "node default {\n  include profile::web\n}\n",
    );
    write(
        "acme/modules/profile/manifests/web.pp",
        "# @summary web\nclass profile::web (Integer $port = 80) {\n}\n",
    );
    write("acme/modules/profile/hiera.yaml", hiera);
    write("acme/modules/profile/data/common.yaml", "---\nport: 1\n");
    let out = pupcheck(&[
        "check",
        "--format",
        "json",
        "--no-cache",
        dir.join("acme").to_str().unwrap(),
    ]);
    let mut found: Vec<String> = json(&out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["path"].as_str().unwrap(),
                d["rule"].as_str().unwrap()
            )
        })
        .map(|d| d.replace(dir.to_str().unwrap(), ""))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "/acme/data/common.yaml hiera-parameter-type",
            "/acme/modules/profile/data/common.yaml hiera-unknown-key",
        ],
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `pupcheck env` says what world a check sees: the environment and why, the
/// modulepath with its missing folders, the modules a Puppetfile names that are not
/// installed, and the Hiera layer with the data folders the repository lacks.
#[test]
fn env_shows_the_environment_a_check_sees() {
    let dir = std::env::temp_dir().join(format!("pupcheck-env-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write(
        "production/Puppetfile",
        "mod 'puppetlabs/stdlib', '9.0.0'\nmod 'puppetlabs-ntp'\n",
    );
    write(
        "production/modules/ntp/manifests/init.pp",
        "class ntp { }\n",
    );
    write("production/manifests/site.pp", "include ntp\n");
    write(
        "production/hiera.yaml",
        "---\nversion: 5\ndefaults:\n  datadir: hieradata\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    write(
        "production/metadata.json",
        "{\"name\": \"acme-production\"}\n",
    );
    let out = pupcheck(&[
        "env",
        "--format",
        "json",
        dir.join("production").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let survey = json(&out);
    let root = &survey["root"];
    assert!(root["folder"].as_str().unwrap().ends_with("production"));
    assert_eq!(root["why"], "it holds a Puppetfile (a control repository)");
    let closure = &survey["closure"];
    assert_eq!(closure["closed"], false);
    assert_eq!(
        closure["missing"],
        serde_json::json!([{"name": "stdlib", "named_by": "the Puppetfile", "wrong_version": null}])
    );
    let modules: Vec<&str> = survey["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap())
        .collect();
    assert_eq!(modules, ["ntp"]);
    let hiera = &survey["hiera"];
    assert_eq!(hiera["environment_whole"], false);
    assert!(hiera["missing_datadirs"][0]
        .as_str()
        .unwrap()
        .ends_with("hieradata"));
    let human = pupcheck(&["env", dir.join("production").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("open: a name nothing pupcheck sees defines is only a warning")
            && text.contains("module 'stdlib' named in the Puppetfile is not installed"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `pupcheck env` on a module's root sees what a check of it sees: the module and its
/// installed fixtures, through its manifests (a folder is the files in it). A
/// `.fixtures.yml` key that is no module's name (a checkout beside the modules) is
/// not a module that must be installed.
#[test]
fn env_of_a_module_root_sees_its_fixtures() {
    let dir = std::env::temp_dir().join(format!("pupcheck-env-module-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("mymod/.git/HEAD", "ref: refs/heads/main\n");
    write(
        "mymod/metadata.json",
        "{\"name\": \"me-mymod\", \"dependencies\": []}\n",
    );
    write(
        "mymod/.fixtures.yml",
        "fixtures:\n  forge_modules:\n    stdlib: puppetlabs/stdlib\n  repositories:\n    \
         \"../acceptance/skeleton\": https://example.com/skeleton.git\n  symlinks:\n    \
         mymod: \"#{source_dir}\"\n",
    );
    write("mymod/manifests/init.pp", "class mymod { }\n");
    write(
        "mymod/spec/fixtures/modules/stdlib/manifests/init.pp",
        "class stdlib { }\n",
    );
    let out = pupcheck(&[
        "env",
        "--format",
        "json",
        dir.join("mymod").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let survey = json(&out);
    let mut modules: Vec<&str> = survey["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[0].as_str().unwrap())
        .collect();
    modules.sort();
    assert_eq!(modules, ["mymod", "stdlib"], "{survey}");
    assert_eq!(survey["closure"]["closed"], true, "{survey}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A name nothing defines is an error only where the environment is closed: with every
/// module its Puppetfile names installed it is; with one missing, the finding is a
/// warning naming the module and how to install it; `environment = "open"` in
/// pupcheck.toml opens it whatever is installed.
#[test]
fn a_name_nothing_defines_is_an_error_only_in_a_closed_environment() {
    let dir = std::env::temp_dir().join(format!("pupcheck-closure-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("environment.conf", "modulepath = site:modules\n");
    write("Puppetfile", "mod 'puppetlabs/stdlib'\n");
    write("modules/stdlib/manifests/init.pp", "class stdlib { }\n");
    write(
        "manifests/site.pp",
        "node default {\n  pakage { 'vim': }\n  include apache\n}\n",
    );
    let findings = |args: &[&str]| -> Vec<(String, String, String)> {
        let mut all = vec!["check", "--format", "json", "--no-cache"];
        all.extend_from_slice(args);
        all.push(dir.to_str().unwrap());
        let out = pupcheck(&all);
        json(&out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"].as_str().unwrap().starts_with("unknown-"))
            .map(|d| {
                let text = |k: &str| d[k].as_str().unwrap().to_string();
                (text("rule"), text("severity"), text("message"))
            })
            .collect()
    };
    let closed = findings(&[]);
    assert_eq!(
        closed,
        [
            (
                "unknown-resource-type".into(),
                "error".into(),
                "Unknown resource type: 'pakage'".into()
            ),
            (
                "unknown-class".into(),
                "error".into(),
                "Could not find class ::apache".into()
            ),
        ]
    );
    write(
        "Puppetfile",
        "mod 'puppetlabs/stdlib'\nmod 'puppetlabs/apache'\n",
    );
    let open = findings(&[]);
    assert_eq!(open.len(), 2, "{open:?}");
    assert!(open.iter().all(|(_, severity, _)| severity == "warning"));
    assert_eq!(
        open[1].2,
        "Could not find class ::apache, unless what pupcheck was not shown defines it \
         (module 'apache' named in the Puppetfile is not installed: run \
         `r10k puppetfile install` or pass --modulepath)"
    );
    write("Puppetfile", "mod 'puppetlabs/stdlib'\n");
    write("pupcheck.toml", "environment = \"open\"\n");
    assert!(findings(&[])
        .iter()
        .all(|(_, severity, _)| severity == "warning"));
    write("pupcheck.toml", "environment = \"shut\"\n");
    let out = pupcheck(&["check", "--no-cache", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("environment must be \"closed\" or \"open\", not \"shut\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// In an environment `pupcheck.toml` declares open, a lookup of a key no data file binds
/// is a warning: a Hiera layer outside the repository may bind it.
#[test]
fn a_key_no_file_binds_only_warns_in_an_environment_declared_open() {
    let dir = std::env::temp_dir().join(format!("pupcheck-open-hiera-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("environment.conf", "modulepath = site\n");
    write(
        "hiera.yaml",
        "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    write("data/common.yaml", "---\nprofile::bound: 1\n");
    write(
        "manifests/site.pp",
        "$servers = lookup('profile::unbound')\n",
    );
    let severity = || {
        let out = pupcheck(&[
            "check",
            "--format",
            "json",
            "--no-cache",
            dir.to_str().unwrap(),
        ]);
        json(&out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["rule"] == "hiera-missing-key")
            .map(|d| d["severity"].as_str().unwrap().to_string())
    };
    assert_eq!(severity().as_deref(), Some("error"));
    write("pupcheck.toml", "environment = \"open\"\n");
    assert_eq!(severity().as_deref(), Some("warning"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fresh folder `dir`, and a function writing a file (its folders made) under it.
fn scratch_tree(dir: &std::path::Path) -> impl Fn(&str, &str) + '_ {
    let _ = std::fs::remove_dir_all(dir);
    move |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `pupcheck catalog`: a role's catalog lists what its profiles declare (a value known
/// only by its type shown as such, a resource on some paths only marked so), a node
/// name picks the node definition Puppet picks, and `--diff` says what a change does
/// to every role's catalog (exit 1 when something changed, 0 when nothing did).
#[test]
fn catalog_lists_a_roles_resources_and_diffs_two_trees() {
    let dir = std::env::temp_dir().join(format!("pupcheck-catalog-{}", std::process::id()));
    let write = scratch_tree(&dir);
    for tree in ["base", "head"] {
        write(&format!("{tree}/environment.conf"), "modulepath = site\n");
        write(
            &format!("{tree}/site/role/manifests/web.pp"),
            "class role::web {\n  include profile::nginx\n}\n",
        );
        write(
            &format!("{tree}/manifests/site.pp"),
            "node /^web/ {\n  include role::web\n}\nnode default { }\n",
        );
    }
    write(
        "base/site/profile/manifests/nginx.pp",
        "class profile::nginx (Integer $port = 80) {\n  package { 'nginx': ensure => installed }\n  \
         file { '/etc/nginx/port': content => \"${port}\" }\n}\n",
    );
    write(
        "head/site/profile/manifests/nginx.pp",
        "class profile::nginx (Integer $port = 80, Boolean $tls = false) {\n  package { 'nginx': ensure => latest }\n  \
         if $tls {\n    file { '/etc/nginx/tls.conf': ensure => file }\n  }\n}\n",
    );
    let head = dir.join("head");
    let listed = pupcheck(&[
        "catalog",
        "--class",
        "role::web",
        "--format",
        "json",
        head.to_str().unwrap(),
    ]);
    assert_eq!(listed.status.code(), Some(0), "{listed:?}");
    let catalog = json(&listed);
    assert_eq!(catalog["name"], "class role::web");
    let resources = catalog["resources"].as_array().unwrap();
    let find = |reference: &str| {
        resources
            .iter()
            .find(|r| {
                format!(
                    "{}[{}]",
                    r["type"].as_str().unwrap(),
                    r["title"].as_str().unwrap()
                ) == reference
            })
            .unwrap_or_else(|| panic!("{reference} not in {resources:?}"))
    };
    assert_eq!(find("Package[nginx]")["parameters"]["ensure"], "latest");
    assert_eq!(find("Package[nginx]")["certain"], true);
    assert_eq!(find("File[/etc/nginx/tls.conf]")["certain"], false);
    assert_eq!(find("Class[Profile::Nginx]")["certain"], true);
    assert!(catalog["edges"].as_array().unwrap().contains(
        &serde_json::json!({"source": "Class[Profile::Nginx]", "target": "Package[nginx]"})
    ));

    let node = pupcheck(&[
        "catalog",
        "--node",
        "web01.example.com",
        head.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&node.stdout);
    assert!(
        text.starts_with("node /^web/:") && text.contains("Package[nginx]"),
        "{text}"
    );

    let base = dir.join("base");
    let diff = pupcheck(&[
        "catalog",
        "--diff",
        base.to_str().unwrap(),
        head.to_str().unwrap(),
    ]);
    assert_eq!(diff.status.code(), Some(1), "{diff:?}");
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(
        text.contains("class role::web: 1 added, 1 removed, 1 changed"),
        "{text}"
    );
    assert!(
        text.contains("  + File[/etc/nginx/tls.conf] (some paths)"),
        "{text}"
    );
    assert!(text.contains("  - File[/etc/nginx/port]"), "{text}");
    assert!(text.contains("      ensure: installed -> latest"), "{text}");
    let same = pupcheck(&[
        "catalog",
        "--diff",
        head.to_str().unwrap(),
        head.to_str().unwrap(),
    ]);
    assert_eq!(same.status.code(), Some(0), "{same:?}");
    assert_eq!(
        String::from_utf8_lossy(&same.stdout),
        "No catalog changes.\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `pupcheck catalog --diff-rev REV`: the working tree's catalogs against the same
/// tree at a git revision, from the repository's root or a subfolder of it; an
/// ignored folder of installed modules (r10k's `modules/`) serves both sides, so it
/// shows no change; a revision the repository lacks is a usage error; a program the
/// repository's git configuration names is not run.
#[test]
fn catalog_diff_rev_compares_the_working_tree_with_a_revision() {
    let dir = std::env::temp_dir().join(format!("pupcheck-catalog-rev-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write(".gitignore", "/modules/\n");
    write("environment.conf", "modulepath = site:modules\n");
    write(
        "site/role/manifests/web.pp",
        "class role::web {\n  include vendor\n  package { 'nginx': ensure => installed }\n}\n",
    );
    write(
        "modules/vendor/manifests/init.pp",
        "class vendor {\n  package { 'vendor-tools': }\n}\n",
    );
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "base"]);
    // An untrusted repository's configuration names a program git would run when it
    // reads the index: pupcheck's git calls run none.
    let planted = dir.join("fsmonitor-ran");
    let hook = format!("touch '{}'", planted.display());
    git(&["config", "core.fsmonitor", &hook]);
    let unchanged = pupcheck(&["catalog", "--diff-rev", "HEAD", dir.to_str().unwrap()]);
    assert!(!planted.exists(), "the repository's core.fsmonitor ran");
    assert_eq!(unchanged.status.code(), Some(0), "{unchanged:?}");
    assert_eq!(
        String::from_utf8_lossy(&unchanged.stdout),
        "No catalog changes.\n"
    );
    write(
        "site/role/manifests/web.pp",
        "class role::web {\n  include vendor\n  package { 'nginx': ensure => latest }\n}\n",
    );
    for tree in [dir.clone(), dir.join("site")] {
        let diff = pupcheck(&["catalog", "--diff-rev", "HEAD", tree.to_str().unwrap()]);
        assert_eq!(diff.status.code(), Some(1), "{diff:?}");
        let text = String::from_utf8_lossy(&diff.stdout);
        assert!(
            text.contains("class role::web: 0 added, 0 removed, 1 changed")
                && text.contains("      ensure: installed -> latest"),
            "{text}"
        );
    }
    let missing = pupcheck(&[
        "catalog",
        "--diff-rev",
        "no-such-branch",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no-such-branch: no such revision"),
        "{missing:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `pupcheck catalog` follows a role into installed modules (the modulepath's, which
/// are not checked) and lists what they declare: through `contain` (the container
/// holds the class too, as in Puppet's catalog), `ensure_packages`,
/// `create_resources`, and a defined type declared with a title known only by type
/// (its body's fixed titles listed as on some paths only).
#[test]
fn catalog_reads_the_installed_modules_a_role_reaches() {
    let dir =
        std::env::temp_dir().join(format!("pupcheck-catalog-installed-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("repo/environment.conf", "modulepath = site\n");
    write(
        "repo/site/role/manifests/app.pp",
        "class role::app {\n  include vendor\n}\n",
    );
    write(
        "installed/vendor/manifests/init.pp",
        "class vendor {\n  contain vendor::install\n  ensure_packages(['curl'])\n  \
         create_resources('file', { '/etc/vendor.conf' => { 'ensure' => 'file' } })\n  \
         vendor::thing { $facts['networking']['hostname']: }\n}\n",
    );
    write(
        "installed/vendor/manifests/install.pp",
        "class vendor::install {\n  package { 'vendor-tools': }\n}\n",
    );
    write(
        "installed/vendor/manifests/thing.pp",
        "define vendor::thing {\n  service { 'vendor-daemon': }\n}\n",
    );
    write(
        "installed/unused/manifests/init.pp",
        "class unused {\n  package { 'never': }\n}\n",
    );
    let listed = pupcheck(&[
        "catalog",
        "--class",
        "role::app",
        "--format",
        "json",
        "--modulepath",
        dir.join("installed").to_str().unwrap(),
        dir.join("repo").to_str().unwrap(),
    ]);
    assert_eq!(listed.status.code(), Some(0), "{listed:?}");
    let catalog = json(&listed);
    let resources = catalog["resources"].as_array().unwrap();
    let certainty = |reference: &str| {
        resources
            .iter()
            .find(|r| format!("{}[{}]", r["type"].as_str().unwrap(), r["title"]) == reference)
            .map(|r| r["certain"].as_bool().unwrap())
    };
    assert_eq!(
        certainty("Class[\"Vendor::Install\"]"),
        Some(true),
        "{resources:?}"
    );
    assert_eq!(certainty("Package[\"vendor-tools\"]"), Some(true));
    assert_eq!(certainty("Package[\"curl\"]"), Some(true));
    assert_eq!(certainty("File[\"/etc/vendor.conf\"]"), Some(true));
    assert_eq!(certainty("Service[\"vendor-daemon\"]"), Some(false));
    assert_eq!(certainty("Package[\"never\"]"), None);
    assert!(resources
        .iter()
        .any(|r| r["type"] == "Vendor::Thing" && !r["title"].is_string()));
    let edges = catalog["edges"].as_array().unwrap();
    for (source, target) in [
        ("Stage[main]", "Class[Vendor::Install]"),
        ("Class[Vendor]", "Class[Vendor::Install]"),
    ] {
        assert!(
            edges.contains(&serde_json::json!({"source": source, "target": target})),
            "{source} -> {target} not in {edges:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A check's catalogs reach installed modules too: a profile's package that a module it
/// includes declares again fails Puppet's compile of the role (Puppet raises it in the
/// module: the finding is shown at the profile's declaration, the user's, with a note
/// saying where Puppet raises it). Confirmed with Puppet 7: "Duplicate declaration:
/// Package[unzip] is already declared at (file: .../tools.pp, line: 2); cannot
/// redeclare (file: .../archive/manifests/init.pp, line: 2)".
#[test]
fn a_duplicate_with_an_installed_module_is_found_at_the_users_declaration() {
    let dir = std::env::temp_dir().join(format!("pupcheck-catalog-dup-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("repo/environment.conf", "modulepath = site\n");
    write(
        "repo/site/profile/manifests/tools.pp",
        "class profile::tools {\n  package { 'unzip': ensure => installed }\n  include archive\n}\n",
    );
    write(
        "repo/site/role/manifests/app.pp",
        "class role::app {\n  include profile::tools\n}\n",
    );
    write(
        "installed/archive/manifests/init.pp",
        "class archive {\n  package { 'unzip': ensure => present }\n}\n",
    );
    let checked = pupcheck(&[
        "check",
        "--no-cache",
        "--format",
        "json",
        "--modulepath",
        dir.join("installed").to_str().unwrap(),
        dir.join("repo").to_str().unwrap(),
    ]);
    let report = json(&checked);
    let duplicates: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "duplicate-declaration")
        .collect();
    assert_eq!(duplicates.len(), 1, "{report}");
    assert!(duplicates[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("profile/manifests/tools.pp"));
    assert_eq!(duplicates[0]["line"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A relationship to a resource no code declares is judged only in a closed
/// environment: in an open one, a module pupcheck was not shown (or a class a node
/// classifier adds) may declare it.
#[test]
fn a_relationship_to_a_resource_is_judged_only_in_a_closed_environment() {
    let dir = std::env::temp_dir().join(format!("pupcheck-relationship-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("repo/environment.conf", "modulepath = site\n");
    write(
        "repo/site/ntp/manifests/init.pp",
        "class ntp {\n  package { 'ntp': }\n  file { '/etc/ntp.conf': require => Package['ntpd'] }\n}\n",
    );
    let found = |dir: &std::path::Path| {
        let checked = pupcheck(&[
            "check",
            "--no-cache",
            "--format",
            "json",
            dir.to_str().unwrap(),
        ]);
        json(&checked)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"] == "unknown-relationship-target")
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(found(&dir.join("repo")), Vec::<String>::new());
    write("repo/pupcheck.toml", "environment = \"closed\"\n");
    assert_eq!(
        found(&dir.join("repo")),
        vec!["Could not find resource 'Package[ntpd]' in parameter 'require'".to_string()]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The README shows what `pupcheck catalog examples/demo` prints: it must be what it
/// prints.
#[test]
fn readme_shows_the_demos_catalog_as_printed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let start = readme
        .find("On the demo, `pupcheck catalog examples/demo` prints:\n\n```text\n")
        .expect("the README shows the demo's catalog");
    let block = &readme[start..];
    let block = &block[block.find("```text\n").unwrap() + 8..];
    let shown = &block[..block.find("```").unwrap()];
    let out = Command::new(env!("CARGO_BIN_EXE_pupcheck"))
        .args(["catalog", "examples/demo"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
}

/// `pupcheck catalog` says which files do not parse: what they declare may be missing
/// from the catalogs it prints.
#[test]
fn catalog_names_the_files_that_do_not_parse() {
    let dir = std::env::temp_dir().join(format!("pupcheck-catalog-broken-{}", std::process::id()));
    let write = scratch_tree(&dir);
    write("manifests/ok.pp", "class ok {\n  package { 'curl': }\n}\n");
    write("manifests/broken.pp", "class broken {\n  file { 'x':\n");
    let out = pupcheck(&["catalog", "--class", "ok", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.pp does not parse") && !stderr.contains("ok.pp"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Package[curl]"));
    std::fs::remove_dir_all(&dir).unwrap();
}
