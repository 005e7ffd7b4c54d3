/* Two copies of nanoarrow in one program: copy A (NANOARROW_NAMESPACE=NsA) and
 * copy B (NsB). Each exports data that the other imports through the C Data
 * Interface, so both copies must be linked in and working. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The ABI structs, as any C Data Interface consumer declares them. */
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

const char* copy_a_schema_init_symbol(void);
int copy_a_produce(int32_t first, int32_t n, struct ArrowSchema* schema,
                   struct ArrowArray* array);
int copy_a_consume(struct ArrowSchema* schema, struct ArrowArray* array, int64_t* sum);
const char* copy_b_schema_init_symbol(void);
int copy_b_produce(int32_t first, int32_t n, struct ArrowSchema* schema,
                   struct ArrowArray* array);
int copy_b_consume(struct ArrowSchema* schema, struct ArrowArray* array, int64_t* sum);

static int failures = 0;

static void Expect(int ok, const char* what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) failures++;
}

int main(void) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  int64_t sum = -1;

  Expect(strcmp(copy_a_schema_init_symbol(), "NsAArrowSchemaInit") == 0,
         "copy A calls NsAArrowSchemaInit");
  Expect(strcmp(copy_b_schema_init_symbol(), "NsBArrowSchemaInit") == 0,
         "copy B calls NsBArrowSchemaInit");

  /* A -> B: 1 + 2 + 3 + 4 = 10 */
  Expect(copy_a_produce(1, 4, &schema, &array) == 0, "copy A exports an array");
  Expect(copy_b_consume(&schema, &array, &sum) == 0 && sum == 10,
         "copy B imports it (sum 10)");
  Expect(schema.release == NULL && array.release == NULL, "copy B released it");

  /* B -> A: 10 + 11 + 12 = 33 */
  Expect(copy_b_produce(10, 3, &schema, &array) == 0, "copy B exports an array");
  Expect(copy_a_consume(&schema, &array, &sum) == 0 && sum == 33,
         "copy A imports it (sum 33)");

  return failures == 0 ? 0 : 1;
}
