// Launch logic of the single-pass device scan.
#include "gpu/device_scan.hpp"

#include "gpu/tuning.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

namespace {

ScanConfig with_defaults(ScanConfig c) {
  if (c.block == 0) c.block = tuning::kScanBlock;
  if (c.items == 0) c.items = c.op == ScanOp::sum ? tuning::kScanItemsSum : tuning::kScanItemsAffine2;
  if (c.block % 32 != 0 || c.block > 1024)
    throw InvalidArgument("DeviceScan: block " + std::to_string(c.block) +
                          " is not a multiple of the warp size 32 up to 1024");
  if (c.items > 64) throw InvalidArgument("DeviceScan: items " + std::to_string(c.items) + " exceeds 64");
  return c;
}

}  // namespace

ProgramSpec DeviceScan::program(const ScanConfig& config) {
  const ScanConfig c = with_defaults(config);
  ProgramSpec spec;
  spec.files = {"dialect.h",          c.op == ScanOp::sum ? "scan_op_sum.h" : "scan_op_affine2.h",
                "warp_scan.h",        "block_scan.h",
                "block_load_store.h", "look_back.h",      "device_scan.cl"};
  spec.defines = {{"RIPPLE_DOUBLE", c.double_precision ? "1" : "0"},
                  {"BLOCK", std::to_string(c.block)},
                  {"ITEMS", std::to_string(c.items)}};
  if (c.no_shuffle) spec.defines.push_back({"RIPPLE_NO_SHUFFLE", "1"});
  if (c.test_prefix_every > 0)
    spec.defines.push_back({"SCAN_TEST_PREFIX_EVERY", std::to_string(c.test_prefix_every)});
  return spec;
}

DeviceScan::DeviceScan(Context& context, const ScanConfig& config) {
  const ScanConfig c = with_defaults(config);
  if (c.block > context.facts().max_work_group)
    throw InvalidArgument("DeviceScan: block " + std::to_string(c.block) + " exceeds the work-group limit " +
                          std::to_string(context.facts().max_work_group) + " of " + context.facts().name);
  if (c.double_precision && !context.facts().fp64)
    throw Unsupported("device " + context.facts().name + " has no double precision");
  words_ = c.op == ScanOp::sum ? 1 : 6;
  real_bytes_ = c.double_precision ? 8 : 4;
  // Local memory of the kernel: the staged tile, the block scan's scratch and warp totals, the
  // look-back's window, the tile number.
  const std::uint64_t local = (std::uint64_t(c.block) * c.items + c.block + c.block / 32) * words_ * real_bytes_ +
                              look_back_local_bytes(words_ * real_bytes_) + 4;
  if (local > context.facts().local_memory)
    throw InvalidArgument("DeviceScan: block " + std::to_string(c.block) + " x items " +
                          std::to_string(c.items) + " needs " + std::to_string(local) +
                          " bytes of local memory, " + context.facts().name + " has " +
                          std::to_string(context.facts().local_memory));
  block_ = c.block;
  items_ = c.items;
  module_ = get_module(context, program(c));
}

DeviceScan::Workspace DeviceScan::workspace(Context& context, std::uint64_t max_n) const {
  const std::uint64_t tiles = std::max<std::uint64_t>(1, (max_n + tile() - 1) / tile());
  if (tiles >= 0xffffffffULL)
    throw InvalidArgument("DeviceScan: " + std::to_string(max_n) + " values need more than 2^32 tiles");
  Workspace w;
  w.max_n = max_n;
  w.state = context.allocate((1 + tiles) * sizeof(std::uint32_t));
  w.values = context.allocate(2 * tiles * words_ * real_bytes_);
  return w;
}

void DeviceScan::run(Stream& stream, const Memory& in, Memory& out, std::uint64_t n, Workspace& w) const {
  if (n == 0) return;
  if (n > w.max_n)
    throw InvalidArgument("DeviceScan: n " + std::to_string(n) + " exceeds the workspace's " +
                          std::to_string(w.max_n));
  const std::uint64_t bytes = n * words_ * real_bytes_;
  if (in.bytes() < bytes || out.bytes() < bytes)
    throw InvalidArgument("DeviceScan: n " + std::to_string(n) + " values need " + std::to_string(bytes) +
                          " bytes, buffers hold " + std::to_string(in.bytes()) + " (in) and " +
                          std::to_string(out.bytes()) + " (out)");
  const std::uint64_t tiles = (n + tile() - 1) / tile();
  stream.zero(*w.state, 0, (1 + tiles) * sizeof(std::uint32_t));
  Launch grid;
  grid.groups = {static_cast<std::uint32_t>(tiles), 1, 1};
  grid.block = {block_, 1, 1};
  const Arg args[] = {Arg::memory(in), Arg::memory(out), Arg::value(n), Arg::memory(*w.state),
                      Arg::memory(*w.values)};
  stream.launch(*module_, "device_inclusive_scan", grid, args);
}

}  // namespace ripple::gpu
