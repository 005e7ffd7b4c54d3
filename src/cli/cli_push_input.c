/* Inputs read as they arrive (standard input, pipes, FIFOs, sockets, terminals):
 * an IPC stream is read with read(2) in whatever pieces come and pushed into an
 * ArrowIpcPushDecoder, so that each batch is handed on as soon as its last byte
 * has arrived. Anything else is read whole (gunzipped) for the buffer readers. */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "cli/cli.h"
#include "cli/cli_tools.h"

/* A read asks for the bytes the decoder needs next within these bounds: at least a
 * pipe's capacity (fewer reads), at most what one piece should hold in memory. A
 * read returns what has arrived; it never waits for the whole request. */
#define CLI_READ_MIN_BYTES ((int64_t)65536)
#define CLI_READ_MAX_BYTES ((int64_t)4 << 20)

static CliInputWaitFunction g_wait = NULL;
static void* g_wait_data = NULL;

void CliSetInputWait(CliInputWaitFunction wait, void* private_data) {
  g_wait = wait;
  g_wait_data = private_data;
}

int CliInputIsStreamed(const char* path) {
  struct stat info;
  int rc = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &info) : stat(path, &info);
  if (rc != 0) return 0;
  return S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode) || S_ISCHR(info.st_mode);
}

/* ---- Reading ---- */

/* Calls the wait function when nothing can be read from fd right now. */
static int CliBeforeWait(int fd) {
  struct pollfd poller;
  int rc;
  if (g_wait == NULL) return 0;
  poller.fd = fd;
  poller.events = POLLIN;
  poller.revents = 0;
  do {
    rc = poll(&poller, 1, 0);
  } while (rc < 0 && errno == EINTR);
  return rc == 0 ? g_wait(g_wait_data) : 0;
}

/* Appends what read(2) gives (at most want bytes; 0 at the end) to data. */
static ArrowErrorCode CliReadSome(int fd, const char* path, int64_t want,
                                  struct ArrowBuffer* data, int64_t* n_read,
                                  struct ArrowError* error) {
  ssize_t n;
  int wait_rc = CliBeforeWait(fd);
  if (wait_rc != 0) {
    ArrowErrorSet(error, "cannot write to standard output: %s", strerror(wait_rc));
    return wait_rc;
  }
  if (ArrowBufferReserve(data, want) != NANOARROW_OK) {
    ArrowErrorSet(error, "out of memory reading '%s'", path);
    return ENOMEM;
  }
  do {
    n = read(fd, data->data + data->size_bytes, (size_t)want);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    int code = errno;
    ArrowErrorSet(error, "cannot read '%s': %s", path, strerror(code));
    return code != 0 ? code : EIO;
  }
  data->size_bytes += n;
  *n_read = n;
  return NANOARROW_OK;
}

/* Reads fd to its end after what data holds (at most CLI_MAX_INPUT_BYTES). */
static ArrowErrorCode CliReadRest(int fd, const char* path, struct ArrowBuffer* data,
                                  struct ArrowError* error) {
  int64_t n_read;
  do {
    NANOARROW_RETURN_NOT_OK(CliReadSome(fd, path, CLI_READ_MIN_BYTES, data, &n_read, error));
    if (data->size_bytes > CLI_MAX_INPUT_BYTES) {
      ArrowErrorSet(error, "'%s' is larger than %" PRId64 " bytes", path, CLI_MAX_INPUT_BYTES);
      return ERANGE;
    }
  } while (n_read > 0);
  return NANOARROW_OK;
}

/* data, when it is gzip (one member or several), replaced by what it holds. */
static ArrowErrorCode CliGunzip(struct ArrowBuffer* data, const char* path,
                                struct ArrowError* error) {
  struct ArrowBuffer out;
  z_stream z;
  int zrc = Z_OK;
  if (data->size_bytes < 2 || data->data[0] != 0x1f || data->data[1] != 0x8b) {
    return NANOARROW_OK;
  }
  memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, 15 + 16) != Z_OK) {
    ArrowErrorSet(error, "cannot decompress '%s': out of memory", path);
    return ENOMEM;
  }
  ArrowBufferInit(&out);
  z.next_in = data->data;
  z.avail_in = 0;
  while (zrc != Z_STREAM_END || z.next_in < data->data + data->size_bytes) {
    int64_t left = data->size_bytes - (int64_t)(z.next_in - data->data);
    if (zrc == Z_STREAM_END) {
      /* The next member. */
      if (inflateReset(&z) != Z_OK) break;
    }
    z.avail_in = left > (int64_t)UINT32_MAX ? UINT32_MAX : (uInt)left;
    if (ArrowBufferReserve(&out, CLI_READ_MIN_BYTES) != NANOARROW_OK) {
      zrc = Z_MEM_ERROR;
      break;
    }
    z.next_out = out.data + out.size_bytes;
    z.avail_out = (uInt)(out.capacity_bytes - out.size_bytes > (int64_t)UINT32_MAX
                             ? UINT32_MAX
                             : out.capacity_bytes - out.size_bytes);
    {
      uInt before = z.avail_out;
      zrc = inflate(&z, Z_NO_FLUSH);
      out.size_bytes += before - z.avail_out;
    }
    if (out.size_bytes > CLI_MAX_INPUT_BYTES) {
      inflateEnd(&z);
      ArrowBufferReset(&out);
      ArrowErrorSet(error, "'%s' is larger than %" PRId64 " bytes", path, CLI_MAX_INPUT_BYTES);
      return ERANGE;
    }
    if (zrc == Z_BUF_ERROR && z.avail_in == 0) {
      /* The input ended inside a member. */
      zrc = Z_DATA_ERROR;
      z.msg = (char*)"unexpected end of file";
    }
    if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR) break;
  }
  if (zrc != Z_STREAM_END) {
    ArrowErrorSet(error, "cannot read '%s': %s", path,
                  zrc == Z_MEM_ERROR ? "out of memory"
                  : z.msg != NULL    ? z.msg
                                     : "invalid gzip data");
    inflateEnd(&z);
    ArrowBufferReset(&out);
    return zrc == Z_MEM_ERROR ? ENOMEM : EIO;
  }
  inflateEnd(&z);
  ArrowBufferReset(data);
  ArrowBufferMove(&out, data);
  return NANOARROW_OK;
}

/* ---- The stream ---- */

struct CliPushStream {
  struct ArrowIpcPushDecoder decoder;
  /* Where bytes come from (-1: only from first), and whether release closes it. */
  int fd;
  int own_fd;
  char path[256];
  /* Bytes read before the stream was opened, pushed first. */
  struct ArrowBuffer first;
  struct ArrowBuffer chunk;
  /* While opening: the columns to project to (as text and split). */
  const char* columns;
  const char* const* names;
  int64_t n_names;
  int eof;
  int finishing;
  /* The projection was refused: the schema is not handed out. */
  int schema_refused;
  /* The stream ended (on_end), and whether with its end-of-stream marker. */
  int ended;
  int marker;
  /* A failure met while pushing bytes: reported once the batches decoded before
   * it are handed on. */
  ArrowErrorCode failure;
  char failure_message[sizeof(((struct ArrowError*)0)->message)];
  char error[sizeof(((struct ArrowError*)0)->message)];
};

/* The push decoder's messages start with the stream offset of the message
 * ("message at byte N: "); the CLI names the batch instead, as for other inputs, so
 * the rest of the message reads as the stream reader's. */
static void CliPushSetMessage(char* out, size_t size, const char* message) {
  static const char kPrefix[] = "message at byte ";
  if (strncmp(message, kPrefix, sizeof(kPrefix) - 1) == 0) {
    const char* p = message + sizeof(kPrefix) - 1;
    while (*p >= '0' && *p <= '9') p++;
    if (p[0] == ':' && p[1] == ' ') message = p + 2;
  }
  snprintf(out, size, "%s", message);
}

static ArrowErrorCode CliPushOnSchema(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                      struct ArrowSchema* schema, struct ArrowError* error) {
  struct CliPushStream* p = (struct CliPushStream*)callbacks->private_data;
  ArrowErrorCode rc;
  if (p->columns == NULL) return NANOARROW_OK;
  /* The names checked first, with the message of the select fallback (which lists
   * the columns); then the decoder projects, as the stream reader does. */
  rc = CliSelectCheckColumns(schema, p->columns, error);
  if (rc == NANOARROW_OK) {
    rc = ArrowIpcDecoderSetProjectionByName(&p->decoder.decoder, p->names, p->n_names,
                                            error);
  }
  if (rc != NANOARROW_OK) {
    p->schema_refused = 1;
    p->failure = rc;
    snprintf(p->failure_message, sizeof(p->failure_message), "%s", error->message);
  }
  return rc;
}

static ArrowErrorCode CliPushOnEnd(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                   struct ArrowError* error) {
  struct CliPushStream* p = (struct CliPushStream*)callbacks->private_data;
  (void)error;
  p->ended = 1;
  p->marker = !p->finishing;
  return NANOARROW_OK;
}

/* Pushes the next bytes (or the end of the input) into the decoder. */
static ArrowErrorCode CliPushFill(struct CliPushStream* p, struct ArrowError* error) {
  int64_t want;
  int64_t n_read;
  ArrowErrorCode rc;
  if (p->first.size_bytes > 0) {
    /* Handed over: batches inside it point into it. */
    return ArrowIpcPushDecoderConsumeBuffer(&p->decoder, &p->first, error);
  }
  if (p->fd < 0 || p->eof) {
    p->finishing = 1;
    return ArrowIpcPushDecoderFinish(&p->decoder, error);
  }
  /* What the decoder needs next is a hint for the request; read(2) returns what
   * has arrived, and the decoder takes pieces of any size. */
  want = ArrowIpcPushDecoderBytesNeeded(&p->decoder);
  if (want < CLI_READ_MIN_BYTES) want = CLI_READ_MIN_BYTES;
  if (want > CLI_READ_MAX_BYTES) want = CLI_READ_MAX_BYTES;
  p->chunk.size_bytes = 0;
  rc = CliReadSome(p->fd, p->path, want, &p->chunk, &n_read, error);
  if (rc != NANOARROW_OK) return rc;
  if (n_read == 0) {
    p->eof = 1;
    p->finishing = 1;
    return ArrowIpcPushDecoderFinish(&p->decoder, error);
  }
  return ArrowIpcPushDecoderConsume(&p->decoder, p->chunk.data, n_read, error);
}

/* CliPushFill, keeping a failure for after the batches decoded before it. Bytes
 * after the end-of-stream marker are not read (the stream reader ignores them). */
static void CliPushStep(struct CliPushStream* p) {
  struct ArrowError error;
  ArrowErrorCode rc;
  error.message[0] = '\0';
  rc = CliPushFill(p, &error);
  if (rc == NANOARROW_OK) return;
  if (p->ended) {
    p->eof = 1;
    return;
  }
  p->failure = rc;
  CliPushSetMessage(p->failure_message, sizeof(p->failure_message),
                    error.message[0] != '\0' ? error.message : strerror(rc));
}

static int CliPushGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct CliPushStream* p = (struct CliPushStream*)stream->private_data;
  struct ArrowError error;
  ArrowErrorCode rc;
  p->error[0] = '\0';
  for (;;) {
    error.message[0] = '\0';
    rc = ArrowIpcPushDecoderGetSchema(&p->decoder, out, &error);
    if (rc != EAGAIN || p->failure != NANOARROW_OK) break;
    CliPushStep(p);
  }
  if (rc == NANOARROW_OK && p->schema_refused) ArrowSchemaRelease(out);
  if (p->schema_refused) rc = p->failure;
  if (rc == NANOARROW_OK) return NANOARROW_OK;
  if (p->failure != NANOARROW_OK) {
    snprintf(p->error, sizeof(p->error), "%s", p->failure_message);
    return p->failure;
  }
  CliPushSetMessage(p->error, sizeof(p->error), error.message);
  return rc;
}

static int CliPushGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct CliPushStream* p = (struct CliPushStream*)stream->private_data;
  struct ArrowError error;
  ArrowErrorCode rc;
  p->error[0] = '\0';
  for (;;) {
    error.message[0] = '\0';
    rc = ArrowIpcPushDecoderNext(&p->decoder, out, &error);
    if (rc == NANOARROW_OK) return NANOARROW_OK;
    /* After the end, only bytes past the marker can fail: they are ignored. */
    if (rc == ENODATA || (p->ended && rc != EAGAIN)) {
      out->release = NULL;
      return NANOARROW_OK;
    }
    if (p->failure != NANOARROW_OK) {
      snprintf(p->error, sizeof(p->error), "%s", p->failure_message);
      return p->failure;
    }
    if (rc != EAGAIN) {
      CliPushSetMessage(p->error, sizeof(p->error), error.message);
      return rc;
    }
    CliPushStep(p);
  }
}

static const char* CliPushGetLastError(struct ArrowArrayStream* stream) {
  struct CliPushStream* p = (struct CliPushStream*)stream->private_data;
  return p->error;
}

static void CliPushRelease(struct ArrowArrayStream* stream) {
  struct CliPushStream* p = (struct CliPushStream*)stream->private_data;
  ArrowIpcPushDecoderReset(&p->decoder);
  ArrowBufferReset(&p->first);
  ArrowBufferReset(&p->chunk);
  if (p->own_fd) close(p->fd);
  ArrowFree(p);
  stream->release = NULL;
}

int CliStreamEndMarker(struct ArrowArrayStream* stream) {
  struct CliPushStream* p;
  if (stream->release != &CliPushRelease) return -1;
  p = (struct CliPushStream*)stream->private_data;
  return p->ended ? p->marker : -1;
}

/* An IPC stream pushed into the decoder from first (moved from), then from fd (-1:
 * none; closed by release when own_fd, also on failure). The schema is read here,
 * so that a bad input fails when it is opened. */
static ArrowErrorCode CliPushStreamInit(int fd, int own_fd, const char* path,
                                        struct ArrowBuffer* first, const char* columns,
                                        const char* const* names, int64_t n_names,
                                        struct ArrowArrayStream* out,
                                        struct ArrowError* error) {
  struct ArrowIpcPushDecoderCallbacks callbacks;
  struct CliPushStream* p;
  struct ArrowSchema schema;
  ArrowErrorCode rc;

  p = (struct CliPushStream*)ArrowMalloc(sizeof(struct CliPushStream));
  if (p == NULL) {
    ArrowBufferReset(first);
    if (own_fd) close(fd);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  memset(p, 0, sizeof(*p));
  p->fd = fd;
  p->own_fd = own_fd;
  snprintf(p->path, sizeof(p->path), "%s", path);
  ArrowBufferInit(&p->first);
  ArrowBufferMove(first, &p->first);
  ArrowBufferInit(&p->chunk);
  p->columns = columns;
  p->names = names;
  p->n_names = n_names;

  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.on_schema = &CliPushOnSchema;
  callbacks.on_end = &CliPushOnEnd;
  callbacks.private_data = p;
  /* Batches wait for get_next (poll mode), FULL-validated; the decoder inside keeps
   * its default held-bytes budget, as the stream reader's does. */
  rc = ArrowIpcPushDecoderInit(&p->decoder, &callbacks, error);
  if (rc != NANOARROW_OK) {
    ArrowBufferReset(&p->first);
    if (own_fd) close(fd);
    ArrowFree(p);
    return rc;
  }
  /* One batch decoded at a time, as the stream reader does: a large buffer of
   * compressed batches is not decompressed 8 batches ahead of the printing (OK for
   * an initialized decoder). */
  (void)ArrowIpcPushDecoderSetMaxBatchesAhead(&p->decoder, 1);
  rc = ArrowIpcDecoderSetNumThreads(&p->decoder.decoder, CliGetNumThreads());
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error, "cannot set the number of threads (%s)", strerror(rc));
    ArrowIpcPushDecoderReset(&p->decoder);
    ArrowBufferReset(&p->first);
    if (own_fd) close(fd);
    ArrowFree(p);
    return rc;
  }
  out->private_data = p;
  out->get_schema = &CliPushGetSchema;
  out->get_next = &CliPushGetNext;
  out->get_last_error = &CliPushGetLastError;
  out->release = &CliPushRelease;

  rc = out->get_schema(out, &schema);
  /* The columns were needed while the schema was decoded only. */
  p->columns = NULL;
  p->names = NULL;
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error, "%s", p->error[0] != '\0' ? p->error : strerror(rc));
    ArrowArrayStreamRelease(out);
    return rc;
  }
  ArrowSchemaRelease(&schema);
  return NANOARROW_OK;
}

ArrowErrorCode CliOpenStreamed(const char* path, enum CliFormat format, const char* columns,
                               const char* const* names, int64_t n_names,
                               struct ArrowArrayStream* out, struct ArrowBuffer* data,
                               int* opened, enum CliFormat* detected_out,
                               struct ArrowError* error) {
  int is_stdin = strcmp(path, "-") == 0;
  int fd;
  int64_t n_read = 1;
  ArrowErrorCode rc = NANOARROW_OK;
  int may_push = format == CLI_FORMAT_UNKNOWN || format == CLI_FORMAT_STREAM;

  *opened = 0;
  ArrowBufferInit(data);
  if (is_stdin) {
    fd = STDIN_FILENO;
  } else {
    do {
      fd = open(path, O_RDONLY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      int code = errno;
      ArrowErrorSet(error, "cannot open '%s': %s", path, strerror(code));
      return code != 0 ? code : EIO;
    }
  }

  /* Enough of the start to tell an IPC stream (its continuation marker), keeping
   * what was read. */
  while (may_push && rc == NANOARROW_OK && data->size_bytes < 4 && n_read > 0) {
    rc = CliReadSome(fd, path, CLI_READ_MIN_BYTES, data, &n_read, error);
  }
  if (rc == NANOARROW_OK && may_push && data->size_bytes >= 4 &&
      memcmp(data->data, "\xff\xff\xff\xff", 4) == 0) {
    if (detected_out != NULL) *detected_out = CLI_FORMAT_STREAM;
    *opened = 1;
    return CliPushStreamInit(fd, !is_stdin, path, data, columns, names, n_names, out,
                             error);
  }

  /* Anything else is read whole, as from a file. */
  if (rc == NANOARROW_OK) rc = CliReadRest(fd, path, data, error);
  if (!is_stdin) close(fd);
  if (rc == NANOARROW_OK) rc = CliGunzip(data, path, error);
  if (rc != NANOARROW_OK) {
    ArrowBufferReset(data);
    return rc;
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliOpenPushBuffer(struct ArrowBuffer* data, const char* columns,
                                 const char* const* names, int64_t n_names,
                                 struct ArrowArrayStream* out, struct ArrowError* error) {
  return CliPushStreamInit(-1, 0, "", data, columns, names, n_names, out, error);
}
