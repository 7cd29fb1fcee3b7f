#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include "grpc/support/log.h"
#include "ppy/backend/serve_grpc.h"

namespace ppy {
namespace {

using ::testing::HasSubstr;

std::string logged(const char* level) {
  if (level) setenv(kGrpcLogEnv, level, 1);
  else unsetenv(kGrpcLogEnv);
  ::testing::internal::CaptureStderr();
  gpr_log(GPR_ERROR, "Handshake failed with fatal error %s", "SSL_ERROR_SSL");
  gpr_log(GPR_INFO, "an info line");
  std::string out = ::testing::internal::GetCapturedStderr();
  unsetenv(kGrpcLogEnv);
  return out;
}

// gRPC's `E1203 16:28:48 ... Handshake failed` reads as a ppy error code
// (issue 18): its lines are quiet unless PPY_GRPC_LOG asks, and never in that form.
TEST(GrpcLog, QuietUnlessAskedAndNeverLikeAnErrorCode) {
  route_grpc_logging();
  gpr_log_verbosity_init();  // what grpc_init does: ERROR and above (GRPC_VERBOSITY)
  EXPECT_EQ(logged(nullptr), "");
  EXPECT_EQ(logged("off"), "");
  std::string shown = logged("error");
  EXPECT_THAT(shown, HasSubstr("grpc (ERROR grpc_log_test.cc:"));
  EXPECT_THAT(shown, HasSubstr("): Handshake failed with fatal error SSL_ERROR_SSL\n"));
  EXPECT_THAT(shown, ::testing::Not(HasSubstr("an info line")));
  EXPECT_THAT(shown, ::testing::Not(::testing::ContainsRegex("(^|\n)E[0-9]{4} ")));
}

TEST(GrpcLog, LevelsFromTheEnvironment) {
  EXPECT_EQ(grpc_log_level(GrpcLog::Off), GrpcLog::Off);
  setenv(kGrpcLogEnv, "1", 1);
  EXPECT_EQ(grpc_log_level(GrpcLog::Off), GrpcLog::Error);
  setenv(kGrpcLogEnv, "debug", 1);
  EXPECT_EQ(grpc_log_level(GrpcLog::Off), GrpcLog::Debug);
  setenv(kGrpcLogEnv, "0", 1);
  EXPECT_EQ(grpc_log_level(GrpcLog::Error), GrpcLog::Off);
  setenv(kGrpcLogEnv, "loud", 1);  // not a level: as if unset
  EXPECT_EQ(grpc_log_level(GrpcLog::Error), GrpcLog::Error);
  unsetenv(kGrpcLogEnv);
  EXPECT_EQ(grpc_log_level(GrpcLog::Error), GrpcLog::Error);
}

}  // namespace
}  // namespace ppy
