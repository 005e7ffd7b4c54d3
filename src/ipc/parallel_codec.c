/* Parallel (de)compression: an ArrowIpcDecompressor and an ArrowIpcCompressor that
 * hand the buffers of one message body to a small pool of POSIX threads.
 *
 * What runs where: decompress_add / compress_add run on the caller's thread and
 * either do a small buffer at once or queue it; the pool's threads (started on
 * the first queued buffer, at most n_threads - 1 of them) take queued buffers in
 * order; decompress_wait / compress_wait make the caller take queued buffers too
 * until none is left, then wait for those the threads hold. Every result is
 * recorded under the pool's mutex with the buffer's sequence number (the order of
 * the add calls since the last wait), and wait reports the failure with the
 * lowest one: the buffer the serial path would have stopped at. Buffers queued
 * after a failure are dropped, as the serial path never gets to them.
 *
 * Memory: the destinations are the caller's (the decoder allocates each under its
 * limits before queuing it; the encoder's slots grow as with the serial
 * compressor); the pool adds only its queue, which holds at most
 * IPC_PARALLEL_QUEUE_PER_THREAD x n_threads buffers: when it is full, add runs the
 * oldest queued buffer itself. */

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#if !defined(_WIN32)
#include <pthread.h>
#include <time.h>
#define IPC_PARALLEL_HAVE_THREADS 1
#endif

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

#define IPC_PARALLEL_QUEUE_PER_THREAD 16

/* Before sleeping, a pool thread with nothing queued and a caller waiting for the
 * pool's last buffers poll for a short while: the next batch's first buffer, or
 * the other thread's last result, usually comes within tens of microseconds, and a
 * sleep costs a wake-up (futex, cross-core interrupt, and in a VM a halted vCPU
 * to restart) of the same order for every batch. The polls read counters written
 * under the mutex with atomic builtins (GCC and clang, where 64-bit atomics are
 * lock-free: no libatomic); elsewhere they sleep at once. IPC_PARALLEL_SPIN_POLLS
 * polls with a CPU pause between them is about 20 to 60 microseconds on current x86
 * processors. */
#define IPC_PARALLEL_SPIN_POLLS 1024
#if (defined(__GNUC__) || defined(__clang__)) && defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && \
    __GCC_ATOMIC_LLONG_LOCK_FREE == 2 && defined(__GCC_ATOMIC_INT_LOCK_FREE) &&         \
    __GCC_ATOMIC_INT_LOCK_FREE == 2
#define IPC_PARALLEL_HAVE_ATOMICS 1
#define IPC_PARALLEL_STORE(ptr, value) __atomic_store_n((ptr), (value), __ATOMIC_RELAXED)
#define IPC_PARALLEL_LOAD(ptr) __atomic_load_n((ptr), __ATOMIC_RELAXED)
#if defined(__x86_64__) || defined(__i386__)
#define IPC_PARALLEL_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__) || defined(__arm__)
#define IPC_PARALLEL_RELAX() __asm__ __volatile__("yield" ::: "memory")
#else
#define IPC_PARALLEL_RELAX() __asm__ __volatile__("" ::: "memory")
#endif
#else
#define IPC_PARALLEL_STORE(ptr, value) (*(ptr) = (value))
#endif

/* The size under which buffers stay on the calling thread, for the pools made
 * from now on (tests lower it to run small files through the threads). */
static int64_t ipc_parallel_min_bytes = NANOARROW_IPC_PARALLEL_MIN_BYTES;

void ArrowIpcPrivateSetParallelMinBytes(int64_t min_bytes) {
  ipc_parallel_min_bytes = min_bytes < 0 ? NANOARROW_IPC_PARALLEL_MIN_BYTES : min_bytes;
}

void ArrowIpcPrivateLabelError(struct ArrowError* error, int64_t field, int64_t buffer,
                               const char* message) {
  char copy[sizeof(error->message)];
  if (error == NULL) return;
  /* message may be error's own. */
  strncpy(copy, message, sizeof(copy) - 1);
  copy[sizeof(copy) - 1] = '\0';
  if (field >= 0) {
    ArrowErrorSet(error, "field %ld: buffer %ld: %s", (long)field, (long)buffer, copy);
  } else {
    ArrowErrorSet(error, "%s", copy);
  }
}

#if defined(IPC_PARALLEL_HAVE_THREADS)

enum IpcParallelKind { IPC_PARALLEL_DECOMPRESS, IPC_PARALLEL_COMPRESS };

struct IpcParallelJob {
  int64_t seq;
  enum ArrowIpcCompressionType type;
  struct ArrowBufferView src;
  /* Decompression: dst_size bytes at dst. Compression: appended to out. */
  uint8_t* dst;
  int64_t dst_size;
  struct ArrowBuffer* out;
  /* What the error names (field -1: nothing). */
  int64_t field;
  int64_t buffer;
};

struct IpcParallelPool {
  enum IpcParallelKind kind;
  /* The serial (de)compressor that does each buffer (its add is reentrant: it only
   * reads its functions and level) and reports unsupported codecs. */
  struct ArrowIpcDecompressor serial_decompressor;
  struct ArrowIpcCompressor serial_compressor;
  int n_threads;
  int64_t min_bytes;
  /* Threads started (0 until the first queued buffer), and whether starting was
   * tried: a pool that could start none does everything on the caller's thread. */
  int n_started;
  int start_tried;
  pthread_t* threads;
  int sync_ready;
  pthread_mutex_t mutex;
  pthread_cond_t work_cond;
  pthread_cond_t done_cond;
  int shutdown;
  /* Ring of queued (unclaimed) jobs. */
  struct IpcParallelJob* queue;
  int64_t capacity;
  int64_t head;
  int64_t n_queued;
  /* Since the last wait: jobs added and finished (run or dropped). */
  int64_t n_added;
  int64_t n_finished;
  /* The failure with the lowest sequence number (INT64_MAX: none). */
  int64_t error_seq;
  ArrowErrorCode error_code;
  int64_t error_field;
  int64_t error_buffer;
  struct ArrowError error;
  /* The label of the next decompress_add (ArrowIpcPrivateDecompressorSetLabel). */
  int64_t next_field;
  int64_t next_buffer;
};

/* Every critical section is a few stores, so a busy mutex is polled a little
 * before blocking on it (blocking costs a wake-up when it is released). */
static void IpcParallelLock(struct IpcParallelPool* pool) {
  if (!pool->sync_ready) return;
#if defined(IPC_PARALLEL_HAVE_ATOMICS)
  {
    int i;
    for (i = 0; i < IPC_PARALLEL_SPIN_POLLS; i++) {
      if (pthread_mutex_trylock(&pool->mutex) == 0) return;
      IPC_PARALLEL_RELAX();
    }
  }
#endif
  pthread_mutex_lock(&pool->mutex);
}

static void IpcParallelUnlock(struct IpcParallelPool* pool) {
  if (pool->sync_ready) pthread_mutex_unlock(&pool->mutex);
}

/* Does one job (no lock held). */
static ArrowErrorCode IpcParallelRun(struct IpcParallelPool* pool,
                                     const struct IpcParallelJob* job,
                                     struct ArrowError* error) {
  if (pool->kind == IPC_PARALLEL_DECOMPRESS) {
    return pool->serial_decompressor.decompress_add(&pool->serial_decompressor, job->type,
                                                    job->src, job->dst, job->dst_size,
                                                    error);
  }
  return pool->serial_compressor.compress_add(&pool->serial_compressor, job->src, job->out,
                                              error);
}

/* Records a finished job (lock held). */
static void IpcParallelRecord(struct IpcParallelPool* pool, const struct IpcParallelJob* job,
                              ArrowErrorCode code, const struct ArrowError* error) {
  if (code != NANOARROW_OK && job->seq < pool->error_seq) {
    pool->error_seq = job->seq;
    pool->error_code = code;
    pool->error_field = job->field;
    pool->error_buffer = job->buffer;
    memcpy(pool->error.message, error->message, sizeof(pool->error.message));
  }
  IPC_PARALLEL_STORE(&pool->n_finished, pool->n_finished + 1);
  if (pool->n_finished == pool->n_added && pool->sync_ready) {
    pthread_cond_broadcast(&pool->done_cond);
  }
}

/* Runs job with the lock held on entry and exit (released while it runs). A job
 * after a recorded failure is dropped. */
static void IpcParallelRunLocked(struct IpcParallelPool* pool,
                                 const struct IpcParallelJob* job) {
  struct ArrowError error;
  ArrowErrorCode code = NANOARROW_OK;
  error.message[0] = '\0';
  if (job->seq < pool->error_seq) {
    IpcParallelUnlock(pool);
    code = IpcParallelRun(pool, job, &error);
    IpcParallelLock(pool);
  }
  IpcParallelRecord(pool, job, code, &error);
}

/* Takes the oldest queued job and runs it (lock held); 0 when none is queued. */
static int IpcParallelTakeOne(struct IpcParallelPool* pool) {
  struct IpcParallelJob job;
  if (pool->n_queued == 0) return 0;
  job = pool->queue[pool->head];
  pool->head = (pool->head + 1) % pool->capacity;
  IPC_PARALLEL_STORE(&pool->n_queued, pool->n_queued - 1);
  IpcParallelRunLocked(pool, &job);
  return 1;
}

/* Polls (lock not held) until a buffer is queued or the pool shuts down, for at
 * most IPC_PARALLEL_SPIN_POLLS polls. */
static void IpcParallelSpinForWork(struct IpcParallelPool* pool) {
#if defined(IPC_PARALLEL_HAVE_ATOMICS)
  int i;
  for (i = 0; i < IPC_PARALLEL_SPIN_POLLS; i++) {
    if (IPC_PARALLEL_LOAD(&pool->n_queued) != 0 || IPC_PARALLEL_LOAD(&pool->shutdown)) {
      return;
    }
    IPC_PARALLEL_RELAX();
  }
#else
  NANOARROW_UNUSED(pool);
#endif
}

/* Polls (lock not held) until every buffer added since the last wait is finished,
 * for at most IPC_PARALLEL_SPIN_POLLS polls; n_added is the caller's own. */
static void IpcParallelSpinForDone(struct IpcParallelPool* pool, int64_t n_added) {
#if defined(IPC_PARALLEL_HAVE_ATOMICS)
  int i;
  for (i = 0; i < IPC_PARALLEL_SPIN_POLLS; i++) {
    if (IPC_PARALLEL_LOAD(&pool->n_finished) >= n_added) return;
    IPC_PARALLEL_RELAX();
  }
#else
  NANOARROW_UNUSED(pool);
  NANOARROW_UNUSED(n_added);
#endif
}

static void* IpcParallelWorker(void* arg) {
  struct IpcParallelPool* pool = (struct IpcParallelPool*)arg;
  IpcParallelLock(pool);
  for (;;) {
    if (pool->n_queued == 0 && !pool->shutdown) {
      IpcParallelUnlock(pool);
      IpcParallelSpinForWork(pool);
      IpcParallelLock(pool);
      while (pool->n_queued == 0 && !pool->shutdown) {
        pthread_cond_wait(&pool->work_cond, &pool->mutex);
      }
    }
    if (pool->shutdown) break;
    IpcParallelTakeOne(pool);
  }
  IpcParallelUnlock(pool);
  return NULL;
}

/* Starts the threads the first time a buffer is queued; 0 when none runs. */
static int IpcParallelStart(struct IpcParallelPool* pool) {
  int i;
  if (pool->start_tried) return pool->n_started > 0;
  pool->start_tried = 1;
  pool->capacity = (int64_t)IPC_PARALLEL_QUEUE_PER_THREAD * pool->n_threads;
  pool->queue = (struct IpcParallelJob*)ArrowMalloc(pool->capacity *
                                                     (int64_t)sizeof(struct IpcParallelJob));
  pool->threads =
      (pthread_t*)ArrowMalloc((int64_t)(pool->n_threads - 1) * (int64_t)sizeof(pthread_t));
  if (pool->queue == NULL || pool->threads == NULL) return 0;
  if (pthread_mutex_init(&pool->mutex, NULL) != 0) return 0;
  if (pthread_cond_init(&pool->work_cond, NULL) != 0) {
    pthread_mutex_destroy(&pool->mutex);
    return 0;
  }
  if (pthread_cond_init(&pool->done_cond, NULL) != 0) {
    pthread_cond_destroy(&pool->work_cond);
    pthread_mutex_destroy(&pool->mutex);
    return 0;
  }
  pool->sync_ready = 1;
  /* A thread that cannot be started is done without: the caller's thread takes
   * its share in wait. */
  for (i = 0; i < pool->n_threads - 1; i++) {
    if (pthread_create(&pool->threads[i], NULL, &IpcParallelWorker, pool) != 0) break;
    pool->n_started++;
  }
  return pool->n_started > 0;
}

static void IpcParallelPoolFree(struct IpcParallelPool* pool) {
  int i;
  if (pool->sync_ready) {
    pthread_mutex_lock(&pool->mutex);
    IPC_PARALLEL_STORE(&pool->shutdown, 1);
    pthread_cond_broadcast(&pool->work_cond);
    pthread_mutex_unlock(&pool->mutex);
    for (i = 0; i < pool->n_started; i++) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->done_cond);
    pthread_cond_destroy(&pool->work_cond);
    pthread_mutex_destroy(&pool->mutex);
  }
  if (pool->serial_decompressor.release != NULL) {
    pool->serial_decompressor.release(&pool->serial_decompressor);
  }
  if (pool->serial_compressor.release != NULL) {
    pool->serial_compressor.release(&pool->serial_compressor);
  }
  ArrowFree(pool->queue);
  ArrowFree(pool->threads);
  ArrowFree(pool);
}

static struct IpcParallelPool* IpcParallelPoolNew(enum IpcParallelKind kind, int n_threads) {
  struct IpcParallelPool* pool =
      (struct IpcParallelPool*)ArrowMalloc((int64_t)sizeof(struct IpcParallelPool));
  if (pool == NULL) return NULL;
  memset(pool, 0, sizeof(*pool));
  pool->kind = kind;
  pool->min_bytes = ipc_parallel_min_bytes;
  pool->n_threads =
      n_threads > NANOARROW_IPC_MAX_THREADS ? NANOARROW_IPC_MAX_THREADS : n_threads;
  pool->serial_decompressor.release = NULL;
  pool->serial_compressor.release = NULL;
  pool->threads = NULL;
  pool->queue = NULL;
  pool->error_seq = INT64_MAX;
  pool->error_code = NANOARROW_OK;
  pool->next_field = -1;
  pool->next_buffer = -1;
  return pool;
}

/* Does job now or queues it (big enough and threads running). */
static void IpcParallelSubmit(struct IpcParallelPool* pool, struct IpcParallelJob* job,
                              int64_t size) {
  int queue = size >= pool->min_bytes && IpcParallelStart(pool);
  IpcParallelLock(pool);
  job->seq = pool->n_added++;
  if (!queue) {
    IpcParallelRunLocked(pool, job);
  } else {
    /* Full: the caller does the oldest queued job, which frees its slot. */
    while (pool->n_queued == pool->capacity) IpcParallelTakeOne(pool);
    pool->queue[(pool->head + pool->n_queued) % pool->capacity] = *job;
    IPC_PARALLEL_STORE(&pool->n_queued, pool->n_queued + 1);
    pthread_cond_signal(&pool->work_cond);
  }
  IpcParallelUnlock(pool);
}

static ArrowErrorCode IpcParallelWait(struct IpcParallelPool* pool, int64_t timeout_ms,
                                      struct ArrowError* error) {
  ArrowErrorCode result;
  IpcParallelLock(pool);
  if (timeout_ms < 0) {
    while (IpcParallelTakeOne(pool)) {
    }
    if (pool->n_finished < pool->n_added) {
      int64_t n_added = pool->n_added;
      IpcParallelUnlock(pool);
      IpcParallelSpinForDone(pool, n_added);
      IpcParallelLock(pool);
    }
    while (pool->n_finished < pool->n_added) {
      pthread_cond_wait(&pool->done_cond, &pool->mutex);
    }
  } else if (pool->n_finished < pool->n_added) {
    /* time() (ISO C: the bundle is compiled as C99, where clock_gettime may be
     * hidden) counts whole seconds, so the deadline is a second late rather than
     * early: a timeout is honoured to within a second. */
    struct timespec deadline;
    deadline.tv_sec = time(NULL) + 1 + (time_t)(timeout_ms / 1000);
    deadline.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
    while (pool->n_finished < pool->n_added) {
      if (pthread_cond_timedwait(&pool->done_cond, &pool->mutex, &deadline) == ETIMEDOUT &&
          pool->n_finished < pool->n_added) {
        int64_t left = pool->n_added - pool->n_finished;
        IpcParallelUnlock(pool);
        ArrowErrorSet(error, "%ld buffers still being processed after %ld ms", (long)left,
                      (long)timeout_ms);
        return ETIMEDOUT;
      }
    }
  }
  result = pool->error_code;
  if (result != NANOARROW_OK) {
    ArrowIpcPrivateLabelError(error, pool->error_field, pool->error_buffer,
                              pool->error.message);
  }
  pool->n_added = 0;
  IPC_PARALLEL_STORE(&pool->n_finished, 0);
  pool->error_seq = INT64_MAX;
  pool->error_code = NANOARROW_OK;
  IpcParallelUnlock(pool);
  return result;
}

/* ---- Decompressor ---- */

static ArrowErrorCode IpcParallelDecompressAdd(struct ArrowIpcDecompressor* decompressor,
                                               enum ArrowIpcCompressionType compression_type,
                                               struct ArrowBufferView src, uint8_t* dst,
                                               int64_t dst_size, struct ArrowError* error) {
  struct IpcParallelPool* pool = (struct IpcParallelPool*)decompressor->private_data;
  struct IpcParallelJob job;
  ArrowIpcDecompressFunction function = NULL;
  if (compression_type == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD) {
    function = ArrowIpcGetZstdDecompressionFunction();
  } else if (compression_type == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME) {
    function = ArrowIpcGetLZ4DecompressionFunction();
  }
  job.field = pool->next_field;
  job.buffer = pool->next_buffer;
  pool->next_field = -1;
  pool->next_buffer = -1;
  if (function == NULL) {
    /* The serial decompressor refuses it, with its message. */
    return pool->serial_decompressor.decompress_add(&pool->serial_decompressor,
                                                    compression_type, src, dst, dst_size,
                                                    error);
  }
  job.type = compression_type;
  job.src = src;
  job.dst = dst;
  job.dst_size = dst_size;
  job.out = NULL;
  IpcParallelSubmit(pool, &job, dst_size);
  return NANOARROW_OK;
}

static ArrowErrorCode IpcParallelDecompressWait(struct ArrowIpcDecompressor* decompressor,
                                                int64_t timeout_ms,
                                                struct ArrowError* error) {
  return IpcParallelWait((struct IpcParallelPool*)decompressor->private_data, timeout_ms,
                         error);
}

static void IpcParallelDecompressorRelease(struct ArrowIpcDecompressor* decompressor) {
  IpcParallelPoolFree((struct IpcParallelPool*)decompressor->private_data);
  decompressor->private_data = NULL;
  decompressor->release = NULL;
}

void ArrowIpcPrivateDecompressorSetLabel(struct ArrowIpcDecompressor* decompressor,
                                         int64_t field, int64_t buffer) {
  struct IpcParallelPool* pool;
  if (decompressor->release != &IpcParallelDecompressorRelease) return;
  pool = (struct IpcParallelPool*)decompressor->private_data;
  pool->next_field = field;
  pool->next_buffer = buffer;
}

ArrowErrorCode ArrowIpcParallelDecompressor(struct ArrowIpcDecompressor* decompressor,
                                            int n_threads) {
  struct IpcParallelPool* pool;
  ArrowErrorCode result;
  decompressor->release = NULL;
  if (n_threads <= 1) return ArrowIpcSerialDecompressor(decompressor);
  pool = IpcParallelPoolNew(IPC_PARALLEL_DECOMPRESS, n_threads);
  if (pool == NULL) return ENOMEM;
  result = ArrowIpcSerialDecompressor(&pool->serial_decompressor);
  if (result != NANOARROW_OK) {
    pool->serial_decompressor.release = NULL;
    IpcParallelPoolFree(pool);
    return result;
  }
  decompressor->decompress_add = &IpcParallelDecompressAdd;
  decompressor->decompress_wait = &IpcParallelDecompressWait;
  decompressor->release = &IpcParallelDecompressorRelease;
  decompressor->private_data = pool;
  return NANOARROW_OK;
}

/* ---- Compressor ---- */

static ArrowErrorCode IpcParallelCompressAdd(struct ArrowIpcCompressor* compressor,
                                             struct ArrowBufferView src,
                                             struct ArrowBuffer* dst,
                                             struct ArrowError* error) {
  struct IpcParallelPool* pool = (struct IpcParallelPool*)compressor->private_data;
  struct IpcParallelJob job;
  ArrowIpcCompressFunction function = NULL;
  if (compressor->compression_type == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD) {
    function = ArrowIpcGetZstdCompressionFunction();
  } else if (compressor->compression_type == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME) {
    function = ArrowIpcGetLZ4CompressionFunction();
  }
  if (function == NULL || src.size_bytes < 0) {
    /* The serial compressor refuses it, with its message. */
    return pool->serial_compressor.compress_add(&pool->serial_compressor, src, dst, error);
  }
  job.type = compressor->compression_type;
  job.src = src;
  job.dst = NULL;
  job.dst_size = 0;
  job.out = dst;
  job.field = -1;
  job.buffer = -1;
  IpcParallelSubmit(pool, &job, src.size_bytes);
  return NANOARROW_OK;
}

static ArrowErrorCode IpcParallelCompressWait(struct ArrowIpcCompressor* compressor,
                                              int64_t timeout_ms, struct ArrowError* error) {
  return IpcParallelWait((struct IpcParallelPool*)compressor->private_data, timeout_ms,
                         error);
}

static void IpcParallelCompressorRelease(struct ArrowIpcCompressor* compressor) {
  IpcParallelPoolFree((struct IpcParallelPool*)compressor->private_data);
  compressor->private_data = NULL;
  compressor->release = NULL;
}

ArrowErrorCode ArrowIpcParallelCompressor(struct ArrowIpcCompressor* compressor,
                                          enum ArrowIpcCompressionType compression_type,
                                          int compression_level, int n_threads) {
  struct IpcParallelPool* pool;
  ArrowErrorCode result;
  compressor->release = NULL;
  if (n_threads <= 1) {
    return ArrowIpcSerialCompressor(compressor, compression_type, compression_level);
  }
  pool = IpcParallelPoolNew(IPC_PARALLEL_COMPRESS, n_threads);
  if (pool == NULL) return ENOMEM;
  result = ArrowIpcSerialCompressor(&pool->serial_compressor, compression_type,
                                    compression_level);
  if (result != NANOARROW_OK) {
    IpcParallelPoolFree(pool);
    return result;
  }
  compressor->compression_type = compression_type;
  compressor->compress_add = &IpcParallelCompressAdd;
  compressor->compress_wait = &IpcParallelCompressWait;
  compressor->release = &IpcParallelCompressorRelease;
  compressor->private_data = pool;
  return NANOARROW_OK;
}

#else /* no threads: the serial (de)compressors */

void ArrowIpcPrivateDecompressorSetLabel(struct ArrowIpcDecompressor* decompressor,
                                         int64_t field, int64_t buffer) {
  NANOARROW_UNUSED(decompressor);
  NANOARROW_UNUSED(field);
  NANOARROW_UNUSED(buffer);
}

ArrowErrorCode ArrowIpcParallelDecompressor(struct ArrowIpcDecompressor* decompressor,
                                            int n_threads) {
  NANOARROW_UNUSED(n_threads);
  return ArrowIpcSerialDecompressor(decompressor);
}

ArrowErrorCode ArrowIpcParallelCompressor(struct ArrowIpcCompressor* compressor,
                                          enum ArrowIpcCompressionType compression_type,
                                          int compression_level, int n_threads) {
  NANOARROW_UNUSED(n_threads);
  return ArrowIpcSerialCompressor(compressor, compression_type, compression_level);
}

#endif

ArrowErrorCode ArrowIpcDecoderSetNumThreads(struct ArrowIpcDecoder* decoder,
                                            int n_threads) {
  struct ArrowIpcDecompressor decompressor;
  NANOARROW_RETURN_NOT_OK(ArrowIpcParallelDecompressor(&decompressor, n_threads));
  return ArrowIpcDecoderSetDecompressor(decoder, &decompressor);
}
