// The parser, `with` (issue 33): written as the try statement it means for a
// file, so every road runs it as it runs try/finally.
//
//   with open(p) as f, open(q) as g:     f = __ppy_with__(open(p))
//       body                             try:
//                                            g = __ppy_with__(open(q))
//                                            try:
//                                                body
//                                            finally:
//                                                g.close()
//                                        finally:
//                                            f.close()
//
// `__ppy_with__(x)` is x, checked to be a stream (check_io.cc): a file's
// __enter__ is itself and its __exit__ closes it, letting the exception (if
// any) go on. An item without `as` is held in a hidden local.
#include "parser_internal.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::parsing {

void Parser::with_stmt(std::vector<StmtPtr>& out) {
  Pos pos = take().pos;
  if (at_op("(")) {
    // `with (a as x, b as y):` (3.10's parenthesized form) is rare; refuse it by name.
    size_t k = p_;
    int depth = 0;
    for (; k < t_.size() && t_[k].kind != Tok::Newline; ++k) {
      if (t_[k].kind == Tok::Op && t_[k].text == "(") ++depth;
      if (t_[k].kind == Tok::Op && t_[k].text == ")") --depth;
      if (depth == 1 && t_[k].kind == Tok::Name && t_[k].text == "as")
        unsupported(cur().pos, "a parenthesized with statement");
    }
  }
  struct Item {
    ExprPtr value;
    std::string name;
    Pos pos;
  };
  std::vector<Item> items;
  do {
    Item it;
    it.pos = cur().pos;
    it.value = expr();
    if (accept_kw("as")) {
      if (cur().kind != Tok::Name || peek().kind != Tok::Op || (peek().text != ":" && peek().text != ","))
        unsupported(cur().pos, "a with statement's target other than a name");
      it.name = expect_name();
    } else {
      it.name = str_cat("_ppy_with_", it.pos.line, "_", it.pos.col);
    }
    items.push_back(std::move(it));
  } while (accept_op(","));
  std::vector<StmtPtr> body = suite();
  for (size_t i = items.size(); i-- > 0;) {
    Item& it = items[i];
    auto name = [&] {
      ExprPtr n = node(ExprKind::Name, it.pos);
      n->str = it.name;
      return n;
    };
    auto enter = make(StmtKind::Assign, it.pos);
    enter->targets.push_back(name());
    ExprPtr call = node(ExprKind::Call, it.pos);
    ExprPtr fn = node(ExprKind::Name, it.pos);
    fn->str = "__ppy_with__";
    call->kids.push_back(std::move(fn));
    call->kids.push_back(std::move(it.value));
    enter->value = std::move(call);
    auto guarded = make(StmtKind::Try, i == 0 ? pos : it.pos);
    guarded->body = std::move(body);
    auto exit = make(StmtKind::Expr, it.pos);
    ExprPtr close = node(ExprKind::Call, it.pos);
    ExprPtr attr = node(ExprKind::Attribute, it.pos);
    attr->str = "close";
    attr->kids.push_back(name());
    close->kids.push_back(std::move(attr));
    exit->value = std::move(close);
    guarded->finalbody.push_back(std::move(exit));
    body.clear();
    body.push_back(std::move(enter));
    body.push_back(std::move(guarded));
  }
  for (auto& st : body) out.push_back(std::move(st));
}

}  // namespace ppy::frontend::parsing
