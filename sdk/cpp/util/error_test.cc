// E-codes on absl::Status (ppy/util/error.h): the code is a typed payload, and
// a message is never read for one.
#include "ppy/util/error.h"

#include "gtest/gtest.h"

namespace ppy {
namespace {

TEST(ErrorCode, ACodedErrorCarriesItsCodeBesideItsWords) {
  absl::Status s = coded_error("E1903", "no backend is called 'nope'");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(error_code(s), "E1903");
  EXPECT_EQ(error_text(s), "no backend is called 'nope'");
  EXPECT_TRUE(s.GetPayload(kErrorCodePayload).has_value());

  absl::Status internal = coded_error("E1905", "it crashed", absl::StatusCode::kInternal);
  EXPECT_EQ(internal.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(error_code(internal), "E1905");
}

TEST(ErrorCode, AMessageThatStartsLikeACodeHasNone) {
  absl::Status s = absl::FailedPreconditionError("E1234: x");
  EXPECT_EQ(error_code(s), "");
  EXPECT_EQ(error_text(s), "E1234: x");  // the words stay whole
}

TEST(ErrorCode, ACodeIsNotInTheMessage) {
  absl::Status s = coded_error("E1802", "backend 'toy' cannot take gpu.barrier");
  EXPECT_EQ(std::string(s.message()).find("E1802"), std::string::npos);
}

TEST(ErrorCode, WithErrorCodeReplacesTheCodeAndKeepsTheRest) {
  absl::Status s = with_error_code(coded_error("E1905", "it crashed", absl::StatusCode::kInternal), "E1904");
  EXPECT_EQ(error_code(s), "E1904");
  EXPECT_EQ(error_text(s), "it crashed");
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
}

TEST(ErrorCode, AnOkStatusHasNoCode) {
  EXPECT_EQ(error_code(absl::OkStatus()), "");
  absl::Status ok = with_error_code(absl::OkStatus(), "E1001");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(error_code(ok), "");
}

TEST(ErrorCode, ACopyOrAnEscapedCopyThatKeepsThePayloadsKeepsTheCode) {
  absl::Status s = coded_error("E1801", "missing toy-sdk");
  absl::Status copy = s;
  EXPECT_EQ(error_code(copy), "E1801");
  absl::Status rebuilt(s.code(), "missing toy-sdk (rewritten)");  // words alone carry no code
  EXPECT_EQ(error_code(rebuilt), "");
}

}  // namespace
}  // namespace ppy
