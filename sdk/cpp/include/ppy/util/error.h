#pragma once
/// The contract's E-codes carried on absl::Status: the message starts with the
/// code and ": " (`E1903: no backend is called 'nope'; ...`). The CLI prints it
/// as `error[E1903]: ...`.

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace ppy {

/// A failed status whose message is `<code>: <message>`.
inline absl::Status coded_error(std::string_view code, std::string_view message,
                                absl::StatusCode kind = absl::StatusCode::kFailedPrecondition) {
  std::string m(code);
  m += ": ";
  m += message;
  return absl::Status(kind, m);
}

/// The E-code a status carries (`E1903`), or empty.
inline std::string error_code(const absl::Status& s) {
  std::string_view m(s.message().data(), s.message().size());
  if (m.size() >= 7 && m[0] == 'E' && m.substr(5, 2) == ": ") return std::string(m.substr(0, 5));
  return {};
}

/// The message without its code prefix.
inline std::string error_text(const absl::Status& s) {
  std::string_view m(s.message().data(), s.message().size());
  return std::string(error_code(s).empty() ? m : m.substr(7));
}

}  // namespace ppy
