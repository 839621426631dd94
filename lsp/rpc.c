/* rpc.c: LSP base protocol framing over two file descriptors.
 *
 * A message is a header part (`Name: value` lines, each ending in \r\n,
 * then an empty line) and a body of exactly Content-Length bytes.  The
 * reader keeps its own buffer (malloc'd: it can hold megabytes and holds no
 * pointers) so that it can tell whether more input is already waiting, which
 * is how rapid edits coalesce into one analysis.
 *
 * Recovery from bad framing, so that one bad message never stops the
 * server:
 *   - a header line that is not `Name: value` (a name of letters, digits
 *     and dashes), a missing or unparsable Content-Length, or one over
 *     MAX_BODY: a framing error, reported at once; the reader drops the
 *     buffered bytes up to the next `Content-Length:`;
 *   - a Content-Length that is too short: the body is cut, fails to parse
 *     as JSON (-32700 from the caller), and what follows it is skipped up
 *     to the next `Content-Length:` header;
 *   - a Content-Length that is too long: while waiting for the rest of the
 *     body, if the bytes so far hold one complete JSON value followed by a
 *     `Content-Length:` header, the value is taken as the body and the rest
 *     is kept for the next message.  So a lie never swallows the messages
 *     after it once they arrive.
 * Lone \n line ends are accepted in headers, as many servers do. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"

#define MAX_BODY (256u << 20)   /* bigger bodies are refused (framing error) */
#define MAX_HEADER 8192         /* one header part longer than this is junk */

struct Rpc {
  int in, out;
  char *buf;         /* [start, len) not yet consumed */
  size_t start, len, cap;
  bool eof;
};

Rpc *rpc_new(int in, int out)
{
  Rpc *r = fx_new(Rpc);
  r->in = in;
  r->out = out;
  return r;
}

void rpc_free(Rpc *r)
{
  free(r->buf);
  r->buf = NULL;
  r->cap = r->len = r->start = 0;
}

/* Read more bytes into the buffer; false at the end of the input. */
static bool fill(Rpc *r)
{
  if (r->eof) return false;
  if (r->start > 0 && r->start == r->len) r->start = r->len = 0;
  if (r->start > (1u << 20) && r->start * 2 > r->len) {   /* compact */
    memmove(r->buf, r->buf + r->start, r->len - r->start);
    r->len -= r->start;
    r->start = 0;
  }
  if (r->cap - r->len < 65536) {
    size_t cap = r->cap ? r->cap * 2 : 1u << 16;
    while (cap - r->len < 65536) cap *= 2;
    char *nb = realloc(r->buf, cap + 1);
    if (!nb) abort();
    r->buf = nb;
    r->cap = cap;
  }
  for (;;) {
    ssize_t n = read(r->in, r->buf + r->len, r->cap - r->len);
    if (n > 0) {
      r->len += (size_t)n;
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    r->eof = true;
    return false;
  }
}

bool rpc_pending(Rpc *r)
{
  if (r->len > r->start) return true;
  if (r->eof) return false;
  struct pollfd p = {.fd = r->in, .events = POLLIN};
  return poll(&p, 1, 0) > 0;
}

bool rpc_wait(Rpc *r, int ms)
{
  if (r->len > r->start) return true;
  if (r->eof) return false;
  struct pollfd p = {.fd = r->in, .events = POLLIN};
  return poll(&p, 1, ms) > 0;
}

static char *avail(Rpc *r) { return r->buf + r->start; }
static size_t navail(Rpc *r) { return r->len - r->start; }

/* Position of needle in the unread bytes from `from`, or -1. */
static long find(Rpc *r, size_t from, const char *needle)
{
  size_t n = strlen(needle), have = navail(r);
  for (size_t i = from; i + n <= have; i++)
    if (memcmp(avail(r) + i, needle, n) == 0) return (long)i;
  return -1;
}

/* After a framing error: drop the buffered bytes up to the next
 * `Content-Length:` (keeping a tail that may be the start of one).  Always
 * drops at least one byte, and never waits for input. */
static void resync(Rpc *r)
{
  static const char key[] = "Content-Length:";
  long at = find(r, 1, key);
  if (at > 0) {
    r->start += (size_t)at;
    return;
  }
  size_t have = navail(r), keep = 0;
  for (size_t k = have > 1 ? (have - 1 < sizeof key - 2 ? have - 1 : sizeof key - 2) : 0; k > 0; k--)
    if (memcmp(avail(r) + have - k, key, k) == 0) {
      keep = k;
      break;
    }
  r->start += have - keep;
}

static bool token_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

/* The end of the header part (index after the empty line) and the length
 * it declares.  Returns 1 when found, 0 when more input is needed, -1 on a
 * framing error (message in *err). */
static int parse_header(Rpc *r, size_t *body_at, size_t *length, const char **err)
{
  size_t have = navail(r), i = 0;
  const char *h = avail(r);
  bool has_length = false;
  while (i < have) {
    const char *nl = memchr(h + i, '\n', have - i);
    if (!nl) break;
    size_t end = (size_t)(nl - h), stop = end;
    if (stop > i && h[stop - 1] == '\r') stop--;
    if (stop == i) {   /* the empty line */
      if (!has_length) return *err = "message without a Content-Length header", -1;
      *body_at = end + 1;
      return 1;
    }
    const char *colon = memchr(h + i, ':', stop - i);
    if (!colon) return *err = "malformed header line (expected 'Name: value')", -1;
    size_t nlen = (size_t)(colon - (h + i));
    for (size_t k = 0; k < nlen; k++)
      if (!token_char(h[i + k])) return *err = "malformed header name", -1;
    if (nlen == 14 && strncasecmp(h + i, "Content-Length", 14) == 0) {
      const char *p = colon + 1;
      while (p < h + stop && (*p == ' ' || *p == '\t')) p++;
      size_t n = 0;
      const char *digits = p;
      while (p < h + stop && *p >= '0' && *p <= '9' && n <= MAX_BODY)
        n = n * 10 + (size_t)(*p++ - '0');
      while (p < h + stop && (*p == ' ' || *p == '\t')) p++;
      if (p == digits || p != h + stop) return *err = "invalid Content-Length", -1;
      if (n > MAX_BODY) return *err = "Content-Length too large", -1;
      *length = n;
      has_length = true;
    }
    i = end + 1;
  }
  if (have > MAX_HEADER) return *err = "header part too long", -1;
  return 0;
}

/* While a body is incomplete: does the buffer hold a complete JSON value
 * followed by a new message's header (the Content-Length lied)?  Returns
 * the value's length, or 0. */
static size_t early_body(Rpc *r, size_t body_at, size_t *scanned)
{
  /* search only the bytes not searched before (a long body arrives in
   * many reads) */
  size_t from = *scanned > body_at + 16 ? *scanned - 16 : body_at;
  *scanned = navail(r);
  long at = find(r, from, "Content-Length:");
  if (at < 0) return 0;
  json_error_t e;
  json_t *v = json_loadb(avail(r) + body_at, (size_t)at - body_at,
                         JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
  if (!v) return 0;
  json_decref(v);
  return (size_t)at - body_at;
}

char *rpc_read(Rpc *r, size_t *len, const char **framing_error)
{
  *framing_error = NULL;
  size_t body_at = 0, length = 0;
  for (;;) {
    /* skip blank bytes between messages */
    while (navail(r) && (avail(r)[0] == '\r' || avail(r)[0] == '\n')) r->start++;
    int got = navail(r) ? parse_header(r, &body_at, &length, framing_error) : 0;
    if (got == 1) break;
    if (got < 0) {
      resync(r);
      char *empty = calloc(1, 1);
      if (!empty) abort();
      *len = 0;
      return empty;
    }
    if (!fill(r)) return NULL;
  }
  size_t scanned = 0;
  while (navail(r) < body_at + length) {
    size_t early = early_body(r, body_at, &scanned);
    if (early) {
      length = early;
      break;
    }
    if (!fill(r)) {   /* the input ended inside the body */
      length = navail(r) - body_at;
      break;
    }
  }
  char *body = malloc(length + 1);
  if (!body) abort();
  memcpy(body, avail(r) + body_at, length);
  body[length] = 0;
  r->start += body_at + length;
  *len = length;
  return body;
}

void rpc_send(Rpc *r, json_t *msg)
{
  json_object_set_new(msg, "jsonrpc", json_string("2.0"));
  char *body = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(msg);
  if (!body) abort();
  size_t n = strlen(body);
  char head[64];
  int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
  const char *parts[2] = {head, body};
  size_t sizes[2] = {(size_t)hn, n};
  for (int k = 0; k < 2; k++) {
    size_t done = 0;
    while (done < sizes[k]) {
      ssize_t w = write(r->out, parts[k] + done, sizes[k] - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;   /* the client went away: nothing to do */
      done += (size_t)w;
    }
  }
  free(body);
}
