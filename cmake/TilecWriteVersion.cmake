# Run at build time (cmake -P): writes include/tilec/Version.h with the
# `git describe` version, touching it only when the version changed, so a
# commit re-links tilec but an unchanged tree rebuilds nothing.
# Inputs: TILEC_SOURCE_DIR, TILEC_FALLBACK_VERSION, TILEC_VERSION_HEADER.
include(${CMAKE_CURRENT_LIST_DIR}/TilecVersion.cmake)
tilec_version_from_git(version "${TILEC_SOURCE_DIR}" "${TILEC_FALLBACK_VERSION}")
set(text "// The version of tilec (generated at build time from `git describe`).\n#ifndef TILEC_VERSION_H\n#define TILEC_VERSION_H\n#define TILEC_VERSION \"${version}\"\n#endif\n")
if(EXISTS "${TILEC_VERSION_HEADER}")
  file(READ "${TILEC_VERSION_HEADER}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${TILEC_VERSION_HEADER}" "${text}")
endif()
