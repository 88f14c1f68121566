// libsndfile behind SampleReader/SampleWriter. libsndfile parses the headers; around it this file
// checks what the header says (rate, channels, data length against the file) and turns every
// failure into one IoError naming the file.
#include "io/sound_file.hpp"

#include <sndfile.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/raw_stream.hpp"
#include "io/sample_codec.hpp"
#include "ripple/error.hpp"

namespace ripple::io::detail {
namespace {

constexpr int kMaxChannels = 4096;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// libsndfile's major formats: extension -> SF_FORMAT_* (plus the names it is known by).
std::optional<int> major_format_of(const std::string& name) {
  const std::string n = lower(name);
  if (n == "raw") return std::nullopt;  // raw samples are ripple's own
  if (n == "wav" || n == "wave") return SF_FORMAT_WAV;
  if (n == "rf64") return SF_FORMAT_RF64;
  if (n == "ogg" || n == "oga" || n == "opus") return SF_FORMAT_OGG;
  if (n == "aif" || n == "aiff" || n == "aifc") return SF_FORMAT_AIFF;
  int count = 0;
  sf_command(nullptr, SFC_GET_FORMAT_MAJOR_COUNT, &count, sizeof count);
  for (int i = 0; i < count; ++i) {
    SF_FORMAT_INFO f{};
    f.format = i;
    sf_command(nullptr, SFC_GET_FORMAT_MAJOR, &f, sizeof f);
    if (f.extension && n == f.extension) return f.format & SF_FORMAT_TYPEMASK;
  }
  return std::nullopt;
}

bool subtype_is_float(int format) {
  const int sub = format & SF_FORMAT_SUBMASK;
  return sub == SF_FORMAT_FLOAT || sub == SF_FORMAT_DOUBLE;
}

std::optional<SampleFormat> sample_format_of_subtype(int format) {
  switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_S8: return SampleFormat::s8;
    case SF_FORMAT_PCM_U8: return SampleFormat::u8;
    case SF_FORMAT_PCM_16: return SampleFormat::s16;
    case SF_FORMAT_PCM_32: return SampleFormat::s32;
    case SF_FORMAT_FLOAT: return SampleFormat::f32;
    case SF_FORMAT_DOUBLE: return SampleFormat::f64;
    default: return std::nullopt;
  }
}

// Virtual I/O over a memory buffer (libsndfile seeks freely in it).
struct MemoryFile {
  std::span<const std::byte> bytes;
  sf_count_t position = 0;
};
sf_count_t mem_length(void* user) { return static_cast<sf_count_t>(static_cast<MemoryFile*>(user)->bytes.size()); }
sf_count_t mem_seek(sf_count_t offset, int whence, void* user) {
  auto* m = static_cast<MemoryFile*>(user);
  const sf_count_t size = mem_length(user);
  sf_count_t to = whence == SEEK_SET ? offset : whence == SEEK_CUR ? m->position + offset : size + offset;
  m->position = std::clamp<sf_count_t>(to, 0, size);
  return m->position;
}
sf_count_t mem_read(void* dst, sf_count_t count, void* user) {
  auto* m = static_cast<MemoryFile*>(user);
  const sf_count_t n = std::clamp<sf_count_t>(mem_length(user) - m->position, 0, std::max<sf_count_t>(count, 0));
  if (n > 0) std::memcpy(dst, m->bytes.data() + m->position, static_cast<std::size_t>(n));
  m->position += n;
  return n;
}
sf_count_t mem_write(const void*, sf_count_t, void*) { return 0; }
sf_count_t mem_tell(void* user) { return static_cast<MemoryFile*>(user)->position; }

class SoundReader final : public SampleReader {
 public:
  SoundReader(SNDFILE* file, const SF_INFO& sf, std::string name, std::optional<std::uint64_t> file_size,
              const ReadOptions& options, std::unique_ptr<MemoryFile> memory = nullptr)
      : file_(file), name_(std::move(name)), file_size_(file_size), memory_(std::move(memory)),
        allow_nonfinite_(options.allow_nonfinite), is_float_(subtype_is_float(sf.format)) {
    const auto fail = [&](const std::string& what) {
      sf_close(file_);
      file_ = nullptr;
      throw IoError(name_ + ": " + what);
    };
    if (sf.samplerate <= 0) fail("the header gives a sample rate of " + std::to_string(sf.samplerate) + " Hz");
    if (sf.channels <= 0 || sf.channels > kMaxChannels)
      fail("the header gives " + std::to_string(sf.channels) + " channels");
    file_channels_ = static_cast<std::size_t>(sf.channels);
    info_.channels = file_channels_;
    if (options.iq) {
      if (file_channels_ % 2 != 0)
        fail("--iq needs an even number of channels (I/Q pairs), the file has " + std::to_string(sf.channels));
      info_.is_complex = true;
      info_.channels = file_channels_ / 2;
    }
    info_.sample_rate = sf.samplerate;
    info_.source_format = sample_format_of_subtype(sf.format);
    if (info_.source_format && info_.is_complex) info_.source_format = complex_counterpart(*info_.source_format);
    if (sf.frames >= 0 && sf.frames != SF_COUNT_MAX) info_.frames = static_cast<std::uint64_t>(sf.frames);
    check_declared_length(fail);
    if (options.sample_rate && *options.sample_rate != static_cast<double>(sf.samplerate))
      fail("--rate " + std::to_string(*options.sample_rate) + " contradicts the file's " +
           std::to_string(sf.samplerate) + " Hz");
    SF_FORMAT_INFO major{};
    major.format = sf.format & SF_FORMAT_TYPEMASK;
    sf_command(nullptr, SFC_GET_FORMAT_INFO, &major, sizeof major);
    kind_ = major.name ? major.name : "sound";
  }
  ~SoundReader() override {
    if (file_) sf_close(file_);
  }

  std::size_t read(std::span<float> out) override {
    const std::size_t want = out.size() / info_.values_per_frame();
    if (want == 0 || file_ == nullptr) return 0;
    const sf_count_t got = sf_readf_float(file_, out.data(), static_cast<sf_count_t>(want));
    if (got < 0 || sf_error(file_) != SF_ERR_NO_ERROR)
      throw IoError(name_ + ": reading failed: " + sf_strerror(file_));
    const auto frames = static_cast<std::size_t>(got);
    if (is_float_ && !allow_nonfinite_)
      check_finite(out.first(frames * info_.values_per_frame()), info_.values_per_frame(), done_, name_);
    done_ += frames;
    if (frames < want && info_.frames && done_ < *info_.frames)
      throw IoError(name_ + ": truncated: the header promises " + std::to_string(*info_.frames) + " frames, " +
                    std::to_string(done_) + " could be read");
    return frames;
  }
  std::uint64_t bytes_read() const noexcept override {
    if (!info_.frames || !file_size_ || *info_.frames == 0) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(*file_size_) * static_cast<double>(done_) /
                                      static_cast<double>(*info_.frames));
  }
  std::optional<std::uint64_t> bytes_total() const noexcept override { return info_.frames ? file_size_ : std::nullopt; }
  std::string describe() const override { return kind_ + " from " + name_; }

 private:
  // libsndfile clamps a data chunk that claims more bytes than the file holds, and only says so
  // in its log; a header that lies about the length is a corrupt file, so refuse it.
  template <class Fail>
  void check_declared_length(const Fail& fail) {
    char log[4096] = {};
    sf_command(file_, SFC_GET_LOG_INFO, log, sizeof log);
    const std::string text(log);
    for (const char* marker : {"should be", "Bad", "bad ", "truncated", "Unknown chunk marker"}) {
      const std::size_t at = text.find(marker);
      if (at == std::string::npos) continue;
      if (std::string_view(marker) == "Unknown chunk marker") continue;  // extra chunks are fine
      std::size_t start = text.rfind('\n', at);
      start = start == std::string::npos ? 0 : start + 1;
      std::string line = text.substr(start, text.find('\n', at) - start);
      while (!line.empty() && (line.front() == ' ' || line.front() == '*')) line.erase(line.begin());
      fail("corrupt header (libsndfile: " + line + ")");
    }
  }

  SNDFILE* file_;
  std::string name_;
  std::optional<std::uint64_t> file_size_;
  std::unique_ptr<MemoryFile> memory_;
  bool allow_nonfinite_;
  bool is_float_;
  std::size_t file_channels_ = 1;
  std::uint64_t done_ = 0;
  std::string kind_;
};

class SoundWriter final : public SampleWriter {
 public:
  SoundWriter(std::unique_ptr<OutputFile> out, int format, const StreamInfo& info)
      : out_(std::move(out)), values_per_frame_(info.values_per_frame()),
        integer_bits_(integer_bits(format)) {
    SF_INFO sf{};
    sf.samplerate = static_cast<int>(*info.sample_rate);
    sf.channels = static_cast<int>(values_per_frame_);
    sf.format = format;
    const bool wav = (format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV;
    if (wav && !out_->is_stdout()) sf.format = SF_FORMAT_RF64 | (format & SF_FORMAT_SUBMASK);
    if (!sf_format_check(&sf))
      throw InvalidArgument("cannot write " + display_name(out_->path(), true) + ": libsndfile cannot hold " +
                            std::to_string(sf.channels) + " channels in this format and encoding");
    file_ = sf_open_fd(out_->fd(), SFM_WRITE, &sf, out_->is_stdout() ? SF_FALSE : SF_TRUE);
    if (!file_)
      throw IoError("cannot write " + display_name(out_->path(), true) + ": " + sf_strerror(nullptr));
    if (!out_->is_stdout()) out_->release_fd();
    // Files under 4 GiB come out as plain WAV; larger ones as RF64 (a WAV that can be > 4 GiB).
    if (wav && !out_->is_stdout()) sf_command(file_, SFC_RF64_AUTO_DOWNGRADE, nullptr, SF_TRUE);
    sf_command(file_, SFC_SET_CLIPPING, nullptr, SF_TRUE);
    SF_FORMAT_INFO major{};
    major.format = format & SF_FORMAT_TYPEMASK;
    sf_command(nullptr, SFC_GET_FORMAT_INFO, &major, sizeof major);
    kind_ = major.name ? major.name : "sound file";
  }
  ~SoundWriter() override {
    if (file_) sf_close(file_);
  }
  void write(std::span<const float> values) override {
    const auto frames = static_cast<sf_count_t>(values.size() / values_per_frame_);
    sf_count_t written = 0;
    if (integer_bits_ > 0) {
      // libsndfile's own float-to-PCM conversion with clipping truncates (an arithmetic shift
      // of a 32-bit value): round to the target width here, and hand it exact multiples.
      const std::size_t bad = first_nonfinite(values);
      if (bad != values.size())
        throw InvalidArgument(display_name(out_->path(), true) + ": frame " +
                              std::to_string(frames_ + bad / values_per_frame_) +
                              " is NaN or infinite, which an integer encoding cannot hold");
      const double scale = std::ldexp(1.0, integer_bits_ - 1);
      const double hi = scale - 1, lo = -scale;
      const int shift = 32 - integer_bits_;
      ints_.resize(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        double q = std::nearbyint(static_cast<double>(values[i]) * scale);
        if (q > hi || q < lo) {
          ++clipped_;
          q = std::clamp(q, lo, hi);
        }
        ints_[i] = static_cast<int>(static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) << shift);
      }
      written = sf_writef_int(file_, ints_.data(), frames);
    } else {
      written = sf_writef_float(file_, values.data(), frames);
    }
    if (written != frames)
      throw IoError("writing " + display_name(out_->path(), true) + " failed: " + sf_strerror(file_));
    frames_ += static_cast<std::uint64_t>(frames);
  }
  void close() override {
    SNDFILE* f = file_;
    file_ = nullptr;
    if (sf_close(f) != 0) throw IoError("writing " + display_name(out_->path(), true) + " failed");
    out_->commit();
  }
  std::uint64_t clipped() const noexcept override { return clipped_; }
  std::string describe() const override { return kind_ + " to " + display_name(out_->path(), true); }

 private:
  std::unique_ptr<OutputFile> out_;
  static int integer_bits(int format) {
    switch (format & SF_FORMAT_SUBMASK) {
      case SF_FORMAT_PCM_S8:
      case SF_FORMAT_PCM_U8: return 8;
      case SF_FORMAT_PCM_16: return 16;
      case SF_FORMAT_PCM_24: return 24;
      case SF_FORMAT_PCM_32: return 32;
      default: return 0;  // float, or a codec (Vorbis) that takes floats
    }
  }

  std::size_t values_per_frame_;
  int integer_bits_;
  std::vector<int> ints_;
  SNDFILE* file_ = nullptr;
  std::uint64_t clipped_ = 0;
  std::uint64_t frames_ = 0;
  std::string kind_;
};

int subtype_for(const std::string& encoding) {
  const std::string e = lower(encoding);
  if (e == "s24") return SF_FORMAT_PCM_24;
  const auto f = parse_sample_format(e);
  if (f) switch (real_counterpart(*f)) {
      case SampleFormat::u8: return SF_FORMAT_PCM_U8;
      case SampleFormat::s8: return SF_FORMAT_PCM_S8;
      case SampleFormat::s16: return SF_FORMAT_PCM_16;
      case SampleFormat::s32: return SF_FORMAT_PCM_32;
      case SampleFormat::f32: return SF_FORMAT_FLOAT;
      case SampleFormat::f64: return SF_FORMAT_DOUBLE;
      default: break;
    }
  throw InvalidArgument("unknown encoding '" + encoding + "' for a sound file (use u8, s8, s16, s24, s32, f32, f64)");
}

}  // namespace

bool is_sound_extension(const std::string& extension) { return major_format_of(extension).has_value(); }

std::unique_ptr<SampleReader> open_sound_reader(const std::string& path, const ReadOptions& options) {
  SF_INFO sf{};
  SNDFILE* file = nullptr;
  std::optional<std::uint64_t> size;
  if (path == "-") {
    file = sf_open_fd(STDIN_FILENO, SFM_READ, &sf, SF_FALSE);
  } else {
    const auto in = open_input(path);  // the clear "cannot open"/"is a directory" errors
    size = in->size();
    file = sf_open(path.c_str(), SFM_READ, &sf);
  }
  if (!file) {
    std::string why = sf_strerror(nullptr);
    // libsndfile's words for a header with a zero rate or channel count.
    if (why.find("SF_INFO struct incomplete") != std::string::npos)
      why = "the header gives an invalid sample rate, channel count or encoding";
    throw IoError(display_name(path) + ": not a sound file libsndfile can read (" + why + ")");
  }
  return std::make_unique<SoundReader>(file, sf, display_name(path), size, options);
}

std::unique_ptr<SampleReader> open_sound_memory(std::span<const std::byte> bytes, const ReadOptions& options) {
  auto memory = std::make_unique<MemoryFile>();
  memory->bytes = bytes;
  SF_VIRTUAL_IO io{mem_length, mem_seek, mem_read, mem_write, mem_tell};
  SF_INFO sf{};
  SNDFILE* file = sf_open_virtual(&io, SFM_READ, &sf, memory.get());
  if (!file) throw IoError("memory: not a sound file libsndfile can read (" + std::string(sf_strerror(nullptr)) + ")");
  return std::make_unique<SoundReader>(file, sf, "memory", bytes.size(), options, std::move(memory));
}

std::unique_ptr<SampleWriter> open_sound_writer(const std::string& path, const std::string& type,
                                                const StreamInfo& info, const WriteOptions& options) {
  const auto major = major_format_of(type);
  if (!major) throw InvalidArgument("unknown sound file type '" + type + "'");
  if (!info.sample_rate)
    throw InvalidArgument("cannot write " + display_name(path, true) + ": a sound file needs a sample rate (give --rate)");
  const double rate = *info.sample_rate;
  if (rate != std::round(rate) || rate < 1 || rate > 2147483647.0)
    throw InvalidArgument("cannot write " + display_name(path, true) + ": sound files need a whole sample rate in Hz, not " +
                          std::to_string(rate));
  int subtype = SF_FORMAT_PCM_16;
  if (options.encoding) {
    subtype = subtype_for(*options.encoding);
  } else if (info.source_format) {
    const int candidate = subtype_for(format_info(real_counterpart(*info.source_format)).name);
    SF_INFO probe{};
    probe.samplerate = 48000;
    probe.channels = 1;
    probe.format = *major | candidate;
    if (sf_format_check(&probe)) subtype = candidate;
  }
  if (*major == SF_FORMAT_OGG) subtype = SF_FORMAT_VORBIS;
  auto out = std::make_unique<OutputFile>(path, options.force);
  return std::make_unique<SoundWriter>(std::move(out), *major | subtype, info);
}

}  // namespace ripple::io::detail
