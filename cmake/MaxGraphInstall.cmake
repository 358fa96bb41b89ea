# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs headers, libraries, tools and a CMake package so that
#   find_package(MaxGraph CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE MaxGraph::MaxGraph)
# works from another project.
include(CMakePackageConfigHelpers)

get_property(maxgraph_libs GLOBAL PROPERTY MAXGRAPH_EXPORTED_LIBS)
add_library(MaxGraph INTERFACE)
add_library(MaxGraph::MaxGraph ALIAS MaxGraph)
target_link_libraries(MaxGraph INTERFACE ${maxgraph_libs})

install(TARGETS ${maxgraph_libs} MaxGraph EXPORT MaxGraphTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/MaxGraph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/MaxGraph
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")

set(MAXGRAPH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/MaxGraph)
install(EXPORT MaxGraphTargets NAMESPACE MaxGraph::
  DESTINATION ${MAXGRAPH_CMAKE_DIR})
configure_package_config_file(cmake/MaxGraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MaxGraphConfig.cmake
  INSTALL_DESTINATION ${MAXGRAPH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/MaxGraphConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/MaxGraphConfig.cmake
              ${PROJECT_BINARY_DIR}/MaxGraphConfigVersion.cmake
  DESTINATION ${MAXGRAPH_CMAKE_DIR})
