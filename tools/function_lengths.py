#!/usr/bin/env python3
"""Lists the C++ functions longer than a limit (default 80 lines).

  tools/function_lengths.py [--limit N] [--all] DIR_OR_FILE...

A function's length is counted from the first line of its declaration
(without a `template <...>` line of its own) to its closing brace, both
included: what one reads as the function. Lambdas and local classes count
towards the function that holds them. The scan is lexical (comments, strings
and preprocessor lines are blanked first, then braces are matched); it knows
LLVM-formatted code, not every corner of C++. Exits 1 when a function is over
the limit, so that it can gate.
"""

import argparse
import os
import re
import sys

EXTS = (".cpp", ".cc", ".h", ".hpp")


def blank(text):
    """Comments, string and character literals and preprocessor lines as
    spaces (newlines kept, so that line numbers hold)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" else None
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
            continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(c)  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
            continue
        line_start = c == "\n" or (line_start and c in " \t")
        out.append(c)
        i += 1
    return "".join(out)


SCOPE_HEAD = re.compile(
    r"\b(namespace|class|struct|union|enum)\b[^()]*$|extern\s*\"\"\s*$")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
FUNC_TAIL = re.compile(
    r"\)\s*(const|override|final|noexcept(\s*\([^)]*\))?|volatile|&&?|"
    r"mutable|->\s*[\w:<>,\s*&]+|\s)*$")
CTOR_INIT = re.compile(r"\)\s*(noexcept\s*)?:\s*[\w:]+\s*[({]")


def functions(path):
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    # Stack of (kind, start line); kinds: scope (namespace/class), func,
    # other (a brace inside a function or an initializer).
    stack = []
    head_start = 0  # where the text since the last boundary begins
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
            continue
        if c == ";" and not any(k == "func" for k, _, _ in stack):
            head_start = i + 1
        if c == "{":
            in_func = any(k == "func" for k, _, _ in stack)
            head = text[head_start:i]
            kind = "other"
            if not in_func:
                flat = " ".join(head.split())
                if SCOPE_HEAD.search(flat) and not FUNC_TAIL.search(flat):
                    kind = "scope"
                elif flat.endswith("=") or flat == "":
                    kind = "other"
                elif (FUNC_TAIL.search(flat) or CTOR_INIT.search(flat)) and \
                        not CONTROL.match(flat):
                    kind = "func"
            start = line
            if kind == "func":
                # The declaration's first line, a template line aside.
                off = head_start + (len(head) - len(head.lstrip()))
                first = text.count("\n", 0, off) + 1
                lines = text[off:i].split("\n")
                k = 0
                while k < len(lines) - 1 and \
                        re.match(r"\s*template\s*<.*>\s*$", lines[k]):
                    k += 1
                start = first + k
            stack.append((kind, start, head))
            if kind != "other" or not in_func:
                head_start = i + 1
        elif c == "}":
            if not stack:
                continue
            kind, start, head = stack.pop()
            if kind == "func":
                name = re.search(r"([~\w:]+(<[^()]*>)?|operator\S+)\s*\(",
                                 " ".join(head.split()))
                yield (name.group(1) if name else "?", start, line,
                       line - start + 1)
            if not any(k == "func" for k, _, _ in stack):
                head_start = i + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("--all", action="store_true",
                    help="list every function, longest first")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(names)
                          if f.endswith(EXTS)]
        else:
            files.append(p)
    rows = []
    for f in sorted(files):
        for name, start, end, n in functions(f):
            rows.append((n, f, start, end, name))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    over = [r for r in rows if r[0] > a.limit]
    for n, f, start, end, name in rows if a.all else over:
        print(f"{n:5d}  {f}:{start}-{end}  {name}")
    print(f"{len(over)} function(s) over {a.limit} lines "
          f"({len(rows)} functions in {len(files)} files)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
