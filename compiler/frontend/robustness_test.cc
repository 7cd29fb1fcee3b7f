// Mutated corpus programs: the frontend never crashes, and whatever it accepts
// verifies. A deterministic, always-on cousin of tests/fuzz/frontend_fuzz.cc.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::frontend {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

std::string mutate(const std::string& src, std::mt19937& rng) {
  static const char* tokens[] = {"(", ")", "[", "]", ":", "\n", "    ", "\t", "if ", "else", "for ", "while ",
                                 "return ", "-", "**", "//", "%", " and ", " not ", "\"", "'", "\\", "#",
                                 "0", "1.5", "9223372036854775808", "x", "xs", "[0] * 3", "print(", ",", "=",
                                 "lambda", "def f() -> int:\n", "break", "continue", "True", "None", ".", "@"};
  std::string s = src;
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    size_t at = rng() % s.size();
    switch (rng() % 5) {
      case 0: s.erase(at, 1 + rng() % 8); break;
      case 1: s.insert(at, tokens[rng() % std::size(tokens)]); break;
      case 2: s[at] = static_cast<char>(rng() % 128); break;
      case 3: {
        auto ls = lines_of(s);
        if (ls.size() > 2) {
          std::swap(ls[rng() % ls.size()], ls[rng() % ls.size()]);
          s.clear();
          for (auto& l : ls) s += l + "\n";
        }
        break;
      }
      default: {
        auto ls = lines_of(s);
        if (!ls.empty()) {
          size_t i = rng() % ls.size();
          ls.insert(ls.begin() + static_cast<long>(rng() % (ls.size() + 1)), ls[i]);
          s.clear();
          for (auto& l : ls) s += l + "\n";
        }
      }
    }
  }
  return s;
}

TEST(Robustness, MutatedCorpusNeverCrashesAndAcceptedIRVerifies) {
  std::vector<std::string> sources;
  for (const char* dir : {"tests/programs", "tests/refused"})
    for (auto& e : fs::recursive_directory_iterator(fs::path(PPY_SOURCE_DIR) / dir))
      if (e.path().extension() == ".ppy") {
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        sources.push_back(ss.str());
      }
  std::sort(sources.begin(), sources.end());
  ASSERT_GT(sources.size(), 60u);
  std::mt19937 rng(12345);
  int accepted = 0, refused = 0;
  // PPY_ROBUST_ROUNDS raises the count for a longer local run.
  int rounds = std::getenv("PPY_ROBUST_ROUNDS") ? std::atoi(std::getenv("PPY_ROBUST_ROUNDS")) : 60;
  for (int round = 0; round < rounds; ++round)
    for (const std::string& src : sources) {
      std::string text = mutate(src, rng);
      DiagnosticEngine d;
      LowerResult r = lower_module({"m", "m.ppy", text}, {}, d);
      render_diagnostics(d);
      if (!r.module) {
        ASSERT_TRUE(d.has_errors()) << text;
        ++refused;
        continue;
      }
      ++accepted;
      auto problems = ir::verify(*r.module);
      ASSERT_TRUE(problems.empty()) << problems[0].str() << "\n--- source ---\n" << text << "\n--- ir ---\n"
                                    << ir::print_module(*r.module);
    }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace ppy::frontend
