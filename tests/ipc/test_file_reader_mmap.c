/* ArrowIpcFileReaderInitMmap / ArrowIpcInputStreamInitMmap: the same batches as the
 * buffer readers, zero-copy into the map, the map's lifetime tied to the last array,
 * only the pages read are mapped in, and hostile files give errors. The mapping is
 * observed from outside the library through /proc/self/maps and /proc/self/pagemap
 * (Linux); where those do not exist, the checks that need them are skipped. */

#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/writer_test_util.h"

/* ---- Observing the process's mappings ---- */

struct Mapping {
  uintptr_t start;
  uintptr_t end;
};

/* The mappings of the file at path listed in /proc/self/maps (at most max_out are
 * stored); -1 when /proc/self/maps cannot be read. */
static int FindMappings(const char* path, struct Mapping* out, int max_out) {
  char resolved[PATH_MAX];
  char line[PATH_MAX + 256];
  FILE* maps;
  int n = 0;
  if (realpath(path, resolved) == NULL) return -1;
  maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return -1;
  while (fgets(line, sizeof(line), maps) != NULL) {
    unsigned long start;
    unsigned long end;
    char* name = strchr(line, '/');
    size_t len;
    if (name == NULL) continue;
    len = strlen(name);
    if (len > 0 && name[len - 1] == '\n') name[len - 1] = '\0';
    if (strcmp(name, resolved) != 0) continue;
    if (sscanf(line, "%lx-%lx", &start, &end) != 2) continue;
    if (n < max_out) {
      out[n].start = (uintptr_t)start;
      out[n].end = (uintptr_t)end;
    }
    n++;
  }
  fclose(maps);
  return n;
}

static int HaveProcMaps(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return 0;
  fclose(maps);
  return 1;
}

/* Pages of [start, end) present in this process's page table (/proc/self/pagemap
 * bit 63); -1 when pagemap cannot be read. */
static int64_t CountPresentPages(uintptr_t start, uintptr_t end) {
  long page = sysconf(_SC_PAGESIZE);
  int fd = open("/proc/self/pagemap", O_RDONLY);
  int64_t n = 0;
  uintptr_t p;
  if (fd < 0 || page <= 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  for (p = start; p < end; p += (uintptr_t)page) {
    uint64_t entry;
    off_t at = (off_t)((p / (uintptr_t)page) * sizeof(entry));
    if (pread(fd, &entry, sizeof(entry), at) != (ssize_t)sizeof(entry)) {
      close(fd);
      return -1;
    }
    n += (entry >> 63) & 1;
  }
  close(fd);
  return n;
}

/* ---- Files ---- */

static int ReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  if (file == NULL) return EIO;
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  if (ArrowBufferReserve(out, size > 0 ? size : 1) != NANOARROW_OK ||
      fread(out->data, 1, (size_t)size, file) != (size_t)size) {
    fclose(file);
    ArrowBufferReset(out);
    return EIO;
  }
  out->size_bytes = size;
  fclose(file);
  return NANOARROW_OK;
}

/* Writes size bytes of data into a new temporary file; its path into path. */
static void WriteTempFile(const void* data, int64_t size, char* path, size_t path_size) {
  int fd;
  snprintf(path, path_size, "/tmp/nanoarrow_mmap_test_XXXXXX");
  fd = mkstemp(path);
  cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
  if (size > 0) {
    cr_assert_eq(write(fd, data, (size_t)size), (ssize_t)size);
  }
  close(fd);
}

static int EndsWith(const char* name, const char* suffix) {
  size_t n = strlen(name);
  size_t m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

/* ---- Comparing two decodings of the same bytes ---- */

struct Region {
  const uint8_t* base;
  int64_t size;
};

static int InRegion(const void* ptr, struct Region region) {
  const uint8_t* p = (const uint8_t*)ptr;
  return ptr != NULL && region.base != NULL && p >= region.base &&
         p < region.base + region.size;
}

/* Same values, byte for byte, in every buffer; every buffer that the buffer reader
 * shares from its input (inside `copied`) lies inside the map at the same offset.
 * Counts those in *n_zero_copy and the others in *n_other. */
static void CompareViews(const char* what, const struct ArrowArrayView* a,
                         const struct ArrowArrayView* m, struct Region copied,
                         struct Region mapped, int64_t* n_zero_copy, int64_t* n_other) {
  int i;
  int64_t c;
  cr_assert_eq(a->length, m->length, "%s", what);
  cr_assert_eq(a->offset, m->offset, "%s", what);
  cr_assert_eq(a->null_count, m->null_count, "%s", what);
  cr_assert_eq(a->n_children, m->n_children, "%s", what);
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    const struct ArrowBufferView* av = &a->buffer_views[i];
    const struct ArrowBufferView* mv = &m->buffer_views[i];
    cr_assert_eq(av->size_bytes, mv->size_bytes, "%s buffer %d", what, i);
    if (av->size_bytes > 0) {
      cr_assert(memcmp(av->data.data, mv->data.data, (size_t)av->size_bytes) == 0,
                "%s buffer %d differs", what, i);
      if (InRegion(av->data.data, copied)) {
        cr_assert(InRegion(mv->data.data, mapped),
                  "%s buffer %d: shared by the buffer reader, copied by the map reader",
                  what, i);
        cr_assert_eq(mv->data.as_uint8 - mapped.base, av->data.as_uint8 - copied.base,
                     "%s buffer %d at another file offset", what, i);
        (*n_zero_copy)++;
      } else {
        cr_assert(!InRegion(mv->data.data, mapped), "%s buffer %d", what, i);
        (*n_other)++;
      }
    }
  }
  cr_assert_eq(a->n_variadic_buffers, m->n_variadic_buffers, "%s", what);
  for (i = 0; i < a->n_variadic_buffers; i++) {
    cr_assert_eq(a->variadic_buffer_sizes[i], m->variadic_buffer_sizes[i], "%s", what);
    if (a->variadic_buffer_sizes[i] > 0) {
      cr_assert(memcmp(a->variadic_buffers[i], m->variadic_buffers[i],
                       (size_t)a->variadic_buffer_sizes[i]) == 0,
                "%s variadic buffer %d differs", what, i);
      if (InRegion(a->variadic_buffers[i], copied)) {
        cr_assert(InRegion(m->variadic_buffers[i], mapped), "%s variadic %d", what, i);
        (*n_zero_copy)++;
      }
    }
  }
  for (c = 0; c < a->n_children; c++) {
    CompareViews(what, a->children[c], m->children[c], copied, mapped, n_zero_copy,
                 n_other);
  }
  cr_assert_eq(a->dictionary == NULL, m->dictionary == NULL, "%s", what);
  if (a->dictionary != NULL) {
    CompareViews(what, a->dictionary, m->dictionary, copied, mapped, n_zero_copy,
                 n_other);
  }
}

static void CompareArrays(const char* what, const struct ArrowSchema* schema,
                          const struct ArrowArray* a, const struct ArrowArray* m,
                          struct Region copied, struct Region mapped, int64_t* n_zero_copy,
                          int64_t* n_other) {
  struct ArrowArrayView av;
  struct ArrowArrayView mv;
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewInitFromSchema(&av, schema, &error), NANOARROW_OK, "%s: %s",
               what, error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&mv, schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&av, a, &error), NANOARROW_OK, "%s: %s", what,
               error.message);
  cr_assert_eq(ArrowArrayViewSetArray(&mv, m, &error), NANOARROW_OK, "%s: %s", what,
               error.message);
  CompareViews(what, &av, &mv, copied, mapped, n_zero_copy, n_other);
  ArrowArrayViewReset(&av);
  ArrowArrayViewReset(&mv);
}

static int NeedsMissingCodec(const char* path) {
  if (strstr(path, "zstd") != NULL) return ArrowIpcGetZstdDecompressionFunction() == NULL;
  if (strstr(path, "lz4") != NULL) return ArrowIpcGetLZ4DecompressionFunction() == NULL;
  return 0;
}

static const char* kIntegrationDirs[] = {"0.14.1", "0.17.1", "1.0.0-bigendian",
                                         "1.0.0-littleendian", "2.0.0-compression",
                                         "4.0.0-shareddict", "cpp-21.0.0"};

struct Totals {
  int n_files;
  int64_t n_batches;
  int64_t n_zero_copy;
  int64_t n_other;
  int64_t n_zero_copy_compressed_dir;
  int64_t n_other_compressed_dir;
};

/* Reads the file at path through InitBuffer and InitMmap and compares every batch. */
static void CheckFileMatchesBuffer(const char* path, struct Totals* totals) {
  struct ArrowBuffer data;
  struct ArrowIpcFileReader buffer_reader;
  struct ArrowIpcFileReader map_reader;
  struct ArrowSchema buffer_schema;
  struct ArrowSchema map_schema;
  struct ArrowError error;
  struct Region copied;
  struct Region mapped = {NULL, 0};
  struct Mapping mappings[4];
  char schema_a[4096];
  char schema_m[4096];
  int64_t n;
  int64_t i;
  int compressed_dir = strstr(path, "compression") != NULL;

  cr_assert_eq(ReadWholeFile(path, &data), NANOARROW_OK, "could not read %s", path);
  copied.base = data.data;
  copied.size = data.size_bytes;
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&buffer_reader, &data, &error), NANOARROW_OK,
               "%s: %s", path, error.message);
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&map_reader, path, &error), NANOARROW_OK,
               "%s: %s", path, error.message);
  if (HaveProcMaps()) {
    cr_assert_eq(FindMappings(path, mappings, 4), 1, "%s is not mapped once", path);
    mapped.base = (const uint8_t*)mappings[0].start;
    mapped.size = copied.size;
  }

  cr_assert_eq(ArrowIpcFileReaderGetSchema(&buffer_reader, &buffer_schema, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowIpcFileReaderGetSchema(&map_reader, &map_schema, &error), NANOARROW_OK);
  ArrowSchemaToString(&buffer_schema, schema_a, sizeof(schema_a), 1);
  ArrowSchemaToString(&map_schema, schema_m, sizeof(schema_m), 1);
  cr_assert_str_eq(schema_a, schema_m, "%s", path);

  n = ArrowIpcFileReaderNumRecordBatches(&buffer_reader);
  cr_assert_eq(ArrowIpcFileReaderNumRecordBatches(&map_reader), n, "%s", path);
  for (i = 0; i < n; i++) {
    struct ArrowArray a;
    struct ArrowArray m;
    struct ArrowError map_error;
    int code_a = ArrowIpcFileReaderReadBatch(&buffer_reader, i, &a,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error);
    int code_m = ArrowIpcFileReaderReadBatch(&map_reader, i, &m,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &map_error);
    cr_assert_eq(code_a, code_m, "%s batch %ld: %s / %s", path, (long)i, error.message,
                 map_error.message);
    if (NeedsMissingCodec(path)) {
      cr_assert_eq(code_m, ENOTSUP, "%s", path);
    }
    if (code_a != NANOARROW_OK) {
      cr_assert_str_eq(error.message, map_error.message, "%s", path);
      break;
    }
    {
      int64_t before_zero_copy = totals->n_zero_copy;
      int64_t before_other = totals->n_other;
      CompareArrays(path, &buffer_schema, &a, &m, copied, mapped, &totals->n_zero_copy,
                    &totals->n_other);
      if (compressed_dir) {
        totals->n_zero_copy_compressed_dir += totals->n_zero_copy - before_zero_copy;
        totals->n_other_compressed_dir += totals->n_other - before_other;
      }
    }
    totals->n_batches++;
    ArrowArrayRelease(&a);
    ArrowArrayRelease(&m);
  }
  ArrowSchemaRelease(&buffer_schema);
  ArrowSchemaRelease(&map_schema);
  ArrowIpcFileReaderReset(&buffer_reader);
  ArrowIpcFileReaderReset(&map_reader);
  if (HaveProcMaps()) {
    cr_assert_eq(FindMappings(path, mappings, 4), 0, "%s is still mapped", path);
  }
  totals->n_files++;
}

Test(ipc_file_mmap, integration_files_match_the_buffer_reader) {
  struct Totals totals;
  size_t d;
  memset(&totals, 0, sizeof(totals));
  for (d = 0; d < sizeof(kIntegrationDirs) / sizeof(kIntegrationDirs[0]); d++) {
    char dir_path[1024];
    char path[2048];
    DIR* dir;
    struct dirent* entry;
    snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
             NANOARROW_TEST_DATA_DIR, kIntegrationDirs[d]);
    dir = opendir(dir_path);
    cr_assert_not_null(dir, "missing %s", dir_path);
    while ((entry = readdir(dir)) != NULL) {
      if (!EndsWith(entry->d_name, ".arrow_file")) continue;
      snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
      CheckFileMatchesBuffer(path, &totals);
    }
    closedir(dir);
  }
  cr_assert_geq(totals.n_files, 90);
  cr_assert_geq(totals.n_batches, 200);
  if (HaveProcMaps()) {
    /* Most buffers of the uncompressed little-endian files come straight from the
     * map; compressed ones are decompressed copies. */
    cr_assert_gt(totals.n_zero_copy, 1000, "%ld buffers zero-copy, %ld not",
                 (long)totals.n_zero_copy, (long)totals.n_other);
    cr_assert_gt(totals.n_other_compressed_dir, 0);
  }
}

/* ---- The map's lifetime ---- */

static void IntegrationPath(const char* dir, const char* name, char* out, size_t size) {
  snprintf(out, size, "%s/arrow-ipc-stream/integration/%s/%s", NANOARROW_TEST_DATA_DIR,
           dir, name);
}

static int MappedCount(const char* path) {
  struct Mapping mappings[4];
  return FindMappings(path, mappings, 4);
}

/* Reads every batch into arrays[] (at most max_arrays); returns how many. */
static int64_t ReadAllBatches(struct ArrowIpcFileReader* reader, struct ArrowArray* arrays,
                              int64_t max_arrays) {
  struct ArrowError error;
  int64_t n = ArrowIpcFileReaderNumRecordBatches(reader);
  int64_t i;
  cr_assert_leq(n, max_arrays);
  for (i = 0; i < n; i++) {
    cr_assert_eq(ArrowIpcFileReaderReadBatch(reader, i, &arrays[i],
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "%s", error.message);
  }
  return n;
}

Test(ipc_file_mmap, arrays_outlive_the_reader) {
  char path[2048];
  struct ArrowIpcFileReader reader;
  struct ArrowIpcFileReader check;
  struct ArrowBuffer data;
  struct ArrowSchema schema;
  struct ArrowArray arrays[16];
  struct ArrowArray expected[16];
  struct ArrowError error;
  struct Region copied;
  struct Region mapped;
  struct Mapping mapping;
  int64_t n_zero_copy = 0;
  int64_t n_other = 0;
  int64_t n;
  int64_t i;
  if (!HaveProcMaps()) cr_skip_test("no /proc/self/maps");
  IntegrationPath("1.0.0-littleendian", "generated_primitive.arrow_file", path,
                  sizeof(path));
  cr_assert_eq(MappedCount(path), 0);
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(FindMappings(path, &mapping, 1), 1);
  mapped.base = (const uint8_t*)mapping.start;
  cr_assert_eq(ArrowIpcFileReaderGetSchema(&reader, &schema, &error), NANOARROW_OK);
  n = ReadAllBatches(&reader, arrays, 16);
  cr_assert_geq(n, 2);

  /* The reader goes first: the arrays keep the map. */
  ArrowIpcFileReaderReset(&reader);
  cr_assert_eq(MappedCount(path), 1, "the map went with the reader");

  cr_assert_eq(ReadWholeFile(path, &data), NANOARROW_OK);
  copied.base = data.data;
  copied.size = data.size_bytes;
  mapped.size = data.size_bytes;
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&check, &data, &error), NANOARROW_OK);
  cr_assert_eq(ReadAllBatches(&check, expected, 16), n);
  for (i = 0; i < n; i++) {
    CompareArrays(path, &schema, &expected[i], &arrays[i], copied, mapped, &n_zero_copy,
                  &n_other);
    ArrowArrayRelease(&expected[i]);
  }
  ArrowIpcFileReaderReset(&check);
  cr_assert_gt(n_zero_copy, 0);

  /* Released one by one (children moved out of their parents first): the map goes
   * with the last of them. */
  for (i = 0; i < n - 1; i++) {
    ArrowArrayRelease(&arrays[i]);
    cr_assert_eq(MappedCount(path), 1, "unmapped after array %ld of %ld", (long)i,
                 (long)n);
  }
  {
    struct ArrowArray* last = &arrays[n - 1];
    struct ArrowArray child;
    cr_assert_gt(last->n_children, 0);
    memcpy(&child, last->children[0], sizeof(child));
    last->children[0]->release = NULL;
    ArrowArrayRelease(last);
    cr_assert_eq(MappedCount(path), 1, "unmapped while a child array lives");
    ArrowArrayRelease(&child);
  }
  cr_assert_eq(MappedCount(path), 0, "the map outlived its last array");
  ArrowSchemaRelease(&schema);
}

Test(ipc_file_mmap, arrays_released_before_the_reader) {
  char path[2048];
  struct ArrowIpcFileReader reader;
  struct ArrowArray arrays[16];
  struct ArrowError error;
  int64_t n;
  int64_t i;
  if (!HaveProcMaps()) cr_skip_test("no /proc/self/maps");
  IntegrationPath("4.0.0-shareddict", "generated_shared_dict.arrow_file", path,
                  sizeof(path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), NANOARROW_OK, "%s",
               error.message);
  n = ReadAllBatches(&reader, arrays, 16);
  cr_assert_geq(n, 1);
  for (i = 0; i < n; i++) ArrowArrayRelease(&arrays[i]);
  cr_assert_eq(MappedCount(path), 1, "unmapped while the reader lives");
  /* The reader reads again after its arrays are gone. */
  n = ReadAllBatches(&reader, arrays, 16);
  for (i = 0; i < n; i++) ArrowArrayRelease(&arrays[i]);
  ArrowIpcFileReaderReset(&reader);
  cr_assert_eq(MappedCount(path), 0, "the map outlived the reader and its arrays");
}

Test(ipc_file_mmap, array_stream_released_before_its_arrays) {
  char path[2048];
  struct ArrowIpcFileReader reader;
  struct ArrowArrayStream stream;
  struct ArrowArray arrays[16];
  struct ArrowError error;
  int64_t n = 0;
  int64_t i;
  if (!HaveProcMaps()) cr_skip_test("no /proc/self/maps");
  IntegrationPath("1.0.0-littleendian", "generated_nested.arrow_file", path, sizeof(path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcFileReaderArrayStream(&reader, &stream,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK);
  for (;;) {
    cr_assert_lt(n, 16);
    cr_assert_eq(stream.get_next(&stream, &arrays[n]), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    if (arrays[n].release == NULL) break;
    n++;
  }
  cr_assert_geq(n, 1);
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(MappedCount(path), 1);
  for (i = 0; i < n; i++) ArrowArrayRelease(&arrays[i]);
  cr_assert_eq(MappedCount(path), 0);
}

/* ---- Input streams over a map ---- */

/* Drains a stream reader over input, keeping the batches; returns how many. */
static int64_t DrainStream(struct ArrowIpcInputStream* input, struct ArrowSchema* schema,
                           struct ArrowArray* arrays, int64_t max_arrays) {
  struct ArrowArrayStream stream;
  struct ArrowIpcArrayStreamReaderOptions options;
  int64_t n = 0;
  options.field_index = -1;
  options.use_shared_buffers = 1;
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, input, &options), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, schema), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  for (;;) {
    cr_assert_lt(n, max_arrays);
    cr_assert_eq(stream.get_next(&stream, &arrays[n]), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    if (arrays[n].release == NULL) break;
    n++;
  }
  ArrowArrayStreamRelease(&stream);
  return n;
}

Test(ipc_file_mmap, input_stream_over_a_map) {
  struct Totals totals;
  size_t d;
  memset(&totals, 0, sizeof(totals));
  for (d = 0; d < sizeof(kIntegrationDirs) / sizeof(kIntegrationDirs[0]); d++) {
    char dir_path[1024];
    DIR* dir;
    struct dirent* entry;
    snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
             NANOARROW_TEST_DATA_DIR, kIntegrationDirs[d]);
    dir = opendir(dir_path);
    cr_assert_not_null(dir, "missing %s", dir_path);
    while ((entry = readdir(dir)) != NULL) {
      char path[2048];
      struct ArrowBuffer data;
      struct ArrowIpcInputStream input;
      struct ArrowSchema schema;
      struct ArrowSchema schema_mapped;
      struct ArrowArray expected[64];
      struct ArrowArray arrays[64];
      struct ArrowError error;
      struct Region copied;
      struct Region mapped = {NULL, 0};
      struct Mapping mapping;
      int is_stream = EndsWith(entry->d_name, ".stream");
      int64_t n;
      int64_t i;
      if (!is_stream && !EndsWith(entry->d_name, ".arrow_file")) continue;
      if (NeedsMissingCodec(entry->d_name)) continue;
      snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
      cr_assert_eq(ReadWholeFile(path, &data), NANOARROW_OK);
      copied.base = data.data;
      copied.size = data.size_bytes;
      cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &data), NANOARROW_OK);
      n = DrainStream(&input, &schema, expected, 64);

      cr_assert_eq(ArrowIpcInputStreamInitMmap(&input, path, &error), NANOARROW_OK, "%s",
                   error.message);
      if (HaveProcMaps()) {
        cr_assert_eq(FindMappings(path, &mapping, 1), 1);
        mapped.base = (const uint8_t*)mapping.start;
        mapped.size = copied.size;
      }
      cr_assert_eq(DrainStream(&input, &schema_mapped, arrays, 64), n, "%s", path);
      /* The stream is gone: the batches of a stream hold the map (an IPC file read
       * as a stream is copied whole by the stream reader). */
      if (HaveProcMaps() && is_stream && n > 0) {
        cr_assert_eq(MappedCount(path), 1, "%s", path);
      }
      for (i = 0; i < n; i++) {
        CompareArrays(path, &schema, &expected[i], &arrays[i], copied, mapped,
                      &totals.n_zero_copy, &totals.n_other);
        ArrowArrayRelease(&expected[i]);
        ArrowArrayRelease(&arrays[i]);
      }
      if (HaveProcMaps()) cr_assert_eq(MappedCount(path), 0, "%s", path);
      ArrowSchemaRelease(&schema);
      ArrowSchemaRelease(&schema_mapped);
      totals.n_files++;
    }
    closedir(dir);
  }
  cr_assert_geq(totals.n_files, 180);
  if (HaveProcMaps()) cr_assert_gt(totals.n_zero_copy, 1000);
}

/* ---- Only the pages read are mapped in ---- */

/* A fault maps in more than the page read: 16 pages around it by default, and a
 * whole large folio of the page cache (up to 2 MiB) on recent kernels. Batches of
 * 8 MiB keep what one header brings in well below a batch. */
#define PAGES_TEST_BATCHES 8
#define PAGES_TEST_ROWS (1024 * 1024)

Test(ipc_file_mmap, reading_batches_maps_in_only_the_pages_read) {
  static const char* kFormats[] = {"l"};
  static const char* kNames[] = {"x"};
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowArray* batches[PAGES_TEST_BATCHES];
  struct ArrowArray arrays[PAGES_TEST_BATCHES];
  struct ArrowBuffer file_bytes;
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  struct Mapping mapping;
  char path[256];
  int64_t i;
  int64_t n_pages;
  int64_t present_start;
  int64_t present_headers;
  int64_t present_values;
  int64_t sum = 0;
  long page = sysconf(_SC_PAGESIZE);
  if (!HaveProcMaps() || CountPresentPages(0, 0) < 0) cr_skip_test("no /proc/self/pagemap");

  WtStructSchema(&schema, 1, kFormats, kNames);
  WT_OK(ArrowArrayInitFromSchema(&batch, &schema, NULL));
  WT_OK(ArrowArrayStartAppending(&batch));
  for (i = 0; i < PAGES_TEST_ROWS; i++) {
    WT_OK(ArrowArrayAppendInt(batch.children[0], i));
  }
  WtFinishStruct(&batch, PAGES_TEST_ROWS);
  for (i = 0; i < PAGES_TEST_BATCHES; i++) batches[i] = &batch;
  ArrowBufferInit(&file_bytes);
  WT_OK(WtWrite(&file_bytes, &schema, batches, PAGES_TEST_BATCHES, 1,
                NANOARROW_IPC_COMPRESSION_TYPE_NONE, &error));
  ArrowArrayRelease(&batch);
  WriteTempFile(file_bytes.data, file_bytes.size_bytes, path, sizeof(path));
  ArrowBufferReset(&file_bytes);

  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(FindMappings(path, &mapping, 1), 1);
  n_pages = (int64_t)((mapping.end - mapping.start) / (uintptr_t)page);
  cr_assert_geq(n_pages, PAGES_TEST_BATCHES * PAGES_TEST_ROWS * 8 / page);
  present_start = CountPresentPages(mapping.start, mapping.end);

  /* Every batch decoded, no value touched (the default validation does not read
   * int64 values). */
  for (i = 0; i < PAGES_TEST_BATCHES; i++) {
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, i, &arrays[i],
                                             NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
                 NANOARROW_OK, "%s", error.message);
    cr_assert(InRegion(arrays[i].children[0]->buffers[1],
                       (struct Region){(const uint8_t*)mapping.start,
                                       (int64_t)(mapping.end - mapping.start)}));
  }
  present_headers = CountPresentPages(mapping.start, mapping.end);

  /* Reading the values maps them in. */
  for (i = 0; i < PAGES_TEST_BATCHES; i++) {
    const int64_t* values = (const int64_t*)arrays[i].children[0]->buffers[1];
    int64_t r;
    for (r = 0; r < arrays[i].length; r++) sum += values[r];
  }
  present_values = CountPresentPages(mapping.start, mapping.end);
  cr_assert_eq(sum, (int64_t)PAGES_TEST_BATCHES * ((int64_t)PAGES_TEST_ROWS *
                                                  (PAGES_TEST_ROWS - 1) / 2));

  /* Init reads the footer only: what that one fault brought in is the most one
   * fault maps here (at least 16 pages). Each batch adds its header's fault. */
  {
    int64_t per_fault = present_start > 16 ? present_start : 16;
    cr_assert_lt(present_start, n_pages / 8, "%ld of %ld pages present after Init",
                 (long)present_start, (long)n_pages);
    cr_assert_leq(present_headers, (PAGES_TEST_BATCHES + 1) * (per_fault + 1),
                  "%ld of %ld pages present after decoding every batch (%ld per fault)",
                  (long)present_headers, (long)n_pages, (long)per_fault);
    cr_assert_lt(present_headers, n_pages / 2, "%ld of %ld pages present",
                 (long)present_headers, (long)n_pages);
    cr_assert_geq(present_values, n_pages * 95 / 100,
                  "%ld of %ld pages present after reading every value",
                  (long)present_values, (long)n_pages);
    cr_log_info("pages present of %ld: %ld after Init, %ld after decoding, %ld after "
                "reading the values",
                (long)n_pages, (long)present_start, (long)present_headers,
                (long)present_values);
  }

  for (i = 0; i < PAGES_TEST_BATCHES; i++) ArrowArrayRelease(&arrays[i]);
  ArrowIpcFileReaderReset(&reader);
  ArrowSchemaRelease(&schema);
  cr_assert_eq(MappedCount(path), 0);
  unlink(path);
}

/* ---- Hostile and unusual files ---- */

Test(ipc_file_mmap, files_that_are_not_ipc_files) {
  struct ArrowIpcFileReader reader;
  struct ArrowIpcInputStream input;
  struct ArrowError error;
  char path[256];
  char dir_path[] = "/tmp/nanoarrow_mmap_dir_XXXXXX";
  char fifo_path[512];

  /* Missing. */
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, "/nonexistent/nanoarrow.arrow", &error),
               ENOENT);
  cr_assert(strstr(error.message, "/nonexistent/nanoarrow.arrow") != NULL, "%s",
            error.message);
  cr_assert_null(reader.private_data);

  /* Empty: EINVAL from the file reader, an empty input stream (a map cannot have
   * zero bytes). */
  WriteTempFile("", 0, path, sizeof(path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), EINVAL);
  cr_assert(strstr(error.message, "empty") != NULL, "%s", error.message);
  cr_assert_eq(ArrowIpcInputStreamInitMmap(&input, path, &error), NANOARROW_OK);
  {
    uint8_t buf[8];
    int64_t n_read = -1;
    cr_assert_eq(input.read(&input, buf, sizeof(buf), &n_read, &error), NANOARROW_OK);
    cr_assert_eq(n_read, 0);
    input.release(&input);
  }
  unlink(path);

  /* Shorter than the magic, and the magic alone. */
  WriteTempFile("ARR", 3, path, sizeof(path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), EINVAL);
  cr_assert(strstr(error.message, path) != NULL, "%s", error.message);
  cr_assert_eq(MappedCount(path) > 0, 0, "a failed Init left the map");
  unlink(path);
  WriteTempFile("ARROW1\0\0", 8, path, sizeof(path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, path, &error), EINVAL);
  unlink(path);

  /* A directory. */
  cr_assert_not_null(mkdtemp(dir_path));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, dir_path, &error), EISDIR);
  cr_assert(strstr(error.message, "directory") != NULL, "%s", error.message);

  /* A FIFO: refused at once (no waiting for a writer), ENOTSUP to fall back on. */
  snprintf(fifo_path, sizeof(fifo_path), "%s/fifo", dir_path);
  cr_assert_eq(mkfifo(fifo_path, 0600), 0, "mkfifo: %s", strerror(errno));
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, fifo_path, &error), ENOTSUP);
  cr_assert(strstr(error.message, "not a regular file") != NULL, "%s", error.message);
  cr_assert_eq(ArrowIpcInputStreamInitMmap(&input, fifo_path, &error), ENOTSUP);
  unlink(fifo_path);
  rmdir(dir_path);

  /* A character device. */
  cr_assert_eq(ArrowIpcFileReaderInitMmap(&reader, "/dev/null", &error), ENOTSUP);
}

/* Reads everything a file offers; errors are fine, crashes and leaks are not. */
static int ReadEverything(const char* path) {
  struct ArrowIpcFileReader reader;
  struct ArrowSchema schema;
  struct ArrowError error;
  int64_t i;
  int n_errors = 0;
  int code = ArrowIpcFileReaderInitMmap(&reader, path, &error);
  if (code != NANOARROW_OK) {
    cr_assert_neq(error.message[0], '\0', "%s: error %d without a message", path, code);
    cr_assert_null(reader.private_data);
    return 1;
  }
  if (ArrowIpcFileReaderGetSchema(&reader, &schema, &error) == NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
  }
  for (i = 0; i < ArrowIpcFileReaderNumRecordBatches(&reader); i++) {
    struct ArrowArray array;
    if (ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                    &error) == NANOARROW_OK) {
      ArrowArrayRelease(&array);
    } else {
      n_errors++;
    }
  }
  ArrowIpcFileReaderReset(&reader);
  return n_errors > 0;
}

Test(ipc_file_mmap, truncated_files_give_errors) {
  static const char* kFiles[][2] = {
      {"1.0.0-littleendian", "generated_primitive.arrow_file"},
      {"1.0.0-littleendian", "generated_dictionary.arrow_file"},
      {"2.0.0-compression", "generated_zstd.arrow_file"}};
  size_t f;
  int n_checked = 0;
  for (f = 0; f < sizeof(kFiles) / sizeof(kFiles[0]); f++) {
    char source[2048];
    char path[256];
    struct ArrowBuffer data;
    int64_t cut;
    int64_t step;
    IntegrationPath(kFiles[f][0], kFiles[f][1], source, sizeof(source));
    cr_assert_eq(ReadWholeFile(source, &data), NANOARROW_OK);
    step = data.size_bytes / 37 + 1;
    for (cut = 1; cut < data.size_bytes; cut += (cut < 64 || cut > data.size_bytes - 64)
                                                   ? 1
                                                   : step) {
      WriteTempFile(data.data, cut, path, sizeof(path));
      /* The end of the file is gone: no footer to find. */
      cr_assert_eq(ReadEverything(path), 1, "%s cut at %ld was read", source, (long)cut);
      unlink(path);
      n_checked++;
    }
    /* The footer kept, a batch in the middle zeroed. */
    memset(data.data + data.size_bytes / 3, 0xff, (size_t)(data.size_bytes / 3));
    WriteTempFile(data.data, data.size_bytes, path, sizeof(path));
    ReadEverything(path);
    unlink(path);
    ArrowBufferReset(&data);
  }
  cr_assert_gt(n_checked, 300);
}

Test(ipc_file_mmap, fuzz_regressions_error_or_valid) {
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  int n_files = 0;
  int n_errors = 0;
  snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-file", NANOARROW_TEST_DATA_DIR);
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "missing %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] == '.' || EndsWith(entry->d_name, ".md")) continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    n_errors += ReadEverything(path);
    n_files++;
  }
  closedir(dir);
  cr_assert_geq(n_files, 50);
  cr_assert_geq(n_errors, n_files / 2);
}
