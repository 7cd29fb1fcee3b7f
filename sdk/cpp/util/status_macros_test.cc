// PPY_RETURN_IF_ERROR / PPY_ASSIGN_OR_RETURN (ppy/util/status_macros.h): an
// early return that keeps the failure whole, a value moved out, and the
// expression evaluated once.
#include "ppy/util/status_macros.h"

#include <memory>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "ppy/util/error.h"

namespace ppy {
namespace {

/// A failure with everything a status can carry: kind, words, E-code, and a
/// payload of another type.
absl::Status rich_failure() {
  absl::Status s = coded_error("E1903", "no backend is called 'nope'", absl::StatusCode::kNotFound);
  s.SetPayload("type.example/other", absl::Cord("kept"));
  return s;
}

void expect_rich_failure(const absl::Status& s) {
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(error_text(s), "no backend is called 'nope'");
  EXPECT_EQ(error_code(s), "E1903");
  auto other = s.GetPayload("type.example/other");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(std::string(*other), "kept");
}

/// Counts its calls, so a test sees how often the macro evaluated it.
struct Step {
  int calls = 0;
  absl::Status status;
  absl::Status run() {
    ++calls;
    return status;
  }
};

absl::Status two_steps(Step& first, Step& second, bool& reached_end) {
  PPY_RETURN_IF_ERROR(first.run());
  PPY_RETURN_IF_ERROR(second.run());
  reached_end = true;
  return absl::OkStatus();
}

TEST(ReturnIfError, AFailureReturnsEarlyAndWhole) {
  Step first{0, rich_failure()}, second;
  bool reached_end = false;
  absl::Status s = two_steps(first, second, reached_end);
  expect_rich_failure(s);
  EXPECT_EQ(first.calls, 1);
  EXPECT_EQ(second.calls, 0);  // returned before the next step
  EXPECT_FALSE(reached_end);
}

TEST(ReturnIfError, SuccessGoesOnAndEvaluatesEachStepOnce) {
  Step first, second;
  bool reached_end = false;
  EXPECT_TRUE(two_steps(first, second, reached_end).ok());
  EXPECT_EQ(first.calls, 1);
  EXPECT_EQ(second.calls, 1);
  EXPECT_TRUE(reached_end);
}

absl::StatusOr<int> status_or_from_step(Step& step) {
  PPY_RETURN_IF_ERROR(step.run());
  return 7;
}

TEST(ReturnIfError, WorksInAFunctionReturningStatusOr) {
  Step failing{0, rich_failure()};
  absl::StatusOr<int> r = status_or_from_step(failing);
  ASSERT_FALSE(r.ok());
  expect_rich_failure(r.status());
  Step fine;
  EXPECT_EQ(status_or_from_step(fine).value_or(0), 7);
}

/// A check built with braces: a comma outside any parentheses.
struct Equal {
  int a, b;
  absl::Status run() const { return a == b ? absl::OkStatus() : absl::InvalidArgumentError("differ"); }
};

absl::Status equal(int a, int b) {
  PPY_RETURN_IF_ERROR(Equal{a, b}.run());
  return absl::OkStatus();
}

TEST(ReturnIfError, AnExpressionMayHoldCommas) {
  EXPECT_TRUE(equal(1, 1).ok());
  EXPECT_EQ(equal(1, 2).message(), "differ");
}

/// Produces a move-only value (or a failure) and counts its calls.
struct Source {
  int calls = 0;
  absl::Status failure;
  absl::StatusOr<std::unique_ptr<std::string>> next(std::string text) {
    ++calls;
    if (!failure.ok()) return failure;
    return std::make_unique<std::string>(std::move(text));
  }
};

absl::StatusOr<std::string> join(Source& source) {
  PPY_ASSIGN_OR_RETURN(std::unique_ptr<std::string> a, source.next("a"));
  PPY_ASSIGN_OR_RETURN(auto b, source.next("b"));  // a second temporary in the same scope
  std::unique_ptr<std::string> c;
  PPY_ASSIGN_OR_RETURN(c, source.next("c"));  // an existing variable
  return *a + *b + *c;
}

TEST(AssignOrReturn, MovesAMoveOnlyValueOutOnceEach) {
  Source source;
  absl::StatusOr<std::string> r = join(source);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "abc");
  EXPECT_EQ(source.calls, 3);
}

TEST(AssignOrReturn, AFailureReturnsEarlyAndWhole) {
  Source source{0, rich_failure()};
  absl::StatusOr<std::string> r = join(source);
  ASSERT_FALSE(r.ok());
  expect_rich_failure(r.status());
  EXPECT_EQ(source.calls, 1);  // stopped at the first
}

absl::Status into_status(Source& source, std::string& out) {
  PPY_ASSIGN_OR_RETURN(auto p, source.next("x"));
  out = *p;
  return absl::OkStatus();
}

TEST(AssignOrReturn, WorksInAFunctionReturningStatus) {
  Source failing{0, rich_failure()};
  std::string out = "untouched";
  expect_rich_failure(into_status(failing, out));
  EXPECT_EQ(out, "untouched");
  Source fine;
  EXPECT_TRUE(into_status(fine, out).ok());
  EXPECT_EQ(out, "x");
  EXPECT_EQ(fine.calls, 1);
}

/// A template argument list with a comma in the expression is taken whole.
template <typename A, typename B>
absl::StatusOr<int> sum(A a, B b) {
  return static_cast<int>(a + b);
}

absl::StatusOr<int> with_comma() {
  PPY_ASSIGN_OR_RETURN(int n, sum<int, long>(2, 3));
  return n;
}

TEST(AssignOrReturn, AnExpressionMayHoldCommas) { EXPECT_EQ(with_comma().value_or(0), 5); }

}  // namespace
}  // namespace ppy
