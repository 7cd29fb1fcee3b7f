// The language's documented deviations from python3, end to end: what python3
// cannot be the oracle for (an i64 leaving its range is OverflowError in ppy,
// a big integer in Python) must still be the same on every road — `ppy run`
// (LLVM JIT), `ppy run --interp`, the python backend and the C backend's
// standalone program — at -O0 and -O3. The corpus (tests/programs) covers
// everything python3 can judge.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fs = std::filesystem;

namespace {

const std::string kPpy = PPY_BINARY_DIR "/bin/ppy";

struct Result {
  int status = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "status " << r.status << "\n--- stdout\n" << r.out << "--- stderr\n" << r.err;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The last line of `text` (without its newline).
std::string last_line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

class Lang : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "ppy-lang-e2e-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir_, ec);
    else std::cerr << "kept " << dir_ << "\n";
  }

  Result sh(const std::string& command) const {
    fs::path out = dir_ / ".out", err = dir_ / ".err";
    std::string full = "cd " + quote(dir_.string()) + " && (" + command + ") >" + quote(out.string()) + " 2>" +
                       quote(err.string());
    int raw = std::system(full.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
  }

  /// Runs `source` (a whole program) on every road at -O0 and -O3 and expects
  /// each to print `out`, then end with exit status 1 and `error` as stderr's
  /// last line (or status 0 when `error` is empty).
  void expect_every_road(const std::string& source, const std::string& out, const std::string& error) {
    std::ofstream(dir_ / "prog.ppy") << source;
    std::string ppy = quote(kPpy);
    bool have_cc = sh("command -v cc").status == 0;
    for (const char* level : {"0", "3"}) {
      std::vector<std::pair<std::string, std::string>> roads = {
          {"jit", ppy + " run -O" + level + " prog.ppy"},
          {"interp", ppy + " run --interp -O" + level + " prog.ppy"},
          {"python", ppy + " run --backend python -O" + level + " prog.ppy"},
      };
      if (have_cc)
        roads.push_back({"c", ppy + " emit c prog.ppy --standalone -O" + level +
                                  " -o prog.c && cc -std=c11 -O1 prog.c -o prog.exe -lm && ./prog.exe"});
      for (auto& [name, cmd] : roads) {
        Result r = sh(cmd);
        SCOPED_TRACE(name + std::string(" -O") + level);
        EXPECT_EQ(r.out, out) << r;
        EXPECT_EQ(r.status, error.empty() ? 0 : 1) << r;
        if (!error.empty()) EXPECT_EQ(last_line(r.err), error) << r;
      }
    }
  }

  fs::path dir_;
};

constexpr const char* kShiftOverflow = R"(def shift(a: int, b: int) -> int:
    return a << b


def main() -> None:
    print(shift(-1, 63))
    print(shift(0, 1000))
    print(shift(3, 61))
    print(shift(1, 63))


if __name__ == "__main__":
    main()
)";

TEST_F(Lang, ShiftLeavingI64IsOverflowErrorOnEveryRoad) {
  expect_every_road(kShiftOverflow, "-9223372036854775808\n0\n6917529027641081856\n", "OverflowError: integer overflow");
}

constexpr const char* kShiftCountPastWidth = R"(def main() -> None:
    n = 70
    x = 5
    x <<= n
    print(x)


if __name__ == "__main__":
    main()
)";

TEST_F(Lang, ShiftByTheWidthOrMoreOverflowsUnlessZero) {
  expect_every_road(kShiftCountPastWidth, "", "OverflowError: integer overflow");
}

}  // namespace
