/* libFuzzer harness: the projected IPC file reader over a FILE*. The input is an
 * IPC file; a projection chosen from the input's size (some of the columns, in
 * reverse order, or one column) and a coalesce gap (0, 64 or 4096 bytes) are set,
 * then every batch is read through fmemopen: each batch handed out must pass FULL
 * validation and have the projected columns. */

#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include <stdint.h>
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

static void FuzzProjectedRead(struct ArrowIpcFileReader* reader, size_t size) {
  struct ArrowSchema full;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int64_t selected[64];
  int64_t n_selected = 0;
  int64_t c;
  int64_t i;
  ArrowErrorInit(&error);
  if (ArrowIpcFileReaderGetSchema(reader, &full, &error) != NANOARROW_OK) return;
  for (c = full.n_children - 1; c >= 0 && n_selected < 64; c--) {
    if ((size_t)(c * 7 + (int64_t)size) % 3 != 0) selected[n_selected++] = c;
  }
  if (n_selected == 0 && full.n_children > 0) selected[n_selected++] = full.n_children - 1;
  ArrowSchemaRelease(&full);
  if (n_selected == 0) return;
  FUZZ_CHECK(ArrowIpcFileReaderSetCoalesceGap(reader, (int64_t[]){0, 64, 4096}[size % 3]) ==
             NANOARROW_OK);
  if (ArrowIpcFileReaderSetProjection(reader, selected, n_selected, &error) != NANOARROW_OK) {
    return;
  }
  if (ArrowIpcFileReaderGetSchema(reader, &schema, &error) != NANOARROW_OK) return;
  FUZZ_CHECK(schema.n_children == n_selected);
  FuzzTouchSchema(&schema, 0);
  for (i = 0; i < ArrowIpcFileReaderNumRecordBatches(reader); i++) {
    if (ArrowIpcFileReaderReadBatch(reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                    &error) != NANOARROW_OK) {
      continue;
    }
    FUZZ_CHECK(array.n_children == n_selected);
    FuzzCheckBatch(&schema, &array);
    ArrowArrayRelease(&array);
  }
  ArrowSchemaRelease(&schema);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  FILE* file;
  ArrowErrorInit(&error);
  if (size == 0) return 0; /* fmemopen refuses empty buffers */
  file = fmemopen((void*)data, size, "rb");
  FUZZ_CHECK(file != NULL);
  if (ArrowIpcFileReaderInitFile(&reader, file, 0, &error) == NANOARROW_OK) {
    FuzzProjectedRead(&reader, size);
    FUZZ_CHECK(ArrowIpcFileReaderBytesRead(&reader) >= 18);
    ArrowIpcFileReaderReset(&reader);
  }
  fclose(file);
  return 0;
}
