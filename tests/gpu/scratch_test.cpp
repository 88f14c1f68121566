// src/gpu/scratch: where the pieces of a plan's scratch lie in a work area. The whole run's
// pieces one after another; each step's (gpu::ScratchStep: an N-D plan's axis passes, which run
// one after another) after those, every step from the same byte, so the area is as large as
// the largest step; a step inside another is the outer one. Each piece starts on 4096 bytes.
// Checked with a Context that only records: no device needed.
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpu/scratch.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace {

// Memory that remembers what it was bound to.
class RecordingMemory final : public Memory {
 public:
  RecordingMemory(std::size_t bytes, bool placeholder) : Memory(bytes), placeholder_(placeholder) {}
  void* native_handle() const override { return nullptr; }
  Extent extent() const override { return {}; }
  void bind_to(const Memory& area, std::size_t offset) override {
    ASSERT_TRUE(placeholder_) << "bound an allocated piece";
    ASSERT_LE(offset + bytes(), area.bytes()) << "a piece past the end of the area";
    area_ = &area;
    offset_ = offset;
  }
  bool placeholder() const { return placeholder_; }
  const Memory* area() const { return area_; }
  std::size_t offset() const { return offset_; }

 private:
  bool placeholder_;
  const Memory* area_ = nullptr;
  std::size_t offset_ = 0;
};

// A Context that only hands out RecordingMemory.
class RecordingContext final : public Context {
 public:
  const DeviceFacts& facts() const override { return facts_; }
  std::string binary_identity() const override { return "recording"; }
  std::vector<std::byte> compile(const std::string&, const std::vector<std::string>&, std::unique_ptr<Module>*,
                                 bool) override {
    throw DeviceError("RecordingContext compiles nothing");
  }
  std::unique_ptr<Module> load(std::span<const std::byte>) override { throw DeviceError("RecordingContext loads nothing"); }
  std::unique_ptr<Stream> create_stream() override { throw DeviceError("RecordingContext has no stream"); }
  std::unique_ptr<Memory> wrap_memory(void*, std::size_t, std::size_t) override {
    throw DeviceError("RecordingContext wraps nothing");
  }
  std::unique_ptr<Stream> wrap_stream(void*) override { throw DeviceError("RecordingContext wraps nothing"); }
  std::unique_ptr<Memory> placeholder(std::size_t bytes) override {
    return std::make_unique<RecordingMemory>(bytes, true);
  }
  int allocations = 0;

 protected:
  std::unique_ptr<Memory> allocate_memory(std::size_t bytes) override {
    ++allocations;
    return std::make_unique<RecordingMemory>(bytes, false);
  }

 private:
  DeviceFacts facts_;
};

const RecordingMemory& recorded(const std::unique_ptr<Memory>& m) { return static_cast<const RecordingMemory&>(*m); }

TEST(Scratch, StepsLieOverTheSameBytesAfterTheWholeRunsPieces) {
  RecordingContext context;
  ScratchPieces pieces;
  pieces.deferred = true;
  std::vector<std::unique_ptr<Memory>> m;
  {
    const CollectScratch collect(pieces);
    EXPECT_TRUE(scratch_deferred());
    m.push_back(allocate_scratch(context, 5000));  // whole run: 0 .. 8192
    {
      const ScratchStep first;
      m.push_back(allocate_scratch(context, 100));   // 8192 .. 12288
      m.push_back(allocate_scratch(context, 8193));  // 12288 .. 24576
    }
    {
      const ScratchStep second;
      m.push_back(allocate_scratch(context, 3000));  // 8192 .. 12288
      {
        const ScratchStep inner;                     // the second step's still
        m.push_back(allocate_scratch(context, 10));  // 12288 .. 16384
      }
      m.push_back(allocate_scratch(context, 4096));  // 16384 .. 20480
    }
    m.push_back(allocate_scratch(context, 1));  // whole run again: 4096 .. 8192 once laid out
  }
  EXPECT_FALSE(scratch_deferred());
  EXPECT_EQ(context.allocations, 0);
  EXPECT_EQ(pieces.steps, 2u);
  ASSERT_EQ(pieces.pieces.size(), m.size());
  const std::vector<std::size_t> steps{0, 1, 1, 2, 2, 2, 0};
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(pieces.pieces[i].memory, m[i].get()) << i;
    EXPECT_EQ(pieces.pieces[i].step, steps[i]) << i;
  }
  // Whole run 5000 + 1 -> 8192 + 4096; then the larger step: 4096 + 12288.
  EXPECT_EQ(pieces.bytes(), 12288u + 16384u);
  const std::unique_ptr<Memory> area = context.allocate(pieces.bytes());
  pieces.bind(*area);
  const std::vector<std::size_t> offsets{0, 12288, 16384, 12288, 16384, 20480, 8192};
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(recorded(m[i]).area(), area.get()) << i;
    EXPECT_EQ(recorded(m[i]).offset(), offsets[i]) << i;
  }
}

TEST(Scratch, WithoutStepsEveryPieceHasItsOwnBytes) {
  RecordingContext context;
  ScratchPieces pieces;
  pieces.deferred = true;
  std::vector<std::unique_ptr<Memory>> m;
  {
    const CollectScratch collect(pieces);
    for (const std::size_t bytes : {1, 4096, 4097}) m.push_back(allocate_scratch(context, bytes));
  }
  EXPECT_EQ(pieces.bytes(), 4096u + 4096u + 8192u);
  const std::unique_ptr<Memory> area = context.allocate(pieces.bytes());
  pieces.bind(*area);
  EXPECT_EQ(recorded(m[0]).offset(), 0u);
  EXPECT_EQ(recorded(m[1]).offset(), 4096u);
  EXPECT_EQ(recorded(m[2]).offset(), 8192u);
}

// A plan that owns its scratch allocates each piece on the spot, steps or not, and still lists
// it (its work size); with no collector a step changes nothing. A collector inside another
// (an N-D plan gathering its passes' pieces inside a plan that owns its scratch) starts
// outside any step and gives back the outer one's state.
TEST(Scratch, OwnedPiecesAreAllocatedAndCollectorsNest) {
  RecordingContext context;
  {
    const ScratchStep step;
    EXPECT_FALSE(recorded(allocate_scratch(context, 10)).placeholder());
  }
  ScratchPieces owned;
  std::vector<std::unique_ptr<Memory>> m;
  {
    const CollectScratch collect(owned);
    EXPECT_FALSE(scratch_deferred());
    const ScratchStep step;
    m.push_back(allocate_scratch(context, 100));
    ScratchPieces inner;
    inner.deferred = true;
    {
      const CollectScratch nested(inner);
      EXPECT_TRUE(scratch_deferred());
      m.push_back(allocate_scratch(context, 200));
    }
    EXPECT_FALSE(scratch_deferred());
    ASSERT_EQ(inner.pieces.size(), 1u);
    EXPECT_EQ(inner.pieces[0].step, 0u) << "a nested collector starts outside any step";
    EXPECT_TRUE(recorded(m[1]).placeholder());
    m.push_back(allocate_scratch(context, 300));
  }
  EXPECT_EQ(context.allocations, 3);
  ASSERT_EQ(owned.pieces.size(), 2u);
  EXPECT_EQ(owned.pieces[0].step, 1u);
  EXPECT_EQ(owned.pieces[1].step, 1u) << "the outer collector's step resumes after the nested one";
  EXPECT_FALSE(recorded(m[0]).placeholder());
  EXPECT_FALSE(recorded(m[2]).placeholder());
}

}  // namespace
}  // namespace ripple::gpu
