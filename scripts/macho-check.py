#!/usr/bin/env python3
"""Checks a macOS executable the release ships as a Mac would load it: a
64-bit Mach-O executable for MACHINE, position-independent, whose only
libraries are the system's own (/usr/lib and /System/Library: libSystem
and libiconv), and whose minimum macOS is at most MIN_MACOS.

    macho-check.py FILE MACHINE MIN_MACOS      (MACHINE: x86_64 or aarch64)

Reads the header and load commands itself (no Apple tool runs here). Used
by scripts/dist-test.sh.
"""

from __future__ import annotations

import struct
import sys

MAGIC = 0xFEEDFACF
EXECUTE = 0x2
PIE = 0x200000
CPU = {"x86_64": 0x01000007, "aarch64": 0x0100000C}
LC_LOAD_DYLIB = 0xC
LC_LOAD_WEAK_DYLIB = 0x80000018
LC_BUILD_VERSION = 0x32
LC_VERSION_MIN_MACOSX = 0x24
SYSTEM = ("/usr/lib/", "/System/Library/")


def version(packed: int) -> tuple[int, int, int]:
    return packed >> 16, (packed >> 8) & 0xFF, packed & 0xFF


def check(data: bytes, machine: str, most: tuple[int, ...]) -> list[str]:
    """What is wrong with the executable in `data`; empty when nothing is."""
    if len(data) < 32:
        return ["too short for a Mach-O header"]
    magic, cpu, _sub, filetype, count, _size, flags, _ = struct.unpack_from("<IiiIIIII", data)
    if magic != MAGIC:
        return [f"not a 64-bit little-endian Mach-O file (magic {magic:#x})"]
    problems = []
    if cpu & 0xFFFFFFFF != CPU[machine]:
        problems.append(f"built for CPU type {cpu & 0xFFFFFFFF:#x}, not {machine}")
    if filetype != EXECUTE:
        problems.append(f"file type {filetype}, not an executable")
    if not flags & PIE:
        problems.append("not position-independent")
    offset, minimum = 32, None
    for _ in range(count):
        command, size = struct.unpack_from("<II", data, offset)
        if command in (LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB):
            (name_at,) = struct.unpack_from("<I", data, offset + 8)
            name = data[offset + name_at : offset + size].split(b"\0", 1)[0].decode()
            if not name.startswith(SYSTEM):
                problems.append(f"needs {name}, which is not the system's")
        elif command == LC_BUILD_VERSION:
            minimum = version(struct.unpack_from("<I", data, offset + 12)[0])
        elif command == LC_VERSION_MIN_MACOSX:
            minimum = version(struct.unpack_from("<I", data, offset + 8)[0])
        offset += size
    if minimum is None:
        problems.append("states no minimum macOS")
    elif minimum > most:
        problems.append(f"needs macOS {'.'.join(map(str, minimum))}, newer than {'.'.join(map(str, most))}")
    return problems


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[2] not in CPU:
        sys.exit(__doc__)
    path, machine = sys.argv[1], sys.argv[2]
    most = tuple(int(part) for part in f"{sys.argv[3]}.0.0".split(".")[:3])
    with open(path, "rb") as file:
        problems = check(file.read(), machine, most)
    if problems:
        sys.exit(f"{path}: " + "; ".join(problems))
    print(f"{path}: Mach-O executable for {machine}, macOS {sys.argv[3]} and later, system libraries only")


if __name__ == "__main__":
    main()
