/* placeholder: being written */
#ifndef NANOARROW_ARRAY_VIEW_INLINE_H_INCLUDED
#define NANOARROW_ARRAY_VIEW_INLINE_H_INCLUDED
#include "nanoarrow/nanoarrow_types.h"
#endif
