/* A simulated non-CPU device for the device tests (test code, not part of the library).
 *
 * Its memory is host memory kept behind the device callbacks, so that the generic
 * code paths of nanoarrow_device (views with device-resident offsets, copies, moves,
 * streams, events) can be exercised on any machine, and any shortcut they take is
 * caught:
 *
 *  - Direct reads are forbidden and detected: every allocation of devices 0 and 1
 *    lives in its own pages, mapped PROT_NONE except while the device's own copy
 *    runs, so a direct read by generic code faults; a SIGSEGV handler names the
 *    allocation before the process dies.
 *  - Allocations are tagged (serial number, device, size) and checked: each copy must
 *    lie inside one live allocation of the device it claims to be on, host pointers
 *    must not point into device memory, and array_init checks every buffer of the
 *    array it wraps. Breaches are counted as violations (and the call fails).
 *  - Copies go only through buffer_init / buffer_copy and are counted by direction
 *    (bytes and calls). With a stream they are queued and run when the stream is
 *    synchronized (a host destination is filled with 0xCD until then), and reading
 *    memory whose writes are still queued on another stream is a violation.
 *  - Events and streams are counted (created, recorded, waited on, destroyed), and an
 *    operation log records the order of frees and event destructions.
 *
 * Device type ARROW_DEVICE_EXT_DEV, ids 0 and 1 (protected device memory) and 2
 * (host-visible memory, like pinned or managed memory: readable by the CPU, so its
 * arrays and buffers can be moved to the CPU). sync_event is a struct SimEvent*,
 * stream a struct SimStream*. */

#ifndef NANOARROW_TESTS_DEVICE_SIM_DEVICE_H_INCLUDED
#define NANOARROW_TESTS_DEVICE_SIM_DEVICE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SIM_DEVICE_TYPE ARROW_DEVICE_EXT_DEV
#define SIM_DEVICE_COUNT 3
#define SIM_DEVICE_HOST_VISIBLE 2

struct SimStats {
  int64_t allocations;
  int64_t frees;
  int64_t live_allocations;
  int64_t live_bytes;
  int64_t copies_to_device; /* host -> simulated device */
  int64_t bytes_to_device;
  int64_t copies_to_host; /* simulated device -> host */
  int64_t bytes_to_host;
  int64_t copies_within; /* simulated device -> simulated device */
  int64_t bytes_within;
  int64_t queued_copies;
  int64_t events_created;
  int64_t events_destroyed;
  int64_t events_recorded;
  int64_t event_host_waits;
  int64_t event_stream_waits;
  int64_t streams_created;
  int64_t streams_destroyed;
  int64_t stream_syncs;
  int64_t violations;
};

struct SimEvent;
struct SimStream;

/* Registers the devices (ArrowDeviceRegister) and installs the fault handler;
 * statistics start at zero. */
void SimDeviceSetUp(void);
/* Unregisters the devices and frees every event and stream record. */
void SimDeviceTearDown(void);

struct ArrowDevice* SimDevice(int64_t device_id);

const struct SimStats* SimDeviceStats(void);
void SimDeviceResetStats(void);

/* Returns the number of violations so far and forgets them (for tests that commit
 * one on purpose). */
int64_t SimDeviceForgiveViolations(void);

/* The message of the last violation ("" when none). */
const char* SimDeviceLastViolation(void);

/* Operation log: "free#3 event-destroy#1 ..." (appended in order, truncated). */
const char* SimDeviceLog(void);
void SimDeviceClearLog(void);

/* NULL when nothing is leaked or violated; otherwise a description (in buf). */
const char* SimDeviceCheckClean(char* buf, size_t buf_size);
/* The same, except that streams may still be alive. */
const char* SimDeviceCheckMemory(char* buf, size_t buf_size);

/* Whether ptr points into a (live or freed) simulated allocation. */
int SimIsDeviceMemory(const void* ptr);

struct SimStream* SimStreamCreate(int64_t device_id);
void SimStreamDestroy(struct SimStream* stream);
int64_t SimStreamPending(const struct SimStream* stream);

/* An event the caller owns until it hands it to array_init. */
struct SimEvent* SimEventCreate(int64_t device_id);
void SimEventDestroy(struct SimEvent* event);
/* Records event on stream (it completes when the copies queued so far have run). */
void SimEventRecord(struct SimEvent* event, struct SimStream* stream);

/* Allocates n_bytes of device memory holding a copy of host bytes: an ArrowBuffer
 * whose reset frees it. */
ArrowErrorCode SimBufferFromHost(int64_t device_id, const void* host, int64_t n_bytes,
                                 struct ArrowBuffer* out);

#ifdef __cplusplus
}
#endif

#endif
