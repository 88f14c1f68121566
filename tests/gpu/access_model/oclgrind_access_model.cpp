// A model of how a GPU's memory system sees a kernel's loads and stores, run inside Oclgrind (an
// OpenCL simulator) as a plugin: no GPU needed. NVIDIA's GPUs (and AMD's alike) serve a warp's
// global load or store instruction as the set of 32-byte sectors its 32 lanes touch, so a
// kernel's global traffic is the sectors of its warp-wide requests, and its efficiency the bytes
// it asked for over the bytes those sectors hold (Nsight Compute's "sectors per request"). Local
// (shared) memory has 32 banks of 4-byte words: a request takes as many passes (wavefronts) as
// the most distinct words it touches in one bank, and at best its distinct words over 32 (Nsight's
// bank conflicts are the difference). A warp here is 32 consecutive work-items of a group (local
// ids in row-major order), and one of its requests is one load or store instruction executed by
// its items for the k-th time each: Oclgrind runs items one by one, so a warp's lockstep is
// rebuilt from that count (exact where a warp's items run the same path, as in full groups; items
// that leave a loop early, in a partial last group, shift the later counts of the others, so a
// few requests there are split). A request is counted against the buffer of its lowest address
// (requests here touch one). One kernel runs at a time (ripple's tests and survey use one
// stream). A local array's banks are counted from its own start (Oclgrind gives
// each its own buffer, whose number sits in bits that leave the bank alone): a request of one
// array is shifted across the banks alike by wherever a GPU puts the array.
//
// Loaded with OCLGRIND_PLUGINS=<this library>; each kernel launch appends one JSON line to the
// file named by RIPPLE_ACCESS_MODEL_LOG (nothing without it): the kernel's name and sizes; per
// global buffer (Oclgrind's buffer number, an address's top 16 bits, and its bytes), the loads'
// and the stores' requests, bytes asked for (each distinct address once), 32-byte sectors and
// 128-byte lines; and ("shared") for local memory, the loads and stores' requests, their least wavefronts
// and their wavefronts. tests/gpu/access_model/access_log.hpp reads it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "oclgrind_abi.hpp"

namespace {

constexpr std::size_t kWarpItems = 32;
constexpr std::size_t kSectorBytes = 32;
constexpr std::size_t kLineBytes = 128;
constexpr std::size_t kBanks = 32;
constexpr std::size_t kBankBytes = 4;
// Oclgrind keeps a buffer's number in an address's top bits (16 of 64)
constexpr unsigned kBufferShift = 48;

struct Traffic {
  std::uint64_t requests = 0, bytes = 0, sectors = 0, lines = 0;
};

// Local memory requests and the bank passes they take
struct LocalTraffic {
  std::uint64_t requests = 0, least_wavefronts = 0, wavefronts = 0;
};

struct BufferTraffic {
  std::size_t size = 0;  // the buffer's bytes
  Traffic load, store;
};

// One warp-wide request: the addresses its items asked for, and the access's size
struct Request {
  std::vector<std::size_t> addresses;
  std::size_t size = 0;
};

// Distinct units of `unit` bytes covering [a, a + size) for each address a (sorted, distinct)
std::uint64_t units_touched(const std::vector<std::size_t>& addresses, std::size_t size, std::size_t unit) {
  std::uint64_t count = 0;
  std::size_t next = 0;  // the first unit not yet counted
  for (std::size_t a : addresses)
    for (std::size_t u = std::max(a / unit, next); u <= (a + size - 1) / unit; ++u) {
      ++count;
      next = u + 1;
    }
  return count;
}

// The passes of one local request: the most distinct words in one bank, and at least the
// distinct words over the banks
void count_banks(const std::vector<std::size_t>& addresses, std::size_t size, LocalTraffic& t) {
  std::vector<std::size_t> words;
  for (std::size_t a : addresses)
    for (std::size_t w = a / kBankBytes; w <= (a + size - 1) / kBankBytes; ++w) words.push_back(w);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::size_t per_bank[kBanks] = {};
  std::size_t most = 0;
  for (std::size_t w : words) most = std::max(most, ++per_bank[w % kBanks]);
  ++t.requests;
  t.least_wavefronts += (words.size() + kBanks - 1) / kBanks;
  t.wavefronts += most;
}

class AccessModel final : public oclgrind::Plugin {
 public:
  explicit AccessModel(const oclgrind::Context* context) : oclgrind::Plugin(context) {
    if (const char* path = std::getenv("RIPPLE_ACCESS_MODEL_LOG")) log_path_ = path;
  }

  // Kernels one group at a time (the requests of a group are folded when it completes); host
  // calls such as allocations may come from other threads (sizes_mutex_).
  bool isThreadSafe() const override { return false; }

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override {
    kernel_ = invocation->getKernel()->getName();
    local_ = invocation->getLocalSize();
    global_ = invocation->getGlobalSize();
    buffers_.clear();
    local_load_ = local_store_ = {};
  }

  void memoryAllocated(const oclgrind::Memory* memory, std::size_t address, std::size_t size, std::uint64_t,
                       const std::uint8_t*) override {
    if (memory->getAddressSpace() != oclgrind::kAddressSpaceGlobal) return;
    const std::lock_guard<std::mutex> lock(sizes_mutex_);
    sizes_[address >> kBufferShift] = size;
  }

  void workGroupBegin(const oclgrind::WorkGroup* group) override {
    const oclgrind::Size3 size = group->getGroupSize();
    executions_.assign(size.x * size.y * size.z, {});
    requests_.clear();
  }

  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, std::size_t address,
                  std::size_t size) override {
    record(memory, item, address, size, false);
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, std::size_t address,
                   std::size_t size, const std::uint8_t*) override {
    record(memory, item, address, size, true);
  }

  void workGroupComplete(const oclgrind::WorkGroup*) override {
    for (auto& [key, request] : requests_) {
      auto& addresses = request.addresses;
      std::sort(addresses.begin(), addresses.end());
      addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
      if (std::get<0>(key)) {
        count_banks(addresses, request.size, std::get<4>(key) ? local_store_ : local_load_);
        continue;
      }
      const std::uint64_t id = addresses.front() >> kBufferShift;
      BufferTraffic& buffer = buffers_[id];
      {
        const std::lock_guard<std::mutex> lock(sizes_mutex_);
        buffer.size = sizes_[id];
      }
      Traffic& t = std::get<4>(key) ? buffer.store : buffer.load;
      ++t.requests;
      t.bytes += addresses.size() * request.size;
      t.sectors += units_touched(addresses, request.size, kSectorBytes);
      t.lines += units_touched(addresses, request.size, kLineBytes);
    }
    requests_.clear();
  }

  void kernelEnd(const oclgrind::KernelInvocation*) override {
    if (log_path_.empty()) return;
    const auto list = [](std::initializer_list<std::uint64_t> values) {
      std::string text = "[";
      for (std::uint64_t v : values) text += (text.size() > 1 ? "," : "") + std::to_string(v);
      return text + "]";
    };
    std::string line = "{\"kernel\":\"" + kernel_ + "\",\"global\":" + list({global_.x, global_.y, global_.z}) +
                       ",\"local\":" + list({local_.x, local_.y, local_.z}) + ",\"buffers\":[";
    for (const auto& [id, b] : buffers_) {
      if (line.back() == '}') line += ',';
      line += "{\"id\":" + std::to_string(id) + ",\"size\":" + std::to_string(b.size) +
              ",\"load\":" + list({b.load.requests, b.load.bytes, b.load.sectors, b.load.lines}) +
              ",\"store\":" + list({b.store.requests, b.store.bytes, b.store.sectors, b.store.lines}) + "}";
    }
    line += "],\"shared\":{\"load\":" +
            list({local_load_.requests, local_load_.least_wavefronts, local_load_.wavefronts}) + ",\"store\":" +
            list({local_store_.requests, local_store_.least_wavefronts, local_store_.wavefronts}) + "}}\n";
    if (std::FILE* f = std::fopen(log_path_.c_str(), "a")) {
      std::fputs(line.c_str(), f);
      std::fclose(f);
    }
  }

 private:
  void record(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, std::size_t address, std::size_t size,
              bool store) {
    const unsigned space = memory->getAddressSpace();
    const bool local = space == oclgrind::kAddressSpaceLocal;
    if (!local && space != oclgrind::kAddressSpaceGlobal) return;
    const oclgrind::Size3 id = item->getLocalID();
    const std::size_t linear = id.x + local_.x * (id.y + local_.y * id.z);
    const llvm::Instruction* instruction = item->getCurrentInstruction();
    const std::uint32_t occurrence = executions_[linear][instruction]++;
    Request& r = requests_[{local, linear / kWarpItems, instruction, occurrence, store}];
    r.addresses.push_back(address);
    r.size = size;
  }

  std::string log_path_;
  std::string kernel_;
  oclgrind::Size3 local_{1, 1, 1}, global_{1, 1, 1};
  // Per item of the running group: how many times it has executed each instruction
  std::vector<std::unordered_map<const llvm::Instruction*, std::uint32_t>> executions_;
  // The running group's requests by (local memory, warp, instruction, execution, store)
  std::map<std::tuple<bool, std::size_t, const llvm::Instruction*, std::uint32_t, bool>, Request> requests_;
  std::map<std::uint64_t, BufferTraffic> buffers_;
  // Every global buffer's bytes, by number: allocations come from the host's threads (ripple
  // makes tables while a program compiles), kernels from Oclgrind's worker.
  std::mutex sizes_mutex_;
  std::unordered_map<std::uint64_t, std::size_t> sizes_;
  LocalTraffic local_load_, local_store_;
};

AccessModel* model = nullptr;

}  // namespace

extern "C" {
// The entry points Oclgrind looks up in a plugin library
void initializePlugins(oclgrind::Context* context) {
  model = new AccessModel(context);
  context->registerPlugin(model);
}

void releasePlugins(oclgrind::Context* context) {
  context->unregisterPlugin(model);
  delete model;
  model = nullptr;
}
}
