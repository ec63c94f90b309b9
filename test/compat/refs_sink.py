"""NumPy references of tile-lang's attention-sink examples whose forward also stores lse, and
their backward kernels (attention_sink/example_{gqa,mha}_sink_bwd_{bhsd,varlen}).

Written from what each kernel computes; the sink enters the softmax denominator as
exp2(sink * log2e - m) (refs_attention.sink_rows), scores are base 2.
"""
import numpy as np

from refs import ref
from refs_attention import LOG2E, _sink_keep, sink_log2, sink_rows


@ref
def sink_fwd_bhsd_lse(ins, p):
    """flashattn_fwd of the sink backward examples (bhsd): causal from position 0, optional
    sliding window, Output and base-2 lse (batch, heads, seq_len); query head h reads kv head
    h // groups (groups = query heads per kv head)."""
    q, k, v, sinks = ins["Q"], ins["K"], ins["V"], ins["Sinks"]
    b, h, L, d = q.shape
    scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
    keep = _sink_keep(L, L, 0, True, p.get("window_size"))
    g = h // k.shape[1]
    o, lse = np.zeros(q.shape), np.zeros((b, h, L))
    for bi in range(b):
        for hi in range(h):
            o[bi, hi], lse[bi, hi] = sink_rows(q[bi, hi], k[bi, hi // g], v[bi, hi // g], scale,
                                               sink_log2(sinks[hi], p), keep)
    return {"Output": o, "lse": lse}
