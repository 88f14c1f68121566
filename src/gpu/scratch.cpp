// Scratch memory allocated on the spot or left for a work area of the caller's (scratch.hpp).
#include "gpu/scratch.hpp"

#include <algorithm>

namespace ripple::gpu {
namespace {

thread_local ScratchPieces* collecting = nullptr;
thread_local std::size_t current_step = 0;  // of the collecting pieces; 0 outside any step

std::size_t aligned(std::size_t bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; }

// Calls place(piece, offset) for each piece at its offset in the work area; returns the area's bytes.
template <class Place>
std::size_t lay_out(const ScratchPieces& s, Place place) {
  std::size_t whole_run = 0;
  for (const ScratchPieces::Piece& p : s.pieces) {
    if (p.step != 0) continue;
    place(p, whole_run);
    whole_run += aligned(p.memory->bytes());
  }
  std::vector<std::size_t> step_end(s.steps + 1, whole_run);
  for (const ScratchPieces::Piece& p : s.pieces) {
    if (p.step == 0) continue;
    place(p, step_end[p.step]);
    step_end[p.step] += aligned(p.memory->bytes());
  }
  return *std::max_element(step_end.begin(), step_end.end());
}

}  // namespace

std::size_t ScratchPieces::bytes() const {
  return lay_out(*this, [](const Piece&, std::size_t) {});
}

void ScratchPieces::bind(const Memory& area) const {
  lay_out(*this, [&](const Piece& p, std::size_t offset) { p.memory->bind_to(area, offset); });
}

CollectScratch::CollectScratch(ScratchPieces& pieces) : previous_(collecting), previous_step_(current_step) {
  collecting = &pieces;
  current_step = 0;
}
CollectScratch::~CollectScratch() {
  collecting = previous_;
  current_step = previous_step_;
}

ScratchStep::ScratchStep() : previous_(current_step) {
  if (collecting && current_step == 0) current_step = ++collecting->steps;
}
ScratchStep::~ScratchStep() { current_step = previous_; }

bool scratch_deferred() { return collecting && collecting->deferred; }

std::unique_ptr<Memory> allocate_scratch(Context& context, std::size_t bytes) {
  std::unique_ptr<Memory> m = scratch_deferred() ? context.placeholder(bytes) : context.allocate(bytes);
  if (collecting) collecting->pieces.push_back({m.get(), current_step});
  return m;
}

void list_scratch(Memory& memory) {
  if (collecting) collecting->pieces.push_back({&memory, 0});
}

}  // namespace ripple::gpu
