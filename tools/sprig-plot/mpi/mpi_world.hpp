// This process as one rank of an mpirun job (Open MPI): MPI's start and end, the other
// ranks' host names, one collective agreement on whether every rank is ready, and tagged
// byte messages; its waits sleep between polls rather than spin on a core another rank of
// the same host may need. Only the thread that made the MpiWorld calls MPI (MPI_THREAD_FUNNELED):
// sprig-plot's main thread talks to the other ranks while worker threads plot.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sprig_plot {

// The messages of sprig-plot's ranks. Rank 0 deals work and writes; the others ask for it.
enum class Tag : int {
  Take = 1,  // rank -> 0: one more record, please
  Deal,      // 0 -> rank: a record (its index and what is needed to work on it)
  Done,      // 0 -> rank: nothing more to deal for that request
  Deliver,   // rank -> 0: a finished record
  Failed,    // rank -> 0: this rank failed (the message)
  Stop,      // 0 -> rank: the job ends; finish what is in flight and say Bye
  Bye,       // rank -> 0: this rank sends nothing more
  Agree,     // rank -> 0: why this rank is not ready (inside agree())
};

struct Message {
  int from = 0;
  Tag tag = Tag::Take;
  std::vector<std::uint8_t> bytes;
};

class MpiWorld {
 public:
  MpiWorld(int& argc, char**& argv);
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // "rank R on HOST", for messages.
  std::string name(int rank) const;

  // Collective: every rank says whether it is ready (status 0) or not (its exit status and
  // error), and what work it is ready for, in words (`work`: the plot, the file). A ready
  // rank whose work differs from rank 0's was given another command line, and is not ready.
  // Rank 0 prints every failure once (a message every rank shares, once for all); every rank
  // gets the first non-zero status in rank order, or 0.
  int agree(int status, const std::string& error, const std::string& work);
  bool agreed() const { return agreed_; }
  // Collective: each rank's value, on rank 0 (empty elsewhere).
  std::vector<std::uint32_t> gather(std::uint32_t value) const;
  // Collective: rank 0's value, on every rank.
  std::vector<std::uint8_t> broadcast(std::vector<std::uint8_t> bytes) const;

  void send(int to, Tag tag, const std::vector<std::uint8_t>& bytes = {}) const;
  // The next message from any rank, if one has arrived.
  std::optional<Message> poll() const;
  // The next message from any rank, waiting for one.
  Message receive() const;

 private:
  Message receive_probed(const MPI_Status& status) const;

  int rank_ = 0, size_ = 1;
  std::vector<std::string> hosts_;
  bool agreed_ = false;
};

// Appends and reads the fixed-width fields of messages (little-endian, as the plot file).
void put_u32(std::vector<std::uint8_t>& bytes, std::uint32_t value);
void put_bytes(std::vector<std::uint8_t>& bytes, const std::uint8_t* data, std::size_t size);

class MessageReader {
 public:
  explicit MessageReader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  std::uint32_t u32();
  // `size` bytes; throws std::runtime_error if the message is shorter.
  const std::uint8_t* bytes(std::size_t size);
  std::size_t left() const { return bytes_.size() - offset_; }

 private:
  const std::vector<std::uint8_t>& bytes_;
  std::size_t offset_ = 0;
};

}  // namespace sprig_plot
