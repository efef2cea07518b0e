#!/usr/bin/env python3
"""Makes the fixture of examples/jlama with Hugging Face transformers (run it from anywhere; it
writes next to itself):

    pip install torch transformers safetensors tokenizers
    python3 generate.py

tiny-llama/     a Llama (hidden 64, 2 layers, 4 heads, 2 key-value heads, vocabulary of 128 words)
                saved in f32 by save_pretrained as one model.safetensors, with config.json,
                generation_config.json and a word-level tokenizer (tokenizer.json,
                tokenizer_config.json)
expected.json   the prompt's token ids and the greedy continuation transformers computes from the
                weights rounded to bf16 (the weights the example converts to), in f32 arithmetic

The output layer is scaled (LOGIT_SCALE) so that at every step of the reference the best token leads the second
by a wide margin (at least MARGIN in logits): then the order does not depend on the last bits of
a consumer's arithmetic (Jlama's bf16 dot products round differently from PyTorch's), and equal
tokens mean the weights were read right. The seed is the first one from 1 that gives such margins
and a continuation of at least DISTINCT different tokens (not one token repeated).
"""
import json
import os

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = ["<unk>", "<s>", "</s>"] + ["w%d" % i for i in range(125)]
PROMPT = "w1 w7 w42 w99 w3"
NEW_TOKENS = 12
MARGIN = 0.5
LOGIT_SCALE = 25.0
DISTINCT = 4


def tokenizer():
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>")


def model(seed):
    torch.manual_seed(seed)
    config = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, vocab_size=len(WORDS), max_position_embeddings=64,
                         tie_word_embeddings=False, bos_token_id=1, eos_token_id=2)
    m = LlamaForCausalLM(config)
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.1 * torch.randn_like(p))   # away from 1.0, so a mix-up of tensors shows
        m.lm_head.weight.mul_(LOGIT_SCALE)
    return m.float().eval()


def greedy(m, ids):
    """{return the greedy continuation of ids and the smallest lead of the best logit over the second}"""
    ids = list(ids)
    out, lead = [], float("inf")
    with torch.no_grad():
        for _ in range(NEW_TOKENS):
            logits = m(torch.tensor([ids])).logits[0, -1]
            top = torch.topk(logits, 2)
            lead = min(lead, float(top.values[0] - top.values[1]))
            t = int(top.indices[0])
            if t == 2:   # end of sequence: pick again without it, so every step has a token to compare
                logits[2] = -float("inf")
                top = torch.topk(logits, 2)
                lead = min(lead, float(top.values[0] - top.values[1]))
                t = int(top.indices[0])
            out.append(t)
            ids.append(t)
    return out, lead


def main():
    tok = tokenizer()
    prompt = [1] + tok(PROMPT, add_special_tokens=False)["input_ids"]
    for seed in range(1, 100):
        m = model(seed)
        rounded = model(seed)
        with torch.no_grad():
            for p in rounded.parameters():
                p.copy_(p.to(torch.bfloat16).float())
        tokens, lead = greedy(rounded, prompt)
        f32_tokens, f32_lead = greedy(m, prompt)
        if min(lead, f32_lead) >= MARGIN and tokens == f32_tokens and len(set(tokens)) >= DISTINCT:
            break
    else:
        raise SystemExit("no seed gives margins of %s" % MARGIN)
    directory = os.path.join(HERE, "tiny-llama")
    m.save_pretrained(directory, safe_serialization=True)
    tok.save_pretrained(directory)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump({"seed": seed, "prompt": PROMPT, "prompt_ids": prompt, "greedy_ids": tokens,
                   "greedy_text": tok.decode(tokens), "smallest_lead": round(min(lead, f32_lead), 3)}, f, indent=2)
        f.write("\n")
    print("seed", seed, "tokens", tokens, "smallest lead %.3f" % min(lead, f32_lead))


if __name__ == "__main__":
    main()
