# CPACK_PROJECT_CONFIG_FILE, run by cpack: the package's version is the one built
# into the packaged tilec (include/tilec/Version.h of the build, written from
# `git describe` at build time), in Debian's form (cmake/TilecVersion.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/TilecVersion.cmake)
file(STRINGS "${CPACK_TILEC_BINARY_DIR}/include/tilec/Version.h" line REGEX "#define TILEC_VERSION ")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" version "${line}")
tilec_deb_version(deb "${version}")
set(CPACK_PACKAGE_VERSION "${deb}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${deb}")
