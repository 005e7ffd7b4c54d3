/* Arrow IPC message encoding: Schema, RecordBatch, DictionaryBatch and Footer
 * flatbuffers (Schema.fbs, Message.fbs, File.fbs) plus record batch bodies. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "ipc/flatbuf_builder.h"
#include "ipc/writer_private.h"

/* ---- Field ids and enum values from Schema.fbs / Message.fbs / File.fbs ---- */

enum {
  FBE_MESSAGE_VERSION = 0,
  FBE_MESSAGE_HEADER_TYPE = 1,
  FBE_MESSAGE_HEADER = 2,
  FBE_MESSAGE_BODY_LENGTH = 3,
  FBE_MESSAGE_CUSTOM_METADATA = 4
};
enum { FBE_HEADER_SCHEMA = 1, FBE_HEADER_DICTIONARY_BATCH = 2, FBE_HEADER_RECORD_BATCH = 3 };
enum { FBE_METADATA_VERSION_V5 = 4 };
enum {
  FBE_SCHEMA_ENDIANNESS = 0,
  FBE_SCHEMA_FIELDS = 1,
  FBE_SCHEMA_CUSTOM_METADATA = 2,
  FBE_SCHEMA_FEATURES = 3
};
/* Feature (Schema.fbs, a long): COMPRESSED_BODY. */
enum { FBE_FEATURE_COMPRESSED_BODY = 2 };
enum {
  FBE_FIELD_NAME = 0,
  FBE_FIELD_NULLABLE = 1,
  FBE_FIELD_TYPE_TYPE = 2,
  FBE_FIELD_TYPE = 3,
  FBE_FIELD_DICTIONARY = 4,
  FBE_FIELD_CHILDREN = 5,
  FBE_FIELD_CUSTOM_METADATA = 6
};
enum { FBE_KEY_VALUE_KEY = 0, FBE_KEY_VALUE_VALUE = 1 };
enum {
  FBE_DICTIONARY_ENCODING_ID = 0,
  FBE_DICTIONARY_ENCODING_INDEX_TYPE = 1,
  FBE_DICTIONARY_ENCODING_IS_ORDERED = 2
};
enum {
  FBE_RECORD_BATCH_LENGTH = 0,
  FBE_RECORD_BATCH_NODES = 1,
  FBE_RECORD_BATCH_BUFFERS = 2,
  FBE_RECORD_BATCH_COMPRESSION = 3,
  FBE_RECORD_BATCH_VARIADIC_COUNTS = 4
};
enum {
  FBE_DICTIONARY_BATCH_ID = 0,
  FBE_DICTIONARY_BATCH_DATA = 1,
  FBE_DICTIONARY_BATCH_IS_DELTA = 2
};
enum { FBE_BODY_COMPRESSION_CODEC = 0, FBE_BODY_COMPRESSION_METHOD = 1 };
enum {
  FBE_FOOTER_VERSION = 0,
  FBE_FOOTER_SCHEMA = 1,
  FBE_FOOTER_DICTIONARIES = 2,
  FBE_FOOTER_RECORD_BATCHES = 3
};

/* Members of the Type union (0 is NONE). */
enum {
  FBE_TYPE_NULL = 1,
  FBE_TYPE_INT = 2,
  FBE_TYPE_FLOATING_POINT = 3,
  FBE_TYPE_BINARY = 4,
  FBE_TYPE_UTF8 = 5,
  FBE_TYPE_BOOL = 6,
  FBE_TYPE_DECIMAL = 7,
  FBE_TYPE_DATE = 8,
  FBE_TYPE_TIME = 9,
  FBE_TYPE_TIMESTAMP = 10,
  FBE_TYPE_INTERVAL = 11,
  FBE_TYPE_LIST = 12,
  FBE_TYPE_STRUCT = 13,
  FBE_TYPE_UNION = 14,
  FBE_TYPE_FIXED_SIZE_BINARY = 15,
  FBE_TYPE_FIXED_SIZE_LIST = 16,
  FBE_TYPE_MAP = 17,
  FBE_TYPE_DURATION = 18,
  FBE_TYPE_LARGE_BINARY = 19,
  FBE_TYPE_LARGE_UTF8 = 20,
  FBE_TYPE_LARGE_LIST = 21,
  FBE_TYPE_RUN_END_ENCODED = 22,
  FBE_TYPE_BINARY_VIEW = 23,
  FBE_TYPE_UTF8_VIEW = 24,
  FBE_TYPE_LIST_VIEW = 25,
  FBE_TYPE_LARGE_LIST_VIEW = 26
};

/* Sizes of the structs FieldNode, Buffer (Schema.fbs) and Block (File.fbs). */
#define FBE_FIELD_NODE_SIZE 16
#define FBE_BUFFER_SIZE 16
#define FBE_BLOCK_SIZE 24

#define ARROW_IPC_DEFAULT_ALIGNMENT 8
#define ARROW_IPC_MAX_ALIGNMENT 4096

/* The flatbuffer of a RecordBatch message depends only on the codec and the
 * numbers of field nodes and buffers (without variadic counts): the first one
 * built for a shape is kept and later ones patch its values. */
struct ArrowIpcBatchTemplate {
  /* The message flatbuffer; empty when there is no template. */
  struct ArrowBuffer bytes;
  enum ArrowIpcCompressionType codec;
  int64_t n_nodes;
  int64_t n_buffers;
  /* Where Message.bodyLength, RecordBatch.length and the first element of the
   * nodes and buffers vectors are. */
  int64_t body_length_position;
  int64_t length_position;
  int64_t nodes_position;
  int64_t buffers_position;
};

/* One body buffer of the message being encoded while compressing: the
 * compressor's output for it goes to slot's compressed buffer, and src (the
 * caller's memory, or a copy in the slot when it came from scratch space) stays
 * valid until the body is assembled. */
struct ArrowIpcPendingBuffer {
  const void* src;
  int64_t size;
  int borrowed;
  /* Stored compressed even when that does not pay (see keep_compressed). */
  int keep_compressed;
  /* Index of its struct ArrowIpcCompressSlot (-1 for an empty buffer). */
  int64_t slot;
};

/* Allocated one by one (the compressor may keep pointers to them until its
 * compress_wait) and reused, by index, message after message. */
struct ArrowIpcCompressSlot {
  struct ArrowBuffer compressed;
  struct ArrowBuffer copy;
};

struct ArrowIpcEncoderPrivate {
  /* The flatbuffer of the last encoded message. */
  struct ArrowIpcFbb fbb;
  /* The codec the message being encoded declares (from compressor). */
  enum ArrowIpcCompressionType codec;
  /* release == NULL: no compression. */
  struct ArrowIpcCompressor compressor;
  /* ArrowIpcEncoderSetNumThreads, and the codec and level of a compressor made by
   * ArrowIpcEncoderSetCompression (own_compressor), which it remakes. */
  int n_threads;
  int own_compressor;
  int compression_level;
  /* struct ArrowIpcCompressSlot* of every slot allocated so far. */
  struct ArrowBuffer slots;
  /* struct ArrowIpcPendingBuffer of the message being encoded. */
  struct ArrowBuffer pending;
  /* Non-zero while compress_add calls wait for their compress_wait. */
  int compress_outstanding;
  /* Non-zero once a compressed body was encoded (the footer's schema declares it). */
  int ever_compressed;
  int64_t alignment;
  /* Non-zero while emitting values that need more than 8-byte alignment (decimal128
   * and decimal256): they are stored compressed even when that does not pay. */
  int keep_compressed;
  /* Collected while walking a record batch: FieldNode and Buffer structs
   * (little-endian) and variadicBufferCounts. */
  struct ArrowBuffer nodes;
  struct ArrowBuffer buffers;
  struct ArrowBuffer variadic_counts;
  int has_variadic_counts;
  /* Rebased offsets / shifted bitmaps / run ends of sliced arrays. */
  struct ArrowBuffer scratch;
  /* Where the current message's body starts in the caller's body buffer. */
  int64_t body_start;
  /* Length of the current message's body so far (staged bytes plus spans). */
  int64_t body_length;
  /* Deferred-body mode (see writer_private.h) and its struct ArrowIpcBodySpan. */
  int defer_body;
  struct ArrowBuffer spans;
  struct ArrowIpcBatchTemplate batch_template;
  /* ArrowIpcEncoderSetMessageMetadata: the pairs (ArrowSchema::metadata form) for
   * the next message, and how many (0: none). */
  struct ArrowBuffer message_metadata;
  int32_t message_metadata_n_keys;
};

static ArrowErrorCode ArrowIpcAppendLE64(struct ArrowBuffer* buffer, int64_t value) {
  uint8_t bytes[8];
  ArrowIpcFbbStoreLE(bytes, (uint64_t)value, 8);
  return ArrowBufferAppend(buffer, bytes, 8);
}

/* ---- Lifecycle ---- */

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderInit(struct ArrowIpcEncoder* encoder) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)ArrowMalloc(sizeof(struct ArrowIpcEncoderPrivate));
  encoder->private_data = private_data;
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  ArrowIpcFbbInit(&private_data->fbb);
  private_data->codec = NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  private_data->alignment = ARROW_IPC_DEFAULT_ALIGNMENT;
  ArrowBufferInit(&private_data->nodes);
  ArrowBufferInit(&private_data->buffers);
  ArrowBufferInit(&private_data->variadic_counts);
  ArrowBufferInit(&private_data->scratch);
  ArrowBufferInit(&private_data->spans);
  ArrowBufferInit(&private_data->batch_template.bytes);
  ArrowBufferInit(&private_data->slots);
  ArrowBufferInit(&private_data->pending);
  ArrowBufferInit(&private_data->message_metadata);
  private_data->compressor.release = NULL;
  return NANOARROW_OK;
}

static void ArrowIpcEncoderReleaseCompressor(struct ArrowIpcEncoderPrivate* private_data) {
  if (private_data->compressor.release != NULL) {
    private_data->compressor.release(&private_data->compressor);
  }
  private_data->compressor.release = NULL;
}

NANOARROW_COLD
void ArrowIpcEncoderReset(struct ArrowIpcEncoder* encoder) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  if (private_data == NULL) return;
  ArrowIpcFbbReset(&private_data->fbb);
  ArrowBufferReset(&private_data->nodes);
  ArrowBufferReset(&private_data->buffers);
  ArrowBufferReset(&private_data->variadic_counts);
  ArrowBufferReset(&private_data->scratch);
  ArrowBufferReset(&private_data->spans);
  ArrowBufferReset(&private_data->batch_template.bytes);
  ArrowIpcEncoderReleaseCompressor(private_data);
  {
    struct ArrowIpcCompressSlot** slots =
        (struct ArrowIpcCompressSlot**)private_data->slots.data;
    int64_t n_slots = private_data->slots.size_bytes / (int64_t)sizeof(*slots);
    int64_t i;
    for (i = 0; i < n_slots; i++) {
      ArrowBufferReset(&slots[i]->compressed);
      ArrowBufferReset(&slots[i]->copy);
      ArrowFree(slots[i]);
    }
  }
  ArrowBufferReset(&private_data->slots);
  ArrowBufferReset(&private_data->pending);
  ArrowBufferReset(&private_data->message_metadata);
  ArrowFree(private_data);
  encoder->private_data = NULL;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderSetCompressor(struct ArrowIpcEncoder* encoder,
                                            struct ArrowIpcCompressor* compressor) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  if (compressor == NULL || compressor->release == NULL) return EINVAL;
  ArrowIpcEncoderReleaseCompressor(private_data);
  memcpy(&private_data->compressor, compressor, sizeof(*compressor));
  compressor->release = NULL;
  private_data->own_compressor = 0;
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderSetCompression(struct ArrowIpcEncoder* encoder,
                                             enum ArrowIpcCompressionType compression_type,
                                             int compression_level,
                                             struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  struct ArrowIpcCompressor compressor;
  int min_level;
  int max_level;
  int result;

  switch (compression_type) {
    case NANOARROW_IPC_COMPRESSION_TYPE_NONE:
      ArrowIpcEncoderReleaseCompressor(private_data);
      return NANOARROW_OK;
    case NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME:
    case NANOARROW_IPC_COMPRESSION_TYPE_ZSTD:
      break;
    default:
      ArrowErrorSet(error, "Unknown compression type with value %d", (int)compression_type);
      return EINVAL;
  }

  /* Checked now rather than when the first batch is encoded. */
  if (ArrowIpcGetCompressionLevelRange(compression_type, &min_level, &max_level) !=
      NANOARROW_OK) {
    ArrowErrorSet(error,
                  "Compression type with value %d not supported by this build of "
                  "nanoarrow",
                  (int)compression_type);
    return ENOTSUP;
  }
  if (compression_level < min_level || compression_level > max_level) {
    ArrowErrorSet(error, "Compression level %d is out of range for %s (expected %d to %d)",
                  compression_level, ArrowIpcCompressionTypeToString(compression_type),
                  min_level, max_level);
    return EINVAL;
  }

  result = ArrowIpcParallelCompressor(&compressor, compression_type, compression_level,
                                      private_data->n_threads);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "Out of memory creating a compressor");
    return result;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcEncoderSetCompressor(encoder, &compressor));
  private_data->own_compressor = 1;
  private_data->compression_level = compression_level;
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderSetNumThreads(struct ArrowIpcEncoder* encoder,
                                            int n_threads, struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  if (private_data == NULL) {
    ArrowErrorSet(error, "encoder is not initialized");
    return EINVAL;
  }
  if (private_data->compress_outstanding) {
    ArrowErrorSet(error, "cannot change the number of threads while a body is encoded");
    return EINVAL;
  }
  private_data->n_threads = n_threads;
  if (private_data->own_compressor && private_data->compressor.release != NULL) {
    return ArrowIpcEncoderSetCompression(encoder, private_data->compressor.compression_type,
                                         private_data->compression_level, error);
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderSetAlignment(struct ArrowIpcEncoder* encoder,
                                           int64_t alignment) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  if (alignment < 8 || alignment > ARROW_IPC_MAX_ALIGNMENT ||
      (alignment & (alignment - 1)) != 0) {
    return EINVAL;
  }
  private_data->alignment = alignment;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcEncoderFinalizeBuffer(struct ArrowIpcEncoder* encoder,
                                             char encapsulate, struct ArrowBuffer* out) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  const struct ArrowBuffer* flatbuffer = &private_data->fbb.buffer;
  int64_t padded_size;
  uint8_t prefix[8];

  if (!encapsulate) {
    return ArrowBufferAppend(out, flatbuffer->data, flatbuffer->size_bytes);
  }

  /* The message (prefix and flatbuffer) is a multiple of the alignment, so that a
   * body that follows a message starting aligned starts aligned too. */
  padded_size = 8 + flatbuffer->size_bytes;
  padded_size += (-padded_size) & (private_data->alignment - 1);
  padded_size -= 8;
  if (padded_size > INT32_MAX) return ERANGE;
  ArrowIpcFbbStoreLE(prefix, 0xFFFFFFFFu, 4);
  ArrowIpcFbbStoreLE(prefix + 4, (uint64_t)padded_size, 4);
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, 8 + padded_size));
  ArrowBufferAppendUnsafe(out, prefix, 8);
  ArrowBufferAppendUnsafe(out, flatbuffer->data, flatbuffer->size_bytes);
  memset(out->data + out->size_bytes, 0, (size_t)(padded_size - flatbuffer->size_bytes));
  out->size_bytes += padded_size - flatbuffer->size_bytes;
  return NANOARROW_OK;
}

/* ---- Schema ---- */

static int ArrowIpcFbTimeUnit(enum ArrowTimeUnit unit) {
  /* TimeUnit in Schema.fbs: SECOND, MILLISECOND, MICROSECOND, NANOSECOND. */
  return (int)unit;
}

/* The Type union member for a (non-dictionary) schema view. */
static ArrowErrorCode ArrowIpcFbTypeType(const struct ArrowSchemaView* schema_view,
                                         uint8_t* out, struct ArrowError* error) {
  switch (schema_view->type) {
    case NANOARROW_TYPE_NA:
      *out = FBE_TYPE_NULL;
      break;
    case NANOARROW_TYPE_BOOL:
      *out = FBE_TYPE_BOOL;
      break;
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
      *out = FBE_TYPE_INT;
      break;
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      *out = FBE_TYPE_FLOATING_POINT;
      break;
    case NANOARROW_TYPE_STRING:
      *out = FBE_TYPE_UTF8;
      break;
    case NANOARROW_TYPE_LARGE_STRING:
      *out = FBE_TYPE_LARGE_UTF8;
      break;
    case NANOARROW_TYPE_BINARY:
      *out = FBE_TYPE_BINARY;
      break;
    case NANOARROW_TYPE_LARGE_BINARY:
      *out = FBE_TYPE_LARGE_BINARY;
      break;
    case NANOARROW_TYPE_STRING_VIEW:
      *out = FBE_TYPE_UTF8_VIEW;
      break;
    case NANOARROW_TYPE_BINARY_VIEW:
      *out = FBE_TYPE_BINARY_VIEW;
      break;
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      *out = FBE_TYPE_FIXED_SIZE_BINARY;
      break;
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_DATE64:
      *out = FBE_TYPE_DATE;
      break;
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
      *out = FBE_TYPE_TIME;
      break;
    case NANOARROW_TYPE_TIMESTAMP:
      *out = FBE_TYPE_TIMESTAMP;
      break;
    case NANOARROW_TYPE_DURATION:
      *out = FBE_TYPE_DURATION;
      break;
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      *out = FBE_TYPE_INTERVAL;
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      *out = FBE_TYPE_DECIMAL;
      break;
    case NANOARROW_TYPE_LIST:
      *out = FBE_TYPE_LIST;
      break;
    case NANOARROW_TYPE_LARGE_LIST:
      *out = FBE_TYPE_LARGE_LIST;
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      *out = FBE_TYPE_FIXED_SIZE_LIST;
      break;
    case NANOARROW_TYPE_LIST_VIEW:
      *out = FBE_TYPE_LIST_VIEW;
      break;
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      *out = FBE_TYPE_LARGE_LIST_VIEW;
      break;
    case NANOARROW_TYPE_STRUCT:
      *out = FBE_TYPE_STRUCT;
      break;
    case NANOARROW_TYPE_MAP:
      *out = FBE_TYPE_MAP;
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      *out = FBE_TYPE_UNION;
      break;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      *out = FBE_TYPE_RUN_END_ENCODED;
      break;
    default:
      ArrowErrorSet(error, "Type %d cannot be written to IPC", (int)schema_view->type);
      return ENOTSUP;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcFbWriteIntTable(struct ArrowIpcFbb* fbb, enum ArrowType type,
                                              int64_t* position_out) {
  struct ArrowIpcFbbTable table;
  int bit_width;
  int is_signed;
  switch (type) {
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
      bit_width = 8;
      break;
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
      bit_width = 16;
      break;
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
      bit_width = 32;
      break;
    default:
      bit_width = 64;
      break;
  }
  is_signed = type == NANOARROW_TYPE_INT8 || type == NANOARROW_TYPE_INT16 ||
              type == NANOARROW_TYPE_INT32 || type == NANOARROW_TYPE_INT64;
  ArrowIpcFbbTableInit(&table);
  ArrowIpcFbbTableAddInt32(&table, 0, bit_width);
  ArrowIpcFbbTableAddBool(&table, 1, is_signed);
  return ArrowIpcFbbWriteTable(fbb, &table, position_out);
}

/* Union type ids ("+ud:0,1,2" after the colon) as int32 little-endian values. */
static ArrowErrorCode ArrowIpcFbWriteUnionTypeIds(struct ArrowIpcFbb* fbb,
                                                  const struct ArrowIpcFbbTable* table,
                                                  const struct ArrowSchemaView* schema_view,
                                                  int64_t n_children,
                                                  struct ArrowError* error) {
  uint8_t type_ids[4 * 128];
  const char* cursor = schema_view->union_type_ids;
  int64_t n_ids = 0;
  int64_t position;

  while (cursor != NULL && *cursor != '\0') {
    char* end;
    long value = strtol(cursor, &end, 10);
    if (end == cursor || value < 0 || value > 127 || n_ids >= 128 ||
        (*end != ',' && *end != '\0')) {
      ArrowErrorSet(error, "Invalid union type ids '%s'", schema_view->union_type_ids);
      return EINVAL;
    }
    ArrowIpcFbbStoreLE(type_ids + 4 * n_ids, (uint64_t)value, 4);
    n_ids++;
    cursor = *end == ',' ? end + 1 : end;
  }
  if (n_ids != n_children) {
    ArrowErrorSet(error, "Union has %" PRId64 " type ids for %" PRId64 " children",
                  n_ids, n_children);
    return EINVAL;
  }
  return ArrowIpcFbbSetVector(fbb, table, 1, type_ids, n_ids, 4, 4, &position);
}

/* Writes the Type union member table for schema_view. */
static ArrowErrorCode ArrowIpcFbWriteTypeTable(struct ArrowIpcFbb* fbb,
                                               const struct ArrowSchema* schema,
                                               const struct ArrowSchemaView* schema_view,
                                               int64_t* position_out,
                                               struct ArrowError* error) {
  struct ArrowIpcFbbTable table;
  ArrowIpcFbbTableInit(&table);

  switch (schema_view->type) {
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
      return ArrowIpcFbWriteIntTable(fbb, schema_view->type, position_out);
    case NANOARROW_TYPE_HALF_FLOAT:
      ArrowIpcFbbTableAddInt16(&table, 0, 0);
      break;
    case NANOARROW_TYPE_FLOAT:
      ArrowIpcFbbTableAddInt16(&table, 0, 1);
      break;
    case NANOARROW_TYPE_DOUBLE:
      ArrowIpcFbbTableAddInt16(&table, 0, 2);
      break;
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      ArrowIpcFbbTableAddInt32(&table, 0, schema_view->fixed_size);
      break;
    case NANOARROW_TYPE_DATE32:
      ArrowIpcFbbTableAddInt16(&table, 0, 0);
      break;
    case NANOARROW_TYPE_DATE64:
      ArrowIpcFbbTableAddInt16(&table, 0, 1);
      break;
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
      ArrowIpcFbbTableAddInt16(&table, 0,
                               (int16_t)ArrowIpcFbTimeUnit(schema_view->time_unit));
      ArrowIpcFbbTableAddInt32(&table, 1,
                               schema_view->type == NANOARROW_TYPE_TIME32 ? 32 : 64);
      break;
    case NANOARROW_TYPE_TIMESTAMP:
      ArrowIpcFbbTableAddInt16(&table, 0,
                               (int16_t)ArrowIpcFbTimeUnit(schema_view->time_unit));
      if (schema_view->timezone != NULL && schema_view->timezone[0] != '\0') {
        ArrowIpcFbbTableAddOffset(&table, 1);
      }
      break;
    case NANOARROW_TYPE_DURATION:
      ArrowIpcFbbTableAddInt16(&table, 0,
                               (int16_t)ArrowIpcFbTimeUnit(schema_view->time_unit));
      break;
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      ArrowIpcFbbTableAddInt16(&table, 0, 0);
      break;
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
      ArrowIpcFbbTableAddInt16(&table, 0, 1);
      break;
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      ArrowIpcFbbTableAddInt16(&table, 0, 2);
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      ArrowIpcFbbTableAddInt32(&table, 0, schema_view->decimal_precision);
      ArrowIpcFbbTableAddInt32(&table, 1, schema_view->decimal_scale);
      ArrowIpcFbbTableAddInt32(&table, 2, schema_view->decimal_bitwidth);
      break;
    case NANOARROW_TYPE_MAP:
      ArrowIpcFbbTableAddBool(&table, 0, (schema->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      ArrowIpcFbbTableAddInt16(&table, 0,
                               schema_view->type == NANOARROW_TYPE_DENSE_UNION ? 1 : 0);
      ArrowIpcFbbTableAddOffset(&table, 1);
      break;
    default:
      /* Null, Bool, Utf8, Binary, List, Struct_, ... have no fields. */
      break;
  }

  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &table, position_out));

  if (schema_view->type == NANOARROW_TYPE_TIMESTAMP && table.n_fields > 1) {
    return ArrowIpcFbbSetString(fbb, &table, 1, ArrowCharView(schema_view->timezone));
  }
  if (schema_view->type == NANOARROW_TYPE_SPARSE_UNION ||
      schema_view->type == NANOARROW_TYPE_DENSE_UNION) {
    return ArrowIpcFbWriteUnionTypeIds(fbb, &table, schema_view, schema->n_children,
                                       error);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcFbCountMetadata(const char* metadata, int32_t* n_out,
                                              struct ArrowError* error) {
  struct ArrowMetadataReader reader;
  *n_out = 0;
  if (metadata == NULL) return NANOARROW_OK;
  if (ArrowMetadataReaderInit(&reader, metadata) != NANOARROW_OK) {
    ArrowErrorSet(error, "Invalid custom metadata");
    return EINVAL;
  }
  *n_out = reader.remaining_keys;
  return NANOARROW_OK;
}

/* A [KeyValue] vector from a C data interface metadata blob with n_keys keys. */
static ArrowErrorCode ArrowIpcFbWriteMetadata(struct ArrowIpcFbb* fbb,
                                              const struct ArrowIpcFbbTable* parent,
                                              int id, const char* metadata, int32_t n_keys,
                                              struct ArrowError* error) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  int64_t vector_position;
  int32_t i;

  NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, metadata));
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbbSetVector(fbb, parent, id, NULL, n_keys, 4, 4, &vector_position));
  for (i = 0; i < n_keys; i++) {
    struct ArrowIpcFbbTable key_value;
    int64_t table_position;
    if (ArrowMetadataReaderRead(&reader, &key, &value) != NANOARROW_OK) {
      ArrowErrorSet(error, "Invalid custom metadata at key %d", (int)i);
      return EINVAL;
    }
    ArrowIpcFbbTableInit(&key_value);
    ArrowIpcFbbTableAddOffset(&key_value, FBE_KEY_VALUE_KEY);
    ArrowIpcFbbTableAddOffset(&key_value, FBE_KEY_VALUE_VALUE);
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &key_value, &table_position));
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbPatchOffset(fbb, vector_position + 4 + 4 * i, table_position));
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbSetString(fbb, &key_value, FBE_KEY_VALUE_KEY, key));
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbSetString(fbb, &key_value, FBE_KEY_VALUE_VALUE, value));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcFbWriteFields(struct ArrowIpcFbb* fbb,
                                            const struct ArrowIpcFbbTable* parent, int id,
                                            const struct ArrowSchema* schema,
                                            int64_t* next_dictionary_id, int depth,
                                            struct ArrowError* error);

static ArrowErrorCode ArrowIpcFbWriteField(struct ArrowIpcFbb* fbb,
                                           const struct ArrowSchema* schema,
                                           int64_t* next_dictionary_id, int depth,
                                           int64_t* position_out,
                                           struct ArrowError* error) {
  struct ArrowSchemaView schema_view;
  struct ArrowSchemaView value_view;
  const struct ArrowSchema* value_schema = schema;
  struct ArrowIpcFbbTable field;
  uint8_t type_type;
  int32_t n_metadata_keys;
  int64_t position;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "Schema is nested deeper than %d levels",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }

  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, schema, error));
  value_view = schema_view;
  if (schema->dictionary != NULL) {
    value_schema = schema->dictionary;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&value_view, value_schema, error));
    if (value_schema->dictionary != NULL) {
      ArrowErrorSet(error, "Dictionary values of field '%s' are themselves dictionary "
                           "encoded",
                    schema->name ? schema->name : "");
      return EINVAL;
    }
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbTypeType(&value_view, &type_type, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbCountMetadata(schema->metadata, &n_metadata_keys, error));

  ArrowIpcFbbTableInit(&field);
  if (schema->name != NULL) ArrowIpcFbbTableAddOffset(&field, FBE_FIELD_NAME);
  ArrowIpcFbbTableAddBool(&field, FBE_FIELD_NULLABLE,
                          (schema->flags & ARROW_FLAG_NULLABLE) != 0);
  ArrowIpcFbbTableAddUInt8(&field, FBE_FIELD_TYPE_TYPE, type_type);
  ArrowIpcFbbTableAddOffset(&field, FBE_FIELD_TYPE);
  if (schema->dictionary != NULL) ArrowIpcFbbTableAddOffset(&field, FBE_FIELD_DICTIONARY);
  ArrowIpcFbbTableAddOffset(&field, FBE_FIELD_CHILDREN);
  if (n_metadata_keys > 0) ArrowIpcFbbTableAddOffset(&field, FBE_FIELD_CUSTOM_METADATA);
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &field, position_out));

  if (schema->name != NULL) {
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbSetString(fbb, &field, FBE_FIELD_NAME, ArrowCharView(schema->name)));
  }

  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbWriteTypeTable(fbb, value_schema, &value_view, &position, error));
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbbPatchOffset(fbb, field.position[FBE_FIELD_TYPE], position));

  if (schema->dictionary != NULL) {
    struct ArrowIpcFbbTable encoding;
    ArrowIpcFbbTableInit(&encoding);
    ArrowIpcFbbTableAddInt64(&encoding, FBE_DICTIONARY_ENCODING_ID, (*next_dictionary_id)++);
    ArrowIpcFbbTableAddOffset(&encoding, FBE_DICTIONARY_ENCODING_INDEX_TYPE);
    ArrowIpcFbbTableAddBool(&encoding, FBE_DICTIONARY_ENCODING_IS_ORDERED,
                            (schema->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0);
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &encoding, &position));
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbPatchOffset(fbb, field.position[FBE_FIELD_DICTIONARY], position));
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteIntTable(fbb, schema_view.storage_type, &position));
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPatchOffset(
        fbb, encoding.position[FBE_DICTIONARY_ENCODING_INDEX_TYPE], position));
  }

  NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteFields(fbb, &field, FBE_FIELD_CHILDREN, value_schema,
                                                next_dictionary_id, depth + 1, error));

  if (n_metadata_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteMetadata(fbb, &field, FBE_FIELD_CUSTOM_METADATA,
                                                    schema->metadata, n_metadata_keys,
                                                    error));
  }
  return NANOARROW_OK;
}

/* A [Field] vector of schema's children at field id of parent. */
static ArrowErrorCode ArrowIpcFbWriteFields(struct ArrowIpcFbb* fbb,
                                            const struct ArrowIpcFbbTable* parent, int id,
                                            const struct ArrowSchema* schema,
                                            int64_t* next_dictionary_id, int depth,
                                            struct ArrowError* error) {
  int64_t vector_position;
  int64_t i;
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    ArrowErrorSet(error, "Invalid n_children %" PRId64, schema->n_children);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbbSetVector(fbb, parent, id, NULL, schema->n_children, 4, 4, &vector_position));
  for (i = 0; i < schema->n_children; i++) {
    int64_t position;
    int result;
    if (schema->children[i] == NULL || schema->children[i]->release == NULL) {
      ArrowErrorSet(error, "Child %" PRId64 " of the schema is released", i);
      return EINVAL;
    }
    result = ArrowIpcFbWriteField(fbb, schema->children[i], next_dictionary_id, depth,
                                  &position, error);
    if (result != NANOARROW_OK) return result;
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbPatchOffset(fbb, vector_position + 4 + 4 * i, position));
  }
  return NANOARROW_OK;
}

/* A Schema table for a struct schema. */
/* compressed: declare the COMPRESSED_BODY feature. */
static ArrowErrorCode ArrowIpcFbWriteSchema(struct ArrowIpcFbb* fbb,
                                            const struct ArrowSchema* schema,
                                            int compressed, int64_t* position_out,
                                            struct ArrowError* error) {
  struct ArrowSchemaView schema_view;
  struct ArrowIpcFbbTable table;
  int32_t n_metadata_keys;
  int64_t next_dictionary_id = 0;
  uint32_t endian_check = 1;
  uint8_t first_byte;

  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "Schema is released");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, schema, error));
  if (schema_view.type != NANOARROW_TYPE_STRUCT) {
    ArrowErrorSet(error, "IPC schemas must be struct ('+s'), got format '%s'",
                  schema->format);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbCountMetadata(schema->metadata, &n_metadata_keys, error));

  memcpy(&first_byte, &endian_check, 1);
  ArrowIpcFbbTableInit(&table);
  /* Endianness: Little = 0, Big = 1; bodies are written in host order. */
  ArrowIpcFbbTableAddInt16(&table, FBE_SCHEMA_ENDIANNESS, first_byte ? 0 : 1);
  ArrowIpcFbbTableAddOffset(&table, FBE_SCHEMA_FIELDS);
  if (n_metadata_keys > 0) ArrowIpcFbbTableAddOffset(&table, FBE_SCHEMA_CUSTOM_METADATA);
  if (compressed) ArrowIpcFbbTableAddOffset(&table, FBE_SCHEMA_FEATURES);
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &table, position_out));
  if (compressed) {
    uint8_t feature[8];
    ArrowIpcFbbStoreLE(feature, FBE_FEATURE_COMPRESSED_BODY, 8);
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbSetVector(fbb, &table, FBE_SCHEMA_FEATURES, feature, 1, 8, 8, NULL));
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteFields(fbb, &table, FBE_SCHEMA_FIELDS, schema,
                                                &next_dictionary_id, 0, error));
  if (n_metadata_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteMetadata(fbb, &table, FBE_SCHEMA_CUSTOM_METADATA,
                                                    schema->metadata, n_metadata_keys,
                                                    error));
  }
  return NANOARROW_OK;
}

/* ---- Message custom metadata ---- */

static void ArrowIpcEncoderClearMessageMetadata(struct ArrowIpcEncoderPrivate* private_data) {
  private_data->message_metadata.size_bytes = 0;
  private_data->message_metadata_n_keys = 0;
}

/* Walks metadata (ArrowSchema::metadata form) within its size_bytes: the count and
 * every length must be non-negative and every key and value inside the buffer. */
static ArrowErrorCode ArrowIpcCheckMessageMetadata(const struct ArrowBuffer* metadata,
                                                   int32_t* n_keys_out,
                                                   struct ArrowError* error) {
  int64_t size = metadata->size_bytes;
  int64_t pos = 4;
  int32_t n_keys;
  int64_t i;
  *n_keys_out = 0;
  if (size == 0) return NANOARROW_OK;
  if (metadata->data == NULL || size < 4) {
    ArrowErrorSet(error, "message metadata of %ld bytes is too short for its key count",
                  (long)size);
    return EINVAL;
  }
  memcpy(&n_keys, metadata->data, 4);
  if (n_keys < 0) {
    ArrowErrorSet(error, "message metadata has a negative key count (%d)", (int)n_keys);
    return EINVAL;
  }
  for (i = 0; i < 2 * (int64_t)n_keys; i++) {
    int32_t length;
    if (size - pos < 4) {
      ArrowErrorSet(error, "message metadata ends inside the length of %s %ld",
                    i % 2 == 0 ? "key" : "value", (long)(i / 2));
      return EINVAL;
    }
    memcpy(&length, metadata->data + pos, 4);
    pos += 4;
    if (length < 0 || length > size - pos) {
      ArrowErrorSet(error, "message metadata %s %ld has length %d but %ld bytes remain",
                    i % 2 == 0 ? "key" : "value", (long)(i / 2), (int)length,
                    (long)(size - pos));
      return EINVAL;
    }
    pos += length;
  }
  *n_keys_out = n_keys;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcEncoderSetMessageMetadata(struct ArrowIpcEncoder* encoder,
                                                 struct ArrowBuffer* metadata,
                                                 struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  int32_t n_keys;
  if (metadata == NULL) {
    ArrowIpcEncoderClearMessageMetadata(private_data);
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcCheckMessageMetadata(metadata, &n_keys, error));
  ArrowBufferReset(&private_data->message_metadata);
  ArrowBufferMove(metadata, &private_data->message_metadata);
  private_data->message_metadata_n_keys = n_keys;
  return NANOARROW_OK;
}

/* Starts a Message: writes its table and returns the header slot position (and,
 * when body_length_out is not NULL, where bodyLength is). */
static ArrowErrorCode ArrowIpcFbStartMessage(struct ArrowIpcEncoderPrivate* private_data,
                                             uint8_t header_type, int64_t body_length,
                                             int64_t* header_slot_out,
                                             int64_t* body_length_out) {
  struct ArrowIpcFbb* fbb = &private_data->fbb;
  struct ArrowIpcFbbTable message;
  int64_t position;
  int32_t n_keys = private_data->message_metadata_n_keys;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbStart(fbb));
  ArrowIpcFbbTableInit(&message);
  ArrowIpcFbbTableAddInt16(&message, FBE_MESSAGE_VERSION, FBE_METADATA_VERSION_V5);
  ArrowIpcFbbTableAddUInt8(&message, FBE_MESSAGE_HEADER_TYPE, header_type);
  ArrowIpcFbbTableAddOffset(&message, FBE_MESSAGE_HEADER);
  ArrowIpcFbbTableAddInt64(&message, FBE_MESSAGE_BODY_LENGTH, body_length);
  if (n_keys > 0) ArrowIpcFbbTableAddOffset(&message, FBE_MESSAGE_CUSTOM_METADATA);
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &message, &position));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPatchOffset(fbb, 0, position));
  if (n_keys > 0) {
    /* Checked by ArrowIpcEncoderSetMessageMetadata: no error is reported here. */
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteMetadata(
        fbb, &message, FBE_MESSAGE_CUSTOM_METADATA,
        (const char*)private_data->message_metadata.data, n_keys, NULL));
  }
  *header_slot_out = message.position[FBE_MESSAGE_HEADER];
  if (body_length_out != NULL) {
    *body_length_out = message.position[FBE_MESSAGE_BODY_LENGTH];
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcEncoderEncodeSchema(struct ArrowIpcEncoder* encoder,
                                           const struct ArrowSchema* schema,
                                           struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  struct ArrowIpcFbb* fbb = &private_data->fbb;
  int64_t header_slot;
  int64_t position;
  int result;

  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcFbStartMessage(private_data, FBE_HEADER_SCHEMA, 0, &header_slot, NULL), error);
  result = ArrowIpcFbWriteSchema(fbb, schema, private_data->compressor.release != NULL,
                                 &position, error);
  if (result == ERANGE) ArrowErrorSet(error, "Schema message exceeds 2 GiB");
  if (result == ENOMEM) ArrowErrorSet(error, "Out of memory encoding the schema");
  NANOARROW_RETURN_NOT_OK(result);
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPatchOffset(fbb, header_slot, position));
  ArrowIpcEncoderClearMessageMetadata(private_data);
  return NANOARROW_OK;
}

/* ---- Record batch bodies ---- */

/* Appends bytes of the body. borrowed data (the caller's arrays, unchanged until
 * the message is written) may, in deferred mode, be listed as a span instead of
 * copied; other data (scratch space reused by the next buffer) is always copied. */
static ArrowErrorCode ArrowIpcBodyAppend(struct ArrowIpcEncoderPrivate* private_data,
                                         struct ArrowBuffer* body, const void* data,
                                         int64_t size, int borrowed) {
  if (borrowed && private_data->defer_body && size >= NANOARROW_IPC_DEFER_MIN_BYTES) {
    struct ArrowIpcBodySpan span;
    span.staged_end = body->size_bytes;
    span.data = data;
    span.size_bytes = size;
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&private_data->spans, &span, sizeof(span)));
  } else if (size > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(body, data, size));
  }
  private_data->body_length += size;
  return NANOARROW_OK;
}

/* Appends the Buffer struct of a body buffer. */
static ArrowErrorCode ArrowIpcAppendBufferStruct(struct ArrowIpcEncoderPrivate* private_data,
                                                 int64_t offset, int64_t length) {
  uint8_t* buffer_struct;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->buffers, FBE_BUFFER_SIZE));
  buffer_struct = private_data->buffers.data + private_data->buffers.size_bytes;
  ArrowIpcFbbStoreLE(buffer_struct, (uint64_t)offset, 8);
  ArrowIpcFbbStoreLE(buffer_struct + 8, (uint64_t)length, 8);
  private_data->buffers.size_bytes += FBE_BUFFER_SIZE;
  return NANOARROW_OK;
}

/* Zero padding from the end of the body so far up to the alignment. */
static ArrowErrorCode ArrowIpcBodyPad(struct ArrowIpcEncoderPrivate* private_data,
                                      struct ArrowBuffer* body) {
  int64_t padding = (-private_data->body_length) & (private_data->alignment - 1);
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(body, 0, padding));
  private_data->body_length += padding;
  return NANOARROW_OK;
}

/* The slot at index, allocated when it is the first time a message has this
 * many buffers. */
static ArrowErrorCode ArrowIpcCompressSlotAt(struct ArrowIpcEncoderPrivate* private_data,
                                             int64_t index,
                                             struct ArrowIpcCompressSlot** out) {
  struct ArrowIpcCompressSlot* slot;
  while (private_data->slots.size_bytes / (int64_t)sizeof(slot) <= index) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->slots, (int64_t)sizeof(slot)));
    slot = (struct ArrowIpcCompressSlot*)ArrowMalloc(sizeof(struct ArrowIpcCompressSlot));
    if (slot == NULL) return ENOMEM;
    ArrowBufferInit(&slot->compressed);
    ArrowBufferInit(&slot->copy);
    ArrowBufferAppendUnsafe(&private_data->slots, &slot, sizeof(slot));
  }
  *out = ((struct ArrowIpcCompressSlot**)private_data->slots.data)[index];
  return NANOARROW_OK;
}

/* While compressing: queues one body buffer with the compressor; its bytes and
 * Buffer struct are written by ArrowIpcAssembleCompressedBody. */
static ArrowErrorCode ArrowIpcQueueCompressedBuffer(
    struct ArrowIpcEncoderPrivate* private_data, const void* data, int64_t size,
    int borrowed, struct ArrowError* error) {
  struct ArrowIpcPendingBuffer pending;
  struct ArrowIpcCompressSlot* slot = NULL;
  struct ArrowBufferView src;
  int result;

  pending.src = data;
  pending.size = size;
  pending.borrowed = borrowed;
  pending.keep_compressed = private_data->keep_compressed;
  pending.slot = -1;
  if (size > 0) {
    pending.slot = private_data->pending.size_bytes / (int64_t)sizeof(pending);
    NANOARROW_RETURN_NOT_OK(ArrowIpcCompressSlotAt(private_data, pending.slot, &slot));
    slot->compressed.size_bytes = 0;
    if (!borrowed) {
      /* Scratch space is reused by the next buffer: the compressor gets a copy. */
      slot->copy.size_bytes = 0;
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&slot->copy, data, size));
      pending.src = slot->copy.data;
    }
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&private_data->pending, &pending, sizeof(pending)));
  /* Placeholder, set when the body is assembled. */
  NANOARROW_RETURN_NOT_OK(ArrowIpcAppendBufferStruct(private_data, 0, 0));
  if (size == 0) return NANOARROW_OK;

  src.data.data = pending.src;
  src.size_bytes = size;
  private_data->compress_outstanding = 1;
  result = private_data->compressor.compress_add(&private_data->compressor, src,
                                                 &slot->compressed, error);
  if (result != NANOARROW_OK) {
    /* Keep the compressor's message: ArrowIpcFinishBodyError drains it quietly. */
    return result;
  }
  return NANOARROW_OK;
}

/* Waits for the compressor and writes the queued buffers, each prefixed by its
 * uncompressed length, or by -1 and stored as is when compression did not make it
 * smaller. */
static ArrowErrorCode ArrowIpcAssembleCompressedBody(
    struct ArrowIpcEncoderPrivate* private_data, struct ArrowBuffer* body,
    struct ArrowError* error) {
  const struct ArrowIpcPendingBuffer* pending =
      (const struct ArrowIpcPendingBuffer*)private_data->pending.data;
  int64_t n_pending =
      private_data->pending.size_bytes / (int64_t)sizeof(struct ArrowIpcPendingBuffer);
  struct ArrowIpcCompressSlot** slots =
      (struct ArrowIpcCompressSlot**)private_data->slots.data;
  int64_t i;

  if (private_data->compress_outstanding) {
    int result = private_data->compressor.compress_wait(&private_data->compressor, -1, error);
    private_data->compress_outstanding = 0;
    NANOARROW_RETURN_NOT_OK(result);
  }

  for (i = 0; i < n_pending; i++) {
    int64_t offset;
    int64_t length = 0;
    /* Each buffer is its 8-byte length prefix, then the compressed or (prefix -1)
     * raw bytes: the prefix goes 8 bytes before an alignment boundary so that raw
     * values start aligned, as they do in an uncompressed body (readers that use
     * them in place, e.g. polars for decimal128, need their natural alignment).
     * Nothing moves at the default alignment of 8. */
    if (pending[i].size > 0) {
      int64_t padding = (-(private_data->body_length + 8)) & (private_data->alignment - 1);
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(body, 0, padding));
      private_data->body_length += padding;
    }
    offset = private_data->body_length;
    if (pending[i].size > 0) {
      const struct ArrowBuffer* compressed = &slots[pending[i].slot]->compressed;
      if (compressed->size_bytes < pending[i].size || pending[i].keep_compressed) {
        NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(body, 8 + compressed->size_bytes));
        NANOARROW_RETURN_NOT_OK(ArrowIpcAppendLE64(body, pending[i].size));
        ArrowBufferAppendUnsafe(body, compressed->data, compressed->size_bytes);
        length = 8 + compressed->size_bytes;
        private_data->body_length += length;
      } else {
        NANOARROW_RETURN_NOT_OK(ArrowIpcAppendLE64(body, -1));
        private_data->body_length += 8;
        /* A copy in a slot also stays put until the next message is encoded. */
        NANOARROW_RETURN_NOT_OK(ArrowIpcBodyAppend(private_data, body, pending[i].src,
                                                   pending[i].size, 1));
        length = 8 + pending[i].size;
      }
    }
    NANOARROW_RETURN_NOT_OK(ArrowIpcBodyPad(private_data, body));
    ArrowIpcFbbStoreLE(private_data->buffers.data + FBE_BUFFER_SIZE * i, (uint64_t)offset, 8);
    ArrowIpcFbbStoreLE(private_data->buffers.data + FBE_BUFFER_SIZE * i + 8,
                       (uint64_t)length, 8);
  }
  return NANOARROW_OK;
}

/* Appends one body buffer (queued for compression when a codec is set), its Buffer
 * struct, and zero padding up to the alignment. */
static ArrowErrorCode ArrowIpcEmitBufferImpl(struct ArrowIpcEncoderPrivate* private_data,
                                             struct ArrowBuffer* body, const void* data,
                                             int64_t size, int borrowed,
                                             struct ArrowError* error) {
  int64_t offset = private_data->body_length;
  if (private_data->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    return ArrowIpcQueueCompressedBuffer(private_data, data, size, borrowed, error);
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcBodyAppend(private_data, body, data, size, borrowed));
  NANOARROW_RETURN_NOT_OK(ArrowIpcBodyPad(private_data, body));
  return ArrowIpcAppendBufferStruct(private_data, offset, size);
}

/* A buffer of the caller's arrays. */
static ArrowErrorCode ArrowIpcEmitBuffer(struct ArrowIpcEncoderPrivate* private_data,
                                         struct ArrowBuffer* body, const void* data,
                                         int64_t size, struct ArrowError* error) {
  return ArrowIpcEmitBufferImpl(private_data, body, data, size, 1, error);
}

/* A buffer built in scratch space. */
static ArrowErrorCode ArrowIpcEmitScratch(struct ArrowIpcEncoderPrivate* private_data,
                                          struct ArrowBuffer* body, const void* data,
                                          int64_t size, struct ArrowError* error) {
  return ArrowIpcEmitBufferImpl(private_data, body, data, size, 0, error);
}

/* Bits [start, start + length) of bits, shifted to start at bit 0 when needed. */
static ArrowErrorCode ArrowIpcEmitBitmap(struct ArrowIpcEncoderPrivate* private_data,
                                         struct ArrowBuffer* body, const uint8_t* bits,
                                         int64_t start, int64_t length,
                                         struct ArrowError* error) {
  int64_t n_bytes = ArrowBytesForBits(length);
  const uint8_t* source;
  int shift;
  int64_t i;
  uint8_t* out;

  if (bits == NULL || length == 0) {
    return ArrowIpcEmitBuffer(private_data, body, NULL, 0, error);
  }
  source = bits + start / 8;
  shift = (int)(start % 8);
  if (shift == 0) {
    return ArrowIpcEmitBuffer(private_data, body, source, n_bytes, error);
  }

  private_data->scratch.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->scratch, n_bytes));
  out = private_data->scratch.data;
  /* Source bytes that hold bits of the slice: never read past the last one. */
  {
    int64_t n_source_bytes = ArrowBytesForBits(start % 8 + length);
    for (i = 0; i < n_bytes; i++) {
      uint8_t low = (uint8_t)(source[i] >> shift);
      uint8_t high = i + 1 < n_source_bytes ? (uint8_t)(source[i + 1] << (8 - shift)) : 0;
      out[i] = (uint8_t)(low | high);
    }
  }
  return ArrowIpcEmitScratch(private_data, body, out, n_bytes, error);
}

static ArrowErrorCode ArrowIpcAppendNode(struct ArrowIpcEncoderPrivate* private_data,
                                         int64_t length, int64_t null_count) {
  uint8_t* node;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->nodes, FBE_FIELD_NODE_SIZE));
  node = private_data->nodes.data + private_data->nodes.size_bytes;
  ArrowIpcFbbStoreLE(node, (uint64_t)length, 8);
  ArrowIpcFbbStoreLE(node + 8, (uint64_t)null_count, 8);
  private_data->nodes.size_bytes += FBE_FIELD_NODE_SIZE;
  return NANOARROW_OK;
}

/* Offsets [start, start + length] rebased to begin at 0; *first_out and *last_out
 * receive the original first and last offsets. */
static ArrowErrorCode ArrowIpcEmitOffsets(struct ArrowIpcEncoderPrivate* private_data,
                                          struct ArrowBuffer* body,
                                          const struct ArrowArrayView* view, int64_t start,
                                          int64_t length, int64_t* first_out,
                                          int64_t* last_out, struct ArrowError* error) {
  int large = view->layout.element_size_bits[1] == 64;
  int64_t element_size = large ? 8 : 4;
  const uint8_t* data = view->buffer_views[1].data.as_uint8;
  int64_t first;
  int64_t last;
  int64_t i;

  if (data == NULL || view->buffer_views[1].size_bytes < (start + length + 1) * element_size) {
    if (length == 0) {
      /* An empty array may come without offsets (or with an empty offsets buffer,
       * as IPC readers produce): write the single 0 offset. */
      *first_out = 0;
      *last_out = 0;
      private_data->scratch.size_bytes = 0;
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(&private_data->scratch, 0, element_size));
      return ArrowIpcEmitScratch(private_data, body, private_data->scratch.data,
                                 element_size, error);
    }
    ArrowErrorSet(error, "Offsets buffer is too small for offset %" PRId64
                         " and length %" PRId64, start, length);
    return EINVAL;
  }

  if (large) {
    first = view->buffer_views[1].data.as_int64[start];
    last = view->buffer_views[1].data.as_int64[start + length];
  } else {
    first = view->buffer_views[1].data.as_int32[start];
    last = view->buffer_views[1].data.as_int32[start + length];
  }
  if (first < 0 || last < first) {
    ArrowErrorSet(error, "Offsets %" PRId64 "..%" PRId64 " are not increasing", first,
                  last);
    return EINVAL;
  }
  *first_out = first;
  *last_out = last;

  if (first == 0) {
    return ArrowIpcEmitBuffer(private_data, body, data + start * element_size,
                              (length + 1) * element_size, error);
  }

  private_data->scratch.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferReserve(&private_data->scratch, (length + 1) * element_size));
  if (large) {
    int64_t* out = (int64_t*)private_data->scratch.data;
    const int64_t* in = view->buffer_views[1].data.as_int64 + start;
    for (i = 0; i <= length; i++) out[i] = in[i] - first;
  } else {
    int32_t* out = (int32_t*)private_data->scratch.data;
    const int32_t* in = view->buffer_views[1].data.as_int32 + start;
    for (i = 0; i <= length; i++) out[i] = (int32_t)(in[i] - first);
  }
  return ArrowIpcEmitScratch(private_data, body, private_data->scratch.data,
                             (length + 1) * element_size, error);
}

static ArrowErrorCode ArrowIpcEncodeColumn(struct ArrowIpcEncoderPrivate* private_data,
                                           struct ArrowBuffer* body,
                                           const struct ArrowArrayView* view, int64_t start,
                                           int64_t length, int depth,
                                           struct ArrowError* error);

/* Fixed-width bytes of elements [start, start + length). */
static ArrowErrorCode ArrowIpcEmitFixed(struct ArrowIpcEncoderPrivate* private_data,
                                        struct ArrowBuffer* body,
                                        const struct ArrowArrayView* view, int buffer_i,
                                        int64_t start, int64_t length,
                                        struct ArrowError* error) {
  int64_t element_size = view->layout.element_size_bits[buffer_i] / 8;
  const uint8_t* data = view->buffer_views[buffer_i].data.as_uint8;
  if (length == 0) return ArrowIpcEmitBuffer(private_data, body, NULL, 0, error);
  if (data == NULL ||
      view->buffer_views[buffer_i].size_bytes < (start + length) * element_size) {
    ArrowErrorSet(error, "Buffer %d is too small for offset %" PRId64
                         " and length %" PRId64, buffer_i, start, length);
    return EINVAL;
  }
  /* A reader copies a compressed body's buffer to decode it; a raw (-1) one it may
   * use in place after its 8-byte prefix, where values can count on 8-byte alignment
   * only: polars then panics on the i128 values of a decimal128 buffer. Decimals are
   * therefore always stored compressed (as Arrow C++ and arrow-rs store every
   * buffer). */
  if (view->storage_type == NANOARROW_TYPE_DECIMAL128 ||
      view->storage_type == NANOARROW_TYPE_DECIMAL256) {
    ArrowErrorCode result;
    private_data->keep_compressed = 1;
    result = ArrowIpcEmitBuffer(private_data, body, data + start * element_size,
                                length * element_size, error);
    private_data->keep_compressed = 0;
    return result;
  }
  return ArrowIpcEmitBuffer(private_data, body, data + start * element_size,
                            length * element_size, error);
}

/* Run-end encoded slice: only the runs overlapping [start, start + length), with
 * run ends made relative to start and the last one clamped to length. */
static ArrowErrorCode ArrowIpcEncodeRunEndEncoded(
    struct ArrowIpcEncoderPrivate* private_data, struct ArrowBuffer* body,
    const struct ArrowArrayView* view, int64_t start, int64_t length, int depth,
    struct ArrowError* error) {
  const struct ArrowArrayView* run_ends;
  const struct ArrowArrayView* values;
  int64_t element_size;
  int64_t first_run;
  int64_t n_runs = 0;
  int64_t i;

  if (view->n_children != 2) {
    ArrowErrorSet(error, "Run-end encoded array must have 2 children");
    return EINVAL;
  }
  run_ends = view->children[0];
  values = view->children[1];
  element_size = run_ends->layout.element_size_bits[1] / 8;
  if (element_size != 2 && element_size != 4 && element_size != 8) {
    ArrowErrorSet(error, "Run ends must be int16, int32 or int64");
    return EINVAL;
  }
  if (run_ends->length > 0 &&
      (run_ends->buffer_views[1].data.data == NULL ||
       run_ends->buffer_views[1].size_bytes <
           (run_ends->offset + run_ends->length) * element_size)) {
    ArrowErrorSet(error, "Run ends buffer is too small");
    return EINVAL;
  }

  first_run = ArrowArrayViewPrivateRunIndex(run_ends, start);

  private_data->scratch.size_bytes = 0;
  if (length > 0) {
    for (i = first_run; i < run_ends->length; i++) {
      int64_t end = ArrowArrayViewGetIntUnsafe(run_ends, i) - start;
      uint8_t bytes[8];
      if (end > length) end = length;
      ArrowIpcFbbStoreLE(bytes, (uint64_t)end, (int)element_size);
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&private_data->scratch, bytes, element_size));
      n_runs++;
      if (end == length) break;
    }
    if (n_runs == 0 ||
        ArrowArrayViewGetIntUnsafe(run_ends, first_run + n_runs - 1) - start < length) {
      ArrowErrorSet(error, "Run ends do not cover the array's length %" PRId64,
                    start + length);
      return EINVAL;
    }
  }

  NANOARROW_RETURN_NOT_OK(ArrowIpcAppendNode(private_data, length, 0));
  NANOARROW_RETURN_NOT_OK(ArrowIpcAppendNode(private_data, n_runs, 0));
  NANOARROW_RETURN_NOT_OK(ArrowIpcEmitBuffer(private_data, body, NULL, 0, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcEmitScratch(private_data, body, private_data->scratch.data,
                                              n_runs * element_size, error));
  return ArrowIpcEncodeColumn(private_data, body, values,
                              values->offset + first_run, n_runs,
                              depth + 1, error);
}

/* Dense union slice: offsets rebased per child so that each child is written as
 * the range of its elements that the slice uses. */
static ArrowErrorCode ArrowIpcEncodeDenseUnion(struct ArrowIpcEncoderPrivate* private_data,
                                               struct ArrowBuffer* body,
                                               const struct ArrowArrayView* view,
                                               int64_t start, int64_t length, int depth,
                                               struct ArrowError* error) {
  int64_t child_start[128];
  int64_t child_end[128];
  const int8_t* type_ids = view->buffer_views[0].data.as_int8;
  const int32_t* offsets = view->buffer_views[1].data.as_int32;
  int32_t* out;
  int64_t i;

  if (view->n_children > 128) {
    ArrowErrorSet(error, "Union has more than 128 children");
    return EINVAL;
  }
  if (length > 0 && (type_ids == NULL || offsets == NULL ||
                     view->buffer_views[0].size_bytes < start + length ||
                     view->buffer_views[1].size_bytes < (start + length) * 4)) {
    ArrowErrorSet(error, "Dense union buffers are too small");
    return EINVAL;
  }
  for (i = 0; i < view->n_children; i++) {
    child_start[i] = INT64_MAX;
    child_end[i] = 0;
  }

  NANOARROW_RETURN_NOT_OK(ArrowIpcEmitFixed(private_data, body, view, 0, start, length, error));

  private_data->scratch.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->scratch, length * 4));
  out = (int32_t*)private_data->scratch.data;
  for (i = start; i < start + length; i++) {
    int8_t type_id = type_ids[i];
    int child = type_id >= 0 && view->union_type_id_map != NULL
                    ? view->union_type_id_map[type_id]
                    : -1;
    if (child < 0 || child >= view->n_children || offsets[i] < 0) {
      ArrowErrorSet(error, "Invalid union type id %d or offset at element %" PRId64,
                    (int)type_id, i - start);
      return EINVAL;
    }
    if (offsets[i] < child_start[child]) child_start[child] = offsets[i];
    if (offsets[i] + 1 > child_end[child]) child_end[child] = offsets[i] + 1;
  }
  for (i = start; i < start + length; i++) {
    int child = view->union_type_id_map[type_ids[i]];
    out[i - start] = (int32_t)(offsets[i] - child_start[child]);
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcEmitScratch(private_data, body, out, length * 4, error));

  for (i = 0; i < view->n_children; i++) {
    const struct ArrowArrayView* child = view->children[i];
    if (child_end[i] == 0) {
      NANOARROW_RETURN_NOT_OK(ArrowIpcEncodeColumn(private_data, body, child, child->offset,
                                                   0, depth + 1, error));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowIpcEncodeColumn(
          private_data, body, child, child->offset + child_start[i],
          child_end[i] - child_start[i], depth + 1, error));
    }
  }
  return NANOARROW_OK;
}

/* Writes the nodes and buffers of view's elements [start, start + length), where
 * start already includes view->offset. */
static ArrowErrorCode ArrowIpcEncodeColumn(struct ArrowIpcEncoderPrivate* private_data,
                                           struct ArrowBuffer* body,
                                           const struct ArrowArrayView* view, int64_t start,
                                           int64_t length, int depth,
                                           struct ArrowError* error) {
  const uint8_t* validity = view->buffer_views[0].data.as_uint8;
  int64_t null_count = 0;
  int64_t first;
  int64_t last;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "Array is nested deeper than %d levels",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (start < 0 || length < 0 || start > INT64_MAX / 64 - length) {
    ArrowErrorSet(error, "Invalid offset %" PRId64 " or length %" PRId64, start, length);
    return EINVAL;
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_NA:
      return ArrowIpcAppendNode(private_data, length, length);
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return ArrowIpcEncodeRunEndEncoded(private_data, body, view, start, length, depth,
                                         error);
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      /* No validity buffer: nulls live in the children. */
      NANOARROW_RETURN_NOT_OK(ArrowIpcAppendNode(private_data, length, 0));
      break;
    default:
      if (validity != NULL && length > 0) {
        if (view->buffer_views[0].size_bytes < ArrowBytesForBits(start + length)) {
          ArrowErrorSet(error, "Validity buffer is too small for offset %" PRId64
                               " and length %" PRId64, start, length);
          return EINVAL;
        }
        /* A view's count is trusted only when it can be right: views accept a count
         * above the length (a slice keeping its parent's), which is recounted. */
        if (start == view->offset && length == view->length && view->null_count >= 0 &&
            view->null_count <= length) {
          null_count = view->null_count;
        } else {
          null_count = length - ArrowBitCountSet(validity, start, length);
        }
      }
      NANOARROW_RETURN_NOT_OK(ArrowIpcAppendNode(private_data, length, null_count));
      if (null_count == 0) {
        NANOARROW_RETURN_NOT_OK(ArrowIpcEmitBuffer(private_data, body, NULL, 0, error));
      } else {
        NANOARROW_RETURN_NOT_OK(
            ArrowIpcEmitBitmap(private_data, body, validity, start, length, error));
      }
      break;
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
      if (length > 0 && (view->buffer_views[1].data.data == NULL ||
                         view->buffer_views[1].size_bytes < ArrowBytesForBits(start + length))) {
        ArrowErrorSet(error, "Boolean data buffer is too small");
        return EINVAL;
      }
      return ArrowIpcEmitBitmap(private_data, body, view->buffer_views[1].data.as_uint8,
                                start, length, error);

    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
      NANOARROW_RETURN_NOT_OK(ArrowIpcEmitOffsets(private_data, body, view, start, length,
                                                  &first, &last, error));
      if (last > first && (view->buffer_views[2].data.data == NULL ||
                           view->buffer_views[2].size_bytes < last)) {
        ArrowErrorSet(error, "Data buffer is too small for offset %" PRId64, last);
        return EINVAL;
      }
      return ArrowIpcEmitBuffer(private_data, body,
                                last > first ? view->buffer_views[2].data.as_uint8 + first
                                             : NULL,
                                last - first, error);

    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      NANOARROW_RETURN_NOT_OK(ArrowIpcEmitOffsets(private_data, body, view, start, length,
                                                  &first, &last, error));
      return ArrowIpcEncodeColumn(private_data, body, view->children[0],
                                  view->children[0]->offset + first, last - first,
                                  depth + 1, error);

    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t list_size = view->layout.child_size_elements;
      if (list_size > 0 && start + length > INT64_MAX / list_size) return EINVAL;
      return ArrowIpcEncodeColumn(private_data, body, view->children[0],
                                  view->children[0]->offset + start * list_size,
                                  length * list_size, depth + 1, error);
    }

    case NANOARROW_TYPE_STRUCT:
      for (i = 0; i < view->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(ArrowIpcEncodeColumn(private_data, body, view->children[i],
                                                     view->children[i]->offset + start,
                                                     length, depth + 1, error));
      }
      return NANOARROW_OK;

    case NANOARROW_TYPE_SPARSE_UNION:
      NANOARROW_RETURN_NOT_OK(
          ArrowIpcEmitFixed(private_data, body, view, 0, start, length, error));
      for (i = 0; i < view->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(ArrowIpcEncodeColumn(private_data, body, view->children[i],
                                                     view->children[i]->offset + start,
                                                     length, depth + 1, error));
      }
      return NANOARROW_OK;

    case NANOARROW_TYPE_DENSE_UNION:
      return ArrowIpcEncodeDenseUnion(private_data, body, view, start, length, depth,
                                      error);

    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
      NANOARROW_RETURN_NOT_OK(
          ArrowIpcEmitFixed(private_data, body, view, 1, start, length, error));
      /* Views point anywhere in the data buffers: those are written whole. */
      for (i = 0; i < view->n_variadic_buffers; i++) {
        NANOARROW_RETURN_NOT_OK(ArrowIpcEmitBuffer(private_data, body,
                                                   view->variadic_buffers[i],
                                                   view->variadic_buffer_sizes[i], error));
      }
      private_data->has_variadic_counts = 1;
      return ArrowIpcAppendLE64(&private_data->variadic_counts, view->n_variadic_buffers);

    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      /* Offsets and sizes point anywhere in the child, which is written whole. */
      NANOARROW_RETURN_NOT_OK(
          ArrowIpcEmitFixed(private_data, body, view, 1, start, length, error));
      NANOARROW_RETURN_NOT_OK(
          ArrowIpcEmitFixed(private_data, body, view, 2, start, length, error));
      return ArrowIpcEncodeColumn(private_data, body, view->children[0],
                                  view->children[0]->offset, view->children[0]->length,
                                  depth + 1, error);

    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_DURATION:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      return ArrowIpcEmitFixed(private_data, body, view, 1, start, length, error);

    default:
      ArrowErrorSet(error, "Arrays of storage type %d cannot be written to IPC",
                    (int)view->storage_type);
      return ENOTSUP;
  }
}

/* Writes a RecordBatch table (nodes, buffers, compression, variadic counts) at the
 * slot header_slot; the positions of its values go to layout when not NULL. */
static ArrowErrorCode ArrowIpcFbWriteRecordBatch(struct ArrowIpcEncoderPrivate* private_data,
                                                 int64_t length, int64_t header_slot,
                                                 struct ArrowIpcBatchTemplate* layout) {
  struct ArrowIpcFbb* fbb = &private_data->fbb;
  struct ArrowIpcFbbTable batch;
  int64_t position;
  int64_t nodes_position;
  int64_t buffers_position;

  ArrowIpcFbbTableInit(&batch);
  ArrowIpcFbbTableAddInt64(&batch, FBE_RECORD_BATCH_LENGTH, length);
  ArrowIpcFbbTableAddOffset(&batch, FBE_RECORD_BATCH_NODES);
  ArrowIpcFbbTableAddOffset(&batch, FBE_RECORD_BATCH_BUFFERS);
  if (private_data->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    ArrowIpcFbbTableAddOffset(&batch, FBE_RECORD_BATCH_COMPRESSION);
  }
  if (private_data->has_variadic_counts) {
    ArrowIpcFbbTableAddOffset(&batch, FBE_RECORD_BATCH_VARIADIC_COUNTS);
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &batch, &position));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPatchOffset(fbb, header_slot, position));

  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbSetVector(
      fbb, &batch, FBE_RECORD_BATCH_NODES, private_data->nodes.data,
      private_data->nodes.size_bytes / FBE_FIELD_NODE_SIZE, FBE_FIELD_NODE_SIZE, 8,
      &nodes_position));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbSetVector(
      fbb, &batch, FBE_RECORD_BATCH_BUFFERS, private_data->buffers.data,
      private_data->buffers.size_bytes / FBE_BUFFER_SIZE, FBE_BUFFER_SIZE, 8,
      &buffers_position));
  if (layout != NULL) {
    /* Vector elements follow their uint32 length. */
    layout->length_position = batch.position[FBE_RECORD_BATCH_LENGTH];
    layout->nodes_position = nodes_position + 4;
    layout->buffers_position = buffers_position + 4;
  }

  if (private_data->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    struct ArrowIpcFbbTable compression;
    /* CompressionType: LZ4_FRAME = 0, ZSTD = 1; BodyCompressionMethod BUFFER = 0. */
    int8_t codec =
        private_data->codec == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME ? 0 : 1;
    ArrowIpcFbbTableInit(&compression);
    ArrowIpcFbbTableAddUInt8(&compression, FBE_BODY_COMPRESSION_CODEC, (uint8_t)codec);
    ArrowIpcFbbTableAddUInt8(&compression, FBE_BODY_COMPRESSION_METHOD, 0);
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteTable(fbb, &compression, &position));
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbbPatchOffset(fbb, batch.position[FBE_RECORD_BATCH_COMPRESSION], position));
  }

  if (private_data->has_variadic_counts) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbbSetVector(
        fbb, &batch, FBE_RECORD_BATCH_VARIADIC_COUNTS, private_data->variadic_counts.data,
        private_data->variadic_counts.size_bytes / 8, 8, 8, NULL));
  }
  return NANOARROW_OK;
}

/* The RecordBatch message of the body just encoded, from the template when it
 * fits (see struct ArrowIpcBatchTemplate). */
static ArrowErrorCode ArrowIpcFbWriteRecordBatchMessage(
    struct ArrowIpcEncoderPrivate* private_data, int64_t length) {
  struct ArrowIpcBatchTemplate* layout = &private_data->batch_template;
  struct ArrowBuffer* out = &private_data->fbb.buffer;
  int64_t n_nodes = private_data->nodes.size_bytes / FBE_FIELD_NODE_SIZE;
  int64_t n_buffers = private_data->buffers.size_bytes / FBE_BUFFER_SIZE;
  int64_t header_slot;
  int result;

  /* Messages with custom metadata are not made from (nor kept as) the template. */
  if (private_data->has_variadic_counts || private_data->message_metadata_n_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbStartMessage(private_data,
                                                   FBE_HEADER_RECORD_BATCH,
                                                   private_data->body_length, &header_slot,
                                                   NULL));
    return ArrowIpcFbWriteRecordBatch(private_data, length, header_slot, NULL);
  }

  if (layout->bytes.size_bytes > 0 && layout->codec == private_data->codec &&
      layout->n_nodes == n_nodes && layout->n_buffers == n_buffers) {
    out->size_bytes = 0;
    NANOARROW_RETURN_NOT_OK(
        ArrowBufferAppend(out, layout->bytes.data, layout->bytes.size_bytes));
    ArrowIpcFbbStoreLE(out->data + layout->body_length_position,
                    (uint64_t)private_data->body_length, 8);
    ArrowIpcFbbStoreLE(out->data + layout->length_position, (uint64_t)length, 8);
    if (n_nodes > 0) {
      memcpy(out->data + layout->nodes_position, private_data->nodes.data,
             (size_t)private_data->nodes.size_bytes);
    }
    if (n_buffers > 0) {
      memcpy(out->data + layout->buffers_position, private_data->buffers.data,
             (size_t)private_data->buffers.size_bytes);
    }
    return NANOARROW_OK;
  }

  layout->bytes.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbStartMessage(private_data, FBE_HEADER_RECORD_BATCH,
                                                 private_data->body_length, &header_slot,
                                                 &layout->body_length_position));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbWriteRecordBatch(private_data, length, header_slot, layout));
  /* Without a template the message is still good: only the copy failed. */
  result = ArrowBufferAppend(&layout->bytes, out->data, out->size_bytes);
  if (result != NANOARROW_OK) {
    layout->bytes.size_bytes = 0;
    return NANOARROW_OK;
  }
  layout->codec = private_data->codec;
  layout->n_nodes = n_nodes;
  layout->n_buffers = n_buffers;
  return NANOARROW_OK;
}

static void ArrowIpcStartBody(struct ArrowIpcEncoderPrivate* private_data,
                              struct ArrowBuffer* body) {
  private_data->nodes.size_bytes = 0;
  private_data->buffers.size_bytes = 0;
  private_data->variadic_counts.size_bytes = 0;
  private_data->has_variadic_counts = 0;
  private_data->body_start = body->size_bytes;
  private_data->body_length = 0;
  private_data->spans.size_bytes = 0;
  private_data->pending.size_bytes = 0;
  private_data->compress_outstanding = 0;
  private_data->codec = private_data->compressor.release != NULL
                            ? private_data->compressor.compression_type
                            : NANOARROW_IPC_COMPRESSION_TYPE_NONE;
}

/* The codec of the compressor must be one a message can declare. */
static ArrowErrorCode ArrowIpcCheckCodec(const struct ArrowIpcEncoderPrivate* private_data,
                                         struct ArrowError* error) {
  switch (private_data->codec) {
    case NANOARROW_IPC_COMPRESSION_TYPE_NONE:
    case NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME:
    case NANOARROW_IPC_COMPRESSION_TYPE_ZSTD:
      return NANOARROW_OK;
    default:
      ArrowErrorSet(error, "Unknown compression type with value %d",
                    (int)private_data->codec);
      return EINVAL;
  }
}

/* On failure the body is rolled back so that nothing half-encoded stays in it. */
static ArrowErrorCode ArrowIpcFinishBodyError(struct ArrowIpcEncoderPrivate* private_data,
                                              struct ArrowBuffer* body, int result,
                                              struct ArrowError* error) {
  if (private_data->compress_outstanding) {
    /* Whatever the compressor still works on is finished or dropped before the
     * buffers it writes to are reused; the first error is the one reported. */
    struct ArrowError ignored;
    private_data->compressor.compress_wait(&private_data->compressor, -1, &ignored);
    private_data->compress_outstanding = 0;
  }
  body->size_bytes = private_data->body_start;
  private_data->body_length = 0;
  private_data->spans.size_bytes = 0;
  private_data->pending.size_bytes = 0;
  if (result == ENOMEM) ArrowErrorSet(error, "Out of memory encoding a record batch");
  if (result == ERANGE) ArrowErrorSet(error, "Record batch metadata exceeds 2 GiB");
  return result;
}

/* A record batch has no validity bitmap of its own: a struct array with null rows
 * at its top level cannot be written without losing them (nanoarrow refuses it
 * too). A null_count of 0 is taken at its word, as the writers' fast paths do. */
ArrowErrorCode ArrowIpcEncoderPrivateCheckTopLevelNulls(
    const struct ArrowArrayView* array_view, struct ArrowError* error) {
  const uint8_t* validity = array_view->buffer_views[0].data.as_uint8;
  int64_t offset = array_view->offset;
  int64_t length = array_view->length;
  int64_t null_count;

  if (array_view->null_count == 0 || validity == NULL || length <= 0 ||
      array_view->layout.buffer_type[0] != NANOARROW_BUFFER_TYPE_VALIDITY) {
    return NANOARROW_OK;
  }
  if (offset < 0 || offset > INT64_MAX - 8 - length ||
      array_view->buffer_views[0].size_bytes < ArrowBytesForBits(offset + length)) {
    ArrowErrorSet(error,
                  "Record batch validity buffer is too small for offset %" PRId64
                  " and length %" PRId64,
                  offset, length);
    return EINVAL;
  }
  null_count = ArrowArrayViewComputeNullCount(array_view);
  if (null_count != 0) {
    ArrowErrorSet(error,
                  "Record batch has %" PRId64
                  " null rows at its top level; a record batch cannot hold them",
                  null_count);
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcEncoderEncodeSimpleRecordBatch(
    struct ArrowIpcEncoder* encoder, const struct ArrowArrayView* array_view,
    struct ArrowBuffer* body_buffer, struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  int64_t i;
  int result = NANOARROW_OK;

  if (array_view->storage_type != NANOARROW_TYPE_STRUCT) {
    ArrowErrorSet(error, "Record batches must be struct arrays, got storage type %d",
                  (int)array_view->storage_type);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcEncoderPrivateCheckTopLevelNulls(array_view, error));

  ArrowIpcStartBody(private_data, body_buffer);
  NANOARROW_RETURN_NOT_OK(ArrowIpcCheckCodec(private_data, error));
  for (i = 0; i < array_view->n_children && result == NANOARROW_OK; i++) {
    const struct ArrowArrayView* child = array_view->children[i];
    result = ArrowIpcEncodeColumn(private_data, body_buffer, child,
                                  child->offset + array_view->offset, array_view->length,
                                  1, error);
  }
  if (result == NANOARROW_OK && private_data->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    result = ArrowIpcAssembleCompressedBody(private_data, body_buffer, error);
    private_data->ever_compressed |= result == NANOARROW_OK;
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcFbWriteRecordBatchMessage(private_data, array_view->length);
  }
  if (result != NANOARROW_OK) {
    return ArrowIpcFinishBodyError(private_data, body_buffer, result, error);
  }
  ArrowIpcEncoderClearMessageMetadata(private_data);
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderEncodeDictionaryBatch(
    struct ArrowIpcEncoder* encoder, int64_t id, char is_delta,
    const struct ArrowArrayView* values, struct ArrowBuffer* body_buffer,
    struct ArrowError* error) {
  return ArrowIpcEncoderEncodeSimpleDictionaryBatch(encoder, id, is_delta, values,
                                                    body_buffer, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderEncodeSimpleDictionaryBatch(
    struct ArrowIpcEncoder* encoder, int64_t id, char is_delta,
    const struct ArrowArrayView* values, struct ArrowBuffer* body_buffer,
    struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  struct ArrowIpcFbb* fbb = &private_data->fbb;
  struct ArrowIpcFbbTable dictionary_batch;
  int64_t header_slot;
  int64_t position;
  int result;

  ArrowIpcStartBody(private_data, body_buffer);
  NANOARROW_RETURN_NOT_OK(ArrowIpcCheckCodec(private_data, error));
  result = ArrowIpcEncodeColumn(private_data, body_buffer, values, values->offset,
                                values->length, 1, error);
  if (result == NANOARROW_OK && private_data->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    result = ArrowIpcAssembleCompressedBody(private_data, body_buffer, error);
    private_data->ever_compressed |= result == NANOARROW_OK;
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcFbStartMessage(private_data, FBE_HEADER_DICTIONARY_BATCH,
                                    private_data->body_length, &header_slot, NULL);
  }
  if (result == NANOARROW_OK) {
    ArrowIpcFbbTableInit(&dictionary_batch);
    ArrowIpcFbbTableAddInt64(&dictionary_batch, FBE_DICTIONARY_BATCH_ID, id);
    ArrowIpcFbbTableAddOffset(&dictionary_batch, FBE_DICTIONARY_BATCH_DATA);
    ArrowIpcFbbTableAddBool(&dictionary_batch, FBE_DICTIONARY_BATCH_IS_DELTA, is_delta);
    result = ArrowIpcFbbWriteTable(fbb, &dictionary_batch, &position);
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcFbbPatchOffset(fbb, header_slot, position);
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcFbWriteRecordBatch(private_data, values->length,
                                        dictionary_batch.position[FBE_DICTIONARY_BATCH_DATA],
                                        NULL);
  }
  if (result != NANOARROW_OK) {
    return ArrowIpcFinishBodyError(private_data, body_buffer, result, error);
  }
  ArrowIpcEncoderClearMessageMetadata(private_data);
  return NANOARROW_OK;
}

/* ---- Footer ---- */

NANOARROW_COLD
static ArrowErrorCode ArrowIpcFbWriteBlocks(struct ArrowIpcFbb* fbb,
                                            const struct ArrowIpcFbbTable* footer, int id,
                                            const struct ArrowBuffer* blocks) {
  int64_t n_blocks = blocks->size_bytes / (int64_t)sizeof(struct ArrowIpcFileBlock);
  const struct ArrowIpcFileBlock* block = (const struct ArrowIpcFileBlock*)blocks->data;
  int64_t position;
  int64_t i;
  uint8_t* out;

  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbbSetVector(fbb, footer, id, NULL, n_blocks, FBE_BLOCK_SIZE, 8, &position));
  out = fbb->buffer.data + position + 4;
  for (i = 0; i < n_blocks; i++) {
    ArrowIpcFbbStoreLE(out + FBE_BLOCK_SIZE * i, (uint64_t)block[i].offset, 8);
    ArrowIpcFbbStoreLE(out + FBE_BLOCK_SIZE * i + 8, (uint64_t)(uint32_t)block[i].metadata_length,
                    4);
    ArrowIpcFbbStoreLE(out + FBE_BLOCK_SIZE * i + 16, (uint64_t)block[i].body_length, 8);
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcEncoderEncodeFooter(struct ArrowIpcEncoder* encoder,
                                           const struct ArrowIpcFooter* footer,
                                           struct ArrowError* error) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  struct ArrowIpcFbb* fbb = &private_data->fbb;
  struct ArrowIpcFbbTable table;
  int64_t position;
  int result;

  NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcFbbStart(fbb), error);
  ArrowIpcFbbTableInit(&table);
  ArrowIpcFbbTableAddInt16(&table, FBE_FOOTER_VERSION, FBE_METADATA_VERSION_V5);
  ArrowIpcFbbTableAddOffset(&table, FBE_FOOTER_SCHEMA);
  ArrowIpcFbbTableAddOffset(&table, FBE_FOOTER_DICTIONARIES);
  ArrowIpcFbbTableAddOffset(&table, FBE_FOOTER_RECORD_BATCHES);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcFbbWriteTable(fbb, &table, &position), error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcFbbPatchOffset(fbb, 0, position), error);

  result = ArrowIpcFbWriteSchema(
      fbb, &footer->schema,
      private_data->compressor.release != NULL || private_data->ever_compressed, &position,
      error);
  if (result == ENOMEM) ArrowErrorSet(error, "Out of memory encoding the footer");
  NANOARROW_RETURN_NOT_OK(result);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcFbbPatchOffset(fbb, table.position[FBE_FOOTER_SCHEMA], position), error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcFbWriteBlocks(fbb, &table, FBE_FOOTER_DICTIONARIES, &footer->dictionary_blocks),
      error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcFbWriteBlocks(fbb, &table, FBE_FOOTER_RECORD_BATCHES,
                            &footer->record_batch_blocks),
      error);
  return NANOARROW_OK;
}

/* ---- Deferred bodies (writer_private.h) ---- */

void ArrowIpcEncoderPrivateSetDeferBody(struct ArrowIpcEncoder* encoder, int defer_body) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  private_data->defer_body = defer_body;
}

const struct ArrowIpcBodySpan* ArrowIpcEncoderPrivateBodySpans(
    struct ArrowIpcEncoder* encoder, int64_t* n_spans_out, int64_t* body_length_out) {
  struct ArrowIpcEncoderPrivate* private_data =
      (struct ArrowIpcEncoderPrivate*)encoder->private_data;
  *n_spans_out =
      private_data->spans.size_bytes / (int64_t)sizeof(struct ArrowIpcBodySpan);
  *body_length_out = private_data->body_length;
  return (const struct ArrowIpcBodySpan*)private_data->spans.data;
}
