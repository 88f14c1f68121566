#include "iir/plan_cache.hpp"

#include <algorithm>
#include <cstring>
#include <list>
#include <mutex>
#include <vector>

#include "iir/tuning.hpp"

namespace ripple::iir::detail {
namespace {

// Plans held (a few megabytes at most: the largest table is the free response, 2K rows of at
// most tuning::kFusedScanRows values).
constexpr std::size_t kHeldPlans = 8;

// Which tables make_sos_plan builds for lines this long: the plans of one tier are the same.
int tables_tier(std::size_t longest_line) {
  if (longest_line < tuning::kScanTablesFrom) return 0;
  return longest_line < tuning::kFusedScanTablesFrom ? 1 : 2;
}

template <class T, class S>
class PlanCache {
 public:
  std::shared_ptr<const SosPlan<T>> get(const BasicSos<S>& sos, std::size_t longest_line) {
    Key key{std::vector<S>(sos.size() * 6), tables_tier(longest_line)};
    for (std::size_t s = 0; s < sos.size(); ++s) std::copy(sos[s].begin(), sos[s].end(), key.coef.begin() + 6 * s);
    {
      std::lock_guard lock(mutex_);
      for (auto it = held_.begin(); it != held_.end(); ++it) {
        if (it->first == key) {
          held_.splice(held_.begin(), held_, it);  // most recently used first
          return held_.front().second;
        }
      }
    }
    // Built outside the lock: other threads' lookups do not wait for it.
    auto plan = std::make_shared<const SosPlan<T>>(make_sos_plan<T>(sos, longest_line));
    std::lock_guard lock(mutex_);
    held_.emplace_front(std::move(key), plan);
    if (held_.size() > kHeldPlans) held_.pop_back();
    return plan;
  }

 private:
  struct Key {
    std::vector<S> coef;
    int tier;
    // Bitwise, so that -0.0 and 0.0 (rounded differently in a product) are not confused.
    bool operator==(const Key& other) const {
      return tier == other.tier && coef.size() == other.coef.size() &&
             std::memcmp(coef.data(), other.coef.data(), coef.size() * sizeof(S)) == 0;
    }
  };
  std::mutex mutex_;
  std::list<std::pair<Key, std::shared_ptr<const SosPlan<T>>>> held_;
};

}  // namespace

template <class T, class S>
std::shared_ptr<const SosPlan<T>> cached_sos_plan(const BasicSos<S>& sos, std::size_t longest_line) {
  static PlanCache<T, S> cache;
  return cache.get(sos, longest_line);
}

template std::shared_ptr<const SosPlan<float>> cached_sos_plan<float, float>(const BasicSos<float>&, std::size_t);
template std::shared_ptr<const SosPlan<double>> cached_sos_plan<double, double>(const BasicSos<double>&, std::size_t);
template std::shared_ptr<const SosPlan<double>> cached_sos_plan<double, float>(const BasicSos<float>&, std::size_t);
template std::shared_ptr<const SosPlan<float>> cached_sos_plan<float, double>(const BasicSos<double>&, std::size_t);

}  // namespace ripple::iir::detail
