// The /proc and /sys samplers on fake trees: every signal read from its file, in the documented units.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "fake_tree.h"
#include "observe/file_root.h"
#include "observe/host_source.h"
#include "observe/observer.h"
#include "observe/process_source.h"

namespace openloop::observe {
namespace {

std::map<std::string, double> sample(Source& s) {
  std::vector<Reading> out;
  auto r = s.sample(out);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  std::map<std::string, double> m;
  for (const auto& x : out) m[x.name] = x.value;
  return m;
}

ProcContext ctx_of(const FakeTree& t) {
  ProcContext c;
  c.root = FileRoot(t.root());
  c.ticks_per_s = 100;
  c.page_bytes = 4096;
  return c;
}

void write_process(FakeTree& t, int pid, double utime, double stime, double wait_ns_each) {
  const std::string d = "/proc/" + std::to_string(pid);
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
  // cstime priority nice num_threads itrealvalue starttime vsize rss
  t.write(d + "/stat", std::to_string(pid) + " (lab server) S 1 1 1 0 -1 0 50 0 7 0 " +
                           std::to_string(int(utime)) + " " + std::to_string(int(stime)) +
                           " 0 0 20 0 2 0 100 1000000 250\n");
  t.write(d + "/status",
          "Name:\tlab\nThreads:\t2\nCpus_allowed_list:\t0-1,3\nvoluntary_ctxt_switches:\t100\n"
          "nonvoluntary_ctxt_switches:\t40\n");
  t.write(d + "/limits",
          "Limit Soft Limit Hard Limit Units\nMax open files            1024                 4096 files\n");
  t.write(d + "/task/" + std::to_string(pid) + "/schedstat",
          "5000 " + std::to_string(std::int64_t(wait_ns_each)) + " 9\n");
  t.write(d + "/task/" + std::to_string(pid + 1) + "/schedstat",
          "5000 " + std::to_string(std::int64_t(wait_ns_each)) + " 9\n");
  t.write(d + "/fd/0", "");
  t.write(d + "/fd/1", "");
  t.write(d + "/fd/7", "");
  t.write(d + "/comm", "lab\n");
}

TEST(ProcessSource, ReadsEverySignalFromProc) {
  FakeTree t;
  write_process(t, 42, 150, 50, 2.5e8);
  auto s = ProcessSource::by_pid("pid:42", 42, ctx_of(t));
  ASSERT_TRUE(s->open());
  const auto m = sample(*s);
  EXPECT_DOUBLE_EQ(m.at("cpu"), 2.0);                 // (150 + 50) ticks / 100
  EXPECT_DOUBLE_EQ(m.at("cpu_of_allowed"), 2.0 / 3);  // CPUs 0, 1, 3
  EXPECT_DOUBLE_EQ(m.at("runq_wait"), 0.5);           // two threads × 0.25 s
  EXPECT_DOUBLE_EQ(m.at("rss"), 250 * 4096.0);
  EXPECT_DOUBLE_EQ(m.at("threads"), 2);
  EXPECT_DOUBLE_EQ(m.at("major_faults"), 7);
  EXPECT_DOUBLE_EQ(m.at("ctx_voluntary"), 100);
  EXPECT_DOUBLE_EQ(m.at("ctx_involuntary"), 40);
  EXPECT_DOUBLE_EQ(m.at("fds"), 3);
  EXPECT_DOUBLE_EQ(m.at("fds_of_limit"), 3.0 / 1024);
}

TEST(ProcessSource, FindsAProcessByNameAndSaysWhenItIsMissing) {
  FakeTree t;
  write_process(t, 77, 1, 1, 0);
  write_process(t, 12, 1, 1, 0);
  auto found = ProcessSource::by_name("process:lab", "lab", ctx_of(t));
  ASSERT_TRUE(found->open());
  EXPECT_DOUBLE_EQ(sample(*found).at("cpu"), 0.02);
  auto missing = ProcessSource::by_name("process:nginx", "nginx", ctx_of(t));
  const auto r = missing->open();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no process named \"nginx\""), std::string::npos) << r.error().message;
}

TEST(ProcessSource, AProcessThatExitsIsGone) {
  FakeTree t;
  write_process(t, 42, 1, 1, 0);
  auto s = ProcessSource::by_pid("pid:42", 42, ctx_of(t));
  ASSERT_TRUE(s->open());
  sample(*s);
  t.remove("/proc/42");
  std::vector<Reading> out;
  const auto r = s->sample(out);
  ASSERT_FALSE(r);
  EXPECT_TRUE(s->gone());
  EXPECT_NE(r.error().message.find("exited"), std::string::npos);
}

TEST(ProcessSource, APidThatDoesNotExistFailsToOpen) {
  FakeTree t;
  auto s = ProcessSource::by_pid("pid:999999", 999999, ctx_of(t));
  const auto r = s->open();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no such process"), std::string::npos);
}

TEST(HostSource, ReadsCpuPressureAndTcpCounters) {
  FakeTree t;
  t.write("/proc/stat",
          "cpu  100 20 30 800 10 5 5 40 0 0\ncpu0 50 10 15 400 5 2 3 20 0 0\ncpu1 50 10 15 400 5 3 2 20 0 "
          "0\nintr 1\n");
  t.write("/proc/loadavg", "1.50 1.00 0.50 2/300 1234\n");
  t.write("/proc/pressure/cpu",
          "some avg10=1.00 avg60=0.00 avg300=0.00 total=2500000\nfull avg10=0.00 avg60=0.00 avg300=0.00 "
          "total=0\n");
  t.write("/proc/net/netstat",
          "TcpExt: SyncookiesSent ListenOverflows ListenDrops TCPTimeouts\nTcpExt: 0 17 19 3\n"
          "IpExt: InNoRoutes\nIpExt: 0\n");
  t.write(
      "/proc/net/snmp",
      "Ip: Forwarding\nIp: 1\nTcp: RtoAlgorithm ActiveOpens AttemptFails EstabResets RetransSegs OutRsts\n"
      "Tcp: 1 10 2 3 4 5\n");
  t.write("/proc/net/sockstat", "sockets: used 13\nTCP: inuse 1 orphan 0 tw 6 alloc 1 mem 2\n");
  HostSource s(ctx_of(t));
  ASSERT_TRUE(s.open());
  const auto m = sample(s);
  EXPECT_DOUBLE_EQ(m.at("cpu_user"), 120.0 / 200);  // (user + nice) / (100 ticks × 2 CPUs)
  EXPECT_DOUBLE_EQ(m.at("cpu_system"), 40.0 / 200);
  EXPECT_DOUBLE_EQ(m.at("cpu_steal"), 40.0 / 200);
  EXPECT_DOUBLE_EQ(m.at("cpu_busy"), 200.0 / 200);
  EXPECT_DOUBLE_EQ(m.at("load1"), 1.5);
  EXPECT_DOUBLE_EQ(m.at("psi_cpu"), 2.5);
  EXPECT_EQ(m.count("psi_io"), 0U);  // no file, no signal
  EXPECT_DOUBLE_EQ(m.at("ListenOverflows"), 17);
  EXPECT_DOUBLE_EQ(m.at("ListenDrops"), 19);
  EXPECT_DOUBLE_EQ(m.at("RetransSegs"), 4);
  EXPECT_DOUBLE_EQ(m.at("OutRsts"), 5);
  EXPECT_DOUBLE_EQ(m.at("EstabResets"), 3);
  EXPECT_DOUBLE_EQ(m.at("tcp_time_wait"), 6);
  EXPECT_DOUBLE_EQ(m.at("tcp_mem"), 2 * 4096.0);
}

TEST(CgroupSource, ReadsCpuThrottlingMemoryAndPressure) {
  FakeTree t;
  const std::string d = "/sys/fs/cgroup/system.slice/web.service";
  t.write(d + "/cpu.stat",
          "usage_usec 3000000\nuser_usec 2000000\nsystem_usec 1000000\nnr_periods 50\nnr_throttled "
          "20\nthrottled_usec 400000\n");
  t.write(d + "/cpu.max", "50000 100000\n");
  t.write(d + "/memory.current", "1048576\n");
  t.write(d + "/memory.max", "4194304\n");
  t.write(
      d + "/memory.pressure",
      "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
  CgroupSource s("cgroup:/system.slice/web.service", "/system.slice/web.service", ctx_of(t));
  ASSERT_TRUE(s.open());
  const auto m = sample(s);
  EXPECT_DOUBLE_EQ(m.at("cpu"), 3.0);
  EXPECT_DOUBLE_EQ(m.at("cpu_of_max"), 6.0);  // a counter: its rate over 0.5 core of quota
  EXPECT_DOUBLE_EQ(m.at("throttled"), 20);
  EXPECT_DOUBLE_EQ(m.at("throttled_time"), 0.4);
  EXPECT_DOUBLE_EQ(m.at("memory"), 1048576);
  EXPECT_DOUBLE_EQ(m.at("memory_of_max"), 0.25);
  EXPECT_DOUBLE_EQ(m.at("psi_memory"), 0.001);
}

TEST(CgroupSource, APathWithoutTheFilesFailsToOpen) {
  FakeTree t;
  t.mkdir("/sys/fs/cgroup/empty");
  CgroupSource s("cgroup:empty", "empty", ctx_of(t));
  const auto r = s.open();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no cpu.stat or memory.current"), std::string::npos) << r.error().message;
}

TEST(FileRoot, CpuListSizes) {
  EXPECT_EQ(cpu_list_size("0"), 1U);
  EXPECT_EQ(cpu_list_size("0-3,6\n"), 5U);
  EXPECT_EQ(cpu_list_size(""), 0U);
  EXPECT_EQ(cpu_list_size("3-1"), 0U);
}

TEST(ObserveSpec, UnknownFormsAreUsageErrorsListingTheAcceptedOnes) {
  for (const char* spec : {"disk", "pid:abc", "pid:0", "pid:", "process:", "cgroup:", "prometheus:",
                           "prometheus:https://x/metrics", "prometheus:http://127.0.0.1:9/m#"}) {
    const auto s = make_source(spec, "http://127.0.0.1:8080/", ProcContext{});
    ASSERT_FALSE(s) << spec;
    EXPECT_EQ(s.error().code, ExitCode::usage) << spec;
    EXPECT_NE(s.error().message.find(spec), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("accepted: pid:N, process:NAME, host"), std::string::npos)
        << s.error().message;
  }
  for (const char* spec :
       {"host", "self", "pid:1", "process:nginx", "cgroup:a/b", "lab", "lab:http://127.0.0.1:1/_lab/config",
        "prometheus:http://127.0.0.1:9100/metrics#node_load1,node_cpu_seconds_total"}) {
    const auto s = make_source(spec, "http://127.0.0.1:8080/", ProcContext{});
    EXPECT_TRUE(s) << spec << ": " << (s ? "" : s.error().message);
  }
}

TEST(ObserveSpec, SelfIsAddedAndASpecTwiceIsRefused) {
  auto o = Observer::create({"host"}, "", ProcContext{});
  ASSERT_TRUE(o);
  EXPECT_EQ((*o)->sampler().specs(), (std::vector<std::string>{"host", "self"}));
  auto none = Observer::create({}, "", ProcContext{});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->get(), nullptr);
  auto twice = Observer::create({"host", "host"}, "", ProcContext{});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
}

}  // namespace
}  // namespace openloop::observe
