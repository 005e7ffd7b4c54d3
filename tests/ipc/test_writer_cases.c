/* Writes one IPC stream (.arrows) and one IPC file (.arrow) per case into
 * $NANOARROW_IPC_WRITER_OUT (default: ipc_writer_out in the working directory),
 * for tests/ipc/js/check.mjs to read with the Apache Arrow JavaScript library.
 * The values here are mirrored in check.mjs: change both together. */

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "ipc/writer_test_util.h"

static const char* OutDir(void) {
  const char* dir = getenv("NANOARROW_IPC_WRITER_OUT");
  if (dir == NULL || dir[0] == '\0') dir = "ipc_writer_out";
  mkdir(dir, 0755);
  return dir;
}

static void WriteFileBytes(const char* name, const char* extension,
                           const struct ArrowBuffer* bytes) {
  char path[1024];
  FILE* file;
  snprintf(path, sizeof(path), "%s/%s.%s", OutDir(), name, extension);
  file = fopen(path, "wb");
  cr_assert_not_null(file, "cannot open %s", path);
  cr_assert_eq(fwrite(bytes->data, 1, (size_t)bytes->size_bytes, file),
               (size_t)bytes->size_bytes);
  fclose(file);
}

/* Writes the case as a stream and as a file and checks the framing bytes. */
static void WriteCase(const char* name, struct ArrowSchema* schema,
                      struct ArrowArray** arrays, int64_t n_arrays,
                      enum ArrowIpcCompressionType codec) {
  struct ArrowBuffer stream_bytes;
  struct ArrowBuffer file_bytes;
  struct ArrowError error;
  static const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  int64_t i;

  ArrowErrorInit(&error);
  ArrowBufferInit(&stream_bytes);
  ArrowBufferInit(&file_bytes);
  cr_assert_eq(WtWrite(&stream_bytes, schema, arrays, n_arrays, 0, codec, &error),
               NANOARROW_OK, "%s (stream): %s", name, error.message);
  cr_assert_eq(WtWrite(&file_bytes, schema, arrays, n_arrays, 1, codec, &error),
               NANOARROW_OK, "%s (file): %s", name, error.message);

  cr_assert_eq(stream_bytes.size_bytes % 8, 0);
  cr_assert_eq(memcmp(stream_bytes.data + stream_bytes.size_bytes - 8, eos, 8), 0);
  cr_assert_eq(memcmp(file_bytes.data, "ARROW1\0\0", 8), 0);
  cr_assert_eq(memcmp(file_bytes.data + file_bytes.size_bytes - 6, "ARROW1", 6), 0);
  /* The file is the stream between the leading magic and the footer. */
  cr_assert_eq(memcmp(file_bytes.data + 8, stream_bytes.data, (size_t)stream_bytes.size_bytes),
               0);

  {
    char with_codec[256];
    snprintf(with_codec, sizeof(with_codec), "%s%s", name,
             codec == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME ? ".lz4"
             : codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD    ? ".zstd"
                                                               : "");
    WriteFileBytes(with_codec, "arrows", &stream_bytes);
    WriteFileBytes(with_codec, "arrow", &file_bytes);
  }
  ArrowBufferReset(&stream_bytes);
  ArrowBufferReset(&file_bytes);
  for (i = 0; i < n_arrays; i++) ArrowArrayRelease(arrays[i]);
  ArrowSchemaRelease(schema);
}

static void BuildPrimitives(struct ArrowSchema* schema, struct ArrowArray* array) {
  static const char* const formats[] = {"c", "S", "i", "l", "f", "g", "b", "n"};
  static const char* const names[] = {"i8", "u16", "i32", "i64", "f32", "f64", "b", "n"};
  struct ArrowError error;
  WtStructSchema(schema, 8, formats, names);
  WT_OK(ArrowArrayInitFromSchema(array, schema, &error));
  WT_OK(ArrowArrayStartAppending(array));
  {
    int64_t i8[] = {1, -2, 3, -4, 5};
    uint64_t u16[] = {1, 2, 3, 4, 65535};
    int64_t i64[] = {1, -1, (int64_t)1 << 40, 0, -5};
    double f32[] = {0.5, 1.5, -2.5, 3.5, 4.5};
    int i;
    for (i = 0; i < 5; i++) {
      WT_OK(ArrowArrayAppendInt(array->children[0], i8[i]));
      WT_OK(ArrowArrayAppendUInt(array->children[1], u16[i]));
      if (i % 2 == 1) {
        WT_OK(ArrowArrayAppendNull(array->children[2], 1));
      } else {
        WT_OK(ArrowArrayAppendInt(array->children[2], 10 * (i + 1)));
      }
      WT_OK(ArrowArrayAppendInt(array->children[3], i64[i]));
      WT_OK(ArrowArrayAppendDouble(array->children[4], f32[i]));
    }
    WT_OK(ArrowArrayAppendDouble(array->children[5], 1.25));
    WT_OK(ArrowArrayAppendNull(array->children[5], 1));
    WT_OK(ArrowArrayAppendDouble(array->children[5], 3.75));
    WT_OK(ArrowArrayAppendDouble(array->children[5], -4.0));
    WT_OK(ArrowArrayAppendDouble(array->children[5], 5.5));
    WT_OK(ArrowArrayAppendInt(array->children[6], 1));
    WT_OK(ArrowArrayAppendInt(array->children[6], 0));
    WT_OK(ArrowArrayAppendNull(array->children[6], 1));
    WT_OK(ArrowArrayAppendInt(array->children[6], 1));
    WT_OK(ArrowArrayAppendInt(array->children[6], 0));
    WT_OK(ArrowArrayAppendNull(array->children[7], 5));
  }
  WtFinishStruct(array, 5);
}

Test(writer_cases, primitives) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildPrimitives(&schema, &array);
  WriteCase("primitives", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, primitives_sliced) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildPrimitives(&schema, &array);
  array.offset = 1;
  array.length = 3;
  WriteCase("primitives_sliced", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, primitives_two_batches) {
  struct ArrowSchema schema;
  struct ArrowSchema unused_schema;
  struct ArrowArray first;
  struct ArrowArray second;
  struct ArrowArray* arrays[] = {&first, &second};
  BuildPrimitives(&schema, &first);
  BuildPrimitives(&unused_schema, &second);
  ArrowSchemaRelease(&unused_schema);
  second.offset = 2;
  second.length = 3;
  WriteCase("primitives_two_batches", &schema, arrays, 2,
            NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

/* Codecs the library was built without are skipped. */
Test(writer_cases, primitives_compressed) {
  enum ArrowIpcCompressionType codecs[] = {NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                           NANOARROW_IPC_COMPRESSION_TYPE_ZSTD};
  int i;
  for (i = 0; i < 2; i++) {
    struct ArrowSchema schema;
    struct ArrowArray array;
    struct ArrowArray* arrays[] = {&array};
    struct ArrowIpcEncoder encoder;
    WT_OK(ArrowIpcEncoderInit(&encoder));
    if (ArrowIpcEncoderSetCompression(&encoder, codecs[i],
                                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                      NULL) != NANOARROW_OK) {
      ArrowIpcEncoderReset(&encoder);
      continue;
    }
    ArrowIpcEncoderReset(&encoder);
    BuildPrimitives(&schema, &array);
    WriteCase("primitives", &schema, arrays, 1, codecs[i]);
  }
}

static void BuildStrings(struct ArrowSchema* schema, struct ArrowArray* array) {
  static const char* const formats[] = {"u", "z", "U", "w:3"};
  static const char* const names[] = {"s", "bin", "ls", "fsb"};
  static const char* const s[] = {"a", NULL, "ccc", ""};
  static const char* const ls[] = {"x", "yy", NULL, "zzz"};
  static const char* const fsb[] = {"abc", "def", NULL, "ghi"};
  struct ArrowBufferView bytes;
  struct ArrowError error;
  WtStructSchema(schema, 4, formats, names);
  WT_OK(ArrowArrayInitFromSchema(array, schema, &error));
  WT_OK(ArrowArrayStartAppending(array));
  WtAppendStrings(array->children[0], 4, s);
  bytes.data.as_char = "\x00\x01";
  bytes.size_bytes = 2;
  WT_OK(ArrowArrayAppendBytes(array->children[1], bytes));
  bytes.size_bytes = 0;
  WT_OK(ArrowArrayAppendBytes(array->children[1], bytes));
  WT_OK(ArrowArrayAppendNull(array->children[1], 1));
  bytes.data.as_char = "xyz";
  bytes.size_bytes = 3;
  WT_OK(ArrowArrayAppendBytes(array->children[1], bytes));
  WtAppendStrings(array->children[2], 4, ls);
  {
    int i;
    for (i = 0; i < 4; i++) {
      if (fsb[i] == NULL) {
        WT_OK(ArrowArrayAppendNull(array->children[3], 1));
      } else {
        bytes.data.as_char = fsb[i];
        bytes.size_bytes = 3;
        WT_OK(ArrowArrayAppendBytes(array->children[3], bytes));
      }
    }
  }
  WtFinishStruct(array, 4);
}

Test(writer_cases, strings) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildStrings(&schema, &array);
  WriteCase("strings", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, strings_sliced) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildStrings(&schema, &array);
  array.offset = 1;
  array.length = 3;
  WriteCase("strings_sliced", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

static void BuildNested(struct ArrowSchema* schema, struct ArrowArray* array) {
  static const char* const formats[] = {"+l", "+L", "+w:2", "+s", "+m"};
  static const char* const names[] = {"l", "ll", "fsl", "st", "m"};
  struct ArrowError error;
  struct ArrowArray* child;
  WtStructSchema(schema, 5, formats, names);
  WT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_LIST));
  WT_OK(ArrowSchemaSetFormat(schema->children[0]->children[0], "i"));
  WT_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_LARGE_LIST));
  WT_OK(ArrowSchemaSetFormat(schema->children[1]->children[0], "i"));
  WT_OK(ArrowSchemaSetTypeFixedSize(schema->children[2], NANOARROW_TYPE_FIXED_SIZE_LIST, 2));
  WT_OK(ArrowSchemaSetFormat(schema->children[2]->children[0], "s"));
  WT_OK(ArrowSchemaSetTypeStruct(schema->children[3], 2));
  WT_OK(ArrowSchemaSetFormat(schema->children[3]->children[0], "i"));
  WT_OK(ArrowSchemaSetName(schema->children[3]->children[0], "a"));
  WT_OK(ArrowSchemaSetFormat(schema->children[3]->children[1], "u"));
  WT_OK(ArrowSchemaSetName(schema->children[3]->children[1], "b"));
  WT_OK(ArrowSchemaSetType(schema->children[4], NANOARROW_TYPE_MAP));
  WT_OK(ArrowSchemaSetFormat(schema->children[4]->children[0]->children[0], "u"));
  WT_OK(ArrowSchemaSetFormat(schema->children[4]->children[0]->children[1], "i"));
  WT_OK(ArrowArrayInitFromSchema(array, schema, &error));
  WT_OK(ArrowArrayStartAppending(array));

  /* l: [[1, 2], null, [3]] */
  child = array->children[0];
  WT_OK(ArrowArrayAppendInt(child->children[0], 1));
  WT_OK(ArrowArrayAppendInt(child->children[0], 2));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendNull(child, 1));
  WT_OK(ArrowArrayAppendInt(child->children[0], 3));
  WT_OK(ArrowArrayFinishElement(child));
  /* ll: [[4], [], [5, 6]] */
  child = array->children[1];
  WT_OK(ArrowArrayAppendInt(child->children[0], 4));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendInt(child->children[0], 5));
  WT_OK(ArrowArrayAppendInt(child->children[0], 6));
  WT_OK(ArrowArrayFinishElement(child));
  /* fsl: [[1, 2], [3, 4], null] */
  child = array->children[2];
  WT_OK(ArrowArrayAppendInt(child->children[0], 1));
  WT_OK(ArrowArrayAppendInt(child->children[0], 2));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendInt(child->children[0], 3));
  WT_OK(ArrowArrayAppendInt(child->children[0], 4));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendNull(child, 1));
  /* st: [{1, "x"}, {2, "y"}, {3, null}] */
  child = array->children[3];
  WT_OK(ArrowArrayAppendInt(child->children[0], 1));
  WT_OK(ArrowArrayAppendString(child->children[1], ArrowCharView("x")));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendInt(child->children[0], 2));
  WT_OK(ArrowArrayAppendString(child->children[1], ArrowCharView("y")));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendInt(child->children[0], 3));
  WT_OK(ArrowArrayAppendNull(child->children[1], 1));
  WT_OK(ArrowArrayFinishElement(child));
  /* m: [{k: 1}, {}, {a: 2, b: 3}] */
  child = array->children[4];
  WT_OK(ArrowArrayAppendString(child->children[0]->children[0], ArrowCharView("k")));
  WT_OK(ArrowArrayAppendInt(child->children[0]->children[1], 1));
  WT_OK(ArrowArrayFinishElement(child->children[0]));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayFinishElement(child));
  WT_OK(ArrowArrayAppendString(child->children[0]->children[0], ArrowCharView("a")));
  WT_OK(ArrowArrayAppendInt(child->children[0]->children[1], 2));
  WT_OK(ArrowArrayFinishElement(child->children[0]));
  WT_OK(ArrowArrayAppendString(child->children[0]->children[0], ArrowCharView("b")));
  WT_OK(ArrowArrayAppendInt(child->children[0]->children[1], 3));
  WT_OK(ArrowArrayFinishElement(child->children[0]));
  WT_OK(ArrowArrayFinishElement(child));
  WtFinishStruct(array, 3);
}

Test(writer_cases, nested) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildNested(&schema, &array);
  WriteCase("nested", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, nested_sliced) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildNested(&schema, &array);
  array.offset = 1;
  array.length = 2;
  WriteCase("nested_sliced", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, temporal) {
  static const char* const formats[] = {"tdD",       "tdm",        "ttm", "ttu",
                                        "tsn:UTC",   "tDs",        "tiM", "tiD",
                                        "tin"};
  static const char* const names[] = {"date32", "date64", "time32", "time64", "ts",
                                      "dur",    "months", "day_time", "mdn"};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  struct ArrowError error;
  struct ArrowInterval interval;
  int i;
  WtStructSchema(&schema, 9, formats, names);
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  for (i = 0; i < 2; i++) {
    WT_OK(ArrowArrayAppendInt(array.children[0], i * 19000));
    WT_OK(ArrowArrayAppendInt(array.children[1], i * 86400000));
    WT_OK(ArrowArrayAppendInt(array.children[2], (i + 1) * 1000));
    WT_OK(ArrowArrayAppendInt(array.children[3], i + 1));
    WT_OK(ArrowArrayAppendInt(array.children[4], i + 1));
    WT_OK(ArrowArrayAppendInt(array.children[5], i == 0 ? 5 : -5));
    ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTHS);
    interval.months = i == 0 ? 1 : 12;
    WT_OK(ArrowArrayAppendInterval(array.children[6], &interval));
    ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_DAY_TIME);
    interval.days = 1 + 2 * i;
    interval.ms = 2 + 2 * i;
    WT_OK(ArrowArrayAppendInterval(array.children[7], &interval));
    ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
    interval.months = 1 + 3 * i;
    interval.days = 2 + 3 * i;
    interval.ns = 3 + 3 * i;
    WT_OK(ArrowArrayAppendInterval(array.children[8], &interval));
  }
  WtFinishStruct(&array, 2);
  WriteCase("temporal", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, decimal) {
  static const char* const formats[] = {"d:10,2", "d:40,3,256"};
  static const char* const names[] = {"d128", "d256"};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  struct ArrowError error;
  struct ArrowDecimal decimal;
  WtStructSchema(&schema, 2, formats, names);
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  ArrowDecimalInit(&decimal, 128, 10, 2);
  ArrowDecimalSetInt(&decimal, 12345);
  WT_OK(ArrowArrayAppendDecimal(array.children[0], &decimal));
  ArrowDecimalSetInt(&decimal, -1);
  WT_OK(ArrowArrayAppendDecimal(array.children[0], &decimal));
  ArrowDecimalInit(&decimal, 256, 40, 3);
  ArrowDecimalSetInt(&decimal, 1);
  WT_OK(ArrowArrayAppendDecimal(array.children[1], &decimal));
  ArrowDecimalSetInt(&decimal, -7);
  WT_OK(ArrowArrayAppendDecimal(array.children[1], &decimal));
  WtFinishStruct(&array, 2);
  WriteCase("decimal", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

static void BuildUnions(struct ArrowSchema* schema, struct ArrowArray* array) {
  static const char* const formats[] = {"+us:0,1", "+ud:0,1"};
  static const char* const names[] = {"sparse", "dense"};
  struct ArrowError error;
  int u;
  WtStructSchema(schema, 2, formats, names);
  for (u = 0; u < 2; u++) {
    WT_OK(ArrowSchemaSetTypeUnion(schema->children[u],
                                  u == 0 ? NANOARROW_TYPE_SPARSE_UNION
                                         : NANOARROW_TYPE_DENSE_UNION,
                                  2));
    WT_OK(ArrowSchemaSetFormat(schema->children[u]->children[0], "i"));
    WT_OK(ArrowSchemaSetName(schema->children[u]->children[0], "i"));
    WT_OK(ArrowSchemaSetFormat(schema->children[u]->children[1], "u"));
    WT_OK(ArrowSchemaSetName(schema->children[u]->children[1], "s"));
  }
  WT_OK(ArrowArrayInitFromSchema(array, schema, &error));
  WT_OK(ArrowArrayStartAppending(array));
  for (u = 0; u < 2; u++) {
    /* [1, "a", 3, "dd"] */
    struct ArrowArray* child = array->children[u];
    WT_OK(ArrowArrayAppendInt(child->children[0], 1));
    WT_OK(ArrowArrayFinishUnionElement(child, 0));
    WT_OK(ArrowArrayAppendString(child->children[1], ArrowCharView("a")));
    WT_OK(ArrowArrayFinishUnionElement(child, 1));
    WT_OK(ArrowArrayAppendInt(child->children[0], 3));
    WT_OK(ArrowArrayFinishUnionElement(child, 0));
    WT_OK(ArrowArrayAppendString(child->children[1], ArrowCharView("dd")));
    WT_OK(ArrowArrayFinishUnionElement(child, 1));
  }
  WtFinishStruct(array, 4);
}

Test(writer_cases, unions) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildUnions(&schema, &array);
  WriteCase("unions", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, unions_sliced) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  BuildUnions(&schema, &array);
  array.offset = 1;
  array.length = 2;
  WriteCase("unions_sliced", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

/* d: dictionary<int32 -> utf8>; batch 1 dictionary ["a", "b"] indices [0, 1, 0];
 * batch 2 dictionary ["a", "b", "c"] (a delta) indices [2, 0]. */
static void BuildDictionaryBatch(struct ArrowSchema* schema, struct ArrowArray* array,
                                 int batch) {
  static const char* const formats[] = {"i"};
  static const char* const names[] = {"d"};
  static const char* const values[] = {"a", "b", "c"};
  struct ArrowError error;
  WtStructSchema(schema, 1, formats, names);
  WT_OK(ArrowSchemaAllocateDictionary(schema->children[0]));
  ArrowSchemaInit(schema->children[0]->dictionary);
  WT_OK(ArrowSchemaInitFromType(schema->children[0]->dictionary, NANOARROW_TYPE_STRING));
  WT_OK(ArrowArrayInitFromSchema(array, schema, &error));
  WT_OK(ArrowArrayStartAppending(array));
  WtAppendStrings(array->children[0]->dictionary, batch == 0 ? 2 : 3, values);
  if (batch == 0) {
    WT_OK(ArrowArrayAppendInt(array->children[0], 0));
    WT_OK(ArrowArrayAppendInt(array->children[0], 1));
    WT_OK(ArrowArrayAppendInt(array->children[0], 0));
    WtFinishStruct(array, 3);
  } else {
    WT_OK(ArrowArrayAppendInt(array->children[0], 2));
    WT_OK(ArrowArrayAppendInt(array->children[0], 0));
    WtFinishStruct(array, 2);
  }
}

Test(writer_cases, dictionary_delta) {
  struct ArrowSchema schema;
  struct ArrowSchema unused_schema;
  struct ArrowArray first;
  struct ArrowArray second;
  struct ArrowArray* arrays[] = {&first, &second};
  BuildDictionaryBatch(&schema, &first, 0);
  BuildDictionaryBatch(&unused_schema, &second, 1);
  ArrowSchemaRelease(&unused_schema);
  WriteCase("dictionary_delta", &schema, arrays, 2, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

/* The dictionary_delta values, but the dictionary written by the caller
 * (ArrowIpcWriterWriteDictionaryBatch: ["a", "b"], then the delta ["c"]) before the
 * record batches, which then carry none; zstd at level 19 when built in. */
static void WriteCallerDictionary(struct ArrowBuffer* out, int file_format,
                                  enum ArrowIpcCompressionType codec) {
  static const char* const first_values[] = {"a", "b"};
  static const char* const delta_values[] = {"c"};
  struct ArrowSchema schema;
  struct ArrowSchema unused_schema;
  struct ArrowArray batches[2];
  struct ArrowArray first;
  struct ArrowArray delta;
  struct ArrowArrayView view;
  struct ArrowArrayView values_view;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  int i;

  BuildDictionaryBatch(&schema, &batches[0], 0);
  BuildDictionaryBatch(&unused_schema, &batches[1], 1);
  ArrowSchemaRelease(&unused_schema);
  WT_OK(ArrowArrayInitFromType(&first, NANOARROW_TYPE_STRING));
  WT_OK(ArrowArrayStartAppending(&first));
  WtAppendStrings(&first, 2, first_values);
  WT_OK(ArrowArrayFinishBuildingDefault(&first, &error));
  WT_OK(ArrowArrayInitFromType(&delta, NANOARROW_TYPE_STRING));
  WT_OK(ArrowArrayStartAppending(&delta));
  WtAppendStrings(&delta, 1, delta_values);
  WT_OK(ArrowArrayFinishBuildingDefault(&delta, &error));

  WT_OK(ArrowIpcOutputStreamInitBuffer(&stream, out));
  WT_OK(ArrowIpcWriterInit(&writer, &stream));
  WT_OK(ArrowIpcWriterSetCompression(&writer, codec,
                                     codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ? 19 : 0,
                                     &error));
  if (file_format) WT_OK(ArrowIpcWriterStartFile(&writer, &error));
  WT_OK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
  ArrowArrayViewInitFromType(&values_view, NANOARROW_TYPE_STRING);
  WT_OK(ArrowArrayViewSetArray(&values_view, &first, &error));
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &values_view, &error),
               NANOARROW_OK, "%s", error.message);
  WT_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  WT_OK(ArrowArrayViewSetArray(&view, &batches[0], &error));
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
               error.message);
  WT_OK(ArrowArrayViewSetArray(&values_view, &delta, &error));
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 1, &values_view, &error),
               NANOARROW_OK, "%s", error.message);
  WT_OK(ArrowArrayViewSetArray(&view, &batches[1], &error));
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
               error.message);
  if (file_format) {
    WT_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  } else {
    WT_OK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  }
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&values_view);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&delta);
  ArrowArrayRelease(&first);
  for (i = 0; i < 2; i++) ArrowArrayRelease(&batches[i]);
  ArrowSchemaRelease(&schema);
}

Test(writer_cases, dictionary_caller) {
  enum ArrowIpcCompressionType codec = ArrowIpcGetZstdCompressionFunction() != NULL
                                           ? NANOARROW_IPC_COMPRESSION_TYPE_ZSTD
                                           : NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  struct ArrowBuffer stream_bytes;
  struct ArrowBuffer file_bytes;
  ArrowBufferInit(&stream_bytes);
  ArrowBufferInit(&file_bytes);
  WriteCallerDictionary(&stream_bytes, 0, codec);
  WriteCallerDictionary(&file_bytes, 1, codec);
  /* The file is the stream between the leading magic and the footer. */
  cr_assert_eq(memcmp(file_bytes.data + 8, stream_bytes.data, (size_t)stream_bytes.size_bytes),
               0);
  WriteFileBytes("dictionary_caller", "arrows", &stream_bytes);
  WriteFileBytes("dictionary_caller", "arrow", &file_bytes);
  ArrowBufferReset(&stream_bytes);
  ArrowBufferReset(&file_bytes);
}

Test(writer_cases, views) {
  static const char* const formats[] = {"vu", "vz"};
  static const char* const names[] = {"sv", "bv"};
  static const char* const values[] = {"short", "a much longer string than twelve", NULL};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  struct ArrowError error;
  WtStructSchema(&schema, 2, formats, names);
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  WtAppendStrings(array.children[0], 3, values);
  WtAppendStrings(array.children[1], 3, values);
  WtFinishStruct(&array, 3);
  WriteCase("views", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_cases, metadata) {
  static const char* const formats[] = {"i"};
  static const char* const names[] = {"x"};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[] = {&array};
  struct ArrowError error;
  struct ArrowBuffer metadata;
  WtStructSchema(&schema, 1, formats, names);
  WT_OK(ArrowMetadataBuilderInit(&metadata, NULL));
  WT_OK(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("schema_key"),
                                   ArrowCharView("schema_value")));
  WT_OK(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data));
  ArrowBufferReset(&metadata);
  WT_OK(ArrowMetadataBuilderInit(&metadata, NULL));
  WT_OK(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                   ArrowCharView("my.ext")));
  WT_OK(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:metadata"),
                                   ArrowCharView("{}")));
  WT_OK(ArrowSchemaSetMetadata(schema.children[0], (const char*)metadata.data));
  ArrowBufferReset(&metadata);
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  WT_OK(ArrowArrayAppendInt(array.children[0], 42));
  WtFinishStruct(&array, 1);
  WriteCase("metadata", &schema, arrays, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

/* Appends one key/value pair as the custom metadata of the encoder's next message. */
static void SetMessageMetadata(struct ArrowIpcEncoder* encoder, const char* key,
                               const char* value) {
  struct ArrowBuffer metadata;
  struct ArrowError error;
  WT_OK(ArrowMetadataBuilderInit(&metadata, NULL));
  WT_OK(ArrowMetadataBuilderAppend(&metadata, ArrowCharView(key), ArrowCharView(value)));
  cr_assert_eq(ArrowIpcEncoderSetMessageMetadata(encoder, &metadata, &error), NANOARROW_OK,
               "%s", error.message);
}

/* Message.custom_metadata on the Schema message and on each of two batches, written
 * with the encoder (stream only): apache-arrow's own flatbuffers bindings read the
 * pairs back (tests/ipc/js/check.mjs, expectedMessageMetadata). */
Test(writer_cases, message_metadata) {
  static const char* const formats[] = {"i"};
  static const char* const names[] = {"x"};
  static const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer message;
  struct ArrowBuffer stream_bytes;
  struct ArrowError error;
  int batch;

  WtStructSchema(&schema, 1, formats, names);
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  WT_OK(ArrowArrayAppendInt(array.children[0], 7));
  WtFinishStruct(&array, 1);
  WT_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  WT_OK(ArrowArrayViewSetArray(&view, &array, &error));

  WT_OK(ArrowIpcEncoderInit(&encoder));
  ArrowBufferInit(&message);
  ArrowBufferInit(&stream_bytes);
  SetMessageMetadata(&encoder, "message", "schema");
  WT_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  WT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &stream_bytes));
  for (batch = 0; batch < 2; batch++) {
    SetMessageMetadata(&encoder, "message", batch == 0 ? "batch 0" : "batch 1");
    message.size_bytes = 0;
    WT_OK(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &message, &error));
    WT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &stream_bytes));
    WT_OK(ArrowBufferAppend(&stream_bytes, message.data, message.size_bytes));
  }
  WT_OK(ArrowBufferAppend(&stream_bytes, eos, sizeof(eos)));
  WriteFileBytes("message_metadata", "arrows", &stream_bytes);

  ArrowBufferReset(&stream_bytes);
  ArrowBufferReset(&message);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}
