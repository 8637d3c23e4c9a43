#!/usr/bin/env python3
"""core/'s rooms keep their order (core/README.md): a room includes only rooms below it, the include
graph has no cycle, and only io/ and cli/ include nlohmann/json. Usage: check_rooms.py CORE_DIR."""
import pathlib
import re
import sys

# Lowest first. A room may include itself and any room before it in this list.
ORDER = ["base", "model", "engine", "scenario", "memory", "time", "result", "serving", "logs", "validation", "plan", "io", "cli"]
JSON_ROOMS = {"io", "cli"}


def main():
    core = pathlib.Path(sys.argv[1])
    rank = {room: i for i, room in enumerate(ORDER)}
    files = sorted(p for p in core.rglob("*") if p.suffix in (".cpp", ".hpp") and len(p.relative_to(core).parts) == 2)
    graph, problems = {}, []
    for path in files:
        rel = path.relative_to(core).as_posix()
        room = rel.split("/")[0]
        if room not in rank:
            problems.append(f"{rel}: room {room}/ is not in the order (tests/check_rooms.py, core/README.md)")
            continue
        text = path.read_text(encoding="utf-8")
        includes = re.findall(r'^#include "([a-z_]+/[a-z_]+\.hpp)"', text, re.M)
        graph[rel] = includes
        for inc in includes:
            target = inc.split("/")[0]
            if target in rank and rank[target] > rank[room]:
                problems.append(f"{rel} includes {inc}: {room}/ is below {target}/")
        if room not in JSON_ROOMS and re.search(r"#include\s*<nlohmann/", text):
            problems.append(f"{rel} includes nlohmann/json: only io/ and cli/ may")
    # No cycle among the files (a depth-first search that remembers the path).
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                problems.append("include cycle: " + " -> ".join(trail[trail.index(nxt):] + [nxt]) if nxt in trail else nxt)
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])
    for p in problems:
        print(p)
    print(f"core/ rooms: {len(files)} files in {len(set(f.relative_to(core).parts[0] for f in files))} rooms, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
