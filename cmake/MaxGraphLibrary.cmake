# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Our libraries are static, position independent (the plugin links them into a
# module) and link against the one shared libMLIR so that no second copy of MLIR
# ends up in a process.
set_property(GLOBAL PROPERTY MAXGRAPH_EXPORTED_LIBS "")

#   add_maxgraph_library(name SOURCES ... [LINK_LIBS ...] [DEPENDS ...] [NO_MLIR])
# NO_MLIR links LLVM alone: for the layers that must not need MLIR.
function(add_maxgraph_library name)
  cmake_parse_arguments(ARG "NO_MLIR" "" "SOURCES;DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(MaxGraph::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  if(ARG_NO_MLIR)
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} LLVM)
  else()
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${MAXGRAPH_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${MAXGRAPH_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(MAXGRAPH_ENABLE_FUZZERS)
    # Coverage for libFuzzer; the fuzz targets link the fuzzer itself.
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  set_property(GLOBAL APPEND PROPERTY MAXGRAPH_EXPORTED_LIBS ${name})
endfunction()

# For the code that calls the staging API: its option structs (StageOptions,
# InputCheckOptions, ...) are filled by name, the fields left out keeping
# their defaults; that is what designated initializers are for, not a
# mistake for Clang to warn about.
macro(maxgraph_allow_partial_designated_initializers)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-Wno-missing-designated-field-initializers)
  endif()
endmacro()
