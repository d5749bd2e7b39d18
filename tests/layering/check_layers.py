#!/usr/bin/env python3
"""No layer includes a header of a layer above it.

The layers, bottom to top, and what each may include (the CMake libraries
of the top-level CMakeLists.txt link the same way):

    support   -
    frontend  support
    analyzer  support
    rules     analyzer, support
    report    rules, analyzer, support
    output    report, rules, analyzer, support
    tool      every layer

Each `#include "<layer>/..."` in <layer'>/ is checked; a violation is printed
as `file:line: <layer'>/ includes <layer>/...` and the exit status is 1.
--self-test checks the checker on a tree made for it (one upward include,
one allowed).
"""

import argparse
import os
import re
import sys
import tempfile

ALLOWED = {
    "support": set(),
    "frontend": {"support"},
    "analyzer": {"support"},
    "rules": {"analyzer", "support"},
    "report": {"rules", "analyzer", "support"},
    "output": {"report", "rules", "analyzer", "support"},
    "tool": {"output", "report", "rules", "analyzer", "frontend", "support"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z_]+)/')
SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".inc")


def violations(root):
    found = []
    for layer, allowed in ALLOWED.items():
        top = os.path.join(root, layer)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if target in ALLOWED and target != layer and \
                                target not in allowed:
                            found.append("%s:%d: %s/ includes %s/ (%s/ may "
                                         "include: %s)" % (
                                             os.path.relpath(path, root),
                                             number, layer, target, layer,
                                             ", ".join(sorted(allowed)) or
                                             "nothing else"))
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        write("rules/A.cpp", '#include "analyzer/Facts.h"\n'
                             '#include "rules/A.h"\n')
        write("rules/B.cpp", '// x\n#include "output/Text.h"\n')
        write("output/C.cpp", '#include "rules/A.h"\n')
        found = violations(root)
        expected = ["rules/B.cpp:2: rules/ includes output/ (rules/ may "
                    "include: analyzer, support)"]
        if found != expected:
            print("self-test failed: got %r" % found)
            return 1
    print("self-test passed")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source-dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    p.add_argument("--self-test", action="store_true")
    args = p.parse_args()
    if args.self_test:
        return self_test()
    found = violations(os.path.abspath(args.source_dir))
    for v in found:
        print(v)
    if found:
        print("%d include(s) of a layer above" % len(found))
        return 1
    print("no include of a layer above")
    return 0


if __name__ == "__main__":
    sys.exit(main())
