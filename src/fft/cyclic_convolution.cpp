#include "fft/cyclic_convolution.hpp"

namespace ripple::fft::detail {

template <class T>
CyclicConvolution<T>::CyclicConvolution(core::AlignedVector<std::complex<double>> kernel, unsigned threads) {
  const std::size_t m = kernel.size();
  plan_c2c<double>(m, true, 1, threads)->execute(kernel.data(), kernel.data(), Layout{}, 1.0 / double(m), threads);
  spectrum.resize(m);
  for (std::size_t k = 0; k < m; ++k) spectrum[k] = {static_cast<T>(kernel[k].real()), static_cast<T>(kernel[k].imag())};
  forward = plan_c2c<T>(m, true, 1, threads);
  backward = plan_c2c<T>(m, false, 1, threads);
}

template <class T>
void CyclicConvolution<T>::apply(std::complex<T>* a, unsigned threads) const {
  apply(a, threads, [](const std::complex<T>*) {});
}

template struct CyclicConvolution<float>;
template struct CyclicConvolution<double>;

}  // namespace ripple::fft::detail
