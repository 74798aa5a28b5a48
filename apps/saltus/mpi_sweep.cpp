#include "mpi_sweep.hpp"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>

#ifdef SALTUS_WITH_MPI
#include <mpi.h>

#include "progress_indicator.hpp"
#endif

namespace saltus::cli {

#ifndef SALTUS_WITH_MPI

MpiSession::MpiSession() = default;
MpiSession::~MpiSession() = default;

std::optional<run::SweepResult> run_sweep_over_ranks(const run::SweepPlan& plan,
                                                     const MpiSession&) {
  run::SweepResult result = plan.empty_result();
  const std::function<run::SweepPoint(size_t)> point = plan.runner();
  for (size_t i = 0; i < plan.size(); ++i) result.points[i] = point(i);
  return result;
}

#else

namespace {

constexpr int kTagWork = 1;    // manager -> worker: a point index
constexpr int kTagStop = 2;    // manager -> worker: no more points
constexpr int kTagResult = 3;  // worker -> manager: a finished point (or "ready" when empty)

// Started by mpirun/mpiexec (OpenMPI, MPICH) or by Slurm's srun (PMI/PMIx).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(v) != nullptr) return true;
  }
  return false;
}

void put_bytes(std::string& out, const void* p, size_t n) {
  out.append(static_cast<const char*>(p), n);
}
void put_text(std::string& out, const std::string& s) {
  const std::uint64_t n = s.size();
  put_bytes(out, &n, sizeof n);
  out += s;
}

// index, succeeded, status, message, collected values (the point's values the manager knows).
std::string encode(std::uint64_t index, const run::SweepPoint& p) {
  std::string out;
  put_bytes(out, &index, sizeof index);
  const char ok = p.succeeded ? 1 : 0;
  put_bytes(out, &ok, 1);
  put_text(out, p.status);
  put_text(out, p.message);
  const std::uint64_t n = p.collected.size();
  put_bytes(out, &n, sizeof n);
  put_bytes(out, p.collected.data(), n * sizeof(double));
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  void bytes(void* p, size_t n) {
    std::memcpy(p, s_.data() + at_, n);
    at_ += n;
  }
  std::string text() {
    std::uint64_t n = 0;
    bytes(&n, sizeof n);
    std::string t = s_.substr(at_, n);
    at_ += n;
    return t;
  }

 private:
  const std::string& s_;
  size_t at_ = 0;
};

// Fills the row of a worker's message (its values are already the plan's); returns its index.
std::uint64_t decode(const std::string& msg, run::SweepResult& result) {
  Reader r(msg);
  std::uint64_t index = 0;
  r.bytes(&index, sizeof index);
  run::SweepPoint& p = result.points.at(index);
  char ok = 0;
  r.bytes(&ok, 1);
  p.succeeded = ok != 0;
  p.status = r.text();
  p.message = r.text();
  std::uint64_t n = 0;
  r.bytes(&n, sizeof n);
  p.collected.resize(n);
  r.bytes(p.collected.data(), n * sizeof(double));
  return index;
}

std::string receive(int source, int tag, MPI_Status& status) {
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string buf(static_cast<size_t>(count), '\0');
  MPI_Recv(buf.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return buf;
}

run::SweepResult manage(const run::SweepPlan& plan, const MpiSession& mpi) {
  run::SweepResult result = plan.empty_result();
  const int workers = mpi.size() - 1;
  if (static_cast<size_t>(workers) > plan.size()) {
    std::cerr << "saltus sweep: " << mpi.size() << " ranks for " << plan.size()
              << " point(s): rank 0 hands out the points, ranks " << plan.size() + 1 << ".."
              << mpi.size() - 1 << " have none to run\n";
  }
  // The same line as the threaded sweep's (a terminal only), drawn as results come in.
  ProgressIndicator progress("sweeping " + std::to_string(plan.size()) + " points on " +
                                 std::to_string(workers) + " ranks",
                             true);
  size_t next = 0, received = 0;
  int stopped = 0;
  while (stopped < workers) {
    MPI_Status status;
    const std::string msg = receive(MPI_ANY_SOURCE, kTagResult, status);
    if (!msg.empty()) {
      decode(msg, result);
      progress.tick(static_cast<double>(++received) / static_cast<double>(plan.size()));
    }
    if (next < plan.size()) {
      const std::uint64_t index = next++;
      MPI_Send(&index, 1, MPI_UINT64_T, status.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
    } else {
      MPI_Send(nullptr, 0, MPI_UINT64_T, status.MPI_SOURCE, kTagStop, MPI_COMM_WORLD);
      ++stopped;
    }
  }
  progress.finish();
  return result;
}

void work(const run::SweepPlan& plan) {
  const std::function<run::SweepPoint(size_t)> point = plan.runner();
  std::string reply;  // empty: ready for the first point
  for (;;) {
    MPI_Send(reply.data(), static_cast<int>(reply.size()), MPI_BYTE, 0, kTagResult, MPI_COMM_WORLD);
    MPI_Status status;
    std::uint64_t index = 0;
    MPI_Recv(&index, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kTagStop) return;
    reply = encode(index, point(index));
  }
}

}  // namespace

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  MPI_Init(nullptr, nullptr);
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (initialized_) MPI_Finalize();
}

std::optional<run::SweepResult> run_sweep_over_ranks(const run::SweepPlan& plan,
                                                     const MpiSession& mpi) {
  if (mpi.rank() == 0) return manage(plan, mpi);
  work(plan);
  return std::nullopt;
}

#endif

}  // namespace saltus::cli
