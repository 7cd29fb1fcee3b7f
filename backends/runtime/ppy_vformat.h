/* ppy_vformat.h: `str.format` and `%`-formatting of a template known only at
 * run time (a template in a variable, a nested field in a spec, `%(name)s`,
 * `*` widths), and of a template whose mistakes python3 raises at run time
 * (docs/runtime.md, "Strings"). The compiler gives each argument with its
 * kind to a builder, then asks for the text; the runtime parses the template
 * as CPython's does and raises CPython's exception with its message.
 */
#ifndef PPY_VFORMAT_H
#define PPY_VFORMAT_H

#include "ppy_str.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

/** A builder for `tmpl` (typed as a str, the IR's `ptr<i8>`, but only these functions read it):
 * its arguments are added in order. */
PPY_RT_API ppy_str* ppy_vfmt_new(const ppy_str* tmpl);
/** Adds an argument: positional when `name` is empty, else the keyword `name`
 * (a `%(name)s` key). Each answers the builder. */
PPY_RT_API ppy_str* ppy_vfmt_i64(ppy_str* b, const ppy_str* name, int64_t v);
PPY_RT_API ppy_str* ppy_vfmt_bool(ppy_str* b, const ppy_str* name, int64_t v);
PPY_RT_API ppy_str* ppy_vfmt_f64(ppy_str* b, const ppy_str* name, double v);
PPY_RT_API ppy_str* ppy_vfmt_str(ppy_str* b, const ppy_str* name, const ppy_str* v);
/** Any other value, given by its str(), its repr() and its type's name. */
PPY_RT_API ppy_str* ppy_vfmt_obj(ppy_str* b, const ppy_str* name, const ppy_str* str, const ppy_str* repr,
                              const ppy_str* type);
/** `tmpl.format(*positional, **keywords)`. */
PPY_RT_API ppy_str* ppy_vfmt_format(ppy_str* b);
/** `tmpl % args`: `how` 0 for one value, 1 for a tuple (the positional
 * arguments), 2 for a dict (the keywords). */
PPY_RT_API ppy_str* ppy_vfmt_percent(ppy_str* b, int64_t how);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_VFORMAT_H */
