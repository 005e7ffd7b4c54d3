#!/usr/bin/env python3
"""Checks that the bundled public headers stay readable by the simple text rules
that bindings use to generate declarations from nanoarrow.h (nanoarrow's Python
package reads its vendored header this way):

  - comments are `//` comments (a `/* */` comment inside a struct, union or enum
    body would become part of the member list);
  - a struct/union/enum body `struct ArrowName { ... }` holds no `/*`;
  - every exported function is declared at the start of a line as
    `NANOARROW_DLL [const ][struct |enum ]TYPE NAME(ARGS);`, one per statement.

    tools/check-header-rules.py DIST_DIR LIB.a [LIB.a ...]

Each library's exported Arrow* functions (nm) must be found declared that way in
the bundle headers; a difference is listed and the exit status is 1.
"""
import re
import subprocess
import sys


def strip_line_comments(text):
    return re.sub(r"[ \t]*//[^\n]*", "", text)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    dist = sys.argv[1]
    headers = ["nanoarrow.h", "nanoarrow_ipc.h", "nanoarrow_device.h"]
    texts = {}
    for h in headers:
        try:
            with open(f"{dist}/{h}") as f:
                texts[h] = f.read()
        except FileNotFoundError:
            pass
    problems = []
    declared = set()
    for name, text in texts.items():
        code = strip_line_comments(text)
        for m in re.finditer(r"(struct|union|enum) (Arrow\w+) \{([^}]*)\}", code):
            if "/*" in m.group(3):
                problems.append(f"{name}: a /* */ comment inside {m.group(1)} {m.group(2)}")
        for m in re.finditer(
            r"\nNANOARROW_DLL (const )?(struct |enum )?([A-Za-z0-9_*]+)\s+"
            r"(Arrow[A-Za-z0-9]+)\(([^)]*)\)[^;]*;",
            code,
        ):
            declared.add(m.group(4))
        for line in code.split("\n"):
            if line.startswith("NANOARROW_DLL") and line.count("NANOARROW_DLL") > 1:
                problems.append(f"{name}: two declarations in one line: {line.strip()}")
    exported = set()
    for lib in sys.argv[2:]:
        out = subprocess.run(["nm", "-g", "--defined-only", lib], capture_output=True,
                             text=True, check=True).stdout
        for line in out.split("\n"):
            parts = line.split()
            if len(parts) == 3 and parts[1] == "T" and parts[2].startswith("Arrow") \
                    and "Private" not in parts[2] and not parts[2].startswith("ArrowIpcFbb"):
                exported.add(parts[2])
    for sym in sorted(exported - declared):
        problems.append(f"{sym}: exported but not declared as 'NANOARROW_DLL ... {sym}(...);' at a line start")
    for p in problems:
        print("check-header-rules:", p)
    print(f"check-header-rules: {len(exported)} exported functions, {len(declared)} "
          f"declarations found, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
