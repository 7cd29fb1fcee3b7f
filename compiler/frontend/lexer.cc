// The tokenizer: Python's rules for the tokens the subset uses.
#include "lexer.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdlib>

#include "ppy/util/str_cat.h"
#include "ppy/util/utf8.h"

namespace ppy::frontend {
namespace {

bool is_ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_ident(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file, DiagnosticEngine& diags)
      : src_(src), file_(file), diags_(diags) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    if (src_.starts_with("\xEF\xBB\xBF")) i_ = line_start_ = 3;  // a UTF-8 byte order mark
    refuse_bad_utf8();
    bool at_line_start = true;
    while (i_ < src_.size()) {
      if (at_line_start && depth_ == 0) {
        at_line_start = false;
        if (!indentation()) {  // a blank or comment-only line
          at_line_start = true;
          continue;
        }
      }
      char c = src_[i_];
      if (c == '\n') {
        Pos nl = here();
        newline_char();
        if (depth_ == 0) {
          if (!toks_.empty() && toks_.back().kind != Tok::Newline) push(Tok::Newline, "", nl);
          at_line_start = true;
        }
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') { ++i_; continue; }
      if (c == '#') { skip_comment(); continue; }
      if (c == '\\') {
        Pos p = here();
        ++i_;
        if (i_ < src_.size() && src_[i_] == '\r') ++i_;
        if (i_ < src_.size() && src_[i_] == '\n') { newline_char(); continue; }
        error(p, "unexpected character after line continuation character");
        continue;
      }
      if (is_ident_start(static_cast<unsigned char>(c))) { name_or_string(); continue; }
      if (std::isdigit(static_cast<unsigned char>(c)) ||
          (c == '.' && i_ + 1 < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i_ + 1])))) {
        number();
        continue;
      }
      if (c == '"' || c == '\'') { string(0, false, here()); continue; }
      op();
    }
    Pos end = here();
    if (!toks_.empty() && toks_.back().kind != Tok::Newline) push(Tok::Newline, "", end);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(Tok::Dedent, "", end);
    }
    push(Tok::End, "", end);
    return std::move(toks_);
  }

 private:
  Pos here() const { return {line_, static_cast<uint32_t>(i_ - line_start_ + 1)}; }
  Pos pos_of(size_t at) const { return {line_, static_cast<uint32_t>(at - line_start_ + 1)}; }
  void newline_char() {
    ++i_;
    ++line_;
    line_start_ = i_;
  }
  void error(Pos p, std::string msg, const char* code = "E1001") { diags_.error(code, file_, p.line, p.col, std::move(msg)); }
  Token& push(Tok k, std::string text, Pos p) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.pos = p;
    toks_.push_back(std::move(t));
    return toks_.back();
  }
  /// Source is UTF-8 (PEP 3120): the first byte that is not is refused where
  /// it stands, in the codec's words as python3 gives them. Lexing goes on, so
  /// other errors are still found.
  void refuse_bad_utf8() {
    Utf8Error bad = check_utf8(src_);
    if (!bad) return;
    uint32_t line = 1;
    size_t start = 0;
    for (size_t k = 0; k < bad.offset; ++k)
      if (src_[k] == '\n') ++line, start = k + 1;
    static const char hex[] = "0123456789abcdef";
    auto byte = static_cast<unsigned char>(src_[bad.offset]);
    diags_.error("E1001", file_, line, static_cast<uint32_t>(bad.offset - start + 1),
                 str_cat("'utf-8' codec can't decode byte 0x", hex[byte >> 4], hex[byte & 15], ": ", bad.reason,
                         " (ppy source must be UTF-8)"));
  }
  void skip_comment() {
    while (i_ < src_.size() && src_[i_] != '\n') ++i_;
  }

  // At the start of a logical line: measures the indentation and emits
  // INDENT/DEDENT. Returns false for a blank or comment-only line.
  bool indentation() {
    size_t col = 0;
    size_t j = i_;
    while (j < src_.size() && (src_[j] == ' ' || src_[j] == '\t' || src_[j] == '\f')) {
      col = src_[j] == '\t' ? (col / 8 + 1) * 8 : src_[j] == '\f' ? 0 : col + 1;
      ++j;
    }
    if (j < src_.size() && src_[j] == '\r') ++j;
    if (j >= src_.size() || src_[j] == '\n' || src_[j] == '#') {
      i_ = j;
      if (i_ < src_.size() && src_[i_] == '#') skip_comment();
      if (i_ < src_.size()) newline_char();
      return false;
    }
    if (j < src_.size() && src_[j] == '\\') {
      i_ = j;
      return true;
    }
    i_ = j;
    Pos p = here();
    if (col > indents_.back()) {
      if (indents_.size() >= 100 && !deep_reported_) {
        error(p, "too many levels of indentation", "E1090");
        deep_reported_ = true;  // once: every deeper line would say it again
      }
      indents_.push_back(col);
      push(Tok::Indent, "", p);
    } else {
      while (col < indents_.back()) {
        indents_.pop_back();
        push(Tok::Dedent, "", p);
      }
      if (col != indents_.back()) {
        error(p, "unindent does not match any outer indentation level");
        indents_.push_back(col);
      }
    }
    return true;
  }

  void name_or_string() {
    size_t start = i_;
    Pos p = here();
    while (i_ < src_.size() && is_ident(static_cast<unsigned char>(src_[i_]))) ++i_;
    std::string_view word = src_.substr(start, i_ - start);
    if (i_ < src_.size() && (src_[i_] == '"' || src_[i_] == '\'') && word.size() <= 2) {
      bool raw = false, ok = true;
      char prefix = 0;
      for (char ch : word) {
        char l = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (l == 'r') raw = true;
        else if (l == 'b' || l == 'f') prefix = l;
        else if (l != 'u') ok = false;
      }
      if (ok) {
        string(prefix, raw, p);
        return;
      }
    }
    push(Tok::Name, std::string(word), p);
  }

  void number() {
    size_t start = i_;
    Pos p = here();
    auto digits = [&](auto pred) {
      while (i_ < src_.size() && (pred(static_cast<unsigned char>(src_[i_])) || src_[i_] == '_')) ++i_;
    };
    auto is_dec = [](unsigned char c) { return std::isdigit(c) != 0; };
    bool is_float = false;
    int base = 10;
    if (src_[i_] == '0' && i_ + 1 < src_.size() && std::strchr("xXoObB", src_[i_ + 1]) && src_[i_ + 1] != 0) {
      char b = static_cast<char>(std::tolower(static_cast<unsigned char>(src_[i_ + 1])));
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      i_ += 2;
      digits([](unsigned char c) { return std::isxdigit(c) != 0; });
    } else {
      digits(is_dec);
      if (i_ < src_.size() && src_[i_] == '.') {
        is_float = true;
        ++i_;
        digits(is_dec);
      }
      if (i_ < src_.size() && (src_[i_] == 'e' || src_[i_] == 'E')) {
        size_t save = i_;
        ++i_;
        if (i_ < src_.size() && (src_[i_] == '+' || src_[i_] == '-')) ++i_;
        if (i_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i_]))) {
          is_float = true;
          digits(is_dec);
        } else {
          i_ = save;
        }
      }
    }
    std::string text(src_.substr(start, i_ - start));
    if (i_ < src_.size() && (src_[i_] == 'j' || src_[i_] == 'J')) {
      ++i_;
      error(p, "complex numbers are outside the ppy subset", "E1010");
      push(Tok::Int, text, p);
      return;
    }
    if (i_ < src_.size() && is_ident(static_cast<unsigned char>(src_[i_]))) {
      error(p, str_cat("invalid number literal '", text, std::string(1, src_[i_]), "'"));
      while (i_ < src_.size() && is_ident(static_cast<unsigned char>(src_[i_]))) ++i_;
      push(Tok::Int, text, p);
      return;
    }
    std::string clean;
    for (char ch : text)
      if (ch != '_') clean.push_back(ch);
    if (text.find("__") != std::string::npos || text.back() == '_') {
      error(p, str_cat("invalid number literal '", text, "'"));
    }
    if (is_float) {
      Token& t = push(Tok::Float, text, p);
      t.fval = std::strtod(clean.c_str(), nullptr);
      return;
    }
    Token& t = push(Tok::Int, text, p);
    std::string body = base == 10 ? clean : clean.substr(2);
    const char* valid = base == 16 ? "0123456789abcdefABCDEF" : base == 8 ? "01234567" : base == 2 ? "01" : "0123456789";
    if (body.empty() || body.find_first_not_of(valid) != std::string::npos) {
      error(p, str_cat("invalid number literal '", text, "'"));
      return;
    }
    if (base == 10 && body.size() > 1 && body[0] == '0' && body.find_first_not_of('0') != std::string::npos) {
      error(p, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
    }
    errno = 0;
    unsigned long long v = std::strtoull(body.c_str(), nullptr, base);
    if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX)) {
      // 2**63 is allowed to reach the parser so that `-9223372036854775808` works.
      t.too_big = true;
      t.ival = INT64_MIN;
      if (!(errno != ERANGE && v == static_cast<unsigned long long>(INT64_MAX) + 1)) t.ival = 0;
    } else {
      t.ival = static_cast<int64_t>(v);
    }
  }

  void string(char prefix, bool raw, Pos p) {
    char q = src_[i_];
    bool triple = i_ + 2 < src_.size() && src_[i_ + 1] == q && src_[i_ + 2] == q;
    i_ += triple ? 3 : 1;
    std::string out;
    for (;;) {
      if (i_ >= src_.size()) {
        error(p, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
        break;
      }
      char c = src_[i_];
      if (c == q && (!triple || (i_ + 2 < src_.size() + 0 && src_[i_ + 1] == q && src_[i_ + 2] == q))) {
        i_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n') {
        if (!triple) {
          error(p, "unterminated string literal");
          break;
        }
        out.push_back('\n');
        newline_char();
        continue;
      }
      if (c == '\\' && i_ + 1 < src_.size()) {
        char e = src_[i_ + 1];
        if (raw) {
          out.push_back('\\');
          if (e == '\n') {
            out.push_back('\n');
            ++i_;
            newline_char();
            continue;
          }
          out.push_back(e);
          i_ += 2;
          continue;
        }
        i_ += 2;
        switch (e) {
          case '\n': ++line_; line_start_ = i_; break;
          case '\\': out.push_back('\\'); break;
          case '\'': out.push_back('\''); break;
          case '"': out.push_back('"'); break;
          case 'n': out.push_back('\n'); break;
          case 't': out.push_back('\t'); break;
          case 'r': out.push_back('\r'); break;
          case 'a': out.push_back('\a'); break;
          case 'b': out.push_back('\b'); break;
          case 'f': out.push_back('\f'); break;
          case 'v': out.push_back('\v'); break;
          case 'x': case 'u': case 'U': {
            int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            int k = 0;
            for (; k < n && i_ < src_.size() && std::isxdigit(static_cast<unsigned char>(src_[i_])); ++k, ++i_)
              cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(src_[i_]))
                                                       ? src_[i_] - '0'
                                                       : std::tolower(static_cast<unsigned char>(src_[i_])) - 'a' + 10);
            if (k != n || cp > 0x10FFFF) {
              error(p, str_cat("invalid \\", std::string(1, e), " escape in a string literal"));
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
              // Python keeps it, and fails when printing it; the IR's strings are UTF-8.
              error(p, "a lone surrogate in a string is outside the ppy subset (strings are UTF-8)", "E1010");
            } else {
              append_utf8(out, cp);
            }
            break;
          }
          case 'N':
            error(p, "\\N{...} escapes are outside the ppy subset", "E1010");
            break;
          default:
            if (e >= '0' && e <= '7') {
              uint32_t cp = static_cast<uint32_t>(e - '0');
              for (int k = 0; k < 2 && i_ < src_.size() && src_[i_] >= '0' && src_[i_] <= '7'; ++k, ++i_)
                cp = cp * 8 + static_cast<uint32_t>(src_[i_] - '0');
              append_utf8(out, cp);
            } else {
              out.push_back('\\');
              out.push_back(e);
            }
        }
        continue;
      }
      out.push_back(c);
      ++i_;
    }
    Token& t = push(Tok::String, std::move(out), p);
    t.prefix = prefix;
  }

  void op() {
    static const char* three[] = {"**=", "//=", ">>=", "<<=", "...", "!="};
    static const char* two[] = {"**", "//", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=", "*=", "/=",
                                "%=", "&=", "|=", "^=", "->", ":=", "@="};
    Pos p = here();
    std::string_view rest = src_.substr(i_);
    for (const char* t : three)
      if (rest.starts_with(t) && std::strlen(t) == 3) {
        i_ += 3;
        push(Tok::Op, t, p);
        return;
      }
    for (const char* t : two)
      if (rest.starts_with(t)) {
        i_ += 2;
        push(Tok::Op, t, p);
        return;
      }
    char c = src_[i_];
    if (std::strchr("()[]{}:,;.+-*/%<>=&|^~@", c) && c != 0) {
      ++i_;
      if (c == '(' || c == '[' || c == '{') ++depth_;
      if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
      push(Tok::Op, std::string(1, c), p);
      return;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    error(p, uc >= 0x20 && uc < 0x7f ? str_cat("invalid character '", std::string(1, c), "'")
                                     : str_cat("invalid character (byte ", static_cast<int>(uc), ")"));
    ++i_;
  }

  std::string_view src_;
  const std::string& file_;
  DiagnosticEngine& diags_;
  std::vector<Token> toks_;
  std::vector<size_t> indents_;
  size_t i_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  int depth_ = 0;
  bool deep_reported_ = false;
};

}  // namespace

std::vector<Token> lex(std::string_view src, const std::string& file, DiagnosticEngine& diags) {
  return Lexer(src, file, diags).run();
}

}  // namespace ppy::frontend
