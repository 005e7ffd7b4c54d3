/* Reading IPC files through a read-only memory map. The map becomes an ArrowBuffer
 * whose allocator unmaps it, and that buffer is handed to the readers that already
 * share their input: ArrowIpcFileReaderInitBuffer, and the stream reader over
 * ArrowIpcInputStreamInitBuffer (with use_shared_buffers it slices its whole-buffer
 * input and never writes to it). The decoder's shared body counts one reference
 * per exported array, so the map is unmapped when the reader and the last array
 * that points into it are released, in whatever order. Nothing here reads the
 * mapped bytes: pages are faulted in only when the decoder or the caller reads
 * them. */

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <unistd.h>
#endif

#if defined(_POSIX_MAPPED_FILES) && _POSIX_MAPPED_FILES > 0
#define NANOARROW_IPC_HAVE_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#endif

#if defined(NANOARROW_IPC_HAVE_MMAP)

static void IpcMmapUnmap(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                         int64_t size) {
  NANOARROW_UNUSED(allocator);
  if (ptr != NULL && size > 0) munmap((void*)ptr, (size_t)size);
}

/* out becomes the whole file at path, mapped read-only (an empty buffer for an
 * empty file: a map cannot have zero bytes). */
static ArrowErrorCode IpcMmapFile(const char* path, struct ArrowBuffer* out,
                                  struct ArrowError* error) {
  struct stat info;
  void* map;
  int fd;
  int flags = O_RDONLY;
  ArrowBufferInit(out);
  if (path == NULL) {
    ArrowErrorSet(error, "no path to map");
    return EINVAL;
  }
#if defined(O_CLOEXEC)
  flags |= O_CLOEXEC;
#endif
#if defined(O_NONBLOCK)
  /* Opening a FIFO for reading would otherwise wait for a writer. */
  flags |= O_NONBLOCK;
#endif
  fd = open(path, flags);
  if (fd < 0) {
    int code = errno != 0 ? errno : EIO;
    ArrowErrorSet(error, "could not open '%s': %s", path, strerror(code));
    return code;
  }
  if (fstat(fd, &info) != 0) {
    int code = errno != 0 ? errno : EIO;
    ArrowErrorSet(error, "could not stat '%s': %s", path, strerror(code));
    close(fd);
    return code;
  }
  if (S_ISDIR(info.st_mode)) {
    ArrowErrorSet(error, "'%s' is a directory, not an Arrow IPC file", path);
    close(fd);
    return EISDIR;
  }
  if (!S_ISREG(info.st_mode)) {
    ArrowErrorSet(error,
                  "'%s' is not a regular file (a pipe, socket or device cannot be "
                  "mapped): read it through a FILE* or an input stream instead",
                  path);
    close(fd);
    return ENOTSUP;
  }
  if (info.st_size == 0) {
    close(fd);
    return NANOARROW_OK;
  }
  if ((uint64_t)info.st_size > (uint64_t)SIZE_MAX ||
      (uint64_t)info.st_size > (uint64_t)INT64_MAX) {
    ArrowErrorSet(error, "'%s' (%.0f bytes) is too large to map in this process", path,
                  (double)info.st_size);
    close(fd);
    return EFBIG;
  }
  /* No MAP_POPULATE and no read-ahead advice: pages come in as they are read. */
  map = mmap(NULL, (size_t)info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    int code = errno != 0 ? errno : EIO;
    ArrowErrorSet(error, "could not map '%s' (%ld bytes): %s", path, (long)info.st_size,
                  strerror(code));
    close(fd);
    return code == ENODEV ? ENOTSUP : code;
  }
  /* The map keeps the file's pages; the descriptor is not needed any more. */
  close(fd);
  out->data = (uint8_t*)map;
  out->size_bytes = (int64_t)info.st_size;
  out->capacity_bytes = (int64_t)info.st_size;
  out->allocator = ArrowBufferDeallocator(&IpcMmapUnmap, NULL);
  return NANOARROW_OK;
}

#else

static ArrowErrorCode IpcMmapFile(const char* path, struct ArrowBuffer* out,
                                  struct ArrowError* error) {
  ArrowBufferInit(out);
  ArrowErrorSet(error,
                "cannot map '%s': memory-mapped files are not supported on this "
                "platform (read it through a FILE* instead)",
                path != NULL ? path : "(null)");
  return ENOTSUP;
}

#endif

/* Prefixes error's message with the path (the readers' messages do not know it). */
static void IpcMmapNamePath(const char* path, int64_t size, struct ArrowError* error) {
  struct ArrowError detail;
  if (error == NULL) return;
  memcpy(&detail, error, sizeof(detail));
  detail.message[sizeof(detail.message) - 1] = '\0';
  ArrowErrorSet(error, "'%s' (%ld bytes): %s", path, (long)size, detail.message);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcFileReaderInitMmap(struct ArrowIpcFileReader* reader,
                                          const char* path, struct ArrowError* error) {
  struct ArrowBuffer data;
  int64_t size;
  ArrowErrorCode result;
  reader->private_data = NULL;
  NANOARROW_RETURN_NOT_OK(IpcMmapFile(path, &data, error));
  size = data.size_bytes;
  if (size == 0) {
    ArrowErrorSet(error, "'%s' is empty, not an Arrow IPC file", path);
    return EINVAL;
  }
  if (error != NULL) error->message[0] = '\0';
  result = ArrowIpcFileReaderInitBuffer(reader, &data, error);
  /* Unmaps unless the reader took the map (it may not have on ENOMEM). */
  ArrowBufferReset(&data);
  if (result != NANOARROW_OK) {
    if (error != NULL && error->message[0] == '\0') {
      ArrowErrorSet(error, "%s", strerror(result));
    }
    IpcMmapNamePath(path, size, error);
  }
  return result;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcInputStreamInitMmap(struct ArrowIpcInputStream* stream,
                                           const char* path, struct ArrowError* error) {
  struct ArrowBuffer data;
  ArrowErrorCode result;
  NANOARROW_RETURN_NOT_OK(IpcMmapFile(path, &data, error));
  result = ArrowIpcInputStreamInitBuffer(stream, &data);
  if (result != NANOARROW_OK) {
    ArrowBufferReset(&data);
    ArrowErrorSet(error, "out of memory opening '%s'", path);
  }
  return result;
}
