"""The end-to-end suite of `pupcheck server`: a real LSP client (pytest-lsp) starts the
server and drives it over JSON-RPC on stdio. Each test gets a fresh copy of the
workspaces it opens, so nothing it changes leaks into another.

Run: python3 -m pytest tests/lsp (builds on target/debug/pupcheck, or $PUPCHECK_BIN).
"""

import asyncio
import os
import pathlib
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PUPCHECK_BIN", str(REPO / "target" / "debug" / "pupcheck"))


@pytest.fixture
def workspace(tmp_path):
    """A control repository (tests/lsp/workspace) with the bundled demo module."""
    root = tmp_path / "control"
    shutil.copytree(REPO / "tests" / "lsp" / "workspace", root)
    shutil.copytree(REPO / "examples" / "demo", root / "modules" / "demo")
    return root


async def session(lsp_client, workspace, capabilities, options=None):
    """Initializes the server for the workspace with the client's capabilities (and
    initialization options)."""
    params = types.InitializeParams(
        capabilities=capabilities,
        initialization_options=options,
        workspace_folders=[
            types.WorkspaceFolder(uri=workspace.as_uri(), name="control")
        ],
    )
    await lsp_client.initialize_session(params)
    lsp_client.workspace_root = workspace


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "server"]))
async def client(lsp_client: LanguageClient, workspace):
    await session(lsp_client, workspace, client_capabilities("visual-studio-code"))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "server"]))
async def hinting_client(lsp_client: LanguageClient, workspace):
    """A client that asks for inlay hints."""
    await session(lsp_client, workspace, client_capabilities("visual-studio-code"),
                  {"inlayHints": True})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "server"]))
async def polling_client(lsp_client: LanguageClient, workspace):
    """A client that cannot watch files for the server (as Neovim on Linux)."""
    capabilities = client_capabilities("visual-studio-code")
    capabilities.workspace.did_change_watched_files = None
    await session(lsp_client, workspace, capabilities)
    yield
    await lsp_client.shutdown_session()


def uri(path):
    return pathlib.Path(path).as_uri()


def open_file(client, path, text=None, language="puppet"):
    """Opens a file of the workspace (with its text on disk unless given)."""
    path = pathlib.Path(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(),
                language_id=language,
                version=1,
                text=path.read_text() if text is None else text,
            )
        )
    )
    return path.as_uri()


async def diagnostics(client, file_uri, timeout=10.0, since=None):
    """The diagnostics the server publishes for `file_uri` (after `since`, a count of
    publications seen before)."""
    seen = since if since is not None else 0
    deadline = asyncio.get_event_loop().time() + timeout
    while asyncio.get_event_loop().time() < deadline:
        published = getattr(client, "published", {}).get(file_uri, [])
        if len(published) > seen:
            return published[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics published for {file_uri}")


def publications(client, file_uri):
    return len(getattr(client, "published", {}).get(file_uri, []))


def _record_publication(client: LanguageClient, params: types.PublishDiagnosticsParams):
    """Keeps every publication of diagnostics, in order (pytest-lsp keeps the last)."""
    client.diagnostics[params.uri] = params.diagnostics
    if not hasattr(client, "published"):
        client.published = {}
    client.published.setdefault(params.uri, []).append(params)


def _record_registration(client: LanguageClient, params: types.RegistrationParams):
    """Accepts the server's registrations (watched files), keeping them."""
    if not hasattr(client, "registrations"):
        client.registrations = []
    client.registrations.extend(params.registrations)


pytest_lsp.client.DEFAULT_CLIENT_FEATURES[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = (
    _record_publication
)
pytest_lsp.client.DEFAULT_CLIENT_FEATURES[types.CLIENT_REGISTER_CAPABILITY] = (
    _record_registration
)


def position_of(text, needle, occurrence=0, offset=0):
    """The LSP position of the `occurrence`-th `needle` in `text`, plus `offset`
    characters."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    character = index - (text.rfind("\n", 0, index) + 1)
    return types.Position(line=line, character=character)
