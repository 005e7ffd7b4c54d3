/* Building, copying, releasing and printing ArrowSchema trees.
 *
 * A schema produced here owns its format, name and metadata (ArrowMalloc'ed copies),
 * its children and its dictionary struct. Wide schemas stay cheap to build and
 * release because:
 * - the formats of parameterless types point into one static string table (never
 *   freed; nothing may write through schema->format anyway);
 * - each child struct is its own ArrowMalloc'ed block, as nanoarrow documents, so a
 *   consumer may ArrowFree() a child and replace the pointer;
 * - ArrowPrivateSchemaSetChildNames() (for decoders building wide schemas) copies the
 *   names of a schema's children into one allocation, which each named child holds a
 *   reference to (its private_data), so a child moved out keeps its name alive.
 * The setters refuse schemas whose release callback is not ours, since they would
 * otherwise free memory that somebody else owns. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "common/allocation_private.h"

/* Formats of the types that take no parameters, then the formats and child names the
 * type setters use, NUL-separated; kStaticFormatOffset and kStatic* below index it.
 * A schema string pointing in here is shared, never copied or freed. */
static const char kStaticFormats[] =
    "n\0b\0c\0C\0s\0S\0i\0I\0l\0L\0e\0f\0g\0u\0U\0vu\0z\0Z\0vz\0tdD\0tdm\0tiM\0tiD\0"
    "tin\0+l\0+L\0+vl\0+vL\0+s\0+m\0+r\0item\0entries\0key\0value\0run_ends\0values";

#define kStaticRunEndEncoded (kStaticFormats + 80)
#define kStaticItem (kStaticFormats + 83)
#define kStaticEntries (kStaticFormats + 88)
#define kStaticKey (kStaticFormats + 96)
#define kStaticValue (kStaticFormats + 100)
#define kStaticRunEnds (kStaticFormats + 106)
#define kStaticValues (kStaticFormats + 115)

static int IsStaticFormat(const char* value) {
  return (uintptr_t)value - (uintptr_t)kStaticFormats < sizeof(kStaticFormats);
}

#if defined(NANOARROW_NAMESPACE)
#define ArrowPrivateSchemaSetChildNames NANOARROW_SYMBOL(ArrowPrivateSchemaSetChildNames)
#endif

/* Declared here and in src/ipc/ipc_private.h (its only caller). */
ArrowErrorCode ArrowPrivateSchemaSetChildNames(
    struct ArrowSchema* schema,
    void (*name_at)(const void* context, int64_t i, struct ArrowStringView* out),
    const void* context);

/* The names of a schema's children, NUL-terminated one after the other after this
 * header. One reference per child naming into it (freed with the last). */
struct SchemaNames {
  long refcount;
  int64_t size_bytes;
};

/* Children may be released on different threads. */
#if defined(__GNUC__) || defined(__clang__)
static int SchemaNamesDrop(struct SchemaNames* names, long n) {
  return __atomic_sub_fetch(&names->refcount, n, __ATOMIC_ACQ_REL) == 0;
}
#else
static int SchemaNamesDrop(struct SchemaNames* names, long n) {
  return (names->refcount -= n) == 0;
}
#endif

static int IsSharedName(const struct ArrowSchema* schema, const char* value) {
  const struct SchemaNames* names = (const struct SchemaNames*)schema->private_data;
  return names != NULL && (uintptr_t)value - (uintptr_t)(names + 1) <
                              (uintptr_t)names->size_bytes;
}

/* Frees a string owned by schema (not a static or shared one). */
static void FreeSchemaString(const struct ArrowSchema* schema, const char* value) {
  if (value != NULL && !IsStaticFormat(value) && !IsSharedName(schema, value)) {
    ArrowFree((void*)value);
  }
}

/* Frees structs chained through their private_data. */
static void FreeSchemaChain(struct ArrowSchema* chain) {
  while (chain != NULL) {
    struct ArrowSchema* next = (struct ArrowSchema*)chain->private_data;
    ArrowFree(chain);
    chain = next;
  }
}

static void ArrowSchemaReleaseInternal(struct ArrowSchema* schema);

/* Releases schema, except for its reference on its shared names (returned). */
static struct SchemaNames* ReleaseKeepingNames(struct ArrowSchema* schema) {
  FreeSchemaString(schema, schema->format);
  FreeSchemaString(schema, schema->name);
  if (schema->metadata != NULL) {
    ArrowFree((void*)schema->metadata);
  }

  if (schema->children != NULL) {
    /* Children naming into the same block drop their references at once. */
    struct ArrowSchema* freed = NULL;
    struct SchemaNames* pending = NULL;
    long n_pending = 0;
    for (int64_t i = 0; i < schema->n_children; i++) {
      struct ArrowSchema* child = schema->children[i];
      if (child == NULL) {
        continue;
      }
      if (child->release == &ArrowSchemaReleaseInternal) {
        struct SchemaNames* names;
        if (child->children == NULL && child->dictionary == NULL &&
            child->metadata == NULL) {
          /* A leaf (a wide schema's column) owns only its strings: no call. */
          FreeSchemaString(child, child->format);
          FreeSchemaString(child, child->name);
          child->release = NULL;
          names = (struct SchemaNames*)child->private_data;
        } else {
          names = ReleaseKeepingNames(child);
        }
        if (names != pending) {
          if (pending != NULL && SchemaNamesDrop(pending, n_pending)) {
            ArrowFree(pending);
          }
          pending = names;
          n_pending = 0;
        }
        n_pending++;
      } else if (child->release != NULL) {
        child->release(child);
      }
      /* Released: the struct now only links the ones to free below. */
      child->private_data = freed;
      freed = child;
    }
    if (pending != NULL && SchemaNamesDrop(pending, n_pending)) {
      ArrowFree(pending);
    }
    /* The (large) pointer array goes first, then the small structs: allocators such
     * as glibc's tidy up their free lists when a large block is freed, which is
     * cheap before the structs join those lists and costly after. */
    ArrowFree(schema->children);
    FreeSchemaChain(freed);
  }

  if (schema->dictionary != NULL) {
    if (schema->dictionary->release != NULL) {
      schema->dictionary->release(schema->dictionary);
    }
    ArrowFree(schema->dictionary);
  }

  schema->release = NULL;
  return (struct SchemaNames*)schema->private_data;
}

static void ArrowSchemaReleaseInternal(struct ArrowSchema* schema) {
  struct SchemaNames* names = ReleaseKeepingNames(schema);
  if (names != NULL && SchemaNamesDrop(names, 1)) {
    ArrowFree(names);
  }
}

static int IsOwnSchema(const struct ArrowSchema* schema) {
  return schema != NULL && schema->release == &ArrowSchemaReleaseInternal;
}

void ArrowSchemaInit(struct ArrowSchema* schema) {
  schema->format = NULL;
  schema->name = NULL;
  schema->metadata = NULL;
  schema->flags = ARROW_FLAG_NULLABLE;
  schema->n_children = 0;
  schema->children = NULL;
  schema->dictionary = NULL;
  schema->private_data = NULL;
  schema->release = &ArrowSchemaReleaseInternal;
}

/* Replaces *slot with a copy of value (or NULL). Shared by the setters rather than
 * inlined into each, to keep the library small. */
static NANOARROW_NOINLINE ArrowErrorCode ReplaceString(const struct ArrowSchema* schema,
                                                       const char** slot,
                                                       const char* value) {
  char* copy = NULL;
  if (value != NULL) {
    size_t size = strlen(value) + 1;
    copy = (char*)ArrowMalloc((int64_t)size);
    if (copy == NULL) {
      return ENOMEM;
    }
    memcpy(copy, value, size);
  }
  FreeSchemaString(schema, *slot);
  *slot = copy;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowSchemaSetFormat(struct ArrowSchema* schema, const char* format) {
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  return ReplaceString(schema, &schema->format, format);
}

ArrowErrorCode ArrowSchemaSetName(struct ArrowSchema* schema, const char* name) {
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  return ReplaceString(schema, &schema->name, name);
}

/* Points schema->name at a string of kStaticFormats, saving the copy (a deep copy of
 * the schema still copies it). */
static void SetStaticName(struct ArrowSchema* schema, const char* static_name) {
  FreeSchemaString(schema, schema->name);
  schema->name = static_name;
}

ArrowErrorCode ArrowSchemaSetMetadata(struct ArrowSchema* schema, const char* metadata) {
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }

  char* copy = NULL;
  if (metadata != NULL) {
    /* Zero means malformed: a valid blob holds at least its key count. */
    int64_t size = ArrowMetadataSizeOf(metadata);
    if (size == 0) {
      return EINVAL;
    }
    copy = (char*)ArrowMalloc(size);
    if (copy == NULL) {
      return ENOMEM;
    }
    memcpy(copy, metadata, (size_t)size);
  }

  ArrowFree((void*)schema->metadata);
  schema->metadata = copy;
  return NANOARROW_OK;
}

/* Allocates the children array and each child struct: initialized (ArrowSchemaInit)
 * for the setters here, released (zeroed, release NULL) for callers of
 * ArrowSchemaAllocateChildren, who initialize each child themselves. */
static ArrowErrorCode AllocateChildren(struct ArrowSchema* schema, int64_t n_children,
                                       int initialize) {
  const int64_t bytes_per_child = (int64_t)sizeof(struct ArrowSchema*);
  if (!IsOwnSchema(schema) || schema->children != NULL || n_children < 0) {
    return EINVAL;
  }
  if (n_children == 0) {
    return NANOARROW_OK;
  }
  /* The whole request (a pointer and a struct per child) before any of it. */
  NANOARROW_RETURN_NOT_OK(ArrowPrivateCheckAllocation(
      n_children, bytes_per_child + (int64_t)sizeof(struct ArrowSchema)));

  /* The structs first, chained through private_data, then the pointer array: a
   * large request makes allocators such as glibc's consolidate their free lists,
   * which is cheap once the structs have taken the small blocks they hold. */
  struct ArrowSchema* chain = NULL;
  for (int64_t i = 0; i < n_children; i++) {
    struct ArrowSchema* child = (struct ArrowSchema*)ArrowMalloc(sizeof(struct ArrowSchema));
    if (child == NULL) {
      FreeSchemaChain(chain);
      return ENOMEM;
    }
    child->private_data = chain;
    chain = child;
  }
  struct ArrowSchema** children =
      (struct ArrowSchema**)ArrowMalloc(n_children * bytes_per_child);
  if (children == NULL) {
    FreeSchemaChain(chain);
    return ENOMEM;
  }
  for (int64_t i = n_children - 1; i >= 0; i--) {
    children[i] = chain;
    chain = (struct ArrowSchema*)chain->private_data;
    if (initialize) {
      ArrowSchemaInit(children[i]);
    } else {
      memset(children[i], 0, sizeof(struct ArrowSchema));
    }
  }
  schema->children = children;
  schema->n_children = n_children;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowSchemaAllocateChildren(struct ArrowSchema* schema, int64_t n_children) {
  return AllocateChildren(schema, n_children, 0);
}

ArrowErrorCode ArrowPrivateSchemaSetChildNames(
    struct ArrowSchema* schema,
    void (*name_at)(const void* context, int64_t i, struct ArrowStringView* out),
    const void* context) {
  struct ArrowStringView name;
  struct SchemaNames* names;
  int64_t capacity;
  int64_t size_bytes = 0;
  int64_t i;
  long n_named = 0;
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  for (i = 0; i < schema->n_children; i++) {
    if (!IsOwnSchema(schema->children[i]) || schema->children[i]->private_data != NULL) {
      return EINVAL;
    }
  }
  if (schema->n_children == 0) {
    return NANOARROW_OK;
  }

  /* Grown as needed; each named child remembers its name's offset + 1 in
   * private_data until the block stops moving. */
  capacity = schema->n_children < INT64_MAX / 32 ? 16 * schema->n_children : INT64_MAX / 2;
  names = (struct SchemaNames*)ArrowMalloc((int64_t)sizeof(struct SchemaNames) + capacity);
  for (i = 0; names != NULL && i < schema->n_children; i++) {
    struct ArrowSchema* child = schema->children[i];
    name_at(context, i, &name);
    if (name.data == NULL || name.size_bytes < 0) {
      continue;
    }
    if (name.size_bytes >= capacity - size_bytes) {
      struct SchemaNames* grown = NULL;
      if (name.size_bytes < INT64_MAX / 4 - size_bytes) {
        capacity = 2 * (size_bytes + name.size_bytes + 1);
        grown = (struct SchemaNames*)ArrowRealloc(
            names, (int64_t)sizeof(struct SchemaNames) + capacity);
      }
      if (grown == NULL) {
        ArrowFree(names);
        names = NULL;
        break;
      }
      names = grown;
    }
    memcpy((char*)(names + 1) + size_bytes, name.data, (size_t)name.size_bytes);
    ((char*)(names + 1))[size_bytes + name.size_bytes] = '\0';
    FreeSchemaString(child, child->name);
    child->name = NULL;
    child->private_data = (void*)(uintptr_t)(size_bytes + 1);
    size_bytes += name.size_bytes + 1;
    n_named++;
  }

  if (names == NULL) {
    for (i = 0; i < schema->n_children; i++) {
      schema->children[i]->private_data = NULL;
    }
    return ENOMEM;
  }
  if (n_named == 0) {
    ArrowFree(names);
    return NANOARROW_OK;
  }
  /* Give back what the estimate left over (shrinking does not fail in practice; the
   * larger block is as good otherwise). */
  if (size_bytes < capacity) {
    struct SchemaNames* shrunk = (struct SchemaNames*)ArrowRealloc(
        names, (int64_t)sizeof(struct SchemaNames) + size_bytes);
    if (shrunk != NULL) {
      names = shrunk;
    }
  }
  names->size_bytes = size_bytes;
  /* Nobody else sees the block yet. */
  names->refcount = n_named;
  for (i = 0; i < schema->n_children; i++) {
    struct ArrowSchema* child = schema->children[i];
    if (child->private_data != NULL) {
      child->name = (const char*)(names + 1) + ((uintptr_t)child->private_data - 1);
      child->private_data = names;
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowSchemaAllocateDictionary(struct ArrowSchema* schema) {
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  if (schema->dictionary != NULL) {
    return EEXIST;
  }
  schema->dictionary = (struct ArrowSchema*)ArrowMalloc(sizeof(struct ArrowSchema));
  if (schema->dictionary == NULL) {
    return ENOMEM;
  }
  /* Released, like the children of ArrowSchemaAllocateChildren: the caller
   * initializes it. */
  memset(schema->dictionary, 0, sizeof(struct ArrowSchema));
  return NANOARROW_OK;
}

/* 1 + the offset in kStaticFormats of the format of each type that takes no
 * parameters; 0 for the others. */
static const uint8_t kStaticFormatOffset[NANOARROW_TYPE_LARGE_LIST_VIEW + 1] = {
    /* Positional (in enum ArrowType order) so the bundle also compiles as C++. */
    0, /* UNINITIALIZED */
    1, /* NA */
    3, /* BOOL */
    7, /* UINT8 */
    5, /* INT8 */
    11, /* UINT16 */
    9, /* INT16 */
    15, /* UINT32 */
    13, /* INT32 */
    19, /* UINT64 */
    17, /* INT64 */
    21, /* HALF_FLOAT */
    23, /* FLOAT */
    25, /* DOUBLE */
    27, /* STRING */
    34, /* BINARY */
    0, /* FIXED_SIZE_BINARY */
    41, /* DATE32 */
    45, /* DATE64 */
    0, /* TIMESTAMP */
    0, /* TIME32 */
    0, /* TIME64 */
    49, /* INTERVAL_MONTHS */
    53, /* INTERVAL_DAY_TIME */
    0, /* DECIMAL128 */
    0, /* DECIMAL256 */
    61, /* LIST */
    75, /* STRUCT */
    0, /* SPARSE_UNION */
    0, /* DENSE_UNION */
    0, /* DICTIONARY */
    78, /* MAP */
    0, /* EXTENSION */
    0, /* FIXED_SIZE_LIST */
    0, /* DURATION */
    29, /* LARGE_STRING */
    36, /* LARGE_BINARY */
    64, /* LARGE_LIST */
    57, /* INTERVAL_MONTH_DAY_NANO */
    0, /* RUN_END_ENCODED */
    38, /* BINARY_VIEW */
    31, /* STRING_VIEW */
    0, /* DECIMAL32 */
    0, /* DECIMAL64 */
    67, /* LIST_VIEW */
    71, /* LARGE_LIST_VIEW */
};

/* The static format of a type that takes no parameters; NULL for the others. */
static const char* FormatWithoutParameters(enum ArrowType type) {
  if ((unsigned)type >= sizeof(kStaticFormatOffset) || kStaticFormatOffset[type] == 0) {
    return NULL;
  }
  return kStaticFormats + kStaticFormatOffset[type] - 1;
}

/* Gives schema one child named "item" whose type the caller sets. */
static NANOARROW_COLD ArrowErrorCode AddListItemChild(struct ArrowSchema* schema) {
  NANOARROW_RETURN_NOT_OK(AllocateChildren(schema, 1, 1));
  SetStaticName(schema->children[0], kStaticItem);
  return NANOARROW_OK;
}

static NANOARROW_COLD ArrowErrorCode AddMapEntriesChild(struct ArrowSchema* schema) {
  NANOARROW_RETURN_NOT_OK(AllocateChildren(schema, 1, 1));
  struct ArrowSchema* entries = schema->children[0];
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(entries, 2));
  SetStaticName(entries, kStaticEntries);
  entries->flags &= ~ARROW_FLAG_NULLABLE;
  SetStaticName(entries->children[0], kStaticKey);
  entries->children[0]->flags &= ~ARROW_FLAG_NULLABLE;
  SetStaticName(entries->children[1], kStaticValue);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowSchemaSetType(struct ArrowSchema* schema, enum ArrowType type) {
  const char* format = FormatWithoutParameters(type);
  if (format == NULL && type != NANOARROW_TYPE_UNINITIALIZED) {
    return EINVAL;
  }
  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  /* The static string is shared, not copied. */
  FreeSchemaString(schema, schema->format);
  schema->format = format;

  switch (type) {
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return AddListItemChild(schema);
    case NANOARROW_TYPE_MAP:
      return AddMapEntriesChild(schema);
    default:
      return NANOARROW_OK;
  }
}

ArrowErrorCode ArrowSchemaInitFromType(struct ArrowSchema* schema, enum ArrowType type) {
  ArrowSchemaInit(schema);
  ArrowErrorCode result = ArrowSchemaSetType(schema, type);
  if (result != NANOARROW_OK) {
    schema->release(schema);
  }
  return result;
}

ArrowErrorCode ArrowSchemaSetTypeStruct(struct ArrowSchema* schema, int64_t n_children) {
  if (n_children < 0) {
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema, NANOARROW_TYPE_STRUCT));
  return AllocateChildren(schema, n_children, 1);
}

NANOARROW_COLD ArrowErrorCode ArrowSchemaSetTypeFixedSize(struct ArrowSchema* schema,
                                                          enum ArrowType type,
                                                          int32_t fixed_size) {
  if (fixed_size <= 0) {
    return EINVAL;
  }

  char format[32];
  switch (type) {
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      snprintf(format, sizeof(format), "w:%d", (int)fixed_size);
      return ArrowSchemaSetFormat(schema, format);
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      snprintf(format, sizeof(format), "+w:%d", (int)fixed_size);
      NANOARROW_RETURN_NOT_OK(ArrowSchemaSetFormat(schema, format));
      return AddListItemChild(schema);
    default:
      return EINVAL;
  }
}

NANOARROW_COLD ArrowErrorCode ArrowSchemaSetTypeDecimal(struct ArrowSchema* schema,
                                                        enum ArrowType type,
                                                        int32_t decimal_precision,
                                                        int32_t decimal_scale) {
  int32_t max_precision;
  const char* bitwidth_suffix;
  switch (type) {
    case NANOARROW_TYPE_DECIMAL32:
      max_precision = 9;
      bitwidth_suffix = ",32";
      break;
    case NANOARROW_TYPE_DECIMAL64:
      max_precision = 18;
      bitwidth_suffix = ",64";
      break;
    case NANOARROW_TYPE_DECIMAL128:
      max_precision = 38;
      bitwidth_suffix = "";
      break;
    case NANOARROW_TYPE_DECIMAL256:
      max_precision = 76;
      bitwidth_suffix = ",256";
      break;
    default:
      return EINVAL;
  }
  if (decimal_precision < 1 || decimal_precision > max_precision) {
    return EINVAL;
  }

  char format[64];
  snprintf(format, sizeof(format), "d:%d,%d%s", (int)decimal_precision, (int)decimal_scale,
           bitwidth_suffix);
  return ArrowSchemaSetFormat(schema, format);
}

NANOARROW_COLD ArrowErrorCode
ArrowSchemaSetTypeRunEndEncoded(struct ArrowSchema* schema, enum ArrowType run_end_type) {
  if (run_end_type != NANOARROW_TYPE_INT16 && run_end_type != NANOARROW_TYPE_INT32 &&
      run_end_type != NANOARROW_TYPE_INT64) {
    return EINVAL;
  }

  if (!IsOwnSchema(schema)) {
    return EINVAL;
  }
  FreeSchemaString(schema, schema->format);
  schema->format = kStaticRunEndEncoded;
  NANOARROW_RETURN_NOT_OK(AllocateChildren(schema, 2, 1));
  struct ArrowSchema* run_ends = schema->children[0];
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(run_ends, run_end_type));
  SetStaticName(run_ends, kStaticRunEnds);
  run_ends->flags &= ~ARROW_FLAG_NULLABLE;
  SetStaticName(schema->children[1], kStaticValues);
  return NANOARROW_OK;
}

/* Longest time zone accepted, so that the whole format ("tsu:" + zone) fits in 128
 * bytes as in nanoarrow, whose callers expect ERANGE beyond that; IANA names and
 * "+HH:MM" offsets are far shorter. */
#define MAX_TIMEZONE_LENGTH 123

NANOARROW_COLD ArrowErrorCode ArrowSchemaSetTypeDateTime(struct ArrowSchema* schema,
                                                         enum ArrowType type,
                                                         enum ArrowTimeUnit time_unit,
                                                         const char* timezone) {
  char unit;
  switch (time_unit) {
    case NANOARROW_TIME_UNIT_SECOND:
      unit = 's';
      break;
    case NANOARROW_TIME_UNIT_MILLI:
      unit = 'm';
      break;
    case NANOARROW_TIME_UNIT_MICRO:
      unit = 'u';
      break;
    case NANOARROW_TIME_UNIT_NANO:
      unit = 'n';
      break;
    default:
      return EINVAL;
  }

  /* "ts" + unit + ":" + timezone + NUL */
  char format[MAX_TIMEZONE_LENGTH + 5];
  switch (type) {
    case NANOARROW_TYPE_TIME32:
      if (timezone != NULL || time_unit > NANOARROW_TIME_UNIT_MILLI) {
        return EINVAL;
      }
      snprintf(format, sizeof(format), "tt%c", unit);
      break;
    case NANOARROW_TYPE_TIME64:
      if (timezone != NULL || time_unit < NANOARROW_TIME_UNIT_MICRO) {
        return EINVAL;
      }
      snprintf(format, sizeof(format), "tt%c", unit);
      break;
    case NANOARROW_TYPE_DURATION:
      if (timezone != NULL) {
        return EINVAL;
      }
      snprintf(format, sizeof(format), "tD%c", unit);
      break;
    case NANOARROW_TYPE_TIMESTAMP:
      if (timezone == NULL) {
        timezone = "";
      }
      if (strlen(timezone) > MAX_TIMEZONE_LENGTH) {
        return ERANGE;
      }
      snprintf(format, sizeof(format), "ts%c:%s", unit, timezone);
      break;
    default:
      return EINVAL;
  }
  return ArrowSchemaSetFormat(schema, format);
}

NANOARROW_COLD ArrowErrorCode ArrowSchemaSetTypeUnion(struct ArrowSchema* schema,
                                                      enum ArrowType type,
                                                      int64_t n_children) {
  if (n_children < 0 || n_children > 127) {
    return EINVAL;
  }

  /* "+ud:" then up to 127 ids of at most 3 digits, each with a separator. */
  char format[4 + 127 * 4 + 1];
  char* end = format;
  switch (type) {
    case NANOARROW_TYPE_DENSE_UNION:
      memcpy(end, "+ud:", 4);
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
      memcpy(end, "+us:", 4);
      break;
    default:
      return EINVAL;
  }
  end += 4;
  for (int64_t i = 0; i < n_children; i++) {
    end += snprintf(end, (size_t)(format + sizeof(format) - end), i == 0 ? "%d" : ",%d",
                    (int)i);
  }
  *end = '\0';

  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetFormat(schema, format));
  return AllocateChildren(schema, n_children, 1);
}

/* ---- Deep copy ---- */

static NANOARROW_COLD ArrowErrorCode DeepCopyInto(const struct ArrowSchema* schema,
                                                  struct ArrowSchema* out, int depth) {
  if (depth > NANOARROW_MAX_NESTING_DEPTH || schema->release == NULL ||
      schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    return EINVAL;
  }

  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetFormat(out, schema->format));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(out, schema->name));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetMetadata(out, schema->metadata));
  out->flags = schema->flags;

  NANOARROW_RETURN_NOT_OK(AllocateChildren(out, schema->n_children, 1));
  for (int64_t i = 0; i < schema->n_children; i++) {
    if (schema->children[i] == NULL) {
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(DeepCopyInto(schema->children[i], out->children[i], depth + 1));
  }

  if (schema->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaAllocateDictionary(out));
    ArrowSchemaInit(out->dictionary);
    NANOARROW_RETURN_NOT_OK(DeepCopyInto(schema->dictionary, out->dictionary, depth + 1));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowSchemaDeepCopy(const struct ArrowSchema* schema,
                                                  struct ArrowSchema* schema_out) {
  ArrowSchemaInit(schema_out);
  if (schema == NULL) {
    schema_out->release(schema_out);
    return EINVAL;
  }

  ArrowErrorCode result = DeepCopyInto(schema, schema_out, 0);
  if (result != NANOARROW_OK) {
    schema_out->release(schema_out);
  }
  return result;
}

/* ---- ToString ----
 *
 * Grammar of the summary:
 *   type      := name [ "(" params ")" ] [ "<" children ">" ]
 *   children  := child { ", " child }      child := [ field_name ": " ] type
 *   params    fixed_size_binary(16), decimal128(10, 2), time32('ms'),
 *             timestamp('us', '') / timestamp('us', 'UTC'), duration('ns'),
 *             fixed_size_list(3), dense_union([0,1])
 *   dictionary(<index type>)<value type>
 *   <extension name>{<storage type>}
 * as nanoarrow writes them (programs compare these strings): a timestamp always names
 * its time zone, '' when it has none; a child without a name has no "name: ". Names
 * are those of ArrowTypeString(). Children are shown only when recursive is non-zero,
 * "<>" for a nested type without any; dictionary values always. A schema that cannot
 * be parsed shows as "[invalid: <reason>]". */

struct StringWriter {
  char* out;
  int64_t capacity; /* bytes available in out, including the final NUL */
  int64_t needed;   /* characters the full summary needs */
};

static NANOARROW_COLD void WriterAppend(struct StringWriter* writer, const char* data,
                                        int64_t size) {
  int64_t room = writer->capacity - 1 - writer->needed;
  if (room > 0) {
    memcpy(writer->out + writer->needed, data, (size_t)(size < room ? size : room));
  }
  writer->needed += size;
}

static NANOARROW_COLD void WriterAppendString(struct StringWriter* writer,
                                              const char* value) {
  WriterAppend(writer, value, (int64_t)strlen(value));
}

static NANOARROW_COLD void WriterAppendInt(struct StringWriter* writer, int32_t value) {
  char digits[16];
  int size = snprintf(digits, sizeof(digits), "%d", (int)value);
  WriterAppend(writer, digits, size);
}

static NANOARROW_COLD void WriterAppendTypeName(struct StringWriter* writer,
                                                enum ArrowType type) {
  const char* name = ArrowTypeString(type);
  WriterAppendString(writer, name != NULL ? name : "unknown");
}

static NANOARROW_COLD void WriterAppendParameters(struct StringWriter* writer,
                                                  const struct ArrowSchemaView* view) {
  const char* unit = ArrowTimeUnitString(view->time_unit);
  switch (view->type) {
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      WriterAppendString(writer, "(");
      WriterAppendInt(writer, view->fixed_size);
      WriterAppendString(writer, ")");
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      WriterAppendString(writer, "(");
      WriterAppendInt(writer, view->decimal_precision);
      WriterAppendString(writer, ", ");
      WriterAppendInt(writer, view->decimal_scale);
      WriterAppendString(writer, ")");
      break;
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_DURATION:
    case NANOARROW_TYPE_TIMESTAMP:
      WriterAppendString(writer, "('");
      WriterAppendString(writer, unit != NULL ? unit : "?");
      WriterAppendString(writer, "'");
      if (view->type == NANOARROW_TYPE_TIMESTAMP) {
        WriterAppendString(writer, ", '");
        WriterAppendString(writer, view->timezone != NULL ? view->timezone : "");
        WriterAppendString(writer, "'");
      }
      WriterAppendString(writer, ")");
      break;
    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_SPARSE_UNION:
      WriterAppendString(writer, "([");
      WriterAppendString(writer, view->union_type_ids);
      WriterAppendString(writer, "])");
      break;
    default:
      break;
  }
}

static NANOARROW_COLD void WriterAppendSchema(struct StringWriter* writer,
                                              const struct ArrowSchema* schema,
                                              char recursive, int depth) {
  if (schema == NULL) {
    WriterAppendString(writer, "[invalid: pointer is null]");
    return;
  }
  if (schema->release == NULL) {
    WriterAppendString(writer, "[invalid: schema is released]");
    return;
  }
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    WriterAppendString(writer, "[invalid: nesting too deep]");
    return;
  }

  struct ArrowSchemaView view;
  struct ArrowError error;
  error.message[0] = '\0';
  if (ArrowSchemaViewInit(&view, schema, &error) != NANOARROW_OK) {
    WriterAppendString(writer, "[invalid: ");
    WriterAppendString(writer, error.message);
    WriterAppendString(writer, "]");
    return;
  }

  /* As in nanoarrow, an empty extension name is no extension. */
  int is_extension = view.extension_name.data != NULL && view.extension_name.size_bytes > 0;
  if (is_extension) {
    WriterAppend(writer, view.extension_name.data, view.extension_name.size_bytes);
    WriterAppendString(writer, "{");
  }

  if (view.type == NANOARROW_TYPE_DICTIONARY) {
    WriterAppendString(writer, "dictionary(");
    WriterAppendTypeName(writer, view.storage_type);
    WriterAppendString(writer, ")<");
    WriterAppendSchema(writer, schema->dictionary, recursive, depth + 1);
    WriterAppendString(writer, ">");
  } else {
    WriterAppendTypeName(writer, view.type);
    WriterAppendParameters(writer, &view);
    if (recursive && schema->format != NULL && schema->format[0] == '+') {
      WriterAppendString(writer, "<");
      for (int64_t i = 0; i < schema->n_children; i++) {
        if (i > 0) {
          WriterAppendString(writer, ", ");
        }
        if (schema->children[i] != NULL && schema->children[i]->release != NULL &&
            schema->children[i]->name != NULL) {
          WriterAppendString(writer, schema->children[i]->name);
          WriterAppendString(writer, ": ");
        }
        WriterAppendSchema(writer, schema->children[i], recursive, depth + 1);
      }
      WriterAppendString(writer, ">");
    }
  }

  if (is_extension) {
    WriterAppendString(writer, "}");
  }
}

NANOARROW_COLD int64_t ArrowSchemaToString(const struct ArrowSchema* schema, char* out,
                                           int64_t n, char recursive) {
  struct StringWriter writer;
  writer.out = out;
  writer.capacity = (out == NULL || n < 0) ? 0 : n;
  writer.needed = 0;

  WriterAppendSchema(&writer, schema, recursive, 0);

  if (writer.capacity > 0) {
    int64_t terminator =
        writer.needed < writer.capacity - 1 ? writer.needed : writer.capacity - 1;
    out[terminator] = '\0';
  }
  return writer.needed;
}
