/* The generic device paths against the simulated device (sim_device.h): buffers in
 * every direction, views with device-resident offsets, copies of every layout, moves,
 * streams and events, the release order of sync_event, and device array streams. Any
 * direct read of device memory kills the test (PROT_NONE pages); every other breach is
 * a violation that the fixture reports. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#if defined(NANOARROW_TEST_HAVE_IPC)
#include <dirent.h>

#include "nanoarrow/nanoarrow_ipc.h"
#endif

#include "sim_device.h"
#include "sim_test_util.h"

static void ExpectClean(void) {
  char buf[512];
  const char* message = SimDeviceCheckClean(buf, sizeof(buf));
  cr_assert_null(message, "simulated device not clean: %s", message);
}

static void SetUp(void) { SimDeviceSetUp(); }

static void TearDown(void) {
  ExpectClean();
  SimDeviceTearDown();
}

TestSuite(device_sim, .init = SetUp, .fini = TearDown);

/* ---- Arrays ---- */

static void MakeStrings(struct ArrowSchema* schema, struct ArrowArray* array,
                        enum ArrowType type, int64_t n) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, type), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(array, type), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int64_t i = 0; i < n; i++) {
    char text[64];
    if (i % 4 == 2) {
      cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
      continue;
    }
    /* Long enough values that views need variadic buffers. */
    snprintf(text, sizeof(text), "value %d is%.*s", (int)i, (int)(i % 20),
             "........................");
    cr_assert_eq(ArrowArrayAppendString(array, ArrowCharView(text)), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

static void MakeInts(struct ArrowSchema* schema, struct ArrowArray* array,
                     enum ArrowType type, int64_t n) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, type), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(array, type), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int64_t i = 0; i < n; i++) {
    if (i % 5 == 3) {
      cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
    } else {
      cr_assert_eq(ArrowArrayAppendInt(array, i * 7), NANOARROW_OK);
    }
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

/* struct<i: int32, s: string, l: list<large_string>> with nulls at every level. */
static void MakeNested(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema, 3), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[2], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[2], "l"), NANOARROW_OK);
  cr_assert_eq(
      ArrowSchemaSetType(schema->children[2]->children[0], NANOARROW_TYPE_LARGE_STRING),
      NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int64_t row = 0; row < 9; row++) {
    struct ArrowArray* list = array->children[2];
    if (row == 4) {
      cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
      continue;
    }
    if (row == 2) {
      cr_assert_eq(ArrowArrayAppendNull(array->children[0], 1), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendNull(array->children[1], 1), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendNull(list, 1), NANOARROW_OK);
    } else {
      char text[16];
      memset(text, 'a' + (int)row, sizeof(text));
      text[row + 1] = '\0';
      cr_assert_eq(ArrowArrayAppendInt(array->children[0], row * 100), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendString(array->children[1], ArrowCharView(text)),
                   NANOARROW_OK);
      for (int64_t j = 0; j < row; j++) {
        cr_assert_eq(ArrowArrayAppendString(list->children[0], ArrowCharView(text + j)),
                     NANOARROW_OK);
      }
      cr_assert_eq(ArrowArrayFinishElement(list), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* dictionary<int16 -> string> */
static void MakeDictionary(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetType(schema, NANOARROW_TYPE_INT16), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema->dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  const char* words[] = {"zero", "one", "two"};
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowArrayAppendString(array->dictionary, ArrowCharView(words[i])),
                 NANOARROW_OK);
  }
  for (int i = 0; i < 10; i++) {
    cr_assert_eq(ArrowArrayAppendInt(array, (i * 2) % 3), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* dense_union<i: int32, s: string> */
static void MakeDenseUnion(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(schema, NANOARROW_TYPE_DENSE_UNION, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "s"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int i = 0; i < 7; i++) {
    if (i % 2 == 0) {
      cr_assert_eq(ArrowArrayAppendInt(array->children[0], i), NANOARROW_OK);
      cr_assert_eq(ArrowArrayFinishUnionElement(array, 0), NANOARROW_OK);
    } else {
      cr_assert_eq(ArrowArrayAppendString(array->children[1], ArrowCharView("odd")),
                   NANOARROW_OK);
      cr_assert_eq(ArrowArrayFinishUnionElement(array, 1), NANOARROW_OK);
    }
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* fixed_size_list<3, bool> */
static void MakeFixedSizeList(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(schema, NANOARROW_TYPE_FIXED_SIZE_LIST, 3),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_BOOL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < 3; j++) {
      cr_assert_eq(ArrowArrayAppendInt(array->children[0], (i + j) % 2), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* ---- Registry ---- */

Test(device_sim, registry) {
  struct ArrowError error;
  for (int64_t id = 0; id < SIM_DEVICE_COUNT; id++) {
    cr_assert_eq(ArrowDeviceResolve(SIM_DEVICE_TYPE, id), SimDevice(id));
  }
  cr_assert_null(ArrowDeviceResolve(SIM_DEVICE_TYPE, SIM_DEVICE_COUNT));

  /* A (type, id) pair once only; the CPU never. */
  struct ArrowDevice twin = *SimDevice(0);
  cr_assert_eq(ArrowDeviceRegister(&twin, &error), EEXIST);
  cr_assert(strstr(error.message, "registered already") != NULL, "%s", error.message);
  struct ArrowDevice cpu;
  ArrowDeviceInitCpu(&cpu);
  cr_assert_eq(ArrowDeviceRegister(&cpu, &error), EINVAL);
  cr_assert_eq(ArrowDeviceRegister(NULL, &error), EINVAL);
  cr_assert_eq(ArrowDeviceUnregister(&twin), ENOENT);

  /* Unregistered devices no longer resolve, so their arrays are refused. */
  cr_assert_eq(ArrowDeviceUnregister(SimDevice(1)), NANOARROW_OK);
  cr_assert_null(ArrowDeviceResolve(SIM_DEVICE_TYPE, 1));
  struct ArrowDeviceArray device_array;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArrayView view;
  MakeInts(&schema, &array, NANOARROW_TYPE_INT32, 0);
  ArrowSchemaRelease(&schema);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &array, NULL),
               NANOARROW_OK);
  device_array.device_type = SIM_DEVICE_TYPE;
  device_array.device_id = 1;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "device type 12 (EXT_DEV) with device_id 1") != NULL,
            "%s", error.message);
  cr_assert(strstr(error.message, "ArrowDeviceRegister") != NULL, "%s", error.message);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  cr_assert_eq(ArrowDeviceRegister(SimDevice(1), &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowDeviceResolve(SIM_DEVICE_TYPE, 1), SimDevice(1));
}

/* ---- Buffers ---- */

Test(device_sim, buffer_init_copy_move_every_direction) {
  const char text[] = "0123456789abcdef";
  struct ArrowBufferView host_view = {{text}, 16};
  struct ArrowBuffer on0;
  struct ArrowBuffer on1;
  struct ArrowBuffer back;

  /* host -> device 0 -> device 1 -> host */
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), host_view, SimDevice(0), &on0),
               NANOARROW_OK);
  cr_assert(SimIsDeviceMemory(on0.data));
  cr_assert_eq(on0.size_bytes, 16);
  struct ArrowBufferView view0 = {{on0.data}, on0.size_bytes};
  cr_assert_eq(ArrowDeviceBufferInit(SimDevice(0), view0, SimDevice(1), &on1),
               NANOARROW_OK);
  struct ArrowBufferView view1 = {{on1.data}, on1.size_bytes};
  cr_assert_eq(ArrowDeviceBufferInit(SimDevice(1), view1, ArrowDeviceCpu(), &back),
               NANOARROW_OK);
  cr_assert(!SimIsDeviceMemory(back.data));
  cr_assert_eq(back.size_bytes, 16);
  cr_assert_eq(memcmp(back.data, text, 16), 0);
  const struct SimStats* stats = SimDeviceStats();
  cr_assert_eq(stats->copies_to_device, 1);
  cr_assert_eq(stats->bytes_to_device, 16);
  cr_assert_eq(stats->copies_within, 1);
  cr_assert_eq(stats->bytes_within, 16);
  cr_assert_eq(stats->copies_to_host, 1);
  cr_assert_eq(stats->bytes_to_host, 16);

  /* buffer_copy: a slice host -> device, device -> device, device -> host. */
  struct ArrowBufferView slice = {{text + 4}, 4};
  struct ArrowBufferView dst0 = {{on0.data + 8}, 8};
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), slice, SimDevice(0), dst0),
               NANOARROW_OK);
  struct ArrowBufferView src0 = {{on0.data + 8}, 4};
  struct ArrowBufferView dst1 = {{on1.data}, 16};
  cr_assert_eq(ArrowDeviceBufferCopy(SimDevice(0), src0, SimDevice(1), dst1), NANOARROW_OK);
  char out[4];
  struct ArrowBufferView src1 = {{on1.data}, 4};
  struct ArrowBufferView host_out = {{out}, 4};
  cr_assert_eq(ArrowDeviceBufferCopy(SimDevice(1), src1, ArrowDeviceCpu(), host_out),
               NANOARROW_OK);
  cr_assert_eq(memcmp(out, "4567", 4), 0);
  cr_assert_eq(stats->bytes_to_device, 20);
  cr_assert_eq(stats->bytes_within, 20);
  cr_assert_eq(stats->bytes_to_host, 20);

  /* A destination smaller than the source is refused before anything is copied. */
  struct ArrowBufferView small = {{out}, 2};
  cr_assert_eq(ArrowDeviceBufferCopy(SimDevice(1), src1, ArrowDeviceCpu(), small), EINVAL);
  cr_assert_eq(stats->bytes_to_host, 20);

  /* Moves: within a device yes; protected memory to the CPU no. */
  struct ArrowBuffer moved;
  cr_assert_eq(ArrowDeviceBufferMove(SimDevice(0), &on0, SimDevice(0), &moved), NANOARROW_OK);
  cr_assert_null(on0.data);
  cr_assert_eq(ArrowDeviceBufferMove(SimDevice(1), &on1, ArrowDeviceCpu(), &on0), ENOTSUP);
  cr_assert_not_null(on1.data, "a refused move leaves the buffer where it was");
  cr_assert_eq(ArrowDeviceBufferMove(ArrowDeviceCpu(), &back, SimDevice(0), &on0), ENOTSUP);

  /* Host-visible memory can be handed to the CPU. */
  struct ArrowBuffer visible;
  struct ArrowBuffer on_cpu;
  cr_assert_eq(SimBufferFromHost(SIM_DEVICE_HOST_VISIBLE, text, 16, &visible), NANOARROW_OK);
  cr_assert_eq(
      ArrowDeviceBufferMove(SimDevice(SIM_DEVICE_HOST_VISIBLE), &visible, ArrowDeviceCpu(),
                            &on_cpu),
      NANOARROW_OK);
  cr_assert_eq(memcmp(on_cpu.data, text, 16), 0);

  ArrowBufferReset(&on_cpu);
  ArrowBufferReset(&moved);
  ArrowBufferReset(&on1);
  ArrowBufferReset(&back);
  cr_assert_eq(stats->live_allocations, 0);
  ExpectClean();
}

/* ---- Views with device-resident offsets ---- */

/* Builds a device array on device 0 from host buffers (as a producer would), with the
 * given buffers of a string array of length 3. */
struct HandMadeArray {
  struct ArrowBuffer buffers[3];
  const void* pointers[3];
};

static void HandMadeRelease(struct ArrowArray* array) {
  struct HandMadeArray* private_data = (struct HandMadeArray*)array->private_data;
  for (int i = 0; i < 3; i++) {
    ArrowBufferReset(private_data->buffers + i);
  }
  free(private_data);
  array->release = NULL;
}

static void MakeDeviceStrings(const int32_t* offsets, int64_t length, const char* data,
                              int64_t data_size, struct ArrowDeviceArray* out) {
  struct HandMadeArray* private_data =
      (struct HandMadeArray*)calloc(1, sizeof(struct HandMadeArray));
  struct ArrowArray array;
  memset(&array, 0, sizeof(array));
  ArrowBufferInit(private_data->buffers + 0);
  cr_assert_eq(SimBufferFromHost(0, offsets, (length + 1) * 4, private_data->buffers + 1),
               NANOARROW_OK);
  cr_assert_eq(SimBufferFromHost(0, data, data_size, private_data->buffers + 2),
               NANOARROW_OK);
  for (int i = 0; i < 3; i++) {
    private_data->pointers[i] = private_data->buffers[i].data;
  }
  array.length = length;
  array.n_buffers = 3;
  array.buffers = private_data->pointers;
  array.private_data = private_data;
  array.release = HandMadeRelease;
  cr_assert_eq(ArrowDeviceArrayInit(SimDevice(0), out, &array, NULL), NANOARROW_OK);
}

Test(device_sim, view_reads_only_first_and_last_offsets) {
  const int32_t offsets[] = {0, 3, 3, 8, 10};
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeDeviceStrings(offsets, 4, "abcdefghij", 10, &device_array);

  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_STRING);
  SimDeviceResetStats();

  /* Minimal: nothing is read, the data size stays unknown. */
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view.device, SimDevice(0));
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, -1);
  cr_assert_eq(SimDeviceStats()->copies_to_host, 0);

  /* Full: two offsets (8 bytes) are copied back, nothing else. */
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(view.array_view.buffer_views[1].size_bytes, 20);
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, 10);
  cr_assert_eq(SimDeviceStats()->copies_to_host, 2);
  cr_assert_eq(SimDeviceStats()->bytes_to_host, 8);
  cr_assert(SimIsDeviceMemory(view.array_view.buffer_views[1].data.data),
            "the view keeps device pointers");

  /* With an offset: the offsets at offset and offset + length. */
  device_array.array.offset = 1;
  device_array.array.length = 2;
  SimDeviceResetStats();
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, 8);
  cr_assert_eq(SimDeviceStats()->bytes_to_host, 8);

  /* Empty: nothing to read. */
  device_array.array.length = 0;
  SimDeviceResetStats();
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(SimDeviceStats()->copies_to_host, 0);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ExpectClean();
}

Test(device_sim, view_validates_offsets_read_back) {
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_STRING);

  const int32_t negative[] = {-1, 2, 4};
  MakeDeviceStrings(negative, 2, "abcd", 4, &device_array);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert(strstr(error.message, "first offset >= 0 but found -1") != NULL, "%s",
            error.message);
  cr_assert_null(view.device, "a failed set leaves no device behind");
  ArrowArrayRelease(&device_array.array);

  const int32_t decreasing[] = {3, 1, 2};
  MakeDeviceStrings(decreasing, 1, "abcd", 4, &device_array);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert(strstr(error.message, "last offset >= first offset 3 but found 1") != NULL,
            "%s", error.message);
  ArrowArrayRelease(&device_array.array);

  /* The Minimal setter reads nothing, so it cannot see the bad offsets. */
  const int32_t fine[] = {0, 2, 4};
  MakeDeviceStrings(fine, 2, "abcd", 4, &device_array);
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error),
               NANOARROW_OK);
  ArrowArrayRelease(&device_array.array);

  ArrowDeviceArrayViewReset(&view);
  ExpectClean();
}

Test(device_sim, view_validates_list_offsets_against_child) {
  /* list<int32> of length 2 whose last offset (5) passes the child's length (4). */
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (int i = 0; i < 4; i++) {
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], i), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);

  struct ArrowDeviceArray host;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, &error), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, SimDevice(0), &device_array), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK,
               "%s", error.message);

  /* Shorten the child: the offsets read back now point past it. */
  device_array.array.children[0]->length = 3;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert(strstr(error.message, "last offset <= child length 3 but found 4") != NULL,
            "%s", error.message);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}

/* ---- Copies of every layout ---- */

static void ExpectRoundTrip(struct ArrowSchema* schema, struct ArrowArray* array,
                            int64_t device_id, struct SimStream* stream) {
  char buf[512];
  const char* message = SimRoundTrip(schema, array, ArrowDeviceArrayViewCopyAsync,
                                     device_id, stream, buf, sizeof(buf));
  cr_assert_null(message, "%s", message);
}

/* Each maker's array, with and without a slice (offset kept), on devices 0 and 2,
 * with and without a stream. */
typedef void (*MakeFn)(struct ArrowSchema*, struct ArrowArray*);

static void MakeInt32(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeInts(s, a, NANOARROW_TYPE_INT32, 23);
}
static void MakeUInt8(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeInts(s, a, NANOARROW_TYPE_UINT8, 9);
}
static void MakeBool(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeInts(s, a, NANOARROW_TYPE_BOOL, 19);
}
static void MakeDouble(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeInts(s, a, NANOARROW_TYPE_DOUBLE, 11);
}
static void MakeString(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeStrings(s, a, NANOARROW_TYPE_STRING, 17);
}
static void MakeLargeBinary(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeStrings(s, a, NANOARROW_TYPE_LARGE_BINARY, 13);
}
static void MakeStringView(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeStrings(s, a, NANOARROW_TYPE_STRING_VIEW, 21);
}
static void MakeBinaryView(struct ArrowSchema* s, struct ArrowArray* a) {
  MakeStrings(s, a, NANOARROW_TYPE_BINARY_VIEW, 3);
}
static void MakeNull(struct ArrowSchema* s, struct ArrowArray* a) {
  cr_assert_eq(ArrowSchemaInitFromType(s, NANOARROW_TYPE_NA), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(a, NANOARROW_TYPE_NA), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(a), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(a, 5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(a, NULL), NANOARROW_OK);
}

static const MakeFn kMakers[] = {MakeInt32,      MakeUInt8,     MakeBool,
                                 MakeDouble,     MakeString,    MakeLargeBinary,
                                 MakeStringView, MakeBinaryView, MakeNull,
                                 MakeNested,     MakeDictionary, MakeDenseUnion,
                                 MakeFixedSizeList};

static void RoundTripAll(int64_t device_id, int with_stream) {
  for (size_t i = 0; i < sizeof(kMakers) / sizeof(kMakers[0]); i++) {
    for (int sliced = 0; sliced < 2; sliced++) {
      struct ArrowSchema schema;
      struct ArrowArray array;
      struct SimStream* stream = with_stream ? SimStreamCreate(device_id) : NULL;
      kMakers[i](&schema, &array);
      if (sliced && array.length > 2) {
        array.offset += 1;
        array.length -= 2;
        array.null_count = -1;
      }
      ExpectRoundTrip(&schema, &array, device_id, stream);
      if (stream != NULL) {
        cr_assert_eq(SimStreamPending(stream), 0);
        SimStreamDestroy(stream);
      }
      ArrowSchemaRelease(&schema);
    }
  }
  ExpectClean();
}

Test(device_sim, copy_every_layout) { RoundTripAll(0, 0); }

Test(device_sim, copy_every_layout_host_visible_memory) {
  RoundTripAll(SIM_DEVICE_HOST_VISIBLE, 0);
}

Test(device_sim, copy_every_layout_on_a_stream) {
  RoundTripAll(0, 1);
  /* Every copy was queued, and the stream was waited on. */
  cr_assert_gt(SimDeviceStats()->queued_copies, 0);
  cr_assert_gt(SimDeviceStats()->stream_syncs, 0);
}

Test(device_sim, copy_between_two_devices) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on0;
  struct ArrowDeviceArray on1;
  struct ArrowDeviceArray back;
  struct ArrowDeviceArrayView view;
  struct ArrowDeviceArrayView expected;
  struct ArrowError error;
  char buf[256];
  MakeNested(&schema, &array);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  ArrowDeviceArrayViewInit(&expected);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected.array_view, &schema, NULL),
               NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&expected, &host, &error), NANOARROW_OK);
  int64_t bytes = SimViewBytes(&expected.array_view);

  cr_assert_eq(ArrowDeviceArrayViewCopy(&expected, SimDevice(0), &on0), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on0, &error), NANOARROW_OK);
  SimDeviceResetStats();
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, SimDevice(1), &on1), NANOARROW_OK);
  cr_assert_eq(on1.device_id, 1);
  cr_assert_eq(SimDeviceStats()->bytes_within, bytes, "device to device moves %ld bytes",
               (long)SimDeviceStats()->bytes_within);
  cr_assert_eq(SimDeviceStats()->bytes_to_host, 0);

  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on1, &error), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &back), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &back, &error), NANOARROW_OK);
  const char* message =
      SimCompareViews(&expected.array_view, &view.array_view, "array", buf, sizeof(buf));
  cr_assert_null(message, "%s", message);

  ArrowDeviceArrayViewReset(&view);
  ArrowDeviceArrayViewReset(&expected);
  ArrowArrayRelease(&back.array);
  ArrowArrayRelease(&on1.array);
  ArrowArrayRelease(&on0.array);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}

Test(device_sim, copy_from_a_minimal_view_reads_the_sizes_first) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on0;
  struct ArrowDeviceArray back;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStrings(&schema, &array, NANOARROW_TYPE_STRING, 6);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, &error), NANOARROW_OK);
  int64_t data_size = view.array_view.buffer_views[2].size_bytes;
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, SimDevice(0), &on0), NANOARROW_OK);

  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &on0, &error), NANOARROW_OK);
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, -1);
  SimDeviceResetStats();
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &back), NANOARROW_OK);
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, data_size);
  /* 8 bytes of offsets read back, then the array itself. */
  int64_t array_bytes = 1 + 7 * 4 + data_size;
  cr_assert_eq(SimDeviceStats()->bytes_to_host, 8 + array_bytes, "%ld",
               (long)SimDeviceStats()->bytes_to_host);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&back.array);
  ArrowArrayRelease(&on0.array);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}

Test(device_sim, copy_refusals) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray out;
  struct ArrowDeviceArrayView view;
  MakeStrings(&schema, &array, NANOARROW_TYPE_STRING, 3);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);

  /* A device nobody can copy to. */
  struct ArrowDevice other;
  ArrowDeviceInitCpu(&other);
  other.device_type = ARROW_DEVICE_METAL;
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, &other, &out), ENOTSUP);
  /* A stream of device 1 for a copy to device 0. */
  struct SimStream* stream = SimStreamCreate(1);
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(0), &out, stream), EINVAL);
  cr_assert(strstr(SimDeviceLastViolation(), "given stream") != NULL, "%s",
            SimDeviceLastViolation());
  SimStreamDestroy(stream);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  /* That refusal was a deliberate violation. */
  cr_assert_eq(SimDeviceForgiveViolations(), 1);
  cr_assert_eq(SimDeviceStats()->live_allocations, 0, "nothing leaked by the refusals");
  ExpectClean();
}

#if defined(NANOARROW_TEST_HAVE_IPC)
/* Every batch of arrow-testing's integration streams (the newest set, cpp-21.0.0, and
 * 1.0.0-littleendian), column by column. */
static void RoundTripStreamFile(const char* path, int64_t* columns) {
  FILE* file = fopen(path, "rb");
  cr_assert_not_null(file, "%s", path);
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s", path);
  for (;;) {
    struct ArrowArray batch;
    int rc = stream.get_next(&stream, &batch);
    cr_assert_eq(rc, NANOARROW_OK, "%s: %s", path, stream.get_last_error(&stream));
    if (batch.release == NULL) {
      break;
    }
    for (int64_t c = 0; c < batch.n_children; c++) {
      /* The column, moved out of the batch (an IPC-decoded array), to device 0 or to
       * the host-visible device 2 in turn. */
      struct ArrowArray column;
      ArrowArrayMove(batch.children[c], &column);
      char buf[512];
      const char* message =
          SimRoundTrip(schema.children[c], &column, ArrowDeviceArrayViewCopyAsync,
                       (*columns % 2) * SIM_DEVICE_HOST_VISIBLE, NULL, buf, sizeof(buf));
      cr_assert_null(message, "%s column %ld (%s): %s", path, (long)c,
                     schema.children[c]->format, message);
      (*columns)++;
    }
    ArrowArrayRelease(&batch);
  }
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
}

Test(device_sim, copy_arrow_testing_integration_files) {
  const char* dirs[] = {"cpp-21.0.0", "1.0.0-littleendian"};
  int64_t columns = 0;
  int64_t files = 0;
  for (int d = 0; d < 2; d++) {
    char dir_path[1024];
    snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
             NANOARROW_TEST_DATA_DIR, dirs[d]);
    DIR* dir = opendir(dir_path);
    cr_assert_not_null(dir, "%s", dir_path);
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
      size_t n = strlen(entry->d_name);
      if (n < 7 || strcmp(entry->d_name + n - 7, ".stream") != 0) {
        continue;
      }
      char path[2048];
      snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
      RoundTripStreamFile(path, &columns);
      files++;
    }
    closedir(dir);
  }
  cr_assert_gt(files, 40, "arrow-testing integration streams found: %ld", (long)files);
  cr_log_info("round-tripped %ld columns of %ld integration streams through the simulated "
              "device",
              (long)columns, (long)files);
  ExpectClean();
}
#endif

/* ---- Streams and events ---- */

Test(device_sim, view_waits_on_the_event_of_queued_copies) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on0;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStrings(&schema, &array, NANOARROW_TYPE_STRING, 5);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);

  /* The copy is queued on a stream: on0's memory is not written yet, and on0 carries
   * an event that covers the copies. */
  struct SimStream* stream = SimStreamCreate(0);
  SimDeviceResetStats();
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(0), &on0, stream),
               NANOARROW_OK);
  cr_assert_gt(SimStreamPending(stream), 0);
  cr_assert_not_null(on0.sync_event);
  cr_assert_eq(SimDeviceStats()->events_created, 1);
  cr_assert_eq(SimDeviceStats()->events_recorded, 1);

  /* Without a stream, the CPU waits on the event before reading back. */
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on0, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(SimDeviceStats()->event_host_waits, 1);
  cr_assert_eq(SimStreamPending(stream), 0);
  cr_assert_eq(view.sync_event, on0.sync_event, "the view notes (not owns) the event");

  /* With another stream: that stream waits on the event, the read-back is queued on
   * it and the stream is synchronized once. */
  struct SimStream* other = SimStreamCreate(0);
  cr_assert_eq(ArrowDeviceArrayViewSetArrayAsync(&view, &on0, other, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(SimDeviceStats()->event_stream_waits, 1);
  cr_assert_eq(SimDeviceStats()->stream_syncs, 1);
  cr_assert_eq(SimStreamPending(other), 0);

  SimStreamDestroy(other);
  SimStreamDestroy(stream);
  ArrowDeviceArrayViewReset(&view);
  cr_assert_eq(SimDeviceStats()->events_destroyed, 0, "resetting a view keeps the event");
  ArrowArrayRelease(&on0.array);
  cr_assert_eq(SimDeviceStats()->events_destroyed, 1);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}

Test(device_sim, array_init_with_sync_event_and_stream) {
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowBuffer buffer;
  const int32_t values[] = {1, 2, 3};

  /* A producer's array on device 0 with its own event: ownership passes on. */
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(SimBufferFromHost(0, values, sizeof(values), &buffer), NANOARROW_OK);
  cr_assert_eq(ArrowArraySetBuffer(&array, 1, &buffer), NANOARROW_OK);
  array.length = 3;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_NONE, NULL),
               NANOARROW_OK);
  struct SimEvent* event = SimEventCreate(0);
  struct SimStream* stream = SimStreamCreate(0);
  cr_assert_eq(ArrowDeviceArrayInitAsync(SimDevice(0), &device_array, &array, event, stream),
               NANOARROW_OK);
  cr_assert_eq(device_array.sync_event, event);
  cr_assert_eq(device_array.device_type, SIM_DEVICE_TYPE);
  cr_assert_eq(device_array.device_id, 0);
  cr_assert_eq(SimDeviceStats()->events_recorded, 1, "the event records the stream");
  cr_assert_null(array.release, "the array was moved in");

  /* Host memory labelled as device memory is refused, and the array stays the
   * caller's. */
  struct ArrowArray host_array;
  struct ArrowDeviceArray refused;
  cr_assert_eq(ArrowArrayInitFromType(&host_array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&host_array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&host_array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&host_array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayInit(SimDevice(0), &refused, &host_array, NULL), EINVAL);
  cr_assert_not_null(host_array.release);
  cr_assert(strstr(SimDeviceLastViolation(), "not memory of simulated device 0") != NULL,
            "%s", SimDeviceLastViolation());
  ArrowArrayRelease(&host_array);

  /* Release order: the buffers, then the event, exactly once. */
  SimDeviceClearLog();
  ArrowArrayRelease(&device_array.array);
  cr_assert_str_eq(SimDeviceLog(), "release free#1 event-destroy#1 ", "%s", SimDeviceLog());
  SimStreamDestroy(stream);
  cr_assert_eq(SimDeviceForgiveViolations(), 1, "only the deliberate refusal");
  ExpectClean();
}

Test(device_sim, event_release_order_of_copies_and_moves) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on0;
  struct ArrowDeviceArray moved;
  struct ArrowDeviceArray on2;
  struct ArrowDeviceArray on_cpu;
  struct ArrowDeviceArray copy;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeNested(&schema, &array);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);

  struct SimStream* stream = SimStreamCreate(0);
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(0), &on0, stream),
               NANOARROW_OK);
  void* event = on0.sync_event;
  cr_assert_not_null(event);

  /* A move within the device carries the event along; src is left released. */
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&on0, SimDevice(0), &moved), NANOARROW_OK);
  cr_assert_null(on0.array.release);
  cr_assert_eq(moved.sync_event, event);
  /* Protected memory cannot move to another device or the CPU. */
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&moved, SimDevice(1), &on0), ENOTSUP);
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&moved, ArrowDeviceCpu(), &on0), ENOTSUP);
  cr_assert_not_null(moved.array.release, "a refused move leaves src as it was");

  /* Copying from the moved array's view uses (never destroys) its event. */
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &moved, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(SIM_DEVICE_HOST_VISIBLE),
                                             &on2, NULL),
               NANOARROW_OK);
  cr_assert_null(on2.sync_event, "a copy without a stream needs no event");
  cr_assert_eq(SimDeviceStats()->events_destroyed, 0);

  /* Host-visible memory moves to the CPU, where the core can read it directly. */
  struct SimStream* stream2 = SimStreamCreate(SIM_DEVICE_HOST_VISIBLE);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on2, &error), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, SimDevice(SIM_DEVICE_HOST_VISIBLE),
                                             &copy, stream2),
               NANOARROW_OK);
  void* copy_event = copy.sync_event;
  cr_assert_gt(SimStreamPending(stream2), 0);
  int64_t waits = SimDeviceStats()->event_host_waits;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&copy, ArrowDeviceCpu(), &on_cpu), NANOARROW_OK);
  cr_assert_eq(SimDeviceStats()->event_host_waits, waits + 1, "the move waited on the event");
  cr_assert_eq(SimStreamPending(stream2), 0);
  cr_assert_eq(on_cpu.device_type, ARROW_DEVICE_CPU);
  cr_assert_null(on_cpu.sync_event);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on_cpu, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.device, ArrowDeviceCpu());
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.array_view.children[0], 1), 100);

  /* Each array destroys its own event once, after its buffers. */
  (void)copy_event;
  ArrowDeviceArrayViewReset(&view);
  SimDeviceClearLog();
  ArrowArrayRelease(&on_cpu.array);
  char buf[256];
  const char* order = SimCheckReleaseOrder(SimDeviceLog(), buf, sizeof(buf));
  cr_assert_null(order, "%s", order);
  cr_assert_eq(SimDeviceStats()->events_destroyed, 1);
  ArrowArrayRelease(&on2.array);
  cr_assert_eq(SimDeviceStats()->events_destroyed, 1, "on2 had no event");
  ArrowArrayRelease(&moved.array);
  cr_assert_eq(SimDeviceStats()->events_destroyed, 2);

  SimStreamDestroy(stream2);
  SimStreamDestroy(stream);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}

/* ---- Device array streams ---- */

Test(device_sim, basic_array_stream_over_device_arrays) {
  struct ArrowSchema schema;
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  struct ArrowError error;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRING), NANOARROW_OK);
  struct ArrowSchema stream_schema;
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &stream_schema), NANOARROW_OK);
  cr_assert_eq(ArrowBasicArrayStreamInit(&naive, &stream_schema, 3), NANOARROW_OK);
  for (int64_t i = 0; i < 3; i++) {
    /* Batches whose buffers are on device 1 (as a producer hands them over). */
    struct ArrowSchema batch_schema;
    struct ArrowArray batch;
    struct ArrowDeviceArray host;
    struct ArrowDeviceArray on1;
    struct ArrowDeviceArrayView view;
    MakeStrings(&batch_schema, &batch, NANOARROW_TYPE_STRING, 4 + i);
    cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &batch, NULL), NANOARROW_OK);
    ArrowDeviceArrayViewInit(&view);
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL),
                 NANOARROW_OK);
    cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowDeviceArrayViewCopy(&view, SimDevice(1), &on1), NANOARROW_OK);
    ArrowBasicArrayStreamSetArray(&naive, i, &on1.array);
    ArrowDeviceArrayViewReset(&view);
    ArrowArrayRelease(&host.array);
    ArrowSchemaRelease(&batch_schema);
  }

  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, SimDevice(1)), NANOARROW_OK);
  cr_assert_eq(stream.device_type, SIM_DEVICE_TYPE);
  struct ArrowSchema out_schema;
  cr_assert_eq(stream.get_schema(&stream, &out_schema), NANOARROW_OK);
  ArrowSchemaRelease(&out_schema);

  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  int64_t n = 0;
  for (;;) {
    struct ArrowDeviceArray batch;
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
    if (batch.array.release == NULL) {
      cr_assert_eq(batch.device_type, SIM_DEVICE_TYPE);
      break;
    }
    cr_assert_eq(batch.device_type, SIM_DEVICE_TYPE);
    cr_assert_eq(batch.device_id, 1);
    cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &batch, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(view.array_view.length, 4 + n);
    ArrowArrayRelease(&batch.array);
    n++;
  }
  cr_assert_eq(n, 3);
  ArrowDeviceArrayViewReset(&view);
  stream.release(&stream);
  ArrowSchemaRelease(&schema);
  ExpectClean();
}
