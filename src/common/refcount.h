// Private: reference counts shared by the core's shared buffers and arrays
// (src/common/shared.c) and the IPC reader's bodies and dictionaries. C11 atomics
// where the compiler has them, else the GCC/Clang __atomic builtins (both are
// thread-safe), else a plain counter (arrays that share memory must then be
// released on one thread).

#ifndef NANOARROW_COMMON_REFCOUNT_H_INCLUDED
#define NANOARROW_COMMON_REFCOUNT_H_INCLUDED

// Not every user of this header calls every function (the core bundle has no use
// for ArrowRefIsUnique): clang warns about unused static inline functions of a .c
// file, which the single-file bundle makes of this header.
#if defined(__GNUC__) || defined(__clang__)
#define NANOARROW_REF_MAYBE_UNUSED __attribute__((unused))
#else
#define NANOARROW_REF_MAYBE_UNUSED
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && \
    !defined(__STDC_NO_ATOMICS__) && !defined(__cplusplus)
#include <stdatomic.h>
#define NANOARROW_ATOMIC_REFCOUNT 1
typedef atomic_long ArrowRefCount;
static inline void ArrowRefInitN(ArrowRefCount* rc, long n) { atomic_init(rc, n); }
static inline void ArrowRefAdd(ArrowRefCount* rc) {
  atomic_fetch_add_explicit(rc, 1, memory_order_relaxed);
}
static inline int ArrowRefDropN(ArrowRefCount* rc, long n) {
  return atomic_fetch_sub_explicit(rc, n, memory_order_acq_rel) == n;
}
NANOARROW_REF_MAYBE_UNUSED static inline int ArrowRefIsUnique(ArrowRefCount* rc) {
  return atomic_load_explicit(rc, memory_order_acquire) == 1;
}
#elif defined(__GNUC__) || defined(__clang__)
#define NANOARROW_ATOMIC_REFCOUNT 1
typedef long ArrowRefCount;
static inline void ArrowRefInitN(ArrowRefCount* rc, long n) { *rc = n; }
static inline void ArrowRefAdd(ArrowRefCount* rc) {
  __atomic_fetch_add(rc, 1, __ATOMIC_RELAXED);
}
static inline int ArrowRefDropN(ArrowRefCount* rc, long n) {
  return __atomic_fetch_sub(rc, n, __ATOMIC_ACQ_REL) == n;
}
NANOARROW_REF_MAYBE_UNUSED static inline int ArrowRefIsUnique(ArrowRefCount* rc) {
  return __atomic_load_n(rc, __ATOMIC_ACQUIRE) == 1;
}
#else
#define NANOARROW_ATOMIC_REFCOUNT 0
typedef long ArrowRefCount;
static inline void ArrowRefInitN(ArrowRefCount* rc, long n) { *rc = n; }
static inline void ArrowRefAdd(ArrowRefCount* rc) { ++*rc; }
static inline int ArrowRefDropN(ArrowRefCount* rc, long n) { return (*rc -= n) == 0; }
NANOARROW_REF_MAYBE_UNUSED static inline int ArrowRefIsUnique(ArrowRefCount* rc) { return *rc == 1; }
#endif

// One reference.
static inline void ArrowRefInit(ArrowRefCount* rc) { ArrowRefInitN(rc, 1); }
// Drops one reference; returns 1 when it was the last one.
static inline int ArrowRefDrop(ArrowRefCount* rc) { return ArrowRefDropN(rc, 1); }

#endif  // NANOARROW_COMMON_REFCOUNT_H_INCLUDED
