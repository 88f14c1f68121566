#include "fft/cyclic_convolution.hpp"

#include <algorithm>

#include "core/scratch.hpp"
#include "fft/four_step_convolution.hpp"

namespace ripple::fft::detail {

template <class T>
CyclicConvolution<T>::CyclicConvolution(core::AlignedVector<std::complex<double>> kernel, unsigned threads)
    : m_(kernel.size()) {
  plan_c2c<double>(m_, true, 1, threads)->execute(kernel.data(), kernel.data(), Layout{}, 1.0 / double(m_), threads);
  fused_ = FourStepConvolution<T>::make(kernel, threads);
  if (fused_ != nullptr) return;
  spectrum_.resize(m_);
  for (std::size_t k = 0; k < m_; ++k) spectrum_[k] = {static_cast<T>(kernel[k].real()), static_cast<T>(kernel[k].imag())};
  forward_ = plan_c2c<T>(m_, true, 1, threads);
  backward_ = plan_c2c<T>(m_, false, 1, threads);
}

template <class T>
CyclicConvolution<T>::~CyclicConvolution() = default;

template <class T>
std::complex<T> CyclicConvolution<T>::apply(const ConvolutionIo<T>& io, unsigned threads) const {
  if (fused_ != nullptr) return fused_->apply(io, threads);
  core::Scratch scratch;
  std::complex<T>* a = scratch.get<std::complex<T>>(m_);
  io.load(0, io.inputs, a);
  std::fill(a + io.inputs, a + m_, std::complex<T>(0));
  forward_->execute(a, a, Layout{}, T(1), threads);
  const std::complex<T> bin0 = a[0];
  for (std::size_t k = 0; k < m_; ++k) a[k] *= spectrum_[k];
  backward_->execute(a, a, Layout{}, T(1), threads);
  io.store(0, io.outputs, a);
  return bin0;
}

template <class T>
std::string CyclicConvolution<T>::describe() const {
  return fused_ != nullptr ? fused_->describe() : forward_->describe();
}

template class CyclicConvolution<float>;
template class CyclicConvolution<double>;

}  // namespace ripple::fft::detail
