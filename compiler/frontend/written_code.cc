#include "written_code.h"

#include "parser.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

std::vector<StmtPtr> parse_written(const std::string& text, const std::string& file) {
  DiagnosticEngine quiet;
  ModuleAst written = parse_module(text, file, quiet);
  if (!quiet.diagnostics().empty()) return {};
  return std::move(written.body);
}

void place_written(Expr& e, Pos p) {
  e.pos = p;
  for (auto& k : e.kids)
    if (k) place_written(*k, p);
  for (auto& k : e.keywords) {
    k.pos = p;
    if (k.value) place_written(*k.value, p);
  }
}

void place_written(Stmt& s, Pos p) {
  s.pos = p;
  for (auto* e : {&s.value, &s.annotation})
    if (*e) place_written(**e, p);
  for (auto& t : s.targets)
    if (t) place_written(*t, p);
  if (s.def) {
    s.def->pos = p;
    for (auto& prm : s.def->params) {
      prm.pos = p;
      if (prm.annotation) place_written(*prm.annotation, p);
      if (prm.default_value) place_written(*prm.default_value, p);
    }
    if (s.def->returns) place_written(*s.def->returns, p);
    for (auto& d : s.def->decorators)
      if (d) place_written(*d, p);
    for (auto& b : s.def->body)
      if (b) place_written(*b, p);
  }
  for (auto& h : s.handlers) h.pos = h.name_pos = p;
  for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
    for (auto& b : body)
      if (b) place_written(*b, p);
  });
}

void add_after_each_class(ModuleAst& ast, const std::function<std::vector<StmtPtr>(Stmt& cls)>& written_for) {
  std::vector<StmtPtr> body;
  for (auto& s : ast.body) {
    Stmt& c = *s;
    body.push_back(std::move(s));
    if (c.kind != StmtKind::Class || !c.def) continue;
    for (auto& w : written_for(c)) body.push_back(std::move(w));
  }
  ast.body = std::move(body);
}

}  // namespace ppy::frontend
