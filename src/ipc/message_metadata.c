/* The custom metadata of an IPC Message (Message.custom_metadata): read from the
 * last header the decoder verified or decoded. The verifier already checked the
 * [KeyValue] vector and each KeyValue table (ArrowIpcPrivateVerifyMessage), so
 * only a key or value that is left out has to be handled here (as an empty view).
 * The encoder's side is ArrowIpcEncoderSetMessageMetadata in encoder.c. */

#include <errno.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* The pairs of the last verified Message, or EINVAL when there is none. n_out is 0
 * when the message has no custom_metadata. */
static ArrowErrorCode IpcMessageMetadataVector(struct ArrowIpcDecoder* decoder,
                                               struct ArrowIpcFbrVector* vector_out,
                                               int64_t* n_out, struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  *n_out = 0;
  if (private_data == NULL || !private_data->has_message_table) {
    ArrowErrorSet(error,
                  "no message header was verified or decoded: call "
                  "ArrowIpcDecoderVerifyHeader() or ArrowIpcDecoderDecodeHeader() first");
    return EINVAL;
  }
  if (ArrowIpcFbrGetVector(&private_data->message_table,
                           ARROW_IPC_FBR_MESSAGE_CUSTOM_METADATA, vector_out)) {
    *n_out = vector_out->n;
  }
  return NANOARROW_OK;
}

/* Pair i of a verified [KeyValue] vector; an absent key or value is "". */
static void IpcMessageMetadataPair(const struct ArrowIpcFbrVector* vector, int64_t i,
                                   struct ArrowStringView* key,
                                   struct ArrowStringView* value) {
  struct ArrowIpcFbrTable key_value;
  key->data = "";
  key->size_bytes = 0;
  value->data = "";
  value->size_bytes = 0;
  if (ArrowIpcFbrVectorTable(vector, i, &key_value)) {
    struct ArrowStringView s = ArrowIpcFbrGetString(&key_value, ARROW_IPC_FBR_KEY_VALUE_KEY);
    if (s.data != NULL) *key = s;
    s = ArrowIpcFbrGetString(&key_value, ARROW_IPC_FBR_KEY_VALUE_VALUE);
    if (s.data != NULL) *value = s;
  }
}

ArrowErrorCode ArrowIpcDecoderGetMessageMetadata(struct ArrowIpcDecoder* decoder,
                                                 struct ArrowBuffer* out,
                                                 struct ArrowError* error) {
  struct ArrowIpcFbrVector vector;
  int64_t n;
  int64_t i;
  ArrowErrorCode result;

  ArrowBufferInit(out);
  NANOARROW_RETURN_NOT_OK(IpcMessageMetadataVector(decoder, &vector, &n, error));
  if (n == 0) return NANOARROW_OK;
  if (n > INT32_MAX) {
    ArrowErrorSet(error, "message custom_metadata has %ld pairs (at most %ld)", (long)n,
                  (long)INT32_MAX);
    return EINVAL;
  }

  result = ArrowMetadataBuilderInit(out, NULL);
  for (i = 0; i < n && result == NANOARROW_OK; i++) {
    struct ArrowStringView key;
    struct ArrowStringView value;
    IpcMessageMetadataPair(&vector, i, &key, &value);
    result = ArrowMetadataBuilderAppend(out, key, value);
  }
  if (result != NANOARROW_OK) {
    ArrowBufferReset(out);
    ArrowErrorSet(error, "out of memory copying the message's custom metadata (pair %ld)",
                  (long)i);
  }
  return result;
}

ArrowErrorCode ArrowIpcDecoderGetMessageMetadataValue(struct ArrowIpcDecoder* decoder,
                                                      struct ArrowStringView key,
                                                      struct ArrowStringView* value_out,
                                                      struct ArrowError* error) {
  struct ArrowIpcFbrVector vector;
  int64_t n;
  int64_t i;

  NANOARROW_RETURN_NOT_OK(IpcMessageMetadataVector(decoder, &vector, &n, error));
  if (key.size_bytes < 0 || (key.size_bytes > 0 && key.data == NULL)) {
    ArrowErrorSet(error, "invalid key (size %ld)", (long)key.size_bytes);
    return EINVAL;
  }
  for (i = 0; i < n; i++) {
    struct ArrowStringView pair_key;
    struct ArrowStringView pair_value;
    IpcMessageMetadataPair(&vector, i, &pair_key, &pair_value);
    if (pair_key.size_bytes == key.size_bytes &&
        (key.size_bytes == 0 ||
         memcmp(pair_key.data, key.data, (size_t)key.size_bytes) == 0)) {
      *value_out = pair_value;
      return NANOARROW_OK;
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderVisitMessageMetadata(struct ArrowIpcDecoder* decoder,
                                                   ArrowIpcMetadataVisitFunction visit,
                                                   void* private_data,
                                                   struct ArrowError* error) {
  struct ArrowIpcFbrVector vector;
  int64_t n;
  int64_t i;

  if (visit == NULL) {
    ArrowErrorSet(error, "visit function is NULL");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(IpcMessageMetadataVector(decoder, &vector, &n, error));
  for (i = 0; i < n; i++) {
    struct ArrowStringView key;
    struct ArrowStringView value;
    IpcMessageMetadataPair(&vector, i, &key, &value);
    NANOARROW_RETURN_NOT_OK(visit(key, value, private_data, error));
  }
  return NANOARROW_OK;
}
