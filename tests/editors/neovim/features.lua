-- Each editor feature of pupcheck's language server, used from Neovim as a user would:
-- run by tests/editors/neovim/run.sh in a copy of the LSP suite's workspace (the
-- working folder), with init.lua's configuration. Prints one line per feature and quits
-- with the number of features that failed as its status.

local failed = 0

local function say(line)
  io.stdout:write(line .. '\n')
end

local function check(name, ok, detail)
  if ok then
    say('ok   ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. (detail ~= nil and (': ' .. vim.inspect(detail)) or ''))
  end
end

local function wait(ms, condition)
  return vim.wait(ms, condition, 20)
end

local root = vim.fn.getcwd()

local function write(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(root .. '/' .. path, ':h'), 'p')
  local file = assert(io.open(root .. '/' .. path, 'w'))
  file:write(text)
  file:close()
end

local function client_of(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'pupcheck' })[1]
end

-- Opens a file of the workspace in the current window; its buffer once pupcheck is
-- attached to it.
local function open(path)
  vim.cmd.edit(vim.fn.fnameescape(root .. '/' .. path))
  local buf = vim.api.nvim_get_current_buf()
  wait(10000, function()
    return client_of(buf) ~= nil and client_of(buf).initialized
  end)
  return buf
end

-- Puts the cursor on the `occurrence`-th `needle` of the buffer (plus `offset` bytes).
local function cursor_at(buf, needle, occurrence, offset)
  local seen = 0
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local from = 1
    while true do
      local at = line:find(needle, from, true)
      if not at then
        break
      end
      if seen == (occurrence or 0) then
        vim.api.nvim_win_set_cursor(0, { row, at - 1 + (offset or 0) })
        return true
      end
      seen = seen + 1
      from = at + 1
    end
  end
  error('not in the buffer: ' .. needle)
end

-- The result of a request at the cursor (`extra` added to the position parameters).
local function request(buf, method, extra)
  local params = vim.lsp.util.make_position_params(0, 'utf-16')
  for key, value in pairs(extra or {}) do
    params[key] = value
  end
  local answers = vim.lsp.buf_request_sync(buf, method, params, 20000) or {}
  for _, answer in pairs(answers) do
    if answer.err then
      return nil, answer.err
    end
    return answer.result
  end
end

local function labels(items)
  local found = {}
  for _, item in ipairs((items or {}).items or items or {}) do
    found[#found + 1] = item.label
  end
  return found
end

local function has(list, wanted)
  for _, value in ipairs(list) do
    if value == wanted or (type(value) == 'string' and value:find(wanted, 1, true)) then
      return true
    end
  end
  return false
end

local function text_of(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

local function diagnostics_of(buf, code)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if code == nil or d.code == code then
      found[#found + 1] = d
    end
  end
  return found
end

local function protected(name, f)
  local ok, e = pcall(f)
  if not ok then
    check(name, false, e)
  end
end

-- Files the features read: a Ruby function, a manifest calling it, one to format.
write('modules/demo/lib/puppet/functions/demo/hello.rb', [[
# Says hello to `name`.
Puppet::Functions.create_function(:'demo::hello') do
  dispatch :hello do
    param 'String', :name
    return_type 'String'
  end

  def hello(name)
    "hello #{name}"
  end
end
]])
write('manifests/calls.pp', "$a = demo::hello('x')\n")

protected('diagnostics', function()
  local buf = open('modules/demo/manifests/profile.pp')
  check('pupcheck attaches to a .pp file (filetype puppet)', client_of(buf) ~= nil, vim.bo[buf].filetype)
  wait(20000, function()
    return #diagnostics_of(buf) > 0
  end)
  local messages = vim.tbl_map(function(d)
    return d.message
  end, diagnostics_of(buf))
  check('type mismatches are diagnostics', has(messages, "parameter 'port' expects an Integer value, got String"), messages)
  local actions = request(buf, 'textDocument/codeAction', {
    range = { start = { line = 3, character = 0 }, ['end'] = { line = 4, character = 0 } },
    context = { diagnostics = vim.lsp.diagnostic.from(diagnostics_of(buf)) },
  })
  check('code actions (gra) offer to suppress a finding', has(labels(vim.tbl_map(function(a)
    return { label = a.title }
  end, actions or {})), 'Suppress'), actions)
end)

protected('hover', function()
  local buf = open('modules/profile/manifests/web.pp')
  cursor_at(buf, '$doubled', 0, 1)
  local result = request(buf, 'textDocument/hover')
  check('hover shows an inferred type', result and result.contents.value:find('Integer', 1, true), result)
  vim.lsp.buf.hover()
  local floating = wait(5000, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        return true
      end
    end
  end)
  check('K opens the hover in a floating window', floating)
  vim.cmd('fclose!')
end)

protected('definition', function()
  local buf = open('modules/profile/manifests/web.pp')
  cursor_at(buf, 'profile::vhost', 0, 2)
  vim.lsp.buf.definition()
  local jumped = wait(10000, function()
    return vim.api.nvim_buf_get_name(0):find('vhost.pp$') ~= nil
  end)
  check('gd jumps to the defined type', jumped and vim.api.nvim_win_get_cursor(0)[1] == 4, vim.api.nvim_buf_get_name(0))
end)

protected('references', function()
  local buf = open('modules/profile/manifests/vhost.pp')
  cursor_at(buf, 'profile::vhost', 0, 2)
  vim.fn.setqflist({})
  vim.lsp.buf.references()
  wait(10000, function()
    return #vim.fn.getqflist() > 0
  end)
  local files = vim.tbl_map(function(item)
    return vim.api.nvim_buf_get_name(item.bufnr)
  end, vim.fn.getqflist())
  check('grr lists the references', has(files, 'db.pp') and has(files, 'web.pp'), files)
  vim.cmd('cclose')
end)

protected('completion', function()
  write('manifests/complete.pp', table.concat({
    'include prof',
    "$x = lookup('profile::w')",
    "$y = $facts['o']",
    '$z = profile::gr',
    'class profile::local {',
    '  $greeting_here = 1',
    '  notice($gree)',
    '}',
    "profile::vhost { 'x': do }",
    'fil',
    '',
  }, '\n'))
  local buf = open('manifests/complete.pp')
  local cases = {
    { 'class names after include', 'include prof', 12, 'profile::web' },
    { 'Hiera keys in lookup', "lookup('profile::w", 18, 'profile::web::greeting' },
    { 'fact names', "$facts['o", 9, 'os' },
    { 'functions', 'profile::gr', 11, 'profile::greet' },
    { 'variables in scope', '$gree)', 5, 'greeting_here' },
    { 'attributes of a defined type', ' do }', 3, 'docroot' },
    { 'resource types', 'fil', 3, 'file' },
  }
  for _, case in ipairs(cases) do
    cursor_at(buf, case[2], 0, case[3])
    local found = labels(request(buf, 'textDocument/completion'))
    check('completion of ' .. case[1], has(found, case[4]), { wanted = case[4], got = vim.list_slice(found, 1, 8) })
  end
end)

protected('signature help', function()
  -- (The cursor on the closing parenthesis: after the opening one, as in insert mode.)
  write('manifests/signature.pp', "$g = profile::greet('x')\n$h = profile::greet()\n")
  local buf = open('manifests/signature.pp')
  for _, case in ipairs({ { 'in a call written out', "'x'", 0, 1 }, { 'while typing a call', 'greet()', 0, 6 } }) do
    cursor_at(buf, case[2], case[3], case[4])
    local help, err = request(buf, 'textDocument/signatureHelp')
    local label = help and help.signatures[1] and help.signatures[1].label or ''
    check('signature help of a function ' .. case[1], label:find('String $name', 1, true), help or err)
  end
end)

protected('symbols', function()
  local buf = open('modules/profile/manifests/web.pp')
  local outline = request(buf, 'textDocument/documentSymbol')
  check('the outline (documentSymbol)', has(labels(vim.tbl_map(function(s)
    return { label = s.name }
  end, outline or {})), 'profile::web'), outline)
  local found = vim.lsp.buf_request_sync(buf, 'workspace/symbol', { query = 'vhost' }, 20000) or {}
  local names = {}
  for _, answer in pairs(found) do
    for _, symbol in ipairs(answer.result or {}) do
      names[#names + 1] = symbol.name
    end
  end
  check('workspace symbols', has(names, 'profile::vhost'), names)
end)

protected('formatting', function()
  local unformatted = 'class profile::tidy {\n  $a = "plain"   \n  $b = "also"\n}\n'
  write('modules/profile/manifests/tidy.pp', unformatted)
  local buf = open('modules/profile/manifests/tidy.pp')
  local expected = vim.system({ 'pupcheck', 'check', '--fix', '-' }, { stdin = unformatted }):wait().stdout
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  vim.lsp.buf.format({ bufnr = buf, range = { start = { 3, 0 }, ['end'] = { 3, 13 } }, timeout_ms = 20000 })
  local ranged = vim.api.nvim_buf_get_lines(buf, 1, 3, false)
  check('range formatting changes only the selected line', ranged[1] == '  $a = "plain"   ' and ranged[2] == "  $b = 'also'", ranged)
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = 20000 })
  check('formatting (format on save) is what check --fix makes', text_of(buf) == expected, { got = text_of(buf), wanted = expected })
end)

protected('folding', function()
  local buf = open('modules/profile/manifests/web.pp')
  vim.wo.foldmethod = 'expr'
  vim.wo.foldexpr = 'v:lua.vim.lsp.foldexpr()'
  local folded = wait(10000, function()
    vim.cmd('normal! zx')
    return vim.fn.foldlevel(7) > 0
  end)
  check('folds from foldingRange (vim.lsp.foldexpr)', folded, vim.fn.foldlevel(7))
  vim.wo.foldmethod = 'manual'
end)

protected('inlay hints', function()
  local buf = open('modules/profile/manifests/web.pp')
  vim.lsp.inlay_hint.enable(true, { bufnr = buf })
  local hints = {}
  wait(10000, function()
    hints = vim.lsp.inlay_hint.get({ bufnr = buf })
    return #hints > 0
  end)
  local shown = vim.tbl_map(function(h)
    return type(h.inlay_hint.label) == 'string' and h.inlay_hint.label or ''
  end, hints)
  check('inlay hints of assigned variables', has(shown, ': Integer'), shown)
end)

protected('rename', function()
  local buf = open('modules/profile/manifests/web.pp')
  cursor_at(buf, '$doubled', 0, 1)
  vim.lsp.buf.rename('twice')
  wait(10000, function()
    return text_of(buf):find('twice', 1, true) ~= nil
  end)
  local _, count = text_of(buf):gsub('twice', '')
  check('rename of a variable (its reads in strings too)', count == 2 and not text_of(buf):find('doubled', 1, true), text_of(buf))
  vim.cmd('silent! write')
end)

protected('hiera', function()
  local buf = open('data/common.yaml')
  check('pupcheck attaches to Hiera data (filetype yaml)', client_of(buf) ~= nil, vim.bo[buf].filetype)
  vim.api.nvim_buf_set_lines(buf, 2, 3, false, { "profile::web::port: 'eighty'" })
  local found = wait(20000, function()
    return #diagnostics_of(buf, 'hiera-parameter-type') > 0
  end)
  check('Hiera data is checked as the command line checks it', found, vim.diagnostic.get(buf))
end)

protected('ruby functions and templates', function()
  local buf = open('manifests/calls.pp')
  cursor_at(buf, 'demo::hello', 0, 2)
  local result = request(buf, 'textDocument/hover')
  local shown = result and result.contents.value or ''
  check('hover on a function written in Ruby', shown:find('demo::hello(String $name) >> String', 1, true), shown)
  buf = open('modules/demo/manifests/config.pp')
  cursor_at(buf, 'demo/motd.epp', 0, 3)
  result = request(buf, 'textDocument/hover')
  shown = result and result.contents.value or ''
  check('hover on a template path', shown:find('motd.epp', 1, true), shown)
end)

protected('changes on disk', function()
  local buf = open('manifests/site.pp')
  vim.api.nvim_buf_set_lines(buf, 1, 2, false, { '  include profile::later' })
  vim.cmd('silent write')
  local unknown = wait(20000, function()
    return #diagnostics_of(buf, 'unknown-class') > 0
  end)
  check('an unknown class is a diagnostic', unknown, vim.diagnostic.get(buf))
  -- Written by another program (a git pull): Neovim on Linux does not tell the server.
  write('modules/profile/manifests/later.pp', 'class profile::later {}\n')
  local seen = wait(20000, function()
    return #diagnostics_of(buf, 'unknown-class') == 0
  end)
  check('a file written outside the editor is seen', seen, vim.diagnostic.get(buf))
end)

say(failed == 0 and 'all features work' or (failed .. ' features failed'))
vim.cmd('cquit ' .. failed)
