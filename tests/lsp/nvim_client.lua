-- nvim_client.lua: Neovim (headless) as a real LSP client of `fathom lsp`.
-- Run by tests/lsp/test_neovim.py:
--   FATHOM=... FILE=... OUT=... HOVER_LINE=N HOVER_COL=N nvim --headless --clean -u NONE -S nvim_client.lua
-- Opens FILE, starts fathom's server with the built-in client
-- (vim.lsp.start_client, which Neovim 0.7 has), waits for the diagnostics,
-- asks for the hover at (HOVER_LINE, HOVER_COL) (0-based), writes what it
-- got to OUT as JSON, and quits.
local out = os.getenv("OUT")
local function finish(result)
  local f = io.open(out, "w")
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qall!")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("FILE")))
  local buf = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({
    name = "fathom",
    cmd = { os.getenv("FATHOM"), "lsp" },
    root_dir = vim.fn.fnamemodify(os.getenv("FILE"), ":h"),
    -- the server pulls these (workspace/configuration): CONFIGURED's
    -- forward has no annotations, so only this entry shows its error
    settings = { fathom = { entry = { { name = "classify", args = "Tensor[f32, (B, 784)]" } } } },
    -- Neovim 0.7 answers workspace/configuration but does not say so in
    -- its capabilities, so the settings are pushed, as nvim-lspconfig does
    on_init = function(c)
      c.notify("workspace/didChangeConfiguration", { settings = c.config.settings })
    end,
  })
  if not client then
    finish({ error = "the client did not start" })
    return
  end
  vim.lsp.buf_attach_client(buf, client)
  local got = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local result = { diagnostics = {} }
  if not got then result.error = "no diagnostics within 20 s" end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, message = d.message,
                                       code = d.code, severity = d.severity })
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = tonumber(os.getenv("HOVER_LINE")), character = tonumber(os.getenv("HOVER_COL")) },
  }
  local replies = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000) or {}
  for _, r in pairs(replies) do
    if r.result and r.result.contents then result.hover = r.result.contents.value end
    if r.err then result.hover_error = tostring(r.err.message) end
  end
  -- completion, rename and a code action, each applied as the editor does
  local function request(method, p)
    local rs = vim.lsp.buf_request_sync(buf, method, p, 10000) or {}
    for _, r in pairs(rs) do
      if r.err then return nil, tostring(r.err.message) end
      return r.result
    end
    return nil, "no reply"
  end
  local uri = vim.uri_from_bufnr(buf)
  local function at(line, col) return { textDocument = { uri = uri }, position = { line = line, character = col } } end
  local comp, cerr = request("textDocument/completion", at(20, 14))
  result.completion = {}
  for _, it in ipairs((comp and comp.items) or comp or {}) do table.insert(result.completion, it.label) end
  result.completion_error = cerr
  local rp = at(19, 4)
  rp.newName = "hidden"
  local edit, rerr = request("textDocument/rename", rp)
  if edit then vim.lsp.util.apply_workspace_edit(edit, "utf-16") end
  result.rename_error = rerr
  result.after_rename = vim.api.nvim_buf_get_lines(buf, 19, 21, false)
  local actions, aerr = request("textDocument/codeAction", {
    textDocument = { uri = uri },
    range = { start = { line = 35, character = 0 }, ["end"] = { line = 35, character = 0 } },
    context = { diagnostics = {} },
  })
  result.action_error = aerr
  for _, a in ipairs(actions or {}) do
    if a.title:find("Add the inferred annotations", 1, true) then
      result.action_title = a.title
      vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
    end
  end
  result.after_action = vim.api.nvim_buf_get_lines(buf, 35, 36, false)
  -- a second file, in the same client: the entry from the settings applies
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CONFIGURED")))
  local buf2 = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf2, client)
  vim.wait(20000, function() return #vim.diagnostic.get(buf2) > 0 end, 50)
  result.configured = {}
  for _, d in ipairs(vim.diagnostic.get(buf2)) do
    table.insert(result.configured, { lnum = d.lnum, code = d.code, message = d.message })
  end
  vim.lsp.stop_client(client)
  finish(result)
end)
if not ok then finish({ error = tostring(err) }) end
