#include "python_helpers.h"

#include <cctype>
#include <map>

namespace ppy::backends::python {
namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The helper a top-level line begins (`def _ppy_x(` or `_ppy_x = `), or "".
std::string helper_started(std::string_view line) {
  if (line.starts_with("def ")) line.remove_prefix(4);
  if (!line.starts_with("_ppy_")) return "";
  size_t end = 0;
  while (end < line.size() && identifier_char(line[end])) ++end;
  return std::string(line.substr(0, end));
}

/// Every `_ppy_*` name `text` holds, and whether it names `math.`.
std::set<std::string> names_in(std::string_view text, bool* math) {
  std::set<std::string> out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && identifier_char(text[i - 1])) continue;
    if (text.substr(i).starts_with("math.")) *math = true;
    if (!text.substr(i).starts_with("_ppy_")) continue;
    size_t end = i;
    while (end < text.size() && identifier_char(text[end])) ++end;
    out.insert(std::string(text.substr(i, end - i)));
    i = end;
  }
  return out;
}

std::vector<Helper> split(std::string_view source) {
  std::vector<Helper> out;
  Helper* current = nullptr;
  while (!source.empty()) {
    size_t nl = source.find('\n');
    std::string_view line = source.substr(0, nl == std::string_view::npos ? source.size() : nl + 1);
    source.remove_prefix(line.size());
    // A line at the top level begins a helper or ends the one before it.
    if (!line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '\n') {
      std::string name = helper_started(line);
      current = name.empty() ? nullptr : &out.emplace_back(Helper{name, "", {}, false});
    }
    if (current) current->text += line;
  }
  for (Helper& h : out) {
    while (h.text.ends_with("\n\n")) h.text.pop_back();
    if (!h.text.ends_with('\n')) h.text += '\n';
  }
  std::set<std::string> known;
  for (const Helper& h : out) known.insert(h.name);
  for (Helper& h : out)
    for (const std::string& n : names_in(h.text, &h.uses_math))
      if (n != h.name && known.count(n)) h.calls.push_back(n);
  return out;
}

}  // namespace

const std::vector<Helper>& helpers() {
  static const auto* h = new std::vector<Helper>(split(helpers_source()));
  return *h;
}

const Helper* find_helper(std::string_view name) {
  static const auto* index = [] {
    auto* m = new std::map<std::string, const Helper*, std::less<>>();
    for (const Helper& h : helpers()) m->emplace(h.name, &h);
    return m;
  }();
  auto it = index->find(name);
  return it == index->end() ? nullptr : it->second;
}

std::string helper_definitions(const std::set<std::string>& used, bool* uses_math) {
  std::set<std::string> wanted;
  std::vector<std::string> todo(used.begin(), used.end());
  while (!todo.empty()) {
    std::string n = std::move(todo.back());
    todo.pop_back();
    const Helper* h = find_helper(n);
    if (!h || !wanted.insert(n).second) continue;
    todo.insert(todo.end(), h->calls.begin(), h->calls.end());
  }
  std::string out;
  for (const Helper& h : helpers()) {
    if (!wanted.count(h.name)) continue;
    out += "\n\n";
    out += h.text;
    if (h.uses_math) *uses_math = true;
  }
  return out;
}

}  // namespace ppy::backends::python
