// IIR filters: representations (sos.hpp), filtering with scipy's semantics (filtering.hpp) and
// the streaming filter that keeps its state between calls (stream.hpp); both on Buffers in
// device memory (device.hpp).
#pragma once

#include "ripple/iir/design.hpp"
#include "ripple/iir/device.hpp"
#include "ripple/iir/filtering.hpp"
#include "ripple/iir/sos.hpp"
#include "ripple/iir/stream.hpp"
