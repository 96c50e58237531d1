//! Repositories built to hurt: every test plants what a hostile or unlucky repository
//! could hold (FIFOs, links to `/dev/zero` or out of the tree, planted temporary names,
//! long lines) and runs pupcheck on it under a time and memory limit, asserting it ends
//! with a clear answer and writes nothing outside the files it fixes.
#![cfg(unix)]

use std::os::unix::fs::{symlink, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Generous for a debug build on a loaded machine; a hang or a blow-up exceeds it.
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Address space for one run: a read of `/dev/zero` without a limit passes it in a second.
const MEMORY_LIMIT: u64 = 2 << 30;

/// A fresh scratch folder for one test, removed when the test ends (also when it fails:
/// a run of the suite must not leave its hostile trees in the temporary folder).
fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("pupcheck-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // (A FIFO or a link to /dev/zero is removed as a name: nothing is opened.)
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pupcheck"));
    command.args(args).current_dir(dir).stdin(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY_LIMIT,
                rlim_max: MEMORY_LIMIT,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    command
}

/// Runs to the end within TIME_LIMIT (killed and failed otherwise).
fn run_bounded(mut command: Command) -> Output {
    // Output goes to files, not pipes: a full pipe would block the child (and look like
    // a hang) while this loop only polls.
    let capture = tempfile::tempdir().unwrap();
    let out_path = capture.path().join("stdout");
    let err_path = capture.path().join("stderr");
    let mut child = command
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > TIME_LIMIT {
            child.kill().unwrap();
            panic!("pupcheck ran longer than {TIME_LIMIT:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = Output {
        status: child.wait().unwrap(),
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read(&err_path).unwrap(),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && output.status.code().is_some(),
        "pupcheck crashed: {:?}\n{stderr}",
        output.status
    );
    output
}

fn pupcheck(dir: &Path, args: &[&str]) -> Output {
    run_bounded(command(dir, args))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_planted_temporary_name_or_outward_link_never_gets_written() {
    let dir = scratch("planted");
    let repo = dir.join("repo");
    let victim = dir.join("victim.txt");
    // Trailing whitespace: what --fix would fix if it wrote through the link.
    let secret = "notice('do not touch')   \n";
    write(&victim, secret);
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o600)).unwrap();
    // Trailing whitespace: a safe fix.
    write(&repo.join("manifests/init.pp"), "class repo {   \n}\n");
    // The names earlier versions used for their temporary files, for any pid.
    for pid in [std::process::id() + 1, std::process::id() + 2, 1] {
        let planted = repo.join(format!("manifests/.init.pp.pupcheck-fix-{pid}"));
        symlink(&victim, planted).unwrap();
    }
    // A manifest that is a link out of the repository.
    symlink(&victim, repo.join("manifests/outside.pp")).unwrap();
    let output = pupcheck(&repo, &["check", "--fix", "--select", "all", "."]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), secret);
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let init = repo.join("manifests/init.pp");
    assert!(std::fs::symlink_metadata(&init).unwrap().is_file());
    assert_eq!(std::fs::read_to_string(&init).unwrap(), "class repo {\n}\n");
    // The link out is not even read (its fix could not be computed, let alone written).
    let report = stdout(&output) + &stderr(&output);
    assert!(
        report.contains("outside.pp: error[unreadable-file]: not read: the file is a link to")
            && report.contains("outside the folders checked")
            && !report.contains("do not touch"),
        "{report}"
    );
}

#[test]
fn leftover_temporary_files_of_a_killed_run_are_removed_and_never_checked() {
    let dir = scratch("leftovers");
    write(&dir.join("manifests/init.pp"), "class leftovers {   \n}\n");
    // A pid above Linux's pid_max never runs.
    let leftover = dir.join("manifests/.pupcheck-fix-4194305-Ab12Cd.tmp");
    write(&leftover, "class leftovers { syntax error\n");
    let output = pupcheck(&dir, &["check", "--format", "concise", "."]);
    assert!(
        !stdout(&output).contains("pupcheck-fix"),
        "{}",
        stdout(&output)
    );
    pupcheck(&dir, &["check", "--fix", "."]);
    assert!(!leftover.exists());
}

#[test]
fn an_interrupted_fix_leaves_no_temporary_file_and_no_partial_file() {
    let dir = scratch("interrupt");
    let original = format!(
        "class big {{   \n{}}}\n",
        "  notify { 'x': }   \n".repeat(2000)
    );
    for i in 0..300 {
        write(&dir.join(format!("manifests/f{i}.pp")), &original);
    }
    // Each signal the handler takes, at moments from the walk to the last renames.
    let signals = [
        (5u64, libc::SIGTERM),
        (20, libc::SIGINT),
        (60, libc::SIGHUP),
        (150, libc::SIGTERM),
        (10, libc::SIGHUP),
        (40, libc::SIGINT),
    ];
    for (delay_ms, signal) in signals {
        let mut child = command(&dir, &["check", "--fix", "--quiet", "."])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let _ = child.wait();
        for entry in std::fs::read_dir(dir.join("manifests")).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(!name.contains("pupcheck-fix"), "left behind: {name}");
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let fixed = original.replace("   \n", "\n");
            assert!(text == original || text == fixed, "{name} is partial");
        }
        // Start again from unfixed files.
        for i in 0..300 {
            write(&dir.join(format!("manifests/f{i}.pp")), &original);
        }
    }
}

#[test]
fn fifos_where_pupcheck_reads_on_its_own_never_block() {
    let dir = scratch("fifos");
    // environment.conf in a parent folder, metadata.json of a module on the modulepath,
    // and a manifest the autoloader reads.
    mkfifo(&dir.join("environment.conf"));
    write(
        &dir.join("env/modules/a/manifests/init.pp"),
        "class a { include b }\n",
    );
    mkfifo(&dir.join("env/modules/a/metadata.json"));
    mkfifo(&dir.join("env/modules/b/manifests/init.pp"));
    mkfifo(&dir.join("env/modules/Bad-Name/metadata.json"));
    let output = pupcheck(&dir, &["check", "env/modules/a"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn configuration_and_baselines_that_are_not_regular_files_are_errors() {
    let dir = scratch("config-fifo");
    write(&dir.join("x.pp"), "notice(1)\n");
    mkfifo(&dir.join("fifo"));
    for args in [
        vec!["check", "--config", "fifo", "x.pp"],
        vec!["check", "--baseline", "fifo", "x.pp"],
    ] {
        let output = pupcheck(&dir, &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains("FIFO"), "{}", stderr(&output));
    }
    let sub = dir.join("sub");
    std::fs::create_dir_all(sub.join("pupcheck.toml")).unwrap();
    write(&sub.join("x.pp"), "notice(1)\n");
    let output = pupcheck(&sub, &["check", "x.pp"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("directory"), "{}", stderr(&output));
    let rc = dir.join("rc");
    write(&rc.join(".puppet-lint.rc"), "--only-checks=\n");
    write(&rc.join("x.pp"), "notice(1)\n");
    let output = pupcheck(&rc, &["check", "x.pp"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("names no check"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn links_to_dev_zero_and_endless_stdin_stop_at_the_size_limit() {
    let dir = scratch("zero");
    write(
        &dir.join("modules/a/manifests/init.pp"),
        "class a { include b }\n",
    );
    symlink("/dev/zero", dir.join("modules/a/metadata.json")).unwrap();
    symlink("/dev/zero", dir.join("modules/b")).unwrap_or(());
    symlink("/dev/zero", dir.join("zero.pp")).unwrap();
    let output = pupcheck(&dir, &["check", "--format", "concise", "."]);
    assert!(
        stdout(&output).contains("zero.pp:1:1: unreadable-file"),
        "{}",
        stdout(&output)
    );
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let mut stdin = command(&dir, &["check", "-"]);
    stdin.stdin(zero);
    let output = run_bounded(stdin);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("larger than"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_named_fifo_is_an_error_and_a_dangling_link_that_is_no_manifest_is_nothing() {
    let dir = scratch("named");
    mkfifo(&dir.join("x.pp"));
    let output = pupcheck(&dir, &["check", "--format", "json", "x.pp"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("FIFO"), "{}", stdout(&output));
    let tree = dir.join("tree");
    write(&tree.join("manifests/init.pp"), "class tree {\n}\n");
    symlink("nowhere", tree.join("README")).unwrap();
    let output = pupcheck(&tree, &["check", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    symlink("nowhere", tree.join("manifests/gone.pp")).unwrap();
    for format in [
        "human", "concise", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let output = pupcheck(&tree, &["check", "--format", format, "."]);
        assert_eq!(output.status.code(), Some(1), "{format}");
        assert!(stdout(&output).contains("gone.pp"), "{format}");
    }
}

#[test]
fn a_link_to_an_ancestor_folder_is_walked_once_without_an_error() {
    // A Bolt project inside a module links back to the module.
    let dir = scratch("ancestor-link");
    write(
        &dir.join("site/tasks/manifests/init.pp"),
        "class tasks {\n}\n",
    );
    std::fs::create_dir_all(dir.join("site/tasks/Boltdir/site")).unwrap();
    symlink("../..", dir.join("site/tasks/Boltdir/site/tasks")).unwrap();
    let output = pupcheck(&dir, &["check", "--format", "json", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("\"files\":1,"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn absurd_thread_counts_are_refused() {
    let dir = scratch("threads");
    let output = pupcheck(&dir, &["check", "--threads", "5000", "."]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--threads"), "{}", stderr(&output));
}

#[test]
fn long_lines_and_many_heredocs_check_in_linear_time() {
    let dir = scratch("long");
    // 330 KB on one line with 30,000 parentheses: quadratic before (16 s in release).
    write(
        &dir.join("line.pp"),
        &format!("{}\n", "notice(1) ".repeat(30_000)),
    );
    let started = Instant::now();
    let output = pupcheck(&dir, &["check", "--select", "syntax", "line.pp"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(started.elapsed() < TIME_LIMIT);
}

#[test]
fn a_panic_on_one_file_is_that_files_internal_error_and_the_others_are_reported() {
    if !cfg!(debug_assertions) {
        // The panic marker exists in debug builds only (src/check/isolate.rs).
        return;
    }
    let dir = scratch("panic");
    write(&dir.join("a.pp"), "notice('a')   \n");
    write(
        &dir.join("b.pp"),
        "# pupcheck-test-panic-marker\nnotice('b')\n",
    );
    write(&dir.join("c.pp"), "notice('c')   \n");
    let mut run = command(&dir, &["check", "--format", "concise", "."]);
    run.env("PUPCHECK_TEST_PANIC_MARKER", "pupcheck-test-panic-marker");
    let output = run_bounded(run);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{out}");
    assert!(out.contains("a.pp:1:12: trailing-whitespace"), "{out}");
    assert!(out.contains("c.pp:1:12: trailing-whitespace"), "{out}");
    assert!(out.contains("b.pp:1:1: internal-error pupcheck failed on this file (the test panic marker was found at src/check/isolate.rs"), "{out}");
    // --fix too: the other files are fixed.
    let mut run = command(&dir, &["check", "--fix", "--format", "concise", "."]);
    run.env("PUPCHECK_TEST_PANIC_MARKER", "pupcheck-test-panic-marker");
    let output = run_bounded(run);
    assert!(
        stdout(&output).contains("b.pp:1:1: internal-error"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("a.pp")).unwrap(),
        "notice('a')\n"
    );
}

#[test]
fn aliases_that_name_themselves_or_are_cut_short_end_in_findings_not_crashes() {
    let dir = scratch("aliases");
    let modules = dir.join("modules");
    // An alias that is only itself, used as a parameter type and in a match.
    write(&modules.join("g/types/t.pp"), "type G::T = G::T\n");
    write(
        &modules.join("g/manifests/init.pp"),
        "define g::u (G::T $v) {}\nclass g { if 1 =~ G::T {} g::u { 'x': v => 1 } }\n",
    );
    // An alias cut short by a syntax error, the type of two parameters with defaults.
    write(
        &modules.join("a/types/p.pp"),
        "type A::P = Variant[Integer::mmary\n",
    );
    write(
        &modules.join("b/manifests/init.pp"),
        "class b(A::P $d = undef, A::P $i = 1) {}\n",
    );
    // Aliases through each other, and a long chain.
    let mut chain = String::from("type C0 = Integer\n");
    for i in 1..10_000 {
        chain.push_str(&format!("type C{i} = C{}\n", i - 1));
    }
    chain.push_str("class chain (C9999 $v = 'x') {}\ntype M1 = M2\ntype M2 = Array[M1]\n");
    chain.push_str("class mutual (M1 $v = [[1]]) {}\n");
    write(&dir.join("chain.pp"), &chain);
    let output = pupcheck(&dir, &["check", "--format", "concise", "."]);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{out}\n{}", stderr(&output));
    assert!(!out.contains("internal-error"), "{out}");
    assert!(out.contains("a/types/p.pp:1:20: syntax-error"), "{out}");
    assert!(
        !out.contains("class 'b'"),
        "the broken alias is unknown: {out}"
    );
    // Puppet: "parameter 'v' index 0 index 0 expects a M2 = Array[M1 = M2] value, got Integer".
    assert!(
        out.contains("expects a M2 = Array[M1 = M2] value, got Integer"),
        "{out}"
    );
    assert!(
        out.contains("class 'chain': parameter 'v' expects"),
        "{out}"
    );
}

#[test]
fn huge_one_line_hashes_and_resources_and_many_findings_stay_linear() {
    let dir = scratch("shapes");
    let keys: Vec<String> = (0..20_000).map(|i| format!("'k{i}' => {i}")).collect();
    write(
        &dir.join("hash.pp"),
        &format!("$h = {{{}}}\nnotice($h)\n", keys.join(", ")),
    );
    let attrs: Vec<String> = (0..20_000).map(|i| format!("a{i} => {i}")).collect();
    write(
        &dir.join("attrs.pp"),
        &format!("file {{ '/x': {} }}\n", attrs.join(", ")),
    );
    let one = "file { '/tmp/x%':\n  ensure => file,\n  mode => '0644',\n}\n";
    let many: String = (0..20_000)
        .map(|i| one.replace('%', &i.to_string()))
        .collect();
    write(&dir.join("many.pp"), &many);
    // Many lambdas reading their parameter in one class: variable-scope looked at every
    // lambda for each read (11 s in a release build).
    let lambdas: String = (0..60_000)
        .map(|i| format!("  [{i}].each |$e| {{ notice($e) }}\n"))
        .collect();
    write(
        &dir.join("lambdas.pp"),
        &format!("class lambdas {{\n{lambdas}}}\n"),
    );
    // Quadratic before: 10 s and more each in a release build; the time limit fails them.
    for format in ["human", "sarif"] {
        let output = pupcheck(&dir, &["check", "--select", "all", "--format", format, "."]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn hiera_files_that_are_fifos_or_yaml_bombs_end_in_bounded_time() {
    let dir = scratch("hiera");
    let env = dir.join("env");
    write(&env.join("environment.conf"), "modulepath = modules\n");
    write(
        &env.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: all\n    glob: \"*.yaml\"\n",
    );
    write(
        &env.join("modules/ntp/manifests/init.pp"),
        "class ntp (Integer $port) { }\n",
    );
    write(&env.join("manifests/site.pp"), "include ntp\n");
    // A level's file that is a FIFO, a module's hiera.yaml that is one, a billion
    // laughs and a nesting deeper than any parser should follow.
    mkfifo(&env.join("data/fifo.yaml"));
    mkfifo(&env.join("modules/ntp/hiera.yaml"));
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let (prev, name) = (pair[0], pair[1]);
        let refs = vec![format!("*{prev}"); 10].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    write(&env.join("data/bomb.yaml"), &bomb);
    write(
        &env.join("data/deep.yaml"),
        &("[".repeat(100_000) + &"]".repeat(100_000)),
    );
    let output = pupcheck(&dir, &["check", "--format", "json", "env"]);
    let out = stdout(&output);
    assert!(
        out.contains("bomb.yaml") && out.contains("deep.yaml") && out.contains("unreadable-file"),
        "{out}\n{}",
        stderr(&output)
    );
    // The data could not be read whole: the include is not judged.
    assert!(!out.contains("missing-parameter"), "{out}");
}

/// A module's Ruby type files are read as syntax trees: one nested far beyond any real
/// file, one over the size read, and one that is a FIFO end in bounded time and
/// memory, the type unknown or read, never a crash.
#[test]
fn ruby_type_files_that_nest_deeply_are_large_or_fifos_end_in_bounded_time() {
    let dir = scratch("ruby-types");
    let lib = dir.join("evil/lib/puppet/type");
    let nested = format!(
        "Puppet::Type.newtype(:nested) do\n  x = {}{}\n  newparam(:name)\nend\n",
        "[".repeat(60_000),
        "]".repeat(60_000)
    );
    write(&lib.join("nested.rb"), &nested);
    let large = format!(
        "Puppet::Type.newtype(:large) do\n  newparam(:name)\n{}end\n",
        "  # padding\n".repeat(40_000)
    );
    write(&lib.join("large.rb"), &large);
    mkfifo(&lib.join("fifo.rb"));
    write(
        &dir.join("evil/manifests/init.pp"),
        "class evil {\n  nested { 'a': bogus => 1 }\n  large { 'b': bogus => 1 }\n  fifo { 'c': bogus => 1 }\n}\n",
    );
    let out = pupcheck(&dir, &["check", "--format", "json", "evil"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let unknown: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unknown-attribute")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    // The nested type is read (its one attribute known); the large one and the FIFO
    // are not, so nothing is said of their declarations.
    assert_eq!(
        unknown,
        ["no parameter named 'bogus' on Nested[a]"],
        "{}",
        stderr(&out)
    );
}

/// Runs within TIME_LIMIT like `run_bounded`, and says how much memory the run took at
/// most (its peak resident set, from `wait4`).
fn run_measured(mut command: Command) -> (Output, u64) {
    let capture = tempfile::tempdir().unwrap();
    let out_path = capture.path().join("stdout");
    let err_path = capture.path().join("stderr");
    let child = command
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is this test's own child, not yet reaped (Child never waited).
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break (status, usage);
        }
        if started.elapsed() > TIME_LIMIT {
            // SAFETY: as above; the child is killed, then reaped by Child's drop-less wait.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("pupcheck ran longer than {TIME_LIMIT:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    std::mem::forget(child);
    let stderr = std::fs::read(&err_path).unwrap();
    assert!(
        libc::WIFEXITED(status) && !String::from_utf8_lossy(&stderr).contains("panicked"),
        "pupcheck crashed (status {status}): {}",
        String::from_utf8_lossy(&stderr)
    );
    let output = Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(status),
        stdout: std::fs::read(&out_path).unwrap(),
        stderr,
    };
    // ru_maxrss is in kilobytes on Linux.
    (output, usage.ru_maxrss as u64 * 1024)
}

/// The rules of the findings a check of `target` (in `dir`) reports, but `ignored`, in
/// the report's order; the check must end within PROGRAM_MEMORY_LIMIT.
fn rules_within_memory(dir: &Path, target: &str, ignored: &[&str]) -> Vec<String> {
    let (output, memory) = run_measured(command(
        dir,
        &["check", "--no-cache", "--format", "json", target],
    ));
    assert!(
        memory < PROGRAM_MEMORY_LIMIT,
        "{target} took {} MB",
        memory >> 20
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("{target}: {e}\n{}", stderr(&output)));
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .filter(|rule| !ignored.contains(&rule.as_str()))
        .collect()
}

/// The memory one of the programs below may take: the issue's bound (200 MB) for a
/// release build; a debug build is checked against the same.
const PROGRAM_MEMORY_LIMIT: u64 = 200 << 20;

/// Small programs that would make an interpreter without budgets hang, take all the
/// memory or panic (issue: "every evaluation bounded in time and memory, no panic on
/// any value"): each ends in bounded time and memory, with no internal error, and with
/// the findings Puppet's compile gives: what follows the costly statement is still
/// evaluated (each file ends with a division by zero Puppet raises).
#[test]
fn programs_that_grow_loop_recurse_or_overflow_end_in_bounded_time_and_memory() {
    let dir = scratch("programs");
    let mut doubling = String::from("class doubling {\n  $a0 = 'xx'\n");
    for i in 1..=40 {
        doubling.push_str(&format!("  $a{i} = \"${{a{}}}${{a{}}}\"\n", i - 1, i - 1));
    }
    doubling.push_str("  $after = 1 / 0\n}\n");
    let programs: &[(&str, String, &[&str])] = &[
        ("doubling", doubling, &["division-by-zero"]),
        (
            "width",
            "class width(String $n = sprintf('%99999999999s', 'x')) {\n  $after = 1 / 0\n}\n".into(),
            &["division-by-zero"],
        ),
        (
            "precision",
            "class precision(String $n = sprintf('%.65536f', 1.0)) {\n  $after = 1 / 0\n}\n"
                .into(),
            &["division-by-zero"],
        ),
        (
            "nested_loops",
            "class nested_loops {\n  999999.each |$i| { 999999.each |$j| { $k = $i + $j } }\n  $r = 50000.map |$i| { 50000.map |$j| { $i + $j } }\n  $after = 1 / 0\n}\n".into(),
            &["division-by-zero"],
        ),
        (
            "recursion",
            "class recursion {\n  $z = recursion::twice(60)\n  $after = 1 / 0\n}\n".into(),
            &["division-by-zero"],
        ),
        (
            "nesting",
            "class nesting {\n  $a0 = [1, 2, 3, 4, 5, 6, 7, 8]\n".to_string()
                + &(1..=60)
                    .map(|i| format!("  $a{i} = [$a{}, $a{}]\n", i - 1, i - 1))
                    .collect::<String>()
                + "  $flat = flatten($a60)\n  $text = \"x${a60}\"\n  $same = $a60 == $a59\n  $after = 1 / 0\n}\n",
            &["division-by-zero"],
        ),
        (
            // A thousand matches that each give up backtracking (40 ms each before).
            "regexes",
            "class regexes {\n".to_string()
                + &(0..1000)
                    .map(|i| format!("  $m{i} = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa{i}' =~ /^(a|aa)+(?=c){i}$/\n"))
                    .collect::<String>()
                // The same through `in`, uncharged before (4 s in a release build).
                + &(0..1000)
                    .map(|i| format!("  $n{i} = /^(a|aa)+(?=c){i}$/ in ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa{i}']\n"))
                    .collect::<String>()
                + "  $after = 1 / 0\n}\n",
            &["division-by-zero"],
        ),
        (
            // Twenty thousand distinct strings filtered and folded into a hash: typing
            // their elements joined a growing Enum one string at a time (23 s; 192 s
            // with a filter and a match).
            "strings",
            "class strings {\n  $a = Integer[1, 20000].map |$i| { \"aaaaaaaaaaaaaaaa${i}!\" }\n  $f = $a.filter |$s| { $s =~ /^(a+)+$/ }\n  $h = $a.reduce({}) |$m, $s| { $m + { $s => 1 } }\n  $after = 1 / 0\n}\n".into(),
            &["division-by-zero"],
        ),
        (
            // Slices whose end passes 64 bits: Puppet's values ('bc', [2, 3]), so the
            // Integer parameter's default fails as Puppet's compile does.
            "slices",
            "class slices(\n  String $s = 'abc'[1, 9223372036854775807],\n  Integer $i = [1, 2, 3][1, 9223372036854775807],\n) {\n  $after = 1 / 0\n}\n".into(),
            &["parameter-default-type", "division-by-zero"],
        ),
    ];
    // A function that calls itself twice: 2^60 calls if each were evaluated.
    write(
        &dir.join("recursion/functions/twice.pp"),
        "function recursion::twice(Integer $n) >> Integer {\n  if $n > 0 { recursion::twice($n - 1) + recursion::twice($n - 1) } else { 1 }\n}\n",
    );
    for (name, code, expected) in programs {
        let path = dir.join(format!("{name}/manifests/init.pp"));
        write(&path, code);
        let mut found = rules_within_memory(&dir, name, &["documentation"]);
        found.sort_unstable();
        let mut wanted = expected.to_vec();
        wanted.sort_unstable();
        assert_eq!(found, wanted, "{name}");
    }
}

/// Types, data and metadata of many parts, whose checks were quadratic or cubic in
/// them, or whose expansion took gigabytes: each ends in bounded time and memory with
/// the findings it had (issue: "type operations with bounded cost", "Hiera/YAML with
/// bounded expansion").
#[test]
fn types_data_and_metadata_of_many_parts_end_in_bounded_time_and_memory() {
    let dir = scratch("many-parts");
    // A Variant of 5,000 integer ranges whose alias rejects the default (299 s before).
    let ranges: Vec<String> = (0..5000)
        .map(|i| format!("Integer[{}, {}]", i * 10, i * 10 + 1))
        .collect();
    write(
        &dir.join("big/types/ranges.pp"),
        &format!("type Big::Ranges = Variant[{}]\n", ranges.join(", ")),
    );
    // A version range of 100,000 alternatives in no order (minutes before).
    let mut order: Vec<u32> = (0..100_000).collect();
    order.sort_by_key(|i| (i * 7919) % 100_000);
    let alternatives: Vec<String> = order
        .iter()
        .map(|i| format!(">= {i}.0.0 < {i}.0.1"))
        .collect();
    write(
        &dir.join("big/manifests/init.pp"),
        &format!(
            "# @summary x\nclass big(Big::Ranges $x = 5) {{\n  $r = SemVerRange('{}')\n}}\n",
            alternatives.join(" || ")
        ),
    );
    // A metadata.json dependency of 100,000 alternatives (minutes before).
    write(
        &dir.join("big/metadata.json"),
        &format!(
            r#"{{"name": "me-big", "version": "1.0.0", "author": "me", "summary": "x", "license": "MIT", "source": "x", "dependencies": [{{"name": "puppetlabs/stdlib", "version_requirement": "{}"}}]}}"#,
            alternatives.join(" || ")
        ),
    );
    // Hiera data with one key written 200,000 times (quadratic: 40,000 took 10 s), and
    // a file aliasing a 100 KB anchor 20,000 times (4.5 GB before).
    let env = dir.join("env");
    write(&env.join("environment.conf"), "modulepath = site\n");
    write(
        &env.join("hiera.yaml"),
        "---\nversion: 5\nhierarchy:\n  - name: common\n    paths: [common.yaml, anchors.yaml]\n",
    );
    write(
        &env.join("site/foo/manifests/init.pp"),
        "# @summary x\nclass foo(Integer $x = 1) {}\n",
    );
    write(&env.join("manifests/site.pp"), "include foo\n");
    write(
        &env.join("data/common.yaml"),
        &"foo::x: 1\n".repeat(200_000),
    );
    let anchor = "x".repeat(100_000);
    write(
        &env.join("data/anchors.yaml"),
        &format!(
            "a: &a \"{anchor}\"\nb: [{}]\n",
            vec!["*a"; 20_000].join(", ")
        ),
    );
    for (target, expected) in [
        ("big", &["parameter-default-type"][..]),
        ("env", &["unreadable-file"][..]),
    ] {
        let found = rules_within_memory(&dir, target, &["autoloader-layout", "line-too-long"]);
        assert_eq!(found, expected, "{target}");
    }
}

/// The language server survives any frame (issue: "a language server that survives any
/// frame"): a header block without a length, and lengths of 2^31, 2^40 and 2^64 - 1,
/// each refused without allocating it; the session goes on (the frames after it are
/// answered) and ends cleanly; a document whose evaluation would take all the memory is
/// checked within the budgets like any file.
#[test]
fn the_language_server_survives_frames_of_any_length_and_hostile_documents() {
    use std::io::{Read, Write};
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let mut doubling = String::from("class doubling {\\n  $a0 = 'xx'\\n");
    for i in 1..=40 {
        doubling.push_str(&format!(
            "  $a{i} = \\\"${{a{}}}${{a{}}}\\\"\\n",
            i - 1,
            i - 1
        ));
    }
    doubling.push_str("  $after = 1 / 0\\n}\\n");
    let dir = scratch("server");
    let uri = format!("file://{}/doubling.pp", dir.display());
    let mut input = String::new();
    input +=
        &frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
    input += &frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
    // No length: one error; the body glued to the next frame's header.
    input += "Content-Type: application/vscode-jsonrpc\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7}";
    input += &frame(&format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{uri}","languageId":"puppet","version":1,"text":"{doubling}"}}}}}}"#
    ));
    // Requests on it are answered from the budgeted interpretation: what it knows of the
    // last doubling (its type) and of a value built in nested loops of a million.
    let hover = |id: u32, uri: &str, line: u32, character: u32| {
        frame(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{"textDocument":{{"uri":"{uri}"}},"position":{{"line":{line},"character":{character}}}}}}}"#
        ))
    };
    input += &hover(3, &uri, 41, 4);
    let loops_uri = format!("file://{}/loops.pp", dir.display());
    let loops =
        "class loops {\n  $r = 999999.map |$i| { 999999.map |$j| { $i * $j } }\n  notice($r)\n}\n";
    input += &frame(&format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{loops_uri}","languageId":"puppet","version":1,"text":"{loops}"}}}}}}"#
    ));
    input += &hover(4, &loops_uri, 2, 10);
    input += &frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#);
    for length in ["2147483648", "1099511627776", "18446744073709551615"] {
        let mut run = command(&dir, &["server"]);
        run.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = run.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = stdout.read_to_end(&mut out);
            out
        });
        stdin.write_all(input.as_bytes()).unwrap();
        // A frame claiming `length` bytes, then the end of the input inside it.
        stdin
            .write_all(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes())
            .unwrap();
        drop(stdin);
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > TIME_LIMIT {
                child.kill().unwrap();
                panic!("the server ran longer than {TIME_LIMIT:?} after a length of {length}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(
            status.code().is_some() && !err.contains("panicked"),
            "{length}: {status:?}\n{err}"
        );
        for id in 1..=4 {
            assert!(
                out.contains(&format!(r#""id":{id}"#)),
                "{length}: {id}: {out}"
            );
        }
        assert!(
            out.contains("String"),
            "the hover of the last doubling: {out}"
        );
        assert!(
            out.contains("a frame without a Content-Length header"),
            "{out}"
        );
        // The document was checked: the division after the doublings is reported.
        assert!(out.contains("Division by 0"), "{length}: {out}");
    }
}

/// A data file a level names that pupcheck cannot read whole (a FIFO, over the size
/// read, not UTF-8) is a finding on that file, and the keys it may bind are unknown: no
/// `missing-parameter` or `hiera-missing-key` for what it may hold (issue: "no silent
/// skip"; a FIFO `common.yaml` gave both, false).
#[test]
fn data_files_that_cannot_be_read_whole_are_findings_and_their_keys_unknown() {
    let dir = scratch("unread-data");
    for kind in ["fifo", "large", "latin1"] {
        let env = dir.join(kind);
        write(&env.join("environment.conf"), "modulepath = site\n");
        write(
            &env.join("hiera.yaml"),
            "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        );
        write(
            &env.join("site/foo/manifests/init.pp"),
            "# @summary x\nclass foo(Integer $x) {}\n",
        );
        write(
            &env.join("manifests/site.pp"),
            "include foo\n$v = lookup('foo::y')\n",
        );
    }
    mkfifo(&dir.join("fifo/data/common.yaml"));
    write(
        &dir.join("large/data/common.yaml"),
        &format!("foo::x: 1\nfoo::y: 2\n{}\n", "#".repeat(5 << 20)),
    );
    std::fs::create_dir_all(dir.join("latin1/data")).unwrap();
    std::fs::write(
        dir.join("latin1/data/common.yaml"),
        b"foo::x: 1\nfoo::y: \"caf\xe9\"\n",
    )
    .unwrap();
    for (kind, why) in [
        ("fifo", "it is a FIFO, not a regular file"),
        ("large", "it is larger than 4 MB"),
        ("latin1", "it is not valid UTF-8"),
    ] {
        let output = pupcheck(&dir, &["check", "--no-cache", "--format", "concise", kind]);
        assert_eq!(
            stdout(&output),
            format!("{kind}/data/common.yaml:1:1: unreadable-file not read: {why}\n"),
            "{}",
            stderr(&output)
        );
    }
}

/// Nothing outside the folders checked is read (issue: "reads outside the tree"): a
/// manifest that is a link to a secret outside the repository or to the process's own
/// environment is an `unreadable-file` finding naming why, its text never printed,
/// whether the walk finds it or the command line names it; a folder link to `/` is not
/// walked (a walk error says so) instead of covering the whole filesystem.
#[test]
fn links_out_of_the_tree_are_never_read_or_walked() {
    let dir = scratch("outward");
    let secret = "SECRET-7f3a9c-never-printed";
    write(
        &dir.join("outside/secret.pp"),
        &format!("${secret} = 1 +\n"),
    );
    let repo = dir.join("repo");
    write(
        &repo.join("m/manifests/init.pp"),
        "# @summary x\nclass m {}\n",
    );
    symlink(
        "../../../outside/secret.pp",
        repo.join("m/manifests/leak.pp"),
    )
    .unwrap();
    symlink("/proc/self/environ", repo.join("m/manifests/env.pp")).unwrap();
    symlink("/", repo.join("m/manifests/root")).unwrap();
    for args in [
        &["check", "--no-cache", "--format", "concise", "."][..],
        &[
            "check",
            "--no-cache",
            "--format",
            "concise",
            "m/manifests/leak.pp",
            "m/manifests/env.pp",
        ],
    ] {
        let mut run = command(&repo, args);
        run.env("PUPCHECK_HOSTILE_MARKER", secret);
        let output = run_bounded(run);
        let (out, err) = (stdout(&output), stderr(&output));
        assert!(
            !out.contains(secret) && !err.contains(secret),
            "{out}\n{err}"
        );
        for name in ["leak.pp", "env.pp"] {
            assert!(
                out.lines().any(|l| l.contains(name)
                    && l.contains("unreadable-file not read: the file is a link to")
                    && l.contains("outside the folders checked")),
                "{name}: {out}"
            );
        }
        if args.contains(&".") {
            assert!(
                err.contains(
                    "m/manifests/root not checked: a link to a folder outside the folder checked"
                ),
                "{err}"
            );
        }
    }
}

/// Swaps the folder `folder` for a link to `outside` and back, as fast as it can, until
/// `stop` is set; returns how many times it did.
fn swap_for_a_link_until(
    folder: PathBuf,
    outside: PathBuf,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let aside = folder.with_extension("real");
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            std::fs::rename(&folder, &aside).unwrap();
            symlink(&outside, &folder).unwrap();
            short_pause(swaps * 2);
            std::fs::remove_file(&folder).unwrap();
            std::fs::rename(&aside, &folder).unwrap();
            short_pause(swaps * 2 + 1);
            swaps += 1;
        }
        swaps
    })
}

/// A pause of 0 to 255 microseconds, varying with `n`: a race's two sides meet at
/// every point of each other's steps.
fn short_pause(n: usize) {
    let scrambled = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
    std::thread::sleep(Duration::from_micros(scrambled));
}

/// The names in `dir` and what each holds.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_folder_swapped_for_a_link_while_a_fix_writes_never_redirects_the_write() {
    let dir = scratch("swapped");
    let outside = dir.join("outside");
    write(&outside.join("init.pp"), "class outside {   \n}\n");
    let outside_before = contents(&outside);
    let repo = std::fs::canonicalize(dir.join(".")).unwrap().join("repo");
    let manifests = repo.join("m/manifests");
    write(&manifests.join("init.pp"), "0\n");
    let path = manifests.join("init.pp");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = swap_for_a_link_until(manifests.clone(), outside.clone(), Arc::clone(&stop));
    let (mut before, mut written, mut refused) = (b"0\n".to_vec(), 0, 0);
    for try_number in 1..=1000 {
        let text = format!("{try_number}\n");
        let roots = [repo.clone()];
        match pupcheck::fix::write_atomically(&path, &before, &text, &roots) {
            Ok(()) => {
                before = text.into_bytes();
                written += 1;
            }
            Err(_) => refused += 1,
        }
        assert_eq!(contents(&outside), outside_before, "try {try_number}");
        short_pause(try_number);
    }
    // Reads of a file found inside the folder walked, in the same race, give its
    // content or an error, never the outside file's.
    let (mut read, mut unread) = (0, 0);
    for try_number in 1..=1000 {
        match pupcheck::source::read::read_bytes_within(&path, &repo, 1 << 20) {
            Ok(bytes) => {
                assert_eq!(bytes, before, "try {try_number}");
                read += 1;
            }
            Err(_) => unread += 1,
        }
        short_pause(try_number);
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert_eq!(contents(&outside), outside_before);
    // Both happened: the race was run, and writes and reads inside still succeed.
    assert!(
        swaps > 0 && written > 0 && read > 0,
        "{swaps} swaps, {written} written, {refused} refused, {read} read, {unread} not"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_module_folder_swapped_for_a_link_during_fix_leaves_the_outside_unread_and_unchanged() {
    let dir = scratch("swapped-cli");
    let unfixed = "class m {   \n}\n";
    let outside = dir.join("outside");
    // A fixable file too, whose name a finding would print if it were read.
    write(&outside.join("init.pp"), "class secret_7f3a {   \n}\n");
    let outside_before = contents(&outside);
    let repo = dir.join("repo");
    let manifests = repo.join("m/manifests");
    let mut fixed = 0;
    for try_number in 1..=200 {
        write(&manifests.join("init.pp"), unfixed);
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = swap_for_a_link_until(manifests.clone(), outside.clone(), Arc::clone(&stop));
        let output = pupcheck(
            &repo,
            &["check", "--no-cache", "--fix", "--format", "concise", "."],
        );
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        assert_eq!(
            contents(&outside),
            outside_before,
            "try {try_number}: {output:?}"
        );
        let report = stdout(&output) + &stderr(&output);
        assert!(
            !report.contains("secret_7f3a"),
            "try {try_number}: {report}"
        );
        let now = std::fs::read_to_string(manifests.join("init.pp")).unwrap();
        fixed += usize::from(now == "class m {\n}\n");
    }
    assert!(fixed > 0, "no run fixed the file inside");
}

#[test]
fn links_planted_in_the_cache_are_never_written_through() {
    let dir = scratch("cache-links");
    write(
        &dir.join("modules/ntp/manifests/init.pp"),
        "class ntp (Integer $port = 123) {}\n",
    );
    write(
        &dir.join("modules/site/manifests/init.pp"),
        "class site {\n  class { 'ntp': port => 'x' }\n}\n",
    );
    let victim = dir.join("victim");
    write(&victim.join("file"), "keep");
    let victim_before = contents(&victim);
    let cache = dir.join("cache");
    let check = || {
        let mut run = command(&dir, &["check", "--format", "concise", "modules/site"]);
        run.env("PUPCHECK_CACHE_DIR", &cache)
            .env_remove("PUPCHECK_NO_CACHE");
        stdout(&run_bounded(run))
    };
    // A cold run makes the build's folder and writes the entry of ntp's manifest.
    let cold = check();
    assert!(cold.contains("parameter-type-mismatch"), "{cold}");
    let build = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("build-")
        })
        .expect("a build folder");
    // Every folder of entries, the tag, and the build's folder itself become links out.
    std::fs::remove_file(cache.join("CACHEDIR.TAG")).unwrap();
    symlink(victim.join("file"), cache.join("CACHEDIR.TAG")).unwrap();
    for entry in std::fs::read_dir(&build).unwrap() {
        let folder = entry.unwrap().path();
        std::fs::remove_dir_all(&folder).unwrap();
        symlink(&victim, &folder).unwrap();
    }
    assert_eq!(check(), cold);
    assert_eq!(contents(&victim), victim_before);
    std::fs::remove_dir_all(&build).unwrap();
    symlink(&victim, &build).unwrap();
    assert_eq!(check(), cold);
    assert_eq!(contents(&victim), victim_before);
}

#[test]
fn a_fix_keeps_extended_attributes_and_never_hands_a_file_to_another_owner() {
    let dir = scratch("owner");
    std::fs::set_permissions(&*dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let path = dir.join("manifests/init.pp");
    write(&path, "class owner {   \n}\n");
    std::fs::set_permissions(
        path.parent().unwrap(),
        std::fs::Permissions::from_mode(0o777),
    )
    .unwrap();
    // An extended attribute (what ACLs and security labels are stored as) survives.
    let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    let (name, value) = (c"user.pupcheck-test", b"kept");
    // SAFETY: valid C strings and buffer.
    let set =
        unsafe { libc::setxattr(c_path.as_ptr(), name.as_ptr(), value.as_ptr().cast(), 4, 0) };
    let attributes = set == 0;
    pupcheck(&dir, &["check", "--no-cache", "--fix", "--quiet", "."]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "class owner {\n}\n"
    );
    if attributes {
        let mut read = [0u8; 16];
        // SAFETY: valid C strings and buffer.
        let length = unsafe {
            libc::getxattr(
                c_path.as_ptr(),
                name.as_ptr(),
                read.as_mut_ptr().cast(),
                read.len(),
            )
        };
        assert_eq!(&read[..usize::try_from(length).unwrap()], value);
    }
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("not root: a file of another owner cannot be made, that half is not run");
        return;
    }
    // A root-owned file in a folder anyone may write to, fixed by another user: renaming
    // would give the file to that user; the fix is refused and the file left alone.
    let unfixed = "class owner {   \n}\n";
    write(&path, unfixed);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut run = command(
        &dir,
        &["check", "--no-cache", "--fix", "--format", "concise", "."],
    );
    run.uid(65534).gid(65534);
    let output = run_bounded(run);
    let report = stdout(&output) + &stderr(&output);
    assert!(report.contains("belongs to user 0"), "{report}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), unfixed);
    use std::os::unix::fs::MetadataExt;
    assert_eq!(std::fs::metadata(&path).unwrap().uid(), 0);
}

/// One big body whose reads of names it never sets come after thousands of
/// assignments: each read once kept every name visible before it (for a "did you
/// mean"), so memory grew with the square of the body (3.5 GB for a 5 MB class).
#[test]
fn a_big_body_of_unanswered_reads_stays_within_memory() {
    let dir = scratch("big-body");
    let mut text = String::from("class big {\n");
    for i in 0..20_000 {
        text.push_str(&format!("  $v_{i} = {i}\n  notice($nowhere_{i})\n"));
    }
    text.push_str("}\n");
    write(&dir.join("manifests/init.pp"), &text);
    let output = pupcheck(
        &dir,
        &["check", "--select", "possibly-unknown-variable", "."],
    );
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{:?}\n{}",
        output.status,
        stderr(&output)
    );
}
