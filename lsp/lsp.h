/* lsp.h: the language server, `fathom lsp` (interfaces.md, "Language
 * server").
 *
 * lsp_serve() speaks LSP 3.17 (JSON-RPC 2.0 with Content-Length framing)
 * on the two file descriptors until the client sends `exit` or closes its
 * end, and returns the process exit status: 0 after shutdown + exit, 1 when
 * the input ended or `exit` came without a `shutdown` first (the LSP rule).
 * It never prints anything else on `out`; malformed input gets JSON-RPC
 * errors and the server keeps serving.  docs/editor-setup.md shows how
 * editors start it. */
#ifndef FATHOM_LSP_H
#define FATHOM_LSP_H

#include "../evaluators/analyze.h"

int lsp_serve(int in, int out, const AnalysisOptions *options);

#endif
