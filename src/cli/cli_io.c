/* Input detection, opening and writing for the CLI and the archery drivers. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"

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
  if (data->size_bytes >= 6 && memcmp(data->data, "ARROW1", 6) == 0) return CLI_FORMAT_FILE;
  for (i = 0; i < data->size_bytes; i++) {
    uint8_t c = data->data[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '{') return CLI_FORMAT_JSON;
    break;
  }
  return CLI_FORMAT_STREAM;
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

ArrowErrorCode CliOpenBuffer(struct ArrowBuffer* data, enum CliFormat format,
                             struct ArrowArrayStream* out, enum CliFormat* detected_out,
                             struct ArrowError* error) {
  enum CliFormat detected = CliDetectFormat(data);
  ArrowErrorCode rc;

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
      rc = ArrowIpcFileReaderArrayStream(&reader, out, NANOARROW_VALIDATION_LEVEL_FULL, error);
      if (rc != NANOARROW_OK) {
        ArrowIpcFileReaderReset(&reader);
        return rc;
      }
      return CliCheckSchema(out, error);
    }
    default: {
      struct ArrowIpcInputStream input;
      rc = ArrowIpcInputStreamInitBuffer(&input, data);
      if (rc != NANOARROW_OK) {
        ArrowErrorSet(error, "cannot create an input stream");
        ArrowBufferReset(data);
        return rc;
      }
      /* Default options: whole batches, FULL validation. */
      rc = ArrowIpcArrayStreamReaderInit(out, &input, NULL);
      if (rc != NANOARROW_OK) {
        if (input.release != NULL) input.release(&input);
        ArrowErrorSet(error, "cannot create an IPC stream reader (%s)", strerror(rc));
        return rc;
      }
      return CliCheckSchema(out, error);
    }
  }
}

ArrowErrorCode CliOpenInput(const char* path, enum CliFormat format,
                            struct ArrowArrayStream* out, enum CliFormat* detected_out,
                            struct ArrowError* error) {
  struct ArrowBuffer data;
  NANOARROW_RETURN_NOT_OK(ArrowTestingReadFile(path, CLI_MAX_INPUT_BYTES, &data, error));
  return CliOpenBuffer(&data, format, out, detected_out, error);
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

static ArrowErrorCode CliWriteIpc(struct ArrowArrayStream* in, int is_file,
                                  enum ArrowIpcCompressionType compression,
                                  struct ArrowBuffer* out, CliProgressFunction progress,
                                  void* progress_data, struct ArrowError* error) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  int64_t n_batches = 0;
  int64_t n_rows = 0;
  ArrowErrorCode rc;

  NANOARROW_RETURN_NOT_OK(ArrowIpcOutputStreamInitBuffer(&output, out));
  rc = ArrowIpcWriterInit(&writer, &output);
  if (rc != NANOARROW_OK) {
    output.release(&output);
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
    rc = ArrowIpcWriterSetCompression(&writer, compression, error);
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
                              struct ArrowBuffer* out, CliProgressFunction progress,
                              void* progress_data, struct ArrowError* error) {
  switch (format) {
    case CLI_FORMAT_JSON:
      return ArrowTestingJsonWriteStream(in, out, error);
    case CLI_FORMAT_STREAM:
    case CLI_FORMAT_FILE:
      return CliWriteIpc(in, format == CLI_FORMAT_FILE, compression, out, progress,
                         progress_data, error);
    default:
      ArrowErrorSet(error, "unknown output format");
      return EINVAL;
  }
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
  failed = data->size_bytes > 0 &&
           fwrite(data->data, 1, (size_t)data->size_bytes, file) != (size_t)data->size_bytes;
  if (is_stdout) {
    failed |= fflush(file) != 0;
  } else {
    failed |= fclose(file) != 0;
  }
  if (failed) {
    ArrowErrorSet(error, "cannot write '%s': %s", path, strerror(errno));
    return EIO;
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
