/* Internals shared by the `nanoarrow` command-line tool, the archery drivers
 * (nanoarrow_ipc_integration) and their tests: reading any supported input into an
 * ArrowArrayStream and writing a stream as IPC stream, IPC file or integration
 * JSON. Not installed; not part of the public API. */

#ifndef NANOARROW_CLI_H_INCLUDED
#define NANOARROW_CLI_H_INCLUDED

#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum CliFormat {
  CLI_FORMAT_UNKNOWN = 0,
  CLI_FORMAT_STREAM,
  CLI_FORMAT_FILE,
  CLI_FORMAT_JSON
};

/* Inputs larger than this (after gzip decompression) are refused. */
#define CLI_MAX_INPUT_BYTES ((int64_t)1 << 34)

/* "stream", "file", "json" (NULL for UNKNOWN). */
const char* CliFormatName(enum CliFormat format);
/* Parses a format name; CLI_FORMAT_UNKNOWN when it is not one. */
enum CliFormat CliFormatFromName(const char* name);

/* What data holds: the IPC file magic, JSON (first non-blank byte '{'), an IPC
 * stream (a continuation marker 0xFFFFFFFF, or a pre-1.0 int32 length that fits
 * in data); otherwise CLI_FORMAT_UNKNOWN. */
enum CliFormat CliDetectFormat(const struct ArrowBuffer* data);

/* The message of an input that is none of them. */
#define CLI_NOT_ARROW_MESSAGE "not an Arrow IPC stream or file, nor integration JSON"


/* Reads path ("-": stdin; gzip decompressed transparently) and opens it as a
 * stream of record batches, in the given format or, for UNKNOWN, the detected one
 * (detected_out may be NULL). Batches are FULL-validated. */
ArrowErrorCode CliOpenInput(const char* path, enum CliFormat format,
                            struct ArrowArrayStream* out, enum CliFormat* detected_out,
                            struct ArrowError* error);
/* Opens path (data NULL: read it, through a memory map when it is an IPC file;
 * otherwise the bytes of path already in memory, moved from) with only the
 * top-level columns named in columns ("a,b", in that order; NULL: all). An IPC
 * stream or file is read with a projection, so the other columns are never
 * decoded, validated, decompressed or copied (nor, for a mapped or FILE* file,
 * read); integration JSON is read whole and the columns picked afterwards. An
 * unknown or repeated name is an error that lists the columns. */
ArrowErrorCode CliOpenSelect(const char* path, struct ArrowBuffer* data,
                             const char* columns, struct ArrowArrayStream* out,
                             enum CliFormat* detected_out, struct ArrowError* error);
/* Same from bytes already in memory (data is moved from). */
ArrowErrorCode CliOpenBuffer(struct ArrowBuffer* data, enum CliFormat format,
                             struct ArrowArrayStream* out, enum CliFormat* detected_out,
                             struct ArrowError* error);

/* Threads that decompress (readers) and compress (writers) the bodies of the IPC
 * inputs and outputs opened from now on (1, the default: none; see
 * ArrowIpcDecoderSetNumThreads). */
void CliSetNumThreads(int n_threads);
int CliGetNumThreads(void);

/* ---- Inputs read as they arrive (cli_push_input.c) ----
 * Standard input ("-") or a path that is a pipe, FIFO, socket or character device
 * (not a regular file): 1, else 0. Such an input that starts as an IPC stream (a
 * continuation marker) is read with read(2) in whatever pieces arrive and pushed
 * into an ArrowIpcPushDecoder, each batch handed on as soon as it is complete; any
 * other input is read whole (gunzipped), as a file is. */
int CliInputIsStreamed(const char* path);

/* Called before a read of such an input that would wait (nothing has arrived):
 * the place to write out the output so far. A non-zero errno fails the read. */
typedef int (*CliInputWaitFunction)(void* private_data);
void CliSetInputWait(CliInputWaitFunction wait, void* private_data);

/* Opens the streamed input at path in format (UNKNOWN: detected). An IPC stream
 * (in format UNKNOWN or STREAM) is opened in out (*opened = 1), projected to
 * names[0, n_names) when columns ("a,b", their text) is not NULL, with its schema
 * read; otherwise *opened = 0 and data holds the whole input (gunzipped) for
 * the buffer readers. */
ArrowErrorCode CliOpenStreamed(const char* path, enum CliFormat format, const char* columns,
                               const char* const* names, int64_t n_names,
                               struct ArrowArrayStream* out, struct ArrowBuffer* data,
                               int* opened, enum CliFormat* detected_out,
                               struct ArrowError* error);

/* The IPC stream in data (moved from) read by the same push decoder, so that a
 * stream reads alike from a file and from a pipe (batches point into data). */
ArrowErrorCode CliOpenPushBuffer(struct ArrowBuffer* data, const char* columns,
                                 const char* const* names, int64_t n_names,
                                 struct ArrowArrayStream* out, struct ArrowError* error);

/* For an IPC stream opened by CliOpenStreamed or CliOpenPushBuffer (and so by
 * CliOpenInput / CliOpenSelect), once it was read to its
 * end: 1 when it ended with its end-of-stream marker, 0 when without one. -1 for
 * any other stream or before the end. */
int CliStreamEndMarker(struct ArrowArrayStream* stream);

/* Called after each batch written (may be NULL). */
typedef void (*CliProgressFunction)(void* private_data, int64_t n_batches, int64_t n_rows);

/* Writes every batch of in as format to out (an initialized ArrowBuffer).
 * compression applies to IPC formats only. */
ArrowErrorCode CliWriteStream(struct ArrowArrayStream* in, enum CliFormat format,
                              enum ArrowIpcCompressionType compression,
                              int compression_level,
                              struct ArrowBuffer* out, CliProgressFunction progress,
                              void* progress_data, struct ArrowError* error);

/* Writes every batch of in as format to file, as it goes (JSON in chunks of
 * NANOARROW_TESTING_JSON_FLUSH_BYTES); a write error fails with its reason. */
ArrowErrorCode CliWriteStreamToFile(struct ArrowArrayStream* in, enum CliFormat format,
                                    enum ArrowIpcCompressionType compression, int compression_level, FILE* file,
                                    CliProgressFunction progress, void* progress_data,
                                    struct ArrowError* error);

/* CliWriteStreamToFile to path, whole or not at all: the output goes to a
 * temporary file beside path (".NAME.XXXXXX") renamed over path on success and
 * removed on failure. A path that exists and is not a regular file (a device, a
 * pipe) is written directly. */
ArrowErrorCode CliWriteStreamToPath(struct ArrowArrayStream* in, enum CliFormat format,
                                    enum ArrowIpcCompressionType compression,
                                    int compression_level,
                                    const char* path, CliProgressFunction progress,
                                    void* progress_data, struct ArrowError* error);

/* Writes all of data to path ("-": stdout). */
ArrowErrorCode CliWriteFile(const char* path, const struct ArrowBuffer* data,
                            struct ArrowError* error);

/* Reads every batch of in, validates it at FULL and checks its text is UTF-8
 * (CliValidateUtf8), and counts them; the first error names the batch. */
ArrowErrorCode CliValidateStream(struct ArrowArrayStream* in, int64_t* n_batches,
                                 int64_t* n_rows, struct ArrowError* error);

/* ---- UTF-8 (cli_utf8.c) ----
 * Checks that every non-null value of the string and string-view arrays in view
 * (children and dictionaries included) is valid UTF-8, as the Arrow format asks of
 * utf8 data; the error names the column path and the index. view must have passed
 * the library's validation. */
ArrowErrorCode CliValidateUtf8(const struct ArrowSchema* schema,
                               const struct ArrowArrayView* view,
                               struct ArrowError* error);

/* The archery modes. Each returns NANOARROW_OK or an error with a message. */
ArrowErrorCode CliIntegrationValidate(const char* arrow_path, const char* json_path,
                                      struct ArrowError* error);
ArrowErrorCode CliIntegrationJsonToArrow(const char* json_path, const char* arrow_path,
                                         struct ArrowError* error);
ArrowErrorCode CliIntegrationArrowToJson(const char* arrow_path, const char* json_path,
                                         struct ArrowError* error);
/* STREAM_TO_FILE / FILE_TO_STREAM: input_path to output_path ("-" for stdio). */
ArrowErrorCode CliIntegrationConvert(const char* input_path, enum CliFormat to,
                                     const char* output_path, struct ArrowError* error);

#ifdef __cplusplus
}
#endif

#endif /* NANOARROW_CLI_H_INCLUDED */
