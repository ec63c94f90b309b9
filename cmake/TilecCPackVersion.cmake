# CPACK_PROJECT_CONFIG_FILE: run by cpack itself, so the package carries the
# version of the tree at packaging time (not the one of the last configure).
include(${CMAKE_CURRENT_LIST_DIR}/TilecVersion.cmake)
tilec_version_from_git(version deb "${CPACK_TILEC_SOURCE_DIR}" "${CPACK_TILEC_FALLBACK_VERSION}")
set(CPACK_PACKAGE_VERSION "${deb}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${deb}")
