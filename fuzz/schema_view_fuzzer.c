/* libFuzzer harness: ArrowSchemaViewInit (and the schema consumers built on it)
 * on arbitrary schema trees built from the input.
 *
 * Encoding of one node (recursive, children before the dictionary):
 *   format: bytes up to a NUL (no bytes left: format stays NULL)
 *   name:   bytes up to a NUL
 *   flags:  1 byte (ArrowSchema.flags)
 *   shape:  1 byte: bits 0-2 child count, bit 3 dictionary, bit 4 metadata,
 *           bit 5 NULL name
 *   metadata (bit 4): 1 byte pair count (mod 4), then per pair a key and a value,
 *           each a length byte and that many bytes; the length bytes 0xFF / 0xFE
 *           stand for the keys ARROW:extension:name / ARROW:extension:metadata.
 * At most FUZZ_MAX_NODES nodes are built and nesting may exceed
 * NANOARROW_MAX_NESTING_DEPTH, which every recursive consumer must refuse. */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "fuzz_util.h"

#define FUZZ_MAX_NODES 256
#define FUZZ_MAX_BUILD_DEPTH 80

struct FuzzInput {
  const uint8_t* data;
  int64_t size;
  int n_nodes;
};

static int FuzzTakeByte(struct FuzzInput* input, uint8_t* out) {
  if (input->size <= 0) return 0;
  *out = input->data[0];
  input->data++;
  input->size--;
  return 1;
}

/* A NUL-terminated copy of the bytes up to the next NUL (or the end). */
static void FuzzTakeCString(struct FuzzInput* input, char* out, int64_t capacity) {
  int64_t n = 0;
  uint8_t byte;
  while (FuzzTakeByte(input, &byte) && byte != 0) {
    if (n < capacity - 1) out[n++] = (char)byte;
  }
  out[n] = '\0';
}

static struct ArrowStringView FuzzTakeKeyOrValue(struct FuzzInput* input) {
  struct ArrowStringView out;
  uint8_t length = 0;
  out.data = "";
  out.size_bytes = 0;
  if (!FuzzTakeByte(input, &length)) return out;
  if (length == 0xFF) return ArrowCharView("ARROW:extension:name");
  if (length == 0xFE) return ArrowCharView("ARROW:extension:metadata");
  if (length > input->size) length = (uint8_t)input->size;
  out.data = (const char*)input->data;
  out.size_bytes = length;
  input->data += length;
  input->size -= length;
  return out;
}

static void FuzzBuildNode(struct ArrowSchema* schema, struct FuzzInput* input, int depth) {
  char text[128];
  uint8_t flags = 0;
  uint8_t shape = 0;
  int64_t i;
  ArrowSchemaInit(schema);
  input->n_nodes++;
  if (input->size <= 0) return;

  FuzzTakeCString(input, text, sizeof(text));
  FUZZ_CHECK(ArrowSchemaSetFormat(schema, text) == NANOARROW_OK);
  FuzzTakeCString(input, text, sizeof(text));
  (void)FuzzTakeByte(input, &flags);
  (void)FuzzTakeByte(input, &shape);
  FUZZ_CHECK(ArrowSchemaSetName(schema, (shape & 32) ? NULL : text) == NANOARROW_OK);
  schema->flags = flags;

  if (shape & 16) {
    struct ArrowBuffer metadata;
    uint8_t n_pairs = 0;
    FUZZ_CHECK(ArrowMetadataBuilderInit(&metadata, NULL) == NANOARROW_OK);
    (void)FuzzTakeByte(input, &n_pairs);
    for (i = 0; i < n_pairs % 4; i++) {
      struct ArrowStringView key = FuzzTakeKeyOrValue(input);
      struct ArrowStringView value = FuzzTakeKeyOrValue(input);
      FUZZ_CHECK(ArrowMetadataBuilderAppend(&metadata, key, value) == NANOARROW_OK);
    }
    if (metadata.size_bytes > 0) {
      FUZZ_CHECK(ArrowSchemaSetMetadata(schema, (const char*)metadata.data) == NANOARROW_OK);
    }
    ArrowBufferReset(&metadata);
  }

  if (depth >= FUZZ_MAX_BUILD_DEPTH || input->n_nodes >= FUZZ_MAX_NODES) return;
  if ((shape & 7) > 0) {
    FUZZ_CHECK(ArrowSchemaAllocateChildren(schema, shape & 7) == NANOARROW_OK);
    for (int64_t child_i = 0; child_i < schema->n_children; child_i++) {
      ArrowSchemaInit(schema->children[child_i]);
    }
    for (i = 0; i < (shape & 7); i++) {
      ArrowSchemaRelease(schema->children[i]); /* AllocateChildren initialized it */
      FuzzBuildNode(schema->children[i], input, depth + 1);
    }
  }
  if (shape & 8) {
    FUZZ_CHECK(ArrowSchemaAllocateDictionary(schema) == NANOARROW_OK);
    ArrowSchemaInit(schema->dictionary);
    ArrowSchemaRelease(schema->dictionary);
    FuzzBuildNode(schema->dictionary, input, depth + 1);
  }
}

/* ArrowSchemaViewInit on every node: never crashes; what it accepts is coherent. */
static int FuzzViewTree(const struct ArrowSchema* schema, int depth) {
  struct ArrowSchemaView view;
  struct ArrowError error;
  int all_ok;
  int64_t i;
  ArrowErrorInit(&error);
  all_ok = ArrowSchemaViewInit(&view, schema, &error) == NANOARROW_OK;
  if (!all_ok) {
    FUZZ_CHECK(strlen(ArrowErrorMessage(&error)) > 0);
  } else {
    FUZZ_CHECK(view.schema == schema);
    FUZZ_CHECK(view.storage_type != NANOARROW_TYPE_UNINITIALIZED);
    FUZZ_CHECK((view.type == NANOARROW_TYPE_DICTIONARY) == (schema->dictionary != NULL));
    if (view.extension_name.data != NULL) {
      FuzzTouchBytes(view.extension_name.data, view.extension_name.size_bytes);
      FuzzTouchBytes(view.extension_metadata.data, view.extension_metadata.size_bytes);
    }
    if (view.timezone != NULL) FuzzTouchBytes(view.timezone, (int64_t)strlen(view.timezone));
    if (view.union_type_ids != NULL) {
      FuzzTouchBytes(view.union_type_ids, (int64_t)strlen(view.union_type_ids));
    }
  }
  if (depth > FUZZ_MAX_BUILD_DEPTH) return all_ok;
  for (i = 0; i < schema->n_children; i++) {
    all_ok &= FuzzViewTree(schema->children[i], depth + 1);
  }
  if (schema->dictionary != NULL) all_ok &= FuzzViewTree(schema->dictionary, depth + 1);
  return all_ok;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct FuzzInput input;
  struct ArrowSchema schema;
  struct ArrowSchema copy;
  struct ArrowArrayView array_view;
  struct ArrowArray array;
  struct ArrowError error;
  char summary[256];
  char summary_copy[256];
  int all_ok;
  ArrowErrorInit(&error);

  input.data = data;
  input.size = (int64_t)size;
  input.n_nodes = 0;
  FuzzBuildNode(&schema, &input, 0);

  all_ok = FuzzViewTree(&schema, 0);

  /* The recursive consumers: bounded depth, no crash, consistent answers. */
  (void)ArrowSchemaToString(&schema, summary, sizeof(summary), 1);
  if (ArrowSchemaDeepCopy(&schema, &copy) == NANOARROW_OK) {
    (void)ArrowSchemaToString(&copy, summary_copy, sizeof(summary_copy), 1);
    FUZZ_CHECK(strcmp(summary, summary_copy) == 0);
    ArrowSchemaRelease(&copy);
  }

  if (ArrowArrayViewInitFromSchema(&array_view, &schema, &error) == NANOARROW_OK) {
    ArrowArrayViewReset(&array_view);
  }

  /* An empty array made for an accepted schema is valid and views cleanly. */
  if (all_ok && ArrowArrayInitFromSchema(&array, &schema, &error) == NANOARROW_OK) {
    if (ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error) ==
        NANOARROW_OK) {
      FuzzCheckBatch(&schema, &array);
    }
    ArrowArrayRelease(&array);
  }

  ArrowSchemaRelease(&schema);
  return 0;
}
