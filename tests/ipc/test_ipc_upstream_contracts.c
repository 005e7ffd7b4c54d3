/* Decoder contracts that upstream nanoarrow documents and its IPC unit tests rely
 * on: depth-first field indices for DecodeArray*, the footer size in
 * header_size_bytes, field node / buffer counts checked against the schema when
 * the header is decoded, and DecodeSchemaWithDictionaries initializing its
 * encodings output. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "ipc/encodings_test_util.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "ipc/writer_test_util.h"

/* ---- Helpers ---- */

static struct ArrowBufferView View(const void* data, int64_t size) {
  struct ArrowBufferView view;
  view.data.data = data;
  view.size_bytes = size;
  return view;
}

/* Writes schema and one batch as a stream (or a file) into out (initialized here). */
static void WriteOne(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                     struct ArrowArray* array, int file_format,
                     enum ArrowIpcCompressionType codec) {
  struct ArrowError error;
  struct ArrowArray* arrays[1];
  arrays[0] = array;
  error.message[0] = '\0';
  ArrowBufferInit(out);
  cr_assert_eq(WtWrite(out, schema, arrays, 1, file_format, codec, &error), NANOARROW_OK,
               "%s", error.message);
}

/* Message `index` of the stream in data: its metadata (prefix included) and body. */
static void GetMessage(const struct ArrowBuffer* data, int64_t index,
                       struct ArrowBufferView* metadata, struct ArrowBufferView* body) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  int64_t pos = 0;
  int64_t i;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  for (i = 0;; i++) {
    struct ArrowBufferView rest = View(data->data + pos, data->size_bytes - pos);
    cr_assert_eq(ArrowIpcDecoderVerifyHeader(&decoder, rest, &error), NANOARROW_OK, "%s",
                 error.message);
    if (i == index) {
      *metadata = View(rest.data.as_uint8, decoder.header_size_bytes);
      *body = View(rest.data.as_uint8 + decoder.header_size_bytes, decoder.body_size_bytes);
      break;
    }
    pos += decoder.header_size_bytes + decoder.body_size_bytes;
  }
  ArrowIpcDecoderReset(&decoder);
}

/* A struct schema of n int32 columns named c0, c1, ... with a batch of 2 rows. */
static void MakeInt32Columns(int64_t n, struct ArrowSchema* schema, struct ArrowArray* array) {
  int64_t i;
  int64_t row;
  ArrowSchemaInit(schema);
  WT_OK(ArrowSchemaSetTypeStruct(schema, n));
  for (i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof(name), "c%d", (int)i);
    WT_OK(ArrowSchemaSetType(schema->children[i], NANOARROW_TYPE_INT32));
    WT_OK(ArrowSchemaSetName(schema->children[i], name));
  }
  WT_OK(ArrowArrayInitFromSchema(array, schema, NULL));
  WT_OK(ArrowArrayStartAppending(array));
  for (row = 0; row < 2; row++) {
    for (i = 0; i < n; i++) WT_OK(ArrowArrayAppendInt(array->children[i], row + 10 * i));
    WT_OK(ArrowArrayFinishElement(array));
  }
  WT_OK(ArrowArrayFinishBuildingDefault(array, NULL));
}

/* struct<c0: int32, c1: type> with a batch of 2 rows (strings for string types). */
static void MakeInt32And(enum ArrowType type, struct ArrowSchema* schema,
                         struct ArrowArray* array) {
  static const char* const kStrings[] = {"short", "a string longer than twelve bytes"};
  int64_t row;
  ArrowSchemaInit(schema);
  WT_OK(ArrowSchemaSetTypeStruct(schema, 2));
  WT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  WT_OK(ArrowSchemaSetName(schema->children[0], "c0"));
  WT_OK(ArrowSchemaSetType(schema->children[1], type));
  WT_OK(ArrowSchemaSetName(schema->children[1], "c1"));
  WT_OK(ArrowArrayInitFromSchema(array, schema, NULL));
  WT_OK(ArrowArrayStartAppending(array));
  for (row = 0; row < 2; row++) {
    WT_OK(ArrowArrayAppendInt(array->children[0], row));
    if (type == NANOARROW_TYPE_INT32) {
      WT_OK(ArrowArrayAppendInt(array->children[1], row));
    } else {
      WT_OK(ArrowArrayAppendString(array->children[1], ArrowCharView(kStrings[row])));
    }
    WT_OK(ArrowArrayFinishElement(array));
  }
  WT_OK(ArrowArrayFinishBuildingDefault(array, NULL));
}

/* A stream written for one schema, and the schema of another. */
struct Mismatch {
  struct ArrowBuffer written;
  struct ArrowSchema decoder_schema;
};

static void MismatchReset(struct Mismatch* mismatch) {
  ArrowBufferReset(&mismatch->written);
  ArrowSchemaRelease(&mismatch->decoder_schema);
}

/* Decodes message `index` of mismatch->written with a decoder set to
 * decoder_schema: the header must be refused with message. Then the same header
 * decoded before the schema is set must fail to decode (checked again there). */
static void ExpectHeaderRefused(struct Mismatch* mismatch, int64_t index,
                                const char* message) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  struct ArrowArray array;
  GetMessage(&mismatch->written, index, &metadata, &body);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &mismatch->decoder_schema, &error),
               NANOARROW_OK, "%s", error.message);
  error.message[0] = '\0';
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), EINVAL);
  cr_assert_str_eq(error.message, message);
  ArrowIpcDecoderReset(&decoder);

  if (strstr(message, "DictionaryBatch") != NULL) return;
  /* No schema yet: the header is accepted, decoding is not. */
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &mismatch->decoder_schema, &error),
               NANOARROW_OK, "%s", error.message);
  error.message[0] = '\0';
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &array,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert_str_eq(error.message, message);
  ArrowIpcDecoderReset(&decoder);
}

/* ---- D1: field indices are depth-first over the schema's fields ---- */

/* struct<a: struct<x: int32, y: int64>, b: double>, rows {x: 1, y: 10, b: 0.5} and
 * {x: 2, y: 20, b: 1.5}. */
static void MakeNested(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowSchema* a;
  int64_t row;
  ArrowSchemaInit(schema);
  WT_OK(ArrowSchemaSetTypeStruct(schema, 2));
  a = schema->children[0];
  WT_OK(ArrowSchemaSetTypeStruct(a, 2));
  WT_OK(ArrowSchemaSetName(a, "a"));
  WT_OK(ArrowSchemaSetType(a->children[0], NANOARROW_TYPE_INT32));
  WT_OK(ArrowSchemaSetName(a->children[0], "x"));
  WT_OK(ArrowSchemaSetType(a->children[1], NANOARROW_TYPE_INT64));
  WT_OK(ArrowSchemaSetName(a->children[1], "y"));
  WT_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_DOUBLE));
  WT_OK(ArrowSchemaSetName(schema->children[1], "b"));
  WT_OK(ArrowArrayInitFromSchema(array, schema, NULL));
  WT_OK(ArrowArrayStartAppending(array));
  for (row = 0; row < 2; row++) {
    WT_OK(ArrowArrayAppendInt(array->children[0]->children[0], row + 1));
    WT_OK(ArrowArrayAppendInt(array->children[0]->children[1], 10 * (row + 1)));
    WT_OK(ArrowArrayFinishElement(array->children[0]));
    WT_OK(ArrowArrayAppendDouble(array->children[1], 0.5 + (double)row));
    WT_OK(ArrowArrayFinishElement(array));
  }
  WT_OK(ArrowArrayFinishBuildingDefault(array, NULL));
}

/* Checks that view is field i of the nested batch (-1: the whole batch). */
static void CheckNestedField(struct ArrowArrayView* view, int64_t i) {
  cr_assert_eq(view->length, 2);
  switch (i) {
    case -1:
      cr_assert_eq(view->storage_type, NANOARROW_TYPE_STRUCT);
      cr_assert_eq(view->n_children, 2);
      cr_assert_eq(view->children[0]->n_children, 2);
      cr_assert_eq(ArrowArrayViewGetDoubleUnsafe(view->children[1], 1), 1.5);
      break;
    case 0:
      cr_assert_eq(view->storage_type, NANOARROW_TYPE_STRUCT);
      cr_assert_eq(view->n_children, 2);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view->children[0], 1), 2);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view->children[1], 1), 20);
      break;
    case 1:
      cr_assert_eq(view->storage_type, NANOARROW_TYPE_INT32);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 0), 1);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 1), 2);
      break;
    case 2:
      cr_assert_eq(view->storage_type, NANOARROW_TYPE_INT64);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 0), 10);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 1), 20);
      break;
    case 3:
      cr_assert_eq(view->storage_type, NANOARROW_TYPE_DOUBLE);
      cr_assert_eq(ArrowArrayViewGetDoubleUnsafe(view, 0), 0.5);
      cr_assert_eq(ArrowArrayViewGetDoubleUnsafe(view, 1), 1.5);
      break;
    default:
      cr_assert_fail("unexpected field %d", (int)i);
  }
}

/* The schema of field i of the nested schema (-1: the whole schema). */
static const struct ArrowSchema* NestedFieldSchema(const struct ArrowSchema* schema,
                                                   int64_t i) {
  switch (i) {
    case -1:
      return schema;
    case 0:
      return schema->children[0];
    case 1:
      return schema->children[0]->children[0];
    case 2:
      return schema->children[0]->children[1];
    default:
      return schema->children[1];
  }
}

/* Checks an exported array of field i through a view of its schema. */
static void CheckNestedArray(const struct ArrowSchema* schema, struct ArrowArray* array,
                             int64_t i) {
  struct ArrowArrayView view;
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, NestedFieldSchema(schema, i), &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewSetArray(&view, array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  CheckNestedField(&view, i);
  ArrowArrayViewReset(&view);
}

Test(ipc_upstream_contracts, field_index_counts_fields_depth_first) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  int64_t i;
  MakeNested(&schema, &array);
  WriteOne(&written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  GetMessage(&written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH);

  for (i = -1; i < 4; i++) {
    struct ArrowArrayView* view;
    struct ArrowBuffer copy;
    struct ArrowIpcSharedBuffer shared;
    cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, i, &view, &error),
                 NANOARROW_OK, "field %d: %s", (int)i, error.message);
    CheckNestedField(view, i);

    cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, i, &array,
                                            NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "field %d: %s", (int)i, error.message);
    CheckNestedArray(&schema, &array, i);
    ArrowArrayRelease(&array);

    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, body.data.data, body.size_bytes));
    WT_OK(ArrowIpcSharedBufferInit(&shared, &copy));
    cr_assert_eq(ArrowIpcDecoderDecodeArrayFromShared(&decoder, &shared, i, &array,
                                                      NANOARROW_VALIDATION_LEVEL_FULL,
                                                      &error),
                 NANOARROW_OK, "field %d: %s", (int)i, error.message);
    ArrowIpcSharedBufferReset(&shared);
    CheckNestedArray(&schema, &array, i);
    ArrowArrayRelease(&array);
  }

  /* [-1, 4): four fields, whatever the number of columns. */
  for (i = -3; i < 7; i++) {
    struct ArrowArrayView* view;
    struct ArrowBuffer copy;
    struct ArrowIpcSharedBuffer shared;
    if (i == -1) i = 4;
    cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, i, &view, &error), EINVAL);
    cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, i, &array,
                                            NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 EINVAL);
    cr_assert(strstr(error.message, "out of range [-1, 4)") != NULL, "%s", error.message);
    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, body.data.data, body.size_bytes));
    WT_OK(ArrowIpcSharedBufferInit(&shared, &copy));
    cr_assert_eq(ArrowIpcDecoderDecodeArrayFromShared(&decoder, &shared, i, &array,
                                                      NANOARROW_VALIDATION_LEVEL_FULL,
                                                      &error),
                 EINVAL);
    ArrowIpcSharedBufferReset(&shared);
  }

  ArrowIpcDecoderReset(&decoder);
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&written);
}

/* Children of lists count too (a child's length is its own); dictionary value
 * types do not (they are not fields of the schema). */
Test(ipc_upstream_contracts, field_index_covers_list_children_not_dictionaries) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowArrayView* view;
  int64_t row;

  /* struct<l: list<int16>, d: dictionary<int32 -> utf8>, z: int8> */
  ArrowSchemaInit(&schema);
  WT_OK(ArrowSchemaSetTypeStruct(&schema, 3));
  WT_OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_LIST));
  WT_OK(ArrowSchemaSetName(schema.children[0], "l"));
  WT_OK(ArrowSchemaSetType(schema.children[0]->children[0], NANOARROW_TYPE_INT16));
  WT_OK(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32));
  WT_OK(ArrowSchemaSetName(schema.children[1], "d"));
  WT_OK(ArrowSchemaAllocateDictionary(schema.children[1]));
  ArrowSchemaInit(schema.children[1]->dictionary);
  WT_OK(ArrowSchemaInitFromType(schema.children[1]->dictionary, NANOARROW_TYPE_STRING));
  WT_OK(ArrowSchemaSetType(schema.children[2], NANOARROW_TYPE_INT8));
  WT_OK(ArrowSchemaSetName(schema.children[2], "z"));

  WT_OK(ArrowArrayInitFromSchema(&array, &schema, NULL));
  WT_OK(ArrowArrayStartAppending(&array));
  WT_OK(ArrowArrayAppendString(array.children[1]->dictionary, ArrowCharView("v")));
  for (row = 0; row < 2; row++) {
    /* Row 0: [0], row 1: [1, 2]. */
    int64_t j;
    for (j = 0; j <= row; j++) {
      WT_OK(ArrowArrayAppendInt(array.children[0]->children[0], row + j));
    }
    WT_OK(ArrowArrayFinishElement(array.children[0]));
    WT_OK(ArrowArrayAppendInt(array.children[1], 0));
    WT_OK(ArrowArrayAppendInt(array.children[2], 7 + row));
    WT_OK(ArrowArrayFinishElement(&array));
  }
  WT_OK(ArrowArrayFinishBuildingDefault(&array, NULL));
  WriteOne(&written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  /* Schema, DictionaryBatch, RecordBatch. */
  GetMessage(&written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeDictionary(&decoder, body, NANOARROW_VALIDATION_LEVEL_FULL,
                                               NULL, &error),
               NANOARROW_OK, "%s", error.message);
  GetMessage(&written, 2, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);

  cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, 0, &view, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view->storage_type, NANOARROW_TYPE_LIST);
  cr_assert_eq(view->length, 2);
  /* The list's child: 3 elements. */
  cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, 1, &view, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view->storage_type, NANOARROW_TYPE_INT16);
  cr_assert_eq(view->length, 3);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 2), 2);
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, 1, &array,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(array.length, 3);
  cr_assert_eq(array.n_children, 0);
  ArrowArrayRelease(&array);
  /* The dictionary-encoded field: its indices, with the dictionary attached. */
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, 2, &array,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(array.length, 2);
  cr_assert_not_null(array.dictionary);
  cr_assert_eq(array.dictionary->length, 1);
  ArrowArrayRelease(&array);
  /* The dictionary's utf8 values are not field 3: z is. */
  cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, 3, &view, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view->storage_type, NANOARROW_TYPE_INT8);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view, 1), 8);
  cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, body, 4, &view, &error), EINVAL);

  ArrowIpcDecoderReset(&decoder);
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&written);
}

/* ---- D2: header_size_bytes after the footer functions ---- */

Test(ipc_upstream_contracts, peek_footer_reports_the_footer_size) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  static const char kTail[] = "\xFF\xFF\0\0ARROW1";
  static const char kNegative[] = "\xFF\xFF\xFF\xFF" "ARROW1";
  static const char kNoMagic[] = "\0\0\0\0blargh";
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);

  /* Too short to hold the size and the magic. */
  cr_assert_eq(ArrowIpcDecoderPeekFooter(&decoder, View(kTail, 3), &error), ESPIPE);
  cr_assert_eq(ArrowIpcDecoderPeekFooter(&decoder, View(kNoMagic, 10), &error), EINVAL);
  cr_assert_eq(ArrowIpcDecoderPeekFooter(&decoder, View(kNegative, 10), &error), EINVAL);

  /* The last 10 bytes are enough to learn the footer's size... */
  cr_assert_eq(ArrowIpcDecoderPeekFooter(&decoder, View(kTail, 10), &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(decoder.header_size_bytes, 0xFFFF);
  /* ... but not to verify (or decode) the footer. */
  decoder.header_size_bytes = -1;
  cr_assert_eq(ArrowIpcDecoderVerifyFooter(&decoder, View(kTail, 10), &error), ESPIPE);
  cr_assert_eq(decoder.header_size_bytes, 0xFFFF);
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(&decoder, View(kTail, 10), &error), ESPIPE);
  cr_assert_null(decoder.footer);
  ArrowIpcDecoderReset(&decoder);
}

Test(ipc_upstream_contracts, footer_functions_set_the_flatbuffer_size) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowBufferView whole;
  struct ArrowBufferView tail;
  int32_t footer_size;
  MakeNested(&schema, &array);
  WriteOne(&written, &schema, &array, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  memcpy(&footer_size, written.data + written.size_bytes - 10, 4);
  cr_assert_gt(footer_size, 0);
  whole = View(written.data, written.size_bytes);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderPeekFooter(&decoder, whole, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.header_size_bytes, footer_size);
  cr_assert_eq(ArrowIpcDecoderVerifyFooter(&decoder, whole, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.header_size_bytes, footer_size);
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(&decoder, whole, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.header_size_bytes, footer_size);
  cr_assert_not_null(decoder.footer);
  cr_assert_eq(decoder.footer->record_batch_blocks.size_bytes,
               (int64_t)sizeof(struct ArrowIpcFileBlock));

  /* Exactly the footer and the 10 bytes after it are enough; one less is not. */
  tail = View(written.data + written.size_bytes - 10 - footer_size, footer_size + 10);
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(&decoder, tail, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.header_size_bytes, footer_size);
  tail.data.as_uint8++;
  tail.size_bytes--;
  cr_assert_eq(ArrowIpcDecoderVerifyFooter(&decoder, tail, &error), ESPIPE);
  cr_assert_eq(decoder.header_size_bytes, footer_size);
  ArrowIpcDecoderReset(&decoder);
  ArrowBufferReset(&written);
}

/* The file reader locates the blocks with the footer size (buffer and FILE*). */
Test(ipc_upstream_contracts, file_reader_reads_with_the_footer_size) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowBuffer copy;
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  FILE* file;
  int from_file;
  MakeNested(&schema, &array);
  WriteOne(&written, &schema, &array, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);

  for (from_file = 0; from_file < 2; from_file++) {
    if (from_file) {
      file = tmpfile();
      cr_assert_not_null(file);
      cr_assert_eq(fwrite(written.data, 1, (size_t)written.size_bytes, file),
                   (size_t)written.size_bytes);
      cr_assert_eq(ArrowIpcFileReaderInitFile(&reader, file, 1, &error), NANOARROW_OK, "%s",
                   error.message);
    } else {
      ArrowBufferInit(&copy);
      WT_OK(ArrowBufferAppend(&copy, written.data, written.size_bytes));
      cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error), NANOARROW_OK, "%s",
                   error.message);
    }
    cr_assert_eq(ArrowIpcFileReaderNumRecordBatches(&reader), 1);
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &array,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "%s", error.message);
    CheckNestedArray(&schema, &array, -1);
    ArrowArrayRelease(&array);
    ArrowIpcFileReaderReset(&reader);
  }
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&written);
}

/* Blocks must end before the footer: the 10 bytes after it are not the footer's
 * size but come on top of it. */
Test(ipc_upstream_contracts, file_blocks_must_end_before_the_footer) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowIpcFileBlock block;
  int32_t footer_size;
  int64_t footer_start;
  int64_t blocks_end;
  int64_t patch_at = -1;
  int64_t extra;
  int64_t pos;
  MakeNested(&schema, &array);
  WriteOne(&written, &schema, &array, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  memcpy(&footer_size, written.data + written.size_bytes - 10, 4);
  footer_start = written.size_bytes - 10 - footer_size;
  blocks_end = footer_start;

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(
                   &decoder, View(written.data, written.size_bytes), &error),
               NANOARROW_OK, "%s", error.message);
  memcpy(&block, decoder.footer->record_batch_blocks.data, sizeof(block));
  ArrowIpcDecoderReset(&decoder);
  /* The Block struct in the footer: offset, metadata length (+ 4 bytes of
   * padding), body length. */
  for (pos = footer_start; pos + 24 <= footer_start + footer_size; pos += 8) {
    if (memcmp(written.data + pos, &block.offset, 8) == 0 &&
        memcmp(written.data + pos + 8, &block.metadata_length, 4) == 0 &&
        memcmp(written.data + pos + 16, &block.body_length, 8) == 0) {
      patch_at = pos + 16;
    }
  }
  cr_assert_geq(patch_at, 0, "record batch block not found in the footer");

  for (extra = 0; extra < 2; extra++) {
    struct ArrowBuffer copy;
    struct ArrowIpcFileReader reader;
    int64_t body_length = blocks_end - block.offset - block.metadata_length + extra;
    int result;
    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, written.data, written.size_bytes));
    memcpy(copy.data + patch_at, &body_length, 8);
    cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error), NANOARROW_OK, "%s",
                 error.message);
    error.message[0] = '\0';
    result = ArrowIpcFileReaderReadBatch(&reader, 0, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL, &error);
    if (extra == 0) {
      /* Up to the footer's first byte. */
      cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
      ArrowArrayRelease(&array);
    } else {
      cr_assert_eq(result, EINVAL);
      cr_assert(strstr(error.message, "before the footer") != NULL, "%s", error.message);
    }
    ArrowIpcFileReaderReset(&reader);
  }
  ArrowBufferReset(&written);
}

/* ---- D3: field node and buffer counts ---- */

Test(ipc_upstream_contracts, extra_field_nodes_are_refused) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  MakeInt32Columns(3, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32Columns(2, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1, "Expected 2 field nodes in message but found 3");
  MismatchReset(&mismatch);
}

Test(ipc_upstream_contracts, missing_field_nodes_are_refused) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  MakeInt32Columns(2, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32Columns(3, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1, "Expected 3 field nodes in message but found 2");
  MismatchReset(&mismatch);
}

Test(ipc_upstream_contracts, extra_and_missing_buffers_are_refused) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  /* utf8 has 3 buffers, int32 2. */
  MakeInt32And(NANOARROW_TYPE_STRING, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32And(NANOARROW_TYPE_INT32, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1, "Expected 4 buffers in message but found 5");
  MismatchReset(&mismatch);

  MakeInt32And(NANOARROW_TYPE_INT32, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32And(NANOARROW_TYPE_STRING, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1, "Expected 5 buffers in message but found 4");
  MismatchReset(&mismatch);
}

Test(ipc_upstream_contracts, compressed_bodies_have_the_same_counts) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray decoded;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  enum ArrowIpcCompressionType codec = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
  if (ArrowIpcGetZstdDecompressionFunction() == NULL) {
    codec = NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME;
    if (ArrowIpcGetLZ4DecompressionFunction() == NULL) {
      cr_skip_test("built without ZSTD and LZ4");
    }
  }
  MakeInt32And(NANOARROW_TYPE_STRING, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, codec);
  ArrowArrayRelease(&array);

  /* The right schema decodes. */
  GetMessage(&mismatch.written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.codec, codec);
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &decoded,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(decoded.length, 2);
  ArrowArrayRelease(&decoded);
  ArrowIpcDecoderReset(&decoder);
  ArrowSchemaRelease(&schema);

  MakeInt32And(NANOARROW_TYPE_INT32, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1, "Expected 4 buffers in message but found 5");
  MismatchReset(&mismatch);
}

Test(ipc_upstream_contracts, view_columns_count_their_variadic_buffers) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray decoded;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;

  /* A string_view column with one long string: 2 fixed + 1 variadic buffer. */
  MakeInt32And(NANOARROW_TYPE_STRING_VIEW, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  GetMessage(&mismatch.written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &decoded,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(decoded.children[1]->n_buffers, 4);
  ArrowArrayRelease(&decoded);
  ArrowIpcDecoderReset(&decoder);
  ArrowSchemaRelease(&schema);

  /* Read as utf8: no variadic counts expected. */
  MakeInt32And(NANOARROW_TYPE_STRING, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1,
                      "Expected 0 variadic buffer counts in message but found 1");
  ArrowSchemaRelease(&mismatch.decoder_schema);
  /* Read as int32: the variadic counts are refused before the buffers. */
  MakeInt32And(NANOARROW_TYPE_INT32, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1,
                      "Expected 0 variadic buffer counts in message but found 1");
  MismatchReset(&mismatch);

  /* utf8 written, string_view expected: the counts are missing. */
  MakeInt32And(NANOARROW_TYPE_STRING, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32And(NANOARROW_TYPE_STRING_VIEW, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1,
                      "Expected 1 variadic buffer counts in message but found 0");
  MismatchReset(&mismatch);
}

/* struct<d: dictionary<int32 -> value_type>> with the dictionary values given. */
static void MakeDictionary(enum ArrowType value_type, struct ArrowSchema* schema,
                           struct ArrowArray* array) {
  ArrowSchemaInit(schema);
  WT_OK(ArrowSchemaSetTypeStruct(schema, 1));
  WT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  WT_OK(ArrowSchemaSetName(schema->children[0], "d"));
  WT_OK(ArrowSchemaAllocateDictionary(schema->children[0]));
  ArrowSchemaInit(schema->children[0]->dictionary);
  WT_OK(ArrowSchemaInitFromType(schema->children[0]->dictionary, value_type));
  WT_OK(ArrowArrayInitFromSchema(array, schema, NULL));
  WT_OK(ArrowArrayStartAppending(array));
  if (value_type == NANOARROW_TYPE_STRING) {
    WT_OK(ArrowArrayAppendString(array->children[0]->dictionary, ArrowCharView("v")));
  } else {
    WT_OK(ArrowArrayAppendInt(array->children[0]->dictionary, 5));
  }
  WT_OK(ArrowArrayAppendInt(array->children[0], 0));
  WT_OK(ArrowArrayFinishElement(array));
  WT_OK(ArrowArrayFinishBuildingDefault(array, NULL));
}

/* A DictionaryBatch's counts are those of its value type, not the schema's. */
Test(ipc_upstream_contracts, dictionary_batches_are_counted_against_their_values) {
  struct Mismatch mismatch;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;

  MakeDictionary(NANOARROW_TYPE_STRING, &schema, &array);
  WriteOne(&mismatch.written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);

  /* The right schema: a 1-node, 3-buffer DictionaryBatch for 1-node, 2-buffer
   * record batches. */
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  GetMessage(&mismatch.written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
  cr_assert_eq(ArrowIpcDecoderDecodeDictionary(&decoder, body, NANOARROW_VALIDATION_LEVEL_FULL,
                                               NULL, &error),
               NANOARROW_OK, "%s", error.message);
  GetMessage(&mismatch.written, 2, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &array,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&array);
  ArrowIpcDecoderReset(&decoder);
  ArrowSchemaRelease(&schema);

  /* int32 values need 2 buffers, the batch has 3. */
  MakeDictionary(NANOARROW_TYPE_INT32, &mismatch.decoder_schema, &array);
  ArrowArrayRelease(&array);
  ExpectHeaderRefused(&mismatch, 1,
                      "DictionaryBatch id 0: Expected 2 buffers in message but found 3");
  /* Decoding it anyway checks them as well. */
  GetMessage(&mismatch.written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &mismatch.decoder_schema, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeDictionary(&decoder, body, NANOARROW_VALIDATION_LEVEL_FULL,
                                               NULL, &error),
               EINVAL);
  cr_assert_str_eq(error.message, "Expected 2 buffers in message but found 3");
  ArrowIpcDecoderReset(&decoder);
  MismatchReset(&mismatch);
}

/* Through the stream reader: a batch with an extra column is an error, not a
 * silently shortened batch. */
Test(ipc_upstream_contracts, stream_reader_refuses_extra_field_nodes) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer two;
  struct ArrowBuffer three;
  struct ArrowBuffer input;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  int shared;
  static const int32_t kEndOfStream[2] = {-1, 0};

  MakeInt32Columns(2, &schema, &array);
  WriteOne(&two, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  MakeInt32Columns(3, &schema, &array);
  WriteOne(&three, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  for (shared = 0; shared < 2; shared++) {
    struct ArrowIpcArrayStreamReaderOptions options;
    ArrowBufferInit(&input);
    GetMessage(&two, 0, &metadata, &body);
    WT_OK(ArrowBufferAppend(&input, metadata.data.data, metadata.size_bytes));
    GetMessage(&three, 1, &metadata, &body);
    WT_OK(ArrowBufferAppend(&input, metadata.data.data,
                            metadata.size_bytes + body.size_bytes));
    WT_OK(ArrowBufferAppend(&input, kEndOfStream, sizeof(kEndOfStream)));
    WT_OK(ArrowIpcInputStreamInitBuffer(&input_stream, &input));
    options.field_index = -1;
    options.use_shared_buffers = shared;
    WT_OK(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, &options));
    cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
    cr_assert_eq(schema.n_children, 2);
    ArrowSchemaRelease(&schema);
    cr_assert_eq(stream.get_next(&stream, &array), EINVAL);
    cr_assert(strstr(stream.get_last_error(&stream),
                     "Expected 2 field nodes in message but found 3") != NULL,
              "%s", stream.get_last_error(&stream));
    stream.release(&stream);
  }
  ArrowBufferReset(&two);
  ArrowBufferReset(&three);
}

/* ---- D7: DecodeSchemaWithDictionaries initializes its encodings ---- */

Test(ipc_upstream_contracts, decode_schema_with_dictionaries_initializes_encodings) {
  struct ArrowSchema schema;
  struct ArrowSchema decoded;
  struct ArrowArray array;
  struct ArrowBuffer written;
  struct ArrowBufferView metadata;
  struct ArrowBufferView body;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowError error;
  int round;

  MakeDictionary(NANOARROW_TYPE_STRING, &schema, &array);
  WriteOne(&written, &schema, &array, 0, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  GetMessage(&written, 0, &metadata, &body);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  for (round = 0; round < 2; round++) {
    /* Never initialized: whatever the bytes, the output is made from scratch. */
    memset(&encodings, 0xA5, sizeof(encodings));
    cr_assert_eq(
        ArrowIpcDecoderDecodeSchemaWithDictionaries(&decoder, &decoded, &encodings, &error),
        NANOARROW_OK, "%s", error.message);
    cr_assert_eq(TEST_N_ENCODINGS(encodings), 1);
    cr_assert_eq(TEST_ENCODING(encodings, 0).id, 0);
    cr_assert_eq(TEST_ENCODING(encodings, 0).schema, decoded.children[0]);
    ArrowIpcDictionaryEncodingsReset(&encodings);
    ArrowSchemaRelease(&decoded);
  }

  /* On failure the encodings are left empty (and may be reset). */
  GetMessage(&written, 1, &metadata, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, metadata, &error), NANOARROW_OK, "%s",
               error.message);
  memset(&encodings, 0xA5, sizeof(encodings));
  cr_assert_eq(
      ArrowIpcDecoderDecodeSchemaWithDictionaries(&decoder, &decoded, &encodings, &error),
      EINVAL);
  cr_assert_eq(TEST_N_ENCODINGS(encodings), 0);
  ArrowIpcDictionaryEncodingsReset(&encodings);

  ArrowIpcDecoderReset(&decoder);
  ArrowBufferReset(&written);
}
