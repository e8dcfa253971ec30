#!/usr/bin/env python3
"""Encoder layers at the real widths of Parakeet TDT 0.6B and SenseVoice-Small, for bench/engines.ts.

No real weights can be fetched here, and a full random-weight copy of each model would take
gigabytes to write. The encoder is where nearly all of their compute goes (the TDT prediction and
joint networks run once per emitted token; SenseVoice's CTC head is one matrix), so the bench runs
`layers` encoder layers at the real width on the real number of frames and scales the time to the
real layer count. Layers follow each architecture's shape (not every detail):

  parakeet   FastConformer: d 1024, FFN 4096 (two, macaron), 8 heads, conv module (pointwise 2048 +
             GLU, depthwise kernel 9), 24 layers, 80 ms frames (8x subsampling of 10 ms features)
  sensevoice SANM: d 512, FFN 2048, 4 heads, FSMN memory (depthwise kernel 11), 50 layers, 60 ms
             frames (LFR 7/6)

Weights are random, dynamically quantized to 8 bits like sherpa-onnx's int8 exports.

  python3 scripts/make-encoder-slices.py <out_dir> [layers]
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

rng = np.random.default_rng(7)
SPECS = {
    "parakeet": dict(d=1024, ff=4096, heads=8, kernel=9, glu=True, macaron=True, total_layers=24, frame_sec=0.08),
    "sensevoice": dict(d=512, ff=2048, heads=4, kernel=11, glu=False, macaron=False, total_layers=50, frame_sec=0.06),
}


def build(name, spec, layers, path):
    d, ff, h, k = spec["d"], spec["ff"], spec["heads"], spec["kernel"]
    dh = d // h
    nodes, inits = [], []
    counter = [0]

    def w(shape, scale=0.02):
        counter[0] += 1
        n = f"w{counter[0]}"
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), n))
        return n

    def const(value, dtype=np.int64):
        counter[0] += 1
        n = f"c{counter[0]}"
        inits.append(numpy_helper.from_array(np.asarray(value, dtype), n))
        return n

    def op(kind, ins, **attrs):
        counter[0] += 1
        out = f"t{counter[0]}"
        nodes.append(helper.make_node(kind, ins, [out], **attrs))
        return out

    def ln(x):
        return op("LayerNormalization", [x, w([d], 1.0), w([d], 0.0)], axis=-1)

    def swish(x):
        return op("Mul", [x, op("Sigmoid", [x])])

    def ffn(x, half):
        y = op("MatMul", [swish(op("MatMul", [ln(x), w([d, ff])])), w([ff, d])])
        if half:
            y = op("Mul", [y, const(0.5, np.float32)])
        return op("Add", [x, y])

    def mha(x):
        n = ln(x)
        shape = const([1, -1, h, dh])

        def heads(t, perm):
            return op("Transpose", [op("Reshape", [t, shape])], perm=perm)

        q = heads(op("MatMul", [n, w([d, d])]), [0, 2, 1, 3])
        kk = heads(op("MatMul", [n, w([d, d])]), [0, 2, 3, 1])
        v = heads(op("MatMul", [n, w([d, d])]), [0, 2, 1, 3])
        att = op("Softmax", [op("Mul", [op("MatMul", [q, kk]), const(1 / np.sqrt(dh), np.float32)])], axis=-1)
        o = op("Reshape", [op("Transpose", [op("MatMul", [att, v])], perm=[0, 2, 1, 3]), const([1, -1, d])])
        return op("Add", [x, op("MatMul", [o, w([d, d])])])

    def conv(x):
        n = ln(x)
        if spec["glu"]:
            a = op("MatMul", [n, w([d, d])])
            b = op("MatMul", [n, w([d, d])])
            n = op("Mul", [a, op("Sigmoid", [b])])
        t = op("Transpose", [n], perm=[0, 2, 1])
        c = op("Conv", [t, w([d, 1, k])], group=d, pads=[k // 2, k // 2])
        c = swish(c) if spec["glu"] else c
        y = op("Transpose", [c], perm=[0, 2, 1])
        if spec["glu"]:
            y = op("MatMul", [y, w([d, d])])
        return op("Add", [x, y])

    x = "x"
    for _ in range(layers):
        if spec["macaron"]:
            x = ffn(x, True)
            x = mha(x)
            x = conv(x)
            x = ffn(x, True)
            x = ln(x)
        else:
            x = mha(x)
            x = conv(x)
            x = ffn(x, False)
    nodes.append(helper.make_node("Identity", [x], ["y"]))
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "T", d])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "T", d])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    meta = model.metadata_props.add()
    meta.key, meta.value = "slice", f"{layers} of {spec['total_layers']} layers; frame {spec['frame_sec']} s; d {d}"
    fp32 = path + ".fp32.onnx"
    onnx.save(model, fp32)
    quantize_dynamic(fp32, path, weight_type=QuantType.QUInt8)
    os.remove(fp32)


def main():
    out = sys.argv[1]
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    os.makedirs(out, exist_ok=True)
    for name, spec in SPECS.items():
        path = os.path.join(out, f"{name}-encoder-{layers}-layers.int8.onnx")
        build(name, spec, layers, path)
        print(f"{path} {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
