// Fork-per-case isolation for bench_fft. The child writes "stage<TAB>name" lines as it goes and,
// at the end, the Result as "key<TAB>value" lines followed by "done"; the parent reads them
// with a deadline.
#include "case_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

namespace ripple_bench {
namespace {

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t k = ::write(fd, s.data() + done, s.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;  // the parent is gone; nothing useful left to do
    done += static_cast<std::size_t>(k);
  }
}

std::string clean(std::string s) {
  for (char& ch : s)
    if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string serialize(const Result& r) {
  std::ostringstream os;
  const auto timing = [&](const char* who, const Timing& t) {
    os << who << ".median\t" << num(t.median) << '\n' << who << ".min\t" << num(t.min) << '\n'
       << who << ".max\t" << num(t.max) << '\n' << who << ".reps\t" << t.reps << '\n';
  };
  timing("ripple", r.ripple);
  timing("fftw", r.fftw);
  os << "ripple_err\t" << num(r.ripple_err) << "\nfftw_err\t" << num(r.fftw_err)
     << "\nripple_plan_s\t" << num(r.ripple_plan_s) << "\nfftw_plan_s\t" << num(r.fftw_plan_s)
     << "\nripple_algo\t" << clean(r.ripple_algo) << "\nripple_error\t" << clean(r.ripple_error)
     << "\nfftw_error\t" << clean(r.fftw_error) << "\ndone\t1\n";
  return os.str();
}

/// Parses the child's lines; returns whether the "done" line arrived.
bool deserialize(const std::string& text, Result& r, std::string& last_stage) {
  std::map<std::string, std::string> kv;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::string key = line.substr(0, tab), value = line.substr(tab + 1);
    if (key == "stage") last_stage = value;
    else kv[key] = value;
  }
  if (kv.count("done") == 0) return false;
  const auto d = [&](const std::string& k) { return std::strtod(kv[k].c_str(), nullptr); };
  const auto timing = [&](const std::string& who) {
    Timing t;
    t.median = d(who + ".median");
    t.min = d(who + ".min");
    t.max = d(who + ".max");
    t.reps = std::strtoull(kv[who + ".reps"].c_str(), nullptr, 10);
    return t;
  };
  r.ripple = timing("ripple");
  r.fftw = timing("fftw");
  r.ripple_err = d("ripple_err");
  r.fftw_err = d("fftw_err");
  r.ripple_plan_s = d("ripple_plan_s");
  r.fftw_plan_s = d("fftw_plan_s");
  r.ripple_algo = kv["ripple_algo"];
  r.ripple_error = kv["ripple_error"];
  r.fftw_error = kv["fftw_error"];
  return true;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbrev = sigabbrev_np(sig);
    return std::string("crashed (SIG") + (abbrev ? abbrev : std::to_string(sig).c_str()) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

}  // namespace

Result run_in_child(const Case& c, double timeout_s, const std::function<Result(const StageFn&)>& work) {
  Result r;
  r.c = c;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.ripple_error = std::string("harness: pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.ripple_error = std::string("harness: fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {  // child: run, report, and leave without running the parent's atexit handlers
    ::close(fds[0]);
    const StageFn stage = [fd = fds[1]](std::string_view s) {
      write_all(fd, "stage\t" + std::string(s) + "\n");
    };
    Result out;
    try {
      out = work(stage);
    } catch (const std::exception& e) {
      out.ripple_error = std::string("harness: ") + e.what();
    }
    write_all(fds[1], serialize(out));
    ::close(fds[1]);
    ::_exit(0);
  }

  ::close(fds[1]);
  std::string text;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (rc < 0 && errno != EINTR) break;
    if (rc <= 0) continue;
    char buf[4096];
    const ssize_t k = ::read(fds[0], buf, sizeof buf);
    if (k > 0) text.append(buf, static_cast<std::size_t>(k));
    else if (k == 0 || errno != EINTR) break;  // EOF: the child finished or died
  }
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(fds[0]);

  std::string stage = "start";
  if (deserialize(text, r, stage) && !timed_out) return r;
  char what[128];
  if (timed_out) std::snprintf(what, sizeof what, "timed out after %.3g s", timeout_s);
  else std::snprintf(what, sizeof what, "%s", describe_status(status).c_str());
  // FFTW is the trusted side: a failure outside FFTW's own stages is put down to ripple.
  (stage.rfind("fftw", 0) == 0 ? r.fftw_error : r.ripple_error) = std::string(what) + " in " + stage;
  return r;
}

}  // namespace ripple_bench
