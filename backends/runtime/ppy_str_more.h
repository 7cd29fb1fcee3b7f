/* ppy_str_more.h: the str methods beyond ppy_str.h's (docs/runtime.md,
 * "Strings"): classification, case, padding with a fill, stripping a set of
 * characters, searching a range, partition, splitlines, split with maxsplit,
 * expandtabs and the prefix / suffix removals.
 *
 * Letters, digits and case are Unicode's, read from the one table
 * (ppy_unicode.h). Indices and widths count code points, as Python's do.
 */
#ifndef PPY_STR_MORE_H
#define PPY_STR_MORE_H

#include "ppy_str.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API int64_t ppy_str_isalpha(const ppy_str* s);
/** `s.split(None, n)`, `s.rsplit(None, n)`, `s.splitlines(keepends)`. */
PPY_RT_API ppy_list* ppy_str_split_ws_max(const ppy_str* s, int64_t maxsplit);
PPY_RT_API ppy_list* ppy_str_rsplit_ws_max(const ppy_str* s, int64_t maxsplit);
PPY_RT_API ppy_list* ppy_str_splitlines_keep(const ppy_str* s, int64_t keepends);
PPY_RT_API int64_t ppy_str_isalnum(const ppy_str* s);
PPY_RT_API int64_t ppy_str_isspace(const ppy_str* s);
PPY_RT_API int64_t ppy_str_islower(const ppy_str* s);
PPY_RT_API int64_t ppy_str_isupper(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_capitalize(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_title(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_swapcase(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_casefold(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_ljust(const ppy_str* s, int64_t width, const ppy_str* fill);
PPY_RT_API ppy_str* ppy_str_rjust(const ppy_str* s, int64_t width, const ppy_str* fill);
PPY_RT_API ppy_str* ppy_str_center_fill(const ppy_str* s, int64_t width, const ppy_str* fill);
PPY_RT_API ppy_str* ppy_str_strip_chars(const ppy_str* s, const ppy_str* chars);
PPY_RT_API ppy_str* ppy_str_lstrip_chars(const ppy_str* s, const ppy_str* chars);
PPY_RT_API ppy_str* ppy_str_rstrip_chars(const ppy_str* s, const ppy_str* chars);
PPY_RT_API int64_t ppy_str_find_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_rfind_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_index_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_rindex_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_count_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_startswith_range(const ppy_str* s, const ppy_str* prefix, int64_t start, int64_t end);
PPY_RT_API int64_t ppy_str_endswith_range(const ppy_str* s, const ppy_str* suffix, int64_t start, int64_t end);
PPY_RT_API ppy_list* ppy_str_partition(const ppy_str* s, const ppy_str* sep);
PPY_RT_API ppy_list* ppy_str_rpartition(const ppy_str* s, const ppy_str* sep);
PPY_RT_API ppy_list* ppy_str_splitlines(const ppy_str* s);
PPY_RT_API ppy_list* ppy_str_split_max(const ppy_str* s, const ppy_str* sep, int64_t maxsplit);
PPY_RT_API ppy_list* ppy_str_rsplit_max(const ppy_str* s, const ppy_str* sep, int64_t maxsplit);
PPY_RT_API ppy_list* ppy_str_rsplit_ws(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_expandtabs(const ppy_str* s, int64_t tabsize);
PPY_RT_API ppy_str* ppy_str_removeprefix(const ppy_str* s, const ppy_str* prefix);
PPY_RT_API ppy_str* ppy_str_removesuffix(const ppy_str* s, const ppy_str* suffix);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */
#endif /* PPY_STR_MORE_H */
