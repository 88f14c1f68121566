// Bytes in and out of files, standard input/output and memory, for the sample readers and
// writers: POSIX descriptors (large reads, no iostream overhead), and outputs that go to a
// temporary file renamed into place on commit, so a failed run leaves nothing behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace ripple::io::detail {

/// A forward-only source of bytes.
class ByteInput {
 public:
  virtual ~ByteInput() = default;
  /// Reads up to `bytes` bytes; fewer only at the end. Throws IoError on a read error.
  virtual std::size_t read(void* dst, std::size_t bytes) = 0;
  /// Total size when known (regular files, memory).
  virtual std::optional<std::uint64_t> size() const noexcept = 0;
  /// Skips `bytes` bytes (seeks where it can). Returns how many were skipped.
  virtual std::uint64_t skip(std::uint64_t bytes);
  std::uint64_t position() const noexcept { return position_; }
  /// "'name'" or "standard input", for messages.
  const std::string& name() const noexcept { return name_; }

 protected:
  std::uint64_t position_ = 0;
  std::string name_;
};

/// `path`, or standard input for "-". Throws IoError naming the file when it cannot be opened
/// or is a directory.
std::unique_ptr<ByteInput> open_input(const std::string& path);
/// The bytes of a buffer the caller keeps alive (fuzzers, tests).
std::unique_ptr<ByteInput> memory_input(std::span<const std::byte> bytes, std::string name = "memory");

/// "'path'" or "standard input"/"standard output" for "-".
std::string display_name(const std::string& path, bool output = false);

/// Reads exactly `bytes` bytes or throws IoError("<name>: truncated: <what>").
void read_exact(ByteInput& in, void* dst, std::size_t bytes, const char* what);

/// A destination file: a temporary file in the target's directory (or standard output for
/// "-") that commit() renames over the target. Destroyed without commit(), the temporary is
/// removed.
class OutputFile {
 public:
  /// Throws IoError when `path` exists and !force, is a directory, or its directory cannot be
  /// written.
  OutputFile(const std::string& path, bool force);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  int fd() const noexcept { return fd_; }
  bool is_stdout() const noexcept { return path_ == "-"; }
  const std::string& path() const noexcept { return path_; }
  /// Writes all bytes or throws IoError.
  void write(const void* data, std::size_t bytes);
  /// Writes at an absolute offset (headers finished at the end). Throws IoError.
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  /// Flushes, closes and renames the temporary file onto the target. Throws IoError.
  void commit();
  /// Gives up the descriptor to a library that closes it itself (libsndfile).
  void release_fd() noexcept { fd_ = -1; }

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Throws IoError when `path` exists and !force (or is a directory).
void check_output_path(const std::string& path, bool force);

}  // namespace ripple::io::detail
