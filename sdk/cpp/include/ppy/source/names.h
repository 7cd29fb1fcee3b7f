#pragma once
/// Spelling IR names and strings in a C-like source language (C, Python,
/// JavaScript): what every source-emitting backend writes and none should have
/// to get wrong on its own. Part of the installed SDK (`PpySdk::source`).

#include <string>
#include <string_view>

namespace ppy::source {

/// `s` as an identifier: [A-Za-z0-9_], every other byte `_`, and a leading `_`
/// before a digit; empty stays empty. Different names may meet (`a.b`, `a_b`):
/// a backend that needs them apart keeps a set of those it has given out.
[[nodiscard]] std::string identifier(std::string_view s);

/// `utf8` as a double-quoted literal that JavaScript and Python 3 read back as
/// the same text: `"` and `\` escaped, `\n`, `\r`, `\t`, other control bytes and
/// DEL as `\xHH`, every other byte (UTF-8 included) as it is. (C reads `\xHH`
/// greedily: a C backend spells strings itself.)
[[nodiscard]] std::string double_quoted(std::string_view utf8);

}  // namespace ppy::source
