/* Writes the IPC fixtures of bench/ipc_read_benchmark.cc with this library's own
 * IPC writer, in the stream format (NAME.arrows) and the file format (NAME.arrow).
 * Values come from a fixed-seed generator, so every build writes the same bytes.
 *
 *     make_fixtures OUT_DIR [zstd] [lz4]
 *
 * The compressed variants are written only when their codec is named (bench/
 * CMakeLists.txt names the codecs the library is built with). Each file is written
 * under a temporary name and renamed when complete, so an interrupted run never
 * leaves a truncated fixture behind. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define FIXTURE_SEED UINT64_C(0x6e616e6f6172726f)
#define PATH_CAPACITY 4096

/* A struct of n_columns columns of one type, n_batches batches of n_rows rows. */
struct Shape {
  const char* name;
  enum ArrowType type;
  int64_t n_columns;
  int64_t n_batches;
  int64_t n_rows;
  enum ArrowIpcCompressionType codec;
  const char* codec_name; /* Command-line name of the codec; NULL when none. */
};

static const struct Shape kShapes[] = {
    {"many_batches", NANOARROW_TYPE_INT32, 1, 10000, 5, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
     NULL},
    {"many_columns", NANOARROW_TYPE_INT32, 10000, 1, 5, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
     NULL},
    {"float64", NANOARROW_TYPE_DOUBLE, 10, 2, 65536, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
     NULL},
    {"float64_long", NANOARROW_TYPE_DOUBLE, 1, 20, 65536,
     NANOARROW_IPC_COMPRESSION_TYPE_NONE, NULL},
    {"float64_wide", NANOARROW_TYPE_DOUBLE, 1280, 1, 1024,
     NANOARROW_IPC_COMPRESSION_TYPE_NONE, NULL},
    {"float64_zstd", NANOARROW_TYPE_DOUBLE, 10, 2, 65536, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
     "zstd"},
    {"float64_lz4", NANOARROW_TYPE_DOUBLE, 10, 2, 65536,
     NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, "lz4"},
};

/* splitmix64: small, fast, and the same sequence on every platform. */
static uint64_t NextRandom(uint64_t* state) {
  uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static ArrowErrorCode MakeSchema(const struct Shape* shape, struct ArrowSchema* schema) {
  char column_name[32];
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, shape->n_columns));
  for (int64_t c = 0; c < shape->n_columns; c++) {
    snprintf(column_name, sizeof(column_name), "c%ld", (long)c);
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[c], shape->type));
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[c], column_name));
  }
  return NANOARROW_OK;
}

/* One batch of fresh values, no nulls. Doubles are multiples of 1/16 below 256 so
 * that most of their bytes are zero: the compressed variants really compress
 * (the writer stores a buffer as is when compressing would not shrink it). */
static ArrowErrorCode FillBatch(const struct Shape* shape, uint64_t* random,
                                struct ArrowArray* array, struct ArrowError* error) {
  for (int64_t c = 0; c < shape->n_columns; c++) {
    struct ArrowArray* column = array->children[c];
    struct ArrowBuffer* values = ArrowArrayBuffer(column, 1);
    if (shape->type == NANOARROW_TYPE_INT32) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(values, shape->n_rows * 4));
      for (int64_t r = 0; r < shape->n_rows; r++) {
        int32_t value = (int32_t)(NextRandom(random) % 1000000);
        ArrowBufferAppendUnsafe(values, &value, sizeof(value));
      }
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(values, shape->n_rows * 8));
      for (int64_t r = 0; r < shape->n_rows; r++) {
        double value = (double)(NextRandom(random) % 4096) / 16.0;
        ArrowBufferAppendUnsafe(values, &value, sizeof(value));
      }
    }
    column->length = shape->n_rows;
    column->null_count = 0;
  }
  array->length = shape->n_rows;
  array->null_count = 0;
  return ArrowArrayFinishBuildingDefault(array, error);
}

/* One output file and the writer over it. */
struct Output {
  char path[PATH_CAPACITY];
  char tmp_path[PATH_CAPACITY];
  FILE* file;
  struct ArrowIpcWriter writer;
  int has_writer;
};

static ArrowErrorCode OpenOutput(struct Output* out, const char* dir,
                                 const struct Shape* shape, int file_format,
                                 struct ArrowError* error) {
  const char* extension = file_format ? "arrow" : "arrows";
  int n = snprintf(out->path, sizeof(out->path), "%s/%s.%s", dir, shape->name, extension);
  int n_tmp = snprintf(out->tmp_path, sizeof(out->tmp_path), "%s/%s.%s.tmp", dir,
                       shape->name, extension);
  if (n < 0 || n_tmp < 0 || n_tmp >= (int)sizeof(out->tmp_path)) {
    ArrowErrorSet(error, "output directory path too long");
    return EINVAL;
  }
  out->file = fopen(out->tmp_path, "wb");
  if (out->file == NULL) {
    ArrowErrorSet(error, "cannot create %s: %s", out->tmp_path, strerror(errno));
    return EIO;
  }
  struct ArrowIpcOutputStream stream;
  /* The file is closed here, not by the stream, so that a failing close is seen. */
  NANOARROW_RETURN_NOT_OK(ArrowIpcOutputStreamInitFile(&stream, out->file, 0));
  if (ArrowIpcWriterInit(&out->writer, &stream) != NANOARROW_OK) {
    stream.release(&stream);
    ArrowErrorSet(error, "cannot initialize the IPC writer");
    return ENOMEM;
  }
  out->has_writer = 1;
  if (shape->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterSetCompression(
        &out->writer, shape->codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, error));
  }
  if (file_format) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterStartFile(&out->writer, error));
  }
  return NANOARROW_OK;
}

/* Closes out; renames it to its final name when keep, removes it otherwise.
 * Returns the file's size, or -1 (with error set) when it could not be kept. */
static long CloseOutput(struct Output* out, int keep, struct ArrowError* error) {
  long size = -1;
  if (out->has_writer) {
    ArrowIpcWriterReset(&out->writer);
    out->has_writer = 0;
  }
  if (out->file == NULL) return -1;
  if (keep) size = ftell(out->file);
  if (fclose(out->file) != 0 && keep) {
    ArrowErrorSet(error, "cannot write %s: %s", out->tmp_path, strerror(errno));
    keep = 0;
  }
  out->file = NULL;
  if (keep && rename(out->tmp_path, out->path) != 0) {
    ArrowErrorSet(error, "cannot rename %s: %s", out->tmp_path, strerror(errno));
    keep = 0;
  }
  if (!keep) {
    remove(out->tmp_path);
    return -1;
  }
  return size;
}

/* Writes shape's stream and file into dir, the same batches in both. */
static ArrowErrorCode WriteShape(const char* dir, const struct Shape* shape,
                                 long* sizes_out, struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct Output outputs[2];
  uint64_t random = FIXTURE_SEED;
  ArrowErrorCode code;

  memset(outputs, 0, sizeof(outputs));
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  code = MakeSchema(shape, &schema);
  if (code != NANOARROW_OK) {
    ArrowErrorSet(error, "cannot build the schema");
    goto done;
  }
  code = ArrowArrayViewInitFromSchema(&view, &schema, error);
  for (int i = 0; i < 2 && code == NANOARROW_OK; i++) {
    code = OpenOutput(&outputs[i], dir, shape, i == 1, error);
    if (code == NANOARROW_OK) {
      code = ArrowIpcWriterWriteSchema(&outputs[i].writer, &schema, error);
    }
  }
  for (int64_t b = 0; b < shape->n_batches && code == NANOARROW_OK; b++) {
    struct ArrowArray array;
    code = ArrowArrayInitFromSchema(&array, &schema, error);
    if (code != NANOARROW_OK) break;
    code = FillBatch(shape, &random, &array, error);
    if (code == NANOARROW_OK) code = ArrowArrayViewSetArray(&view, &array, error);
    for (int i = 0; i < 2 && code == NANOARROW_OK; i++) {
      code = ArrowIpcWriterWriteArrayView(&outputs[i].writer, &view, error);
    }
    ArrowArrayRelease(&array);
  }
  if (code == NANOARROW_OK) {
    code = ArrowIpcWriterWriteArrayView(&outputs[0].writer, NULL, error);
  }
  if (code == NANOARROW_OK) code = ArrowIpcWriterFinalizeFile(&outputs[1].writer, error);

done:
  for (int i = 0; i < 2; i++) {
    sizes_out[i] = CloseOutput(&outputs[i], code == NANOARROW_OK, error);
    if (code == NANOARROW_OK && sizes_out[i] < 0) code = EIO;
  }
  ArrowArrayViewReset(&view);
  if (schema.release != NULL) ArrowSchemaRelease(&schema);
  return code;
}

static int CodecRequested(const char* codec_name, int argc, char** argv) {
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], codec_name) == 0) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  const int n_shapes = (int)(sizeof(kShapes) / sizeof(kShapes[0]));
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT_DIR [zstd] [lz4]\n", argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "zstd") != 0 && strcmp(argv[i], "lz4") != 0) {
      fprintf(stderr, "make_fixtures: unknown codec '%s' (expected zstd or lz4)\n", argv[i]);
      return 2;
    }
  }

  for (int s = 0; s < n_shapes; s++) {
    const struct Shape* shape = &kShapes[s];
    struct ArrowError error;
    long sizes[2];
    if (shape->codec_name != NULL && !CodecRequested(shape->codec_name, argc, argv)) {
      continue;
    }
    error.message[0] = '\0';
    if (WriteShape(argv[1], shape, sizes, &error) != NANOARROW_OK) {
      fprintf(stderr, "make_fixtures: %s: %s\n", shape->name, error.message);
      return 1;
    }
    printf("make_fixtures: %s/%s.arrows (%ld bytes), .arrow (%ld bytes)\n", argv[1],
           shape->name, sizes[0], sizes[1]);
  }
  return 0;
}
