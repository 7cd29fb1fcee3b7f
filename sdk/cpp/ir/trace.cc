// Tracebacks: frame names and roles (ppy/ir/trace.h).
#include "ppy/ir/trace.h"

#include <string_view>
#include <vector>

#include "ppy/ir/block_order.h"
#include "ppy/ir/core_ops.h"

namespace ppy::ir {

namespace {

std::vector<std::string> qualname(const Function& f) {
  std::string q = f.name();
  if (const Attribute* a = f.attributes().get("ppy.qualname"); a && a->is<std::string>()) q = a->as_string();
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    size_t dot = q.find('.', at);
    parts.push_back(q.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return parts;
}

}  // namespace

TraceRole trace_role(const Function& f) {
  if (!f.loc()) return TraceRole::kNone;
  if (trace_transparent(f)) {
    const std::string last = qualname(f).back();
    return last == "bound" || last == "value" ? TraceRole::kNone : TraceRole::kBorrows;
  }
  if (f.attributes().get("gpu.kind")) return TraceRole::kNone;
  if (const Attribute* a = f.attributes().get("ppy.frame_name"); a && a->is<std::string>() && a->as_string().empty())
    return TraceRole::kNone;  // code python3 runs in no frame of Python's (map()'s loop)
  bool has_try = false;
  walk(f.body(), [&](const Operation& op) {
    if (core_op(op) == CoreOp::Call && captures_status(op)) has_try = true;
  });
  if (has_try) return TraceRole::kOwns;
  const Attribute* e = f.attributes().get("ppy.effects");
  if (!e || !e->is_array()) return TraceRole::kOwns;
  for (auto& x : e->as_array())
    if (x.is<std::string>() && x.as_string() == "raises") return TraceRole::kOwns;
  return TraceRole::kNone;
}

bool trace_transparent(const Function& f) {
  std::vector<std::string> q = qualname(f);
  const std::string& last = q.back();
  if (q.size() > 1 && (last == "bound" || last == "value")) return true;
  return q.size() > 1 && last.size() > 3 && last.compare(0, 3, "try") == 0 &&
         last.find_first_not_of("0123456789", 3) == std::string::npos;
}

std::string trace_frame_name(const Function& f) {
  if (const Attribute* a = f.attributes().get("ppy.frame_name"); a && a->is<std::string>()) return a->as_string();
  std::vector<std::string> q = qualname(f);
  if (q.size() > 1 && q.back() == "resume") q.pop_back();
  const std::string& last = q.back();
  if (last == "__main__" || last == "__init__module__" || last == "__module__") return "<module>";
  // A property's accessor is the property in python3's frame.
  for (const char* accessor : {"__get_", "__set_", "__del_"})
    if (last.size() > std::string_view(accessor).size() && last.starts_with(accessor))
      return last.substr(std::string_view(accessor).size());
  return last;
}

std::string trace_file(const Function& f) {
  return f.loc() && f.loc()->file ? *f.loc()->file : std::string("<unknown>");
}

std::vector<TraceComprehension> trace_comprehensions(const Function& f) {
  std::vector<TraceComprehension> comps;
  const Attribute* a = f.attributes().get("ppy.comps");
  if (!a || !a->is_array()) return comps;
  for (const Attribute& c : a->as_array()) {
    if (!c.is_array() || c.as_array().size() != 3) return {};
    const AttrArray& x = c.as_array();
    if (!x[0].is<std::string>() || !x[1].is<int64_t>() || !x[2].is<int64_t>()) return {};
    comps.push_back({x[0].as_string(), x[1].as_int(), x[2].as_int()});
  }
  return comps;
}

int64_t trace_line(const Operation& op) {
  if (!op.loc() || !op.loc()->line) return 0;
  int64_t line = op.loc()->line;
  if (const Attribute* k = op.attributes().get("ppy.comp"); k && k->is<int64_t>() && k->as_int() > 0)
    line |= k->as_int() << kTraceComprehensionShift;
  return line;
}

std::unordered_map<const Operation*, int64_t> trace_lines(const Function& f) {
  std::unordered_map<const Operation*, int64_t> lines;
  int64_t line = f.loc() ? static_cast<int64_t>(f.loc()->line) : 0;
  for (const Block* blk : reverse_post_order(f.body()))
    for (auto& op : blk->operations()) {
      if (int64_t at = trace_line(*op)) line = at;
      lines[op.get()] = line;
    }
  return lines;
}

}  // namespace ppy::ir
