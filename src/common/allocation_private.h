/* Internal declarations shared by the core sources in src/common (not installed). */

#ifndef NANOARROW_ALLOCATION_PRIVATE_H_INCLUDED
#define NANOARROW_ALLOCATION_PRIVATE_H_INCLUDED

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowPrivateCheckAllocation NANOARROW_SYMBOL(ArrowPrivateCheckAllocation)
#endif

/* Checks a request for n_items allocations of item_size bytes each, as a whole, before
 * code that allocates them one at a time starts: ENOMEM when the total does not fit in
 * an int64_t or, for a total of 1 MiB or more, when a single block of that size cannot
 * be had now (the block is freed at once, untouched). A count from a caller then fails
 * at once instead of after the allocations exhaust the machine. */
ArrowErrorCode ArrowPrivateCheckAllocation(int64_t n_items, int64_t item_size);

#endif
