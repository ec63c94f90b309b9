// Stands in for Apple's <simd/simd.h>; the generated code uses nothing from it.
