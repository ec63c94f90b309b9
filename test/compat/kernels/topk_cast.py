# tile-lang's top-k and per-token fp8 cast examples in prim_func style.
import tilelang.language as T

M = 128
N = 136
topk = 6
blk_m = 64
group_size = 128
fp8_max = 448.0


@T.prim_func
def tl_topk(logits: T.Tensor((M, N), T.float32), topk_gates: T.Tensor((M, topk), T.float32),
            topk_indices: T.Tensor((M, topk), T.int32)):
    with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
        logits_frag = T.alloc_fragment((blk_m, N), T.float32)
        max_val = T.alloc_fragment((blk_m,), T.float32)
        expand_max_idx = T.alloc_fragment((blk_m, N), T.int32)
        max_idx = T.alloc_fragment((blk_m,), T.int32)
        T.copy(logits[bx * blk_m, 0], logits_frag)
        for k in T.serial(topk):
            T.fill(expand_max_idx, -1)
            T.reduce_max(logits_frag, max_val, dim=1, clear=True)
            for i, j in T.Parallel(blk_m, N):
                expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])
            T.reduce_max(expand_max_idx, max_idx, dim=1, clear=True)
            for i, j in T.Parallel(blk_m, N):
                logits_frag[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], -10000.0, logits_frag[i, j])
            for i in T.Parallel(blk_m):
                topk_gates[bx * blk_m + i, k] = max_val[i]
                topk_indices[bx * blk_m + i, k] = max_idx[i]


CM = 200
CN = 200
cblk = 8


@T.prim_func
def per_token_cast_to_fp8(X: T.Tensor((CM, CN), T.float32), X_fp8: T.Tensor((CM, CN), T.float8_e4m3),
                          X_amax: T.Tensor((CM, T.ceildiv(CN, group_size)), T.float32)):
    with T.Kernel(T.ceildiv(CM, cblk), T.ceildiv(CN, group_size), threads=128) as (bx, by):
        y_local = T.alloc_fragment((cblk, group_size), T.float32)
        y_amax_local = T.alloc_fragment((cblk,), T.float32)
        y_s_local = T.alloc_fragment((cblk,), T.float32)
        y_q_local = T.alloc_fragment((cblk, group_size), T.float32)
        y_q_local_fp8 = T.alloc_fragment((cblk, group_size), T.float8_e4m3)
        T.copy(X[bx * cblk:(bx + 1) * cblk, by * group_size:(by + 1) * group_size], y_local)
        T.reduce_absmax(y_local, y_amax_local, dim=1)
        for i in T.Parallel(cblk):
            y_amax_local[i] = T.max(y_amax_local[i], 1e-4)
            y_s_local[i] = y_amax_local[i] / fp8_max
        for i, j in T.Parallel(cblk, group_size):
            y_q_local[i, j] = T.min(T.max(y_local[i, j] / y_s_local[i], -fp8_max), fp8_max)
        T.copy(y_q_local, y_q_local_fp8)
        for i in T.Parallel(cblk):
            X_amax[bx * cblk + i, by] = y_s_local[i]
        T.copy(y_q_local_fp8, X_fp8[bx * cblk:(bx + 1) * cblk, by * group_size:(by + 1) * group_size])
