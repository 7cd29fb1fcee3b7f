#pragma once
// The checker: declarations (signatures, constants, imports), then name
// resolution, types, definite assignment, reachability and effects of every
// function body. It annotates the AST; IR generation trusts what it wrote.

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/frontend/frontend.h"

namespace ppy::frontend {

struct ConstInfo {
  Ty ty = Ty::Int;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;  ///< a str constant's text
  Pos pos;
  /// A dataclass field's `field(default_factory=list)` (check_dataclass.cc):
  /// "list", "dict" or "set", a new empty one made at each call; empty otherwise.
  std::string factory;
  /// A dataclass field's default that is an enum member (`status: Status =
  /// Status.OPEN`): the member function the enum's rewrite wrote
  /// (`__ppy_Status_member`, enum_classes.h), called with `i` at each call; the
  /// same object each time, as Python's default evaluated once is. Empty otherwise.
  std::string member_fn;
};

struct FuncInfo {
  FuncDef* def = nullptr;
  std::string name;
  std::vector<Ty> params;
  /// Per parameter: its default value (a constant, as Python evaluates it once), or none.
  std::vector<std::optional<ConstInfo>> defaults;
  Ty result = Ty::None;
  std::string gpu_kind;  ///< "", "kernel", "device"
  bool exported = false;
  bool xla_jit = false;  ///< @xla.jit: also compiled for XLA (the `stablehlo` backend)
  /// Every local (parameters first) with its type, in order of first assignment.
  std::vector<std::pair<std::string, Ty>> locals;
  std::set<std::string> effects;  ///< own effects, then (after propagation) callees' too
  std::set<std::string> callees;  ///< qualnames `<module>.<func>` of functions it calls
  bool has_body_errors = false;
  /// The module's own code (`__main__` / `__init__`), not a `def`.
  bool module_code = false;
  /// Module variables the body reads or assigns (`global`, or read by name), with
  /// their types: IR globals, reached through their address.
  std::vector<std::pair<std::string, Ty>> globals;
  /// Where each own effect first happens, and where each callee is first called:
  /// what an effect claim that does not hold is reported at.
  std::map<std::string, Pos> effect_sites;
  std::map<std::string, Pos> callee_sites;
  /// `@ppy.pure`: a claim that the function has no effect but raising, checked.
  bool pure_claim = false;
  Pos pure_pos;
  /// `@ppy.opt(n)`: the function's own optimization level (0..3), or -1.
  int opt_level = -1;
  /// Whether the body can run off its end (a generator's end is where it is exhausted).
  bool end_reachable = true;
  // --- functions as values (callable.h, docs/runtime.md "Functions as values") ---
  /// A nested def or a lambda: its IR function takes the closure first.
  bool closure = false;
  /// A closure's variables of the functions around it, in the closure's order,
  /// each a cell (a handle to where the variable lives) in this function.
  std::vector<std::pair<std::string, Ty>> captures;
  /// Own locals a nested function reads or writes: they live in cells.
  std::set<std::string> cells;
  /// generics (check_generic.cc): an instantiation's type parameters, bound
  /// (`T` -> int in `first[int]`); its annotations read them.
  std::map<std::string, Ty> type_args;
};

/// Whether `f` is a generator: annotated `-> Iterator[T]` (or `Generator[T, None, None]`) and its
/// own body yields, so it is lowered as a state machine (docs/runtime.md, "Generators"). A function
/// with that result and no yield is an ordinary function returning a generator's frame.
bool is_generator(const FuncInfo& f);

/// generics: a generic function (`def first[T](xs: list[T]) -> T`, or one whose
/// annotations name a module TypeVar), a template: never lowered itself, each
/// instantiation is a function `first[int]` of its module (check_generic.cc).
struct GenericFunc {
  FuncDef* def = nullptr;
  std::vector<std::string> type_params;  ///< in order of first appearance
  std::vector<std::optional<ConstInfo>> defaults;  ///< of parameters whose type names no type parameter
};

/// generics: an instantiation a call asks for: template `name` of `module`, its
/// type parameters bound to `args` (in the template's order).
struct InstanceRequest {
  std::string module, name;
  std::vector<Ty> args;
};

/// What a module-level name bound by an import stands for.
struct Binding {
  enum Kind { Module, Func, Const, Special } kind = Module;
  std::string module;  ///< the project module (Module, Func, Const)
  std::string name;    ///< the function or constant (Func, Const); the dotted path (Special: `math.sqrt`)
  Pos pos;
};

struct ModuleInfo {
  std::string name;
  std::string path;
  /// The program's entry module: its code runs as `__main__` (the guard's body included).
  bool is_entry = false;
  /// A class of the module derives from a class of another module (issue 32,
  /// imported_classes.h): declared once that module is (`bases_ready`);
  /// `waits_for_bases` when it was not, so frontend.cc declares it again later.
  bool bases_ready = false;
  bool waits_for_bases = false;
  ModuleAst ast;
  /// Module-level code, as the body of `__main__` / `__init__` (null when none).
  std::unique_ptr<FuncDef> code_def;
  /// Project modules this one may import, in the order its imports name them
  /// (`import a.b` names `a` then `a.b`); not all exist.
  std::vector<std::string> imports;
  /// Module-level names bound by code (not constants).
  std::set<std::string> module_vars;
  /// A module variable's type, as the module's code gives it (checked first).
  std::map<std::string, Ty> module_var_types;
  /// The line of the first module-level statement that assigns a variable
  /// (top level, not in a block): a function may use it only if defined below.
  std::map<std::string, uint32_t> var_bound_line;
  /// Module variables some function uses: they live in IR globals (the module's
  /// code reaches them there too); the others stay locals of the module's code.
  std::set<std::string> shared_vars;
  /// Entry only: the modules whose `__init__` runs before its code, in Python's order.
  std::vector<std::string> init_order;
  std::vector<FuncInfo> funcs;  ///< in source order
  std::map<std::string, size_t> func_index;
  std::map<std::string, ConstInfo> consts;
  std::vector<std::string> const_order;
  std::map<std::string, Binding> bindings;
  /// `main()` when it is all the guard says (main is then the entry itself).
  std::vector<std::pair<std::string, Pos>> main_calls;
  /// Entry only: that guard's `main()` statement, kept so that the checker can
  /// make it the module's code after all when an imported module has code of its
  /// own to run first (Python runs it on import, before the guard).
  std::vector<StmtPtr> guard_code;
  /// The module's classes by name (types.h's ClassInfo), and in source order.
  std::map<std::string, Ty> classes;
  std::vector<Ty> class_order;
  /// A dataclass's fields' defaults (in field order, its base's first), by
  /// class name.
  std::map<std::string, std::vector<std::optional<ConstInfo>>> field_defaults;
  /// Qualnames of other modules' functions this module calls (extern
  /// declarations).
  std::set<std::string> externals;
  /// Nested defs and lambdas (callable.h), each an IR function of the module; a
  /// deque, so a function being checked keeps its place while more are added.
  std::deque<FuncInfo> closures;
  std::deque<std::unique_ptr<FuncDef>> closure_defs;  ///< a lambda's function, made by the checker
  std::map<const FuncDef*, size_t> closure_of;        ///< a nested def's index in `closures`
  /// Functions of the module used as values: each gets an entry taking the closure first.
  std::set<std::string> func_values;
  // --- generics (type_alias.cc, check_generic.cc) ---
  /// Type aliases (`Matrix = list[list[float]]`, `type Grid = ...`) and what they name.
  std::map<std::string, Ty> type_aliases;
  /// Names bound to `TypeVar("T")` at module level.
  std::set<std::string> type_vars;
  /// Generic functions by name (templates, not in `funcs`).
  std::map<std::string, GenericFunc> generic_funcs;
  /// Instantiations this module's calls ask for (of its own templates or another
  /// module's), not yet made: frontend.cc hands each to its module.
  std::vector<InstanceRequest> instance_requests;
  /// Each instantiation's own copy of its template (the checker annotates it).
  std::deque<std::unique_ptr<FuncDef>> instance_defs;

  FuncInfo* func(const std::string& n) {
    auto it = func_index.find(n);
    return it == func_index.end() ? nullptr : &funcs[it->second];
  }
  const FuncInfo* func(const std::string& n) const {
    auto it = func_index.find(n);
    return it == func_index.end() ? nullptr : &funcs[it->second];
  }
};

/// Phase 1: parses and records signatures, constants and import bindings.
void declare_module(ModuleInfo& m, const std::string& text, DiagnosticEngine& diags);

/// The interface others see (effects as far as they are known).
ModuleInterface interface_of(const ModuleInfo& m);

/// Phase 2: resolves imports against `all` and checks every function body.
void check_module(ModuleInfo& m, const ModuleInterfaces& all, DiagnosticEngine& diags);

/// Effects of a function's callees folded into its own, to a fixpoint, within
/// the module and from the interfaces of other modules.
void propagate_effects(ModuleInfo& m, const ModuleInterfaces& all);

/// Checks the effect claims (`@ppy.pure`) against the effects after
/// propagation; each one that does not hold is E1110, at what breaks it.
void check_effect_claims(const ModuleInfo& m, const ModuleInterfaces& all, DiagnosticEngine& diags);

// --- generics (check_generic.cc, type_alias.cc) ---

/// Declares `def` (a template's copy, named for its instantiation: `first[int]`)
/// as a function of `m`, its type parameters bound to `args` (declarer.cc).
void declare_instance(ModuleInfo& m, FuncDef& def, const std::map<std::string, Ty>& args, DiagnosticEngine& diags);

/// Makes and checks every instantiation the modules' calls ask for, each in the
/// module that defines its template, until none is left (an instantiation's
/// body may ask for more); `all` gets each module's interface again.
void instantiate_generics(const std::vector<ModuleInfo*>& mods, ModuleInterfaces& all, DiagnosticEngine& diags);

/// Source type from its interface spelling ("list[int]"), Error if unknown.
Ty ty_from_name(const std::string& s);

}  // namespace ppy::frontend
