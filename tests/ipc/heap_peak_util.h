/* Peak memory of a piece of test code. Under AddressSanitizer the allocator hooks
 * count every live heap byte exactly (RSS would include ASan's shadow memory and
 * quarantine); elsewhere HeapPeakInChild() runs the code in a fork()ed child and
 * reports the child's peak RSS above the parent's, a coarser but real bound. */
#ifndef NANOARROW_TESTS_IPC_HEAP_PEAK_UTIL_H
#define NANOARROW_TESTS_IPC_HEAP_PEAK_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_PEAK_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_PEAK_HAVE_ASAN 1
#endif
#endif

#ifdef HEAP_PEAK_HAVE_ASAN
/* From the sanitizer runtime's allocator interface (declared here: gcc does not
 * install <sanitizer/allocator_interface.h>). */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                  size_t),
                                              void (*free_hook)(const volatile void*));
size_t __sanitizer_get_allocated_size(const volatile void* ptr);

static volatile int64_t g_heap_current_bytes;
static volatile int64_t g_heap_peak_bytes;

static inline void HeapPeakMallocHook(const volatile void* ptr, size_t size) {
  (void)ptr;
  g_heap_current_bytes += (int64_t)size;
  if (g_heap_current_bytes > g_heap_peak_bytes) g_heap_peak_bytes = g_heap_current_bytes;
}

static inline void HeapPeakFreeHook(const volatile void* ptr) {
  if (ptr != NULL) g_heap_current_bytes -= (int64_t)__sanitizer_get_allocated_size(ptr);
}

/* Starts a measurement. */
static inline void PeakReset(void) {
  static int installed = 0;
  if (!installed) {
    __sanitizer_install_malloc_and_free_hooks(&HeapPeakMallocHook, &HeapPeakFreeHook);
    installed = 1;
  }
  g_heap_peak_bytes = g_heap_current_bytes;
}

/* The heap bytes live now (take it right after PeakReset). */
static inline int64_t PeakBaseline(void) { return g_heap_current_bytes; }
/* Bytes allocated at the peak since PeakReset, beyond what was live then. */
static inline int64_t PeakSinceReset(int64_t baseline) {
  return g_heap_peak_bytes - baseline;
}
#define HEAP_PEAK_CAN_MEASURE 1
#else
static inline void PeakReset(void) {}
static inline int64_t PeakSinceReset(int64_t baseline) {
  (void)baseline;
  return 0;
}
static inline int64_t PeakBaseline(void) { return 0; }
#define HEAP_PEAK_CAN_MEASURE 0
#endif

/* Runs fn(arg) and sets *peak_out to the most memory it used at once, in bytes:
 * heap bytes under ASan (in this process), else the peak RSS of a fork()ed child
 * running it (the largest child this process waited for: measure once per test,
 * before anything else big, as Criterion runs each test in its own process) minus
 * this process's RSS when it forked (from /proc/self/statm, else its peak RSS).
 * Returns fn's result (in the
 * child case its exit status, so fn must return 0..255 and must not use
 * Criterion assertions), or -1 when the child could not be run. */
static inline int HeapPeakRun(int (*fn)(void* arg), void* arg, int64_t* peak_out) {
#ifdef HEAP_PEAK_HAVE_ASAN
  int64_t baseline;
  int result;
  PeakReset();
  baseline = PeakBaseline();
  result = fn(arg);
  *peak_out = PeakSinceReset(baseline);
  return result;
#else
  struct rusage self;
  struct rusage children;
  int64_t baseline;
  long pages = 0;
  long resident = 0;
  int status = 0;
  pid_t pid;
  FILE* statm = fopen("/proc/self/statm", "r");
  getrusage(RUSAGE_SELF, &self);
  baseline = (int64_t)self.ru_maxrss * 1024;
  if (statm != NULL) {
    if (fscanf(statm, "%ld %ld", &pages, &resident) == 2) {
      baseline = (int64_t)resident * (int64_t)sysconf(_SC_PAGESIZE);
    }
    fclose(statm);
  }
  pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) _exit(fn(arg) & 0xFF);
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  getrusage(RUSAGE_CHILDREN, &children);
  /* ru_maxrss is in KiB on Linux. */
  *peak_out = (int64_t)children.ru_maxrss * 1024 - baseline;
  return WEXITSTATUS(status);
#endif
}

#endif
