/* What an IPC reader keeps between messages: dictionaries grown by deltas
 * (appended in place or copied, compressed or not, with replacements in between)
 * must read back exactly, and the bytes held must stay within the reader's budget
 * (ArrowIpc*SetMaxHeldBytes), with a clear error when a dictionary would take them
 * over it. The hostile cases of issue 24 (many compressed dictionaries, compressed
 * deltas that decompress to 1 MiB each, thousands of small deltas) are built here
 * with the encoder, and their peak memory is asserted. */

#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "heap_peak_util.h"
#include "ipc/ipc_private.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define HELD_OK(expr)                                                       \
  do {                                                                      \
    ArrowErrorCode held_rc_ = (expr);                                       \
    cr_assert_eq(held_rc_, NANOARROW_OK, "%s failed: %d", #expr, held_rc_); \
  } while (0)

/* ---- Values: element i of the whole dictionary, whichever message carries it ---- */

/* Value types of the dictionaries below. */
enum HeldKind { kHeldInt32, kHeldString, kHeldBool, kHeldZeros, kHeldText };

static enum ArrowType HeldType(enum HeldKind kind) {
  switch (kind) {
    case kHeldInt32:
      return NANOARROW_TYPE_INT32;
    case kHeldString:
    case kHeldText:
      return NANOARROW_TYPE_STRING;
    case kHeldBool:
      return NANOARROW_TYPE_BOOL;
    default:
      return NANOARROW_TYPE_INT8;
  }
}

/* int32: 7 i, null when i % 5 == 3; string: "value <i>", null when i % 4 == 1;
 * bool: i % 3 == 0, null when i % 7 == 2; zeros: int8 0 (compresses to nothing);
 * text: "value <i>", never null. */
static int HeldIsNull(enum HeldKind kind, int64_t i) {
  switch (kind) {
    case kHeldInt32:
      return i % 5 == 3;
    case kHeldString:
      return i % 4 == 1;
    case kHeldBool:
      return i % 7 == 2;
    default:
      return 0;
  }
}

/* Builds the values [start, end) of kind into a new array and its view. */
static void HeldValues(enum HeldKind kind, int64_t start, int64_t end,
                       struct ArrowArray* array, struct ArrowArrayView* view) {
  struct ArrowError error;
  char text[32];
  int64_t i;
  HELD_OK(ArrowArrayInitFromType(array, HeldType(kind)));
  HELD_OK(ArrowArrayStartAppending(array));
  if (kind == kHeldZeros) {
    /* Megabytes of them: filled at once. */
    HELD_OK(ArrowBufferAppendFill(ArrowArrayBuffer(array, 1), 0, end - start));
    array->length = end - start;
    start = end;
  }
  for (i = start; i < end; i++) {
    if (HeldIsNull(kind, i)) {
      HELD_OK(ArrowArrayAppendNull(array, 1));
    } else if (kind == kHeldString || kind == kHeldText) {
      snprintf(text, sizeof(text), "value %d", (int)i);
      HELD_OK(ArrowArrayAppendString(array, ArrowCharView(text)));
    } else if (kind == kHeldInt32) {
      HELD_OK(ArrowArrayAppendInt(array, 7 * i));
    } else if (kind == kHeldBool) {
      HELD_OK(ArrowArrayAppendInt(array, i % 3 == 0));
    } else {
      HELD_OK(ArrowArrayAppendInt(array, 0));
    }
  }
  cr_assert_eq(ArrowArrayFinishBuilding(array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayViewInitFromType(view, HeldType(kind));
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* Checks that dictionary (as read) holds exactly values [0, length) of kind. */
static void HeldCheckValues(enum HeldKind kind, const struct ArrowArray* dictionary,
                            int64_t length) {
  struct ArrowArrayView view;
  struct ArrowError error;
  char text[32];
  int64_t i;
  cr_assert_eq(dictionary->length, length, "dictionary of %ld values, expected %ld",
               (long)dictionary->length, (long)length);
  ArrowArrayViewInitFromType(&view, HeldType(kind));
  cr_assert_eq(ArrowArrayViewSetArray(&view, dictionary, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  for (i = 0; i < length; i++) {
    cr_assert_eq(ArrowArrayViewIsNull(&view, i), HeldIsNull(kind, i), "value %ld",
                 (long)i);
    if (HeldIsNull(kind, i)) continue;
    if (kind == kHeldString || kind == kHeldText) {
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(&view, i);
      snprintf(text, sizeof(text), "value %d", (int)i);
      cr_assert_eq((size_t)value.size_bytes, strlen(text), "value %ld", (long)i);
      cr_assert(memcmp(value.data, text, strlen(text)) == 0, "value %ld", (long)i);
    } else if (kind == kHeldInt32) {
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), 7 * i, "value %ld", (long)i);
    } else if (kind == kHeldBool) {
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), i % 3 == 0, "value %ld",
                   (long)i);
    } else {
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), 0, "value %ld", (long)i);
    }
  }
  ArrowArrayViewReset(&view);
}

/* ---- Streams and files built message by message ---- */

struct HeldWriter {
  struct ArrowIpcEncoder encoder;
  struct ArrowSchema schema;
  struct ArrowBuffer bytes;
  struct ArrowBuffer body;
  enum HeldKind kind;
  /* File format: blocks of the messages after the schema. */
  int file;
  struct ArrowBuffer dictionary_blocks;
  struct ArrowBuffer record_batch_blocks;
};

/* struct<f0, f1, ...: dictionary<int32, kind>> with n_fields fields (ids 0, 1, ...),
 * every body compressed with codec. ENOTSUP when the library lacks codec. */
static ArrowErrorCode HeldBegin(struct HeldWriter* writer, enum HeldKind kind,
                                int64_t n_fields, enum ArrowIpcCompressionType codec,
                                int file) {
  struct ArrowError error;
  int64_t i;
  ArrowErrorCode result;
  memset(writer, 0, sizeof(*writer));
  writer->kind = kind;
  writer->file = file;
  HELD_OK(ArrowIpcEncoderInit(&writer->encoder));
  ArrowBufferInit(&writer->bytes);
  ArrowBufferInit(&writer->body);
  ArrowBufferInit(&writer->dictionary_blocks);
  ArrowBufferInit(&writer->record_batch_blocks);
  result = ArrowIpcEncoderSetCompression(&writer->encoder, codec,
                                         NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error);
  if (result != NANOARROW_OK) {
    ArrowIpcEncoderReset(&writer->encoder);
    return result;
  }

  ArrowSchemaInit(&writer->schema);
  HELD_OK(ArrowSchemaSetTypeStruct(&writer->schema, n_fields));
  for (i = 0; i < n_fields; i++) {
    struct ArrowSchema* field = writer->schema.children[i];
    char name[32];
    snprintf(name, sizeof(name), "f%d", (int)i);
    HELD_OK(ArrowSchemaSetType(field, NANOARROW_TYPE_INT32));
    HELD_OK(ArrowSchemaSetName(field, name));
    HELD_OK(ArrowSchemaAllocateDictionary(field));
    ArrowSchemaInit(field->dictionary);
    HELD_OK(ArrowSchemaSetType(field->dictionary, HeldType(kind)));
  }
  if (file) HELD_OK(ArrowBufferAppend(&writer->bytes, "ARROW1\0\0", 8));
  cr_assert_eq(ArrowIpcEncoderEncodeSchema(&writer->encoder, &writer->schema, &error),
               NANOARROW_OK, "%s", error.message);
  HELD_OK(ArrowIpcEncoderFinalizeBuffer(&writer->encoder, 1, &writer->bytes));
  return NANOARROW_OK;
}

/* Appends the last encoded message and its body (noting its block). */
static void HeldAppendMessage(struct HeldWriter* writer, struct ArrowBuffer* blocks) {
  struct ArrowIpcFileBlock block;
  block.offset = writer->bytes.size_bytes;
  HELD_OK(ArrowIpcEncoderFinalizeBuffer(&writer->encoder, 1, &writer->bytes));
  block.metadata_length = (int32_t)(writer->bytes.size_bytes - block.offset);
  block.body_length = writer->body.size_bytes;
  HELD_OK(ArrowBufferAppend(&writer->bytes, writer->body.data, writer->body.size_bytes));
  writer->body.size_bytes = 0;
  HELD_OK(ArrowBufferAppend(blocks, &block, sizeof(block)));
}

/* A DictionaryBatch of id holding values [start, end). */
static void HeldDictionary(struct HeldWriter* writer, int64_t id, int is_delta,
                           int64_t start, int64_t end) {
  struct ArrowArray values;
  struct ArrowArrayView view;
  struct ArrowError error;
  HeldValues(writer->kind, start, end, &values, &view);
  cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&writer->encoder, id, (char)is_delta,
                                                    &view, &writer->body, &error),
               NANOARROW_OK, "%s", error.message);
  HeldAppendMessage(writer, &writer->dictionary_blocks);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&values);
}

/* A RecordBatch whose every column holds the indices 0 and last. */
static void HeldBatch(struct HeldWriter* writer, int64_t last) {
  struct ArrowArray batch;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  HELD_OK(ArrowArrayInitFromSchema(&batch, &writer->schema, &error));
  HELD_OK(ArrowArrayStartAppending(&batch));
  for (i = 0; i < batch.n_children; i++) {
    HELD_OK(ArrowArrayAppendInt(batch.children[i], 0));
    HELD_OK(ArrowArrayAppendInt(batch.children[i], last));
  }
  batch.length = 2;
  HELD_OK(ArrowArrayFinishBuildingDefault(&batch, &error));
  HELD_OK(ArrowArrayViewInitFromSchema(&view, &writer->schema, &error));
  cr_assert_eq(ArrowArrayViewSetArray(&view, &batch, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&writer->encoder, &view,
                                                      &writer->body, &error),
               NANOARROW_OK, "%s", error.message);
  HeldAppendMessage(writer, &writer->record_batch_blocks);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&batch);
}

/* Ends the stream (or writes the file's footer) and moves the bytes to out. */
static void HeldFinish(struct HeldWriter* writer, struct ArrowBuffer* out) {
  static const int32_t end_of_stream[2] = {-1, 0};
  struct ArrowError error;
  HELD_OK(ArrowBufferAppend(&writer->bytes, end_of_stream, sizeof(end_of_stream)));
  if (writer->file) {
    struct ArrowIpcFooter footer;
    int64_t start;
    int32_t footer_size;
    ArrowIpcFooterInit(&footer);
    HELD_OK(ArrowSchemaDeepCopy(&writer->schema, &footer.schema));
    ArrowBufferMove(&writer->dictionary_blocks, &footer.dictionary_blocks);
    ArrowBufferMove(&writer->record_batch_blocks, &footer.record_batch_blocks);
    cr_assert_eq(ArrowIpcEncoderEncodeFooter(&writer->encoder, &footer, &error),
                 NANOARROW_OK, "%s", error.message);
    start = writer->bytes.size_bytes;
    HELD_OK(ArrowIpcEncoderFinalizeBuffer(&writer->encoder, 0, &writer->bytes));
    footer_size = (int32_t)(writer->bytes.size_bytes - start);
    HELD_OK(ArrowBufferAppend(&writer->bytes, &footer_size, sizeof(footer_size)));
    HELD_OK(ArrowBufferAppend(&writer->bytes, "ARROW1", 6));
    ArrowIpcFooterReset(&footer);
  }
  ArrowBufferMove(&writer->bytes, out);
  ArrowBufferReset(&writer->body);
  ArrowBufferReset(&writer->dictionary_blocks);
  ArrowBufferReset(&writer->record_batch_blocks);
  ArrowSchemaRelease(&writer->schema);
  ArrowIpcEncoderReset(&writer->encoder);
}

/* A stream reader over a copy of bytes (budget: -2 keeps the default). */
static void HeldOpen(const struct ArrowBuffer* bytes, int shared, int64_t budget,
                     struct ArrowArrayStream* stream) {
  struct ArrowIpcInputStream input;
  struct ArrowIpcArrayStreamReaderOptions options;
  struct ArrowBuffer copy;
  ArrowBufferInit(&copy);
  HELD_OK(ArrowBufferAppend(&copy, bytes->data, bytes->size_bytes));
  options.field_index = -1;
  options.use_shared_buffers = shared;
  HELD_OK(ArrowIpcInputStreamInitBuffer(&input, &copy));
  HELD_OK(ArrowIpcArrayStreamReaderInit(stream, &input, &options));
  if (budget != -2) HELD_OK(ArrowIpcArrayStreamReaderSetMaxHeldBytes(stream, budget));
}

/* ---- Deltas read back exactly ---- */

/* The dictionary lengths the delta stream below gives each batch. */
static const int64_t kHeldLengths[] = {16, 20, 9};

/* Deltas of awkward lengths (bitmaps start mid-byte), an empty one, replacements. */
static void HeldDeltaStream(struct HeldWriter* writer, struct ArrowBuffer* out) {
  HeldDictionary(writer, 0, 0, 0, 3);
  HeldDictionary(writer, 0, 1, 3, 8);
  HeldDictionary(writer, 0, 1, 8, 9);
  HeldDictionary(writer, 0, 1, 9, 9);
  HeldDictionary(writer, 0, 1, 9, 16);
  HeldBatch(writer, 15);
  HeldDictionary(writer, 0, 1, 16, 20);
  HeldBatch(writer, 19);
  /* A replacement, then a delta on it. */
  HeldDictionary(writer, 0, 0, 0, 5);
  HeldDictionary(writer, 0, 1, 5, 9);
  HeldBatch(writer, 8);
  HeldFinish(writer, out);
}

/* Reads the delta stream; keep_batches holds every batch until the end (so the
 * reader may grow the dictionary in place only past every byte they read). */
static void HeldReadDeltas(const struct ArrowBuffer* bytes, enum HeldKind kind,
                           int shared, int keep_batches) {
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batches[3];
  struct ArrowArray end;
  int k;
  HeldOpen(bytes, shared, -2, &stream);
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  ArrowSchemaRelease(&schema);
  for (k = 0; k < 3; k++) {
    cr_assert_eq(stream.get_next(&stream, &batches[k]), NANOARROW_OK, "batch %d: %s", k,
                 stream.get_last_error(&stream));
    cr_assert_neq(batches[k].release, NULL);
    HeldCheckValues(kind, batches[k].children[0]->dictionary, kHeldLengths[k]);
    if (!keep_batches) ArrowArrayRelease(&batches[k]);
  }
  cr_assert_eq(stream.get_next(&stream, &end), NANOARROW_OK);
  cr_assert_eq(end.release, NULL);
  ArrowArrayStreamRelease(&stream);
  if (keep_batches) {
    /* Later deltas and the replacement left the earlier batches' values alone. */
    for (k = 0; k < 3; k++) {
      HeldCheckValues(kind, batches[k].children[0]->dictionary, kHeldLengths[k]);
      ArrowArrayRelease(&batches[k]);
    }
  }
}

static void HeldDeltasRoundTrip(enum HeldKind kind, enum ArrowIpcCompressionType codec) {
  struct HeldWriter writer;
  struct ArrowBuffer bytes;
  ArrowErrorCode result = HeldBegin(&writer, kind, 1, codec, 0);
  if (result == ENOTSUP) cr_skip_test("built without this codec");
  HELD_OK(result);
  ArrowBufferInit(&bytes);
  HeldDeltaStream(&writer, &bytes);
  HeldReadDeltas(&bytes, kind, 0, 0);
  HeldReadDeltas(&bytes, kind, 1, 0);
  HeldReadDeltas(&bytes, kind, 0, 1);
  HeldReadDeltas(&bytes, kind, 1, 1);
  ArrowBufferReset(&bytes);
}

Test(ipc_held_bytes, int32_deltas) {
  HeldDeltasRoundTrip(kHeldInt32, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(ipc_held_bytes, string_deltas) {
  HeldDeltasRoundTrip(kHeldString, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(ipc_held_bytes, bool_deltas) {
  HeldDeltasRoundTrip(kHeldBool, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(ipc_held_bytes, zstd_deltas) {
  HeldDeltasRoundTrip(kHeldString, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
}

Test(ipc_held_bytes, lz4_deltas) {
  HeldDeltasRoundTrip(kHeldBool, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
}

/* ---- The budget, through the decoder ---- */

struct HeldDecoder {
  struct ArrowIpcDecoder decoder;
  const struct ArrowBuffer* bytes;
  int64_t position;
};

/* Decodes the next message of bytes: the schema is set, a dictionary decoded
 * (result returned), a record batch skipped. ENODATA at the end. */
static ArrowErrorCode HeldDecodeNext(struct HeldDecoder* d, struct ArrowError* error) {
  struct ArrowBufferView view;
  ArrowErrorCode result;
  view.data.as_uint8 = d->bytes->data + d->position;
  view.size_bytes = d->bytes->size_bytes - d->position;
  result = ArrowIpcDecoderDecodeHeader(&d->decoder, view, error);
  if (result == ENODATA) return ENODATA;
  cr_assert_eq(result, NANOARROW_OK, "%s", error->message);
  view.data.as_uint8 += d->decoder.header_size_bytes;
  view.size_bytes = d->decoder.body_size_bytes;
  d->position += d->decoder.header_size_bytes + d->decoder.body_size_bytes;
  switch (d->decoder.message_type) {
    case NANOARROW_IPC_MESSAGE_TYPE_SCHEMA: {
      struct ArrowSchema schema;
      HELD_OK(ArrowIpcDecoderDecodeSchema(&d->decoder, &schema, error));
      HELD_OK(ArrowIpcDecoderSetSchema(&d->decoder, &schema, error));
      ArrowSchemaRelease(&schema);
      return NANOARROW_OK;
    }
    case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH:
      return ArrowIpcDecoderDecodeDictionary(
          &d->decoder, view, NANOARROW_VALIDATION_LEVEL_FULL, NULL, error);
    default:
      return NANOARROW_OK;
  }
}

static int64_t HeldBytes(struct HeldDecoder* d) {
  int64_t held = -1;
  HELD_OK(ArrowIpcDecoderGetHeldBytes(&d->decoder, &held, NULL));
  return held;
}

static int64_t HeldDictionaryLength(struct HeldDecoder* d) {
  const struct ArrowArray* dictionary;
  struct ArrowError error;
  HELD_OK(ArrowIpcDecoderGetDictionary(&d->decoder, 0, &dictionary, &error));
  return dictionary->length;
}

/* int8 zeros (one byte each, no nulls): 100 values, a delta of 200, a replacement
 * of 10, deltas of 50 and 1000. */
static void HeldBudgetStream(struct ArrowBuffer* out) {
  struct HeldWriter writer;
  HELD_OK(HeldBegin(&writer, kHeldZeros, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0));
  HeldDictionary(&writer, 0, 0, 0, 100);
  HeldDictionary(&writer, 0, 1, 100, 300);
  HeldDictionary(&writer, 0, 0, 0, 10);
  HeldDictionary(&writer, 0, 1, 10, 60);
  HeldDictionary(&writer, 0, 1, 60, 1060);
  HeldFinish(&writer, out);
}

Test(ipc_held_bytes, decoder_counts_replacements_and_deltas) {
  struct HeldDecoder d;
  struct ArrowBuffer bytes;
  struct ArrowError error;
  int64_t limit;
  ArrowBufferInit(&bytes);
  HeldBudgetStream(&bytes);
  HELD_OK(ArrowIpcDecoderInit(&d.decoder));
  d.bytes = &bytes;
  d.position = 0;
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_eq(HeldBytes(&d), 0);
  /* The default: 64 x the bytes read so far + the allowance. */
  HELD_OK(ArrowIpcDecoderGetHeldBytes(&d.decoder, NULL, &limit));
  cr_assert_eq(limit, NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO * d.position +
                          NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE);

  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_eq(HeldBytes(&d), 100, "held %ld", (long)HeldBytes(&d));
  /* A delta: the values plus the validity bitmap of the grown dictionary. */
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_geq(HeldBytes(&d), 300);
  cr_assert_leq(HeldBytes(&d), 300 + 300 / 8 + 1, "held %ld", (long)HeldBytes(&d));
  /* A replacement frees what the old values held. */
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_eq(HeldBytes(&d), 10, "held %ld", (long)HeldBytes(&d));
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_leq(HeldBytes(&d), 60 + 8);
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_leq(HeldBytes(&d), 1060 + 133);
  cr_assert_eq(HeldDictionaryLength(&d), 1060);
  cr_assert_eq(HeldDecodeNext(&d, &error), ENODATA);
  ArrowIpcDecoderReset(&d.decoder);
  ArrowBufferReset(&bytes);
}

Test(ipc_held_bytes, decoder_budget_exceeded_raised_removed) {
  struct HeldDecoder d;
  struct ArrowBuffer bytes;
  struct ArrowError error;
  int64_t held;
  int64_t limit;
  ArrowBufferInit(&bytes);
  HeldBudgetStream(&bytes);
  HELD_OK(ArrowIpcDecoderInit(&d.decoder));
  cr_assert_eq(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, -2), EINVAL);
  HELD_OK(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, 250));
  d.bytes = &bytes;
  d.position = 0;
  HELD_OK(HeldDecodeNext(&d, &error));
  HELD_OK(HeldDecodeNext(&d, &error));

  /* The delta would make 300 values: refused, the dictionary left as it was. */
  error.message[0] = '\0';
  cr_assert_eq(HeldDecodeNext(&d, &error), EINVAL);
  cr_assert(strstr(error.message, "dictionary id 0: the reader would hold 3") != NULL,
            "%s", error.message);
  cr_assert(strstr(error.message, "over its limit of 250 bytes") != NULL, "%s",
            error.message);
  cr_assert_eq(HeldDictionaryLength(&d), 100);
  HELD_OK(ArrowIpcDecoderGetHeldBytes(&d.decoder, &held, &limit));
  cr_assert_eq(held, 100);
  cr_assert_eq(limit, 250);

  /* Raised: the replacement and the next delta fit. */
  HELD_OK(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, 1000));
  HELD_OK(HeldDecodeNext(&d, &error));
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_eq(HeldDictionaryLength(&d), 60);

  /* Lowered below what is held: even a small delta is refused. */
  HELD_OK(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, 10));
  {
    int64_t position = d.position;
    cr_assert_eq(HeldDecodeNext(&d, &error), EINVAL);
    cr_assert(strstr(error.message, "limit of 10 bytes (set by SetMaxHeldBytes)") != NULL,
              "%s", error.message);
    cr_assert_eq(HeldDictionaryLength(&d), 60);
    d.position = position;
  }

  /* Removed: the last delta (1000 values) is appended. */
  HELD_OK(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, INT64_MAX));
  HELD_OK(HeldDecodeNext(&d, &error));
  cr_assert_eq(HeldDictionaryLength(&d), 1060);
  HELD_OK(ArrowIpcDecoderGetHeldBytes(&d.decoder, NULL, &limit));
  cr_assert_eq(limit, INT64_MAX);
  ArrowIpcDecoderReset(&d.decoder);
  ArrowBufferReset(&bytes);
}

/* A delta refused while an ArrowIpcDictionaries holds the values (so the reader
 * copies instead of appending in place) leaves both as they were. */
Test(ipc_held_bytes, decoder_budget_with_dictionaries_slot) {
  struct HeldDecoder d;
  struct ArrowBuffer bytes;
  struct ArrowError error;
  struct ArrowIpcDictionaries dictionaries;
  const struct ArrowIpcDictionaryEncodings* encodings;
  const struct ArrowArray* values;
  struct ArrowBufferView view;
  int k;
  ArrowBufferInit(&bytes);
  HeldBudgetStream(&bytes);
  HELD_OK(ArrowIpcDecoderInit(&d.decoder));
  HELD_OK(ArrowIpcDecoderSetMaxHeldBytes(&d.decoder, 250));
  d.bytes = &bytes;
  d.position = 0;
  HELD_OK(HeldDecodeNext(&d, &error));
  HELD_OK(ArrowIpcDecoderGetDictionaryEncodings(&d.decoder, &encodings));
  HELD_OK(ArrowIpcDictionariesInit(&dictionaries, encodings, &error));
  for (k = 0; k < 2; k++) {
    view.data.as_uint8 = bytes.data + d.position;
    view.size_bytes = bytes.size_bytes - d.position;
    HELD_OK(ArrowIpcDecoderDecodeHeader(&d.decoder, view, &error));
    view.data.as_uint8 += d.decoder.header_size_bytes;
    view.size_bytes = d.decoder.body_size_bytes;
    d.position += d.decoder.header_size_bytes + d.decoder.body_size_bytes;
    error.message[0] = '\0';
    cr_assert_eq(
        ArrowIpcDecoderDecodeDictionary(&d.decoder, view, NANOARROW_VALIDATION_LEVEL_FULL,
                                        &dictionaries, &error),
        k == 0 ? NANOARROW_OK : EINVAL, "message %d: %s", k, error.message);
  }
  cr_assert(strstr(error.message, "dictionary id 0") != NULL, "%s", error.message);
  HELD_OK(ArrowIpcDictionariesFindCurrentValue(&dictionaries, 0, &values, &error));
  cr_assert_eq(values->length, 100);
  cr_assert_eq(HeldDictionaryLength(&d), 100);
  ArrowIpcDictionariesReset(&dictionaries);
  ArrowIpcDecoderReset(&d.decoder);
  ArrowBufferReset(&bytes);
}

/* ---- Hostile streams: bounded memory, clear errors ---- */

/* n ZSTD dictionaries of distinct ids, each 1 MiB of zeros (a few hundred bytes
 * compressed): without a budget the reader kept them all (1,000: 1 GB). */
static ArrowErrorCode HeldManyDictionaries(int64_t n, int file, struct ArrowBuffer* out) {
  struct HeldWriter writer;
  int64_t i;
  ArrowErrorCode result =
      HeldBegin(&writer, kHeldZeros, n, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, file);
  if (result != NANOARROW_OK) return result;
  for (i = 0; i < n; i++) HeldDictionary(&writer, i, 0, 0, 1 << 20);
  HeldBatch(&writer, 0);
  HeldFinish(&writer, out);
  return NANOARROW_OK;
}

/* One dictionary, then n ZSTD deltas of 1 MiB of zeros each, then a batch. */
static ArrowErrorCode HeldCompressedDeltas(int64_t n, struct ArrowBuffer* out) {
  struct HeldWriter writer;
  int64_t i;
  ArrowErrorCode result =
      HeldBegin(&writer, kHeldZeros, 1, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0);
  if (result != NANOARROW_OK) return result;
  HeldDictionary(&writer, 0, 0, 0, 1 << 20);
  for (i = 0; i < n; i++) {
    HeldDictionary(&writer, 0, 1, (i + 1) << 20, (i + 2) << 20);
  }
  HeldBatch(&writer, ((n + 1) << 20) - 1);
  HeldFinish(&writer, out);
  return NANOARROW_OK;
}

/* Reads a stream to its end with a budget: 0 when it all reads, else the error. */
struct HeldRead {
  const struct ArrowBuffer* bytes;
  int64_t budget;
  int64_t dictionary_length;
  char message[1024];
};

static int HeldReadAll(void* arg) {
  struct HeldRead* read = (struct HeldRead*)arg;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  int result;
  read->message[0] = '\0';
  read->dictionary_length = -1;
  HeldOpen(read->bytes, 1, read->budget, &stream);
  result = stream.get_schema(&stream, &schema);
  if (result == NANOARROW_OK) ArrowSchemaRelease(&schema);
  while (result == NANOARROW_OK) {
    struct ArrowArray batch;
    result = stream.get_next(&stream, &batch);
    if (result != NANOARROW_OK || batch.release == NULL) break;
    read->dictionary_length = batch.children[0]->dictionary->length;
    ArrowArrayRelease(&batch);
  }
  if (result != NANOARROW_OK) {
    snprintf(read->message, sizeof(read->message), "%s", stream.get_last_error(&stream));
  }
  ArrowArrayStreamRelease(&stream);
  return result;
}

/* The default budget for a stream of input_bytes. */
static int64_t HeldDefaultLimit(int64_t input_bytes) {
  return NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO * input_bytes +
         NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE;
}

Test(ipc_held_bytes, many_compressed_dictionaries_refused_in_bounded_memory) {
  struct ArrowBuffer bytes;
  struct HeldRead read;
  int64_t peak = 0;
  int result;
  ArrowBufferInit(&bytes);
  if (HeldManyDictionaries(1000, 0, &bytes) == ENOTSUP)
    cr_skip_test("built without ZSTD");
  read.bytes = &bytes;
  read.budget = -2;

  /* Peak: the budget (at most 64 x the input + 16 MiB) plus one dictionary being
   * decoded, the copy of the input the reader is given and its bookkeeping. */
  result = HeapPeakRun(&HeldReadAll, &read, &peak);
  cr_assert_eq(result, EINVAL);
  cr_log_info("1000 ZSTD dictionaries (%ld bytes): peak %ld bytes",
              (long)bytes.size_bytes, (long)peak);
  cr_assert_leq(peak, HeldDefaultLimit(bytes.size_bytes) + (4 << 20),
                "peak %ld bytes for %ld input bytes", (long)peak, (long)bytes.size_bytes);

  cr_assert_eq(HeldReadAll(&read), EINVAL);
  cr_assert(strstr(read.message, "dictionary id ") != NULL &&
                strstr(read.message, "the reader would hold") != NULL &&
                strstr(read.message, "over its limit of") != NULL,
            "%s", read.message);
  cr_log_info("%s", read.message);
  ArrowBufferReset(&bytes);
}

Test(ipc_held_bytes, compressed_deltas_refused_in_bounded_memory) {
  struct ArrowBuffer bytes;
  struct HeldRead read;
  int64_t peak = 0;
  ArrowBufferInit(&bytes);
  if (HeldCompressedDeltas(100, &bytes) == ENOTSUP) cr_skip_test("built without ZSTD");
  read.bytes = &bytes;
  read.budget = -2;
  cr_assert_eq(HeapPeakRun(&HeldReadAll, &read, &peak), EINVAL);
  cr_log_info("100 ZSTD deltas of 1 MiB (%ld bytes): peak %ld bytes",
              (long)bytes.size_bytes, (long)peak);
  /* The budget, the spare capacity of the growing dictionary (as much again) and
   * one delta being decoded and appended. */
  cr_assert_leq(peak, 2 * HeldDefaultLimit(bytes.size_bytes) + (4 << 20),
                "peak %ld bytes for %ld input bytes", (long)peak, (long)bytes.size_bytes);
  ArrowBufferReset(&bytes);
}

Test(ipc_held_bytes, stream_budget_error_raised_lowered_removed) {
  struct ArrowBuffer bytes;
  struct HeldRead read;
  ArrowBufferInit(&bytes);
  if (HeldCompressedDeltas(24, &bytes) == ENOTSUP) cr_skip_test("built without ZSTD");
  read.bytes = &bytes;

  /* The default refuses 25 MiB from a few KB. */
  read.budget = -2;
  cr_assert_eq(HeldReadAll(&read), EINVAL);
  cr_assert(strstr(read.message, "dictionary id 0: the reader would hold ") != NULL, "%s",
            read.message);
  cr_assert(strstr(read.message, "(the default: 64 x the ") != NULL, "%s", read.message);

  /* Lowered: refused sooner, naming the limit that was set. */
  read.budget = 3 << 20;
  cr_assert_eq(HeldReadAll(&read), EINVAL);
  cr_assert(strstr(read.message, "over its limit of 3145728 bytes (set by") != NULL, "%s",
            read.message);

  /* Raised, then removed: the whole dictionary arrives (25 MiB of values and the
   * validity bitmap the grown dictionary carries). */
  read.budget = 32 << 20;
  cr_assert_eq(HeldReadAll(&read), NANOARROW_OK, "%s", read.message);
  cr_assert_eq(read.dictionary_length, 25 << 20);
  read.budget = INT64_MAX;
  cr_assert_eq(HeldReadAll(&read), NANOARROW_OK, "%s", read.message);
  cr_assert_eq(read.dictionary_length, 25 << 20);
  ArrowBufferReset(&bytes);
}

/* 3,000 uncompressed deltas of 512 int32 (6 MB): appended in place, the peak is a
 * small multiple of the dictionary (it was 4.4 s of copying before). */
static int HeldReadManyDeltas(void* arg) { return HeldReadAll(arg); }

Test(ipc_held_bytes, many_uncompressed_deltas_in_linear_memory) {
  struct HeldWriter writer;
  struct ArrowBuffer bytes;
  struct HeldRead read;
  int64_t peak = 0;
  int64_t i;
  const int64_t n = 3000;
  HELD_OK(HeldBegin(&writer, kHeldZeros, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0));
  HeldDictionary(&writer, 0, 0, 0, 2048);
  for (i = 0; i < n; i++) HeldDictionary(&writer, 0, 1, (i + 1) * 2048, (i + 2) * 2048);
  HeldBatch(&writer, (n + 1) * 2048 - 1);
  ArrowBufferInit(&bytes);
  HeldFinish(&writer, &bytes);
  read.bytes = &bytes;
  read.budget = -2;
  cr_assert_eq(HeapPeakRun(&HeldReadManyDeltas, &read, &peak), NANOARROW_OK);
  cr_log_info("%ld deltas (%ld bytes): peak %ld bytes", (long)n, (long)bytes.size_bytes,
              (long)peak);
  /* The input copy, the dictionary (values and validity bitmap) with as much again
   * of spare capacity while it moves. */
  cr_assert_leq(peak, bytes.size_bytes + 3 * (n + 1) * 2048 * 9 / 8 + (2 << 20),
                "peak %ld bytes", (long)peak);
  HeldReadAll(&read);
  cr_assert_eq(read.dictionary_length, (n + 1) * 2048, "%s", read.message);
  ArrowBufferReset(&bytes);
}

/* ---- File reader ---- */

Test(ipc_held_bytes, file_reader_budget) {
  struct ArrowBuffer bytes;
  struct ArrowBuffer copy;
  struct ArrowIpcFileReader reader;
  struct ArrowArray batch;
  struct ArrowError error;
  ArrowBufferInit(&bytes);
  if (HeldManyDictionaries(30, 1, &bytes) == ENOTSUP) cr_skip_test("built without ZSTD");

  ArrowBufferInit(&copy);
  HELD_OK(ArrowBufferAppend(&copy, bytes.data, bytes.size_bytes));
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcFileReaderSetMaxHeldBytes(&reader, -3), EINVAL);
  error.message[0] = '\0';
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert(strstr(error.message, "the reader would hold") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "dictionary id 1") != NULL, "%s", error.message);
  /* Removed: the next read decodes the rest, from the dictionary that failed. */
  HELD_OK(ArrowIpcFileReaderSetMaxHeldBytes(&reader, INT64_MAX));
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(batch.n_children, 30);
  cr_assert_eq(batch.children[29]->dictionary->length, 1 << 20);
  ArrowArrayRelease(&batch);
  ArrowIpcFileReaderReset(&reader);

  /* The stream reader passes its budget on when the input is a file. */
  {
    struct HeldRead read;
    read.bytes = &bytes;
    read.budget = -2;
    cr_assert_eq(HeldReadAll(&read), EINVAL);
    cr_assert(strstr(read.message, "the reader would hold") != NULL, "%s", read.message);
    read.budget = 8 << 20;
    cr_assert_eq(HeldReadAll(&read), EINVAL);
    cr_assert(strstr(read.message, "over its limit of 8388608 bytes") != NULL, "%s",
              read.message);
    read.budget = INT64_MAX;
    cr_assert_eq(HeldReadAll(&read), NANOARROW_OK, "%s", read.message);
    cr_assert_eq(read.dictionary_length, 1 << 20);
  }
  ArrowBufferReset(&bytes);
}

Test(ipc_held_bytes, stream_setter_refuses_other_streams) {
  struct ArrowArrayStream stream;
  struct ArrowBuffer bytes;
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  HELD_OK(ArrowSchemaSetTypeStruct(&schema, 0));
  HELD_OK(ArrowBasicArrayStreamInit(&stream, &schema, 0));
  cr_assert_eq(ArrowIpcArrayStreamReaderSetMaxHeldBytes(&stream, 100), EINVAL);
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(ArrowIpcArrayStreamReaderSetMaxHeldBytes(NULL, 100), EINVAL);

  ArrowBufferInit(&bytes);
  HeldBudgetStream(&bytes);
  HeldOpen(&bytes, 0, -1, &stream);
  cr_assert_eq(ArrowIpcArrayStreamReaderSetMaxHeldBytes(&stream, -2), EINVAL);
  HELD_OK(ArrowIpcArrayStreamReaderSetMaxHeldBytes(&stream, 0));
  ArrowArrayStreamRelease(&stream);
  ArrowBufferReset(&bytes);
}

/* Batches are checked against their dictionaries' lengths without validating the
 * dictionaries again: an index past the end is still refused, after deltas too. */
Test(ipc_held_bytes, index_past_grown_dictionary_refused) {
  struct HeldWriter writer;
  struct ArrowBuffer bytes;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  int shared;
  HELD_OK(HeldBegin(&writer, kHeldString, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0));
  HeldDictionary(&writer, 0, 0, 0, 3);
  HeldBatch(&writer, 2);
  HeldDictionary(&writer, 0, 1, 3, 5);
  HeldDictionary(&writer, 0, 1, 5, 9);
  HeldBatch(&writer, 8);
  HeldBatch(&writer, 9);
  ArrowBufferInit(&bytes);
  HeldFinish(&writer, &bytes);
  for (shared = 0; shared < 2; shared++) {
    HeldOpen(&bytes, shared, -2, &stream);
    HELD_OK(stream.get_schema(&stream, &schema));
    ArrowSchemaRelease(&schema);
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    ArrowArrayRelease(&batch);
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    HeldCheckValues(kHeldString, batch.children[0]->dictionary, 9);
    ArrowArrayRelease(&batch);
    cr_assert_eq(stream.get_next(&stream, &batch), EINVAL);
    cr_assert(strstr(stream.get_last_error(&stream),
                     "in [0, 9) at index 1 but found 9") != NULL,
              "%s", stream.get_last_error(&stream));
    cr_log_info("%s", stream.get_last_error(&stream));
    ArrowArrayStreamRelease(&stream);
  }
  ArrowBufferReset(&bytes);
}

/* ---- Deltas while the batches that use the dictionary are kept ----
 *
 * A consumer that keeps every batch (collects the stream) holds the dictionary's
 * storage. The reader then appends a delta in place only into spare capacity past
 * every byte the kept batches read, and otherwise copies the dictionary into
 * storage with room for as much again: the copies must stay logarithmic in the
 * number of deltas (one per doubling), not one per delta (quadratic time), and
 * every kept batch must still read its own values at the end (under ASan, storage
 * that moved or was freed under a kept batch is reported). */

#define HELD_KEPT_DELTAS 400

/* Length of the dictionary after delta k (k = 0: the first dictionary). Lengths
 * vary so that bitmaps end mid-byte most of the time; with held_aligned, every
 * length is a multiple of 8 (bitmaps end on a whole byte). */
static int held_aligned;
static int64_t HeldKeptLength(int64_t k) {
  return held_aligned ? 8 * (1 + k + k / 3) : 5 + k * 7 + (k * k) % 5;
}

static void HeldKeptDeltas(enum HeldKind kind, enum ArrowIpcCompressionType codec,
                           int64_t max_copies) {
  struct HeldWriter writer;
  struct ArrowBuffer bytes;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowArray* batches;
  int64_t position = 0;
  int64_t n_batches = 0;
  int64_t k;
  int64_t copies;
  ArrowErrorCode result = HeldBegin(&writer, kind, 1, codec, 0);
  if (result == ENOTSUP) cr_skip_test("built without this codec");
  HELD_OK(result);
  ArrowBufferInit(&bytes);
  HeldDictionary(&writer, 0, 0, 0, HeldKeptLength(0));
  HeldBatch(&writer, HeldKeptLength(0) - 1);
  for (k = 1; k <= HELD_KEPT_DELTAS; k++) {
    HeldDictionary(&writer, 0, 1, HeldKeptLength(k - 1), HeldKeptLength(k));
    HeldBatch(&writer, HeldKeptLength(k) - 1);
  }
  HeldFinish(&writer, &bytes);

  batches = (struct ArrowArray*)ArrowMalloc((HELD_KEPT_DELTAS + 1) *
                                            (int64_t)sizeof(struct ArrowArray));
  cr_assert_neq(batches, NULL);
  HELD_OK(ArrowIpcDecoderInit(&decoder));
  for (;;) {
    struct ArrowBufferView view;
    view.data.as_uint8 = bytes.data + position;
    view.size_bytes = bytes.size_bytes - position;
    result = ArrowIpcDecoderDecodeHeader(&decoder, view, &error);
    if (result == ENODATA) break;
    cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
    view.data.as_uint8 += decoder.header_size_bytes;
    view.size_bytes = decoder.body_size_bytes;
    position += decoder.header_size_bytes + decoder.body_size_bytes;
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      struct ArrowSchema schema;
      HELD_OK(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error));
      HELD_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
      ArrowSchemaRelease(&schema);
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      cr_assert_eq(ArrowIpcDecoderDecodeDictionary(
                       &decoder, view, NANOARROW_VALIDATION_LEVEL_FULL, NULL, &error),
                   NANOARROW_OK, "%s", error.message);
    } else {
      cr_assert_leq(n_batches, HELD_KEPT_DELTAS);
      /* Kept: it holds the dictionary as it is now. */
      cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, view, -1, &batches[n_batches],
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      HeldCheckValues(kind, batches[n_batches].children[0]->dictionary,
                      HeldKeptLength(n_batches));
      n_batches++;
    }
  }
  cr_assert_eq(n_batches, HELD_KEPT_DELTAS + 1);
  copies = ((struct ArrowIpcDecoderPrivate*)decoder.private_data)->n_delta_copies;
  cr_assert_leq(copies, max_copies, "%ld of %d deltas copied the whole dictionary",
                (long)copies, HELD_KEPT_DELTAS);
  cr_assert_geq(copies, 1);
  ArrowIpcDecoderReset(&decoder);
  /* The decoder is gone; every kept batch still reads exactly its own values. */
  for (k = 0; k < n_batches; k++) {
    HeldCheckValues(kind, batches[k].children[0]->dictionary, HeldKeptLength(k));
    ArrowArrayRelease(&batches[k]);
  }
  ArrowFree(batches);
  ArrowBufferReset(&bytes);
}

/* 400 deltas growing the dictionary to about 2,800 values: one copy per doubling
 * is about 10 (log2 of 2,800 / 5 + a few); 40 leaves room and still fails if most
 * deltas copy. */
Test(ipc_held_bytes, kept_batches_string_deltas_without_nulls) {
  HeldKeptDeltas(kHeldText, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 40);
}

/* With nulls, or boolean values: bitmaps that end on a whole byte. */
Test(ipc_held_bytes, kept_batches_int32_deltas_with_nulls_whole_bytes) {
  held_aligned = 1;
  HeldKeptDeltas(kHeldInt32, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 40);
}

Test(ipc_held_bytes, kept_batches_bool_deltas_whole_bytes) {
  held_aligned = 1;
  HeldKeptDeltas(kHeldBool, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 40);
}

/* A bitmap that ends mid-byte shares that byte with the kept batches: the delta
 * writes the byte once, keeping their bits, and is appended in place as well (see
 * tests/ipc/test_delta_append.c for every layout). */
Test(ipc_held_bytes, kept_batches_int32_deltas_with_nulls) {
  HeldKeptDeltas(kHeldInt32, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 40);
}

Test(ipc_held_bytes, kept_batches_string_deltas_zstd) {
  HeldKeptDeltas(kHeldText, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 40);
}

Test(ipc_held_bytes, kept_batches_bool_deltas_lz4) {
  HeldKeptDeltas(kHeldBool, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 40);
}

Test(ipc_held_bytes, kept_batches_string_deltas_with_nulls) {
  HeldKeptDeltas(kHeldString, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 40);
}
