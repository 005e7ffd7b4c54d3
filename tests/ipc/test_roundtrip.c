/* Acceptance round trip: every arrow-testing integration stream is read with this
 * library's reader, written back with its writer (stream and file format, each
 * uncompressed, LZ4 and ZSTD) and read again; schemas and every batch (dictionaries
 * included, through ArrowArrayViewCompare at the EQUAL level) must hold the same
 * values as the original. */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"
#if defined(NANOARROW_TEST_HAVE_TESTING)
#include "nanoarrow/nanoarrow_testing.h"
#endif

/* The decoded content of one IPC stream or file. */
struct RtContent {
  struct ArrowSchema schema;
  struct ArrowArray* batches;
  int64_t n_batches;
};

static void RtContentInit(struct RtContent* content) {
  content->schema.release = NULL;
  content->batches = NULL;
  content->n_batches = 0;
}

static void RtContentReset(struct RtContent* content) {
  int64_t i;
  for (i = 0; i < content->n_batches; i++) ArrowArrayRelease(&content->batches[i]);
  free(content->batches);
  if (content->schema.release != NULL) ArrowSchemaRelease(&content->schema);
  RtContentInit(content);
}

static int RtReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  if (file == NULL) return EIO;
  if (fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) < 0 ||
      fseek(file, 0, SEEK_SET) != 0 || ArrowBufferReserve(out, size + 1) != NANOARROW_OK ||
      fread(out->data, 1, (size_t)size, file) != (size_t)size) {
    fclose(file);
    ArrowBufferReset(out);
    return EIO;
  }
  out->size_bytes = size;
  fclose(file);
  return NANOARROW_OK;
}

static int RtAppendBatch(struct RtContent* content, struct ArrowArray* batch) {
  struct ArrowArray* grown = (struct ArrowArray*)realloc(
      content->batches, (size_t)(content->n_batches + 1) * sizeof(struct ArrowArray));
  if (grown == NULL) return ENOMEM;
  content->batches = grown;
  ArrowArrayMove(batch, &content->batches[content->n_batches++]);
  return NANOARROW_OK;
}

/* Drains an array stream into content (the stream is released). */
static int RtDrain(struct ArrowArrayStream* stream, struct RtContent* content,
                   char* message, size_t message_size) {
  struct ArrowArray batch;
  int rc = stream->get_schema(stream, &content->schema);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "get_schema: %s", stream->get_last_error(stream));
  }
  while (rc == NANOARROW_OK) {
    rc = stream->get_next(stream, &batch);
    if (rc != NANOARROW_OK) {
      snprintf(message, message_size, "get_next (batch %" PRId64 "): %s",
               content->n_batches, stream->get_last_error(stream));
      break;
    }
    if (batch.release == NULL) break;
    rc = RtAppendBatch(content, &batch);
    if (rc != NANOARROW_OK) {
      ArrowArrayRelease(&batch);
      snprintf(message, message_size, "out of memory");
    }
  }
  ArrowArrayStreamRelease(stream);
  return rc;
}

/* Reads an IPC stream (or, detected by its magic, a file) from bytes (taken). */
static int RtReadStream(struct ArrowBuffer* bytes, struct RtContent* content,
                        char* message, size_t message_size) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  int rc = ArrowIpcInputStreamInitBuffer(&input, bytes);
  if (rc == NANOARROW_OK) rc = ArrowIpcArrayStreamReaderInit(&stream, &input, NULL);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "reader init failed (%d)", rc);
    return rc;
  }
  return RtDrain(&stream, content, message, message_size);
}

/* Reads an IPC file through its footer (random access), batch by batch. */
static int RtReadFile(struct ArrowBuffer* bytes, struct RtContent* content, char* message,
                      size_t message_size) {
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  struct ArrowArray batch;
  int64_t n;
  int64_t i;
  int rc = ArrowIpcFileReaderInitBuffer(&reader, bytes, &error);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "file reader: %s", error.message);
    return rc;
  }
  rc = ArrowIpcFileReaderGetSchema(&reader, &content->schema, &error);
  n = ArrowIpcFileReaderNumRecordBatches(&reader);
  for (i = 0; i < n && rc == NANOARROW_OK; i++) {
    rc = ArrowIpcFileReaderReadBatch(&reader, i, &batch, NANOARROW_VALIDATION_LEVEL_FULL,
                                     &error);
    if (rc == NANOARROW_OK) rc = RtAppendBatch(content, &batch);
  }
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "file reader (batch %" PRId64 "): %s", i - 1,
             error.message);
  }
  ArrowIpcFileReaderReset(&reader);
  return rc;
}

static int RtWrite(const struct RtContent* content, int file_format,
                   enum ArrowIpcCompressionType codec, struct ArrowBuffer* out,
                   char* message, size_t message_size) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  int rc;

  error.message[0] = '\0';
  ArrowBufferInit(out);
  if (ArrowIpcOutputStreamInitBuffer(&output, out) != NANOARROW_OK ||
      ArrowIpcWriterInit(&writer, &output) != NANOARROW_OK) {
    snprintf(message, message_size, "writer init failed");
    return EINVAL;
  }
  rc = ArrowIpcWriterSetCompression(&writer, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                    &error);
  if (rc == NANOARROW_OK && file_format) rc = ArrowIpcWriterStartFile(&writer, &error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteSchema(&writer, &content->schema, &error);
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayViewInitFromSchema(&view, &content->schema, &error);
    for (i = 0; i < content->n_batches && rc == NANOARROW_OK; i++) {
      rc = ArrowArrayViewSetArray(&view, &content->batches[i], &error);
      if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteArrayView(&writer, &view, &error);
      if (rc != NANOARROW_OK) {
        snprintf(message, message_size, "write batch %" PRId64 ": %s", i, error.message);
      }
    }
    ArrowArrayViewReset(&view);
    if (rc == NANOARROW_OK) {
      rc = file_format ? ArrowIpcWriterFinalizeFile(&writer, &error)
                       : ArrowIpcWriterWriteArrayView(&writer, NULL, &error);
    }
  }
  if (rc != NANOARROW_OK && message[0] == '\0') {
    snprintf(message, message_size, "write: %s", error.message);
  }
  ArrowIpcWriterReset(&writer);
  return rc;
}

/* Compares schemas recursively: format, name, flags, metadata bytes, children
 * and dictionaries. */
static int RtCompareSchema(const struct ArrowSchema* actual,
                           const struct ArrowSchema* expected, const char* path,
                           char* message, size_t message_size) {
  char child_path[512];
  int64_t metadata_size;
  int64_t i;
  if (strcmp(actual->format, expected->format) != 0) {
    snprintf(message, message_size, "schema %s: format '%s' != '%s'", path,
             actual->format, expected->format);
    return 0;
  }
  if ((actual->name == NULL) != (expected->name == NULL) ||
      (actual->name != NULL && strcmp(actual->name, expected->name) != 0)) {
    snprintf(message, message_size, "schema %s: name '%s' != '%s'", path,
             actual->name ? actual->name : "(null)",
             expected->name ? expected->name : "(null)");
    return 0;
  }
  if (actual->flags != expected->flags) {
    snprintf(message, message_size, "schema %s: flags %" PRId64 " != %" PRId64, path,
             actual->flags, expected->flags);
    return 0;
  }
  metadata_size = ArrowMetadataSizeOf(expected->metadata);
  if (ArrowMetadataSizeOf(actual->metadata) != metadata_size ||
      (metadata_size > 0 &&
       memcmp(actual->metadata, expected->metadata, (size_t)metadata_size) != 0)) {
    snprintf(message, message_size, "schema %s: metadata differs", path);
    return 0;
  }
  if (actual->n_children != expected->n_children) {
    snprintf(message, message_size, "schema %s: %" PRId64 " children != %" PRId64, path,
             actual->n_children, expected->n_children);
    return 0;
  }
  for (i = 0; i < expected->n_children; i++) {
    snprintf(child_path, sizeof(child_path), "%s.children[%" PRId64 "]", path, i);
    if (!RtCompareSchema(actual->children[i], expected->children[i], child_path, message,
                         message_size)) {
      return 0;
    }
  }
  if ((actual->dictionary == NULL) != (expected->dictionary == NULL)) {
    snprintf(message, message_size, "schema %s: dictionary presence differs", path);
    return 0;
  }
  if (expected->dictionary != NULL) {
    snprintf(child_path, sizeof(child_path), "%s.dictionary", path);
    return RtCompareSchema(actual->dictionary, expected->dictionary, child_path, message,
                           message_size);
  }
  return 1;
}

/* Values, element by element (the testing library's comparison); without that
 * library only that the batch read back is valid at FULL level. */
static ArrowErrorCode RtCompareBatch(const struct ArrowSchema* schema,
                                     const struct ArrowArray* actual,
                                     const struct ArrowArray* expected, int* equal,
                                     struct ArrowError* error) {
#if defined(NANOARROW_TEST_HAVE_TESTING)
  return ArrowTestingCompareArray(schema, actual, expected, equal, error);
#else
  struct ArrowArrayView view;
  ArrowErrorCode rc;
  (void)expected;
  *equal = 0;
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(&view, schema, error));
  rc = ArrowArrayViewSetArray(&view, actual, error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, error);
  ArrowArrayViewReset(&view);
  *equal = rc == NANOARROW_OK;
  return rc;
#endif
}

static int RtCompareContent(const struct RtContent* actual,
                            const struct RtContent* expected, char* message,
                            size_t message_size) {
  struct ArrowError error;
  int64_t i;
  int equal = 1;

  if (!RtCompareSchema(&actual->schema, &expected->schema, "root", message,
                       message_size)) {
    return 0;
  }
  if (actual->n_batches != expected->n_batches) {
    snprintf(message, message_size, "%" PRId64 " batches read back, %" PRId64 " written",
             actual->n_batches, expected->n_batches);
    return 0;
  }
  for (i = 0; i < expected->n_batches && equal; i++) {
    if (RtCompareBatch(&expected->schema, &actual->batches[i], &expected->batches[i], &equal,
                       &error) != NANOARROW_OK) {
      equal = 0;
    }
    if (!equal) {
      snprintf(message, message_size, "batch %" PRId64 ": %s", i, error.message);
    }
  }
  return equal;
}

struct RtVariant {
  const char* name;
  int file_format;
  enum ArrowIpcCompressionType codec;
};

static const struct RtVariant kRtVariants[] = {
    {"stream", 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE},
    {"stream+lz4", 0, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME},
    {"stream+zstd", 0, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD},
    {"file", 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE},
    {"file+lz4", 1, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME},
    {"file+zstd", 1, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD},
};
#define RT_N_VARIANTS ((int)(sizeof(kRtVariants) / sizeof(kRtVariants[0])))

/* Whether this build of the library compresses with codec (the codecs are optional:
 * a build without one skips its variants and the compressed originals). */
static int RtCodecBuilt(enum ArrowIpcCompressionType codec) {
  struct ArrowIpcEncoder encoder;
  int built;
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  built = ArrowIpcEncoderSetCompression(&encoder, codec,
                                        NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                        NULL) != ENOTSUP;
  ArrowIpcEncoderReset(&encoder);
  return built;
}

/* Writes original in one variant and reads it back; 1 when identical. */
static int RtCheckVariant(const struct RtContent* original, const struct RtVariant* variant,
                          char* message, size_t message_size) {
  struct ArrowBuffer written;
  struct RtContent read_back;
  int equal = 0;
  int rc;
  message[0] = '\0';
  rc = RtWrite(original, variant->file_format, variant->codec, &written, message,
               message_size);
  if (rc != NANOARROW_OK) {
    ArrowBufferReset(&written);
    return 0;
  }
  RtContentInit(&read_back);
  /* The file variant is read through its footer, so its blocks are checked too. */
  rc = variant->file_format ? RtReadFile(&written, &read_back, message, message_size)
                            : RtReadStream(&written, &read_back, message, message_size);
  ArrowBufferReset(&written);
  if (rc == NANOARROW_OK) {
    equal = RtCompareContent(&read_back, original, message, message_size);
  }
  RtContentReset(&read_back);
  return equal;
}

static int RtEndsWith(const char* name, const char* suffix) {
  size_t n = strlen(name);
  size_t m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

static const char* kRtDirs[] = {"0.14.1",           "0.17.1",
                                "1.0.0-bigendian",  "1.0.0-littleendian",
                                "2.0.0-compression", "4.0.0-shareddict",
                                "cpp-21.0.0"};

Test(ipc_roundtrip, every_integration_case_every_variant) {
  char dir_path[1024];
  char path[2048];
  char message[2048];
  int n_cases = 0;
  int n_passed = 0;
  int n_failed = 0;
  int n_skipped = 0;
  int lz4 = RtCodecBuilt(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
  int zstd = RtCodecBuilt(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  size_t d;
  int v;

  for (d = 0; d < sizeof(kRtDirs) / sizeof(kRtDirs[0]); d++) {
    DIR* dir;
    struct dirent* entry;
    snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
             NANOARROW_TEST_DATA_DIR, kRtDirs[d]);
    dir = opendir(dir_path);
    cr_assert_not_null(dir, "missing %s", dir_path);
    while ((entry = readdir(dir)) != NULL) {
      struct ArrowBuffer bytes;
      struct RtContent original;
      if (!RtEndsWith(entry->d_name, ".stream")) continue;
      snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
      n_cases++;
      if (strcmp(kRtDirs[d], "2.0.0-compression") == 0 && !(lz4 && zstd)) {
        n_skipped += RT_N_VARIANTS;
        continue;
      }
      RtContentInit(&original);
      cr_assert_eq(RtReadWholeFile(path, &bytes), NANOARROW_OK, "cannot read %s", path);
      if (RtReadStream(&bytes, &original, message, sizeof(message)) != NANOARROW_OK) {
        cr_expect_fail("%s/%s: reading the original: %s", kRtDirs[d], entry->d_name,
                       message);
        n_failed += RT_N_VARIANTS;
        RtContentReset(&original);
        continue;
      }
      for (v = 0; v < RT_N_VARIANTS; v++) {
        if ((kRtVariants[v].codec == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME && !lz4) ||
            (kRtVariants[v].codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD && !zstd)) {
          n_skipped++;
          continue;
        }
        if (RtCheckVariant(&original, &kRtVariants[v], message, sizeof(message))) {
          n_passed++;
        } else {
          n_failed++;
          cr_expect_fail("%s/%s [%s]: %s", kRtDirs[d], entry->d_name, kRtVariants[v].name,
                         message);
        }
      }
      RtContentReset(&original);
    }
    closedir(dir);
  }

  printf("ipc round trip: %d cases x %d variants: %d passed, %d failed, %d skipped "
         "(codecs built: lz4 %d, zstd %d)\n",
         n_cases, RT_N_VARIANTS, n_passed, n_failed, n_skipped, lz4, zstd);
  fflush(stdout);
  cr_assert_geq(n_cases, 90);
  cr_assert(n_skipped == 0 || !(lz4 && zstd), "nothing is skipped when both codecs are built");
  cr_assert_eq(n_failed, 0, "%d of %d round trips failed", n_failed,
               n_cases * RT_N_VARIANTS);
}
