// extension.js: runs `fathom lsp` for Python files (docs/editor-setup.md).
//
// The server pulls its settings itself (workspace/configuration, section
// "fathom": entry, max-contexts, max-steps, max-depth, max-memory), so the
// client only starts it; `fathom.server` is the command, which the server
// does not read.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("fathom");
  const [command, ...args] = config.get("server.command", ["fathom", "lsp"]);
  const serverOptions = { command, args };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "python" }],
    synchronize: { configurationSection: "fathom" },
  };
  client = new LanguageClient("fathom", "fathom", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
