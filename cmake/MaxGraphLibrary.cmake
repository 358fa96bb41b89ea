# Our libraries are static, position independent (the plugin links them into a
# module) and link against the one shared libMLIR so that no second copy of MLIR
# ends up in a process.
set_property(GLOBAL PROPERTY MAXGRAPH_EXPORTED_LIBS "")

function(add_maxgraph_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(MaxGraph::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${MAXGRAPH_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${MAXGRAPH_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_property(GLOBAL APPEND PROPERTY MAXGRAPH_EXPORTED_LIBS ${name})
endfunction()
