// Issue 38: four `ppy build`s of one project at once into one shared -o
// folder, the cache emptied first, one of them SIGKILLed about a second in;
// another printed its whole summary and then exited with status 137. Every
// signal the host sends now goes through a pidfd or to a group whose leader
// is its own unreaped child, and never to the driver itself; this repeats the
// scenario many times under load (CPU burners, and processes and threads
// started and ended all along so that pids are reused quickly: this
// machine's pid_max may be 32768), and every build but the victim must end
// well.
#include <algorithm>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include "e2e.h"

namespace ppy::e2e {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

constexpr int kModules = 25;
constexpr int kBuilds = 4;

/// Load for the test's length: busy threads, and a thread that keeps
/// starting short-lived processes and threads (pids and thread ids reused).
class Load {
 public:
  Load() {
    const unsigned cpus = std::max(2u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cpus; ++i)
      threads_.emplace_back([this] {
        volatile uint64_t x = 0;
        while (!stop_) {
          for (int k = 0; k < 100000; ++k) x = x + k;
          std::this_thread::sleep_for(200us);  // most of a core, not all of it
        }
      });
    threads_.emplace_back([this] {
      while (!stop_) {
        pid_t p = fork();
        if (p == 0) _exit(0);
        if (p > 0) waitpid(p, nullptr, 0);
        std::thread([] {}).join();
      }
    });
  }
  ~Load() {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

class ConcurrentKill : public E2E {
 protected:
  /// A project of kModules modules; the dummy sleeps in build so that the
  /// kill lands while calls are in flight.
  std::string project(int sleep_ms) {
    fs::path root = path("proj");
    std::string main = "\"\"\"The entry.\"\"\"\n";
    for (int i = 1; i < kModules; ++i) {
      write_file(root / "src/app" / ("m" + std::to_string(i) + ".ppy"),
                 "def f" + std::to_string(i) + "(n: int) -> int:\n    return n + " + std::to_string(i) + "\n");
      main += "from app.m" + std::to_string(i) + " import f" + std::to_string(i) + "\n";
    }
    main += "\n\ndef main() -> None:\n    s = 0\n";
    for (int i = 1; i < kModules; ++i) main += "    s += f" + std::to_string(i) + "(" + std::to_string(i) + ")\n";
    main += "    print(s)\n\n\nif __name__ == \"__main__\":\n    main()\n";
    write_file(root / "src/app/main.ppy", main);
    write_file(root / "pyproject.toml",
               "[project]\nname = \"kill\"\nversion = \"0.1\"\n\n[tool.ppy]\nsource-roots = [\"src\"]\n"
               "entry = \"app.main\"\n\n[tool.ppy.backends.dummy]\nsleep-ms = " +
                   std::to_string(sleep_ms) + "\n");
    return root.string();
  }

  Spawn build(const std::string& proj) const {
    Spawn s = spawn({"build", proj, "--backend", "dummy", "-o", p("out"), "-j", "2"}, sets({"main"}));
    s.env["TMPDIR"] = p("tmp");  // the run folders, where the test can see them
    s.timeout_s = 60;
    return s;
  }
};

TEST_F(ConcurrentKill, FourBuildsIntoOneFolderOneKilledTheOthersEndWell) {
  fs::create_directories(path("tmp"));
  const std::string proj = project(800);
  const auto ref_began = std::chrono::steady_clock::now();
  Result reference = ppy({"build", proj, "--backend", "dummy", "-o", p("ref")});
  // A build's length here: the kills land within it, whatever the machine's speed.
  const int64_t build_ms = std::max<int64_t>(
      400, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - ref_began).count());
  ASSERT_EQ(reference.status, 0) << reference;
  ASSERT_THAT(reference.err, HasSubstr("modules:  " + std::to_string(kModules)));
  const auto want = tree(path("ref"));
  ASSERT_EQ(want.size(), static_cast<size_t>(kModules));

  Load load;
  std::mt19937 rng(38);
  const auto began = std::chrono::steady_clock::now();
  int rounds = 0, killed = 0;
  // As many rounds as fit in ~45 s here, and at least 6.
  while (rounds < 6 || (std::chrono::steady_clock::now() - began < 45s && rounds < 40)) {
    ++rounds;
    SCOPED_TRACE("round " + std::to_string(rounds));
    std::error_code ec;
    fs::remove_all(fs::path(proj) / ".ppy-cache", ec);
    std::vector<Child> children;
    for (int i = 0; i < kBuilds; ++i) children.push_back(start(build(proj)));
    for (auto& c : children) ASSERT_GT(c.pid, 0);
    const int victim = static_cast<int>(rng() % kBuilds);
    // "About a second in": while it compiles, calls the helper (which sleeps
    // 800 ms in build) or writes -o.
    std::this_thread::sleep_for(std::chrono::milliseconds(build_ms / 10 + static_cast<int64_t>(rng() % (build_ms / 2))));
    ::kill(children[victim].pid, SIGKILL);
    std::vector<Result> results(kBuilds);
    {
      std::vector<std::thread> waiters;
      for (int i = 0; i < kBuilds; ++i) waiters.emplace_back([&, i] { results[i] = finish(children[i], 60); });
      for (auto& t : waiters) t.join();
    }
    for (int i = 0; i < kBuilds; ++i) {
      if (i == victim) {
        // Killed, unless it had already finished.
        EXPECT_TRUE(results[i].status == 128 + SIGKILL || results[i].status == 0) << results[i];
        killed += results[i].status == 128 + SIGKILL;
        continue;
      }
      EXPECT_EQ(results[i].status, 0) << "build " << i << " (the victim was " << victim << ")\n" << results[i];
      EXPECT_FALSE(results[i].timed_out) << results[i];
      EXPECT_THAT(results[i].err, HasSubstr("modules:  " + std::to_string(kModules))) << results[i];
    }
    // What -o holds is one build's whole output.
    EXPECT_EQ(tree(path("out")), want);
    if (HasFailure()) break;
  }
  std::cerr << "note: " << rounds << " rounds, " << killed << " victims killed before they ended\n";
  EXPECT_GE(killed, rounds / 4) << "the kills came too late to test anything";
  // No helper outlived its build: the run folders left are the victims'
  // (a SIGKILLed driver cannot remove its own), and the next driver's first
  // spawn sweeps them.
  Result sweep = run(build(proj));
  EXPECT_EQ(sweep.status, 0) << sweep;
  EXPECT_TRUE(fs::is_empty(path("tmp"))) << testing::PrintToString(names_in(path("tmp")));
}

}  // namespace
}  // namespace ppy::e2e
