# `cmake --install` (docs/rtl-cosim.md, "The installed package"): the headers
# under include/ptovp, the static libraries, and a CMake package so a
# testbench outside the tree can `find_package(ptovp)` and link
# ptovp::platform (the SystemC platform), ptovp::fpatr (the B.FPATR unit and
# its backends), ptovp::functional and the other units' libraries.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

# Every library of the model, exported as ptovp::<name without the prefix>;
# the platform library as ptovp::platform.
set(ptovp_exported
  ptovp_keys ptovp_arch ptovp_numeric ptovp_isa ptovp_memory ptovp_devices ptovp_fabric ptovp_tlsu ptovp_fpatr
  ptovp_fpatr_backends ptovp_cube ptovp_block_builder ptovp_frontend ptovp_sc_common
  ptovp_memory_sc ptovp_devices_sc ptovp_fabric_sc ptovp_tlsu_sc ptovp_fpatr_sc ptovp_cube_sc
  ptovp_block_builder_sc ptovp_frontend_sc ptovp_engine ptovp_functional ptovp_json_file ptovp_config
  ptovp_systemc)
if(PTOVP_RTL)
  list(APPEND ptovp_exported ptovp_fpatr_rtl)
endif()

set(ptovp_include_dir ${CMAKE_INSTALL_INCLUDEDIR}/ptovp)
foreach(target IN LISTS ptovp_exported)
  # Source folders are the build tree's include paths; the installed
  # package has one include root.
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    set(dirs "")
  endif()
  set(wrapped "$<INSTALL_INTERFACE:${ptovp_include_dir}>")
  foreach(dir IN LISTS dirs)
    if(dir MATCHES "^\\$<")
      list(APPEND wrapped "${dir}")
    else()
      list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
  string(REGEX REPLACE "^ptovp_" "" export_name ${target})
  if(target STREQUAL "ptovp_systemc")
    set(export_name platform)
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  if(PTOVP_SANITIZE)
    # Instrumented archives need the sanitizer runtimes wherever they are linked.
    target_link_options(${target} INTERFACE -fsanitize=address,undefined)
  endif()
endforeach()

install(TARGETS ${ptovp_exported} EXPORT ptovpTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${ptovp_include_dir})
install(TARGETS ptovp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(root modules platform)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${root}/ DESTINATION ${ptovp_include_dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/rtl/fpatr/fpatr_pipeline.sv
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptovp/rtl/fpatr)

set(ptovp_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ptovp)
install(EXPORT ptovpTargets NAMESPACE ptovp:: DESTINATION ${ptovp_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ptovpConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ptovpConfig.cmake
                              INSTALL_DESTINATION ${ptovp_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptovpConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ptovpConfig.cmake ${PROJECT_BINARY_DIR}/ptovpConfigVersion.cmake
        DESTINATION ${ptovp_cmake_dir})
