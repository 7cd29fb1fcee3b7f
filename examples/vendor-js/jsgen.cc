// jsgen: each function's CFG becomes while/if through the SDK's structurizer
// (ppy/source/structure.h); each op becomes one JavaScript statement assigning
// a `let` variable, constants written where they are read. Checking and writing
// are one walk, so what is refused is exactly what would not be written.
#include "jsgen.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "ppy/ir/core_ops.h"
#include "ppy/source/names.h"
#include "ppy/source/structure.h"
#include "ppy/util/file.h"
#include "ppy/util/program.h"
#include "ppy/util/status_macros.h"

namespace jsgen {
namespace {

namespace ir = ppy::ir;
using ir::CoreOp;

/// What every program starts with: Python's exceptions, i64 arithmetic on
/// BigInts, float repr and buffered printing.
constexpr std::string_view kPrelude = R"JS(#!/usr/bin/env node
"use strict";
class $PyError extends Error { constructor(name, message) { super(message); this.pyName = name; } }
function $raise(name, message) { throw new $PyError(name, message); }
const $MIN = -(2n ** 63n), $MAX = 2n ** 63n - 1n;
function $ck(x) { if (x < $MIN || x > $MAX) $raise("OverflowError", "integer overflow"); return x; }
function $wrap(x) { return BigInt.asIntN(64, x); }
function $fdiv(a, b) { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; }
function $fmod(a, b) { const r = a % b; return (r !== 0n && (r < 0n) !== (b < 0n)) ? r + b : r; }
function $ffmod(a, b) { const r = a % b; return (r !== 0 && (r < 0) !== (b < 0)) ? r + b : r; }
function $shl(a, b, wrap) {
  if (wrap) return b >= 64n ? 0n : $wrap(a << b);
  if (a === 0n) return 0n;
  if (b >= 64n) $raise("OverflowError", "integer overflow");
  return $ck(a << b);
}
function $pow(a, b) {
  if (b < 0n) $raise("ValueError", "negative exponent");
  if (b > 64n && (a > 1n || a < -1n)) $raise("OverflowError", "integer overflow");
  return $ck(a ** b);
}
function $repr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [m, e] = x.toExponential().split("e");
  const exp = Number(e), sign = x < 0 ? "-" : "", digits = m.replace("-", "").replace(".", "");
  if (exp < -4 || exp >= 16)
    return sign + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + (exp < 0 ? "-" : "+") +
           String(Math.abs(exp)).padStart(2, "0");
  if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
  return sign + digits.slice(0, exp + 1).padEnd(exp + 1, "0") + "." + (digits.slice(exp + 1) || "0");
}
let $out = "";
function $print(s) { $out += s; if ($out.length > 65536) $flush(); }
function $flush() { process.stdout.write($out); $out = ""; }
function $run(main) {
  try {
    main();
  } catch (e) {
    $flush();
    if (e instanceof RangeError && /call stack/.test(e.message)) e = new $PyError("RecursionError", "maximum recursion depth exceeded");
    if (!(e instanceof $PyError)) throw e;
    process.stderr.write(e.pyName + (e.message ? ": " + e.message : "") + "\n");
    process.exitCode = 1;
  }
  $flush();
}
)JS";

/// What the generator lacks for one op: the refusal's `what`, capability and location.
struct Lack {
  std::string what, capability;
  std::optional<ir::Location> loc;
};

std::string js_double(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "(-Infinity)";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, end);
  return std::signbit(d) ? "(" + s + ")" : s;
}

std::string function_name(std::string_view symbol) {
  if (symbol.starts_with("@")) symbol.remove_prefix(1);
  return "$" + ppy::source::identifier(symbol);
}

/// One function's JavaScript, or what it lacks.
class FunctionWriter {
 public:
  explicit FunctionWriter(const ir::Function& f) : f_(f) {}

  std::optional<Lack> write(std::string& out) {
    auto seq = ppy::source::structure(f_);
    if (!seq) return Lack{"the CFG of " + f_.name(), "structured control flow", f_.loc()};
    std::string params, body;
    for (auto& a : f_.body().entry()->arguments()) params += (params.empty() ? "" : ", ") + name(a.get());
    locals_.clear();
    write_seq(*seq, 1, body);
    if (lack_) return lack_;
    out += "function " + function_name(f_.name()) + "(" + params + ") {\n";
    if (!locals_.empty()) out += "  let " + locals_ + ";\n";
    out += body + "}\n";
    return std::nullopt;
  }

 private:
  /// The variable of `v` (declared on first sight), or the literal of a constant.
  std::string name(const ir::Value* v) {
    if (const ir::Operation* d = v->def(); d && ir::core_op(*d) == CoreOp::Const) return literal(*d);
    auto [it, fresh] = names_.try_emplace(v);
    if (fresh) {
      std::string base = ppy::source::identifier(v->hint());  // `_2` for a hint `2`: no name
      it->second = (base.empty() || base[0] == '_' ? "t" : base) + "_" + std::to_string(names_.size());
      if (v->arg_owner() != f_.body().entry()) locals_ += (locals_.empty() ? "" : ", ") + it->second;
    }
    return it->second;
  }

  std::string literal(const ir::Operation& op) {
    const ir::Attribute* a = ir::const_value(op);
    ir::Type t = op.result(0)->type();
    if (a && t.is_bool() && a->is<bool>()) return a->as_bool() ? "true" : "false";
    if (a && t.is_float() && a->is<double>()) return js_double(a->as_float());
    if (a && t.is_float() && a->is<int64_t>()) return js_double(static_cast<double>(a->as_int()));
    if (a && t.is_integer_like() && a->is<int64_t>()) {
      int64_t v = a->as_int();
      return v < 0 ? "(" + std::to_string(v) + "n)" : std::to_string(v) + "n";
    }
    refuse(op, "constants of type " + t.str());
    return "undefined";
  }

  void refuse(const ir::Operation& op, std::string capability) {
    if (!lack_) lack_ = Lack{op.name() + " in " + f_.name(), std::move(capability), op.loc() ? op.loc() : f_.loc()};
  }

  /// Whether `v` is a type jsgen writes: i64/index (BigInt), f64, bool, str.
  bool supported(ir::Type t) {
    return t.is_bool() || t.kind() == ir::TypeKind::I64 || t.kind() == ir::TypeKind::Index ||
           t.kind() == ir::TypeKind::F64 || (t.is_ptr() && t.elem().kind() == ir::TypeKind::I8);
  }

  void write_seq(const ppy::source::Seq& seq, int depth, std::string& out) {
    std::string pad(2 * depth, ' ');
    using Kind = ppy::source::Node::Kind;
    for (const ppy::source::Node& n : seq) {
      switch (n.kind) {
        case Kind::Block:
          for (auto& op : n.block->operations())
            if (!ir::is_terminator(ir::core_op(*op))) statement(*op, pad, out);
          break;
        case Kind::Edge: {
          std::string to, from;
          for (size_t i = 0; i < n.edge->args.size(); ++i) {
            to += (i ? ", " : "") + name(n.edge->block->argument(i));
            from += (i ? ", " : "") + name(n.edge->args[i]);
          }
          out += pad + (n.edge->args.size() == 1 ? to + " = " + from : "[" + to + "] = [" + from + "]") + ";\n";
          break;
        }
        case Kind::If:
          out += pad + "if (" + name(n.op->operand(0)) + ") {\n";
          write_seq(n.then_seq, depth + 1, out);
          if (!n.else_seq.empty()) {
            out += pad + "} else {\n";
            write_seq(n.else_seq, depth + 1, out);
          }
          out += pad + "}\n";
          break;
        case Kind::Loop:
          out += pad + "while (true) {\n";
          write_seq(n.body, depth + 1, out);
          out += pad + "}\n";
          break;
        case Kind::Break:
          out += pad + "break;\n";
          break;
        case Kind::Continue:
          out += pad + "continue;\n";
          break;
        case Kind::Return:
          if (ir::core_op(*n.op) == CoreOp::Unreachable)
            out += pad + "$raise(\"SystemError\", \"unreachable\");\n";
          else if (n.op->num_operands() == 0)
            out += pad + "return;\n";
          else if (n.op->num_operands() == 1)
            out += pad + "return " + name(n.op->operand(0)) + ";\n";
          else
            refuse(*n.op, "functions returning several values");
          break;
      }
    }
  }

  void statement(const ir::Operation& op, const std::string& pad, std::string& out) {
    CoreOp k = ir::core_op(op);
    if (k == CoreOp::Const) return;  // written where it is read
    for (const ir::Value* v : op.operands())
      if (!supported(v->type())) return refuse(op, type_capability(v->type()));
    for (auto& r : op.results())
      if (!supported(r.type())) return refuse(op, type_capability(r.type()));
    if (k == CoreOp::Guard) {
      auto g = ir::guard_exception(op);
      out += pad + "if (!" + name(op.operand(0)) + ") $raise(" + ppy::source::double_quoted(g.exception) + ", " +
             ppy::source::double_quoted(g.message) + ");\n";
      return;
    }
    if (k == CoreOp::CallExtern) return call_extern(op, pad, out);
    if (k == CoreOp::Call && op.num_results() <= 1 && !ir::captures_status(op)) {
      std::string args;
      for (const ir::Value* v : op.operands()) args += (args.empty() ? "" : ", ") + name(v);
      std::string call = function_name(*ir::call_callee(op)) + "(" + args + ")";
      out += pad + (op.num_results() ? name(op.result(0)) + " = " : "") + call + ";\n";
      return;
    }
    std::string e = op.num_results() == 1 ? expression(op, k) : "";
    if (e.empty()) return refuse(op, capability(op, k));
    out += pad + name(op.result(0)) + " = " + e + ";\n";
  }

  void call_extern(const ir::Operation& op, const std::string& pad, std::string& out) {
    const std::string* callee = ir::extern_callee(op);
    std::string c = callee ? *callee : "";
    const std::string* text = ir::attr_if<std::string>(op, "text");
    std::string arg = op.num_operands() == 1 ? name(op.operand(0)) : "";
    std::string printed;
    if (c == "ppy_print_i64" || c == "ppy_print_string")
      printed = "String(" + arg + ")";
    else if (c == "ppy_print_f64")
      printed = "$repr(" + arg + ")";
    else if (c == "ppy_print_bool")
      printed = "(" + arg + " ? \"True\" : \"False\")";
    else if (c == "ppy_print_str" && text)
      printed = ppy::source::double_quoted(*text);
    else if (c == "ppy_print_space")
      printed = "\" \"";
    else if (c == "ppy_print_newline")
      printed = "\"\\n\"";
    if (!printed.empty()) {
      out += pad + "$print(" + printed + ");\n";
    } else if (c == "ppy_str_literal" && text && op.num_results() == 1) {
      out += pad + name(op.result(0)) + " = " + ppy::source::double_quoted(*text) + ";\n";
    } else if (c == "ppy_pow_i64" && op.num_results() == 1) {
      out += pad + name(op.result(0)) + " = $pow(" + name(op.operand(0)) + ", " + name(op.operand(1)) + ");\n";
    } else {
      refuse(op, "the runtime function " + (c.empty() ? op.name() : c));
    }
  }

  /// The op's value as an expression, or empty for one jsgen does not write.
  std::string expression(const ir::Operation& op, CoreOp k) {
    auto x = [&](size_t i) { return name(op.operand(i)); };
    ir::Type t = op.result(0)->type();
    bool is_int = t.is_integer_like();
    if (ir::is_arith(k)) {
      ir::Rounding r = ir::rounding_of(op);
      std::string e;
      if (k == CoreOp::Neg)
        e = "(-" + x(0) + ")";
      else if (k == CoreOp::Add)
        e = "(" + x(0) + " + " + x(1) + ")";
      else if (k == CoreOp::Sub)
        e = "(" + x(0) + " - " + x(1) + ")";
      else if (k == CoreOp::Mul)
        e = "(" + x(0) + " * " + x(1) + ")";
      else if (is_int && r == ir::Rounding::Floor)
        e = (k == CoreOp::Div ? "$fdiv(" : "$fmod(") + x(0) + ", " + x(1) + ")";
      else if (is_int && r == ir::Rounding::Trunc)
        e = "(" + x(0) + (k == CoreOp::Div ? " / " : " % ") + x(1) + ")";
      else if (!is_int && r == ir::Rounding::None && k == CoreOp::Div)
        e = "(" + x(0) + " / " + x(1) + ")";
      else if (!is_int && r == ir::Rounding::Floor)
        e = k == CoreOp::Div ? "Math.floor(" + x(0) + " / " + x(1) + ")" : "$ffmod(" + x(0) + ", " + x(1) + ")";
      else
        return "";
      if (!is_int) return e;
      ir::Overflow o = ir::overflow_of(op);
      return ir::raises(o) ? "$ck(" + e + ")" : o == ir::Overflow::Wrap ? "$wrap(" + e + ")" : e;
    }
    switch (k) {
      case CoreOp::Cmp: {
        static constexpr const char* kOps[] = {" === ", " !== ", " < ", " <= ", " > ", " >= "};
        auto p = ir::predicate_of(op);
        return p ? "(" + x(0) + kOps[static_cast<int>(*p)] + x(1) + ")" : "";
      }
      case CoreOp::And:
        return t.is_bool() ? "(" + x(0) + " && " + x(1) + ")" : "(" + x(0) + " & " + x(1) + ")";
      case CoreOp::Or:
        return t.is_bool() ? "(" + x(0) + " || " + x(1) + ")" : "(" + x(0) + " | " + x(1) + ")";
      case CoreOp::Xor:
        return t.is_bool() ? "(" + x(0) + " !== " + x(1) + ")" : "(" + x(0) + " ^ " + x(1) + ")";
      case CoreOp::Shr:
        return is_int ? "(" + x(0) + " >> " + x(1) + ")" : "";
      case CoreOp::Shl:
        return is_int
                   ? "$shl(" + x(0) + ", " + x(1) + (ir::overflow_of(op) == ir::Overflow::Wrap ? ", true)" : ", false)")
                   : "";
      case CoreOp::Select:
        return "(" + x(0) + " ? " + x(1) + " : " + x(2) + ")";
      case CoreOp::Cast: {
        ir::Type from = op.operand(0)->type();
        if (from.is_integer_like() == is_int && from.is_float() == t.is_float() && from.is_bool() == t.is_bool())
          return x(0);
        if (t.is_float()) return from.is_bool() ? "(" + x(0) + " ? 1 : 0)" : "Number(" + x(0) + ")";
        if (is_int) return from.is_bool() ? "(" + x(0) + " ? 1n : 0n)" : "BigInt(Math.trunc(" + x(0) + "))";
        if (t.is_bool()) return "(" + x(0) + (from.is_float() ? " !== 0)" : " !== 0n)");
        return "";
      }
      default:
        break;
    }
    if (ir::is_math(k) && t.is_float()) {
      static const std::unordered_map<CoreOp, std::string> kMath = {
          {CoreOp::MathSqrt, "Math.sqrt"}, {CoreOp::MathSin, "Math.sin"},     {CoreOp::MathCos, "Math.cos"},
          {CoreOp::MathTan, "Math.tan"},   {CoreOp::MathExp, "Math.exp"},     {CoreOp::MathLog, "Math.log"},
          {CoreOp::MathLog2, "Math.log2"}, {CoreOp::MathLog10, "Math.log10"}, {CoreOp::MathFloor, "Math.floor"},
          {CoreOp::MathCeil, "Math.ceil"}, {CoreOp::MathTrunc, "Math.trunc"}, {CoreOp::MathAbs, "Math.abs"}};
      if (k == CoreOp::MathPow) return "(" + x(0) + " ** " + x(1) + ")";
      if (k == CoreOp::MathExp2) return "(2 ** " + x(0) + ")";
      if (auto it = kMath.find(k); it != kMath.end()) return it->second + "(" + x(0) + ")";
    }
    return "";
  }

  static std::string type_capability(ir::Type t) {
    return t.kind() == ir::TypeKind::Buffer ? "lists" : "values of type " + t.str();
  }

  /// What an op jsgen does not write would need, in the user's words.
  static std::string capability(const ir::Operation& op, CoreOp k) {
    if (op.dialect() == "gpu") return "device kernels";
    if (ir::is_buffer(k)) return "lists";
    if (k == CoreOp::Alloca || k == CoreOp::Load || k == CoreOp::Store || k == CoreOp::PtrOffset)
      return "memory (module variables, cells)";
    if (k == CoreOp::TupleMake || k == CoreOp::TupleExtract || k == CoreOp::StructMake || k == CoreOp::StructExtract)
      return "tuples and objects";
    if (k == CoreOp::Call) return "calls that catch exceptions or return several values";
    return "the op " + op.name();
  }

  const ir::Function& f_;
  std::unordered_map<const ir::Value*, std::string> names_;
  std::string locals_;
  std::optional<Lack> lack_;
};

}  // namespace

absl::Status refusal(const ppy::ir::Module& module, std::string_view backend) {
  for (const auto& f : module.functions()) {
    if (f->is_declaration()) continue;
    std::string discarded;
    if (auto lack = FunctionWriter(*f).write(discarded))
      return ppy::validation_error({std::string(backend), lack->what, lack->capability, lack->loc});
  }
  return absl::OkStatus();
}

std::string program(ppy::ModuleList modules, std::string_view entry_symbol) {
  std::string out(kPrelude);
  for (const ppy::ir::Module* m : modules)
    for (const auto& f : m->functions()) {
      if (f->is_declaration()) continue;
      out += "\n";
      (void)FunctionWriter(*f).write(out);
    }
  if (!entry_symbol.empty()) out += "\n$run(" + function_name(entry_symbol) + ");\n";
  return out;
}

absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& out,
                                       std::string_view entry_module, std::string_view entry_symbol) {
  std::filesystem::path path = out / ((entry_module.empty() ? "program" : std::string(entry_module)) + ".js");
  PPY_RETURN_IF_ERROR(ppy::write_file_atomic(path, program(modules, entry_symbol), {.executable = true}));
  return ppy::BuildResult{{path}};
}

ppy::ToolchainStatus node(std::string_view node) {
  auto found = ppy::find_program(node);
  if (!found) return {false, "missing " + std::string(node)};
  return {true, "node at " + found->string()};
}

}  // namespace jsgen
