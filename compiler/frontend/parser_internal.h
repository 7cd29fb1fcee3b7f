#pragma once
// The parser's class, shared by its files: the module and its statements
// (parser.cc) and expressions (parser_expressions.cc). Not an API: nothing
// outside compiler/frontend includes it.

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "ast.h"
#include "lexer.h"
#include "parser.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::parsing {

/// Thrown to abandon the current statement after its error is reported.
struct Bail {};

/// Whether `s` is one of Python's keywords (never a name).
bool is_keyword(const std::string& s);

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& file, DiagnosticEngine& diags)
      : t_(std::move(toks)), file_(file), diags_(diags) {}

  ModuleAst run();
  /// A `case` pattern and what it asks of the subject (issue 32, parser_match.cc).
  struct MatchPattern;
  struct MatchLowered;

 private:
  // --- token helpers ---
  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  bool at_op(const char* s) const { return cur().kind == Tok::Op && cur().text == s; }
  bool at_kw(const char* s) const { return cur().kind == Tok::Name && cur().text == s; }
  Token take() {
    Token t = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    return t;
  }
  bool accept_op(const char* s) {
    if (!at_op(s)) return false;
    take();
    return true;
  }
  bool accept_kw(const char* s) {
    if (!at_kw(s)) return false;
    take();
    return true;
  }
  std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::Name:
        return str_cat("'", t.text, "'");
      case Tok::Int:
      case Tok::Float:
        return str_cat("number '", t.text, "'");
      case Tok::String:
        return "a string";
      case Tok::Op:
        return str_cat("'", t.text, "'");
      case Tok::Newline:
        return "end of line";
      case Tok::Indent:
        return "an indent";
      case Tok::Dedent:
        return "a dedent";
      case Tok::End:
        return "end of file";
    }
    return "?";
  }
  [[noreturn]] void fail(Pos p, std::string msg, const char* code = "E1001") {
    error(p, std::move(msg), code);
    throw Bail{};
  }
  void error(Pos p, std::string msg, const char* code = "E1001") {
    diags_.error(code, file_, p.line, p.col, std::move(msg));
  }
  void expect_op(const char* s) {
    if (!accept_op(s)) fail(cur().pos, str_cat("expected '", s, "', found ", describe(cur())));
  }
  std::string expect_name() {
    if (!at(Tok::Name) || is_keyword(cur().text)) fail(cur().pos, str_cat("expected a name, found ", describe(cur())));
    return take().text;
  }
  void unsupported(Pos p, std::string what) { fail(p, str_cat(what, " is outside the ppy subset"), "E1010"); }

  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, Pos pos) : p(parser) {
      if (++p.nesting_ > kMaxNesting) {
        --p.nesting_;
        p.fail(pos, "the code is nested too deeply", "E1090");
      }
    }
    ~DepthGuard() { --p.nesting_; }
  };

  // --- recovery ---
  void skip_block();
  void recover();
  /// After a compound statement (`first` its keyword) was dropped: its
  /// remaining clauses (`elif`, `else`, `except`, `finally`) with their blocks,
  /// which are no statements of their own (no false "unexpected 'else'").
  void skip_clauses(const std::string& first);

  // --- statements (parser.cc) ---
  void statement(std::vector<StmtPtr>& out);
  StmtPtr make(StmtKind k, Pos p);
  void compound_or_simple(std::vector<StmtPtr>& out);
  /// Whether the statement at `match` (a soft keyword) is a match statement:
  /// its line ends in `:` and `match` is not itself assigned, annotated or
  /// dereferenced, which is how Python tells `match x:` from `match = 1`.
  bool starts_match_stmt() const;
  void simple_stmts(std::vector<StmtPtr>& out);
  StmtPtr small_stmt();
  std::string dotted_name();
  StmtPtr import_stmt();
  StmtPtr from_stmt();
  std::vector<StmtPtr> suite();
  StmtPtr if_stmt();
  /// `try:` with `except` clauses, `else` and `finally` (docs/language.md, "Exceptions").
  StmtPtr try_stmt();
  void with_stmt(std::vector<StmtPtr>& out);  ///< io (issue 33, parser_with.cc)
  /// `match subject:` and its cases, as an if/elif chain (issue 32, parser_match.cc); a hidden
  /// local's assignment of the subject goes to `out` first.
  StmtPtr match_stmt(std::vector<StmtPtr>& out);
  MatchPattern match_patterns();
  MatchPattern match_as_pattern();
  MatchPattern match_closed_pattern();
  MatchLowered lower_pattern(const MatchPattern& pat, const Expr& path);
  StmtPtr while_stmt();
  StmtPtr for_stmt();
  ExprPtr target_list();
  /// `class Name[(Base, ...)]:` and its body (docs/language.md, "Classes").
  StmtPtr class_stmt(std::vector<ExprPtr> decos);
  StmtPtr def_stmt(std::vector<ExprPtr> decos);
  // --- generics (type_params.cc) ---
  /// PEP 695's `[T, U]` after a def's or a class's name: the parameters' names.
  std::vector<std::string> type_params();
  /// `type Name = T` (PEP 695): read as `Name: TypeAlias = T`.
  StmtPtr type_alias_stmt();

  // --- expressions (parser_expressions.cc) ---
  ExprPtr node(ExprKind k, Pos p);
  /// Moves the positions of a field's expression (parsed from the f-string's
  /// text alone) to where the text sits in the file.
  static void shift(Expr& e, Pos where);
  /// The parts of an f-string's decoded text: literal text (`{{` and `}}`
  /// undoubled) and fields `{expr[!conv][:spec]}` (an FField: kids[0] the
  /// expression, `str` the spec, `ival` the conversion letter or 0).
  void fstring_parts(const std::string& text, Pos where, std::vector<ExprPtr>& parts, std::string& lit);
  /// The one expression of an f-string field's text (nothing else).
  ExprPtr lone_expression(Pos where);
  /// `start:stop:step` inside `[...]`, at the first `:` (`start` parsed, or
  /// null): a Slice whose kids are the parts present, `ival` their mask (1
  /// start, 2 stop, 4 step).
  ExprPtr slice(ExprPtr start, Pos p);
  /// Sets `e`'s depth from its kids'; refuses an expression nested too deeply (E1090).
  ExprPtr finish(ExprPtr e);
  /// `lambda a, b: body` (callable.h): a Lambda whose ops are the parameters.
  ExprPtr lambda();
  ExprPtr testlist();
  /// `*rest` in an unpacking target (`first, *rest = xs`): a Unary "*" the checker takes
  /// only there (is_starred); elsewhere it stays refused.
  ExprPtr starred_or_expr();
  /// The rest of `[elt for x in it if cond ...]` after `elt`: `for` clauses (one
  /// name, or names separated by commas), each with any number of `if`s.
  /// `[e for a in A if c for b in B]` nests: the comprehension over A has as its
  /// element a comprehension over B marked `str = "for"` (its elements are the
  /// outer one's), whose element is `e`. kids: element, iterable, conditions
  /// (`ival` of them).
  /// A dict or set comprehension (`kind` DictComp or SetComp, closed by `}`) has one
  /// `for` clause; a dict's `value` is its last kid, after the conditions.
  /// `generator`: a generator expression (lazy sequences), marked `bval` on its first clause; the caller takes `)`.
  ExprPtr comprehension(ExprPtr elt, Pos p, ExprKind kind = ExprKind::ListComp, ExprPtr value = nullptr,
                        bool generator = false);
  /// `{}`, `{k: v, ...}`, `{a, b}` and their comprehensions.
  ExprPtr brace_display(Pos p);
  ExprPtr named_expr();
  ExprPtr expr();
  ExprPtr bool_chain(const char* kw, ExprPtr (Parser::*next)());
  ExprPtr or_test() { return bool_chain("or", &Parser::and_test); }
  ExprPtr and_test() { return bool_chain("and", &Parser::not_test); }
  ExprPtr not_test();
  bool comp_op(std::string& op);
  ExprPtr comparison();
  ExprPtr binary_chain(std::initializer_list<const char*> ops, ExprPtr (Parser::*next)());
  ExprPtr bitor_expr() { return binary_chain({"|"}, &Parser::bitxor_expr); }
  ExprPtr bitxor_expr() { return binary_chain({"^"}, &Parser::bitand_expr); }
  ExprPtr bitand_expr() { return binary_chain({"&"}, &Parser::shift_expr); }
  ExprPtr shift_expr() { return binary_chain({"<<", ">>"}, &Parser::arith_expr); }
  ExprPtr arith_expr() { return binary_chain({"+", "-"}, &Parser::term); }
  ExprPtr term() { return binary_chain({"*", "/", "//", "%", "@"}, &Parser::factor); }
  ExprPtr factor();
  ExprPtr power();
  ExprPtr trailers(ExprPtr e);
  ExprPtr atom();

  std::vector<Token> t_;
  const std::string& file_;
  DiagnosticEngine& diags_;
  size_t p_ = 0;
  int nesting_ = 0;
  int elifs_ = 0;
};

}  // namespace ppy::frontend::parsing
