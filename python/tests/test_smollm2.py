"""SmolLM2-135M-Instruct from its GGUF (examples/smollm2): the chat answer
transformers gives for the file (the issue's oracle, "The capital of France
is Paris."), the JSON interface, and bad input named clearly."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

smollm2 = pytest.importorskip(
    "examples.smollm2.generator",
    reason="needs the gguf, tokenizers and jinja2 packages")
from examples.smollm2.gguf_model import (LlamaGGUF, ModelFileError,  # noqa
                                         packaged_gguf)

try:
    GGUF = packaged_gguf()
except ModelFileError as error:
    pytest.skip(str(error), allow_module_level=True)


@pytest.fixture(scope="module")
def generator():
    return smollm2.Generator(max_seq=128, progress=lambda message: None)


def test_the_chat_answer_is_the_one_transformers_gives(generator):
    result = generator.generate("What is the capital of France?", 32)
    assert result.text == "The capital of France is Paris."
    assert result.ids[-1] == generator.config.eos_id
    # The prompt is the file's chat template with its default system
    # message, special tokens whole.
    assert result.prompt_ids[0] == 1          # <|im_start|>
    assert generator.tokenizer.decode(result.prompt_ids,
                                      skip_special_tokens=False) == (
        "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, "
        "trained by Hugging Face<|im_end|>\n<|im_start|>user\nWhat is the "
        "capital of France?<|im_end|>\n<|im_start|>assistant\n")
    # A second prompt reuses the caches from position 0.
    again = generator.generate("What is the capital of France?", 32)
    assert again.ids == result.ids


def test_a_prompt_longer_than_the_cache_is_refused(generator):
    with pytest.raises(ModelFileError, match=r"exceed the cache of 128 "
                       r"positions"):
        generator.generate("word " * 200, 8)
    with pytest.raises(ModelFileError, match="at least 1, got 0"):
        generator.generate("Hi", 0)


def test_an_exported_step_runs_without_staging_or_compiling(generator,
                                                             tmp_path):
    path = tmp_path / "step.mgart"
    generator.export(path)
    quiet = dict(max_seq=128, progress=lambda message: None)
    loaded = smollm2.Generator(artifact=path, **quiet)
    assert loaded.step.staged is None  # Loaded, not compiled.
    expected = generator.generate("What is the capital of France?", 8)
    got = loaded.generate("What is the capital of France?", 8)
    assert got.ids == expected.ids and got.text == expected.text
    # An artifact that is not this run's step is named, with what differs.
    with pytest.raises(ModelFileError, match=r"key caches are \[3, 64, "
                       r"128\], not \[3, 64, 64\] \(exported with another "
                       r"--max-seq"):
        smollm2.Generator(artifact=path, **dict(quiet, max_seq=64))
    with pytest.raises(ModelFileError, match="exported with --weights q4, "
                       "not f32"):
        smollm2.Generator(artifact=path, weights="f32", **quiet)
    with pytest.raises(ModelFileError, match="holds graph `smollm2`, not "
                       "`smollm2_sampled_top40`"):
        smollm2.Generator(artifact=path, sampling=smollm2.Sampling(),
                          **quiet)
    with pytest.raises(ModelFileError, match="the in-graph loop is "
                       "compiled, not loaded"):
        smollm2.Generator(artifact=path, in_graph_loop=True, **quiet)
    truncated = tmp_path / "truncated.mgart"
    truncated.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(ModelFileError, match="truncated.mgart: truncated "
                       "artifact"):
        smollm2.Generator(artifact=truncated, **quiet)
    with pytest.raises(ModelFileError, match="missing.mgart: cannot read"):
        smollm2.Generator(artifact=tmp_path / "missing.mgart", **quiet)


def test_json_interface():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), str(ROOT)]))
    out = subprocess.run(
        [sys.executable, "-m", "examples.smollm2", "--json", "--greedy",
         "--max-new-tokens", "4", "--max-seq", "64", "--threads", "1",
         "What is the capital of France?"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert set(result) == {"prompt_ids", "ids", "text",
                           "prefill_tokens_per_s", "decode_tokens_per_s"}
    assert len(result["ids"]) == 4
    assert result["text"] == "The capital of France"
    assert result["prefill_tokens_per_s"] > 0


def test_bad_files_are_named(tmp_path):
    truncated = tmp_path / "truncated.gguf"
    original = GGUF.read_bytes()
    # Ends in the vocabulary, the token types, the merges, the tensor table.
    for end in (4096, 800_000, 1_000_000, 1_780_000):
        truncated.write_bytes(original[:end])
        with pytest.raises(ModelFileError, match="truncated.gguf: not a "
                           "readable GGUF file"):
            LlamaGGUF(truncated)
    # Ends in the data of a tensor: named.
    truncated.write_bytes(original[:60_000_000])
    with pytest.raises(ModelFileError, match=r"not a readable GGUF file \(the "
                       r"file ends at byte 60000000, inside the data of "
                       r"tensor `blk\.\d+\.\w+\.weight`\)"):
        LlamaGGUF(truncated)
    # Arrays that claim more than the file holds: refused, not read on.
    import gguf
    reader = gguf.GGUFReader(str(GGUF))
    for key, expected in (("tokenizer.ggml.tokens", "claims 1099511627776 "
                           "strings, more than the file holds"),
                          ("tokenizer.ggml.token_type", "the file ends at byte "
                           f"{len(original)}, inside the 1099511627776 int32 "
                           "values at offset {}")):
        field = reader.fields[key]
        count_at = field.offset + 8 + len(key) + 4 + 4
        expected = expected.format(count_at + 8)
        patched = bytearray(original)
        patched[count_at:count_at + 8] = (1 << 40).to_bytes(8, "little")
        truncated.write_bytes(patched)
        with pytest.raises(ModelFileError, match=expected):
            LlamaGGUF(truncated)
    with pytest.raises(ModelFileError, match="no such file"):
        LlamaGGUF(tmp_path / "missing.gguf")
    model = LlamaGGUF(GGUF)
    with pytest.raises(ModelFileError, match="has no tensor `blk.99.attn_q"):
        model.weight("blk.99.attn_q.weight")
    with pytest.raises(ModelFileError, match="has no tensor `blk.99.attn_q"):
        model.blocks("blk.99.attn_q.weight")
    with pytest.raises(ModelFileError, match="`blk.0.attn_norm.weight` has "
                       "type F32, not a block encoding"):
        model.blocks("blk.0.attn_norm.weight")
    with pytest.raises(ModelFileError, match="--weights q8: expected one of "
                       "q4, f32"):
        smollm2.Generator(weights="q8")


def write_gguf(path, arch, tensors):
    """A small GGUF with a Llama config, a three-token vocabulary and
    `tensors` (name: (uint8 or float32 array, GGML type))."""
    import gguf

    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_uint32(f"{arch}.attention.head_count", 2)
    writer.add_uint32(f"{arch}.attention.head_count_kv", 1)
    writer.add_uint32(f"{arch}.embedding_length", 64)
    writer.add_uint32(f"{arch}.block_count", 1)
    writer.add_uint32(f"{arch}.feed_forward_length", 128)
    writer.add_float32(f"{arch}.rope.freq_base", 10000.0)
    writer.add_float32(f"{arch}.attention.layer_norm_rms_epsilon", 1e-5)
    writer.add_uint32(f"{arch}.context_length", 256)
    writer.add_token_list(["<s>", "</s>", "a"])
    writer.add_bos_token_id(0)
    writer.add_eos_token_id(1)
    for name, (data, kind) in tensors.items():
        writer.add_tensor(name, data, raw_dtype=kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_an_unknown_architecture_or_tensor_type_is_named(tmp_path,
                                                         monkeypatch):
    import gguf

    monkeypatch.setenv("MAXGRAPH_CACHE", "0")
    norm = (np.ones(64, np.float32), gguf.GGMLQuantizationType.F32)
    # A Q5_K weight: 64 rows of one 256-value block, 176 bytes each.
    q5k = (np.zeros((64, 176), np.uint8), gguf.GGMLQuantizationType.Q5_K)
    write_gguf(tmp_path / "gpt2.gguf", "gpt2", {"norm": norm})
    with pytest.raises(ModelFileError, match=r"gpt2.gguf: architecture "
                       r"`gpt2` is not `llama`"):
        LlamaGGUF(tmp_path / "gpt2.gguf")
    write_gguf(tmp_path / "q5k.gguf", "llama",
               {"blk.0.attn_norm.weight": norm, "blk.0.attn_q.weight": q5k})
    model = LlamaGGUF(tmp_path / "q5k.gguf")
    assert model.config.vocab == 3 and model.config.head_dim == 32
    np.testing.assert_array_equal(model.weight("blk.0.attn_norm.weight"),
                                  np.ones(64, np.float32))
    assert model.encoding("blk.0.attn_q.weight") is None
    with pytest.raises(ModelFileError, match=r"q5k.gguf: tensor "
                       r"`blk.0.attn_q.weight` has type Q5_K; this example "
                       r"reads F32, F16, Q4_0, Q4_1 and Q8_0"):
        model.weight("blk.0.attn_q.weight")
    with pytest.raises(ModelFileError, match=r"`blk.0.attn_q.weight` has "
                       r"type Q5_K, not a block encoding"):
        model.blocks("blk.0.attn_q.weight")


def test_metadata_is_parsed_once_per_file(tmp_path, monkeypatch):
    monkeypatch.setenv("MAXGRAPH_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MAXGRAPH_CACHE", raising=False)
    first = LlamaGGUF(GGUF)
    # Read without the vocabulary and merges until the tokenizer needs
    # them; then the whole record is parsed and cached.
    assert not (tmp_path / "gguf-metadata").exists()
    assert first.config.vocab == 49152
    assert "tokenizer.ggml.tokens" not in first.fields
    assert first.tokenizer().encode("Paris").ids == [38634]
    entries = list((tmp_path / "gguf-metadata").glob("*.json"))
    assert len(entries) == 1
    # From the cache: the same model, tensors read from the mapped file.
    cached = LlamaGGUF(GGUF)
    assert cached.config == first.config
    assert cached.tokenizer().encode("Paris").ids == \
        first.tokenizer().encode("Paris").ids
    np.testing.assert_array_equal(cached.blocks("blk.0.attn_q.weight"),
                                  first.blocks("blk.0.attn_q.weight"))
    assert "tokenizer.ggml.tokens" in cached.fields
    # A damaged entry is parsed again and rewritten.
    entries[0].write_text("{not json")
    damaged = LlamaGGUF(GGUF)
    assert damaged.config == first.config
    assert damaged.chat_prompt([{"role": "user", "content": "Hi"}]) == \
        first.chat_prompt([{"role": "user", "content": "Hi"}])
    assert entries[0].read_text().startswith("{\"format\"")
    # MAXGRAPH_CACHE=0 writes nothing.
    other = tmp_path / "other"
    monkeypatch.setenv("MAXGRAPH_CACHE_DIR", str(other))
    monkeypatch.setenv("MAXGRAPH_CACHE", "0")
    LlamaGGUF(GGUF)
    assert not other.exists()


def test_float32_weights_are_the_gguf_package_values():
    # --weights f32 decodes the blocks with the compiled F.dequantize (and
    # transposes in the same graph): the values gguf's numpy decoder gives.
    import gguf

    model = LlamaGGUF(GGUF)
    for name, kind in (("blk.0.ffn_down.weight", "Q4_1"),
                       ("token_embd.weight", "Q8_0")):
        assert model.tensors[name]["type"] == kind
        expected = gguf.quants.dequantize(
            model.blocks(name),
            gguf.GGMLQuantizationType[kind]).astype(np.float32)
        got = model.weight(name)
        assert got.dtype == np.float32 and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        transposed = model.weight(name, transposed=True)
        assert transposed.flags.c_contiguous
        np.testing.assert_array_equal(transposed, expected.T)
    norm = model.weight("blk.0.attn_norm.weight")
    assert norm.dtype == np.float32 and norm.shape == (576,)


def test_the_metadata_without_strings_is_the_rest_of_it(tmp_path):
    from examples.smollm2.gguf_model import _parse

    whole, skimmed = _parse(GGUF), _parse(GGUF, strings=False)
    assert (whole["strings"], skimmed["strings"]) == (True, False)
    assert skimmed["tensors"] == whole["tensors"]
    assert skimmed["lengths"] == whole["lengths"] == {
        "tokenizer.ggml.tokens": 49152, "tokenizer.ggml.merges": 48900,
        "tokenizer.ggml.token_type": 49152}
    strings = {"tokenizer.ggml.tokens", "tokenizer.ggml.merges"}
    assert set(whole["fields"]) - set(skimmed["fields"]) == strings
    assert all(skimmed["fields"][key] == value
               for key, value in whole["fields"].items() if key not in strings)
    # Stepping over the strings still finds where the file ends.
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(GGUF.read_bytes()[:500_000])
    with pytest.raises(ModelFileError, match="the file ends at byte "
                       "500000, inside the array of strings at offset 1095"):
        _parse(cut, strings=False)


def test_the_metadata_reader_reads_what_gguf_reads():
    # The example's reader is gguf.GGUFReader over a plain view of the
    # file: every field and tensor must be the package's own.
    import gguf
    from examples.smollm2.gguf_model import _reader_class

    ours, theirs = _reader_class()(str(GGUF)), gguf.GGUFReader(str(GGUF))
    assert type(ours.data) is np.ndarray
    assert list(ours.fields) == list(theirs.fields)
    for key, field in theirs.fields.items():
        mine = ours.fields[key]
        assert (mine.offset, mine.data, mine.types) == \
            (field.offset, field.data, field.types), key
        if field.types[:1] == [gguf.GGUFValueType.ARRAY] and \
                len(field.data) > 1000:
            # The vocabulary: compare its ends and a sample.
            for index in (0, 1, 4096, len(field.data) - 1):
                assert bytes(mine.parts[mine.data[index]]) == \
                    bytes(field.parts[field.data[index]]), (key, index)
        else:
            assert mine.contents() == field.contents(), key
    assert [(t.name, t.tensor_type, t.shape.tolist(), t.data_offset,
             t.n_bytes) for t in ours.tensors] == \
        [(t.name, t.tensor_type, t.shape.tolist(), t.data_offset, t.n_bytes)
         for t in theirs.tensors]
    assert ours.fields["tokenizer.ggml.tokens"].contents()[:3] == \
        ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def test_two_thousand_tokens_keep_resident_memory_flat():
    # A step per token with the context growing to 2,038 positions: after
    # the caches' pages are touched, the temporaries that grow with the
    # context reuse their blocks (power-of-two capacities) and nothing else
    # accumulates.
    def anonymous_mb():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("RssAnon"):
                    return int(line.split()[1]) / 1024
        pytest.skip("no /proc/self/status")

    generator = smollm2.Generator(max_seq=2048, progress=lambda m: None)
    for cache in generator.k_caches + generator.v_caches:
        cache.fill(0)  # np.zeros maps its pages lazily
    ids = generator.prompt_ids("Write a haiku about compilers.")
    token = generator._call(ids, 0)
    position = len(ids)
    marks = {}
    for step in range(2000):
        token = generator._call([token], position)
        position += 1
        if step in (200, 1999):
            marks[step] = anonymous_mb()
    assert position == len(ids) + 2000
    assert marks[1999] - marks[200] < 24, marks


def run_json(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), str(ROOT)]))
    out = subprocess.run(
        [sys.executable, "-m", "examples.smollm2", "--json",
         "--max-new-tokens", "12", "--max-seq", "96", *args],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.strip().splitlines()]


def test_sampled_text_depends_on_the_seed_alone():
    # The token after t generated ones is drawn from seed + t in both loop
    # modes, so a seed gives the same ids from the host loop and from the
    # while_loop; another seed (at a high temperature) other ids.
    prompts = ["Tell me a joke.", "Name a color."]
    host = run_json("--temperature", "1.5", "--seed", "7", *prompts)
    looped = run_json("--temperature", "1.5", "--seed", "7",
                      "--in-graph-loop", *prompts)
    assert [r["ids"] for r in host] == [r["ids"] for r in looped]
    other = run_json("--temperature", "1.5", "--seed", "8", *prompts)
    assert [r["ids"] for r in other] != [r["ids"] for r in host]
    # One candidate is the greedy choice.
    assert run_json("--top-k", "1", "What is the capital of France?")[0][
        "text"] == "The capital of France is Paris."


def test_bad_sampling_settings_are_named():
    for sampling, message in [
            (smollm2.Sampling(temperature=0), "--temperature must be above 0"),
            (smollm2.Sampling(top_k=0), "--top-k must be from 1 to the "
             "vocabulary's 49152, got 0"),
            (smollm2.Sampling(top_p=1.5), r"--top-p must be in \(0, 1\]")]:
        with pytest.raises(ModelFileError, match=message):
            smollm2.Generator(sampling=sampling,
                              progress=lambda message: None)


def test_chat_keeps_the_conversation_in_the_caches(generator):
    generator.reset()
    first = generator.chat("What is the capital of France?", 32)
    assert first.reused == 0
    assert first.text == "The capital of France is Paris."
    second = generator.chat("And of Germany?", 32)
    # The caches held the first turn: only the rest was computed.
    assert second.reused >= len(first.prompt_ids) + len(first.ids) - 1
    assert second.prompt_ids[:len(first.prompt_ids)] == first.prompt_ids
    # The same answer as the whole conversation computed from position 0.
    generator.reset()
    fresh = generator.generate_ids(second.prompt_ids, 32)
    assert fresh.reused == 0
    assert second.ids == fresh.ids
    assert second.text == "The capital of Germany is Berlin."
    generator.reset()
    with pytest.raises(ModelFileError, match=r"the conversation's \d+ "
                       r"tokens fill the cache of 128 positions"):
        generator.chat("word " * 200, 8)
    generator.reset()


def test_chat_from_the_terminal():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), str(ROOT)]))
    out = subprocess.run(
        [sys.executable, "-m", "examples.smollm2", "--chat", "--greedy",
         "--json", "--max-seq", "128", "What is the capital of France?"],
        input="And of Germany?\n/reset\nAnd of Germany?\n\nignored\n",
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    answers = [json.loads(line)["text"]
               for line in out.stdout.strip().splitlines()]
    # After /reset the question has no context.
    assert answers[:2] == ["The capital of France is Paris.",
                           "The capital of Germany is Berlin."]
    assert len(answers) == 3 and answers[2] != answers[1]
