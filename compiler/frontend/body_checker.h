#pragma once
// The body checker: names, types, definite assignment, reachability and
// effects of one function's body. Its statements (check_statements.cc),
// expressions (check_expressions.cc) and calls with the builtins
// (check_calls.cc) are checked in files of their own. Not an API.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ast.h"
#include "checker.h"
#include "format_template.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/frontend/frontend.h"
#include "types.h"

namespace ppy::frontend::checking {

/// What is known at a point of a body: whether it is reachable, and the
/// locals definitely assigned there.
struct Flow {
  bool reachable = true;
  std::set<std::string> assigned;
  /// `T | None` locals known not to be None here (narrowed to T).
  std::set<std::string> not_none;
};

/// Where control flows meet: what both sides give.
Flow merge(const Flow& a, const Flow& b);

class BodyChecker {
 public:
  BodyChecker(ModuleInfo& m, FuncInfo& f, const ModuleInterfaces& all, DiagnosticEngine& d)
      : m_(m), f_(f), all_(all), d_(d), gpu_(!f.gpu_kind.empty()) {}
  void run();

 private:
  void error(Pos p, const char* code, std::string msg);
  /// "; did you mean 'x'?" for an undefined `name`, from what the body can
  /// see: its locals, the module's names and Python's builtins (check_names.cc).
  std::string name_suggestion(const std::string& name) const;
  /// A method or attribute `attr` of a `base` the subset does not take
  /// (check_names.cc): python3's AttributeError (E1030, "did you mean" from
  /// Python's own names) when Python has no such attribute, else E1010 `refusal`.
  void refuse_member(Pos p, Ty base, const std::string& attr, std::string refusal);
  /// `mod.member` (`path`) that names nothing the subset knows: python3's
  /// AttributeError of a module (E1020, with "did you mean"), or E1010 for a
  /// member Python's module has.
  void undefined_member(Pos p, const std::string& path);
  /// A keyword argument `k` of the builtin `fn` the subset does not take:
  /// E1010 when python3's `fn` has that keyword, else python3's TypeError
  /// (E1032, with "did you mean").
  void refuse_keyword(const Keyword& k, const std::string& fn);
  /// Something in this body was refused (E1010): its consequences are not reported.
  bool refused_ = false;
  /// The names a refused statement would have bound (check_names.cc): reading
  /// one is no second error (E1020, E1060); other names still are.
  std::set<std::string> refused_names_;
  /// The statement being checked, innermost (a refusal binds its names).
  const Stmt* cur_stmt_ = nullptr;
  /// Adds the names `s` binds, its nested blocks' included, to refused_names_.
  void refuse_names(const Stmt& s);
  /// Records an effect of the body, and where it first happens (`cur_pos_`).
  void effect(const char* e) {
    f_.effects.insert(e);
    f_.effect_sites.emplace(e, cur_pos_);
  }
  void raises();

  // Names assigned anywhere in the body are locals (Python's rule).
  void collect_target(const Expr& t);
  void collect_locals(const std::vector<StmtPtr>& body);
  void note_local(const std::string& n);

  // Module variables a function uses: named by `global`, or read by name.
  void declare_globals(const std::vector<StmtPtr>& body);
  /// Makes module variable `n` usable in this body as a variable of its own
  /// type (always assigned); false (reported) when the function cannot use it.
  bool use_module_var(const std::string& n, Pos p);
  /// The effects of reading (`write` false) or assigning a module variable.
  void global_effect(bool write);

  // --- statements ---
  void block(std::vector<StmtPtr>& body);
  void stmt(Stmt& s);
  static std::string hint_for(Ty want, Ty got);
  Ty annotation(const Expr* a);

  /// Assigns a value of type `vt` to the target `t`.
  void assign(Expr& t, Ty vt, const Expr& v);
  void aug_assign(Stmt& s);
  void for_stmt(Stmt& s);
  /// A for loop's body: after it, what flowed in (`before`, the loop may run zero times) merged with each break.
  void loop_body(std::vector<StmtPtr>& body, const Flow& before);
  /// `raise` (docs/language.md, "Exceptions").
  void raise_stmt(Stmt& s);
  void try_stmt(Stmt& s);

  // --- expressions ---
  /// An expression whose value is used (not None, not a bare string).
  Ty value(Expr& e, Ty expected);
  void condition(Expr& e);
  void index(Expr& e);
  Ty expr(Expr& e, Ty expected, bool stmt_level) {
    Pos outer = cur_pos_;
    cur_pos_ = e.pos;
    e.ty = expr_inner(e, expected, stmt_level);
    cur_pos_ = outer;
    return e.ty;
  }
  Ty expr_inner(Expr& e, Ty expected, bool stmt_level);

  // What `e` (a name or attribute chain) refers to outside locals.
  struct Resolved {
    Ref ref = Ref::Unresolved;
    std::string module;  ///< Func/Const/Module: the module
    std::string name;    ///< Func/Const: the member; Special: the path
    Ty ty = Ty::Error;
    ConstInfo value;
  };
  /// A function or module `shown` read as a value the subset does not take
  /// (`m = math`, `sq = math.sqrt`, `f = len`): E1010 naming what it is.
  Ty callable_as_value(Pos p, const std::string& shown, const Resolved& r);
  Resolved resolve_path(const std::string& path);
  Ty use_const(Expr& e, const Resolved& r);
  Ty name(Expr& e);
  Ty attribute(Expr& e);
  Ty unary(Expr& e);

  /// The result type of `a op b` for numbers, or Error (reported).
  Ty arith(const std::string& op, Ty a, Ty b, Pos p);
  Ty binary(Expr& e);
  Ty compare(Expr& e);

  // --- calls ---
  Ty call(Expr& e, bool stmt_level);
  bool signature(const Resolved& r, std::vector<std::string>& names, std::vector<Ty>& params, Ty& result,
                 std::string& kind, std::vector<std::optional<ConstInfo>>* defaults = nullptr);

  /// Arguments in parameter order (keywords placed), or false (reported).
  bool bind_args(Expr& e, const std::string& fname, const std::vector<std::string>& names, std::vector<Expr*>& out,
                 const std::vector<std::optional<ConstInfo>>& defaults);
  Ty user_call(Expr& e, const Resolved& r);
  // --- generics (check_generic.cc) ---
  /// A call of a generic function (`first(xs)`, `heapq.heappush(h, x)`): its
  /// type parameters inferred from the arguments' types, the call made one of
  /// the instantiation `first[int]` (asked of its module); nullopt when `path`
  /// names no generic function.
  std::optional<Ty> generic_call(Expr& e, const std::string& path);
  /// `a` (a template's annotation) with the type parameters bound in `args`.
  Ty bound_annotation(const Expr& a, const std::map<std::string, Ty>& args, bool allow_none);
  Ty builtin(Expr& e, const std::string& n, bool stmt_level);
  Ty math_call(Expr& e, const std::string& n);
  // io (issue 33, check_io.cc): sys, os, os.path, input, open, a stream's methods.
  Ty sys_value(Expr& e, const std::string& n);
  Ty sys_call(Expr& e, const std::string& n);
  /// stdlib: `random.NAME(...)`, `time.NAME(...)` (check_random.cc).
  Ty random_call(Expr& e, const std::string& n);
  /// stdlib: `Counter(xs)`, `defaultdict(int)`, `OrderedDict()` (check_collections.cc); nullopt for any other call.
  std::optional<Ty> collections_ctor(Expr& e, Ty expected);
  /// stdlib: most_common, update, total, move_to_end, popitem of a dict (check_collections.cc).
  Ty collections_method(Expr& e, Expr& callee, Ty base);
  /// stdlib: `deque(xs, maxlen=n)` and appendleft, popleft, extendleft, rotate of a list (check_deque.cc).
  Ty deque_ctor(Expr& e, Ty expected);
  Ty deque_method(Expr& e, Expr& callee, Ty base);
  /// stdlib: `c1 + c2`, `-`, `|`, `&` of Counters (check_counter.cc).
  Ty counter_binary(Expr& e, Ty a, Ty b);
  Ty file_method(Expr& e, Expr& callee);
  Ty gpu_call(Expr& e, const std::string& n);
  // --- tuples and optional values (check_tuple.cc) ---
  Ty tuple_display(Expr& e, Ty expected);
  /// `t[k]` of a tuple: `k` a constant int in range.
  Ty tuple_subscript(Expr& e, Ty bt);
  /// `a, b = v` where `v` is a tuple value.
  void unpack(Expr& target, Ty vt, const Expr& v);
  bool comparable(Ty a, Ty b, const std::string& op);
  Ty compare_compound(Expr& e, const std::vector<Ty>& ts);
  /// E1034 when `e` may be None where a value is needed; true if it was reported.
  bool maybe_none(const Expr& e);
  /// The optional locals a condition proves not None when it is `when_true`.
  std::set<std::string> facts(const Expr& cond, bool when_true);
  void narrow(const std::set<std::string>& names);
  /// A loop's head forgets what its body may reassign.
  void forget_narrowing(const std::vector<StmtPtr>& body);
  /// A local's type where it is read: an optional known not None is its value's type.
  Ty narrowed(const std::string& n, Ty declared);
  /// Assigning a value (`vt`) narrows an optional local; None or an optional widens it.
  void after_assign(const std::string& n, Ty declared, Ty vt);
  // --- optional fields narrowed (issue 32: check_attribute_narrowing.cc) ---
  /// The path of a field read over a local ("node.next"), the key of its fact; empty for any other expression.
  std::string field_path(const Expr& x) const;
  /// The type field read `e` (of declared type `ft`) has here: an optional proven not None is its value's.
  Ty field_narrowed(const Expr& e, Ty ft);
  /// Assigning local or field `path` forgets what was proven of the fields read through it.
  void forget_fields_of(const std::string& path);
  /// Assigning a field `attr` of any object forgets the facts of that field (another local may alias it).
  void forget_field(const std::string& attr);
  /// Assigning field target `t` (declared `ft`) a `vt`: its facts forgotten, then a value proves it not None.
  void after_field_assign(const Expr& t, Ty ft, Ty vt);
  // --- strings (check_str.cc) ---
  /// `a op b` where either operand is a str.
  Ty str_binary(Expr& e, Ty a, Ty b);
  /// `s[i]` and `s[a:b:c]` of a str `s` (its type already checked).
  Ty str_subscript(Expr& e);
  /// `s.method(...)` of a str `s`: the method's result type.
  Ty str_method(Expr& e, Expr& callee, Ty base);
  /// `str(x)`.
  Ty str_call(Expr& e);
  /// An f-string: its fields' values and format specs.
  Ty fstring(Expr& e);
  // --- formatting (check_format.cc) ---
  /// `template.format(...)`: a literal or constant template read here, any other formatted at run time.
  Ty str_format(Expr& e, Expr& callee);
  /// `template % args`: as str_format; `%(name)s` of a dict and `*` widths at run time.
  Ty str_percent(Expr& e, Ty a, Ty b);
  /// `format(x[, spec])`.
  Ty format_call(Expr& e);
  /// `int(s, base)` (`n` "int"), `hex`, `oct`, `bin`, `round`, `divmod`, `pow` (check_number.cc).
  Ty number_builtin(Expr& e, const std::string& n);
  /// `math.NAME(...)` of a function builtins.def lists for "math" (check_math.cc).
  Ty math_table_call(Expr& e, const std::string& name);
  /// Whether argument `arg` (of type `t`) fits field `f` of a template at `at`; reported when not.
  /// A mistake python3 raises at run time sets `at_run_time` instead (the run-time formatter raises it).
  bool format_field(const Expr& arg, Ty t, const FormatPiece& f, Pos at, bool& at_run_time);
  /// format_field() of a field that reaches through its argument (`{0[1]}`, `{p.name}`, `{d[key]}`):
  /// each step typed at compile time (format_template.h), or the template left to run time where
  /// python3 raises on a step (a missing attribute, index or key).
  bool reach_field(const Expr& arg, Ty t, const FormatPiece& f, Pos at, bool& at_run_time);
  /// Spreads the `*x` arguments of call `e` (the parser's Unary "*", check_star_args.cc): a tuple
  /// variable's elements become arguments, `print(*xs)` prints the joined str() of its items,
  /// `max(*xs)` / `min(*xs)` take the list. False, reported, for what stays refused (E1010).
  bool star_args(Expr& e);
  /// Whether `arg` (of type `t`) can go to the run-time formatter (ppy_vformat.c); reported when not.
  bool run_time_format_arg(const Expr& arg, Ty t);

  // --- lists (check_list.cc) ---
  /// `xs.method(...)` of a list `xs`: the method's result type (None for append).
  Ty list_method(Expr& e, Expr& callee, Ty base);
  /// `a == b` / `a != b` where either operand is a list.
  Ty compare_lists(Expr& e, const std::vector<Ty>& ts);
  /// `for i, x in enumerate(xs[, start])` and `for a, b in zip(xs, ys)` over lists and strs.
  void for_pairs(Stmt& s);
  /// Whether `it` calls the builtin enumerate or zip (not a local or function of that name).
  bool is_pairs_call(const Expr& it);
  /// `enumerate(...)` / `zip(...)`: the types of each pair's two values (false when refused).
  bool pairs_iter(Expr& it, Ty types[2]);
  /// `list(x)`: a copy of a list, the characters of a str, `range(...)`, `zip(...)`, `enumerate(...)`.
  Ty list_call(Expr& e, Ty expected);
  /// What a for loop's variable takes from `it`: range(...), a list or a str (Error when refused).
  Ty iter_type(Expr& it);
  /// `[elt for x in it if cond]`: the list type; `x` becomes a local of its own (e.target).
  Ty list_comp(Expr& e, Ty expected);
  int comps_ = 0;  ///< comprehensions so far: each names its variable apart
  bool generator_ = false;  ///< this function is a generator (a `return` only ends it)
  /// `x in xs` / `x not in xs` of a list `xs`.
  Ty list_contains(Expr& e, const std::vector<Ty>& ts);
  /// A slice's bounds and step, of str or list: each an int (or bool), else E1030. False when one is not.
  bool slice_indices(Expr& slice);
  /// `xs[a:b:c]` of a list (its type already checked).
  Ty list_slice(Expr& e, Ty base);
  /// `sorted(xs)`, `sum(xs)`, `min(xs)`, `max(xs)` of a list.
  Ty list_builtin(Expr& e, const std::string& n);
  /// `sep.join(xs)` and `s.split([sep])`: the str methods that take or make a
  /// list[str].
  Ty str_list_method(Expr& e, Expr& callee);

  // --- lazy sequences (check_lazy.cc, docs/language.md, "Iterables") ---
  /// any/all, zip/enumerate/reversed, and sum/list/min/max/sorted of a generator expression or of
  /// one of those: the call's type; nullopt when the call is not one of them (the older rules apply).
  std::optional<Ty> lazy_builtin(Expr& e, const std::string& n);
  /// Whether `x` is a generator expression or a call of zip, enumerate, reversed or range.
  bool lazy_arg(const Expr& x) const;
  /// `zip(...)`, `enumerate(xs[, start])`, `reversed(xs)`: a list of what they give, where an iterable goes.
  Ty lazy_iterable(Expr& e, const std::string& n);
  /// `sum(...)`, `any(...)`, `all(...)` of any iterable: one loop, no list made (e.ops[0] names sum's total).
  Ty lazy_fold(Expr& e, const std::string& n);
  /// `map(f, it, ...)` and `filter(f, it)` where an iterable goes: `e` becomes the generator
  /// expression they mean, checked (check_map.cc).
  Ty map_call(Expr& e, const std::string& n);
  // --- lazy sequences as values (check_lazy_values.cc, lazy_values.h) ---
  /// `map` / `filter` stored, passed or returned: `e` becomes a call of `__ppy_map` (`__ppy_map2`,
  /// `__ppy_filter`) of `lambda names: applied` and its iterables, checked.
  Ty lazy_map_value(Expr& e, bool map, const std::vector<std::string>& names, ExprPtr applied);
  /// A generator expression of one clause stored, passed or returned: the same calls.
  Ty genexp_value(Expr& e, Ty expected);
  /// A checked argument `a` (of type `t`) where an iterator goes: a list, str, set or dict becomes
  /// `__ppy_iter_list(...)` of it, checked against `want`; returns the argument's type.
  Ty iterator_arg(Expr& a, Ty t, Ty want);
  /// `functools.reduce(f, it[, init])`: one loop over the iterable, the accumulator a local of its own
  /// (e.ops[0]) (check_functools.cc).
  Ty reduce_call(Expr& e);
  /// `functools.partial(f, args...)`: a Callable of the parameters left (check_functools.cc).
  Ty partial_call(Expr& e, Ty expected);
  /// itertools' functions (`n` without the module) where an iterable goes (check_itertools.cc).
  Ty itertools_call(Expr& e, const std::string& n);
  /// `set(iterable)` and `dict(iterable of pairs)`.
  Ty table_from(Expr& e, const std::string& n, Ty expected);
  /// The generator expressions and iterable calls allowed where they are (an iterable's place).
  std::set<const Expr*> lazy_ok_;
  /// The `__iter__` of class `cls` (or a base) when it is a generator, else null.
  const FuncInfo* generator_iter(Ty cls) const;
  /// An object `it` (checked) whose class's `__iter__` is a generator becomes `it.__iter__()` (true).
  bool iterable_object(Expr& it);
  // --- the iteration protocol by hand (check_iter_protocol.cc, iter_protocol.h) ---
  /// The generator walking instances of `cls` by `__next__` (empty when it has none).
  std::string next_walker(Ty cls) const;
  /// The walker of what `cls.__iter__()` returns, when that is an instance with `__next__`.
  std::string protocol_iter(Ty cls) const;
  /// An object `it` (checked) iterable by `__iter__`/`__next__` becomes `__ppy_iter_C(it.__iter__())` (true).
  bool protocol_object(Expr& it);
  /// `next(obj)` / `next(obj, default)` of an instance with `__next__` (`g` its checked type).
  std::optional<Ty> protocol_next(Expr& e, Ty g);
  /// Whether `x` is a local holding an iterator or a call of a generator function of the module.
  bool maybe_iterator(const Expr& x) const;
  /// An iterator argument `g` becomes `(v for v in g)`, which the builtins taking lists take.
  void wrap_iterator(ExprPtr& x);
  // --- generators (check_generator.cc) ---
  /// Whether this function is a generator (it yields; its result is an Iterator), kept in generator_.
  bool generator_start();
  void yield_stmt(Stmt& s);
  void generator_return(Stmt& s);
  /// Gives each for loop of a generator its own locals (`s.op` names them): what it walks lives in the frame.
  void generator_loops(std::vector<StmtPtr>& body);
  /// `next(g)`, `next(g, default)`.
  Ty next_call(Expr& e);
  /// The locals holding a deque: a parameter or a name annotated `deque[T]`, or assigned `deque(...)`.
  void note_deques(const FuncDef& def);
  /// `d[i]` of a deque local is marked (`target` "deque"): its IndexError says "deque index out of range".
  void mark_deque_index(Expr& sub) const;
  std::set<std::string> deques_;  ///< note_deques
  /// The module's generators that have something to run when closed (generator_close.h).
  std::set<std::string> closing_generators() const;
  /// `g.close()` of an iterator.
  Ty generator_close(Expr& e);

  // --- classes (check_class.cc) ---
  /// The class whose method this is (null for a function).
  ClassInfo* method_class() const;
  /// `x.f` of an instance `x` of class `bt`.
  Ty field_read(Expr& e, Ty bt);
  /// A field's type when `t` is `local.f` of an instance (an assignment's
  /// hint), else Error.
  Ty field_type_hint(const Expr& t);
  /// `x.f = v`.
  void field_assign(Expr& t, Ty vt, const Expr& v);
  /// The arguments of a call (`e.kids[1..]`, keywords, defaults) against a
  /// signature.
  bool call_args(Expr& e, const std::string& shown, const std::vector<std::string>& names,
                 const std::vector<Ty>& params, const std::vector<std::optional<ConstInfo>>& defaults);
  /// call_args against method `f`'s parameters after `self`.
  bool method_args(Expr& e, const std::string& shown, const FuncInfo& f);
  /// Records a call of method `name` that class `impl` defines (effects
  /// propagate through it; another module's method is an external).
  void calls_method(Ty impl, const std::string& name, Pos p);
  Ty ctor_call(Expr& e, Ty cls);
  Ty method_call(Expr& e, Expr& callee, Ty bt);
  Ty super_call(Expr& e, Expr& callee);
  Ty isinstance_call(Expr& e);
  /// `issubclass(C, Base)` of the module's classes and builtin exceptions (a
  /// tuple of them second): known at compile time, so `e` becomes its bool literal.
  Ty issubclass_call(Expr& e);
  /// E1010 unless `e`'s value prints as Python prints it (types.h's printable).
  bool check_printable(const Expr& e);
  // --- exception classes (check_exception_class.cc) ---
  /// BaseException's arguments `e.kids[1..]` (any printable values, no keywords).
  bool exception_args(Expr& e);
  /// `super().__init__(args)` in a method of an exception class whose base is builtin.
  Ty base_exception_init(Expr& e);
  /// `raise v` of anything but a builtin exception class: an instance, or a caught exception again.
  void raise_value(Stmt& s);
  /// `raise ... from cause`: an exception or None, evaluated and dropped.
  void raise_cause(Stmt& s);
  // --- an IntEnum member as an int (issue 32: check_int_enum.cc) ---
  /// Whether `t` is a class enum_classes.cc wrote for an IntEnum.
  bool is_int_enum(Ty t) const;
  /// When `t` is an IntEnum, rewrites the checked `x` as `x.value` (checked) and makes `t` its type.
  bool int_enum_as_int(ExprPtr& x, Ty& t);
  /// A comparison's IntEnum operands next to an int or float operand (not `is`, `in`) as their values.
  void int_enum_operands(Expr& e, std::vector<Ty>& ts);
  // --- e.args and repr(e) (issue 32: check_exception_args.cc) ---
  /// Whether attribute `e` of a value of type `bt` is an exception's `args`.
  bool is_exception_args(const Expr& e, Ty bt);
  /// `e.args` rewritten to a tuple display of its arguments and checked.
  Ty exception_args_value(Expr& e, Ty bt);
  /// Whether checked `x` is one argument of a builtin exception's `e.args` (issue 33): an
  /// element of the list its args are read into, a local first given one, a tuple of those.
  bool is_exc_arg(const Expr& x) const;
  /// Before operand `x` is checked: a copy to check again as a cast should it be one (else null).
  static ExprPtr exc_arg_copy(const Expr& x);
  /// When checked `x` (type `t`) is such an argument and `copy` holds it unchecked: `x` becomes
  /// `__ppy_exc_arg_<want>(copy, what)`, checked (`t` its type), which gives the value as a
  /// `want` (str, int, float) where it holds one, else raises python3's error `what`
  /// (io_helpers.h). False (nothing done) otherwise.
  bool exc_arg_as(Expr& x, ExprPtr& copy, Ty& t, Ty want, const std::string& what);
  /// The locals first given one of a builtin exception's arguments (`reason = e.args[0]`).
  std::set<std::string> exc_arg_locals_;
  /// `isinstance(e, K)` of an exception value (`e: Exception`, `except ValueError as e`): K a
  /// builtin exception, an exception class or a tuple of those (check_exception_value.cc).
  Ty exception_isinstance(Expr& e);
  /// `repr(e)` of a caught builtin exception, rewritten to str operations and checked.
  Ty exception_repr(Expr& e);
  // --- os.environ and the fields of SystemExit and OSError (issue 33: check_environ.cc) ---
  /// Whether `x` names `os.environ` (through `import os` or `from os import environ`).
  bool is_environ(const Expr& x);
  /// `k in os.environ`, `k not in os.environ`: rewritten to `os.environ.__contains__(k)` and
  /// checked; nullopt when `e` is no such test.
  std::optional<Ty> environ_contains(Expr& e);
  /// `os.environ[k]`: rewritten to `os.environ.__getitem__(k)` (KeyError) and checked.
  std::optional<Ty> environ_item(Expr& e);
  /// `os.environ.get(k)` without a default: a `str | None` (io_helpers.h).
  Ty environ_get(Expr& e);
  /// `e.code`, `e.errno`, `e.strerror`, `e.filename` of a caught builtin exception, rewritten to
  /// a call of their helper (io_helpers.h) and checked; nullopt for another attribute.
  std::optional<Ty> exception_field(Expr& e);
  /// What `except h.classes as e` binds `e` to: the classes' common exception class, else Exc.
  Ty handler_type(Handler& h);
  // --- special methods (check_dunder.cc): operators rewritten into method calls ---
  /// Makes `e` the call `self.name(args...)` (`self` checked already) and checks it.
  Ty dunder_call(Expr& e, ExprPtr self, const char* name, std::vector<ExprPtr> args);
  /// Makes `e` `not self.name(args...)`.
  Ty negated_dunder(Expr& e, ExprPtr self, const char* name, std::vector<ExprPtr> args);
  /// `a op b` where an operand is an instance: `__add__`, or the right one's `__radd__`, ...
  Ty dunder_binary(Expr& e, Ty a, Ty b);
  /// Whether the comparison `e` of operands `ts` calls a special method (`__eq__`, `__lt__`, `__contains__` ...).
  bool compares_by_dunder(const Expr& e, const std::vector<Ty>& ts) const;
  Ty dunder_compare(Expr& e, Ty a, Ty b);
  /// `-x`, `+x`, `~x` of an instance.
  Ty dunder_unary(Expr& e, Ty t);
  /// `x(args)` of a local instance: `x.__call__(args)`.
  Ty dunder_callable(Expr& e);
  /// `x[k] = v` of a local instance: rewritten into the statement `x.__setitem__(k, v)`; false when it is not one.
  bool setitem_stmt(Stmt& s);
  // --- class members (check_class_member.cc) ---
  /// `member` of class `cls` through the class: a class constant (Const) or a
  /// static or class method (Func); false when it is neither.
  bool class_member(Ty cls, const std::string& member, Resolved& r);
  /// The class `name` stands for in a class method's body (its `cls`), else Error.
  Ty classmethod_cls(const std::string& name);
  /// `cls.X` in a class method's body (a class constant, a static or class method): the class's own
  /// name stands for `cls` from here on, as a copy per subclass makes it that class (inherited_classmethods.h).
  void cls_member(Expr& x);
  /// `x.prop = v` of a property with a setter: rewritten into `x.__set_prop(v)`; false when it is not one.
  bool property_set_stmt(Stmt& s);
  /// `len(x)` of an instance: `x.__len__()`.
  Ty dunder_len(Expr& e);
  /// `x op= v` of an object held in a local or a field of a name: rewritten into
  /// `x = x.__iadd__(v)` where the class has it, else `x = x + v` as Python falls back.
  bool aug_dunder(Stmt& s);
  /// `abs(x)` of an object whose class has `__abs__`: `x.__abs__()`.
  Ty dunder_abs(Expr& e);
  /// A truth test of an instance (checked, `e.ty` its class): its `__bool__`, else `__len__() != 0`.
  void dunder_truth(Expr& e);
  /// While an except clause's body is checked: its `as` name -> the hidden local holding the instance.
  std::map<std::string, std::string> exc_alias_;
  /// While an except clause that names one builtin class is checked: its `as` name -> that class
  /// (`ValueError`), the name python3's operator messages give the instance (issue 34).
  std::map<std::string, std::string> exc_class_;
  /// The name python3's messages give operand `e` of type `t`: an exception's class where the
  /// clause that caught it names one (`ValueError`), else `python_type_of(t)`.
  std::string operand_type_name(const Expr& e, Ty t) const;
  // --- del, empty displays typed by their first use (issue 32: check_del.cc, check_infer.cc) ---
  /// `del xs[i]` / `del xs[a:b]` of a list `xs` of type `base` (the call `xs.__delitem__(k)`).
  Ty list_del(Expr& e, Ty base);
  /// An empty display (`[]`, `{}`, `set()`, `dict()`) assigned to a new local whose type its first use gives.
  struct PendingEmpty {
    Expr* display;  ///< the display, typed when the local is
    Expr* target;   ///< the assignment's target name
    char kind;      ///< 'l' (list), 'd' (dict), 's' (set)
  };
  std::map<std::string, PendingEmpty> pending_empty_;
  /// `name = []` (and `{}`, `set()`, `dict()`) of a local with no type yet: typed later (true), not checked now.
  bool defer_empty(Stmt& s);
  /// A read of pending local `e` where a value of type `expected` is wanted (a return, an argument).
  void infer_from_read(Expr& e, Ty expected);
  /// `name.append(v)`, `name.add(v)`, `name.insert(i, v)`, `name.extend(xs)` of a pending local.
  void infer_from_method(Expr& call, Expr& callee);
  /// `name[k] = v` of a pending dict (`vt` the value's type).
  void infer_from_store(Expr& target, Ty vt);
  /// The pending local `n` is of type `t` from now on (E1030 when its display cannot be one).
  void settle_empty(const std::string& n, Ty t, Pos p);
  /// The pending locals no use typed (E1030), at the end of the body.
  void unsettled_empty();
  // --- `with` over an object (issue 32: check_with.cc) ---
  /// When `body[i]` begins a `with` item (parser_with.cc) over an object with
  /// `__enter__` / `__exit__`, rewrites it and its try statement into PEP 343's
  /// calls (the statements replace them in `body`, unchecked). In a `generator`, a close at a
  /// yield of the body gives `__exit__` a true `exc_type`, as python3's GeneratorExit does.
  void with_object(std::vector<StmtPtr>& body, size_t i, bool generator = false);
  /// Generators: rewrites each `with` over an object in `body` (nested suites too) before the
  /// generator's tries are split at their yields (generator_try.h), which would hide the
  /// `with`'s shape; only one whose manager the checker can type before the body's locals are
  /// (a constructor call of parameters and constants, a parameter), the others are left as
  /// they are (refused).
  void with_objects_in_generator(std::vector<StmtPtr>& body);
  // --- type(x).__name__ and type(x) is C (issue 32: check_type_name.cc) ---
  /// `type(x).__name__` rewritten to a str constant or isinstance() tests and
  /// checked; nullopt when `e` is another attribute.
  std::optional<Ty> type_name_attribute(Expr& e);
  /// `type(x) is C` (`==`, `is not`, `!=`) rewritten to isinstance() tests or a
  /// constant and checked; nullopt when `e` is another comparison.
  std::optional<Ty> type_compare(Expr& e);
  // --- unions and isinstance (issue 32: check_union.cc, unions.h) ---
  /// `isinstance(x, K)`: K a class, a builtin type or a tuple of those.
  Ty isinstance_any(Expr& e);
  /// The types an isinstance() names (each's `ty` set); false (reported) when one is not a type.
  bool instance_classes(Expr& k, std::vector<Ty>& out);
  /// What an isinstance() test `c` proves of a local when it is `when_true` (entries of Flow::not_none).
  void isinstance_facts(const Expr& c, bool when_true, std::set<std::string>& out);
  /// The type local `n` is narrowed to by an isinstance() or an assignment here, else Error.
  Ty union_narrowed(const std::string& n, Ty declared);
  void forget_union_narrowing(const std::string& n);
  /// Assigning a value of type `vt` to a union local narrows it to that alternative.
  void union_after_assign(const std::string& n, Ty declared, Ty vt);
  /// The field a match class pattern's positional sub-pattern names (`e.str` "\x02<i>": the i-th of a
  /// dataclass's fields, its __match_args__); false (reported) for any other class.
  bool match_field(Expr& e, const ClassInfo& c);
  /// The list type among a (maybe optional) union's alternatives: what a list display there makes (else Error).
  static Ty list_alternative(Ty expected);
  // --- dicts and sets (check_dict.cc) ---
  /// A key (or set element) of type `key` for the table `table`; false (reported) when it is not.
  bool dict_key(Expr& k, Ty key, Ty table);
  /// A key of type `key` (a class, or a tuple holding classes) entering or looking up a table: the
  /// key helper of each class whose `==` is its own is called (check_hash_key.cc); false (reported
  /// at `p`) when such a class has none.
  bool object_key(Ty key, Pos p);
  /// `hash(x)`: an int, bool or str, a tuple of those, or an object through its class's `__hash__`.
  Ty hash_call(Expr& e);
  /// A value of type `want` for the dict `table`; false (reported) when it is not.
  bool dict_val(Expr& v, Ty want, Ty table);
  /// `{k: v, ...}`, `{}` and `{a, b}`.
  Ty dict_display(Expr& e, Ty expected);
  /// `set()` and `dict()`: an empty table of the expected type.
  Ty empty_table(Expr& e, const std::string& n, Ty expected);
  /// `d[k]` of a dict (its type already checked).
  Ty dict_subscript(Expr& e, Ty bt);
  /// `d.method(...)` of a dict or set.
  /// `unchecked`: a copy of the receiver made before it was checked, for the methods rewritten as
  /// comprehensions over it (d.copy(), d.items() taken as a list's values).
  Ty dict_method(Expr& e, Expr& callee, Ty base, ExprPtr unchecked = nullptr, bool stmt_level = false);
  /// `d.update(o)` as a statement: `for k, v in o.items(): d[k] = v`, which the statement becomes.
  Ty dict_update(Expr& e, Ty base, ExprPtr unchecked, bool stmt_level);
  StmtPtr update_stmt_;  ///< the loop `d.update(o)` becomes, taken by the statement checker
  /// `e` becomes `{k: v for k, v in base.items()}` (`{x for x in base}` of a set, `[(k, v) for ...]` with `pairs`).
  Ty dict_rewrite(Expr& e, ExprPtr base, bool set, bool pairs);
  /// `k in d` / `k not in d` of a dict or set.
  Ty dict_contains(Expr& e, const std::vector<Ty>& ts);
  /// `d[k] = v` (the target `t` a subscript of the dict type `bt`); false when reported.
  bool dict_store(Expr& t, Ty bt, Ty vt, const Expr& v);
  /// `{k: v for x in it if c}` and `{x for x in it if c}`.
  Ty table_comp(Expr& e, Ty expected);
  /// A comprehension's names, each a local of its own (e.target lists them), typed from its iterable (d.items()
  /// gives pairs), its conditions checked; false when refused (reported).
  bool comp_vars(Expr& e);
  /// 1 for `x.keys()` / `x.values()`, 2 for `x.items()`, else 0.
  static int view_call(const Expr& x);
  /// `for k, v in d.items()`.
  void for_items(Stmt& s);
  /// Where d.keys() and d.values() may be read (1), and d.items() too (2): what takes a list.
  int views_ok_ = 0;

  // --- functions as values (check_closure.cc, callable.h) ---
  /// The names of the body's `nonlocal` statements (E1001 when none is bound around it).
  void collect_nonlocals(const std::vector<StmtPtr>& body);
  /// The variables this body may reach in the functions around it, with their types.
  void visible(std::map<std::string, Ty>& out) const;
  /// A nested function sees the variables around it as its own (its locals hide them).
  void seed_enclosing();
  /// `def` inside a function: a closure assigned to the local of its name, its body checked at the end.
  void nested_def(Stmt& s);
  /// The nested defs' bodies, after this body (every variable around them has its type).
  void check_nested();
  /// The variables around it a nested function uses: its captures, and the cells of the one that owns them.
  void finish_closure(FuncInfo& c, BodyChecker& child);
  /// `lambda a: body`, its parameters' types from the Callable `expected`.
  Ty lambda_expr(Expr& e, Ty expected);
  /// `f(args)` where `f` (e.kids[0], checked) is a value of the Callable type `ct`.
  Ty value_call(Expr& e, Ty ct);
  /// A function of the module named as a value.
  Ty function_value(Expr& e, const Resolved& r);
  /// `sorted(xs, key=, reverse=)`, `min`/`max(xs, key=)` and `xs.sort(key=, reverse=)` (n "sort", `base` the
  /// list's type): check_keyed.cc.
  Ty keyed_call(Expr& e, const std::string& n, Ty base);
  BodyChecker* outer_ = nullptr;     ///< the function around a nested one
  std::set<std::string> nonlocal_;   ///< names of this body's `nonlocal` statements
  std::set<std::string> enclosing_;  ///< variables of the functions around it, seen as its own
  std::vector<size_t> deferred_;     ///< nested defs (their index in ModuleInfo::closures) to check last

  ModuleInfo& m_;
  FuncInfo& f_;
  const ModuleInterfaces& all_;
  DiagnosticEngine& d_;
  bool gpu_;
  std::map<std::string, Ty> types_;
  std::set<std::string> unknown_;
  std::vector<std::string> order_;
  Flow flow_;
  int tries_ = 0;                      ///< try bodies around the statement being checked
  std::vector<std::string> handlers_;  ///< the locals of the except clauses around it, innermost last
  std::vector<std::vector<Flow>> loops_;
  uint32_t line_ = 0;  ///< the statement being checked (module code calls only what is defined above it)
  Pos cur_pos_;        ///< the expression (or statement) being checked: where an effect happens
  std::set<std::string> globals_;  ///< module variables this function uses
  /// Where each name of a `global` statement is declared: Python refuses a use
  /// or an assignment above it (SyntaxError).
  std::map<std::string, Pos> global_decls_;
  /// E1001 when `e` (a use, or an assignment when `assigned`) comes before the
  /// `global` statement naming it.
  void check_after_global(const std::string& n, Pos p, bool assigned);
};

}  // namespace ppy::frontend::checking
