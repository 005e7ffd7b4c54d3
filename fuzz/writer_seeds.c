/* Writes seed inputs for the IPC harnesses with the library's own writer: one
 * batch-rich table of many column types, as a stream and as a file, plain and (when
 * the codecs are built in) compressed, plus a few edge shapes (no batches, empty
 * batches, a replaced dictionary).
 *
 * usage: fuzz_writer_seeds OUT_DIR */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define CHECK(expr)                                                             \
  do {                                                                          \
    ArrowErrorCode code_ = (expr);                                              \
    if (code_ != NANOARROW_OK) {                                                \
      fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #expr, code_); \
      return code_;                                                             \
    }                                                                           \
  } while (0)

enum { kNumColumns = 11 };

static ArrowErrorCode MakeSchema(struct ArrowSchema* schema) {
  struct ArrowSchema* c;
  ArrowSchemaInit(schema);
  CHECK(ArrowSchemaSetTypeStruct(schema, kNumColumns));
  c = schema->children[0];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_INT32));
  CHECK(ArrowSchemaSetName(c, "int32"));
  c = schema->children[1];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_STRING));
  CHECK(ArrowSchemaSetName(c, "utf8"));
  c = schema->children[2];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_LARGE_BINARY));
  CHECK(ArrowSchemaSetName(c, "large_binary"));
  c = schema->children[3];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_LIST));
  CHECK(ArrowSchemaSetType(c->children[0], NANOARROW_TYPE_INT64));
  CHECK(ArrowSchemaSetName(c, "list"));
  c = schema->children[4];
  CHECK(ArrowSchemaSetTypeFixedSize(c, NANOARROW_TYPE_FIXED_SIZE_LIST, 2));
  CHECK(ArrowSchemaSetType(c->children[0], NANOARROW_TYPE_DOUBLE));
  CHECK(ArrowSchemaSetName(c, "fixed_size_list"));
  c = schema->children[5];
  CHECK(ArrowSchemaSetTypeUnion(c, NANOARROW_TYPE_DENSE_UNION, 2));
  CHECK(ArrowSchemaSetType(c->children[0], NANOARROW_TYPE_INT16));
  CHECK(ArrowSchemaSetType(c->children[1], NANOARROW_TYPE_STRING));
  CHECK(ArrowSchemaSetName(c->children[0], "a"));
  CHECK(ArrowSchemaSetName(c->children[1], "b"));
  CHECK(ArrowSchemaSetName(c, "dense_union"));
  c = schema->children[6];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_INT8));
  CHECK(ArrowSchemaAllocateDictionary(c));
  ArrowSchemaInit(c->dictionary);
  CHECK(ArrowSchemaSetType(c->dictionary, NANOARROW_TYPE_STRING));
  CHECK(ArrowSchemaSetName(c, "dictionary"));
  c = schema->children[7];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_STRING_VIEW));
  CHECK(ArrowSchemaSetName(c, "string_view"));
  c = schema->children[8];
  CHECK(ArrowSchemaSetTypeDecimal(c, NANOARROW_TYPE_DECIMAL128, 20, 3));
  CHECK(ArrowSchemaSetName(c, "decimal128"));
  c = schema->children[9];
  CHECK(ArrowSchemaSetType(c, NANOARROW_TYPE_MAP));
  CHECK(ArrowSchemaSetType(c->children[0]->children[0], NANOARROW_TYPE_STRING));
  CHECK(ArrowSchemaSetType(c->children[0]->children[1], NANOARROW_TYPE_BOOL));
  CHECK(ArrowSchemaSetName(c, "map"));
  c = schema->children[10];
  CHECK(ArrowSchemaSetTypeDateTime(c, NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MICRO,
                                   "UTC"));
  CHECK(ArrowSchemaSetName(c, "timestamp"));
  return NANOARROW_OK;
}

/* n_rows rows; every fourth row is null where the type allows it. dictionary_size
 * selects how many dictionary values exist (to provoke deltas/replacements). */
static ArrowErrorCode MakeBatch(const struct ArrowSchema* schema, int64_t n_rows,
                                int64_t first, int dictionary_size,
                                struct ArrowArray* out) {
  static const char* kWords[] = {"alpha", "beta", "a string longer than twelve bytes",
                                 "", "delta"};
  struct ArrowError error;
  struct ArrowDecimal decimal;
  int64_t i;
  int k;
  CHECK(ArrowArrayInitFromSchema(out, schema, &error));
  CHECK(ArrowArrayStartAppending(out));
  for (k = 0; k < dictionary_size; k++) {
    CHECK(ArrowArrayAppendString(out->children[6]->dictionary, ArrowCharView(kWords[k % 5])));
  }
  ArrowDecimalInit(&decimal, 128, 20, 3);
  for (i = first; i < first + n_rows; i++) {
    int is_null = i % 4 == 3;
    struct ArrowArray* c;
    struct ArrowStringView word = ArrowCharView(kWords[i % 5]);
    struct ArrowBufferView bytes;
    bytes.data.data = word.data;
    bytes.size_bytes = word.size_bytes;

    if (is_null) {
      CHECK(ArrowArrayAppendNull(out->children[0], 1));
      CHECK(ArrowArrayAppendNull(out->children[1], 1));
      CHECK(ArrowArrayAppendNull(out->children[2], 1));
      CHECK(ArrowArrayAppendNull(out->children[3], 1));
      CHECK(ArrowArrayAppendNull(out->children[4], 1));
      CHECK(ArrowArrayAppendNull(out->children[6], 1));
      CHECK(ArrowArrayAppendNull(out->children[7], 1));
      CHECK(ArrowArrayAppendNull(out->children[8], 1));
      CHECK(ArrowArrayAppendNull(out->children[9], 1));
      CHECK(ArrowArrayAppendNull(out->children[10], 1));
    } else {
      CHECK(ArrowArrayAppendInt(out->children[0], i * 7 - 3));
      CHECK(ArrowArrayAppendString(out->children[1], word));
      CHECK(ArrowArrayAppendBytes(out->children[2], bytes));
      c = out->children[3];
      for (k = 0; k < i % 3; k++) CHECK(ArrowArrayAppendInt(c->children[0], i + k));
      CHECK(ArrowArrayFinishElement(c));
      c = out->children[4];
      CHECK(ArrowArrayAppendDouble(c->children[0], (double)i / 3));
      CHECK(ArrowArrayAppendDouble(c->children[0], -(double)i));
      CHECK(ArrowArrayFinishElement(c));
      CHECK(ArrowArrayAppendInt(out->children[6], dictionary_size > 0 ? i % dictionary_size : 0));
      CHECK(ArrowArrayAppendString(out->children[7], word));
      ArrowDecimalSetInt(&decimal, i * 1000 + 1);
      CHECK(ArrowArrayAppendDecimal(out->children[8], &decimal));
      c = out->children[9];
      for (k = 0; k < i % 2 + 1; k++) {
        CHECK(ArrowArrayAppendString(c->children[0]->children[0], ArrowCharView(kWords[k])));
        CHECK(ArrowArrayAppendInt(c->children[0]->children[1], k % 2));
        CHECK(ArrowArrayFinishElement(c->children[0]));
      }
      CHECK(ArrowArrayFinishElement(c));
      CHECK(ArrowArrayAppendInt(out->children[10], i * 1000000));
    }
    /* Unions have no validity: alternate members instead. */
    c = out->children[5];
    if (i % 2 == 0) {
      CHECK(ArrowArrayAppendInt(c->children[0], i));
      CHECK(ArrowArrayFinishUnionElement(c, 0));
    } else {
      CHECK(ArrowArrayAppendString(c->children[1], word));
      CHECK(ArrowArrayFinishUnionElement(c, 1));
    }
    CHECK(ArrowArrayFinishElement(out));
  }
  if (dictionary_size == 0 && n_rows > 0) {
    /* Indices need a dictionary entry: give the empty case one value. */
    CHECK(ArrowArrayAppendString(out->children[6]->dictionary, ArrowCharView("x")));
  }
  CHECK(ArrowArrayFinishBuildingDefault(out, &error));
  return NANOARROW_OK;
}

struct SeedSpec {
  const char* name;
  int is_file;
  enum ArrowIpcCompressionType codec;
  int64_t n_batches;
  int64_t rows_per_batch;
  int grow_dictionary;
};

static ArrowErrorCode WriteSeed(const char* dir, const struct SeedSpec* spec) {
  char path[1024];
  FILE* file;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowError error;
  int64_t b;
  ArrowErrorCode result = NANOARROW_OK;
  ArrowErrorInit(&error);

  snprintf(path, sizeof(path), "%s/%s.%s", dir, spec->name,
           spec->is_file ? "arrow_file" : "stream");
  file = fopen(path, "wb");
  if (file == NULL) return EIO;
  CHECK(ArrowIpcOutputStreamInitFile(&output, file, 1));
  CHECK(ArrowIpcWriterInit(&writer, &output));
  CHECK(MakeSchema(&schema));
  if (spec->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    result = ArrowIpcWriterSetCompression(&writer, spec->codec,
                                          NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error);
  }
  if (result == NANOARROW_OK && spec->is_file) result = ArrowIpcWriterStartFile(&writer, &error);
  if (result == NANOARROW_OK) result = ArrowIpcWriterWriteSchema(&writer, &schema, &error);
  for (b = 0; result == NANOARROW_OK && b < spec->n_batches; b++) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    int dictionary_size = spec->grow_dictionary ? (int)(b + 1) : 5;
    result = MakeBatch(&schema, spec->rows_per_batch, b * spec->rows_per_batch,
                       dictionary_size, &array);
    if (result != NANOARROW_OK) break;
    result = ArrowArrayViewInitFromSchema(&view, &schema, &error);
    if (result == NANOARROW_OK) result = ArrowArrayViewSetArray(&view, &array, &error);
    if (result == NANOARROW_OK) result = ArrowIpcWriterWriteArrayView(&writer, &view, &error);
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&array);
  }
  if (result == NANOARROW_OK) {
    result = spec->is_file ? ArrowIpcWriterFinalizeFile(&writer, &error)
                           : ArrowIpcWriterWriteArrayView(&writer, NULL, &error);
  }
  ArrowIpcWriterReset(&writer);
  ArrowSchemaRelease(&schema);
  if (result != NANOARROW_OK) {
    fprintf(stderr, "%s: %s\n", path, error.message);
    remove(path);
  }
  return result;
}

/* A stream of one int64 column whose two batches of 16,384 small values compress
 * to a few hundred bytes but decompress to 128 KiB: buffers that large go to the
 * reader's decompression threads when it has some. */
static ArrowErrorCode WriteLongColumnSeed(const char* dir, const char* name,
                                          enum ArrowIpcCompressionType codec) {
  char path[1024];
  FILE* file;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t b;
  int64_t i;
  ArrowErrorCode result;
  ArrowErrorInit(&error);

  snprintf(path, sizeof(path), "%s/%s.stream", dir, name);
  file = fopen(path, "wb");
  if (file == NULL) return EIO;
  CHECK(ArrowIpcOutputStreamInitFile(&output, file, 1));
  CHECK(ArrowIpcWriterInit(&writer, &output));
  ArrowSchemaInit(&schema);
  result = ArrowSchemaSetTypeStruct(&schema, 1);
  if (result == NANOARROW_OK) result = ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT64);
  if (result == NANOARROW_OK) result = ArrowSchemaSetName(schema.children[0], "long");
  if (result == NANOARROW_OK) {
    result = ArrowIpcWriterSetCompression(&writer, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                          &error);
  }
  if (result == NANOARROW_OK) result = ArrowIpcWriterWriteSchema(&writer, &schema, &error);
  for (b = 0; result == NANOARROW_OK && b < 2; b++) {
    result = ArrowArrayInitFromSchema(&array, &schema, &error);
    if (result != NANOARROW_OK) break;
    result = ArrowArrayStartAppending(&array);
    for (i = 0; result == NANOARROW_OK && i < 16384; i++) {
      result = i % 1000 == 7 ? ArrowArrayAppendNull(array.children[0], 1)
                             : ArrowArrayAppendInt(array.children[0], (b * 16384 + i) % 5);
      if (result == NANOARROW_OK) result = ArrowArrayFinishElement(&array);
    }
    if (result == NANOARROW_OK) result = ArrowArrayFinishBuildingDefault(&array, &error);
    if (result == NANOARROW_OK) result = ArrowArrayViewInitFromSchema(&view, &schema, &error);
    if (result == NANOARROW_OK) {
      result = ArrowArrayViewSetArray(&view, &array, &error);
      if (result == NANOARROW_OK) result = ArrowIpcWriterWriteArrayView(&writer, &view, &error);
      ArrowArrayViewReset(&view);
    }
    ArrowArrayRelease(&array);
  }
  if (result == NANOARROW_OK) result = ArrowIpcWriterWriteArrayView(&writer, NULL, &error);
  ArrowIpcWriterReset(&writer);
  ArrowSchemaRelease(&schema);
  if (result != NANOARROW_OK) {
    fprintf(stderr, "%s: %s\n", path, error.message);
    remove(path);
  }
  return result;
}

int main(int argc, char** argv) {
  static const struct SeedSpec kSpecs[] = {
      {"writer_many_types", 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 3, 9, 0},
      {"writer_many_types", 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 3, 9, 0},
      {"writer_lz4", 0, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 2, 16, 0},
      {"writer_zstd", 1, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 2, 16, 0},

      {"writer_no_batches", 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0, 0, 0},
      {"writer_no_batches", 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0, 0, 0},
      {"writer_empty_batch", 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 2, 0, 0},
      {"writer_dictionary_delta", 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 4, 3, 1},
      {"writer_one_row", 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 1, 1, 0}};
  size_t i;
  int n_written = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  for (i = 0; i < sizeof(kSpecs) / sizeof(kSpecs[0]); i++) {
    /* A codec missing from this build only drops that seed. */
    if (WriteSeed(argv[1], &kSpecs[i]) == NANOARROW_OK) n_written++;
  }
  if (WriteLongColumnSeed(argv[1], "writer_lz4_long_column",
                          NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME) == NANOARROW_OK) {
    n_written++;
  }
  if (WriteLongColumnSeed(argv[1], "writer_zstd_long_column",
                          NANOARROW_IPC_COMPRESSION_TYPE_ZSTD) == NANOARROW_OK) {
    n_written++;
  }
  printf("wrote %d writer seeds\n", n_written);
  return n_written > 0 ? 0 : 1;
}
