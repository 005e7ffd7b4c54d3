/* _ArrowParseUnionTypeIds(): the union type id parser that nanoarrow's header declares
 * and that programs written against nanoarrow (its R package's schema parser) call. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

Test(union_type_ids, parses_a_list_into_out) {
  int8_t out[128];
  memset(out, -1, sizeof(out));
  cr_assert_eq(_ArrowParseUnionTypeIds("0,5,127", out), 3);
  cr_assert_eq(out[0], 0);
  cr_assert_eq(out[1], 5);
  cr_assert_eq(out[2], 127);
  cr_assert_eq(out[3], -1, "nothing written past the last id");
}

Test(union_type_ids, counts_without_out) {
  cr_assert_eq(_ArrowParseUnionTypeIds("3,1,2,0", NULL), 4);
  cr_assert_eq(_ArrowParseUnionTypeIds("9", NULL), 1);
}

Test(union_type_ids, empty_list_is_zero_ids) {
  int8_t out[1] = {42};
  cr_assert_eq(_ArrowParseUnionTypeIds("", out), 0);
  cr_assert_eq(out[0], 42);
}

Test(union_type_ids, rejects_malformed_lists) {
  int8_t out[128];
  cr_assert_eq(_ArrowParseUnionTypeIds(NULL, out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("1,", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds(",1", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("1,,2", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("1;2", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("a", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("-1", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("128", out), -1);
  cr_assert_eq(_ArrowParseUnionTypeIds("0,99999999999999999999", out), -1);
}

Test(union_type_ids, never_writes_more_than_128_ids) {
  /* 129 ids: one more than out can hold. */
  char text[129 * 2 + 1];
  int8_t out[129];
  int i;
  for (i = 0; i < 129; i++) {
    text[2 * i] = '1';
    text[2 * i + 1] = ',';
  }
  text[2 * 129 - 1] = '\0';
  memset(out, -7, sizeof(out));
  cr_assert_eq(_ArrowParseUnionTypeIds(text, out), -1);
  cr_assert_eq(out[128], -7);
  text[2 * 128 - 1] = '\0'; /* exactly 128 ids */
  cr_assert_eq(_ArrowParseUnionTypeIds(text, out), 128);
  cr_assert_eq(out[127], 1);
}

Test(union_type_ids, agrees_with_schema_view) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  int8_t out[128];
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+ud:4,2"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[1], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(_ArrowParseUnionTypeIds(view.union_type_ids, out), 2);
  cr_assert_eq(out[0], 4);
  cr_assert_eq(out[1], 2);
  ArrowSchemaRelease(&schema);
}

Test(union_type_ids, will_equal_child_indices_only_for_0_to_n_minus_1) {
  char text[512]; /* "0,1,...,127" is 401 bytes */
  int i;
  cr_assert(_ArrowUnionTypeIdsWillEqualChildIndices("", 0));
  cr_assert(_ArrowUnionTypeIdsWillEqualChildIndices("0", 1));
  cr_assert(_ArrowUnionTypeIdsWillEqualChildIndices("0,1,2", 3));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices("0,1", 1));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices("0", 2));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices(",", 0));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices("1", 1));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices("1,0", 2));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices(NULL, 0));
  /* 128 ids 0..127 do; a list too long to parse does not. */
  text[0] = '\0';
  for (i = 0; i < 128; i++) {
    sprintf(text + strlen(text), i == 0 ? "%d" : ",%d", i);
  }
  cr_assert(_ArrowUnionTypeIdsWillEqualChildIndices(text, 128));
  cr_assert_not(_ArrowUnionTypeIdsWillEqualChildIndices(text, 127));
}

Test(union_type_ids, is_little_endian_agrees_with_the_bytes_of_an_integer) {
  const uint32_t one = 1;
  unsigned char bytes[4];
  memcpy(bytes, &one, 4);
  cr_assert_eq(_ArrowIsLittleEndian() != 0, bytes[0] == 1);
}
