/* ArrowSchemaCompare: are two ArrowSchema trees equal?
 *
 * NANOARROW_COMPARE_IDENTICAL compares, node by node from the root: the format
 * strings, the names (both NULL or equal strings), the metadata blobs (as bytes: a
 * NULL blob equals only another NULL blob, not one holding zero keys), the flags, the
 * number of children, each child in turn, then the presence of a dictionary and the
 * dictionary itself. NANOARROW_COMPARE_EQUAL does the same except that metadata
 * holding zero keys counts as no metadata. NANOARROW_COMPARE_TYPE_EQUAL compares the
 * root as EQUAL does but leaves out its name and metadata (they describe the field,
 * not its type); every other node is compared at the EQUAL level. The first
 * difference sets *out = 0 and is
 * described in reason with the path of the node that differs, such as
 * "root.children[1].dictionary".
 *
 * The schemas come from outside: a NULL or released node, an impossible child count,
 * malformed metadata or nesting deeper than NANOARROW_MAX_NESTING_DEPTH (the limit
 * ArrowSchemaDeepCopy() uses) is an error (EINVAL), not a difference. Nodes are
 * checked as the comparison reaches them, so an invalid node after the first
 * difference goes unnoticed. Nothing is allocated; recursion is bounded by the depth
 * limit. All names here start with SchemaCompare: the bundle puts every source file
 * into one translation unit. */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* Returned internally when the schemas differ (never to the caller). */
#define SCHEMA_COMPARE_DIFFERENT (-1)

/* One step from the root to the node being compared, kept on the stack. The root
 * has no step (NULL). */
struct SchemaComparePath {
  const struct SchemaComparePath* parent;
  /* Child index, or -1 for the dictionary. */
  int64_t child_index;
};

static NANOARROW_COLD void SchemaComparePathFormat(const struct SchemaComparePath* path,
                                                   char* out, size_t out_size) {
  const struct SchemaComparePath* steps[NANOARROW_MAX_NESTING_DEPTH + 2];
  int n_steps = 0;
  size_t used;
  int written;

  for (; path != NULL && n_steps < NANOARROW_MAX_NESTING_DEPTH + 2; path = path->parent) {
    steps[n_steps++] = path;
  }

  written = snprintf(out, out_size, "root");
  used = written < 0 ? 0 : (size_t)written;
  while (n_steps-- > 0 && used < out_size) {
    if (steps[n_steps]->child_index < 0) {
      written = snprintf(out + used, out_size - used, ".dictionary");
    } else {
      written = snprintf(out + used, out_size - used, ".children[%ld]",
                         (long)steps[n_steps]->child_index);
    }
    if (written < 0) {
      return;
    }
    used += (size_t)written;
  }
}

#if defined(__GNUC__) || defined(__clang__)
#define SCHEMA_COMPARE_PRINTF(fmt_index) \
  __attribute__((format(printf, fmt_index, fmt_index + 1)))
#else
#define SCHEMA_COMPARE_PRINTF(fmt_index)
#endif

static void SchemaCompareReport(struct ArrowError* reason,
                                const struct SchemaComparePath* path, const char* fmt,
                                ...) SCHEMA_COMPARE_PRINTF(3);

/* Writes "<path>: <message>" to reason (when there is one). */
static NANOARROW_COLD void SchemaCompareReport(struct ArrowError* reason,
                                               const struct SchemaComparePath* path,
                                               const char* fmt, ...) {
  /* Room for the deepest path (64 levels of ".children[0]"); the whole message is
   * cut to fit ArrowError. */
  char where[1024];
  char message[512];
  va_list args;
  if (reason == NULL) {
    return;
  }
  SchemaComparePathFormat(path, where, sizeof(where));
  va_start(args, fmt);
  vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  ArrowErrorSet(reason, "%s: %s", where, message);
}

/* "'value'" or "NULL", for messages; truncates long values. */
static NANOARROW_COLD void SchemaCompareQuote(const char* value, char* out,
                                              size_t out_size) {
  if (value == NULL) {
    snprintf(out, out_size, "NULL");
  } else {
    snprintf(out, out_size, "'%.200s'", value);
  }
}

static int SchemaCompareStrings(const char* actual, const char* expected) {
  if (actual == NULL || expected == NULL) {
    return actual == expected;
  }
  return strcmp(actual, expected) == 0;
}

/* The flags as "0x2 (NULLABLE)". */
static NANOARROW_COLD void SchemaCompareFlagsString(int64_t flags, char* out,
                                                   size_t out_size) {
  static const struct {
    int64_t flag;
    const char* name;
  } kFlags[] = {{ARROW_FLAG_DICTIONARY_ORDERED, "DICTIONARY_ORDERED"},
                {ARROW_FLAG_NULLABLE, "NULLABLE"},
                {ARROW_FLAG_MAP_KEYS_SORTED, "MAP_KEYS_SORTED"},
                {~(int64_t)NANOARROW_FLAG_ALL_SUPPORTED, "unknown"}};
  const char* separator = "";
  size_t used;
  size_t k;
  int written = snprintf(out, out_size, "0x%llx (%s", (unsigned long long)flags,
                         flags == 0 ? "none" : "");
  used = written < 0 ? 0 : (size_t)written;
  for (k = 0; k < sizeof(kFlags) / sizeof(kFlags[0]) && used < out_size; k++) {
    if (flags & kFlags[k].flag) {
      written = snprintf(out + used, out_size - used, "%s%s", separator, kFlags[k].name);
      used += written < 0 ? 0 : (size_t)written;
      separator = "|";
    }
  }
  if (used < out_size) {
    snprintf(out + used, out_size - used, ")");
  }
}

/* The node must be a schema the comparison can walk. */
NANOARROW_COLD
static ArrowErrorCode SchemaCompareCheckNode(const struct ArrowSchema* schema,
                                             const char* side,
                                             const struct SchemaComparePath* path,
                                             int64_t* metadata_size,
                                             struct ArrowError* reason) {
  if (schema == NULL) {
    SchemaCompareReport(reason, path, "%s schema is NULL", side);
    return EINVAL;
  }
  if (schema->release == NULL) {
    SchemaCompareReport(reason, path, "%s schema is released", side);
    return EINVAL;
  }
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    SchemaCompareReport(reason, path, "%s schema has n_children %ld and %s children array",
                        side, (long)schema->n_children,
                        schema->children == NULL ? "a NULL" : "a");
    return EINVAL;
  }
  *metadata_size = ArrowMetadataSizeOf(schema->metadata);
  if (schema->metadata != NULL && *metadata_size == 0) {
    SchemaCompareReport(reason, path, "%s schema has malformed metadata", side);
    return EINVAL;
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
static ArrowErrorCode SchemaCompareNode(const struct ArrowSchema* actual,
                                        const struct ArrowSchema* expected,
                                        enum ArrowCompareLevel level,
                                        const struct SchemaComparePath* path, int depth,
                                        struct ArrowError* reason) {
  char actual_text[256];
  char expected_text[256];
  int64_t actual_metadata_size;
  int64_t expected_metadata_size;
  struct SchemaComparePath step;
  int64_t i;
  /* Below the root every level but IDENTICAL compares as EQUAL. */
  enum ArrowCompareLevel child_level =
      level == NANOARROW_COMPARE_IDENTICAL ? level : NANOARROW_COMPARE_EQUAL;
  int compare_metadata = level != NANOARROW_COMPARE_TYPE_EQUAL;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    SchemaCompareReport(reason, path, "schema is nested more than %d levels deep",
                        NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(
      SchemaCompareCheckNode(actual, "actual", path, &actual_metadata_size, reason));
  NANOARROW_RETURN_NOT_OK(
      SchemaCompareCheckNode(expected, "expected", path, &expected_metadata_size, reason));

  if (!SchemaCompareStrings(actual->format, expected->format)) {
    SchemaCompareQuote(actual->format, actual_text, sizeof(actual_text));
    SchemaCompareQuote(expected->format, expected_text, sizeof(expected_text));
    SchemaCompareReport(reason, path, "expected format %s but found %s", expected_text,
                        actual_text);
    return SCHEMA_COMPARE_DIFFERENT;
  }

  /* The EQUAL levels take metadata with zero keys (its 4-byte count alone) for none
   * (size 0). */
  if (level != NANOARROW_COMPARE_IDENTICAL && actual_metadata_size <= 4 &&
      expected_metadata_size <= 4) {
    compare_metadata = 0;
  }

  if (level != NANOARROW_COMPARE_TYPE_EQUAL &&
      !SchemaCompareStrings(actual->name, expected->name)) {
    SchemaCompareQuote(actual->name, actual_text, sizeof(actual_text));
    SchemaCompareQuote(expected->name, expected_text, sizeof(expected_text));
    SchemaCompareReport(reason, path, "expected name %s but found %s", expected_text,
                        actual_text);
    return SCHEMA_COMPARE_DIFFERENT;
  }

  if (compare_metadata &&
      (actual_metadata_size != expected_metadata_size ||
       (actual_metadata_size > 0 &&
        memcmp(actual->metadata, expected->metadata, (size_t)actual_metadata_size) !=
            0))) {
    if (expected->metadata == NULL) {
      snprintf(expected_text, sizeof(expected_text), "no metadata");
    } else {
      snprintf(expected_text, sizeof(expected_text), "%ld bytes of metadata",
               (long)expected_metadata_size);
    }
    if (actual->metadata == NULL) {
      snprintf(actual_text, sizeof(actual_text), "none");
    } else {
      snprintf(actual_text, sizeof(actual_text), "%ld %sbytes",
               (long)actual_metadata_size,
               actual_metadata_size == expected_metadata_size ? "different " : "");
    }
    SchemaCompareReport(reason, path, "expected %s but found %s", expected_text,
                        actual_text);
    return SCHEMA_COMPARE_DIFFERENT;
  }

  if (actual->flags != expected->flags) {
    SchemaCompareFlagsString(actual->flags, actual_text, sizeof(actual_text));
    SchemaCompareFlagsString(expected->flags, expected_text, sizeof(expected_text));
    SchemaCompareReport(reason, path, "expected flags %s but found %s", expected_text,
                        actual_text);
    return SCHEMA_COMPARE_DIFFERENT;
  }

  if (actual->n_children != expected->n_children) {
    SchemaCompareReport(reason, path, "expected %ld children but found %ld",
                        (long)expected->n_children, (long)actual->n_children);
    return SCHEMA_COMPARE_DIFFERENT;
  }

  step.parent = path;
  for (i = 0; i < actual->n_children; i++) {
    step.child_index = i;
    NANOARROW_RETURN_NOT_OK(SchemaCompareNode(actual->children[i], expected->children[i],
                                              child_level, &step, depth + 1, reason));
  }

  if ((actual->dictionary == NULL) != (expected->dictionary == NULL)) {
    SchemaCompareReport(reason, path, "expected %s but found %s",
                        expected->dictionary == NULL ? "no dictionary" : "a dictionary",
                        actual->dictionary == NULL ? "none" : "one");
    return SCHEMA_COMPARE_DIFFERENT;
  }
  if (actual->dictionary != NULL) {
    step.child_index = -1;
    NANOARROW_RETURN_NOT_OK(SchemaCompareNode(actual->dictionary, expected->dictionary,
                                              child_level, &step, depth + 1, reason));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowSchemaCompare(const struct ArrowSchema* actual,
                                                 const struct ArrowSchema* expected,
                                                 enum ArrowCompareLevel level, int* out,
                                                 struct ArrowError* reason) {
  ArrowErrorCode result;
  if (out == NULL) {
    ArrowErrorSet(reason, "Expected non-NULL out");
    return EINVAL;
  }
  *out = 0;
  if (level != NANOARROW_COMPARE_IDENTICAL && level != NANOARROW_COMPARE_EQUAL &&
      level != NANOARROW_COMPARE_TYPE_EQUAL) {
    ArrowErrorSet(reason, "Unknown comparison level %d", (int)level);
    return EINVAL;
  }

  result = SchemaCompareNode(actual, expected, level, NULL, 0, reason);
  if (result == SCHEMA_COMPARE_DIFFERENT) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(result);
  *out = 1;
  return NANOARROW_OK;
}
