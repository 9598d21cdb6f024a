-- Neovim's built-in LSP client (0.7+: `vim.lsp.start_client`) driving `mcp-java-index lsp`, for
-- tests/it/shells/lsp.rs. Reads MJI_BIN, MJI_ROOT, MJI_FILE (relative to the root), MJI_LINE and
-- MJI_COL (0-based, UTF-16) and MJI_OUT; opens the file, asks definition, references, hover and
-- documentSymbol at that position through the client, and writes their results as JSON to MJI_OUT.
local root = os.getenv("MJI_ROOT")
local out = os.getenv("MJI_OUT")
local function finish(value)
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode(value))
  f:close()
  vim.cmd("qall!")
end
local id = vim.lsp.start_client({
  name = "mcp-java-index",
  cmd = { os.getenv("MJI_BIN"), "lsp", "--root", root },
  root_dir = root,
})
if not id then
  finish({ error = "the client did not start" })
  return
end
vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. os.getenv("MJI_FILE")))
vim.lsp.buf_attach_client(0, id)
local ready = vim.wait(60000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end, 50)
if not ready then
  finish({ error = "not initialized in 60 s" })
  return
end
local position = { line = tonumber(os.getenv("MJI_LINE")), character = tonumber(os.getenv("MJI_COL")) }
local doc = { uri = vim.uri_from_bufnr(0) }
local function ask(method, params)
  local answers, err = vim.lsp.buf_request_sync(0, method, params, 60000)
  if not answers then
    return { error = tostring(err) }
  end
  local a = answers[id] or {}
  return { result = a.result, error = a.error and a.error.message or nil }
end
finish({
  definition = ask("textDocument/definition", { textDocument = doc, position = position }),
  references = ask("textDocument/references", {
    textDocument = doc,
    position = position,
    context = { includeDeclaration = false },
  }),
  hover = ask("textDocument/hover", { textDocument = doc, position = position }),
  symbols = ask("textDocument/documentSymbol", { textDocument = doc }),
})
