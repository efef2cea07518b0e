#!/usr/bin/env python3
"""Makes the checkpoint fixtures of the io and cli tests with Hugging Face transformers, and checks
that transformers loads what `tegula convert` writes from them.

    pip install torch transformers safetensors numpy

    python make_checkpoints.py make [DIR]
        writes, next to this script (or under DIR):
        tiny-llama/         a Llama of 2 layers saved in bf16 by save_pretrained in 3 shards, with
                            model.safetensors.index.json, config.json, generation_config.json and
                            tokenizer files
        tiny-llama-single/  a Llama of 1 layer saved in bf16 as one model.safetensors
        expected.json       what transformers saved, per fixture: its files, each tensor's dtype,
                            shape and shard, the shards' __metadata__, and the keys of the model's
                            state_dict (what its loader looks for)

    python make_checkpoints.py check ORIGINAL CONVERTED
        compares two checkpoint directories: every tensor of CONVERTED's files equals ORIGINAL's
        converted to CONVERTED's dtype, bit for bit; then loads both with transformers
        (from_pretrained in f32, tokenizer, generation config) and, where the conversion lost
        nothing (bf16 to f32, or a layout and back), checks that the loaded weights, the logits of
        a prompt and a greedy generation are equal bit for bit. Exit status 0 when they agree.
"""
import json
import os
import sys

import torch
from safetensors import safe_open
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (AutoTokenizer, GenerationConfig, LlamaConfig, LlamaForCausalLM,
                          PreTrainedTokenizerFast)

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = ["<unk>", "<s>", "</s>"] + ["w%d" % i for i in range(125)]
PROMPT = "w1 w7 w42 w99 w3 w120 w64 w5"


def tokenizer():
    vocab = {w: i for i, w in enumerate(WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                   eos_token="</s>")


def model(layers, seed):
    torch.manual_seed(seed)
    config = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
                         num_attention_heads=4, num_key_value_heads=2, vocab_size=len(WORDS),
                         max_position_embeddings=64, tie_word_embeddings=False,
                         bos_token_id=1, eos_token_id=2)
    m = LlamaForCausalLM(config)
    with torch.no_grad():   # norm weights away from 1.0, so a mix-up of tensors shows
        for name, p in m.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.1 * torch.randn_like(p))
    return m.to(torch.bfloat16).eval()


def saved(directory, m):
    """What transformers saved in `directory`: files, tensors by name, shard metadata, state_dict keys."""
    tensors = {}
    shard_metadata = {}
    for f in sorted(os.listdir(directory)):
        if f.endswith(".safetensors"):
            with safe_open(os.path.join(directory, f), framework="pt") as s:
                shard_metadata[f] = s.metadata()
                for k in s.keys():
                    sl = s.get_slice(k)
                    tensors[k] = {"dtype": sl.get_dtype(), "shape": sl.get_shape(), "shard": f}
    return {"files": sorted(os.listdir(directory)), "tensors": tensors,
            "shard_metadata": shard_metadata, "state_dict_keys": sorted(m.state_dict().keys())}


def make(out):
    expected = {}
    for name, layers, seed, shard in [("tiny-llama", 2, 1, "80KB"), ("tiny-llama-single", 1, 2, "5GB")]:
        directory = os.path.join(out, name)
        m = model(layers, seed)
        m.generation_config = GenerationConfig(bos_token_id=1, eos_token_id=2, max_new_tokens=8,
                                               do_sample=False)
        m.save_pretrained(directory, max_shard_size=shard)
        tokenizer().save_pretrained(directory)
        expected[name] = saved(directory, m)
    with open(os.path.join(out, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")


def tensors(directory):
    """Every tensor of a checkpoint directory, read from its safetensors files."""
    out = {}
    for f in sorted(os.listdir(directory)):
        if f.endswith(".safetensors"):
            with safe_open(os.path.join(directory, f), framework="pt") as s:
                for k in s.keys():
                    out[k] = s.get_tensor(k)
    return out


def check(original, converted):
    ta, tb = tensors(original), tensors(converted)
    assert sorted(ta) == sorted(tb), "tensor names differ: %s" % sorted(set(ta) ^ set(tb))
    lossless = True
    for k in ta:
        want = ta[k].to(tb[k].dtype)
        assert tb[k].shape == want.shape, "%s: shape %s, want %s" % (k, tb[k].shape, want.shape)
        assert torch.equal(tb[k], want), "%s differs from the original converted to %s" % (k, tb[k].dtype)
        lossless &= torch.equal(want.to(ta[k].dtype), ta[k])
    print("files: %d tensors equal to the original's in their dtypes (%s -> %s)" % (
        len(ta), ", ".join(sorted({str(t.dtype) for t in ta.values()})),
        ", ".join(sorted({str(t.dtype) for t in tb.values()}))))
    a = LlamaForCausalLM.from_pretrained(original, dtype=torch.float32).eval()
    b = LlamaForCausalLM.from_pretrained(converted, dtype=torch.float32).eval()
    sa, sb = a.state_dict(), b.state_dict()
    assert sorted(sa) == sorted(sb), "state_dict keys differ: %s" % sorted(set(sa) ^ set(sb))
    if lossless:
        for k in sa:
            assert torch.equal(sa[k], sb[k]), "%s differs once loaded" % k
    tok_a, tok_b = AutoTokenizer.from_pretrained(original), AutoTokenizer.from_pretrained(converted)
    ids = tok_a(PROMPT, return_tensors="pt").input_ids
    assert torch.equal(ids, tok_b(PROMPT, return_tensors="pt").input_ids), "tokenizers differ"
    assert GenerationConfig.from_pretrained(original).to_dict() == GenerationConfig.from_pretrained(converted).to_dict()
    print("from_pretrained: %d weights%s; tokenizer and generation config equal (%d tokens)" % (
        len(sa), " equal" if lossless else "", ids.shape[1]))
    with torch.no_grad():
        la, lb = a(ids).logits, b(ids).logits
    if lossless:
        assert torch.equal(la, lb), "logits differ by up to %g" % (la - lb).abs().max()
        print("logits (f32): equal bit for bit, shape %s" % list(la.shape))
    else:
        print("logits (f32): differ by up to %g (the conversion rounds), shape %s" % ((la - lb).abs().max(), list(la.shape)))
    same = torch.equal(a.generate(ids, max_new_tokens=8, do_sample=False), b.generate(ids, max_new_tokens=8, do_sample=False))
    print("greedy generation of 8 tokens: %s" % ("equal" if same else "differs"))
    assert same or not lossless


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "make":
        make(sys.argv[2] if len(sys.argv) > 2 else HERE)
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
