/* The UTF-8 check of `nanoarrow validate`, which reports string values that are
 * not valid UTF-8: the library's FULL validation does not check text, as
 * nanoarrow's does not. */

#include <inttypes.h>
#include <string.h>

#include "cli/cli.h"
#include "testing/testing_private.h"

/* path holds the names from the top-level column down ("a.b"); depth is bounded
 * by the schema, which the reader has already accepted. */
static ArrowErrorCode CliCheckUtf8(const struct ArrowSchema* schema,
                                   const struct ArrowArrayView* view, char* path,
                                   size_t path_size, struct ArrowError* error) {
  size_t path_length = strlen(path);
  int64_t i;

  if (view->storage_type == NANOARROW_TYPE_STRING ||
      view->storage_type == NANOARROW_TYPE_LARGE_STRING ||
      view->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    for (i = 0; i < view->length; i++) {
      struct ArrowStringView text;
      if (ArrowArrayViewIsNull(view, i)) continue;
      text = ArrowArrayViewGetStringUnsafe(view, i);
      if (ArrowTestingUtf8InvalidAt((const uint8_t*)text.data, text.size_bytes) >= 0) {
        ArrowErrorSet(error, "column '%s': expected valid UTF-8 at index %" PRId64, path,
                      i);
        return EINVAL;
      }
    }
  }

  for (i = 0; i < view->n_children && i < schema->n_children; i++) {
    const char* name = schema->children[i]->name != NULL ? schema->children[i]->name : "";
    if (path_length > 0) {
      snprintf(path + path_length, path_size - path_length, ".%s", name);
    } else {
      snprintf(path, path_size, "%s", name);
    }
    NANOARROW_RETURN_NOT_OK(
        CliCheckUtf8(schema->children[i], view->children[i], path, path_size, error));
    path[path_length] = '\0';
  }
  if (view->dictionary != NULL && schema->dictionary != NULL) {
    snprintf(path + path_length, path_size - path_length, "%s", "(dictionary)");
    NANOARROW_RETURN_NOT_OK(
        CliCheckUtf8(schema->dictionary, view->dictionary, path, path_size, error));
    path[path_length] = '\0';
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliValidateUtf8(const struct ArrowSchema* schema,
                               const struct ArrowArrayView* view,
                               struct ArrowError* error) {
  char path[256];
  path[0] = '\0';
  return CliCheckUtf8(schema, view, path, sizeof(path), error);
}
