"""The server at the protocol level, without a client library: input that is not
JSON-RPC, requests out of order, and the exit status LSP asks for."""

import json
import subprocess

from conftest import BIN


def frame(payload):
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def run(*frames, timeout=20):
    """Starts the server, writes the frames, closes its input; its status and the
    messages it wrote."""
    process = subprocess.run(
        [BIN, "server"],
        input=b"".join(frames),
        capture_output=True,
        timeout=timeout,
    )
    messages = []
    out = process.stdout
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        messages.append(json.loads(rest[:length]))
        out = rest[length:]
    return process.returncode, messages


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 99, "method": "shutdown"}
EXIT = {"jsonrpc": "2.0", "method": "exit"}


def response(messages, id):
    return next(m for m in messages if m.get("id") == id and "method" not in m)


def test_a_clean_session_exits_with_status_0():
    status, messages = run(frame(INITIALIZE), frame(INITIALIZED), frame(SHUTDOWN), frame(EXIT))
    assert status == 0
    capabilities = response(messages, 1)["result"]["capabilities"]
    assert capabilities["hoverProvider"] is True
    assert response(messages, 99)["result"] is None


def test_exit_without_shutdown_is_status_1():
    status, _ = run(frame(INITIALIZE), frame(EXIT))
    assert status == 1


def test_requests_before_initialize_are_refused():
    hover = {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {}}
    status, messages = run(frame(hover), frame(INITIALIZE), frame(SHUTDOWN), frame(EXIT))
    assert response(messages, 5)["error"]["code"] == -32002
    assert "result" in response(messages, 1)
    assert status == 0


def test_input_that_is_not_json_rpc_is_logged_and_the_session_goes_on():
    status, messages = run(
        frame(INITIALIZE),
        frame(b"{not json"),
        frame(b'{"jsonrpc": "2.0", "id": 3}'),
        b"Content-Length: x\r\n\r\n",
        frame({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"bogus": 1}}),
        frame({"jsonrpc": "2.0", "id": 8, "method": "no/such/method", "params": {}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 3}}),
        frame(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": "untitled:Untitled-1",
                        "languageId": "puppet",
                        "version": 1,
                        "text": "class {",
                    }
                },
            }
        ),
        frame(SHUTDOWN),
        frame(EXIT),
    )
    logged = [m for m in messages if m.get("method") == "window/logMessage"]
    assert len(logged) >= 2
    assert response(messages, 7)["error"]["code"] == -32602
    assert response(messages, 8)["error"]["code"] == -32601
    assert status == 0


def test_deep_nesting_and_huge_documents_do_not_end_the_session():
    deep = "$x = " + "[" * 100_000 + "]" * 100_000 + "\n"
    huge = "# " + "x" * (20 * 1024 * 1024) + "\n"
    opens = [
        frame(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": f"file:///tmp/pupcheck-lsp-{name}.pp",
                        "languageId": "puppet",
                        "version": 1,
                        "text": text,
                    }
                },
            }
        )
        for name, text in (("deep", deep), ("huge", huge))
    ]
    status, messages = run(frame(INITIALIZE), *opens, frame(SHUTDOWN), frame(EXIT), timeout=120)
    published = {
        m["params"]["uri"]: m["params"]["diagnostics"]
        for m in messages
        if m.get("method") == "textDocument/publishDiagnostics"
    }
    assert published["file:///tmp/pupcheck-lsp-deep.pp"]
    assert published["file:///tmp/pupcheck-lsp-huge.pp"][0]["code"] == "unreadable-file"
    assert status == 0
