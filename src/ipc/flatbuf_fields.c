/* The fields of every table of Arrow's Schema.fbs, Message.fbs and File.fbs, at the
 * types those files declare: the one place the flatbuffer reader and verifier take
 * field ids and widths from (see flatbuf_reader.h). */

#include "nanoarrow/nanoarrow.h"

#include "ipc/ipc_private.h"

#define FBR_FIELD(key, table, id, name, kind) \
  [ARROW_IPC_FBR_##key] = {ARROW_IPC_FBR_T_##table, id, name, ARROW_IPC_FBR_KIND_##kind}

const struct ArrowIpcFbrFieldSpec ArrowIpcPrivateFbrFields[ARROW_IPC_FBR_FIELD_COUNT] = {
    /* Message.fbs: table Message { version: MetadataVersion (short); header:
     * MessageHeader (union: ubyte type field, then the table); bodyLength: long;
     * custom_metadata: [KeyValue] } */
    FBR_FIELD(MESSAGE_VERSION, MESSAGE, 0, "version", SHORT),
    FBR_FIELD(MESSAGE_HEADER_TYPE, MESSAGE, 1, "header_type", UBYTE),
    FBR_FIELD(MESSAGE_HEADER, MESSAGE, 2, "header", TABLE),
    FBR_FIELD(MESSAGE_BODY_LENGTH, MESSAGE, 3, "bodyLength", LONG),
    FBR_FIELD(MESSAGE_CUSTOM_METADATA, MESSAGE, 4, "custom_metadata", TABLE_VECTOR),
    /* table RecordBatch { length: long; nodes: [FieldNode]; buffers: [Buffer];
     * compression: BodyCompression; variadicBufferCounts: [long] } */
    FBR_FIELD(RECORD_BATCH_LENGTH, RECORD_BATCH, 0, "length", LONG),
    FBR_FIELD(RECORD_BATCH_NODES, RECORD_BATCH, 1, "nodes", STRUCT16_VECTOR),
    FBR_FIELD(RECORD_BATCH_BUFFERS, RECORD_BATCH, 2, "buffers", STRUCT16_VECTOR),
    FBR_FIELD(RECORD_BATCH_COMPRESSION, RECORD_BATCH, 3, "compression", TABLE),
    FBR_FIELD(RECORD_BATCH_VARIADIC_BUFFER_COUNTS, RECORD_BATCH, 4,
              "variadicBufferCounts", LONG_VECTOR),
    /* table BodyCompression { codec: CompressionType (byte); method:
     * BodyCompressionMethod (byte) } */
    FBR_FIELD(BODY_COMPRESSION_CODEC, BODY_COMPRESSION, 0, "codec", BYTE),
    FBR_FIELD(BODY_COMPRESSION_METHOD, BODY_COMPRESSION, 1, "method", BYTE),
    /* table DictionaryBatch { id: long; data: RecordBatch; isDelta: bool } */
    FBR_FIELD(DICTIONARY_BATCH_ID, DICTIONARY_BATCH, 0, "id", LONG),
    FBR_FIELD(DICTIONARY_BATCH_DATA, DICTIONARY_BATCH, 1, "data", TABLE),
    FBR_FIELD(DICTIONARY_BATCH_IS_DELTA, DICTIONARY_BATCH, 2, "isDelta", BOOL),
    /* File.fbs: table Footer { version: MetadataVersion (short); schema: Schema;
     * dictionaries: [Block]; recordBatches: [Block]; custom_metadata: [KeyValue] } */
    FBR_FIELD(FOOTER_VERSION, FOOTER, 0, "version", SHORT),
    FBR_FIELD(FOOTER_SCHEMA, FOOTER, 1, "schema", TABLE),
    FBR_FIELD(FOOTER_DICTIONARIES, FOOTER, 2, "dictionaries", BLOCK_VECTOR),
    FBR_FIELD(FOOTER_RECORD_BATCHES, FOOTER, 3, "recordBatches", BLOCK_VECTOR),
    FBR_FIELD(FOOTER_CUSTOM_METADATA, FOOTER, 4, "custom_metadata", TABLE_VECTOR),
    /* Schema.fbs: table Schema { endianness: Endianness (short); fields: [Field];
     * custom_metadata: [KeyValue]; features: [Feature] (long) } */
    FBR_FIELD(SCHEMA_ENDIANNESS, SCHEMA, 0, "endianness", SHORT),
    FBR_FIELD(SCHEMA_FIELDS, SCHEMA, 1, "fields", TABLE_VECTOR),
    FBR_FIELD(SCHEMA_CUSTOM_METADATA, SCHEMA, 2, "custom_metadata", TABLE_VECTOR),
    FBR_FIELD(SCHEMA_FEATURES, SCHEMA, 3, "features", LONG_VECTOR),
    /* table Field { name: string; nullable: bool; type: Type (union); dictionary:
     * DictionaryEncoding; children: [Field]; custom_metadata: [KeyValue] } */
    FBR_FIELD(FIELD_NAME, FIELD, 0, "name", STRING),
    FBR_FIELD(FIELD_NULLABLE, FIELD, 1, "nullable", BOOL),
    FBR_FIELD(FIELD_TYPE_TYPE, FIELD, 2, "type_type", UBYTE),
    FBR_FIELD(FIELD_TYPE, FIELD, 3, "type", TABLE),
    FBR_FIELD(FIELD_DICTIONARY, FIELD, 4, "dictionary", TABLE),
    FBR_FIELD(FIELD_CHILDREN, FIELD, 5, "children", TABLE_VECTOR),
    FBR_FIELD(FIELD_CUSTOM_METADATA, FIELD, 6, "custom_metadata", TABLE_VECTOR),
    /* table KeyValue { key: string; value: string } */
    FBR_FIELD(KEY_VALUE_KEY, KEY_VALUE, 0, "key", STRING),
    FBR_FIELD(KEY_VALUE_VALUE, KEY_VALUE, 1, "value", STRING),
    /* table DictionaryEncoding { id: long; indexType: Int; isOrdered: bool;
     * dictionaryKind: DictionaryKind (short) } */
    FBR_FIELD(DICTIONARY_ENCODING_ID, DICTIONARY_ENCODING, 0, "id", LONG),
    FBR_FIELD(DICTIONARY_ENCODING_INDEX_TYPE, DICTIONARY_ENCODING, 1, "indexType", TABLE),
    FBR_FIELD(DICTIONARY_ENCODING_IS_ORDERED, DICTIONARY_ENCODING, 2, "isOrdered", BOOL),
    FBR_FIELD(DICTIONARY_ENCODING_DICTIONARY_KIND, DICTIONARY_ENCODING, 3,
              "dictionaryKind", SHORT),
    /* table Int { bitWidth: int; is_signed: bool } */
    FBR_FIELD(INT_BIT_WIDTH, INT, 0, "bitWidth", INT),
    FBR_FIELD(INT_IS_SIGNED, INT, 1, "is_signed", BOOL),
    /* table FloatingPoint { precision: Precision (short) } */
    FBR_FIELD(FLOATING_POINT_PRECISION, FLOATING_POINT, 0, "precision", SHORT),
    /* table Decimal { precision: int; scale: int; bitWidth: int = 128 } */
    FBR_FIELD(DECIMAL_PRECISION, DECIMAL, 0, "precision", INT),
    FBR_FIELD(DECIMAL_SCALE, DECIMAL, 1, "scale", INT),
    FBR_FIELD(DECIMAL_BIT_WIDTH, DECIMAL, 2, "bitWidth", INT),
    /* table Date { unit: DateUnit (short) = MILLISECOND } */
    FBR_FIELD(DATE_UNIT, DATE, 0, "unit", SHORT),
    /* table Time { unit: TimeUnit (short) = MILLISECOND; bitWidth: int = 32 } */
    FBR_FIELD(TIME_UNIT, TIME, 0, "unit", SHORT),
    FBR_FIELD(TIME_BIT_WIDTH, TIME, 1, "bitWidth", INT),
    /* table Timestamp { unit: TimeUnit (short); timezone: string } */
    FBR_FIELD(TIMESTAMP_UNIT, TIMESTAMP, 0, "unit", SHORT),
    FBR_FIELD(TIMESTAMP_TIMEZONE, TIMESTAMP, 1, "timezone", STRING),
    /* table Interval { unit: IntervalUnit (short) } */
    FBR_FIELD(INTERVAL_UNIT, INTERVAL, 0, "unit", SHORT),
    /* table Union { mode: UnionMode (short); typeIds: [int] } */
    FBR_FIELD(UNION_MODE, UNION, 0, "mode", SHORT),
    FBR_FIELD(UNION_TYPE_IDS, UNION, 1, "typeIds", INT_VECTOR),
    /* table FixedSizeBinary { byteWidth: int } */
    FBR_FIELD(FIXED_SIZE_BINARY_BYTE_WIDTH, FIXED_SIZE_BINARY, 0, "byteWidth", INT),
    /* table FixedSizeList { listSize: int } */
    FBR_FIELD(FIXED_SIZE_LIST_LIST_SIZE, FIXED_SIZE_LIST, 0, "listSize", INT),
    /* table Map { keysSorted: bool } */
    FBR_FIELD(MAP_KEYS_SORTED, MAP, 0, "keysSorted", BOOL),
    /* table Duration { unit: TimeUnit (short) = MILLISECOND } */
    FBR_FIELD(DURATION_UNIT, DURATION, 0, "unit", SHORT),
};

#define FBR_TABLE(table, name, first, n) [ARROW_IPC_FBR_T_##table] = {name, first, n}
#define FBR_EMPTY(table, name) [ARROW_IPC_FBR_T_##table] = {name, 0, 0}

const struct ArrowIpcFbrTableSpec ArrowIpcPrivateFbrTables[ARROW_IPC_FBR_T_COUNT] = {
    FBR_TABLE(MESSAGE, "Message", ARROW_IPC_FBR_MESSAGE_VERSION, 5),
    FBR_TABLE(RECORD_BATCH, "RecordBatch", ARROW_IPC_FBR_RECORD_BATCH_LENGTH, 5),
    FBR_TABLE(BODY_COMPRESSION, "BodyCompression", ARROW_IPC_FBR_BODY_COMPRESSION_CODEC, 2),
    FBR_TABLE(DICTIONARY_BATCH, "DictionaryBatch", ARROW_IPC_FBR_DICTIONARY_BATCH_ID, 3),
    FBR_TABLE(FOOTER, "Footer", ARROW_IPC_FBR_FOOTER_VERSION, 5),
    FBR_TABLE(SCHEMA, "Schema", ARROW_IPC_FBR_SCHEMA_ENDIANNESS, 4),
    FBR_TABLE(FIELD, "Field", ARROW_IPC_FBR_FIELD_NAME, 7),
    FBR_TABLE(KEY_VALUE, "KeyValue", ARROW_IPC_FBR_KEY_VALUE_KEY, 2),
    FBR_TABLE(DICTIONARY_ENCODING, "DictionaryEncoding", ARROW_IPC_FBR_DICTIONARY_ENCODING_ID,
              4),
    FBR_EMPTY(NULL, "Null"),
    FBR_TABLE(INT, "Int", ARROW_IPC_FBR_INT_BIT_WIDTH, 2),
    FBR_TABLE(FLOATING_POINT, "FloatingPoint", ARROW_IPC_FBR_FLOATING_POINT_PRECISION, 1),
    FBR_EMPTY(BINARY, "Binary"),
    FBR_EMPTY(UTF8, "Utf8"),
    FBR_EMPTY(BOOL, "Bool"),
    FBR_TABLE(DECIMAL, "Decimal", ARROW_IPC_FBR_DECIMAL_PRECISION, 3),
    FBR_TABLE(DATE, "Date", ARROW_IPC_FBR_DATE_UNIT, 1),
    FBR_TABLE(TIME, "Time", ARROW_IPC_FBR_TIME_UNIT, 2),
    FBR_TABLE(TIMESTAMP, "Timestamp", ARROW_IPC_FBR_TIMESTAMP_UNIT, 2),
    FBR_TABLE(INTERVAL, "Interval", ARROW_IPC_FBR_INTERVAL_UNIT, 1),
    FBR_EMPTY(LIST, "List"),
    FBR_EMPTY(STRUCT, "Struct_"),
    FBR_TABLE(UNION, "Union", ARROW_IPC_FBR_UNION_MODE, 2),
    FBR_TABLE(FIXED_SIZE_BINARY, "FixedSizeBinary", ARROW_IPC_FBR_FIXED_SIZE_BINARY_BYTE_WIDTH,
              1),
    FBR_TABLE(FIXED_SIZE_LIST, "FixedSizeList", ARROW_IPC_FBR_FIXED_SIZE_LIST_LIST_SIZE, 1),
    FBR_TABLE(MAP, "Map", ARROW_IPC_FBR_MAP_KEYS_SORTED, 1),
    FBR_TABLE(DURATION, "Duration", ARROW_IPC_FBR_DURATION_UNIT, 1),
    FBR_EMPTY(LARGE_BINARY, "LargeBinary"),
    FBR_EMPTY(LARGE_UTF8, "LargeUtf8"),
    FBR_EMPTY(LARGE_LIST, "LargeList"),
    FBR_EMPTY(RUN_END_ENCODED, "RunEndEncoded"),
    FBR_EMPTY(BINARY_VIEW, "BinaryView"),
    FBR_EMPTY(UTF8_VIEW, "Utf8View"),
    FBR_EMPTY(LIST_VIEW, "ListView"),
    FBR_EMPTY(LARGE_LIST_VIEW, "LargeListView"),
};

/* union Type { Null = 1, Int, FloatingPoint, Binary, Utf8, Bool, Decimal, Date, Time,
 * Timestamp, Interval, List, Struct_, Union, FixedSizeBinary, FixedSizeList, Map,
 * Duration, LargeBinary, LargeUtf8, LargeList, RunEndEncoded, BinaryView, Utf8View,
 * ListView, LargeListView } */
const int ArrowIpcPrivateFbrTypeTables[ARROW_IPC_FBR_N_TYPE_IDS] = {
    -1,
    ARROW_IPC_FBR_T_NULL,
    ARROW_IPC_FBR_T_INT,
    ARROW_IPC_FBR_T_FLOATING_POINT,
    ARROW_IPC_FBR_T_BINARY,
    ARROW_IPC_FBR_T_UTF8,
    ARROW_IPC_FBR_T_BOOL,
    ARROW_IPC_FBR_T_DECIMAL,
    ARROW_IPC_FBR_T_DATE,
    ARROW_IPC_FBR_T_TIME,
    ARROW_IPC_FBR_T_TIMESTAMP,
    ARROW_IPC_FBR_T_INTERVAL,
    ARROW_IPC_FBR_T_LIST,
    ARROW_IPC_FBR_T_STRUCT,
    ARROW_IPC_FBR_T_UNION,
    ARROW_IPC_FBR_T_FIXED_SIZE_BINARY,
    ARROW_IPC_FBR_T_FIXED_SIZE_LIST,
    ARROW_IPC_FBR_T_MAP,
    ARROW_IPC_FBR_T_DURATION,
    ARROW_IPC_FBR_T_LARGE_BINARY,
    ARROW_IPC_FBR_T_LARGE_UTF8,
    ARROW_IPC_FBR_T_LARGE_LIST,
    ARROW_IPC_FBR_T_RUN_END_ENCODED,
    ARROW_IPC_FBR_T_BINARY_VIEW,
    ARROW_IPC_FBR_T_UTF8_VIEW,
    ARROW_IPC_FBR_T_LIST_VIEW,
    ARROW_IPC_FBR_T_LARGE_LIST_VIEW,
};

#undef FBR_FIELD
#undef FBR_TABLE
#undef FBR_EMPTY
