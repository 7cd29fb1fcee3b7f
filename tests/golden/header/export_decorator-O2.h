/* The exports of module export_decorator, written by ppy's c backend. */
#ifndef PPY_EXPORT_DECORATOR_H
#define PPY_EXPORT_DECORATOR_H

#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

int64_t export_decorator_square(int64_t x);
double export_decorator_mean(double a, double b);

#ifdef __cplusplus
}
#endif

#endif /* PPY_EXPORT_DECORATOR_H */
