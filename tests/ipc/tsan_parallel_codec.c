/* The parallel (de)compression paths of test_parallel_codec.c as a plain program,
 * for ThreadSanitizer: Criterion cannot start under TSan (its shared-memory arena
 * fails to map, Criterion issue #274). tools/check-parallel-tsan.sh builds the
 * library and this file with -fsanitize=thread and runs it; it exits non-zero
 * (and TSan with 66) on any difference from the serial path or any race.
 *
 *   tsan_parallel_codec DIR    (DIR: arrow-testing's 2.0.0-compression folder) */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc_private.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define CHECK(expr)                                                               \
  do {                                                                            \
    int check_rc_ = (expr);                                                       \
    if (check_rc_ != NANOARROW_OK) {                                              \
      fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #expr,       \
              check_rc_);                                                         \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

static void Load(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  if (file == NULL) {
    perror(path);
    exit(1);
  }
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  CHECK(ArrowBufferReserve(out, size));
  if (fread(out->data, 1, (size_t)size, file) != (size_t)size) exit(1);
  out->size_bytes = size;
  fclose(file);
}

/* Reads every batch of data with n_threads (0: never set): the code it stopped
 * with, its message and the number of batches. */
static int Read(const struct ArrowBuffer* data, int n_threads, char* message,
                long* n_batches) {
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int rc;
  ArrowBufferInit(&copy);
  CHECK(ArrowBufferAppend(&copy, data->data, data->size_bytes));
  CHECK(ArrowIpcInputStreamInitBuffer(&input, &copy));
  CHECK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
  if (n_threads != 0) CHECK(ArrowIpcArrayStreamReaderSetNumThreads(&stream, n_threads, &error));
  *n_batches = 0;
  message[0] = '\0';
  rc = stream.get_schema(&stream, &schema);
  if (rc == NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    while ((rc = stream.get_next(&stream, &array)) == NANOARROW_OK && array.release != NULL) {
      (*n_batches)++;
      ArrowArrayRelease(&array);
    }
  }
  if (rc != NANOARROW_OK) snprintf(message, 1024, "%s", stream.get_last_error(&stream));
  ArrowArrayStreamRelease(&stream);
  return rc;
}

/* n_batches batches of 5 float64 columns x 30,000 rows (240 KB buffers). */
static void Write(enum ArrowIpcCompressionType codec, int n_threads, int n_batches,
                  struct ArrowBuffer* out) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  int b;
  int c;
  long i;
  ArrowBufferInit(out);
  CHECK(ArrowIpcOutputStreamInitBuffer(&output, out));
  CHECK(ArrowIpcWriterInit(&writer, &output));
  if (n_threads != 0) CHECK(ArrowIpcWriterSetNumThreads(&writer, n_threads, &error));
  CHECK(ArrowIpcWriterSetCompression(&writer, codec, 0, &error));
  for (b = 0; b < n_batches; b++) {
    ArrowSchemaInit(&schema);
    CHECK(ArrowSchemaSetTypeStruct(&schema, 5));
    for (c = 0; c < 5; c++) {
      char name[8];
      snprintf(name, sizeof(name), "c%d", c);
      CHECK(ArrowSchemaSetType(schema.children[c], NANOARROW_TYPE_DOUBLE));
      CHECK(ArrowSchemaSetName(schema.children[c], name));
    }
    CHECK(ArrowArrayInitFromSchema(&array, &schema, &error));
    CHECK(ArrowArrayStartAppending(&array));
    for (i = 0; i < 30000; i++) {
      for (c = 0; c < 5; c++) {
        unsigned long value = ((unsigned long)i * 2654435761UL + (unsigned long)c * 97UL +
                               (unsigned long)b) % 1000003UL;
        CHECK(ArrowArrayAppendDouble(array.children[c], (double)value));
      }
      CHECK(ArrowArrayFinishElement(&array));
    }
    CHECK(ArrowArrayFinishBuildingDefault(&array, &error));
    if (b == 0) {
      CHECK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
      CHECK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
    }
    CHECK(ArrowArrayViewSetArray(&view, &array, &error));
    CHECK(ArrowIpcWriterWriteArrayView(&writer, &view, &error));
    ArrowArrayRelease(&array);
    ArrowSchemaRelease(&schema);
  }
  CHECK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  ArrowArrayViewReset(&view);
  ArrowIpcWriterReset(&writer);
}

int main(int argc, char** argv) {
  static const unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
  static const unsigned char kLz4Magic[4] = {0x04, 0x22, 0x4D, 0x18};
  DIR* dir;
  struct dirent* entry;
  int n_files = 0;
  int codec;
  char serial_message[1024];
  char message[1024];
  long serial_batches;
  long n_batches;
  int t;

  if (argc != 2 || (dir = opendir(argv[1])) == NULL) {
    fprintf(stderr, "usage: tsan_parallel_codec DIR (arrow-testing 2.0.0-compression)\n");
    return 2;
  }
  /* Every gold stream with every buffer queued to the threads. */
  ArrowIpcPrivateSetParallelMinBytes(0);
  while ((entry = readdir(dir)) != NULL) {
    char path[2048];
    struct ArrowBuffer data;
    int serial_rc;
    if (strstr(entry->d_name, ".stream") == NULL) continue;
    snprintf(path, sizeof(path), "%s/%s", argv[1], entry->d_name);
    Load(path, &data);
    serial_rc = Read(&data, 0, serial_message, &serial_batches);
    for (t = 2; t <= 4; t += 2) {
      int rc = Read(&data, t, message, &n_batches);
      if (rc != serial_rc || n_batches != serial_batches || strcmp(message, serial_message)) {
        fprintf(stderr, "%s: %d threads read differently\n", path, t);
        return 1;
      }
    }
    ArrowBufferReset(&data);
    n_files++;
  }
  closedir(dir);
  ArrowIpcPrivateSetParallelMinBytes(-1);

  for (codec = NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME;
       codec <= NANOARROW_IPC_COMPRESSION_TYPE_ZSTD; codec++) {
    const unsigned char* magic =
        codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ? kZstdMagic : kLz4Magic;
    struct ArrowBuffer serial;
    int64_t frames[64];
    int64_t n_frames = 0;
    int64_t k;
    int round;
    int serial_rc;
    Write((enum ArrowIpcCompressionType)codec, 0, 4, &serial);
    for (t = 2; t <= 4; t += 2) {
      struct ArrowBuffer parallel;
      Write((enum ArrowIpcCompressionType)codec, t, 4, &parallel);
      if (parallel.size_bytes != serial.size_bytes ||
          memcmp(parallel.data, serial.data, (size_t)serial.size_bytes) != 0) {
        fprintf(stderr, "codec %d: %d threads wrote different bytes\n", codec, t);
        return 1;
      }
      ArrowBufferReset(&parallel);
    }
    /* Readers made and released in a loop. */
    for (round = 0; round < 20; round++) {
      int rc = Read(&serial, 2 + round % 3, message, &n_batches);
      if (rc != NANOARROW_OK || n_batches != 4) {
        fprintf(stderr, "codec %d: read back failed (%d): %s\n", codec, rc, message);
        return 1;
      }
    }
    /* Two corrupt frames: every thread count reports the first. */
    for (k = 8; k + 4 <= serial.size_bytes && n_frames < 64; k++) {
      if (memcmp(serial.data + k, magic, 4) == 0) frames[n_frames++] = k;
    }
    if (n_frames < 4) {
      fprintf(stderr, "codec %d: found %ld frames\n", codec, (long)n_frames);
      return 1;
    }
    serial.data[frames[n_frames / 2]] ^= 0xFF;
    serial.data[frames[n_frames - 2]] ^= 0xFF;
    serial_rc = Read(&serial, 0, serial_message, &serial_batches);
    for (t = 2; t <= 4; t++) {
      int rc = Read(&serial, t, message, &n_batches);
      if (rc != serial_rc || n_batches != serial_batches || strcmp(message, serial_message)) {
        fprintf(stderr, "codec %d, %d threads: error '%s', serial '%s'\n", codec, t, message,
                serial_message);
        return 1;
      }
    }
    printf("codec %d: corrupt frame reported as: %s\n", codec, serial_message);
    ArrowBufferReset(&serial);
  }
  printf("ok: %d gold streams read alike with 2 and 4 threads; writes byte-identical; "
         "errors identical\n",
         n_files);
  return 0;
}
