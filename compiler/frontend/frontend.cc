// The frontend's entry points: one module, or a whole project in two phases.
#include "ppy/frontend/frontend.h"

#include <cstdint>

#include "checker.h"
#include "lower.h"
#include "plugin_stub.h"
#include "types.h"  // release_classes

namespace ppy::frontend {
namespace {

/// Ends a compilation: its modules' classes are released (types.h) before the
/// modules are freed; declared after them, it runs first.
class ReleasesClasses {
 public:
  explicit ReleasesClasses(std::vector<const ModuleInfo*> owners) : owners_(std::move(owners)) {}
  ReleasesClasses(const ReleasesClasses&) = delete;
  ReleasesClasses& operator=(const ReleasesClasses&) = delete;
  ~ReleasesClasses() { release_classes(owners_); }

 private:
  std::vector<const ModuleInfo*> owners_;
};

ReleasesClasses releases_classes_of(const std::vector<std::unique_ptr<ModuleInfo>>& mods) {
  std::vector<const ModuleInfo*> owners;
  for (const auto& m : mods) owners.push_back(m.get());
  return ReleasesClasses(std::move(owners));
}

}  // namespace

ModuleInterface collect_interface(const SourceModule& src, DiagnosticEngine& diags) {
  diags.add_source(src.path, src.text);
  ModuleInfo m;
  m.name = src.name;
  m.path = src.path;
  m.is_entry = true;
  ReleasesClasses ends({&m});
  declare_module(m, src.text, diags);
  return interface_of(m);
}

LowerResult lower_module(const SourceModule& src, const ModuleInterfaces& others, DiagnosticEngine& diags) {
  diags.add_source(src.path, src.text);
  size_t before = diags.error_count();
  ModuleInfo m;
  m.name = src.name;
  m.path = src.path;
  m.is_entry = true;  // a module lowered alone is a program of one module
  ReleasesClasses ends({&m});
  declare_module(m, src.text, diags);
  ModuleInterfaces all = others;
  all.erase(m.name);
  check_module(m, all, diags);
  instantiate_generics({&m}, all, diags);  // generics (check_generic.cc)
  LowerResult r;
  if (diags.error_count() != before) {
    r.interface = interface_of(m);
    return r;
  }
  propagate_effects(m, all);
  r.interface = interface_of(m);
  check_effect_claims(m, all, diags);
  if (diags.error_count() != before) return r;
  r.module = lower_to_ir(m, all);
  return r;
}

namespace {

/// Declares and checks every module; null entries never happen, errors are in `diags`.
/// Each module is parsed and declared alone (its interface needs nothing
/// else), spread by `each` when given, into an engine of its own whose
/// errors are then reported in the modules' order, as one after another would.
std::vector<std::unique_ptr<ModuleInfo>> check_all(const Project& project, DiagnosticEngine& diags,
                                                   ModuleInterfaces& all, const ForEach* each = nullptr) {
  const size_t n = project.modules.size();
  std::vector<std::unique_ptr<ModuleInfo>> mods(n);
  std::vector<DiagnosticEngine> found(n);
  auto declare_as = [&](size_t i, bool bases_ready) {
    const SourceModule& src = project.modules[i];
    auto m = std::make_unique<ModuleInfo>();
    m->name = src.name;
    m->path = src.path;
    m->is_entry = src.name == project.entry;
    m->bases_ready = bases_ready;
    found[i] = DiagnosticEngine();
    found[i].max_errors = found[i].max_errors_per_file = SIZE_MAX;  // the caps apply below, in order
    declare_module(*m, src.text, found[i]);
    mods[i] = std::move(m);
  };
  auto declare = [&](size_t i) { declare_as(i, false); };
  if (each && n > 1) {
    (*each)(n, declare);
  } else {
    for (size_t i = 0; i < n; ++i) declare(i);
  }
  // A module deriving from another module's class is declared again, one at a time, once
  // that module is (imported_classes.h); what still waits when none moves is a cycle, reported.
  for (bool moved = true, last = false;;) {
    std::vector<size_t> waiting;
    for (size_t i = 0; i < n; ++i)
      if (mods[i]->waits_for_bases) waiting.push_back(i);
    if (waiting.empty() || last) break;
    last = !moved;
    moved = false;
    for (size_t i : waiting) {
      declare_as(i, true);
      if (!mods[i]->waits_for_bases) moved = true;
      else if (!last) found[i] = DiagnosticEngine();  // said only if it never settles
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const SourceModule& src = project.modules[i];
    diags.add_source(src.path, src.text);
    for (const SourceDiagnostic& d : found[i].diagnostics()) diags.error(d.code, d.file, d.line, d.col, d.message);
    all[mods[i]->name] = interface_of(*mods[i]);
  }
  for (auto& m : mods) check_module(*m, all, diags);
  std::vector<ModuleInfo*> raw;  // generics: each instantiation asked for, in its template's module
  for (auto& m : mods) raw.push_back(m.get());
  instantiate_generics(raw, all, diags);
  return mods;
}

/// Effects cross modules: iterates until no module's interface changes, then
/// checks each module's effect claims (`@ppy.pure`) against them.
void settle_effects(std::vector<std::unique_ptr<ModuleInfo>>& mods, ModuleInterfaces& all, DiagnosticEngine& diags) {
  // Effects only grow: a round that adds none anywhere (methods of imported classes included) is the last.
  auto count = [&] {
    size_t n = 0;
    for (auto& m : mods)
      for (const FuncInfo& f : m->funcs) n += f.effects.size();
    return n;
  };
  for (bool changed = true; changed;) {
    size_t before = count();
    changed = false;
    for (auto& m : mods) {
      propagate_effects(*m, all);
      ModuleInterface i = interface_of(*m);
      for (auto& [name, sig] : i.functions)
        if (all[m->name].functions[name].effects != sig.effects) changed = true;
      all[m->name] = std::move(i);
    }
    if (count() != before) changed = true;
  }
  for (auto& m : mods) check_effect_claims(*m, all, diags);
}

}  // namespace

bool check_project(const Project& project, DiagnosticEngine& diags) {
  size_t before = diags.error_count();
  ModuleInterfaces all;
  auto mods = check_all(project, diags, all);
  auto ends = releases_classes_of(mods);
  if (diags.error_count() == before) settle_effects(mods, all, diags);
  return diags.error_count() == before;
}

std::vector<std::unique_ptr<ir::Module>> lower_project(const Project& project, DiagnosticEngine& diags) {
  return lower_project(
      project, diags,
      [](size_t n, const std::function<void(size_t)>& fn) {
        for (size_t i = 0; i < n; ++i) fn(i);
      },
      nullptr);
}

std::vector<std::unique_ptr<ir::Module>> lower_project(const Project& project, DiagnosticEngine& diags,
                                                       const ForEach& each,
                                                       const std::function<void(size_t, ir::Module&)>& then) {
  size_t before = diags.error_count();
  std::set<std::string> stubs;  // plugins: their symbols are `<module>_P_<func>` (plugin_stub.h)
  for (const auto& m : project.modules)
    if (m.path.ends_with(".pyi")) stubs.insert(m.name);
  checking::set_stub_modules(std::move(stubs));
  ModuleInterfaces all;
  auto mods = check_all(project, diags, all, &each);
  auto ends = releases_classes_of(mods);
  std::vector<std::unique_ptr<ir::Module>> out;
  if (diags.error_count() != before) return out;
  settle_effects(mods, all, diags);
  if (diags.error_count() != before) return out;
  StubModules stub_infos;  // plugins: stub functions are copied into their callers' modules (lower_extern.cc)
  for (const auto& m : mods)
    if (checking::is_stub_module(m->name)) stub_infos[m->name] = m.get();
  // Each module's IR from its own checked AST and every interface: nothing shared is written.
  out.resize(mods.size());
  each(mods.size(), [&](size_t i) {
    out[i] = lower_to_ir(*mods[i], all, &stub_infos);
    if (then) then(i, *out[i]);
  });
  return out;
}

}  // namespace ppy::frontend
