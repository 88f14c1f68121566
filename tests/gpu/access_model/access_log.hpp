// The access model's log (oclgrind_access_model.cpp), read back: one Launch per kernel launch,
// its traffic per global buffer and to local memory. Shared by its test (access_model_test.cpp) and the survey
// (fft_access_survey.cpp).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ripple::gpu::access_model {

/// One side (loads or stores) of a kernel's traffic to one buffer
struct Traffic {
  std::uint64_t requests = 0, bytes = 0, sectors = 0, lines = 0;
  /// Bytes asked for over the bytes of the 32-byte sectors touched (1: every sector whole)
  double sector_efficiency() const { return sectors == 0 ? 1.0 : static_cast<double>(bytes) / (32.0 * sectors); }
  /// The same over 128-byte lines
  double line_efficiency() const { return lines == 0 ? 1.0 : static_cast<double>(bytes) / (128.0 * lines); }
  double sectors_per_request() const { return requests == 0 ? 0.0 : static_cast<double>(sectors) / requests; }
};

struct BufferTraffic {
  std::uint64_t id = 0;    ///< Oclgrind's number of the buffer
  std::uint64_t size = 0;  ///< its bytes
  Traffic load, store;
};

/// One side of a kernel's local memory requests: their passes through the 32 banks
struct LocalTraffic {
  std::uint64_t requests = 0;
  std::uint64_t least_wavefronts = 0;  ///< the passes without bank conflicts
  std::uint64_t wavefronts = 0;        ///< the passes the banks take
  /// Passes taken over the least (1: no bank conflicts)
  double conflict_factor() const {
    return least_wavefronts == 0 ? 1.0 : static_cast<double>(wavefronts) / static_cast<double>(least_wavefronts);
  }
};

/// One kernel launch: its traffic per global buffer it touched, and to local memory
struct Launch {
  std::string kernel;
  std::uint64_t global = 0, local = 0;  ///< work-items in all and a group (first dimension)
  std::vector<BufferTraffic> buffers;
  LocalTraffic local_load, local_store;
};

/// The file the model appends to (RIPPLE_ACCESS_MODEL_LOG; empty where unset)
inline std::string log_path() {
  const char* path = std::getenv("RIPPLE_ACCESS_MODEL_LOG");
  return path ? path : "";
}

/// The launches logged since the last call; the log is emptied.
inline std::vector<Launch> take_launches() {
  const auto traffic = [](const nlohmann::json& c) {
    return Traffic{c.at(0).get<std::uint64_t>(), c.at(1).get<std::uint64_t>(), c.at(2).get<std::uint64_t>(),
                   c.at(3).get<std::uint64_t>()};
  };
  std::vector<Launch> launches;
  {
    std::ifstream in(log_path());
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      Launch l{j.at("kernel").get<std::string>(), j.at("global").at(0).get<std::uint64_t>(),
               j.at("local").at(0).get<std::uint64_t>(), {}};
      const auto local_side = [&](const char* side) {
        const auto& c = j.at("shared").at(side);
        return LocalTraffic{c.at(0).get<std::uint64_t>(), c.at(1).get<std::uint64_t>(), c.at(2).get<std::uint64_t>()};
      };
      l.local_load = local_side("load");
      l.local_store = local_side("store");
      for (const auto& b : j.at("buffers"))
        l.buffers.push_back({b.at("id").get<std::uint64_t>(), b.at("size").get<std::uint64_t>(),
                             traffic(b.at("load")), traffic(b.at("store"))});
      launches.push_back(l);
    }
  }
  if (!log_path().empty()) std::ofstream(log_path(), std::ios::trunc);
  return launches;
}

}  // namespace ripple::gpu::access_model
