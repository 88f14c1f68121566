// BasicSos construction from flat numpy-style buffers.
#include "ripple/iir/sos.hpp"

#include <string>

#include "ripple/error.hpp"

namespace ripple::iir {

template <std::floating_point T>
BasicSos<T> BasicSos<T>::from_flat(std::span<const T> values) {
  if (values.empty() || values.size() % 6 != 0) {
    throw InvalidArgument("sos must have shape (n_sections, 6) with n_sections >= 1; got " +
                          std::to_string(values.size()) + " values");
  }
  std::vector<Row> rows(values.size() / 6);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < 6; ++j) rows[i][j] = values[6 * i + j];
  }
  return BasicSos(std::move(rows));
}

template <std::floating_point T>
std::vector<T> BasicSos<T>::flat() const {
  std::vector<T> values;
  values.reserve(rows_.size() * 6);
  for (const auto& r : rows_) values.insert(values.end(), r.begin(), r.end());
  return values;
}

template class BasicSos<float>;
template class BasicSos<double>;

}  // namespace ripple::iir
