/* libFuzzer harness: the message decoder alone, driven message by message the way
 * a caller with its own framing would: PeekHeader, VerifyHeader, DecodeHeader, then
 * DecodeSchema / DecodeDictionary / DecodeArrayView / DecodeArray by message type,
 * and the footer functions on the input's tail. The input is an IPC stream (or
 * file). Nothing the decoder accepts at the FULL level may be unreadable. */

#include <errno.h>
#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "fuzz_util.h"

/* Field *i of the fields below parent counted depth-first (a column, then its
 * children, then the next column; dictionary values are not fields), as
 * ArrowIpcDecoderDecodeArray numbers them; NULL past the last one. */
static const struct ArrowSchema* FuzzFlatField(const struct ArrowSchema* parent,
                                               int64_t* i) {
  int64_t c;
  for (c = 0; c < parent->n_children; c++) {
    const struct ArrowSchema* found;
    if ((*i)-- == 0) return parent->children[c];
    found = FuzzFlatField(parent->children[c], i);
    if (found != NULL) return found;
  }
  return NULL;
}

/* A record batch body, every way the decoder offers. */
static void FuzzDecodeBatch(struct ArrowIpcDecoder* decoder, const struct ArrowSchema* schema,
                            struct ArrowBufferView body) {
  struct ArrowArrayView* view;
  struct ArrowArray array;
  struct ArrowError error;
  int64_t i;
  ArrowErrorInit(&error);

  /* The raw view is unvalidated: only read it once FULL validation accepts it. */
  if (ArrowIpcDecoderDecodeArrayView(decoder, body, -1, &view, &error) == NANOARROW_OK &&
      ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_FULL, &error) ==
          NANOARROW_OK) {
    FuzzTouchArrayView(view, 0);
  }

  if (ArrowIpcDecoderDecodeArray(decoder, body, -1, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                 &error) == NANOARROW_OK) {
    FuzzCheckBatch(schema, &array);
    ArrowArrayRelease(&array);
  }

  /* Single fields, numbered depth-first (an index past the last must fail). */
  for (i = 0; i < 5; i++) {
    if (ArrowIpcDecoderDecodeArray(decoder, body, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                   &error) == NANOARROW_OK) {
      int64_t remaining = i;
      const struct ArrowSchema* field = FuzzFlatField(schema, &remaining);
      FUZZ_CHECK(field != NULL);
      FuzzCheckBatch(field, &array);
      ArrowArrayRelease(&array);
    }
  }

  /* Zero-copy decode from a shared copy of the body. */
  {
    struct ArrowBuffer copy;
    struct ArrowIpcSharedBuffer shared;
    ArrowBufferInit(&copy);
    FUZZ_CHECK(ArrowBufferAppend(&copy, body.data.data, body.size_bytes) == NANOARROW_OK);
    FUZZ_CHECK(ArrowIpcSharedBufferInit(&shared, &copy) == NANOARROW_OK);
    if (ArrowIpcDecoderDecodeArrayFromShared(decoder, &shared, -1, &array,
                                             NANOARROW_VALIDATION_LEVEL_FULL,
                                             &error) == NANOARROW_OK) {
      ArrowIpcSharedBufferReset(&shared); /* the array keeps the body alive */
      FuzzCheckBatch(schema, &array);
      ArrowArrayRelease(&array);
    } else {
      ArrowIpcSharedBufferReset(&shared);
    }
    ArrowBufferReset(&copy);
  }
}

static void FuzzDecodeMessages(struct ArrowBufferView data) {
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  struct ArrowError error;
  int n_messages = 0;
  ArrowErrorInit(&error);
  schema.release = NULL;
  FUZZ_CHECK(ArrowIpcDecoderInit(&decoder) == NANOARROW_OK);

  while (data.size_bytes > 0) {
    struct ArrowBufferView body;
    int32_t prefix = 0;
    ArrowErrorCode result = ArrowIpcDecoderPeekHeader(&decoder, data, &prefix, &error);
    if (result != NANOARROW_OK) break;
    FUZZ_CHECK(prefix == 4 || prefix == 8);
    FUZZ_CHECK(decoder.header_size_bytes >= prefix);
    if (ArrowIpcDecoderVerifyHeader(&decoder, data, &error) != NANOARROW_OK) break;
    FUZZ_CHECK(decoder.body_size_bytes >= 0);
    if (ArrowIpcDecoderDecodeHeader(&decoder, data, &error) != NANOARROW_OK) break;
    FUZZ_CHECK(decoder.header_size_bytes <= data.size_bytes);
    if (decoder.body_size_bytes > data.size_bytes - decoder.header_size_bytes) break;
    body.data.as_uint8 = data.data.as_uint8 + decoder.header_size_bytes;
    body.size_bytes = decoder.body_size_bytes;

    switch (decoder.message_type) {
      case NANOARROW_IPC_MESSAGE_TYPE_SCHEMA:
        if (schema.release != NULL) ArrowSchemaRelease(&schema);
        /* DecodeSchema may hand out a schema SetSchema then refuses (e.g.
         * FixedSizeBinary byteWidth 0 gives "w:0"); only an accepted one must
         * parse everywhere. */
        if (ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error) == NANOARROW_OK) {
          if (ArrowIpcDecoderSetSchema(&decoder, &schema, &error) == NANOARROW_OK) {
            FuzzTouchSchema(&schema, 0);
          } else {
            ArrowSchemaRelease(&schema);
          }
        }
        break;
      case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH:
        if (schema.release != NULL) {
          (void)ArrowIpcDecoderDecodeDictionary(&decoder, body,
                                                NANOARROW_VALIDATION_LEVEL_FULL, NULL,
                                                &error);
        }
        break;
      case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH:
        if (schema.release != NULL) FuzzDecodeBatch(&decoder, &schema, body);
        break;
      default:
        break;
    }
    /* Every message consumes input: no loop without progress. */
    FUZZ_CHECK(decoder.header_size_bytes + body.size_bytes > 0);
    data.data.as_uint8 += decoder.header_size_bytes + body.size_bytes;
    data.size_bytes -= decoder.header_size_bytes + body.size_bytes;
    n_messages++;
  }
  if (schema.release != NULL) ArrowSchemaRelease(&schema);
  ArrowIpcDecoderReset(&decoder);
}

/* The footer functions on the whole input (meaningful for IPC files). */
static void FuzzDecodeFooter(struct ArrowBufferView data) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  ArrowErrorInit(&error);
  FUZZ_CHECK(ArrowIpcDecoderInit(&decoder) == NANOARROW_OK);
  if (ArrowIpcDecoderPeekFooter(&decoder, data, &error) == NANOARROW_OK &&
      ArrowIpcDecoderVerifyFooter(&decoder, data, &error) == NANOARROW_OK &&
      ArrowIpcDecoderDecodeFooter(&decoder, data, &error) == NANOARROW_OK) {
    const struct ArrowIpcFooter* footer = decoder.footer;
    FUZZ_CHECK(footer != NULL);
    FUZZ_CHECK(decoder.header_size_bytes <= data.size_bytes);
    FuzzTouchSchema(&footer->schema, 0);
    FuzzTouchBytes(footer->record_batch_blocks.data, footer->record_batch_blocks.size_bytes);
  }
  ArrowIpcDecoderReset(&decoder);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct ArrowBufferView view;
  view.data.as_uint8 = data;
  view.size_bytes = (int64_t)size;
  /* Skip an IPC file's leading magic so its messages are decoded too. */
  if (size >= 8 && memcmp(data, "ARROW1", 6) == 0) {
    struct ArrowBufferView messages = view;
    messages.data.as_uint8 += 8;
    messages.size_bytes -= 8;
    FuzzDecodeMessages(messages);
  } else {
    FuzzDecodeMessages(view);
  }
  FuzzDecodeFooter(view);
  return 0;
}
