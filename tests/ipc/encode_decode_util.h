/* Shared by the encoder tests: a record batch view encoded as one message and
 * decoded again, so a test can look at what the message carries. */
#ifndef TESTS_IPC_ENCODE_DECODE_UTIL_H_INCLUDED
#define TESTS_IPC_ENCODE_DECODE_UTIL_H_INCLUDED

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

/* Holds the encoder's output and the decoder, which owns the decoded view. */
struct EncodeDecodeRoundTrip {
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowBuffer header;
  struct ArrowBuffer body;
};

/* Encodes `view` (a struct view of a record batch of `schema`) as a record batch
 * message, decodes it with the same schema and returns the decoded view of field
 * `field_i` (0 is the first column; -1 the batch itself). */
static inline struct ArrowArrayView* EncodeDecodeField(struct EncodeDecodeRoundTrip* rt,
                                                       const struct ArrowSchema* schema,
                                                       const struct ArrowArrayView* view,
                                                       int64_t field_i) {
  struct ArrowBufferView header_view;
  struct ArrowBufferView body_view;
  struct ArrowArrayView* decoded;
  struct ArrowError error;

  ArrowBufferInit(&rt->header);
  ArrowBufferInit(&rt->body);
  cr_assert_eq(ArrowIpcEncoderInit(&rt->encoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&rt->encoder, view, &rt->body, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(&rt->encoder, 1, &rt->header), NANOARROW_OK);

  cr_assert_eq(ArrowIpcDecoderInit(&rt->decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&rt->decoder, schema, &error), NANOARROW_OK, "%s",
               error.message);
  header_view.data.data = rt->header.data;
  header_view.size_bytes = rt->header.size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&rt->decoder, header_view, &error),
               NANOARROW_OK, "%s", error.message);
  body_view.data.data = rt->body.data;
  body_view.size_bytes = rt->body.size_bytes;
  cr_assert_eq(
      ArrowIpcDecoderDecodeArrayView(&rt->decoder, body_view, field_i, &decoded, &error),
      NANOARROW_OK, "%s", error.message);
  return decoded;
}

static inline void EncodeDecodeReset(struct EncodeDecodeRoundTrip* rt) {
  ArrowIpcDecoderReset(&rt->decoder);
  ArrowIpcEncoderReset(&rt->encoder);
  ArrowBufferReset(&rt->header);
  ArrowBufferReset(&rt->body);
}

#endif
