# Turns the GPU kernel sources into a C++ file of string literals, run by the build
# (src/gpu/CMakeLists.txt): cmake -DOUTPUT=out.cpp "-DINPUTS=a.h;b.cl" -P embed_sources.cmake.
# Each file becomes one raw string literal, found by its file name through
# ripple::gpu::kernels::embedded_source() (src/gpu/kernels/embedded.hpp).
if(NOT OUTPUT OR NOT INPUTS)
  message(FATAL_ERROR "embed_sources.cmake: OUTPUT and INPUTS are required")
endif()
set(delimiter "ripple_src")  # at most 16 characters
set(body "// Generated from src/gpu/kernels by embed_sources.cmake. Do not edit.\n")
string(APPEND body "#include \"gpu/kernels/embedded.hpp\"\n\nnamespace ripple::gpu::kernels {\n")
string(APPEND body "namespace {\nconstexpr EmbeddedFile kFiles[] = {\n")
foreach(path IN LISTS INPUTS)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw-string delimiter )${delimiter}\"")
  endif()
  string(APPEND body "  {\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
string(APPEND body "};\n}  // namespace\n\n")
string(APPEND body "std::span<const EmbeddedFile> embedded_files() { return kFiles; }\n\n")
string(APPEND body "}  // namespace ripple::gpu::kernels\n")
# Write only when changed, so an unchanged kernel set does not rebuild the library.
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL body)
  file(WRITE "${OUTPUT}" "${body}")
endif()
