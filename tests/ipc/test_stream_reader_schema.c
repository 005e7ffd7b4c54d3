/* The stream reader's get_schema, called more than once: over a seekable file the
 * reader does not hold the Schema message's bytes (the chunk they were read into is
 * reused for the batches), so later calls read the message again from the file. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static const char* const kStreams[] = {
    "1.0.0-littleendian/generated_primitive.stream",
    "1.0.0-littleendian/generated_nested.stream",
    "1.0.0-littleendian/generated_dictionary.stream",
    "1.0.0-littleendian/generated_custom_metadata.stream",
    "1.0.0-littleendian/generated_union.stream",
};

/* The whole file at path (fails the test when it cannot be read). */
static void ReadWhole(const char* path, struct ArrowBuffer* out) {
  char chunk[4096];
  size_t n;
  FILE* file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  ArrowBufferInit(out);
  while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    cr_assert_eq(ArrowBufferAppend(out, chunk, (int64_t)n), NANOARROW_OK);
  }
  fclose(file);
}

/* A temporary file holding prefix_size bytes of junk and then bytes, positioned
 * right after the junk. */
static FILE* TempFileAfterJunk(const struct ArrowBuffer* bytes, size_t prefix_size) {
  FILE* file = tmpfile();
  size_t i;
  cr_assert_not_null(file);
  for (i = 0; i < prefix_size; i++) fputc('#', file);
  cr_assert_eq(fwrite(bytes->data, 1, (size_t)bytes->size_bytes, file),
               (size_t)bytes->size_bytes);
  cr_assert_eq(fseek(file, (long)prefix_size, SEEK_SET), 0);
  return file;
}

/* The first occurrence of text in bytes, or NULL. */
static const uint8_t* FindBytes(const struct ArrowBuffer* bytes, const char* text) {
  size_t n = strlen(text);
  int64_t i;
  for (i = 0; i + (int64_t)n <= bytes->size_bytes; i++) {
    if (memcmp(bytes->data + i, text, n) == 0) return bytes->data + i;
  }
  return NULL;
}

static void ExpectSameSchema(const struct ArrowSchema* actual,
                             const struct ArrowSchema* expected, const char* what) {
  struct ArrowError reason;
  int equal = 0;
  reason.message[0] = '\0';
  cr_assert_eq(ArrowSchemaCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &equal,
                                  &reason),
               NANOARROW_OK);
  cr_assert(equal, "%s: %s", what, reason.message);
}

/* get_schema before, between and after the batches gives the same schema, whether
 * the file starts at offset 0 or further in, with and without shared buffers. */
Test(stream_reader_schema, get_schema_again_over_a_file) {
  size_t k;
  for (k = 0; k < sizeof(kStreams) / sizeof(kStreams[0]); k++) {
    static const size_t kPrefixes[] = {0, 13};
    char path[1024];
    struct ArrowBuffer bytes;
    size_t p;
    int shared;
    snprintf(path, sizeof(path), "%s/arrow-ipc-stream/integration/%s",
             NANOARROW_TEST_DATA_DIR, kStreams[k]);
    ReadWhole(path, &bytes);
    for (p = 0; p < 2; p++) {
      for (shared = 0; shared < 2; shared++) {
        struct ArrowIpcArrayStreamReaderOptions options;
        struct ArrowIpcInputStream input;
        struct ArrowArrayStream stream;
        struct ArrowSchema first;
        struct ArrowSchema again;
        struct ArrowArray array;
        int64_t n_batches = 0;
        options.field_index = -1;
        options.use_shared_buffers = shared;
        cr_assert_eq(
            ArrowIpcInputStreamInitFile(&input, TempFileAfterJunk(&bytes, kPrefixes[p]), 1),
            NANOARROW_OK);
        cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
        cr_assert_eq(stream.get_schema(&stream, &first), NANOARROW_OK, "%s: %s", kStreams[k],
                     stream.get_last_error(&stream));
        for (;;) {
          cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK, "%s: %s",
                       kStreams[k], stream.get_last_error(&stream));
          if (array.release == NULL) break;
          ArrowArrayRelease(&array);
          n_batches++;
          cr_assert_eq(stream.get_schema(&stream, &again), NANOARROW_OK, "%s: %s",
                       kStreams[k], stream.get_last_error(&stream));
          ExpectSameSchema(&again, &first, kStreams[k]);
          ArrowSchemaRelease(&again);
        }
        cr_assert_gt(n_batches, 0, "%s", kStreams[k]);
        cr_assert_eq(stream.get_schema(&stream, &again), NANOARROW_OK, "%s: %s",
                     kStreams[k], stream.get_last_error(&stream));
        ExpectSameSchema(&again, &first, kStreams[k]);
        ArrowSchemaRelease(&again);
        ArrowSchemaRelease(&first);
        ArrowArrayStreamRelease(&stream);
      }
    }
    ArrowBufferReset(&bytes);
  }
}

/* A Schema message rewritten in the file after it was read is refused by a later
 * get_schema (the reader keeps decoding batches with the schema it read first). */
Test(stream_reader_schema, changed_schema_message_is_refused) {
  char path[1024];
  struct ArrowBuffer bytes;
  struct ArrowIpcArrayStreamReaderOptions options;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema first;
  struct ArrowSchema again;
  struct ArrowArray array;
  FILE* file;
  long position;
  const char* name;
  const uint8_t* found;
  snprintf(path, sizeof(path), "%s/arrow-ipc-stream/integration/%s",
           NANOARROW_TEST_DATA_DIR, kStreams[0]);
  ReadWhole(path, &bytes);
  file = TempFileAfterJunk(&bytes, 0);
  options.field_index = -1;
  options.use_shared_buffers = 1;
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &first), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  cr_assert_not_null(array.release);
  ArrowArrayRelease(&array);

  /* Change one letter of the first column's name in the file. */
  name = first.children[0]->name;
  cr_assert_not_null(name);
  found = FindBytes(&bytes, name);
  cr_assert_not_null(found);
  position = ftell(file);
  cr_assert_eq(fseek(file, (long)(found - bytes.data), SEEK_SET), 0);
  fputc(name[0] == 'x' ? 'y' : 'x', file);
  cr_assert_eq(fflush(file), 0);
  cr_assert_eq(fseek(file, position, SEEK_SET), 0);

  cr_assert_eq(stream.get_schema(&stream, &again), EIO);
  cr_assert(strstr(stream.get_last_error(&stream), "changed") != NULL, "%s",
            stream.get_last_error(&stream));
  /* The batches still decode with the schema read first. */
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  if (array.release != NULL) {
    cr_assert_eq(array.n_children, first.n_children);
    ArrowArrayRelease(&array);
  }
  ArrowSchemaRelease(&first);
  ArrowArrayStreamRelease(&stream);
  ArrowBufferReset(&bytes);
}
