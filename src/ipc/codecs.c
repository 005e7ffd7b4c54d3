/* Body decompression: the serial decompressor and the LZ4 frame / ZSTD codecs. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#if defined(NANOARROW_IPC_WITH_ZSTD)
#include <zstd.h>
#endif
#if defined(NANOARROW_IPC_WITH_LZ4)
#include <lz4frame.h>
#endif

#if defined(NANOARROW_IPC_WITH_ZSTD)
static ArrowErrorCode IpcCodecsZstdDecompress(struct ArrowBufferView src, uint8_t* dst,
                                     int64_t dst_size, struct ArrowError* error) {
  size_t written = ZSTD_decompress(dst, (size_t)dst_size, src.data.data,
                                   (size_t)src.size_bytes);
  if (ZSTD_isError(written)) {
    ArrowErrorSet(error, "ZSTD decompression failed: %s", ZSTD_getErrorName(written));
    return EIO;
  }
  if ((int64_t)written != dst_size) {
    ArrowErrorSet(error, "ZSTD decompressed %ld bytes but %ld were declared",
                  (long)written, (long)dst_size);
    return EIO;
  }
  return NANOARROW_OK;
}
#endif

#if defined(NANOARROW_IPC_WITH_LZ4)
static ArrowErrorCode IpcCodecsLz4Decompress(struct ArrowBufferView src, uint8_t* dst,
                                    int64_t dst_size, struct ArrowError* error) {
  LZ4F_dctx* context = NULL;
  size_t src_left = (size_t)src.size_bytes;
  size_t dst_left = (size_t)dst_size;
  const uint8_t* in = src.data.as_uint8;
  uint8_t* out = dst;
  size_t hint = 1;
  ArrowErrorCode result = NANOARROW_OK;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) {
    ArrowErrorSet(error, "could not create an LZ4 decompression context");
    return ENOMEM;
  }
  /* One frame; stop at its end or when either side is exhausted. */
  while (hint != 0 && src_left > 0) {
    size_t in_size = src_left;
    size_t out_size = dst_left;
    hint = LZ4F_decompress(context, out, &out_size, in, &in_size, NULL);
    if (LZ4F_isError(hint)) {
      ArrowErrorSet(error, "LZ4 decompression failed: %s", LZ4F_getErrorName(hint));
      result = EIO;
      break;
    }
    in += in_size;
    src_left -= in_size;
    out += out_size;
    dst_left -= out_size;
    if (in_size == 0 && out_size == 0) break;
  }
  if (result == NANOARROW_OK && hint != 0 && dst_left == 0) {
    ArrowErrorSet(error, "LZ4 frame holds more than the %ld decompressed bytes declared",
                  (long)dst_size);
    result = EIO;
  } else if (result == NANOARROW_OK && (hint != 0 || dst_left != 0)) {
    ArrowErrorSet(error, "LZ4 frame decompressed to %ld bytes but %ld were declared%s",
                  (long)(dst_size - (int64_t)dst_left), (long)dst_size,
                  hint != 0 ? " (frame incomplete)" : "");
    result = EIO;
  }
  LZ4F_freeDecompressionContext(context);
  return result;
}
#endif

ArrowIpcDecompressFunction ArrowIpcGetZstdDecompressionFunction(void) {
#if defined(NANOARROW_IPC_WITH_ZSTD)
  return &IpcCodecsZstdDecompress;
#else
  return NULL;
#endif
}

ArrowIpcDecompressFunction ArrowIpcGetLZ4DecompressionFunction(void) {
#if defined(NANOARROW_IPC_WITH_LZ4)
  return &IpcCodecsLz4Decompress;
#else
  return NULL;
#endif
}

struct IpcCodecsSerialPrivate {
  /* Indexed by enum ArrowIpcCompressionType. */
  ArrowIpcDecompressFunction functions[3];
};

static const char* IpcCodecsCompressionName(enum ArrowIpcCompressionType type) {
  switch (type) {
    case NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME:
      return "LZ4_FRAME";
    case NANOARROW_IPC_COMPRESSION_TYPE_ZSTD:
      return "ZSTD";
    default:
      return "NONE";
  }
}

static ArrowErrorCode IpcCodecsSerialDecompressAdd(struct ArrowIpcDecompressor* decompressor,
                                          enum ArrowIpcCompressionType compression_type,
                                          struct ArrowBufferView src, uint8_t* dst,
                                          int64_t dst_size, struct ArrowError* error) {
  struct IpcCodecsSerialPrivate* private_data =
      (struct IpcCodecsSerialPrivate*)decompressor->private_data;
  if (compression_type <= NANOARROW_IPC_COMPRESSION_TYPE_NONE ||
      compression_type > NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ||
      private_data->functions[compression_type] == NULL) {
    ArrowErrorSet(error,
                  "compression type %s is not supported by this build (enable "
                  "NANOARROW_IPC_WITH_%s or install a decompression function)",
                  IpcCodecsCompressionName(compression_type),
                  compression_type == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ? "ZSTD" : "LZ4");
    return ENOTSUP;
  }
  return private_data->functions[compression_type](src, dst, dst_size, error);
}

static ArrowErrorCode IpcCodecsSerialDecompressWait(struct ArrowIpcDecompressor* decompressor,
                                           int64_t timeout_ms, struct ArrowError* error) {
  NANOARROW_UNUSED(decompressor);
  NANOARROW_UNUSED(timeout_ms);
  NANOARROW_UNUSED(error);
  return NANOARROW_OK;
}

static void IpcCodecsSerialDecompressorRelease(struct ArrowIpcDecompressor* decompressor) {
  ArrowFree(decompressor->private_data);
  decompressor->release = NULL;
}

ArrowErrorCode ArrowIpcSerialDecompressor(struct ArrowIpcDecompressor* decompressor) {
  struct IpcCodecsSerialPrivate* private_data =
      (struct IpcCodecsSerialPrivate*)ArrowMalloc(sizeof(struct IpcCodecsSerialPrivate));
  if (private_data == NULL) return ENOMEM;
  private_data->functions[NANOARROW_IPC_COMPRESSION_TYPE_NONE] = NULL;
  private_data->functions[NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME] =
      ArrowIpcGetLZ4DecompressionFunction();
  private_data->functions[NANOARROW_IPC_COMPRESSION_TYPE_ZSTD] =
      ArrowIpcGetZstdDecompressionFunction();
  decompressor->decompress_add = &IpcCodecsSerialDecompressAdd;
  decompressor->decompress_wait = &IpcCodecsSerialDecompressWait;
  decompressor->release = &IpcCodecsSerialDecompressorRelease;
  decompressor->private_data = private_data;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcSerialDecompressorSetFunction(
    struct ArrowIpcDecompressor* decompressor,
    enum ArrowIpcCompressionType compression_type,
    ArrowIpcDecompressFunction decompress_function) {
  struct IpcCodecsSerialPrivate* private_data;
  if (decompressor->release != &IpcCodecsSerialDecompressorRelease) return EINVAL;
  if (compression_type <= NANOARROW_IPC_COMPRESSION_TYPE_NONE ||
      compression_type > NANOARROW_IPC_COMPRESSION_TYPE_ZSTD) {
    return EINVAL;
  }
  private_data = (struct IpcCodecsSerialPrivate*)decompressor->private_data;
  private_data->functions[compression_type] = decompress_function;
  return NANOARROW_OK;
}
