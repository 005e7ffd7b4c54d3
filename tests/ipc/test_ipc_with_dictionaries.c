/* nanoarrow 0.9.0's dictionary API: record batches decoded against caller-held
 * ArrowIpcDictionaries (...WithDictionaries), bodies passed as core shared buffers
 * (...FromShared), ArrowIpcDictionaryEncodingsFindById / UniqueIds, and the 0.8
 * shared-buffer names that still compile. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "ipc/encodings_test_util.h"

static void ReadStream(const char* name, struct ArrowBuffer* out) {
  char path[1024];
  FILE* file;
  snprintf(path, sizeof(path), "%s/arrow-ipc-stream/integration/1.0.0-littleendian/%s",
           NANOARROW_TEST_DATA_DIR, name);
  file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  ArrowBufferInit(out);
  cr_assert_eq(ArrowBufferReserve(out, 1 << 20), NANOARROW_OK);
  out->size_bytes = (int64_t)fread(out->data, 1, (size_t)out->capacity_bytes, file);
  fclose(file);
}

/* One message of a stream at a time. */
struct MessageCursor {
  const struct ArrowBuffer* stream;
  int64_t pos;
};

/* Decodes the next header with decoder; 0 at the end of the stream. */
static int NextMessage(struct MessageCursor* cursor, struct ArrowIpcDecoder* decoder,
                       struct ArrowBufferView* body) {
  struct ArrowBufferView view;
  struct ArrowError error;
  int result;
  view.data.as_uint8 = cursor->stream->data + cursor->pos;
  view.size_bytes = cursor->stream->size_bytes - cursor->pos;
  result = ArrowIpcDecoderDecodeHeader(decoder, view, &error);
  if (result == ENODATA) return 0;
  cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
  body->data.as_uint8 = view.data.as_uint8 + decoder->header_size_bytes;
  body->size_bytes = decoder->body_size_bytes;
  cursor->pos += decoder->header_size_bytes + decoder->body_size_bytes;
  return 1;
}

/* The state of the test: decoder `reader` sees every message and fills
 * `dictionaries`; decoder `other` has the schema only and never sees a
 * DictionaryBatch, so it can decode record batches only with those dictionaries. */
struct Fixture {
  struct ArrowBuffer stream;
  struct ArrowIpcDecoder reader;
  struct ArrowIpcDecoder other;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowIpcDictionaries dictionaries;
  struct ArrowSchema schema;
  struct MessageCursor cursor;
};

/* Reads up to (and including) the header of the first record batch. */
static void FixtureStart(struct Fixture* f, struct ArrowBufferView* body) {
  struct ArrowError error;
  struct ArrowSchema copy;
  ReadStream("generated_dictionary.stream", &f->stream);
  cr_assert_eq(ArrowIpcDecoderInit(&f->reader), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderInit(&f->other), NANOARROW_OK);
  ArrowIpcDictionaryEncodingsInit(&f->encodings);
  f->dictionaries.private_data = NULL;
  f->cursor.stream = &f->stream;
  f->cursor.pos = 0;

  cr_assert(NextMessage(&f->cursor, &f->reader, body));
  cr_assert_eq(f->reader.message_type, NANOARROW_IPC_MESSAGE_TYPE_SCHEMA);
  cr_assert_eq(ArrowIpcDecoderDecodeSchemaWithDictionaries(&f->reader, &f->schema,
                                                           &f->encodings, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcDecoderSetSchemaWithDictionaries(&f->reader, &f->schema,
                                                        &f->encodings, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowSchemaDeepCopy(&f->schema, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&f->other, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowSchemaRelease(&copy);
  cr_assert_eq(ArrowIpcDictionariesInit(&f->dictionaries, &f->encodings, &error),
               NANOARROW_OK);

  while (NextMessage(&f->cursor, &f->reader, body)) {
    if (f->reader.message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) return;
    cr_assert_eq(f->reader.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
    cr_assert_eq(ArrowIpcDecoderDecodeDictionary(&f->reader, *body,
                                                 NANOARROW_VALIDATION_LEVEL_FULL,
                                                 &f->dictionaries, &error),
                 NANOARROW_OK, "%s", error.message);
  }
  cr_assert_fail("no record batch in the stream");
}

/* The other decoder gets the record batch header the reader just decoded. */
static void OtherDecodesSameHeader(struct Fixture* f, const struct ArrowBufferView* body) {
  struct ArrowBufferView header;
  struct ArrowError error;
  header.data.as_uint8 = body->data.as_uint8 - f->reader.header_size_bytes;
  header.size_bytes = f->reader.header_size_bytes + body->size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&f->other, header, &error), NANOARROW_OK, "%s",
               error.message);
}

static void FixtureEnd(struct Fixture* f) {
  ArrowIpcDecoderReset(&f->reader);
  ArrowIpcDecoderReset(&f->other);
  ArrowIpcDictionariesReset(&f->dictionaries);
  ArrowIpcDictionaryEncodingsReset(&f->encodings);
  ArrowSchemaRelease(&f->schema);
  ArrowBufferReset(&f->stream);
}

/* Every top-level dictionary-encoded column of batch uses the current values
 * of its id in dictionaries (the same memory, not a copy). */
static int CheckColumnsUseDictionaries(struct Fixture* f, const struct ArrowArray* batch) {
  int n_checked = 0;
  for (int64_t c = 0; c < f->schema.n_children; c++) {
    const struct ArrowIpcDictionaryEncoding* encoding =
        ArrowIpcDictionaryEncodingsFind(&f->encodings, f->schema.children[c]);
    const struct ArrowArray* value;
    struct ArrowError error;
    if (encoding == NULL) continue;
    cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(&f->dictionaries, encoding->id, &value,
                                                      &error),
                 NANOARROW_OK, "%s", error.message);
    cr_assert_not_null(batch->children[c]->dictionary);
    cr_assert_eq(batch->children[c]->dictionary->length, value->length);
    cr_assert_eq(batch->children[c]->dictionary->buffers[1], value->buffers[1]);
    n_checked++;
  }
  return n_checked;
}

Test(ipc_with_dictionaries, decode_array_with_callers_dictionaries) {
  struct Fixture f;
  struct ArrowBufferView body;
  struct ArrowArray batch;
  struct ArrowError error;
  FixtureStart(&f, &body);
  OtherDecodesSameHeader(&f, &body);

  /* Without the dictionaries the other decoder has no values for the fields. */
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&f.other, body, -1, &batch,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert(strstr(error.message, "has not been received") != NULL, "%s", error.message);

  cr_assert_eq(ArrowIpcDecoderDecodeArrayWithDictionaries(&f.other, body, -1,
                                                          &f.dictionaries, &batch,
                                                          NANOARROW_VALIDATION_LEVEL_FULL,
                                                          &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_gt(CheckColumnsUseDictionaries(&f, &batch), 0);

  /* The batch keeps its dictionary values alive after everything else is gone. */
  const void* values = batch.children[0]->dictionary->buffers[1];
  int64_t length = batch.children[0]->dictionary->length;
  FixtureEnd(&f);
  cr_assert_eq(batch.children[0]->dictionary->buffers[1], values);
  cr_assert_eq(batch.children[0]->dictionary->length, length);
  ArrowArrayRelease(&batch);

  /* NULL dictionaries: the decoder's own, as DecodeArray. */
  FixtureStart(&f, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeArrayWithDictionaries(&f.reader, body, -1, NULL, &batch,
                                                          NANOARROW_VALIDATION_LEVEL_FULL,
                                                          &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_gt(CheckColumnsUseDictionaries(&f, &batch), 0);
  ArrowArrayRelease(&batch);
  FixtureEnd(&f);
}

Test(ipc_with_dictionaries, dictionaries_without_values_are_refused) {
  struct Fixture f;
  struct ArrowBufferView body;
  struct ArrowArray batch;
  struct ArrowArrayView* view;
  struct ArrowIpcDictionaries empty;
  struct ArrowError error;
  FixtureStart(&f, &body);
  cr_assert_eq(ArrowIpcDictionariesInit(&empty, &f.encodings, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeArrayWithDictionaries(&f.reader, body, -1, &empty, &batch,
                                                          NANOARROW_VALIDATION_LEVEL_FULL,
                                                          &error),
               EINVAL);
  cr_assert(strstr(error.message, "no values for id") != NULL, "%s", error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeArrayViewWithDictionaries(&f.reader, body, -1, &empty,
                                                              &view, &error),
               EINVAL);
  /* The failure leaves the decoder's own dictionaries in use afterwards. */
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&f.reader, body, -1, &batch,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&batch);
  ArrowIpcDictionariesReset(&empty);
  FixtureEnd(&f);
}

Test(ipc_with_dictionaries, decode_array_view_with_callers_dictionaries) {
  struct Fixture f;
  struct ArrowBufferView body;
  struct ArrowArrayView* view;
  struct ArrowError error;
  int n_checked = 0;
  FixtureStart(&f, &body);
  OtherDecodesSameHeader(&f, &body);
  cr_assert_eq(ArrowIpcDecoderDecodeArrayViewWithDictionaries(&f.other, body, -1,
                                                              &f.dictionaries, &view, &error),
               NANOARROW_OK, "%s", error.message);
  for (int64_t c = 0; c < f.schema.n_children; c++) {
    const struct ArrowIpcDictionaryEncoding* encoding =
        ArrowIpcDictionaryEncodingsFind(&f.encodings, f.schema.children[c]);
    const struct ArrowArray* value;
    if (encoding == NULL) continue;
    cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(&f.dictionaries, encoding->id, &value,
                                                      &error),
                 NANOARROW_OK);
    cr_assert_not_null(view->children[c]->dictionary);
    cr_assert_eq(view->children[c]->dictionary->length, value->length);
    cr_assert_eq(view->children[c]->dictionary->buffer_views[1].data.data, value->buffers[1]);
    n_checked++;
  }
  cr_assert_gt(n_checked, 0);
  cr_assert_eq(ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  FixtureEnd(&f);
}

Test(ipc_with_dictionaries, decode_from_shared_with_dictionaries) {
  struct Fixture f;
  struct ArrowBufferView body;
  struct ArrowBuffer copy;
  struct ArrowBuffer shared;
  struct ArrowBuffer plain;
  struct ArrowArray batch;
  struct ArrowError error;
  FixtureStart(&f, &body);
  OtherDecodesSameHeader(&f, &body);

  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, body.data.data, body.size_bytes), NANOARROW_OK);
  ArrowBufferInit(&plain);
  cr_assert_eq(ArrowBufferAppend(&plain, body.data.data, body.size_bytes), NANOARROW_OK);
  cr_assert_eq(ArrowSharedBufferInit(&shared, &copy), NANOARROW_OK);

  /* An ordinary buffer is no shared body. */
  cr_assert_eq(ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries(
                   &f.other, &plain, -1, &f.dictionaries, &batch,
                   NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert(strstr(error.message, "shared buffer") != NULL, "%s", error.message);

  cr_assert_eq(ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries(
                   &f.other, &shared, -1, &f.dictionaries, &batch,
                   NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_gt(CheckColumnsUseDictionaries(&f, &batch), 0);

  /* Zero-copy: the indices point into the shared body, which the batch keeps alive. */
  const uint8_t* body_start = shared.data;
  const uint8_t* indices = (const uint8_t*)batch.children[0]->buffers[1];
  cr_assert(indices >= body_start && indices < body_start + shared.size_bytes);
  ArrowBufferReset(&shared);
  ArrowBufferReset(&plain);
  FixtureEnd(&f);
  volatile uint8_t first = indices[0]; /* ASan: still allocated */
  (void)first;
  ArrowArrayRelease(&batch);
}

/* Code written for nanoarrow 0.8 (struct ArrowIpcSharedBuffer and its functions)
 * compiles and works unchanged. */
Test(ipc_with_dictionaries, shared_buffer_0_8_names) {
  struct Fixture f;
  struct ArrowBufferView body;
  struct ArrowBuffer copy;
  struct ArrowIpcSharedBuffer shared;
  struct ArrowArray batch;
  struct ArrowError error;
  FixtureStart(&f, &body);
  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, body.data.data, body.size_bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcSharedBufferInit(&shared, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcSharedBufferIsThreadSafe(), ArrowSharedBufferIsThreadSafe());
  cr_assert_eq(ArrowIpcDecoderDecodeArrayFromShared(&f.reader, &shared, -1, &batch,
                                                    NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowIpcSharedBufferReset(&shared);
  cr_assert_gt(CheckColumnsUseDictionaries(&f, &batch), 0);
  ArrowArrayRelease(&batch);
  FixtureEnd(&f);
}

Test(ipc_with_dictionaries, dictionary_from_shared_body) {
  struct ArrowBuffer stream;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowIpcDictionaries dictionaries;
  struct ArrowSchema schema;
  struct MessageCursor cursor;
  struct ArrowBufferView body;
  struct ArrowError error;
  int n_dictionaries = 0;
  ReadStream("generated_dictionary.stream", &stream);
  cursor.stream = &stream;
  cursor.pos = 0;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  ArrowIpcDictionaryEncodingsInit(&encodings);
  cr_assert(NextMessage(&cursor, &decoder, &body));
  cr_assert_eq(ArrowIpcDecoderDecodeSchemaWithDictionaries(&decoder, &schema, &encodings,
                                                           &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchemaWithDictionaries(&decoder, &schema, &encodings, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowIpcDictionariesInit(&dictionaries, &encodings, &error), NANOARROW_OK);
  while (NextMessage(&cursor, &decoder, &body) &&
         decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
    struct ArrowBuffer copy;
    struct ArrowBuffer shared;
    const struct ArrowArray* value;
    int64_t id = decoder.dictionary->id;
    ArrowBufferInit(&copy);
    cr_assert_eq(ArrowBufferAppend(&copy, body.data.data, body.size_bytes), NANOARROW_OK);
    cr_assert_eq(ArrowSharedBufferInit(&shared, &copy), NANOARROW_OK);
    cr_assert_eq(ArrowIpcDecoderDecodeDictionaryFromShared(&decoder, &shared,
                                                           NANOARROW_VALIDATION_LEVEL_FULL,
                                                           &dictionaries, &error),
                 NANOARROW_OK, "%s", error.message);
    ArrowBufferReset(&shared);
    cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(&dictionaries, id, &value, &error),
                 NANOARROW_OK);
    cr_assert_gt(value->length, 0);
    n_dictionaries++;
  }
  cr_assert_eq(n_dictionaries, 3);
  ArrowIpcDecoderReset(&decoder);
  ArrowIpcDictionariesReset(&dictionaries);
  ArrowIpcDictionaryEncodingsReset(&encodings);
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&stream);
}

/* ---- FindById / UniqueIds ---- */

static void DictionaryField(struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaSetType(schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema->dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);
}

Test(ipc_with_dictionaries, encodings_find_by_id_and_unique_ids) {
  struct ArrowSchema schema;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowBuffer ids;
  const int64_t field_ids[] = {5, 2, 5, 9, 2};
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 5), NANOARROW_OK);
  ArrowIpcDictionaryEncodingsInit(&encodings);
  for (int i = 0; i < 5; i++) {
    struct ArrowIpcDictionaryEncoding encoding;
    DictionaryField(schema.children[i]);
    encoding.schema = schema.children[i];
    encoding.id = field_ids[i];
    encoding.kind = NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY;
    cr_assert_eq(ArrowIpcDictionaryEncodingsAppend(&encodings, encoding), NANOARROW_OK);
  }

  /* The first encoding with the id, in list order. */
  cr_assert_eq(ArrowIpcDictionaryEncodingsFindById(&encodings, 5), &TEST_ENCODING(encodings, 0));
  cr_assert_eq(ArrowIpcDictionaryEncodingsFindById(&encodings, 2), &TEST_ENCODING(encodings, 1));
  cr_assert_eq(ArrowIpcDictionaryEncodingsFindById(&encodings, 9)->schema, schema.children[3]);
  cr_assert_null(ArrowIpcDictionaryEncodingsFindById(&encodings, 7));
  cr_assert_null(ArrowIpcDictionaryEncodingsFindById(&encodings, -1));

  /* Each id once, in the order of first use, appended after what ids holds. */
  ArrowBufferInit(&ids);
  const int64_t sentinel = -42;
  cr_assert_eq(ArrowBufferAppend(&ids, &sentinel, sizeof(sentinel)), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDictionaryEncodingsUniqueIds(&encodings, &ids), NANOARROW_OK);
  cr_assert_eq(ids.size_bytes, 4 * (int64_t)sizeof(int64_t));
  const int64_t* got = (const int64_t*)ids.data;
  cr_assert_eq(got[0], -42);
  cr_assert_eq(got[1], 5);
  cr_assert_eq(got[2], 2);
  cr_assert_eq(got[3], 9);
  ArrowBufferReset(&ids);

  /* No encodings: nothing appended. */
  struct ArrowIpcDictionaryEncodings none;
  ArrowIpcDictionaryEncodingsInit(&none);
  ArrowBufferInit(&ids);
  cr_assert_eq(ArrowIpcDictionaryEncodingsUniqueIds(&none, &ids), NANOARROW_OK);
  cr_assert_eq(ids.size_bytes, 0);
  cr_assert_null(ArrowIpcDictionaryEncodingsFindById(&none, 0));
  ArrowBufferReset(&ids);
  ArrowIpcDictionaryEncodingsReset(&none);

  ArrowIpcDictionaryEncodingsReset(&encodings);
  ArrowSchemaRelease(&schema);
}
