# tilec_add_kernel(<target> SOURCES k.tile [more.tile ...]
#                  [TARGET_ARCH host|sm_80|...|sm_90a|sm_80,sm_90a|vulkan|vulkan1.3|metal|webgpu|ascend]
#                  [DEFINES NAME=VALUE ...] [KERNEL NAME] [KERNEL_NAME SYMBOL] [OUTPUT_NAME NAME]
#                  [INCLUDE_DIRS DIR ...] [DEPENDS FILE ...] [OPTIONS FLAG ...] [SHARED])
#
# Compiles each .tile source with tilec into <build>/tilec/<target>/<name>.{o,so,spv,...}
# plus the C header <name>.h, and makes <target> a library that carries them:
#   target_link_libraries(app PRIVATE <target>)
# gives `app` the header's directory (#include "<name>.h"), the object or shared
# library, and what that needs at link time: libm and threads for host kernels,
# CUDA::cuda_driver (find_package(CUDAToolkit)) for sm_* kernels. Vulkan, Metal,
# WebGPU and Ascend kernels are an INTERFACE library with the header; the
# artifact's path is the target's TILEC_KERNEL_ARTIFACTS property.
#
# Rebuilds follow tilec's -MD dependency file (the .tile sources) and DEPENDS.
# <name> is OUTPUT_NAME (one source only) or the source's name without .tile/.py.
# SHARED links host or sm_* kernels into a shared library <name>.so (tilec -shared, no SONAME),
# linked as -l<name> through the symbolic link lib<name>.so; programs find it through
# their build RPATH (install it yourself with the program and set INSTALL_RPATH).
# KERNEL selects one kernel of the file (--kernel); KERNEL_NAME renames the
# exported launcher (--kernel-name); OPTIONS go to tilec as they are.
include_guard(GLOBAL)

function(_tilec_kernel_kind arch out_kind out_ext)
  if(arch STREQUAL "host")
    set(kind object)
  elseif(arch MATCHES "^sm_[0-9]+a?(,sm_[0-9]+a?)*$")
    set(kind cuda)
  elseif(arch MATCHES "^vulkan")
    set(kind header)
    set(ext spv)
  elseif(arch STREQUAL "metal")
    set(kind header)
    set(ext metal)
  elseif(arch STREQUAL "webgpu")
    set(kind header)
    set(ext wgsl)
  elseif(arch STREQUAL "ascend")
    set(kind header)
    set(ext cpp)
  else()
    message(FATAL_ERROR "tilec_add_kernel: unknown TARGET_ARCH '${arch}'; write host, sm_80, sm_86, sm_89, sm_90, "
                        "sm_90a (or a comma list of sm_*), vulkan, vulkan1.1, vulkan1.3, metal, webgpu or ascend")
  endif()
  if(NOT kind STREQUAL "header")
    set(ext o)
  endif()
  set(${out_kind} ${kind} PARENT_SCOPE)
  set(${out_ext} ${ext} PARENT_SCOPE)
endfunction()

function(tilec_add_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SHARED" "TARGET_ARCH;KERNEL;KERNEL_NAME;OUTPUT_NAME"
                        "SOURCES;DEFINES;INCLUDE_DIRS;DEPENDS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernel(${target}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tilec_add_kernel(${target}): no SOURCES; write SOURCES kernel.tile")
  endif()
  list(LENGTH ARG_SOURCES count)
  if(ARG_OUTPUT_NAME AND count GREATER 1)
    message(FATAL_ERROR "tilec_add_kernel(${target}): OUTPUT_NAME needs exactly one source (got ${count})")
  endif()
  if(NOT ARG_TARGET_ARCH)
    set(ARG_TARGET_ARCH host)
  endif()
  _tilec_kernel_kind("${ARG_TARGET_ARCH}" kind ext)
  if(ARG_SHARED)
    if(kind STREQUAL "header")
      message(FATAL_ERROR "tilec_add_kernel(${target}): SHARED needs TARGET_ARCH host or sm_* (not ${ARG_TARGET_ARCH})")
    endif()
    if(count GREATER 1)
      message(FATAL_ERROR "tilec_add_kernel(${target}): SHARED takes one source (got ${count}); "
                          "write one tilec_add_kernel() per shared library")
    endif()
    set(ext so)
  endif()

  set(flags -target=${ARG_TARGET_ARCH})
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND flags -D ${define})
  endforeach()
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND flags -I ${dir})
  endforeach()
  if(ARG_KERNEL)
    list(APPEND flags --kernel ${ARG_KERNEL})
  endif()
  if(ARG_KERNEL_NAME)
    list(APPEND flags --kernel-name ${ARG_KERNEL_NAME})
  endif()
  if(ARG_SHARED)
    list(APPEND flags -shared)
  endif()
  if(kind STREQUAL "cuda")
    if(NOT TARGET CUDA::cuda_driver)
      find_package(CUDAToolkit REQUIRED)
    endif()
    if(NOT TARGET CUDA::cuda_driver)
      message(FATAL_ERROR "tilec_add_kernel(${target}): TARGET_ARCH ${ARG_TARGET_ARCH} needs the CUDA toolkit "
                          "(find_package(CUDAToolkit) found no CUDA::cuda_driver); set CUDAToolkit_ROOT")
    endif()
    get_filename_component(cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
    list(APPEND flags --cuda-path ${cuda_root})
  endif()
  list(APPEND flags ${ARG_OPTIONS})

  set(dir ${CMAKE_CURRENT_BINARY_DIR}/tilec/${target})
  file(MAKE_DIRECTORY ${dir})
  set(artifacts)
  set(headers)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    if(ARG_OUTPUT_NAME)
      set(name ${ARG_OUTPUT_NAME})
    else()
      get_filename_component(name "${source}" NAME_WE)
    endif()
    set(artifact ${dir}/${name}.${ext})
    set(header ${dir}/${name}.h)
    file(RELATIVE_PATH shown ${CMAKE_BINARY_DIR} ${artifact})
    set(link)
    set(symlink)
    if(ARG_SHARED)
      # The library has no SONAME: the program links it as -l<name> through lib<name>.so.
      set(symlink ${dir}/lib${name}.so)
      set(link COMMAND ${CMAKE_COMMAND} -E create_symlink ${name}.so ${symlink})
    endif()
    add_custom_command(
      OUTPUT ${artifact} ${header} ${symlink}
      COMMAND Tilec::tilec ${source} ${flags} -o ${artifact} -MD -MF ${artifact}.d
      ${link}
      DEPENDS Tilec::tilec ${source} ${ARG_DEPENDS}
      DEPFILE ${artifact}.d
      COMMENT "Compiling tile kernel ${shown}"
      VERBATIM)
    list(APPEND artifacts ${artifact})
    list(APPEND headers ${header})
  endforeach()

  if(kind STREQUAL "header" OR ARG_SHARED)
    add_custom_target(${target}_tilec ALL DEPENDS ${artifacts} ${headers})
  endif()
  if(kind STREQUAL "header")
    add_library(${target} INTERFACE)
    add_dependencies(${target} ${target}_tilec)
  elseif(ARG_SHARED)
    list(GET artifacts 0 first)
    get_filename_component(first_name ${first} NAME)
    add_library(${target} SHARED IMPORTED GLOBAL)
    set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${dir}/lib${first_name} IMPORTED_NO_SONAME TRUE)
    add_dependencies(${target} ${target}_tilec)
  else()
    add_library(${target} STATIC ${artifacts} ${headers})
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  endif()
  target_include_directories(${target} INTERFACE ${dir})
  if(kind STREQUAL "cuda")
    target_link_libraries(${target} INTERFACE CUDA::cuda_driver)
  elseif(kind STREQUAL "object" AND NOT ARG_SHARED)
    if(NOT TARGET Threads::Threads)
      find_package(Threads REQUIRED)
    endif()
    target_link_libraries(${target} INTERFACE Threads::Threads m)
  endif()
  set_target_properties(${target} PROPERTIES TILEC_KERNEL_ARTIFACTS "${artifacts}" TILEC_KERNEL_HEADERS "${headers}")
endfunction()
