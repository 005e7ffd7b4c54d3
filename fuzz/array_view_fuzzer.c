/* libFuzzer harness: ArrowArrayViewSetArray / ArrowArrayViewValidate on hostile
 * arrays arriving through the C data interface.
 *
 * The input builds a schema and an ArrowArray tree of the same shape (child counts
 * and dictionaries always match the schema, as the C interface requires of a
 * producer). Lengths, offsets, null counts, buffer counts and buffer contents are
 * hostile. Every buffer is a fresh heap block sized exactly as a correct producer
 * sizes it for the claimed offset + length (validity bits, fixed-width elements,
 * offset + length + 1 offsets, 16-byte views, string data up to the last offset
 * written, variadic data of the size written in the sizes buffer): the C interface
 * carries no buffer sizes, so a shorter buffer is beyond any consumer's power to
 * detect. A buffer too large for the caps below, or whose size overflows int64, is
 * passed as NULL or as a 16-byte dummy: validation must then refuse the array.
 *
 * Then: SetArray (DEFAULT) -> every buffer view read to its size and the null count
 * computed; Validate(FULL) -> every element read through the public getters (each
 * string byte summed, list/union/run-end/dictionary lookups followed into the
 * child), the view compared with itself, copied with ArrowArrayInitFromArrayView,
 * the copy viewed, validated and compared with the original. SetArrayMinimal on a
 * second view (then Validate and SetArray on that reused view) must agree. Every view
 * SetArray accepts is also appended to an empty array (ArrowArrayAppendArrayView).
 *
 * Encoding of one node (recursive; the input reads as zeros once exhausted):
 *   type   1 byte: index into kAvSpecs (leaves only at depth AV_MAX_DEPTH; none
 *          for map entries and run ends, whose types are fixed)
 *   [struct: 1 byte child count % 4] [binary view: 1 byte variadic count % 4]
 *   flags  1 byte: bits 0-1 null count mode (1: -1, 3: wrong, else exact),
 *          bits 2-4 all set: wild length/offset, bits 5-7 all set: a NULL buffers
 *          array or a wrong n_buffers
 *   length 1 byte (+2): the length the parent needs (b < 0xC0 when it has one),
 *          b % 17, or a 16-bit value % (AV_MAX_LENGTH + 1); wild: kAvWild[b % n]
 *   offset 1 byte (+2): 0 (b < 0xC0), b & 15, or a 16-bit value % 4096
 *   children, then the dictionary, then per buffer a mode byte (generated so the
 *   array is likely valid / raw input bytes / NULL) and its contents, then a
 *   byte choosing the wrong null count (mode 3) and one for the buffers array
 *   (flags bits 5-7 set).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#if defined(NANOARROW_TEST_HAVE_TESTING)
#include "nanoarrow/nanoarrow_testing.h"
#endif

#include "fuzz_util.h"

#define AV_MAX_DEPTH 3
#define AV_MAX_NODES 64
#define AV_MAX_LENGTH 4096
#define AV_MAX_HINT 65536
#define AV_BUFFER_CAP ((int64_t)1 << 20)
#define AV_BUDGET ((int64_t)16 << 20)
#define AV_MAX_BLOCKS 16
#define AV_MAX_COMPARE_COST 4.0e6

enum AvKind { AV_LEAF, AV_LIST, AV_STRUCT, AV_MAP, AV_UNION, AV_REE, AV_DICT };

struct AvSpec {
  const char* format;
  enum AvKind kind;
  /* Storage type (temporal types: their integer storage). */
  enum ArrowType storage;
  /* Leaves and dictionary indices: bits per element of the data buffer; lists: the
   * offset width (32/64) or the fixed-size list size. */
  int64_t param;
  /* Unions: the declared type ids. REE: the run ends format. */
  int n_type_ids;
  int8_t type_ids[3];
  const char* child_format;
};

#define AV_LEAF_SPEC(format, storage, bits) \
  { format, AV_LEAF, storage, bits, 0, {0, 0, 0}, NULL }

static const struct AvSpec kAvSpecs[] = {
    /* Leaves first: the first AV_N_LEAVES entries. */
    AV_LEAF_SPEC("n", NANOARROW_TYPE_NA, 0),
    AV_LEAF_SPEC("b", NANOARROW_TYPE_BOOL, 1),
    AV_LEAF_SPEC("c", NANOARROW_TYPE_INT8, 8),
    AV_LEAF_SPEC("C", NANOARROW_TYPE_UINT8, 8),
    AV_LEAF_SPEC("s", NANOARROW_TYPE_INT16, 16),
    AV_LEAF_SPEC("S", NANOARROW_TYPE_UINT16, 16),
    AV_LEAF_SPEC("i", NANOARROW_TYPE_INT32, 32),
    AV_LEAF_SPEC("I", NANOARROW_TYPE_UINT32, 32),
    AV_LEAF_SPEC("l", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("L", NANOARROW_TYPE_UINT64, 64),
    AV_LEAF_SPEC("e", NANOARROW_TYPE_HALF_FLOAT, 16),
    AV_LEAF_SPEC("f", NANOARROW_TYPE_FLOAT, 32),
    AV_LEAF_SPEC("g", NANOARROW_TYPE_DOUBLE, 64),
    AV_LEAF_SPEC("u", NANOARROW_TYPE_STRING, 32),
    AV_LEAF_SPEC("U", NANOARROW_TYPE_LARGE_STRING, 64),
    AV_LEAF_SPEC("z", NANOARROW_TYPE_BINARY, 32),
    AV_LEAF_SPEC("Z", NANOARROW_TYPE_LARGE_BINARY, 64),
    AV_LEAF_SPEC("vu", NANOARROW_TYPE_STRING_VIEW, 128),
    AV_LEAF_SPEC("vz", NANOARROW_TYPE_BINARY_VIEW, 128),
    AV_LEAF_SPEC("w:1", NANOARROW_TYPE_FIXED_SIZE_BINARY, 8),
    AV_LEAF_SPEC("w:5", NANOARROW_TYPE_FIXED_SIZE_BINARY, 40),
    AV_LEAF_SPEC("w:16", NANOARROW_TYPE_FIXED_SIZE_BINARY, 128),
    AV_LEAF_SPEC("d:9,2,32", NANOARROW_TYPE_DECIMAL32, 32),
    AV_LEAF_SPEC("d:18,3,64", NANOARROW_TYPE_DECIMAL64, 64),
    AV_LEAF_SPEC("d:38,5", NANOARROW_TYPE_DECIMAL128, 128),
    AV_LEAF_SPEC("d:76,10,256", NANOARROW_TYPE_DECIMAL256, 256),
    AV_LEAF_SPEC("tdD", NANOARROW_TYPE_INT32, 32),
    AV_LEAF_SPEC("tdm", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("tts", NANOARROW_TYPE_INT32, 32),
    AV_LEAF_SPEC("ttm", NANOARROW_TYPE_INT32, 32),
    AV_LEAF_SPEC("ttu", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("ttn", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("tsn:UTC", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("tsu:", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("tDs", NANOARROW_TYPE_INT64, 64),
    AV_LEAF_SPEC("tiM", NANOARROW_TYPE_INTERVAL_MONTHS, 32),
    AV_LEAF_SPEC("tiD", NANOARROW_TYPE_INTERVAL_DAY_TIME, 64),
    AV_LEAF_SPEC("tin", NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, 128),
    /* Nested and dictionary-encoded. */
    {"+l", AV_LIST, NANOARROW_TYPE_LIST, 32, 0, {0, 0, 0}, NULL},
    {"+L", AV_LIST, NANOARROW_TYPE_LARGE_LIST, 64, 0, {0, 0, 0}, NULL},
    {"+vl", AV_LIST, NANOARROW_TYPE_LIST_VIEW, 32, 0, {0, 0, 0}, NULL},
    {"+vL", AV_LIST, NANOARROW_TYPE_LARGE_LIST_VIEW, 64, 0, {0, 0, 0}, NULL},
    {"+w:0", AV_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST, 0, 0, {0, 0, 0}, NULL},
    {"+w:1", AV_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST, 1, 0, {0, 0, 0}, NULL},
    {"+w:3", AV_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST, 3, 0, {0, 0, 0}, NULL},
    {"+s", AV_STRUCT, NANOARROW_TYPE_STRUCT, 0, 0, {0, 0, 0}, NULL},
    {"+s", AV_STRUCT, NANOARROW_TYPE_STRUCT, 0, 0, {0, 0, 0}, NULL},
    {"+m", AV_MAP, NANOARROW_TYPE_MAP, 32, 0, {0, 0, 0}, NULL},
    {"+us:0,1", AV_UNION, NANOARROW_TYPE_SPARSE_UNION, 0, 2, {0, 1, 0}, NULL},
    {"+ud:3,7", AV_UNION, NANOARROW_TYPE_DENSE_UNION, 0, 2, {3, 7, 0}, NULL},
    {"+us:2,0,1", AV_UNION, NANOARROW_TYPE_SPARSE_UNION, 0, 3, {2, 0, 1}, NULL},
    {"+ud:127,0,64", AV_UNION, NANOARROW_TYPE_DENSE_UNION, 0, 3, {127, 0, 64}, NULL},
    {"+ud:0", AV_UNION, NANOARROW_TYPE_DENSE_UNION, 0, 1, {0, 0, 0}, NULL},
    {"+us:", AV_UNION, NANOARROW_TYPE_SPARSE_UNION, 0, 0, {0, 0, 0}, NULL},
    {"+ud:", AV_UNION, NANOARROW_TYPE_DENSE_UNION, 0, 0, {0, 0, 0}, NULL},
    {"+r", AV_REE, NANOARROW_TYPE_RUN_END_ENCODED, 0, 0, {0, 0, 0}, "s"},
    {"+r", AV_REE, NANOARROW_TYPE_RUN_END_ENCODED, 0, 0, {0, 0, 0}, "i"},
    {"+r", AV_REE, NANOARROW_TYPE_RUN_END_ENCODED, 0, 0, {0, 0, 0}, "l"},
    {"c", AV_DICT, NANOARROW_TYPE_INT8, 8, 0, {0, 0, 0}, NULL},
    {"i", AV_DICT, NANOARROW_TYPE_INT32, 32, 0, {0, 0, 0}, NULL},
    {"C", AV_DICT, NANOARROW_TYPE_UINT8, 8, 0, {0, 0, 0}, NULL},
    {"L", AV_DICT, NANOARROW_TYPE_UINT64, 64, 0, {0, 0, 0}, NULL},
    /* Appended later (so the seeds keep their meaning); never picked as a leaf. */
    {"I", AV_DICT, NANOARROW_TYPE_UINT32, 32, 0, {0, 0, 0}, NULL},
    {"s", AV_DICT, NANOARROW_TYPE_INT16, 16, 0, {0, 0, 0}, NULL},
    AV_LEAF_SPEC("w:2147483647", NANOARROW_TYPE_FIXED_SIZE_BINARY,
                 (int64_t)INT32_MAX * 8),
    {"+w:2147483647", AV_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST, INT32_MAX, 0, {0}, NULL},
};

#define AV_N_SPECS ((int)(sizeof(kAvSpecs) / sizeof(kAvSpecs[0])))
#define AV_N_LEAVES 38

/* The map's entries: a struct of a leaf key and any value. */
static const struct AvSpec kAvMapEntries = {
    "+s", AV_STRUCT, NANOARROW_TYPE_STRUCT, 0, 0, {0, 0, 0}, NULL};

/* Lengths and offsets no correct array can have (or that only buffer-less arrays
 * can): negative, overflowing offset + length, huge. */
static const int64_t kAvWild[] = {-1,
                                  INT64_MIN,
                                  INT64_MAX,
                                  INT64_MAX - 1,
                                  (int64_t)1 << 62,
                                  ((int64_t)1 << 61) + 1,
                                  (int64_t)1 << 40,
                                  ((int64_t)1 << 32) + 7,
                                  (int64_t)1 << 31,
                                  INT32_MAX,
                                  (int64_t)1 << 20,
                                  100003,
                                  AV_MAX_LENGTH + 1,
                                  0};
#define AV_N_WILD ((int)(sizeof(kAvWild) / sizeof(kAvWild[0])))

struct AvInput {
  const uint8_t* data;
  size_t size;
  int n_nodes;
  int64_t budget;
};

/* What the release callback frees. */
struct AvPrivate {
  void* blocks[AV_MAX_BLOCKS];
  int n_blocks;
};

enum AvRole { AV_ROLE_NONE, AV_ROLE_RUN_ENDS };

struct AvHint {
  /* The length the parent needs (-1: none). */
  int64_t length;
  enum AvRole role;
  /* Run ends: the parent's offset + length the last run end must reach. */
  int64_t target;
};

enum AvMode { AV_MODE_NULL, AV_MODE_GENERATED, AV_MODE_RAW };

/* ---- Reading the input ---- */

static uint8_t AvByte(struct AvInput* in) {
  uint8_t out;
  if (in->size == 0) return 0;
  out = in->data[0];
  in->data++;
  in->size--;
  return out;
}

static uint64_t AvUInt(struct AvInput* in, int n_bytes) {
  uint64_t out = 0;
  int k;
  for (k = 0; k < n_bytes; k++) out |= (uint64_t)AvByte(in) << (8 * k);
  return out;
}

static void AvCopy(struct AvInput* in, uint8_t* out, int64_t n) {
  int64_t available = (int64_t)in->size < n ? (int64_t)in->size : n;
  if (n <= 0) return;
  if (available > 0) memcpy(out, in->data, (size_t)available);
  memset(out + available, 0, (size_t)(n - available));
  in->data += available;
  in->size -= (size_t)available;
}

static enum AvMode AvTakeMode(struct AvInput* in, int is_validity) {
  uint8_t b = AvByte(in);
  if (is_validity) {
    return b < 0x50 ? AV_MODE_NULL : (b < 0xB0 ? AV_MODE_GENERATED : AV_MODE_RAW);
  }
  return b < 0xB0 ? AV_MODE_GENERATED : (b < 0xF8 ? AV_MODE_RAW : AV_MODE_NULL);
}

static int64_t AvTakeLength(struct AvInput* in, int64_t hint, int wild) {
  uint8_t b = AvByte(in);
  if (wild) return kAvWild[b % AV_N_WILD];
  if (hint >= 0 && hint <= AV_MAX_HINT && b < 0xC0) return hint;
  if (b < 0xF0) return b % 17;
  return (int64_t)(AvUInt(in, 2) % (AV_MAX_LENGTH + 1));
}

static int64_t AvTakeOffset(struct AvInput* in, int wild) {
  uint8_t b = AvByte(in);
  if (wild && b >= 0x80) return kAvWild[b % AV_N_WILD];
  if (b < 0xC0) return 0;
  if (b < 0xF8) return b & 15;
  return (int64_t)(AvUInt(in, 2) % 4096);
}

/* ---- Sizes and allocation ---- */

/* Bytes holding n elements of bits each, or -1 when n < 0 or that overflows (the
 * same arithmetic a consumer must do). */
static int64_t AvSizeFor(int64_t n, int64_t bits) {
  int64_t n_bits;
  if (n < 0 || (bits != 0 && n > INT64_MAX / bits)) return -1;
  n_bits = n * bits;
  return (n_bits >> 3) + ((n_bits & 7) != 0);
}

/* A fresh block of exactly size bytes (size -1: a 16-byte dummy for a size that
 * overflows), or NULL beyond the caps. */
static uint8_t* AvAlloc(struct AvInput* in, struct AvPrivate* priv, int64_t size) {
  uint8_t* out;
  if (size < 0) size = 16;
  if (size > AV_BUFFER_CAP || size > in->budget || priv->n_blocks >= AV_MAX_BLOCKS) {
    return NULL;
  }
  out = (uint8_t*)malloc((size_t)size);
  if (out == NULL) return NULL;
  in->budget -= size;
  priv->blocks[priv->n_blocks++] = out;
  return out;
}

static void AvRelease(struct ArrowArray* array) {
  struct AvPrivate* priv = (struct AvPrivate*)array->private_data;
  int64_t i;
  for (i = 0; i < array->n_children; i++) {
    if (array->children[i]->release != NULL) {
      array->children[i]->release(array->children[i]);
    }
    free(array->children[i]);
  }
  free(array->children);
  if (array->dictionary != NULL) {
    if (array->dictionary->release != NULL) array->dictionary->release(array->dictionary);
    free(array->dictionary);
  }
  for (i = 0; i < priv->n_blocks; i++) free(priv->blocks[i]);
  free((void*)array->buffers);
  free(priv);
  array->release = NULL;
}

/* ---- Buffer contents ---- */

static void AvStoreInt(uint8_t* data, int64_t i, int64_t bits, int64_t value) {
  switch (bits) {
    case 8: {
      int8_t v = (int8_t)value;
      memcpy(data + i, &v, 1);
      break;
    }
    case 16: {
      int16_t v = (int16_t)value;
      memcpy(data + i * 2, &v, 2);
      break;
    }
    case 32: {
      int32_t v = (int32_t)value;
      memcpy(data + i * 4, &v, 4);
      break;
    }
    default:
      memcpy(data + i * 8, &value, 8);
      break;
  }
}

static int64_t AvLoadInt(const uint8_t* data, int64_t i, int64_t bits) {
  int32_t v32;
  int64_t v64;
  if (bits == 32) {
    memcpy(&v32, data + i * 4, 4);
    return v32;
  }
  memcpy(&v64, data + i * 8, 8);
  return v64;
}

/* Text-like bytes: raw, or when generated valid UTF-8 (ASCII and 2, 3 and 4-byte
 * sequences, which element boundaries may still split). */
static void AvFillBytes(struct AvInput* in, uint8_t* out, int64_t n, enum AvMode mode) {
  static const uint8_t kSequences[3][4] = {
      {0xC3, 0xA9, 0, 0}, {0xE2, 0x82, 0xAC, 0}, {0xF0, 0x9F, 0x98, 0x80}};
  int64_t i = 0;
  int width;
  uint8_t b;
  if (mode != AV_MODE_GENERATED) {
    AvCopy(in, out, n);
    return;
  }
  while (i < n) {
    b = AvByte(in);
    width = b >= 0xF8 ? 4 : (b >= 0xF0 ? 3 : (b >= 0xE0 ? 2 : 1));
    if (width > 1 && i + width <= n) {
      memcpy(out + i, kSequences[width - 2], (size_t)width);
      i += width;
    } else {
      out[i++] = b & 0x7F;
    }
  }
}

/* The validity bitmap of [0, end): all set but a few bits (none when all_valid),
 * or raw. Returns it (or NULL) and the number of nulls in [offset, end). */
static uint8_t* AvMakeValidity(struct AvInput* in, struct AvPrivate* priv, int64_t offset,
                               int64_t end, int all_valid, int64_t* null_count) {
  enum AvMode mode = AvTakeMode(in, 1);
  int64_t size = AvSizeFor(end, 1);
  uint8_t* out;
  int64_t i;
  int n_clear;
  *null_count = 0;
  if (mode == AV_MODE_NULL) return NULL;
  out = AvAlloc(in, priv, size);
  if (out == NULL || size < 0) return out;
  if (mode == AV_MODE_RAW) {
    AvCopy(in, out, size);
  } else {
    memset(out, 0xFF, (size_t)size);
    n_clear = all_valid || end == 0 ? 0 : AvByte(in) % 5;
    for (i = 0; i < n_clear; i++) {
      int64_t bit = (int64_t)(AvUInt(in, 2) % (uint64_t)end);
      out[bit >> 3] &= (uint8_t) ~(1u << (bit & 7));
    }
  }
  for (i = offset; i < end; i++) *null_count += !((out[i >> 3] >> (i & 7)) & 1);
  return out;
}

/* Fixed-width data; dictionary indices and run ends are generated in range. */
static uint8_t* AvMakeFixed(struct AvInput* in, struct AvPrivate* priv, int64_t offset,
                            int64_t end, int64_t bits, int64_t dictionary_length,
                            const struct AvHint* hint) {
  enum AvMode mode = AvTakeMode(in, 0);
  int64_t size = AvSizeFor(end, bits);
  uint8_t* out;
  int64_t i;
  int64_t previous = 0;
  if (mode == AV_MODE_NULL) return NULL;
  out = AvAlloc(in, priv, size);
  if (out == NULL || size < 0) return out;
  if (mode == AV_MODE_RAW || (dictionary_length < 0 && hint->role != AV_ROLE_RUN_ENDS)) {
    AvCopy(in, out, size);
    return out;
  }
  for (i = 0; i < end; i++) {
    if (hint->role == AV_ROLE_RUN_ENDS) {
      previous += 1 + AvByte(in) % 4;
      if (i == end - 1 && i >= offset && previous < hint->target) previous = hint->target;
      AvStoreInt(out, i, bits, previous);
    } else {
      AvStoreInt(out, i, bits,
                 dictionary_length > 0 ? AvByte(in) % dictionary_length : 0);
    }
  }
  return out;
}

/* Offsets of [0, end]: non-decreasing small steps (clamped to limit when >= 0). */
static uint8_t* AvMakeOffsets(struct AvInput* in, struct AvPrivate* priv, int64_t end,
                              int64_t bits, int64_t max_step, int64_t limit) {
  enum AvMode mode = AvTakeMode(in, 0);
  int64_t size = end < 0 || end == INT64_MAX ? -1 : AvSizeFor(end + 1, bits);
  int64_t value;
  uint8_t* out;
  int64_t i;
  uint8_t b;
  if (mode == AV_MODE_NULL) return NULL;
  out = AvAlloc(in, priv, size);
  if (out == NULL || size < 0) return out;
  if (mode == AV_MODE_RAW) {
    AvCopy(in, out, size);
    return out;
  }
  b = AvByte(in);
  value = (b & 0x80) ? (b & 3) : 0;
  for (i = 0; i <= end; i++) {
    if (i > 0) value += AvByte(in) % max_step;
    if (limit >= 0 && value > limit) value = limit;
    AvStoreInt(out, i, bits, value);
  }
  return out;
}

/* ---- Building a node ---- */

static const struct AvSpec* AvPickSpec(struct AvInput* in, int depth, int leaf_only) {
  uint8_t b = AvByte(in);
  if (leaf_only || depth >= AV_MAX_DEPTH || in->n_nodes >= AV_MAX_NODES) {
    return &kAvSpecs[b % AV_N_LEAVES];
  }
  return &kAvSpecs[b % AV_N_SPECS];
}

static void AvBuildNode(struct AvInput* in, struct ArrowSchema* schema,
                        struct ArrowArray* array, int depth, const struct AvSpec* forced,
                        int leaf_only, struct AvHint hint);

static struct ArrowArray* AvNewArray(void) {
  struct ArrowArray* out = (struct ArrowArray*)malloc(sizeof(struct ArrowArray));
  FUZZ_CHECK(out != NULL);
  memset(out, 0, sizeof(struct ArrowArray));
  return out;
}

static void AvBuildChildren(struct AvInput* in, struct ArrowSchema* schema,
                            struct ArrowArray* array, int depth,
                            const struct AvSpec* spec, int64_t n_children, int64_t end) {
  struct AvHint child_hint;
  int64_t i;
  int64_t n;
  FUZZ_CHECK(ArrowSchemaAllocateChildren(schema, n_children) == NANOARROW_OK);
  for (int64_t child_i = 0; child_i < schema->n_children; child_i++) {
    ArrowSchemaInit(schema->children[child_i]);
  }
  array->children =
      (struct ArrowArray**)calloc((size_t)n_children, sizeof(struct ArrowArray*));
  FUZZ_CHECK(array->children != NULL);
  array->n_children = n_children;
  for (i = 0; i < n_children; i++) array->children[i] = AvNewArray();

  for (i = 0; i < n_children; i++) {
    const struct AvSpec* child_forced = NULL;
    int child_leaf_only = 0;
    struct AvSpec run_ends;
    child_hint.length = -1;
    child_hint.role = AV_ROLE_NONE;
    child_hint.target = -1;
    switch (spec->kind) {
      case AV_LIST:
        if (spec->storage == NANOARROW_TYPE_FIXED_SIZE_LIST && end >= 0 &&
            (spec->param == 0 || end <= AV_MAX_HINT / spec->param)) {
          child_hint.length = end * spec->param;
        }
        break;
      case AV_STRUCT:
        child_hint.length = end;
        child_leaf_only = spec == &kAvMapEntries && i == 0;
        break;
      case AV_MAP:
        child_forced = &kAvMapEntries;
        break;
      case AV_UNION:
        if (spec->storage == NANOARROW_TYPE_SPARSE_UNION) child_hint.length = end;
        break;
      case AV_REE:
        if (i == 0) {
          run_ends = kAvSpecs[0];
          run_ends.format = spec->child_format;
          run_ends.storage = spec->child_format[0] == 's'
                                 ? NANOARROW_TYPE_INT16
                                 : (spec->child_format[0] == 'i' ? NANOARROW_TYPE_INT32
                                                                 : NANOARROW_TYPE_INT64);
          run_ends.param = spec->child_format[0] == 's'
                               ? 16
                               : (spec->child_format[0] == 'i' ? 32 : 64);
          child_forced = &run_ends;
          child_hint.role = AV_ROLE_RUN_ENDS;
          child_hint.target = end;
        } else {
          n = array->children[0]->length;
          child_hint.length = n;
        }
        break;
      default:
        break;
    }
    /* ArrowSchemaAllocateChildren initialized the child: the build starts over. */
    ArrowSchemaRelease(schema->children[i]);
    AvBuildNode(in, schema->children[i], array->children[i], depth + 1, child_forced,
                child_leaf_only, child_hint);
    /* A map's entries and their keys are never nullable (the columnar spec). */
    if (spec->kind == AV_MAP || (spec == &kAvMapEntries && i == 0)) {
      schema->children[i]->flags &= ~(int64_t)ARROW_FLAG_NULLABLE;
    }
  }
}

/* Binary and string views: [validity, views, variadic..., sizes]. */
static int64_t AvMakeViews(struct AvInput* in, struct AvPrivate* priv,
                           const void** buffers, int64_t n_variadic, int64_t offset,
                           int64_t end, int64_t* null_count) {
  enum AvMode sizes_mode = AvTakeMode(in, 0);
  enum AvMode views_mode;
  int64_t sizes[3] = {0, 0, 0};
  int64_t available[3] = {0, 0, 0};
  int64_t* sizes_buffer = NULL;
  int64_t size;
  int64_t i;
  uint8_t* views;

  if (sizes_mode != AV_MODE_NULL) {
    sizes_buffer = (int64_t*)AvAlloc(in, priv, n_variadic * 8);
  }
  for (i = 0; i < n_variadic; i++) {
    sizes[i] = sizes_mode == AV_MODE_RAW ? (int64_t)AvUInt(in, 8) : AvByte(in) % 48;
    if (sizes_buffer != NULL) memcpy(sizes_buffer + i, &sizes[i], 8);
  }
  for (i = 0; i < n_variadic; i++) {
    enum AvMode mode = AvTakeMode(in, 0);
    uint8_t* data = NULL;
    if (mode != AV_MODE_NULL && sizes[i] >= 0) data = AvAlloc(in, priv, sizes[i]);
    if (data != NULL) {
      AvFillBytes(in, data, sizes[i], mode);
      available[i] = sizes[i];
    }
    buffers[2 + i] = data;
  }
  buffers[2 + n_variadic] = sizes_buffer;

  buffers[0] = AvMakeValidity(in, priv, offset, end, 0, null_count);

  views_mode = AvTakeMode(in, 0);
  size = AvSizeFor(end, 128);
  views = views_mode == AV_MODE_NULL ? NULL : AvAlloc(in, priv, size);
  buffers[1] = views;
  if (views == NULL || size < 0) return 3 + n_variadic;
  if (views_mode == AV_MODE_RAW) {
    AvCopy(in, views, size);
    return 3 + n_variadic;
  }
  for (i = 0; i < end; i++) {
    union ArrowBinaryView view;
    uint8_t b = AvByte(in);
    memset(&view, 0, sizeof(view));
    if (n_variadic == 0 || (b & 1)) {
      view.inlined.size = (int32_t)((b >> 1) % (NANOARROW_BINARY_VIEW_INLINE_SIZE + 1));
      AvFillBytes(in, (uint8_t*)view.inlined.data, view.inlined.size,
                  (b & 0x80) ? AV_MODE_RAW : AV_MODE_GENERATED);
    } else {
      int32_t buffer_index = (int32_t)(AvByte(in) % n_variadic);
      int64_t buffer_size = available[buffer_index];
      int64_t view_size = NANOARROW_BINARY_VIEW_INLINE_SIZE + 1 + AvByte(in) % 20;
      if (view_size > buffer_size) view_size = buffer_size;
      view.ref.size = (int32_t)view_size;
      view.ref.buffer_index = buffer_index;
      view.ref.offset = (int32_t)(AvByte(in) % (buffer_size - view_size + 1));
      if (view_size > NANOARROW_BINARY_VIEW_INLINE_SIZE) {
        memcpy(view.ref.prefix,
               (const uint8_t*)buffers[2 + buffer_index] + view.ref.offset,
               NANOARROW_BINARY_VIEW_PREFIX_SIZE);
      }
    }
    memcpy(views + i * 16, &view, 16);
  }
  return 3 + n_variadic;
}

/* Fills buffers[] for the node's layout; returns how many a producer passes. */
static int64_t AvMakeBuffers(struct AvInput* in, struct AvPrivate* priv,
                             const struct AvSpec* spec, struct ArrowArray* array,
                             int64_t n_variadic, const struct AvHint* hint,
                             const void** buffers, int64_t* null_count) {
  int64_t offset = array->offset;
  int64_t length = array->length;
  int64_t end = -1;
  int64_t limit;
  int64_t i;
  int64_t last;
  int64_t data_size;
  uint8_t* data;
  const uint8_t* offsets;
  uint8_t* type_ids;
  uint8_t* union_offsets;
  enum AvMode mode;

  if (length >= 0 && offset >= 0 && offset <= INT64_MAX - length) end = offset + length;
  *null_count = 0;

  switch (spec->storage) {
    case NANOARROW_TYPE_NA:
      *null_count = length;
      return 0;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return 0;
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      buffers[0] = AvMakeValidity(in, priv, offset, end, 0, null_count);
      return 1;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      buffers[0] = AvMakeValidity(in, priv, offset, end, 0, null_count);
      limit = array->children[0]->length < 0 ? 0 : array->children[0]->length;
      buffers[1] = AvMakeOffsets(in, priv, end, spec->param, 3, limit);
      return 2;
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW: {
      enum AvMode offsets_mode;
      enum AvMode sizes_mode;
      int64_t size = AvSizeFor(end, spec->param);
      uint8_t* view_offsets = NULL;
      uint8_t* view_sizes = NULL;
      buffers[0] = AvMakeValidity(in, priv, offset, end, 0, null_count);
      limit = array->children[0]->length < 0 ? 0 : array->children[0]->length;
      if (limit > AV_MAX_HINT) limit = AV_MAX_HINT;
      offsets_mode = AvTakeMode(in, 0);
      sizes_mode = AvTakeMode(in, 0);
      if (offsets_mode != AV_MODE_NULL) view_offsets = AvAlloc(in, priv, size);
      if (sizes_mode != AV_MODE_NULL) view_sizes = AvAlloc(in, priv, size);
      buffers[1] = view_offsets;
      buffers[2] = view_sizes;
      if (size < 0 || (view_offsets == NULL && view_sizes == NULL)) return 3;
      for (i = 0; i < end; i++) {
        int64_t start = AvByte(in) % (limit + 1);
        int64_t count = AvByte(in) % (limit - start + 1);
        if (view_offsets != NULL) {
          if (offsets_mode == AV_MODE_RAW) {
            AvCopy(in, view_offsets + i * (spec->param / 8), spec->param / 8);
          } else {
            AvStoreInt(view_offsets, i, spec->param, start);
          }
        }
        if (view_sizes != NULL) {
          if (sizes_mode == AV_MODE_RAW) {
            AvCopy(in, view_sizes + i * (spec->param / 8), spec->param / 8);
          } else {
            AvStoreInt(view_sizes, i, spec->param, count);
          }
        }
      }
      return 3;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      mode = AvTakeMode(in, 0);
      type_ids = mode == AV_MODE_NULL ? NULL : AvAlloc(in, priv, end < 0 ? -1 : end);
      if (type_ids != NULL && end >= 0) {
        for (i = 0; i < end; i++) {
          if (mode == AV_MODE_RAW || spec->n_type_ids == 0) {
            type_ids[i] = AvByte(in);
          } else {
            type_ids[i] = (uint8_t)spec->type_ids[AvByte(in) % spec->n_type_ids];
          }
        }
      }
      buffers[0] = type_ids;
      if (spec->storage == NANOARROW_TYPE_SPARSE_UNION) return 1;
      mode = AvTakeMode(in, 0);
      data_size = AvSizeFor(end, 32);
      union_offsets = mode == AV_MODE_NULL ? NULL : AvAlloc(in, priv, data_size);
      buffers[1] = union_offsets;
      if (union_offsets == NULL || data_size < 0) return 2;
      for (i = 0; i < end; i++) {
        int64_t child_length = 0;
        int k;
        if (mode == AV_MODE_RAW || type_ids == NULL) {
          AvCopy(in, union_offsets + i * 4, 4);
          continue;
        }
        for (k = 0; k < spec->n_type_ids; k++) {
          if ((int8_t)type_ids[i] == spec->type_ids[k]) {
            child_length = array->children[k]->length;
          }
        }
        AvStoreInt(
            union_offsets, i, 32,
            child_length > 0 ? (int64_t)(AvUInt(in, 2) % (uint64_t)child_length) : 0);
      }
      return 2;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
      buffers[0] = AvMakeValidity(in, priv, offset, end, 0, null_count);
      offsets = AvMakeOffsets(in, priv, end, spec->param, 8, -1);
      buffers[1] = offsets;
      /* The data a producer allocates: up to the last offset it wrote. */
      last = 0;
      if (offsets != NULL && end >= 0 && end < INT64_MAX &&
          AvSizeFor(end + 1, spec->param) >= 0) {
        last = AvLoadInt(offsets, end, spec->param);
      }
      data_size = last < 0 ? 0 : last;
      mode = AvTakeMode(in, 0);
      data = mode == AV_MODE_NULL ? NULL : AvAlloc(in, priv, data_size);
      if (data != NULL) AvFillBytes(in, data, data_size, mode);
      buffers[2] = data;
      return 3;
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
      return AvMakeViews(in, priv, buffers, n_variadic, offset, end, null_count);
    default:
      /* Fixed width (and dictionary indices). */
      buffers[0] = AvMakeValidity(in, priv, offset, end, hint->role == AV_ROLE_RUN_ENDS,
                                  null_count);
      buffers[1] =
          AvMakeFixed(in, priv, offset, end, spec->param,
                      array->dictionary != NULL ? array->dictionary->length : -1, hint);
      return 2;
  }
}

static void AvBuildNode(struct AvInput* in, struct ArrowSchema* schema,
                        struct ArrowArray* array, int depth, const struct AvSpec* forced,
                        int leaf_only, struct AvHint hint) {
  const struct AvSpec* spec = forced != NULL ? forced : AvPickSpec(in, depth, leaf_only);
  struct AvPrivate* priv = (struct AvPrivate*)calloc(1, sizeof(struct AvPrivate));
  const void* buffers[3 + 3 + 2];
  int64_t n_children = 0;
  int64_t n_variadic = 0;
  int64_t n_buffers;
  int64_t exact_null_count;
  int64_t end;
  int64_t i;
  uint8_t flags;
  uint8_t b;
  int null_buffers = 0;

  FUZZ_CHECK(priv != NULL);
  memset(array, 0, sizeof(struct ArrowArray));
  memset(buffers, 0, sizeof(buffers));
  array->private_data = priv;
  array->release = &AvRelease;
  ArrowSchemaInit(schema);
  FUZZ_CHECK(ArrowSchemaSetFormat(schema, spec->format) == NANOARROW_OK);
  in->n_nodes++;

  switch (spec->kind) {
    case AV_LIST:
    case AV_MAP:
      n_children = 1;
      break;
    case AV_STRUCT:
      n_children = spec == &kAvMapEntries ? 2 : AvByte(in) % 4;
      break;
    case AV_UNION:
      n_children = spec->n_type_ids;
      break;
    case AV_REE:
      n_children = 2;
      break;
    default:
      break;
  }
  if (spec->storage == NANOARROW_TYPE_STRING_VIEW ||
      spec->storage == NANOARROW_TYPE_BINARY_VIEW) {
    n_variadic = AvByte(in) % 4;
  }

  flags = AvByte(in);
  array->length = AvTakeLength(in, hint.length, (flags & 0x1C) == 0x1C);
  array->offset = AvTakeOffset(in, (flags & 0x1C) == 0x1C);
  end = -1;
  if (array->length >= 0 && array->offset >= 0 &&
      array->offset <= INT64_MAX - array->length) {
    end = array->offset + array->length;
  }

  if (n_children > 0) {
    AvBuildChildren(in, schema, array, depth, spec, n_children, end);
  }
  if (spec->kind == AV_DICT) {
    struct AvHint dictionary_hint = {-1, AV_ROLE_NONE, -1};
    FUZZ_CHECK(ArrowSchemaAllocateDictionary(schema) == NANOARROW_OK);
    ArrowSchemaInit(schema->dictionary);
    ArrowSchemaRelease(schema->dictionary);
    array->dictionary = AvNewArray();
    AvBuildNode(in, schema->dictionary, array->dictionary, depth + 1, NULL, 0,
                dictionary_hint);
  }

  n_buffers =
      AvMakeBuffers(in, priv, spec, array, n_variadic, &hint, buffers, &exact_null_count);

  switch (flags & 3) {
    case 1:
      array->null_count = -1;
      break;
    case 3:
      switch (AvByte(in) % 6) {
        case 0:
          array->null_count = (int64_t)((uint64_t)exact_null_count + 1);
          break;
        case 1:
          array->null_count = (int64_t)((uint64_t)exact_null_count - 1);
          break;
        case 2:
          array->null_count = -2;
          break;
        case 3:
          array->null_count = array->length;
          break;
        case 4:
          array->null_count = (int64_t)((uint64_t)array->length + 1);
          break;
        default:
          array->null_count = INT64_MIN;
          break;
      }
      break;
    default:
      array->null_count = exact_null_count;
      break;
  }

  /* A NULL buffers array, or a wrong buffer count (extra entries are dummies).
   * Binary views cannot be given fewer buffers undetectably (the last one is the
   * sizes buffer), only fewer than 3. */
  array->n_buffers = n_buffers;
  if ((flags & 0xE0) == 0xE0) {
    b = AvByte(in);
    if ((b & 6) == 6) {
      null_buffers = 1;
    } else if (spec->storage == NANOARROW_TYPE_STRING_VIEW ||
               spec->storage == NANOARROW_TYPE_BINARY_VIEW) {
      array->n_buffers = b % 3;
    } else {
      array->n_buffers = (b & 1) ? n_buffers + 1 : (n_buffers > 0 ? n_buffers - 1 : 1);
    }
  }
  if (array->n_buffers > 0 && !null_buffers) {
    const void** out = (const void**)malloc((size_t)array->n_buffers * sizeof(void*));
    FUZZ_CHECK(out != NULL);
    for (i = 0; i < array->n_buffers; i++) {
      out[i] = i < n_buffers ? buffers[i] : AvAlloc(in, priv, 16);
    }
    array->buffers = out;
  }
}

/* ---- Reading a validated array ---- */

static void AvTouchChildElement(const struct ArrowArrayView* child, int64_t k) {
  FUZZ_CHECK(k >= 0 && k < child->length);
  fuzz_sink += (uint64_t)ArrowArrayViewIsNull(child, k);
  FuzzTouchElement(child, k);
}

/* Every numeric getter on every numeric type (on floating point values the
 * integer getters saturate, and NaN reads as 0). */
static void AvTouchNumeric(const struct ArrowArrayView* view, int64_t i) {
  double value;
  switch (view->storage_type) {
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      value = ArrowArrayViewGetDoubleUnsafe(view, i);
      fuzz_sink += (uint64_t)(value == value);
      fuzz_sink += (uint64_t)ArrowArrayViewGetIntUnsafe(view, i);
      fuzz_sink += ArrowArrayViewGetUIntUnsafe(view, i);
      break;
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      fuzz_sink += (uint64_t)ArrowArrayViewGetIntUnsafe(view, i) +
                   ArrowArrayViewGetUIntUnsafe(view, i) +
                   (ArrowArrayViewGetDoubleUnsafe(view, i) != 0.0);
      break;
    default:
      break;
  }
}

/* Elements beyond the first and last FUZZ_TOUCH_EDGE of a long array are skipped
 * (arrays without buffers may be that long). */
static void AvWalk(const struct ArrowArrayView* view, int depth) {
  int sampled = view->length > 4 * FUZZ_TOUCH_EDGE;
  int64_t i;
  int64_t k;
  FUZZ_CHECK(depth <= NANOARROW_MAX_NESTING_DEPTH);

  for (i = 0; i < view->length; i++) {
    int64_t j = view->offset + i;
    int64_t start;
    int64_t end;
    int8_t is_null;
    struct ArrowStringView string;
    if (sampled && i == FUZZ_TOUCH_EDGE) i = view->length - FUZZ_TOUCH_EDGE;
    j = view->offset + i;
    is_null = ArrowArrayViewIsNull(view, i);
    AvTouchNumeric(view, i);

    switch (view->storage_type) {
      case NANOARROW_TYPE_STRING:
      case NANOARROW_TYPE_LARGE_STRING:
      case NANOARROW_TYPE_STRING_VIEW:
        string = ArrowArrayViewGetStringUnsafe(view, i);
        FuzzTouchBytes(string.data, string.size_bytes);
        break;
      case NANOARROW_TYPE_LIST:
      case NANOARROW_TYPE_LARGE_LIST:
      case NANOARROW_TYPE_MAP:
        start = ArrowArrayViewListChildOffset(view, j);
        end = ArrowArrayViewListChildOffset(view, j + 1);
        FUZZ_CHECK(start >= 0 && start <= end && end <= view->children[0]->length);
        if (end > start) {
          AvTouchChildElement(view->children[0], start);
          AvTouchChildElement(view->children[0], end - 1);
        }
        break;
      case NANOARROW_TYPE_LIST_VIEW:
      case NANOARROW_TYPE_LARGE_LIST_VIEW:
        if (view->storage_type == NANOARROW_TYPE_LIST_VIEW) {
          start = view->buffer_views[1].data.as_int32[j];
          end = start + view->buffer_views[2].data.as_int32[j];
        } else {
          start = view->buffer_views[1].data.as_int64[j];
          end = view->buffer_views[2].data.as_int64[j];
          FUZZ_CHECK(start >= 0 && end >= 0 && end <= view->children[0]->length - start);
          end += start;
        }
        FUZZ_CHECK(start >= 0 && start <= end && end <= view->children[0]->length);
        if (end > start) {
          AvTouchChildElement(view->children[0], start);
          AvTouchChildElement(view->children[0], end - 1);
        }
        break;
      case NANOARROW_TYPE_FIXED_SIZE_LIST:
        k = view->layout.child_size_elements;
        if (k > 0) {
          AvTouchChildElement(view->children[0], j * k);
          AvTouchChildElement(view->children[0], j * k + k - 1);
        }
        break;
      case NANOARROW_TYPE_STRUCT:
        for (k = 0; k < view->n_children; k++) AvTouchChildElement(view->children[k], j);
        break;
      case NANOARROW_TYPE_SPARSE_UNION:
      case NANOARROW_TYPE_DENSE_UNION: {
        int8_t child_index = ArrowArrayViewUnionChildIndex(view, i);
        int8_t type_id = ArrowArrayViewUnionTypeId(view, i);
        FUZZ_CHECK(child_index >= 0 && child_index < view->n_children);
        FUZZ_CHECK(view->union_type_id_map == NULL ||
                   view->union_type_id_map[128 + child_index] == type_id);
        AvTouchChildElement(view->children[child_index],
                            ArrowArrayViewUnionChildOffset(view, i));
        break;
      }
      case NANOARROW_TYPE_RUN_END_ENCODED:
        k = ArrowArrayViewPrivateRunIndex(view->children[0], j);
        FUZZ_CHECK(k < view->children[0]->length);
        AvTouchChildElement(view->children[1], k);
        break;
      default:
        break;
    }

    if (view->dictionary != NULL && !is_null) {
      k = ArrowArrayViewGetIntUnsafe(view, i);
      AvTouchChildElement(view->dictionary, k);
    }
  }

  for (k = 0; k < view->n_children; k++) AvWalk(view->children[k], depth + 1);
  if (view->dictionary != NULL) AvWalk(view->dictionary, depth + 1);
}

/* What SetArray (DEFAULT) promises: every buffer view is readable to its size. */
static void AvTouchBuffers(const struct ArrowArrayView* view, int depth) {
  /* The buffer getters take a non-const view (as nanoarrow's do); they only read. */
  struct ArrowArrayView* readable = (struct ArrowArrayView*)view;
  int64_t n_buffers = ArrowArrayViewGetNumBuffers(readable);
  int64_t null_count;
  int64_t i;
  FUZZ_CHECK(depth <= NANOARROW_MAX_NESTING_DEPTH);
  for (i = 0; i < n_buffers; i++) {
    struct ArrowBufferView buffer = ArrowArrayViewGetBufferView(readable, i);
    FUZZ_CHECK(buffer.size_bytes >= 0);
    FuzzTouchBytes(buffer.data.data, buffer.size_bytes);
    fuzz_sink += (uint64_t)ArrowArrayViewGetBufferType(readable, i) +
                 (uint64_t)ArrowArrayViewGetBufferDataType(readable, i) +
                 (uint64_t)ArrowArrayViewGetBufferElementSizeBits(readable, i);
  }
  null_count = ArrowArrayViewComputeNullCount(view);
  FUZZ_CHECK(null_count >= 0 && null_count <= view->length);
  for (i = 0; i < view->n_children; i++) AvTouchBuffers(view->children[i], depth + 1);
  if (view->dictionary != NULL) AvTouchBuffers(view->dictionary, depth + 1);
}

/* An upper bound on the work of comparing n elements (the comparison of list views
 * and dense unions recurses per element): skip comparisons that would time out. */
static double AvCompareCost(const struct ArrowArrayView* view, double n, int depth) {
  /* Wide fixed-size elements count by their bytes (one unit per 16): appending a
   * union element materializes empty elements in children the source never filled
   * (a dense union's first child), each 2^31 - 1 bytes for the widest binary. */
  double cost = n + 1 + n * (double)(view->layout.element_size_bits[1] / 8 / 16);
  double sizes = 0;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return cost;
  switch (view->storage_type) {
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      cost +=
          AvCompareCost(view->children[0], (double)view->children[0]->length, depth + 1);
      break;
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      for (i = 0; i < view->length; i++) {
        sizes += view->storage_type == NANOARROW_TYPE_LIST_VIEW
                     ? (double)view->buffer_views[2].data.as_int32[view->offset + i]
                     : (double)view->buffer_views[2].data.as_int64[view->offset + i];
      }
      cost += n * AvCompareCost(view->children[0], 0, depth + 1) +
              AvCompareCost(view->children[0], sizes, depth + 1);
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      cost += AvCompareCost(view->children[0],
                            n * (double)view->layout.child_size_elements, depth + 1);
      break;
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_SPARSE_UNION:
      for (i = 0; i < view->n_children; i++) {
        cost += AvCompareCost(view->children[i], n, depth + 1);
      }
      break;
    case NANOARROW_TYPE_DENSE_UNION:
      for (i = 0; i < view->n_children; i++) {
        cost += n * AvCompareCost(view->children[i], 1, depth + 1);
      }
      break;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      for (i = 0; i < view->n_children; i++) {
        cost += AvCompareCost(view->children[i], (double)view->children[i]->length,
                              depth + 1);
      }
      break;
    default:
      break;
  }
  if (view->dictionary != NULL) {
    cost += AvCompareCost(view->dictionary, (double)view->dictionary->length, depth + 1);
  }
  return cost;
}

static void AvExpectEqual(const struct ArrowArrayView* actual,
                          const struct ArrowArrayView* expected,
                          enum ArrowCompareLevel level) {
  struct ArrowError reason;
  int equal = 0;
  ArrowErrorInit(&reason);
  FUZZ_CHECK(ArrowArrayViewCompare(actual, expected, level, &equal, &reason) ==
             NANOARROW_OK);
  if (!equal) {
    fprintf(stderr, "views differ: %s\n", ArrowErrorMessage(&reason));
    abort();
  }
}

/* A FULL-valid array: read all of it, compare it with itself and with a copy. */
static void AvCheckValid(const struct ArrowSchema* schema, const struct ArrowArray* array,
                         struct ArrowArrayView* view) {
  struct ArrowError error;
  struct ArrowArray copy;
  struct ArrowArrayView copy_view;
  int cheap = AvCompareCost(view, (double)view->length, 0) <= AV_MAX_COMPARE_COST;

  FuzzTouchArrayView(view, 0);
  AvWalk(view, 0);
  if (cheap) AvExpectEqual(view, view, NANOARROW_COMPARE_IDENTICAL);

  ArrowErrorInit(&error);
  if (ArrowArrayInitFromArrayView(&copy, view, &error) != NANOARROW_OK) {
    FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
    return;
  }
  FUZZ_CHECK(ArrowArrayViewInitFromSchema(&copy_view, schema, &error) == NANOARROW_OK);
  if (ArrowArrayViewSetArray(&copy_view, &copy, &error) != NANOARROW_OK ||
      ArrowArrayViewValidate(&copy_view, NANOARROW_VALIDATION_LEVEL_FULL, &error) !=
          NANOARROW_OK) {
    fprintf(stderr, "the copy of a valid array is invalid: %s\n",
            ArrowErrorMessage(&error));
    abort();
  }
  AvTouchBuffers(&copy_view, 0);
  /* The copy's empty data buffers are NULL (ArrowBuffer does not allocate for 0
   * bytes); reading them is covered too. */
  FuzzTouchArrayView(&copy_view, 0);
  /* The copy holds the same values (its null_count and empty buffers may differ,
   * so it need not be byte-identical): compared by the testing library when it is
   * linked in. */
#if defined(NANOARROW_TEST_HAVE_TESTING)
  if (cheap) {
    int equal = 0;
    FUZZ_CHECK(ArrowTestingCompareArray(schema, &copy, array, &equal, &error) ==
               NANOARROW_OK);
    if (!equal) {
      fprintf(stderr, "the copy holds other values: %s\n", ArrowErrorMessage(&error));
      abort();
    }
  }
#else
  (void)array;
#endif
  ArrowArrayViewReset(&copy_view);
  ArrowArrayRelease(&copy);
}

#if defined(NANOARROW_WITH_ARRAY_APPEND_VIEW)
static int AvHasDictionary(const struct ArrowSchema* schema) {
  int64_t i;
  if (schema->dictionary != NULL) return 1;
  for (i = 0; i < schema->n_children; i++) {
    if (AvHasDictionary(schema->children[i])) return 1;
  }
  return 0;
}

/* ArrowArrayAppendArrayView() of a view set at DEFAULT level into an empty array of the
 * same schema: never a crash or a silent failure; a view valid at FULL level must be
 * appended whole and the result must build at FULL level (DEFAULT when the tree has
 * dictionaries: they stay empty while the indices are appended). */
static void AvCheckAppend(const struct ArrowSchema* schema,
                          const struct ArrowArrayView* view, int full_ok) {
  struct ArrowArray appended;
  struct ArrowError error;
  int rc;
  if (AvCompareCost(view, (double)view->length, 0) > AV_MAX_COMPARE_COST) return;
  ArrowErrorInit(&error);
  if (ArrowArrayInitFromSchema(&appended, schema, &error) != NANOARROW_OK) return;
  /* Unions whose type ids are not their child indices cannot be built. */
  if (ArrowArrayStartAppending(&appended) != NANOARROW_OK) {
    ArrowArrayRelease(&appended);
    return;
  }
  rc = ArrowArrayAppendArrayView(&appended, view, &error);
  if (rc != NANOARROW_OK) {
    FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
    if (full_ok) {
      fprintf(stderr, "appending a valid view failed: %s\n", ArrowErrorMessage(&error));
      abort();
    }
  } else if (full_ok) {
    FUZZ_CHECK(appended.length == view->length);
    enum ArrowValidationLevel level = AvHasDictionary(schema)
                                          ? NANOARROW_VALIDATION_LEVEL_DEFAULT
                                          : NANOARROW_VALIDATION_LEVEL_FULL;
    if (ArrowArrayFinishBuilding(&appended, level, &error) != NANOARROW_OK) {
      fprintf(stderr, "the appended copy of a valid view is invalid: %s\n",
              ArrowErrorMessage(&error));
      abort();
    }
  }
  ArrowArrayRelease(&appended);
}
#else
static void AvCheckAppend(const struct ArrowSchema* schema,
                          const struct ArrowArrayView* view, int full_ok) {
  (void)schema;
  (void)view;
  (void)full_ok;
}
#endif

static void AvCheck(const struct ArrowSchema* schema, const struct ArrowArray* array) {
  struct ArrowArrayView view;
  struct ArrowArrayView minimal_view;
  struct ArrowError error;
  int set_ok;
  int full_ok = 0;
  int minimal_ok;

  ArrowErrorInit(&error);
  FUZZ_CHECK(ArrowArrayViewInitFromSchema(&view, schema, &error) == NANOARROW_OK);
  set_ok = ArrowArrayViewSetArray(&view, array, &error) == NANOARROW_OK;
  if (!set_ok) {
    FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
  } else {
    AvTouchBuffers(&view, 0);
    ArrowErrorInit(&error);
    full_ok = ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error) ==
              NANOARROW_OK;
    if (!full_ok) {
      FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
    } else {
      FUZZ_CHECK(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error) ==
                 NANOARROW_OK);
      AvCheckValid(schema, array, &view);
    }
    AvCheckAppend(schema, &view, full_ok);
  }
  ArrowArrayViewReset(&view);

  /* MINIMAL, then the remaining levels on the same view, then SetArray again on it:
   * the same verdicts as above. */
  ArrowErrorInit(&error);
  FUZZ_CHECK(ArrowArrayViewInitFromSchema(&minimal_view, schema, &error) == NANOARROW_OK);
  minimal_ok =
      ArrowArrayViewSetArrayMinimal(&minimal_view, array, &error) == NANOARROW_OK;
  if (!minimal_ok) FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
  FUZZ_CHECK(minimal_ok || !set_ok);
  if (minimal_ok) {
    ArrowErrorInit(&error);
    FUZZ_CHECK(ArrowArrayViewValidate(&minimal_view, NANOARROW_VALIDATION_LEVEL_NONE,
                                      &error) == NANOARROW_OK);
    FUZZ_CHECK(ArrowArrayViewValidate(&minimal_view, (enum ArrowValidationLevel)42,
                                      &error) != NANOARROW_OK);
    FUZZ_CHECK(ArrowErrorMessage(&error)[0] != '\0');
    FUZZ_CHECK(ArrowArrayViewValidate(&minimal_view, NANOARROW_VALIDATION_LEVEL_MINIMAL,
                                      &error) == NANOARROW_OK);
    FUZZ_CHECK((ArrowArrayViewValidate(&minimal_view, NANOARROW_VALIDATION_LEVEL_DEFAULT,
                                       &error) == NANOARROW_OK) == set_ok);
    FUZZ_CHECK((ArrowArrayViewValidate(&minimal_view, NANOARROW_VALIDATION_LEVEL_FULL,
                                       &error) == NANOARROW_OK) == full_ok);
  }
  ArrowErrorInit(&error);
  FUZZ_CHECK((ArrowArrayViewSetArray(&minimal_view, array, &error) == NANOARROW_OK) ==
             set_ok);
  if (set_ok) {
    FUZZ_CHECK((ArrowArrayViewValidate(&minimal_view, NANOARROW_VALIDATION_LEVEL_FULL,
                                       &error) == NANOARROW_OK) == full_ok);
  }
  ArrowArrayViewReset(&minimal_view);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct AvInput in;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct AvHint hint = {-1, AV_ROLE_NONE, -1};

  in.data = data;
  in.size = size;
  in.n_nodes = 0;
  in.budget = AV_BUDGET;
  AvBuildNode(&in, &schema, &array, 0, NULL, 0, hint);

  AvCheck(&schema, &array);

  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return 0;
}
