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
  vim.lsp.stop_client(client)
  finish(result)
end)
if not ok then finish({ error = tostring(err) }) end
