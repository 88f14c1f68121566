// DeviceError carries the runtime's message, on every GPU device (OpenCL and CUDA wording): the
// compiler log of a kernel with a syntax error, an allocation over the device's limit, a launch
// the device refuses, a kernel name the program lacks.
#include <gtest/gtest.h>

#include "gpu/program.hpp"
#include "gpu_test_util.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {
namespace {

class GpuErrors : public test::GpuTest {};
RIPPLE_INSTANTIATE_FOR_EACH_GPU(GpuErrors);

TEST_P(GpuErrors, SyntaxErrorGivesTheCompilerLog) {
  Context* ctx = &this->ctx();
  ProgramSpec spec{{"dialect.h"},
                   {{"RIPPLE_DOUBLE", "0"}},
                   "KERNEL broken(GLOBAL real_t* x) {\n  x[0] = undeclared_thing;\n}\n"};
  try {
    get_module(*ctx, spec);
    FAIL() << "built a kernel with an error";
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(is_cuda() ? "NVRTC" : "CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared_thing"), std::string::npos) << msg;                  // from the log
    EXPECT_NE(msg.find(is_cuda() ? "extra(2)" : "extra:2"), std::string::npos) << msg;  // file and line
    EXPECT_NE(msg.find("dialect.h RIPPLE_DOUBLE=0"), std::string::npos) << msg;         // the program
  }
}

TEST_P(GpuErrors, AllocationOverTheLimitNamesTheSize) {
  Context* ctx = &this->ctx();
  const std::size_t too_big = ctx->facts().max_allocation * 2 + 12345;
  try {
    ctx->allocate(too_big);
    FAIL() << "allocated " << too_big << " bytes";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(too_big) + " bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(is_cuda() ? "cudaErrorMemoryAllocation" : "CL_INVALID_BUFFER_SIZE"),
              std::string::npos)
        << e.what();
  }
}

TEST_P(GpuErrors, RefusedLaunchAndMissingKernelAreDeviceErrors) {
  Context* ctx = &this->ctx();
  ProgramSpec spec{{"dialect.h"},
                   {{"RIPPLE_DOUBLE", "0"}},
                   "KERNEL fill(GLOBAL real_t* x) { x[GLOBAL_ID(0)] = (real_t)LOCAL_ID(0); }\n"};
  auto module = get_module(*ctx, spec);
  auto stream = ctx->create_stream();
  auto mem = ctx->allocate(1 << 20);
  const Arg args[] = {Arg::memory(*mem)};
  Launch grid;
  grid.groups = {2, 1, 1};
  grid.block = {static_cast<std::uint32_t>(ctx->facts().max_work_group * 2), 1, 1};
  try {
    stream->launch(*module, "fill", grid, args);
    stream->synchronize();
    FAIL() << "launched work-groups over the device limit";
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel fill (groups 2x1x1, block " + std::to_string(grid.block[0]) + "x1x1)"),
              std::string::npos)
        << what;
    // The driver's own code beside it. CUDA: cudaErrorInvalidValue on an H200 (driver 580, CUDA
    // 13, kernels from cudaLibraryLoadData); cudaErrorInvalidConfiguration is the documented one.
    if (is_cuda())
      EXPECT_TRUE(what.find("cudaErrorInvalidValue") != std::string::npos ||
                  what.find("cudaErrorInvalidConfiguration") != std::string::npos)
          << what;
    else
      EXPECT_NE(what.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << what;
  }
  try {
    stream->launch(*module, "no_such_kernel", Launch{}, args);
    FAIL();
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos) << e.what();
  }
  // The stream still works after refused launches.
  grid.block = {64, 1, 1};
  stream->launch(*module, "fill", grid, args);
  stream->synchronize();
  std::vector<float> back(128);
  stream->download(*mem, 0, back.data(), back.size() * sizeof(float));
  EXPECT_EQ(back[70], 6.0f);
}

}  // namespace
}  // namespace ripple::gpu
