/* The buffer layout of each storage type, per the Arrow columnar format. */

#include "nanoarrow/nanoarrow.h"

static void ArrowLayoutSetBuffer(struct ArrowLayout* layout, int i,
                                 enum ArrowBufferType buffer_type,
                                 enum ArrowType data_type, int64_t element_size_bits) {
  layout->buffer_type[i] = buffer_type;
  layout->buffer_data_type[i] = data_type;
  layout->element_size_bits[i] = element_size_bits;
}

/* Validity bitmap in slot 0 plus a fixed-width data buffer in slot 1. */
static void ArrowLayoutSetFixedWidth(struct ArrowLayout* layout, enum ArrowType data_type,
                                     int64_t element_size_bits) {
  ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_DATA, data_type,
                       element_size_bits);
}

/* Validity, offsets (offset_bits wide) and a data buffer of bytes whose elements
 * have no fixed size (element size 0, as the layout contract has it). */
static void ArrowLayoutSetVarWidth(struct ArrowLayout* layout, enum ArrowType offset_type,
                                   int64_t offset_bits, enum ArrowType data_type) {
  ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, offset_type,
                       offset_bits);
  ArrowLayoutSetBuffer(layout, 2, NANOARROW_BUFFER_TYPE_DATA, data_type, 0);
}

/* Validity, view offsets and view sizes (list views). */
static void ArrowLayoutSetListView(struct ArrowLayout* layout, enum ArrowType int_type,
                                   int64_t int_bits) {
  ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_VIEW_OFFSET, int_type, int_bits);
  ArrowLayoutSetBuffer(layout, 2, NANOARROW_BUFFER_TYPE_SIZE, int_type, int_bits);
}

void ArrowLayoutInit(struct ArrowLayout* layout, enum ArrowType storage_type) {
  int i;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    ArrowLayoutSetBuffer(layout, i, NANOARROW_BUFFER_TYPE_NONE,
                         NANOARROW_TYPE_UNINITIALIZED, 0);
  }
  layout->child_size_elements = 0;

  /* Every type except these has a validity bitmap in slot 0. */
  switch (storage_type) {
    case NANOARROW_TYPE_UNINITIALIZED:
    case NANOARROW_TYPE_NA:
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_RUN_END_ENCODED:
      break;
    default:
      ArrowLayoutSetBuffer(layout, 0, NANOARROW_BUFFER_TYPE_VALIDITY, NANOARROW_TYPE_BOOL,
                           1);
      break;
  }

  switch (storage_type) {
    case NANOARROW_TYPE_BOOL:
      ArrowLayoutSetFixedWidth(layout, NANOARROW_TYPE_BOOL, 1);
      break;
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
      ArrowLayoutSetFixedWidth(layout, storage_type, 8);
      break;
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_HALF_FLOAT:
      ArrowLayoutSetFixedWidth(layout, storage_type, 16);
      break;
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DECIMAL32:
      ArrowLayoutSetFixedWidth(layout, storage_type, 32);
      break;
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      /* A count of months: int32 data, as nanoarrow describes it. */
      ArrowLayoutSetFixedWidth(layout, NANOARROW_TYPE_INT32, 32);
      break;
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
      ArrowLayoutSetFixedWidth(layout, storage_type, 64);
      break;
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      ArrowLayoutSetFixedWidth(layout, storage_type, 128);
      break;
    case NANOARROW_TYPE_DECIMAL256:
      ArrowLayoutSetFixedWidth(layout, storage_type, 256);
      break;
    /* Logical types that may be passed as their own storage. */
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_TIME32:
      ArrowLayoutSetFixedWidth(layout, NANOARROW_TYPE_INT32, 32);
      break;
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_DURATION:
      ArrowLayoutSetFixedWidth(layout, NANOARROW_TYPE_INT64, 64);
      break;
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      /* The width (8 * byte width) comes from the schema. */
      ArrowLayoutSetFixedWidth(layout, NANOARROW_TYPE_BINARY, 0);
      break;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
      ArrowLayoutSetVarWidth(layout, NANOARROW_TYPE_INT32, 32, storage_type);
      break;
    case NANOARROW_TYPE_LARGE_STRING:
      ArrowLayoutSetVarWidth(layout, NANOARROW_TYPE_INT64, 64, NANOARROW_TYPE_STRING);
      break;
    case NANOARROW_TYPE_LARGE_BINARY:
      ArrowLayoutSetVarWidth(layout, NANOARROW_TYPE_INT64, 64, NANOARROW_TYPE_BINARY);
      break;
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_STRING_VIEW:
      /* Variadic data buffers and the sizes buffer follow the fixed ones. */
      ArrowLayoutSetFixedWidth(layout, storage_type, 128);
      break;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_MAP:
      ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET,
                           NANOARROW_TYPE_INT32, 32);
      break;
    case NANOARROW_TYPE_LARGE_LIST:
      ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET,
                           NANOARROW_TYPE_INT64, 64);
      break;
    case NANOARROW_TYPE_LIST_VIEW:
      ArrowLayoutSetListView(layout, NANOARROW_TYPE_INT32, 32);
      break;
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      ArrowLayoutSetListView(layout, NANOARROW_TYPE_INT64, 64);
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
      ArrowLayoutSetBuffer(layout, 0, NANOARROW_BUFFER_TYPE_TYPE_ID, NANOARROW_TYPE_INT8,
                           8);
      break;
    case NANOARROW_TYPE_DENSE_UNION:
      ArrowLayoutSetBuffer(layout, 0, NANOARROW_BUFFER_TYPE_TYPE_ID, NANOARROW_TYPE_INT8,
                           8);
      ArrowLayoutSetBuffer(layout, 1, NANOARROW_BUFFER_TYPE_UNION_OFFSET,
                           NANOARROW_TYPE_INT32, 32);
      break;
    default:
      /* NA, struct, fixed-size list, run-end encoded: no data buffers. */
      break;
  }
}
