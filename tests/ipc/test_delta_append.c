/* Dictionary deltas appended while the batches that use the dictionary are kept
 * (a consumer collecting the stream), for every layout a dictionary can have:
 * validity and boolean bitmaps that end mid-byte, strings with 32- and 64-bit
 * offsets, binary views (views and variadic buffers), lists and structs (buffers
 * at every level). For each, a stream of 1,200 deltas of uneven lengths with a
 * batch after every one is decoded keeping every batch; then:
 * - every kept batch reads exactly the values it had when it was decoded (the
 *   bytes it can see did not change under later deltas; under ASan, storage moved
 *   or freed under it is reported), compared with a reference built separately;
 * - the whole dictionary was copied only once per doubling (the decoder's count of
 *   copies is at most 2 log2(values) + a few), not once per delta;
 * - compressed deltas behave the same and their decompressed bytes are counted
 *   in the reader's budget; a replacement releases what the grown values held. */

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ipc/ipc_private.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define DA_OK(expr)                                                     \
  do {                                                                  \
    ArrowErrorCode da_rc_ = (expr);                                     \
    cr_assert_eq(da_rc_, NANOARROW_OK, "%s failed: %d", #expr, da_rc_); \
  } while (0)

enum DaKind {
  kDaInt32,
  kDaBool,
  kDaString,
  kDaLargeString,
  kDaStringView,
  kDaList,
  kDaStruct,
  kDaBlob,
  kDaFixedSizeList,
  kDaLargeList,
  kDaDenseUnion,
  kDaSparseUnion
};

/* ---- Element i of the values, whichever message carries it ---- */

/* Value types: the dictionary's schema. */
static void DaSchema(enum DaKind kind, struct ArrowSchema* schema) {
  switch (kind) {
    case kDaInt32:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_INT32));
      break;
    case kDaBool:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_BOOL));
      break;
    case kDaString:
    case kDaBlob:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_STRING));
      break;
    case kDaLargeString:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_LARGE_STRING));
      break;
    case kDaStringView:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_STRING_VIEW));
      break;
    case kDaList:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_LIST));
      DA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
      break;
    case kDaStruct:
      DA_OK(ArrowSchemaSetTypeStruct(schema, 2));
      DA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
      DA_OK(ArrowSchemaSetName(schema->children[0], "a"));
      DA_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING));
      DA_OK(ArrowSchemaSetName(schema->children[1], "b"));
      break;
    case kDaFixedSizeList:
      DA_OK(ArrowSchemaSetTypeFixedSize(schema, NANOARROW_TYPE_FIXED_SIZE_LIST, 3));
      DA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
      break;
    case kDaLargeList:
      DA_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_LARGE_LIST));
      DA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
      break;
    case kDaDenseUnion:
    case kDaSparseUnion:
      DA_OK(ArrowSchemaSetTypeUnion(
          schema,
          kind == kDaDenseUnion ? NANOARROW_TYPE_DENSE_UNION : NANOARROW_TYPE_SPARSE_UNION,
          2));
      DA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
      DA_OK(ArrowSchemaSetName(schema->children[0], "i"));
      DA_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING));
      DA_OK(ArrowSchemaSetName(schema->children[1], "s"));
      break;
  }
}

/* int32 7i (null when i % 5 == 3); bool i % 3 == 0 (null when i % 7 == 2);
 * strings "value <i>" (null when i % 4 == 1); string views short "v<i>" when
 * i % 3 == 0 else long (null when i % 6 == 4); lists of i % 4 int32 10i + j (the
 * list null when i % 5 == 2, element 1 null when i % 3 == 0); structs {a: i (null
 * when i % 4 == 0), b: "s<i>"} (the struct null when i % 6 == 5); fixed-size
 * lists of 3 and large lists as the lists; unions: i % 3 == 0 the int32 7i (a null
 * int32 when i % 9 == 6), else the string "u<i>" (unions have no validity). */
static int DaIsNull(enum DaKind kind, int64_t i) {
  switch (kind) {
    case kDaInt32:
      return i % 5 == 3;
    case kDaBool:
      return i % 7 == 2;
    case kDaString:
    case kDaLargeString:
      return i % 4 == 1;
    case kDaStringView:
      return i % 6 == 4;
    case kDaList:
    case kDaLargeList:
    case kDaFixedSizeList:
      return i % 5 == 2;
    case kDaBlob:
    case kDaDenseUnion:
    case kDaSparseUnion:
      return 0;
    default:
      return i % 6 == 5;
  }
}

static void DaText(enum DaKind kind, int64_t i, char* text, size_t size) {
  if (kind == kDaBlob) {
    /* 2,000 bytes that compress to a few. */
    memset(text, 'a', size - 1);
    snprintf(text + size - 16, 16, "%015d", (int)i);
  } else if (kind == kDaStringView) {
    if (i % 3 == 0) {
      snprintf(text, size, "v%d", (int)i);
    } else {
      snprintf(text, size, "a longer string view value, number %d", (int)i);
    }
  } else if (kind == kDaStruct) {
    snprintf(text, size, "s%d", (int)i);
  } else if (kind == kDaDenseUnion || kind == kDaSparseUnion) {
    snprintf(text, size, "u%d", (int)i);
  } else {
    snprintf(text, size, "value %d", (int)i);
  }
}

static void DaAppend(enum DaKind kind, struct ArrowArray* array, int64_t i) {
  char text[2000];
  int64_t j;
  if (DaIsNull(kind, i)) {
    DA_OK(ArrowArrayAppendNull(array, 1));
    return;
  }
  switch (kind) {
    case kDaInt32:
      DA_OK(ArrowArrayAppendInt(array, 7 * i));
      break;
    case kDaBool:
      DA_OK(ArrowArrayAppendInt(array, i % 3 == 0));
      break;
    case kDaString:
    case kDaLargeString:
    case kDaStringView:
    case kDaBlob:
      DaText(kind, i, text, kind == kDaBlob ? sizeof(text) : 64);
      DA_OK(ArrowArrayAppendString(array, ArrowCharView(text)));
      break;
    case kDaList:
    case kDaLargeList:
    case kDaFixedSizeList:
      for (j = 0; j < (kind == kDaFixedSizeList ? 3 : i % 4); j++) {
        if (j == 1 && i % 3 == 0) {
          DA_OK(ArrowArrayAppendNull(array->children[0], 1));
        } else {
          DA_OK(ArrowArrayAppendInt(array->children[0], 10 * i + j));
        }
      }
      DA_OK(ArrowArrayFinishElement(array));
      break;
    case kDaStruct:
      if (i % 4 == 0) {
        DA_OK(ArrowArrayAppendNull(array->children[0], 1));
      } else {
        DA_OK(ArrowArrayAppendInt(array->children[0], i));
      }
      DaText(kind, i, text, 64);
      DA_OK(ArrowArrayAppendString(array->children[1], ArrowCharView(text)));
      DA_OK(ArrowArrayFinishElement(array));
      break;
    case kDaDenseUnion:
    case kDaSparseUnion:
      if (i % 3 == 0) {
        if (i % 9 == 6) {
          DA_OK(ArrowArrayAppendNull(array->children[0], 1));
        } else {
          DA_OK(ArrowArrayAppendInt(array->children[0], 7 * i));
        }
        DA_OK(ArrowArrayFinishUnionElement(array, 0));
      } else {
        DaText(kind, i, text, 64);
        DA_OK(ArrowArrayAppendString(array->children[1], ArrowCharView(text)));
        DA_OK(ArrowArrayFinishUnionElement(array, 1));
      }
      break;
    default:
      break;
  }
}

/* Values [start, end) of kind as a new array, its view and schema. */
static void DaValues(enum DaKind kind, int64_t start, int64_t end,
                     struct ArrowSchema* schema, struct ArrowArray* array,
                     struct ArrowArrayView* view) {
  struct ArrowError error;
  int64_t i;
  ArrowSchemaInit(schema);
  DaSchema(kind, schema);
  DA_OK(ArrowArrayInitFromSchema(array, schema, &error));
  DA_OK(ArrowArrayStartAppending(array));
  for (i = start; i < end; i++) DaAppend(kind, array, i);
  cr_assert_eq(ArrowArrayFinishBuilding(array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  DA_OK(ArrowArrayViewInitFromSchema(view, schema, &error));
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* Element i of actual equals element i of expected (same type), by value. */
static int DaSameElementAt(const struct ArrowArrayView* actual, int64_t ai,
                           const struct ArrowArrayView* expected, int64_t i, int depth) {
  int64_t j;
  if (depth > 4) return 0;
  if (ArrowArrayViewIsNull(actual, ai) != ArrowArrayViewIsNull(expected, i)) return 0;
  if (ArrowArrayViewIsNull(expected, i)) return 1;
  switch (expected->storage_type) {
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_BOOL:
      return ArrowArrayViewGetIntUnsafe(actual, ai) ==
             ArrowArrayViewGetIntUnsafe(expected, i);
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW: {
      struct ArrowStringView a = ArrowArrayViewGetStringUnsafe(actual, ai);
      struct ArrowStringView e = ArrowArrayViewGetStringUnsafe(expected, i);
      return a.size_bytes == e.size_bytes &&
             (e.size_bytes == 0 || memcmp(a.data, e.data, (size_t)e.size_bytes) == 0);
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t a0, a1, e0, e1;
      if (expected->storage_type == NANOARROW_TYPE_FIXED_SIZE_LIST) {
        a0 = (actual->offset + ai) * actual->layout.child_size_elements;
        a1 = a0 + actual->layout.child_size_elements;
        e0 = (expected->offset + i) * expected->layout.child_size_elements;
        e1 = e0 + expected->layout.child_size_elements;
      } else {
        a0 = ArrowArrayViewListChildOffset(actual, actual->offset + ai);
        a1 = ArrowArrayViewListChildOffset(actual, actual->offset + ai + 1);
        e0 = ArrowArrayViewListChildOffset(expected, expected->offset + i);
        e1 = ArrowArrayViewListChildOffset(expected, expected->offset + i + 1);
      }
      if (a1 - a0 != e1 - e0) return 0;
      for (j = 0; j < e1 - e0; j++) {
        if (ArrowArrayViewIsNull(actual->children[0], a0 + j) !=
            ArrowArrayViewIsNull(expected->children[0], e0 + j)) {
          return 0;
        }
        if (!ArrowArrayViewIsNull(expected->children[0], e0 + j) &&
            ArrowArrayViewGetIntUnsafe(actual->children[0], a0 + j) !=
                ArrowArrayViewGetIntUnsafe(expected->children[0], e0 + j)) {
          return 0;
        }
      }
      return 1;
    }
    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_SPARSE_UNION: {
      int8_t child = ArrowArrayViewUnionChildIndex(expected, i);
      if (ArrowArrayViewUnionTypeId(actual, ai) != ArrowArrayViewUnionTypeId(expected, i) ||
          ArrowArrayViewUnionChildIndex(actual, ai) != child || child < 0 || child > 1) {
        return 0;
      }
      return DaSameElementAt(actual->children[child],
                             ArrowArrayViewUnionChildOffset(actual, ai),
                             expected->children[child],
                             ArrowArrayViewUnionChildOffset(expected, i), depth + 1);
    }
    case NANOARROW_TYPE_STRUCT:
      for (j = 0; j < expected->n_children; j++) {
        if (!DaSameElementAt(actual->children[j], ai, expected->children[j], i, depth + 1))
          return 0;
      }
      return 1;
    default:
      return 0;
  }
}

static int DaSameElement(const struct ArrowArrayView* actual,
                         const struct ArrowArrayView* expected, int64_t i, int depth) {
  return DaSameElementAt(actual, i, expected, i, depth);
}

/* dictionary (as read) holds exactly reference's first length values. */
static void DaCheck(enum DaKind kind, const struct ArrowArray* dictionary,
                    const struct ArrowArrayView* reference, int64_t length, int64_t k) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  cr_assert_eq(dictionary->length, length,
               "batch %ld: dictionary of %ld values, expected %ld", (long)k,
               (long)dictionary->length, (long)length);
  ArrowSchemaInit(&schema);
  DaSchema(kind, &schema);
  DA_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  cr_assert_eq(ArrowArrayViewSetArray(&view, dictionary, &error), NANOARROW_OK,
               "batch %ld: %s", (long)k, error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "batch %ld: %s", (long)k, error.message);
  for (i = 0; i < length; i++) {
    cr_assert(DaSameElement(&view, reference, i, 0), "batch %ld: value %ld differs",
              (long)k, (long)i);
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* ---- The stream ---- */

struct DaWriter {
  struct ArrowIpcEncoder encoder;
  struct ArrowSchema schema;
  struct ArrowBuffer bytes;
  struct ArrowBuffer body;
  enum DaKind kind;
};

static void DaMessage(struct DaWriter* writer) {
  DA_OK(ArrowIpcEncoderFinalizeBuffer(&writer->encoder, 1, &writer->bytes));
  DA_OK(ArrowBufferAppend(&writer->bytes, writer->body.data, writer->body.size_bytes));
  writer->body.size_bytes = 0;
}

/* struct<f0: dictionary<int32, kind>> (id 0), bodies compressed with codec. */
static ArrowErrorCode DaBegin(struct DaWriter* writer, enum DaKind kind,
                              enum ArrowIpcCompressionType codec) {
  struct ArrowError error;
  ArrowErrorCode result;
  memset(writer, 0, sizeof(*writer));
  writer->kind = kind;
  DA_OK(ArrowIpcEncoderInit(&writer->encoder));
  ArrowBufferInit(&writer->bytes);
  ArrowBufferInit(&writer->body);
  result = ArrowIpcEncoderSetCompression(&writer->encoder, codec,
                                         NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error);
  if (result != NANOARROW_OK) {
    ArrowIpcEncoderReset(&writer->encoder);
    return result;
  }
  ArrowSchemaInit(&writer->schema);
  DA_OK(ArrowSchemaSetTypeStruct(&writer->schema, 1));
  DA_OK(ArrowSchemaSetType(writer->schema.children[0], NANOARROW_TYPE_INT32));
  DA_OK(ArrowSchemaSetName(writer->schema.children[0], "f0"));
  DA_OK(ArrowSchemaAllocateDictionary(writer->schema.children[0]));
  ArrowSchemaInit(writer->schema.children[0]->dictionary);
  DaSchema(kind, writer->schema.children[0]->dictionary);
  cr_assert_eq(ArrowIpcEncoderEncodeSchema(&writer->encoder, &writer->schema, &error),
               NANOARROW_OK, "%s", error.message);
  DA_OK(ArrowIpcEncoderFinalizeBuffer(&writer->encoder, 1, &writer->bytes));
  return NANOARROW_OK;
}

static void DaDictionary(struct DaWriter* writer, int is_delta, int64_t start,
                         int64_t end) {
  struct ArrowSchema schema;
  struct ArrowArray values;
  struct ArrowArrayView view;
  struct ArrowError error;
  DaValues(writer->kind, start, end, &schema, &values, &view);
  cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&writer->encoder, 0, (char)is_delta,
                                                    &view, &writer->body, &error),
               NANOARROW_OK, "%s", error.message);
  DaMessage(writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&values);
  ArrowSchemaRelease(&schema);
}

/* A batch using values 0 and last. */
static void DaBatch(struct DaWriter* writer, int64_t last) {
  struct ArrowArray batch;
  struct ArrowArrayView view;
  struct ArrowError error;
  DA_OK(ArrowArrayInitFromSchema(&batch, &writer->schema, &error));
  DA_OK(ArrowArrayStartAppending(&batch));
  DA_OK(ArrowArrayAppendInt(batch.children[0], 0));
  DA_OK(ArrowArrayAppendInt(batch.children[0], last));
  batch.length = 2;
  DA_OK(ArrowArrayFinishBuildingDefault(&batch, &error));
  DA_OK(ArrowArrayViewInitFromSchema(&view, &writer->schema, &error));
  DA_OK(ArrowArrayViewSetArray(&view, &batch, &error));
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&writer->encoder, &view,
                                                      &writer->body, &error),
               NANOARROW_OK, "%s", error.message);
  DaMessage(writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&batch);
}

static void DaFinish(struct DaWriter* writer, struct ArrowBuffer* out) {
  static const int32_t end_of_stream[2] = {-1, 0};
  DA_OK(ArrowBufferAppend(&writer->bytes, end_of_stream, sizeof(end_of_stream)));
  ArrowBufferMove(&writer->bytes, out);
  ArrowBufferReset(&writer->body);
  ArrowSchemaRelease(&writer->schema);
  ArrowIpcEncoderReset(&writer->encoder);
}

/* ---- Reading it, keeping every batch ---- */

#define DA_DELTAS 1200

/* Values in delta k (1 <= k): uneven, 1 to 9, so bitmaps mostly end mid-byte. */
static int64_t DaDeltaLength(int64_t k) { return 1 + (k * 7 + (k * k) % 11) % 9; }

struct DaPlan {
  /* Delta number after which a replacement of the first replace_length values
   * comes (0: none). */
  int64_t replace_after;
  int64_t replace_length;
  /* The reader's budget (0: the default); with one, the stream must be refused
   * once the decompressed values exceed it. */
  int64_t budget;
};

/* Dictionary length after each dictionary message (lengths[0]: the first one). */
static int64_t DaPlanLengths(const struct DaPlan* plan, int64_t* lengths) {
  int64_t n = 0;
  int64_t length = 5;
  int64_t k;
  lengths[n++] = length;
  for (k = 1; k <= DA_DELTAS; k++) {
    length += DaDeltaLength(k);
    lengths[n++] = length;
    if (k == plan->replace_after) {
      length = plan->replace_length;
      lengths[n++] = length;
    }
  }
  return n;
}

static void DaRun(enum DaKind kind, enum ArrowIpcCompressionType codec,
                  const struct DaPlan* plan) {
  struct DaWriter writer;
  struct ArrowBuffer bytes;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowArray* batches;
  int64_t* lengths;
  int64_t n_messages;
  int64_t max_length = 0;
  int64_t position = 0;
  int64_t n_batches = 0;
  int64_t copies;
  int64_t held_before_replacement = -1;
  int64_t k;
  struct ArrowSchema reference_schema;
  struct ArrowArray reference;
  struct ArrowArrayView reference_view;
  ArrowErrorCode result = DaBegin(&writer, kind, codec);
  if (result == ENOTSUP) cr_skip_test("built without this codec");
  DA_OK(result);

  lengths = (int64_t*)ArrowMalloc((DA_DELTAS + 2) * (int64_t)sizeof(int64_t));
  cr_assert_neq(lengths, NULL);
  n_messages = DaPlanLengths(plan, lengths);
  DaDictionary(&writer, 0, 0, lengths[0]);
  DaBatch(&writer, lengths[0] - 1);
  for (k = 1; k < n_messages; k++) {
    int replacement = lengths[k] < lengths[k - 1];
    DaDictionary(&writer, !replacement, replacement ? 0 : lengths[k - 1], lengths[k]);
    DaBatch(&writer, lengths[k] - 1);
  }
  ArrowBufferInit(&bytes);
  DaFinish(&writer, &bytes);
  for (k = 0; k < n_messages; k++) {
    if (lengths[k] > max_length) max_length = lengths[k];
  }
  /* The reference: built separately, element by element. */
  DaValues(kind, 0, max_length, &reference_schema, &reference, &reference_view);

  batches =
      (struct ArrowArray*)ArrowMalloc(n_messages * (int64_t)sizeof(struct ArrowArray));
  cr_assert_neq(batches, NULL);
  DA_OK(ArrowIpcDecoderInit(&decoder));
  if (plan->budget > 0) DA_OK(ArrowIpcDecoderSetMaxHeldBytes(&decoder, plan->budget));
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
      DA_OK(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error));
      DA_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
      ArrowSchemaRelease(&schema);
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      int64_t held;
      int replacement = !decoder.dictionary->is_delta && n_batches > 0;
      if (replacement)
        DA_OK(ArrowIpcDecoderGetHeldBytes(&decoder, &held_before_replacement, NULL));
      error.message[0] = '\0';
      result = ArrowIpcDecoderDecodeDictionary(
          &decoder, view, NANOARROW_VALIDATION_LEVEL_FULL, NULL, &error);
      DA_OK(ArrowIpcDecoderGetHeldBytes(&decoder, &held, NULL));
      if (plan->budget > 0 && result != NANOARROW_OK) {
        /* Refused by the budget, which counts the decompressed values even while
         * the delta would fit in the spare capacity kept batches share. */
        cr_assert_eq(result, EINVAL, "%s", error.message);
        cr_assert(
            strstr(error.message, "dictionary id 0: the reader would hold ") != NULL,
            "%s", error.message);
        cr_assert_leq(held, plan->budget);
        cr_assert_gt(n_batches, 10, "refused too early: %s", error.message);
        if (kind == kDaBlob) {
          /* The input read so far is a small fraction of the budget: what it holds
           * is the decompressed values. */
          cr_assert_lt(position * 10, plan->budget, "%ld input bytes", (long)position);
        }
        cr_log_info("%s", error.message);
        break;
      }
      cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
      if (plan->budget > 0) cr_assert_leq(held, plan->budget);
      if (replacement) {
        /* The grown values are released (the kept batches own them now). */
        cr_assert_lt(held, held_before_replacement / 8,
                     "held %ld after a replacement, %ld before", (long)held,
                     (long)held_before_replacement);
      }
    } else {
      cr_assert_lt(n_batches, n_messages);
      cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, view, -1, &batches[n_batches],
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      /* Spot checks as it goes (every batch is checked at the end). */
      if (n_batches % 97 == 0) {
        DaCheck(kind, batches[n_batches].children[0]->dictionary, &reference_view,
                lengths[n_batches], n_batches);
      }
      n_batches++;
    }
  }
  if (plan->budget > 0) {
    cr_assert_lt(n_batches, n_messages, "the budget of %ld bytes was never reached",
                 (long)plan->budget);
    n_messages = n_batches;
  }
  cr_assert_eq(n_batches, n_messages);
  copies = ((struct ArrowIpcDecoderPrivate*)decoder.private_data)->n_delta_copies;
  cr_log_info("%d deltas: %ld copies of the whole dictionary (up to %ld values)",
              DA_DELTAS, (long)copies, (long)max_length);
  /* One copy per doubling of the values (from 5 to max_length; after a replacement,
   * as many again), plus a few for buffers that start empty (a bitmap allocated at
   * the first null). */
  cr_assert_leq((double)copies,
                (plan->replace_after > 0 ? 4.0 : 2.0) * log2((double)max_length) + 6.0,
                "%ld of %d deltas copied the whole dictionary", (long)copies, DA_DELTAS);
  ArrowIpcDecoderReset(&decoder);
  /* The decoder is gone; every kept batch still reads exactly its own values. */
  for (k = 0; k < n_batches; k++) {
    DaCheck(kind, batches[k].children[0]->dictionary, &reference_view, lengths[k], k);
    ArrowArrayRelease(&batches[k]);
  }
  ArrowFree(batches);
  ArrowFree(lengths);
  ArrowArrayViewReset(&reference_view);
  ArrowArrayRelease(&reference);
  ArrowSchemaRelease(&reference_schema);
  ArrowBufferReset(&bytes);
}

static const struct DaPlan kDaDeltasOnly = {0, 0, 0};
static const struct DaPlan kDaWithReplacement = {700, 40, 0};
/* About a third of what the 1,200 int32 deltas (about 6,000 values, 24 KB
 * decompressed, a few KB compressed) need. */
static const struct DaPlan kDaBudget = {0, 0, 8000};
/* 200 KB: about 100 of the 2 KB values, in a stream whose compressed deltas take
 * a few dozen bytes each. */
static const struct DaPlan kDaBlobBudget = {0, 0, 200000};

Test(ipc_delta_append, int32_with_nulls) {
  DaRun(kDaInt32, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, int32_with_nulls_zstd) {
  DaRun(kDaInt32, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaDeltasOnly);
}

Test(ipc_delta_append, bool_with_nulls) {
  DaRun(kDaBool, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, bool_with_nulls_lz4) {
  DaRun(kDaBool, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, &kDaDeltasOnly);
}

Test(ipc_delta_append, string_with_nulls) {
  DaRun(kDaString, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, large_string_with_replacement) {
  DaRun(kDaLargeString, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaWithReplacement);
}

Test(ipc_delta_append, string_view) {
  DaRun(kDaStringView, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, string_view_zstd_with_replacement) {
  DaRun(kDaStringView, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaWithReplacement);
}

Test(ipc_delta_append, list_int32) {
  DaRun(kDaList, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, list_int32_lz4_with_replacement) {
  DaRun(kDaList, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, &kDaWithReplacement);
}

Test(ipc_delta_append, struct_int32_string) {
  DaRun(kDaStruct, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, struct_zstd) {
  DaRun(kDaStruct, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaDeltasOnly);
}

Test(ipc_delta_append, fixed_size_list_int32) {
  DaRun(kDaFixedSizeList, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, large_list_int32_zstd_with_replacement) {
  DaRun(kDaLargeList, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaWithReplacement);
}

Test(ipc_delta_append, dense_union) {
  DaRun(kDaDenseUnion, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaDeltasOnly);
}

Test(ipc_delta_append, sparse_union_lz4) {
  DaRun(kDaSparseUnion, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, &kDaDeltasOnly);
}

Test(ipc_delta_append, budget_counts_decompressed_deltas_while_kept) {
  DaRun(kDaInt32, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaBudget);
}

/* Deltas that compress 100 to 1: the budget sees their decompressed bytes. */
Test(ipc_delta_append, budget_counts_compressible_deltas_while_kept) {
  DaRun(kDaBlob, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &kDaBlobBudget);
}

Test(ipc_delta_append, budget_counts_list_deltas_while_kept) {
  DaRun(kDaList, NANOARROW_IPC_COMPRESSION_TYPE_NONE, &kDaBudget);
}

/* ---- A dictionary of dictionaries ----
 *
 * struct<f0: dictionary<int32, struct<w: dictionary<int32, string>>>> (IPC has no
 * dictionary whose values are directly dictionary-encoded: a field inside them
 * is): the outer values (value i: {w: index i / 2 into the inner dictionary}, null
 * when i % 7 == 3) and the inner ones ("w<j>") both grow by deltas, written by the IPC
 * writer (which sends the inner delta first). The outer builder takes over the inner
 * values each delta carries instead of copying them, so neither id is copied once per
 * delta. */

#define DA_NESTED_DELTAS 1000

static void DaNestedBatch(const struct ArrowSchema* schema, int64_t length,
                          struct ArrowArray* batch) {
  struct ArrowError error;
  struct ArrowArray* outer;
  struct ArrowArray* inner;
  char text[32];
  int64_t i;
  DA_OK(ArrowArrayInitFromSchema(batch, schema, &error));
  DA_OK(ArrowArrayStartAppending(batch));
  outer = batch->children[0]->dictionary;
  inner = outer->children[0]->dictionary;
  for (i = 0; i < length / 2 + 1; i++) {
    snprintf(text, sizeof(text), "w%d", (int)i);
    DA_OK(ArrowArrayAppendString(inner, ArrowCharView(text)));
  }
  for (i = 0; i < length; i++) {
    if (i % 7 == 3) {
      DA_OK(ArrowArrayAppendNull(outer, 1));
    } else {
      DA_OK(ArrowArrayAppendInt(outer->children[0], i / 2));
      DA_OK(ArrowArrayFinishElement(outer));
    }
  }
  DA_OK(ArrowArrayAppendInt(batch->children[0], 0));
  DA_OK(ArrowArrayFinishElement(batch));
  DA_OK(ArrowArrayAppendInt(batch->children[0], length - 1));
  DA_OK(ArrowArrayFinishElement(batch));
  cr_assert_eq(ArrowArrayFinishBuilding(batch, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
}

static void DaNestedCheck(const struct ArrowSchema* values_schema,
                          const struct ArrowArray* outer, int64_t length, int64_t k) {
  struct ArrowArrayView view;
  struct ArrowError error;
  char text[32];
  int64_t i;
  cr_assert_eq(outer->length, length, "batch %ld: %ld values, expected %ld", (long)k,
               (long)outer->length, (long)length);
  DA_OK(ArrowArrayViewInitFromSchema(&view, values_schema, &error));
  cr_assert_eq(ArrowArrayViewSetArray(&view, outer, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "batch %ld: %s", (long)k, error.message);
  cr_assert_geq(view.children[0]->dictionary->length, length / 2 + 1);
  for (i = 0; i < length; i++) {
    struct ArrowStringView word;
    cr_assert_eq(ArrowArrayViewIsNull(&view, i), i % 7 == 3, "batch %ld value %ld",
                 (long)k, (long)i);
    if (i % 7 == 3) continue;
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], i), i / 2);
    word = ArrowArrayViewGetStringUnsafe(view.children[0]->dictionary, i / 2);
    snprintf(text, sizeof(text), "w%d", (int)(i / 2));
    cr_assert(word.size_bytes == (int64_t)strlen(text) &&
                  memcmp(word.data, text, strlen(text)) == 0,
              "batch %ld value %ld", (long)k, (long)i);
  }
  ArrowArrayViewReset(&view);
}

Test(ipc_delta_append, dictionary_of_dictionaries) {
  struct ArrowSchema schema;
  struct ArrowBuffer bytes;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowArray* batches;
  int64_t lengths[DA_NESTED_DELTAS + 1];
  int64_t position = 0;
  int64_t n_batches = 0;
  int64_t copies;
  int64_t k;
  ArrowErrorCode result;

  ArrowSchemaInit(&schema);
  DA_OK(ArrowSchemaSetTypeStruct(&schema, 1));
  DA_OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32));
  DA_OK(ArrowSchemaSetName(schema.children[0], "f0"));
  DA_OK(ArrowSchemaAllocateDictionary(schema.children[0]));
  ArrowSchemaInit(schema.children[0]->dictionary);
  DA_OK(ArrowSchemaSetTypeStruct(schema.children[0]->dictionary, 1));
  {
    struct ArrowSchema* w = schema.children[0]->dictionary->children[0];
    DA_OK(ArrowSchemaSetType(w, NANOARROW_TYPE_INT32));
    DA_OK(ArrowSchemaSetName(w, "w"));
    DA_OK(ArrowSchemaAllocateDictionary(w));
    ArrowSchemaInit(w->dictionary);
    DA_OK(ArrowSchemaSetType(w->dictionary, NANOARROW_TYPE_STRING));
  }

  ArrowBufferInit(&bytes);
  DA_OK(ArrowIpcOutputStreamInitBuffer(&output, &bytes));
  DA_OK(ArrowIpcWriterInit(&writer, &output));
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  lengths[0] = 5;
  for (k = 1; k <= DA_NESTED_DELTAS; k++) lengths[k] = lengths[k - 1] + DaDeltaLength(k);
  for (k = 0; k <= DA_NESTED_DELTAS; k++) {
    struct ArrowArray batch;
    struct ArrowArrayView view;
    DaNestedBatch(&schema, lengths[k], &batch);
    DA_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
    DA_OK(ArrowArrayViewSetArray(&view, &batch, &error));
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
                 error.message);
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&batch);
  }
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowIpcWriterReset(&writer);

  batches = (struct ArrowArray*)ArrowMalloc((DA_NESTED_DELTAS + 1) *
                                            (int64_t)sizeof(struct ArrowArray));
  cr_assert_neq(batches, NULL);
  DA_OK(ArrowIpcDecoderInit(&decoder));
  for (;;) {
    struct ArrowBufferView view;
    view.data.as_uint8 = bytes.data + position;
    view.size_bytes = bytes.size_bytes - position;
    if (view.size_bytes == 0) break;
    result = ArrowIpcDecoderDecodeHeader(&decoder, view, &error);
    if (result == ENODATA) break;
    cr_assert_eq(result, NANOARROW_OK, "%s", error.message);
    view.data.as_uint8 += decoder.header_size_bytes;
    view.size_bytes = decoder.body_size_bytes;
    position += decoder.header_size_bytes + decoder.body_size_bytes;
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      struct ArrowSchema decoded;
      DA_OK(ArrowIpcDecoderDecodeSchema(&decoder, &decoded, &error));
      DA_OK(ArrowIpcDecoderSetSchema(&decoder, &decoded, &error));
      ArrowSchemaRelease(&decoded);
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      cr_assert_eq(ArrowIpcDecoderDecodeDictionary(
                       &decoder, view, NANOARROW_VALIDATION_LEVEL_FULL, NULL, &error),
                   NANOARROW_OK, "%s", error.message);
    } else {
      cr_assert_leq(n_batches, DA_NESTED_DELTAS);
      cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, view, -1, &batches[n_batches],
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      n_batches++;
    }
  }
  cr_assert_eq(n_batches, DA_NESTED_DELTAS + 1);
  copies = ((struct ArrowIpcDecoderPrivate*)decoder.private_data)->n_delta_copies;
  cr_log_info("%d outer and inner deltas: %ld copies of a whole dictionary",
              DA_NESTED_DELTAS, (long)copies);
  /* Both ids: one copy per doubling each. */
  cr_assert_leq((double)copies, 4.0 * log2((double)lengths[DA_NESTED_DELTAS]) + 10.0,
                "%ld copies for %d deltas of each id", (long)copies, DA_NESTED_DELTAS);
  ArrowIpcDecoderReset(&decoder);
  for (k = 0; k < n_batches; k++) {
    DaNestedCheck(schema.children[0]->dictionary, batches[k].children[0]->dictionary,
                  lengths[k], k);
    ArrowArrayRelease(&batches[k]);
  }
  ArrowFree(batches);
  ArrowBufferReset(&bytes);
  ArrowSchemaRelease(&schema);
}
