/* Writes the fixture of bench/ipc_mmap_benchmark.cc: an uncompressed IPC file of
 * about SIZE_MIB MiB made of batches of 8 int64 columns x 131,072 rows (8 MiB of
 * values per batch), values from a fixed-seed generator.
 *
 *     make_mmap_fixture OUT_PATH SIZE_MIB
 *
 * The file is written under OUT_PATH.tmp and renamed when complete, so an
 * interrupted run never leaves a truncated fixture behind. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define MMAP_FIXTURE_COLUMNS 8
#define MMAP_FIXTURE_ROWS 131072

static ArrowErrorCode WriteFixture(FILE* file, int64_t n_batches, struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  uint64_t state = UINT64_C(0x6d6d61702d6e616e);
  ArrowErrorCode code;
  char name[16];

  ArrowSchemaInit(&schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(&schema, MMAP_FIXTURE_COLUMNS));
  for (int c = 0; c < MMAP_FIXTURE_COLUMNS; c++) {
    snprintf(name, sizeof(name), "c%d", c);
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema.children[c], NANOARROW_TYPE_INT64));
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema.children[c], name));
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(&array, &schema, error));
  for (int c = 0; c < MMAP_FIXTURE_COLUMNS; c++) {
    struct ArrowBuffer* values = ArrowArrayBuffer(array.children[c], 1);
    NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(values, MMAP_FIXTURE_ROWS * 8));
    values->size_bytes = MMAP_FIXTURE_ROWS * 8;
    array.children[c]->length = MMAP_FIXTURE_ROWS;
    array.children[c]->null_count = 0;
  }
  array.length = MMAP_FIXTURE_ROWS;
  array.null_count = 0;
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishBuildingDefault(&array, error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(&view, &schema, error));

  NANOARROW_RETURN_NOT_OK(ArrowIpcOutputStreamInitFile(&stream, file, 0));
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterInit(&writer, &stream));
  code = ArrowIpcWriterStartFile(&writer, error);
  if (code == NANOARROW_OK) code = ArrowIpcWriterWriteSchema(&writer, &schema, error);
  for (int64_t b = 0; b < n_batches && code == NANOARROW_OK; b++) {
    for (int c = 0; c < MMAP_FIXTURE_COLUMNS; c++) {
      int64_t* values = (int64_t*)array.children[c]->buffers[1];
      for (int64_t r = 0; r < MMAP_FIXTURE_ROWS; r++) {
        /* xorshift64: the same values on every platform. */
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        values[r] = (int64_t)(state >> 16);
      }
    }
    code = ArrowArrayViewSetArray(&view, &array, error);
    if (code == NANOARROW_OK) code = ArrowIpcWriterWriteArrayView(&writer, &view, error);
  }
  if (code == NANOARROW_OK) code = ArrowIpcWriterFinalizeFile(&writer, error);
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return code;
}

int main(int argc, char** argv) {
  char tmp_path[4096];
  struct ArrowError error;
  long size_mib;
  int64_t n_batches;
  FILE* file;
  ArrowErrorCode code;
  if (argc != 3 || (size_mib = strtol(argv[2], NULL, 10)) <= 0) {
    fprintf(stderr, "usage: %s OUT_PATH SIZE_MIB\n", argv[0]);
    return 2;
  }
  /* 8 MiB of values per batch; at least one batch. */
  n_batches = size_mib / 8 > 0 ? size_mib / 8 : 1;
  if (snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", argv[1]) >= (int)sizeof(tmp_path)) {
    fprintf(stderr, "make_mmap_fixture: path too long\n");
    return 2;
  }
  file = fopen(tmp_path, "wb");
  if (file == NULL) {
    fprintf(stderr, "make_mmap_fixture: cannot create %s: %s\n", tmp_path, strerror(errno));
    return 1;
  }
  error.message[0] = '\0';
  code = WriteFixture(file, n_batches, &error);
  if (fclose(file) != 0 && code == NANOARROW_OK) code = EIO;
  if (code != NANOARROW_OK || rename(tmp_path, argv[1]) != 0) {
    fprintf(stderr, "make_mmap_fixture: cannot write %s: %s\n", argv[1],
            error.message[0] != '\0' ? error.message : strerror(errno));
    remove(tmp_path);
    return 1;
  }
  printf("make_mmap_fixture: %s (%ld batches of 8 MiB)\n", argv[1], (long)n_batches);
  return 0;
}
