// Descriptor-based byte inputs and outputs (see byte_stream.hpp).
#include "io/byte_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "ripple/error.hpp"

namespace ripple::io::detail {
namespace {

std::string errno_text() { return std::strerror(errno); }

class FdInput final : public ByteInput {
 public:
  FdInput(int fd, bool owned, std::string name, std::optional<std::uint64_t> size, bool seekable)
      : fd_(fd), owned_(owned), size_(size), seekable_(seekable) {
    name_ = std::move(name);
  }
  ~FdInput() override {
    if (owned_) ::close(fd_);
  }
  std::size_t read(void* dst, std::size_t bytes) override {
    auto* p = static_cast<char*>(dst);
    std::size_t done = 0;
    while (done < bytes) {
      const ssize_t got = ::read(fd_, p + done, bytes - done);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw IoError("reading " + name_ + " failed: " + errno_text());
      }
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
    position_ += done;
    return done;
  }
  std::optional<std::uint64_t> size() const noexcept override { return size_; }
  std::uint64_t skip(std::uint64_t bytes) override {
    if (!seekable_) return ByteInput::skip(bytes);
    const std::uint64_t target = size_ ? std::min(*size_, position_ + bytes) : position_ + bytes;
    if (::lseek(fd_, static_cast<off_t>(target), SEEK_SET) < 0)
      throw IoError("seeking in " + name_ + " failed: " + errno_text());
    const std::uint64_t skipped = target - position_;
    position_ = target;
    return skipped;
  }

 private:
  int fd_;
  bool owned_;
  std::optional<std::uint64_t> size_;
  bool seekable_;
};

class MemoryInput final : public ByteInput {
 public:
  MemoryInput(std::span<const std::byte> bytes, std::string name) : bytes_(bytes) { name_ = std::move(name); }
  std::size_t read(void* dst, std::size_t bytes) override {
    const std::size_t n = std::min<std::uint64_t>(bytes, bytes_.size() - position_);
    if (n) std::memcpy(dst, bytes_.data() + position_, n);
    position_ += n;
    return n;
  }
  std::optional<std::uint64_t> size() const noexcept override { return bytes_.size(); }
  std::uint64_t skip(std::uint64_t bytes) override {
    const std::uint64_t n = std::min<std::uint64_t>(bytes, bytes_.size() - position_);
    position_ += n;
    return n;
  }

 private:
  std::span<const std::byte> bytes_;
};

}  // namespace

std::uint64_t ByteInput::skip(std::uint64_t bytes) {
  std::vector<char> sink(std::min<std::uint64_t>(bytes, 1 << 16));
  std::uint64_t done = 0;
  while (done < bytes) {
    const std::size_t got = read(sink.data(), std::min<std::uint64_t>(sink.size(), bytes - done));
    if (got == 0) break;
    done += got;
  }
  return done;
}

std::string display_name(const std::string& path, bool output) {
  if (path == "-") return output ? "standard output" : "standard input";
  return "'" + path + "'";
}

std::unique_ptr<ByteInput> open_input(const std::string& path) {
  if (path == "-") {
    struct stat st {};
    const bool regular = ::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
    const off_t here = regular ? ::lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;
    std::optional<std::uint64_t> size;
    if (regular && here >= 0) size = static_cast<std::uint64_t>(st.st_size - here);
    // A regular file redirected to stdin may not start at offset 0: treat it as a stream
    // of the remaining bytes (skip() seeks relative to the start only when it does).
    return std::make_unique<FdInput>(STDIN_FILENO, false, display_name(path), size, regular && here == 0);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open " + display_name(path) + ": " + errno_text());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    throw IoError("cannot stat " + display_name(path) + ": " + why);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IoError("cannot read " + display_name(path) + ": is a directory");
  }
  const bool regular = S_ISREG(st.st_mode);
  std::optional<std::uint64_t> size;
  if (regular) size = static_cast<std::uint64_t>(st.st_size);
  return std::make_unique<FdInput>(fd, true, display_name(path), size, regular);
}

std::unique_ptr<ByteInput> memory_input(std::span<const std::byte> bytes, std::string name) {
  return std::make_unique<MemoryInput>(bytes, std::move(name));
}

void read_exact(ByteInput& in, void* dst, std::size_t bytes, const char* what) {
  if (in.read(dst, bytes) != bytes) throw IoError(in.name() + ": truncated: " + what);
}

void check_output_path(const std::string& path, bool force) {
  if (path == "-") return;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw IoError("cannot write " + display_name(path) + ": is a directory");
  if (std::filesystem::exists(status) && !force)
    throw IoError("output file " + display_name(path) + " exists; use --force to overwrite it");
}

OutputFile::OutputFile(const std::string& path, bool force) : path_(path) {
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  check_output_path(path, force);
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  // Appended, not "." + name: GCC 12 warns falsely (-Wstringop-overflow) on a literal plus an
  // rvalue string in non-unity builds.
  std::string name = ".";
  name += target.filename().string();
  name += ".ripple-XXXXXX";
  std::string pattern = (dir / name).string();
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) throw IoError("cannot create " + display_name(path) + ": " + errno_text());
  temp_ = pattern;
  // mkstemp makes the file 0600; give it the permissions a plain create would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

OutputFile::~OutputFile() {
  if (path_ == "-") return;
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::write(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t put = ::write(fd_, p, bytes);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw IoError("writing " + display_name(path_, true) + " failed: " + errno_text());
    }
    p += put;
    bytes -= static_cast<std::size_t>(put);
  }
}

void OutputFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t put = ::pwrite(fd_, p, bytes, static_cast<off_t>(offset));
    if (put < 0) {
      if (errno == EINTR) continue;
      throw IoError("writing " + display_name(path_, true) + " failed: " + errno_text());
    }
    p += put;
    offset += static_cast<std::uint64_t>(put);
    bytes -= static_cast<std::size_t>(put);
  }
}

void OutputFile::commit() {
  if (committed_) return;
  if (path_ == "-") {
    committed_ = true;
    return;
  }
  if (fd_ >= 0) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw IoError("writing " + display_name(path_, true) + " failed: " + errno_text());
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw IoError("cannot move the output into place as " + display_name(path_) + ": " + errno_text());
  committed_ = true;
}

}  // namespace ripple::io::detail
