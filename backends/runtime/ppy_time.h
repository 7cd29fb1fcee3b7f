/* ppy_time.h: the `time` module (docs/stdlib.md, "time"): the clocks python3
 * reads (CLOCK_REALTIME for time(), CLOCK_MONOTONIC for perf_counter() and
 * monotonic(), the process's CPU clock for process_time()) and sleep(). */
#ifndef PPY_TIME_H
#define PPY_TIME_H

#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API double ppy_time_time(void);
PPY_RT_API double ppy_time_perf_counter(void);
PPY_RT_API double ppy_time_monotonic(void);
PPY_RT_API double ppy_time_process_time(void);
/** `time.sleep(secs)`: ValueError for a negative or NaN length, as python3. */
PPY_RT_API void ppy_time_sleep(double secs);
PPY_RT_API int64_t ppy_time_time_ns(void);
PPY_RT_API int64_t ppy_time_perf_counter_ns(void);
PPY_RT_API int64_t ppy_time_monotonic_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* PPY_TIME_H */
