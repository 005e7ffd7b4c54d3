/* Input detection, opening and writing for the CLI and the archery drivers. */

#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"
#include "cli/cli_tools.h"

const char* CliFormatName(enum CliFormat format) {
  switch (format) {
    case CLI_FORMAT_STREAM: return "stream";
    case CLI_FORMAT_FILE: return "file";
    case CLI_FORMAT_JSON: return "json";
    default: return NULL;
  }
}

enum CliFormat CliFormatFromName(const char* name) {
  if (strcmp(name, "stream") == 0) return CLI_FORMAT_STREAM;
  if (strcmp(name, "file") == 0) return CLI_FORMAT_FILE;
  if (strcmp(name, "json") == 0) return CLI_FORMAT_JSON;
  return CLI_FORMAT_UNKNOWN;
}

enum CliFormat CliDetectFormat(const struct ArrowBuffer* data) {
  int64_t i;
  uint32_t prefix;
  if (data->size_bytes >= 6 && memcmp(data->data, "ARROW1", 6) == 0) return CLI_FORMAT_FILE;
  for (i = 0; i < data->size_bytes; i++) {
    uint8_t c = data->data[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '{') return CLI_FORMAT_JSON;
    break;
  }
  if (data->size_bytes < 4) return CLI_FORMAT_UNKNOWN;
  /* Little-endian, as every stream's framing is. */
  prefix = (uint32_t)data->data[0] | ((uint32_t)data->data[1] << 8) |
           ((uint32_t)data->data[2] << 16) | ((uint32_t)data->data[3] << 24);
  if (prefix == 0xFFFFFFFFu) return CLI_FORMAT_STREAM;
  /* A pre-1.0 stream starts with the length of its first message's metadata. */
  if (prefix > 0 && prefix <= 0x7FFFFFFFu && (int64_t)prefix <= data->size_bytes - 4) {
    return CLI_FORMAT_STREAM;
  }
  return CLI_FORMAT_UNKNOWN;
}

/* Checks that the stream's schema can be read, so that a bad input fails when it
 * is opened with the reader's message. */
static ArrowErrorCode CliCheckSchema(struct ArrowArrayStream* stream,
                                     struct ArrowError* error) {
  struct ArrowSchema schema;
  int rc = stream->get_schema(stream, &schema);
  if (rc != NANOARROW_OK) {
    const char* message = stream->get_last_error(stream);
    ArrowErrorSet(error, "%s", message != NULL && message[0] != '\0' ? message
                                                                       : strerror(rc));
    ArrowArrayStreamRelease(stream);
    return rc;
  }
  ArrowSchemaRelease(&schema);
  return NANOARROW_OK;
}

/* CliSetNumThreads. */
static int cli_n_threads = 1;

void CliSetNumThreads(int n_threads) { cli_n_threads = n_threads; }

int CliGetNumThreads(void) { return cli_n_threads; }

/* The top-level columns to read, by name (n == 0: all), and as given ("a,b"). */
struct CliColumns {
  const char** names;
  int64_t n;
  const char* text;
};

/* Opens an IPC file reader's batches as a FULL-validated stream, projected to
 * columns; reader is moved (reset on failure). */
static ArrowErrorCode CliFileReaderStream(struct ArrowIpcFileReader* reader,
                                          const struct CliColumns* columns,
                                          struct ArrowArrayStream* out,
                                          struct ArrowError* error) {
  ArrowErrorCode rc = ArrowIpcFileReaderSetNumThreads(reader, cli_n_threads);
  if (rc == NANOARROW_OK && columns->n > 0) {
    /* A wrong name is reported as the select fallback does (listing the columns),
     * for a file read from a pipe too, which cannot be opened again for it. */
    struct ArrowSchema full;
    rc = ArrowIpcFileReaderGetSchema(reader, &full, error);
    if (rc == NANOARROW_OK) {
      rc = CliSelectCheckColumns(&full, columns->text, error);
      ArrowSchemaRelease(&full);
    }
    if (rc == NANOARROW_OK) {
      rc = ArrowIpcFileReaderSetProjectionByName(reader, columns->names, columns->n, error);
    }
  }
  if (rc == NANOARROW_OK) {
    rc = ArrowIpcFileReaderArrayStream(reader, out, NANOARROW_VALIDATION_LEVEL_FULL, error);
  }
  if (rc != NANOARROW_OK) {
    ArrowIpcFileReaderReset(reader);
    return rc;
  }
  return CliCheckSchema(out, error);
}

static ArrowErrorCode CliOpenBufferColumns(struct ArrowBuffer* data, enum CliFormat format,
                                           const struct CliColumns* columns,
                                           struct ArrowArrayStream* out,
                                           enum CliFormat* detected_out,
                                           struct ArrowError* error) {
  enum CliFormat detected = CliDetectFormat(data);
  ArrowErrorCode rc;

  if (detected == CLI_FORMAT_UNKNOWN) {
    ArrowErrorSet(error, data->size_bytes == 0 ? "empty input (" CLI_NOT_ARROW_MESSAGE ")"
                                               : "input is " CLI_NOT_ARROW_MESSAGE);
    ArrowBufferReset(data);
    return EINVAL;
  }
  if (format == CLI_FORMAT_UNKNOWN) format = detected;
  if (detected_out != NULL) *detected_out = detected;
  if (format != detected && (format == CLI_FORMAT_FILE || detected == CLI_FORMAT_FILE ||
                             format == CLI_FORMAT_JSON || detected == CLI_FORMAT_JSON)) {
    ArrowErrorSet(error, "input is not an %s (it looks like %s)",
                  format == CLI_FORMAT_JSON ? "integration JSON document"
                  : format == CLI_FORMAT_FILE ? "Arrow IPC file"
                                              : "Arrow IPC stream",
                  detected == CLI_FORMAT_JSON   ? "JSON"
                  : detected == CLI_FORMAT_FILE ? "an IPC file"
                                                : "an IPC stream");
    ArrowBufferReset(data);
    return EINVAL;
  }

  switch (format) {
    case CLI_FORMAT_JSON:
      rc = ArrowTestingJsonReadStream((const char*)data->data, data->size_bytes, out, error);
      ArrowBufferReset(data);
      return rc;
    case CLI_FORMAT_FILE: {
      struct ArrowIpcFileReader reader;
      NANOARROW_RETURN_NOT_OK(ArrowIpcFileReaderInitBuffer(&reader, data, error));
      return CliFileReaderStream(&reader, columns, out, error);
    }
    default:
      /* The push decoder that reads streams from pipes, over the bytes in memory
       * (FULL validation, projected, the batches slices of data): a stream reads
       * the same, errors included, from a file and from a pipe. */
      return CliOpenPushBuffer(data, columns->n > 0 ? columns->text : NULL, columns->names,
                               columns->n, out, error);
  }
}

ArrowErrorCode CliOpenBuffer(struct ArrowBuffer* data, enum CliFormat format,
                             struct ArrowArrayStream* out, enum CliFormat* detected_out,
                             struct ArrowError* error) {
  struct CliColumns all = {NULL, 0, NULL};
  return CliOpenBufferColumns(data, format, &all, out, detected_out, error);
}

/* An IPC file at path opened through a memory map: batches point into the map and
 * only the pages read are loaded. 0 when path cannot be mapped or is not an IPC
 * file (the caller reads it instead, which says what is wrong with it). */
static int CliTryOpenMapped(const char* path, enum CliFormat format,
                            const struct CliColumns* columns, struct ArrowArrayStream* out,
                            enum CliFormat* detected_out, ArrowErrorCode* rc,
                            struct ArrowError* error) {
  struct ArrowIpcFileReader reader;
  if (strcmp(path, "-") == 0 || (format != CLI_FORMAT_UNKNOWN && format != CLI_FORMAT_FILE)) {
    return 0;
  }
  if (ArrowIpcFileReaderInitMmap(&reader, path, NULL) != NANOARROW_OK) return 0;
  if (detected_out != NULL) *detected_out = CLI_FORMAT_FILE;
  *rc = CliFileReaderStream(&reader, columns, out, error);
  return 1;
}

static ArrowErrorCode CliOpenInputColumns(const char* path, enum CliFormat format,
                                          const struct CliColumns* columns,
                                          struct ArrowArrayStream* out,
                                          enum CliFormat* detected_out,
                                          struct ArrowError* error) {
  struct ArrowBuffer data;
  ArrowErrorCode rc;
  if (CliInputIsStreamed(path)) {
    /* A pipe, FIFO, socket or terminal: an IPC stream is read as it arrives. */
    int opened = 0;
    rc = CliOpenStreamed(path, format, columns->n > 0 ? columns->text : NULL,
                         columns->names, columns->n, out, &data, &opened, detected_out,
                         error);
    if (rc != NANOARROW_OK || opened) return rc;
    return CliOpenBufferColumns(&data, format, columns, out, detected_out, error);
  }
  if (CliTryOpenMapped(path, format, columns, out, detected_out, &rc, error)) return rc;
  NANOARROW_RETURN_NOT_OK(ArrowTestingReadFile(path, CLI_MAX_INPUT_BYTES, &data, error));
  return CliOpenBufferColumns(&data, format, columns, out, detected_out, error);
}

ArrowErrorCode CliOpenInput(const char* path, enum CliFormat format,
                            struct ArrowArrayStream* out, enum CliFormat* detected_out,
                            struct ArrowError* error) {
  struct CliColumns all = {NULL, 0, NULL};
  return CliOpenInputColumns(path, format, &all, out, detected_out, error);
}

/* Splits "a,b" into names (one allocation: the pointers, then the text). */
static ArrowErrorCode CliSplitColumns(const char* text, struct CliColumns* out,
                                      struct ArrowError* error) {
  size_t len = strlen(text);
  int64_t n = 1;
  int64_t i;
  const char* p;
  char* copy;
  for (p = text; *p != '\0'; p++) n += *p == ',';
  out->names = (const char**)ArrowMalloc(n * (int64_t)sizeof(char*) + (int64_t)len + 1);
  if (out->names == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  copy = (char*)(out->names + n);
  memcpy(copy, text, len + 1);
  out->names[0] = copy;
  for (i = 1; *copy != '\0'; copy++) {
    if (*copy == ',') {
      *copy = '\0';
      out->names[i++] = copy + 1;
    }
  }
  out->n = n;
  out->text = text;
  for (i = 0; i < n; i++) {
    if (out->names[i][0] == '\0') {
      ArrowErrorSet(error, "--columns: empty column name in '%.200s'", text);
      ArrowFree((void*)out->names);
      return EINVAL;
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliOpenSelect(const char* path, struct ArrowBuffer* data,
                             const char* columns, struct ArrowArrayStream* out,
                             enum CliFormat* detected_out, struct ArrowError* error) {
  struct CliColumns selected = {NULL, 0, NULL};
  struct ArrowArrayStream whole;
  struct ArrowError ignored;
  enum CliFormat detected = CLI_FORMAT_UNKNOWN;
  ArrowErrorCode rc;
  if (columns != NULL) {
    rc = CliSplitColumns(columns, &selected, error);
    if (rc != NANOARROW_OK) {
      if (data != NULL) ArrowBufferReset(data);
      return rc;
    }
  }
  if (data == NULL) {
    rc = CliOpenInputColumns(path, CLI_FORMAT_UNKNOWN, &selected, out, &detected, error);
  } else {
    rc = CliOpenBufferColumns(data, CLI_FORMAT_UNKNOWN, &selected, out, &detected, error);
  }
  ArrowFree((void*)selected.names);
  if (detected_out != NULL) *detected_out = detected;
  if (columns == NULL || (rc == NANOARROW_OK && detected != CLI_FORMAT_JSON)) return rc;
  if (rc == NANOARROW_OK) {
    /* Integration JSON is read whole: its columns are picked afterwards. */
    ArrowArrayStreamMove(out, &whole);
    return CliSelectStream(&whole, 0, columns, out, error);
  }
  /* The reader refused the selection (an unknown or repeated name, say): when the
   * input itself opens, picking the columns afterwards says which name is wrong
   * and lists the columns. An input read as it arrives cannot be read again: its
   * readers check the names themselves. */
  if ((data == NULL && CliInputIsStreamed(path)) ||
      CliOpenInput(path, CLI_FORMAT_UNKNOWN, &whole, NULL, &ignored) != NANOARROW_OK) {
    return rc;
  }
  return CliSelectStream(&whole, 0, columns, out, error);
}

static ArrowErrorCode CliNext(struct ArrowArrayStream* in, struct ArrowArray* out,
                              int64_t batch, struct ArrowError* error) {
  int rc = in->get_next(in, out);
  if (rc != NANOARROW_OK) {
    const char* message = in->get_last_error(in);
    ArrowErrorSet(error, "batch %" PRId64 ": %s", batch,
                  message != NULL && message[0] != '\0' ? message : strerror(rc));
  }
  return rc;
}

/* output is moved into the writer. */
static ArrowErrorCode CliWriteIpc(struct ArrowArrayStream* in, int is_file,
                                  enum ArrowIpcCompressionType compression,
                                  int compression_level,
                                  struct ArrowIpcOutputStream* output,
                                  CliProgressFunction progress, void* progress_data,
                                  struct ArrowError* error) {
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  int64_t n_batches = 0;
  int64_t n_rows = 0;
  ArrowErrorCode rc;

  rc = ArrowIpcWriterInit(&writer, output);
  if (rc != NANOARROW_OK) {
    output->release(output);
    ArrowErrorSet(error, "cannot create an IPC writer");
    return rc;
  }
  rc = in->get_schema(in, &schema);
  if (rc != NANOARROW_OK) {
    const char* message = in->get_last_error(in);
    ArrowErrorSet(error, "%s", message != NULL ? message : strerror(rc));
    ArrowIpcWriterReset(&writer);
    return rc;
  }

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  if (compression != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    rc = ArrowIpcWriterSetNumThreads(&writer, cli_n_threads, error);
    if (rc == NANOARROW_OK) {
      rc = ArrowIpcWriterSetCompression(&writer, compression, compression_level, error);
    }
    /* Compressed bodies 64-byte aligned, as Arrow C++ and arrow-rs write them: a
     * buffer stored raw (-1 prefix) then starts where readers that use it in place
     * need it (polars panics on a decimal128 buffer that is not 16-aligned). */
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterSetAlignment(&writer, 64, error);
  }
  if (rc == NANOARROW_OK && is_file) rc = ArrowIpcWriterStartFile(&writer, error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteSchema(&writer, &schema, error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewInitFromSchema(&view, &schema, error);
  while (rc == NANOARROW_OK) {
    struct ArrowArray array;
    rc = CliNext(in, &array, n_batches, error);
    if (rc != NANOARROW_OK || array.release == NULL) break;
    rc = ArrowArrayViewSetArray(&view, &array, error);
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteArrayView(&writer, &view, error);
    if (rc != NANOARROW_OK) {
      char message[sizeof(error->message)];
      if (error != NULL) {
        memcpy(message, error->message, sizeof(message));
        message[sizeof(message) - 40] = '\0';
        ArrowErrorSet(error, "batch %" PRId64 ": %s", n_batches, message);
      }
    }
    n_rows += array.length;
    ArrowArrayRelease(&array);
    n_batches++;
    if (rc == NANOARROW_OK && progress != NULL) progress(progress_data, n_batches, n_rows);
  }
  if (rc == NANOARROW_OK) {
    rc = is_file ? ArrowIpcWriterFinalizeFile(&writer, error)
                 : ArrowIpcWriterWriteArrayView(&writer, NULL, error);
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  ArrowIpcWriterReset(&writer);
  return rc;
}

ArrowErrorCode CliWriteStream(struct ArrowArrayStream* in, enum CliFormat format,
                              enum ArrowIpcCompressionType compression,
                              int compression_level,
                              struct ArrowBuffer* out, CliProgressFunction progress,
                              void* progress_data, struct ArrowError* error) {
  switch (format) {
    case CLI_FORMAT_JSON:
      return ArrowTestingJsonWriteStream(in, out, error);
    case CLI_FORMAT_STREAM:
    case CLI_FORMAT_FILE: {
      struct ArrowIpcOutputStream output;
      NANOARROW_RETURN_NOT_OK(ArrowIpcOutputStreamInitBuffer(&output, out));
      return CliWriteIpc(in, format == CLI_FORMAT_FILE, compression, compression_level, &output, progress,
                         progress_data, error);
    }
    default:
      ArrowErrorSet(error, "unknown output format");
      return EINVAL;
  }
}

/* Drains the JSON writer's text into a FILE*. */
static ArrowErrorCode CliFlushToFile(void* flush_data, struct ArrowBuffer* out,
                                     struct ArrowError* error) {
  FILE* file = (FILE*)flush_data;
  if (out->size_bytes > 0) {
    errno = 0;
    if (fwrite(out->data, 1, (size_t)out->size_bytes, file) != (size_t)out->size_bytes) {
      int code = errno != 0 ? errno : EIO;
      ArrowErrorSet(error, "cannot write the output: %s", strerror(code));
      return code;
    }
  }
  out->size_bytes = 0;
  return NANOARROW_OK;
}

ArrowErrorCode CliWriteStreamToFile(struct ArrowArrayStream* in, enum CliFormat format,
                                    enum ArrowIpcCompressionType compression, int compression_level, FILE* file,
                                    CliProgressFunction progress, void* progress_data,
                                    struct ArrowError* error) {
  ArrowErrorCode rc;
  switch (format) {
    case CLI_FORMAT_JSON: {
      struct ArrowTestingJsonWriteOptions options;
      struct ArrowBuffer text;
      ArrowTestingJsonWriteOptionsInit(&options);
      options.flush = &CliFlushToFile;
      options.flush_data = file;
      ArrowBufferInit(&text);
      rc = ArrowTestingJsonWriteDataFile(in, &options, &text, error);
      if (rc == NANOARROW_OK) rc = ArrowBufferAppend(&text, "\n", 1);
      if (rc == NANOARROW_OK) rc = CliFlushToFile(file, &text, error);
      ArrowBufferReset(&text);
      return rc;
    }
    case CLI_FORMAT_STREAM:
    case CLI_FORMAT_FILE: {
      struct ArrowIpcOutputStream output;
      rc = ArrowIpcOutputStreamInitFile(&output, file, 0);
      if (rc != NANOARROW_OK) {
        ArrowErrorSet(error, "cannot create an output stream (%s)", strerror(rc));
        return rc;
      }
      rc = CliWriteIpc(in, format == CLI_FORMAT_FILE, compression, compression_level, &output, progress,
                       progress_data, error);
      if (rc == NANOARROW_OK && ferror(file)) {
        ArrowErrorSet(error, "cannot write the output");
        rc = EIO;
      }
      return rc;
    }
    default:
      ArrowErrorSet(error, "unknown output format");
      return EINVAL;
  }
}

ArrowErrorCode CliWriteStreamToPath(struct ArrowArrayStream* in, enum CliFormat format,
                                    enum ArrowIpcCompressionType compression,
                                    int compression_level,
                                    const char* path, CliProgressFunction progress,
                                    void* progress_data, struct ArrowError* error) {
  struct stat info;
  char target[PATH_MAX];
  char temp[PATH_MAX + 32];
  const char* slash;
  mode_t mode;
  FILE* file;
  int fd;
  ArrowErrorCode rc;

  if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
    /* /dev/null, a named pipe, a terminal: nothing to rename over. */
    file = fopen(path, "wb");
    if (file == NULL) {
      ArrowErrorSet(error, "cannot open '%s' for writing: %s", path, strerror(errno));
      return EIO;
    }
    rc = CliWriteStreamToFile(in, format, compression, compression_level, file, progress, progress_data, error);
    if (fclose(file) != 0 && rc == NANOARROW_OK) {
      ArrowErrorSet(error, "cannot write '%s': %s", path, strerror(errno));
      rc = EIO;
    }
    return rc;
  }

  /* Beside the file a symbolic link points to, so that the link stays. */
  if (realpath(path, target) == NULL) {
    if ((size_t)snprintf(target, sizeof(target), "%s", path) >= sizeof(target)) {
      ArrowErrorSet(error, "output path too long: '%s'", path);
      return ENAMETOOLONG;
    }
  }
  slash = strrchr(target, '/');
  if (slash == NULL) {
    snprintf(temp, sizeof(temp), ".%s.XXXXXX", target);
  } else {
    snprintf(temp, sizeof(temp), "%.*s/.%s.XXXXXX", (int)(slash - target), target, slash + 1);
  }
  fd = mkstemp(temp);
  if (fd < 0) {
    ArrowErrorSet(error, "cannot create a temporary file beside '%s': %s", path,
                  strerror(errno));
    return EIO;
  }
  /* The mode fopen() would have given (or the existing file's). */
  if (stat(target, &info) == 0) {
    mode = info.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  (void)fchmod(fd, mode);
  file = fdopen(fd, "wb");
  if (file == NULL) {
    ArrowErrorSet(error, "cannot open '%s': %s", temp, strerror(errno));
    close(fd);
    unlink(temp);
    return EIO;
  }
  rc = CliWriteStreamToFile(in, format, compression, compression_level, file, progress, progress_data, error);
  if (fclose(file) != 0 && rc == NANOARROW_OK) {
    ArrowErrorSet(error, "cannot write '%s': %s", path, strerror(errno));
    rc = EIO;
  }
  if (rc == NANOARROW_OK && rename(temp, target) != 0) {
    ArrowErrorSet(error, "cannot rename '%s' to '%s': %s", temp, target, strerror(errno));
    rc = EIO;
  }
  if (rc != NANOARROW_OK) unlink(temp);
  return rc;
}

ArrowErrorCode CliWriteFile(const char* path, const struct ArrowBuffer* data,
                            struct ArrowError* error) {
  int is_stdout = strcmp(path, "-") == 0;
  FILE* file = is_stdout ? stdout : fopen(path, "wb");
  int failed;
  if (file == NULL) {
    ArrowErrorSet(error, "cannot open '%s' for writing: %s", path, strerror(errno));
    return EIO;
  }
  errno = 0;
  failed = data->size_bytes > 0 &&
           fwrite(data->data, 1, (size_t)data->size_bytes, file) != (size_t)data->size_bytes;
  if (is_stdout) {
    failed |= fflush(file) != 0;
  } else {
    failed |= fclose(file) != 0;
  }
  if (failed) {
    int code = errno != 0 ? errno : EIO;
    if (is_stdout) {
      ArrowErrorSet(error, "cannot write to standard output: %s", strerror(code));
    } else {
      ArrowErrorSet(error, "cannot write '%s': %s", path, strerror(code));
    }
    return code;
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliValidateStream(struct ArrowArrayStream* in, int64_t* n_batches,
                                 int64_t* n_rows, struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  ArrowErrorCode rc;
  *n_batches = 0;
  *n_rows = 0;
  rc = in->get_schema(in, &schema);
  if (rc != NANOARROW_OK) {
    const char* message = in->get_last_error(in);
    ArrowErrorSet(error, "schema: %s", message != NULL ? message : strerror(rc));
    return rc;
  }
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  rc = ArrowArrayViewInitFromSchema(&view, &schema, error);
  while (rc == NANOARROW_OK) {
    struct ArrowArray array;
    rc = CliNext(in, &array, *n_batches, error);
    if (rc != NANOARROW_OK || array.release == NULL) break;
    /* Readers validate already; this also covers streams that do not. */
    rc = ArrowArrayViewSetArray(&view, &array, error);
    if (rc == NANOARROW_OK) {
      rc = ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, error);
    }
    if (rc == NANOARROW_OK) rc = CliValidateUtf8(&schema, &view, error);
    if (rc != NANOARROW_OK && error != NULL) {
      char message[sizeof(error->message)];
      memcpy(message, error->message, sizeof(message));
      message[sizeof(message) - 40] = '\0';
      ArrowErrorSet(error, "batch %" PRId64 ": %s", *n_batches, message);
    }
    *n_rows += array.length;
    ArrowArrayRelease(&array);
    (*n_batches)++;
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  return rc;
}
