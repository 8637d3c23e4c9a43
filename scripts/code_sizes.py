#!/usr/bin/env python3
"""Reports source files over MAX_FILE_LINES lines and functions over MAX_FUNCTION_LINES lines.

Files: every C++ and JavaScript source of ours under core/, wasm/ and site/ (tests are not counted).
Functions are found by the layout clang-format and the page scripts' style give them:
  - C++: a definition starts at column 0 (namespaces are not indented) with a signature whose line
    ends in '{', and ends at the next line that is exactly '}' (or '});', the end of an EM_JS
    function's JavaScript body); lambdas count with their function;
  - JavaScript: a line holding 'function' or '=>' that ends in '{' starts a function; it ends at the
    next line with the same indentation that starts with '}'. The file's own wrapper, an
    immediately invoked function at column 0, is the module, not a function.
A function's length counts its lines from the signature to the closing brace.
Usage: code_sizes.py [--max-file N] [--max-function N] [ROOT]; exit 1 when anything is over.
"""
import argparse
import pathlib
import re
import subprocess
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
FOLDERS = ("core", "wasm", "site")
CPP = (".cpp", ".hpp", ".h")
JS = (".js", ".mjs")
NOT_A_FUNCTION = re.compile(r"^(namespace|struct|class|enum|union|extern|template\s*<[^>]*>\s*(struct|class))\b")


def cpp_functions(lines, indent=""):
    """Definitions at `indent`: namespace scope (""), or a class body's members ("    ")."""
    start = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if start is None:
            body = line[len(indent):] if line.startswith(indent) else None
            if not body or body[0] in " \t}#/" or body.rstrip().endswith(":"):
                i += 1
                continue
            if NOT_A_FUNCTION.match(body):
                # A class body at namespace scope: its member functions are one indent deeper.
                if not indent and body.rstrip().endswith("{") and not body.startswith(("namespace", "extern")):
                    end = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("};")), len(lines))
                    yield from ((i + 1 + a, n, t) for a, n, t in cpp_functions(lines[i + 1:end], "    "))
                    i = end
                i += 1
                continue
            # A signature may span lines: look ahead to the line that opens the body.
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith(("{", ";", "}")):
                j += 1
            if j >= len(lines):
                break
            opener = lines[j].rstrip()
            head = " ".join(lines[i:j + 1])
            if opener.endswith("{") and "(" in head and not re.search(r"=\s*\{$", opener):
                start = i
        elif line.rstrip() in (indent + "}", indent + "});"):  # "});" closes an EM_JS body
            name = re.sub(r"\s+", " ", lines[start].strip())[:90]
            yield start + 1, i - start + 1, name
            start = None
        i += 1


def js_functions(lines):
    open_at = []  # (indent, line index, text)
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if open_at and stripped.startswith("}") and indent == open_at[-1][0]:
            ind, s, text = open_at.pop()
            wrapper = ind == 0 and re.match(r"^(\(|var \w+ = \(|window\.\w+ = \()function\b", text)
            if not wrapper:
                yield s + 1, i - s + 1, text[:90]
            continue
        if stripped.endswith("{") and (re.search(r"\bfunction\b", stripped) or "=>" in stripped):
            open_at.append((indent, i, stripped))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-file", type=int, default=MAX_FILE_LINES)
    parser.add_argument("--max-function", type=int, default=MAX_FUNCTION_LINES)
    parser.add_argument("root", nargs="?", default=".")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard", "--", *FOLDERS],
                            capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in listed if f.endswith(CPP + JS)]
    long_files, long_functions = [], []
    for name in files:
        path = root / name
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > args.max_file:
            long_files.append((name, len(lines)))
        finder = cpp_functions if name.endswith(CPP) else js_functions
        for line_no, length, signature in finder(lines):
            if length > args.max_function:
                long_functions.append((name, line_no, length, signature))
    for name, count in long_files:
        print(f"{name}: {count} lines (at most {args.max_file})")
    for name, line_no, length, signature in long_functions:
        print(f"{name}:{line_no}: function of {length} lines (at most {args.max_function}): {signature}")
    print(f"code sizes: {len(files)} files, {len(long_files)} over {args.max_file} lines, "
          f"{len(long_functions)} functions over {args.max_function} lines")
    return 1 if long_files or long_functions else 0


if __name__ == "__main__":
    sys.exit(main())
