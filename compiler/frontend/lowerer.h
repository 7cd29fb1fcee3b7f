#pragma once
// The IR generator's function lowerer, shared by its files: the driver and the
// emission helpers (lower.cc, lower_emit.cc), statements (lower_statements.cc),
// loops and comprehensions (lower_loops.cc), exceptions (lower_exceptions.cc),
// expressions (lower_expressions.cc), calls and builtins (lower_calls.cc),
// print (lower_print.cc), strs (lower_str.cc), lists (lower_list.cc), dicts
// and sets (lower_dict.cc), tuples and optionals (lower_tuple.cc), objects
// (lower_class.cc). The conventions are docs/runtime.md. Not an API: nothing
// outside compiler/frontend includes it.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "builtins.h"
#include "checker.h"
#include "format_template.h"
#include "ppy/frontend/frontend.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/trace.h"
#include "types.h"
#include "unions.h"

namespace ppy::frontend::lowering {

using ir::AttrArray;
using ir::AttrDict;
using ir::Block;
using ir::SymbolRef;
using ir::Type;
using ir::Value;

/// A str is a handle to the runtime's string (docs/runtime.md, "Strings").
Type str_type();
/// The IR type of values of source type `t`.
Type ir_type(Ty t);
/// An instance's memory: `struct<Name, __tid: i64, fields...>`, the base's
/// fields first (a derived object's struct starts with its base's), objects in
/// fields as handles (so a class may hold itself).
Type struct_type(Ty cls);
/// The bytes `ppy_obj_new` allocates for an instance: 8 for each scalar of
/// its struct, which every target's layout fits in (and the interpreter's slots
/// fill).
int64_t object_bytes(Type t);
/// A function's `ppy.effects`: its effects, or `pure` when it has none.
AttrArray effects_attr(const std::set<std::string>& effects);

/// The symbol of module function `func`'s value entry: it takes the closure
/// first, then the function's parameters (lower_closure.cc).
std::string value_entry_symbol(const std::string& module, const std::string& func);
/// The symbol of method `qual`'s (`Class.m`) bound entry: it takes the closure
/// (holding the object) first, then the method's parameters after self.
std::string bound_entry_symbol(const std::string& module, const std::string& qual);
/// The value entries of the module's functions used as values.
void lower_value_entries(const ModuleInfo& m, ir::Module& mod);
/// A closure's memory: the function it runs, then `ncells` cell handles (lower_closure.cc).
Type closure_struct(size_t ncells);
/// The module's generators, nested ones after the top-level ones, each with its id (from 1): its frames' `__tid`.
std::vector<std::pair<int64_t, const FuncInfo*>> module_generators(const ModuleInfo& m);
/// What a generator's frame holds after its id and state: each local, then (nested) each captured cell's handle.
std::vector<std::pair<std::string, Type>> frame_fields(const FuncInfo& f);

/// Where `continue` and `break` of the innermost loop go.
struct Loop {
  Block* cont;
  Block* brk;
};

/// The blocks of one loop, made (and numbered) together so that their labels
/// follow the source: `<kind>.head<n>`, `.body`, the `inner` blocks the body
/// splits into, `.latch` (when it has one) and `.end`.
struct LoopBlocks {
  Block* head;
  Block* body;
  std::vector<Block*> inner;
  Block* latch;  ///< where `continue` goes and the counter steps; null: the body's end steps it
  Block* exit;
};

/// Lowers one checked function (or a module's code) into `fn`.
class FunctionLowerer {
 public:
  FunctionLowerer(const ModuleInfo& m, const FuncInfo& f, ir::Function* fn, ir::Module& mod,
                  const ModuleInterfaces& all)
      : all_(all), m_(m), f_(f), fn_(fn), mod_(mod), gpu_(!f.gpu_kind.empty()) {}

  void run();

 private:
  Pos end_pos() const;

  // --- emission helpers (lower_emit.cc) ---
  Value* emit(std::string_view name, std::vector<Value*> ops, const std::vector<Type>& results, AttrDict attrs, Pos p);
  ir::Operation* emit_op(std::string_view name, std::vector<Value*> ops, const std::vector<Type>& results,
                         AttrDict attrs, Pos p);
  void br(Block* to, std::vector<Value*> args, Pos p);
  void cond_br(Value* c, Block* t, std::vector<Value*> targs, Block* f, std::vector<Value*> fargs, Pos p);
  Block* new_block(const std::string& kind);
  Block* new_block(const std::string& kind, int n);
  [[nodiscard]] bool terminated() const;

  Value* const_i64(int64_t v, Pos p);
  Value* const_f64(double v, Pos p);
  Value* const_bool(bool v, Pos p);
  Value* const_index(int64_t v, Pos p);
  Value* cmp(const char* pred, Value* a, Value* b, Pos p);
  Value* cast(Value* v, Type to, Pos p);
  Value* not_(Value* v, Pos p);
  Value* and_(Value* a, Value* b, Pos p);
  Value* or_(Value* a, Value* b, Pos p);
  Value* select(Value* c, Value* a, Value* b, Pos p);
  /// `overflow` for integer arithmetic: Python's checks on the host, wrapping on a GPU.
  const char* ovf() const { return gpu_ ? "wrap" : "python"; }
  Value* iadd(Value* a, Value* b, Pos p, const char* mode = nullptr);
  /// A `core.guard` (none on a GPU, which has no errors to raise).
  void guard(Value* ok, const char* kind, std::string message, Pos p);
  void call_extern(const char* callee, std::vector<Value*> args, Pos p, AttrDict extra = {});
  void use_dialect(const char* d) { mod_.dialects()[d] = 1; }
  /// A runtime function with one result (the string functions of ppy_str.h).
  Value* rt(const char* callee, std::vector<Value*> args, Type result, Pos p, AttrDict extra = {});
  Value* str_literal(const std::string& text, Pos p);
  /// `v` of source type `from` as source type `to` (bool -> int -> float).
  Value* convert(Value* v, Ty from, Ty to, Pos p);
  /// Python's truth of `v`, of source type `t`.
  Value* truth(Value* v, Ty t, Pos p);
  Value* list_len(Value* buf, Pos p);
  /// A Python index (negative counts from the end) as a checked `index`.
  /// The checked index `i` of `buf`; IndexError names `what` ("list", "deque", or "tuple"
  /// for a tuple walked as its list, tuple_as_list.h), or a list assignment's for `store`.
  Value* list_index(Value* buf, Value* i, Pos p, bool store, std::string_view what = "list");
  /// `c ? then_fn() : else_fn()` in blocks named `names` (then, else, join):
  /// the join's argument of type `result`, or null (and no argument) when
  /// `result` is void.
  Value* choose(Value* c, std::initializer_list<const char*> names, const std::function<Value*()>& then_fn,
                const std::function<Value*()>& else_fn, Type result, Pos p);

  // --- locals ---
  /// A module variable's slot is its global's address (`core.const @g : ptr<T>`):
  /// loads and stores reach it as they reach a local's stack slot.
  void global_slot(const std::string& name, Ty ty, Pos p);
  void store_local(const std::string& name, Value* v, Pos p);
  Value* load_local(const std::string& name, Pos p);
  /// A local read as type `ty`: an optional the checker narrowed gives its value.
  Value* load_as(const std::string& name, Ty ty, Pos p);
  /// Stores a value of type `vt` into a local, made the local's type first.
  void store_as(const std::string& name, Value* v, Ty vt, Pos p);

  // --- statements (lower_statements.cc) ---
  void block(const std::vector<StmtPtr>& body);
  void stmt(const Stmt& s);
  void aug_assign(const Stmt& s);
  void assign(const Expr& t, Value* v, Ty vt);
  /// `cur op v` of the augmented assignment `s` whose target holds `cur`.
  Value* aug_value(const Stmt& s, Value* cur);

  // --- loops and comprehensions (lower_loops.cc) ---
  /// The blocks of a new loop (LoopBlocks), `inner` named `<kind>.<name><n>`.
  LoopBlocks new_loop(std::string_view kind, bool latch, std::initializer_list<std::string_view> inner = {});
  /// The loop of `b`: the head takes the counter `i` from `start` (none when
  /// null: a while loop), `test(i)` in the head says whether the body runs,
  /// `body(i)` lowers it with break and continue the loop's, and the latch (or
  /// the body's end) steps i by `step` (null: 1) added with `overflow`.
  void loop(const LoopBlocks& b, Value* start, const std::function<Value*(Value*)>& test,
            const std::function<void(Value*)>& body, Value* step, const char* overflow, Pos p);
  void while_stmt(const Stmt& s);
  void for_stmt(const Stmt& s);
  /// `for i, x in enumerate(xs[, start])` / `for a, b in zip(xs, ys)`: a counted
  /// loop whose lengths are read at every step (docs/runtime.md, "Lists").
  void for_pairs(const Stmt& s);
  /// What a loop over pairs runs at each step: (a, a's type, b, b's type).
  using PairBody = std::function<void(Value*, Ty, Value*, Ty)>;
  /// The loop over `enumerate(...)` / `zip(...)`: `body(a, a_type, b, b_type)` for each pair.
  void pairs_loop(const Expr& it, Pos p, const PairBody& body_fn);
  static Ty list_or_str_elem(Ty t) { return t == Ty::Str ? Ty::Str : list_elem(t); }
  /// A loop over `range(...)`, a list or a str, the variable `var` taking each
  /// value before `body` lowers its statements (a for statement's, a
  /// comprehension's); `unpack` a tuple target taking it instead; `sink`
  /// (`list(x)`) taking each value instead of both.
  void for_loop(const std::string& var_name, Pos var_pos, const Expr& it, Pos p, const std::function<void()>& body_fn,
                const Expr* unpack = nullptr, const std::function<void(Value*)>& sink = {});
  /// `for k, v in d.items()`: lists of the keys and values made when the loop starts, its size checked at each step.
  void for_items(const Stmt& s);
  /// A loop over `it`, a `d.items()` call: `body_fn(key, key type, value, value type)` at each step.
  void items_loop(const Expr& it, Pos p, const PairBody& body_fn);
  /// `[elt for x in it if cond ...]`: a new list appended to in a loop (docs/language.md, "Lists").
  Value* list_comp(const Expr& e);
  /// One `for` clause of a comprehension: its loop, its conditions, then the next
  /// clause (a ListComp marked "for") or the element appended to `out`.
  /// `put` (a dict or set comprehension's) takes each element instead of the append to `out`.
  void comp_into(const Expr& e, Value* out, Ty elem, const std::function<void(const Expr&)>* put = nullptr);
  /// Tracebacks (issue 34, ppy/ir/trace.h): a new comprehension frame for the
  /// comprehension `e` the program wrote (0 for one the checker made, which
  /// python3 runs in no frame of its own), inside the current one.
  int64_t open_comp(const Expr& e);
  /// Sets this function's comprehension table (`ppy.comps`) as it stands.
  void keep_comps();
  /// Notes `it` and what it is made of as evaluated in comprehension frame `frame` (expr()).
  void note_iterable_frame(const Expr& it, int64_t frame);
  /// comp_into's loop over `it`, running `body` for each element.
  void comp_loop(const Expr& e, const Expr& it, const std::vector<std::string>& names, const Expr& unpack,
                 const std::function<void()>& body);

  // --- lazy sequences (lower_lazy.cc, docs/runtime.md, "Iterables") ---
  /// range(...) as a value, zip/enumerate/reversed, and sum/any/all/list/set/dict of an iterable.
  Value* lazy_builtin(const Expr& e);
  /// Runs `sink(value, type)` on each value of the iterable `it` (a generator expression's elements
  /// as they are made, or a for loop's values), in one loop; `sink` may leave the loop's block.
  void each(const Expr& it, Ty elem, const std::function<void(Value*, Ty)>& sink);
  /// The values of `it` as a list: a list itself, else a new one filled by `each`.
  Value* as_list(const Expr& it, Ty elem);
  /// zip(...) / enumerate(...): `body_fn(tuple)` for each tuple, generators' values taken one at a time.
  void zip_loop(const Expr& e, const std::function<void(Value*)>& body_fn);
  /// itertools.accumulate without `initial=`: `body_fn(total)` for each running total, just after the value
  /// it adds is taken, so a for loop over it steps its iterable as python3's does (lower_lazy.cc).
  void accumulate_loop(const Expr& e, const std::function<void(Value*)>& body_fn);
  /// `sum`, `any`, `all` in one loop; any/all leave it at the first value that decides.
  Value* fold(const Expr& e);

  // --- generators (lower_generator.cc, docs/runtime.md, "Generators") ---
  /// A generator function: `fn_` makes its frame; a private `<fn>__resume` runs its body to the next yield.
  void gen_run();
  /// The frame: `struct<gen.<name>, __tid: i64, state: i64, s0: T0, ...>`, a field per local.
  Type frame_type() const;
  /// A private function of the generator taking its frame (`<sym>__resume`, `__close`),
  /// named `<module>.<fn>.<role>` and made the one lowered from its entry block on.
  void begin_frame_function(const std::string& sym, const std::string& role, std::vector<Type> results, Pos p);
  /// What a frame field saves of the local `name`: its value, or a captured cell's handle.
  Value* frame_slot_load(const std::string& name, Pos p);
  /// A value of type `t` for a frame field not yet assigned (a null handle for objects and tables).
  Value* frame_zero(Ty t, Pos p);
  /// The locals saved in the frame with `state`, then `ret (has, v)` (v null: a zero).
  void gen_suspend(int64_t state, bool has, Pos p, Value* v = nullptr);
  /// `yield v` / `yield from it`.
  void gen_yield(const Expr& e);
  /// A generator's for loop, over what `gen_walk` walks.
  void gen_for(const Stmt& s);
  /// A loop over `it` keeping what it walks in the locals `<n>_i`, `<n>_seq`, ... (a yield may leave and come back).
  void gen_walk(const Expr& it, const std::string& n, Pos p, const std::function<void(Value*, Ty)>& body);
  /// The next value of the iterator `g`, `tuple<bool, T>` (false: exhausted), from its generator's resume.
  Value* gen_next(Value* g, Ty elem, Pos p);
  /// A loop over the values of an iterator (a for loop, a comprehension, a consumer).
  void iter_loop(const Expr& it, Pos p, const std::function<void(Value*)>& each_value);
  /// `next(g)` (StopIteration when exhausted), `next(g, default)`.
  Value* next_call(const Expr& e);
  /// Whether `g` makes a generator nothing else holds (`gen(...)`): python3 drops, so closes, it as soon as the
  /// call consuming it returns (`next`, `any`/`all`, `zip`'s loop).
  bool temporary_generator(const Expr& g) const;
  /// The generators iter_loop made from a temporary_generator, with their element type and how many loops
  /// enclosed them: fold closes the one its own loop walks.
  struct MadeGenerator {
    Value* frame;
    Ty elem;
    size_t depth;
  };
  std::vector<MadeGenerator> made_gens_;
  /// A generator with something to run when closed: its private `<gen_sym>__close(frame)` (lower_generator_close.cc).
  void gen_close_fn(const std::string& gen_sym, Pos p);
  /// `g.close()`: its generator's close function, or marking it exhausted.
  void gen_close(Value* g, Ty elem, Pos p);
  /// Whether this generator has something to run when closed (a close function).
  bool gen_closes() const;
  /// The frame's state set to -1 (exhausted), `tid` its generator's id.
  void gen_mark_done(Value* frame, Value* tid, Pos p);
  bool gen_ = false;          ///< lowering a generator's resume function
  Value* frame_ = nullptr;    ///< its frame
  std::vector<Block*> resumes_;  ///< where the body goes on after each yield, in order

  // --- exceptions (lower_exceptions.cc, docs/runtime.md, "Exceptions") ---
  /// How an outlined region ended when it did not raise: its i64 result.
  enum Outcome : int64_t { kFell = 0, kReturn = 1, kBreak = 2, kContinue = 3 };
  /// A region of statements lowered as a function of its own (a try body),
  /// called with capture_status so that a raise inside it comes back as a status.
  struct Region {
    Value* outcome;
    Value* status;
    bool ends[4] = {true, false, false, false};  ///< the outcomes it can give
  };
  struct Outlined {
    bool ends[4] = {true, false, false, false};
  };
  /// `return v` (null: no value): a plain return, or inside an outlined region
  /// the value stored in the function's `.ret` slot and the outcome kReturn.
  void ret(Value* v, Pos p);
  /// `break` / `continue`: a branch, or the outcome when the loop is outside the region.
  void jump(Outcome o, Pos p);
  /// Lowers `body` as a private function `@<this>__try<n>` that takes the
  /// stack slots of this function it reads or writes (so what it assigns is
  /// seen here, also after it raised) and returns its Outcome; the call
  /// captures the status.
  Region outline(const std::function<void()>& body, Pos p);
  /// After a region that did not raise: where its return, break or continue
  /// goes on from here; falls through to the code after it otherwise.
  void finish(const Region& r, Pos p);
  /// The exception the runtime holds (the last raise caught): (name, message).
  Value* caught(Pos p);
  void raise_exc(Value* exc, Pos p);
  void raise_stmt(const Stmt& s);
  /// try / except / else (no finally) where the code is: the body outlined,
  /// the handlers tried in order on its status, else after a body that fell through.
  void try_except(const Stmt& s);
  /// finally: lowered twice, as CPython does, once where the region raised
  /// (then the exception goes on up, unless finally returns or jumps) and once
  /// where it did not (then the region's return, break or continue goes on).
  void finally(const Stmt& s, const Region& r);

  // --- expressions (lower_expressions.cc) ---
  Value* expr(const Expr& e);
  Value* subscript(const Expr& e);
  Value* compare(const Expr& e);
  /// `a op b` with operands of source types at/bt and result type rt.
  Value* arith(const std::string& op, Value* a, Ty at, Value* b, Ty bt, Ty rt, Pos p);
  /// `a << b` / `a >> b` with Python's errors: a negative count is ValueError,
  /// a `<<` leaving i64 OverflowError (`overflow = "python"` on core.shl).
  Value* shift(bool left, Value* a, Value* b, Pos p);
  Value* is_inf(Value* x, Pos p);
  /// Float power with Python's errors; `math_fn` selects math.pow's wording.
  Value* fpow(Value* a, Value* b, Pos p, bool math_fn);
  /// A float to int, as Python's int(): truncation, with its errors.
  Value* float_to_int(Value* x, Pos p);

  // --- calls (lower_calls.cc) ---
  Value* call(const Expr& e);
  Value* user_call(const Expr& e);
  Value* builtin(const Expr& e);
  Value* math_call(const Expr& e);
  // io (issue 33, lower_io.cc)
  Value* sys_value(const Expr& e);
  Value* sys_call(const Expr& e);
  /// stdlib: random and time (lower_random.cc).
  Value* random_call(const Expr& e);
  /// stdlib: collections' constructors and methods (lower_collections.cc).
  Value* collections_call(const Expr& e);
  /// stdlib: collections.deque's constructor and left-hand methods (lower_deque.cc).
  Value* deque_call(const Expr& e);
  /// io (issue 33): `each` runs on every line of the stream `it`, each read just before its step runs
  /// (a for loop, a comprehension, list(), sorted(), sum() over a file or sys.stdin all come here).
  void lines_loop(const Expr& it, Pos p, const std::function<void(Value*)>& each);
  void raise_system_exit(const Expr& v, Pos p);
  void print_to_stream(const Expr& e);
  Value* gpu_call(const Expr& e);
  /// The parameter types of function `name` of module `mod` (this one or an imported one).
  std::vector<Ty> kernel_params(const std::string& mod, const std::string& name);

  // --- print (lower_print.cc) ---
  /// `print(...)`: every argument evaluated before any is printed, as Python does.
  void print_call(const Expr& e);
  /// Whether `e` is a string literal or a conditional expression choosing
  /// between such (print() prints the chosen text without making a str).
  static bool literal_choice(const Expr& e);
  /// A conditional expression of string literals as the index of its text.
  Value* str_choice(const Expr& e, std::vector<std::string>& texts);
  void print_choice(Value* idx, const std::vector<std::string>& texts, Pos p);
  void print_value(Value* v, const Expr& a, Pos p);
  /// `[1, 2]` of a list[int] or list[float], an element at a time.
  void print_number_list(Value* v, Ty t, Pos p);
  /// Prints a tuple as Python does (`(1, 2.5)`, `(1,)`) and an optional as its
  /// value or `None`.
  void print_compound(Value* v, Ty t, Pos p, bool repr = false);
  /// `repr`: inside a tuple, where Python prints a str as its repr (`('a', 1)`).
  void print_typed(Value* v, Ty t, Pos p, bool repr = false);
  void print_text(const std::string& text, Pos p);

  // --- strs (lower_str.cc, docs/runtime.md, "Strings") ---
  Value* str_binary(const Expr& e, Value* a, Value* b);
  Value* str_subscript(const Expr& e);
  /// `x[a:b:c]` of a str or a list `s`: the runtime's slice (docs/runtime.md).
  Value* slice_of(const Expr& e, Value* s, const char* callee, Type result);
  Value* str_method(const Expr& e);
  /// An f-string: its parts made into strings and concatenated in order.
  Value* fstring(const Expr& e);
  /// An f-string field's format spec: its literal, or the str its nested fields make (`{x:{w}}`).
  Value* field_spec(const Expr& field, Pos p);
  /// An f-string field's value with its `!r` applied; `t` becomes its type (Ty::Str once `!r` made a repr).
  Value* fstring_field_value(const Expr& field, Ty& t, Pos p);
  /// speedsort: an f-string of two parts or more built in one str (lower_text_build.cc).
  Value* fstring_built(const Expr& e);
  // --- formatting (lower_format.cc) ---
  /// `template.format(...)`: its arguments in order, then its pieces.
  Value* str_format(const Expr& e);
  /// `template % rhs`, `rhs` the right operand's value (a tuple's elements or one value), `tmpl` the template's.
  Value* str_percent(const Expr& e, Value* tmpl, Value* rhs);
  /// Hands `v` (of type `t`) to a run-time template's builder `b` (ppy_vformat.h) as the keyword
  /// `name` ("" for a positional argument): the builder. With a `path` (a `str.format`
  /// argument's index or keyword), what a field may reach through it follows (issue 33):
  /// an object's fields and a tuple's elements, as the keywords `\x1f<path>.<field>` and
  /// `\x1f<path>[<i>]`, `depth` levels of objects down, for `{0.name}`, `{p.pos[1]}`.
  Value* run_time_format_arg(Value* b, const std::string& name, Value* v, Ty t, Pos p, const std::string& path = "",
                             int depth = 0);
  /// `format(x[, spec])`.
  Value* format_call(const Expr& e);
  /// `int(s, base)`, `hex`, `oct`, `bin`, `round`, `divmod`, `pow` (lower_number.cc).
  Value* number_builtin(const Expr& e);
  /// `math.NAME(...)` of a function builtins.def lists for "math" (lower_math.cc).
  Value* math_table_call(const Expr& e);
  /// `s.startswith(t)` / `s.endswith(t)` of a tuple `t` of strs: any of them (`args`: s, t, the rest).
  Value* affix_any(const Expr& e, const std::vector<Value*>& args);
  /// A str method whose result is a tuple (partition): the runtime's list made a tuple.
  Value* str_tuple_result(const Expr& e, const std::vector<Value*>& args);
  /// One field: `v` (of type `t`) converted as the field says, then formatted by its spec.
  Value* format_piece(Value* v, Ty t, const FormatPiece& f, Pos p);
  /// The pieces of a template concatenated, each field taking its argument.
  Value* format_pieces(const std::vector<FormatPiece>& pieces, const std::vector<Value*>& args,
                       const std::vector<Ty>& types, Pos p);
  /// `str(v)` of a value of source type `t`.
  Value* str_of(Value* v, Ty t, Pos p);
  /// `repr(x)`: a str's repr, an optional's value's repr or None; else as str(x).
  Value* repr_of(Value* v, Ty t, Pos p);
  /// Python's repr of a tuple: the runtime's repr of a list holding it, `[` and `]` cut.
  Value* tuple_repr(Value* v, Ty t, Pos p);
  /// The runtime's repr of a list `v` of type `t`.
  Value* list_repr(Value* v, Ty t, Pos p);

  // --- lists (lower_list.cc, docs/runtime.md, "Lists") ---
  Value* list_display(const Expr& e);
  Value* new_list(Ty t, Value* n, Pos p);
  /// How the runtime moves an element of type `t`: i64 (an int, or a bool as 0
  /// or 1), f64, or ptr (a str or a list handle).
  static const char* list_suffix(Ty t);
  /// A list's element type as the runtime's repr and == read it: `i`, `f`,
  /// `b`, `s`, `[` and the elements' descriptor.
  static std::string list_desc(Ty t) { return value_desc(list_elem(t)); }
  /// `(` and the elements' descriptors and `)` for a tuple, `?` and the value's for an optional.
  static std::string value_desc(Ty e);
  /// A tuple or an optional travels to the runtime's list functions as its box
  /// (docs/runtime.md, "Lists"): stored into a list of one element, taken out.
  static bool boxed(Ty t) { return is_tuple(t) || is_optional(t) || is_union(t) || t == Ty::Exc; }
  Value* box(Value* v, Ty elem, Pos p);
  Value* unbox(Value* handle, Ty elem, Pos p);
  /// An element `v` of type `t` as the runtime's list functions take it: a
  /// bool as an i64, a tuple or an optional as its box.
  Value* element_arg(Value* v, Ty t, Ty elem, Pos p);
  /// `xs[:]` as the runtime copies a list.
  Value* list_copy(Value* l, Ty t, Pos p);
  /// `del xs[i]` / `del xs[a:b]` of a list (lower_del.cc, issue 32).
  Value* list_del(const Expr& e);
  /// `list(x)`: a copy of a list; the characters of a str, the ints of a range,
  /// the pairs of zip or enumerate appended to a new list.
  Value* list_call(const Expr& e);
  /// `sum(xs)`, `sorted(xs)`, `min(xs)`, `max(xs)` of a list.
  Value* list_builtin(const Expr& e);
  /// `xs.append(v)`, `xs.pop()` and the other methods of lists.
  Value* list_method(const Expr& e);
  /// `[x] * n` and `n * [x]`.
  Value* repeat(const Expr& e);

  // --- dicts and sets (lower_dict.cc, docs/runtime.md, "Dicts and sets") ---
  static bool is_table(Ty t) { return is_dict(t) || is_set(t); }
  /// A key's or value's descriptor: `i`, `f`, `b`, `s`, or `[` and a list's element descriptor.
  static std::string item_desc(Ty t) { return list_desc(list_of(t)); }
  /// The runtime's descriptor of a table: `K:V` for a dict, `K` for a set.
  static std::string table_desc(Ty t);
  /// How the runtime takes a key: an int as i64, a str as its handle.
  static const char* key_sfx(Ty t) { return t == Ty::Int ? "i64" : "ptr"; }
  /// A key as the runtime takes it: a tuple in its box (as a list holds it), else itself; an
  /// object of a class whose `==` is its own through its key helper first (hash_key_helpers.h).
  Value* key(Value* k, Ty table, Pos p);
  /// `k` of type `t`, each object in it whose class has a key helper replaced by what the helper gives.
  Value* object_key(Value* k, Ty t, Pos p);
  /// `hash(v)` of an int, bool, str or tuple of those: Python's value but for a str's.
  Value* hash_of(Value* v, Ty t, Pos p);
  /// A value as the runtime's word (a bool as 0 or 1, a tuple as its box), and back.
  Value* to_word(Value* v, Ty t, Pos p);
  Value* from_word(Value* v, Ty t, Pos p);
  static Type word_type(Ty t) { return t == Ty::Bool ? Type::i64() : is_tuple(t) ? str_type() : ir_type(t); }
  Value* new_table(Ty t, Pos p);
  Value* table_len(Value* d, Pos p);
  std::string table_fn(const char* what, Ty t);
  void table_set(Value* d, Ty t, Value* k, Value* v, Pos p);
  Value* table_get(Value* d, Ty t, Value* k, Pos p);
  Value* table_contains(Value* d, Ty t, Value* k, Pos p);
  void set_add(Value* s, Ty t, Value* k, Pos p);
  /// `{k: v, ...}` and `{a, b}`: a new table filled in the display's order.
  Value* table_display(const Expr& e);
  /// `{k: v for x in it if cond}` and `{x for x in it if cond}`: comp_into's loop, each key (and value) put in.
  Value* table_comp(const Expr& e);
  /// The methods of dicts and sets.
  Value* table_method(const Expr& e);

  // --- tuples and optional values (lower_tuple.cc, docs/runtime.md, "Tuples and optional values") ---
  Value* extract(Value* t, size_t i, Pos p);
  Value* make_tuple(std::vector<Value*> vals, Ty t, Pos p);
  /// The zero value of a type: what a None optional holds.
  Value* zero_of(Ty t, Pos p);
  Value* none_of(Ty opt, Pos p);
  /// A value of type `from` as type `to` (the checker proved `assignable`):
  /// a value or None into an optional, tuples element by element.
  Value* coerce(Value* v, Ty from, Ty to, Pos p);
  Value* tuple_display(const Expr& e);
  /// A tuple is true (it is never empty); an optional when it holds a true
  /// value.
  Value* compound_truth(Value* v, Ty t, Pos p);
  /// Whether `a == b`, as Python compares tuples (element by element) and
  /// optionals (None equals only None).
  Value* equal(Value* a, Ty at, Value* b, Ty bt, Pos p);
  /// `a op b` of two lists of type `t`: `==` / `!=` element by element, and
  /// `<` ... `>=` as Python orders sequences (the runtime's ppy_list_lt ...).
  Value* list_compare(Value* a, Value* b, Ty t, const std::string& op, Pos p);
  /// Numbers compared by `pred` (eq, lt, ...), an int and a float as floats.
  Value* ordered(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p);
  /// `a < b` (and <=, >, >=) of tuples: the first elements that differ decide,
  /// else the lengths do, as Python compares sequences.
  Value* lexicographic(Value* a, Ty at, Value* b, Ty bt, const char* pred, Pos p);
  Value* compare_compound(Value* a, Ty at, Value* b, Ty bt, const std::string& op, Pos p);

  // --- classes (lower_class.cc, docs/runtime.md, "Objects") ---
  /// The struct an object of class `cls` points to, loaded.
  Value* object_struct(Value* obj, Ty cls, Pos p);
  /// Raises AttributeError unless the field `name` of the loaded struct `s` was
  /// assigned (its set flag, field_init.h).
  void check_field_set(Value* s, Ty cls, const std::string& name, Pos p);
  Value* field_get(Value* obj, Ty cls, const std::string& name, Pos p);
  /// The object `obj` evaluates to, about to have its attribute `attr` read,
  /// assigned or called. An optional field the checker narrowed (`self.head`
  /// after `if self.head is not None:`) may be None again where a call between
  /// the test and here set it back (narrowing is mypy's, unsound across calls):
  /// python3's `AttributeError: 'NoneType' object has no attribute 'attr'`
  /// then, where the value alone would be a null object (lower_field_init.cc).
  /// The test folds away where nothing between could have written the field.
  Value* attribute_owner(const Expr& obj, const std::string& attr);
  /// Python's repr of a value as a str: a dataclass's `Point(x=1, s='a')`, its
  /// fields' reprs.
  Value* repr_str(Value* v, Ty t, Pos p);
  /// `obj.name = v`: the struct stored again with the field replaced.
  void field_set(Value* obj, Ty cls, const std::string& name, Value* v, Pos p);
  /// `x.name = v` as a statement writes it: field_set, or FrozenInstanceError
  /// when the class is a frozen dataclass (lower_frozen.cc).
  void assign_field(Value* obj, Ty cls, const std::string& name, Value* v, Pos p);
  Value* type_id(Value* obj, Ty cls, Pos p);
  /// A call's arguments in parameter order (keywords and defaults placed), each
  /// as its parameter's type.
  std::vector<Value*> placed_args(const Expr& e, const std::vector<Ty>& params);
  const FuncInfo& method(Ty impl, const std::string& name) const;
  /// Records what the module's code takes of class `cls` of another module
  /// (imported_classes.h) in the module's `ppy.imported_classes` attribute.
  void note_layout(Ty cls);
  /// Whether type id `tid` is of class `k` or a subclass (imported_classes.h's tid_ranges).
  Value* tid_in(Value* tid, Ty k, Pos p);
  Value* call_method(const FuncInfo& f, Value* self, std::vector<Value*> args, Pos p);
  /// `C(args)`: a new object of C's size and type id, then its __init__ (a
  /// dataclass's fields stored at once).
  Value* construct(const Expr& e);
  /// `x.m(args)`: the method of x's class, chosen by its type id when a
  /// subclass of x's static class overrides it (docs/runtime.md, "Objects").
  Value* method_call(const Expr& e);
  /// `super().m(args)`: the base's method, called on this method's self.
  Value* super_call(const Expr& e);
  // --- exception classes and special methods (lower_exception_class.cc, lower_dunder.cc) ---
  /// An exception class's hidden fields from a constructor's positional arguments (`args`, of `types`).
  void set_exception_args(Value* obj, Ty cls, const std::vector<Value*>& args, const std::vector<Ty>& types, Pos p);
  /// After `ppy_obj_new` of an exception class: its classes and its arguments (BaseException.__new__).
  void init_exception(Value* obj, Ty cls, const Expr& ctor, const std::vector<Value*>& args, Pos p);
  /// `super().__init__(args)` of an exception class whose base is builtin.
  void base_exception_init(const Expr& e);
  /// An exception class's instance as the value a parameter or element typed
  /// `Exception` holds: the tuple an `except ... as e` of a builtin gives (issue 32).
  Value* exception_value(Value* obj, Ty cls, Pos p);
  /// `isinstance(e, K)` of an exception value: its classes matched as an `except K` clause matches them.
  Value* exception_isinstance(const Expr& e);
  /// `raise obj` of an exception class's instance.
  void raise_object(Value* obj, Ty cls, Pos p);
  /// What the classes of `cls`'s subtree each give, by type id: `key` groups
  /// the classes whose value `make` writes alike (a single group needs no test).
  Value* by_class(Value* obj, Ty cls, Type result, const std::function<std::string(Ty)>& key,
                  const std::function<Value*(Ty)>& make, Pos p);
  /// `str(obj)` / `repr(obj)` of an instance: its `__str__` / `__repr__`, an
  /// exception's message / `Name(args)`, a dataclass's fields, else Python's
  /// `<module.Name object at 0x...>`.
  Value* object_str(Value* obj, Ty cls, Pos p);
  Value* object_repr(Value* obj, Ty cls, Pos p);
  /// Whether `cls` or a subclass defines `__str__` or `__repr__` (or is not a dataclass).
  bool custom_text(Ty cls) const;
  /// `isinstance(x, K)`: K's type ids are one range (they are numbered in
  /// preorder).
  Value* isinstance(const Expr& e);
  // --- unions (issue 32, lower_union.cc, unions.h) ---
  /// A zero value of an alternative (a null handle for a dict or set).
  Value* union_zero(Ty t, Pos p);
  /// The union `u` holding `v` as its alternative number `tag`.
  Value* union_make(Value* v, Ty u, int tag, Pos p);
  /// A value of union `from` as one of union `to` (wider, or narrower where a test proved it).
  Value* union_convert(Value* v, Ty from, Ty to, Pos p);
  /// coerce() where `from` or `to` is a union.
  Value* union_coerce(Value* v, Ty from, Ty to, Pos p);
  /// A local declared `declared` read where the checker narrowed it to `ty`.
  Value* narrow_value(Value* v, Ty declared, Ty ty, Pos p);
  /// `fn(value, alternative)` of the alternative union `u` holds, its result of type `result`.
  Value* on_tag(Value* u, Ty ut, Type result, const std::function<Value*(Value*, Ty)>& fn, Pos p);
  /// str() (or repr()) of a union: its value's.
  Value* union_text(Value* v, Ty t, bool repr, Pos p);
  Value* union_truth(Value* v, Ty t, Pos p);
  /// `a == b` where either is a union: false unless the values held compare equal.
  Value* union_equal(Value* a, Ty at, Value* b, Ty bt, Pos p);
  /// Whether `v` (of static type `t`) is an instance of the builtin type or class `k`.
  Value* instance_test(Value* v, Ty t, Ty k, Pos p);
  /// `isinstance(x, K)` (check_union.cc).
  Value* isinstance_any(const Expr& e);
  /// `a == b` of objects: identity, or a dataclass's fields (the checker allows
  /// that only of one dataclass without subclasses whose fields hold no
  /// object).
  Value* object_equal(Value* a, Ty at, Value* b, Ty bt, Pos p);

  // --- functions as values (lower_closure.cc, callable.h) ---
 public:
  /// Calls the function value `fn` (a closure handle) of Callable type `ct`
  /// with `args`, each already of its parameter's IR type: the result, or
  /// null when the function returns None. What any construct that calls a
  /// function value (a sort key, map's function) lowers to.
  Value* call_value(Value* fn, Ty ct, std::vector<Value*> args, Pos p);

 private:
  bool is_cell(const std::string& name) const { return cells_.count(name) != 0; }
  /// The cell of local `name`, as a pointer to its struct.
  Value* cell_of(const std::string& name, Pos p);
  Value* load_cell(const std::string& name, Pos p);
  void store_cell(const std::string& name, Value* v, Pos p);
  /// At entry: a new cell for each own variable a nested function shares, and
  /// a closure's captured cells into slots of their own.
  void closure_entry(Pos p);
  /// A closure running `symbol` that shares the cells of locals `shared`.
  Value* make_closure(const std::string& symbol, const std::vector<std::string>& shared, Pos p);
  /// A closure of the function value `fn` holding `cells` (handles).
  Value* closure_of(Value* fn, const std::vector<Value*>& cells, Pos p);
  /// The value of a nested def or lambda (its index in ModuleInfo::closures).
  Value* closure_value(size_t index, Pos p);
  /// The value of a module function `fname`: a closure of its value entry.
  Value* function_value(const std::string& fname, Pos p);
  /// `f(args)` of a function value (Ref::Value).
  Value* value_call(const Expr& e);
  /// `obj.m` as a value: a closure holding the object, running the bound entry
  /// of the method of the object's class (chosen by its type id).
  Value* bound_method(const Expr& e);
  /// `sorted`, `list.sort`, `min`, `max` with key= / reverse= (lower_keyed.cc).
  Value* keyed_builtin(const Expr& e);
  /// The list a keyed call walks: a list, a table's keys, or `d.items()`'s pairs; `elem` its element type.
  Value* keyed_source(const Expr& a, Ty& elem, Pos p);
  std::set<std::string> cells_;  ///< locals whose slot holds a cell's handle
  /// Methods of imported classes that `method` found, by their module (imported_classes.h).
  mutable std::map<const FuncInfo*, std::string> foreign_;

  const ModuleInterfaces& all_;
  const ModuleInfo& m_;
  const FuncInfo& f_;
  ir::Function* fn_;
  ir::Module& mod_;
  bool gpu_;
  Block* cur_ = nullptr;
  std::map<std::string, Value*> slots_;
  std::map<std::string, Ty> slot_ty_;
  std::vector<Loop> loops_;
  int labels_ = 0;
  std::vector<std::string> stack_slots_;  ///< the locals with a core.alloca, in order
  std::vector<Outlined> outlined_;        ///< regions being lowered as functions of their own
  std::vector<std::string> handlers_;     ///< the except clauses' locals around the code, innermost last
  int64_t comp_ = 0;                      ///< the comprehension the ops emitted are in (`ppy.comp`; 0: none)
  std::vector<ir::TraceComprehension> comps_;  ///< this function's comprehension frames, numbered from 1
  std::map<const Expr*, int64_t> iterable_frames_;  ///< comprehensions' first iterables: the frame around each
};

}  // namespace ppy::frontend::lowering
