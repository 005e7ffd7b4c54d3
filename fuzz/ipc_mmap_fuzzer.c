/* libFuzzer harness: the memory-mapped IPC readers (ArrowIpcFileReaderInitMmap,
 * ArrowIpcInputStreamInitMmap). The input is written to a file this harness owns
 * (a memfd on Linux when the headers declare memfd_create, otherwise one temporary
 * file under /tmp made once per process, rewritten on each run and removed at
 * exit), then read through a map three ways:
 *  1. the file reader: schema, every batch by index (forward or reverse), each
 *     ending exactly as the same reader over a heap copy of the bytes ends (status,
 *     error text, length); one batch is kept past the reader's reset and read again
 *     in full (the map must outlive the reader while an array uses it);
 *  2. the stream reader over the mapped input stream (shared or copied bodies,
 *     optionally with a projection), ending as the same reader over a heap buffer
 *     does; one batch is kept past the stream's release;
 *  3. the file reader with a projection of some columns, read by index or through
 *     ArrowIpcFileReaderArrayStream, one batch kept past the reader or stream.
 * Every batch handed out must pass FULL validation and be readable in full. After
 * each run no map of the file may remain (checked in /proc/self/maps where it
 * exists) and no descriptor may have leaked. The choices (order, projection,
 * options) come from a hash of the input, so that seeds stay valid IPC files. */

#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* memfd_create; without it the temporary file is used */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

/* ---- The file the input is written to ---- */

struct MmapFuzzFile {
  int fd;
  int is_temporary; /* a named file to remove at exit (not a memfd) */
  char path[128];
  char map_name[128]; /* how its maps are named in /proc/self/maps */
};

static struct MmapFuzzFile mmap_fuzz_file = {-1, 0, "", ""};

static void MmapFuzzRemoveFile(void) {
  if (mmap_fuzz_file.is_temporary) unlink(mmap_fuzz_file.path);
  if (mmap_fuzz_file.fd >= 0) close(mmap_fuzz_file.fd);
  mmap_fuzz_file.fd = -1;
  mmap_fuzz_file.is_temporary = 0;
}

static void MmapFuzzOpenFile(void) {
  struct MmapFuzzFile* file = &mmap_fuzz_file;
  if (file->fd >= 0) return;
#if defined(MFD_CLOEXEC)
  file->fd = memfd_create("nanoarrow_ipc_mmap_fuzzer", MFD_CLOEXEC);
  if (file->fd >= 0) {
    snprintf(file->path, sizeof(file->path), "/proc/self/fd/%d", file->fd);
    snprintf(file->map_name, sizeof(file->map_name), "/memfd:nanoarrow_ipc_mmap_fuzzer");
    if (access(file->path, R_OK) == 0) return;
    close(file->fd); /* no /proc: a named file instead */
    file->fd = -1;
  }
#endif
  snprintf(file->path, sizeof(file->path), "/tmp/nanoarrow_ipc_mmap_fuzzer_XXXXXX");
  file->fd = mkstemp(file->path);
  FUZZ_CHECK(file->fd >= 0);
  FUZZ_CHECK(fcntl(file->fd, F_SETFD, FD_CLOEXEC) == 0);
  snprintf(file->map_name, sizeof(file->map_name), "%s", file->path);
  file->is_temporary = 1;
  atexit(&MmapFuzzRemoveFile);
}

/* The file becomes exactly data[0..size). */
static void MmapFuzzWriteFile(const uint8_t* data, size_t size) {
  size_t done = 0;
  FUZZ_CHECK(ftruncate(mmap_fuzz_file.fd, 0) == 0);
  while (done < size) {
    ssize_t n = pwrite(mmap_fuzz_file.fd, data + done, size - done, (off_t)done);
    if (n < 0 && errno == EINTR) continue;
    FUZZ_CHECK(n > 0);
    done += (size_t)n;
  }
}

/* Maps of the file listed in /proc/self/maps (0 where that cannot be read). */
static int MmapFuzzCountMaps(void) {
  char line[4096];
  int n = 0;
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return 0;
  while (fgets(line, sizeof(line), maps) != NULL) {
    if (strstr(line, mmap_fuzz_file.map_name) != NULL) n++;
  }
  fclose(maps);
  return n;
}

/* The lowest free descriptor: the same before and after a run unless one leaked. */
static int MmapFuzzLowestFreeFd(void) {
  int probe = dup(mmap_fuzz_file.fd);
  FUZZ_CHECK(probe >= 0);
  close(probe);
  return probe;
}

/* ---- Choices taken from the input ---- */

struct MmapFuzzChoice {
  int reverse;             /* file reader: batches from last to first */
  int copy_bodies;         /* stream reader: use_shared_buffers 0 */
  int stream_projection;   /* stream reader: a projection of `columns` */
  int projected_reverse;   /* projection: columns in reverse order */
  int projected_as_stream; /* projection: read through ArrowIpcFileReaderArrayStream */
  uint8_t columns;         /* bit c % 8 selects column c */
};

static struct MmapFuzzChoice MmapFuzzChoose(const uint8_t* data, size_t size) {
  struct MmapFuzzChoice choice;
  uint32_t hash = 2166136261u; /* FNV-1a */
  size_t i;
  for (i = 0; i < size; i++) hash = (hash ^ data[i]) * 16777619u;
  choice.reverse = (int)(hash & 1);
  choice.copy_bodies = (int)((hash >> 1) & 1);
  choice.stream_projection = (int)((hash >> 2) & 1);
  choice.projected_reverse = (int)((hash >> 3) & 1);
  choice.projected_as_stream = (int)((hash >> 4) & 1);
  choice.columns = (uint8_t)(hash >> 8);
  return choice;
}

/* Up to 64 distinct column indices of a schema with n_columns columns. */
static int64_t MmapFuzzSelect(int64_t n_columns, uint8_t columns, int reverse,
                              int64_t* out) {
  int64_t n = 0;
  int64_t c;
  for (c = 0; c < n_columns && n < 64; c++) {
    if ((columns >> (c % 8)) & 1) out[n++] = c;
  }
  if (n == 0 && n_columns > 0) out[n++] = columns % n_columns;
  if (reverse) {
    for (c = 0; c < n / 2; c++) {
      int64_t swap = out[c];
      out[c] = out[n - 1 - c];
      out[n - 1 - c] = swap;
    }
  }
  return n;
}

/* Keeps the first batch read (for MmapFuzzCheckKept); releases the others. */
static void MmapFuzzKeepFirst(struct ArrowArray* array, struct ArrowArray* kept) {
  if (kept->release == NULL) {
    ArrowArrayMove(array, kept);
  } else {
    ArrowArrayRelease(array);
  }
}

/* A batch kept after what produced it is gone: readable in full, then released. */
static void MmapFuzzCheckKept(const struct ArrowSchema* schema, struct ArrowArray* kept) {
  if (kept->release == NULL) return;
  FuzzCheckBatch(schema, kept);
  ArrowArrayRelease(kept);
}

/* ---- 1. The file reader over the map, beside the same reader over a copy ---- */

static void MmapFuzzFileReader(const uint8_t* data, size_t size,
                               const struct MmapFuzzChoice* choice) {
  struct ArrowIpcFileReader reader;
  struct ArrowIpcFileReader reference;
  struct ArrowBuffer copy;
  struct ArrowSchema schema;
  struct ArrowSchema reference_schema;
  struct ArrowArray array;
  struct ArrowArray expected;
  struct ArrowArray kept;
  struct ArrowError error;
  struct ArrowError reference_error;
  ArrowErrorCode code;
  ArrowErrorCode reference_code;
  int64_t n_batches;
  int64_t k;
  ArrowErrorInit(&error);
  ArrowErrorInit(&reference_error);
  kept.release = NULL;

  code = ArrowIpcFileReaderInitMmap(&reader, mmap_fuzz_file.path, &error);
  ArrowBufferInit(&copy);
  FUZZ_CHECK(ArrowBufferAppend(&copy, data, (int64_t)size) == NANOARROW_OK);
  reference_code = ArrowIpcFileReaderInitBuffer(&reference, &copy, &reference_error);
  ArrowBufferReset(&copy);
  if (code != NANOARROW_OK) {
    /* Refused as the buffer reader refuses it, the message naming the path. */
    FUZZ_CHECK(size == 0 || code == reference_code);
    FUZZ_CHECK(strstr(error.message, mmap_fuzz_file.path) != NULL);
    if (reference_code == NANOARROW_OK) ArrowIpcFileReaderReset(&reference);
    return;
  }
  FUZZ_CHECK(reference_code == NANOARROW_OK);

  n_batches = ArrowIpcFileReaderNumRecordBatches(&reader);
  FUZZ_CHECK(n_batches >= 0);
  FUZZ_CHECK(n_batches == ArrowIpcFileReaderNumRecordBatches(&reference));
  code = ArrowIpcFileReaderGetSchema(&reader, &schema, &error);
  reference_code = ArrowIpcFileReaderGetSchema(&reference, &reference_schema, &reference_error);
  FUZZ_CHECK(code == reference_code);
  if (reference_code == NANOARROW_OK) ArrowSchemaRelease(&reference_schema);
  if (code != NANOARROW_OK) {
    FUZZ_CHECK(error.message[0] != '\0');
    ArrowIpcFileReaderReset(&reader);
    ArrowIpcFileReaderReset(&reference);
    return;
  }
  FuzzTouchSchema(&schema, 0);

  for (k = 0; k < n_batches; k++) {
    int64_t i = choice->reverse ? n_batches - 1 - k : k;
    code = ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                       &error);
    reference_code = ArrowIpcFileReaderReadBatch(
        &reference, i, &expected, NANOARROW_VALIDATION_LEVEL_FULL, &reference_error);
    FUZZ_CHECK(code == reference_code);
    if (code != NANOARROW_OK) {
      /* A bad batch must not spoil the others, and is explained. */
      FUZZ_CHECK(error.message[0] != '\0');
      FUZZ_CHECK(strcmp(error.message, reference_error.message) == 0);
      continue;
    }
    FUZZ_CHECK(array.length == expected.length);
    FUZZ_CHECK(array.null_count == expected.null_count);
    FUZZ_CHECK(array.n_children == expected.n_children);
    ArrowArrayRelease(&expected);
    FuzzCheckBatch(&schema, &array);
    MmapFuzzKeepFirst(&array, &kept);
  }
  /* Out of range indices are refused. */
  FUZZ_CHECK(ArrowIpcFileReaderReadBatch(&reader, n_batches, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL,
                                         &error) != NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcFileReaderReadBatch(&reader, -1, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL,
                                         &error) != NANOARROW_OK);
  ArrowIpcFileReaderReset(&reader);
  ArrowIpcFileReaderReset(&reference);
  MmapFuzzCheckKept(&schema, &kept);
  ArrowSchemaRelease(&schema);
}

/* ---- 2. The stream reader over the mapped input stream ---- */

/* How a read of a whole stream ended. */
struct MmapFuzzStreamEnd {
  int64_t n_batches;
  ArrowErrorCode code;
  char message[sizeof(((struct ArrowError*)0)->message)];
};

/* Reads every batch of input (taken over) as the choice says; keeps the first
 * batch past the stream's release when keep. */
static void MmapFuzzDrain(struct ArrowIpcInputStream* input,
                          const struct MmapFuzzChoice* choice, int keep,
                          struct MmapFuzzStreamEnd* out) {
  struct ArrowIpcArrayStreamReaderOptions options;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray kept;
  struct ArrowError error;
  int64_t selected[8];
  int64_t n_selected = 0;
  int c;
  ArrowErrorInit(&error);
  kept.release = NULL;
  schema.release = NULL;
  out->n_batches = -1;
  options.field_index = -1;
  options.use_shared_buffers = !choice->copy_bodies;
  FUZZ_CHECK(ArrowIpcArrayStreamReaderInit(&stream, input, &options) == NANOARROW_OK);
  if (choice->stream_projection) {
    /* Indices past the schema's columns are refused by get_schema. */
    for (c = 0; c < 8; c++) {
      if ((choice->columns >> c) & 1) selected[n_selected++] = c;
    }
    if (n_selected == 0) selected[n_selected++] = 0;
    FUZZ_CHECK(ArrowIpcArrayStreamReaderSetProjection(&stream, selected, n_selected,
                                                      &error) == NANOARROW_OK);
  }

  out->code = ArrowArrayStreamGetSchema(&stream, &schema, &error);
  if (out->code == NANOARROW_OK) {
    FuzzTouchSchema(&schema, 0);
    if (choice->stream_projection) FUZZ_CHECK(schema.n_children == n_selected);
    out->n_batches = 0;
    /* Bounded: each batch consumes input, but guard against a reader that loops. */
    while (out->n_batches < 1000000) {
      out->code = ArrowArrayStreamGetNext(&stream, &array, &error);
      if (out->code != NANOARROW_OK || array.release == NULL) break;
      FuzzCheckBatch(&schema, &array);
      if (keep && kept.release == NULL) {
        ArrowArrayMove(&array, &kept);
      } else {
        ArrowArrayRelease(&array);
      }
      out->n_batches++;
    }
    FUZZ_CHECK(out->n_batches < 1000000);
  }
  if (out->code != NANOARROW_OK) FUZZ_CHECK(error.message[0] != '\0');
  memcpy(out->message, error.message, sizeof(out->message));
  ArrowArrayStreamRelease(&stream);
  if (schema.release != NULL) {
    MmapFuzzCheckKept(&schema, &kept);
    ArrowSchemaRelease(&schema);
  }
  FUZZ_CHECK(kept.release == NULL);
}

static void MmapFuzzStreamReader(const uint8_t* data, size_t size,
                                 const struct MmapFuzzChoice* choice) {
  struct ArrowIpcInputStream input;
  struct ArrowBuffer copy;
  struct ArrowError error;
  struct MmapFuzzStreamEnd mapped;
  struct MmapFuzzStreamEnd expected;
  ArrowErrorInit(&error);

  /* Opening a readable regular file cannot fail, whatever it holds. */
  if (ArrowIpcInputStreamInitMmap(&input, mmap_fuzz_file.path, &error) != NANOARROW_OK) {
    fprintf(stderr, "could not map %s: %s\n", mmap_fuzz_file.path, error.message);
    abort();
  }
  MmapFuzzDrain(&input, choice, 1, &mapped);

  ArrowBufferInit(&copy);
  FUZZ_CHECK(ArrowBufferAppend(&copy, data, (int64_t)size) == NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcInputStreamInitBuffer(&input, &copy) == NANOARROW_OK);
  MmapFuzzDrain(&input, choice, 0, &expected);
  ArrowBufferReset(&copy);

  FUZZ_CHECK(mapped.n_batches == expected.n_batches);
  FUZZ_CHECK(mapped.code == expected.code);
  FUZZ_CHECK(mapped.code == NANOARROW_OK || strcmp(mapped.message, expected.message) == 0);
}

/* ---- 3. The file reader over the map with a projection ---- */

static void MmapFuzzProjected(const struct MmapFuzzChoice* choice) {
  struct ArrowIpcFileReader reader;
  struct ArrowArrayStream stream;
  struct ArrowSchema full;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray kept;
  struct ArrowError error;
  int64_t selected[64];
  int64_t n_selected;
  int64_t i;
  ArrowErrorInit(&error);
  kept.release = NULL;

  if (ArrowIpcFileReaderInitMmap(&reader, mmap_fuzz_file.path, &error) != NANOARROW_OK) {
    return; /* part 1 checked how */
  }
  if (ArrowIpcFileReaderGetSchema(&reader, &full, &error) != NANOARROW_OK) {
    ArrowIpcFileReaderReset(&reader);
    return;
  }
  n_selected = MmapFuzzSelect(full.n_children, choice->columns, choice->projected_reverse,
                              selected);
  ArrowSchemaRelease(&full);
  if (n_selected == 0 ||
      ArrowIpcFileReaderSetProjection(&reader, selected, n_selected, &error) !=
          NANOARROW_OK ||
      ArrowIpcFileReaderGetSchema(&reader, &schema, &error) != NANOARROW_OK) {
    ArrowIpcFileReaderReset(&reader);
    return;
  }
  FUZZ_CHECK(schema.n_children == n_selected);
  FuzzTouchSchema(&schema, 0);

  if (choice->projected_as_stream) {
    /* The stream takes the reader over; it is released before the kept batch. */
    if (ArrowIpcFileReaderArrayStream(&reader, &stream, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error) != NANOARROW_OK) {
      ArrowIpcFileReaderReset(&reader);
      ArrowSchemaRelease(&schema);
      return;
    }
    for (i = 0; i < 1000000; i++) {
      if (ArrowArrayStreamGetNext(&stream, &array, &error) != NANOARROW_OK ||
          array.release == NULL) {
        break;
      }
      FUZZ_CHECK(array.n_children == n_selected);
      FuzzCheckBatch(&schema, &array);
      MmapFuzzKeepFirst(&array, &kept);
    }
    ArrowArrayStreamRelease(&stream);
  } else {
    for (i = 0; i < ArrowIpcFileReaderNumRecordBatches(&reader); i++) {
      if (ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error) != NANOARROW_OK) {
        FUZZ_CHECK(error.message[0] != '\0');
        continue;
      }
      FUZZ_CHECK(array.n_children == n_selected);
      FuzzCheckBatch(&schema, &array);
      MmapFuzzKeepFirst(&array, &kept);
    }
    ArrowIpcFileReaderReset(&reader);
  }
  MmapFuzzCheckKept(&schema, &kept);
  ArrowSchemaRelease(&schema);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct MmapFuzzChoice choice = MmapFuzzChoose(data, size);
  int lowest_free_fd;
  MmapFuzzOpenFile();
  MmapFuzzWriteFile(data, size);
  lowest_free_fd = MmapFuzzLowestFreeFd();

  MmapFuzzFileReader(data, size, &choice);
  MmapFuzzStreamReader(data, size, &choice);
  MmapFuzzProjected(&choice);

  /* Every array is released: nothing may still map the file or hold it open. */
  FUZZ_CHECK(MmapFuzzCountMaps() == 0);
  FUZZ_CHECK(MmapFuzzLowestFreeFd() == lowest_free_fd);
  return 0;
}
