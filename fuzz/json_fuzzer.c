/* libFuzzer harness: the integration JSON reader and writer (nanoarrow_testing). The
 * input is a JSON document; its schema, every batch (through the stream and by
 * index) must either fail cleanly or be valid at the FULL level and readable in
 * full. Each batch read by index is written back as JSON, read again and must
 * compare equal (dictionary-encoded schemas excepted: a bare batch cannot carry
 * their values). The input is also offered to the bare field, record batch and
 * column readers, which must fail cleanly on anything but their own shape. */

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "fuzz_util.h"

static int HasDictionary(const struct ArrowSchema* schema) {
  int64_t i;
  if (schema->dictionary != NULL) return 1;
  for (i = 0; i < schema->n_children; i++) {
    if (HasDictionary(schema->children[i])) return 1;
  }
  return 0;
}

/* Writing a valid batch cannot fail, and reading the text back gives equal values. */
static void CheckBatchRoundTrip(const struct ArrowSchema* schema,
                                const struct ArrowArray* array) {
  struct ArrowBuffer text;
  struct ArrowArray back;
  struct ArrowError error;
  int equal = 0;
  if (HasDictionary(schema)) return;
  ArrowErrorInit(&error);
  ArrowBufferInit(&text);
  if (ArrowTestingJsonWriteBatch(schema, array, &text, &error) != NANOARROW_OK ||
      ArrowTestingJsonReadRecordBatch((const char*)text.data, text.size_bytes, schema,
                                      &back, &error) != NANOARROW_OK) {
    fprintf(stderr, "batch round trip failed: %s\n", error.message);
    abort();
  }
  FUZZ_CHECK(ArrowTestingCompareArray(schema, &back, array, &equal, &error) ==
             NANOARROW_OK);
  if (!equal) {
    fprintf(stderr, "batch round trip differs: %s\n", error.message);
    abort();
  }
  ArrowArrayRelease(&back);
  ArrowBufferReset(&text);
}

/* The bare readers on the whole input, with the document's schema where they need
 * one: a clean failure or a valid result. */
static void CheckBareReaders(const char* json, int64_t size,
                             const struct ArrowSchema* schema) {
  struct ArrowSchema field;
  struct ArrowArray array;
  struct ArrowError error;
  ArrowErrorInit(&error);
  if (ArrowTestingJsonReadField(json, size, &field, &error) == NANOARROW_OK) {
    FuzzTouchSchema(&field, 0);
    ArrowSchemaRelease(&field);
  }
  if (ArrowTestingJsonReadRecordBatch(json, size, schema, &array, &error) ==
      NANOARROW_OK) {
    FuzzCheckBatch(schema, &array);
    ArrowArrayRelease(&array);
  }
  if (schema->n_children > 0 &&
      ArrowTestingJsonReadColumn(json, size, schema->children[0], &array, &error) ==
          NANOARROW_OK) {
    FuzzCheckBatch(schema->children[0], &array);
    ArrowArrayRelease(&array);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* json = (const char*)data;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int64_t i;
  ArrowErrorInit(&error);

  if (ArrowTestingJsonReadSchema(json, (int64_t)size, &schema, &error) != NANOARROW_OK) {
    return 0;
  }
  FuzzTouchSchema(&schema, 0);

  if (ArrowTestingJsonReadStream(json, (int64_t)size, &stream, &error) == NANOARROW_OK) {
    struct ArrowSchema stream_schema;
    if (ArrowArrayStreamGetSchema(&stream, &stream_schema, &error) == NANOARROW_OK) {
      for (i = 0; i < 100000; i++) {
        if (ArrowArrayStreamGetNext(&stream, &array, &error) != NANOARROW_OK) break;
        if (array.release == NULL) break;
        FuzzCheckBatch(&stream_schema, &array);
        ArrowArrayRelease(&array);
      }
      ArrowSchemaRelease(&stream_schema);
    }
    ArrowArrayStreamRelease(&stream);
  }

  /* Random access by index, including past the end (ERANGE). */
  for (i = 0; i < 4; i++) {
    if (ArrowTestingJsonReadBatch(json, (int64_t)size, i, &array, &error) != NANOARROW_OK) {
      break;
    }
    FuzzCheckBatch(&schema, &array);
    CheckBatchRoundTrip(&schema, &array);
    ArrowArrayRelease(&array);
  }
  CheckBareReaders(json, (int64_t)size, &schema);
  ArrowSchemaRelease(&schema);
  return 0;
}
