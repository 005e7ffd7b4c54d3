// Self-checking tests of the IPC C++ helpers in nanoarrow/nanoarrow_ipc.hpp.
// Prints one line per failed check and exits non-zero when any check failed.
// Built as C++11 and run under ASan: a wrapper that leaks or frees twice fails.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "nanoarrow/nanoarrow_ipc.hpp"

#include "check.h"

// struct<x: int32> with one batch per element of batches.
static nanoarrow::UniqueArrayStream MakeStream(
    const std::vector<std::vector<int32_t>>& batches) {
  nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeStruct(schema.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetName(schema->children[0], "x"));

  std::vector<nanoarrow::UniqueArray> arrays;
  for (const auto& values : batches) {
    nanoarrow::UniqueArray array;
    NANOARROW_THROW_NOT_OK(ArrowArrayInitFromSchema(array.get(), schema.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
    for (int32_t value : values) {
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array->children[0], value));
      NANOARROW_THROW_NOT_OK(ArrowArrayFinishElement(array.get()));
    }
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
    arrays.push_back(std::move(array));
  }
  return nanoarrow::VectorArrayStream::MakeUnique(schema.get(), std::move(arrays));
}

// Writes stream as IPC (file format when file_format) into out.
static void WriteIpc(struct ArrowArrayStream* stream, bool file_format,
                     struct ArrowBuffer* out) {
  nanoarrow::ipc::UniqueOutputStream output;
  CHECK(output->release == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcOutputStreamInitBuffer(output.get(), out));
  CHECK(output->release != nullptr);

  // The writer owns the output stream once initialized.
  nanoarrow::ipc::UniqueWriter writer;
  CHECK(writer->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcWriterInit(writer.get(), output.get()));
  CHECK(output->release == nullptr);

  // Moving the writer keeps it working and empties the source.
  nanoarrow::ipc::UniqueWriter moved(std::move(writer));
  CHECK(writer->private_data == nullptr);
  struct ArrowError error;
  if (file_format) NANOARROW_THROW_NOT_OK(ArrowIpcWriterStartFile(moved.get(), &error));
  NANOARROW_THROW_NOT_OK(ArrowIpcWriterWriteArrayStream(moved.get(), stream, &error));
  if (file_format) NANOARROW_THROW_NOT_OK(ArrowIpcWriterFinalizeFile(moved.get(), &error));
}

// The x values of every batch of an IPC stream.
static std::vector<std::vector<int32_t>> ReadAll(struct ArrowArrayStream* stream) {
  std::vector<std::vector<int32_t>> out;
  struct ArrowError error;
  nanoarrow::ViewArrayStream batches(stream, &error);
  for (struct ArrowArray& batch : batches) {
    std::vector<int32_t> values;
    for (auto value : nanoarrow::ViewArrayAs<int32_t>(batch.children[0])) {
      values.push_back(value.value_or(-1));
    }
    out.push_back(values);
  }
  CHECK(batches.code() == NANOARROW_OK);
  return out;
}

static void TestStreamRoundTrip() {
  const std::vector<std::vector<int32_t>> expected = {{1, 2, 3}, {}, {4}};
  nanoarrow::UniqueArrayStream stream = MakeStream(expected);
  nanoarrow::UniqueBuffer bytes;
  WriteIpc(stream.get(), false, bytes.get());
  CHECK(bytes->size_bytes > 0);

  nanoarrow::ipc::UniqueInputStream input;
  CHECK(input->release == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcInputStreamInitBuffer(input.get(), bytes.get()));
  CHECK(bytes->data == nullptr);  // the input stream took the bytes

  nanoarrow::ipc::UniqueInputStream moved;
  moved = std::move(input);
  CHECK(input->release == nullptr);
  CHECK(moved->release != nullptr);

  nanoarrow::UniqueArrayStream reader;
  NANOARROW_THROW_NOT_OK(ArrowIpcArrayStreamReaderInit(reader.get(), moved.get(), nullptr));
  CHECK(moved->release == nullptr);  // the reader took the input stream
  CHECK(ReadAll(reader.get()) == expected);

  // An input stream that is never handed over is released by its wrapper.
  nanoarrow::UniqueBuffer unused;
  NANOARROW_THROW_NOT_OK(ArrowBufferAppend(unused.get(), "abcd", 4));
  nanoarrow::ipc::UniqueInputStream owner;
  NANOARROW_THROW_NOT_OK(ArrowIpcInputStreamInitBuffer(owner.get(), unused.get()));
}

static void TestDecoderAndFooter() {
  nanoarrow::UniqueArrayStream stream = MakeStream({{7, 8}});
  nanoarrow::UniqueBuffer bytes;
  WriteIpc(stream.get(), true, bytes.get());

  nanoarrow::ipc::UniqueDecoder decoder;
  CHECK(decoder->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcDecoderInit(decoder.get()));
  nanoarrow::ipc::UniqueDecoder decoder2(std::move(decoder));
  CHECK(decoder->private_data == nullptr);
  CHECK(decoder2->private_data != nullptr);

  struct ArrowBufferView tail;
  tail.data.as_uint8 = bytes->data;
  tail.size_bytes = bytes->size_bytes;
  struct ArrowError error;
  NANOARROW_THROW_NOT_OK(ArrowIpcDecoderDecodeFooter(decoder2.get(), tail, &error));
  CHECK(decoder2->footer != nullptr);
  CHECK(decoder2->footer->record_batch_blocks.size_bytes ==
        static_cast<int64_t>(sizeof(struct ArrowIpcFileBlock)));

  // A footer wrapper starts initialized; moving carries its schema and blocks.
  nanoarrow::ipc::UniqueFooter footer;
  CHECK(footer->schema.release == nullptr);
  CHECK(footer->record_batch_blocks.size_bytes == 0);
  NANOARROW_THROW_NOT_OK(
      ArrowSchemaDeepCopy(&decoder2->footer->schema, &footer->schema));
  NANOARROW_THROW_NOT_OK(ArrowBufferAppend(&footer->record_batch_blocks,
                                           decoder2->footer->record_batch_blocks.data,
                                           decoder2->footer->record_batch_blocks.size_bytes));
  nanoarrow::ipc::UniqueFooter footer2;
  footer2 = std::move(footer);
  CHECK(footer->schema.release == nullptr);
  CHECK(footer->record_batch_blocks.data == nullptr);
  CHECK(footer2->schema.n_children == 1);
  CHECK(std::strcmp(footer2->schema.children[0]->name, "x") == 0);
  CHECK(footer2->record_batch_blocks.size_bytes ==
        static_cast<int64_t>(sizeof(struct ArrowIpcFileBlock)));

  // The encoder round-trips the footer it is given.
  nanoarrow::ipc::UniqueEncoder encoder;
  CHECK(encoder->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcEncoderInit(encoder.get()));
  nanoarrow::ipc::UniqueEncoder encoder2;
  encoder2 = std::move(encoder);
  CHECK(encoder->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcEncoderEncodeFooter(encoder2.get(), footer2.get(), &error));
  nanoarrow::UniqueBuffer encoded;
  NANOARROW_THROW_NOT_OK(ArrowIpcEncoderFinalizeBuffer(encoder2.get(), 0, encoded.get()));
  CHECK(encoded->size_bytes > 0);

  // reset() releases early and leaves the wrapper reusable.
  decoder2.reset();
  CHECK(decoder2->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcDecoderInit(decoder2.get()));
}

static void TestFileReader() {
  const std::vector<std::vector<int32_t>> expected = {{10}, {20, 30}};
  nanoarrow::UniqueArrayStream stream = MakeStream(expected);
  nanoarrow::UniqueBuffer bytes;
  WriteIpc(stream.get(), true, bytes.get());

  struct ArrowError error;
  nanoarrow::ipc::UniqueFileReader reader;
  CHECK(reader->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcFileReaderInitBuffer(reader.get(), bytes.get(), &error));
  nanoarrow::ipc::UniqueFileReader moved(std::move(reader));
  CHECK(reader->private_data == nullptr);
  CHECK(ArrowIpcFileReaderNumRecordBatches(moved.get()) == 2);

  nanoarrow::UniqueArray batch;
  NANOARROW_THROW_NOT_OK(ArrowIpcFileReaderReadBatch(
      moved.get(), 1, batch.get(), NANOARROW_VALIDATION_LEVEL_FULL, &error));
  CHECK(batch->length == 2);
  CHECK(nanoarrow::ViewArrayAs<int32_t>(batch->children[0])[1] == 30);
}

static void TestErrorsThrow() {
  // A truncated stream surfaces as an exception through NANOARROW_THROW_NOT_OK.
  nanoarrow::UniqueBuffer bytes;
  NANOARROW_THROW_NOT_OK(ArrowBufferAppend(bytes.get(), "\xff\xff\xff\xff\x10", 5));
  nanoarrow::ipc::UniqueInputStream input;
  NANOARROW_THROW_NOT_OK(ArrowIpcInputStreamInitBuffer(input.get(), bytes.get()));
  nanoarrow::UniqueArrayStream reader;
  NANOARROW_THROW_NOT_OK(ArrowIpcArrayStreamReaderInit(reader.get(), input.get(), nullptr));
  nanoarrow::UniqueSchema schema;
  bool thrown = false;
  try {
    NANOARROW_THROW_NOT_OK(ArrowArrayStreamGetSchema(reader.get(), schema.get(), nullptr));
  } catch (const nanoarrow::Exception&) {
    thrown = true;
  }
  CHECK(thrown);
}

static void TestSharedBufferAndDecompressor() {
  // A shared buffer takes the bytes; moving the wrapper moves the reference.
  nanoarrow::UniqueBuffer bytes;
  NANOARROW_THROW_NOT_OK(ArrowBufferAppend(bytes.get(), "abcdef", 6));
  const uint8_t* data = bytes->data;
  nanoarrow::ipc::UniqueSharedBuffer shared;
  NANOARROW_THROW_NOT_OK(ArrowIpcSharedBufferInit(shared.get(), bytes.get()));
  CHECK(bytes->data == nullptr);
  CHECK(shared->data == data);
  CHECK(ArrowIsSharedBuffer(shared.get()));
  nanoarrow::ipc::UniqueSharedBuffer moved(std::move(shared));
  CHECK(moved->data == data);
  CHECK(shared->data == nullptr);
  // Both wrappers are released at scope exit: LeakSanitizer and ASan check.

  nanoarrow::ipc::UniqueDecompressor decompressor;
  CHECK(decompressor->release == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcSerialDecompressor(decompressor.get()));
  CHECK(decompressor->release != nullptr);
  nanoarrow::ipc::UniqueDecompressor other(std::move(decompressor));
  CHECK(decompressor->release == nullptr);
  CHECK(other->release != nullptr);

  // The machine's byte order, as the compiler sees it.
  const uint16_t probe = 0x0102;
  const bool little = *reinterpret_cast<const uint8_t*>(&probe) == 0x02;
  CHECK(ArrowIpcSystemEndianness() ==
        (little ? NANOARROW_IPC_ENDIANNESS_LITTLE : NANOARROW_IPC_ENDIANNESS_BIG));
#if NANOARROW_IPC_FEATURE_COMPRESSED_BODY != 2 || NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT != 1
#error "feature flags must be usable in #if"
#endif
}

// UniqueCompressor owns a compressor until it is moved into an encoder, which
// then compresses with it: the level given to the serial compressor is used.
static int g_last_level = 0;
static ArrowErrorCode CopyRecordingLevel(struct ArrowBufferView src, int level,
                                         struct ArrowBuffer* dst, struct ArrowError*) {
  g_last_level = level;
  return ArrowBufferAppend(dst, src.data.data, src.size_bytes);
}

static void TestCompressor() {
  nanoarrow::ipc::UniqueCompressor compressor;
  CHECK(compressor->release == nullptr);
  NANOARROW_THROW_NOT_OK(
      ArrowIpcSerialCompressor(compressor.get(), NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 5));
  CHECK(compressor->compression_type == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  NANOARROW_THROW_NOT_OK(ArrowIpcSerialCompressorSetFunction(
      compressor.get(), NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &CopyRecordingLevel));
  nanoarrow::ipc::UniqueCompressor moved(std::move(compressor));
  CHECK(compressor->release == nullptr);
  CHECK(moved->release != nullptr);

  nanoarrow::ipc::UniqueEncoder encoder;
  NANOARROW_THROW_NOT_OK(ArrowIpcEncoderInit(encoder.get()));
  NANOARROW_THROW_NOT_OK(ArrowIpcEncoderSetCompressor(encoder.get(), moved.get()));
  CHECK(moved->release == nullptr);

  nanoarrow::UniqueSchema schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_STRUCT));
  NANOARROW_THROW_NOT_OK(ArrowSchemaAllocateChildren(schema.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema->children[0], NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetName(schema->children[0], "x"));
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromSchema(array.get(), schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  for (int i = 0; i < 10; i++) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array->children[0], i));
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishElement(array.get()));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  nanoarrow::UniqueArrayView view;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(view.get(), schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  nanoarrow::UniqueBuffer body;
  NANOARROW_THROW_NOT_OK(
      ArrowIpcEncoderEncodeSimpleRecordBatch(encoder.get(), view.get(), body.get(), nullptr));
  CHECK(g_last_level == 5);
  CHECK(std::strcmp(ArrowIpcCompressionTypeToString(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD),
                    "zstd") == 0);
}

// nanoarrow 0.9.0: owning wrappers of the dictionary encodings and values.
static void TestDictionaryWrappers() {
  // struct<d: dictionary<int32, string>>
  nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeStruct(schema.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowSchemaAllocateDictionary(schema->children[0]));
  NANOARROW_THROW_NOT_OK(
      ArrowSchemaInitFromType(schema->children[0]->dictionary, NANOARROW_TYPE_STRING));

  // A default-constructed encodings wrapper is initialized (empty) and usable.
  nanoarrow::ipc::UniqueDictionaryEncodings encodings;
  CHECK(encodings->encodings.size_bytes == 0);
  NANOARROW_THROW_NOT_OK(ArrowIpcDictionaryEncodingsAppendSchema(encodings.get(), schema.get()));
  CHECK(ArrowIpcDictionaryEncodingsFindById(encodings.get(), 0) != nullptr);
  CHECK(ArrowIpcDictionaryEncodingsFindById(encodings.get(), 0)->schema == schema->children[0]);

  // Moving hands the list over; the moved-from wrapper is empty again.
  nanoarrow::ipc::UniqueDictionaryEncodings moved(std::move(encodings));
  CHECK(encodings->encodings.size_bytes == 0);
  CHECK(ArrowIpcDictionaryEncodingsFindById(moved.get(), 0) != nullptr);

  nanoarrow::UniqueBuffer ids;
  NANOARROW_THROW_NOT_OK(ArrowIpcDictionaryEncodingsUniqueIds(moved.get(), ids.get()));
  CHECK(ids->size_bytes == static_cast<int64_t>(sizeof(int64_t)));

  // The dictionaries wrapper is empty until Init; Reset of an empty one is a no-op.
  nanoarrow::ipc::UniqueDictionaries dictionaries;
  CHECK(dictionaries->private_data == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowIpcDictionariesInit(dictionaries.get(), moved.get(), nullptr));
  CHECK(dictionaries->private_data != nullptr);
  const struct ArrowArray* value = nullptr;
  CHECK(ArrowIpcDictionariesFindCurrentValue(dictionaries.get(), 0, &value, nullptr) ==
        EINVAL);
  nanoarrow::ipc::UniqueDictionaries moved_dictionaries(std::move(dictionaries));
  CHECK(dictionaries->private_data == nullptr);
  CHECK(moved_dictionaries->private_data != nullptr);
  // Both wrappers are released at scope exit: LeakSanitizer and ASan check.
}

int main() {
  try {
    TestCompressor();
    TestDictionaryWrappers();
    TestStreamRoundTrip();
    TestDecoderAndFooter();
    TestFileReader();
    TestErrorsThrow();
    TestSharedBufferAndDecompressor();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_ipc_hpp");
}
