// ripple's exception hierarchy: every error the library reports derives from ripple::Error,
// so callers can catch one type; the kind says whose fault it was.
#pragma once

#include <stdexcept>
#include <string>

namespace ripple {

/// Base of every exception ripple throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parameter given by the caller is out of range or inconsistent. The message names the
/// parameter and the value that was rejected.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// The request is valid but this build or backend cannot do it (yet).
class Unsupported : public Error {
 public:
  using Error::Error;
};

/// A device runtime (CUDA, OpenCL) reported a failure; the message carries the runtime's text.
class DeviceError : public Error {
 public:
  using Error::Error;
};

/// Reading or writing a file or stream failed, or its contents are malformed.
class IoError : public Error {
 public:
  using Error::Error;
};

}  // namespace ripple
