/* Encoder internals the IPC writer uses: the deferred-body mode, in which the body
 * of a record batch is not assembled in memory but described as staged bytes plus
 * spans of the caller's buffers, so that large buffers are copied once, straight
 * into the output stream. */

#ifndef NANOARROW_IPC_WRITER_PRIVATE_H_INCLUDED
#define NANOARROW_IPC_WRITER_PRIVATE_H_INCLUDED

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcEncoderPrivateSetDeferBody NANOARROW_SYMBOL(ArrowIpcEncoderPrivateSetDeferBody)
#define ArrowIpcEncoderPrivateBodySpans NANOARROW_SYMBOL(ArrowIpcEncoderPrivateBodySpans)
#define ArrowIpcEncoderPrivateCheckTopLevelNulls \
  NANOARROW_SYMBOL(ArrowIpcEncoderPrivateCheckTopLevelNulls)
#endif

/* Uncompressed buffers at least this large are written from the caller's memory;
 * smaller ones are copied into the staged body (fewer, larger writes). */
#define NANOARROW_IPC_DEFER_MIN_BYTES 1024

/* The body is: staged bytes [previous span's staged_end, staged_end) of the body
 * buffer, then size_bytes at data, for each span in order, then the staged bytes
 * after the last span's staged_end. Positions are absolute in the body buffer. */
struct ArrowIpcBodySpan {
  int64_t staged_end;
  const void* data;
  int64_t size_bytes;
};

/* EINVAL when a record batch (a struct array view) has null rows at its top
 * level, which a record batch cannot hold; checked before anything is encoded. */
ArrowErrorCode ArrowIpcEncoderPrivateCheckTopLevelNulls(
    const struct ArrowArrayView* array_view, struct ArrowError* error);

/* Non-zero: EncodeSimpleRecordBatch / EncodeDictionaryBatch list large buffers
 * as spans (valid until the next Encode* call) instead of copying them. */
void ArrowIpcEncoderPrivateSetDeferBody(struct ArrowIpcEncoder* encoder, int defer_body);

/* The spans of the last encoded message and the body's total length. */
const struct ArrowIpcBodySpan* ArrowIpcEncoderPrivateBodySpans(
    struct ArrowIpcEncoder* encoder, int64_t* n_spans_out, int64_t* body_length_out);

#endif /* NANOARROW_IPC_WRITER_PRIVATE_H_INCLUDED */
