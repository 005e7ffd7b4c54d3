/* libFuzzer harness: the IPC file reader. The input is an IPC file; the footer is
 * decoded from a buffer, record batches are read by index in reverse order (random
 * access), then the same bytes are read through a seekable FILE* in order. Every
 * batch handed out must pass FULL validation and be readable in full. */

#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include <stdint.h>
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

static void FuzzReadBatches(struct ArrowIpcFileReader* reader, int reverse) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int64_t n_batches = ArrowIpcFileReaderNumRecordBatches(reader);
  int64_t k;
  ArrowErrorInit(&error);
  FUZZ_CHECK(n_batches >= 0);
  if (ArrowIpcFileReaderGetSchema(reader, &schema, &error) != NANOARROW_OK) return;
  FuzzTouchSchema(&schema, 0);
  for (k = 0; k < n_batches; k++) {
    int64_t i = reverse ? n_batches - 1 - k : k;
    if (ArrowIpcFileReaderReadBatch(reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                    &error) != NANOARROW_OK) {
      continue; /* a bad batch must not spoil the others */
    }
    FuzzCheckBatch(&schema, &array);
    ArrowArrayRelease(&array);
  }
  /* Out of range indices are refused. */
  FUZZ_CHECK(ArrowIpcFileReaderReadBatch(reader, n_batches, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL,
                                         &error) != NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcFileReaderReadBatch(reader, -1, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL,
                                         &error) != NANOARROW_OK);
  ArrowSchemaRelease(&schema);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct ArrowIpcFileReader reader;
  struct ArrowBuffer buffer;
  struct ArrowError error;
  FILE* file;
  ArrowErrorInit(&error);

  ArrowBufferInit(&buffer);
  FUZZ_CHECK(ArrowBufferAppend(&buffer, data, (int64_t)size) == NANOARROW_OK);
  if (ArrowIpcFileReaderInitBuffer(&reader, &buffer, &error) == NANOARROW_OK) {
    FuzzReadBatches(&reader, 1);
    ArrowIpcFileReaderReset(&reader);
  }
  ArrowBufferReset(&buffer);

  if (size == 0) return 0; /* fmemopen refuses empty buffers */
  file = fmemopen((void*)data, size, "rb");
  FUZZ_CHECK(file != NULL);
  /* close_on_release 0: whether a failed init closes the file is not documented. */
  if (ArrowIpcFileReaderInitFile(&reader, file, 0, &error) == NANOARROW_OK) {
    FuzzReadBatches(&reader, 0);
    ArrowIpcFileReaderReset(&reader);
  }
  fclose(file);
  return 0;
}
