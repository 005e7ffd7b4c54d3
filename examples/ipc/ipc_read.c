/* Print an Arrow IPC stream or file: its schema, then every row of every record
 * batch.
 *
 *   ipc_read [INPUT]      (INPUT "-" or omitted: standard input)
 *
 * The input is untrusted: the reader validates every batch before it is handed
 * out, so printing needs no checks of its own. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static void PrintValue(const struct ArrowArrayView* view, const struct ArrowSchema* schema,
                       int64_t i);

static void PrintBytes(struct ArrowBufferView bytes, int as_text) {
  int64_t j;
  if (as_text) {
    printf("\"%.*s\"", (int)bytes.size_bytes, bytes.data.as_char);
    return;
  }
  printf("0x");
  for (j = 0; j < bytes.size_bytes; j++) printf("%02x", bytes.data.as_uint8[j]);
}

/* Elements [start, end) of child, as [a, b, ...]. */
static void PrintRange(const struct ArrowArrayView* child, const struct ArrowSchema* schema,
                       int64_t start, int64_t end) {
  int64_t j;
  printf("[");
  for (j = start; j < end; j++) {
    if (j > start) printf(", ");
    PrintValue(child, schema, j);
  }
  printf("]");
}

static void PrintValue(const struct ArrowArrayView* view, const struct ArrowSchema* schema,
                       int64_t i) {
  int64_t j;
  if (ArrowArrayViewIsNull(view, i)) {
    printf("null");
    return;
  }
  if (view->dictionary != NULL) {
    PrintValue(view->dictionary, schema->dictionary, ArrowArrayViewGetIntUnsafe(view, i));
    return;
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
      printf(ArrowArrayViewGetIntUnsafe(view, i) ? "true" : "false");
      break;
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
      printf("%" PRId64, ArrowArrayViewGetIntUnsafe(view, i));
      break;
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_UINT64:
      printf("%" PRIu64, ArrowArrayViewGetUIntUnsafe(view, i));
      break;
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      printf("%g", ArrowArrayViewGetDoubleUnsafe(view, i));
      break;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW:
      PrintBytes(ArrowArrayViewGetBytesUnsafe(view, i), 1);
      break;
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      PrintBytes(ArrowArrayViewGetBytesUnsafe(view, i), 0);
      break;
    case NANOARROW_TYPE_STRUCT:
      printf("{");
      for (j = 0; j < view->n_children; j++) {
        if (j > 0) printf(", ");
        printf("%s: ", schema->children[j]->name != NULL ? schema->children[j]->name : "");
        PrintValue(view->children[j], schema->children[j], i);
      }
      printf("}");
      break;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      PrintRange(view->children[0], schema->children[0],
                 ArrowArrayViewListChildOffset(view, i),
                 ArrowArrayViewListChildOffset(view, i + 1));
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t size = view->layout.child_size_elements;
      PrintRange(view->children[0], schema->children[0], (view->offset + i) * size,
                 (view->offset + i + 1) * size);
      break;
    }
    default:
      /* Temporal, decimal, union, ...: a real program would format these too. */
      printf("<%s>", ArrowTypeString(view->storage_type));
      break;
  }
}

static int PrintStream(struct ArrowArrayStream* stream) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  char description[1024];
  int64_t n_batches = 0;
  int64_t n_rows = 0;
  int64_t i;
  int result = 1;

  ArrowErrorInit(&error);
  if (ArrowArrayStreamGetSchema(stream, &schema, &error) != NANOARROW_OK) {
    fprintf(stderr, "ipc_read: %s\n", error.message);
    return 1;
  }
  ArrowSchemaToString(&schema, description, sizeof(description), 1);
  printf("schema: %s\n", description);

  if (ArrowArrayViewInitFromSchema(&view, &schema, &error) != NANOARROW_OK) {
    fprintf(stderr, "ipc_read: %s\n", error.message);
    ArrowSchemaRelease(&schema);
    return 1;
  }

  for (;;) {
    if (ArrowArrayStreamGetNext(stream, &array, &error) != NANOARROW_OK) {
      fprintf(stderr, "ipc_read: batch %" PRId64 ": %s\n", n_batches, error.message);
      break;
    }
    if (array.release == NULL) {
      printf("%" PRId64 " batches, %" PRId64 " rows\n", n_batches, n_rows);
      result = 0;
      break;
    }
    /* The reader validated the batch: DEFAULT only sets up the view. */
    if (ArrowArrayViewSetArray(&view, &array, &error) != NANOARROW_OK) {
      fprintf(stderr, "ipc_read: batch %" PRId64 ": %s\n", n_batches, error.message);
      ArrowArrayRelease(&array);
      break;
    }
    printf("batch %" PRId64 ": %" PRId64 " rows\n", n_batches, view.length);
    for (i = 0; i < view.length; i++) {
      printf("  ");
      PrintValue(&view, &schema, i);
      printf("\n");
    }
    n_batches++;
    n_rows += view.length;
    ArrowArrayRelease(&array);
  }

  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  return result;
}

int main(int argc, char** argv) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  FILE* file = stdin;
  int result;

  if (argc > 2) {
    fprintf(stderr, "usage: %s [INPUT]\n", argv[0]);
    return 2;
  }
  if (argc == 2 && strcmp(argv[1], "-") != 0) {
    file = fopen(argv[1], "rb");
    if (file == NULL) {
      perror(argv[1]);
      return 1;
    }
  }

  /* The input stream closes the file on release unless it is stdin. */
  if (ArrowIpcInputStreamInitFile(&input, file, file != stdin) != NANOARROW_OK) {
    fprintf(stderr, "ipc_read: could not create the input stream\n");
    if (file != stdin) fclose(file);
    return 1;
  }
  /* Takes ownership of input; IPC files are recognized by their magic. */
  if (ArrowIpcArrayStreamReaderInit(&stream, &input, NULL) != NANOARROW_OK) {
    fprintf(stderr, "ipc_read: could not create the stream reader\n");
    if (input.release != NULL) input.release(&input);
    return 1;
  }
  result = PrintStream(&stream);
  ArrowArrayStreamRelease(&stream);
  return result;
}
