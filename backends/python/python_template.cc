#include "python_template.h"

#include <cctype>
#include <map>
#include <set>

#include "ppy/util/str_cat.h"
#include "python_helpers.h"

namespace ppy::backends::python {
namespace {

struct Token {
  enum Kind { kName, kNumber, kString, kOperand, kTextAttr, kSymbol, kEnd } kind;
  std::string_view text;
  size_t begin = 0, end = 0;
  size_t operand = 0;  ///< kOperand
};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

absl::StatusOr<std::vector<Token>> tokenize(std::string_view s) {
  static const char* kTwo[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!="};
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    Token t{Token::kSymbol, {}, i, i + 1};
    if (c == '$') {
      size_t j = i + 1;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i + 1) {
        t.kind = Token::kOperand;
        t.operand = std::stoul(std::string(s.substr(i + 1, j - i - 1)));
      } else if (s.substr(i + 1).starts_with("text") && !(i + 5 < s.size() && name_char(s[i + 5]))) {
        t.kind = Token::kTextAttr;
        j = i + 5;
      } else {
        return absl::InvalidArgumentError(str_cat("'$' at ", i, " is neither $0..$9 nor $text"));
      }
      t.end = j;
    } else if (name_start(c)) {
      t.kind = Token::kName;
      while (t.end < s.size() && name_char(s[t.end])) ++t.end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Token::kNumber;
      while (t.end < s.size() && (name_char(s[t.end]) || s[t.end] == '.')) ++t.end;
    } else if (c == '"' || c == '\'') {
      t.kind = Token::kString;
      while (t.end < s.size() && s[t.end] != c) t.end += s[t.end] == '\\' ? 2 : 1;
      if (t.end >= s.size()) return absl::InvalidArgumentError(str_cat("an unterminated string at ", i));
      ++t.end;
    } else {
      for (const char* two : kTwo)
        if (s.substr(i).starts_with(two)) t.end = i + 2;
      if (t.end == i + 1 && std::string_view("+-*/%@<>|^&~.,()[]{}:").find(c) == std::string_view::npos)
        return absl::InvalidArgumentError(str_cat("'", std::string(1, c), "' at ", i));
    }
    t.text = s.substr(t.begin, t.end - t.begin);
    i = t.end;
    out.push_back(t);
  }
  out.push_back(Token{Token::kEnd, {}, s.size(), s.size()});
  return out;
}

/// A parsed (sub)expression: how tightly it binds, and which operand it is
/// when it is one and nothing else.
struct Parsed {
  int prec = kAtom;
  const Token* operand = nullptr;
};

/// A recursive descent over Python's expression grammar (the subset templates
/// use), recording what each operand's place needs.
class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : t_(tokens) {}

  absl::StatusOr<Parsed> statement() {
    Parsed p;
    if (keyword("raise")) {
      ++pos_;
      need(expression(), kStatement);
      p = {kStatement, nullptr};
    } else {
      p = expression();
    }
    if (error_.empty() && at().kind != Token::kEnd) fail(str_cat("'", at().text, "'"));
    if (!error_.empty()) return absl::InvalidArgumentError(error_);
    return p;
  }

  /// What each operand token's place needs.
  const std::map<const Token*, int>& needs() const { return needs_; }

 private:
  const Token& at() const { return t_[pos_]; }
  bool keyword(std::string_view k) const { return at().kind == Token::kName && at().text == k; }
  bool symbol(std::string_view s) const { return at().kind == Token::kSymbol && at().text == s; }
  void fail(std::string what) {
    if (error_.empty()) error_ = str_cat("unexpected ", what, " at ", at().begin);
    pos_ = t_.size() - 1;
  }
  void expect(std::string_view s) {
    if (symbol(s) || keyword(s)) {
      ++pos_;
    } else {
      fail(str_cat("'", at().text, "' (not '", s, "')"));
    }
  }
  void need(const Parsed& p, int prec) {
    if (p.operand) needs_[p.operand] = prec;
  }

  Parsed expression() {  // a if c else b
    Parsed body = binary(0);
    if (!keyword("if")) return body;
    ++pos_;
    Parsed cond = binary(0);
    expect("else");
    Parsed alt = expression();
    need(body, kTernary + 1);
    need(cond, kTernary + 1);
    need(alt, kTernary);
    return {kTernary, nullptr};
  }

  /// The left-associative levels, loosest first, from `or` to `*`; `not`
  /// and comparisons have levels of their own.
  Parsed binary(size_t level) {
    struct Level {
      int prec;
      std::vector<std::string_view> ops;
    };
    static const std::vector<Level> kLevels = {
        {kOr, {"or"}},      {kAnd, {"and"}},
        {kNot, {}},         {kCmp, {}},
        {kBitOr, {"|"}},    {kBitXor, {"^"}},
        {kBitAnd, {"&"}},   {kShift, {"<<", ">>"}},
        {kAdd, {"+", "-"}}, {kMul, {"*", "/", "//", "%", "@"}},
    };
    if (level == kLevels.size()) return unary();
    const Level& l = kLevels[level];
    if (l.prec == kNot) {
      if (!keyword("not")) return binary(level + 1);
      ++pos_;
      need(binary(level), kNot);
      return {kNot, nullptr};
    }
    if (l.prec == kCmp) return comparison(level);
    auto at_op = [&] {
      for (std::string_view op : l.ops)
        if (symbol(op) || keyword(op)) return true;
      return false;
    };
    Parsed left = binary(level + 1);
    while (at_op()) {
      ++pos_;
      Parsed right = binary(level + 1);
      need(left, l.prec);
      need(right, l.prec + 1);
      left = {l.prec, nullptr};
    }
    return left;
  }

  Parsed comparison(size_t level) {
    auto at_op = [&] {
      static const std::set<std::string_view> kOps = {"<", ">", "==", ">=", "<=", "!="};
      if (at().kind == Token::kSymbol && kOps.count(at().text)) return 1;
      if (keyword("in") || keyword("is")) return keyword("is") && t_[pos_ + 1].text == "not" ? 2 : 1;
      if (keyword("not") && t_[pos_ + 1].text == "in") return 2;
      return 0;
    };
    Parsed left = binary(level + 1);
    if (!at_op()) return left;
    need(left, kCmp + 1);
    while (int n = at_op()) {
      pos_ += n;
      need(binary(level + 1), kCmp + 1);
    }
    return {kCmp, nullptr};
  }

  Parsed unary() {
    if (symbol("-") || symbol("+") || symbol("~")) {
      ++pos_;
      need(unary(), kUnary);
      return {kUnary, nullptr};
    }
    Parsed base = primary();
    if (!symbol("**")) return base;
    ++pos_;
    need(base, kPow + 1);
    need(unary(), kUnary);
    return {kPow, nullptr};
  }

  Parsed primary() {
    Parsed p = atom();
    while (symbol(".") || symbol("(") || symbol("[")) {
      need(p, kAtom);
      p = {kAtom, nullptr};
      if (symbol(".")) {
        ++pos_;
        if (at().kind != Token::kName) return fail("a name after '.'"), p;
        ++pos_;
      } else {
        enclosed();
      }
    }
    return p;
  }

  /// `( ... )`, `[ ... ]` or `{ ... }`: expressions separated by `,` or `:`,
  /// each needing nothing of its operands.
  void enclosed() {
    std::string_view close = symbol("(") ? ")" : symbol("[") ? "]" : "}";
    ++pos_;
    while (!symbol(close) && at().kind != Token::kEnd) {
      need(expression(), kStatement);
      if (!symbol(",") && !symbol(":")) break;
      ++pos_;
    }
    expect(close);
  }

  Parsed atom() {
    const Token& t = at();
    static const std::set<std::string_view> kKeywords = {
        "and",      "as",     "assert",  "async", "await", "break",  "class", "continue", "def",  "del",  "elif",
        "else",     "except", "finally", "for",   "from",  "global", "if",    "import",   "in",   "is",   "lambda",
        "nonlocal", "not",    "or",      "pass",  "raise", "return", "try",   "while",    "with", "yield"};
    switch (t.kind) {
      case Token::kOperand:
        ++pos_;
        return {kAtom, &t};
      case Token::kName:
        if (kKeywords.count(t.text)) return fail(str_cat("'", t.text, "'")), Parsed{};
        [[fallthrough]];
      case Token::kNumber:
      case Token::kString:
      case Token::kTextAttr:
        ++pos_;
        return {};
      case Token::kSymbol:
        if (symbol("(") || symbol("[") || symbol("{")) {
          enclosed();
          return {};
        }
        [[fallthrough]];
      default:
        fail(t.kind == Token::kEnd ? std::string("the end") : str_cat("'", t.text, "'"));
        return {};
    }
  }

  const std::vector<Token>& t_;
  size_t pos_ = 0;
  std::map<const Token*, int> needs_;
  std::string error_;
};

}  // namespace

Expr CallTemplate::expand(const std::function<Expr(size_t)>& operand, std::string_view text_literal) const {
  if (bare_operand) return operand(pieces[0].operand);
  std::string out;
  for (const Piece& p : pieces) {
    switch (p.kind) {
      case Piece::kText:
        out += p.text;
        break;
      case Piece::kOperand:
        out += paren(operand(p.operand), p.need);
        break;
      case Piece::kTextAttr:
        out += text_literal;
        break;
    }
  }
  return {std::move(out), prec};
}

absl::StatusOr<CallTemplate> compile_call_template(std::string_view text, size_t num_operands, bool has_text) {
  CallTemplate out;
  if (text == "*") {
    out.by_hand = true;
    return out;
  }
  if (text.empty()) return out;
  auto tokens = tokenize(text);
  if (!tokens.ok()) return tokens.status();
  Parser parser(*tokens);
  auto parsed = parser.statement();
  if (!parsed.ok()) return parsed.status();
  out.prec = parsed->prec;
  std::set<size_t> seen;
  size_t copied = 0;
  auto copy_to = [&](size_t end) {
    if (end > copied)
      out.pieces.push_back({CallTemplate::Piece::kText, std::string(text.substr(copied, end - copied))});
  };
  for (const Token& t : *tokens) {
    if (t.kind == Token::kName && t.text.starts_with("_ppy_")) {
      if (!find_helper(t.text))
        return absl::InvalidArgumentError(str_cat("no helper '", t.text, "' in ppy_helpers.py"));
      out.helpers.emplace_back(t.text);
    }
    if (t.kind == Token::kTextAttr && !has_text) return absl::InvalidArgumentError("$text without the text flag");
    if (t.kind == Token::kOperand) {
      if (t.operand >= num_operands)
        return absl::InvalidArgumentError(str_cat("$", t.operand, " of ", num_operands, " operand(s)"));
      if (!seen.insert(t.operand).second)
        return absl::InvalidArgumentError(str_cat("$", t.operand, " twice (its expression would run twice)"));
    }
    if (t.kind != Token::kOperand && t.kind != Token::kTextAttr) continue;
    copy_to(t.begin);
    CallTemplate::Piece p{t.kind == Token::kOperand ? CallTemplate::Piece::kOperand : CallTemplate::Piece::kTextAttr};
    p.operand = t.operand;
    auto need = parser.needs().find(&t);
    p.need = need == parser.needs().end() ? kStatement : need->second;
    out.pieces.push_back(std::move(p));
    copied = t.end;
  }
  copy_to(text.size());
  out.bare_operand = parsed->operand != nullptr;
  return out;
}

const absl::StatusOr<CallTemplate>& call_template(const runtime::RuntimeFunction& fn) {
  static const auto* compiled = [] {
    auto* m = new std::map<std::string_view, absl::StatusOr<CallTemplate>>();
    for (const runtime::RuntimeFunction& f : runtime::runtime_functions()) {
      auto t = compile_call_template(f.python, f.params.size(), f.has(runtime::kText));
      if (!t.ok())
        t = absl::InvalidArgumentError(
            str_cat("the python template of ", f.symbol, " (", f.python, "): ", std::string(t.status().message())));
      m->emplace(f.symbol, std::move(t));
    }
    return m;
  }();
  return compiled->at(fn.symbol);
}

bool hand_written_call(std::string_view symbol) {
  static const std::set<std::string_view> kByHand = {
      "ppy_print_i64",     "ppy_print_f64",    "ppy_print_bool", "ppy_print_str",  "ppy_print_space",
      "ppy_print_newline", "ppy_print_string", "ppy_str_slice",  "ppy_list_slice", "ppy_dict_new"};
  return kByHand.count(symbol) != 0;
}

bool writes_call(const runtime::RuntimeFunction& fn) {
  const absl::StatusOr<CallTemplate>& t = call_template(fn);
  return t.ok() && (!t->by_hand || hand_written_call(fn.symbol));
}

}  // namespace ppy::backends::python
