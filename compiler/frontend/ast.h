#pragma once
// The AST of the ppy subset (internal to the frontend). The parser builds it,
// the checker annotates it (types, what each name and call refers to), and IR
// generation reads it. Fat nodes keep the three passes short.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ppy::frontend {

struct Pos {
  uint32_t line = 0;
  uint32_t col = 0;
};

/// Source-level types of the subset. Types made of others (tuples, optionals)
/// are interned from `FirstCompound` up (types.h): equal types are equal values.
enum class Ty : uint16_t {
  Error, None, Int, Float, Bool, Str,
  ListInt, ListFloat,
  PtrInt, PtrFloat, ConstPtrInt, ConstPtrFloat,
  Exc,  ///< the exception an `except ... as e` clause names (its message, on the IR)
  File,  ///< io (issue 33): a text stream, open()'s or sys.stdin/stdout/stderr (a handle, ppy_io.h)
  FirstCompound = 256,
};

/// Any `list[T]` (types.h interns those other than list[int] and list[float]).
bool is_list(Ty t);
Ty list_elem(Ty t);
inline bool is_ptr(Ty t) { return t >= Ty::PtrInt && t <= Ty::ConstPtrFloat; }
inline bool is_numeric(Ty t) { return t == Ty::Int || t == Ty::Float || t == Ty::Bool; }
inline Ty elem_of(Ty t) {
  if (t >= Ty::FirstCompound) return list_elem(t);
  return (t == Ty::ListFloat || t == Ty::PtrFloat || t == Ty::ConstPtrFloat) ? Ty::Float : Ty::Int;
}
const char* ty_name(Ty t);

enum class ExprKind : uint8_t {
  Int, Float, Bool, NoneLit, Str, Name, Attribute, Unary, Binary, BoolOp, Compare, IfExp,
  Call, Subscript, List, Tuple,
  Slice,  ///< `a:b:c` in a subscript: kids are the parts present, ival their mask (1, 2, 4)
  FString,  ///< f"...": kids are its parts in order, Str literals and FFields
  FField,   ///< `{x!r:spec}` of an f-string: kids[0] the value, str the spec, ival the conversion ('r', 's', 0)
  /// `[elt for x in it if cond]`: kids are elt, it and (ival 1) cond; ops the target's names.
  /// A generator expression `(elt for x in it)` is one too, `bval` set on its first clause.
  ListComp,
  Dict,      ///< `{k: v, ...}`: kids are keys and values in turn
  Set,       ///< `{a, b}`: kids are the elements
  /// `{k: v for x in it if cond}`: kids are k, it, (ival 1) cond, then v last; ops the target's names
  DictComp,
  SetComp,  ///< `{elt for x in it if cond}`: as ListComp
  /// `lambda a, b: body` (callable.h): ops its parameters' names, kids[0] the
  /// body until the checker moves it into the function it makes (ival: that
  /// function's index in ModuleInfo::closures).
  Lambda,
};

/// What a name, attribute or call refers to (set by the checker).
enum class Ref : uint8_t {
  Unresolved,
  Local,
  Const,
  Func,
  Module,
  Builtin,
  Math,
  Cuda,
  Native,
  Ppy,
  Ctor,    ///< `C(args)`: a new instance of class C (target its qualified name
           ///< `module.C`)
  Method,  ///< `x.m(args)`: a method call on an instance (target the method's
           ///< name)
  Super,   ///< `super().m(args)`: the base's method (target `Class.m`, the
           ///< function called)
  Value,   ///< `f(args)` where `f` is a function value (callable.h): an indirect call
  Sys,     ///< io (issue 33): sys, os, os.path, input, open and a stream's
           ///< methods (target the dotted name, check_io.cc)
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Keyword {
  std::string name;
  Pos pos;
  ExprPtr value;
};

/// A builtin method's id (builtins.h): what the checker resolved a call to.
enum class BuiltinId : uint16_t;

struct Expr {
  ExprKind kind;
  Pos pos;
  int depth = 1;  ///< nesting depth of the subtree (the parser bounds it)
  // Literals and names.
  int64_t ival = 0;
  double fval = 0;
  bool bval = false;
  std::string str;  ///< name, attribute name, operator, string literal text
  std::vector<ExprPtr> kids;
  std::vector<std::string> ops;  ///< comparison operators
  std::vector<Keyword> keywords;
  // Set by the checker.
  Ty ty = Ty::Error;
  Ref ref = Ref::Unresolved;
  std::string target;  ///< a Func's module-qualified name, a builtin's name, a local's name
  BuiltinId builtin{};  ///< a builtin method call's id (None: not one)
  int param_index = -1;  ///< a call argument's parameter position (keywords placed)
  /// A comprehension the program wrote (its first clause): the frame python3
  /// runs it in (`<listcomp>`, `<genexpr>`...) for tracebacks; null for one
  /// the checker made (map(), filter() become generator expressions).
  const char* comp_frame = nullptr;
};

enum class StmtKind : uint8_t {
  Expr,
  Assign,
  AugAssign,
  AnnAssign,
  If,
  While,
  For,
  Break,
  Continue,
  Return,
  Pass,
  Def,
  Import,
  ImportFrom,
  Assert,
  Global,  ///< `global a, b`: names in `names`
  Raise,   ///< `raise X`, `raise X(msg)` (value), bare `raise` (no value)
  Try,     ///< body, handlers, orelse (`else`), finalbody (`finally`)
  /// `class Name(Base):`: def holds the name, decorators and body (its params
  /// none), targets the bases.
  Class,
  Nonlocal,  ///< `nonlocal a, b`: names in `names` (callable.h)
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Param {
  std::string name;
  Pos pos;
  ExprPtr annotation;
  ExprPtr default_value;  ///< `= value`, or null
  Ty ty = Ty::Error;
};

struct ImportName {
  std::string name;    ///< dotted
  std::string asname;  ///< empty when none
  Pos pos;
};

struct FuncDef {
  std::string name;
  Pos pos;
  std::vector<Param> params;
  ExprPtr returns;
  std::vector<ExprPtr> decorators;
  std::vector<StmtPtr> body;
  /// generics: PEP 695's type parameters (`def first[T](...)`, `class Stack[T]:`).
  std::vector<std::string> type_params;
  /// The parser dropped a statement of the body (reported): names it would have
  /// bound are unknown, so the checker does not call them undefined.
  bool incomplete = false;
};

/// `except A as e:`, `except (A, B):`, bare `except:` (no classes).
struct Handler {
  Pos pos;
  std::vector<std::string> classes;  ///< builtin exception names; empty catches everything
  std::string name;                  ///< `as name`, or empty
  Pos name_pos;
  /// Set by the checker: the local `as name` is kept in (its own name, or a
  /// hidden one when it is an instance of an exception class), and its type.
  std::string local;
  Ty local_ty = Ty::Exc;
  std::vector<std::unique_ptr<Stmt>> body;
};

struct Stmt {
  StmtKind kind;
  Pos pos;
  std::vector<ExprPtr> targets;  ///< Assign targets (a = b = v), AugAssign/AnnAssign/For target
  ExprPtr value;                 ///< assigned value, If/While test, For iterable, Return value
  ExprPtr annotation;            ///< AnnAssign annotation; Assert message
  std::string op;                ///< AugAssign operator (`+`)
  std::vector<StmtPtr> body, orelse;
  std::unique_ptr<FuncDef> def;
  std::string module;  ///< ImportFrom module
  std::vector<ImportName> names;
  std::vector<Handler> handlers;   ///< Try: its except clauses in order
  std::vector<StmtPtr> finalbody;  ///< Try: its finally clause
  bool dead = false;  ///< set by the checker: unreachable, not lowered
};

/// Calls `fn` on every statement list nested in `s`: a block's body and
/// `else`, a try's handlers and `finally` (walkers use it to miss none).
template <class F>
void for_each_suite(const Stmt& s, F&& fn) {
  fn(s.body);
  fn(s.orelse);
  for (auto& h : s.handlers) fn(h.body);
  fn(s.finalbody);
}

struct ModuleAst {
  std::vector<StmtPtr> body;
  bool incomplete = false;  ///< the parser dropped a statement (reported)
};

}  // namespace ppy::frontend
