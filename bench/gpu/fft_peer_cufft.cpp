// cuFFT as a bench_gpu_fft peer (plugin libbench_fft_peer_cufft.so; built only where the CUDA
// toolkit with cuFFT is found). Plans with cufftMakePlanMany64 (64-bit sizes: 1 GiB batches
// exceed int), packed layouts (inembed/onembed NULL), forward, out of place, on a stream of its
// own.
#include <cuda_runtime.h>
#include <cufft.h>

#include <stdexcept>
#include <string>

#include "fft_peer.hpp"

namespace {

using ripple_bench::FftCase;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

const char* cufft_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult (other)";
  }
}

void check(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cufft_name(r));
}

// Device memory of at least `bytes` in p (capacity in `capacity`): reallocated only to grow,
// the old block freed first. Returns whether it was reallocated (its contents are then gone).
bool grow(void*& p, std::size_t& capacity, std::size_t bytes, const char* what) {
  if (bytes <= capacity) return false;
  cudaFree(p);
  p = nullptr;
  capacity = 0;
  check(cudaMalloc(&p, bytes), what);
  capacity = bytes;
  return true;
}

class CufftPeer final : public ripple_bench::FftPeer {
 public:
  explicit CufftPeer(int device) : device_(device) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    int version = 0;
    cufftGetVersion(&version);
    name_ = "cuFFT " + std::to_string(version / 1000) + "." + std::to_string(version / 100 % 10) + "." +
            std::to_string(version % 100);
  }
  ~CufftPeer() override {
    destroy_plan();
    release();
    cudaStreamDestroy(stream_);
  }

  std::string name() const override { return name_; }

  void prepare(const void* host, std::size_t bytes, std::size_t out_bytes) override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    if (grow(in_, in_capacity_, bytes, "cudaMalloc (cuFFT input)")) host_ = nullptr;
    if (host != host_ || bytes != in_bytes_) {
      check(cudaMemcpy(in_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (cuFFT input)");
      host_ = host;
      in_bytes_ = bytes;
    }
    grow(out_, out_capacity_, out_bytes, "cudaMalloc (cuFFT output)");
  }

  void release() override {
    cudaFree(in_);
    cudaFree(out_);
    in_ = out_ = nullptr;
    in_capacity_ = out_capacity_ = in_bytes_ = 0;
    host_ = nullptr;
  }

  void plan(const FftCase& c) override {
    destroy_plan();
    check(cufftCreate(&plan_), "cufftCreate");
    have_plan_ = true;
    long long n[3];
    long long in_per = 1, out_per = 1;
    for (int a = 0; a < c.rank; ++a) {
      n[a] = static_cast<long long>(c.n[a]);
      in_per *= n[a];
      out_per *= (c.r2c && a == c.rank - 1) ? n[a] / 2 + 1 : n[a];
    }
    type_ = c.r2c ? (c.is_double ? CUFFT_D2Z : CUFFT_R2C) : (c.is_double ? CUFFT_Z2Z : CUFFT_C2C);
    std::size_t work = 0;
    check(cufftSetStream(plan_, stream_), "cufftSetStream");
    if (c.innermost) {  // the advanced layout: element i of transform b at i * batch + b
      long long in_embed[1] = {n[0]}, out_embed[1] = {out_per};
      const auto batch = static_cast<long long>(c.batch);
      check(cufftMakePlanMany64(plan_, 1, n, in_embed, batch, 1, out_embed, batch, 1, type_, batch, &work),
            "cufftMakePlanMany64");
      return;
    }
    check(cufftMakePlanMany64(plan_, c.rank, n, nullptr, 1, in_per, nullptr, 1, out_per, type_,
                              static_cast<long long>(c.batch), &work),
          "cufftMakePlanMany64");
  }

  void destroy_plan() override {
    if (have_plan_) cufftDestroy(plan_);
    have_plan_ = false;
  }

  void execute() override {
    switch (type_) {
      case CUFFT_C2C:
        check(cufftExecC2C(plan_, static_cast<cufftComplex*>(in_), static_cast<cufftComplex*>(out_), CUFFT_FORWARD),
              "cufftExecC2C");
        break;
      case CUFFT_Z2Z:
        check(cufftExecZ2Z(plan_, static_cast<cufftDoubleComplex*>(in_), static_cast<cufftDoubleComplex*>(out_),
                           CUFFT_FORWARD),
              "cufftExecZ2Z");
        break;
      case CUFFT_R2C:
        check(cufftExecR2C(plan_, static_cast<cufftReal*>(in_), static_cast<cufftComplex*>(out_)), "cufftExecR2C");
        break;
      case CUFFT_D2Z:
        check(cufftExecD2Z(plan_, static_cast<cufftDoubleReal*>(in_), static_cast<cufftDoubleComplex*>(out_)),
              "cufftExecD2Z");
        break;
      default: throw std::runtime_error("cuFFT: no plan");
    }
  }

  void synchronize() override { check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (cuFFT)"); }

  void download(std::size_t offset, void* dst, std::size_t bytes) override {
    check(cudaMemcpy(dst, static_cast<const char*>(out_) + offset, bytes, cudaMemcpyDeviceToHost),
          "cudaMemcpy (cuFFT output)");
  }

 private:
  int device_;
  std::string name_;
  cudaStream_t stream_ = nullptr;
  void* in_ = nullptr;
  void* out_ = nullptr;
  std::size_t in_capacity_ = 0, out_capacity_ = 0, in_bytes_ = 0;
  const void* host_ = nullptr;
  cufftHandle plan_{};
  bool have_plan_ = false;
  cufftType type_ = CUFFT_C2C;
};

}  // namespace

extern "C" __attribute__((visibility("default"))) ripple_bench::FftPeer* ripple_bench_make_fft_peer(
    const char* device, std::string* why) {
  const std::string id = device;
  if (id.rfind("cuda:", 0) != 0) {
    *why = "cuFFT runs on CUDA devices only, not " + id;
    return nullptr;
  }
  try {
    const int ordinal = std::stoi(id.substr(5));
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
      return nullptr;
    }
    if (ordinal < 0 || ordinal >= count) {
      *why = "no CUDA device " + id + " (" + std::to_string(count) + " present)";
      return nullptr;
    }
    return new CufftPeer(ordinal);
  } catch (const std::exception& e) {
    *why = e.what();
    return nullptr;
  }
}
