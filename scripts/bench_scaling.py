#!/usr/bin/env python3
"""Time and peak memory of one pupcheck run as hostile shapes of input grow: each shape at
1x, 2x, 4x and 8x, so growth worse than linear shows in the ratios.

    scripts/bench_scaling.py [--pupcheck target/release/pupcheck]

Shapes (each is one file, written to a temporary folder):
  long-line      statements all on one line (330 KB at 1x): the scanner's column lookups
  one-line-hash  a hash of 4,000 keys on one line: duplicate-key
  one-line-attrs a resource of 4,000 attributes on one line (each an unknown-attribute
                 finding): per-finding fingerprints
  resources      10,000 three-attribute resources with misaligned arrows: arrow-alignment
  alias-chain    a chain of 2,500 type aliases used as a parameter type
  lambdas        one class of 10,000 lambdas, each reading its parameter: variable-scope
  large-file     real corpus manifests concatenated (about 1 MB at 1x), when the corpus is
                 installed

Prints, per shape, seconds and peak RSS at each size and the time ratio of 8x to 1x
(linear is 8; quadratic would be 64). Every run uses --select all --format sarif (the
format that computes fingerprints) on one thread.

Then the memory of one run of eight 4 MB manifests on 1, 2, 4 and 8 threads: the run's
working memory is shared (parallel::MemoryPool), so the peak must not grow with the
threads (the parsed files all stay in memory: that part is the same on each).
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [1, 2, 4, 8]


def long_line(k):
    return "notice(1) " * (33_000 * k) + "\n"


def one_line_hash(k):
    n = 4_000 * k
    return "$h = {" + ", ".join(f"'k{i}' => {i}" for i in range(n)) + "}\nnotice($h)\n"


def one_line_attrs(k):
    n = 4_000 * k
    return "file { '/tmp/x': " + ", ".join(f"a{i} => {i}" for i in range(n)) + " }\n"


def resources(k):
    one = "file { '/tmp/x%d':\n  ensure => file,\n  mode => '0644',\n}\n"
    return "".join(one % i for i in range(10_000 * k))


def alias_chain(k):
    n = 2_500 * k
    chain = "type C0 = Integer\n" + "".join(f"type C{i} = C{i - 1}\n" for i in range(1, n))
    return chain + f"class chain (C{n - 1} $v = 'x') {{}}\ninclude chain\n"


def large_file(k):
    files = sorted(glob.glob("/usr/share/puppet/modules.available/*/manifests/**/*.pp", recursive=True))
    out, size = [], 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        out.append(text)
        size += len(text)
        if size >= 1_000_000 * k:
            break
    return "\n".join(out)


def lambdas(k):
    body = "".join(f"  [{i}].each |$e| {{ notice($e) }}\n" for i in range(10_000 * k))
    return "class lambdas {\n" + body + "}\n"


def large_manifest(i, size):
    """A class of resources and lambdas of about `size` bytes."""
    out, n, total = [f"class big::c{i} (String $x = 'a') {{\n"], 0, 0
    while total < size:
        line = (f"  file {{ '/tmp/f{i}_{n}': ensure => file, content => \"${{x}}-{n}\", mode => '0644' }}\n"
                f"  $v{n} = [{n}, 'x{n}'].map |$e| {{ \"${{e}}\" }}\n")
        out.append(line)
        total += len(line)
        n += 1
    out.append("}\n")
    return "".join(out)


def threads_memory(pupcheck, tmp):
    folder = os.path.join(tmp, "threads", "manifests")
    os.makedirs(folder)
    for i in range(8):
        with open(os.path.join(folder, f"c{i}.pp"), "w", encoding="utf-8") as f:
            f.write(large_manifest(i, 4 << 20))
    cells = []
    for threads in [1, 2, 4, 8]:
        start = time.perf_counter()
        child = subprocess.Popen(
            [pupcheck, "check", "--no-cache", "--threads", str(threads), folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        cells.append(f"{threads} threads {time.perf_counter() - start:5.1f}s {usage.ru_maxrss / 1024:5.0f}MB")
    print("eight 4 MB manifests: " + ", ".join(cells))


SHAPES = [
    ("long-line", long_line),
    ("one-line-hash", one_line_hash),
    ("one-line-attrs", one_line_attrs),
    ("resources", resources),
    ("alias-chain", alias_chain),
    ("lambdas", lambdas),
]


def run(pupcheck, path):
    """Seconds and peak RSS (MB) of one run, measured on that child alone (wait4)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [pupcheck, "check", "--threads", "1", "--select", "all", "--format", "sarif", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    seconds = time.perf_counter() - start
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pupcheck", default=os.path.join(ROOT, "target/release/pupcheck"))
    args = parser.parse_args()
    shapes = list(SHAPES)
    if glob.glob("/usr/share/puppet/modules.available/*/manifests"):
        shapes.append(("large-file", large_file))
    print(f"{'shape':<16}" + "".join(f"{f'{k}x':>20}" for k in SIZES) + f"{'8x/1x':>8}")
    with tempfile.TemporaryDirectory(prefix="pupcheck-scaling-") as tmp:
        for name, make in shapes:
            cells, times = [], []
            for k in SIZES:
                path = os.path.join(tmp, f"{name}-{k}.pp")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(make(k))
                mb = os.path.getsize(path) / 1e6
                seconds, rss = run(args.pupcheck, path)
                times.append(seconds)
                cells.append(f"{seconds:6.2f}s {rss:5.0f}MB {mb:5.1f}MB")
            ratio = times[-1] / max(times[0], 1e-3)
            print(f"{name:<16}" + "".join(f"{c:>20}" for c in cells) + f"{ratio:8.1f}")
            sys.stdout.flush()
        print("cells: seconds, peak RSS, input size")
        threads_memory(args.pupcheck, tmp)


if __name__ == "__main__":
    main()
