/* ArrowIpcOutputStream implementations: into an ArrowBuffer, into a FILE*. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

void ArrowIpcOutputStreamMove(struct ArrowIpcOutputStream* src,
                              struct ArrowIpcOutputStream* dst) {
  memcpy(dst, src, sizeof(struct ArrowIpcOutputStream));
  src->release = NULL;
}

ArrowErrorCode ArrowIpcOutputStreamWrite(struct ArrowIpcOutputStream* stream,
                                         struct ArrowBufferView data,
                                         struct ArrowError* error) {
  const uint8_t* cursor = data.data.as_uint8;
  int64_t remaining = data.size_bytes;
  while (remaining > 0) {
    int64_t written = 0;
    NANOARROW_RETURN_NOT_OK(stream->write(stream, cursor, remaining, &written, error));
    if (written <= 0 || written > remaining) {
      ArrowErrorSet(error, "Output stream wrote %" PRId64 " of %" PRId64 " bytes",
                    written, remaining);
      return EIO;
    }
    cursor += written;
    remaining -= written;
  }
  return NANOARROW_OK;
}

/* ---- Buffer ---- */

static ArrowErrorCode ArrowIpcOutputStreamBufferWrite(struct ArrowIpcOutputStream* stream,
                                                      const void* buf,
                                                      int64_t buf_size_bytes,
                                                      int64_t* size_written_out,
                                                      struct ArrowError* error) {
  struct ArrowBuffer* output = (struct ArrowBuffer*)stream->private_data;
  *size_written_out = 0;
  if (ArrowBufferAppend(output, buf, buf_size_bytes) != NANOARROW_OK) {
    ArrowErrorSet(error, "Out of memory appending %" PRId64 " bytes to the output buffer",
                  buf_size_bytes);
    return ENOMEM;
  }
  *size_written_out = buf_size_bytes;
  return NANOARROW_OK;
}

static void ArrowIpcOutputStreamBufferRelease(struct ArrowIpcOutputStream* stream) {
  stream->private_data = NULL;
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcOutputStreamInitBuffer(struct ArrowIpcOutputStream* stream,
                                              struct ArrowBuffer* output) {
  if (stream == NULL || output == NULL) return EINVAL;
  stream->write = &ArrowIpcOutputStreamBufferWrite;
  stream->release = &ArrowIpcOutputStreamBufferRelease;
  stream->private_data = output;
  return NANOARROW_OK;
}

/* ---- FILE* ---- */

struct ArrowIpcOutputStreamFilePrivate {
  FILE* file;
  int close_on_release;
};

static ArrowErrorCode ArrowIpcOutputStreamFileWrite(struct ArrowIpcOutputStream* stream,
                                                    const void* buf, int64_t buf_size_bytes,
                                                    int64_t* size_written_out,
                                                    struct ArrowError* error) {
  struct ArrowIpcOutputStreamFilePrivate* private_data =
      (struct ArrowIpcOutputStreamFilePrivate*)stream->private_data;
  size_t written;
  errno = 0;
  written = fwrite(buf, 1, (size_t)buf_size_bytes, private_data->file);
  *size_written_out = (int64_t)written;
  if (written != (size_t)buf_size_bytes) {
    int code = errno != 0 ? errno : EIO;
    ArrowErrorSet(error, "fwrite() wrote %" PRId64 " of %" PRId64 " bytes: %s",
                  (int64_t)written, buf_size_bytes, strerror(code));
    return code;
  }
  return NANOARROW_OK;
}

static void ArrowIpcOutputStreamFileRelease(struct ArrowIpcOutputStream* stream) {
  struct ArrowIpcOutputStreamFilePrivate* private_data =
      (struct ArrowIpcOutputStreamFilePrivate*)stream->private_data;
  if (private_data->close_on_release) {
    fclose(private_data->file);
  }
  ArrowFree(private_data);
  stream->private_data = NULL;
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcOutputStreamInitFile(struct ArrowIpcOutputStream* stream,
                                            void* file_ptr, int close_on_release) {
  struct ArrowIpcOutputStreamFilePrivate* private_data;
  if (stream == NULL) return EINVAL;
  /* NULL is usually a failed fopen(): its errno says why. */
  if (file_ptr == NULL) return errno != 0 ? errno : EINVAL;
  private_data = (struct ArrowIpcOutputStreamFilePrivate*)ArrowMalloc(
      sizeof(struct ArrowIpcOutputStreamFilePrivate));
  if (private_data == NULL) return ENOMEM;
  private_data->file = (FILE*)file_ptr;
  private_data->close_on_release = close_on_release;
  stream->write = &ArrowIpcOutputStreamFileWrite;
  stream->release = &ArrowIpcOutputStreamFileRelease;
  stream->private_data = private_data;
  return NANOARROW_OK;
}
