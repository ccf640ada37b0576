#include "reducer.hpp"

namespace sprig::fuzz {

namespace {

// Visits edit sites in a fixed order and applies the one numbered `target`, if it exists.
// Site numbers are recomputed on every attempt, so edits never go stale.
class Editor {
 public:
  explicit Editor(std::size_t target) : target_(target) {}
  bool applied() const { return applied_; }

  // Pass 1: delete one statement.
  void delete_statements(Program& p) {
    for (Function& f : p.functions) delete_in(f.body);
    delete_in(p.body);
  }
  // Pass 2: replace an if or a loop by one of its bodies.
  void unwrap_statements(Program& p) {
    for (Function& f : p.functions) unwrap_in(f.body);
    unwrap_in(p.body);
  }
  // Pass 3: replace an expression by a zero or one constant, or by an operand of its type.
  void simplify_expressions(Program& p) {
    for (Expr& e : p.initial_values) simplify(e);
    for (Function& f : p.functions) {
      simplify_in(f.body);
      simplify(f.result);
    }
    simplify_in(p.body);
  }

 private:
  bool hit() {
    if (applied_) return false;
    if (count_++ != target_) return false;
    applied_ = true;
    return true;
  }

  void delete_in(std::vector<Stmt>& block) {
    for (std::size_t i = 0; i < block.size() && !applied_; ++i) {
      if (hit()) {
        block.erase(block.begin() + std::ptrdiff_t(i));
        return;
      }
      delete_in(block[i].body);
      delete_in(block[i].else_body);
    }
  }

  void unwrap_in(std::vector<Stmt>& block) {
    for (std::size_t i = 0; i < block.size() && !applied_; ++i) {
      Stmt& s = block[i];
      bool compound = s.kind == StmtKind::If || s.kind == StmtKind::For || s.kind == StmtKind::While ||
                      s.kind == StmtKind::Loop;
      if (compound) {
        for (std::vector<Stmt>* inner : {&s.body, &s.else_body}) {
          if (inner->empty() || !hit()) continue;
          std::vector<Stmt> replacement = std::move(*inner);
          block.erase(block.begin() + std::ptrdiff_t(i));
          block.insert(block.begin() + std::ptrdiff_t(i), replacement.begin(), replacement.end());
          return;
        }
      }
      unwrap_in(s.body);
      unwrap_in(s.else_body);
    }
  }

  void simplify_in(std::vector<Stmt>& block) {
    for (Stmt& s : block) {
      for (Expr& e : s.exprs) simplify(e);
      simplify_in(s.body);
      simplify_in(s.else_body);
      if (applied_) return;
    }
  }

  static Expr constant(Type t, std::uint64_t lane) {
    Expr c;
    c.kind = ExprKind::Constant;
    c.type = t;
    if (t.is_float() && lane == 1) lane = 0x3F800000;  // 1.0f
    c.bits.fill(lane);
    return c;
  }

  void simplify(Expr& e) {
    if (applied_) return;
    bool is_zero = e.kind == ExprKind::Constant && e.bits == constant(e.type, 0).bits;
    if (!is_zero && hit()) {
      e = constant(e.type, 0);
      return;
    }
    if (e.kind != ExprKind::Constant && hit()) {
      e = constant(e.type, 1);
      return;
    }
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      if (e.args[i].type == e.type && hit()) {
        Expr operand = std::move(e.args[i]);
        e = std::move(operand);
        return;
      }
    }
    // A float floor_div or mod divides by a power of two, exactly; a zero divisor would make
    // infinities and NaNs that float arithmetic may turn into a different failure.
    bool float_division = e.type.is_float() && (e.op == Op::FloorDiv || e.op == Op::Mod) && e.kind == ExprKind::Binary;
    for (std::size_t i = 0; i < e.args.size(); ++i)
      if (!(float_division && i == 1)) simplify(e.args[i]);
  }

  std::size_t target_;
  std::size_t count_ = 0;
  bool applied_ = false;
};

bool calls_function(const Expr& e, std::uint32_t f) {
  if (e.kind == ExprKind::Call && e.index == f) return true;
  for (const Expr& a : e.args)
    if (calls_function(a, f)) return true;
  return false;
}

bool calls_function(const std::vector<Stmt>& block, std::uint32_t f) {
  for (const Stmt& s : block) {
    for (const Expr& e : s.exprs)
      if (calls_function(e, f)) return true;
    if (calls_function(s.body, f) || calls_function(s.else_body, f)) return true;
  }
  return false;
}

bool calls_function(const Program& p, std::uint32_t f) {
  for (const Expr& e : p.initial_values)
    if (calls_function(e, f)) return true;
  return calls_function(p.body, f);
}

bool statement_targets_variable(const Stmt& s) {
  return s.kind == StmtKind::Assign || s.kind == StmtKind::While || s.kind == StmtKind::Loop ||
         s.kind == StmtKind::SharedRound || s.kind == StmtKind::Subgroup;
}

// Calls f(index) on every reference to a kernel variable (expressions and statement targets).
template <class F>
void for_each_variable_use(Expr& e, F& f) {
  if (e.kind == ExprKind::Variable) f(e.index);
  for (Expr& a : e.args) for_each_variable_use(a, f);
}
template <class F>
void for_each_variable_use(std::vector<Stmt>& block, F& f) {
  for (Stmt& s : block) {
    if (statement_targets_variable(s)) f(s.target);
    for (Expr& e : s.exprs) for_each_variable_use(e, f);
    for_each_variable_use(s.body, f);
    for_each_variable_use(s.else_body, f);
  }
}

// Removes kernel variable `v` if nothing refers to it, renumbering the later ones.
bool remove_unused_variable(Program& p, std::uint32_t v) {
  bool used = false;
  auto find = [&](std::uint32_t& index) { used = used || index == v; };
  for (Expr& e : p.initial_values) for_each_variable_use(e, find);
  for_each_variable_use(p.body, find);
  if (used) return false;
  auto renumber = [&](std::uint32_t& index) { index -= index > v ? 1 : 0; };
  for (Expr& e : p.initial_values) for_each_variable_use(e, renumber);
  for_each_variable_use(p.body, renumber);
  p.variables.erase(p.variables.begin() + std::ptrdiff_t(v));
  p.initial_values.erase(p.initial_values.begin() + std::ptrdiff_t(v));
  return true;
}

std::size_t size_of(const Expr& e) {
  std::size_t n = 1;
  for (const Expr& a : e.args) n += size_of(a);
  return n;
}

std::size_t size_of(const std::vector<Stmt>& block) {
  std::size_t n = 0;
  for (const Stmt& s : block) {
    n += 1 + size_of(s.body) + size_of(s.else_body);
    for (const Expr& e : s.exprs) n += size_of(e);
  }
  return n;
}

}  // namespace

std::size_t program_size(const Program& p) {
  std::size_t n = size_of(p.body);
  for (const Expr& e : p.initial_values) n += size_of(e);
  for (const Function& f : p.functions) n += size_of(f.body) + size_of(f.result);
  return n;
}

Program reduce(Program program, const StillFails& still_fails, std::size_t max_attempts, ReduceStats* stats) {
  ReduceStats local;
  ReduceStats& st = stats ? *stats : local;
  auto attempt = [&](const Program& candidate) {
    if (st.attempts >= max_attempts) return false;
    ++st.attempts;
    if (!still_fails(candidate)) return false;
    ++st.accepted;
    return true;
  };
  using Pass = void (Editor::*)(Program&);
  const Pass passes[] = {&Editor::delete_statements, &Editor::unwrap_statements, &Editor::simplify_expressions};
  bool progress = true;
  while (progress && st.attempts < max_attempts) {
    progress = false;
    // The launch first: one workgroup is the smallest repro.
    if (program.workgroups > 1) {
      Program candidate = program;
      candidate.workgroups = 1;
      if (attempt(candidate)) program = std::move(candidate), progress = true;
    }
    // Callables nobody calls any more (the last one first, so that indices stay valid).
    while (!program.functions.empty() && !calls_function(program, std::uint32_t(program.functions.size() - 1))) {
      Program candidate = program;
      candidate.functions.pop_back();
      if (!attempt(candidate)) break;
      program = std::move(candidate);
      progress = true;
    }
    // Variables nothing refers to any more (printed declarations only).
    for (std::uint32_t v = std::uint32_t(program.variables.size()); v-- > 0;) {
      Program candidate = program;
      if (remove_unused_variable(candidate, v) && attempt(candidate)) {
        program = std::move(candidate);
        progress = true;
      }
    }
    for (Pass pass : passes) {
      for (std::size_t site = 0; st.attempts < max_attempts;) {
        Program candidate = program;
        Editor editor(site);
        (editor.*pass)(candidate);
        if (!editor.applied()) break;
        if (attempt(candidate)) {
          program = std::move(candidate);  // the same site number now names the next edit
          progress = true;
        } else {
          ++site;
        }
      }
    }
  }
  return program;
}

}  // namespace sprig::fuzz
