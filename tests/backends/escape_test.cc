// What a backend says reaches the user's terminal escaped: its toolchain
// detail, formats, refusals, notes and the tail of its stderr (issue 18, item 7).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "ppy/host/handle.h"
#include "ppy/ir/testing.h"
#include "ppy/util/error.h"

namespace fs = std::filesystem;
using ::testing::HasSubstr;

namespace ppy::host {
namespace {

/// No byte that a terminal acts on: C0 controls (bar newline and tab), DEL, C1.
void expect_inert(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    EXPECT_FALSE((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) << "byte " << int(c) << " at " << i << ": " << text;
    if (c == 0xC2 && i + 1 < text.size()) {
      auto d = static_cast<unsigned char>(text[i + 1]);
      EXPECT_FALSE(d >= 0x80 && d <= 0x9F) << "a C1 control at " << i << ": " << text;
    }
  }
}

class EscapeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    BackendEntry e;
    e.name = "shouting";
    e.distribution = "ppy-shouting";
    e.version = "1";
    e.manifest = fs::path(PPY_HOST_TEST_DIR) / "shouting.toml";
    e.executable = fs::path(PPY_HOST_TEST_DIR) / "ppy-test-shouting";
    auto h = connect_backend(e);
    ASSERT_TRUE(h.ok()) << h.status();
    handle_ = std::move(*h);
  }
  absl::StatusOr<InvocationResult> call(Invocation::Action action, const std::string& module) {
    auto m = ir::testing::small_module(module);
    Invocation inv;
    inv.action = action;
    inv.format = "shout";
    inv.modules = {m.get()};
    return handle_->invoke(inv);
  }
  std::unique_ptr<BackendHandle> handle_;
};

TEST_F(EscapeTest, HandshakeTextIsEscaped) {
  const BackendInfo& info = handle_->info();
  expect_inert(info.toolchain.detail);
  EXPECT_THAT(info.toolchain.detail, HasSubstr("sdk \\x1b[2J\\x1b]0;pwned\\x07\\x1b]52;c;cHduZWQ=\\x07 hidden\\x08"));
  EXPECT_THAT(info.toolchain.detail, HasSubstr("shown\\rover \\u009b31m \\x7f"));
  ASSERT_EQ(info.formats.size(), 1u);
  expect_inert(info.formats[0].description);
  auto t = handle_->toolchain_status();
  ASSERT_TRUE(t.ok()) << t.status();
  expect_inert(t->detail);
}

TEST_F(EscapeTest, RefusalsAreEscaped) {
  auto r = call(Invocation::Action::Validate, "refused");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1802");
  expect_inert(std::string(r.status().message()));
  EXPECT_THAT(error_text(r.status()), HasSubstr("op \\x1b[2J"));
}

TEST_F(EscapeTest, NotesAreEscaped) {
  auto r = call(Invocation::Action::Build, "m");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->notes.size(), 1u);
  expect_inert(r->notes[0]);
  EXPECT_THAT(r->notes[0], HasSubstr("note \\x1b[2J"));
}

TEST_F(EscapeTest, TheStderrTailKeepsItsLinesEscaped) {
  auto r = call(Invocation::Action::Emit, "m");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1905");
  std::string text(r.status().message());
  expect_inert(text);
  EXPECT_THAT(text, HasSubstr("\n  | tail \\x1b[2J\\x1b]0;pwned\\x07"));
  EXPECT_THAT(text, HasSubstr("\n  | second line"));
}

}  // namespace
}  // namespace ppy::host
