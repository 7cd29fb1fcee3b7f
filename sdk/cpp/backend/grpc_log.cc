// gRPC's own log lines, routed through ppy's (serve_grpc.h).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

#include "grpc/support/log.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace {

std::atomic<GrpcLog> g_unset{GrpcLog::Off};

/// A level's rank against gRPC's severities: a line is shown when its
/// severity is at least the level's.
gpr_log_severity lowest_shown(GrpcLog level) {
  switch (level) {
    case GrpcLog::Debug: return GPR_LOG_SEVERITY_DEBUG;
    case GrpcLog::Info: return GPR_LOG_SEVERITY_INFO;
    default: return GPR_LOG_SEVERITY_ERROR;
  }
}

std::string_view severity_name(gpr_log_severity s) {
  switch (s) {
    case GPR_LOG_SEVERITY_DEBUG: return "DEBUG";
    case GPR_LOG_SEVERITY_INFO: return "INFO";
    default: return "ERROR";
  }
}

void log_line(gpr_log_func_args* args) {
  GrpcLog level = grpc_log_level(g_unset.load());
  if (level == GrpcLog::Off || args->severity < lowest_shown(level)) return;
  std::string_view file = args->file ? args->file : "?";
  if (size_t slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  // Not gRPC's `E1203 16:28:48 ...` prefix: that reads as a ppy error code.
  std::string line = str_cat("grpc (", severity_name(args->severity), " ", file, ":", args->line,
                             "): ", std::string_view(args->message ? args->message : ""), "\n");
  std::fputs(line.c_str(), stderr);
}

}  // namespace

GrpcLog grpc_log_level(GrpcLog unset) {
  const char* v = std::getenv(kGrpcLogEnv);
  if (!v) return unset;
  std::string_view s = v;
  if (s.empty() || s == "0" || s == "off" || s == "none") return GrpcLog::Off;
  if (s == "1" || s == "error") return GrpcLog::Error;
  if (s == "info") return GrpcLog::Info;
  if (s == "debug") return GrpcLog::Debug;
  return unset;
}

void route_grpc_logging(GrpcLog unset) {
  static std::once_flag once;
  std::call_once(once, [unset] {
    g_unset = unset;
    // gRPC makes lines below ERROR only when asked to (GRPC_VERBOSITY, or this).
    GrpcLog level = grpc_log_level(unset);
    if (level == GrpcLog::Info || level == GrpcLog::Debug) gpr_set_log_verbosity(lowest_shown(level));
    gpr_set_log_function(log_line);
  });
}

}  // namespace ppy
