// The one-shot upfirdn's engine, shared with resample_poly: any range of upfirdn's outputs
// along one axis of an n-D array, straight into the caller's array.
#pragma once

#include <cstddef>

#include "fir/polyphase.hpp"
#include "ripple/array.hpp"
#include "ripple/sample.hpp"

namespace ripple::fir::detail {

/// y's lines along `axis` (y has x's shape but for that axis) receive outputs
/// [k_begin, k_begin + y.shape[axis]) of upfirdn(h, x), h in polyphase form; outputs past
/// upfirdn's own length continue the convolution of the zero-extended signal.
template <Sample R>
void upfirdn_lines(const Polyphase<typename ripple::detail::real_of<R>::type>& poly, ArrayView<const R> x,
                   std::size_t axis, std::size_t k_begin, Array<R>& y);

}  // namespace ripple::fir::detail
