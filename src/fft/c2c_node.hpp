// A node of a c2c plan tree: something that computes `batch` complex DFTs of one size n with a
// given layout. The planner (planner.cpp) composes nodes: lane-batched panels, four-step,
// Bluestein and Rader (which own child nodes).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <string>

namespace ripple::fft::detail {

/// Where transform b, element e lives: base + b * dist + e * stride (complex units).
struct Layout {
  std::ptrdiff_t in_stride = 1, in_dist = 0;
  std::ptrdiff_t out_stride = 1, out_dist = 0;
  std::size_t batch = 1;
  /// The results are the plan's own output, which the plan does not read again: a large
  /// batch may write them past the cache (C2cWide::kStageOutFromBytes). Not for a node's
  /// results that its parent reads back (a real transform's split, N-D passes).
  bool final_out = false;
};

template <class T>
class C2cNode {
 public:
  explicit C2cNode(std::size_t n) : n_(n) {}
  virtual ~C2cNode() = default;
  std::size_t n() const { return n_; }

  /// Transforms every batch entry; the outputs are multiplied by `scale`. `in` may equal
  /// `out` only with identical in/out layouts (every node reads a whole transform before it
  /// writes any of it).
  virtual void execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                       T scale, unsigned threads) const = 0;
  virtual std::string describe() const = 0;

 private:
  std::size_t n_;
};

template <class T>
using C2cNodePtr = std::unique_ptr<const C2cNode<T>>;

/// Best c2c node for `batch` transforms of size n executed with `threads` threads (chosen by
/// estimated cost).
template <class T>
C2cNodePtr<T> plan_c2c(std::size_t n, bool forward, std::size_t batch, unsigned threads);

/// Estimated cost of one transform of size n with the best algorithm (arbitrary units).
double c2c_cost(std::size_t n, std::size_t lanes);
/// The same, without convolution methods (for sizes that factor into passes).
double smooth_c2c_cost(std::size_t n, std::size_t lanes);

}  // namespace ripple::fft::detail
