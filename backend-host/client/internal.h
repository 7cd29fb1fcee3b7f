#pragma once
// Shared by the two handles: the checks and messages of the contract.

#include <filesystem>
#include <string>
#include <vector>
#include <string_view>

#include "absl/status/status.h"
#include "ppy/host/handle.h"

namespace ppy::host::internal {

/// The handshake's answer against the contract: the name asked for, the API
/// version (unless builtin), every pass at the `backend` stage.
absl::Status check_info(const BackendInfo& info, std::string_view expected_name, bool builtin);

/// E1905 with `backend 'x' (<origin>) failed during <call>: <cause>` plus the tail.
absl::Status call_failure(const BackendInfo& info, std::string_view call, std::string_view cause,
                          std::string_view tail);

/// What a backend says, made safe to relay: every control character escaped
/// (ppy/util/escape.h), so a backend cannot retitle or clear the user's
/// terminal, write its clipboard or hide text. Applied where the remote
/// handle takes text from a backend: its handshake, its answers, gRPC's words
/// about it and its stderr.
std::string from_backend(std::string_view text);

/// The same for a backend's error status: its message escaped, code and payloads kept.
absl::Status from_backend(const absl::Status& s);

/// `tail` indented under a heading, or empty; its lines stay lines, each escaped.
std::string tail_block(std::string_view tail);

/// The call an invocation is, in messages, until a step of it is known:
/// `emit`, `emit_program`, `build`, `validate` or `passes and validate`.
std::string_view action_call(const Invocation& r);

/// A session's refusal as the driver reports it: E1905 (the backend failed)
/// becomes a call failure naming the backend and `call`; a refusal (E1802,
/// E1801, E1904) stays as it is.
absl::Status from_session(const BackendInfo& info, std::string_view call, const absl::Status& s);

/// Checks a build's files and `outputs` (each path relative and inside the
/// build's folder; each output produced) and moves them into `out`.
absl::Status take_build_files(const BackendInfo& info, std::vector<BuildFile> files,
                              std::vector<std::string> outputs, InvocationResult& out);

/// Refuses a build file path that could land outside the output folder.
absl::Status check_relative_path(const BackendInfo& info, std::string_view path);

}  // namespace ppy::host::internal
