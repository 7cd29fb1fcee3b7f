/* ppy_time.c: the `time` module's clocks and sleep (ppy_time.h). */
#include "ppy_time.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

#include <errno.h>
#include <math.h>
#include <time.h>

/* POSIX's clock functions, declared here: the runtime compiles as strict
 * -std=c11, where <time.h> leaves them out (clockid_t is an int on Linux). */
int clock_gettime(int clock_id, struct timespec* tp);
int nanosleep(const struct timespec* req, struct timespec* rem);

enum { PPY_TIME_REALTIME = 0, PPY_TIME_MONOTONIC = 1, PPY_TIME_PROCESS = 2 };

static int64_t ppy_time_ns_of(int clock_id) {
  struct timespec ts;
  if (clock_gettime(clock_id, &ts) != 0) ppy_rt_raise("OSError", "clock_gettime failed");
  return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

/** Nanoseconds as seconds, as CPython's _PyTime_AsSecondsDouble. */
static double ppy_time_seconds(int64_t ns) {
  if (ns % 1000000000 == 0) return (double)(ns / 1000000000);
  return (double)ns / 1e9;
}

PPY_RT_API double ppy_time_time(void) { return ppy_time_seconds(ppy_time_ns_of(PPY_TIME_REALTIME)); }
PPY_RT_API double ppy_time_perf_counter(void) { return ppy_time_seconds(ppy_time_ns_of(PPY_TIME_MONOTONIC)); }
PPY_RT_API double ppy_time_monotonic(void) { return ppy_time_seconds(ppy_time_ns_of(PPY_TIME_MONOTONIC)); }
PPY_RT_API double ppy_time_process_time(void) { return ppy_time_seconds(ppy_time_ns_of(PPY_TIME_PROCESS)); }
PPY_RT_API int64_t ppy_time_time_ns(void) { return ppy_time_ns_of(PPY_TIME_REALTIME); }
PPY_RT_API int64_t ppy_time_perf_counter_ns(void) { return ppy_time_ns_of(PPY_TIME_MONOTONIC); }
PPY_RT_API int64_t ppy_time_monotonic_ns(void) { return ppy_time_ns_of(PPY_TIME_MONOTONIC); }

PPY_RT_API void ppy_time_sleep(double secs) {
  if (isnan(secs)) ppy_rt_raise("ValueError", "Invalid value NaN (not a number)");
  if (secs < 0) ppy_rt_raise("ValueError", "sleep length must be non-negative");
  if (isinf(secs) || secs > 9.2e9) ppy_rt_raise("OverflowError", "timestamp too large to convert to C _PyTime_t");
  struct timespec req;
  req.tv_sec = (time_t)secs;
  req.tv_nsec = (long)((secs - (double)req.tv_sec) * 1e9);
  while (nanosleep(&req, &req) != 0 && errno == EINTR) {
  }
}

#endif /* PPY_RT_DECLARATIONS_ONLY */
