/* The interface of a library that exports data through the Arrow C Stream
 * Interface. Callers need only the ABI structs below, not nanoarrow. */
#ifndef EXAMPLE_PRODUCER_H_INCLUDED
#define EXAMPLE_PRODUCER_H_INCLUDED

#include <stdint.h>

/* The ABI structs from the Arrow C Data/Stream Interface specification; the
 * guards make them coexist with nanoarrow's (or Arrow's) copy. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
#endif

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};
#endif

/* Exports a table of sensor readings, struct<sensor: string, celsius: double>,
 * in n_batches batches. Returns 0 or an errno code; on success the caller owns
 * *out and must call out->release(out). */
int ProducerExportReadings(int n_batches, struct ArrowArrayStream* out);

#endif
