// nanoarrow installs the inline buffer and bitmap functions as
// nanoarrow/common/inline_buffer.h, reached through nanoarrow.h. Code that includes
// that path directly compiles here too: this library declares them in nanoarrow.h
// and the headers it includes, so that is what this name brings in.

#ifndef NANOARROW_COMMON_INLINE_BUFFER_H_INCLUDED
#define NANOARROW_COMMON_INLINE_BUFFER_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#endif
