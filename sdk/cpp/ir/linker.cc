#include "ppy/ir/linker.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {

namespace {

using Renames = std::unordered_map<std::string, std::string>;

absl::Status link_error(std::string message) { return absl::InvalidArgumentError(message); }

// ---- Symbol references -----------------------------------------------------

/// `a` with every renamed `@sym` inside it replaced, or nullopt when nothing is.
std::optional<Attribute> rename_refs(const Attribute& a, const Renames& renames);

std::optional<AttrDict> rename_refs(const AttrDict& d, const Renames& renames) {
  std::optional<AttrDict> out;
  for (auto& [key, value] : d)
    if (std::optional<Attribute> nv = rename_refs(value, renames)) {
      if (!out) out = d;
      out->set(key, std::move(*nv));
    }
  return out;
}

std::optional<Attribute> rename_refs(const Attribute& a, const Renames& renames) {
  if (a.is<SymbolRef>()) {
    auto it = renames.find(a.as_symbol().name);
    if (it == renames.end()) return std::nullopt;
    return Attribute(SymbolRef{it->second});
  }
  if (a.is_array()) {
    const AttrArray& arr = a.as_array();
    std::optional<AttrArray> out;
    for (size_t i = 0; i < arr.size(); ++i)
      if (std::optional<Attribute> nv = rename_refs(arr[i], renames)) {
        if (!out) out = arr;
        (*out)[i] = std::move(*nv);
      }
    if (!out) return std::nullopt;
    return Attribute(std::move(*out));
  }
  if (a.is_dict()) {
    std::optional<AttrDict> nd = rename_refs(a.as_dict(), renames);
    if (!nd) return std::nullopt;
    return Attribute(std::move(*nd));
  }
  return std::nullopt;
}

void rename_in(AttrDict& d, const Renames& renames) {
  if (std::optional<AttrDict> nd = rename_refs(d, renames)) d = std::move(*nd);
}

/// Renames the symbols of `m` and every reference to them inside `m`.
void apply_renames(Module& m, const Renames& renames) {
  if (renames.empty()) return;
  rename_in(m.attributes(), renames);
  std::map<std::string, Global> globals;
  for (auto& [name, g] : m.globals()) {
    Global ng = std::move(g);
    std::string key = name;
    if (auto it = renames.find(name); it != renames.end()) key = ng.name = it->second;
    if (ng.initializer)
      if (std::optional<Attribute> ni = rename_refs(*ng.initializer, renames)) ng.initializer = std::move(ni);
    globals.emplace(std::move(key), std::move(ng));
  }
  m.globals() = std::move(globals);
  for (auto& f : m.functions()) {
    if (auto it = renames.find(f->name()); it != renames.end()) f->set_name(it->second);
    rename_in(f->attributes(), renames);
    for (Param& p : f->params()) rename_in(p.attrs, renames);
    walk(f->body(), [&](Operation& op) { rename_in(op.attributes(), renames); });
  }
}

void collect_refs(const Attribute& a, std::set<std::string>& out) {
  if (a.is<SymbolRef>()) out.insert(a.as_symbol().name);
  else if (a.is_array())
    for (const Attribute& e : a.as_array()) collect_refs(e, out);
  else if (a.is_dict())
    for (auto& [_, v] : a.as_dict()) collect_refs(v, out);
}

// ---- Signatures --------------------------------------------------------------

bool same_signature(const Function& a, const Function& b) {
  if (a.params().size() != b.params().size() || a.results() != b.results()) return false;
  for (size_t i = 0; i < a.params().size(); ++i)
    if (a.params()[i].type != b.params()[i].type) return false;
  return true;
}

/// `(i64, f64) -> i64`, as the text format writes a function's type.
std::string signature(const Function& f) {
  std::string out = "(";
  for (size_t i = 0; i < f.params().size(); ++i) ppy::str_append(out, i ? ", " : "", f.params()[i].type.str());
  out += ") -> ";
  if (f.results().size() == 1) return out + f.results()[0].str();
  out += "(";
  for (size_t i = 0; i < f.results().size(); ++i) ppy::str_append(out, i ? ", " : "", f.results()[i].str());
  return out + ")";
}

std::string global_signature(const Global& g) {
  return ppy::str_cat(g.is_mutable ? "mutable " : "", g.type.str());
}

bool is_generic_instance(const Function& f) {
  const Attribute* a = f.attributes().get("ppy.generic");
  return a && a->is<bool>() && a->as_bool();
}

/// One symbol's definition or first declaration, by input position.
struct Symbol {
  size_t module = 0;
  Function* function = nullptr;  ///< null for a global
  const Global* global = nullptr;
};

class Linker {
 public:
  explicit Linker(std::vector<std::unique_ptr<Module>> modules) : mods_(std::move(modules)) {}

  absl::StatusOr<LinkResult> run(std::string name) {
    for (auto& m : mods_)
      if (!m) return link_error("link was given a null module");
    PPY_RETURN_IF_ERROR(check_own_symbols());
    rename_private_clashes();
    PPY_RETURN_IF_ERROR(resolve());
    return assemble(std::move(name));
  }

 private:
  const std::string& mod_name(size_t i) const { return mods_[i]->name(); }

  /// Every symbol is named once per module: the rest of linking relies on it.
  absl::Status check_own_symbols() {
    for (auto& m : mods_) {
      std::unordered_set<std::string> seen;
      for (auto& [name, _] : m->globals()) seen.insert(name);
      for (auto& f : m->functions())
        if (!seen.insert(f->name()).second)
          return link_error(ppy::str_cat("module '", m->name(), "' has two symbols named @", f->name()));
    }
    return absl::OkStatus();
  }

  /// A private definition whose name another module also spells moves aside to
  /// `<module>.<name>`, so it neither clashes nor answers another's declaration.
  void rename_private_clashes() {
    std::unordered_map<std::string, std::set<size_t>> users;
    // Names every module spells only as one generic instance: those are shared, not renamed.
    std::unordered_map<std::string, const Function*> generic;
    std::unordered_set<std::string> not_generic;
    for (size_t i = 0; i < mods_.size(); ++i) {
      for (auto& [name, _] : mods_[i]->globals()) {
        users[name].insert(i), taken_.insert(name);
        not_generic.insert(name);
      }
      for (auto& f : mods_[i]->functions()) {
        users[f->name()].insert(i), taken_.insert(f->name());
        if (f->is_declaration() || !is_generic_instance(*f)) not_generic.insert(f->name());
        else if (auto [it, first] = generic.emplace(f->name(), f.get()); !first && !same_signature(*it->second, *f))
          not_generic.insert(f->name());
      }
    }
    auto shared_name = [&](const std::string& n) { return users[n].size() > 1 && not_generic.count(n); };
    for (size_t i = 0; i < mods_.size(); ++i) {
      Renames renames;
      for (auto& [name, g] : mods_[i]->globals())
        if (g.visibility == Visibility::Private && shared_name(name)) renames[name] = fresh(i, name);
      for (auto& f : mods_[i]->functions())
        if (f->visibility() == Visibility::Private && !f->is_declaration() && shared_name(f->name()))
          renames[f->name()] = fresh(i, f->name());
      apply_renames(*mods_[i], renames);
      for (auto& [from, to] : renames) renamed_[{mod_name(i), from}] = to;
    }
  }

  std::string fresh(size_t module, const std::string& name) {
    std::string base = ppy::str_cat(mod_name(module), ".", name), candidate = base;
    for (int n = 2; taken_.count(candidate); ++n) candidate = ppy::str_cat(base, ".", n);
    taken_.insert(candidate);
    return candidate;
  }

  /// Picks the definition of every symbol and checks declarations against it.
  absl::Status resolve() {
    // Definitions first, so a declaration before its definition is still answered.
    for (size_t i = 0; i < mods_.size(); ++i) {
      for (auto& [name, g] : mods_[i]->globals())
        if (g.visibility != Visibility::Extern) PPY_RETURN_IF_ERROR(define(name, Symbol{i, nullptr, &g}));
      for (auto& f : mods_[i]->functions())
        if (!f->is_declaration()) PPY_RETURN_IF_ERROR(define(f->name(), Symbol{i, f.get(), nullptr}));
    }
    for (size_t i = 0; i < mods_.size(); ++i) {
      for (auto& [name, g] : mods_[i]->globals())
        if (g.visibility == Visibility::Extern) PPY_RETURN_IF_ERROR(declare(name, Symbol{i, nullptr, &g}));
      for (auto& f : mods_[i]->functions())
        if (f->is_declaration()) PPY_RETURN_IF_ERROR(declare(f->name(), Symbol{i, f.get(), nullptr}));
    }
    return absl::OkStatus();
  }

  static std::string_view kind(const Symbol& s) { return s.function ? "a function" : "a global"; }

  absl::Status define(const std::string& name, Symbol sym) {
    auto [it, inserted] = defs_.emplace(name, sym);
    if (inserted) return absl::OkStatus();
    Symbol& first = it->second;
    if (first.function && sym.function && is_generic_instance(*first.function) &&
        is_generic_instance(*sym.function) && same_signature(*first.function, *sym.function)) {
      dropped_.insert(sym.function);
      if (sym.function->visibility() == Visibility::Public) first.function->set_visibility(Visibility::Public);
      if (std::find(shared_.begin(), shared_.end(), name) == shared_.end()) shared_.push_back(name);
      return absl::OkStatus();
    }
    if (!first.function != !sym.function)
      return link_error(ppy::str_cat("@", name, " is ", kind(first), " in module '", mod_name(first.module),
                                     "' and ", kind(sym), " in module '", mod_name(sym.module), "'"));
    return link_error(ppy::str_cat("@", name, " is defined by two modules, '", mod_name(first.module),
                                   "' and '", mod_name(sym.module), "'; only a private symbol is renamed"));
  }

  absl::Status declare(const std::string& name, Symbol sym) {
    auto d = defs_.find(name);
    bool answered = d != defs_.end();
    const Symbol* other = answered ? &d->second : nullptr;
    if (!answered) {
      auto [it, first] = decls_.emplace(name, sym);
      if (first) return absl::OkStatus();
      other = &it->second;
    }
    const std::string_view what = answered ? "defined" : "declared";
    if (!other->function != !sym.function)
      return link_error(ppy::str_cat("@", name, " is declared as ", kind(sym), " in module '",
                                     mod_name(sym.module), "' but ", what, " as ", kind(*other),
                                     " in module '", mod_name(other->module), "'"));
    bool same = sym.function ? same_signature(*sym.function, *other->function)
                             : sym.global->type == other->global->type &&
                                   sym.global->is_mutable == other->global->is_mutable;
    if (same) return absl::OkStatus();
    auto sig = [](const Symbol& s) { return s.function ? signature(*s.function) : global_signature(*s.global); };
    return link_error(ppy::str_cat("@", name, " is declared in module '", mod_name(sym.module), "' as ",
                                   sig(sym), " but ", what, " in module '", mod_name(other->module),
                                   "' as ", sig(*other)));
  }

  /// Moves what survives into one module, in input order.
  LinkResult assemble(std::string name) {
    auto out = std::make_unique<Module>(std::move(name));
    std::vector<std::string> libraries;
    for (auto& m : mods_) {
      for (auto& [dialect, version] : m->dialects()) {
        int64_t& v = out->dialects()[dialect];
        v = std::max(v, version);
      }
      for (auto& [key, value] : m->attributes()) {
        if (key == "ppy.libraries" && value.is_array()) {
          for (const Attribute& lib : value.as_array())
            if (lib.is<std::string>() &&
                std::find(libraries.begin(), libraries.end(), lib.as_string()) == libraries.end())
              libraries.push_back(lib.as_string());
        } else if (!out->attributes().has(key)) {
          out->attributes().set(key, value);
        }
      }
      for (auto& [gname, g] : m->globals()) {
        bool keep = g.visibility == Visibility::Extern ? !defs_.count(gname) && decls_.at(gname).global == &g
                                                       : defs_.at(gname).global == &g;
        if (keep) out->globals().emplace(gname, std::move(g));
      }
      for (auto& f : m->functions()) {
        const std::string& fname = f->name();
        bool keep = f->is_declaration() ? !defs_.count(fname) && decls_.at(fname).function == f.get()
                                        : !dropped_.count(f.get());
        if (keep) out->add_function(std::move(f));
      }
    }
    if (!libraries.empty()) {
      AttrArray libs(libraries.begin(), libraries.end());
      out->attributes().set("ppy.libraries", Attribute(std::move(libs)));
    }
    LinkResult r;
    r.unresolved = unresolved_symbols(*out);
    r.module = std::move(out);
    r.renamed = std::move(renamed_);
    r.shared = std::move(shared_);
    return r;
  }

  std::vector<std::unique_ptr<Module>> mods_;
  std::unordered_set<std::string> taken_;
  std::map<std::pair<std::string, std::string>, std::string> renamed_;
  std::unordered_map<std::string, Symbol> defs_;   ///< the definition of each symbol
  std::unordered_map<std::string, Symbol> decls_;  ///< the first declaration of each undefined one
  std::unordered_set<const Function*> dropped_;    ///< generic instances already defined
  std::vector<std::string> shared_;
};

}  // namespace

absl::StatusOr<LinkResult> link_with_report(std::vector<std::unique_ptr<Module>> modules, std::string name) {
  return Linker(std::move(modules)).run(std::move(name));
}

absl::StatusOr<std::unique_ptr<Module>> link(std::vector<std::unique_ptr<Module>> modules, std::string name) {
  PPY_ASSIGN_OR_RETURN(LinkResult r, link_with_report(std::move(modules), std::move(name)));
  return std::move(r.module);
}

namespace {

/// Copies of `modules` for the linker, which consumes what it links.
std::vector<std::unique_ptr<Module>> clones(std::span<const Module* const> modules) {
  std::vector<std::unique_ptr<Module>> out;
  out.reserve(modules.size());
  for (const Module* m : modules) out.push_back(m ? clone(*m) : nullptr);
  return out;
}

}  // namespace

absl::StatusOr<LinkResult> link_with_report(std::span<const Module* const> modules, std::string name) {
  return link_with_report(clones(modules), std::move(name));
}

absl::StatusOr<std::unique_ptr<Module>> link(std::span<const Module* const> modules, std::string name) {
  return link(clones(modules), std::move(name));
}

std::vector<std::string> unresolved_symbols(const Module& m) {
  std::set<std::string> referenced;
  for (auto& f : m.functions())
    walk(f->body(), [&](const Operation& op) {
      for (auto& [_, v] : op.attributes()) collect_refs(v, referenced);
    });
  std::vector<std::string> out;
  for (auto& f : m.functions())
    if (f->is_declaration() && referenced.count(f->name())) out.push_back(f->name());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ppy::ir
