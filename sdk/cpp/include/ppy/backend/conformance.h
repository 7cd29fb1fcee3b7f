#pragma once
/// The contract's checks, run against a backend through the protocol: what
/// `ppy conformance NAME` runs against an installed backend (a spawned helper or
/// an endpoint), and what a vendor's own tests run in-process
/// (`run_conformance_in_process`, or `ppy/backend/conformance_gtest.h`). They
/// speak only the wire protocol, so a backend in any language is checked alike.
///
/// Emits and builds are asked for a two-module program as the frontend lowers
/// one: `app` (`@app_main` calls `@lib_f` through a declaration) and `lib`
/// (defines `@lib_f`), so a program-scoped backend may link its modules.
///
/// Each check says what was expected and what came back. The checks, in order:
///   handshake            name, a declared API version literal (the driver's),
///                        formats with a scope, passes at the `backend` stage
///   fingerprint          the same across calls and across processes
///   emit <format>        every module-scoped format emits, one artifact per
///                        module, text or bytes as declared
///   emit_program <fmt>   every program-scoped format, one artifact
///   unknown format       refused (UNSUPPORTED), the backend still serving
///   wrong scope          a format asked through the other scope is refused
///   validate refusal     a device kernel refused with backend, what,
///                        capability and location (or accepted)
///   passes keep IR valid the modules after the backend stage's passes verify
///   build                files inside the folder, every listed output sent
///   determinism          the same request answers the same bytes
///   short deadline       a 1 ms deadline ends the call cleanly; it serves on
///   cancellation         a cancelled call ends cleanly; it serves on
///   concurrent calls     several sessions at once on one server agree
///   missing toolchain    with a table that makes it unavailable, a format
///                        needing it is refused as TOOLCHAIN (E1801)

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "ppy/backend/backend.h"

namespace ppy::conformance {

struct Check {
  enum class Outcome { Pass, Fail, Skip };
  std::string name;
  Outcome outcome = Outcome::Pass;
  std::string expected;
  std::string got;

  bool failed() const { return outcome == Outcome::Fail; }
  /// `ok   handshake: expected ...; got ...` (`FAIL`, `skip`).
  std::string line() const;
};

struct Settings {
  /// The backend's table (`[tool.ppy.backends.NAME]`) for every call.
  Options options;
  /// The name it must answer (empty: any).
  std::string name;
  /// A table under which its toolchain is missing (`sdk-version = "missing"`
  /// for the toy); without one the missing-toolchain check is skipped.
  std::optional<Options> missing_toolchain;
  /// The API version the driver speaks (what the backend must declare).
  int api_version = 1;
};

/// A new connection to the backend, on a new process (or server) each call, so
/// that what must hold across processes is checked.
using Connect = std::function<absl::StatusOr<std::shared_ptr<grpc::Channel>>()>;

/// Runs every check; never throws. A connection that cannot be made fails the
/// handshake check and skips the rest.
std::vector<Check> run_conformance(const Connect& connect, const Settings& settings);

/// The same against a backend served in this process (`serve_in_process`).
std::vector<Check> run_conformance_in_process(BackendFactory factory, const Settings& settings = {});

/// Whether every check passed (skips pass).
bool all_passed(const std::vector<Check>& checks);

}  // namespace ppy::conformance
