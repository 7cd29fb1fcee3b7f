#include "module_vars.h"

#include "types.h"

namespace ppy::frontend {
namespace {

bool handle(Ty t) { return t == Ty::Str || is_list(t) || is_dict(t) || is_set(t); }

/// Counts a tuple's flattened elements into `words`, its handles and bools;
/// false for an element no module variable may hold.
bool tuple_words(Ty t, int& words, bool& handles, bool& bools) {
  for (Ty e : tuple_elems(t)) {
    if (is_tuple(e)) {
      if (!tuple_words(e, words, handles, bools)) return false;
      continue;
    }
    if (e == Ty::Bool)
      bools = true;
    else if (handle(e))
      handles = true;
    else if (e != Ty::Int && e != Ty::Float)
      return false;
    ++words;
  }
  return true;
}

}  // namespace

bool module_var_type(Ty t) {
  if (t == Ty::Int || t == Ty::Float || t == Ty::Bool || handle(t)) return true;
  int words = 0;
  bool handles = false, bools = false;
  // A bool beside a handle would pad the tuple unlike its word count (rooted_words).
  return is_tuple(t) && tuple_words(t, words, handles, bools) && !(handles && bools);
}

int rooted_words(Ty t) {
  if (handle(t)) return 1;
  int words = 0;
  bool handles = false, bools = false;
  if (!is_tuple(t) || !tuple_words(t, words, handles, bools) || !handles || bools) return 0;
  return words;
}

}  // namespace ppy::frontend
