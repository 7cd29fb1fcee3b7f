#pragma once
// Shared by the two handles: the checks and messages of the contract.

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "ppy/host/handle.h"

namespace ppy::host::internal {

/// The handshake's answer against the contract: the name asked for, the API
/// version (unless builtin), every pass at the `backend` stage.
absl::Status check_info(const BackendInfo& info, std::string_view expected_name, bool builtin);

/// `E1905: backend 'x' (<origin>) failed during <call>: <cause>` plus the tail.
absl::Status call_failure(const BackendInfo& info, std::string_view call, std::string_view cause,
                          std::string_view tail);

/// `tail` indented under a heading, or empty.
std::string tail_block(std::string_view tail);

/// The format an emit asks for, checked against the action's scope (E1802).
absl::StatusOr<const EmitFormat*> format_for(const BackendInfo& info, const Invocation& request);

/// E1802 when an artifact's type does not match its format.
absl::Status check_artifact_type(const BackendInfo& info, const EmitFormat& format, bool binary);

/// Refuses a build file path that could land outside the output folder.
absl::Status check_relative_path(const BackendInfo& info, std::string_view path);

}  // namespace ppy::host::internal
