/* Build two record batches of struct<name: string, score: double>, hand them
 * out through an ArrowArrayStream and print every row the consumer receives. */
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

struct Row {
  const char* name; /* NULL means a null name */
  double score;
};

static ArrowErrorCode MakeSchema(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, 2));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_STRING));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[0], "name"));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_DOUBLE));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[1], "score"));
  return NANOARROW_OK;
}

static ArrowErrorCode MakeBatch(const struct ArrowSchema* schema, const struct Row* rows,
                                int64_t n_rows, struct ArrowArray* out,
                                struct ArrowError* error) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(out, schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(out));
  for (i = 0; i < n_rows; i++) {
    if (rows[i].name == NULL) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendNull(out->children[0], 1));
    } else {
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayAppendString(out->children[0], ArrowCharView(rows[i].name)));
    }
    NANOARROW_RETURN_NOT_OK(ArrowArrayAppendDouble(out->children[1], rows[i].score));
    NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(out));
  }
  return ArrowArrayFinishBuildingDefault(out, error);
}

static ArrowErrorCode MakeStream(struct ArrowArrayStream* stream, struct ArrowError* error) {
  static const struct Row batch0[] = {{"ada", 9.5}, {"grace", 8.25}};
  static const struct Row batch1[] = {{NULL, 1.0}, {"edsger", 7.0}, {"barbara", 9.75}};
  struct ArrowSchema schema;
  struct ArrowArray array;
  ArrowErrorCode code;

  array.release = NULL;
  code = MakeSchema(&schema);
  /* The stream takes ownership of the schema. */
  if (code == NANOARROW_OK) code = ArrowBasicArrayStreamInit(stream, &schema, 2);
  if (code != NANOARROW_OK) {
    if (schema.release != NULL) ArrowSchemaRelease(&schema);
    return code;
  }

  /* Batches are built from the stream's own copy of the schema. */
  code = ArrowArrayStreamGetSchema(stream, &schema, error);
  if (code != NANOARROW_OK) return code;

  code = MakeBatch(&schema, batch0, 2, &array, error);
  if (code == NANOARROW_OK) {
    ArrowBasicArrayStreamSetArray(stream, 0, &array);
    code = MakeBatch(&schema, batch1, 3, &array, error);
    if (code == NANOARROW_OK) ArrowBasicArrayStreamSetArray(stream, 1, &array);
  }
  if (code != NANOARROW_OK && array.release != NULL) ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  NANOARROW_RETURN_NOT_OK(code);
  return ArrowBasicArrayStreamValidate(stream, error);
}

static ArrowErrorCode PrintStream(struct ArrowArrayStream* stream, struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  char description[256];
  int64_t batch = 0;
  int64_t i;
  ArrowErrorCode code;

  NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetSchema(stream, &schema, error));
  ArrowSchemaToString(&schema, description, (int64_t)sizeof(description), 1);
  printf("schema: %s\n", description);

  code = ArrowArrayViewInitFromSchema(&view, &schema, error);
  if (code != NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    return code;
  }

  for (;;) {
    code = ArrowArrayStreamGetNext(stream, &array, error);
    if (code != NANOARROW_OK || array.release == NULL) break;

    code = ArrowArrayViewSetArray(&view, &array, error);
    if (code != NANOARROW_OK) {
      ArrowArrayRelease(&array);
      break;
    }
    printf("batch %ld: %ld rows\n", (long)batch, (long)view.length);
    for (i = 0; i < view.length; i++) {
      const struct ArrowArrayView* names = view.children[0];
      const struct ArrowArrayView* scores = view.children[1];
      double score = ArrowArrayViewGetDoubleUnsafe(scores, i);
      if (ArrowArrayViewIsNull(names, i)) {
        printf("  %-8s %6.2f\n", "(null)", score);
      } else {
        struct ArrowStringView name = ArrowArrayViewGetStringUnsafe(names, i);
        printf("  %-8.*s %6.2f\n", (int)name.size_bytes, name.data, score);
      }
    }
    ArrowArrayRelease(&array);
    batch++;
  }

  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  if (code == NANOARROW_OK && batch != 2) code = EINVAL;
  return code;
}

int main(void) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  ArrowErrorCode code;

  ArrowErrorInit(&error);
  stream.release = NULL;
  code = MakeStream(&stream, &error);
  if (code == NANOARROW_OK) code = PrintStream(&stream, &error);
  if (stream.release != NULL) ArrowArrayStreamRelease(&stream);

  if (code != NANOARROW_OK) {
    fprintf(stderr, "struct_stream failed (%d): %s\n", code, ArrowErrorMessage(&error));
    return 1;
  }
  return 0;
}
