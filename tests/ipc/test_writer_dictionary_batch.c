/* Dictionary batches written by the caller: ArrowIpcEncoderEncodeSimpleDictionaryBatch
 * and ArrowIpcWriterWriteDictionaryBatch, which shares the writer's dictionary
 * bookkeeping with the dictionaries ArrowIpcWriterWriteArrayView writes itself. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define DB_OK(expr)                                                       \
  do {                                                                    \
    int db_rc_ = (expr);                                                  \
    cr_assert_eq(db_rc_, NANOARROW_OK, "%s returned %d", #expr, db_rc_); \
  } while (0)

/* Schema: struct<letters: dictionary<int32, utf8>, plain: int64>. */
static void DbSchema(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  DB_OK(ArrowSchemaSetTypeStruct(schema, 2));
  DB_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  DB_OK(ArrowSchemaSetName(schema->children[0], "letters"));
  DB_OK(ArrowSchemaAllocateDictionary(schema->children[0]));
  ArrowSchemaInit(schema->children[0]->dictionary);
  DB_OK(ArrowSchemaSetType(schema->children[0]->dictionary, NANOARROW_TYPE_STRING));
  DB_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_INT64));
  DB_OK(ArrowSchemaSetName(schema->children[1], "plain"));
}

/* A utf8 array of the given values and a view of it. */
static void DbStrings(struct ArrowArray* array, struct ArrowArrayView* view,
                      const char* const* values, int64_t n) {
  struct ArrowError error;
  int64_t i;
  DB_OK(ArrowArrayInitFromType(array, NANOARROW_TYPE_STRING));
  DB_OK(ArrowArrayStartAppending(array));
  for (i = 0; i < n; i++) DB_OK(ArrowArrayAppendString(array, ArrowCharView(values[i])));
  DB_OK(ArrowArrayFinishBuildingDefault(array, &error));
  ArrowArrayViewInitFromType(view, NANOARROW_TYPE_STRING);
  DB_OK(ArrowArrayViewSetArray(view, array, &error));
}

/* A record batch of the schema: indices into dictionary values (copied). */
static void DbBatch(const struct ArrowSchema* schema, struct ArrowArray* array,
                    struct ArrowArrayView* view, const int32_t* indices, int64_t n,
                    const char* const* dictionary, int64_t n_dictionary) {
  struct ArrowError error;
  int64_t i;
  DB_OK(ArrowArrayInitFromSchema(array, schema, &error));
  DB_OK(ArrowArrayStartAppending(array));
  for (i = 0; i < n; i++) {
    DB_OK(ArrowArrayAppendInt(array->children[0], indices[i]));
    DB_OK(ArrowArrayAppendInt(array->children[1], i * 10));
    DB_OK(ArrowArrayFinishElement(array));
  }
  for (i = 0; i < n_dictionary; i++) {
    DB_OK(ArrowArrayAppendString(array->children[0]->dictionary,
                                 ArrowCharView(dictionary[i])));
  }
  DB_OK(ArrowArrayFinishBuildingDefault(array, &error));
  DB_OK(ArrowArrayViewInitFromSchema(view, schema, &error));
  DB_OK(ArrowArrayViewSetArray(view, array, &error));
}

/* Counts the messages of each type in an IPC stream (from offset). */
static void DbCountMessages(const struct ArrowBuffer* bytes, int64_t offset,
                            int64_t* n_dictionary_batches, int64_t* n_record_batches) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView data;
  struct ArrowError error;
  int rc;
  *n_dictionary_batches = 0;
  *n_record_batches = 0;
  DB_OK(ArrowIpcDecoderInit(&decoder));
  while (offset < bytes->size_bytes) {
    data.data.as_uint8 = bytes->data + offset;
    data.size_bytes = bytes->size_bytes - offset;
    rc = ArrowIpcDecoderVerifyHeader(&decoder, data, &error);
    if (rc == ENODATA) break;
    cr_assert_eq(rc, NANOARROW_OK, "%s", error.message);
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      (*n_dictionary_batches)++;
    }
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
      (*n_record_batches)++;
    }
    offset += decoder.header_size_bytes + decoder.body_size_bytes;
  }
  ArrowIpcDecoderReset(&decoder);
}

/* The letters of column 0 of batch i of a file, joined by commas. */
static void DbReadFileLetters(struct ArrowBuffer* file_bytes, int64_t i, char* out,
                              size_t out_size) {
  struct ArrowIpcFileReader reader;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowBuffer copy;
  int64_t j;

  ArrowBufferInit(&copy);
  DB_OK(ArrowBufferAppend(&copy, file_bytes->data, file_bytes->size_bytes));
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  DB_OK(ArrowIpcFileReaderGetSchema(&reader, &schema, &error));
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, i, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  DB_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  DB_OK(ArrowArrayViewSetArray(&view, &batch, &error));
  out[0] = '\0';
  for (j = 0; j < view.length; j++) {
    int64_t index = ArrowArrayViewGetIntUnsafe(view.children[0], j);
    struct ArrowStringView letter =
        ArrowArrayViewGetStringUnsafe(view.children[0]->dictionary, index);
    size_t used = strlen(out);
    snprintf(out + used, out_size - used, "%s%.*s", j == 0 ? "" : ",",
             (int)letter.size_bytes, letter.data);
  }
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
  ArrowIpcFileReaderReset(&reader);
}

/* The number of dictionary blocks in a file's footer. */
static int64_t DbFooterDictionaryBlocks(const struct ArrowBuffer* file_bytes) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView data;
  struct ArrowError error;
  int64_t n;
  DB_OK(ArrowIpcDecoderInit(&decoder));
  data.data.as_uint8 = file_bytes->data;
  data.size_bytes = file_bytes->size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  n = decoder.footer->dictionary_blocks.size_bytes /
      (int64_t)sizeof(struct ArrowIpcFileBlock);
  ArrowIpcDecoderReset(&decoder);
  return n;
}

Test(ipc_writer_dictionary_batch, encoder_simple_dictionary_batch) {
  static const char* const kValues[] = {"x", "yy", "zzz"};
  struct ArrowArray values;
  struct ArrowArrayView view;
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowBuffer message_a;
  struct ArrowBuffer body_a;
  struct ArrowBuffer message_b;
  struct ArrowBuffer body_b;
  struct ArrowBufferView data;
  struct ArrowError error;

  DbStrings(&values, &view, kValues, 3);
  DB_OK(ArrowIpcEncoderInit(&encoder));
  DB_OK(ArrowIpcDecoderInit(&decoder));
  ArrowBufferInit(&message_a);
  ArrowBufferInit(&body_a);
  ArrowBufferInit(&message_b);
  ArrowBufferInit(&body_b);

  DB_OK(ArrowIpcEncoderEncodeSimpleDictionaryBatch(&encoder, 4, 1, &view, &body_a, &error));
  DB_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message_a));
  cr_assert_eq(message_a.size_bytes % 8, 0);
  cr_assert_eq(body_a.size_bytes % 8, 0);
  data.data.as_uint8 = message_a.data;
  data.size_bytes = message_a.size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
  cr_assert_eq(decoder.dictionary->id, 4);
  cr_assert_eq(decoder.dictionary->is_delta, 1);
  cr_assert_eq(decoder.body_size_bytes, body_a.size_bytes);

  /* The earlier name encodes the same message. */
  DB_OK(ArrowIpcEncoderEncodeDictionaryBatch(&encoder, 4, 1, &view, &body_b, &error));
  DB_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message_b));
  cr_assert_eq(message_b.size_bytes, message_a.size_bytes);
  cr_assert_eq(memcmp(message_a.data, message_b.data, (size_t)message_a.size_bytes), 0);
  cr_assert_eq(body_b.size_bytes, body_a.size_bytes);
  cr_assert_eq(memcmp(body_a.data, body_b.data, (size_t)body_a.size_bytes), 0);

  /* Compressed like record batches. */
  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
    message_b.size_bytes = 0;
    body_b.size_bytes = 0;
    DB_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 3,
                                        &error));
    DB_OK(ArrowIpcEncoderEncodeSimpleDictionaryBatch(&encoder, 0, 0, &view, &body_b,
                                                     &error));
    DB_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message_b));
    data.data.as_uint8 = message_b.data;
    data.size_bytes = message_b.size_bytes;
    cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(decoder.codec, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  }

  ArrowBufferReset(&message_a);
  ArrowBufferReset(&body_a);
  ArrowBufferReset(&message_b);
  ArrowBufferReset(&body_b);
  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&values);
}

/* A file whose dictionary the caller writes (then extends by a delta) before the
 * record batches: the batches do not write it again, the footer lists both
 * dictionary batches, and the file reads back. */
static void DbCallerDictionaryFile(enum ArrowIpcCompressionType type) {
  static const char* const kFirst[] = {"a", "b"};
  static const char* const kDelta[] = {"c"};
  static const char* const kAll[] = {"a", "b", "c"};
  static const int32_t kIndices0[] = {1, 0, 1};
  static const int32_t kIndices1[] = {2, 2, 0, 1};
  struct ArrowSchema schema;
  struct ArrowArray first, delta, batch0, batch1;
  struct ArrowArrayView first_view, delta_view, batch0_view, batch1_view;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowBuffer out;
  struct ArrowError error;
  char letters[256];
  int64_t n_dictionary_batches;
  int64_t n_record_batches;

  DbSchema(&schema);
  DbStrings(&first, &first_view, kFirst, 2);
  DbStrings(&delta, &delta_view, kDelta, 1);
  DbBatch(&schema, &batch0, &batch0_view, kIndices0, 3, kAll, 3);
  DbBatch(&schema, &batch1, &batch1_view, kIndices1, 4, kAll, 3);

  ArrowBufferInit(&out);
  DB_OK(ArrowIpcOutputStreamInitBuffer(&stream, &out));
  DB_OK(ArrowIpcWriterInit(&writer, &stream));
  DB_OK(ArrowIpcWriterSetCompression(&writer, type, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                     &error));
  DB_OK(ArrowIpcWriterStartFile(&writer, &error));

  /* Not before the schema. */
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &first_view, &error),
               EINVAL);
  cr_assert_str_eq(error.message, "Write the schema before dictionary batches");
  DB_OK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));

  /* Refused: an id the schema does not have, values of another type, a delta of
   * nothing. None of them writes a byte. */
  {
    int64_t size = out.size_bytes;
    cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 1, 0, &first_view, &error),
                 EINVAL);
    cr_assert_str_eq(error.message,
                     "Dictionary id 1 is not in the schema (which has 1 "
                     "dictionary-encoded fields)");
    cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0,
                                                    batch0_view.children[1], &error),
                 EINVAL);
    cr_assert(strstr(error.message, "Values of dictionary 0 do not match the schema") ==
                  error.message,
              "%s", error.message);
    cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 1, &delta_view, &error),
                 EINVAL);
    cr_assert_str_eq(error.message,
                     "Dictionary 0 has not been written: a delta needs the values it "
                     "extends");
    cr_assert_eq(out.size_bytes, size);
  }

  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &first_view, &error),
               NANOARROW_OK, "%s", error.message);
  /* The file format allows no replacement. */
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &first_view, &error),
               EINVAL);
  cr_assert_str_eq(error.message,
                   "Dictionary 0 was already written, and the IPC file format allows "
                   "only deltas");
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 1, &delta_view, &error),
               NANOARROW_OK, "%s", error.message);

  /* The reader holds a, b, c already: the batches carry no dictionary batch. */
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &batch0_view, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &batch1_view, &error), NANOARROW_OK,
               "%s", error.message);
  DB_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 1, &delta_view, &error),
               EINVAL);
  ArrowIpcWriterReset(&writer);

  DbCountMessages(&out, 8, &n_dictionary_batches, &n_record_batches);
  cr_assert_eq(n_dictionary_batches, 2);
  cr_assert_eq(n_record_batches, 2);
  cr_assert_eq(DbFooterDictionaryBlocks(&out), 2);
  DbReadFileLetters(&out, 0, letters, sizeof(letters));
  cr_assert_str_eq(letters, "b,a,b");
  DbReadFileLetters(&out, 1, letters, sizeof(letters));
  cr_assert_str_eq(letters, "c,c,a,b");

  ArrowBufferReset(&out);
  ArrowArrayViewReset(&batch1_view);
  ArrowArrayViewReset(&batch0_view);
  ArrowArrayViewReset(&delta_view);
  ArrowArrayViewReset(&first_view);
  ArrowArrayRelease(&batch1);
  ArrowArrayRelease(&batch0);
  ArrowArrayRelease(&delta);
  ArrowArrayRelease(&first);
  ArrowSchemaRelease(&schema);
}

Test(ipc_writer_dictionary_batch, file_uncompressed) {
  DbCallerDictionaryFile(NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(ipc_writer_dictionary_batch, file_compressed) {
  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
    DbCallerDictionaryFile(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  }
  if (ArrowIpcGetLZ4CompressionFunction() != NULL) {
    DbCallerDictionaryFile(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
  }
}

/* In a stream the caller may replace a dictionary; a record batch whose dictionary
 * differs from what the caller wrote still gets the dictionary it needs. */
Test(ipc_writer_dictionary_batch, stream_replacement_and_batches) {
  static const char* const kOld[] = {"p", "q"};
  static const char* const kNew[] = {"r", "s", "t"};
  static const int32_t kIndices[] = {0, 2};
  struct ArrowSchema schema;
  struct ArrowArray old_values, new_values, batch;
  struct ArrowArrayView old_view, new_view, batch_view;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowBuffer out;
  struct ArrowError error;
  int64_t n_dictionary_batches;
  int64_t n_record_batches;

  DbSchema(&schema);
  DbStrings(&old_values, &old_view, kOld, 2);
  DbStrings(&new_values, &new_view, kNew, 3);
  DbBatch(&schema, &batch, &batch_view, kIndices, 2, kNew, 3);

  ArrowBufferInit(&out);
  DB_OK(ArrowIpcOutputStreamInitBuffer(&stream, &out));
  DB_OK(ArrowIpcWriterInit(&writer, &stream));
  DB_OK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
  DB_OK(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &old_view, &error));
  /* The batch's dictionary (r, s, t) is not what the reader holds (p, q): the
   * writer replaces it before the batch. */
  DB_OK(ArrowIpcWriterWriteArrayView(&writer, &batch_view, &error));
  /* Caller replacement to r, s, t, then the same batch: nothing more to write. */
  DB_OK(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &new_view, &error));
  DB_OK(ArrowIpcWriterWriteArrayView(&writer, &batch_view, &error));
  DB_OK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  cr_assert_eq(ArrowIpcWriterWriteDictionaryBatch(&writer, 0, 0, &new_view, &error),
               EINVAL);
  cr_assert_str_eq(error.message, "The end-of-stream marker was already written");
  ArrowIpcWriterReset(&writer);

  DbCountMessages(&out, 0, &n_dictionary_batches, &n_record_batches);
  cr_assert_eq(n_dictionary_batches, 3);
  cr_assert_eq(n_record_batches, 2);

  /* And the stream reads back with the batches' letters. */
  {
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream reader;
    struct ArrowSchema read_schema;
    struct ArrowArray read;
    struct ArrowArrayView read_view;
    int equal = 0;
    int k;
    DB_OK(ArrowIpcInputStreamInitBuffer(&input, &out));
    DB_OK(ArrowIpcArrayStreamReaderInit(&reader, &input, NULL));
    DB_OK(ArrowArrayStreamGetSchema(&reader, &read_schema, &error));
    DB_OK(ArrowArrayViewInitFromSchema(&read_view, &read_schema, &error));
    for (k = 0; k < 2; k++) {
      cr_assert_eq(ArrowArrayStreamGetNext(&reader, &read, &error), NANOARROW_OK, "%s",
                   error.message);
      DB_OK(ArrowArrayViewSetArray(&read_view, &read, &error));
      DB_OK(ArrowArrayViewCompare(&read_view, &batch_view, NANOARROW_COMPARE_IDENTICAL,
                                  &equal, &error));
      cr_assert(equal, "batch %d differs: %s", k, error.message);
      ArrowArrayRelease(&read);
    }
    ArrowArrayViewReset(&read_view);
    ArrowSchemaRelease(&read_schema);
    ArrowArrayStreamRelease(&reader);
  }

  ArrowArrayViewReset(&batch_view);
  ArrowArrayViewReset(&new_view);
  ArrowArrayViewReset(&old_view);
  ArrowArrayRelease(&batch);
  ArrowArrayRelease(&new_values);
  ArrowArrayRelease(&old_values);
  ArrowSchemaRelease(&schema);
}

/* ArrowIpcWriterWriteArrayStream writes the dictionaries itself, listing them in
 * the file footer. */
Test(ipc_writer_dictionary_batch, array_stream_file_footer) {
  static const char* const kAll[] = {"a", "b", "c"};
  static const int32_t kIndices[] = {0, 1, 2, 1};
  struct ArrowSchema schema;
  struct ArrowSchema stream_schema;
  struct ArrowArray batch;
  struct ArrowArrayView batch_view;
  struct ArrowArrayStream in;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowBuffer out;
  struct ArrowError error;
  char letters[256];

  DbSchema(&schema);
  DbBatch(&schema, &batch, &batch_view, kIndices, 4, kAll, 3);
  ArrowArrayViewReset(&batch_view);
  DB_OK(ArrowSchemaDeepCopy(&schema, &stream_schema));
  DB_OK(ArrowBasicArrayStreamInit(&in, &stream_schema, 1));
  ArrowBasicArrayStreamSetArray(&in, 0, &batch);

  ArrowBufferInit(&out);
  DB_OK(ArrowIpcOutputStreamInitBuffer(&stream, &out));
  DB_OK(ArrowIpcWriterInit(&writer, &stream));
  DB_OK(ArrowIpcWriterStartFile(&writer, &error));
  cr_assert_eq(ArrowIpcWriterWriteArrayStream(&writer, &in, &error), NANOARROW_OK, "%s",
               error.message);
  DB_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  ArrowIpcWriterReset(&writer);
  ArrowArrayStreamRelease(&in);

  cr_assert_eq(DbFooterDictionaryBlocks(&out), 1);
  DbReadFileLetters(&out, 0, letters, sizeof(letters));
  cr_assert_str_eq(letters, "a,b,c,b");
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
}
