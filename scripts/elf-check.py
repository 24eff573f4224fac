#!/usr/bin/env python3
"""Checks a shared object a package ships (a wheel's extension, an npm
addon) as the machine that loads it would: built for MACHINE, needing only
the system libraries manylinux allows, and no glibc symbol version newer
than MAX_GLIBC (what its platform tag claims: 2.17 for manylinux2014 and
napi-rs's gnu packages).

    elf-check.py FILE MACHINE MAX_GLIBC      (MACHINE: x86_64 or aarch64)

Reads the object with binutils' readelf, so it works on an object for
another machine. Used by scripts/dist-test.sh.
"""

import re
import subprocess
import sys

MACHINES = {"x86_64": "Advanced Micro Devices X86-64", "aarch64": "AArch64"}
# The libraries every manylinux2014 system provides (PEP 599), as far as
# an object of ours could need them.
ALLOWED = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libpthread.so.0",
    "libgcc_s.so.1", "libutil.so.1", "libresolv.so.2",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def readelf(flag: str, path: str) -> str:
    return subprocess.run(["readelf", "--wide", flag, path], check=True, capture_output=True, text=True).stdout


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[2] not in MACHINES:
        sys.exit(__doc__)
    path, machine, most = sys.argv[1], sys.argv[2], version(sys.argv[3])
    header = readelf("-h", path)
    if MACHINES[machine] not in header:
        found = re.search(r"Machine:\s*(.*)", header)
        sys.exit(f"elf-check: {path} is not a {machine} object ({found.group(1) if found else 'no machine'})")
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf("-d", path)))
    extra = sorted(needed - ALLOWED)
    if extra:
        sys.exit(f"elf-check: {path} needs libraries manylinux does not promise: {', '.join(extra)}")
    glibc = sorted({version(v) for v in re.findall(r"Name: GLIBC_([0-9.]+)", readelf("-V", path))})
    if not glibc:
        sys.exit(f"elf-check: {path} names no glibc version (not a glibc object?)")
    if glibc[-1] > most:
        newest = ".".join(map(str, glibc[-1]))
        sys.exit(f"elf-check: {path} needs glibc {newest}, newer than {sys.argv[3]}")
    print(f"elf-check: {path.rsplit('/', 1)[-1]}: {machine}, glibc <= {'.'.join(map(str, glibc[-1]))}, "
          f"needs {', '.join(sorted(needed))}")


if __name__ == "__main__":
    main()
