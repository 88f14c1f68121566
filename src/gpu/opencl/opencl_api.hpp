// The OpenCL entry points ripple uses, loaded from the ICD loader (libOpenCL.so.1) with dlopen
// at run time, so libripple starts on machines without one. The types come from the Khronos
// headers (Debian opencl-c-headers); nothing links against libOpenCL.
#pragma once

#include <CL/cl.h>

#include <string>

namespace ripple::gpu::opencl {

#define RIPPLE_OPENCL_FUNCTIONS(X)                                                             \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo)                \
  X(clCreateContext) X(clRetainContext) X(clReleaseContext)                                    \
  X(clCreateCommandQueue) X(clRetainCommandQueue) X(clReleaseCommandQueue)                     \
  X(clGetCommandQueueInfo) X(clCreateBuffer) X(clCreateSubBuffer) X(clRetainMemObject)         \
  X(clReleaseMemObject) X(clGetMemObjectInfo) X(clCreateProgramWithSource)                     \
  X(clCreateProgramWithBinary) X(clBuildProgram) X(clGetProgramBuildInfo) X(clGetProgramInfo)  \
  X(clReleaseProgram) X(clCreateKernel) X(clReleaseKernel) X(clSetKernelArg)                   \
  X(clEnqueueNDRangeKernel) X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer)                     \
  X(clEnqueueFillBuffer) X(clEnqueueCopyBuffer) X(clFinish)

/// Function pointers into the loaded ICD loader.
struct Api {
#define RIPPLE_OPENCL_MEMBER(fn) decltype(&::fn) fn = nullptr;  // NOLINT(bugprone-macro-parentheses)
  RIPPLE_OPENCL_FUNCTIONS(RIPPLE_OPENCL_MEMBER)
#undef RIPPLE_OPENCL_MEMBER
};

/// Loads the ICD loader once per process: $RIPPLE_OPENCL_LIBRARY if set, else libOpenCL.so.1.
/// Returns nullptr and sets *why (naming the library and dlerror's text) if it cannot.
const Api* load_api(std::string* why);

/// "CL_OUT_OF_RESOURCES (-5)" for an OpenCL status code.
std::string status_name(cl_int status);

/// Throws DeviceError "OpenCL <what> failed: <status name>" unless status is CL_SUCCESS.
void check(cl_int status, const std::string& what);

}  // namespace ripple::gpu::opencl
