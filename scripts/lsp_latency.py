#!/usr/bin/env python3
"""Latencies of `pupcheck server` measured through the protocol, on one big manifest.

    scripts/lsp_latency.py [--bin target/release/pupcheck] [--kb 300] [--runs 5] [--shape class]

Makes a manifest of about --kb kilobytes from the corpus's manifests (each a valid
file; their top-level code one after another), or one generated class of that size
(--shape class), in a temporary control repository, and
drives the server over stdio as an editor does:

* first diagnostics: from didOpen to the first publishDiagnostics;
* re-check after a keystroke: from a didChange (`#` typed before the `#` of a comment
  in the middle of the file: the code stays the same) to the publication of its version, less the server's typing
  pause (DEBOUNCE, 250 ms), best of --runs;
* hover: from the request to the answer, on a variable in the middle of the file,
  best of --runs, and once while a re-check is due.

Prints one line of figures (milliseconds).
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = pathlib.Path('/usr/share/puppet/modules.available')
DEBOUNCE = 0.25


def one_class(kb):
    """One class of `kb` kilobytes: variables, resources, conditions, comments (a
    generated profile, as some estates have)."""
    parts, size, i = ['class profile::generated (String $owner = \'root\') {\n'], 0, 0
    while size < kb * 1024:
        chunk = (f"  # host {i}\n"
                 f"  $path_{i} = '/srv/app/{i}'\n"
                 f"  if $facts['os']['family'] == 'Debian' {{\n"
                 f"    file {{ $path_{i}: ensure => directory, owner => $owner, mode => '0750' }}\n"
                 f"  }}\n"
                 f"  exec {{ 'init-{i}': command => \"/bin/true ${{path_{i}}}\", creates => \"${{path_{i}}}/.done\" }}\n")
        parts.append(chunk)
        size += len(chunk)
        i += 1
    parts.append('}\n')
    return ''.join(parts)


def big_manifest(kb):
    """Top-level code and definitions of corpus manifests, until `kb` kilobytes."""
    parts, size = [], 0
    files = sorted(CORPUS.glob('*/manifests/**/*.pp'))
    while size < kb * 1024:
        for path in files:
            text = path.read_text(errors='replace')
            parts.append(text)
            size += len(text.encode())
            if size >= kb * 1024:
                break
    return '\n'.join(parts)


class Client:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary, 'server'], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.responses = {}
        self.published = []
        self.cond = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b'\r\n', b'\n'):
                    break
                if line.lower().startswith(b'content-length:'):
                    length = int(line.split(b':')[1])
            message = json.loads(out.read(length))
            with self.cond:
                if 'id' in message and 'method' not in message:
                    self.responses[message['id']] = (time.monotonic(), message)
                elif message.get('method') == 'textDocument/publishDiagnostics':
                    self.published.append((time.monotonic(), message['params']))
                elif 'id' in message:  # a request of the server's: accept it
                    self.send({'jsonrpc': '2.0', 'id': message['id'], 'result': None})
                self.cond.notify_all()

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({'jsonrpc': '2.0', 'id': ident, 'method': method, 'params': params})
        with self.cond:
            self.cond.wait_for(lambda: ident in self.responses, timeout=120)
            return self.responses.pop(ident)

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def publication(self, uri, version, timeout=300):
        """The time the diagnostics of `version` of `uri` were published."""
        with self.cond:
            self.cond.wait_for(lambda: any(p['uri'] == uri and p.get('version') == version
                                           for _, p in self.published), timeout=timeout)
            return next(t for t, p in self.published if p['uri'] == uri and p.get('version') == version)


def position_of(text, offset):
    line = text.count('\n', 0, offset)
    return {'line': line, 'character': offset - (text.rfind('\n', 0, offset) + 1)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=str(ROOT / 'target' / 'release' / 'pupcheck'))
    parser.add_argument('--kb', type=int, default=300)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--shape', choices=['corpus', 'class'], default='corpus',
                        help="the corpus's manifests one after another, or one big class")
    args = parser.parse_args()
    text = big_manifest(args.kb) if args.shape == 'corpus' else one_class(args.kb)
    with tempfile.TemporaryDirectory(prefix='pupcheck-lsp-') as tmp:
        root = pathlib.Path(tmp)
        (root / 'environment.conf').write_text('modulepath = site\n')
        (root / 'manifests').mkdir()
        path = root / 'manifests' / 'big.pp'
        path.write_text(text)
        uri = path.as_uri()
        client = Client(args.bin)
        client.request('initialize', {'processId': os.getpid(), 'rootUri': root.as_uri(),
                                      'capabilities': {}})
        client.notify('initialized', {})
        start = time.monotonic()
        client.notify('textDocument/didOpen', {'textDocument': {
            'uri': uri, 'languageId': 'puppet', 'version': 1, 'text': text}})
        first = client.publication(uri, 1) - start
        # A variable in the middle of the file, and a comment line near it to type in.
        middle = len(text) // 2
        variable = text.find('$', middle)
        # (A comment's `#`, however indented: typing `#` before it keeps the code as it is.)
        comment = re.compile(r'\n[ \t]*#').search(text, middle)
        comment_at = position_of(text, comment.end() - 1)
        hovers = []
        for _ in range(args.runs):
            asked = time.monotonic()
            answered, _ = client.request('textDocument/hover', {
                'textDocument': {'uri': uri}, 'position': position_of(text, variable + 1)})
            hovers.append(answered - asked)
        rechecks = []
        version = 1
        for _ in range(args.runs):
            version += 1
            typed = time.monotonic()
            client.notify('textDocument/didChange', {
                'textDocument': {'uri': uri, 'version': version},
                'contentChanges': [{'range': {'start': comment_at, 'end': comment_at},
                                    'text': '#'}]})
            rechecks.append(client.publication(uri, version) - typed - DEBOUNCE)
        # A hover while a re-check is due (typed, pause not over yet).
        version += 1
        client.notify('textDocument/didChange', {
            'textDocument': {'uri': uri, 'version': version},
            'contentChanges': [{'range': {'start': comment_at, 'end': comment_at},
                                'text': '#'}]})
        time.sleep(DEBOUNCE + 0.05)
        asked = time.monotonic()
        answered, _ = client.request('textDocument/hover', {
            'textDocument': {'uri': uri}, 'position': position_of(text, variable + 1)})
        during = answered - asked
        client.publication(uri, version)
        client.request('shutdown', None)
        client.notify('exit', None)
        client.proc.wait(timeout=30)
    ms = lambda s: f'{s * 1000:.0f}'  # noqa: E731
    print(f'{len(text.encode()) // 1024} KB ({args.shape}): first diagnostics {ms(first)} ms, '
          f're-check after a keystroke {ms(min(rechecks))} ms, hover {ms(min(hovers))} ms '
          f'({ms(during)} ms during a re-check)')


if __name__ == '__main__':
    sys.exit(main())
