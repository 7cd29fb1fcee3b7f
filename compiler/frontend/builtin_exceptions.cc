#include "builtin_exceptions.h"

#include <iterator>

namespace ppy::frontend {
namespace {

struct BuiltinException {
  std::string_view name, base;
};

/// Python's own hierarchy, as far as the subset raises it.
constexpr BuiltinException kExceptions[] = {
    {"BaseException", ""},
    {"Exception", "BaseException"},
    {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"FloatingPointError", "ArithmeticError"},
    {"LookupError", "Exception"},
    {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},
    {"ValueError", "Exception"},
    {"UnicodeError", "ValueError"},
    {"TypeError", "Exception"},
    {"AssertionError", "Exception"},
    {"RuntimeError", "Exception"},
    {"NotImplementedError", "RuntimeError"},
    {"RecursionError", "RuntimeError"},
    {"MemoryError", "Exception"},
    // exception classes: what programs commonly raise themselves
    {"StopIteration", "Exception"},
    {"AttributeError", "Exception"},
    {"NameError", "Exception"},
    {"SyntaxError", "Exception"},  // a program's own parser raises it (tests/programs/typical_tokenizer.ppy)
    {"UnboundLocalError", "NameError"},
    {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"},
    {"FileExistsError", "OSError"},
    {"PermissionError", "OSError"},
    {"IsADirectoryError", "OSError"},
    {"NotADirectoryError", "OSError"},
    {"TimeoutError", "OSError"},
    {"ConnectionError", "OSError"},
    {"EOFError", "Exception"},
    {"SystemExit", "BaseException"},  // io (issue 33): sys.exit
    {"GeneratorExit", "BaseException"},  // a generator's close() (generator_close.h)
    {"UnicodeError", "ValueError"},   // io: a text file that is not UTF-8
    {"UnicodeDecodeError", "UnicodeError"},
    {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"},
    // dataclass options (dataclass_options.h): raised under its module's name, as Python shows it
    {"dataclasses.FrozenInstanceError", "AttributeError"},
};

/// What a program names the exceptions of modules by (`from dataclasses import FrozenInstanceError`).
std::string_view qualified(std::string_view name) {
  return name == "FrozenInstanceError" ? "dataclasses.FrozenInstanceError" : name;
}

bool derives(std::string_view name, std::string_view ancestor) {
  while (!name.empty()) {
    if (name == ancestor) return true;
    std::string_view base;
    for (const BuiltinException& e : kExceptions)
      if (e.name == name) base = e.base;
    name = base;
  }
  return false;
}

}  // namespace

bool is_builtin_exception(std::string_view name) {
  name = qualified(name);
  for (const BuiltinException& e : kExceptions)
    if (e.name == name) return true;
  return false;
}

std::string runtime_exception_name(std::string_view name) { return std::string(qualified(name)); }

bool builtin_exception_derives(std::string_view name, std::string_view ancestor) {
  return derives(qualified(name), qualified(ancestor));
}

std::string caught_by(std::string_view name) {
  name = qualified(name);
  std::string out(name);
  // Every exception the subset raises is an Exception: those two catch all.
  if (name == "BaseException" || name == "Exception") return out;
  for (const BuiltinException& e : kExceptions)
    if (e.name != name && derives(e.name, name)) out.append(" ").append(e.name);
  return out;
}

}  // namespace ppy::frontend
