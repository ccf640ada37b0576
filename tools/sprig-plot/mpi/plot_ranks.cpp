// `sprig-plot plot` under mpirun. Rank 0 opens the file, plots on its own devices and deals
// records to every rank that asks, one per request, so a slower rank gets fewer; its writer
// thread serves the other ranks' messages while it waits for the next record in order
// (plot_records.cpp), so the file is the same bytes as one process writes. The other ranks
// plot on their own devices: each worker asks rank 0 for a record, plots it and sends it back.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

#include "../injected_fault.hpp"
#include "../plot_records.hpp"
#include "mpi_commands.hpp"
#include "other_ranks.hpp"
#include "plot_messages.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

// Rank 0's side: each other rank is one device of rank 0's RecordDealer.
class RemoteRanks final : public RemoteWorkers {
 public:
  RemoteRanks(const MpiWorld& world, std::vector<std::uint32_t> workers)
      : world_(world), ranks_(world), workers_(std::move(workers)), requests_(workers_.size()) {}

  std::vector<std::string> names() const override {
    std::vector<std::string> names;
    for (int r = 1; r < world_.size(); ++r) names.push_back(world_.name(r));
    return names;
  }
  std::uint32_t workers() const override {
    std::uint32_t n = 0;
    for (std::size_t r = 1; r < workers_.size(); ++r) n += workers_[r];
    return n;
  }

  void serve(RecordDealer& dealer, std::size_t first_device, const std::vector<pos::Seed>& seeds) override {
    while (std::optional<Message> message = world_.poll()) {
      const int from = message->from;
      switch (message->tag) {
        case Tag::Take: ++requests_[std::size_t(from)]; break;
        case Tag::Deliver: {
          auto [record, result] = decode_delivery(message->bytes);
          dealer.deliver(first_device + std::size_t(from) - 1, record, std::move(result));
          break;
        }
        case Tag::Failed:
          throw std::runtime_error(world_.name(from) + " failed: " +
                                   std::string(message->bytes.begin(), message->bytes.end()));
        case Tag::Bye: ranks_.said_bye(from); break;
        default: break;
      }
    }
    for (int r = 1; r < world_.size(); ++r) {
      std::uint32_t& waiting = requests_[std::size_t(r)];
      while (waiting > 0) {
        const RecordDealer::Deal deal = dealer.take(first_device + std::size_t(r) - 1, /*wait=*/false);
        if (deal.kind == RecordDealer::Deal::Later) break;
        if (deal.kind == RecordDealer::Deal::Record)
          world_.send(r, Tag::Deal, encode_deal(deal.record, seeds[deal.record]));
        else
          world_.send(r, Tag::Done);
        --waiting;
      }
    }
  }

  void finish(bool failed) noexcept override {
    // Requests already received get their answer here; later ones in end().
    try {
      for (int r = 1; r < world_.size(); ++r)
        for (; requests_[std::size_t(r)] > 0; --requests_[std::size_t(r)]) world_.send(r, Tag::Done);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "sprig-plot: error: ending the job: %s\n", e.what());
    }
    ranks_.end(/*stop=*/failed);
  }

 private:
  const MpiWorld& world_;
  OtherRanks ranks_;
  std::vector<std::uint32_t> workers_;   // per rank
  std::vector<std::uint32_t> requests_;  // per rank: asked for a record, not yet answered
};

// Another rank's side: its workers and its main thread, which alone talks to rank 0.
class RankMailbox {
 public:
  explicit RankMailbox(std::size_t workers) : running_(workers) {}

  // Worker threads: queue a message for rank 0.
  void post(Tag tag, std::vector<std::uint8_t> bytes = {}) {
    std::lock_guard lock(mutex_);
    outbox_.emplace_back(tag, std::move(bytes));
    changed_.notify_all();
  }
  // Worker threads: the next record dealt to this rank, or nullopt when there is none.
  std::optional<std::pair<std::uint32_t, pos::Seed>> next_deal() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !deals_.empty() || dones_ > 0 || stopped_; });
    if (stopped_) return std::nullopt;
    if (dones_ > 0) {
      --dones_;
      return std::nullopt;
    }
    auto deal = deals_.front();
    deals_.pop_front();
    return deal;
  }
  void worker_ended() {
    std::lock_guard lock(mutex_);
    --running_;
    changed_.notify_all();
  }

  // The main thread: what rank 0 answered.
  void answer(const Message& message) {
    std::lock_guard lock(mutex_);
    if (message.tag == Tag::Deal) deals_.push_back(decode_deal(message.bytes));
    if (message.tag == Tag::Done) ++dones_;
    if (message.tag == Tag::Stop) stopped_ = true;
    changed_.notify_all();
  }
  // The main thread: the queued messages, waiting up to `timeout` for one. `finished` once
  // every worker has ended and nothing is left to send.
  std::deque<std::pair<Tag, std::vector<std::uint8_t>>> collect(std::chrono::microseconds timeout, bool& finished) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return !outbox_.empty() || running_ == 0; });
    finished = running_ == 0 && outbox_.empty();
    return std::exchange(outbox_, {});
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<Tag, std::vector<std::uint8_t>>> outbox_;
  std::deque<std::pair<std::uint32_t, pos::Seed>> deals_;
  std::size_t dones_ = 0, running_;
  bool stopped_ = false;
};

void plot_for_rank_0(sprig::Device& device, std::size_t d, const std::string& name, pos::Plotter& plotter,
                     RankMailbox& mailbox,
                     bool& failed) {
  try {
    while (true) {
      mailbox.post(Tag::Take);
      std::optional<std::pair<std::uint32_t, pos::Seed>> deal = mailbox.next_deal();
      if (!deal) break;
      inject_test_faults(d);
      sprig::Sequence sequence = device.sequence();
      plotter.record(sequence, deal->second);
      sequence.run_and_wait();
      mailbox.post(Tag::Deliver, encode_delivery(deal->first, plotter.result()));
    }
  } catch (const std::exception& e) {
    const std::string what = name + ": " + e.what();
    mailbox.post(Tag::Failed, std::vector<std::uint8_t>(what.begin(), what.end()));
    failed = true;
  }
  mailbox.worker_ended();
}

int plot_as_other_rank(MpiWorld& world, LocalPlotters& local) {
  world.gather(local.workers());
  RankMailbox mailbox(local.workers());
  std::vector<std::thread> workers;
  std::deque<bool> failed;  // one flag per worker; a deque keeps their addresses
  for (std::size_t d = 0; d < local.devices.size(); ++d) {
    for (auto& plotter : local.plotters[d]) {
      failed.push_back(false);
      workers.emplace_back(plot_for_rank_0, std::ref(*local.devices[d]), d, std::cref(local.names[d]),
                           std::ref(*plotter), std::ref(mailbox), std::ref(failed.back()));
    }
  }
  bool finished = false;
  while (!finished) {
    for (auto& [tag, bytes] : mailbox.collect(std::chrono::microseconds(200), finished)) world.send(0, tag, bytes);
    while (std::optional<Message> message = world.poll()) mailbox.answer(*message);
  }
  world.send(0, Tag::Bye);
  for (auto& t : workers) t.join();
  // A failure was sent to rank 0, which reports it.
  return std::find(failed.begin(), failed.end(), true) != failed.end() ? 3 : 0;
}

}  // namespace

int run_plot_rank(MpiWorld& world, const PlotOptions& options) {
  if (world.rank() != 0) {
    LocalPlotters local;
    int status = 0;
    std::string error;
    try {
      local = open_local_plotters(options);
    } catch (...) {
      std::tie(status, error) = exit_status_of_current_exception();
    }
    if (const int agreed = world.agree(status, error, plot_identity(options)); agreed != 0) return agreed;
    return plot_as_other_rank(world, local);
  }

  std::optional<ResumableFile> file;
  LocalPlotters local;
  std::vector<pos::Seed> seeds;
  int status = 0;
  std::string error;
  try {
    file.emplace(options.output, plot_identity(options), options.resume);
    local = open_local_plotters(options);
    seeds = plot_seeds(options, *local.devices[0]);
  } catch (...) {
    std::tie(status, error) = exit_status_of_current_exception();
  }
  if (const int agreed = world.agree(status, error, plot_identity(options)); agreed != 0) return agreed;

  RemoteRanks remote(world, world.gather(local.workers()));
  try {
    plot_records(options, *file, local, seeds, &remote);
  } catch (...) {
    report_kept_records(*file);
    throw;
  }
  std::printf("wrote %u records of K = %d (%s rules) to %s with %d ranks\n", options.records, options.k,
              pos::mode_name(options.mode), options.output.c_str(), world.size());
  return 0;
}

}  // namespace sprig_plot
