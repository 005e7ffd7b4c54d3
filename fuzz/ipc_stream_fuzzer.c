/* libFuzzer harness: the IPC stream reader end to end. The input is an IPC stream
 * (or file: the reader detects the magic). It is read three times: zero-copy from a
 * buffer, the same with two decompression threads (which must end exactly as the
 * serial read did: same batches, same error text), and through a chunked input
 * stream with copied bodies, each time validating every batch at the FULL level and
 * reading every value. */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

/* An input stream that hands out at most FUZZ_CHUNK bytes per read, so the
 * reader's own buffering (not the buffer fast path) is exercised. */
#define FUZZ_CHUNK 4093

struct FuzzChunkedInput {
  const uint8_t* data;
  int64_t size;
  int64_t position;
};

static ArrowErrorCode FuzzChunkedRead(struct ArrowIpcInputStream* stream, uint8_t* buf,
                                      int64_t buf_size_bytes, int64_t* size_read_out,
                                      struct ArrowError* error) {
  struct FuzzChunkedInput* input = (struct FuzzChunkedInput*)stream->private_data;
  int64_t n = input->size - input->position;
  (void)error;
  if (n > buf_size_bytes) n = buf_size_bytes;
  if (n > FUZZ_CHUNK) n = FUZZ_CHUNK;
  if (n > 0) memcpy(buf, input->data + input->position, (size_t)n);
  input->position += n;
  *size_read_out = n;
  return NANOARROW_OK;
}

static void FuzzChunkedRelease(struct ArrowIpcInputStream* stream) {
  stream->release = NULL;
}

/* How a read of the whole stream ended. */
struct FuzzDrainResult {
  int n_batches;
  ArrowErrorCode code;
  char message[sizeof(((struct ArrowError*)0)->message)];
};

/* Reads every batch of stream; the reader must never hand out a batch that
 * fails validation or that cannot be read in full. */
static void FuzzDrainStream(struct ArrowArrayStream* stream, struct FuzzDrainResult* out) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int n_batches = 0;
  ArrowErrorInit(&error);
  out->n_batches = -1;
  out->code = ArrowArrayStreamGetSchema(stream, &schema, &error);
  memcpy(out->message, error.message, sizeof(out->message));
  if (out->code != NANOARROW_OK) return;
  FuzzTouchSchema(&schema, 0);
  /* Bounded: each batch consumes input, but guard against a reader that loops. */
  while (n_batches < 1000000) {
    out->code = ArrowArrayStreamGetNext(stream, &array, &error);
    if (out->code != NANOARROW_OK) {
      memcpy(out->message, error.message, sizeof(out->message));
      break;
    }
    if (array.release == NULL) break;
    FuzzCheckBatch(&schema, &array);
    ArrowArrayRelease(&array);
    n_batches++;
  }
  FUZZ_CHECK(n_batches < 1000000);
  out->n_batches = n_batches;
  ArrowSchemaRelease(&schema);
}

/* Reads input zero-copy from a buffer, with n_threads decompression threads. */
static void FuzzDrainBuffer(const uint8_t* data, size_t size, int n_threads,
                            struct FuzzDrainResult* out) {
  struct ArrowBuffer input;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  ArrowBufferInit(&input);
  FUZZ_CHECK(ArrowBufferAppend(&input, data, (int64_t)size) == NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcInputStreamInitBuffer(&input_stream, &input) == NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, NULL) == NANOARROW_OK);
  if (n_threads > 1) {
    FUZZ_CHECK(ArrowIpcArrayStreamReaderSetNumThreads(&stream, n_threads, NULL) ==
               NANOARROW_OK);
  }
  FuzzDrainStream(&stream, out);
  ArrowArrayStreamRelease(&stream);
  ArrowBufferReset(&input);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct FuzzChunkedInput chunked;
  struct FuzzDrainResult serial;
  struct FuzzDrainResult parallel;
  struct FuzzDrainResult streamed;

  /* Zero-copy buffer path (the default options: FULL, shared buffers), serial and
   * with two threads: buffers of 64 KiB or more (decompressed) go to the pool. */
  FuzzDrainBuffer(data, size, 1, &serial);
  FuzzDrainBuffer(data, size, 2, &parallel);
  FUZZ_CHECK(serial.n_batches == parallel.n_batches);
  FUZZ_CHECK(serial.code == parallel.code);
  FUZZ_CHECK(serial.code == NANOARROW_OK ||
             strcmp(serial.message, parallel.message) == 0);

  /* Streaming path with copied bodies. */
  {
    struct ArrowIpcArrayStreamReaderOptions options;
    chunked.data = data;
    chunked.size = (int64_t)size;
    chunked.position = 0;
    input_stream.read = &FuzzChunkedRead;
    input_stream.release = &FuzzChunkedRelease;
    input_stream.private_data = &chunked;
    options.field_index = -1;
    options.use_shared_buffers = 0;
    FUZZ_CHECK(ArrowIpcArrayStreamReaderInitWithValidation(
                   &stream, &input_stream, &options, NANOARROW_VALIDATION_LEVEL_FULL) ==
               NANOARROW_OK);
    FuzzDrainStream(&stream, &streamed);
    ArrowArrayStreamRelease(&stream);
  }
  return 0;
}
