//===- ExportNames.cpp - Exported kernel symbols that would collide -------===//
//
// On host, CUDA and Ascend a kernel's name is a C function: the launcher the
// object or shared library exports and the header declares (Ascend: the
// `extern "C"` kernel itself). A name the program already has -- `main`, a
// symbol of the C runtime (`_init`, `_start`), a function or function-like
// macro of the C library (`exp`, `printf`, `malloc`, `time`), a name of
// <cuda.h> on CUDA -- gives a header no C
// compiler accepts beside those headers, and worse, a symbol that
// interposes the C library's at link or load time (the program's calls to
// exp() or memcpy() would reach the kernel). Such a name is an error at the
// kernel's name that says how to export it otherwise (--kernel-name,
// --kernel-prefix). Vulkan, Metal and WebGPU declare only NAME_vk_* /
// NAME_mtl_* / NAME_wgpu_* names, so they take any name (Metal renames a
// reserved MSL entry point itself: lib/Target/Metal/MetalTarget.cpp).
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/ExportNames.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tilec;

namespace {

// C23 <math.h>: each also with an `f` and an `l` suffix (expf, expl).
const char *const mathFunctions[] = {"acos",
                                     "asin",
                                     "atan",
                                     "atan2",
                                     "cos",
                                     "sin",
                                     "tan",
                                     "acosh",
                                     "asinh",
                                     "atanh",
                                     "cosh",
                                     "sinh",
                                     "tanh",
                                     "exp",
                                     "exp2",
                                     "expm1",
                                     "exp10",
                                     "exp2m1",
                                     "exp10m1",
                                     "frexp",
                                     "ilogb",
                                     "ldexp",
                                     "llogb",
                                     "log",
                                     "log10",
                                     "log1p",
                                     "log2",
                                     "logp1",
                                     "log2p1",
                                     "log10p1",
                                     "logb",
                                     "modf",
                                     "scalbn",
                                     "scalbln",
                                     "cbrt",
                                     "compoundn",
                                     "fabs",
                                     "hypot",
                                     "pow",
                                     "pown",
                                     "powr",
                                     "rootn",
                                     "rsqrt",
                                     "sqrt",
                                     "erf",
                                     "erfc",
                                     "lgamma",
                                     "tgamma",
                                     "ceil",
                                     "floor",
                                     "nearbyint",
                                     "rint",
                                     "lrint",
                                     "llrint",
                                     "round",
                                     "lround",
                                     "llround",
                                     "roundeven",
                                     "trunc",
                                     "fromfp",
                                     "ufromfp",
                                     "fromfpx",
                                     "ufromfpx",
                                     "fmod",
                                     "remainder",
                                     "remquo",
                                     "copysign",
                                     "nan",
                                     "nextafter",
                                     "nexttoward",
                                     "nextup",
                                     "nextdown",
                                     "canonicalize",
                                     "fdim",
                                     "fmax",
                                     "fmin",
                                     "fmaximum",
                                     "fminimum",
                                     "fmaximum_num",
                                     "fminimum_num",
                                     "fmaximum_mag",
                                     "fminimum_mag",
                                     "fmaximum_mag_num",
                                     "fminimum_mag_num",
                                     "fma",
                                     "acospi",
                                     "asinpi",
                                     "atanpi",
                                     "atan2pi",
                                     "cospi",
                                     "sinpi",
                                     "tanpi",
                                     "sincos",
                                     "gamma",
                                     "significand",
                                     "drem",
                                     "j0",
                                     "j1",
                                     "jn",
                                     "y0",
                                     "y1",
                                     "yn",
                                     "finite",
                                     "isinf",
                                     "isnan",
                                     "pow10"};

// Other C23 library functions, the function-like macros a program may see
// (assert, isnan, va_start), and the most used POSIX functions.
const char *const libraryNames[] = {
    // <stdlib.h>
    "abort", "abs", "atexit", "at_quick_exit", "atof", "atoi", "atol", "atoll", "bsearch", "calloc", "div", "exit",
    "_Exit", "free", "free_sized", "free_aligned_sized", "getenv", "labs", "ldiv", "llabs", "lldiv", "malloc", "mblen",
    "mbstowcs", "mbtowc", "memalignment", "qsort", "quick_exit", "rand", "realloc", "srand", "strfromd", "strfromf",
    "strfroml", "strtod", "strtof", "strtol", "strtold", "strtoll", "strtoul", "strtoull", "system", "wcstombs",
    "wctomb", "aligned_alloc", "posix_memalign", "setenv", "unsetenv", "putenv", "mkstemp", "mkdtemp", "realpath",
    "random", "srandom", "drand48", "erand48", "lrand48", "mrand48", "srand48", "reallocarray",
    // <stdio.h>
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf", "scanf", "fscanf",
    "sscanf", "vscanf", "vfscanf", "vsscanf", "fopen", "fclose", "fflush", "freopen", "setbuf", "setvbuf", "fread",
    "fwrite", "fgetc", "fgets", "fputc", "fputs", "getc", "getchar", "putc", "putchar", "puts", "ungetc", "fseek",
    "ftell", "rewind", "fgetpos", "fsetpos", "clearerr", "feof", "ferror", "perror", "remove", "rename", "tmpfile",
    "tmpnam", "fdopen", "fileno", "popen", "pclose", "getline", "getdelim", "dprintf", "asprintf", "stdin", "stdout",
    "stderr",
    // <string.h>, <strings.h>
    "memcpy", "memmove", "memset", "memset_explicit", "memcmp", "memchr", "memccpy", "memmem", "memrchr", "strcpy",
    "strncpy", "strcat", "strncat", "strcmp", "strncmp", "strcoll", "strxfrm", "strchr", "strrchr", "strspn", "strcspn",
    "strpbrk", "strstr", "strtok", "strerror", "strlen", "strnlen", "strdup", "strndup", "stpcpy", "strsep", "bzero",
    "bcopy", "bcmp", "index", "rindex", "strcasecmp", "strncasecmp", "ffs",
    // <ctype.h>
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct", "isspace",
    "isupper", "isxdigit", "tolower", "toupper",
    // <time.h>
    "time", "clock", "difftime", "mktime", "strftime", "gmtime", "localtime", "asctime", "ctime", "timespec_get",
    "timegm", "nanosleep", "clock_gettime", "gettimeofday",
    // <signal.h>, <setjmp.h>, <locale.h>, <errno.h>, <assert.h>, <stdarg.h>, <stddef.h>, <math.h> macros
    "signal", "raise", "kill", "setjmp", "longjmp", "setlocale", "localeconv", "errno", "assert", "va_start", "va_arg",
    "va_end", "va_copy", "offsetof", "isfinite", "isnormal", "signbit", "fpclassify", "isgreater", "isgreaterequal",
    "isless", "islessequal", "islessgreater", "isunordered", "iszero", "issubnormal",
    // <unistd.h>, <fcntl.h>, <poll.h>, <sys/mman.h>, <sys/select.h>
    "read", "write", "open", "close", "lseek", "pipe", "dup", "dup2", "fork", "execl", "execv", "execve", "execvp",
    "sleep", "usleep", "alarm", "pause", "chdir", "getcwd", "unlink", "rmdir", "link", "symlink", "access", "getpid",
    "getppid", "isatty", "sync", "fsync", "truncate", "ftruncate", "sysconf", "select", "poll", "mmap", "munmap",
    "_exit", "wait", "waitpid", "stat", "fstat", "mkdir", "ioctl", "fcntl", "creat", "pread", "pwrite", "socket",
    "bind", "listen", "accept", "connect", "send", "recv", "sendto", "recvfrom", "shutdown", "dlopen", "dlsym",
    "dlclose", "dlerror"};

bool isMathFunction(llvm::StringRef name) {
  if (llvm::is_contained(mathFunctions, name))
    return true;
  return (name.ends_with("f") || name.ends_with("l")) && llvm::is_contained(mathFunctions, name.drop_back());
}

} // namespace

std::string tilec::exportedNameConflict(llvm::StringRef name, TargetKind kind) {
  if (kind != TargetKind::Host && kind != TargetKind::CUDA && kind != TargetKind::Ascend)
    return "";
  if (name == "main")
    return "the C program's entry point";
  // Defined by the C runtime's start files (crt1.o, crti.o) that every program and shared
  // library links, and the C library's environment variable.
  if (name == "_start" || name == "_init" || name == "_fini" || name == "environ")
    return "a symbol of the C runtime that every program links";
  if (isMathFunction(name))
    return "a function of the C library (<math.h>)";
  if (llvm::is_contained(libraryNames, name))
    return "a function or macro of the C library or POSIX";
  if (name.starts_with("pthread_"))
    return "a function or type of POSIX threads (<pthread.h>)";
  // <cuda.h>, which the CUDA header includes: cuInit, cuMemAlloc, CUstream.
  if (kind == TargetKind::CUDA && name.size() > 2 && (name.starts_with("cu") || name.starts_with("CU")) &&
      name[2] >= 'A' && name[2] <= 'Z')
    return "a name of the CUDA driver API (<cuda.h>, which the header includes)";
  return "";
}

mlir::LogicalResult tilec::checkExportedNames(mlir::ModuleOp module, TargetKind kind, bool fromKernelName,
                                              bool prefixed) {
  bool ok = true;
  for (tile::KernelOp kernel : module.getOps<tile::KernelOp>()) {
    llvm::StringRef name = kernel.getSymName();
    std::string why = exportedNameConflict(name, kind);
    if (why.empty())
      continue;
    kernel.emitError() << "kernel '" << name << "' would export the C symbol '" << name << "', which is " << why
                       << (fromKernelName ? " (the name comes from --kernel-name)" : "")
                       << (prefixed ? " (after --kernel-prefix)" : "")
                       << ": the header would not compile beside the C library's, and the symbol would take the "
                          "place of the program's own; export it under another name with --kernel-name "
                       << name << "_kernel, or prefix every symbol with --kernel-prefix PREFIX";
    ok = false;
  }
  return mlir::success(ok);
}
