// Scratch memory allocated on the spot or left for a work area of the caller's (scratch.hpp).
#include "gpu/scratch.hpp"

namespace ripple::gpu {
namespace {

thread_local ScratchPieces* collecting = nullptr;

std::size_t aligned(std::size_t bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; }

}  // namespace

std::size_t ScratchPieces::bytes() const {
  std::size_t total = 0;
  for (const Memory* m : pieces) total += aligned(m->bytes());
  return total;
}

void ScratchPieces::bind(const Memory& area) const {
  std::size_t offset = 0;
  for (Memory* m : pieces) {
    m->bind_to(area, offset);
    offset += aligned(m->bytes());
  }
}

CollectScratch::CollectScratch(ScratchPieces& pieces) : previous_(collecting) { collecting = &pieces; }
CollectScratch::~CollectScratch() { collecting = previous_; }

std::unique_ptr<Memory> allocate_scratch(Context& context, std::size_t bytes) {
  std::unique_ptr<Memory> m =
      collecting && collecting->deferred ? context.placeholder(bytes) : context.allocate(bytes);
  if (collecting) collecting->pieces.push_back(m.get());
  return m;
}

}  // namespace ripple::gpu
