# A user helper module, evaluated as a meta module.
import tilelang.language as T

BLOCK = 64

def align(x, a=BLOCK):
    return (x + a - 1) // a * a

def fragment_or_shared(fast):
    return T.alloc_fragment if fast else T.alloc_shared
