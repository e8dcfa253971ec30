#!/usr/bin/env python3
"""Shape-true stand-in models for sherpa-onnx's loaders (test fixtures; see docs/decisions).

No real weights can be downloaded on the build machine, so the tests run sherpa-onnx's real native
code on small ONNX files that have exactly the inputs, outputs and metadata its loaders read
(sherpa-onnx 1.13.8, read from its C++ sources):

  diarization/segmentation.onnx  pyannote segmentation-3.0: x (N,1,T) -> y (N,589,7) for 10 s windows
  diarization/embedding.onnx     WeSpeaker speaker embedding: fbank (N,T,80) -> (N,256)
  parakeet/{encoder,decoder,joiner}.int8.onnx + tokens.txt
                                 NeMo TDT transducer: 128-dim features, subsampling 8, LSTM-shaped
                                 prediction states, joiner output = vocabulary + blank + 5 durations
  sense-voice/model.int8.onnx + tokens.txt
                                 SenseVoice CTC: LFR features (N,T,560) + language + text_norm ->
                                 logits (N,T+4,V), the four prefix frames being language, emotion,
                                 event and ITN tags

The weights are random (seeded) except where a stand-in must behave enough like the real model for
the pipeline to have something to do: the segmentation model marks loud frames as speech and splits
them between two "speakers" by spectral shape; the recognizers' first four SenseVoice frames name the
requested language. Hidden sizes are small (each file just over the 64 KB the engine's cheap file check asks of a
model, a few hundred KB in all); the dimensions the
native code sees (features, frame counts, metadata) are the real ones.

  python3 scripts/make-sherpa-stand-ins.py [out_dir]   (default server/test/fixtures/sherpa)

Needs `pip install onnx numpy`; the product and CI only read the committed files.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
IR_VERSION = 8
rng = np.random.default_rng(29)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def rand(*shape, scale=0.1):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(path, nodes, inputs, outputs, initializers, meta):
    graph = helper.make_graph(nodes, os.path.basename(path), inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    for key, value in meta.items():
        p = model.metadata_props.add()
        p.key = key
        p.value = str(value)
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    onnx.save(model, path)


def tensor(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


F = TensorProto.FLOAT
I32 = TensorProto.INT32
I64 = TensorProto.INT64


def segmentation(path, thr=-4.0):
    """pyannote segmentation-3.0's interface. SincNet's strides (conv 251/10, three max-pools of 3
    around two convs of 5) give exactly 589 frames per 160000 samples, as the real model does.
    SincNet's first layer is a bank of band-pass filters; here they are fixed (100 Hz-4 kHz, log
    spaced), followed by smoothing: loud frames are speech, and the share of energy below 160 Hz
    against 160-320 Hz (a low or a high voice) says which of two local speakers talks."""
    c = 40
    freqs = np.geomspace(100, 4000, c)
    t = np.arange(251) / 16000
    bank = np.stack([np.sin(2 * np.pi * f * t) * np.hanning(251) for f in freqs])
    w1 = (bank / np.abs(bank).sum(1, keepdims=True))[:, None, :].astype(np.float32)
    smooth = np.zeros((c, c, 5), np.float32)
    for i in range(c):
        smooth[i, i, :] = 0.2
    direction = np.where(freqs < 160, 1.0, np.where(freqs < 320, -0.6, 0.0)).astype(np.float32)[:, None]
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], strides=[10]),
        helper.make_node("Abs", ["c1"], ["a1"]),
        helper.make_node("MaxPool", ["a1"], ["p1"], kernel_shape=[3], strides=[3]),
        helper.make_node("Conv", ["p1", "smooth"], ["c2"]),
        helper.make_node("MaxPool", ["c2"], ["p2"], kernel_shape=[3], strides=[3]),
        helper.make_node("Conv", ["p2", "smooth"], ["c3"]),
        helper.make_node("MaxPool", ["c3"], ["p3"], kernel_shape=[3], strides=[3]),
        helper.make_node("Transpose", ["p3"], ["f"], perm=[0, 2, 1]),  # (N, 589, c)
        helper.make_node("ReduceSum", ["f", "axis2"], ["sum"], keepdims=1),
        helper.make_node("Add", ["sum", "eps"], ["sum_eps"]),
        helper.make_node("Div", ["f", "sum_eps"], ["shape"]),
        helper.make_node("Log", ["sum_eps"], ["loud"]),  # (N, 589, 1)
        helper.make_node("MatMul", ["shape", "direction"], ["who_raw"]),  # (N, 589, 1)
        # Which voice is decided over half a second, not frame by frame.
        helper.make_node("Transpose", ["who_raw"], ["who_t"], perm=[0, 2, 1]),
        helper.make_node("AveragePool", ["who_t"], ["who_avg"], kernel_shape=[31], pads=[15, 15], count_include_pad=0),
        helper.make_node("Transpose", ["who_avg"], ["who"], perm=[0, 2, 1]),
        helper.make_node("Add", ["who", "who_bias"], ["who_c"]),
        helper.make_node("Mul", ["who_c", "who_gain"], ["who_s"]),
        helper.make_node("Sub", ["thr", "loud"], ["l0"]),
        helper.make_node("Mul", ["l0", "loud_gain"], ["silence"]),
        helper.make_node("Sub", ["loud", "thr"], ["speech"]),
        helper.make_node("Add", ["speech", "who_s"], ["l1"]),
        helper.make_node("Sub", ["speech", "who_s"], ["l2"]),
        helper.make_node("Mul", ["speech", "overlap_gain"], ["l3"]),
        helper.make_node("Concat", ["silence", "l1", "l2", "l3", "l3", "l3", "l3"], ["logits"], axis=2),
        helper.make_node("LogSoftmax", ["logits"], ["y"], axis=2),
    ]
    inits = [
        init("w1", w1),
        init("smooth", smooth),
        init("direction", direction),
        init("axis2", np.array([2], np.int64)),
        init("eps", np.array(1e-4, np.float32)),
        init("thr", np.array(thr, np.float32)),
        init("loud_gain", np.array(4.0, np.float32)),
        init("who_bias", np.array(0.1, np.float32)),
        init("who_gain", np.array(100.0, np.float32)),
        init("overlap_gain", np.array(-1.0, np.float32)),
    ]
    meta = {
        "num_speakers": 3,
        "powerset_max_classes": 2,
        "num_classes": 7,
        "sample_rate": 16000,
        "window_size": 160000,
        "receptive_field_size": 991,
        "receptive_field_shift": 270,
        "model_type": "pyannote-segmentation-3.0",
        "version": "1",
        "model_author": "ClipScribe stand-in (random weights)",
        "maintainer": "k2-fsa",
    }
    save(path, nodes, [tensor("x", F, ["N", 1, "T"])], [tensor("y", F, ["N", "T", 7])], inits, meta)


def embedding(path):
    """A WeSpeaker model's interface: 80-dim fbank frames in, one 256-dim embedding out. The
    stand-in projects the mean log-mel spectrum (loudness removed), so voices of different pitch
    land apart."""
    nodes = [
        helper.make_node("ReduceMean", ["feats"], ["m"], axes=[1], keepdims=0),  # (N, 80)
        helper.make_node("ReduceMean", ["m"], ["level"], axes=[1], keepdims=1),
        helper.make_node("Sub", ["m", "level"], ["shape"]),
        helper.make_node("MatMul", ["shape", "proj"], ["embs"]),
    ]
    meta = {
        "framework": "wespeaker",
        "output_dim": 256,
        "sample_rate": 16000,
        "normalize_samples": 0,
        "language": "English",
        "comment": "ClipScribe stand-in (random weights)",
    }
    save(
        path,
        nodes,
        [tensor("feats", F, ["B", "T", 80])],
        [tensor("embs", F, ["B", 256])],
        [init("proj", rand(80, 256, scale=0.5))],
        meta,
    )


# A little vocabulary of Latin-script pieces; "▁" starts a word, as in the real BPE tokens.
PARAKEET_PIECES = (
    "▁der ▁die ▁das ▁und ▁ist ▁nicht ▁ein ▁eine ▁zu ▁den ▁mit ▁sich ▁auf ▁für ▁wir ▁ich ▁es ▁sie"
    " ▁the ▁and ▁to ▁of ▁a ▁in ▁is ▁we ▁you ▁it ▁that ▁la ▁le ▁de ▁el ▁que ▁y ▁en ▁un ▁una"
    " ▁Haus ▁Zeit ▁heute ▁Morgen ▁gut ▁Welt ▁Stadt ▁Wasser ▁Leute ▁Jahr ▁Tag ▁Arbeit"
    " en er ch st un ge te ig ung lich heit s n t e r . , ? !"
).split()


def parakeet(d):
    """NeMo Parakeet TDT's interface as sherpa-onnx's nemo_transducer loader reads it."""
    vocab = ["<unk>"] + PARAKEET_PIECES
    v = len(vocab)  # vocab_size in the metadata (blank not counted, as NeMo counts)
    feat, dim, hidden, joint, layers, durations = 128, 32, 256, 64, 2, 5
    with open(os.path.join(d, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, t in enumerate(vocab):
            f.write(f"{t} {i}\n")
        f.write(f"<blk> {v}\n")

    enc_meta = {
        "vocab_size": v,
        "normalize_type": "per_feature",
        "subsampling_factor": 8,
        "model_type": "EncDecRNNTBPEModel",
        "version": "2",
        "model_author": "ClipScribe stand-in (random weights)",
        "url": "https://huggingface.co/nvidia/parakeet-tdt-0.6b-v3",
        "comment": "Only the transducer interface; random weights",
        "pred_rnn_layers": layers,
        "pred_hidden": hidden,
        "feat_dim": feat,
    }
    # Encoder: (N, 128, T) -> (N, dim, T // 8) through one stride-8 convolution.
    save(
        os.path.join(d, "encoder.int8.onnx"),
        [
            helper.make_node("Conv", ["audio_signal", "w"], ["c"], strides=[8]),
            helper.make_node("Tanh", ["c"], ["outputs"]),
            helper.make_node("Div", ["length", "eight"], ["encoded_lengths"]),
        ],
        [tensor("audio_signal", F, ["N", feat, "T"]), tensor("length", I64, ["N"])],
        [tensor("outputs", F, ["N", dim, "T2"]), tensor("encoded_lengths", I64, ["N"])],
        [init("w", rand(dim, feat, 8, scale=0.05)), init("eight", np.array(8, np.int64))],
        enc_meta,
    )
    # Decoder: a token and two LSTM-shaped states in, (N, hidden, 1) and the next states out.
    save(
        os.path.join(d, "decoder.int8.onnx"),
        [
            helper.make_node("Gather", ["embed", "targets"], ["e"]),  # (N, 1, H)
            helper.make_node("Transpose", ["e"], ["e_t"], perm=[1, 0, 2]),  # (1, N, H)
            helper.make_node("Mul", ["states.1", "half"], ["h_half"]),
            helper.make_node("Add", ["h_half", "e_t"], ["h_sum"]),
            helper.make_node("Tanh", ["h_sum"], ["states"]),
            helper.make_node("Mul", ["onnx::Slice_3", "half"], ["c_half"]),
            helper.make_node("Add", ["c_half", "states"], ["c_sum"]),
            helper.make_node("Tanh", ["c_sum"], ["162"]),
            helper.make_node("Gather", ["states", "last"], ["top"], axis=0),  # (N, H)
            helper.make_node("Unsqueeze", ["top", "axis2"], ["outputs"]),  # (N, H, 1)
            helper.make_node("Identity", ["target_length"], ["prednet_lengths"]),
        ],
        [
            tensor("targets", I32, ["N", 1]),
            tensor("target_length", I32, ["N"]),
            tensor("states.1", F, [layers, "N", hidden]),
            tensor("onnx::Slice_3", F, [layers, "N", hidden]),
        ],
        [
            tensor("outputs", F, ["N", hidden, 1]),
            tensor("prednet_lengths", I32, ["N"]),
            tensor("states", F, [layers, "N", hidden]),
            tensor("162", F, [layers, "N", hidden]),
        ],
        [
            init("embed", rand(v + 1, hidden, scale=1.0)),
            init("half", np.array(0.5, np.float32)),
            init("last", np.array(layers - 1, np.int64)),
            init("axis2", np.array([2], np.int64)),
        ],
        {"comment": "ClipScribe stand-in (random weights)"},
    )
    # Joiner: token logits (vocabulary + blank) then 5 duration logits, (N, 1, 1, v + 1 + 5).
    out = v + 1 + durations
    bias = np.zeros(out, np.float32)
    bias[v] = 0.3  # blank: a few frames stay silent
    bias[v + 1] = -3.0  # duration 0: rarely, so the decoder moves on
    save(
        os.path.join(d, "joiner.int8.onnx"),
        [
            helper.make_node("Transpose", ["encoder_outputs"], ["et"], perm=[0, 2, 1]),
            helper.make_node("Transpose", ["decoder_outputs"], ["dt"], perm=[0, 2, 1]),
            helper.make_node("MatMul", ["et", "we"], ["ep"]),
            helper.make_node("MatMul", ["dt", "wd"], ["dp"]),
            helper.make_node("Add", ["ep", "dp"], ["s"]),
            helper.make_node("Relu", ["s"], ["r"]),
            helper.make_node("MatMul", ["r", "wo"], ["o"]),
            helper.make_node("Add", ["o", "bo"], ["ob"]),  # (N, 1, out)
            helper.make_node("Unsqueeze", ["ob", "axis1"], ["outputs"]),
        ],
        [tensor("encoder_outputs", F, ["N", dim, 1]), tensor("decoder_outputs", F, ["N", hidden, 1])],
        [tensor("outputs", F, ["N", 1, 1, out])],
        [
            init("we", rand(dim, joint, scale=0.5)),
            init("wd", rand(hidden, joint, scale=0.5)),
            init("wo", rand(joint, out, scale=0.5)),
            init("bo", bias),
            init("axis1", np.array([1], np.int64)),
        ],
        {"comment": "ClipScribe stand-in (random weights)"},
    )


SENSE_VOICE_SPECIALS = [
    "<unk>", "<s>", "</s>",
    "<|zh|>", "<|en|>", "<|yue|>", "<|ja|>", "<|ko|>", "<|nospeech|>",
    "<|NEUTRAL|>", "<|HAPPY|>", "<|Speech|>", "<|BGM|>", "<|withitn|>", "<|woitn|>",
]
SENSE_VOICE_TEXT = list(
    "今日は天気がいいですね私の名前を言います日本語で話しましょう会議を始めます"
    "我们今天开会吧你好世界中文"
    "안녕하세요회의"
    "。、？！"
) + ["▁hello", "▁world", "▁meeting"]
# The query ids the real export stores in its metadata (language and text normalisation embeddings).
SV_LANG_IDS = {"auto": 0, "zh": 3, "en": 4, "yue": 7, "ja": 11, "ko": 12}
SV_WITH_ITN, SV_WITHOUT_ITN = 14, 15


def sense_voice(d):
    """SenseVoice-Small's interface as sherpa-onnx's sense_voice loader reads it."""
    seen = set()
    vocab = []
    for t in SENSE_VOICE_SPECIALS + SENSE_VOICE_TEXT:
        if t not in seen:
            seen.add(t)
            vocab.append(t)
    v = len(vocab)
    ids = {t: i for i, t in enumerate(vocab)}
    with open(os.path.join(d, "tokens.txt"), "w", encoding="utf-8") as f:
        for i, t in enumerate(vocab):
            f.write(f"{t} {i}\n")
    feat, hidden = 560, 32

    def one_hot(token):
        row = np.full(v, -10.0, np.float32)
        row[ids[token]] = 10.0
        return row

    # The four prefix frames: language (from the language input), emotion, event, ITN (from text_norm).
    lang_table = np.stack([one_hot("<|zh|>")] * 16)
    for code, idx in SV_LANG_IDS.items():
        if code != "auto":
            lang_table[idx] = one_hot(f"<|{code}|>")
    itn_table = np.stack([one_hot("<|woitn|>")] * 16)
    itn_table[SV_WITH_ITN] = one_hot("<|withitn|>")
    body_bias = np.zeros(v, np.float32)
    body_bias[ids["<unk>"]] = 0.5  # blank (id 0) between tokens
    for t in SENSE_VOICE_SPECIALS[1:]:
        body_bias[ids[t]] = -20.0  # never a tag inside the text
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Tanh", ["h"], ["ht"]),
        helper.make_node("MatMul", ["ht", "w2"], ["b"]),
        helper.make_node("Add", ["b", "body_bias"], ["body"]),  # (N, T, V)
        helper.make_node("Gather", ["lang_table", "language"], ["lang"]),  # (N, V)
        helper.make_node("Gather", ["itn_table", "text_norm"], ["itn"]),
        helper.make_node("Shape", ["lang"], ["nv"]),
        helper.make_node("Expand", ["emotion_row", "nv"], ["emotion"]),
        helper.make_node("Expand", ["event_row", "nv"], ["event"]),
        helper.make_node("Unsqueeze", ["lang", "axis1"], ["p0"]),
        helper.make_node("Unsqueeze", ["emotion", "axis1"], ["p1"]),
        helper.make_node("Unsqueeze", ["event", "axis1"], ["p2"]),
        helper.make_node("Unsqueeze", ["itn", "axis1"], ["p3"]),
        helper.make_node("Concat", ["p0", "p1", "p2", "p3", "body"], ["logits"], axis=1),
    ]
    inits = [
        init("w1", rand(feat, hidden, scale=0.05)),
        init("w2", rand(hidden, v, scale=1.0)),
        init("body_bias", body_bias),
        init("lang_table", lang_table),
        init("itn_table", itn_table),
        init("emotion_row", one_hot("<|NEUTRAL|>")),
        init("event_row", one_hot("<|Speech|>")),
        init("axis1", np.array([1], np.int64)),
    ]
    meta = {
        "model_type": "sense_voice_ctc",
        "version": "1",
        "model_author": "ClipScribe stand-in (random weights)",
        "comment": "iic/SenseVoiceSmall interface",
        "vocab_size": v,
        "blank_id": 0,
        "lfr_window_size": 7,
        "lfr_window_shift": 6,
        "normalize_samples": 0,
        "with_itn": SV_WITH_ITN,
        "without_itn": SV_WITHOUT_ITN,
        **{f"lang_{k}": i for k, i in SV_LANG_IDS.items()},
        "neg_mean": ",".join(["-8.0"] * feat),
        "inv_stddev": ",".join(["0.25"] * feat),
    }
    save(
        os.path.join(d, "model.int8.onnx"),
        nodes,
        [
            tensor("x", F, ["N", "T", feat]),
            tensor("x_length", I32, ["N"]),
            tensor("language", I32, ["N"]),
            tensor("text_norm", I32, ["N"]),
        ],
        [tensor("logits", F, ["N", "T2", v])],
        inits,
        meta,
    )


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("server", "test", "fixtures", "sherpa")
    segmentation(os.path.join(out, "diarization", "segmentation.onnx"))
    embedding(os.path.join(out, "diarization", "embedding.onnx"))
    os.makedirs(os.path.join(out, "parakeet"), exist_ok=True)
    parakeet(os.path.join(out, "parakeet"))
    os.makedirs(os.path.join(out, "sense-voice"), exist_ok=True)
    sense_voice(os.path.join(out, "sense-voice"))
    total = 0
    for root, _, files in os.walk(out):
        for name in sorted(files):
            size = os.path.getsize(os.path.join(root, name))
            total += size
            print(f"{os.path.join(root, name)}  {size} bytes")
    print(f"total {total} bytes")


if __name__ == "__main__":
    main()
