/* libnanoarrow_c_data_integration: the C Data Interface driver Arrow's integration
 * harness (archery) loads for nanoarrow. Each function returns NULL on success or
 * an error message (valid until the next call: archery calls them one at a time).
 * "Import" functions take ownership of (and release) what they are given.
 * nanoarrow_BytesAllocated reports the bytes held by schemas and arrays exported
 * here and not yet released, so archery's leak check sees a release that never
 * happens. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#if defined(_WIN32)
#define CDATA_EXPORT __declspec(dllexport)
#else
#define CDATA_EXPORT __attribute__((visibility("default")))
#endif

#define CDATA_MAX_JSON_BYTES ((int64_t)1 << 32)

static char g_message[sizeof(((struct ArrowError*)0)->message) + 64];
static int64_t g_bytes_allocated = 0;

static const char* Failed(const char* what, const struct ArrowError* error) {
  snprintf(g_message, sizeof(g_message), "%s: %s", what, error->message);
  return g_message;
}

/* ---- Tracking exported objects ---- */

static int64_t SchemaBytes(const struct ArrowSchema* schema, int depth) {
  int64_t bytes = (int64_t)sizeof(struct ArrowSchema);
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  if (schema->format != NULL) bytes += (int64_t)strlen(schema->format) + 1;
  if (schema->name != NULL) bytes += (int64_t)strlen(schema->name) + 1;
  if (schema->metadata != NULL) bytes += ArrowMetadataSizeOf(schema->metadata);
  for (i = 0; i < schema->n_children; i++) bytes += SchemaBytes(schema->children[i], depth + 1);
  if (schema->dictionary != NULL) bytes += SchemaBytes(schema->dictionary, depth + 1);
  return bytes;
}

static int64_t ViewBytes(const struct ArrowArrayView* view, int depth) {
  int64_t bytes = (int64_t)sizeof(struct ArrowArray);
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) bytes += view->buffer_views[i].size_bytes;
  for (i = 0; i < view->n_variadic_buffers; i++) bytes += view->variadic_buffer_sizes[i];
  for (i = 0; i < view->n_children; i++) bytes += ViewBytes(view->children[i], depth + 1);
  if (view->dictionary != NULL) bytes += ViewBytes(view->dictionary, depth + 1);
  return bytes;
}

struct TrackedSchema {
  struct ArrowSchema inner;
  int64_t bytes;
};

static void TrackedSchemaRelease(struct ArrowSchema* schema) {
  struct TrackedSchema* tracked = (struct TrackedSchema*)schema->private_data;
  g_bytes_allocated -= tracked->bytes;
  ArrowSchemaRelease(&tracked->inner);
  free(tracked);
  schema->release = NULL;
}

struct TrackedArray {
  struct ArrowArray inner;
  int64_t bytes;
};

static void TrackedArrayRelease(struct ArrowArray* array) {
  struct TrackedArray* tracked = (struct TrackedArray*)array->private_data;
  g_bytes_allocated -= tracked->bytes;
  ArrowArrayRelease(&tracked->inner);
  free(tracked);
  array->release = NULL;
}

/* ---- Reading the JSON ---- */

static ArrowErrorCode ReadJson(const char* json_path, struct ArrowBuffer* out,
                               struct ArrowError* error) {
  if (json_path == NULL) {
    ArrowErrorSet(error, "json_path is NULL");
    return EINVAL;
  }
  return ArrowTestingReadFile(json_path, CDATA_MAX_JSON_BYTES, out, error);
}

static ArrowErrorCode ReadJsonSchema(const char* json_path, struct ArrowSchema* out,
                                     struct ArrowError* error) {
  struct ArrowBuffer json;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(ReadJson(json_path, &json, error));
  rc = ArrowTestingJsonReadSchema((const char*)json.data, json.size_bytes, out, error);
  ArrowBufferReset(&json);
  return rc;
}

static ArrowErrorCode ReadJsonBatch(const char* json_path, int num_batch,
                                    struct ArrowSchema* schema, struct ArrowArray* out,
                                    struct ArrowError* error) {
  struct ArrowBuffer json;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(ReadJson(json_path, &json, error));
  rc = ArrowTestingJsonReadSchema((const char*)json.data, json.size_bytes, schema, error);
  if (rc == NANOARROW_OK) {
    rc = ArrowTestingJsonReadBatch((const char*)json.data, json.size_bytes, num_batch, out,
                                   error);
    if (rc != NANOARROW_OK) ArrowSchemaRelease(schema);
  }
  ArrowBufferReset(&json);
  return rc;
}

/* ---- Exported entry points ---- */

CDATA_EXPORT const char* nanoarrow_CDataIntegration_ExportSchemaFromJson(
    const char* json_path, struct ArrowSchema* out) {
  struct ArrowError error;
  struct TrackedSchema* tracked;
  error.message[0] = '\0';
  if (out == NULL) return "out is NULL";
  tracked = (struct TrackedSchema*)malloc(sizeof(struct TrackedSchema));
  if (tracked == NULL) return "out of memory";
  if (ReadJsonSchema(json_path, &tracked->inner, &error) != NANOARROW_OK) {
    free(tracked);
    return Failed("reading the JSON schema", &error);
  }
  tracked->bytes = SchemaBytes(&tracked->inner, 0);
  g_bytes_allocated += tracked->bytes;
  *out = tracked->inner;
  out->release = &TrackedSchemaRelease;
  out->private_data = tracked;
  return NULL;
}

CDATA_EXPORT const char* nanoarrow_CDataIntegration_ImportSchemaAndCompareToJson(
    const char* json_path, struct ArrowSchema* schema) {
  struct ArrowSchema expected;
  struct ArrowError error;
  const char* result = NULL;
  int equal = 0;
  error.message[0] = '\0';
  if (schema == NULL || schema->release == NULL) return "schema is NULL or released";
  if (ReadJsonSchema(json_path, &expected, &error) != NANOARROW_OK) {
    ArrowSchemaRelease(schema);
    return Failed("reading the JSON schema", &error);
  }
  if (ArrowTestingCompareSchema(schema, &expected, &equal, &error) != NANOARROW_OK ||
      !equal) {
    result = Failed("schema differs from the JSON", &error);
  }
  ArrowSchemaRelease(&expected);
  ArrowSchemaRelease(schema);
  return result;
}

CDATA_EXPORT const char* nanoarrow_CDataIntegration_ExportBatchFromJson(
    const char* json_path, int num_batch, struct ArrowArray* out) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct TrackedArray* tracked;
  error.message[0] = '\0';
  if (out == NULL) return "out is NULL";
  tracked = (struct TrackedArray*)malloc(sizeof(struct TrackedArray));
  if (tracked == NULL) return "out of memory";
  if (ReadJsonBatch(json_path, num_batch, &schema, &tracked->inner, &error) != NANOARROW_OK) {
    free(tracked);
    return Failed("reading the JSON batch", &error);
  }
  tracked->bytes = (int64_t)sizeof(struct ArrowArray);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  if (ArrowArrayViewInitFromSchema(&view, &schema, &error) == NANOARROW_OK &&
      ArrowArrayViewSetArray(&view, &tracked->inner, &error) == NANOARROW_OK) {
    tracked->bytes = ViewBytes(&view, 0);
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  g_bytes_allocated += tracked->bytes;
  *out = tracked->inner;
  out->release = &TrackedArrayRelease;
  out->private_data = tracked;
  return NULL;
}

CDATA_EXPORT const char* nanoarrow_CDataIntegration_ImportBatchAndCompareToJson(
    const char* json_path, int num_batch, struct ArrowArray* batch) {
  struct ArrowSchema schema;
  struct ArrowArray expected;
  struct ArrowError error;
  const char* result = NULL;
  int equal = 0;
  error.message[0] = '\0';
  if (batch == NULL || batch->release == NULL) return "batch is NULL or released";
  if (ReadJsonBatch(json_path, num_batch, &schema, &expected, &error) != NANOARROW_OK) {
    ArrowArrayRelease(batch);
    return Failed("reading the JSON batch", &error);
  }
  if (ArrowTestingCompareArray(&schema, batch, &expected, &equal, &error) != NANOARROW_OK ||
      !equal) {
    result = Failed("batch differs from the JSON", &error);
  }
  ArrowArrayRelease(&expected);
  ArrowSchemaRelease(&schema);
  ArrowArrayRelease(batch);
  return result;
}

CDATA_EXPORT int64_t nanoarrow_BytesAllocated(void) { return g_bytes_allocated; }
