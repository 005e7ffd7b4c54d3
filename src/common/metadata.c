/* Key/value metadata as serialized by the Arrow C Data Interface:
 *
 *   int32 n_keys, then n_keys times: int32 key_len, key bytes, int32 value_len,
 *   value bytes
 *
 * Integers are native-endian and unaligned, so every read and write goes through
 * memcpy. A blob handed to us through ArrowSchema.metadata carries no total length,
 * so the reader can only check it structurally (no negative count or length); the
 * builder works on an ArrowBuffer whose size is known and checks every entry against
 * it. */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static int32_t ReadInt32(const char* ptr) {
  int32_t value;
  memcpy(&value, ptr, sizeof(value));
  return value;
}

static void WriteInt32(uint8_t* ptr, int32_t value) { memcpy(ptr, &value, sizeof(value)); }

static int StringViewEqual(struct ArrowStringView a, struct ArrowStringView b) {
  return a.size_bytes == b.size_bytes &&
         (a.size_bytes == 0 || memcmp(a.data, b.data, (size_t)a.size_bytes) == 0);
}

ArrowErrorCode ArrowMetadataReaderInit(struct ArrowMetadataReader* reader,
                                       const char* metadata) {
  reader->metadata = metadata;
  reader->offset = 0;
  reader->remaining_keys = 0;
  if (metadata == NULL) {
    return NANOARROW_OK;
  }

  int32_t n_keys = ReadInt32(metadata);
  if (n_keys < 0) {
    return EINVAL;
  }
  reader->offset = sizeof(int32_t);
  reader->remaining_keys = n_keys;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowMetadataReaderRead(struct ArrowMetadataReader* reader,
                                       struct ArrowStringView* key_out,
                                       struct ArrowStringView* value_out) {
  if (reader->remaining_keys <= 0) {
    return EINVAL;
  }

  int64_t offset = reader->offset;
  int32_t key_size = ReadInt32(reader->metadata + offset);
  if (key_size < 0) {
    return EINVAL;
  }
  offset += sizeof(int32_t);
  const char* key_data = reader->metadata + offset;
  offset += key_size;

  int32_t value_size = ReadInt32(reader->metadata + offset);
  if (value_size < 0) {
    return EINVAL;
  }
  offset += sizeof(int32_t);
  const char* value_data = reader->metadata + offset;
  offset += value_size;

  if (key_out != NULL) {
    key_out->data = key_data;
    key_out->size_bytes = key_size;
  }
  if (value_out != NULL) {
    value_out->data = value_data;
    value_out->size_bytes = value_size;
  }

  reader->offset = offset;
  reader->remaining_keys--;
  return NANOARROW_OK;
}

/* Returns 0 both for NULL and for a malformed blob: a well-formed blob is always at
 * least 4 bytes (its key count), so callers can tell "malformed" from "empty". */
int64_t ArrowMetadataSizeOf(const char* metadata) {
  struct ArrowMetadataReader reader;
  if (metadata == NULL || ArrowMetadataReaderInit(&reader, metadata) != NANOARROW_OK) {
    return 0;
  }

  while (reader.remaining_keys > 0) {
    if (ArrowMetadataReaderRead(&reader, NULL, NULL) != NANOARROW_OK) {
      return 0;
    }
  }
  return reader.offset;
}

ArrowErrorCode ArrowMetadataGetValue(const char* metadata, struct ArrowStringView key,
                                     struct ArrowStringView* value_out) {
  struct ArrowMetadataReader reader;
  NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, metadata));

  struct ArrowStringView existing_key;
  struct ArrowStringView existing_value;
  while (reader.remaining_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderRead(&reader, &existing_key, &existing_value));
    if (StringViewEqual(existing_key, key)) {
      *value_out = existing_value;
      return NANOARROW_OK;
    }
  }
  return NANOARROW_OK;
}

char ArrowMetadataHasKey(const char* metadata, struct ArrowStringView key) {
  struct ArrowStringView value;
  value.data = NULL;
  value.size_bytes = 0;
  if (ArrowMetadataGetValue(metadata, key, &value) != NANOARROW_OK) {
    return 0;
  }
  return value.data != NULL;
}

/* ---- Builder ---- */

/* One entry of a builder buffer, located with bounds checks against its size. */
struct MetadataEntry {
  int64_t start;
  int64_t value_length_offset;
  int64_t end;
  struct ArrowStringView key;
  struct ArrowStringView value;
};

static ArrowErrorCode ReadEntryBounded(const struct ArrowBuffer* buffer, int64_t offset,
                                       struct MetadataEntry* entry) {
  const char* data = (const char*)buffer->data;
  int64_t size = buffer->size_bytes;
  entry->start = offset;

  if (size - offset < (int64_t)sizeof(int32_t)) {
    return EINVAL;
  }
  int32_t key_size = ReadInt32(data + offset);
  offset += sizeof(int32_t);
  if (key_size < 0 || size - offset < key_size) {
    return EINVAL;
  }
  entry->key.data = data + offset;
  entry->key.size_bytes = key_size;
  offset += key_size;

  if (size - offset < (int64_t)sizeof(int32_t)) {
    return EINVAL;
  }
  entry->value_length_offset = offset;
  int32_t value_size = ReadInt32(data + offset);
  offset += sizeof(int32_t);
  if (value_size < 0 || size - offset < value_size) {
    return EINVAL;
  }
  entry->value.data = data + offset;
  entry->value.size_bytes = value_size;
  entry->end = offset + value_size;
  return NANOARROW_OK;
}

/* The key count of a builder buffer (0 when it is still empty). */
static ArrowErrorCode BuilderKeyCount(const struct ArrowBuffer* buffer, int32_t* n_keys) {
  if (buffer->size_bytes == 0) {
    *n_keys = 0;
    return NANOARROW_OK;
  }
  if (buffer->size_bytes < (int64_t)sizeof(int32_t)) {
    return EINVAL;
  }
  *n_keys = ReadInt32((const char*)buffer->data);
  return *n_keys < 0 ? EINVAL : NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowMetadataBuilderInit(struct ArrowBuffer* buffer,
                                                       const char* metadata) {
  ArrowBufferInit(buffer);
  if (metadata == NULL) {
    return NANOARROW_OK;
  }

  int64_t size = ArrowMetadataSizeOf(metadata);
  if (size == 0) {
    return EINVAL;
  }
  return ArrowBufferAppend(buffer, metadata, size);
}

NANOARROW_COLD ArrowErrorCode ArrowMetadataBuilderAppend(struct ArrowBuffer* buffer,
                                                         struct ArrowStringView key,
                                                         struct ArrowStringView value) {
  if (key.size_bytes < 0 || key.size_bytes > INT32_MAX || value.size_bytes < 0 ||
      value.size_bytes > INT32_MAX) {
    return EINVAL;
  }

  int32_t n_keys;
  NANOARROW_RETURN_NOT_OK(BuilderKeyCount(buffer, &n_keys));
  if (n_keys == INT32_MAX) {
    return ERANGE;
  }

  int64_t header_size = buffer->size_bytes == 0 ? (int64_t)sizeof(int32_t) : 0;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(
      buffer, header_size + 2 * (int64_t)sizeof(int32_t) + key.size_bytes +
                  value.size_bytes));
  if (header_size > 0) {
    buffer->size_bytes = header_size;
  }

  int32_t key_size = (int32_t)key.size_bytes;
  int32_t value_size = (int32_t)value.size_bytes;
  ArrowBufferAppendUnsafe(buffer, &key_size, sizeof(int32_t));
  if (key_size > 0) {
    ArrowBufferAppendUnsafe(buffer, key.data, key_size);
  }
  ArrowBufferAppendUnsafe(buffer, &value_size, sizeof(int32_t));
  if (value_size > 0) {
    ArrowBufferAppendUnsafe(buffer, value.data, value_size);
  }

  WriteInt32(buffer->data, n_keys + 1);
  return NANOARROW_OK;
}

/* Drops every entry whose key equals key except, when keep_first is set, the first
 * one, whose start offset goes to first_start (-1 when there is none). Entries move
 * left in place, so a single pass suffices. */
static NANOARROW_COLD ArrowErrorCode BuilderCompact(struct ArrowBuffer* buffer,
                                                    struct ArrowStringView key,
                                                    int keep_first,
                                                    int64_t* first_start) {
  *first_start = -1;
  int32_t n_keys;
  NANOARROW_RETURN_NOT_OK(BuilderKeyCount(buffer, &n_keys));
  if (n_keys == 0) {
    return NANOARROW_OK;
  }

  /* Validate the whole buffer before moving anything. */
  struct MetadataEntry entry;
  int64_t offset = sizeof(int32_t);
  for (int32_t i = 0; i < n_keys; i++) {
    NANOARROW_RETURN_NOT_OK(ReadEntryBounded(buffer, offset, &entry));
    offset = entry.end;
  }

  int64_t write_offset = sizeof(int32_t);
  int32_t n_kept = 0;
  offset = sizeof(int32_t);
  for (int32_t i = 0; i < n_keys; i++) {
    NANOARROW_RETURN_NOT_OK(ReadEntryBounded(buffer, offset, &entry));
    offset = entry.end;

    int matches = StringViewEqual(entry.key, key);
    if (matches && !(keep_first && *first_start == -1)) {
      continue;
    }
    if (matches) {
      *first_start = write_offset;
    }

    int64_t entry_size = entry.end - entry.start;
    if (write_offset != entry.start) {
      memmove(buffer->data + write_offset, buffer->data + entry.start, (size_t)entry_size);
    }
    write_offset += entry_size;
    n_kept++;
  }

  buffer->size_bytes = write_offset;
  WriteInt32(buffer->data, n_kept);
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowMetadataBuilderRemove(struct ArrowBuffer* buffer,
                                                         struct ArrowStringView key) {
  int64_t first_start;
  return BuilderCompact(buffer, key, 0, &first_start);
}

/* Replaces the value of the first entry with key (later duplicates are dropped so that
 * the key maps to exactly one value), or appends the pair when key is absent. Key and
 * value must not point into buffer. */
NANOARROW_COLD ArrowErrorCode ArrowMetadataBuilderSet(struct ArrowBuffer* buffer,
                                                      struct ArrowStringView key,
                                                      struct ArrowStringView value) {
  if (value.size_bytes < 0 || value.size_bytes > INT32_MAX) {
    return EINVAL;
  }

  int64_t first_start;
  NANOARROW_RETURN_NOT_OK(BuilderCompact(buffer, key, 1, &first_start));
  if (first_start == -1) {
    return ArrowMetadataBuilderAppend(buffer, key, value);
  }

  struct MetadataEntry entry;
  NANOARROW_RETURN_NOT_OK(ReadEntryBounded(buffer, first_start, &entry));
  int64_t value_offset = entry.value_length_offset + (int64_t)sizeof(int32_t);
  int64_t growth = value.size_bytes - entry.value.size_bytes;
  int64_t tail_size = buffer->size_bytes - entry.end;
  if (growth > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(buffer, growth));
  }

  memmove(buffer->data + entry.end + growth, buffer->data + entry.end, (size_t)tail_size);
  if (value.size_bytes > 0) {
    memcpy(buffer->data + value_offset, value.data, (size_t)value.size_bytes);
  }
  WriteInt32(buffer->data + entry.value_length_offset, (int32_t)value.size_bytes);
  buffer->size_bytes += growth;
  return NANOARROW_OK;
}
