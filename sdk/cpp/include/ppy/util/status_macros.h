#pragma once
/// The two early returns every fallible step in the tree writes: pass a failed
/// absl::Status up unchanged, or take the value out of an absl::StatusOr. One
/// spelling instead of ~125 hand-written `if (!s.ok()) return s;` keeps the
/// failure untouched (code, message and payloads, so an E-code survives) and
/// lets the reader see at a glance which steps are plain propagation and which
/// add something to the error (those keep their hand-written check).
///
/// Each is a statement: do not use one as the lone body of an `if`/`else`
/// without braces (PPY_ASSIGN_OR_RETURN expands to several statements).

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

/// Evaluates the expression (an absl::Status) once and returns it from the enclosing
/// function when it failed. The function may return absl::Status or any
/// absl::StatusOr<T> (a failed Status converts to one). Variadic so that an
/// expression with a comma outside parentheses (`Make{a, b}.run()`) is whole.
#define PPY_RETURN_IF_ERROR(...)                                                                                \
  do {                                                                                                          \
    if (::absl::Status ppy_macros_status_ = (__VA_ARGS__); !ppy_macros_status_.ok()) return ppy_macros_status_; \
  } while (false)

/// Evaluates the expression (an absl::StatusOr<T>) once; when it failed, returns its
/// status from the enclosing function; otherwise moves the value into `lhs`,
/// which is a declaration (`auto x`, `std::string s`) or an existing variable.
/// The expression may contain commas (it is the variadic rest); a declared type
/// with a comma in it needs an alias or `auto`. The temporary's name is unique
/// per use, so several may share a scope.
#define PPY_ASSIGN_OR_RETURN(lhs, ...) \
  PPY_ASSIGN_OR_RETURN_IMPL_(PPY_STATUS_MACROS_CONCAT_(ppy_macros_statusor_, __COUNTER__), lhs, __VA_ARGS__)

// Implementation details; not for use outside this header.
#define PPY_STATUS_MACROS_CONCAT_INNER_(a, b) a##b
#define PPY_STATUS_MACROS_CONCAT_(a, b) PPY_STATUS_MACROS_CONCAT_INNER_(a, b)
#define PPY_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, ...) \
  auto tmp = (__VA_ARGS__);                       \
  if (!tmp.ok()) return std::move(tmp).status();  \
  lhs = *std::move(tmp)
