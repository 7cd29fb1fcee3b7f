#include "ppy/host/discovery.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <toml++/toml.h>

#include "ppy/util/error.h"

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace ppy::host {
namespace {

class DiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ppy-discovery-XXXXXX";
    root_ = mkdtemp(tmpl);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// Writes `<dir>/<dist>/manifest.toml` and returns the folder `dir`.
  fs::path write(const std::string& dir, const std::string& dist, const std::string& text) {
    fs::path d = root_ / dir / dist;
    fs::create_directories(d);
    std::ofstream(d / "manifest.toml") << text;
    return root_ / dir;
  }
  static std::string manifest(const std::string& dist, const std::string& version, const std::string& backends,
                              const std::string& extra = "") {
    return "[distribution]\nname = \"" + dist + "\"\nversion = \"" + version + "\"\n" + backends + extra;
  }
  static std::string backend(const std::string& name) {
    return "[backends." + name + "]\nexecutable = \"bin/" + name + "\"\n";
  }

  fs::path root_;
};

TEST_F(DiscoveryTest, ListsBackendsWithoutStartingThem) {
  fs::path dir = write("a", "toy", manifest("ppy-toy", "0.1", backend("toy"), "[backend-formats]\ntoy = \"toy\"\n"));
  std::vector<fs::path> path{dir};
  auto index = ManifestIndex::scan(path);
  EXPECT_TRUE(index.problems().empty());
  ASSERT_EQ(index.backends().size(), 1u);
  const BackendEntry& e = index.backends()[0];
  EXPECT_EQ(e.name, "toy");
  EXPECT_EQ(e.distribution, "ppy-toy");
  EXPECT_EQ(e.version, "0.1");
  // The executable does not exist: discovery never looked at it.
  EXPECT_EQ(e.executable, dir / "toy" / "bin" / "toy");
  EXPECT_THAT(e.formats, ElementsAre("toy"));
  EXPECT_EQ(index.format_hint("toy"), &index.backends()[0]);
  EXPECT_EQ(index.format_hint("other"), nullptr);
  EXPECT_THAT(e.origin(), HasSubstr("ppy-toy 0.1 ("));
  auto found = index.lookup("toy");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, &index.backends()[0]);
}

TEST_F(DiscoveryTest, UnknownNameListsEveryBackendIncludingBuiltins) {
  std::vector<fs::path> path{write("a", "toy", manifest("ppy-toy", "0.1", backend("toy")))};
  auto index = ManifestIndex::scan(path);
  auto r = index.lookup("nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(error_code(r.status()), "E1903");
  EXPECT_EQ(error_text(r.status()), "no backend is called 'nope'; the backends are c, ir, llvm, nvvm, python, stablehlo, toy");
}

TEST_F(DiscoveryTest, AnUnknownNameSaysWhichManifestsCouldNotBeRead) {
  // The backend asked for may be the one whose manifest is broken.
  std::vector<fs::path> path{write("a", "toy", manifest("ppy-toy", "0.1", backend("toy"))),
                             write("b", "crash", manifest("crash", "1", backend("crashb") + "sandbox = \"paranoid\"\n"))};
  auto index = ManifestIndex::scan(path);
  ASSERT_EQ(index.problems().size(), 1u);
  auto r = index.lookup("crashb");
  EXPECT_EQ(error_code(r.status()), "E1903");
  EXPECT_THAT(error_text(r.status()), HasSubstr("no backend is called 'crashb'; the backends are "));
  EXPECT_THAT(error_text(r.status()), HasSubstr("; discovery also reported: " + index.problems()[0]));
  EXPECT_THAT(index.problems()[0], HasSubstr("paranoid"));
}

TEST_F(DiscoveryTest, BuiltinNameLooksUpAsBuiltin) {
  auto index = ManifestIndex::scan({});
  auto r = index.lookup("llvm");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, nullptr);
}

TEST_F(DiscoveryTest, DuplicateNameIsUnusableWhateverTheOrder) {
  fs::path d1 = write("p1", "a", manifest("a", "0.1", backend("twice") + backend("solo")));
  fs::path d2 = write("p2", "b", manifest("b", "0.2", backend("twice")));
  for (auto order : {std::vector<fs::path>{d1, d2}, std::vector<fs::path>{d2, d1}}) {
    auto index = ManifestIndex::scan(order);
    auto r = index.lookup("twice");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(error_code(r.status()), "E1903");
    EXPECT_EQ(error_text(r.status()),
              "backend 'twice' is registered by more than one distribution (a 0.1, b 0.2); uninstall all but one");
    EXPECT_EQ(index.duplicates().at("twice").size(), 2u);
    ASSERT_EQ(index.problems().size(), 1u);
    EXPECT_THAT(index.problems()[0], HasSubstr("registered by more than one"));
    EXPECT_TRUE(index.lookup("solo").ok());  // the rest of the distribution is fine
  }
}

TEST_F(DiscoveryTest, BuiltinNameIsReportedAndIgnored) {
  std::vector<fs::path> path{write("a", "evil", manifest("evil", "1.0", backend("llvm") + backend("fine")))};
  auto index = ManifestIndex::scan(path);
  ASSERT_EQ(index.problems().size(), 1u);
  EXPECT_THAT(index.problems()[0], HasSubstr("backend 'llvm' from evil 1.0 (" + (path[0] / "evil" / "manifest.toml").string()));
  EXPECT_THAT(index.problems()[0], HasSubstr("has a builtin backend's name, which is reserved; it is ignored"));
  ASSERT_EQ(index.backends().size(), 1u);
  EXPECT_EQ(index.backends()[0].name, "fine");
  EXPECT_EQ(*index.lookup("llvm"), nullptr);
}

// Every name the contract gives a builtin is reserved, whether or not the
// driver links that builtin (issue 18): a manifest registering one is
// reported with its path and never becomes a backend that could be started.
TEST_F(DiscoveryTest, EveryContractBuiltinNameIsReserved) {
  std::string backends;
  for (const char* name : {"llvm", "python", "c", "nvvm", "stablehlo", "ir"}) backends += backend(name);
  std::vector<fs::path> path{write("a", "squatter", manifest("squatter", "2.0", backends + backend("fine")))};
  for (const ManifestIndex& index :
       {ManifestIndex::scan(path), ManifestIndex::from_manifests(std::vector{path[0] / "squatter" / "manifest.toml"})}) {
    ASSERT_EQ(index.problems().size(), 6u);
    for (const std::string& p : index.problems()) {
      EXPECT_THAT(p, HasSubstr((path[0] / "squatter" / "manifest.toml").string()));
      EXPECT_THAT(p, HasSubstr("which is reserved; it is ignored"));
    }
    ASSERT_EQ(index.backends().size(), 1u);
    EXPECT_EQ(index.backends()[0].name, "fine");
    for (std::string_view name : kBuiltinBackends) {
      EXPECT_TRUE(is_builtin_backend_name(name));
      auto r = index.lookup(name);
      ASSERT_TRUE(r.ok()) << name;
      EXPECT_EQ(*r, nullptr) << name;  // the caller's builtin, or none: never the manifest's
    }
  }
  EXPECT_THAT(std::vector<std::string>(std::begin(kBuiltinBackends), std::end(kBuiltinBackends)),
              ElementsAre("c", "ir", "llvm", "nvvm", "python", "stablehlo"));
  EXPECT_FALSE(is_builtin_backend_name("toy"));
}

TEST_F(DiscoveryTest, FormatClaimedByTwoDistributionsIsDropped) {
  fs::path d = write("p", "a", manifest("a", "1", backend("alpha"), "[backend-formats]\nshared = \"alpha\"\nmine = \"alpha\"\n"));
  write("p", "b", manifest("b", "2", backend("beta"), "[backend-formats]\nshared = \"beta\"\n"));
  std::vector<fs::path> path{d};
  auto index = ManifestIndex::scan(path);
  EXPECT_EQ(index.format_hint("shared"), nullptr);
  ASSERT_NE(index.format_hint("mine"), nullptr);
  EXPECT_EQ(index.format_hint("mine")->name, "alpha");
  ASSERT_EQ(index.problems().size(), 1u);
  EXPECT_THAT(index.problems()[0], HasSubstr("claimed by more than one distribution"));
  EXPECT_THAT(index.problems()[0], HasSubstr("a 1, b 2"));
}

TEST_F(DiscoveryTest, MalformedManifestIsAProblemForThatDistributionOnly) {
  fs::path d = write("p", "good", manifest("good", "1", backend("good")));
  write("p", "bad", "[distribution\nname=");
  write("p", "noexe", manifest("noexe", "1", "[backends.x]\nargs = []\n"));
  write("p", "both", manifest("both", "1", "[backends.y]\nexecutable = \"y\"\nendpoint = \"h:1\"\n"));
  write("p", "badsandbox", manifest("badsandbox", "1", "[backends.z]\nexecutable = \"z\"\nsandbox = \"maybe\"\n"));
  write("p", "nodist", "[backends.w]\nexecutable = \"w\"\n");
  std::vector<fs::path> path{d};
  auto index = ManifestIndex::scan(path);
  ASSERT_EQ(index.backends().size(), 1u);
  EXPECT_EQ(index.backends()[0].name, "good");
  ASSERT_EQ(index.problems().size(), 5u);
  for (const auto& p : index.problems()) EXPECT_THAT(p, HasSubstr("is malformed"));
  EXPECT_THAT(index.problems()[0], HasSubstr("bad/manifest.toml is malformed: line 1:"));
  EXPECT_THAT(index.problems()[1], HasSubstr("sandbox must be"));
  EXPECT_THAT(index.problems()[2], HasSubstr("exactly one of 'executable' and 'endpoint'"));
  EXPECT_THAT(index.problems()[3], HasSubstr("no [distribution] table"));
  EXPECT_THAT(index.problems()[4], HasSubstr("exactly one of"));
}

TEST_F(DiscoveryTest, AHelperIsReachedByDescriptorUnlessItsManifestSaysSocket) {
  std::vector<fs::path> path{write("c", "py", manifest("py", "1", R"([backends.fdy]
executable = "a"
[backends.sock]
executable = "b"
connection = "socket"
[backends.plain]
executable = "c"
connection = "fd"
)"))};
  auto index = ManifestIndex::scan(path);
  ASSERT_TRUE(index.problems().empty()) << index.problems()[0];
  ASSERT_EQ(index.backends().size(), 3u);
  EXPECT_EQ(index.backends()[0].name, "fdy");
  EXPECT_EQ(index.backends()[0].connection, HelperConnection::SocketPair);
  EXPECT_EQ(index.backends()[1].name, "plain");
  EXPECT_EQ(index.backends()[1].connection, HelperConnection::SocketPair);
  EXPECT_EQ(index.backends()[2].name, "sock");
  EXPECT_EQ(index.backends()[2].connection, HelperConnection::UnixSocket);
}

TEST_F(DiscoveryTest, AConnectionOtherThanFdOrSocketOrForAnEndpointIsAProblem) {
  std::vector<fs::path> path{write("d", "a", manifest("a", "1", "[backends.a]\nexecutable = \"a\"\nconnection = \"pipe\"\n")),
                             write("d", "b", manifest("b", "1", "[backends.b]\nendpoint = \"h:1\"\nconnection = \"socket\"\n"))};
  auto index = ManifestIndex::scan(std::vector<fs::path>{root_ / "d"});
  EXPECT_TRUE(index.backends().empty());
  ASSERT_EQ(index.problems().size(), 2u);
  EXPECT_THAT(index.problems()[0], HasSubstr("'connection' must be \"fd\" or \"socket\""));
  EXPECT_THAT(index.problems()[1], HasSubstr("an endpoint takes none"));
}

TEST_F(DiscoveryTest, RemoteBackendAndSettings) {
  std::vector<fs::path> path{write("p", "farm", manifest("farm", "3", R"([backends.far]
endpoint = "build.example:7000"
tls-ca = "ca.pem"
tls-cert = "/etc/c.pem"
sandbox = "strict"
pass-env = ["FARM_TOKEN"]
timeout-ms = 250
memory-mb = 512
)"))};
  auto index = ManifestIndex::scan(path);
  ASSERT_TRUE(index.problems().empty()) << index.problems()[0];
  const BackendEntry& e = index.backends().at(0);
  EXPECT_TRUE(e.remote());
  EXPECT_THAT(e.endpoints, ElementsAre("build.example:7000"));
  EXPECT_EQ(e.tls.ca, (root_ / "p" / "farm" / "ca.pem").string());
  EXPECT_EQ(e.tls.cert, "/etc/c.pem");
  EXPECT_EQ(e.settings.sandbox, SandboxMode::Strict);
  EXPECT_THAT(*e.settings.pass_env, ElementsAre("FARM_TOKEN"));
  EXPECT_EQ(e.settings.deadlines().emit, std::chrono::milliseconds(250));
  EXPECT_EQ(e.settings.memory_mb, 512u);
}

TEST_F(DiscoveryTest, SameDistributionLaterOnThePathIsShadowed) {
  fs::path d1 = write("first", "toy", manifest("ppy-toy", "0.2", backend("toy")));
  fs::path d2 = write("second", "toy", manifest("ppy-toy", "0.1", backend("toy")));
  std::vector<fs::path> path{d1, d2};
  auto index = ManifestIndex::scan(path);
  EXPECT_TRUE(index.problems().empty());
  ASSERT_EQ(index.backends().size(), 1u);
  EXPECT_EQ(index.backends()[0].version, "0.2");
  ASSERT_EQ(index.shadowed().size(), 1u);
  ASSERT_EQ(index.shadowed_notes().size(), 1u);
  EXPECT_THAT(index.shadowed_notes()[0], HasSubstr("is not used: distribution 'ppy-toy' is already installed by " +
                                                   (d1 / "toy" / "manifest.toml").string()));
}

// A farm: several servers for one backend; `endpoint` and `endpoints` are one
// key written two ways, never both.
TEST_F(DiscoveryTest, AFarmIsEndpoints) {
  std::vector<fs::path> path{write("p", "farm", manifest("farm", "3", R"([backends.far]
endpoints = ["b1.example:7000", "dns:///farm.example:7000"]
tls-server-name = "farm.example"

[backends.both]
endpoint = "h:1"
endpoints = ["h:2"]

[backends.empty]
endpoints = []
)"))};
  auto index = ManifestIndex::scan(path);
  ASSERT_EQ(index.problems().size(), 1u);  // the whole distribution is rejected
  EXPECT_THAT(index.problems()[0], HasSubstr("not both"));
  std::vector<fs::path> good{write("q", "farm", manifest("farm", "3", R"([backends.far]
endpoints = ["b1.example:7000", "dns:///farm.example:7000"]
tls-server-name = "farm.example"
)"))};
  index = ManifestIndex::scan(good);
  ASSERT_TRUE(index.problems().empty()) << index.problems()[0];
  const BackendEntry& e = index.backends().at(0);
  EXPECT_TRUE(e.remote());
  EXPECT_THAT(e.endpoints, ElementsAre("b1.example:7000", "dns:///farm.example:7000"));
  EXPECT_EQ(e.tls.server_name, "farm.example");
  auto empty = HostSettings::from_toml(toml::parse("endpoints = []"));
  EXPECT_THAT(error_text(empty.status()), HasSubstr("'endpoints' must be a non-empty array"));
  auto number = HostSettings::from_toml(toml::parse("endpoints = [\"a:1\", 2]"));
  EXPECT_FALSE(number.ok());
}

TEST(SearchPath, EnvThenPrefixThenUserFolder) {
  std::map<std::string, std::string> env{{"PPY_BACKEND_PATH", "/a::/b"}, {"HOME", "/home/u"}};
  EnvLookup lookup = [&](std::string_view k) -> std::optional<std::string> {
    auto it = env.find(std::string(k));
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  EXPECT_THAT(backend_search_path(lookup, "/usr"),
              ElementsAre("/a", "/b", "/usr/lib/ppy/backends", "/home/u/.local/share/ppy/backends"));
  env["XDG_DATA_HOME"] = "/xdg";
  env.erase("PPY_BACKEND_PATH");
  EXPECT_THAT(backend_search_path(lookup, "/opt/ppy"),
              ElementsAre("/opt/ppy/lib/ppy/backends", "/xdg/ppy/backends"));
}

}  // namespace
}  // namespace ppy::host
