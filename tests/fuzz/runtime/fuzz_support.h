#pragma once
/// What the runtime's fuzz targets share: the runtime's allocations freed
/// after each input, raises turned into C++ exceptions, strings made from
/// arbitrary bytes (valid UTF-8, as every ppy string is) and a code point
/// model to check them against.

#include <cstddef>
#include <cstdint>
#include <string>

#include "ppy_dict.h"
#include "ppy_print.h"
#include "ppy_runtime.h"
#include "ppy_str.h"

namespace ppy::fuzz {

/// A runtime raise (`ppy_rt_raise`), as the hook throws it.
struct Raised {
  std::string name, message;
};

/// Readies the runtime for one input: the raise hook, the collector; frees
/// what the previous input allocated. Call first in LLVMFuzzerTestOneInput.
void begin_input();

/// Aborts with `what` (libFuzzer saves the input): an invariant broke.
[[noreturn]] void broken(const std::string& what);
inline void check(bool ok, const std::string& what) {
  if (!ok) broken(what);
}

/// `bytes` made valid UTF-8: each byte that does not start a well-formed
/// sequence (no overlongs, no surrogates) becomes `?`.
std::string valid_utf8(std::string_view bytes);

/// Code points of valid UTF-8, and back.
std::u32string decode(std::string_view utf8);
std::string encode(std::u32string_view cps);

/// A runtime string of `s`, and a runtime string's bytes.
ppy_str* S(std::string_view s);
std::string T(const ppy_str* s);

/// Whether `s` is what a ppy_str must be: its length, code point count and
/// terminating NUL agree, and it is valid UTF-8.
void check_str(const ppy_str* s, const std::string& where);

}  // namespace ppy::fuzz
