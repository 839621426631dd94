"""client.py: a minimal LSP client over a child process's stdio (stdlib only).

Used by tests/lsp/test_lsp.py (the scripted JSON-RPC suite) and by
bench/lsp_bench.py (edit-to-diagnostics latency).  Messages are framed with
Content-Length; `raw()` writes arbitrary bytes so the tests can send
malformed input.  A reader thread files every message from the server into
a queue, so a test can wait for a response by id or for a notification by
method with a timeout, and a server that crashes or hangs fails the test
instead of blocking it.
"""
import json
import os
import queue
import subprocess
import threading
import time


class LspError(Exception):
    pass


class Client:
    live = []   # every client started, so a failed test leaves no server behind

    @classmethod
    def kill_all(cls):
        for c in cls.live:
            c.kill()
        cls.live = []

    def __init__(self, fathom, args=(), env=None, cmd=None, answer_requests=False):
        """Runs `fathom lsp ARGS`, or the command cmd (another server: the
        bench drives Pyright's).  With answer_requests, the server's own
        requests (workspace/configuration, client/registerCapability,
        window/workDoneProgress/create) get a null answer at once."""
        Client.live.append(self)
        self.answer_requests = answer_requests
        self.proc = subprocess.Popen(
            cmd or [fathom, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if cmd else subprocess.PIPE, env=env)
        self.messages = queue.Queue()
        self.backlog = []
        self.next_id = 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # ---- transport ----
    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            n = int(headers["content-length"])
            body = out.read(n)
            m = json.loads(body)
            if self.answer_requests and "method" in m and "id" in m:
                items = (m.get("params") or {}).get("items")
                result = [None] * len(items) if isinstance(items, list) else None
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": result})
                continue
            self.messages.put(m)

    def raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None, id=None):
        if id is None:
            id = self.next_id
            self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return id

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    # ---- waiting ----
    def wait(self, pred, timeout=20.0):
        """The first message (backlog first) for which pred is true."""
        for i, m in enumerate(self.backlog):
            if pred(m):
                return self.backlog.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LspError("timed out waiting for a message")
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                raise LspError("timed out waiting for a message")
            if m is None:
                raise LspError("the server closed its output (exit status %s)"
                               % self.proc.poll())
            if pred(m):
                return m
            self.backlog.append(m)

    def response(self, id, timeout=20.0):
        return self.wait(lambda m: m.get("id") == id and "method" not in m, timeout)

    def call(self, method, params=None, timeout=20.0):
        m = self.response(self.request(method, params), timeout)
        if "error" in m:
            raise LspError("%s: %s" % (method, m["error"]))
        return m["result"]

    def diagnostics(self, uri, timeout=20.0, version=None):
        def ok(m):
            return (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri
                    and (version is None or m["params"].get("version") == version))
        return self.wait(ok, timeout)["params"]["diagnostics"]

    def drop_backlog(self):
        self.backlog = []

    # ---- session ----
    def initialize(self, utf8=False):
        caps = {"general": {"positionEncodings": ["utf-8", "utf-16"] if utf8 else ["utf-16"]}}
        r = self.call("initialize", {"processId": os.getpid(), "rootUri": None,
                                     "capabilities": caps})
        self.notify("initialized", {})
        return r

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}})

    def change(self, uri, version, changes):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def close(self, timeout=10.0):
        """shutdown + exit; returns the exit status."""
        try:
            self.call("shutdown", timeout=timeout)
            self.notify("exit")
        except (LspError, BrokenPipeError):
            pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise LspError("the server did not exit")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
