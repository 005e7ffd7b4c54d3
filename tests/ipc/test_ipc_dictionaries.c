/* The public dictionary API: encodings, ArrowIpcDictionaries, DecodeDictionary. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"
#include "ipc/encodings_test_util.h"

static void ReadWholeFile(const char* name, struct ArrowBuffer* out) {
  char path[1024];
  FILE* file;
  int64_t n;
  snprintf(path, sizeof(path), "%s/arrow-ipc-stream/integration/1.0.0-littleendian/%s",
           NANOARROW_TEST_DATA_DIR, name);
  file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  ArrowBufferInit(out);
  cr_assert_eq(ArrowBufferReserve(out, 1 << 20), NANOARROW_OK);
  n = (int64_t)fread(out->data, 1, (size_t)out->capacity_bytes, file);
  out->size_bytes = n;
  fclose(file);
}

/* Encodings made from a schema number the encoded fields in pre-order,
 * descending into dictionary values. */
Test(ipc_dictionaries, encodings_append_schema) {
  struct ArrowSchema schema;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowIpcDictionaryEncoding bad;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[0]), NANOARROW_OK);
  ArrowSchemaInit((schema.children[0])->dictionary);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[0]->dictionary, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->dictionary->children[0],
                                  NANOARROW_TYPE_INT16),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[0]->dictionary->children[0]),
               NANOARROW_OK);
  ArrowSchemaInit(schema.children[0]->dictionary->children[0]->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->dictionary->children[0]->dictionary,
                                  NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);

  ArrowIpcDictionaryEncodingsInit(&encodings);
  cr_assert_eq(ArrowIpcDictionaryEncodingsAppendSchema(&encodings, &schema), NANOARROW_OK);
  cr_assert_eq(TEST_N_ENCODINGS(encodings), 2);
  cr_assert_eq(TEST_ENCODING(encodings, 0).id, 0);
  cr_assert_eq(TEST_ENCODING(encodings, 0).schema, schema.children[0]);
  cr_assert_eq(TEST_ENCODING(encodings, 1).id, 1);
  cr_assert_eq(TEST_ENCODING(encodings, 1).schema,
               schema.children[0]->dictionary->children[0]);
  cr_assert_eq(TEST_ENCODING(encodings, 1).kind, NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY);
  cr_assert_eq((int)NANOARROW_IPC_DICTIONARY_KIND_UNINITIALIZED, 0);

  /* Find: by the field's address; not the struct, not a plain field, not NULL. */
  cr_assert_eq(ArrowIpcDictionaryEncodingsFind(&encodings, schema.children[0]),
               &TEST_ENCODING(encodings, 0));
  cr_assert_eq(
      ArrowIpcDictionaryEncodingsFind(&encodings, schema.children[0]->dictionary->children[0]),
      &TEST_ENCODING(encodings, 1));
  cr_assert_null(ArrowIpcDictionaryEncodingsFind(&encodings, &schema));
  cr_assert_null(ArrowIpcDictionaryEncodingsFind(&encodings, schema.children[1]));
  cr_assert_null(ArrowIpcDictionaryEncodingsFind(&encodings, NULL));

  /* A field without a dictionary is no encoding. */
  bad.id = 7;
  bad.kind = NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY;
  bad.schema = schema.children[1];
  cr_assert_eq(ArrowIpcDictionaryEncodingsAppend(&encodings, bad), EINVAL);
  cr_assert_eq(TEST_N_ENCODINGS(encodings), 2);
  ArrowIpcDictionaryEncodingsReset(&encodings);
  ArrowSchemaRelease(&schema);
}

/* Decoding generated_dictionary.stream message by message through the public
 * API: the dictionaries object and the record batches see the same values. */
Test(ipc_dictionaries, decode_stream_with_dictionaries) {
  struct ArrowBuffer file;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcDictionaryEncodings encodings;
  struct ArrowIpcDictionaries dictionaries;
  struct ArrowSchema schema;
  struct ArrowError error;
  int64_t pos = 0;
  int64_t n_dictionary_batches = 0;
  int64_t n_record_batches = 0;
  int64_t i;

  ReadWholeFile("generated_dictionary.stream", &file);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  ArrowIpcDictionaryEncodingsInit(&encodings);
  dictionaries.private_data = NULL;
  schema.release = NULL;

  for (;;) {
    struct ArrowBufferView view;
    struct ArrowBufferView body;
    int result;
    view.data.as_uint8 = file.data + pos;
    view.size_bytes = file.size_bytes - pos;
    result = ArrowIpcDecoderDecodeHeader(&decoder, view, &error);
    if (result == ENODATA) break;
    cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
    body.data.as_uint8 = view.data.as_uint8 + decoder.header_size_bytes;
    body.size_bytes = decoder.body_size_bytes;
    pos += decoder.header_size_bytes + decoder.body_size_bytes;

    /* decoder.dictionary: the header of a DictionaryBatch, NULL for the others. */
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      int known_id = 0;
      cr_assert_not_null(decoder.dictionary);
      for (i = 0; i < TEST_N_ENCODINGS(encodings); i++) {
        known_id |= TEST_ENCODING(encodings, i).id == decoder.dictionary->id;
      }
      cr_assert(known_id, "DictionaryBatch id %ld", (long)decoder.dictionary->id);
      cr_assert_eq(decoder.dictionary->is_delta, 0);
    } else {
      cr_assert_null(decoder.dictionary);
    }

    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      cr_assert_eq(ArrowIpcDecoderDecodeSchemaWithDictionaries(&decoder, &schema,
                                                               &encodings, &error),
                   NANOARROW_OK, "%s", error.message);
      cr_assert_gt(TEST_N_ENCODINGS(encodings), 0);
      cr_assert_eq(ArrowIpcDecoderSetSchemaWithDictionaries(&decoder, &schema, &encodings,
                                                            &error),
                   NANOARROW_OK, "%s", error.message);
      cr_assert_eq(ArrowIpcDictionariesInit(&dictionaries, &encodings, &error),
                   NANOARROW_OK);
      /* Nothing decoded yet. */
      {
        const struct ArrowArray* value;
        cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(
                         &dictionaries, TEST_ENCODING(encodings, 0).id, &value, &error),
                     EINVAL);
      }
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      cr_assert_eq(ArrowIpcDecoderDecodeDictionary(&decoder, body,
                                                   NANOARROW_VALIDATION_LEVEL_FULL,
                                                   &dictionaries, &error),
                   NANOARROW_OK, "%s", error.message);
      n_dictionary_batches++;
    } else {
      struct ArrowArray batch;
      cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH);
      cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &batch,
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      /* Each top-level encoded column carries the dictionary's current values. */
      for (i = 0; i < TEST_N_ENCODINGS(encodings); i++) {
        int64_t c;
        for (c = 0; c < schema.n_children; c++) {
          if (schema.children[c] == TEST_ENCODING(encodings, i).schema) {
            const struct ArrowArray* value;
            cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(
                             &dictionaries, TEST_ENCODING(encodings, i).id, &value, &error),
                         NANOARROW_OK, "%s", error.message);
            cr_assert_not_null(batch.children[c]->dictionary);
            cr_assert_eq(batch.children[c]->dictionary->length, value->length);
            cr_assert_eq(batch.children[c]->dictionary->buffers[1], value->buffers[1]);
          }
        }
      }
      ArrowArrayRelease(&batch);
      n_record_batches++;
    }
  }
  cr_assert_eq(n_dictionary_batches, 3);
  cr_assert_gt(n_record_batches, 0);

  /* The values outlive the decoder through the dictionaries object. */
  ArrowIpcDecoderReset(&decoder);
  {
    const struct ArrowArray* value;
    cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(
                     &dictionaries, TEST_ENCODING(encodings, 0).id, &value, &error),
                 NANOARROW_OK);
    cr_assert_gt(value->length, 0);
  }
  cr_assert_eq(ArrowIpcDictionariesFindCurrentValue(&dictionaries, 12345, NULL, &error),
               EINVAL);
  ArrowIpcDictionariesReset(&dictionaries);
  ArrowIpcDictionaryEncodingsReset(&encodings);
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&file);
}

/* The validation level is an argument, never an uninitialised struct member:
 * out-of-range levels are refused, valid ones read the stream. */
Test(ipc_dictionaries, stream_reader_validation_level_argument) {
  struct ArrowBuffer data;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  ReadWholeFile("generated_primitive.stream", &data);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &data), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInitWithValidation(
                   &stream, &input, NULL, (enum ArrowValidationLevel)42),
               EINVAL);
  cr_assert_eq(ArrowIpcArrayStreamReaderInitWithValidation(
                   &stream, &input, NULL, NANOARROW_VALIDATION_LEVEL_DEFAULT),
               NANOARROW_OK);
  {
    struct ArrowArray array;
    int64_t n = 0;
    for (;;) {
      cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
      if (array.release == NULL) break;
      ArrowArrayRelease(&array);
      n++;
    }
    cr_assert_gt(n, 0);
  }
  ArrowArrayStreamRelease(&stream);
}

/* decoder.dictionary carries a DictionaryBatch header's id and isDelta flag. */
Test(ipc_dictionaries, decoder_exposes_dictionary_batch_header) {
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowArray values;
  struct ArrowArrayView view;
  struct ArrowBuffer message;
  struct ArrowBuffer body;
  struct ArrowBufferView data;
  struct ArrowError error;
  int is_delta;

  cr_assert_eq(ArrowArrayInitFromType(&values, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&values), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&values, 42), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&values, NULL), NANOARROW_OK);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &values, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_null(decoder.dictionary);
  ArrowBufferInit(&message);
  ArrowBufferInit(&body);

  for (is_delta = 0; is_delta <= 1; is_delta++) {
    message.size_bytes = 0;
    body.size_bytes = 0;
    cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&encoder, 5 + is_delta, is_delta,
                                                      &view, &body, &error),
                 NANOARROW_OK, "%s", error.message);
    cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message), NANOARROW_OK);
    data.data.as_uint8 = message.data;
    data.size_bytes = message.size_bytes;
    cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
    cr_assert_not_null(decoder.dictionary);
    cr_assert_eq(decoder.dictionary->id, 5 + is_delta);
    cr_assert_eq(decoder.dictionary->is_delta, is_delta);
  }

  /* Any other message clears it. */
  message.size_bytes = 0;
  body.size_bytes = 0;
  {
    struct ArrowSchema schema;
    cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
    cr_assert_eq(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error), NANOARROW_OK);
    ArrowSchemaRelease(&schema);
  }
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message), NANOARROW_OK);
  data.data.as_uint8 = message.data;
  data.size_bytes = message.size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_null(decoder.dictionary);

  ArrowBufferReset(&message);
  ArrowBufferReset(&body);
  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&values);
}
