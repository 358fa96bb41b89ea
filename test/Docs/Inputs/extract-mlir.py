"""Writes each ```mlir block of a markdown file to DIR/example-N.mlir."""
import pathlib
import sys

text = pathlib.Path(sys.argv[1]).read_text()
out = pathlib.Path(sys.argv[2])
blocks, current = [], None
for line in text.splitlines():
    if current is None and line.strip() == "```mlir":
        current = []
    elif current is not None and line.strip() == "```":
        blocks.append("\n".join(current) + "\n")
        current = None
    elif current is not None:
        current.append(line)
for index, block in enumerate(blocks):
    (out / f"example-{index}.mlir").write_text(block)
print(f"extracted {len(blocks)} examples")
