/* Arrow IPC messages built by hand in tests, with the library's internal flatbuffers
 * builder: what no writer of ours would produce (hostile claims, other writers'
 * conventions). Static inline so that each test uses only what it needs. */
#ifndef NANOARROW_TESTS_IPC_MESSAGE_TEST_UTIL_H
#define NANOARROW_TESTS_IPC_MESSAGE_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>

#include "ipc/flatbuf_builder.h"
#include "nanoarrow/nanoarrow.h"

enum {
  kHeaderSchema = 1,
  kHeaderRecordBatch = 3,
  kTypeNull = 1,
  kTypeInt = 2,
  kTypeList = 12,
  kTypeStruct = 13,
  kMetadataV5 = 4
};

/* Starts a Message flatbuffer; *header_slot receives the header offset's slot. */
static inline void BeginMessage(struct ArrowIpcFbb* fbb, uint8_t header_type, int64_t body_length,
                                int64_t* header_slot) {
  struct ArrowIpcFbbTable message;
  int64_t position;
  ArrowIpcFbbInit(fbb);
  cr_assert_eq(ArrowIpcFbbStart(fbb), NANOARROW_OK);
  ArrowIpcFbbTableInit(&message);
  ArrowIpcFbbTableAddInt16(&message, 0, kMetadataV5);
  ArrowIpcFbbTableAddUInt8(&message, 1, header_type);
  ArrowIpcFbbTableAddOffset(&message, 2);
  ArrowIpcFbbTableAddInt64(&message, 3, body_length);
  cr_assert_eq(ArrowIpcFbbWriteTable(fbb, &message, &position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(fbb, 0, position), NANOARROW_OK);
  *header_slot = message.position[2];
}

/* Appends fbb's flatbuffer to out as an encapsulated message (and resets fbb). */
static inline void FinishMessage(struct ArrowIpcFbb* fbb, struct ArrowBuffer* out) {
  int64_t padded = (fbb->buffer.size_bytes + 7) / 8 * 8;
  int32_t marker = -1;
  int32_t length = (int32_t)padded;
  cr_assert_eq(ArrowBufferAppend(out, &marker, 4), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(out, &length, 4), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(out, fbb->buffer.data, fbb->buffer.size_bytes), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFill(out, 0, padded - fbb->buffer.size_bytes), NANOARROW_OK);
  ArrowIpcFbbReset(fbb);
}

static inline void AppendEndOfStream(struct ArrowBuffer* out) {
  int32_t eos[2] = {-1, 0};
  cr_assert_eq(ArrowBufferAppend(out, eos, sizeof(eos)), NANOARROW_OK);
}

/* Writes a Field table with the given type (an empty type table, or Int32) and
 * n_children child slots; *children_vector receives the vector's position (slot i
 * at +4 + 4 * i), or -1 without children. */
static inline int64_t WriteField(struct ArrowIpcFbb* fbb, uint8_t type_type, int64_t n_children,
                                 int64_t* children_vector) {
  struct ArrowIpcFbbTable field;
  struct ArrowIpcFbbTable type;
  int64_t field_position;
  int64_t type_position;
  ArrowIpcFbbTableInit(&field);
  ArrowIpcFbbTableAddBool(&field, 1, 1);
  ArrowIpcFbbTableAddUInt8(&field, 2, type_type);
  ArrowIpcFbbTableAddOffset(&field, 3);
  if (n_children > 0) ArrowIpcFbbTableAddOffset(&field, 5);
  cr_assert_eq(ArrowIpcFbbWriteTable(fbb, &field, &field_position), NANOARROW_OK);

  ArrowIpcFbbTableInit(&type);
  if (type_type == kTypeInt) {
    ArrowIpcFbbTableAddInt32(&type, 0, 32);
    ArrowIpcFbbTableAddBool(&type, 1, 1);
  }
  cr_assert_eq(ArrowIpcFbbWriteTable(fbb, &type, &type_position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(fbb, field.position[3], type_position), NANOARROW_OK);

  *children_vector = -1;
  if (n_children > 0) {
    cr_assert_eq(ArrowIpcFbbSetVector(fbb, &field, 5, NULL, n_children, 4, 4, children_vector),
                 NANOARROW_OK);
  }
  return field_position;
}

/* A Schema message with one field; returns the field vector's slot to patch. */
static inline int64_t BeginSchema(struct ArrowIpcFbb* fbb) {
  struct ArrowIpcFbbTable schema;
  int64_t header_slot;
  int64_t schema_position;
  int64_t fields;
  BeginMessage(fbb, kHeaderSchema, 0, &header_slot);
  ArrowIpcFbbTableInit(&schema);
  ArrowIpcFbbTableAddInt16(&schema, 0, 0); /* little endian */
  ArrowIpcFbbTableAddOffset(&schema, 1);
  cr_assert_eq(ArrowIpcFbbWriteTable(fbb, &schema, &schema_position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(fbb, header_slot, schema_position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbSetVector(fbb, &schema, 1, NULL, 1, 4, 4, &fields), NANOARROW_OK);
  return fields + 4;
}

/* A schema with a single nullable int32 field. */
static inline void AppendInt32Schema(struct ArrowBuffer* out) {
  struct ArrowIpcFbb fbb;
  int64_t slot = BeginSchema(&fbb);
  int64_t children;
  int64_t field = WriteField(&fbb, kTypeInt, 0, &children);
  cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, slot, field), NANOARROW_OK);
  FinishMessage(&fbb, out);
}

/* Writes a BodyCompression table (LZ4_FRAME, per buffer) and points the RecordBatch
 * table's compression slot (field 3, added with ArrowIpcFbbTableAddOffset) at it. */
static inline void WriteLz4BodyCompression(struct ArrowIpcFbb* fbb,
                                           const struct ArrowIpcFbbTable* batch) {
  struct ArrowIpcFbbTable compression;
  int64_t position;
  ArrowIpcFbbTableInit(&compression);
  ArrowIpcFbbTableAddScalar(&compression, 0, 1, 0); /* LZ4_FRAME */
  ArrowIpcFbbTableAddScalar(&compression, 1, 1, 0); /* BUFFER */
  cr_assert_eq(ArrowIpcFbbWriteTable(fbb, &compression, &position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(fbb, batch->position[3], position), NANOARROW_OK);
}

#endif
