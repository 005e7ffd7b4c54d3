/* The test of the tests: the simulated-device suite (test_device_sim.c) must fail
 * when a generic path reads device memory directly, copies too little or too much,
 * forgets to wait on an event or a stream, leaks, or destroys an event too early.
 * Each breach is made here on purpose, with the same checks the suite uses; a direct
 * read runs in a forked child that must die of it. */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "sim_device.h"
#include "sim_test_util.h"

TestSuite(device_sim_selftest, .init = SimDeviceSetUp, .fini = SimDeviceTearDown);

static void MakeStrings(struct ArrowSchema* schema, struct ArrowArray* array) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(array, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  const char* values[] = {"alpha", "beta", "gamma", "delta"};
  for (int i = 0; i < 4; i++) {
    cr_assert_eq(ArrowArrayAppendString(array, ArrowCharView(values[i])), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

/* A string array copied to simulated device 0, and a schema for it. */
static void MakeDeviceStrings(struct ArrowSchema* schema, struct ArrowDeviceArray* out) {
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArrayView view;
  MakeStrings(schema, &array);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, SimDevice(0), out), NANOARROW_OK);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&host.array);
}

/* Runs fn in a child process; returns its wait status and what it wrote to stderr. */
static int RunInChild(void (*fn)(void), char* err, size_t err_size) {
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    fn();
    /* Surviving the broken path is the failure this test looks for. */
    _exit(0);
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t n;
  while ((n = read(fds[0], err + used, err_size - 1 - used)) > 0) {
    used += (size_t)n;
    if (used + 1 >= err_size) {
      break;
    }
  }
  err[used] = '\0';
  close(fds[0]);
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  return status;
}

static void ExpectDiedOfDirectRead(int status, const char* err) {
  cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
            "the broken path was not stopped (status %d): %s", status, err);
  cr_assert(strstr(err, "direct access to device memory") != NULL,
            "no report naming the device memory: %s", err);
  cr_assert(strstr(err, "generic code must copy through buffer_copy") != NULL, "%s", err);
}

/* A broken view setter: the core's full setter reads the offsets in place. */
static void BrokenViewSetter(void) {
  struct ArrowSchema schema;
  struct ArrowDeviceArray device_array;
  struct ArrowArrayView view;
  MakeDeviceStrings(&schema, &device_array);
  ArrowArrayViewInitFromSchema(&view, &schema, NULL);
  (void)ArrowArrayViewSetArray(&view, &device_array.array, NULL);
}

Test(device_sim_selftest, direct_read_of_offsets_kills_the_test) {
  char err[2048];
  int status = RunInChild(BrokenViewSetter, err, sizeof(err));
  ExpectDiedOfDirectRead(status, err);
}

/* A broken copy: the CPU-only copy (the core's ArrowArrayInitFromArrayView) given a
 * view of device memory. */
static void BrokenCopy(void) {
  struct ArrowSchema schema;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowArray copy;
  MakeDeviceStrings(&schema, &device_array);
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL);
  if (ArrowDeviceArrayViewSetArray(&view, &device_array, NULL) != NANOARROW_OK) {
    _exit(3);
  }
  (void)ArrowArrayInitFromArrayView(&copy, &view.array_view, NULL);
}

Test(device_sim_selftest, direct_read_by_a_host_copy_kills_the_test) {
  char err[2048];
  int status = RunInChild(BrokenCopy, err, sizeof(err));
  ExpectDiedOfDirectRead(status, err);
}

/* A direct read of freed device memory is caught the same way. */
static void ReadAfterFree(void) {
  struct ArrowBuffer buffer;
  const char text[] = "abcdefgh";
  if (SimBufferFromHost(0, text, 8, &buffer) != NANOARROW_OK) {
    _exit(3);
  }
  volatile const uint8_t* data = buffer.data;
  ArrowBufferReset(&buffer);
  fprintf(stderr, "%d\n", (int)data[0]);
}

Test(device_sim_selftest, direct_read_after_free_kills_the_test) {
  char err[2048];
  int status = RunInChild(ReadAfterFree, err, sizeof(err));
  ExpectDiedOfDirectRead(status, err);
  cr_assert(strstr(err, "freed") != NULL, "%s", err);
}

/* Broken copies for SimRoundTrip(): the real one after shrinking or growing the data
 * buffer of the source view. */
static ArrowErrorCode CopyTooLittle(struct ArrowDeviceArrayView* src,
                                    struct ArrowDevice* device_dst,
                                    struct ArrowDeviceArray* dst, void* stream) {
  if (src->device->device_type == ARROW_DEVICE_CPU) {
    src->array_view.buffer_views[2].size_bytes -= 1;
  }
  return ArrowDeviceArrayViewCopyAsync(src, device_dst, dst, stream);
}

static ArrowErrorCode CopyTooMuch(struct ArrowDeviceArrayView* src,
                                  struct ArrowDevice* device_dst,
                                  struct ArrowDeviceArray* dst, void* stream) {
  if (src->device->device_type != ARROW_DEVICE_CPU) {
    src->array_view.buffer_views[2].size_bytes += 8;
  }
  return ArrowDeviceArrayViewCopyAsync(src, device_dst, dst, stream);
}

static ArrowErrorCode CopyTooMuchOnce(struct ArrowDeviceArrayView* src,
                                      struct ArrowDevice* device_dst,
                                      struct ArrowDeviceArray* dst, void* stream) {
  /* One byte more of the offsets: inside the host buffer, past the device's. */
  if (src->device->device_type != ARROW_DEVICE_CPU) {
    src->array_view.buffer_views[1].size_bytes += 1;
  }
  return ArrowDeviceArrayViewCopyAsync(src, device_dst, dst, stream);
}

Test(device_sim_selftest, copying_too_little_fails_the_round_trip) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  char buf[512];
  MakeStrings(&schema, &array);
  const char* message =
      SimRoundTrip(&schema, &array, CopyTooLittle, 0, NULL, buf, sizeof(buf));
  cr_assert_not_null(message, "a copy one byte short went unnoticed");
  cr_assert(strstr(message, "instead of") != NULL, "%s", message);
  ArrowSchemaRelease(&schema);
}

Test(device_sim_selftest, copying_too_much_fails_the_round_trip) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  char buf[512];
  MakeStrings(&schema, &array);
  const char* message = SimRoundTrip(&schema, &array, CopyTooMuch, 0, NULL, buf, sizeof(buf));
  cr_assert_not_null(message, "a copy 8 bytes too long went unnoticed");
  cr_assert(strstr(SimDeviceLastViolation(), "run past the end of allocation") != NULL,
            "%s", SimDeviceLastViolation());
  cr_assert_gt(SimDeviceForgiveViolations(), 0);
  ArrowSchemaRelease(&schema);

  MakeStrings(&schema, &array);
  message = SimRoundTrip(&schema, &array, CopyTooMuchOnce, 0, NULL, buf, sizeof(buf));
  cr_assert_not_null(message, "a copy 1 byte too long went unnoticed");
  cr_assert_gt(SimDeviceForgiveViolations(), 0);
  ArrowSchemaRelease(&schema);
}

Test(device_sim_selftest, the_real_copy_passes_the_same_round_trip) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  char buf[512];
  MakeStrings(&schema, &array);
  const char* message = SimRoundTrip(&schema, &array, ArrowDeviceArrayViewCopyAsync, 0, NULL,
                                     buf, sizeof(buf));
  cr_assert_null(message, "%s", message);
  ArrowSchemaRelease(&schema);
}

Test(device_sim_selftest, reading_before_waiting_on_the_event_is_a_violation) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on0;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStrings(&schema, &array);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);
  struct SimStream* stream = SimStreamCreate(0);
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(0), &on0, stream),
               NANOARROW_OK);

  /* A broken consumer that ignores sync_event. */
  void* event = on0.sync_event;
  on0.sync_event = NULL;
  cr_assert_neq(ArrowDeviceArrayViewSetArray(&view, &on0, &error), NANOARROW_OK);
  cr_assert(strstr(SimDeviceLastViolation(), "did not wait") != NULL, "%s",
            SimDeviceLastViolation());
  cr_assert_eq(SimDeviceForgiveViolations(), 1);
  on0.sync_event = event;

  /* Waiting properly works. */
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on0, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&on0.array);
  ArrowArrayRelease(&host.array);
  SimStreamDestroy(stream);
  ArrowSchemaRelease(&schema);
  char buf[256];
  cr_assert_null(SimDeviceCheckClean(buf, sizeof(buf)), "%s", buf);
}

Test(device_sim_selftest, reading_a_queued_copy_before_the_stream_syncs_sees_poison) {
  const char text[] = "0123456789abcdef";
  struct ArrowBuffer on0;
  struct ArrowBuffer back;
  cr_assert_eq(SimBufferFromHost(0, text, 16, &on0), NANOARROW_OK);
  struct SimStream* stream = SimStreamCreate(0);
  struct ArrowBufferView view = {{on0.data}, 16};
  cr_assert_eq(ArrowDeviceBufferInitAsync(SimDevice(0), view, ArrowDeviceCpu(), &back, stream),
               NANOARROW_OK);
  /* A broken path that reads the host copy before synchronizing. */
  for (int i = 0; i < 16; i++) {
    cr_assert_eq(back.data[i], 0xCD, "byte %d readable before the stream ran", i);
  }
  cr_assert_eq(SimDevice(0)->synchronize_event(SimDevice(0), NULL, stream, NULL),
               NANOARROW_OK);
  cr_assert_eq(memcmp(back.data, text, 16), 0);
  ArrowBufferReset(&back);
  ArrowBufferReset(&on0);
  SimStreamDestroy(stream);
}

Test(device_sim_selftest, leaks_and_early_event_destruction_are_reported) {
  char buf[256];
  struct ArrowBuffer leaked;
  const char text[] = "abc";
  cr_assert_eq(SimBufferFromHost(1, text, 3, &leaked), NANOARROW_OK);
  const char* message = SimDeviceCheckClean(buf, sizeof(buf));
  cr_assert_not_null(message, "a leaked allocation went unnoticed");
  cr_assert(strstr(message, "1 allocations (3 bytes) leaked") != NULL, "%s", message);
  ArrowBufferReset(&leaked);
  cr_assert_null(SimDeviceCheckClean(buf, sizeof(buf)), "%s", buf);

  struct SimEvent* event = SimEventCreate(0);
  message = SimDeviceCheckClean(buf, sizeof(buf));
  cr_assert(message != NULL && strstr(message, "events created") != NULL, "%s", message);
  SimEventDestroy(event);
  SimEventDestroy(event);
  cr_assert_eq(SimDeviceForgiveViolations(), 1, "a double destroy is a violation");

  struct SimStream* stream = SimStreamCreate(0);
  message = SimDeviceCheckClean(buf, sizeof(buf));
  cr_assert(message != NULL && strstr(message, "streams") != NULL, "%s", message);
  SimStreamDestroy(stream);

  /* A release that destroys the event before freeing the buffers. */
  cr_assert_null(SimCheckReleaseOrder("release free#1 free#2 event-destroy#1 ", buf,
                                      sizeof(buf)));
  cr_assert_not_null(SimCheckReleaseOrder("release event-destroy#1 free#1 free#2 ", buf,
                                          sizeof(buf)));
  cr_assert_not_null(SimCheckReleaseOrder("release free#1 event-destroy#1 free#2 ", buf,
                                          sizeof(buf)));
  cr_assert_not_null(SimCheckReleaseOrder("release free#1 free#2 ", buf, sizeof(buf)));
  cr_assert_null(SimDeviceCheckClean(buf, sizeof(buf)), "%s", buf);
}
