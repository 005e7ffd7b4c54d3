/* The IPC file reader decodes dictionaries with the first batch read, not in Init:
 * the caller's decompressed-byte limit covers them, and a broken dictionary is
 * reported by the read (naming the dictionary) on a reader that still resets
 * cleanly. */

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "ipc/writer_test_util.h"

/* 4096 int64 zeros: the dictionary body decompresses to exactly this many bytes,
 * while the one-row batch of int32 indices claims far fewer. */
#define kDictionaryLength 4096
#define kDictionaryBytes (8 * kDictionaryLength)

/* struct<d: dictionary<int32 -> int64>> with one row (index 0), written as an IPC
 * file with codec. Returns 0 (out left empty) when the build lacks codec. */
static int WriteInt64DictionaryFile(enum ArrowIpcCompressionType codec,
                                    struct ArrowBuffer* out) {
  static const char* const formats[] = {"i"};
  static const char* const names[] = {"d"};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[1];
  struct ArrowError error;
  int64_t i;
  int rc;
  WtStructSchema(&schema, 1, formats, names);
  WT_OK(ArrowSchemaAllocateDictionary(schema.children[0]));
  ArrowSchemaInit(schema.children[0]->dictionary);
  WT_OK(ArrowSchemaInitFromType(schema.children[0]->dictionary, NANOARROW_TYPE_INT64));
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  for (i = 0; i < kDictionaryLength; i++) {
    WT_OK(ArrowArrayAppendInt(array.children[0]->dictionary, 0));
  }
  WT_OK(ArrowArrayAppendInt(array.children[0], 0));
  WtFinishStruct(&array, 1);

  ArrowBufferInit(out);
  arrays[0] = &array;
  rc = WtWrite(out, &schema, arrays, 1, 1, codec, &error);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  if (rc == NANOARROW_OK) return 1;
  cr_assert_eq(out->size_bytes, 0, "writing failed after the codec was accepted: %s",
               error.message);
  return 0;
}

/* struct<d: dictionary<int32 -> string>> with one row, uncompressed. */
static void WriteStringDictionaryFile(struct ArrowBuffer* out) {
  static const char* const formats[] = {"i"};
  static const char* const names[] = {"d"};
  static const char* const values[] = {"alpha", "beta"};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* arrays[1];
  struct ArrowError error;
  WtStructSchema(&schema, 1, formats, names);
  WT_OK(ArrowSchemaAllocateDictionary(schema.children[0]));
  ArrowSchemaInit(schema.children[0]->dictionary);
  WT_OK(ArrowSchemaInitFromType(schema.children[0]->dictionary, NANOARROW_TYPE_STRING));
  WT_OK(ArrowArrayInitFromSchema(&array, &schema, &error));
  WT_OK(ArrowArrayStartAppending(&array));
  WtAppendStrings(array.children[0]->dictionary, 2, values);
  WT_OK(ArrowArrayAppendInt(array.children[0], 1));
  WtFinishStruct(&array, 1);
  ArrowBufferInit(out);
  arrays[0] = &array;
  cr_assert_eq(WtWrite(out, &schema, arrays, 1, 1, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                       &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* The footer's only dictionary block of the file in bytes. */
static struct ArrowIpcFileBlock OnlyDictionaryBlock(const struct ArrowBuffer* bytes) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView view;
  struct ArrowError error;
  struct ArrowIpcFileBlock block;
  view.data.as_uint8 = bytes->data;
  view.size_bytes = bytes->size_bytes;
  WT_OK(ArrowIpcDecoderInit(&decoder));
  cr_assert_eq(ArrowIpcDecoderDecodeFooter(&decoder, view, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.footer->dictionary_blocks.size_bytes,
               (int64_t)sizeof(struct ArrowIpcFileBlock));
  memcpy(&block, decoder.footer->dictionary_blocks.data, sizeof(block));
  ArrowIpcDecoderReset(&decoder);
  return block;
}

/* Opens a reader over a copy of bytes, from memory or through a FILE*. */
static void OpenReader(const struct ArrowBuffer* bytes, int from_file,
                       struct ArrowIpcFileReader* reader) {
  struct ArrowError error;
  error.message[0] = '\0';
  if (from_file) {
    FILE* file = tmpfile();
    cr_assert_not_null(file);
    cr_assert_eq(fwrite(bytes->data, 1, (size_t)bytes->size_bytes, file),
                 (size_t)bytes->size_bytes);
    cr_assert_eq(ArrowIpcFileReaderInitFile(reader, file, 1, &error), NANOARROW_OK, "%s",
                 error.message);
  } else {
    struct ArrowBuffer copy;
    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, bytes->data, bytes->size_bytes));
    cr_assert_eq(ArrowIpcFileReaderInitBuffer(reader, &copy, &error), NANOARROW_OK, "%s",
                 error.message);
  }
}

static void AssertDictionaryOfZeros(const struct ArrowArray* batch) {
  const struct ArrowArray* dictionary = batch->children[0]->dictionary;
  const int64_t* values;
  int64_t i;
  cr_assert_eq(batch->length, 1);
  cr_assert_not_null(dictionary);
  cr_assert_eq(dictionary->length, kDictionaryLength);
  values = (const int64_t*)dictionary->buffers[1] + dictionary->offset;
  for (i = 0; i < kDictionaryLength; i++) cr_assert_eq(values[i], 0);
}

static void AssertRefusedAtLimit(const char* message) {
  char expected[64];
  snprintf(expected, sizeof(expected), "over the limit of %d decompressed bytes",
           kDictionaryBytes - 1);
  cr_assert(strstr(message, expected) != NULL, "%s", message);
  cr_assert(strstr(message, "dictionary id 0") != NULL, "%s", message);
}

static const enum ArrowIpcCompressionType kCodecs[] = {NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                                       NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME};

Test(ipc_file_reader_dictionaries, limit_set_after_init_covers_dictionaries) {
  int n_codecs = 0;
  size_t c;
  int from_file;
  for (c = 0; c < sizeof(kCodecs) / sizeof(kCodecs[0]); c++) {
    struct ArrowBuffer bytes;
    if (!WriteInt64DictionaryFile(kCodecs[c], &bytes)) {
      ArrowBufferReset(&bytes);
      continue;
    }
    n_codecs++;
    for (from_file = 0; from_file <= 1; from_file++) {
      struct ArrowIpcFileReader reader;
      struct ArrowArray batch;
      struct ArrowError error;
      OpenReader(&bytes, from_file, &reader);

      /* One byte under the dictionary's claim: the dictionary is refused. */
      WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, kDictionaryBytes - 1));
      error.message[0] = '\0';
      cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                               NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   EINVAL);
      AssertRefusedAtLimit(error.message);

      /* The same reader reads it once the limit allows the claim. */
      WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, kDictionaryBytes));
      cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                               NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      AssertDictionaryOfZeros(&batch);
      ArrowArrayRelease(&batch);
      ArrowIpcFileReaderReset(&reader);

      /* Exactly at the claim from the start, and at the default. */
      OpenReader(&bytes, from_file, &reader);
      WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, kDictionaryBytes));
      cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                               NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      AssertDictionaryOfZeros(&batch);
      ArrowArrayRelease(&batch);
      ArrowIpcFileReaderReset(&reader);

      OpenReader(&bytes, from_file, &reader);
      WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, -1));
      cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                               NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      AssertDictionaryOfZeros(&batch);
      ArrowArrayRelease(&batch);
      ArrowIpcFileReaderReset(&reader);
    }
    ArrowBufferReset(&bytes);
  }
  if (n_codecs == 0) cr_skip_test("built without ZSTD and LZ4");
}

Test(ipc_file_reader_dictionaries, file_array_stream_applies_the_limit_to_dictionaries) {
  struct ArrowBuffer bytes;
  struct ArrowIpcFileReader reader;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  size_t c;
  for (c = 0; c < sizeof(kCodecs) / sizeof(kCodecs[0]); c++) {
    if (WriteInt64DictionaryFile(kCodecs[c], &bytes)) break;
    ArrowBufferReset(&bytes);
  }
  if (c == sizeof(kCodecs) / sizeof(kCodecs[0])) cr_skip_test("built without ZSTD and LZ4");

  OpenReader(&bytes, 0, &reader);
  WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, kDictionaryBytes - 1));
  WT_OK(ArrowIpcFileReaderArrayStream(&reader, &stream, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error));
  WT_OK(stream.get_schema(&stream, &schema));
  ArrowSchemaRelease(&schema);
  cr_assert_eq(stream.get_next(&stream, &batch), EINVAL);
  AssertRefusedAtLimit(stream.get_last_error(&stream));
  stream.release(&stream);

  OpenReader(&bytes, 0, &reader);
  WT_OK(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, kDictionaryBytes));
  WT_OK(ArrowIpcFileReaderArrayStream(&reader, &stream, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error));
  cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  AssertDictionaryOfZeros(&batch);
  ArrowArrayRelease(&batch);
  cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
  cr_assert_null(batch.release);
  stream.release(&stream);
  ArrowBufferReset(&bytes);
}

/* A file given to the stream reader goes through the file reader: the stream
 * reader's limit must reach the file's dictionaries too. */
Test(ipc_file_reader_dictionaries, stream_reader_limit_reaches_file_dictionaries) {
  struct ArrowBuffer bytes;
  size_t c;
  int64_t limit;
  for (c = 0; c < sizeof(kCodecs) / sizeof(kCodecs[0]); c++) {
    if (WriteInt64DictionaryFile(kCodecs[c], &bytes)) break;
    ArrowBufferReset(&bytes);
  }
  if (c == sizeof(kCodecs) / sizeof(kCodecs[0])) cr_skip_test("built without ZSTD and LZ4");

  for (limit = kDictionaryBytes - 1; limit <= kDictionaryBytes; limit++) {
    struct ArrowBuffer copy;
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    struct ArrowArray batch;
    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, bytes.data, bytes.size_bytes));
    WT_OK(ArrowIpcInputStreamInitBuffer(&input, &copy));
    WT_OK(ArrowIpcArrayStreamReaderInitWithLimits(
        &stream, &input, NULL, NANOARROW_VALIDATION_LEVEL_FULL, limit));
    cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s",
                 stream.get_last_error(&stream));
    ArrowSchemaRelease(&schema);
    if (limit < kDictionaryBytes) {
      cr_assert_eq(stream.get_next(&stream, &batch), EINVAL);
      AssertRefusedAtLimit(stream.get_last_error(&stream));
    } else {
      cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s",
                   stream.get_last_error(&stream));
      AssertDictionaryOfZeros(&batch);
      ArrowArrayRelease(&batch);
    }
    stream.release(&stream);
  }
  ArrowBufferReset(&bytes);
}

/* Init only needs the footer; each read then reports the broken dictionary (the
 * same way every time) and the reader resets without leaks (checked by ASan). */
static void CheckBrokenDictionaryFile(const struct ArrowBuffer* bytes, const char* expected) {
  int from_file;
  for (from_file = 0; from_file <= 1; from_file++) {
    struct ArrowIpcFileReader reader;
    struct ArrowSchema schema;
    struct ArrowArray batch;
    struct ArrowError error;
    char first_message[sizeof(error.message)];
    OpenReader(bytes, from_file, &reader);
    cr_assert_eq(ArrowIpcFileReaderNumRecordBatches(&reader), 1);
    cr_assert_eq(ArrowIpcFileReaderGetSchema(&reader, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_str_eq(schema.children[0]->name, "d");
    cr_assert_not_null(schema.children[0]->dictionary);
    ArrowSchemaRelease(&schema);

    error.message[0] = '\0';
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 EINVAL);
    cr_assert(strstr(error.message, expected) != NULL, "expected '%s' in: %s", expected,
              error.message);
    strcpy(first_message, error.message);
    error.message[0] = '\0';
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 EINVAL);
    cr_assert_str_eq(error.message, first_message);
    /* An index out of range is still reported as such. */
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 1, &batch,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 EINVAL);
    cr_assert(strstr(error.message, "record batch 1 does not exist") != NULL, "%s",
              error.message);
    ArrowIpcFileReaderReset(&reader);
    cr_assert_null(reader.private_data);
  }
}

Test(ipc_file_reader_dictionaries, corrupt_dictionary_header_fails_the_first_read) {
  struct ArrowBuffer bytes;
  struct ArrowIpcFileBlock block;
  char expected[128];
  WriteStringDictionaryFile(&bytes);
  block = OnlyDictionaryBlock(&bytes);
  /* Keep the 8-byte prefix (so the block's sizes still agree) and scramble the
   * Message flatbuffer behind it. */
  cr_assert(block.metadata_length > 8);
  memset(bytes.data + block.offset + 8, 0xFF, (size_t)block.metadata_length - 8);
  snprintf(expected, sizeof(expected), "dictionary block 0 of 1 (file offset %ld): ",
           (long)block.offset);
  CheckBrokenDictionaryFile(&bytes, expected);
  ArrowBufferReset(&bytes);
}

Test(ipc_file_reader_dictionaries, corrupt_dictionary_body_names_the_dictionary) {
  struct ArrowBuffer bytes;
  struct ArrowIpcFileBlock block;
  int32_t offsets[3];
  int32_t bad_offset = 1000;
  char expected[128];
  uint8_t* body;
  WriteStringDictionaryFile(&bytes);
  block = OnlyDictionaryBlock(&bytes);
  /* No nulls: the body starts with the offsets 0, 5, 9 of "alpha", "beta". */
  body = bytes.data + block.offset + block.metadata_length;
  memcpy(offsets, body, sizeof(offsets));
  cr_assert(offsets[0] == 0 && offsets[1] == 5 && offsets[2] == 9,
            "unexpected body layout: %d %d %d", (int)offsets[0], (int)offsets[1],
            (int)offsets[2]);
  memcpy(body + 4, &bad_offset, sizeof(bad_offset));
  snprintf(expected, sizeof(expected),
           "dictionary id 0 (dictionary block 0 of 1, file offset %ld): ",
           (long)block.offset);
  CheckBrokenDictionaryFile(&bytes, expected);
  ArrowBufferReset(&bytes);
}
