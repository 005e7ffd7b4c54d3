/* Consumer side of the C Data Interface example: imports the producer's
 * ArrowArrayStream and reads it with nanoarrow's ArrowArrayView, validating
 * each batch before touching its buffers (data from outside is untrusted). */
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

#include "producer.h"

static int ReadStream(struct ArrowArrayStream* stream) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowArrayView view;
  struct ArrowError error;
  double total = 0;
  int64_t n_rows = 0, n_missing = 0, i;
  int code;

  ArrowErrorInit(&error);
  code = ArrowArrayStreamGetSchema(stream, &schema, &error);
  if (code != NANOARROW_OK) {
    fprintf(stderr, "get_schema failed: %s\n", ArrowErrorMessage(&error));
    return code;
  }
  code = ArrowArrayViewInitFromSchema(&view, &schema, &error);
  ArrowSchemaRelease(&schema);
  if (code != NANOARROW_OK) {
    fprintf(stderr, "unsupported schema: %s\n", ArrowErrorMessage(&error));
    return code;
  }

  for (;;) {
    code = ArrowArrayStreamGetNext(stream, &batch, &error);
    if (code != NANOARROW_OK || batch.release == NULL) break;
    code = ArrowArrayViewSetArray(&view, &batch, &error);
    if (code != NANOARROW_OK) {
      ArrowArrayRelease(&batch);
      break;
    }
    for (i = 0; i < view.length; i++) {
      struct ArrowStringView sensor = ArrowArrayViewGetStringUnsafe(view.children[0], i);
      if (ArrowArrayViewIsNull(view.children[1], i)) {
        printf("%-6.*s  (missing)\n", (int)sensor.size_bytes, sensor.data);
        n_missing++;
      } else {
        double celsius = ArrowArrayViewGetDoubleUnsafe(view.children[1], i);
        printf("%-6.*s  %5.1f C\n", (int)sensor.size_bytes, sensor.data, celsius);
        total += celsius;
      }
      n_rows++;
    }
    ArrowArrayRelease(&batch);
  }
  ArrowArrayViewReset(&view);

  if (code != NANOARROW_OK) {
    fprintf(stderr, "reading the stream failed: %s\n", ArrowErrorMessage(&error));
    return code;
  }
  printf("%ld readings, %ld missing, mean %.2f C\n", (long)n_rows, (long)n_missing,
         n_rows > n_missing ? total / (double)(n_rows - n_missing) : 0.0);
  return n_rows == 12 && n_missing == 3 ? 0 : 1;
}

int main(void) {
  struct ArrowArrayStream stream;
  int code = ProducerExportReadings(4, &stream);
  if (code != 0) {
    fprintf(stderr, "the producer failed with errno %d\n", code);
    return 1;
  }
  code = ReadStream(&stream);
  stream.release(&stream);
  return code == 0 ? 0 : 1;
}
