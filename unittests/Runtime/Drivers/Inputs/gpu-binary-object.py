#!/usr/bin/env python3
"""Writes the bytes of the first object of the first gpu.binary in an MLIR
file (as mlir-opt prints it) to a file.

Usage: gpu-binary-object.py IN.mlir OUT
"""
import re
import sys


def unescape(text):
    """The bytes of an MLIR string literal's body."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        following = text[i + 1]
        if following in "\\\"":
            out.append(ord(following))
            i += 2
        elif following == "n":
            out.append(10)
            i += 2
        elif following == "t":
            out.append(9)
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return bytes(out)


def main():
    source = open(sys.argv[1], encoding="utf-8").read()
    binary = source.find("gpu.binary @")
    if binary < 0:
        sys.exit(f"{sys.argv[1]}: no gpu.binary")
    # The object's bytes are the first string literal after the target
    # attribute: #gpu.object<#spirv.target_env<...>, "...">.
    match = re.compile(r'[>}],\s*"((?:[^"\\]|\\.)*)"').search(source, binary)
    if not match:
        sys.exit(f"{sys.argv[1]}: no object in the gpu.binary")
    with open(sys.argv[2], "wb") as out:
        out.write(unescape(match.group(1)))


if __name__ == "__main__":
    main()
