#!/usr/bin/env bash
# core/ is pure C++: no Emscripten, ImGui, GL, or file-system access (STYLE.md practice 1).
# The CLI in core/cli/ reads standard input only and is checked for the same.
set -u
core=${1:?usage: check_core_purity.sh CORE_DIR}
hits=$(grep -rnE '#include *[<"](emscripten|imgui|GL|GLES|webgl|fstream|filesystem|dirent|unistd)' "$core" ||
       true)
hits+=$(grep -rnE '\b(fopen|std::ifstream|std::ofstream|std::filesystem|EM_ASM|ImGui::|glDraw)' "$core" || true)
if [ -n "$hits" ]; then
  echo "core/ must stay pure; found:"; echo "$hits"; exit 1
fi
echo "core/ is pure: $(find "$core" -name '*.cpp' -o -name '*.hpp' | wc -l) files checked"
