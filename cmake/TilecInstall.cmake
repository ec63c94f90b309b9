# `cmake --install` and `cpack`: the tilec and tilec-opt executables, the CMake
# package (lib/cmake/Tilec: TilecConfig.cmake, TilecConfigVersion.cmake,
# TilecTargets.cmake with Tilec::tilec, TilecAddKernel.cmake) and the licence,
# changelog and readme; CPack makes a .deb that depends on the Debian packages
# of the shared libraries the executables load (libLLVM, libMLIR, SPIRV-Cross).
#
# The headers tilec writes are self-contained C (they include only <stdint.h>,
# <stddef.h>, <stdbool.h> and, for CUDA, <cuda.h>), so no runtime headers or
# libraries are installed with them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(TilecVersion)

# The installed executables find libMLIR.so in LLVM's library directory
# (/usr/lib/llvm-22/lib, not on the loader's default path) through RUNPATH.
set_target_properties(tilec tilec-opt PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS tilec tilec-opt EXPORT TilecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(TILEC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Tilec)
install(EXPORT TilecTargets NAMESPACE Tilec:: DESTINATION ${TILEC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TilecConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/TilecConfig.cmake
                              INSTALL_DESTINATION ${TILEC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/TilecConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/TilecConfig.cmake ${PROJECT_BINARY_DIR}/cmake/TilecConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/TilecAddKernel.cmake
        DESTINATION ${TILEC_CMAKE_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# CPack: a .deb (cpack -G DEB in the build directory). Its version is the built
# tilec's, read when cpack runs (cmake/TilecCPackVersion.cmake).
string(REGEX MATCH "^[0-9]+" TILEC_LLVM_MAJOR "${LLVM_PACKAGE_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilec)
set(CPACK_PACKAGE_VENDOR "tilec developers")
set(TILEC_PACKAGE_MAINTAINER "tilec maintainers <maintainers@users.noreply.a-seed-eb03a3e5.example>"
    CACHE STRING "The Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${TILEC_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ahead-of-time compiler for tile-level GPU kernels")
set(CPACK_PACKAGE_DESCRIPTION
    "tilec compiles kernels written in tile-lang's T.* language (.tile files) ahead of time into\n"
    "host objects, CUDA fatbin objects (sm_80 to sm_90a), Vulkan SPIR-V, Metal, WebGPU and\n"
    "Ascend C sources, each with a C header of launchers. Includes the CMake package\n"
    "(find_package(Tilec), tilec_add_kernel()).")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION}) # replaced by the built one when cpack runs
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_INSTALL_DIRECTORY tilec)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)
# libMLIR.so and libLLVM.so (libmlir-22, libllvm22: Debian's or apt.llvm.org's), SPIRV-Cross's
# C library (the metal target) and the C/C++ runtime; see `readelf -d bin/tilec`.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libllvm${TILEC_LLVM_MAJOR} (>= 1:${LLVM_PACKAGE_VERSION}), libmlir-${TILEC_LLVM_MAJOR} (>= 1:${LLVM_PACKAGE_VERSION}), libspirv-cross-c-shared0, libstdc++6 (>= 12), libgcc-s1, libc6 (>= 2.34)")
# -shared links with clang (else cc, else ld.lld); sm_* targets run ptxas and fatbinary from a CUDA toolkit.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-${TILEC_LLVM_MAJOR} | lld-${TILEC_LLVM_MAJOR} | gcc")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit, cmake (>= 3.20)")
set(CPACK_TILEC_BINARY_DIR ${PROJECT_BINARY_DIR})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/TilecCPackVersion.cmake)
include(CPack)
