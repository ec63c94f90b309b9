# tilec_version_from_git(<out_version> <source_dir> <fallback>)
# The version of a build from `git describe` on tags named vX.Y.Z:
#   on a tag:                 0.1.0
#   N commits after a tag:    0.1.0-5-gabc1234
#   no tag yet:               0.1.0-gabc1234       (<fallback>-g<commit>)
#   uncommitted changes:      ...-dirty
#   not a git checkout:       <fallback>           (the project version)
function(tilec_version_from_git out_version source_dir fallback)
  set(version "${fallback}")
  find_program(TILEC_GIT_EXECUTABLE git)
  if(TILEC_GIT_EXECUTABLE)
    execute_process(COMMAND ${TILEC_GIT_EXECUTABLE} -C "${source_dir}" describe --tags --match "v[0-9]*" --dirty
                    OUTPUT_VARIABLE described RESULT_VARIABLE tagged OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(tagged EQUAL 0 AND described MATCHES "^v([0-9].*)$")
      set(version "${CMAKE_MATCH_1}")
    else()
      execute_process(COMMAND ${TILEC_GIT_EXECUTABLE} -C "${source_dir}" describe --always --abbrev=7 --dirty
                      OUTPUT_VARIABLE described RESULT_VARIABLE ok OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(ok EQUAL 0 AND described MATCHES "^[0-9a-f]+(-dirty)?$")
        set(version "${fallback}-g${described}")
      endif()
    endif()
  endif()
  set(${out_version} "${version}" PARENT_SCOPE)
endfunction()

# tilec_deb_version(<out> <version>): the Debian form of a tilec version, ordered as
# releases are: 0.1.0-gabc1234 -> 0.1.0~gabc1234, 0.1.0-5-gabc1234 -> 0.1.0+5.gabc1234,
# a -dirty suffix -> .dirty.
function(tilec_deb_version out version)
  string(REGEX REPLACE "^([0-9][^-]*)-([0-9]+)-g" "\\1+\\2.g" deb "${version}")
  string(REGEX REPLACE "^([0-9][^-+]*)-g" "\\1~g" deb "${deb}")
  string(REGEX REPLACE "-dirty$" ".dirty" deb "${deb}")
  set(${out} "${deb}" PARENT_SCOPE)
endfunction()
