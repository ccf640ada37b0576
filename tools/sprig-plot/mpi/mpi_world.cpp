#include "mpi_world.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace sprig_plot {

namespace {

constexpr std::size_t host_bytes = 256;

void check(int result, const char* call) {
  if (result != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed (MPI error " + std::to_string(result) + ")");
}

// MPI's blocking calls spin on a core while they wait; a rank waiting for another rank on
// the same host would take the core that rank needs. Waits here poll and sleep instead.
constexpr std::chrono::microseconds poll_interval(200);

void wait(MPI_Request& request, const char* call) {
  for (int done = 0;;) {
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), call);
    if (done) return;
    std::this_thread::sleep_for(poll_interval);
  }
}

}  // namespace

MpiWorld::MpiWorld(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes, which the checks turn into exceptions with a message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    throw std::runtime_error("this MPI library does not let a process with threads call it from its main thread");
  }
  char host[host_bytes] = {};
  ::gethostname(host, host_bytes - 1);
  std::vector<char> all(host_bytes * std::size_t(size_));
  MPI_Request request;
  check(MPI_Iallgather(host, int(host_bytes), MPI_CHAR, all.data(), int(host_bytes), MPI_CHAR, MPI_COMM_WORLD,
                       &request),
        "MPI_Iallgather");
  wait(request, "MPI_Iallgather");
  for (int r = 0; r < size_; ++r) hosts_.emplace_back(&all[host_bytes * std::size_t(r)]);
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

std::string MpiWorld::name(int rank) const { return "rank " + std::to_string(rank) + " on " + hosts_[std::size_t(rank)]; }

int MpiWorld::agree(int status, const std::string& error, const std::string& work) {
  agreed_ = true;
  // Each rank's status and a hash of its work (FNV-1a): rank 0 compares them.
  std::uint64_t work_hash = 14695981039346656037ull;
  for (unsigned char c : work) work_hash = (work_hash ^ c) * 1099511628211ull;
  const std::uint64_t mine[2] = {std::uint64_t(status), work_hash};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size_));
  MPI_Request request;
  check(MPI_Igather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request), "MPI_Igather");
  wait(request, "MPI_Igather");
  if (rank_ != 0 && status != 0) send(0, Tag::Agree, std::vector<std::uint8_t>(error.begin(), error.end()));
  int worst = 0;
  if (rank_ == 0) {
    std::vector<std::pair<int, std::string>> failures;
    for (int r = 0; r < size_; ++r) {
      const int rank_status = int(all[2 * std::size_t(r)]);
      std::string what;
      if (rank_status == 0 && all[2 * std::size_t(r) + 1] != work_hash && status == 0) {
        what = "it was given other work than rank 0 (" + work + "): every rank needs the same command line";
        failures.emplace_back(r, what);
        if (worst == 0) worst = 2;
        continue;
      }
      if (rank_status == 0) continue;
      if (worst == 0) worst = rank_status;
      if (r == 0) {
        failures.emplace_back(0, error);
        continue;
      }
      MPI_Status probed;
      for (int arrived = 0; !arrived; std::this_thread::sleep_for(poll_interval))
        check(MPI_Iprobe(r, int(Tag::Agree), MPI_COMM_WORLD, &arrived, &probed), "MPI_Iprobe");
      const Message message = receive_probed(probed);
      failures.emplace_back(r, std::string(message.bytes.begin(), message.bytes.end()));
    }
    // The same mistake on every rank (a bad option) is one error, not one per rank.
    const bool shared = failures.size() == std::size_t(size_) &&
                        std::all_of(failures.begin(), failures.end(),
                                    [&](const auto& f) { return f.second == failures.front().second; });
    if (shared) {
      std::fprintf(stderr, "sprig-plot: error: %s\n", failures.front().second.c_str());
    } else {
      for (const auto& [r, what] : failures)
        std::fprintf(stderr, "sprig-plot: error: %s: %s\n", name(r).c_str(), what.c_str());
    }
  }
  check(MPI_Ibcast(&worst, 1, MPI_INT, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  wait(request, "MPI_Ibcast");
  return worst;
}

std::vector<std::uint32_t> MpiWorld::gather(std::uint32_t value) const {
  std::vector<std::uint32_t> values(rank_ == 0 ? std::size_t(size_) : 0);
  MPI_Request request;
  check(MPI_Igather(&value, 1, MPI_UINT32_T, values.data(), 1, MPI_UINT32_T, 0, MPI_COMM_WORLD, &request),
        "MPI_Igather");
  wait(request, "MPI_Igather");
  return values;
}

std::vector<std::uint8_t> MpiWorld::broadcast(std::vector<std::uint8_t> bytes) const {
  std::uint64_t size = bytes.size();
  MPI_Request request;
  check(MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  wait(request, "MPI_Ibcast");
  bytes.resize(size);
  check(MPI_Ibcast(bytes.data(), int(size), MPI_BYTE, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  wait(request, "MPI_Ibcast");
  return bytes;
}

void MpiWorld::send(int to, Tag tag, const std::vector<std::uint8_t>& bytes) const {
  if (bytes.size() > std::size_t(INT_MAX)) throw std::runtime_error("a message to " + name(to) + " is over 2 GiB");
  // A blocking send: a large message moves in fragments that each need this side's progress,
  // which a sleeping wait would hold back (a K = 20 record is 5 MiB).
  check(MPI_Send(bytes.data(), int(bytes.size()), MPI_BYTE, to, int(tag), MPI_COMM_WORLD), "MPI_Send");
}

Message MpiWorld::receive_probed(const MPI_Status& status) const {
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message message{status.MPI_SOURCE, Tag(status.MPI_TAG), std::vector<std::uint8_t>(std::size_t(count))};
  check(MPI_Recv(message.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return message;
}

std::optional<Message> MpiWorld::poll() const {
  int arrived = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status), "MPI_Iprobe");
  if (!arrived) return std::nullopt;
  return receive_probed(status);
}

Message MpiWorld::receive() const {
  while (true) {
    if (std::optional<Message> message = poll()) return std::move(*message);
    std::this_thread::sleep_for(poll_interval);
  }
}

void put_u32(std::vector<std::uint8_t>& bytes, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes.push_back(std::uint8_t(value >> (8 * i)));
}

void put_bytes(std::vector<std::uint8_t>& bytes, const std::uint8_t* data, std::size_t size) {
  bytes.insert(bytes.end(), data, data + size);
}

std::uint32_t MessageReader::u32() {
  const std::uint8_t* p = bytes(4);
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

const std::uint8_t* MessageReader::bytes(std::size_t size) {
  if (size > left()) throw std::runtime_error("a message from another rank is shorter than its contents say");
  const std::uint8_t* p = bytes_.data() + offset_;
  offset_ += size;
  return p;
}

}  // namespace sprig_plot
