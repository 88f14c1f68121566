// libFuzzer target for the sample-stream readers: the first byte picks the reader (SigMF
// metadata JSON, a sound file through libsndfile, raw samples in a format the second byte picks,
// a streaming npy), the rest is the file. Every input must either be read to its end or be
// refused with ripple::Error (IoError, InvalidArgument, Unsupported). A crash, a sanitizer
// report, another exception or a huge allocation is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/npy_stream.hpp"
#include "io/raw_stream.hpp"
#include "io/sound_file.hpp"
#include "ripple/error.hpp"
#include "ripple/io/samples.hpp"
#include "ripple/io/sigmf.hpp"

namespace {

using namespace ripple::io;

// Reads every frame; checks what came out is consistent with what the reader promised.
void drain(SampleReader& r) {
  const std::size_t vpf = r.info().values_per_frame();
  if (vpf == 0) std::abort();
  std::vector<float> block(97 * vpf);
  std::uint64_t frames = 0;
  while (const std::size_t n = r.read(block)) {
    if (n > 97) std::abort();
    frames += n;
  }
  if (r.info().frames && frames != *r.info().frames) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const auto bytes = std::as_bytes(std::span(data + 2, size - 2));
  try {
    switch (data[0] % 4) {
      case 0: {
        const SigmfMeta meta = parse_sigmf_meta(
            std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        if (meta.channels == 0 || (meta.sample_rate && !(*meta.sample_rate > 0))) std::abort();
        // What was accepted must survive a round trip through the writer's format.
        const SigmfMeta again = parse_sigmf_meta(format_sigmf_meta(meta, "fuzz"));
        if (again.format != meta.format || again.channels != meta.channels) std::abort();
        break;
      }
      case 1: {
        ReadOptions o;
        o.iq = data[1] & 1;
        auto r = ripple::io::detail::open_sound_memory(bytes, o);
        drain(*r);
        break;
      }
      case 2: {
        const auto format = static_cast<SampleFormat>(data[1] % 12);
        ripple::io::detail::RawReader r(ripple::io::detail::memory_input(bytes), format, 1 + (data[1] >> 4) % 3,
                                        data[1] & 8, false);
        drain(r);
        break;
      }
      case 3: {
        ReadOptions o;
        o.iq = data[1] & 1;
        auto r = ripple::io::detail::open_npy_reader(ripple::io::detail::memory_input(bytes), o);
        drain(*r);
        break;
      }
    }
  } catch (const ripple::Error&) {
  }
  return 0;
}
