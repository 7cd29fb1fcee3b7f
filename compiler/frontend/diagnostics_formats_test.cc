#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {
namespace {

using nlohmann::json;

DiagnosticEngine two_files() {
  DiagnosticEngine e;
  e.error("E1030", "b.ppy", 9, 4, "late in b");
  e.error("E1020", "b.ppy", 2, 7, "name 'pepole' is not defined; did you mean 'people'?");
  e.error("E1010", "a.ppy", 1, 1, "a match statement is outside the ppy subset");
  e.error("E1030", "b.ppy", 2, 3, "earlier on line 2");
  return e;
}

TEST(DiagnosticsFormats, SourceOrderWithinEachFileFilesInReportOrder) {
  auto ordered = in_source_order(two_files());
  ASSERT_EQ(ordered.size(), 4u);
  EXPECT_EQ(ordered[0].message, "earlier on line 2");
  EXPECT_EQ(ordered[1].code, "E1020");
  EXPECT_EQ(ordered[2].message, "late in b");
  EXPECT_EQ(ordered[3].file, "a.ppy");
  std::string text = render_diagnostics(two_files());
  EXPECT_LT(text.find("b.ppy:2:3"), text.find("b.ppy:2:7"));
  EXPECT_LT(text.find("b.ppy:9:4"), text.find("a.ppy:1:1"));
}

TEST(DiagnosticsFormats, JsonListsEveryDiagnosticInSourceOrder) {
  json doc = json::parse(render_diagnostics_as(two_files(), DiagnosticsFormat::kJson, "9.9"));
  ASSERT_EQ(doc["diagnostics"].size(), 4u);
  EXPECT_EQ(doc["diagnostics"][1]["code"], "E1020");
  EXPECT_EQ(doc["diagnostics"][1]["line"], 2);
  EXPECT_EQ(doc["diagnostics"][1]["column"], 7);
  EXPECT_EQ(doc["diagnostics"][1]["severity"], "error");
  EXPECT_EQ(doc["diagnostics"][3]["file"], "a.ppy");
}

// The fields SARIF 2.1.0's schema requires (sarifLog: version, runs; run: tool;
// tool: driver; driver: name; result: message; message: text), and those code
// scanning reads (ruleId, level, locations with a region).
TEST(DiagnosticsFormats, SarifHasTheSchemasRequiredFields) {
  DiagnosticEngine e = two_files();
  e.error("", "", 0, 0, "a driver error without a place or a code");
  json doc = json::parse(render_diagnostics_as(e, DiagnosticsFormat::kSarif, "9.9"));
  EXPECT_EQ(doc["version"], "2.1.0");
  EXPECT_EQ(doc["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& run = doc["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "ppy");
  EXPECT_EQ(run["tool"]["driver"]["version"], "9.9");
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 3u);  // E1030, E1020, E1010: each once
  const json& results = run["results"];
  ASSERT_EQ(results.size(), 5u);
  for (const json& r : results) {
    EXPECT_TRUE(r["message"]["text"].is_string());
    EXPECT_EQ(r["level"], "error");
  }
  const json& r1 = results[1];
  EXPECT_EQ(r1["ruleId"], "E1020");
  EXPECT_EQ(rules[r1["ruleIndex"].get<size_t>()]["id"], "E1020");
  const json& where = r1["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"], "b.ppy");
  EXPECT_EQ(where["region"]["startLine"], 2);
  EXPECT_EQ(where["region"]["startColumn"], 7);
  EXPECT_FALSE(results[4].contains("locations"));
  EXPECT_FALSE(results[4].contains("ruleId"));
}

TEST(DiagnosticsFormats, BadUtf8InAMessageNeverThrows) {
  DiagnosticEngine e;
  e.error("E1001", "x.ppy", 1, 1, std::string("bad \xe9 byte"));
  for (auto f : {DiagnosticsFormat::kJson, DiagnosticsFormat::kSarif})
    EXPECT_NO_THROW(json::parse(render_diagnostics_as(e, f, "1")));
  EXPECT_EQ(parse_diagnostics_format("sarif"), DiagnosticsFormat::kSarif);
  EXPECT_FALSE(parse_diagnostics_format("xml").has_value());
}

}  // namespace
}  // namespace ppy::frontend
