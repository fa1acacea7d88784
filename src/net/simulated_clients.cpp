// Fibers taking turns on one simulated network, and the per-client views that park them.
#include "net/simulated_clients.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>

#include <sys/mman.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#include <unistd.h>

#include "net/event_loop.h"
#include "net/transport.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define OPENLOOP_FIBER_ASAN 1
#endif

// Switching fibers: on x86-64 a dozen instructions saving the callee-saved registers and the stack pointer
// (glibc's swapcontext also saves the signal mask, two system calls per switch: with a switch or two per
// simulated request, most of a mix's CPU went there); elsewhere ucontext.
#if defined(__x86_64__)
extern "C" void openloop_fiber_switch(void** save_sp, void* load_sp);
asm(R"(
.text
.globl openloop_fiber_switch
.type openloop_fiber_switch,@function
openloop_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw 12(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw 12(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.size openloop_fiber_switch,.-openloop_fiber_switch
.section .note.GNU-stack,"",@progbits
.text
)");
#endif

namespace openloop::net {

namespace {

/// Where a suspended fiber (or the scheduler) resumes.
struct Context {
#if defined(__x86_64__)
  void* sp = nullptr;
#else
  ucontext_t uc{};
#endif
};

/// Makes `c` start `entry` (which must never return) on the stack [stack, stack + size).
void context_init(Context& c, char* stack, std::size_t size, void (*entry)()) {
#if defined(__x86_64__)
  // The frame openloop_fiber_switch pops: MXCSR and the x87 control word (their defaults), six registers,
  // then `entry` as the return address; above it a null return address for `entry`, so that entry starts with
  // the stack aligned as after a call (rsp ≡ 8 mod 16).
  auto top = reinterpret_cast<std::uintptr_t>(stack + size) & ~std::uintptr_t{15};
  auto* words = reinterpret_cast<std::uint64_t*>(top);
  words[-1] = 0;
  words[-2] = reinterpret_cast<std::uint64_t>(entry);
  for (int i = 3; i <= 8; ++i) words[-i] = 0;  // rbp, rbx, r12..r15
  auto* control = reinterpret_cast<std::uint32_t*>(words - 10);
  control[2] = 0x1F80;  // MXCSR: every exception masked, round to nearest
  control[3] = 0x037F;  // x87: the same
  c.sp = words - 10;
#else
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = size;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
#endif
}

/// Saves the running context in `from` and resumes `to`; returns when something resumes `from`.
void context_switch(Context& from, Context& to) {
#if defined(__x86_64__)
  openloop_fiber_switch(&from.sp, to.sp);
#else
  swapcontext(&from.uc, &to.uc);
#endif
}

// A worker's loop, its connections' handlers and their formatting: far below this. Reserved, not committed
// (pages are touched as the stack grows); one guard page below it turns an overflow into a fault.
constexpr std::size_t k_stack_size = std::size_t{1} << 20;
constexpr std::size_t k_none = std::numeric_limits<std::size_t>::max();
}  // namespace

struct SimulatedClients::Fiber {
  Context context;
  void* mapping = nullptr;
  std::size_t mapping_size = 0;
  char* stack = nullptr;
  std::function<void()> body;
  SteadyTime deadline{};
  bool started = false;
  bool parked = false;  // waiting in its view's poll()
  bool woken = false;   // one of its descriptors was dispatched while it was parked
  bool done = false;
  std::exception_ptr error;
  void* fake_stack = nullptr;  // AddressSanitizer's bookkeeping while switched out

  Fiber() {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    mapping_size = k_stack_size + page;
    mapping = mmap(nullptr, mapping_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (mapping == MAP_FAILED) throw std::bad_alloc();
    mprotect(mapping, page, PROT_NONE);
    stack = static_cast<char*>(mapping) + page;
  }
  ~Fiber() { munmap(mapping, mapping_size); }
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
};

struct SimulatedClients::Scheduler {
  Context main;
  std::size_t current = k_none;
  const void* main_bottom = nullptr;  // the calling thread's stack, for AddressSanitizer
  std::size_t main_size = 0;
};

namespace {
thread_local SimulatedClients* t_running = nullptr;  // the scheduler whose fiber is starting (entry())
}  // namespace

/// Client i's network: the shared one, with waits parking the fiber and descriptors relayed to mark it.
class SimulatedClients::View final : public SimulatedNetwork {
 public:
  View(SimulatedClients& owner, std::size_t index) : m_owner(owner), m_index(index) {}
  SteadyTime now() const override { return m_owner.m_net.now(); }
  int poll(SteadyTime deadline) override {
    // A wait that would not wait (the deadline has come) runs as the client's own poll would: what is ready
    // now is dispatched, whichever client it belongs to (that one is woken for it).
    if (deadline <= m_owner.m_net.now()) return m_owner.m_net.poll(deadline);
    return m_owner.park(m_index, deadline);
  }
  void every(Nanos period, std::function<void()> f) override { m_owner.m_net.every(period, std::move(f)); }
  bool add(int fd, std::uint32_t events, IoHandler* handler) override {
    return m_owner.m_net.add(fd, events, relay(fd, handler));
  }
  bool modify(int fd, std::uint32_t events, IoHandler* handler) override {
    return m_owner.m_net.modify(fd, events, relay(fd, handler));
  }
  void remove(int fd) override { m_owner.m_net.remove(fd); }
  int connect(const Endpoint& ep) override { return m_owner.m_net.connect(ep); }
  int connect_result(int fd) override { return m_owner.m_net.connect_result(fd); }
  IoResult read(int fd, char* buf, std::size_t cap) override { return m_owner.m_net.read(fd, buf, cap); }
  IoResult write(int fd, const char* buf, std::size_t len) override {
    return m_owner.m_net.write(fd, buf, len);
  }
  void close(int fd) override { m_owner.m_net.close(fd); }

 private:
  class Relay final : public IoHandler {
   public:
    explicit Relay(SimulatedClients& owner) : m_owner(owner) {}
    void on_io(std::uint32_t events) override {
      m_owner.woke(m_client);
      m_handler->on_io(events);
    }
    std::size_t m_client = 0;
    IoHandler* m_handler = nullptr;

   private:
    SimulatedClients& m_owner;
  };

  IoHandler* relay(int fd, IoHandler* handler) {
    if (fd < 0) return handler;
    auto& relays = m_owner.m_relays;
    const auto at = static_cast<std::size_t>(fd);
    if (at >= relays.size()) relays.resize(at + 1);
    if (!relays[at]) relays[at] = std::make_unique<Relay>(m_owner);
    auto& r = static_cast<Relay&>(*relays[at]);
    r.m_client = m_index;
    r.m_handler = handler;
    return &r;
  }

  SimulatedClients& m_owner;
  std::size_t m_index;
};

SimulatedClients::SimulatedClients(SimulatedNetwork& net, std::size_t clients)
    : m_net(net), m_scheduler(std::make_unique<Scheduler>()) {
  for (std::size_t i = 0; i < clients; ++i) {
    m_fibers.push_back(std::make_unique<Fiber>());
    m_views.push_back(std::make_unique<View>(*this, i));
  }
}

SimulatedClients::~SimulatedClients() = default;

SimulatedNetwork& SimulatedClients::client(std::size_t i) {
  return *m_views.at(i);
}

void SimulatedClients::woke(std::size_t i) {
  if (i < m_fibers.size()) m_fibers[i]->woken = true;
}

void SimulatedClients::resume(std::size_t i) {
  Fiber& f = *m_fibers[i];
  Scheduler& s = *m_scheduler;
  s.current = i;
  if (!f.started) {
    f.started = true;
    context_init(f.context, f.stack, k_stack_size, &SimulatedClients::entry);  // entry() never returns
    t_running = this;
  }
#if OPENLOOP_FIBER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, f.stack, k_stack_size);
#endif
  context_switch(s.main, f.context);
#if OPENLOOP_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  s.current = k_none;
}

int SimulatedClients::park(std::size_t i, SteadyTime deadline) {
  Fiber& f = *m_fibers[i];
  Scheduler& s = *m_scheduler;
  f.deadline = deadline;
  f.parked = true;
  f.woken = false;  // what was dispatched to it before, it handled while running
#if OPENLOOP_FIBER_ASAN
  __sanitizer_start_switch_fiber(&f.fake_stack, s.main_bottom, s.main_size);
#endif
  context_switch(f.context, s.main);
#if OPENLOOP_FIBER_ASAN
  __sanitizer_finish_switch_fiber(f.fake_stack, &s.main_bottom, &s.main_size);
#endif
  f.parked = false;
  return f.woken ? 1 : 0;
}

void SimulatedClients::entry() {
  SimulatedClients* self = t_running;
  t_running = nullptr;
  self->run_current();
}

void SimulatedClients::run_current() {
  Scheduler& s = *m_scheduler;
  Fiber& f = *m_fibers[s.current];
#if OPENLOOP_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &s.main_bottom, &s.main_size);
#endif
  try {
    f.body();
  } catch (...) {
    f.error = std::current_exception();
  }
  f.done = true;
#if OPENLOOP_FIBER_ASAN
  __sanitizer_start_switch_fiber(nullptr, s.main_bottom, s.main_size);
#endif
  context_switch(f.context, s.main);  // never resumed: its stack is unmapped with the fiber
}

void SimulatedClients::run(const std::vector<std::function<void()>>& bodies) {
  for (std::size_t i = 0; i < m_fibers.size() && i < bodies.size(); ++i) m_fibers[i]->body = bodies[i];
  for (std::size_t i = 0; i < m_fibers.size(); ++i) resume(i);  // each up to its first wait
  for (;;) {
    bool alive = false, resumed = false;
    SteadyTime next = SteadyTime::max();
    for (std::size_t i = 0; i < m_fibers.size(); ++i) {
      Fiber& f = *m_fibers[i];
      if (f.done) continue;
      alive = true;
      if (f.woken || f.deadline <= m_net.now()) {
        resume(i);
        resumed = true;
      }
      if (!f.done) next = std::min(next, f.deadline);
    }
    if (!alive) break;
    if (resumed) continue;
    // Every live fiber waits: the world runs to the earliest deadline or the first dispatch before it.
    const SteadyTime before = m_net.now();
    if (m_net.poll(next) == 0 && m_net.now() == before && next > before) {
      // Nothing happened and the clock cannot move (no event before a deadline of "never"): wake them all,
      // as a spurious wake-up would, rather than wait for ever.
      for (auto& f : m_fibers) f->woken = true;
    }
  }
  for (auto& f : m_fibers) {
    if (f->error) std::rethrow_exception(f->error);
  }
}

}  // namespace openloop::net
