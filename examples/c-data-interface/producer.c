/* Producer side of the C Data Interface example: builds record batches with
 * nanoarrow and hands them out as an ArrowArrayStream. */
#include "nanoarrow/nanoarrow.h"

#include "producer.h"

static ArrowErrorCode MakeSchema(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, 2));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_STRING));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[0], "sensor"));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_DOUBLE));
  return ArrowSchemaSetName(schema->children[1], "celsius");
}

/* Batch b holds three readings; every fourth reading is missing (null). */
static ArrowErrorCode MakeBatch(const struct ArrowSchema* schema, int b,
                                struct ArrowArray* out) {
  static const char* const kSensors[] = {"north", "south", "east"};
  int i;
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(out, schema, NULL));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(out));
  for (i = 0; i < 3; i++) {
    int reading = b * 3 + i;
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayAppendString(out->children[0], ArrowCharView(kSensors[i])));
    if (reading % 4 == 3) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendNull(out->children[1], 1));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendDouble(out->children[1], 15.0 + reading * 0.5));
    }
    NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(out));
  }
  return ArrowArrayFinishBuildingDefault(out, NULL);
}

int ProducerExportReadings(int n_batches, struct ArrowArrayStream* out) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  int b;
  ArrowErrorCode code = MakeSchema(&schema);
  if (code != NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    return code;
  }
  /* On success the stream owns the schema (and leaves ours released). */
  code = ArrowBasicArrayStreamInit(out, &schema, n_batches);
  if (code != NANOARROW_OK) {
    if (schema.release != NULL) ArrowSchemaRelease(&schema);
    return code;
  }

  code = ArrowArrayStreamGetSchema(out, &schema, NULL);
  for (b = 0; code == NANOARROW_OK && b < n_batches; b++) {
    code = MakeBatch(&schema, b, &batch);
    if (code == NANOARROW_OK) {
      ArrowBasicArrayStreamSetArray(out, b, &batch);
    } else if (batch.release != NULL) {
      ArrowArrayRelease(&batch);
    }
  }
  if (schema.release != NULL) ArrowSchemaRelease(&schema);
  if (code != NANOARROW_OK) ArrowArrayStreamRelease(out);
  return code;
}
