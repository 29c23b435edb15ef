"""Regenerate pdfthin/engine/fonts/cidmaps/Adobe-*.bin: CID -> Unicode for the Adobe character
collections (Japan1, GB1, CNS1, Korea1), used for CID fonts that come without /ToUnicode.

The mappings are Adobe's (cmap-resources, BSD-3-Clause, Copyright 1990-2019 Adobe Systems);
this script reads pdfminer.six's packaged copy (`to-unicode-Adobe-*.json.gz`). Format, zlib
compressed: for every CID in order, two zigzag varints: the CID's distance from the previous
one and the change of its first code point; then a varint count of extra code points and
those code points (varints) for the few CIDs that stand for more than one character.
Run: python tools/gen_cidmaps.py PATH/TO/site-packages/pdfminer/cmap
"""

import gzip
import json
import sys
import zlib
from pathlib import Path


def varint(value: int, out: bytearray) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


source = Path(sys.argv[1])
target = Path(__file__).resolve().parent.parent / "pdfthin" / "engine" / "fonts" / "cidmaps"
for ordering in ("Japan1", "GB1", "CNS1", "Korea1"):
    with gzip.open(source / f"to-unicode-Adobe-{ordering}.json.gz") as handle:
        data = json.load(handle)
    table = {int(cid): text for cid, text in data["CID2UNICHR_H"].items() if text}
    out = bytearray()
    prev_cid = prev_cp = 0
    for cid in sorted(table):
        points = [ord(c) for c in table[cid]]
        varint(zigzag(cid - prev_cid), out)
        varint(zigzag(points[0] - prev_cp), out)
        varint(len(points) - 1, out)
        for extra in points[1:]:
            varint(extra, out)
        prev_cid, prev_cp = cid, points[0]
    for old in target.glob(f"Adobe-{ordering}.*"):
        old.unlink()
    (target / f"Adobe-{ordering}.bin").write_bytes(zlib.compress(bytes(out), 9))
    print(ordering, len(table), "entries,", len(zlib.compress(bytes(out), 9)), "bytes")
