/* Column projection: the decoder, the file reader (FILE* and buffer) and the
 * stream reader read a subset of the top-level fields, with the same values as
 * reading everything and selecting, reading only the selected byte ranges. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define PJ_OK(expr)                                                              \
  do {                                                                           \
    int pj_rc_ = (expr);                                                         \
    cr_assert_eq(pj_rc_, NANOARROW_OK, "%s returned %d (%s)", #expr, pj_rc_,    \
                 error.message);                                                 \
  } while (0)

#define PJ_DIR NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration/"

/* Byte-for-byte equality of two views of the same type (buffers over the sizes
 * the views computed, children, dictionaries, variadic buffers). */
static int ViewsEqual(const struct ArrowArrayView* a, const struct ArrowArrayView* b,
                      char* why, size_t why_size) {
  int i;
  int64_t j;
  if (a->length != b->length || a->offset != b->offset || a->null_count != b->null_count ||
      a->storage_type != b->storage_type || a->n_children != b->n_children ||
      a->n_variadic_buffers != b->n_variadic_buffers ||
      (a->dictionary == NULL) != (b->dictionary == NULL)) {
    snprintf(why, why_size, "shape differs (length %ld/%ld, type %d/%d)", (long)a->length,
             (long)b->length, (int)a->storage_type, (int)b->storage_type);
    return 0;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    int64_t size = a->buffer_views[i].size_bytes;
    if (size != b->buffer_views[i].size_bytes ||
        (size > 0 && memcmp(a->buffer_views[i].data.data, b->buffer_views[i].data.data,
                            (size_t)size) != 0)) {
      snprintf(why, why_size, "buffer %d differs", i);
      return 0;
    }
  }
  for (j = 0; j < a->n_variadic_buffers; j++) {
    if (a->variadic_buffer_sizes[j] != b->variadic_buffer_sizes[j] ||
        memcmp(a->variadic_buffers[j], b->variadic_buffers[j],
               (size_t)a->variadic_buffer_sizes[j]) != 0) {
      snprintf(why, why_size, "variadic buffer %ld differs", (long)j);
      return 0;
    }
  }
  for (j = 0; j < a->n_children; j++) {
    if (!ViewsEqual(a->children[j], b->children[j], why, why_size)) return 0;
  }
  if (a->dictionary != NULL) return ViewsEqual(a->dictionary, b->dictionary, why, why_size);
  return 1;
}

static FILE* OpenOrSkip(const char* path) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) cr_skip_test("%s is not there", path);
  return file;
}

struct Batches {
  struct ArrowSchema schema;
  int64_t n;
  struct ArrowArray arrays[64];
  struct ArrowArrayView views[64];
};

static void BatchesReset(struct Batches* batches) {
  int64_t i;
  for (i = 0; i < batches->n; i++) {
    ArrowArrayViewReset(&batches->views[i]);
    ArrowArrayRelease(&batches->arrays[i]);
  }
  ArrowSchemaRelease(&batches->schema);
}

/* Reads every batch of reader into batches (views at FULL). */
static void ReadAll(struct ArrowIpcFileReader* reader, struct Batches* batches) {
  struct ArrowError error;
  int64_t i;
  error.message[0] = '\0';
  PJ_OK(ArrowIpcFileReaderGetSchema(reader, &batches->schema, &error));
  batches->n = ArrowIpcFileReaderNumRecordBatches(reader);
  cr_assert(batches->n <= 64);
  for (i = 0; i < batches->n; i++) {
    PJ_OK(ArrowIpcFileReaderReadBatch(reader, i, &batches->arrays[i],
                                      NANOARROW_VALIDATION_LEVEL_FULL, &error));
    PJ_OK(ArrowArrayViewInitFromSchema(&batches->views[i], &batches->schema, &error));
    PJ_OK(ArrowArrayViewSetArray(&batches->views[i], &batches->arrays[i], &error));
  }
}

/* Projected batches hold the full batches' columns selected[0..n). */
static void CheckProjected(const struct Batches* full, const struct Batches* projected,
                           const int64_t* selected, int64_t n, const char* what) {
  int64_t i;
  int64_t k;
  char why[256];
  cr_assert_eq(projected->schema.n_children, n, "%s: %ld columns", what,
               (long)projected->schema.n_children);
  cr_assert_eq(projected->n, full->n, "%s: batch count", what);
  for (k = 0; k < n; k++) {
    const char* expected_name = full->schema.children[selected[k]]->name;
    const char* name = projected->schema.children[k]->name;
    cr_assert((expected_name == NULL && name == NULL) ||
                  (expected_name != NULL && name != NULL && strcmp(expected_name, name) == 0),
              "%s: column %ld name", what, (long)k);
    cr_assert_str_eq(projected->schema.children[k]->format,
                     full->schema.children[selected[k]]->format);
  }
  for (i = 0; i < full->n; i++) {
    cr_assert_eq(projected->views[i].length, full->views[i].length);
    for (k = 0; k < n; k++) {
      cr_assert(ViewsEqual(projected->views[i].children[k],
                           full->views[i].children[selected[k]], why, sizeof(why)),
                "%s: batch %ld, column %ld (full column %ld): %s", what, (long)i, (long)k,
                (long)selected[k], why);
    }
  }
}

static void ReadBufferFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = OpenOrSkip(path);
  long size;
  ArrowBufferInit(out);
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  cr_assert_eq(ArrowBufferReserve(out, size), NANOARROW_OK);
  cr_assert_eq(fread(out->data, 1, (size_t)size, file), (size_t)size);
  out->size_bytes = size;
  fclose(file);
}

/* Every single column, and all columns reversed, by index through FILE* and a
 * buffer; the first column by name; the stream file with the columns reversed. */
static void CheckFile(const char* name) {
  char path[1024];
  struct ArrowError error;
  struct ArrowIpcFileReader reader;
  struct Batches full;
  struct Batches projected;
  int64_t selected[256];
  int64_t c;
  int64_t n_columns;
  error.message[0] = '\0';
  snprintf(path, sizeof(path), "%s%s.arrow_file", PJ_DIR, name);
  PJ_OK(ArrowIpcFileReaderInitFile(&reader, OpenOrSkip(path), 1, &error));
  ReadAll(&reader, &full);
  ArrowIpcFileReaderReset(&reader);
  n_columns = full.schema.n_children;
  cr_assert(n_columns <= 256);

  for (c = 0; c < n_columns; c++) {
    PJ_OK(ArrowIpcFileReaderInitFile(&reader, OpenOrSkip(path), 1, &error));
    PJ_OK(ArrowIpcFileReaderSetProjection(&reader, &c, 1, &error));
    ReadAll(&reader, &projected);
    ArrowIpcFileReaderReset(&reader);
    CheckProjected(&full, &projected, &c, 1, name);
    BatchesReset(&projected);
  }
  for (c = 0; c < n_columns; c++) selected[c] = n_columns - 1 - c;
  if (n_columns > 0) {
    struct ArrowBuffer data;
    /* FILE*, small coalesce gap: every range read on its own. */
    PJ_OK(ArrowIpcFileReaderInitFile(&reader, OpenOrSkip(path), 1, &error));
    PJ_OK(ArrowIpcFileReaderSetCoalesceGap(&reader, 0));
    PJ_OK(ArrowIpcFileReaderSetProjection(&reader, selected, n_columns, &error));
    ReadAll(&reader, &projected);
    ArrowIpcFileReaderReset(&reader);
    CheckProjected(&full, &projected, selected, n_columns, name);
    BatchesReset(&projected);
    /* A buffer. */
    ReadBufferFile(path, &data);
    PJ_OK(ArrowIpcFileReaderInitBuffer(&reader, &data, &error));
    PJ_OK(ArrowIpcFileReaderSetProjection(&reader, selected, n_columns, &error));
    cr_assert_eq(ArrowIpcFileReaderBytesRead(&reader), 0);
    ReadAll(&reader, &projected);
    ArrowIpcFileReaderReset(&reader);
    ArrowBufferReset(&data);
    CheckProjected(&full, &projected, selected, n_columns, name);
    BatchesReset(&projected);
  }
  if (n_columns > 0 && full.schema.children[0]->name != NULL) {
    const char* first = full.schema.children[0]->name;
    int64_t zero = 0;
    PJ_OK(ArrowIpcFileReaderInitFile(&reader, OpenOrSkip(path), 1, &error));
    PJ_OK(ArrowIpcFileReaderSetProjectionByName(&reader, &first, 1, &error));
    ReadAll(&reader, &projected);
    ArrowIpcFileReaderReset(&reader);
    CheckProjected(&full, &projected, &zero, 1, name);
    BatchesReset(&projected);
  }

  /* The stream reader over the stream and over the file, columns reversed. */
  for (c = 0; c < 2 && n_columns > 0; c++) {
    struct ArrowBuffer data;
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    struct ArrowArray array;
    struct ArrowArrayView view;
    int64_t i = 0;
    int64_t k;
    char why[256];
    snprintf(path, sizeof(path), "%s%s.%s", PJ_DIR, name, c == 0 ? "stream" : "arrow_file");
    ReadBufferFile(path, &data);
    PJ_OK(ArrowIpcInputStreamInitBuffer(&input, &data));
    PJ_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
    PJ_OK(ArrowIpcArrayStreamReaderSetProjection(&stream, selected, n_columns, &error));
    cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    cr_assert_eq(schema.n_children, n_columns);
    PJ_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
    for (;;) {
      cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK, "%s: %s", name,
                   stream.get_last_error(&stream));
      if (array.release == NULL) break;
      cr_assert(i < full.n);
      PJ_OK(ArrowArrayViewSetArray(&view, &array, &error));
      for (k = 0; k < n_columns; k++) {
        cr_assert(ViewsEqual(view.children[k], full.views[i].children[selected[k]], why,
                             sizeof(why)),
                  "%s stream: batch %ld column %ld: %s", name, (long)i, (long)k, why);
      }
      ArrowArrayRelease(&array);
      i++;
    }
    cr_assert_eq(i, full.n);
    ArrowArrayViewReset(&view);
    ArrowSchemaRelease(&schema);
    ArrowArrayStreamRelease(&stream);
  }
  BatchesReset(&full);
}

Test(projection, plain_columns) {
  CheckFile("cpp-21.0.0/generated_primitive");
  CheckFile("cpp-21.0.0/generated_binary_view");
  CheckFile("cpp-21.0.0/generated_datetime");
}

Test(projection, dictionary_columns) {
  CheckFile("cpp-21.0.0/generated_dictionary");
  CheckFile("cpp-21.0.0/generated_nested_dictionary");
  CheckFile("4.0.0-shareddict/generated_shared_dict");
}

Test(projection, nested_columns) {
  CheckFile("cpp-21.0.0/generated_nested");
  CheckFile("cpp-21.0.0/generated_map");
  CheckFile("cpp-21.0.0/generated_union");
  CheckFile("cpp-21.0.0/generated_recursive_nested");
  CheckFile("cpp-21.0.0/generated_list_view");
  CheckFile("cpp-21.0.0/generated_run_end_encoded");
}

Test(projection, compressed_columns) {
  int checked = 0;
  if (ArrowIpcGetLZ4DecompressionFunction() != NULL) {
    CheckFile("2.0.0-compression/generated_lz4");
    CheckFile("2.0.0-compression/generated_uncompressible_lz4");
    checked++;
  }
  if (ArrowIpcGetZstdDecompressionFunction() != NULL) {
    CheckFile("2.0.0-compression/generated_zstd");
    CheckFile("2.0.0-compression/generated_uncompressible_zstd");
    checked++;
  }
  if (checked == 0) cr_skip_test("built without LZ4 and ZSTD");
}

Test(projection, bad_indices_and_names) {
  char path[1024];
  struct ArrowError error;
  struct ArrowIpcFileReader reader;
  int64_t bad[] = {0, 7};
  int64_t twice[] = {1, 1};
  int64_t negative = -1;
  const char* names[] = {"bool_nullable", "no_such_column"};
  snprintf(path, sizeof(path), "%scpp-21.0.0/generated_primitive.arrow_file", PJ_DIR);
  PJ_OK(ArrowIpcFileReaderInitFile(&reader, OpenOrSkip(path), 1, &error));
  bad[1] = 100000;
  cr_assert_eq(ArrowIpcFileReaderSetProjection(&reader, bad, 2, &error), EINVAL);
  cr_assert(strstr(error.message, "index 100000 is out of range") != NULL, "%s",
            error.message);
  cr_assert_eq(ArrowIpcFileReaderSetProjection(&reader, &negative, 1, &error), EINVAL);
  cr_assert_eq(ArrowIpcFileReaderSetProjection(&reader, twice, 2, &error), EINVAL);
  cr_assert(strstr(error.message, "selected twice") != NULL, "%s", error.message);
  cr_assert_eq(ArrowIpcFileReaderSetProjectionByName(&reader, names, 2, &error), EINVAL);
  cr_assert(strstr(error.message, "no_such_column") != NULL, "%s", error.message);
  /* The reader still reads every column after the refused projections. */
  {
    struct ArrowSchema schema;
    PJ_OK(ArrowIpcFileReaderGetSchema(&reader, &schema, &error));
    cr_assert(schema.n_children > 2);
    ArrowSchemaRelease(&schema);
  }
  ArrowIpcFileReaderReset(&reader);

  /* A stream reports a bad name when it reads its schema. */
  {
    struct ArrowBuffer data;
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    snprintf(path, sizeof(path), "%scpp-21.0.0/generated_primitive.stream", PJ_DIR);
    ReadBufferFile(path, &data);
    PJ_OK(ArrowIpcInputStreamInitBuffer(&input, &data));
    PJ_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
    PJ_OK(ArrowIpcArrayStreamReaderSetProjectionByName(&stream, names, 2, &error));
    cr_assert_eq(stream.get_schema(&stream, &schema), EINVAL);
    cr_assert(strstr(stream.get_last_error(&stream), "no_such_column") != NULL, "%s",
              stream.get_last_error(&stream));
    ArrowArrayStreamRelease(&stream);
  }
}

/* A file of n_columns int64 columns (no nulls), n_batches batches of n_rows. */
static void WriteWideFile(FILE* file, int64_t n_columns, int64_t n_batches, int64_t n_rows) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  int64_t c;
  int64_t i;
  int64_t b;
  char name[32];
  error.message[0] = '\0';
  ArrowSchemaInit(&schema);
  PJ_OK(ArrowSchemaSetTypeStruct(&schema, n_columns));
  for (c = 0; c < n_columns; c++) {
    PJ_OK(ArrowSchemaSetType(schema.children[c], NANOARROW_TYPE_INT64));
    snprintf(name, sizeof(name), "c%ld", (long)c);
    PJ_OK(ArrowSchemaSetName(schema.children[c], name));
  }
  PJ_OK(ArrowIpcOutputStreamInitFile(&output, file, 0));
  PJ_OK(ArrowIpcWriterInit(&writer, &output));
  PJ_OK(ArrowIpcWriterStartFile(&writer, &error));
  PJ_OK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
  PJ_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  PJ_OK(ArrowArrayStartAppending(&array));
  for (i = 0; i < n_rows; i++) {
    for (c = 0; c < n_columns; c++) {
      PJ_OK(ArrowArrayAppendInt(array.children[c], i * 1000 + c));
    }
    PJ_OK(ArrowArrayFinishElement(&array));
  }
  PJ_OK(ArrowArrayFinishBuildingDefault(&array, &error));
  PJ_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  PJ_OK(ArrowArrayViewSetArray(&view, &array, &error));
  for (b = 0; b < n_batches; b++) PJ_OK(ArrowIpcWriterWriteArrayView(&writer, &view, &error));
  PJ_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  fflush(file);
}

Test(projection, reads_only_the_selected_ranges) {
  struct ArrowError error;
  struct ArrowIpcFileReader reader;
  struct ArrowArray array;
  FILE* file = tmpfile();
  int64_t n_batches = 8;
  int64_t n_rows = 4096;
  int64_t selected = 37;
  int64_t selected_bytes = n_batches * n_rows * 8;
  int64_t file_size;
  int64_t bodies = 0;
  int64_t metadata;
  int64_t projected_read;
  int64_t full_read;
  int64_t i;
  int64_t j;
  cr_assert_not_null(file);
  WriteWideFile(file, 100, n_batches, n_rows);
  fseek(file, 0, SEEK_END);
  file_size = ftell(file);
  error.message[0] = '\0';

  /* Everything but the bodies is metadata (magic, schema, footer, headers). */
  PJ_OK(ArrowIpcFileReaderInitFile(&reader, file, 0, &error));
  for (i = 0; i < n_batches; i++) {
    PJ_OK(ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error));
    ArrowArrayRelease(&array);
  }
  full_read = ArrowIpcFileReaderBytesRead(&reader);
  ArrowIpcFileReaderReset(&reader);
  bodies = (int64_t)100 * selected_bytes;
  metadata = file_size - bodies;
  cr_assert(metadata > 0 && metadata < bodies / 10, "metadata %ld", (long)metadata);

  PJ_OK(ArrowIpcFileReaderInitFile(&reader, file, 0, &error));
  PJ_OK(ArrowIpcFileReaderSetProjection(&reader, &selected, 1, &error));
  for (i = 0; i < n_batches; i++) {
    const int64_t* values;
    PJ_OK(ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error));
    cr_assert_eq(array.n_children, 1);
    cr_assert_eq(array.length, n_rows);
    values = (const int64_t*)array.children[0]->buffers[1];
    for (j = 0; j < n_rows; j += 511) cr_assert_eq(values[j], j * 1000 + selected);
    ArrowArrayRelease(&array);
  }
  projected_read = ArrowIpcFileReaderBytesRead(&reader);
  ArrowIpcFileReaderReset(&reader);
  /* The full reader reads every block (not the Schema message the footer repeats). */
  cr_assert(full_read >= bodies && full_read <= file_size, "full read %ld of %ld",
            (long)full_read, (long)file_size);
  cr_assert(projected_read >= selected_bytes, "read %ld < %ld", (long)projected_read,
            (long)selected_bytes);
  cr_assert(projected_read * 10 <= (selected_bytes + metadata) * 11,
            "read %ld, selected %ld + metadata %ld", (long)projected_read,
            (long)selected_bytes, (long)metadata);
  fclose(file);
}

/* The decoder itself: a DictionaryBatch of an unselected field is not decoded
 * (the selected column's dictionary is held, less than all of them). */
Test(projection, decoder_skips_unselected_dictionaries) {
  char path[1024];
  struct ArrowError error;
  struct ArrowBuffer data;
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  int64_t pos = 0;
  int64_t held;
  int64_t held_selected = 0;
  int64_t n_batches = 0;
  int pass;
  error.message[0] = '\0';
  snprintf(path, sizeof(path), "%scpp-21.0.0/generated_dictionary.stream", PJ_DIR);
  ReadBufferFile(path, &data);
  for (pass = 0; pass < 2; pass++) {
    /* Pass 0 selects the first column (dictionary-encoded), pass 1 every column. */
    int64_t column = 0;
    pos = 0;
    n_batches = 0;
    PJ_OK(ArrowIpcDecoderInit(&decoder));
    for (;;) {
      struct ArrowBufferView view;
      struct ArrowBufferView body;
      view.data.as_uint8 = data.data + pos;
      view.size_bytes = data.size_bytes - pos;
      if (ArrowIpcDecoderDecodeHeader(&decoder, view, &error) != NANOARROW_OK) break;
      body.data.as_uint8 = data.data + pos + decoder.header_size_bytes;
      body.size_bytes = decoder.body_size_bytes;
      pos += decoder.header_size_bytes + decoder.body_size_bytes;
      if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
        PJ_OK(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error));
        PJ_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
        cr_assert(schema.n_children > 1 && schema.children[0]->dictionary != NULL);
        ArrowSchemaRelease(&schema);
        if (pass == 0) PJ_OK(ArrowIpcDecoderSetProjection(&decoder, &column, 1, &error));
      } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
        PJ_OK(ArrowIpcDecoderDecodeDictionary(&decoder, body,
                                              NANOARROW_VALIDATION_LEVEL_FULL, NULL, &error));
      } else {
        struct ArrowArray array;
        PJ_OK(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &array,
                                         NANOARROW_VALIDATION_LEVEL_FULL, &error));
        cr_assert_eq(array.n_children > 1, pass == 1);
        ArrowArrayRelease(&array);
        n_batches++;
      }
    }
    PJ_OK(ArrowIpcDecoderGetHeldBytes(&decoder, &held, NULL));
    ArrowIpcDecoderReset(&decoder);
    cr_assert(n_batches > 0);
    if (pass == 0) {
      held_selected = held;
      cr_assert(held > 0, "the selected column's dictionary was not decoded");
    } else {
      cr_assert(held_selected < held, "unselected dictionaries held: %ld of %ld bytes",
                (long)held_selected, (long)held);
    }
  }
  ArrowBufferReset(&data);
}

/* Every byte of a small projected file set to 0xFF in turn, and the file cut
 * short: errors or values, never a crash (run under ASan). */
Test(projection, hostile_bytes) {
  struct ArrowBuffer original;
  FILE* file = tmpfile();
  long size;
  long at;
  int64_t selected[] = {2, 0};
  cr_assert_not_null(file);
  WriteWideFile(file, 4, 2, 5);
  size = ftell(file);
  ArrowBufferInit(&original);
  cr_assert_eq(ArrowBufferReserve(&original, size), NANOARROW_OK);
  fseek(file, 0, SEEK_SET);
  cr_assert_eq(fread(original.data, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  for (at = 0; at < size + 1; at++) {
    struct ArrowError error;
    struct ArrowIpcFileReader reader;
    struct ArrowArray array;
    FILE* mutated = tmpfile();
    int64_t i;
    cr_assert_not_null(mutated);
    if (at < size) {
      fwrite(original.data, 1, (size_t)size, mutated);
      fseek(mutated, at, SEEK_SET);
      fputc(0xFF, mutated);
    } else {
      fwrite(original.data, 1, (size_t)size - 7, mutated);
    }
    fflush(mutated);
    if (ArrowIpcFileReaderInitFile(&reader, mutated, 1, &error) != NANOARROW_OK) continue;
    if (ArrowIpcFileReaderSetProjection(&reader, selected, 2, &error) == NANOARROW_OK) {
      for (i = 0; i < ArrowIpcFileReaderNumRecordBatches(&reader); i++) {
        if (ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                        &error) == NANOARROW_OK) {
          ArrowArrayRelease(&array);
        }
      }
    }
    ArrowIpcFileReaderReset(&reader);
  }
  ArrowBufferReset(&original);
}

/* Unselected columns are not validated: a string column whose offsets are broken
 * makes the full read fail at FULL, while the int64 column beside it reads. */
Test(projection, unselected_columns_are_not_validated) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer data;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowArrayView view;
  struct ArrowIpcFileReader reader;
  const int32_t pattern[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int64_t i;
  int64_t at = -1;
  int64_t selected = 0;
  int32_t broken = 0x7FFFFFF0;
  error.message[0] = '\0';
  ArrowSchemaInit(&schema);
  PJ_OK(ArrowSchemaSetTypeStruct(&schema, 2));
  PJ_OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT64));
  PJ_OK(ArrowSchemaSetName(schema.children[0], "n"));
  PJ_OK(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING));
  PJ_OK(ArrowSchemaSetName(schema.children[1], "s"));
  PJ_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  PJ_OK(ArrowArrayStartAppending(&array));
  for (i = 0; i < 100; i++) {
    PJ_OK(ArrowArrayAppendInt(array.children[0], 5000 + i));
    PJ_OK(ArrowArrayAppendString(array.children[1], ArrowCharView("Z")));
    PJ_OK(ArrowArrayFinishElement(&array));
  }
  PJ_OK(ArrowArrayFinishBuildingDefault(&array, &error));
  PJ_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  PJ_OK(ArrowArrayViewSetArray(&view, &array, &error));
  ArrowBufferInit(&data);
  PJ_OK(ArrowIpcOutputStreamInitBuffer(&output, &data));
  PJ_OK(ArrowIpcWriterInit(&writer, &output));
  PJ_OK(ArrowIpcWriterStartFile(&writer, &error));
  PJ_OK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
  PJ_OK(ArrowIpcWriterWriteArrayView(&writer, &view, &error));
  PJ_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  for (i = 0; i + 32 <= data.size_bytes; i += 4) {
    if (memcmp(data.data + i, pattern, sizeof(pattern)) == 0) {
      at = i;
      break;
    }
  }
  cr_assert(at >= 0, "the string offsets were not found");
  memcpy(data.data + at + 12, &broken, sizeof(broken));

  {
    FILE* file = tmpfile();
    cr_assert_not_null(file);
    cr_assert_eq(fwrite(data.data, 1, (size_t)data.size_bytes, file),
                 (size_t)data.size_bytes);
    fflush(file);
    PJ_OK(ArrowIpcFileReaderInitFile(&reader, file, 0, &error));
    cr_assert_neq(ArrowIpcFileReaderReadBatch(&reader, 0, &array,
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                  NANOARROW_OK, "the broken offsets were accepted");
    ArrowIpcFileReaderReset(&reader);
    PJ_OK(ArrowIpcFileReaderInitFile(&reader, file, 0, &error));
    PJ_OK(ArrowIpcFileReaderSetProjection(&reader, &selected, 1, &error));
    PJ_OK(ArrowIpcFileReaderReadBatch(&reader, 0, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error));
    cr_assert_eq(array.n_children, 1);
    cr_assert_eq(((const int64_t*)array.children[0]->buffers[1])[99], 5099);
    ArrowArrayRelease(&array);
    ArrowIpcFileReaderReset(&reader);
    fclose(file);
  }
  ArrowBufferReset(&data);
}

/* Decompressed bytes, counted by a wrapper around the built-in ZSTD function. */
static int64_t pj_decompressed_bytes = 0;

static ArrowErrorCode CountingZstd(struct ArrowBufferView src, uint8_t* dst, int64_t dst_size,
                                   struct ArrowError* error) {
  pj_decompressed_bytes += dst_size;
  return ArrowIpcGetZstdDecompressionFunction()(src, dst, dst_size, error);
}

/* Decodes every message of a stream with a decoder projected to column (-1: all);
 * returns the bytes decompressed. */
static int64_t DecompressedBytes(const struct ArrowBuffer* data, int64_t column,
                                 int64_t* n_columns_out) {
  struct ArrowError error;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcDecompressor decompressor;
  struct ArrowSchema schema;
  int64_t pos = 0;
  error.message[0] = '\0';
  pj_decompressed_bytes = 0;
  PJ_OK(ArrowIpcDecoderInit(&decoder));
  PJ_OK(ArrowIpcSerialDecompressor(&decompressor));
  PJ_OK(ArrowIpcSerialDecompressorSetFunction(&decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                              &CountingZstd));
  PJ_OK(ArrowIpcDecoderSetDecompressor(&decoder, &decompressor));
  for (;;) {
    struct ArrowBufferView view;
    struct ArrowBufferView body;
    view.data.as_uint8 = data->data + pos;
    view.size_bytes = data->size_bytes - pos;
    if (ArrowIpcDecoderDecodeHeader(&decoder, view, &error) != NANOARROW_OK) break;
    body.data.as_uint8 = data->data + pos + decoder.header_size_bytes;
    body.size_bytes = decoder.body_size_bytes;
    pos += decoder.header_size_bytes + decoder.body_size_bytes;
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      PJ_OK(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error));
      PJ_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
      *n_columns_out = schema.n_children;
      ArrowSchemaRelease(&schema);
      if (column >= 0) PJ_OK(ArrowIpcDecoderSetProjection(&decoder, &column, 1, &error));
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
      struct ArrowArray array;
      PJ_OK(ArrowIpcDecoderDecodeArray(&decoder, body, -1, &array,
                                       NANOARROW_VALIDATION_LEVEL_FULL, &error));
      ArrowArrayRelease(&array);
    }
  }
  ArrowIpcDecoderReset(&decoder);
  return pj_decompressed_bytes;
}

/* Each buffer is decompressed by the projections that select its column only: the
 * single-column projections together decompress exactly what the full read does. */
Test(projection, unselected_columns_are_not_decompressed) {
  char path[1024];
  struct ArrowBuffer data;
  int64_t n_columns = 0;
  int64_t full;
  int64_t sum = 0;
  int64_t c;
  if (ArrowIpcGetZstdDecompressionFunction() == NULL) cr_skip_test("built without ZSTD");
  snprintf(path, sizeof(path), "%s2.0.0-compression/generated_zstd.stream", PJ_DIR);
  ReadBufferFile(path, &data);
  full = DecompressedBytes(&data, -1, &n_columns);
  cr_assert(full > 0 && n_columns > 1);
  for (c = 0; c < n_columns; c++) {
    int64_t one = DecompressedBytes(&data, c, &n_columns);
    cr_assert(one < full, "column %ld decompressed %ld of %ld bytes", (long)c, (long)one,
              (long)full);
    sum += one;
  }
  cr_assert_eq(sum, full);
  ArrowBufferReset(&data);
}
