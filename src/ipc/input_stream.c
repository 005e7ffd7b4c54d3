/* ArrowIpcInputStream implementations: an owned buffer and a FILE*. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

void ArrowIpcInputStreamMove(struct ArrowIpcInputStream* src,
                             struct ArrowIpcInputStream* dst) {
  memcpy(dst, src, sizeof(struct ArrowIpcInputStream));
  src->release = NULL;
}

struct IpcInputBufferPrivate {
  struct ArrowBuffer input;
  int64_t position;
};

static ArrowErrorCode IpcInputBufferRead(struct ArrowIpcInputStream* stream, uint8_t* buf,
                                       int64_t buf_size_bytes, int64_t* size_read_out,
                                       struct ArrowError* error) {
  struct IpcInputBufferPrivate* private_data =
      (struct IpcInputBufferPrivate*)stream->private_data;
  int64_t available = private_data->input.size_bytes - private_data->position;
  int64_t n = buf_size_bytes < available ? buf_size_bytes : available;
  NANOARROW_UNUSED(error);
  if (n > 0) {
    memcpy(buf, private_data->input.data + private_data->position, (size_t)n);
    private_data->position += n;
  }
  *size_read_out = n > 0 ? n : 0;
  return NANOARROW_OK;
}

static void IpcInputBufferRelease(struct ArrowIpcInputStream* stream) {
  struct IpcInputBufferPrivate* private_data =
      (struct IpcInputBufferPrivate*)stream->private_data;
  ArrowBufferReset(&private_data->input);
  ArrowFree(private_data);
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcInputStreamInitBuffer(struct ArrowIpcInputStream* stream,
                                             struct ArrowBuffer* input) {
  struct IpcInputBufferPrivate* private_data =
      (struct IpcInputBufferPrivate*)ArrowMalloc(sizeof(struct IpcInputBufferPrivate));
  if (private_data == NULL) return ENOMEM;
  ArrowBufferMove(input, &private_data->input);
  private_data->position = 0;
  stream->read = &IpcInputBufferRead;
  stream->release = &IpcInputBufferRelease;
  stream->private_data = private_data;
  return NANOARROW_OK;
}

struct ArrowBuffer* ArrowIpcPrivateInputStreamBuffer(struct ArrowIpcInputStream* stream,
                                                     int64_t** position_out) {
  struct IpcInputBufferPrivate* private_data;
  if (stream->read != &IpcInputBufferRead) return NULL;
  private_data = (struct IpcInputBufferPrivate*)stream->private_data;
  *position_out = &private_data->position;
  return &private_data->input;
}

struct IpcInputFilePrivate {
  FILE* file;
  int close_on_release;
};

static ArrowErrorCode IpcInputFileRead(struct ArrowIpcInputStream* stream, uint8_t* buf,
                                     int64_t buf_size_bytes, int64_t* size_read_out,
                                     struct ArrowError* error) {
  struct IpcInputFilePrivate* private_data = (struct IpcInputFilePrivate*)stream->private_data;
  size_t n = fread(buf, 1, (size_t)buf_size_bytes, private_data->file);
  *size_read_out = (int64_t)n;
  if (n < (size_t)buf_size_bytes && ferror(private_data->file)) {
    ArrowErrorSet(error, "error reading from file");
    return EIO;
  }
  return NANOARROW_OK;
}

int ArrowIpcPrivateInputStreamIsSeekableFile(struct ArrowIpcInputStream* stream) {
  if (stream->read != &IpcInputFileRead) return 0;
  return ftell(((struct IpcInputFilePrivate*)stream->private_data)->file) >= 0;
}

int64_t ArrowIpcPrivateInputStreamFileTell(struct ArrowIpcInputStream* stream) {
  long position;
  if (stream->read != &IpcInputFileRead) return -1;
  position = ftell(((struct IpcInputFilePrivate*)stream->private_data)->file);
  return position < 0 ? -1 : (int64_t)position;
}

ArrowErrorCode ArrowIpcPrivateInputStreamReadAt(struct ArrowIpcInputStream* stream,
                                                int64_t offset, uint8_t* out, int64_t n,
                                                struct ArrowError* error) {
  FILE* file;
  long position;
  size_t n_read = 0;
  int restored;
  if (stream->read != &IpcInputFileRead || offset < 0 || n < 0) return EINVAL;
  file = ((struct IpcInputFilePrivate*)stream->private_data)->file;
  position = ftell(file);
  if (position < 0 || (long)offset != offset ||
      fseek(file, (long)offset, SEEK_SET) != 0) {
    ArrowErrorSet(error, "cannot seek to offset %ld of the file", (long)offset);
    return EIO;
  }
  n_read = fread(out, 1, (size_t)n, file);
  restored = fseek(file, position, SEEK_SET) == 0;
  if (n_read != (size_t)n || !restored) {
    ArrowErrorSet(error, "cannot read %ld bytes at offset %ld of the file again",
                  (long)n, (long)offset);
    return EIO;
  }
  return NANOARROW_OK;
}

static void IpcInputFileRelease(struct ArrowIpcInputStream* stream) {
  struct IpcInputFilePrivate* private_data = (struct IpcInputFilePrivate*)stream->private_data;
  if (private_data->close_on_release) fclose(private_data->file);
  ArrowFree(private_data);
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcInputStreamInitFile(struct ArrowIpcInputStream* stream,
                                           void* file_ptr, int close_on_release) {
  struct IpcInputFilePrivate* private_data;
  /* NULL is usually a failed fopen(): its errno says why. */
  if (file_ptr == NULL) return errno != 0 ? errno : EINVAL;
  private_data = (struct IpcInputFilePrivate*)ArrowMalloc(sizeof(struct IpcInputFilePrivate));
  if (private_data == NULL) return ENOMEM;
  private_data->file = (FILE*)file_ptr;
  private_data->close_on_release = close_on_release;
  stream->read = &IpcInputFileRead;
  stream->release = &IpcInputFileRelease;
  stream->private_data = private_data;
  return NANOARROW_OK;
}
