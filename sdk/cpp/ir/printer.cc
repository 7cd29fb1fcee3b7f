// The `ppyir 1` printer (docs/ir.md, "Structure"): one output string, values
// named by a per-function namer over flat tables, no iostreams.
#include <charconv>
#include <deque>

#include "ppy/ir/text.h"
#include "text_internal.h"

namespace ppy::ir {
namespace {

using text_detail::append_json_string;
using text_detail::FlatMap;
using text_detail::is_name_byte;
using text_detail::PtrHash;
using text_detail::ViewHash;

void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_attr(std::string& out, const Attribute& a);

void append_dict(std::string& out, const AttrDict& d, const std::string* skip1 = nullptr,
                 const std::string* skip2 = nullptr) {
  out.push_back('{');
  bool first = true;
  for (auto& [k, v] : d) {
    if ((skip1 && k == *skip1) || (skip2 && k == *skip2)) continue;
    if (!first) out += ", ";
    first = false;
    out += k;
    out += " = ";
    append_attr(out, v);
  }
  out.push_back('}');
}

void append_attr(std::string& out, const Attribute& a) {
  const auto& s = a.storage();
  switch (s.index()) {
    case 0: out += std::get<bool>(s) ? "true" : "false"; break;
    case 1: append_int(out, std::get<int64_t>(s)); break;
    case 2: out += format_float(std::get<double>(s)); break;
    case 3: append_json_string(out, std::get<std::string>(s)); break;
    case 4:
      out.push_back('@');
      out += std::get<SymbolRef>(s).name;
      break;
    case 5:
      out.push_back('!');
      out += std::get<Type>(s) ? std::get<Type>(s).str() : std::string("void");
      break;
    case 6: {
      out.push_back('[');
      bool first = true;
      for (auto& e : a.as_array()) {
        if (!first) out += ", ";
        first = false;
        append_attr(out, e);
      }
      out.push_back(']');
      break;
    }
    case 7: append_dict(out, a.as_dict()); break;
  }
}

/// Deterministic value names within one function (the reference's `_Namer`):
/// a value keeps its sanitised hint unless it is empty or taken, else gets the
/// next decimal number not taken. Small numbers are tracked in a bit vector.
class Namer {
 public:
  void reset() {
    names_.clear();
    taken_.clear();
    taken_num_.clear();
    counter_ = 0;
    arena_.clear();
  }

  /// Appends `%name` for `key`, naming it from `hint` on first sight.
  void append(std::string& out, const void* key, const std::string& hint) {
    out.push_back('%');
    Name n = get(key, hint);
    if (n.p) out.append(n.p, n.n);
    else append_int(out, n.n);
  }
  void name(const Value* v) { get(v, v->hint()); }

 private:
  struct Name {
    const char* p = nullptr;  // null: the number n
    uint32_t n = 0;
  };
  /// Numbers below this are tracked in a bit vector, the rest as strings.
  static constexpr uint64_t kSmall = 1 << 20;

  Name get(const void* key, const std::string& hint) {
    if (Name* known = names_.find(key)) return *known;
    Name n = assign(hint);
    names_.insert(key, n);
    return n;
  }

  /// The value of a canonical decimal spelling below kSmall, or -1.
  static int64_t small_number(std::string_view s) {
    if (s.empty() || s.size() > 7 || (s.size() > 1 && s[0] == '0')) return -1;
    int64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v < static_cast<int64_t>(kSmall) ? v : -1;
  }
  bool num_taken(uint64_t v) {
    if (v < kSmall) return v / 64 < taken_num_.size() && (taken_num_[v / 64] >> (v % 64) & 1);
    std::string s = std::to_string(v);
    return taken_.find(s) != nullptr;
  }
  void take_num(uint64_t v) {
    if (v < kSmall) {
      if (v / 64 >= taken_num_.size()) taken_num_.resize(std::max<size_t>(v / 64 + 1, taken_num_.size() * 2), 0);
      taken_num_[v / 64] |= uint64_t{1} << (v % 64);
      return;
    }
    const std::string& s = arena_.emplace_back(std::to_string(v));
    taken_.insert(s, 1);
  }

  Name assign(const std::string& hint) {
    if (!hint.empty()) {
      std::string_view s = hint;
      bool clean = true;
      for (char c : hint) clean &= is_name_byte(static_cast<unsigned char>(c));
      if (!clean) {
        std::string& copy = arena_.emplace_back(hint);
        for (char& c : copy)
          if (!is_name_byte(static_cast<unsigned char>(c))) c = '_';
        s = copy;
      }
      int64_t num = small_number(s);
      bool taken = num >= 0 ? num_taken(static_cast<uint64_t>(num)) : taken_.find(s) != nullptr;
      if (!taken) {
        if (num >= 0) take_num(static_cast<uint64_t>(num));
        else taken_.insert(s, 1);
        return Name{s.data(), static_cast<uint32_t>(s.size())};
      }
    }
    while (num_taken(counter_)) ++counter_;
    uint64_t v = counter_++;
    take_num(v);
    if (v <= UINT32_MAX) return Name{nullptr, static_cast<uint32_t>(v)};
    const std::string& s = arena_.back();
    return Name{s.data(), static_cast<uint32_t>(s.size())};
  }

  FlatMap<const void*, Name, PtrHash> names_;
  FlatMap<std::string_view, char, ViewHash> taken_;
  std::vector<uint64_t> taken_num_;  // a bit per number
  uint64_t counter_ = 0;
  std::deque<std::string> arena_;
};

constexpr std::string_view kIndent = "    ";

class Printer {
 public:
  Printer(const DialectRegistry& reg, std::string& out) : reg_(reg), out_(out) {}

  void module(const Module& m) {
    out_ += "ppyir ";
    append_int(out_, kIRSchemaVersion);
    out_ += "\nmodule @";
    out_ += m.name();
    out_.push_back('\n');
    for (auto& [name, version] : m.dialects()) {
      out_ += "dialect ";
      out_ += name;
      out_.push_back(' ');
      append_int(out_, version);
      out_.push_back('\n');
    }
    if (!m.attributes().empty()) {
      out_ += "attrs ";
      append_dict(out_, m.attributes());
      out_.push_back('\n');
    }
    out_.push_back('\n');
    for (auto& [name, g] : m.globals()) global(name, g);
    if (!m.globals().empty()) out_.push_back('\n');
    for (auto& f : m.functions()) {
      function(*f);
      out_ += "\n\n";
    }
    // The reference joins lines and ends with exactly one newline.
    while (!out_.empty() && out_.back() == '\n') out_.pop_back();
    out_.push_back('\n');
  }

  void function(const Function& f) {
    namer_.reset();
    const Region& body = f.body();
    // Naming order: top-level block arguments, then results breadth-first;
    // nested-region block arguments are named when first printed.
    for (auto& b : body.blocks())
      for (auto& a : b->arguments()) namer_.name(a.get());
    queue_.clear();
    queue_.push_back(&body);
    for (size_t qi = 0; qi < queue_.size(); ++qi)
      for (auto& b : queue_[qi]->blocks())
        for (auto& op : b->operations()) {
          for (auto& r : op->results()) namer_.name(&r);
          for (auto& r : op->regions()) queue_.push_back(r.get());
        }

    visibility(f.visibility());
    out_ += "func @";
    out_ += f.name();
    out_.push_back('(');
    const Block* entry = body.entry();
    auto& params = f.params();
    for (size_t i = 0; i < params.size(); ++i) {
      if (i) out_ += ", ";
      if (entry) {
        // A parameter's value is the entry block's argument.
        if (i < entry->num_arguments()) {
          const Value* a = entry->argument(i);
          namer_.append(out_, a, a->hint());
        } else {
          namer_.append(out_, &params[i], params[i].name);
        }
        out_ += ": ";
      }
      out_ += type_text(params[i].type);
      if (!params[i].attrs.empty()) {
        out_.push_back(' ');
        append_dict(out_, params[i].attrs);
      }
    }
    out_ += ") -> ";
    auto& results = f.results();
    if (results.empty()) {
      out_ += "()";
    } else if (results.size() == 1 && !(results[0] && results[0].is_void())) {
      out_ += type_text(results[0]);
    } else {  // a lone void result stays `(void)`: plain `void` reads back as none
      out_.push_back('(');
      for (size_t i = 0; i < results.size(); ++i) {
        if (i) out_ += ", ";
        out_ += type_text(results[i]);
      }
      out_.push_back(')');
    }
    if (!f.attributes().empty()) {
      out_ += " attrs ";
      append_dict(out_, f.attributes());
    }
    if (f.loc()) {
      out_.push_back(' ');
      loc(*f.loc());
    }
    if (f.is_declaration()) return;
    // The entry label leaves its arguments to the signature, unless they are
    // not the parameters (then the parser would not give them back).
    bool entry_spelled = entry->num_arguments() != params.size();
    for (size_t i = 0; !entry_spelled && i < params.size(); ++i)
      entry_spelled = entry->argument(i)->type() != params[i].type;
    out_ += " {\n";
    region(body, 0, true, entry_spelled);
    out_.push_back('}');
  }

 private:
  static const std::string& type_text(Type t) {
    static const std::string kNull = "void";
    return t ? t.str() : kNull;
  }

  void visibility(Visibility v) {
    if (v == Visibility::Private) out_ += "private ";
    else if (v == Visibility::Extern) out_ += "extern ";
  }

  void global(const std::string& name, const Global& g) {
    visibility(g.visibility);
    if (g.is_mutable) out_ += "mutable ";
    out_ += "global @";
    out_ += name;
    out_ += " : ";
    out_ += type_text(g.type);
    if (g.initializer) {
      out_ += " = ";
      append_attr(out_, *g.initializer);
    }
    out_.push_back('\n');
  }

  void loc(const Location& l) {
    out_ += "loc(";
    append_json_string(out_, l.file ? std::string_view(*l.file) : std::string_view());
    out_.push_back(':');
    append_int(out_, l.line);
    out_.push_back(':');
    append_int(out_, l.col);
    out_.push_back(')');
  }

  void indent(int depth) {
    for (int i = 0; i < depth; ++i) out_ += kIndent;
  }

  void value(const Value* v) {
    if (v) namer_.append(out_, v, v->hint());
    else out_ += "%<null>";
  }

  void region(const Region& r, int depth, bool is_body, bool entry_spelled) {
    if (r.empty()) {  // the reference prints an empty region as one blank line
      out_.push_back('\n');
      return;
    }
    bool first = true;
    for (auto& b : r.blocks()) {
      indent(depth);
      out_.push_back('^');
      out_ += b->label();
      if (b->num_arguments() && (!is_body || !first || entry_spelled)) {
        out_.push_back('(');
        for (size_t i = 0; i < b->num_arguments(); ++i) {
          if (i) out_ += ", ";
          value(b->argument(i));
          out_ += ": ";
          out_ += type_text(b->argument(i)->type());
        }
        out_.push_back(')');
      }
      out_ += ":\n";
      first = false;
      const std::optional<Location>* prev = nullptr;
      for (auto& op : b->operations()) {
        operation(*op, depth + 1, prev);
        prev = &op->loc();
      }
    }
  }

  const OpSpec* spec(const Operation& op) {
    const void* key = &op.name();  // names are interned
    if (const OpSpec** s = specs_.find(key)) return *s;
    const OpSpec* s = reg_.op(op.name());
    specs_.insert(key, s);
    return s;
  }

  static bool is_segment(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
      if (!is_name_byte(static_cast<unsigned char>(c))) return false;
    return true;
  }

  void operation(const Operation& op, int depth, const std::optional<Location>* prev) {
    indent(depth);
    if (op.num_results()) {
      for (size_t i = 0; i < op.num_results(); ++i) {
        if (i) out_ += ", ";
        value(op.result(i));
      }
      out_ += " = ";
    }
    out_ += op.name();
    const OpSpec* s = spec(op);
    const std::string* skip_variant = nullptr;
    const std::string* skip_inline = nullptr;
    size_t attrs = op.attributes().size();
    if (s && !s->variant_attribute.empty()) {
      const Attribute* v = op.attr(s->variant_attribute);
      // Only a plain word can ride on the name and be split off again.
      if (v && v->is<std::string>() && is_segment(v->as_string())) {
        out_.push_back('.');
        out_ += v->as_string();
        skip_variant = &s->variant_attribute;
        --attrs;
      }
    }
    if (s && !s->inline_attribute.empty()) {
      const Attribute* v = op.attr(s->inline_attribute);
      if (v && !v->is_dict()) {  // a dict would read back as the attribute dict
        out_.push_back(' ');
        append_attr(out_, *v);
        skip_inline = &s->inline_attribute;
        --attrs;
      }
    }
    bool inputs = !op.operands().empty() || !op.successors().empty();
    if (inputs) {
      out_.push_back(' ');
      bool first = true;
      for (const Value* v : op.operands()) {
        if (!first) out_ += ", ";
        first = false;
        value(v);
      }
      for (auto& succ : op.successors()) {
        if (!first) out_ += ", ";
        first = false;
        out_.push_back('^');
        if (succ.block) out_ += succ.block->label();
        if (!succ.args.empty()) {
          out_.push_back('(');
          for (size_t i = 0; i < succ.args.size(); ++i) {
            if (i) out_ += ", ";
            value(succ.args[i]);
          }
          out_.push_back(')');
        }
      }
    }
    if (attrs) {
      out_.push_back(' ');
      append_dict(out_, op.attributes(), skip_variant, skip_inline);
    }
    if (op.num_results()) {
      out_ += " : ";
      for (size_t i = 0; i < op.num_results(); ++i) {
        if (i) out_ += ", ";
        out_ += type_text(op.result(i)->type());
      }
    }
    bool printed_loc = false;
    if (op.loc() && !(prev && *prev == op.loc())) {
      out_.push_back(' ');
      loc(*op.loc());
      printed_loc = true;
    }
    // An op whose inline value is missing must not end its line right after
    // the name: the parser would read the next line as the value.
    if (s && !s->inline_attribute.empty() && !skip_inline && !inputs && !attrs && !op.num_results() &&
        !printed_loc && op.regions().empty())
      out_ += " {}";
    for (auto& r : op.regions()) {
      out_ += " {\n";
      region(*r, depth, false, false);
      indent(depth);
      out_.push_back('}');
    }
    out_.push_back('\n');
  }

  const DialectRegistry& reg_;
  std::string& out_;
  Namer namer_;
  std::vector<const Region*> queue_;
  FlatMap<const void*, const OpSpec*, PtrHash> specs_;
};

size_t estimate(const Module& m) {
  size_t ops = 0;
  for (auto& f : m.functions()) walk(f->body(), [&](const Operation&) { ++ops; });
  // Generous: pages of the reservation that are never written cost nothing.
  return 4096 + ops * 96 + m.globals().size() * 64 + m.functions().size() * 128;
}

}  // namespace

std::string print_module(const Module& m, const DialectRegistry& reg) {
  std::string out;
  out.reserve(estimate(m));
  Printer(reg, out).module(m);
  return out;
}

std::string print_function(const Function& f, const DialectRegistry& reg) {
  std::string out;
  Printer(reg, out).function(f);
  return out;
}

std::string print_attribute(const Attribute& a) {
  std::string out;
  append_attr(out, a);
  return out;
}

}  // namespace ppy::ir
