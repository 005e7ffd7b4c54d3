/* Body compression for writing: the LZ4 frame / ZSTD compression functions, their
 * level ranges, compression type names and the serial compressor. */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#if defined(NANOARROW_IPC_WITH_ZSTD)
#include <zstd.h>
#endif
#if defined(NANOARROW_IPC_WITH_LZ4)
#include <lz4frame.h>
#endif

/* lz4 turns a negative level into an acceleration of -level and caps it at 65537
 * (a constant its headers keep private); lower levels would all compress alike. */
#define IPC_COMPRESS_LZ4_MIN_LEVEL (-65536)

#if defined(NANOARROW_IPC_WITH_ZSTD)
static ArrowErrorCode IpcCompressZstd(struct ArrowBufferView src, int compression_level,
                                      struct ArrowBuffer* dst, struct ArrowError* error) {
  size_t bound;
  size_t written;
  if (src.size_bytes < 0) {
    ArrowErrorSet(error, "Cannot compress a buffer of %ld bytes", (long)src.size_bytes);
    return EINVAL;
  }
  bound = ZSTD_compressBound((size_t)src.size_bytes);
  if (ZSTD_isError(bound) || bound > (size_t)(INT64_MAX - dst->size_bytes)) {
    ArrowErrorSet(error, "A buffer of %ld bytes is too large for ZSTD",
                  (long)src.size_bytes);
    return EINVAL;
  }
  if (ArrowBufferReserve(dst, (int64_t)bound) != NANOARROW_OK) {
    ArrowErrorSet(error, "Out of memory reserving %ld bytes for ZSTD output",
                  (long)bound);
    return ENOMEM;
  }
  written = ZSTD_compress(dst->data + dst->size_bytes, bound, src.data.data,
                          (size_t)src.size_bytes, compression_level);
  if (ZSTD_isError(written)) {
    ArrowErrorSet(error, "ZSTD compression of %ld bytes at level %d failed: %s",
                  (long)src.size_bytes, compression_level, ZSTD_getErrorName(written));
    return EIO;
  }
  dst->size_bytes += (int64_t)written;
  return NANOARROW_OK;
}
#endif

#if defined(NANOARROW_IPC_WITH_LZ4)
static ArrowErrorCode IpcCompressLz4(struct ArrowBufferView src, int compression_level,
                                     struct ArrowBuffer* dst, struct ArrowError* error) {
  LZ4F_preferences_t preferences;
  size_t bound;
  size_t written;
  if (src.size_bytes < 0) {
    ArrowErrorSet(error, "Cannot compress a buffer of %ld bytes", (long)src.size_bytes);
    return EINVAL;
  }
  /* Only the level differs from the defaults: one frame, no content size or
   * checksums, which is what Arrow readers expect of LZ4_FRAME buffers. */
  memset(&preferences, 0, sizeof(preferences));
  preferences.compressionLevel =
      compression_level < IPC_COMPRESS_LZ4_MIN_LEVEL ? IPC_COMPRESS_LZ4_MIN_LEVEL
                                                     : compression_level;
  bound = LZ4F_compressFrameBound((size_t)src.size_bytes, &preferences);
  if (LZ4F_isError(bound) || bound > (size_t)(INT64_MAX - dst->size_bytes)) {
    ArrowErrorSet(error, "A buffer of %ld bytes is too large for LZ4", (long)src.size_bytes);
    return EINVAL;
  }
  if (ArrowBufferReserve(dst, (int64_t)bound) != NANOARROW_OK) {
    ArrowErrorSet(error, "Out of memory reserving %ld bytes for LZ4 output", (long)bound);
    return ENOMEM;
  }
  written = LZ4F_compressFrame(dst->data + dst->size_bytes, bound, src.data.data,
                               (size_t)src.size_bytes, &preferences);
  if (LZ4F_isError(written)) {
    ArrowErrorSet(error, "LZ4 compression of %ld bytes at level %d failed: %s",
                  (long)src.size_bytes, compression_level, LZ4F_getErrorName(written));
    return EIO;
  }
  dst->size_bytes += (int64_t)written;
  return NANOARROW_OK;
}
#endif

ArrowIpcCompressFunction ArrowIpcGetZstdCompressionFunction(void) {
#if defined(NANOARROW_IPC_WITH_ZSTD)
  return &IpcCompressZstd;
#else
  return NULL;
#endif
}

ArrowIpcCompressFunction ArrowIpcGetLZ4CompressionFunction(void) {
#if defined(NANOARROW_IPC_WITH_LZ4)
  return &IpcCompressLz4;
#else
  return NULL;
#endif
}

ArrowErrorCode ArrowIpcGetCompressionLevelRange(
    enum ArrowIpcCompressionType compression_type, int* min_level_out,
    int* max_level_out) {
  switch (compression_type) {
    case NANOARROW_IPC_COMPRESSION_TYPE_ZSTD:
#if defined(NANOARROW_IPC_WITH_ZSTD)
#if ZSTD_VERSION_NUMBER >= 10400
      *min_level_out = ZSTD_minCLevel();
#else
      *min_level_out = NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT;
#endif
      *max_level_out = ZSTD_maxCLevel();
      return NANOARROW_OK;
#else
      return ENOTSUP;
#endif
    case NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME:
#if defined(NANOARROW_IPC_WITH_LZ4)
      *min_level_out = IPC_COMPRESS_LZ4_MIN_LEVEL;
      *max_level_out = LZ4F_compressionLevel_max();
      return NANOARROW_OK;
#else
      return ENOTSUP;
#endif
    default:
      NANOARROW_UNUSED(min_level_out);
      NANOARROW_UNUSED(max_level_out);
      return EINVAL;
  }
}

const char* ArrowIpcCompressionTypeToString(enum ArrowIpcCompressionType compression_type) {
  switch (compression_type) {
    case NANOARROW_IPC_COMPRESSION_TYPE_NONE:
      return "none";
    case NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME:
      return "lz4";
    case NANOARROW_IPC_COMPRESSION_TYPE_ZSTD:
      return "zstd";
    default:
      return "<unknown compression type>";
  }
}

ArrowErrorCode ArrowIpcCompressionTypeFromString(
    const char* name, enum ArrowIpcCompressionType* compression_type_out,
    struct ArrowError* error) {
  enum ArrowIpcCompressionType type;
  for (type = NANOARROW_IPC_COMPRESSION_TYPE_NONE; name != NULL &&
                                                   type <= NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
       type = (enum ArrowIpcCompressionType)(type + 1)) {
    if (strcmp(name, ArrowIpcCompressionTypeToString(type)) == 0) {
      *compression_type_out = type;
      return NANOARROW_OK;
    }
  }
  ArrowErrorSet(error, "Unknown compression type name '%s' (expected 'none', 'lz4', or "
                       "'zstd')", name == NULL ? "" : name);
  return EINVAL;
}

/* ---- The serial compressor ---- */

struct IpcSerialCompressorPrivate {
  /* Indexed by enum ArrowIpcCompressionType (NONE's slot stays NULL). */
  ArrowIpcCompressFunction functions[3];
  int compression_level;
};

static int IpcCompressIsCodec(enum ArrowIpcCompressionType type) {
  return type == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME ||
         type == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
}

static ArrowErrorCode IpcSerialCompressAdd(struct ArrowIpcCompressor* compressor,
                                           struct ArrowBufferView src,
                                           struct ArrowBuffer* dst,
                                           struct ArrowError* error) {
  struct IpcSerialCompressorPrivate* private_data =
      (struct IpcSerialCompressorPrivate*)compressor->private_data;
  enum ArrowIpcCompressionType type = compressor->compression_type;
  if (!IpcCompressIsCodec(type)) {
    ArrowErrorSet(error, "Unknown compression type with value %d", (int)type);
    return EINVAL;
  }
  if (private_data->functions[type] == NULL) {
    ArrowErrorSet(error,
                  "Compression type with value %d not supported by this build of "
                  "nanoarrow",
                  (int)type);
    return ENOTSUP;
  }
  return private_data->functions[type](src, private_data->compression_level, dst, error);
}

static ArrowErrorCode IpcSerialCompressWait(struct ArrowIpcCompressor* compressor,
                                            int64_t timeout_ms, struct ArrowError* error) {
  /* Everything was done in compress_add. */
  NANOARROW_UNUSED(compressor);
  NANOARROW_UNUSED(timeout_ms);
  NANOARROW_UNUSED(error);
  return NANOARROW_OK;
}

static void IpcSerialCompressorRelease(struct ArrowIpcCompressor* compressor) {
  ArrowFree(compressor->private_data);
  compressor->private_data = NULL;
  compressor->release = NULL;
}

ArrowErrorCode ArrowIpcSerialCompressor(struct ArrowIpcCompressor* compressor,
                                        enum ArrowIpcCompressionType compression_type,
                                        int compression_level) {
  struct IpcSerialCompressorPrivate* private_data;
  compressor->release = NULL;
  if (compression_type != NANOARROW_IPC_COMPRESSION_TYPE_NONE &&
      !IpcCompressIsCodec(compression_type)) {
    return EINVAL;
  }
  private_data = (struct IpcSerialCompressorPrivate*)ArrowMalloc(sizeof(*private_data));
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  private_data->functions[NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME] =
      ArrowIpcGetLZ4CompressionFunction();
  private_data->functions[NANOARROW_IPC_COMPRESSION_TYPE_ZSTD] =
      ArrowIpcGetZstdCompressionFunction();
  private_data->compression_level = compression_level;
  compressor->compression_type = compression_type;
  compressor->compress_add = &IpcSerialCompressAdd;
  compressor->compress_wait = &IpcSerialCompressWait;
  compressor->release = &IpcSerialCompressorRelease;
  compressor->private_data = private_data;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcSerialCompressorSetFunction(
    struct ArrowIpcCompressor* compressor, enum ArrowIpcCompressionType compression_type,
    ArrowIpcCompressFunction compress_function) {
  struct IpcSerialCompressorPrivate* private_data;
  if (compressor->release != &IpcSerialCompressorRelease ||
      !IpcCompressIsCodec(compression_type)) {
    return EINVAL;
  }
  private_data = (struct IpcSerialCompressorPrivate*)compressor->private_data;
  private_data->functions[compression_type] = compress_function;
  return NANOARROW_OK;
}
