// nanoarrow installs the C data interface structs, enums and small value types as
// nanoarrow/common/inline_types.h, reached through nanoarrow.h. Code that includes
// that path directly compiles here too: this library declares them in nanoarrow.h
// and the headers it includes, so that is what this name brings in.

#ifndef NANOARROW_COMMON_INLINE_TYPES_H_INCLUDED
#define NANOARROW_COMMON_INLINE_TYPES_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#endif
