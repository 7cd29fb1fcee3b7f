// Runs every tests/passes/<pass>/<case>.ppyir: parse the input, run the named
// passes, compare the printed module with the expected text (README.md).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/pipeline/passes.h"
#include "ppy/pipeline/pipeline.h"
#include "ppy/util/status_macros.h"

namespace ppy {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(PPY_SOURCE_DIR) / "tests" / "passes";

struct Case {
  std::vector<std::string> passes;  ///< empty with opt_level set for `-O<N>`
  int opt_level = -1;
  std::string input;
  std::string expected;
  bool expect_error = false;
  std::string head;  ///< the file up to and including the `// EXPECT:` line
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

Case parse_case(const std::string& text) {
  Case c;
  std::istringstream in(text);
  std::string line;
  bool after = false;
  while (std::getline(in, line)) {
    if (after) {
      c.expected += line + "\n";
      continue;
    }
    c.head += line + "\n";
    if (starts_with(line, "// RUN:")) {
      std::string spec = trim(line.substr(7));
      if (starts_with(spec, "-O")) {
        c.opt_level = std::atoi(spec.c_str() + 2);
        continue;
      }
      std::stringstream parts(spec);
      std::string p;
      while (std::getline(parts, p, ',')) c.passes.push_back(trim(p));
    } else if (starts_with(line, "// EXPECT-ERROR:")) {
      c.expect_error = true;
      c.expected = trim(line.substr(16));
      after = false;
      break;
    } else if (starts_with(line, "// EXPECT:")) {
      after = true;
    } else if (!starts_with(line, "//") || !c.input.empty()) {
      c.input += line + "\n";
    }
  }
  return c;
}

/// Runs the case; the printed module, or the error.
absl::StatusOr<std::string> run_case(const Case& c) {
  auto m = ir::parse_module(c.input);
  if (!m.ok()) return absl::InvalidArgumentError(std::string("input: ") + std::string(m.status().message()));
  if (auto v = ir::verify_status(**m); !v.ok())
    return absl::InvalidArgumentError(std::string("input does not verify: ") + std::string(v.message()));
  if (c.opt_level >= 0) {
    PPY_RETURN_IF_ERROR(pipeline::optimize_shared_ir(**m, c.opt_level));
  } else {
    ir::PassContext ctx;
    for (auto& name : c.passes) {
      PPY_ASSIGN_OR_RETURN(auto pass, pipeline::create_pass(name));
      PPY_RETURN_IF_ERROR(pass->run_on_module(**m, ctx).status());
    }
  }
  if (auto v = ir::verify_status(**m); !v.ok())
    return absl::InternalError(std::string("output does not verify: ") + std::string(v.message()));
  // The contract: what the shared pipeline hands on, canonicalize leaves alone.
  if (c.opt_level >= 0 || (!c.passes.empty() && c.passes.back() == "canonicalize")) {
    ir::PassContext ctx;
    PPY_ASSIGN_OR_RETURN(bool again, pipeline::create_canonicalize_pass()->run_on_module(**m, ctx));
    if (again) return absl::InternalError("canonicalize still had something to do after the passes");
  }
  return ir::print_module(**m);
}

std::vector<std::string> cases() {
  std::vector<std::string> out;
  if (!fs::exists(kRoot)) return out;
  for (auto& e : fs::recursive_directory_iterator(kRoot))
    if (e.is_regular_file() && e.path().extension() == ".ppyir") out.push_back(fs::relative(e.path(), kRoot).string());
  std::sort(out.begin(), out.end());
  return out;
}

class PassExpectations : public ::testing::TestWithParam<std::string> {};

TEST_P(PassExpectations, Matches) {
  fs::path path = kRoot / GetParam();
  Case c = parse_case(read(path));
  ASSERT_TRUE(!c.passes.empty() || c.opt_level >= 0) << path << ": no `// RUN:` line";
  ASSERT_FALSE(c.input.empty()) << path << ": no input";
  auto out = run_case(c);
  if (c.expect_error) {
    ASSERT_FALSE(out.ok()) << path << ": expected an error containing '" << c.expected << "', got\n" << *out;
    EXPECT_NE(std::string(out.status().message()).find(c.expected), std::string::npos) << out.status();
    return;
  }
  ASSERT_TRUE(out.ok()) << path << ": " << out.status();
  if (std::getenv("PPY_UPDATE_PASS_EXPECTATIONS")) {
    std::string head = c.head;
    if (head.find("// EXPECT:") == std::string::npos) head += "// EXPECT:\n";
    std::ofstream(path, std::ios::binary) << head << *out;
    return;
  }
  ASSERT_FALSE(c.expected.empty()) << path << ": no `// EXPECT:` part";
  EXPECT_EQ(*out, c.expected) << path;
  // The printed result reads back to itself: the expectation is real ppyir.
  auto again = ir::parse_module(*out);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(ir::print_module(**again), *out);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, PassExpectations, ::testing::ValuesIn(cases()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PassExpectations);

}  // namespace
}  // namespace ppy
