// The machine-readable renderings of source diagnostics: JSON and SARIF 2.1.0.
#include <nlohmann/json.hpp>

#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {
namespace {

using nlohmann::json;

/// Cut counts: how many each file had beyond what was recorded.
json omitted(const DiagnosticEngine& engine) {
  std::map<std::string, size_t> shown;
  for (const auto& d : engine.diagnostics()) ++shown[d.file];
  json out = json::object();
  for (const auto& [file, count] : engine.counts())
    if (count > shown[file]) out[file] = count - shown[file];
  return out;
}

std::string as_json(const DiagnosticEngine& engine) {
  json list = json::array();
  for (const auto& d : in_source_order(engine))
    list.push_back({{"severity", "error"},
                    {"code", d.code},
                    {"file", d.file},
                    {"line", d.line},
                    {"column", d.col},
                    {"message", d.message}});
  // Invalid UTF-8 in a message (quoted source) is replaced, never thrown on.
  return json{{"diagnostics", list}, {"omitted", omitted(engine)}}.dump(2, ' ', false,
                                                                          json::error_handler_t::replace) +
         "\n";
}

std::string as_sarif(const DiagnosticEngine& engine, std::string_view tool_version) {
  json rules = json::array();
  std::map<std::string, size_t> rule_index;
  json results = json::array();
  for (const auto& d : in_source_order(engine)) {
    json result = {{"level", "error"}, {"message", {{"text", d.message}}}};
    if (!d.code.empty()) {  // an uncoded driver error has no rule
      auto [it, added] = rule_index.emplace(d.code, rule_index.size());
      if (added) rules.push_back({{"id", d.code}});  // each code's meaning: docs/diagnostics.md
      result["ruleId"] = d.code;
      result["ruleIndex"] = it->second;
    }
    json location = {{"physicalLocation",
                      {{"artifactLocation", {{"uri", d.file}}},
                       {"region", {{"startLine", std::max<uint32_t>(d.line, 1)},
                                   {"startColumn", std::max<uint32_t>(d.col, 1)}}}}}};
    if (!d.file.empty()) result["locations"] = json::array({location});  // a driver error has no place
    results.push_back(std::move(result));
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", "ppy"},
                  {"version", std::string(tool_version)},
                  {"rules", rules}}}}},
              {"results", results}};
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({run})}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::optional<DiagnosticsFormat> parse_diagnostics_format(std::string_view name) {
  if (name == "text") return DiagnosticsFormat::kText;
  if (name == "json") return DiagnosticsFormat::kJson;
  if (name == "sarif") return DiagnosticsFormat::kSarif;
  return std::nullopt;
}

std::string render_diagnostics_as(const DiagnosticEngine& engine, DiagnosticsFormat format,
                                  std::string_view tool_version) {
  switch (format) {
    case DiagnosticsFormat::kJson: return as_json(engine);
    case DiagnosticsFormat::kSarif: return as_sarif(engine, tool_version);
    case DiagnosticsFormat::kText: break;
  }
  return render_diagnostics(engine);
}

}  // namespace ppy::frontend
