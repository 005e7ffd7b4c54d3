/* The simulated device of the device tests: see sim_device.h. POSIX (mmap, mprotect,
 * sigaction); built into the device test programs only. */

#define _GNU_SOURCE

#include "sim_device.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIM_EVENT_MAGIC 0x5E7E7E01u
#define SIM_EVENT_DEAD 0xDEADE7E1u
#define SIM_STREAM_MAGIC 0x5757AA01u

struct SimAllocation {
  uint8_t* map;
  size_t map_size;
  size_t data_pages;
  uint8_t* data;
  int64_t size;
  int64_t serial;
  int64_t device_id;
  int live;
  /* copies queued into this allocation, and on which stream */
  int64_t pending_writes;
  struct SimStream* pending_stream;
};

struct SimCopy {
  void* dst;
  const void* src;
  int64_t n_bytes;
};

struct SimStream {
  uint32_t magic;
  int64_t serial;
  int64_t device_id;
  struct SimCopy* copies;
  int64_t n_copies;
  int64_t capacity;
  /* copies run so far (the sequence number of the next one to run) */
  int64_t n_run;
};

struct SimEvent {
  uint32_t magic;
  int64_t serial;
  int64_t device_id;
  struct SimStream* stream;
  int64_t sequence;
};

struct SimDevicePrivate {
  int64_t id;
  int host_visible;
};

static struct SimAllocation* sim_allocations = NULL;
static int64_t sim_n_allocations = 0;
static int64_t sim_allocation_capacity = 0;
static struct SimStats sim_stats;
static char sim_last_violation[512];
static char sim_log[4096];
static struct ArrowDevice sim_devices[SIM_DEVICE_COUNT];
static struct SimDevicePrivate sim_privates[SIM_DEVICE_COUNT];
static int sim_set_up = 0;
/* Events and streams are kept (marked dead) until tear-down, so that a use after
 * destruction is recognised rather than read from freed memory. */
static struct SimEvent** sim_events = NULL;
static int64_t sim_n_events = 0;
static struct SimStream** sim_streams = NULL;
static int64_t sim_n_streams = 0;
static int64_t sim_live_streams = 0;
static long sim_page_size = 4096;

static void SimViolation(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(sim_last_violation, sizeof(sim_last_violation), fmt, args);
  va_end(args);
  sim_stats.violations++;
  fprintf(stderr, "simulated device violation: %s\n", sim_last_violation);
}

static void SimLog(const char* fmt, ...) {
  size_t used = strlen(sim_log);
  va_list args;
  if (used + 1 >= sizeof(sim_log)) {
    return;
  }
  va_start(args, fmt);
  vsnprintf(sim_log + used, sizeof(sim_log) - used, fmt, args);
  va_end(args);
}

/* ---- Memory ---- */

static void SimProtect(struct SimAllocation* allocation, int readable) {
  int prot = readable ? (PROT_READ | PROT_WRITE) : PROT_NONE;
  if (mprotect(allocation->map, allocation->data_pages, prot) != 0) {
    fprintf(stderr, "simulated device: mprotect failed (%s)\n", strerror(errno));
    abort();
  }
}

static int SimIsHostVisible(int64_t device_id) {
  return device_id == SIM_DEVICE_HOST_VISIBLE;
}

/* Opens an allocation for the device's own access, closes it again. */
static void SimOpen(struct SimAllocation* allocation) {
  if (allocation != NULL && !SimIsHostVisible(allocation->device_id)) {
    SimProtect(allocation, 1);
  }
}

static void SimClose(struct SimAllocation* allocation) {
  if (allocation != NULL && (!SimIsHostVisible(allocation->device_id) || !allocation->live)) {
    SimProtect(allocation, 0);
  }
}

/* The allocation whose mapping holds ptr (live or not), or NULL. */
static struct SimAllocation* SimFindMapping(const void* ptr) {
  int64_t i;
  const uint8_t* p = (const uint8_t*)ptr;
  for (i = 0; i < sim_n_allocations; i++) {
    struct SimAllocation* allocation = sim_allocations + i;
    if (p >= allocation->map && p < allocation->map + allocation->map_size) {
      return allocation;
    }
  }
  return NULL;
}

int SimIsDeviceMemory(const void* ptr) { return SimFindMapping(ptr) != NULL; }

static struct SimAllocation* SimAllocate(int64_t device_id, int64_t n_bytes) {
  struct SimAllocation* allocation;
  size_t rounded = ((size_t)n_bytes + 63) & ~(size_t)63;
  size_t data_pages =
      ((rounded + (size_t)sim_page_size - 1) / (size_t)sim_page_size) * (size_t)sim_page_size;
  /* One guard page after the data, never accessible. */
  size_t map_size = data_pages + (size_t)sim_page_size;
  uint8_t* map;

  if (sim_n_allocations == sim_allocation_capacity) {
    int64_t capacity = sim_allocation_capacity == 0 ? 64 : sim_allocation_capacity * 2;
    struct SimAllocation* grown = (struct SimAllocation*)realloc(
        sim_allocations, (size_t)capacity * sizeof(struct SimAllocation));
    if (grown == NULL) {
      return NULL;
    }
    sim_allocations = grown;
    sim_allocation_capacity = capacity;
  }
  map = (uint8_t*)mmap(NULL, map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    return NULL;
  }
  allocation = sim_allocations + sim_n_allocations;
  memset(allocation, 0, sizeof(*allocation));
  allocation->map = map;
  allocation->map_size = map_size;
  allocation->data_pages = data_pages;
  /* The data ends where the guard page begins (at a 64-byte boundary). */
  allocation->data = map + data_pages - rounded;
  allocation->size = n_bytes;
  allocation->serial = sim_n_allocations + 1;
  allocation->device_id = device_id;
  allocation->live = 1;
  sim_n_allocations++;

  /* Fresh device memory holds garbage: poison it. */
  SimProtect(allocation, 1);
  memset(allocation->data, 0xDB, rounded);
  if (!SimIsHostVisible(device_id)) {
    SimProtect(allocation, 0);
  }

  sim_stats.allocations++;
  sim_stats.live_allocations++;
  sim_stats.live_bytes += n_bytes;
  return allocation;
}

static void SimFree(struct SimAllocation* allocation) {
  if (!allocation->live) {
    SimViolation("allocation #%" PRId64 " freed twice", allocation->serial);
    return;
  }
  if (allocation->pending_writes > 0) {
    SimViolation("allocation #%" PRId64 " freed with %" PRId64
                 " copies into it still queued on a stream",
                 allocation->serial, allocation->pending_writes);
  }
  allocation->live = 0;
  /* Kept mapped and inaccessible: a later read of it faults as well. */
  SimProtect(allocation, 0);
  sim_stats.frees++;
  sim_stats.live_allocations--;
  sim_stats.live_bytes -= allocation->size;
  SimLog("free#%" PRId64 " ", allocation->serial);
}

static void SimBufferFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                          int64_t size) {
  struct SimAllocation* allocation = SimFindMapping(ptr);
  (void)allocator;
  (void)size;
  if (allocation == NULL || allocation->data != ptr) {
    SimViolation("freeing %p, which is not the start of a simulated allocation",
                 (void*)ptr);
    return;
  }
  SimFree(allocation);
}

/* ---- The fault handler ---- */

static struct sigaction sim_previous_segv;

static void SimSegvHandler(int signal_number, siginfo_t* info, void* context) {
  struct SimAllocation* allocation = SimFindMapping(info->si_addr);
  char message[256];
  int n;
  (void)context;
  if (allocation != NULL) {
    n = snprintf(message, sizeof(message),
                 "\nsimulated device: direct access to device memory at %p "
                 "(allocation #%" PRId64 " of device %" PRId64 ", %" PRId64
                 " bytes%s): generic code must copy through buffer_copy\n",
                 info->si_addr, allocation->serial, allocation->device_id,
                 allocation->size, allocation->live ? "" : ", freed");
    if (n > 0) {
      ssize_t written = write(STDERR_FILENO, message, (size_t)n);
      (void)written;
    }
  }
  /* Die of the fault: the access runs again under the default action. */
  signal(signal_number, SIG_DFL);
}

/* ---- Streams and events ---- */

static void SimRunCopy(const struct SimCopy* copy) {
  struct SimAllocation* src = SimFindMapping(copy->src);
  struct SimAllocation* dst = SimFindMapping(copy->dst);
  SimOpen(src);
  SimOpen(dst);
  memmove(copy->dst, copy->src, (size_t)copy->n_bytes);
  SimClose(dst);
  SimClose(src);
  if (dst != NULL && dst->pending_writes > 0) {
    dst->pending_writes--;
    if (dst->pending_writes == 0) {
      dst->pending_stream = NULL;
    }
  }
}

static void SimStreamRunUntil(struct SimStream* stream, int64_t sequence) {
  while (stream->n_run < sequence && stream->n_run < stream->n_copies) {
    SimRunCopy(stream->copies + stream->n_run);
    stream->n_run++;
  }
}

static int SimStreamIsLive(const struct SimStream* stream) {
  return stream != NULL && stream->magic == SIM_STREAM_MAGIC;
}

static int SimEventIsLive(const struct SimEvent* event) {
  return event != NULL && event->magic == SIM_EVENT_MAGIC;
}

struct SimStream* SimStreamCreate(int64_t device_id) {
  struct SimStream* stream = (struct SimStream*)calloc(1, sizeof(struct SimStream));
  struct SimStream** grown =
      (struct SimStream**)realloc(sim_streams, (size_t)(sim_n_streams + 1) * sizeof(void*));
  if (stream == NULL || grown == NULL) {
    free(stream);
    if (grown != NULL) {
      sim_streams = grown;
    }
    return NULL;
  }
  sim_streams = grown;
  sim_streams[sim_n_streams++] = stream;
  stream->magic = SIM_STREAM_MAGIC;
  stream->serial = sim_n_streams;
  stream->device_id = device_id;
  sim_stats.streams_created++;
  sim_live_streams++;
  return stream;
}

void SimStreamDestroy(struct SimStream* stream) {
  if (!SimStreamIsLive(stream)) {
    SimViolation("destroying a stream that is not live");
    return;
  }
  if (stream->n_run < stream->n_copies) {
    SimViolation("stream #%" PRId64 " destroyed with %" PRId64 " queued copies",
                 stream->serial, stream->n_copies - stream->n_run);
    SimStreamRunUntil(stream, stream->n_copies);
  }
  stream->magic = 0;
  free(stream->copies);
  stream->copies = NULL;
  sim_stats.streams_destroyed++;
  sim_live_streams--;
}

int64_t SimStreamPending(const struct SimStream* stream) {
  return stream->n_copies - stream->n_run;
}

struct SimEvent* SimEventCreate(int64_t device_id) {
  struct SimEvent* event = (struct SimEvent*)calloc(1, sizeof(struct SimEvent));
  struct SimEvent** grown =
      (struct SimEvent**)realloc(sim_events, (size_t)(sim_n_events + 1) * sizeof(void*));
  if (event == NULL || grown == NULL) {
    free(event);
    if (grown != NULL) {
      sim_events = grown;
    }
    return NULL;
  }
  sim_events = grown;
  sim_events[sim_n_events++] = event;
  event->magic = SIM_EVENT_MAGIC;
  event->serial = sim_n_events;
  event->device_id = device_id;
  sim_stats.events_created++;
  return event;
}

void SimEventDestroy(struct SimEvent* event) {
  if (!SimEventIsLive(event)) {
    SimViolation("destroying an event that is not live (destroyed twice?)");
    return;
  }
  event->magic = SIM_EVENT_DEAD;
  sim_stats.events_destroyed++;
  SimLog("event-destroy#%" PRId64 " ", event->serial);
}

void SimEventRecord(struct SimEvent* event, struct SimStream* stream) {
  event->stream = stream;
  event->sequence = stream->n_copies;
  sim_stats.events_recorded++;
}

/* Runs a copy now (stream NULL) or queues it. A host destination of a queued copy is
 * poisoned until the copy runs. */
static ArrowErrorCode SimSubmitCopy(struct SimStream* stream, void* dst, const void* src,
                                    int64_t n_bytes, struct SimAllocation* dst_allocation,
                                    struct SimAllocation* src_allocation) {
  struct SimCopy copy;
  copy.dst = dst;
  copy.src = src;
  copy.n_bytes = n_bytes;

  /* Reading memory that a stream has yet to write: the reader did not wait. */
  if (src_allocation != NULL && src_allocation->pending_writes > 0 &&
      src_allocation->pending_stream != stream) {
    SimViolation("allocation #%" PRId64 " read while %" PRId64
                 " copies into it are still queued on stream #%" PRId64
                 " (the reader did not wait on the event or stream)",
                 src_allocation->serial, src_allocation->pending_writes,
                 src_allocation->pending_stream->serial);
    return EINVAL;
  }

  if (stream == NULL) {
    SimRunCopy(&copy);
    return NANOARROW_OK;
  }
  if (stream->n_copies == stream->capacity) {
    int64_t capacity = stream->capacity == 0 ? 16 : stream->capacity * 2;
    struct SimCopy* grown =
        (struct SimCopy*)realloc(stream->copies, (size_t)capacity * sizeof(struct SimCopy));
    if (grown == NULL) {
      return ENOMEM;
    }
    stream->copies = grown;
    stream->capacity = capacity;
  }
  stream->copies[stream->n_copies++] = copy;
  sim_stats.queued_copies++;
  if (dst_allocation != NULL) {
    dst_allocation->pending_writes++;
    dst_allocation->pending_stream = stream;
  } else {
    memset(dst, 0xCD, (size_t)n_bytes);
  }
  return NANOARROW_OK;
}

/* ---- Device callbacks ---- */

static int SimIsSim(const struct ArrowDevice* device) {
  return device != NULL && device >= sim_devices && device < sim_devices + SIM_DEVICE_COUNT;
}

static int SimIsCpu(const struct ArrowDevice* device) {
  return device != NULL && device->device_type == ARROW_DEVICE_CPU;
}

/* Whether this device can serve the pair: both ends simulated, or one the CPU. */
static int SimServes(const struct ArrowDevice* device_src,
                     const struct ArrowDevice* device_dst) {
  return (SimIsSim(device_src) || SimIsSim(device_dst)) &&
         (SimIsSim(device_src) || SimIsCpu(device_src)) &&
         (SimIsSim(device_dst) || SimIsCpu(device_dst));
}

/* Checks that [ptr, ptr + n_bytes) is memory of device: inside one live allocation
 * of it when it is simulated, outside every allocation when it is the CPU. */
static ArrowErrorCode SimCheckRange(const struct ArrowDevice* device, const void* ptr,
                                    int64_t n_bytes, const char* what,
                                    struct SimAllocation** out) {
  struct SimAllocation* allocation = SimFindMapping(ptr);
  const uint8_t* p = (const uint8_t*)ptr;
  *out = NULL;
  if (SimIsCpu(device)) {
    if (allocation != NULL) {
      SimViolation("%s: %p is simulated device memory (allocation #%" PRId64
                   ") but was passed as CPU memory",
                   what, ptr, allocation->serial);
      return EINVAL;
    }
    return NANOARROW_OK;
  }
  if (allocation == NULL) {
    SimViolation("%s: %p is not memory of simulated device %" PRId64, what, ptr,
                 device->device_id);
    return EINVAL;
  }
  if (!allocation->live) {
    SimViolation("%s: allocation #%" PRId64 " was freed", what, allocation->serial);
    return EINVAL;
  }
  if (allocation->device_id != device->device_id) {
    SimViolation("%s: allocation #%" PRId64 " is on simulated device %" PRId64
                 ", not %" PRId64,
                 what, allocation->serial, allocation->device_id, device->device_id);
    return EINVAL;
  }
  if (p < allocation->data || n_bytes > allocation->size ||
      p + n_bytes > allocation->data + allocation->size) {
    SimViolation("%s: %" PRId64 " bytes at offset %" PRId64
                 " run past the end of allocation #%" PRId64 " (%" PRId64 " bytes)",
                 what, n_bytes, (int64_t)(p - allocation->data), allocation->serial,
                 allocation->size);
    return EINVAL;
  }
  *out = allocation;
  return NANOARROW_OK;
}

static void SimCount(const struct ArrowDevice* device_src,
                     const struct ArrowDevice* device_dst, int64_t n_bytes) {
  if (SimIsSim(device_src) && SimIsSim(device_dst)) {
    sim_stats.copies_within++;
    sim_stats.bytes_within += n_bytes;
  } else if (SimIsSim(device_dst)) {
    sim_stats.copies_to_device++;
    sim_stats.bytes_to_device += n_bytes;
  } else {
    sim_stats.copies_to_host++;
    sim_stats.bytes_to_host += n_bytes;
  }
}

static struct SimStream* SimCheckStream(const struct ArrowDevice* device_src,
                                        const struct ArrowDevice* device_dst, void* stream,
                                        int* ok) {
  struct SimStream* sim_stream = (struct SimStream*)stream;
  const struct ArrowDevice* owner = SimIsSim(device_dst) ? device_dst : device_src;
  *ok = 1;
  if (stream == NULL) {
    return NULL;
  }
  if (!SimStreamIsLive(sim_stream)) {
    SimViolation("a copy was given a stream that is not a live simulated stream");
    *ok = 0;
  } else if (sim_stream->device_id != owner->device_id) {
    SimViolation("a copy for simulated device %" PRId64 " was given stream #%" PRId64
                 " of device %" PRId64,
                 owner->device_id, sim_stream->serial, sim_stream->device_id);
    *ok = 0;
  }
  return sim_stream;
}

static ArrowErrorCode SimBufferInit(struct ArrowDevice* device_src,
                                    struct ArrowBufferView src,
                                    struct ArrowDevice* device_dst, struct ArrowBuffer* dst,
                                    void* stream) {
  struct SimAllocation* src_allocation;
  struct SimAllocation* dst_allocation = NULL;
  struct SimStream* sim_stream;
  int stream_ok;
  int rc;

  if (!SimServes(device_src, device_dst)) {
    return ENOTSUP;
  }
  sim_stream = SimCheckStream(device_src, device_dst, stream, &stream_ok);
  if (!stream_ok || dst == NULL || src.size_bytes < 0) {
    return EINVAL;
  }
  ArrowBufferInit(dst);
  if (src.size_bytes == 0) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(SimCheckRange(device_src, src.data.data, src.size_bytes,
                                        "buffer_init source", &src_allocation));
  if (SimIsSim(device_dst)) {
    dst_allocation = SimAllocate(device_dst->device_id, src.size_bytes);
    if (dst_allocation == NULL) {
      return ENOMEM;
    }
    dst->allocator = ArrowBufferDeallocator(SimBufferFree, NULL);
    dst->data = dst_allocation->data;
    dst->size_bytes = src.size_bytes;
    dst->capacity_bytes = src.size_bytes;
  } else if (ArrowBufferReserve(dst, src.size_bytes) != NANOARROW_OK) {
    return ENOMEM;
  } else {
    dst->size_bytes = src.size_bytes;
  }
  rc = SimSubmitCopy(sim_stream, dst->data, src.data.data, src.size_bytes, dst_allocation,
                     src_allocation);
  if (rc != NANOARROW_OK) {
    ArrowBufferReset(dst);
    return rc;
  }
  SimCount(device_src, device_dst, src.size_bytes);
  return NANOARROW_OK;
}

static ArrowErrorCode SimBufferCopy(struct ArrowDevice* device_src,
                                    struct ArrowBufferView src,
                                    struct ArrowDevice* device_dst, struct ArrowBufferView dst,
                                    void* stream) {
  struct SimAllocation* src_allocation;
  struct SimAllocation* dst_allocation;
  struct SimStream* sim_stream;
  int stream_ok;

  if (!SimServes(device_src, device_dst)) {
    return ENOTSUP;
  }
  sim_stream = SimCheckStream(device_src, device_dst, stream, &stream_ok);
  if (!stream_ok || src.size_bytes < 0 || dst.size_bytes < src.size_bytes) {
    return EINVAL;
  }
  if (src.size_bytes == 0) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(SimCheckRange(device_src, src.data.data, src.size_bytes,
                                        "buffer_copy source", &src_allocation));
  NANOARROW_RETURN_NOT_OK(SimCheckRange(device_dst, dst.data.data, src.size_bytes,
                                        "buffer_copy destination", &dst_allocation));
  NANOARROW_RETURN_NOT_OK(SimSubmitCopy(sim_stream, (void*)dst.data.data, src.data.data,
                                        src.size_bytes, dst_allocation, src_allocation));
  SimCount(device_src, device_dst, src.size_bytes);
  return NANOARROW_OK;
}

static ArrowErrorCode SimBufferMove(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                    struct ArrowDevice* device_dst, struct ArrowBuffer* dst) {
  if (!SimServes(device_src, device_dst)) {
    return ENOTSUP;
  }
  /* Within one device, or host-visible memory to the CPU. */
  if (device_src == device_dst ||
      (SimIsSim(device_src) && SimIsHostVisible(device_src->device_id) &&
       SimIsCpu(device_dst))) {
    ArrowBufferMove(src, dst);
    return NANOARROW_OK;
  }
  return ENOTSUP;
}

/* Every buffer of the tree must be NULL or inside a live allocation of device. */
static ArrowErrorCode SimCheckArray(const struct ArrowDevice* device,
                                    const struct ArrowArray* array, int depth) {
  int64_t i;
  struct SimAllocation* allocation;
  if (depth > 64) {
    return EINVAL;
  }
  for (i = 0; i < array->n_buffers; i++) {
    if (array->buffers[i] != NULL) {
      NANOARROW_RETURN_NOT_OK(
          SimCheckRange(device, array->buffers[i], 0, "array_init buffer", &allocation));
    }
  }
  for (i = 0; i < array->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(SimCheckArray(device, array->children[i], depth + 1));
  }
  if (array->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(SimCheckArray(device, array->dictionary, depth + 1));
  }
  return NANOARROW_OK;
}

struct SimArrayPrivate {
  struct ArrowArray parent;
  struct SimEvent* event;
};

static void SimArrayRelease(struct ArrowArray* array) {
  struct SimArrayPrivate* private_data = (struct SimArrayPrivate*)array->private_data;
  SimLog("release ");
  /* The buffers first, then the event: the event stays valid for as long as the
   * array's memory does. */
  if (private_data->parent.release != NULL) {
    private_data->parent.release(&private_data->parent);
  }
  SimEventDestroy(private_data->event);
  free(private_data);
  array->release = NULL;
}

static ArrowErrorCode SimArrayInit(struct ArrowDevice* device,
                                   struct ArrowDeviceArray* device_array,
                                   struct ArrowArray* array, void* sync_event,
                                   void* stream) {
  struct SimEvent* event = (struct SimEvent*)sync_event;
  struct SimStream* sim_stream = (struct SimStream*)stream;
  struct SimArrayPrivate* private_data;

  if (!SimIsSim(device)) {
    return ENOTSUP;
  }
  if (device_array == NULL || array == NULL || array->release == NULL) {
    return EINVAL;
  }
  if (event != NULL && !SimEventIsLive(event)) {
    SimViolation("array_init was given an event that is not live");
    return EINVAL;
  }
  if (stream != NULL && !SimStreamIsLive(sim_stream)) {
    SimViolation("array_init was given a stream that is not live");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(SimCheckArray(device, array, 0));

  memset(device_array, 0, sizeof(struct ArrowDeviceArray));
  device_array->device_type = device->device_type;
  device_array->device_id = device->device_id;
  if (event == NULL && sim_stream == NULL) {
    ArrowArrayMove(array, &device_array->array);
    return NANOARROW_OK;
  }

  private_data = (struct SimArrayPrivate*)malloc(sizeof(struct SimArrayPrivate));
  if (private_data == NULL) {
    return ENOMEM;
  }
  if (event == NULL) {
    event = SimEventCreate(device->device_id);
    if (event == NULL) {
      free(private_data);
      return ENOMEM;
    }
  }
  if (sim_stream != NULL) {
    SimEventRecord(event, sim_stream);
  }
  private_data->event = event;
  ArrowArrayMove(array, &private_data->parent);
  device_array->array = private_data->parent;
  device_array->array.private_data = private_data;
  device_array->array.release = SimArrayRelease;
  device_array->sync_event = event;
  return NANOARROW_OK;
}

static ArrowErrorCode SimSynchronize(struct ArrowDevice* device, void* sync_event,
                                     void* stream, struct ArrowError* error) {
  struct SimEvent* event = (struct SimEvent*)sync_event;
  struct SimStream* sim_stream = (struct SimStream*)stream;
  if (!SimIsSim(device)) {
    ArrowErrorSet(error, "not a simulated device");
    return ENOTSUP;
  }
  if (event != NULL && !SimEventIsLive(event)) {
    SimViolation("synchronize_event on an event that is not live (destroyed?)");
    ArrowErrorSet(error, "simulated event is not live");
    return EINVAL;
  }
  if (sim_stream != NULL && !SimStreamIsLive(sim_stream)) {
    SimViolation("synchronize_event on a stream that is not live");
    ArrowErrorSet(error, "simulated stream is not live");
    return EINVAL;
  }
  if (event != NULL && sim_stream != NULL) {
    /* The stream waits: the copies it queues later may read what the event covers. */
    sim_stats.event_stream_waits++;
    if (event->stream != NULL) {
      SimStreamRunUntil(event->stream, event->sequence);
    }
  } else if (event != NULL) {
    sim_stats.event_host_waits++;
    if (event->stream != NULL) {
      SimStreamRunUntil(event->stream, event->sequence);
    }
  } else if (sim_stream != NULL) {
    sim_stats.stream_syncs++;
    SimStreamRunUntil(sim_stream, sim_stream->n_copies);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode SimArrayMove(struct ArrowDevice* device_src,
                                   struct ArrowDeviceArray* src,
                                   struct ArrowDevice* device_dst,
                                   struct ArrowDeviceArray* dst) {
  if (src == NULL || dst == NULL || src->array.release == NULL) {
    return EINVAL;
  }
  if (SimIsSim(device_src) && device_src == device_dst) {
    ArrowDeviceArrayMove(src, dst);
    return NANOARROW_OK;
  }
  if (SimIsSim(device_src) && SimIsHostVisible(device_src->device_id) &&
      SimIsCpu(device_dst)) {
    if (src->sync_event != NULL) {
      NANOARROW_RETURN_NOT_OK(SimSynchronize(device_src, src->sync_event, NULL, NULL));
    }
    ArrowDeviceArrayMove(src, dst);
    dst->sync_event = NULL;
    dst->device_type = device_dst->device_type;
    dst->device_id = device_dst->device_id;
    return NANOARROW_OK;
  }
  return ENOTSUP;
}

static void SimDeviceRelease(struct ArrowDevice* device) { (void)device; }

/* ---- Set-up ---- */

void SimDeviceSetUp(void) {
  struct sigaction action;
  struct ArrowError error;
  int64_t i;

  memset(&sim_stats, 0, sizeof(sim_stats));
  sim_last_violation[0] = '\0';
  sim_log[0] = '\0';
  sim_page_size = sysconf(_SC_PAGESIZE);

  for (i = 0; i < SIM_DEVICE_COUNT; i++) {
    struct ArrowDevice* device = sim_devices + i;
    memset(device, 0, sizeof(struct ArrowDevice));
    sim_privates[i].id = i;
    sim_privates[i].host_visible = SimIsHostVisible(i);
    device->device_type = SIM_DEVICE_TYPE;
    device->device_id = i;
    device->array_init = SimArrayInit;
    device->array_move = SimArrayMove;
    device->buffer_init = SimBufferInit;
    device->buffer_move = SimBufferMove;
    device->buffer_copy = SimBufferCopy;
    device->synchronize_event = SimSynchronize;
    device->release = SimDeviceRelease;
    device->private_data = sim_privates + i;
    if (ArrowDeviceRegister(device, &error) != NANOARROW_OK) {
      fprintf(stderr, "simulated device: %s\n", error.message);
      abort();
    }
  }

  memset(&action, 0, sizeof(action));
  action.sa_sigaction = SimSegvHandler;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &sim_previous_segv);
  sim_set_up = 1;
}

void SimDeviceTearDown(void) {
  int64_t i;
  if (!sim_set_up) {
    return;
  }
  for (i = 0; i < SIM_DEVICE_COUNT; i++) {
    (void)ArrowDeviceUnregister(sim_devices + i);
  }
  for (i = 0; i < sim_n_events; i++) {
    free(sim_events[i]);
  }
  free(sim_events);
  sim_events = NULL;
  sim_n_events = 0;
  for (i = 0; i < sim_n_streams; i++) {
    free(sim_streams[i]->copies);
    free(sim_streams[i]);
  }
  free(sim_streams);
  sim_streams = NULL;
  sim_n_streams = 0;
  sim_live_streams = 0;
  for (i = 0; i < sim_n_allocations; i++) {
    munmap(sim_allocations[i].map, sim_allocations[i].map_size);
  }
  free(sim_allocations);
  sim_allocations = NULL;
  sim_n_allocations = 0;
  sim_allocation_capacity = 0;
  sigaction(SIGSEGV, &sim_previous_segv, NULL);
  sim_set_up = 0;
}

struct ArrowDevice* SimDevice(int64_t device_id) {
  if (device_id < 0 || device_id >= SIM_DEVICE_COUNT) {
    return NULL;
  }
  return sim_devices + device_id;
}

const struct SimStats* SimDeviceStats(void) { return &sim_stats; }

void SimDeviceResetStats(void) {
  int64_t live_allocations = sim_stats.live_allocations;
  int64_t live_bytes = sim_stats.live_bytes;
  int64_t live_events = sim_stats.events_created - sim_stats.events_destroyed;
  int64_t live_streams = sim_stats.streams_created - sim_stats.streams_destroyed;
  int64_t violations = sim_stats.violations;
  memset(&sim_stats, 0, sizeof(sim_stats));
  /* What is alive stays counted, so that the leak checks still hold. */
  sim_stats.live_allocations = live_allocations;
  sim_stats.live_bytes = live_bytes;
  sim_stats.events_created = live_events;
  sim_stats.streams_created = live_streams;
  sim_stats.violations = violations;
}

int64_t SimDeviceForgiveViolations(void) {
  int64_t n = sim_stats.violations;
  sim_stats.violations = 0;
  return n;
}

const char* SimDeviceLastViolation(void) { return sim_last_violation; }

const char* SimDeviceLog(void) { return sim_log; }

void SimDeviceClearLog(void) { sim_log[0] = '\0'; }

const char* SimDeviceCheckClean(char* buf, size_t buf_size) {
  const char* message = SimDeviceCheckMemory(buf, buf_size);
  if (message != NULL) {
    return message;
  }
  if (sim_live_streams != 0) {
    snprintf(buf, buf_size, "%" PRId64 " streams not destroyed", sim_live_streams);
    return buf;
  }
  return NULL;
}

const char* SimDeviceCheckMemory(char* buf, size_t buf_size) {
  if (sim_stats.violations > 0) {
    snprintf(buf, buf_size, "%" PRId64 " violations; the last: %s", sim_stats.violations,
             sim_last_violation);
    return buf;
  }
  if (sim_stats.live_allocations != 0) {
    snprintf(buf, buf_size, "%" PRId64 " allocations (%" PRId64 " bytes) leaked",
             sim_stats.live_allocations, sim_stats.live_bytes);
    return buf;
  }
  if (sim_stats.events_created != sim_stats.events_destroyed) {
    snprintf(buf, buf_size, "%" PRId64 " events created but %" PRId64 " destroyed",
             sim_stats.events_created, sim_stats.events_destroyed);
    return buf;
  }
  return NULL;
}

ArrowErrorCode SimBufferFromHost(int64_t device_id, const void* host, int64_t n_bytes,
                                 struct ArrowBuffer* out) {
  struct ArrowBufferView view;
  view.data.data = host;
  view.size_bytes = n_bytes;
  return ArrowDeviceBufferInit(ArrowDeviceCpu(), view, SimDevice(device_id), out);
}
