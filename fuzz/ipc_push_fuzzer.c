/* libFuzzer harness: the IPC push decoder fed its input in pieces the fuzzer
 * chooses. The input is an IPC stream followed by a trailer: its last byte k
 * (its low 4 bits) and the k bytes before it give the piece sizes, used in turn
 * (a size byte of 0 means "exactly ArrowIpcPushDecoderBytesNeeded()"). k = 0:
 * there is no trailer, the whole input is the stream, pushed at once and then
 * again one byte at a time; a plain stream ends with the end-of-stream marker's 0
 * byte, so the conformance streams are seeds as they are. Each batch handed out is validated at FULL and read in full, and the
 * outcome (code and number of batches) must be the stream reader's over the same
 * bytes. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

struct FuzzPushResult {
  int code;
  int64_t n_batches;
};

/* The stream reader over a copy of the stream (zero-copy from that buffer). */
static void FuzzPushReference(const uint8_t* data, int64_t size,
                              struct FuzzPushResult* out) {
  struct ArrowBuffer input;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  out->n_batches = 0;
  ArrowBufferInit(&input);
  FUZZ_CHECK(ArrowBufferAppend(&input, data, size) == NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcInputStreamInitBuffer(&input_stream, &input) == NANOARROW_OK);
  FUZZ_CHECK(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, NULL) == NANOARROW_OK);
  out->code = stream.get_schema(&stream, &schema);
  if (out->code == NANOARROW_OK) ArrowSchemaRelease(&schema);
  while (out->code == NANOARROW_OK) {
    out->code = stream.get_next(&stream, &array);
    if (out->code != NANOARROW_OK || array.release == NULL) break;
    ArrowArrayRelease(&array);
    out->n_batches++;
  }
  ArrowArrayStreamRelease(&stream);
}

struct FuzzPushState {
  struct ArrowSchema schema;
  int64_t n_batches;
};

static ArrowErrorCode FuzzPushOnSchema(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                       struct ArrowSchema* schema,
                                       struct ArrowError* error) {
  struct FuzzPushState* state = (struct FuzzPushState*)callbacks->private_data;
  (void)error;
  FUZZ_CHECK(state->schema.release == NULL);
  FuzzTouchSchema(schema, 0);
  ArrowSchemaMove(schema, &state->schema);
  return NANOARROW_OK;
}

static ArrowErrorCode FuzzPushOnBatch(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                      struct ArrowArray* batch, struct ArrowError* error) {
  struct FuzzPushState* state = (struct FuzzPushState*)callbacks->private_data;
  (void)error;
  FUZZ_CHECK(state->schema.release != NULL);
  FuzzCheckBatch(&state->schema, batch);
  state->n_batches++;
  return NANOARROW_OK;
}

/* Pushes the stream in the chosen pieces; callbacks or polling, copied pieces or
 * pieces handed over as buffers. */
static void FuzzPushRun(const uint8_t* data, int64_t size, const uint8_t* sizes,
                        int n_sizes, int use_callbacks, int hand_over,
                        struct FuzzPushResult* out) {
  struct ArrowIpcPushDecoder decoder;
  struct ArrowIpcPushDecoderCallbacks callbacks;
  struct FuzzPushState state;
  struct ArrowError error;
  struct ArrowArray batch;
  int64_t pos = 0;
  int turn = 0;
  int code = NANOARROW_OK;
  state.schema.release = NULL;
  state.n_batches = 0;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.on_schema = &FuzzPushOnSchema;
  callbacks.on_batch = &FuzzPushOnBatch;
  callbacks.private_data = &state;
  FUZZ_CHECK(ArrowIpcPushDecoderInit(&decoder, use_callbacks ? &callbacks : NULL, &error) ==
             NANOARROW_OK);
  /* The reader sees where its input ends; without a limit the push decoder waits
   * for the bytes a length promises, and fails the same way at Finish. */
  FUZZ_CHECK(ArrowIpcPushDecoderSetMaxMessageBytes(&decoder, INT64_MAX) == NANOARROW_OK);
  while (pos < size && code == NANOARROW_OK) {
    int64_t n = n_sizes == 0 ? size : sizes[turn++ % n_sizes];
    if (n == 0) n = ArrowIpcPushDecoderBytesNeeded(&decoder);
    /* 0 once the stream ended (bytes follow its end-of-stream marker): push them. */
    if (n == 0) n = size - pos;
    if (n > size - pos) n = size - pos;
    if (hand_over) {
      struct ArrowBuffer piece;
      ArrowBufferInit(&piece);
      FUZZ_CHECK(ArrowBufferAppend(&piece, data + pos, n) == NANOARROW_OK);
      code = ArrowIpcPushDecoderConsumeBuffer(&decoder, &piece, &error);
      FUZZ_CHECK(piece.data == NULL);
    } else {
      code = ArrowIpcPushDecoderConsume(&decoder, data + pos, n, &error);
    }
    pos += n;
    if (!use_callbacks) {
      if (state.schema.release == NULL &&
          ArrowIpcPushDecoderGetSchema(&decoder, &state.schema, &error) == NANOARROW_OK) {
        FuzzTouchSchema(&state.schema, 0);
      }
      while (ArrowIpcPushDecoderNext(&decoder, &batch, &error) == NANOARROW_OK) {
        FUZZ_CHECK(state.schema.release != NULL);
        FuzzCheckBatch(&state.schema, &batch);
        ArrowArrayRelease(&batch);
        state.n_batches++;
      }
    }
  }
  if (code == NANOARROW_OK) code = ArrowIpcPushDecoderFinish(&decoder, &error);
  if (code == NANOARROW_OK) FUZZ_CHECK(ArrowIpcPushDecoderBytesNeeded(&decoder) == 0);
  if (!use_callbacks) {
    while (ArrowIpcPushDecoderNext(&decoder, &batch, &error) == NANOARROW_OK) {
      FuzzCheckBatch(&state.schema, &batch);
      ArrowArrayRelease(&batch);
      state.n_batches++;
    }
  }
  /* Bytes after the end-of-stream marker: the reader ignores them, the push
   * decoder refuses them (EINVAL) but has ended cleanly (Next says ENODATA). */
  if (code == EINVAL && ArrowIpcPushDecoderNext(&decoder, &batch, &error) == ENODATA) {
    FUZZ_CHECK(ArrowIpcPushDecoderBytesConsumed(&decoder) < size);
    code = NANOARROW_OK;
  }
  out->code = code;
  out->n_batches = state.n_batches;
  if (state.schema.release != NULL) ArrowSchemaRelease(&state.schema);
  ArrowIpcPushDecoderReset(&decoder);
}

static void FuzzPushCompare(const struct FuzzPushResult* push,
                            const struct FuzzPushResult* reference) {
  if (push->code != reference->code || push->n_batches != reference->n_batches) {
    fprintf(stderr, "push decoder: code %d, %ld batches; stream reader: code %d, %ld\n",
            push->code, (long)push->n_batches, reference->code,
            (long)reference->n_batches);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct FuzzPushResult reference;
  struct FuzzPushResult push;
  const uint8_t* sizes;
  int64_t stream_size;
  int n_sizes;
  static const uint8_t kOneByte[] = {1};
  if (size == 0) return 0;
  n_sizes = data[size - 1] & 15;
  if ((size_t)n_sizes + 1 > size) return 0;
  stream_size = n_sizes == 0 ? (int64_t)size : (int64_t)size - 1 - n_sizes;
  sizes = data + stream_size;
  /* The reader also reads IPC files (by their magic); the push decoder does not. */
  if (stream_size >= 4 && memcmp(data, "ARRO", 4) == 0) return 0;
  FuzzPushReference(data, stream_size, &reference);

  FuzzPushRun(data, stream_size, sizes, n_sizes, 0, 0, &push);
  FuzzPushCompare(&push, &reference);
  FuzzPushRun(data, stream_size, sizes, n_sizes, 1, 1, &push);
  FuzzPushCompare(&push, &reference);
  if (n_sizes == 0) {
    FuzzPushRun(data, stream_size, kOneByte, 1, 1, 0, &push);
    FuzzPushCompare(&push, &reference);
  }
  return 0;
}
