// Structured control flow on a SIMT stack. Lanes leave the active mask where a branch or
// loop condition excludes them and come back at the construct's end; break, continue and
// return remove lanes from every frame up to the construct they leave, so that each
// frame's restore brings back exactly the lanes that are still inside. A block whose mask
// becomes empty is skipped to its end, so no ordinary instruction runs with no lane active.
#include "analysis/launch_analysis.hpp"
#include "control_ops.hpp"
#include "launch_state.hpp"

namespace sprig::sim::control {

namespace {

ControlFrame& top(Context& c) { return c.stack.back(); }

void notify(Context& c, const Instr& in, ControlKind kind, Mask present, Mask taken) {
  c.observer->control(ControlEvent{in.node, kind, present, taken, c.coords()});
}

std::uint32_t pc_of(const Context& c, const Instr& in) { return std::uint32_t(&in - c.program->code.data()); }

// The idleness analysis accounts for the operations issued under the current mask.
void mask_changing(Context& c) {
  if (c.analysis) [[unlikely]]
    c.analysis->mask_changing(c);
}

// Removes `lanes` from the frames [first, top].
void prune(Context& c, std::size_t first, Mask lanes) {
  for (std::size_t i = first; i < c.stack.size(); ++i) c.stack[i].saved &= ~lanes;
}

// Once no lane is left in a block, the rest of it is skipped.
void leave_block(Context& c, const Instr& in) {
  mask_changing(c);
  c.active = 0;
  c.pc = in.target;
}

}  // namespace

void if_begin(Context& c, const Instr& in) {
  const Word* cond = c.reg(in.src[0]);
  Mask taken = 0;
  for_each_lane(c.active, [&](std::uint32_t lane) { taken |= Mask(cond[lane] & 1) << lane; });
  if (c.observer) [[unlikely]]
    notify(c, in, ControlKind::If, c.active, taken);
  const std::uint32_t pc = pc_of(c, in);
  if (c.analysis) [[unlikely]] {
    c.analysis->mask_changing(c);
    c.analysis->if_reached(pc, c.active, taken);
  }
  c.stack.push_back(ControlFrame{c.active, c.active & ~taken, c.active, 0, 0, 0, pc});
  c.active = taken;
  if (!taken) c.pc = in.target;
}

void if_else(Context& c, const Instr& in) {
  mask_changing(c);
  c.active = top(c).other;
  if (!c.active) c.pc = in.target;
}

void if_end(Context& c, const Instr& in) {
  mask_changing(c);
  c.active = top(c).saved;
  c.stack.pop_back();
  if (!c.active) c.pc = in.skip;
}

void loop_begin(Context& c, const Instr& in) {
  c.stack.push_back(ControlFrame{c.active, 0, c.active, 0, 0, 0, pc_of(c, in)});
  if (c.observer && !in.aux) [[unlikely]]
    notify(c, in, ControlKind::LoopIteration, c.active, c.active);
  if (c.analysis) [[unlikely]] {
    c.analysis->loop_entered(top(c).site_pc);
    if (!in.aux) c.analysis->iteration(top(c), c.active);
  }
}

void loop_test(Context& c, const Instr& in) {
  const Word* cond = c.reg(in.src[0]);
  Mask staying = 0;
  for_each_lane(c.active, [&](std::uint32_t lane) { staying |= Mask(cond[lane] & 1) << lane; });
  ControlFrame& f = top(c);
  if (c.analysis) [[unlikely]] {
    c.analysis->mask_changing(c);
    c.analysis->iteration(f, staying);
  }
  Mask leaving = c.active & ~staying;
  f.other |= leaving;
  f.saved &= ~leaving;
  c.active = staying;
  if (c.observer) [[unlikely]]
    notify(c, in, ControlKind::LoopIteration, f.entered, staying);
  if (!staying) c.pc = in.target;
}

void loop_continue(Context& c, const Instr& in) {
  mask_changing(c);
  c.active = top(c).saved;  // the lanes that continued come back
  if (!c.active) c.pc = in.target;
}

namespace {

// A loop iteration that only polled memory other invocations write (atomics, coherent
// buffers) and wrote nothing is waiting for someone else: after a few in a row the
// subgroup yields so that the scheduler can run the invocations it waits for.
constexpr std::uint32_t spin_yield_streak = 64;

[[gnu::cold]] void runaway(Context& c, const Instr& in) {
  std::uint32_t lane = lowest_lane(c.active);
  std::uint64_t limit = c.launch->options->loop_iteration_limit;
  report_problem(c, Problem::RunawayLoop, in.node, lane, [&] {
    return "this loop ran " + std::to_string(limit) +
           " iterations in one subgroup (Options::loop_iteration_limit); the launch was stopped";
  });
  c.launch->aborted = true;
  c.state = RunState::Aborted;
}

}  // namespace

void loop_back(Context& c, const Instr& in) {
  if (++c.loop_iterations > c.launch->options->loop_iteration_limit) [[unlikely]] {
    runaway(c, in);
    return;
  }
  if (c.iteration_polled && !c.iteration_wrote) [[unlikely]] {
    if (++c.spin_streak >= spin_yield_streak) {
      c.spin_streak = 0;
      c.launch->spin_iterations += spin_yield_streak;
      c.state = RunState::Spinning;
      c.waiting_pc = std::uint32_t(&in - c.program->code.data());
    }
  } else {
    c.spin_streak = 0;
  }
  c.iteration_polled = c.iteration_wrote = false;
  if (c.active) {
    c.pc = in.target;
    if (c.observer && !in.aux) [[unlikely]]
      notify(c, in, ControlKind::LoopIteration, top(c).entered, c.active);
    if (c.analysis && !in.aux) [[unlikely]]
      c.analysis->iteration(top(c), c.active);
  }
}

void loop_end(Context& c, const Instr& in) {
  mask_changing(c);
  c.active = top(c).other;
  c.stack.pop_back();
  if (!c.active) c.pc = in.skip;
}

void break_loop(Context& c, const Instr& in) {
  std::size_t loop = c.frame_base + in.aux;
  prune(c, loop + 1, c.active);
  c.stack[loop].saved &= ~c.active;
  c.stack[loop].other |= c.active;
  leave_block(c, in);
}

void continue_loop(Context& c, const Instr& in) {
  prune(c, c.frame_base + in.aux + 1, c.active);
  leave_block(c, in);
}

void return_kernel(Context& c, const Instr& in) {
  prune(c, c.frame_base, c.active);
  c.live &= ~c.active;
  leave_block(c, in);
}

void return_callable(Context& c, const Instr& in) {
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* to = c.reg(in.aux + k);
    const Word* from = c.reg(in.src[0] + k);
    for_each_lane(c.active, [&](std::uint32_t lane) { to[lane] = from[lane]; });
  }
  prune(c, c.frame_base, c.active);
  leave_block(c, in);
}

void call(Context& c, const Instr& in) {
  const auto& args = *static_cast<const CallArguments*>(in.data);
  for (const CallArguments::Copy& a : args.copies)
    std::copy_n(c.reg(a.from), std::size_t(a.count) * c.width, c.reg(a.to));
  mask_changing(c);
  c.stack.push_back(ControlFrame{c.active, 0, c.active, c.pc, c.frame_base, in.dst, pc_of(c, in)});
  c.frame_base = std::uint32_t(c.stack.size());
  c.pc = in.target;
}

void function_end(Context& c, const Instr& in) {
  mask_changing(c);
  ControlFrame frame = c.stack[c.frame_base - 1];
  c.stack.resize(c.frame_base - 1);
  c.active = frame.saved;
  c.frame_base = frame.caller_frame;
  c.pc = frame.resume_pc;
  std::copy_n(c.reg(in.src[0]), std::size_t(in.count) * c.width, c.reg(frame.result_slot));
}

void kernel_end(Context& c, const Instr&) {
  mask_changing(c);
  c.active = 0;
  c.live = 0;
  c.state = RunState::Done;
}

}  // namespace sprig::sim::control
