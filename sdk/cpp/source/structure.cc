// Structuring a CFG: dominators find the loops (a back edge goes to a block that
// dominates its source), post-dominators within the current loop find where the
// two arms of a branch rejoin, and the blocks are then written out nested.
#include "ppy/source/structure.h"

#include <algorithm>
#include <unordered_map>

#include "ppy/ir/core_ops.h"

namespace ppy::source {
namespace {

bool is_branch(const ir::Operation* op) {
  return op && (ir::core_op(*op) == ir::CoreOp::Br || ir::core_op(*op) == ir::CoreOp::CondBr);
}

/// A terminator that leaves the function: its block has no successors.
bool leaves(const ir::Operation& op) {
  return ir::core_op(op) == ir::CoreOp::Ret || ir::core_op(op) == ir::CoreOp::Unreachable;
}

class Structurer {
 public:
  explicit Structurer(const ir::Function& f) : f_(f) {}

  std::optional<Seq> run() {
    order_ = reachable_blocks(f_);
    n_ = order_.size();
    for (size_t i = 0; i < n_; ++i) index_[order_[i]] = i;
    succs_.resize(n_);
    for (size_t i = 0; i < n_; ++i) {
      const ir::Operation* t = order_[i]->terminator();
      if (!t) return std::nullopt;
      if (is_branch(t)) {
        for (auto& s : t->successors()) {
          auto it = index_.find(s.block);
          if (it == index_.end()) return std::nullopt;  // a block of another region
          succs_[i].push_back(it->second);
        }
      } else if (!leaves(*t)) {
        return std::nullopt;  // a block that does not end in a terminator we know
      }
    }
    dominators();
    if (!find_loops()) return std::nullopt;
    emitted_.assign(n_, false);
    Seq out;
    if (!seq(out, 0, kNone, nullptr)) return std::nullopt;
    return out;
  }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  struct Loop {
    size_t header;
    size_t exit = kNone;          ///< the one block the loop leaves to, if any
    std::vector<bool> body;       ///< membership, by index
  };

  /// Cooper, Harvey and Kennedy's iterative dominators over the RPO indices.
  void dominators() {
    std::vector<std::vector<size_t>> preds(n_);
    for (size_t i = 0; i < n_; ++i)
      for (size_t s : succs_[i]) preds[s].push_back(i);
    idom_.assign(n_, kNone);
    idom_[0] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 1; b < n_; ++b) {
        size_t d = kNone;
        for (size_t p : preds[b]) {
          if (idom_[p] == kNone) continue;
          d = d == kNone ? p : intersect(p, d);
        }
        if (d != idom_[b]) {
          idom_[b] = d;
          changed = true;
        }
      }
    }
    preds_ = std::move(preds);
  }

  size_t intersect(size_t a, size_t b) const {
    while (a != b) {
      while (a > b) a = idom_[a];
      while (b > a) b = idom_[b];
    }
    return a;
  }

  bool dominates(size_t a, size_t b) const {
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom_[b];
    }
  }

  /// Natural loops per header. An edge to an earlier block in RPO that does not
  /// dominate its source makes the CFG irreducible: false.
  bool find_loops() {
    loop_of_header_.assign(n_, kNone);
    for (size_t u = 0; u < n_; ++u)
      for (size_t h : succs_[u]) {
        if (h > u) continue;
        if (!dominates(h, u)) return false;
        size_t li = loop_of_header_[h];
        if (li == kNone) {
          li = loop_of_header_[h] = loops_.size();
          loops_.push_back({h, kNone, std::vector<bool>(n_, false)});
          loops_[li].body[h] = true;
        }
        std::vector<size_t> work{u};
        while (!work.empty()) {
          size_t x = work.back();
          work.pop_back();
          if (loops_[li].body[x]) continue;
          loops_[li].body[x] = true;
          for (size_t p : preds_[x]) work.push_back(p);
        }
      }
    for (Loop& l : loops_)
      for (size_t b = 0; b < n_; ++b) {
        if (!l.body[b]) continue;
        for (size_t s : succs_[b]) {
          if (l.body[s]) continue;
          if (l.exit != kNone && l.exit != s) return false;  // two exit targets
          l.exit = s;
        }
      }
    return true;
  }

  /// Where the arms of the branch ending `b` rejoin: its immediate
  /// post-dominator in the graph of what `b` reaches, where an edge to the
  /// current loop's header or exit, or to `follow`, and a return all lead to
  /// one sink. kNone when the arms only meet at that sink.
  size_t merge(size_t b, size_t follow, const Loop* loop) {
    auto is_sink = [&](size_t x) {
      return x == follow || (loop && (x == loop->header || x == loop->exit));
    };
    // The subgraph: nodes reachable from b's successors without passing a sink.
    std::vector<size_t> nodes;
    std::unordered_map<size_t, size_t> local;
    std::vector<size_t> work;
    for (size_t s : succs_[b]) work.push_back(s);
    while (!work.empty()) {
      size_t x = work.back();
      work.pop_back();
      if (is_sink(x) || local.count(x)) continue;
      local[x] = nodes.size();
      nodes.push_back(x);
      for (size_t s : succs_[x]) work.push_back(s);
    }
    size_t k = nodes.size();
    if (k == 0) return kNone;
    // Post-dominator sets over the k nodes plus the sink (bit k). A node that
    // cannot reach the sink (an endless loop) is given an edge to it.
    size_t words = (k + 1 + 63) / 64;
    std::vector<std::vector<uint64_t>> pdom(k, std::vector<uint64_t>(words, ~uint64_t{0}));
    std::vector<std::vector<size_t>> out(k);
    std::vector<bool> to_sink(k, false);
    for (size_t i = 0; i < k; ++i) {
      if (succs_[nodes[i]].empty()) to_sink[i] = true;
      for (size_t s : succs_[nodes[i]]) {
        if (is_sink(s)) to_sink[i] = true;
        else out[i].push_back(local.at(s));
      }
    }
    std::vector<bool> reaches(k, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < k; ++i) {
        if (reaches[i]) continue;
        bool r = to_sink[i];
        for (size_t s : out[i]) r = r || reaches[s];
        if (r) reaches[i] = changed = true;
      }
    }
    for (size_t i = 0; i < k; ++i)
      if (!reaches[i]) to_sink[i] = true;
    auto set_bit = [](std::vector<uint64_t>& v, size_t bit) { v[bit / 64] |= uint64_t{1} << (bit % 64); };
    auto has_bit = [](const std::vector<uint64_t>& v, size_t bit) { return (v[bit / 64] >> (bit % 64)) & 1; };
    std::vector<uint64_t> sink_set(words, 0);
    set_bit(sink_set, k);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t ii = k; ii-- > 0;) {
        std::vector<uint64_t> acc(words, ~uint64_t{0});
        if (to_sink[ii])
          for (size_t w = 0; w < words; ++w) acc[w] &= sink_set[w];
        for (size_t s : out[ii])
          for (size_t w = 0; w < words; ++w) acc[w] &= pdom[s][w];
        set_bit(acc, ii);
        if (acc != pdom[ii]) {
          pdom[ii] = std::move(acc);
          changed = true;
        }
      }
    }
    // b's post-dominators: those of every successor (a sink successor: none).
    std::vector<uint64_t> mine(words, ~uint64_t{0});
    for (size_t s : succs_[b]) {
      if (is_sink(s)) {
        for (size_t w = 0; w < words; ++w) mine[w] &= sink_set[w];
      } else {
        for (size_t w = 0; w < words; ++w) mine[w] &= pdom[local.at(s)][w];
      }
    }
    size_t best = kNone, best_size = 0;
    for (size_t i = 0; i < k; ++i) {
      if (!has_bit(mine, i)) continue;
      size_t size = 0;
      for (size_t w = 0; w < words; ++w) size += static_cast<size_t>(__builtin_popcountll(pdom[i][w]));
      if (best == kNone || size > best_size) {
        best = i;
        best_size = size;
      }
    }
    return best == kNone ? kNone : nodes[best];
  }

  /// Writes the statements from block `b` on until `follow` (reached by falling
  /// off the end), a return, or a jump the loop turns into break / continue.
  bool seq(Seq& out, size_t b, size_t follow, const Loop* loop) {
    while (b != kNone) {
      if (b == follow) return true;
      if (loop && b == loop->header) {
        out.push_back({Node::Kind::Continue});
        return true;
      }
      if (loop && b == loop->exit) {
        out.push_back({Node::Kind::Break});
        return true;
      }
      if (size_t li = loop_of_header_[b]; li != kNone && (!loop || loop->header != b)) {
        const Loop& inner = loops_[li];
        Node node{Node::Kind::Loop};
        node.block = order_[b];
        size_t next;
        if (!block(node.body, b, b, &inner, next)) return false;
        if (!seq(node.body, next, b, &inner)) return false;
        out.push_back(std::move(node));
        b = inner.exit;
        continue;
      }
      size_t next;
      if (!block(out, b, follow, loop, next)) return false;
      b = next;
    }
    return true;
  }

  /// Writes block `b` and its terminator; `next` is where the sequence goes on.
  bool block(Seq& out, size_t b, size_t follow, const Loop* loop, size_t& next) {
    if (emitted_[b]) return false;  // would be written twice
    emitted_[b] = true;
    const ir::Block* blk = order_[b];
    Node body{Node::Kind::Block};
    body.block = blk;
    out.push_back(body);
    const ir::Operation* t = blk->terminator();
    next = kNone;
    if (leaves(*t)) {
      Node r{Node::Kind::Return};
      r.op = t;
      out.push_back(r);
      return true;
    }
    if (ir::core_op(*t) == ir::CoreOp::Br) {
      edge(out, t->successors()[0]);
      next = succs_[b][0];
      return true;
    }
    // cond_br
    size_t m = merge(b, follow, loop);
    size_t arm_follow = m == kNone ? follow : m;
    Node node{Node::Kind::If};
    node.op = t;
    edge(node.then_seq, t->successors()[0]);
    if (!seq(node.then_seq, succs_[b][0], arm_follow, loop)) return false;
    edge(node.else_seq, t->successors()[1]);
    if (!seq(node.else_seq, succs_[b][1], arm_follow, loop)) return false;
    out.push_back(std::move(node));
    next = m;
    return true;
  }

  static void edge(Seq& out, const ir::Successor& s) {
    if (s.args.empty()) return;
    Node e{Node::Kind::Edge};
    e.edge = &s;
    out.push_back(e);
  }

  const ir::Function& f_;
  std::vector<const ir::Block*> order_;
  std::unordered_map<const ir::Block*, size_t> index_;
  size_t n_ = 0;
  std::vector<std::vector<size_t>> succs_, preds_;
  std::vector<size_t> idom_;
  std::vector<Loop> loops_;
  std::vector<size_t> loop_of_header_;
  std::vector<bool> emitted_;
};

}  // namespace

std::vector<const ir::Block*> reachable_blocks(const ir::Function& f) {
  std::vector<const ir::Block*> post;
  if (f.is_declaration()) return post;
  std::unordered_map<const ir::Block*, bool> seen;
  // Iterative DFS: (block, next successor to visit).
  std::vector<std::pair<const ir::Block*, size_t>> stack{{f.body().entry(), 0}};
  seen[f.body().entry()] = true;
  while (!stack.empty()) {
    auto& [b, i] = stack.back();
    const ir::Operation* t = b->terminator();
    if (is_branch(t) && i < t->successors().size()) {
      const ir::Block* s = t->successors()[i++].block;
      if (s && !seen[s]) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::optional<Seq> structure(const ir::Function& f) {
  if (f.is_declaration()) return std::nullopt;
  return Structurer(f).run();
}

}  // namespace ppy::source
