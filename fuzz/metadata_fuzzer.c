/* libFuzzer harness: the C Data Interface key/value metadata reader and builder.
 *
 * Input byte 0 chooses the mode:
 * - even: the rest is a raw metadata blob. A blob in ArrowSchema.metadata carries
 *   no total size, so the library can only refuse what is structurally wrong
 *   (negative counts and lengths); lengths that point past the blob are the
 *   producer's fault. The harness therefore hands over only blobs whose
 *   non-negative lengths stay inside the input, and checks that readers, SizeOf,
 *   GetValue, HasKey, the builder and ArrowSchemaSetMetadata agree about them.
 * - odd: the rest is a list of builder operations (op, key, value) applied to a
 *   blob the library builds; after each, the blob must be well formed and say
 *   what the operation implies (Set then GetValue gives the value, Remove then
 *   HasKey gives 0). */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "fuzz_util.h"

static int32_t FuzzLoadI32(const uint8_t* p) {
  int32_t value;
  memcpy(&value, p, sizeof(value));
  return value;
}

/* -1: the blob claims bytes past size (not something a reader can detect);
 * 0: the blob is structurally invalid in a detectable way (a negative count or
 * length met before running out of bytes); otherwise the blob's size. */
static int64_t FuzzBlobSize(const uint8_t* data, int64_t size) {
  int64_t offset = 4;
  int32_t n_keys;
  int32_t k;
  if (size < 4) return -1;
  n_keys = FuzzLoadI32(data);
  if (n_keys < 0) return 0;
  for (k = 0; k < n_keys; k++) {
    int part;
    for (part = 0; part < 2; part++) {
      int32_t length;
      if (offset + 4 > size) return -1;
      length = FuzzLoadI32(data + offset);
      if (length < 0) return 0;
      offset += 4;
      if (length > size - offset) return -1;
      offset += length;
    }
  }
  return offset;
}

/* Reads a well-formed blob of known size completely. */
static void FuzzCheckWellFormed(const char* metadata, int64_t size) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  FUZZ_CHECK(ArrowMetadataSizeOf(metadata) == size);
  FUZZ_CHECK(ArrowMetadataReaderInit(&reader, metadata) == NANOARROW_OK);
  while (reader.remaining_keys > 0) {
    struct ArrowStringView found;
    FUZZ_CHECK(ArrowMetadataReaderRead(&reader, &key, &value) == NANOARROW_OK);
    FUZZ_CHECK(key.data >= metadata && key.data + key.size_bytes <= metadata + size);
    FUZZ_CHECK(value.data >= metadata && value.data + value.size_bytes <= metadata + size);
    FuzzTouchBytes(key.data, key.size_bytes);
    FuzzTouchBytes(value.data, value.size_bytes);
    FUZZ_CHECK(ArrowMetadataHasKey(metadata, key));
    found.data = NULL;
    FUZZ_CHECK(ArrowMetadataGetValue(metadata, key, &found) == NANOARROW_OK);
    FUZZ_CHECK(found.data != NULL);
  }
  FUZZ_CHECK(ArrowMetadataReaderRead(&reader, &key, &value) != NANOARROW_OK);
}

static void FuzzRawBlob(const uint8_t* data, int64_t size) {
  struct ArrowBuffer copy;
  struct ArrowBuffer builder;
  struct ArrowSchema schema;
  int64_t blob_size = FuzzBlobSize(data, size);
  if (blob_size < 0) return;

  /* An exact-size heap copy so ASan sees any read past the blob. */
  ArrowBufferInit(&copy);
  FUZZ_CHECK(ArrowBufferAppend(&copy, data, size) == NANOARROW_OK);
  if (blob_size == 0) {
    struct ArrowMetadataReader reader;
    struct ArrowStringView key;
    struct ArrowStringView value;
    FUZZ_CHECK(ArrowMetadataSizeOf((const char*)copy.data) == 0);
    if (ArrowMetadataReaderInit(&reader, (const char*)copy.data) == NANOARROW_OK) {
      while (ArrowMetadataReaderRead(&reader, &key, &value) == NANOARROW_OK) {
      }
    }
    key = ArrowCharView("ARROW:extension:name");
    (void)ArrowMetadataHasKey((const char*)copy.data, key);
    (void)ArrowMetadataGetValue((const char*)copy.data, key, &value);
    /* A malformed blob is refused by the builder and by schemas. */
    if (ArrowMetadataBuilderInit(&builder, (const char*)copy.data) == NANOARROW_OK) {
      ArrowBufferReset(&builder);
    }
    ArrowSchemaInit(&schema);
    (void)ArrowSchemaSetMetadata(&schema, (const char*)copy.data);
    ArrowSchemaRelease(&schema);
    ArrowBufferReset(&copy);
    return;
  }

  FuzzCheckWellFormed((const char*)copy.data, blob_size);
  FUZZ_CHECK(ArrowMetadataBuilderInit(&builder, (const char*)copy.data) == NANOARROW_OK);
  FUZZ_CHECK(builder.size_bytes == blob_size);
  FUZZ_CHECK(memcmp(builder.data, copy.data, (size_t)blob_size) == 0);
  ArrowBufferReset(&builder);

  ArrowSchemaInit(&schema);
  FUZZ_CHECK(ArrowSchemaSetFormat(&schema, "i") == NANOARROW_OK);
  FUZZ_CHECK(ArrowSchemaSetMetadata(&schema, (const char*)copy.data) == NANOARROW_OK);
  FUZZ_CHECK(ArrowMetadataSizeOf(schema.metadata) == blob_size);
  {
    /* Extension keys reach the schema view parser. */
    struct ArrowSchemaView view;
    struct ArrowError error;
    (void)ArrowSchemaViewInit(&view, &schema, &error);
  }
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&copy);
}

static int64_t FuzzCountKey(const char* metadata, struct ArrowStringView key) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView existing;
  int64_t count = 0;
  if (ArrowMetadataReaderInit(&reader, metadata) != NANOARROW_OK) return 0;
  while (ArrowMetadataReaderRead(&reader, &existing, NULL) == NANOARROW_OK) {
    count += existing.size_bytes == key.size_bytes &&
             (key.size_bytes == 0 ||
              memcmp(existing.data, key.data, (size_t)key.size_bytes) == 0);
  }
  return count;
}

/* Takes a length byte and that many bytes (fewer at the end of input). */
static struct ArrowStringView FuzzTakeString(const uint8_t** data, int64_t* size) {
  struct ArrowStringView out;
  int64_t length;
  out.data = "";
  out.size_bytes = 0;
  if (*size <= 0) return out;
  length = **data;
  (*data)++;
  (*size)--;
  if (length > *size) length = *size;
  out.data = (const char*)*data;
  out.size_bytes = length;
  *data += length;
  *size -= length;
  return out;
}

static void FuzzBuilderOps(const uint8_t* data, int64_t size) {
  struct ArrowBuffer builder;
  int n_ops = 0;
  FUZZ_CHECK(ArrowMetadataBuilderInit(&builder, NULL) == NANOARROW_OK);
  while (size > 0 && n_ops < 64) {
    uint8_t op = data[0] % 3;
    struct ArrowStringView key;
    struct ArrowStringView value;
    struct ArrowStringView found;
    data++;
    size--;
    key = FuzzTakeString(&data, &size);
    value = FuzzTakeString(&data, &size);
    switch (op) {
      case 0:
        FUZZ_CHECK(ArrowMetadataBuilderAppend(&builder, key, value) == NANOARROW_OK);
        break;
      case 1:
        FUZZ_CHECK(ArrowMetadataBuilderSet(&builder, key, value) == NANOARROW_OK);
        found.data = NULL;
        FUZZ_CHECK(ArrowMetadataGetValue((const char*)builder.data, key, &found) ==
                   NANOARROW_OK);
        FUZZ_CHECK(found.data != NULL && found.size_bytes == value.size_bytes);
        FUZZ_CHECK(value.size_bytes == 0 ||
                   memcmp(found.data, value.data, (size_t)value.size_bytes) == 0);
        break;
      default: {
        /* With duplicate keys (Append allows them) how many Remove drops is not
         * specified; with one, it must be gone. */
        int64_t count = FuzzCountKey((const char*)builder.data, key);
        FUZZ_CHECK(ArrowMetadataBuilderRemove(&builder, key) == NANOARROW_OK);
        if (count <= 1) FUZZ_CHECK(!ArrowMetadataHasKey((const char*)builder.data, key));
        break;
      }
    }
    FuzzCheckWellFormed((const char*)builder.data, builder.size_bytes);
    n_ops++;
  }
  ArrowBufferReset(&builder);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    FuzzRawBlob(data + 1, (int64_t)size - 1);
  } else {
    FuzzBuilderOps(data + 1, (int64_t)size - 1);
  }
  return 0;
}
