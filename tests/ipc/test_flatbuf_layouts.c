/* Flatbuffer layouts other builders produce, for every table of Arrow's Schema.fbs,
 * Message.fbs and File.fbs. A flatbuffers builder may place a table's fields in any
 * order and end the table right after the last one (Rust's builder puts 1-byte
 * fields last, so an Int table ends after its is_signed bool); it may leave fields
 * out, end a vtable after the last field it names, and share one vtable between
 * tables of the same layout. Each table here is built:
 *
 *   - with every field placed last in turn, the table ending where that field ends:
 *     the reader accepts it and reads the same values;
 *   - the same, one byte shorter: refused with a message naming Table.field;
 *   - with fields left out (the vtable ending after the last field present): the
 *     defaults of Arrow's schema are read.
 *
 * The widths here are written from the .fbs files, independently of the reader's
 * own description of them (src/ipc/flatbuf_fields.c); the last test checks that
 * every table and field the reader describes was placed last here. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "ipc/flatbuf_reader.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

/* ---- A forward flatbuffer writer for exact layouts ---- */

enum LayoutKind { K_SCALAR, K_TABLE, K_STRING, K_TABLES, K_RAW };

struct Node;

struct Fld {
  int id;
  const char* name;
  enum LayoutKind kind;
  int width; /* scalars: 1, 2, 4 or 8 bytes */
  int64_t value;
  const struct Node* table;         /* K_TABLE */
  const char* str;                  /* K_STRING */
  const struct Node* const* tables; /* K_TABLES */
  int n;                            /* K_TABLES, K_RAW: element count */
  const void* raw;                  /* K_RAW: n elements of elem bytes */
  int elem;
};

struct Node {
  const char* name; /* Arrow's table name */
  int n;
  struct Fld f[7];
};

#define SC(id, name, w, v) {id, name, K_SCALAR, w, v, NULL, NULL, NULL, 0, NULL, 0}
#define TB(id, name, node) {id, name, K_TABLE, 4, 0, node, NULL, NULL, 0, NULL, 0}
#define STR(id, name, s) {id, name, K_STRING, 4, 0, NULL, s, NULL, 0, NULL, 0}
#define TV(id, name, arr, count) {id, name, K_TABLES, 4, 0, NULL, NULL, arr, count, NULL, 0}
#define RV(id, name, ptr, count, elem_size) \
  {id, name, K_RAW, 4, 0, NULL, NULL, NULL, count, ptr, elem_size}

struct Bld {
  uint8_t data[8192];
  int64_t size;
  /* The table whose layout is under test: field `last` (index in f) placed last,
   * the table `shrink` bytes shorter than its fields need. */
  const struct Node* target;
  int last;
  int shrink;
  int64_t vtables[64];
  int n_vtables;
  int shared_vtables; /* how many tables reused an earlier vtable */
};

static void Put(struct Bld* b, int64_t pos, uint64_t value, int width) {
  int i;
  cr_assert(pos + width <= (int64_t)sizeof(b->data));
  for (i = 0; i < width; i++) b->data[pos + i] = (uint8_t)(value >> (8 * i));
}

static void AlignTo(struct Bld* b, int64_t alignment) {
  while (b->size % alignment != 0) b->data[b->size++] = 0;
}

static void PatchOffset(struct Bld* b, int64_t slot, int64_t target) {
  cr_assert(target > slot);
  Put(b, slot, (uint64_t)(target - slot), 4);
}

static int64_t Emit(struct Bld* b, const struct Node* node) {
  int order[7];
  int64_t offsets[7];
  uint16_t vtable[2 + 16];
  int64_t vtable_bytes;
  int64_t vtable_pos = -1;
  int64_t cur = 4;
  int64_t table_pos;
  int n_slots = 0;
  int i;
  int j;
  for (i = 0; i < node->n; i++) order[i] = i;
  if (node == b->target && b->last >= 0) {
    for (i = b->last; i < node->n - 1; i++) order[i] = order[i + 1];
    order[node->n - 1] = b->last;
  }
  /* Tables start 8-aligned, so field offsets aligned to their width are aligned. */
  for (i = 0; i < node->n; i++) {
    const struct Fld* f = &node->f[order[i]];
    int64_t w = f->kind == K_SCALAR ? f->width : 4;
    cur = (cur + w - 1) / w * w;
    offsets[order[i]] = cur;
    cur += w;
    if (f->id + 1 > n_slots) n_slots = f->id + 1;
  }
  memset(vtable, 0, sizeof(vtable));
  vtable[0] = (uint16_t)(4 + 2 * n_slots);
  vtable[1] = (uint16_t)(cur - (node == b->target ? b->shrink : 0));
  for (i = 0; i < node->n; i++) vtable[2 + node->f[i].id] = (uint16_t)offsets[i];
  vtable_bytes = 4 + 2 * n_slots;

  /* One vtable for every table of the same layout. */
  for (j = 0; j < b->n_vtables; j++) {
    int same = 1;
    for (i = 0; i < vtable_bytes / 2; i++) {
      uint16_t v = (uint16_t)(b->data[b->vtables[j] + 2 * i] |
                              (b->data[b->vtables[j] + 2 * i + 1] << 8));
      if (v != vtable[i]) same = 0;
    }
    if (same) {
      vtable_pos = b->vtables[j];
      b->shared_vtables++;
      break;
    }
  }
  if (vtable_pos < 0) {
    AlignTo(b, 2);
    vtable_pos = b->size;
    for (i = 0; i < vtable_bytes / 2; i++) Put(b, vtable_pos + 2 * i, vtable[i], 2);
    b->size += vtable_bytes;
    cr_assert(b->n_vtables < 64);
    b->vtables[b->n_vtables++] = vtable_pos;
  }

  AlignTo(b, 8);
  table_pos = b->size;
  Put(b, table_pos, (uint64_t)(uint32_t)(int32_t)(table_pos - vtable_pos), 4);
  memset(b->data + table_pos + 4, 0, (size_t)(cur - 4));
  b->size = table_pos + cur;
  for (i = 0; i < node->n; i++) {
    const struct Fld* f = &node->f[i];
    int64_t slot = table_pos + offsets[i];
    int64_t target;
    switch (f->kind) {
      case K_SCALAR:
        Put(b, slot, (uint64_t)f->value, f->width);
        break;
      case K_TABLE:
        PatchOffset(b, slot, Emit(b, f->table));
        break;
      case K_STRING: {
        int64_t len = (int64_t)strlen(f->str);
        AlignTo(b, 4);
        target = b->size;
        Put(b, target, (uint64_t)len, 4);
        memcpy(b->data + target + 4, f->str, (size_t)len);
        b->data[target + 4 + len] = 0;
        b->size = target + 4 + len + 1;
        PatchOffset(b, slot, target);
        break;
      }
      case K_TABLES:
        AlignTo(b, 4);
        target = b->size;
        Put(b, target, (uint64_t)f->n, 4);
        b->size = target + 4 + 4 * f->n;
        PatchOffset(b, slot, target);
        for (j = 0; j < f->n; j++) {
          PatchOffset(b, target + 4 + 4 * j, Emit(b, f->tables[j]));
        }
        break;
      case K_RAW:
        /* The elements 8-aligned (after the 4-byte count). */
        AlignTo(b, 4);
        if ((b->size + 4) % 8 != 0) b->size += 4;
        target = b->size;
        Put(b, target, (uint64_t)f->n, 4);
        memcpy(b->data + target + 4, f->raw, (size_t)(f->n * f->elem));
        b->size = target + 4 + f->n * f->elem;
        PatchOffset(b, slot, target);
        break;
    }
  }
  return table_pos;
}

static void Build(struct Bld* b, const struct Node* root, const struct Node* target,
                  int last, int shrink) {
  memset(b, 0, sizeof(*b));
  b->target = target;
  b->last = last;
  b->shrink = shrink;
  b->size = 4;
  Put(b, 0, (uint64_t)Emit(b, root), 4);
  AlignTo(b, 8);
}

/* ---- Reading them back ---- */

/* What a layout decodes to. */
struct Read {
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema; /* a Schema message's or the Footer's schema */
  int64_t batch_length;      /* a RecordBatch message's (no columns) */
  struct ArrowError error;
  int code;
};

/* A Message flatbuffer, encapsulated; the schema of Schema messages is decoded and a
 * batch of no columns is decoded from a RecordBatch. */
static void ReadMessage(const struct Bld* b, struct Read* out) {
  uint8_t message[8200];
  int32_t marker = -1;
  int32_t length = (int32_t)b->size;
  struct ArrowBufferView view;
  memset(out, 0, sizeof(*out));
  out->batch_length = -1;
  memcpy(message, &marker, 4);
  memcpy(message + 4, &length, 4);
  memcpy(message + 8, b->data, (size_t)b->size);
  view.data.data = message;
  view.size_bytes = 8 + b->size;
  cr_assert_eq(ArrowIpcDecoderInit(&out->decoder), NANOARROW_OK);
  out->code = ArrowIpcDecoderDecodeHeader(&out->decoder, view, &out->error);
  if (out->code != NANOARROW_OK) return;
  if (out->decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
    out->code = ArrowIpcDecoderDecodeSchema(&out->decoder, &out->schema, &out->error);
  } else if (out->decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
    struct ArrowSchema empty;
    struct ArrowArrayView* array_view;
    struct ArrowBufferView body = {{NULL}, 0};
    cr_assert_eq(ArrowSchemaInitFromType(&empty, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
    cr_assert_eq(ArrowIpcDecoderSetSchema(&out->decoder, &empty, &out->error), NANOARROW_OK);
    ArrowSchemaRelease(&empty);
    out->code =
        ArrowIpcDecoderDecodeArrayView(&out->decoder, body, -1, &array_view, &out->error);
    if (out->code == NANOARROW_OK) out->batch_length = array_view->length;
  }
}

/* A Footer flatbuffer, as the end of a file. */
static void ReadFooter(const struct Bld* b, struct Read* out) {
  uint8_t file[8200];
  int32_t length = (int32_t)b->size;
  struct ArrowBufferView view;
  memset(out, 0, sizeof(*out));
  out->batch_length = -1;
  memcpy(file, b->data, (size_t)b->size);
  memcpy(file + b->size, &length, 4);
  memcpy(file + b->size + 4, "ARROW1", 6);
  view.data.data = file;
  view.size_bytes = b->size + 10;
  cr_assert_eq(ArrowIpcDecoderInit(&out->decoder), NANOARROW_OK);
  out->code = ArrowIpcDecoderDecodeFooter(&out->decoder, view, &out->error);
  if (out->code == NANOARROW_OK) {
    cr_assert_eq(ArrowSchemaDeepCopy(&out->decoder.footer->schema, &out->schema),
                 NANOARROW_OK);
  }
}

static void ReadReset(struct Read* r) {
  if (r->schema.release != NULL) ArrowSchemaRelease(&r->schema);
  ArrowIpcDecoderReset(&r->decoder);
}

typedef void (*ReadFn)(const struct Bld*, struct Read*);
typedef void (*CheckFn)(const struct Read*);

/* Table.field pairs that were placed last (and refused one byte short). */
static char g_covered[256][64];
static int g_n_covered;

static void Cover(const char* table, const char* field) {
  int i;
  char key[64];
  snprintf(key, sizeof(key), "%s.%s", table, field);
  for (i = 0; i < g_n_covered; i++) {
    if (strcmp(g_covered[i], key) == 0) return;
  }
  cr_assert(g_n_covered < 256);
  snprintf(g_covered[g_n_covered++], sizeof(g_covered[0]), "%s", key);
}

/* root built with target's fields in declared order, then each placed last: each
 * layout reads as check wants; each one byte short is refused naming the field. */
static void CheckLayouts(const struct Node* root, const struct Node* target, ReadFn read,
                         CheckFn check) {
  struct Bld b;
  struct Read r;
  int last;
  for (last = -1; last < target->n; last++) {
    Build(&b, root, target, last, 0);
    read(&b, &r);
    cr_assert_eq(r.code, NANOARROW_OK, "%s with %s last: %s", target->name,
                 last < 0 ? "no field" : target->f[last].name, r.error.message);
    check(&r);
    ReadReset(&r);
    if (last < 0) continue;

    Build(&b, root, target, last, 1);
    read(&b, &r);
    {
      char expected[64];
      snprintf(expected, sizeof(expected), "%s.%s", target->name, target->f[last].name);
      cr_assert_neq(r.code, NANOARROW_OK, "%s one byte short was accepted", expected);
      cr_assert(strstr(r.error.message, expected) != NULL,
                "refusal of %s one byte short does not name it: %s", expected,
                r.error.message);
    }
    ReadReset(&r);
    Cover(target->name, target->f[last].name);
  }
}

/* root (with target among its tables) reads as check wants. */
static void CheckOne(const struct Node* root, ReadFn read, CheckFn check) {
  struct Bld b;
  struct Read r;
  Build(&b, root, NULL, -1, 0);
  read(&b, &r);
  cr_assert_eq(r.code, NANOARROW_OK, "%s", r.error.message);
  check(&r);
  ReadReset(&r);
}

/* ---- A Schema message around one Field ---- */

#define SCHEMA_MESSAGE(var, schema)                                                     \
  static const struct Node var = {                                                      \
      "Message", 4, {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1),               \
                     TB(2, "header", &schema), SC(3, "bodyLength", 8, 0)}}

#define SCHEMA_OF(var, field)                                   \
  static const struct Node* const var##_fields[] = {&field};    \
  static const struct Node var = {"Schema", 1, {TV(1, "fields", var##_fields, 1)}}

#define FIELD_OF(var, type_id, type)                                              \
  static const struct Node var = {                                                \
      "Field", 3, {STR(0, "name", "x"), SC(2, "type_type", 1, type_id), TB(3, "type", &type)}}

static void ExpectFormat(const struct Read* r, const char* format) {
  cr_assert_eq(r->schema.n_children, 1);
  cr_assert_str_eq(r->schema.children[0]->format, format);
}

/* A type table inside Message -> Schema -> Field (name "x"); every layout of it
 * reads as format. */
#define TYPE_TEST(test_name, type_id, type_node, expected_format)                  \
  static void Check_##test_name(const struct Read* r) {                            \
    ExpectFormat(r, expected_format);                                              \
  }                                                                                \
  Test(flatbuf_layouts, test_name) {                                               \
    FIELD_OF(field, type_id, type_node);                                           \
    SCHEMA_OF(schema, field);                                                      \
    SCHEMA_MESSAGE(message, schema);                                               \
    CheckLayouts(&message, &type_node, ReadMessage, Check_##test_name);            \
  }

/* Type tables with fields, all present. */
static const struct Node kInt = {"Int", 2, {SC(0, "bitWidth", 4, 16), SC(1, "is_signed", 1, 1)}};
static const struct Node kFloatingPoint = {"FloatingPoint", 1, {SC(0, "precision", 2, 2)}};
static const struct Node kDecimal = {
    "Decimal", 3,
    {SC(0, "precision", 4, 7), SC(1, "scale", 4, 3), SC(2, "bitWidth", 4, 256)}};
static const struct Node kDate = {"Date", 1, {SC(0, "unit", 2, 0)}};
static const struct Node kTime = {"Time", 2, {SC(0, "unit", 2, 3), SC(1, "bitWidth", 4, 64)}};
static const struct Node kTimestamp = {
    "Timestamp", 2, {SC(0, "unit", 2, 2), STR(1, "timezone", "UTC")}};
static const struct Node kInterval = {"Interval", 1, {SC(0, "unit", 2, 2)}};
static const struct Node kDuration = {"Duration", 1, {SC(0, "unit", 2, 0)}};
static const struct Node kFixedSizeBinary = {"FixedSizeBinary", 1, {SC(0, "byteWidth", 4, 3)}};

TYPE_TEST(int_table, 2, kInt, "s")
TYPE_TEST(floating_point_table, 3, kFloatingPoint, "g")
TYPE_TEST(decimal_table, 7, kDecimal, "d:7,3,256")
TYPE_TEST(date_table, 8, kDate, "tdD")
TYPE_TEST(time_table, 9, kTime, "ttn")
TYPE_TEST(timestamp_table, 10, kTimestamp, "tsu:UTC")
TYPE_TEST(interval_table, 11, kInterval, "tin")
TYPE_TEST(duration_table, 18, kDuration, "tDs")
TYPE_TEST(fixed_size_binary_table, 15, kFixedSizeBinary, "w:3")

/* The same tables with fields left out: Arrow's defaults. */
static const struct Node kIntWidthOnly = {"Int", 1, {SC(0, "bitWidth", 4, 32)}};
static const struct Node kIntSignedOnly = {"Int", 1, {SC(1, "is_signed", 1, 1)}};
static const struct Node kEmptyFloatingPoint = {"FloatingPoint", 0, {{0}}};
static const struct Node kDecimalNoWidth = {
    "Decimal", 2, {SC(0, "precision", 4, 5), SC(1, "scale", 4, 2)}};
static const struct Node kEmptyDate = {"Date", 0, {{0}}};
static const struct Node kEmptyTime = {"Time", 0, {{0}}};
static const struct Node kTimeUnitOnly = {"Time", 1, {SC(0, "unit", 2, 0)}};
static const struct Node kEmptyTimestamp = {"Timestamp", 0, {{0}}};
static const struct Node kTimestampZoneOnly = {"Timestamp", 1, {STR(1, "timezone", "+07:30")}};
static const struct Node kEmptyInterval = {"Interval", 0, {{0}}};
static const struct Node kEmptyDuration = {"Duration", 0, {{0}}};

#define DEFAULTS_TEST(test_name, type_id, type_node, expected_format)          \
  static void Check_##test_name(const struct Read* r) {                        \
    ExpectFormat(r, expected_format);                                          \
  }                                                                            \
  Test(flatbuf_layouts, test_name) {                                           \
    FIELD_OF(field, type_id, type_node);                                       \
    SCHEMA_OF(schema, field);                                                  \
    SCHEMA_MESSAGE(message, schema);                                           \
    CheckOne(&message, ReadMessage, Check_##test_name);                        \
  }

DEFAULTS_TEST(int_is_signed_absent, 2, kIntWidthOnly, "I")
DEFAULTS_TEST(decimal_bit_width_absent, 7, kDecimalNoWidth, "d:5,2")
DEFAULTS_TEST(floating_point_precision_absent, 3, kEmptyFloatingPoint, "e")
DEFAULTS_TEST(date_unit_absent, 8, kEmptyDate, "tdm")
DEFAULTS_TEST(time_fields_absent, 9, kEmptyTime, "ttm")
DEFAULTS_TEST(time_bit_width_absent, 9, kTimeUnitOnly, "tts")
DEFAULTS_TEST(timestamp_fields_absent, 10, kEmptyTimestamp, "tss:")
DEFAULTS_TEST(timestamp_unit_absent, 10, kTimestampZoneOnly, "tss:+07:30")
DEFAULTS_TEST(interval_unit_absent, 11, kEmptyInterval, "tiM")
DEFAULTS_TEST(duration_unit_absent, 18, kEmptyDuration, "tDm")

Test(flatbuf_layouts, int_bit_width_absent_is_refused_as_zero) {
  /* bitWidth has no default: an Int without one has width 0, which is refused. */
  FIELD_OF(field, 2, kIntSignedOnly);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  struct Bld b;
  struct Read r;
  Build(&b, &message, NULL, -1, 0);
  ReadMessage(&b, &r);
  cr_assert_eq(r.code, EINVAL);
  cr_assert(strstr(r.error.message, "bitWidth 0") != NULL, "%s", r.error.message);
  ReadReset(&r);
}

/* Tables without fields: the smallest table (4 bytes, a 4-byte vtable). */
struct EmptyType {
  const char* name;
  int type_id;
  const char* format;
  int n_children;
};

Test(flatbuf_layouts, empty_type_tables) {
  static const struct EmptyType kEmpty[] = {
      {"Null", 1, "n", 0},          {"Binary", 4, "z", 0},         {"Utf8", 5, "u", 0},
      {"Bool", 6, "b", 0},          {"List", 12, "+l", 1},         {"Struct_", 13, "+s", 1},
      {"LargeBinary", 19, "Z", 0},  {"LargeUtf8", 20, "U", 0},     {"LargeList", 21, "+L", 1},
      {"RunEndEncoded", 22, "+r", 2}, {"BinaryView", 23, "vz", 0}, {"Utf8View", 24, "vu", 0},
      {"ListView", 25, "+vl", 1},   {"LargeListView", 26, "+vL", 1}};
  static const struct Node kRunEnds = {
      "Field", 3, {STR(0, "name", "run_ends"), SC(2, "type_type", 1, 2), TB(3, "type", &kInt)}};
  static const struct Node kChildType = {"Int", 2, {SC(0, "bitWidth", 4, 32), SC(1, "is_signed", 1, 1)}};
  static const struct Node kChild = {
      "Field", 3, {STR(0, "name", "item"), SC(2, "type_type", 1, 2), TB(3, "type", &kChildType)}};
  static const struct Node* const kOneChild[] = {&kChild};
  static const struct Node* const kRunEndChildren[] = {&kRunEnds, &kChild};
  size_t i;
  for (i = 0; i < sizeof(kEmpty) / sizeof(kEmpty[0]); i++) {
    struct Node type = {kEmpty[i].name, 0, {{0}}};
    struct Node field = {
        "Field", 4,
        {STR(0, "name", "x"), SC(2, "type_type", 1, kEmpty[i].type_id), TB(3, "type", &type),
         TV(5, "children", kEmpty[i].n_children == 2 ? kRunEndChildren : kOneChild,
            kEmpty[i].n_children)}};
    const struct Node* const fields[] = {&field};
    struct Node schema = {"Schema", 1, {TV(1, "fields", fields, 1)}};
    struct Node message = {"Message", 4,
                           {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1),
                            TB(2, "header", &schema), SC(3, "bodyLength", 8, 0)}};
    struct Bld b;
    struct Read r;
    /* Run ends are int16 (kInt). */
    Build(&b, &message, NULL, -1, 0);
    ReadMessage(&b, &r);
    cr_assert_eq(r.code, NANOARROW_OK, "%s: %s", kEmpty[i].name, r.error.message);
    ExpectFormat(&r, kEmpty[i].format);
    cr_assert_eq(r.schema.children[0]->n_children, kEmpty[i].n_children);
    ReadReset(&r);
  }
}

/* ---- Union, FixedSizeList, Map: type tables of nested fields ---- */

static const struct Node kInt32Type = {"Int", 2, {SC(0, "bitWidth", 4, 32), SC(1, "is_signed", 1, 1)}};
static const struct Node kInt32Field = {
    "Field", 4,
    {STR(0, "name", "v"), SC(1, "nullable", 1, 1), SC(2, "type_type", 1, 2),
     TB(3, "type", &kInt32Type)}};
static const struct Node* const kInt32Child[] = {&kInt32Field};

static const int32_t kTypeIds[] = {5};
static const struct Node kUnion = {
    "Union", 2, {SC(0, "mode", 2, 1), RV(1, "typeIds", kTypeIds, 1, 4)}};
static const struct Node kUnionModeOnly = {"Union", 1, {SC(0, "mode", 2, 0)}};
static const struct Node kFixedSizeList = {"FixedSizeList", 1, {SC(0, "listSize", 4, 4)}};
static const struct Node kMap = {"Map", 1, {SC(0, "keysSorted", 1, 1)}};
static const struct Node kEmptyMap = {"Map", 0, {{0}}};

#define NESTED_FIELD(var, type_id, type, children, n_children)                          \
  static const struct Node var = {"Field", 4,                                          \
                                  {STR(0, "name", "x"), SC(2, "type_type", 1, type_id), \
                                   TB(3, "type", &type), TV(5, "children", children, n_children)}}

static void CheckUnion(const struct Read* r) { ExpectFormat(r, "+ud:5"); }
static void CheckUnionDefaults(const struct Read* r) { ExpectFormat(r, "+us:0"); }
static void CheckFixedSizeList(const struct Read* r) { ExpectFormat(r, "+w:4"); }

Test(flatbuf_layouts, union_table) {
  NESTED_FIELD(field, 14, kUnion, kInt32Child, 1);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  CheckLayouts(&message, &kUnion, ReadMessage, CheckUnion);
}

Test(flatbuf_layouts, union_type_ids_absent) {
  NESTED_FIELD(field, 14, kUnionModeOnly, kInt32Child, 1);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  CheckOne(&message, ReadMessage, CheckUnionDefaults);
}

Test(flatbuf_layouts, fixed_size_list_table) {
  NESTED_FIELD(field, 16, kFixedSizeList, kInt32Child, 1);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  CheckLayouts(&message, &kFixedSizeList, ReadMessage, CheckFixedSizeList);
}

/* Map<int32, int32>: entries struct of key and value. */
static const struct Node kKeyField = {
    "Field", 3, {STR(0, "name", "key"), SC(2, "type_type", 1, 2), TB(3, "type", &kInt32Type)}};
static const struct Node kStructType = {"Struct_", 0, {{0}}};
static const struct Node* const kKeyValueFields[] = {&kKeyField, &kInt32Field};
static const struct Node kEntries = {
    "Field", 4,
    {STR(0, "name", "entries"), SC(2, "type_type", 1, 13), TB(3, "type", &kStructType),
     TV(5, "children", kKeyValueFields, 2)}};
static const struct Node* const kEntriesChild[] = {&kEntries};

static void CheckMapSorted(const struct Read* r) {
  ExpectFormat(r, "+m");
  cr_assert(r->schema.children[0]->flags & ARROW_FLAG_MAP_KEYS_SORTED);
}

static void CheckMapUnsorted(const struct Read* r) {
  ExpectFormat(r, "+m");
  cr_assert_eq(r->schema.children[0]->flags & ARROW_FLAG_MAP_KEYS_SORTED, 0);
}

Test(flatbuf_layouts, map_table) {
  NESTED_FIELD(field, 17, kMap, kEntriesChild, 1);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  CheckLayouts(&message, &kMap, ReadMessage, CheckMapSorted);
}

Test(flatbuf_layouts, map_keys_sorted_absent) {
  NESTED_FIELD(field, 17, kEmptyMap, kEntriesChild, 1);
  SCHEMA_OF(schema, field);
  SCHEMA_MESSAGE(message, schema);
  CheckOne(&message, ReadMessage, CheckMapUnsorted);
}

/* ---- Field, DictionaryEncoding, KeyValue, Schema, Message ---- */

static const struct Node kIndexType = {"Int", 2, {SC(0, "bitWidth", 4, 8), SC(1, "is_signed", 1, 1)}};
static const struct Node kDictionaryEncoding = {
    "DictionaryEncoding", 4,
    {SC(0, "id", 8, 7), TB(1, "indexType", &kIndexType), SC(2, "isOrdered", 1, 1),
     SC(3, "dictionaryKind", 2, 0)}};
static const struct Node kKeyValue = {"KeyValue", 2, {STR(0, "key", "k"), STR(1, "value", "v")}};
static const struct Node* const kMetadata[] = {&kKeyValue};
static const struct Node kUtf8Type = {"Utf8", 0, {{0}}};
static const struct Node* const kNoChildren[] = {NULL};
/* Every field of Field: a nullable dictionary-encoded string, ordered, int8 indices,
 * with metadata k=v. */
static const struct Node kFullField = {
    "Field", 7,
    {STR(0, "name", "dict"), SC(1, "nullable", 1, 1), SC(2, "type_type", 1, 5),
     TB(3, "type", &kUtf8Type), TB(4, "dictionary", &kDictionaryEncoding),
     TV(5, "children", kNoChildren, 0), TV(6, "custom_metadata", kMetadata, 1)}};
static const struct Node* const kFullFields[] = {&kFullField};

static void ExpectMetadataKV(const char* metadata) {
  struct ArrowStringView value = {NULL, 0};
  cr_assert_not_null(metadata);
  cr_assert_eq(ArrowMetadataGetValue(metadata, ArrowCharView("k"), &value), NANOARROW_OK);
  cr_assert_eq(value.size_bytes, 1);
  cr_assert_eq(value.data[0], 'v');
}

static void CheckFullField(const struct Read* r) {
  const struct ArrowSchema* f;
  cr_assert_eq(r->schema.n_children, 1);
  f = r->schema.children[0];
  cr_assert_str_eq(f->name, "dict");
  cr_assert_str_eq(f->format, "c");
  cr_assert(f->flags & ARROW_FLAG_NULLABLE);
  cr_assert(f->flags & ARROW_FLAG_DICTIONARY_ORDERED);
  cr_assert_not_null(f->dictionary);
  cr_assert_str_eq(f->dictionary->format, "u");
  ExpectMetadataKV(f->metadata);
}

static const struct Node kFullSchema = {"Schema", 1, {TV(1, "fields", kFullFields, 1)}};
static const struct Node kFullFieldMessage = {
    "Message", 4,
    {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1), TB(2, "header", &kFullSchema),
     SC(3, "bodyLength", 8, 0)}};

Test(flatbuf_layouts, field_table) {
  CheckLayouts(&kFullFieldMessage, &kFullField, ReadMessage, CheckFullField);
}

Test(flatbuf_layouts, dictionary_encoding_table) {
  CheckLayouts(&kFullFieldMessage, &kDictionaryEncoding, ReadMessage, CheckFullField);
}

Test(flatbuf_layouts, dictionary_index_int_table) {
  CheckLayouts(&kFullFieldMessage, &kIndexType, ReadMessage, CheckFullField);
}

Test(flatbuf_layouts, key_value_table) {
  CheckLayouts(&kFullFieldMessage, &kKeyValue, ReadMessage, CheckFullField);
}

static void CheckSparseField(const struct Read* r) {
  const struct ArrowSchema* f;
  cr_assert_eq(r->schema.n_children, 1);
  f = r->schema.children[0];
  /* No name, not nullable, int32 indices, unordered, no metadata. */
  cr_assert(f->name == NULL || f->name[0] == '\0');
  cr_assert_str_eq(f->format, "i");
  cr_assert_eq(f->flags & (ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED), 0);
  cr_assert_str_eq(f->dictionary->format, "u");
  cr_assert_null(f->metadata);
}

Test(flatbuf_layouts, field_and_dictionary_fields_absent) {
  static const struct Node kIdOnly = {"DictionaryEncoding", 1, {SC(0, "id", 8, 0)}};
  static const struct Node kField = {
      "Field", 3,
      {SC(2, "type_type", 1, 5), TB(3, "type", &kUtf8Type), TB(4, "dictionary", &kIdOnly)}};
  SCHEMA_OF(schema, kField);
  SCHEMA_MESSAGE(message, schema);
  CheckOne(&message, ReadMessage, CheckSparseField);
}

static const int64_t kFeatures[] = {2};
static const struct Node kSchemaAll = {
    "Schema", 4,
    {SC(0, "endianness", 2, 0), TV(1, "fields", kFullFields, 1),
     TV(2, "custom_metadata", kMetadata, 1), RV(3, "features", kFeatures, 1, 8)}};
static const struct Node kMessageAll = {
    "Message", 5,
    {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1), TB(2, "header", &kSchemaAll),
     SC(3, "bodyLength", 8, 24), TV(4, "custom_metadata", kMetadata, 1)}};

static void CheckSchemaAll(const struct Read* r) {
  CheckFullField(r);
  ExpectMetadataKV(r->schema.metadata);
  cr_assert_eq(r->decoder.metadata_version, NANOARROW_IPC_METADATA_VERSION_V5);
  cr_assert_eq(r->decoder.endianness, NANOARROW_IPC_ENDIANNESS_LITTLE);
  cr_assert_eq(r->decoder.feature_flags, NANOARROW_IPC_FEATURE_COMPRESSED_BODY);
  cr_assert_eq(r->decoder.body_size_bytes, 24);
}

Test(flatbuf_layouts, schema_table) {
  CheckLayouts(&kMessageAll, &kSchemaAll, ReadMessage, CheckSchemaAll);
}

Test(flatbuf_layouts, message_table) {
  CheckLayouts(&kMessageAll, &kMessageAll, ReadMessage, CheckSchemaAll);
}

static void CheckEmptySchema(const struct Read* r) {
  cr_assert_eq(r->schema.n_children, 0);
  cr_assert_null(r->schema.metadata);
  cr_assert_eq(r->decoder.feature_flags, 0);
  cr_assert_eq(r->decoder.body_size_bytes, 0);
}

Test(flatbuf_layouts, schema_and_message_fields_absent) {
  static const struct Node kEmptySchema = {"Schema", 0, {{0}}};
  static const struct Node kMessage = {
      "Message", 3,
      {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1), TB(2, "header", &kEmptySchema)}};
  CheckOne(&kMessage, ReadMessage, CheckEmptySchema);
}

Test(flatbuf_layouts, message_version_absent_is_v1) {
  static const struct Node kEmptySchema = {"Schema", 0, {{0}}};
  static const struct Node kMessage = {
      "Message", 2, {SC(1, "header_type", 1, 1), TB(2, "header", &kEmptySchema)}};
  struct Bld b;
  struct Read r;
  Build(&b, &kMessage, NULL, -1, 0);
  ReadMessage(&b, &r);
  cr_assert_eq(r.code, ENOTSUP);
  cr_assert(strstr(r.error.message, "V1") != NULL, "%s", r.error.message);
  ReadReset(&r);
}

/* Two fields of one layout share their vtables (Field, Int, and the Message's are
 * one each). */
Test(flatbuf_layouts, shared_vtables) {
  static const struct Node kA = {
      "Field", 3, {STR(0, "name", "a"), SC(2, "type_type", 1, 2), TB(3, "type", &kInt)}};
  static const struct Node kB = {
      "Field", 3, {STR(0, "name", "b"), SC(2, "type_type", 1, 2), TB(3, "type", &kInt)}};
  static const struct Node* const kFields[] = {&kA, &kB};
  static const struct Node kSchema = {"Schema", 1, {TV(1, "fields", kFields, 2)}};
  SCHEMA_MESSAGE(message, kSchema);
  struct Bld b;
  struct Read r;
  Build(&b, &message, NULL, -1, 0);
  cr_assert_eq(b.shared_vtables, 2);
  ReadMessage(&b, &r);
  cr_assert_eq(r.code, NANOARROW_OK, "%s", r.error.message);
  cr_assert_eq(r.schema.n_children, 2);
  cr_assert_str_eq(r.schema.children[0]->name, "a");
  cr_assert_str_eq(r.schema.children[1]->name, "b");
  cr_assert_str_eq(r.schema.children[1]->format, "s");
  ReadReset(&r);
}

/* ---- RecordBatch, BodyCompression, DictionaryBatch ---- */

static const struct Node kCompression = {
    "BodyCompression", 2, {SC(0, "codec", 1, 1), SC(1, "method", 1, 0)}};
static const uint8_t kNoStructs[1] = {0};
static const struct Node kRecordBatch = {
    "RecordBatch", 5,
    {SC(0, "length", 8, 5), RV(1, "nodes", kNoStructs, 0, 16), RV(2, "buffers", kNoStructs, 0, 16),
     TB(3, "compression", &kCompression), RV(4, "variadicBufferCounts", kNoStructs, 0, 8)}};
static const struct Node kBatchMessage = {
    "Message", 4,
    {SC(0, "version", 2, 4), SC(1, "header_type", 1, 3), TB(2, "header", &kRecordBatch),
     SC(3, "bodyLength", 8, 0)}};

static void CheckBatch(const struct Read* r) {
  cr_assert_eq(r->decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH);
  cr_assert_eq(r->decoder.codec, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  cr_assert_eq(r->batch_length, 5);
}

Test(flatbuf_layouts, record_batch_table) {
  CheckLayouts(&kBatchMessage, &kRecordBatch, ReadMessage, CheckBatch);
}

Test(flatbuf_layouts, body_compression_table) {
  CheckLayouts(&kBatchMessage, &kCompression, ReadMessage, CheckBatch);
}

static void CheckEmptyBatch(const struct Read* r) {
  cr_assert_eq(r->decoder.codec, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
  cr_assert_eq(r->batch_length, 0);
}

Test(flatbuf_layouts, record_batch_fields_absent) {
  /* codec absent is LZ4_FRAME, the schema's default; length absent is 0. */
  static const struct Node kEmptyCompression = {"BodyCompression", 0, {{0}}};
  static const struct Node kBatch = {"RecordBatch", 1,
                                     {TB(3, "compression", &kEmptyCompression)}};
  static const struct Node kMessage = {
      "Message", 3,
      {SC(0, "version", 2, 4), SC(1, "header_type", 1, 3), TB(2, "header", &kBatch)}};
  CheckOne(&kMessage, ReadMessage, CheckEmptyBatch);
}

static const struct Node kDictionaryBatch = {
    "DictionaryBatch", 3,
    {SC(0, "id", 8, 9), TB(1, "data", &kRecordBatch), SC(2, "isDelta", 1, 1)}};
static const struct Node kDictionaryMessage = {
    "Message", 4,
    {SC(0, "version", 2, 4), SC(1, "header_type", 1, 2), TB(2, "header", &kDictionaryBatch),
     SC(3, "bodyLength", 8, 0)}};

static void CheckDictionaryBatch(const struct Read* r) {
  cr_assert_eq(r->decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
  cr_assert_not_null(r->decoder.dictionary);
  cr_assert_eq(r->decoder.dictionary->id, 9);
  cr_assert(r->decoder.dictionary->is_delta);
  cr_assert_eq(r->decoder.codec, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
}

Test(flatbuf_layouts, dictionary_batch_table) {
  CheckLayouts(&kDictionaryMessage, &kDictionaryBatch, ReadMessage, CheckDictionaryBatch);
}

static void CheckDictionaryBatchDefaults(const struct Read* r) {
  cr_assert_eq(r->decoder.dictionary->id, 0);
  cr_assert_eq(r->decoder.dictionary->is_delta, 0);
}

Test(flatbuf_layouts, dictionary_batch_fields_absent) {
  static const struct Node kEmptyBatch = {"RecordBatch", 0, {{0}}};
  static const struct Node kDictionary = {"DictionaryBatch", 1, {TB(1, "data", &kEmptyBatch)}};
  static const struct Node kMessage = {
      "Message", 3,
      {SC(0, "version", 2, 4), SC(1, "header_type", 1, 2), TB(2, "header", &kDictionary)}};
  CheckOne(&kMessage, ReadMessage, CheckDictionaryBatchDefaults);
}

/* ---- Footer ---- */

/* Block { offset: long; metaDataLength: int; (4 bytes of padding) bodyLength: long } */
static const int64_t kBlocks[] = {8, 200, 64, 272, 136, 128};
static const struct Node kFooter = {
    "Footer", 5,
    {SC(0, "version", 2, 4), TB(1, "schema", &kSchemaAll), RV(2, "dictionaries", kBlocks, 1, 24),
     RV(3, "recordBatches", kBlocks + 3, 1, 24), TV(4, "custom_metadata", kMetadata, 1)}};

static void CheckFooter(const struct Read* r) {
  const struct ArrowIpcFileBlock* blocks;
  CheckFullField(r);
  cr_assert_eq(r->decoder.footer->dictionary_blocks.size_bytes,
               (int64_t)sizeof(struct ArrowIpcFileBlock));
  cr_assert_eq(r->decoder.footer->record_batch_blocks.size_bytes,
               (int64_t)sizeof(struct ArrowIpcFileBlock));
  blocks = (const struct ArrowIpcFileBlock*)r->decoder.footer->dictionary_blocks.data;
  cr_assert_eq(blocks[0].offset, 8);
  cr_assert_eq(blocks[0].metadata_length, 200);
  cr_assert_eq(blocks[0].body_length, 64);
  blocks = (const struct ArrowIpcFileBlock*)r->decoder.footer->record_batch_blocks.data;
  cr_assert_eq(blocks[0].offset, 272);
  cr_assert_eq(blocks[0].metadata_length, 136);
  cr_assert_eq(blocks[0].body_length, 128);
}

Test(flatbuf_layouts, footer_table) {
  CheckLayouts(&kFooter, &kFooter, ReadFooter, CheckFooter);
}

Test(flatbuf_layouts, footer_schema_table) {
  CheckLayouts(&kFooter, &kSchemaAll, ReadFooter, CheckFooter);
}

static void CheckFooterDefaults(const struct Read* r) {
  cr_assert_eq(r->schema.n_children, 1);
  cr_assert_eq(r->decoder.footer->dictionary_blocks.size_bytes, 0);
  cr_assert_eq(r->decoder.footer->record_batch_blocks.size_bytes, 0);
}

Test(flatbuf_layouts, footer_fields_absent) {
  static const struct Node kSchema = {"Schema", 1, {TV(1, "fields", kFullFields, 1)}};
  static const struct Node kFooterSchemaOnly = {"Footer", 1, {TB(1, "schema", &kSchema)}};
  CheckOne(&kFooterSchemaOnly, ReadFooter, CheckFooterDefaults);
}

/* ---- Coverage: every table and field the reader describes was placed last ---- */

/* Criterion may run tests in separate processes: this test places every table's
 * fields last itself (the layouts of the tests above) and then compares what it
 * placed with the reader's descriptions. */
static void CheckAccepted(const struct Read* r) { cr_assert_eq(r->code, NANOARROW_OK); }

Test(flatbuf_layouts, every_described_field_is_covered) {
  int t;
  int k;
  g_n_covered = 0;
  /* Re-run the layout tests' bodies (their value checks are the tests above). */
  {
    static const struct {
      int type_id;
      const struct Node* node;
    } kTypes[] = {{2, &kInt},  {3, &kFloatingPoint}, {7, &kDecimal},  {8, &kDate},
                  {9, &kTime}, {10, &kTimestamp},    {11, &kInterval}, {18, &kDuration},
                  {15, &kFixedSizeBinary}};
    size_t i;
    for (i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); i++) {
      struct Node field = {"Field", 3,
                           {STR(0, "name", "x"), SC(2, "type_type", 1, kTypes[i].type_id),
                            TB(3, "type", kTypes[i].node)}};
      const struct Node* const fields[] = {&field};
      struct Node schema = {"Schema", 1, {TV(1, "fields", fields, 1)}};
      struct Node message = {"Message", 4,
                             {SC(0, "version", 2, 4), SC(1, "header_type", 1, 1),
                              TB(2, "header", &schema), SC(3, "bodyLength", 8, 0)}};
      CheckLayouts(&message, kTypes[i].node, ReadMessage, CheckAccepted);
    }
  }
  {
    NESTED_FIELD(f_union, 14, kUnion, kInt32Child, 1);
    NESTED_FIELD(f_fsl, 16, kFixedSizeList, kInt32Child, 1);
    NESTED_FIELD(f_map, 17, kMap, kEntriesChild, 1);
    SCHEMA_OF(s_union, f_union);
    SCHEMA_OF(s_fsl, f_fsl);
    SCHEMA_OF(s_map, f_map);
    SCHEMA_MESSAGE(m_union, s_union);
    SCHEMA_MESSAGE(m_fsl, s_fsl);
    SCHEMA_MESSAGE(m_map, s_map);
    CheckLayouts(&m_union, &kUnion, ReadMessage, CheckUnion);
    CheckLayouts(&m_fsl, &kFixedSizeList, ReadMessage, CheckFixedSizeList);
    CheckLayouts(&m_map, &kMap, ReadMessage, CheckMapSorted);
  }
  CheckLayouts(&kFullFieldMessage, &kFullField, ReadMessage, CheckFullField);
  CheckLayouts(&kFullFieldMessage, &kDictionaryEncoding, ReadMessage, CheckFullField);
  CheckLayouts(&kFullFieldMessage, &kKeyValue, ReadMessage, CheckFullField);
  CheckLayouts(&kMessageAll, &kSchemaAll, ReadMessage, CheckSchemaAll);
  CheckLayouts(&kMessageAll, &kMessageAll, ReadMessage, CheckSchemaAll);
  CheckLayouts(&kBatchMessage, &kRecordBatch, ReadMessage, CheckBatch);
  CheckLayouts(&kBatchMessage, &kCompression, ReadMessage, CheckBatch);
  CheckLayouts(&kDictionaryMessage, &kDictionaryBatch, ReadMessage, CheckDictionaryBatch);
  CheckLayouts(&kFooter, &kFooter, ReadFooter, CheckFooter);

  for (t = 0; t < ARROW_IPC_FBR_T_COUNT; t++) {
    const struct ArrowIpcFbrTableSpec* spec = &ArrowIpcPrivateFbrTables[t];
    for (k = spec->first; k < spec->first + spec->n_fields; k++) {
      char key[64];
      int i;
      int found = 0;
      snprintf(key, sizeof(key), "%s.%s", spec->name, ArrowIpcPrivateFbrFields[k].name);
      for (i = 0; i < g_n_covered; i++) found |= strcmp(g_covered[i], key) == 0;
      cr_expect(found, "%s was never placed last in a layout test", key);
    }
  }
}

/* The quick paths' restatement of the Field and Int tables (flatbuf_reader.h) agrees
 * with the one description of Arrow's fields: same ids, in key order, same widths. */
Test(flatbuf_layouts, quick_path_ids_and_widths_match_the_description) {
  const struct ArrowIpcFbrTableSpec* field = &ArrowIpcPrivateFbrTables[ARROW_IPC_FBR_T_FIELD];
  const struct ArrowIpcFbrTableSpec* int_table = &ArrowIpcPrivateFbrTables[ARROW_IPC_FBR_T_INT];
  int i;
  cr_assert_eq(field->n_fields, ARROW_IPC_FBR_FIELD_N_IDS);
  cr_assert_eq(field->first, ARROW_IPC_FBR_FIELD_NAME);
  for (i = 0; i < ARROW_IPC_FBR_FIELD_N_IDS; i++) {
    const struct ArrowIpcFbrFieldSpec* spec = &ArrowIpcPrivateFbrFields[field->first + i];
    cr_expect_eq(spec->id, i, "Field.%s", spec->name);
    cr_expect_eq(ArrowIpcFbrKindWidth(spec->kind), kArrowIpcFbrFieldWidths[i], "Field.%s",
                 spec->name);
  }
  cr_assert_eq(int_table->n_fields, ARROW_IPC_FBR_INT_N_IDS);
  cr_assert_eq(int_table->first, ARROW_IPC_FBR_INT_BIT_WIDTH);
  for (i = 0; i < ARROW_IPC_FBR_INT_N_IDS; i++) {
    const struct ArrowIpcFbrFieldSpec* spec = &ArrowIpcPrivateFbrFields[int_table->first + i];
    cr_expect_eq(spec->id, i, "Int.%s", spec->name);
    cr_expect_eq(ArrowIpcFbrKindWidth(spec->kind), kArrowIpcFbrIntWidths[i], "Int.%s",
                 spec->name);
  }
  /* The quick paths name Field ids 1 (nullable), 2 (type_type), 3 (type), 4
   * (dictionary), 5 (children) and 6 (custom_metadata) by number. */
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_NULLABLE)->id, 1);
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_TYPE_TYPE)->id, 2);
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_TYPE)->id, 3);
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_DICTIONARY)->id, 4);
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_CHILDREN)->id, 5);
  cr_expect_eq(ArrowIpcFbrSpec(ARROW_IPC_FBR_FIELD_CUSTOM_METADATA)->id, 6);
}
