# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The tools the GPU back ends run, found at configure time: the CUDA
# toolkit's ptxas and libdevice (NVVM: cubins, math functions), and
# llvm-spirv (OpenCL: SPIR-V to SPIR bitcode). Without them the NVVM back end
# makes PTX only and the OpenCL back end is unavailable.
set(MAXGRAPH_CUDA_TOOLKIT "" CACHE PATH
    "The CUDA toolkit for ptxas and libdevice (default: found on PATH, CUDA_HOME or /usr/local/cuda)")
if(NOT MAXGRAPH_CUDA_TOOLKIT)
  find_program(MAXGRAPH_PTXAS ptxas
    HINTS ENV CUDA_HOME ENV CUDA_PATH ENV CUDA_ROOT PATH_SUFFIXES bin
    PATHS /usr/local/cuda/bin)
  if(MAXGRAPH_PTXAS)
    get_filename_component(ptxas_bin "${MAXGRAPH_PTXAS}" REALPATH)
    get_filename_component(ptxas_bin "${ptxas_bin}" DIRECTORY)
    get_filename_component(MAXGRAPH_CUDA_TOOLKIT "${ptxas_bin}" DIRECTORY)
  endif()
endif()
if(MAXGRAPH_CUDA_TOOLKIT AND NOT EXISTS "${MAXGRAPH_CUDA_TOOLKIT}/bin/ptxas")
  message(FATAL_ERROR "MAXGRAPH_CUDA_TOOLKIT=${MAXGRAPH_CUDA_TOOLKIT} has no bin/ptxas")
endif()
find_program(MAXGRAPH_LLVM_SPIRV NAMES llvm-spirv-15 llvm-spirv)
if(NOT MAXGRAPH_LLVM_SPIRV)
  set(MAXGRAPH_LLVM_SPIRV "")
endif()
message(STATUS "GPU back ends: CUDA toolkit '${MAXGRAPH_CUDA_TOOLKIT}', llvm-spirv '${MAXGRAPH_LLVM_SPIRV}'")
