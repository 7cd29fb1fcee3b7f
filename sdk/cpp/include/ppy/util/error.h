#pragma once
/// The contract's E-codes carried on absl::Status as a typed payload
/// (kErrorCodePayload), never inside the message: a message is the words alone
/// (`no backend is called 'nope'; ...`), so wrapping, escaping or quoting it
/// cannot lose or forge a code. The CLI prints `error[E1903]: <message>`; across
/// the backend protocol the code travels as BackendError's code field.

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/cord.h"

namespace ppy {

/// The type URL of the payload that holds a status's E-code (`E1903`).
inline constexpr char kErrorCodePayload[] = "type.ppy.dev/ppy.ErrorCode";

/// `s` with the E-code `code` attached (replacing any it had); an OK status
/// stays OK, since it cannot carry a payload.
[[nodiscard]] inline absl::Status with_error_code(absl::Status s, std::string_view code) {
  s.SetPayload(kErrorCodePayload, absl::Cord(absl::string_view(code.data(), code.size())));
  return s;
}

/// A failed status of `kind` whose message is `message` and whose E-code is `code`.
[[nodiscard]] inline absl::Status coded_error(std::string_view code, std::string_view message,
                                              absl::StatusCode kind = absl::StatusCode::kFailedPrecondition) {
  return with_error_code(absl::Status(kind, absl::string_view(message.data(), message.size())), code);
}

/// The E-code a status carries (`E1903`), or empty when it carries none. Only
/// the payload counts: a message that happens to start `E1234: ` has no code.
inline std::string error_code(const absl::Status& s) {
  auto code = s.GetPayload(kErrorCodePayload);  // absl's optional, not std's
  return code ? std::string(*code) : std::string();
}

/// The message as a std::string (Debian's Abseil has its own string_view). It
/// never holds the code: that is error_code's.
inline std::string error_text(const absl::Status& s) { return std::string(s.message()); }

}  // namespace ppy
