// The IIR example of README.md, compiled and run (keep the two in step).
#include <gtest/gtest.h>

#include <vector>

#include "ripple/iir.hpp"

TEST(IirReadme, ExampleRuns) {
  std::vector<double> signal(1000, 1.0);
  std::vector<float> storage(16 * 500, 1.0f), block(200, 0.5f);
  const float* data = storage.data();
  const std::size_t n = 500;
  // example-begin (README.md)
  ripple::iir::Sos sos = ripple::iir::butter(8, 0.1);                    // scipy's design, 4 sections
  auto y = ripple::iir::sosfilt(sos, signal);                             // std::vector<double> in
  ripple::ArrayView<const float> rows(data, {16, n});                     // 16 channels, one per row
  auto z = ripple::iir::sosfiltfilt(ripple::iir::SosF(sos), rows, -1);    // zero-phase, axis -1
  ripple::iir::Filter<float> live(sos, 2);                                // streaming, 2 channels
  live.process_interleaved(block, block);                                 // stereo frames, in place
  // example-end
  EXPECT_EQ(sos.size(), 4u);
  EXPECT_NEAR(y.back(), 1.0, 1e-6);  // a lowpass with unit DC gain settles at the step's level
  EXPECT_EQ(z.shape, (std::vector<std::size_t>{16, 500}));
  EXPECT_NEAR(z.values[250], 1.0f, 1e-4f);
  EXPECT_GT(block[199], 0.0f);
}
