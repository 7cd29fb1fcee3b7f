// The test oracle for the stablehlo backend: a line-by-line reader of the text
// it prints and a direct interpreter of the ops in it.
#include "evaluator.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::stablehlo::testing {

struct Program::Op {
  int line = 0;
  std::string result;  ///< `%5`, or empty
  size_t count = 1;    ///< results: `%5:3` has three (`%5#0`...)
  std::string name;    ///< `stablehlo.add`, `func.call`, `func.return`
  std::vector<std::string> operands;
  std::string attrs;   ///< the text between `{` and `}`
  std::string callee;  ///< func.call's
  std::vector<std::string> result_types;  ///< element types
  std::vector<Region> regions;
};

namespace {

using Op = Program::Op;
using Region = Program::Region;

absl::Status error(int line, std::string_view what) {
  return absl::InvalidArgumentError(str_cat("line ", line, ": ", what));
}

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string_view::npos ? "" : std::string(s.substr(a, b - a + 1));
}

std::vector<std::string> split(const std::string& s, std::string_view sep = ", ") {
  std::vector<std::string> out;
  if (trim(s).empty()) return out;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) return out;
    start = at + sep.size();
  }
}

/// `tensor<i64>` -> `i64`; `(tensor<i64>, tensor<i32>)` -> both; `()` -> none.
std::vector<std::string> element_types(std::string s) {
  s = trim(s);
  if (!s.empty() && s.front() == '(') s = s.substr(1, s.size() - 2);
  std::vector<std::string> out;
  for (const std::string& t : split(s))
    if (t.starts_with("tensor<")) out.push_back(t.substr(7, t.size() - 8));
  return out;
}

/// The text between the bracket at `open` and its match.
std::string bracketed(const std::string& s, size_t open, size_t* close) {
  char o = s[open], c = o == '(' ? ')' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    else if (s[i] == c && --depth == 0) {
      *close = i;
      return s.substr(open + 1, i - open - 1);
    }
  }
  *close = std::string::npos;
  return "";
}

class Reader {
 public:
  explicit Reader(const std::string& text) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines_.push_back(trim(l));
  }

  absl::Status module(std::map<std::string, Program::Function>& out) {
    if (at_end() || !peek().starts_with("module @")) return error(1, "expected `module @name {`");
    ++i_;
    while (!at_end() && peek() != "}") {
      const std::string& l = peek();
      if (!l.starts_with("func.func @")) return error(i_ + 1, str_cat("expected func.func, found: ", l));
      std::string name = l.substr(11, l.find('(') - 11);
      size_t close;
      std::string params = bracketed(l, l.find('('), &close);
      Program::Function f;
      for (const std::string& p : split(params)) {
        f.params.push_back(p.substr(0, p.find(':')));
        f.param_types.push_back(element_types(p.substr(p.find(':') + 1))[0]);
      }
      ++i_;
      PPY_ASSIGN_OR_RETURN(Region body, region());
      if (at_end() || peek() != "}") return error(i_ + 1, "expected `}` closing the function");
      ++i_;
      f.body = std::move(body);
      out[name] = std::move(f);
    }
    return absl::OkStatus();
  }

 private:
  bool at_end() const { return i_ >= lines_.size(); }
  const std::string& peek() const { return lines_[i_]; }

  /// Ops until a line starting with `}`, which is left for the caller.
  absl::StatusOr<Region> region() {
    Region r;
    if (!at_end() && peek().starts_with("^bb0(")) {
      size_t close;
      for (const std::string& a : split(bracketed(peek(), 4, &close))) r.args.push_back(a.substr(0, a.find(':')));
      ++i_;
    }
    while (!at_end() && !peek().starts_with("}")) {
      PPY_ASSIGN_OR_RETURN(auto op, operation());
      r.ops.push_back(std::move(op));
    }
    if (at_end()) return error(i_, "unexpected end of text in a region");
    return r;
  }

  absl::StatusOr<std::shared_ptr<Op>> operation() {
    auto op = std::make_shared<Op>();
    op->line = static_cast<int>(i_ + 1);
    std::string l = peek();
    ++i_;
    if (l.starts_with("%")) {
      size_t eq = l.find(" = ");
      std::string lhs = l.substr(0, eq);
      if (size_t colon = lhs.find(':'); colon != std::string::npos) {
        op->count = std::stoul(lhs.substr(colon + 1));
        lhs = lhs.substr(0, colon);
      }
      op->result = lhs;
      l = l.substr(eq + 3);
    }
    if (l.starts_with("func.return")) {
      op->name = "func.return";
      std::string rest = trim(l.substr(11));
      op->operands = split(rest.substr(0, rest.find(" : ")));
      return op;
    }
    if (l.starts_with("func.call @")) {
      op->name = "func.call";
      op->callee = l.substr(11, l.find('(') - 11);
      size_t close;
      op->operands = split(bracketed(l, l.find('('), &close));
      op->result_types = element_types(l.substr(l.rfind("-> ") + 3));
      return op;
    }
    if (!l.starts_with("\"stablehlo.")) return error(op->line, str_cat("not an op this evaluator knows: ", l));
    op->name = l.substr(1, l.find('"', 1) - 1);
    size_t close;
    op->operands = split(bracketed(l, l.find('('), &close));
    std::string rest = l.substr(close + 1);
    if (trim(rest) == "({") {  // ops with regions: `}, {` between them, `}) : (...) -> (...)` after
      while (true) {
        PPY_ASSIGN_OR_RETURN(Region r, region());
        op->regions.push_back(std::move(r));
        std::string end = peek();
        ++i_;
        if (end == "}, {") continue;
        if (!end.starts_with("}) : ")) return error(static_cast<int>(i_), str_cat("expected `}) :`, found: ", end));
        op->result_types = element_types(end.substr(end.rfind("-> ") + 3));
        return op;
      }
    }
    if (size_t brace = rest.find('{'); brace != std::string::npos && brace < rest.find(" : ")) {
      op->attrs = bracketed(rest, brace, &close);
      rest = rest.substr(close + 1);
    }
    op->result_types = element_types(rest.substr(rest.rfind("-> ") + 3));
    return op;
  }

  std::vector<std::string> lines_;
  size_t i_ = 0;
};

int bits_of(const std::string& type) {
  if (type == "i1") return 1;
  size_t digits = type.find_first_of("0123456789");
  return std::stoi(type.substr(digits));
}
bool is_unsigned(const std::string& type) { return type.starts_with("ui") || type == "i1"; }

/// `v` wrapped to the width of `type` (two's complement), as StableHLO's integers are.
int64_t wrap(uint64_t v, const std::string& type) {
  int bits = bits_of(type);
  if (bits == 64) return static_cast<int64_t>(v);
  uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (!is_unsigned(type) && (v >> (bits - 1)) & 1) v |= ~mask;
  return static_cast<int64_t>(v);
}

class Machine {
 public:
  explicit Machine(const std::map<std::string, Program::Function>& fns) : fns_(fns) {}

  absl::StatusOr<std::vector<Scalar>> call(const std::string& name, const std::vector<Scalar>& args, int depth = 0) {
    auto it = fns_.find(name);
    if (it == fns_.end()) return absl::NotFoundError(str_cat("no function @", name));
    if (depth > 64) return absl::ResourceExhaustedError("calls nested too deep");
    const Program::Function& f = it->second;
    if (args.size() != f.params.size()) return absl::InvalidArgumentError(str_cat("@", name, " takes ", f.params.size()));
    std::map<std::string, Scalar> env;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].type != f.param_types[i])
        return absl::InvalidArgumentError(str_cat("argument ", i, " of @", name, " is ", args[i].type, ", not ", f.param_types[i]));
      env[f.params[i]] = args[i];
    }
    return run(f.body, {}, env, depth);
  }

 private:
  absl::StatusOr<std::vector<Scalar>> run(const Region& r, const std::vector<Scalar>& args,
                                          std::map<std::string, Scalar>& env, int depth) {
    if (args.size() != r.args.size()) return absl::InvalidArgumentError("region argument count");
    for (size_t i = 0; i < args.size(); ++i) env[r.args[i]] = args[i];
    for (const auto& op : r.ops) {
      std::vector<Scalar> in;
      for (const std::string& name : op->operands) {
        auto v = env.find(name);
        if (v == env.end()) return error(op->line, str_cat(name, " is not defined"));
        in.push_back(v->second);
      }
      if (op->name == "func.return" || op->name == "stablehlo.return") return in;
      absl::StatusOr<std::vector<Scalar>> out;
      if (op->name == "func.call") out = call(op->callee, in, depth + 1);
      else if (op->name == "stablehlo.while") out = loop(*op, in, env, depth);
      else if (op->name == "stablehlo.case") {
        if (in.size() != 1 || op->regions.empty()) return error(op->line, "case takes one index");
        size_t n = op->regions.size();
        size_t k = in[0].i < 0 || static_cast<size_t>(in[0].i) >= n ? n - 1 : static_cast<size_t>(in[0].i);
        out = run(op->regions[k], {}, env, depth);
      } else {
        PPY_ASSIGN_OR_RETURN(Scalar v, apply(*op, in));
        out = std::vector<Scalar>{v};
      }
      PPY_RETURN_IF_ERROR(out.status());
      if (out->size() != op->count) return error(op->line, str_cat("gives ", out->size(), " values, not ", op->count));
      if (op->count == 1) env[op->result] = (*out)[0];
      else
        for (size_t i = 0; i < out->size(); ++i) env[str_cat(op->result, "#", i)] = (*out)[i];
    }
    return absl::InvalidArgumentError("a region ended without a return");
  }

  absl::StatusOr<std::vector<Scalar>> loop(const Op& op, std::vector<Scalar> state, std::map<std::string, Scalar>& env,
                                           int depth) {
    if (op.regions.size() != 2) return error(op.line, "while has a cond and a body");
    for (long steps = 0; steps < 100000000; ++steps) {
      PPY_ASSIGN_OR_RETURN(std::vector<Scalar> c, run(op.regions[0], state, env, depth));
      if (c.size() != 1 || c[0].type != "i1") return error(op.line, "the cond must return one i1");
      if (!c[0].i) return state;
      PPY_ASSIGN_OR_RETURN(state, run(op.regions[1], state, env, depth));
    }
    return error(op.line, "the loop did not end");
  }

  absl::StatusOr<Scalar> constant(const Op& op) {
    // value = dense<LIT> : tensor<T>
    size_t close;
    size_t open = op.attrs.find("dense<");
    if (open == std::string::npos) return error(op.line, "constant without dense<...>");
    std::string lit = bracketed(op.attrs, open + 5, &close);
    const std::string& t = op.result_types.at(0);
    if (t == "i1") return Scalar::of_bool(lit == "true");
    if (t[0] == 'f') {
      if (lit.starts_with("0x")) {
        uint64_t bits = std::stoull(lit.substr(2), nullptr, 16);
        if (t == "f32") {
          float f;
          uint32_t b32 = static_cast<uint32_t>(bits);
          std::memcpy(&f, &b32, 4);
          return Scalar::of_float(f, t);
        }
        double d;
        std::memcpy(&d, &bits, 8);
        return Scalar::of_float(d, t);
      }
      return Scalar::of_float(std::stod(lit), t);
    }
    return Scalar::of_int(std::stoll(lit), t);
  }

  absl::StatusOr<Scalar> apply(const Op& op, const std::vector<Scalar>& in) {
    const std::string n = op.name.substr(10);  // after "stablehlo."
    if (op.result_types.size() != 1) return error(op.line, "expected one result type");
    const std::string& t = op.result_types[0];
    auto arity = [&](size_t k) { return in.size() == k; };
    if (n == "constant") return constant(op);
    if (!arity(n == "select" ? 3 : (n == "compare" || n == "add" || n == "subtract" || n == "multiply" ||
                                    n == "divide" || n == "remainder" || n == "and" || n == "or" || n == "xor" ||
                                    n == "power") ? 2 : 1))
      return error(op.line, str_cat(op.name, " has the wrong number of operands"));
    const Scalar& a = in[0];
    bool flt = a.is_float();
    auto make = [&](double f, int64_t i) {
      return t[0] == 'f' ? Scalar::of_float(t == "f32" ? static_cast<float>(f) : f, t) : Scalar::of_int(wrap(i, t), t);
    };
    if (n == "select") {
      if (a.type != "i1") return error(op.line, "select's predicate must be i1");
      return a.i ? in[1] : in[2];
    }
    if (n == "compare") {
      const Scalar& b = in[1];
      auto dir_at = op.attrs.find("<comparison_direction ");
      std::string dir = dir_at == std::string::npos ? "" : op.attrs.substr(dir_at + 22, 2);
      if (dir != "EQ" && dir != "NE" && dir != "LT" && dir != "LE" && dir != "GT" && dir != "GE")
        return error(op.line, "compare without a comparison_direction");
      bool unsig = op.attrs.find("comparison_type UNSIGNED") != std::string::npos;
      int cmp;
      bool unordered = false;
      if (flt) {
        unordered = std::isnan(a.f) || std::isnan(b.f);
        cmp = a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
      } else if (unsig) {
        uint64_t x = static_cast<uint64_t>(a.i) & (bits_of(a.type) == 64 ? ~0ull : (1ull << bits_of(a.type)) - 1);
        uint64_t y = static_cast<uint64_t>(b.i) & (bits_of(b.type) == 64 ? ~0ull : (1ull << bits_of(b.type)) - 1);
        cmp = x < y ? -1 : x > y ? 1 : 0;
      } else {
        cmp = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
      }
      bool r = dir == "EQ" ? !unordered && cmp == 0 : dir == "NE" ? unordered || cmp != 0
             : dir == "LT" ? !unordered && cmp < 0 : dir == "LE" ? !unordered && cmp <= 0
             : dir == "GT" ? !unordered && cmp > 0 : !unordered && cmp >= 0;
      return Scalar::of_bool(r);
    }
    if (n == "convert") {
      if (t[0] == 'f') return make(flt ? a.f : is_unsigned(a.type) ? double(static_cast<uint64_t>(a.i)) : double(a.i), 0);
      if (!flt) return make(0, a.i);
      double tr = std::trunc(a.f);
      if (!(tr >= -9223372036854775808.0 && tr < 9223372036854775808.0))
        return error(op.line, "convert of a float out of the integer range (undefined in StableHLO)");
      return make(0, static_cast<int64_t>(tr));
    }
    if (in.size() == 2 && in[1].type != a.type) return error(op.line, str_cat(op.name, " of ", a.type, " and ", in[1].type));
    uint64_t x = static_cast<uint64_t>(a.i), y = in.size() > 1 ? static_cast<uint64_t>(in[1].i) : 0;
    double p = a.f, q = in.size() > 1 ? in[1].f : 0.0;
    if (n == "add") return make(p + q, x + y);
    if (n == "subtract") return make(p - q, x - y);
    if (n == "multiply") return make(p * q, x * y);
    if (n == "divide" || n == "remainder") {
      if (flt) return make(n == "divide" ? p / q : std::fmod(p, q), 0);
      if (in[1].i == 0) return error(op.line, str_cat(op.name, " by zero (undefined in StableHLO)"));
      if (!is_unsigned(a.type) && in[1].i == -1 && a.i == wrap(uint64_t{1} << (bits_of(a.type) - 1), a.type))
        return error(op.line, str_cat(op.name, " of MIN by -1 (undefined in StableHLO)"));
      if (is_unsigned(a.type)) return make(0, n == "divide" ? x / y : x % y);
      return make(0, static_cast<uint64_t>(n == "divide" ? a.i / in[1].i : a.i % in[1].i));
    }
    if (n == "and") return make(0, x & y);
    if (n == "or") return make(0, x | y);
    if (n == "xor") return make(0, x ^ y);
    if (n == "not") return make(0, a.type == "i1" ? !a.i : ~x);
    if (n == "negate") return make(-p, 0 - x);
    if (n == "abs") return make(std::fabs(p), a.i < 0 ? 0 - x : x);
    if (n == "sign") return flt ? make(std::isnan(p) ? p : p > 0 ? 1.0 : p < 0 ? -1.0 : p, 0) : make(0, a.i > 0 ? 1 : a.i < 0 ? -1 : 0);
    if (!flt) return error(op.line, str_cat(op.name, " of ", a.type, " is not an op the backend writes"));
    if (n == "sqrt") return make(std::sqrt(p), 0);
    if (n == "sine") return make(std::sin(p), 0);
    if (n == "cosine") return make(std::cos(p), 0);
    if (n == "tan") return make(std::tan(p), 0);
    if (n == "exponential") return make(std::exp(p), 0);
    if (n == "log") return make(std::log(p), 0);
    if (n == "floor") return make(std::floor(p), 0);
    if (n == "ceil") return make(std::ceil(p), 0);
    if (n == "power") return make(std::pow(p, q), 0);
    return error(op.line, str_cat("the evaluator does not know ", op.name));
  }

  const std::map<std::string, Program::Function>& fns_;
};

}  // namespace

absl::StatusOr<Program> Program::parse(const std::string& text) {
  Program p;
  Reader reader(text);
  PPY_RETURN_IF_ERROR(reader.module(p.functions_));
  return p;
}

absl::StatusOr<std::vector<Scalar>> Program::call(const std::string& function, const std::vector<Scalar>& args) const {
  Machine m(functions_);
  return m.call(function, args);
}

}  // namespace ppy::stablehlo::testing
