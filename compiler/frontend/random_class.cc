// random.Random written in ppy, and its references rewritten (random_class.h).
#include "random_class.h"

#include <set>

#include "checker_internal.h"
#include "parser.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

/// CPython's random.Random over MT19937 (Modules/_randommodule.c, Lib/random.py of 3.11):
/// the same seeding, the same 32-bit words and the same use of them, so the same numbers.
/// Python's ints are 64-bit here: every product is below 2**63 before its mask.
constexpr const char* kImports = R"ppy(
import math as _ppy_math
import random as _ppy_random
import typing
)ppy";

constexpr const char* kRandomClassSource = R"ppy(

class __ppy_Random:
    def __init__(self, x: int | None = None) -> None:
        self.mt: list[int] = [0] * 624
        self.mti: int = 625
        self.gauss_next: float = 0.0
        self.has_gauss: bool = False
        if x is None:
            self.seed(_ppy_random.getrandbits(32))
        else:
            self.seed(x)

    def seed(self, a: int) -> None:
        n = a if a >= 0 else -a
        key: list[int] = []
        while n > 0:
            key.append(n & 0xFFFFFFFF)
            n = n >> 32
        if len(key) == 0:
            key.append(0)
        mt = self.mt
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i = 1
        j = 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & 0xFFFFFFFF)) + key[j] + j) & 0xFFFFFFFF
            i += 1
            j += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & 0xFFFFFFFF)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
        mt[0] = 0x80000000
        self.mti = 624
        self.has_gauss = False

    def _next32(self) -> int:
        mt = self.mt
        if self.mti >= 624:
            for kk in range(624):
                y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
                v = mt[(kk + 397) % 624] ^ (y >> 1)
                if y & 1:
                    v = v ^ 0x9908B0DF
                mt[kk] = v
            self.mti = 0
        y = mt[self.mti]
        self.mti += 1
        y = y ^ (y >> 11)
        y = y ^ ((y << 7) & 0x9D2C5680)
        y = y ^ ((y << 15) & 0xEFC60000)
        return y ^ (y >> 18)

    def random(self) -> float:
        a = self._next32() >> 5
        b = self._next32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._next32() >> (32 - k) if k > 0 else 0
        result = 0
        shift = 0
        while k > 0:
            r = self._next32()
            if k < 32:
                r = r >> (32 - k)
            result = result | (r << shift)
            shift += 32
            k -= 32
        return result

    def _randbelow(self, n: int) -> int:
        k = 0
        m = n
        while m > 0:
            k += 1
            m = m >> 1
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError(f"empty range for randrange() ({start}, {stop}, {width})")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._randbelow(n)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        if self.has_gauss:
            self.has_gauss = False
            return mu + self.gauss_next * sigma
        x2pi = self.random() * (2.0 * _ppy_math.pi)
        g2rad = _ppy_math.sqrt(-2.0 * _ppy_math.log(1.0 - self.random()))
        self.gauss_next = _ppy_math.sin(x2pi) * g2rad
        self.has_gauss = True
        return mu + _ppy_math.cos(x2pi) * g2rad * sigma

    def normalvariate(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return __ppy_random_normal(self.random, mu, sigma)

    def lognormvariate(self, mu: float, sigma: float) -> float:
        return _ppy_math.exp(self.normalvariate(mu, sigma))

    def expovariate(self, lambd: float = 1.0) -> float:
        return -_ppy_math.log(1.0 - self.random()) / lambd


def __ppy_random_choice[T](rng: __ppy_Random, seq: list[T]) -> T:
    if len(seq) == 0:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[rng._randbelow(len(seq))]


def __ppy_random_shuffle[T](rng: __ppy_Random, x: list[T]) -> None:
    for i in range(len(x) - 1, 0, -1):
        j = rng._randbelow(i + 1)
        x[i], x[j] = x[j], x[i]


def __ppy_random_sample[T](rng: __ppy_Random, population: list[T], k: int) -> list[T]:
    n = len(population)
    if k < 0 or k > n:
        raise ValueError("Sample larger than population or is negative")
    result: list[T] = []
    setsize = 21
    if k > 5:
        setsize += 4 ** _ppy_math.ceil(_ppy_math.log(k * 3) / _ppy_math.log(4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = rng._randbelow(n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = rng._randbelow(n)
            while j in selected:
                j = rng._randbelow(n)
            selected.add(j)
            result.append(population[j])
    return result


def __ppy_random_choices[T](rng: __ppy_Random, population: list[T], weights: list[float] | None = None, k: int = 1) -> list[T]:
    n = len(population)
    out: list[T] = []
    if weights is None:
        nf = n + 0.0
        for _ in range(k):
            out.append(population[_ppy_math.floor(rng.random() * nf)])
        return out
    cum: list[float] = []
    running = 0.0
    for w in weights:
        running += w
        cum.append(running)
    if len(cum) != n:
        raise ValueError("The number of weights does not match the population")
    total = cum[-1] + 0.0
    if total <= 0.0:
        raise ValueError("Total of weights must be greater than zero")
    for _ in range(k):
        x = rng.random() * total
        lo = 0
        hi = n - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if x < cum[mid]:
                hi = mid
            else:
                lo = mid + 1
        out.append(population[lo])
    return out
)ppy";

/// Kinderman and Monahan's method, as random.py's normalvariate, over `draw` (the module's
/// generator or a Random instance's), so both give python3's numbers from one source.
constexpr const char* kNormal = R"ppy(
def __ppy_random_normal(draw: typing.Callable[[], float], mu: float, sigma: float) -> float:
    magic = 4 * _ppy_math.exp(-0.5) / _ppy_math.sqrt(2.0)
    while True:
        u1 = draw()
        u2 = 1.0 - draw()
        z = magic * (u1 - 0.5) / u2
        zz = z * z / 4.0
        if zz <= -_ppy_math.log(u2):
            return mu + z * sigma
)ppy";

/// The module's own `random.normalvariate` and `random.lognormvariate`, over its generator.
constexpr const char* kModuleFunctions = R"ppy(
def __ppy_random_module_normalvariate(mu: float = 0.0, sigma: float = 1.0) -> float:
    return __ppy_random_normal(lambda: _ppy_random.random(), mu, sigma)


def __ppy_random_module_lognormvariate(mu: float, sigma: float) -> float:
    return _ppy_math.exp(__ppy_random_module_normalvariate(mu, sigma))
)ppy";

/// Whether `e` spells random.normalvariate or random.lognormvariate: the function's name, or "".
std::string module_function(const Expr& e, const std::set<std::string>& mod, const std::set<std::string>& fns) {
  if (e.kind == ExprKind::Name && fns.count(e.str)) return e.str;
  if (e.kind == ExprKind::Attribute && (e.str == "normalvariate" || e.str == "lognormvariate") &&
      e.kids[0]->kind == ExprKind::Name && mod.count(e.kids[0]->str))
    return e.str;
  return "";
}

/// Whether `e` spells random.Random: `random.Random` (`mod` the names random is imported as)
/// or a name imported from random (`names`).
bool is_random_class(const Expr& e, const std::set<std::string>& mod, const std::set<std::string>& names) {
  if (e.kind == ExprKind::Name) return names.count(e.str) != 0;
  return e.kind == ExprKind::Attribute && e.str == "Random" && e.kids[0]->kind == ExprKind::Name &&
         mod.count(e.kids[0]->str) != 0;
}

struct Rewriter {
  std::set<std::string> mod, names, fns;
  bool found = false, found_fns = false;

  void expr(ExprPtr& e) {
    if (!e) return;
    if (std::string f = module_function(*e, mod, fns); !f.empty()) {
      e->kind = ExprKind::Name;
      e->str = str_cat("__ppy_random_module_", f);
      e->kids.clear();
      found_fns = true;
      return;
    }
    if (is_random_class(*e, mod, names)) {
      e->kind = ExprKind::Name;
      e->str = kRandomClass;
      e->kids.clear();
      found = true;
      return;
    }
    for (auto& k : e->kids) expr(k);
    for (auto& k : e->keywords) expr(k.value);
  }
  void def(FuncDef& d) {
    for (auto& p : d.params) {
      expr(p.annotation);
      expr(p.default_value);
    }
    expr(d.returns);
    for (auto& x : d.decorators) expr(x);
    body(d.body);
  }
  void body(std::vector<StmtPtr>& b) {
    for (auto& s : b) {
      for (auto& t : s->targets) expr(t);
      expr(s->value);
      expr(s->annotation);
      if (s->def) def(*s->def);
      body(s->body);
      body(s->orelse);
      for (auto& h : s->handlers) body(h.body);
      body(s->finalbody);
    }
  }
};

}  // namespace

void add_random_class(ModuleAst& ast, const std::string& file) {
  Rewriter r;
  for (auto& s : ast.body) {
    if (s->kind == StmtKind::Import)
      for (auto& n : s->names)
        if (n.name == "random") r.mod.insert(n.asname.empty() ? n.name : n.asname);
    if (s->kind == StmtKind::ImportFrom && s->module == "random") {
      std::vector<ImportName> kept;
      for (auto& n : s->names)
        if (n.name == "Random")
          r.names.insert(n.asname.empty() ? n.name : n.asname);
        else if (n.name == "normalvariate" || n.name == "lognormvariate")
          r.fns.insert(n.asname.empty() ? n.name : n.asname);
        else
          kept.push_back(n);
      if (kept.size() != s->names.size() && kept.empty()) s->kind = StmtKind::Pass;  // only Random: nothing left
      s->names = std::move(kept);
    }
  }
  if (r.mod.empty() && r.names.empty() && r.fns.empty()) return;
  r.body(ast.body);
  if (!r.found && !r.found_fns) return;
  std::string source = str_cat(kImports, kNormal);
  if (r.found) source += kRandomClassSource;
  if (r.found_fns) source += kModuleFunctions;
  DiagnosticEngine quiet;
  ModuleAst parsed = parse_module(source, file, quiet);
  if (!quiet.diagnostics().empty()) return;
  // The imports first (a module's imports come before its code), the rest last.
  std::vector<StmtPtr> body;
  for (auto& s : parsed.body)
    if (s->kind == StmtKind::Import || s->kind == StmtKind::ImportFrom) body.push_back(std::move(s));
  for (auto& s : ast.body) body.push_back(std::move(s));
  for (auto& s : parsed.body)
    if (s) body.push_back(std::move(s));
  ast.body = std::move(body);
}

}  // namespace ppy::frontend
