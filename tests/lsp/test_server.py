"""pupcheck's language server, driven by a real LSP client over stdio."""

import asyncio
import pathlib

import pytest
from lsprotocol import types

import conftest
from conftest import diagnostics, open_file, position_of, publications


def codes(published):
    return sorted(d.code for d in published.diagnostics)


# ---------------------------------------------------------------- diagnostics


async def test_opening_the_demo_shows_its_type_mismatches(client):
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    doc = open_file(client, profile)
    published = await diagnostics(client, doc)
    assert published.version == 1
    found = {(d.code, d.range.start.line) for d in published.diagnostics}
    assert ("parameter-type-mismatch", 3) in found
    assert ("parameter-type-mismatch", 4) in found
    port = next(d for d in published.diagnostics if "'port'" in d.message)
    assert port.severity == types.DiagnosticSeverity.Error
    assert port.source == "pupcheck"
    assert "expects an Integer value, got String" in port.message
    # The range is the value given, '80', in the editor's coordinates.
    assert port.range.start == types.Position(line=3, character=18)
    assert port.range.end == types.Position(line=3, character=22)


async def test_a_template_is_checked_too(client):
    template = client.workspace_root / "modules/demo/templates/motd.epp"
    published = await diagnostics(client, open_file(client, template, language="epp"))
    assert "syntax-error" in codes(published)


async def test_changes_are_checked_once_typing_pauses(client):
    path = client.workspace_root / "modules/profile/manifests/web.pp"
    doc = open_file(client, path)
    first = await diagnostics(client, doc)
    assert list(first.diagnostics) == []
    seen = publications(client, doc)
    # Three quick edits: 'Hello' given where Profile::Port is expected.
    for version, text in enumerate(["'", "x", "'"], start=2):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line=3, character=23 + version - 2),
                            end=types.Position(line=3, character=23 + version - 2),
                        ),
                        text=text,
                    )
                ],
            )
        )
    # Still typing: the value now reads 'x'80, then '80 ... one check at the end.
    after = await diagnostics(client, doc, since=seen)
    assert after.version == 4
    assert publications(client, doc) == seen + 1
    assert "parameter-default-type" in codes(after) or "syntax-error" in codes(after)


async def test_a_changed_definition_rechecks_the_files_that_use_it(client):
    init = client.workspace_root / "modules/demo/manifests/init.pp"
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    init_doc = open_file(client, init)
    profile_doc = open_file(client, profile)
    await diagnostics(client, init_doc)
    before = await diagnostics(client, profile_doc)
    assert sum("'port'" in d.message for d in before.diagnostics) == 1
    seen = publications(client, profile_doc)
    # `port` becomes a String: profile.pp's '80' is now right, without touching it.
    text = init.read_text().replace("Integer[1, 65535] $port       = 8080", "String $port = '8080'")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=init_doc, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    after = await diagnostics(client, profile_doc, since=seen)
    assert not any("'port'" in d.message for d in after.diagnostics)
    assert any("'motd_lines'" in d.message for d in after.diagnostics)


async def test_closing_clears_the_findings(client):
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    doc = open_file(client, profile)
    seen = publications(client, doc)
    await diagnostics(client, doc, since=seen - 1 if seen else 0)
    seen = publications(client, doc)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    cleared = await diagnostics(client, doc, since=seen)
    assert list(cleared.diagnostics) == []


def change_at(client, doc, version, start, end, text):
    """Sends a change replacing the text between two (line, character) places."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                    text=text,
                )
            ],
        )
    )


def change_whole(client, doc, version, text):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_closing_unsaved_edits_rechecks_the_others_against_the_disk(client):
    init = client.workspace_root / "modules/demo/manifests/init.pp"
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    init_doc = open_file(client, init)
    profile_doc = open_file(client, profile)
    await diagnostics(client, init_doc)
    await diagnostics(client, profile_doc)
    seen = publications(client, profile_doc)
    text = init.read_text().replace("Integer[1, 65535] $port       = 8080", "String $port = '8080'")
    change_whole(client, init_doc, 2, text)
    edited = await diagnostics(client, profile_doc, since=seen)
    assert not any("'port'" in d.message for d in edited.diagnostics)
    seen = publications(client, profile_doc)
    # The edit is thrown away: init.pp on disk still wants an Integer.
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=init_doc))
    )
    after = await diagnostics(client, profile_doc, since=seen)
    assert sum("'port'" in d.message for d in after.diagnostics) == 1


async def test_a_change_older_than_the_document_is_ignored(client):
    path = client.workspace_root / "manifests/versions.pp"
    path.write_text("notice('a')\n")
    doc = open_file(client, path)
    await diagnostics(client, doc)
    seen = publications(client, doc)
    change_whole(client, doc, 5, "notice('b')\n")
    await diagnostics(client, doc, since=seen)
    # Version 3 comes late, with text that does not parse: it is not applied.
    change_whole(client, doc, 3, "notice('c'\n")
    seen = publications(client, doc)
    change_at(client, doc, 6, (1, 0), (1, 0), "\n")
    after = await diagnostics(client, doc, since=seen)
    assert after.version == 6
    assert "syntax-error" not in codes(after)


def generated_class(chunks):
    """A long generated profile (as some estates have): a variable, a condition and two
    resources per chunk."""
    lines = ["class profile::generated (String $owner = 'root') {"]
    for i in range(chunks):
        lines += [
            f"  # host {i}",
            f"  $path_{i} = '/srv/app/{i}'",
            f"  if $facts['os']['family'] == 'Debian' {{",
            f"    file {{ $path_{i}: ensure => directory, owner => $owner }}",
            "  }",
            f"  exec {{ 'init-{i}': command => \"/bin/true ${{path_{i}}}\" }}",
        ]
    return "\n".join(lines + ["}", ""])


async def test_requests_are_answered_while_a_long_file_is_checked(client):
    path = client.workspace_root / "modules/profile/manifests/generated.pp"
    text = generated_class(6000)
    path.write_text(text)
    doc = open_file(client, path)
    await diagnostics(client, doc, timeout=120)
    seen = publications(client, doc)
    # A keystroke in a comment, then a hover once typing paused (the check has begun).
    change_at(client, doc, 2, (1, 2), (1, 2), "#")
    await asyncio.sleep(0.4)
    middle = position_of(text, "$path_3000", 1, 1)
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=middle)
    )
    assert "'/srv/app/3000'" in result.contents.value
    # Answered before the check's findings came: the check runs on a thread of its own.
    assert publications(client, doc) == seen
    after = await diagnostics(client, doc, since=seen, timeout=120)
    assert after.version == 2
    # Once checked, the hover starts from the check's resumptions: the same answer.
    again = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=doc), position=middle)
    )
    assert again.contents.value == result.contents.value


async def test_without_a_watcher_changes_on_disk_are_found_by_polling(polling_client):
    client = polling_client
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    vhost = client.workspace_root / "modules/profile/manifests/vhost.pp"
    doc = open_file(client, web)
    assert list((await diagnostics(client, doc)).diagnostics) == []
    assert not getattr(client, "registrations", None)
    seen = publications(client, doc)
    # A `git pull` changes profile::vhost: no editor saves it, the client tells nothing.
    vhost.write_text(vhost.read_text().replace("Profile::Port $port", "String $port"))
    after = await diagnostics(client, doc, since=seen, timeout=15.0)
    assert "parameter-type-mismatch" in codes(after)


async def test_saving_a_file_rechecks_against_the_disk(client):
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    vhost = client.workspace_root / "modules/profile/manifests/vhost.pp"
    doc = open_file(client, web)
    assert list((await diagnostics(client, doc)).diagnostics) == []
    seen = publications(client, doc)
    # profile::vhost changes on disk (another editor, a git checkout) and is saved.
    vhost.write_text(vhost.read_text().replace("Profile::Port $port", "String $port"))
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=vhost.as_uri()))
    )
    after = await diagnostics(client, doc, since=seen)
    assert "parameter-type-mismatch" in codes(after)


async def test_watched_files_are_registered(client):
    open_file(client, client.workspace_root / "manifests/site.pp")
    for _ in range(100):
        if getattr(client, "registrations", None):
            break
        await asyncio.sleep(0.02)
    methods = [r.method for r in client.registrations]
    assert "workspace/didChangeWatchedFiles" in methods


# ------------------------------------------------------------------ settings


async def test_settings_come_from_the_workspace_pupcheck_toml(client):
    root = client.workspace_root
    (root / "pupcheck.toml").write_text('ignore = ["parameter-type-mismatch"]\n')
    profile = root / "modules/demo/manifests/profile.pp"
    published = await diagnostics(client, open_file(client, profile))
    assert "parameter-type-mismatch" not in codes(published)


async def test_a_malformed_pupcheck_toml_is_a_diagnostic_not_a_crash(client):
    root = client.workspace_root
    config = root / "pupcheck.toml"
    config.write_text("ignore = [\n")
    profile = root / "modules/demo/manifests/profile.pp"
    published = await diagnostics(client, open_file(client, profile))
    # Checked with the default settings.
    assert "parameter-type-mismatch" in codes(published)
    on_config = await diagnostics(client, config.as_uri())
    assert len(on_config.diagnostics) == 1
    assert on_config.diagnostics[0].severity == types.DiagnosticSeverity.Error
    # Fixed and saved: the diagnostic goes away, the settings apply.
    seen = publications(client, config.as_uri())
    config.write_text('ignore = ["parameter-type-mismatch"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    cleared = await diagnostics(client, config.as_uri(), since=seen)
    assert list(cleared.diagnostics) == []
    recheck = await diagnostics(client, profile.as_uri(), since=1)
    assert "parameter-type-mismatch" not in codes(recheck)


# --------------------------------------------------------------------- hover


async def hover(client, path, needle, occurrence=0, offset=1):
    text = path.read_text()
    doc = open_file(client, path)
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, occurrence, offset),
        )
    )
    return result


async def test_hover_on_a_variable_shows_its_inferred_type(client):
    config = client.workspace_root / "modules/demo/manifests/config.pp"
    result = await hover(client, config, "$demo::motd_lines")
    assert result is not None
    assert "Array[String]" in result.contents.value


async def test_hover_on_a_computed_variable_shows_its_value(client):
    path = client.workspace_root / "manifests/values.pp"
    path.write_text("$base = 40\n$answer = $base + 2\nnotice($answer)\n")
    result = await hover(client, path, "$answer", occurrence=1)
    assert "`42`" in result.contents.value
    assert "Integer[42, 42]" in result.contents.value


async def test_hover_shows_the_error_puppet_raises_there(client):
    path = client.workspace_root / "manifests/broken.pp"
    path.write_text("$a = 'x'\n$b = $a + 1\n")
    result = await hover(client, path, "$a + 1", offset=3)
    assert "error" in result.contents.value.lower()


async def test_hover_on_a_class_shows_its_signature_and_documentation(client):
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    result = await hover(client, profile, "'demo'")
    value = result.contents.value
    assert "class demo (" in value
    assert "Integer[1, 65535] $port" in value
    assert "The port the service listens on." in value


async def test_hover_on_a_function_a_define_and_a_resource_type(client):
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    function = await hover(client, web, "profile::greet")
    assert "function profile::greet(String $name) >> String" in function.contents.value
    assert "The greeting for a name." in function.contents.value
    define = await hover(client, web, "profile::vhost {")
    assert "define profile::vhost" in define.contents.value
    assert "Where it listens." in define.contents.value
    builtin = await hover(client, web, "notify {")
    assert "message" in builtin.contents.value
    lookup = await hover(client, web, "lookup(")
    assert "lookup(" in lookup.contents.value


# ---------------------------------------------------------------- navigation


async def test_hover_on_an_attribute_name_shows_the_parameter(client):
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    value = (await hover(client, profile, "port       =>")).contents.value
    assert "Integer[1, 65535] $port = 8080" in value
    assert "parameter of class `demo`" in value
    assert "The port the service listens on." in value
    assert "not evaluated" not in value
    path = client.workspace_root / "manifests/attributes.pp"
    path.write_text("file { '/x':\n  mode    => '0644',\n  require => Package['p'],\n}\n")
    mode = (await hover(client, path, "mode")).contents.value
    assert "attribute of resource type `file`" in mode
    require = (await hover(client, path, "require")).contents.value
    assert "metaparameter" in require


async def test_no_hover_on_a_comment(client):
    path = client.workspace_root / "manifests/commented.pp"
    path.write_text("if $facts['os']['family'] == 'Debian' {\n  # the packages\n  notice('x')\n}\n")
    assert await hover(client, path, "the packages") is None


async def definition(client, path, needle, occurrence=0, offset=1):
    text = path.read_text()
    doc = open_file(client, path)
    return await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, occurrence, offset),
        )
    )


def single(result):
    return result[0] if isinstance(result, list) else result


async def test_definition_of_an_attribute_name_is_the_parameter(client):
    profile = client.workspace_root / "modules/demo/manifests/profile.pp"
    found = single(await definition(client, profile, "motd_lines"))
    assert found.uri.endswith("modules/demo/manifests/init.pp")
    assert found.range.start.line == 6


async def test_go_to_definition_lands_on_the_class(client):
    init = client.workspace_root / "modules/demo/manifests/init.pp"
    result = single(await definition(client, init, "demo::install"))
    assert result.uri.endswith("modules/demo/manifests/install.pp")
    assert result.range.start == types.Position(line=1, character=6)
    # Class['demo::config'] too.
    result = single(await definition(client, init, "demo::config", occurrence=1))
    assert result.uri.endswith("modules/demo/manifests/config.pp")


async def test_go_to_definition_of_defines_functions_and_aliases(client):
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    define = single(await definition(client, web, "profile::vhost"))
    assert define.uri.endswith("manifests/vhost.pp")
    assert define.range.start.line == 3
    function = single(await definition(client, web, "profile::greet"))
    assert function.uri.endswith("functions/greet.pp")
    alias = single(await definition(client, web, "Profile::Port"))
    assert alias.uri.endswith("types/port.pp")
    assert alias.range.start.line == 1


async def test_go_to_definition_of_variables(client):
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    text = web.read_text()
    local = single(await definition(client, web, "{greeting}"))
    assert local.uri.endswith("web.pp")
    assert local.range.start == position_of(text, "$greeting")
    param = single(await definition(client, web, "$port", occurrence=1))
    assert param.range.start == position_of(text, "$port")
    config = client.workspace_root / "modules/demo/manifests/config.pp"
    qualified = single(await definition(client, config, "$demo::motd_lines"))
    assert qualified.uri.endswith("modules/demo/manifests/init.pp")
    assert qualified.range.start.line == 6


async def test_hiera_files_get_the_checks_the_command_line_gives(client):
    data = client.workspace_root / "data/common.yaml"
    doc = open_file(client, data, text="---\nprofile::web::port: 'eighty'\n", language="yaml")
    found = await diagnostics(client, doc)
    assert "hiera-parameter-type" in codes(found)
    seen = publications(client, doc)
    change_whole(client, doc, 2, "---\nprofile::web::port: [8080\n")
    assert "hiera-syntax" in codes(await diagnostics(client, doc, since=seen))
    config = client.workspace_root / "hiera.yaml"
    text = config.read_text().replace("path: common.yaml", "pth: common.yaml")
    doc = open_file(client, config, text=text, language="yaml")
    assert "hiera-config" in codes(await diagnostics(client, doc))
    # YAML no Hiera layer reads is no Puppet either: nothing to say.
    other = client.workspace_root / ".gitlab-ci.yml"
    other.write_text("stages: [test]\n")
    doc = open_file(client, other, language="yaml")
    assert list((await diagnostics(client, doc)).diagnostics) == []


async def test_go_to_definition_of_a_hiera_key(client):
    web = client.workspace_root / "modules/profile/manifests/web.pp"
    result = single(await definition(client, web, "profile::web::greeting"))
    assert result.uri.endswith("data/common.yaml")
    assert result.range.start == types.Position(line=1, character=0)
    # A class parameter: the key automatic parameter lookup binds to it.
    result = single(await definition(client, web, "$port", offset=1))
    assert result.uri.endswith("data/common.yaml")
    assert result.range.start.line == 2


async def test_find_references_of_a_class_and_a_define(client):
    install = client.workspace_root / "modules/demo/manifests/install.pp"
    text = install.read_text()
    doc = open_file(client, install)
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, "demo::install", offset=2),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    found = sorted((pathlib.Path(r.uri).name, r.range.start.line) for r in refs)
    assert found == [("init.pp", 8), ("init.pp", 11), ("install.pp", 1)]
    vhost = client.workspace_root / "modules/profile/manifests/vhost.pp"
    text = vhost.read_text()
    doc = open_file(client, vhost)
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, "profile::vhost", offset=2),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert sorted(pathlib.Path(r.uri).name for r in refs) == ["db.pp", "web.pp"]


# ---------------------------------------------------------------- completion


async def complete(client, path, text, needle, offset=0):
    path.write_text(text)
    doc = open_file(client, path)
    return await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, offset=offset),
        )
    )


async def test_completion_of_variables_in_scope(client):
    path = client.workspace_root / "manifests/complete.pp"
    text = (
        "$top = 1\n"
        "class complete (String $name_param) {\n"
        "  $local = 2\n"
        "  [1].each |$item| {\n"
        "    $inner = 3\n"
        "  }\n"
        "  notice($)\n"
        "  $later = 4\n"
        "}\n"
        "class other { $elsewhere = 5 }\n"
    )
    result = await complete(client, path, text, "notice($", offset=8)
    labels = {i.label for i in result}
    assert {"top", "name_param", "local", "facts", "trusted"} <= labels
    # Not what a lambda or another class assigns, nor what comes after.
    assert not labels & {"item", "inner", "later", "elsewhere"}
    # A class's variables by their qualified name.
    result = await complete(client, path, "notice($profile::web::", "::web::", offset=7)
    labels = {i.label for i in result}
    assert {"profile::web::port", "profile::web::greeting", "profile::web::doubled"} <= labels


async def test_completion_of_fact_keys_and_hiera_keys(client):
    path = client.workspace_root / "manifests/complete.pp"
    result = await complete(client, path, "notice($facts['os']['fa'])\n", "['fa", offset=4)
    assert "family" in {i.label for i in result}
    result = await complete(client, path, "notice($facts['])\n", "['", offset=2)
    assert {"os", "networking", "kernel"} <= {i.label for i in result}
    result = await complete(client, path, "$x = lookup('profile::')\n", "profile::", offset=9)
    assert {i.label for i in result} == {"profile::web::greeting", "profile::web::port"}


async def test_completion_of_functions_and_resource_types(client):
    path = client.workspace_root / "manifests/complete.pp"
    result = await complete(client, path, "class complete {\n  fil\n}\n", "fil", offset=3)
    items = {(i.label, i.kind) for i in result}
    # `file` the resource type, and `file()` the function.
    assert ("file", types.CompletionItemKind.Struct) in items
    assert ("file", types.CompletionItemKind.Function) in items
    assert ("filter", types.CompletionItemKind.Function) in items
    result = await complete(client, path, "class complete {\n  profile::\n}\n", "profile::",
                            offset=9)
    labels = {i.label for i in result}
    # The module's function, and its defined type (not its classes).
    assert {"profile::greet", "profile::vhost"} <= labels
    assert "profile::web" not in labels
    result = await complete(client, path, "$x = [1].ma\n", ".ma", offset=3)
    assert "map" in {i.label for i in result}
    # Nothing in a comment.
    assert not await complete(client, path, "# fil\n", "fil", offset=3)


async def test_completion_of_class_parameters_with_their_types(client):
    path = client.workspace_root / "manifests/complete.pp"
    result = await complete(client, path, "class { 'demo':\n  po\n}\n", "po", offset=2)
    items = {i.label: i for i in result}
    assert items["port"].detail == "Integer[1, 65535] (optional)"
    assert items["motd_lines"].detail == "Array[String] (optional)"
    assert items["port"].insert_text == "port => "
    assert "before" in items


async def test_completion_of_define_and_resource_type_attributes(client):
    path = client.workspace_root / "manifests/complete.pp"
    result = await complete(
        client, path, "profile::vhost { 'x':\n  port => 80,\n  \n}\n", "  \n", offset=2
    )
    labels = [i.label for i in result]
    assert "docroot" in labels and "port" not in labels
    port_type = await complete(client, path, "profile::vhost { 'x':\n  \n}\n", "  \n", offset=2)
    assert {i.label: i.detail for i in port_type}["port"] == "Profile::Port"
    result = await complete(client, path, "file { '/x':\n  \n}\n", "  \n", offset=2)
    labels = [i.label for i in result]
    assert "ensure" in labels and "mode" in labels


async def test_completion_after_an_assignment_or_a_bare_call(client):
    # The statement before the declaration ends its line without `;` or `}`.
    path = client.workspace_root / "manifests/complete.pp"
    text = "$x = 1\nclass { 'demo':\n  \n}\n"
    labels = [i.label for i in await complete(client, path, text, "  \n", offset=2)]
    assert "port" in labels and "motd_lines" in labels
    for before in ("include demo", "notice('x')"):
        text = before + "\nfile { '/x':\n  \n}\n"
        labels = [i.label for i in await complete(client, path, text, "  \n", offset=2)]
        assert "mode" in labels, before


async def test_completion_leaves_out_what_the_body_sets_after_the_cursor(client):
    path = client.workspace_root / "manifests/complete.pp"
    text = "class { 'demo':\n  \n  port => 80,\n}\n"
    labels = [i.label for i in await complete(client, path, text, "  \n", offset=2)]
    assert "motd_lines" in labels and "port" not in labels


async def test_completion_of_class_names(client):
    path = client.workspace_root / "manifests/complete.pp"
    text = "node default {\n  include demo::\n}\n"
    result = await complete(client, path, text, "demo::", offset=6)
    labels = {i.label for i in result}
    assert {"demo::install", "demo::config", "demo::profile"} <= labels
    assert "profile::web" not in labels
    text = "class { 'prof\n"
    result = await complete(client, path, text, "prof", offset=4)
    assert {"profile::web", "profile::db"} <= {i.label for i in result}


async def test_no_completion_outside_attribute_names(client):
    path = client.workspace_root / "manifests/complete.pp"
    result = await complete(client, path, "file { '/x':\n  mode => \n}\n", "=> ", offset=3)
    assert not result


# ------------------------------------------------------------------ outline


async def test_the_outline_holds_definitions_and_their_resources(client):
    path = client.workspace_root / "manifests/outline.pp"
    path.write_text(
        "class outline::a {\n"
        "  file { '/etc/a': ensure => file }\n"
        "  if $facts['os']['family'] == 'Debian' {\n"
        "    package { ['x', 'y']: }\n"
        "  }\n"
        "}\n"
        "define outline::b {\n"
        "  exec { \"run ${title}\": command => '/bin/true' }\n"
        "}\n"
        "node 'web01' {\n"
        "  include outline::a\n"
        "}\n"
    )
    doc = open_file(client, path)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    shape = [
        (s.name, s.kind, [(c.name, c.kind) for c in (s.children or [])]) for s in symbols
    ]
    assert shape == [
        ("outline::a", types.SymbolKind.Class, [
            ("File['/etc/a']", types.SymbolKind.Object),
            ("Package[['x', 'y']]", types.SymbolKind.Object),
        ]),
        ("outline::b", types.SymbolKind.Struct, [
            ('Exec["run ${title}"]', types.SymbolKind.Object),
        ]),
        ("'web01'", types.SymbolKind.Namespace, []),
    ]
    assert symbols[0].selection_range.start.line == 0
    assert symbols[0].children[1].range.start.line == 3


async def signature_help(client, doc, text, needle, offset):
    return await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, offset=offset),
        )
    )


async def test_signature_help_for_puppet_and_module_functions(client):
    path = client.workspace_root / "manifests/signatures.pp"
    text = "$a = join(['x'], \n$b = profile::greet(\n$c = profile::greet('wri\n"
    path.write_text(text)
    doc = open_file(client, path)

    def help_at(needle, offset):
        return signature_help(client, doc, text, needle, offset)

    joined = await help_at("join(['x'], ", len("join(['x'], "))
    assert joined.signatures[joined.active_signature].label.startswith("join(")
    assert joined.active_parameter == 1
    greet = await help_at("profile::greet(", len("profile::greet("))
    assert greet.signatures[0].label == "profile::greet(String $name)"
    assert greet.active_parameter == 0
    # Still there while a string argument is written (found in Neovim).
    typing = await help_at("profile::greet('wri", len("profile::greet('wri"))
    assert typing.signatures[0].label == "profile::greet(String $name)"


async def test_signature_help_in_a_resource_body(client):
    path = client.workspace_root / "manifests/signatures.pp"
    text = (
        "profile::vhost { 'main':\n  port => 80,\n  \n}\n"
        "file { '/etc/x':\n  mo\n}\n"
    )
    path.write_text(text)
    doc = open_file(client, path)

    def help_at(needle, offset):
        return signature_help(client, doc, text, needle, offset)

    # The defined type's parameters as declared; the first not set yet is active.
    vhost = await help_at("80,\n  ", len("80,\n  "))
    signature = vhost.signatures[0]
    assert signature.label.startswith("profile::vhost(") and "$port" in signature.label
    start, end = signature.parameters[vhost.active_parameter].label
    assert "$port" not in signature.label[start:end]
    # A resource type's attributes; the one being written is active.
    file = await help_at("  mo", 4)
    signature = file.signatures[0]
    start, end = signature.parameters[file.active_parameter].label
    assert signature.label[start:end].startswith("mode => ")


async def test_workspace_symbols_by_part_of_a_name(client):
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="VHOST"))
    names = {(s.name, s.kind) for s in found}
    assert ("profile::vhost", types.SymbolKind.Struct) in names
    vhost = next(s for s in found if s.name == "profile::vhost")
    assert vhost.location.uri.endswith("modules/profile/manifests/vhost.pp")
    every = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert {"demo", "demo::profile", "profile::greet", "profile::port"} <= {s.name for s in every}


async def test_folding_ranges_of_definitions_blocks_and_comment_runs(client):
    path = client.workspace_root / "manifests/folding.pp"
    path.write_text(
        "# @summary A class.\n"       # 0
        "#\n"                          # 1
        "# More text.\n"               # 2
        "class folding {\n"            # 3
        "  file { '/etc/a':\n"         # 4
        "    ensure => file,\n"        # 5
        "    mode   => '0644',\n"      # 6
        "  }\n"                        # 7
        "  if $facts['kernel'] == 'Linux' {\n"  # 8
        "    notice('a')\n"            # 9
        "    notice('b')\n"            # 10
        "  }\n"                        # 11
        "}\n"                          # 12
    )
    doc = open_file(client, path)
    ranges = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=doc))
    )
    found = {(r.start_line, r.end_line, r.kind) for r in ranges}
    assert (0, 2, types.FoldingRangeKind.Comment) in found
    assert (3, 11, None) in found
    assert (4, 6, None) in found
    assert (8, 10, None) in found


# ------------------------------------------------- Ruby functions and templates


RUBY_4X = """# frozen_string_literal: true

# @summary Joins a greeting.
#
# Says hello to `name`.
Puppet::Functions.create_function(:'demo::hello') do
  # @param name who
  dispatch :hello do
    param 'String', :name
    optional_param 'Integer', :times
    return_type 'String'
  end

  def hello(name, times = 1)
    "hello #{name}" * times
  end
end
"""

RUBY_3X = """module Puppet::Parser::Functions
  newfunction(:old_shout, :type => :rvalue, :doc => <<-EOS
    Shouts its argument.
    EOS
  ) do |args|
    args[0].upcase
  end
end
"""


def with_ruby_functions(workspace):
    demo = workspace / "modules" / "demo" / "lib" / "puppet"
    (demo / "functions" / "demo").mkdir(parents=True)
    (demo / "functions" / "demo" / "hello.rb").write_text(RUBY_4X)
    (demo / "parser" / "functions").mkdir(parents=True)
    (demo / "parser" / "functions" / "old_shout.rb").write_text(RUBY_3X)
    path = workspace / "manifests" / "calls.pp"
    path.write_text(
        "$a = demo::hello('x')\n"
        "$b = old_shout('y')\n"
        "file { '/etc/motd': content => epp('demo/motd.epp', { 'lines' => [] }) }\n"
        "file { '/etc/x': content => template('demo/x.erb') }\n"
    )
    return path


async def test_hover_and_definition_of_functions_written_in_ruby(client):
    path = with_ruby_functions(client.workspace_root)
    shown = (await hover(client, path, "demo::hello")).contents.value
    assert "demo::hello(String $name, Integer $times?) >> String" in shown
    assert "Joins a greeting." in shown and "Says hello" in shown
    assert "hello.rb:6" in shown
    found = single(await definition(client, path, "demo::hello"))
    assert found.uri.endswith("/lib/puppet/functions/demo/hello.rb")
    assert found.range.start.line == 5
    shown = (await hover(client, path, "old_shout")).contents.value
    assert "Shouts its argument." in shown
    found = single(await definition(client, path, "old_shout"))
    assert found.uri.endswith("/lib/puppet/parser/functions/old_shout.rb")
    assert found.range.start.line == 1


async def test_hover_and_definition_of_template_paths(client):
    path = with_ruby_functions(client.workspace_root)
    templates = client.workspace_root / "modules" / "demo" / "templates"
    (templates / "x.erb").write_text("<%= @x %>\n")
    shown = (await hover(client, path, "demo/motd.epp", offset=3)).contents.value
    assert "<%- | Array[String] $lines | -%>" in shown
    found = single(await definition(client, path, "demo/motd.epp", offset=3))
    assert found.uri == (templates / "motd.epp").as_uri()
    found = single(await definition(client, path, "demo/x.erb", offset=3))
    assert found.uri == (templates / "x.erb").as_uri()
    # A name leading outside the module's templates is no template.
    path.write_text("$c = epp('demo/../../../etc/passwd')\n")
    assert not await definition(client, path, "demo/", offset=3)


# -------------------------------------------------------------- code actions


async def actions(client, path, text, line, only=None):
    path.write_text(text)
    doc = open_file(client, path)
    await diagnostics(client, doc)
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=200),
            ),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


def applied(text, edits):
    """The text with LSP edits applied (positions in UTF-16, as the server sends)."""
    lines = text.split("\n")

    def offset(position):
        before = "\n".join(lines[: position.line])
        start = len(before) + (1 if position.line else 0)
        line = lines[position.line] if position.line < len(lines) else ""
        units, chars = 0, 0
        for c in line:
            if units >= position.character:
                break
            units += 2 if ord(c) > 0xFFFF else 1
            chars += 1
        return start + chars

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def test_quick_fixes_are_the_fixes_of_fix(client):
    path = client.workspace_root / "manifests/fixme.pp"
    text = 'file { "/etc/x":\n  ensure => file,   \n}\n'
    found = await actions(client, path, text, 1)
    fix = next(a for a in found if a.title == "Fix trailing-whitespace")
    assert fix.kind == types.CodeActionKind.QuickFix
    edits = fix.edit.changes[path.as_uri()]
    assert applied(text, edits) == 'file { "/etc/x":\n  ensure => file,\n}\n'


async def test_a_finding_can_be_suppressed_on_its_line(client):
    path = client.workspace_root / "manifests/fixme.pp"
    text = "class demo::x {\n  $a = 'x'\n  $b = $a + 1\n}\n"
    found = await actions(client, path, text, 2)
    suppress = [a for a in found if a.title.startswith("Suppress ")]
    assert suppress
    edited = applied(text, suppress[0].edit.changes[path.as_uri()])
    rule = suppress[0].title.split()[1]
    assert f"  $b = $a + 1 # pupcheck:ignore:{rule}\n" in edited
    # The suppressed file has no finding of that rule on the line.
    seen = publications(client, path.as_uri())
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    after = await diagnostics(client, path.as_uri(), since=seen)
    assert not [d for d in after.diagnostics if d.code == rule and d.range.start.line == 2]


async def test_fix_all_is_what_check_fix_makes(client):
    path = client.workspace_root / "manifests/fixme.pp"
    text = 'file { "/etc/x":\n  ensure => file,   \n  mode => "0644",\n}\n'
    found = await actions(client, path, text, 0, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in found] == [types.CodeActionKind.SourceFixAll]
    fixed = applied(text, found[0].edit.changes[path.as_uri()])
    assert "   \n" not in fixed
    assert "'/etc/x'" in fixed and "'0644'" in fixed


# --------------------------------------------------------------------- rename


async def rename(client, path, text, needle, new_name, offset=1):
    path.write_text(text)
    doc = open_file(client, path)
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, offset=offset),
            new_name=new_name,
        )
    )


async def test_rename_of_a_variable_within_its_scope(client):
    path = client.workspace_root / "manifests/renamed.pp"
    text = (
        "class renamed {\n"
        "  $count = 1\n"
        "  notice(\"${count} and $count\")\n"
        "  [1].each |$i| { notice($count + $i) }\n"
        "}\n"
        "class other {\n"
        "  $count = 2\n"
        "  notice($renamed::count, $count)\n"
        "}\n"
    )
    edit = await rename(client, path, text, "$count = 1", "total")
    edited = applied(text, edit.changes[path.as_uri()])
    assert edited == text.replace(
        "  $count = 1\n  notice(\"${count} and $count\")\n  [1].each |$i| { notice($count + $i) }",
        "  $total = 1\n  notice(\"${total} and $total\")\n  [1].each |$i| { notice($total + $i) }",
    ).replace("$renamed::count", "$renamed::total")
    # The editor asks first what would be renamed: the name, without `$`.
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=position_of(text, "$count", occurrence=1, offset=2),
        )
    )
    assert prepared.placeholder == "count"
    assert (prepared.range.start.line, prepared.range.start.character) == (2, 24)
    # A lambda's parameter, within the lambda.
    edit = await rename(client, path, text, "|$i|", "item", offset=2)
    assert "|$item| { notice($count + $item) }" in applied(text, edit.changes[path.as_uri()])


async def test_rename_reaches_reads_in_other_files(client):
    path = client.workspace_root / "modules/profile/manifests/web.pp"
    reader = client.workspace_root / "manifests/reader.pp"
    reader.write_text("class reader { notice($profile::web::doubled) }\n")
    edit = await rename(client, path, path.read_text(), "$doubled =", "twice")
    assert "notice($profile::web::twice)" in applied(reader.read_text(),
                                                     edit.changes[reader.as_uri()])
    assert "$twice = $port * 2" in applied(path.read_text(), edit.changes[path.as_uri()])


async def test_rename_is_refused_where_it_could_miss_a_read(client):
    from pygls.exceptions import JsonRpcException

    path = client.workspace_root / "manifests/renamed.pp"
    cases = [
        ("class renamed (Integer $port) { notice($port) }\n", "$port)", "a parameter"),
        ("$top = 1\nclass renamed { notice($top) }\n", "$top)", "top-scope"),
        ("class renamed { $x = 1 notice(template('m/t.erb')) }\n", "$x", "by name"),
        ("class renamed { $x = 1 $y = 2 }\n", "$x", "already set"),
    ]
    for text, needle, reason in cases:
        new_name = "y" if reason == "already set" else "z"
        try:
            await rename(client, path, text, needle, new_name)
        except JsonRpcException as refused:
            assert reason in str(refused), (text, refused)
        else:
            raise AssertionError(f"renamed: {text}")


# ---------------------------------------------------------------- inlay hints


async def inlay_hints(client, path, text):
    path.write_text(text)
    doc = open_file(client, path)
    return await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=between((0, 0), (100, 0)),
        )
    )


HINTED = (
    "class hinted (Integer $port) {\n"
    "  $doubled = $port * 2\n"
    "  $label = 'web'\n"
    "  $unknown = $facts['custom_thing']\n"
    "}\n"
)


async def test_inlay_hints_show_the_types_of_assigned_variables(hinting_client):
    client = hinting_client
    path = client.workspace_root / "manifests/hinted.pp"
    hints = await inlay_hints(client, path, HINTED)
    found = {(h.position.line, h.position.character): h.label for h in hints}
    assert found[(1, 10)] == ": Integer"
    assert found[(2, 8)] == ": String", found
    # Nothing where the value is not known from the code.
    assert (3, 10) not in found
    assert all(h.kind == types.InlayHintKind.Type for h in hints)


async def test_inlay_hints_are_off_by_default(client):
    path = client.workspace_root / "manifests/hinted.pp"
    assert not await inlay_hints(client, path, HINTED)


# ----------------------------------------------------------------- formatting


def between(start, end):
    """The range from one (line, character) place to another."""
    return types.Range(start=types.Position(line=start[0], character=start[1]),
                       end=types.Position(line=end[0], character=end[1]))


async def format_document(client, path, text, range_=None):
    path.write_text(text)
    doc = open_file(client, path)
    identifier = types.TextDocumentIdentifier(uri=doc)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    if range_ is None:
        return await client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=identifier, options=options)
        )
    return await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(text_document=identifier, range=range_,
                                            options=options)
    )


async def test_formatting_is_what_check_fix_makes_as_line_edits(client, tmp_path):
    import subprocess

    path = client.workspace_root / "manifests/fixme.pp"
    text = (
        "# x\n"
        "class fixme {\n"
        '  file { "/etc/x":\n'
        "    ensure => file,   \n"
        '    mode => "0644",\n'
        "  }\n"
        "  notice('unchanged')\n"
        "}\n"
    )
    edits = await format_document(client, path, text)
    formatted = applied(text, edits)
    # The same text `pupcheck check --fix -` makes of the file.
    fixed = subprocess.run(
        [conftest.BIN, "check", "--fix", "--quiet", "--stdin-filename", str(path), "-"],
        input=text, capture_output=True, text=True, cwd=client.workspace_root,
    ).stdout
    assert formatted == fixed and formatted != text
    # Line edits, none over the lines nothing changed.
    assert all(e.range.start.line >= 2 for e in edits)
    assert all(e.range.end.line <= 6 for e in edits)


async def test_range_formatting_changes_only_the_lines_of_the_range(client):
    path = client.workspace_root / "manifests/fixme.pp"
    text = "class fixme {\n  $a = 1   \n  $b = 2   \n  $c = 3   \n}\n"
    middle = between((2, 0), (2, 5))
    edits = await format_document(client, path, text, middle)
    assert applied(text, edits) == "class fixme {\n  $a = 1   \n  $b = 2\n  $c = 3   \n}\n"


async def test_range_formatting_applies_a_fix_whole_or_not_at_all(client):
    # The ensure-first-param fix moves `ensure` up: two places change. A selection of
    # one of them leaves it; one of all its lines applies it.
    path = client.workspace_root / "manifests/fixme.pp"
    text = "file { '/x':\n  owner  => 'root',\n  mode   => '0644',\n  ensure => file,\n}\n"
    one_line = between((1, 0), (1, 4))
    edits = await format_document(client, path, text, one_line)
    assert applied(text, edits) == text
    whole = between((0, 0), (4, 1))
    edits = await format_document(client, path, text, whole)
    assert applied(text, edits) == (
        "file { '/x':\n  ensure => file,\n  mode   => '0644',\n  owner  => 'root',\n}\n"
    )


async def test_formatting_leaves_a_file_that_does_not_parse_alone(client):
    path = client.workspace_root / "manifests/fixme.pp"
    text = 'class fixme {\n  $a = "x"   \n  if {\n}\n'
    assert not await format_document(client, path, text)


# ----------------------------------------------------------------- robustness


async def test_requests_the_server_cannot_answer_are_errors_not_crashes(client):
    from pygls.exceptions import JsonRpcException

    nowhere = types.TextDocumentIdentifier(uri="file:///not/open.pp")
    with pytest.raises(JsonRpcException):
        await client.text_document_hover_async(
            types.HoverParams(text_document=nowhere, position=types.Position(line=0, character=0))
        )
    # Positions past the end, on a document with a syntax error.
    path = client.workspace_root / "manifests/broken.pp"
    path.write_text("class {{{ $x = \n")
    doc = open_file(client, path)
    far = types.Position(line=9999, character=9999)
    here = types.TextDocumentIdentifier(uri=doc)
    await client.text_document_hover_async(types.HoverParams(text_document=here, position=far))
    await client.text_document_definition_async(
        types.DefinitionParams(text_document=here, position=far)
    )
    await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=types.Position(line=0, character=9999),
        )
    )
    # A change whose range is outside the text, then one reversed.
    change_at(client, doc, 2, (50, 3), (2, 0), "🎉")
    # Still answering.
    published = await diagnostics(client, doc, since=publications(client, doc))
    assert published.version == 2
    result = await hover(client, client.workspace_root / "modules/demo/manifests/profile.pp", "'demo'")
    assert "class demo" in result.contents.value
