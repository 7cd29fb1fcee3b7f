/* ppy_words.h: speedrt2 — the words a split makes, shared (docs/runtime.md,
 * "Shared words and small ints").
 *
 * Counting words spent a third of its time making a fresh string for every
 * word of every line (the allocation, then the collector sweeping it) and a
 * further tenth missing the cache on the dict's key when comparing it with
 * the word. A split now hands out the same handle for a word it made a
 * moment ago (a small cache of recent words, by their bytes), so a dict of
 * words finds the key by its handle, and nothing is allocated. Strings are
 * immutable and their identity cannot be seen (`is` between strs is refused),
 * so sharing is invisible to a program.
 */
#ifndef PPY_WORDS_H
#define PPY_WORDS_H

#include "ppy_dict.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)
/** The str of the `n` bytes at `b` (UTF-8; `ascii`: they are all ASCII): a
 * recently made one with the same bytes when the cache holds it. */
PPY_RT_INTERNAL ppy_str* ppy_words_piece(const char* b, int64_t n, int ascii);
/** The hash a dict gives `s` (ppy_hash_bytes of its bytes), read from where
 * the split that handed `s` out left it when it can be (typical: the split
 * hashes each word once, for its cache and for the dict the word goes to). */
PPY_RT_INTERNAL uint64_t ppy_words_hash(const ppy_str* s);
/** `str(v)` of 0 <= v < PPY_WORDS_SMALL_INTS: made once, then shared. */
PPY_RT_INTERNAL ppy_str* ppy_words_small_int(int64_t v);
enum { PPY_WORDS_SMALL_INTS = 1024 };
#endif

#endif /* PPY_WORDS_H */
