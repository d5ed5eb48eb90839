#!/bin/bash
# make llm-check GGML=<ggml or llama.cpp checkout>: build ggml's CANN
# backend against vnpu's install tree exactly as a CANN user does (source
# set_env.sh, cmake -DGGML_CANN=ON, the SoC from npu-smi), then in the
# guest run test-backend-ops -b CANN0 one operator at a time and the
# end-to-end decode and benchmark (llm-guest.sh), and summarise per
# operator (llm-summary.py). Nothing of the checkout is copied into the
# repository; everything built goes under build/llm/. See
# Documentation/llm.md.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ggml=${1:?usage: llm-check.sh GGML_CHECKOUT [--no-ops | OP...]}
shift
ggml=$(cd "$ggml" && pwd)
out=$top/build/llm
prefix=$out/toolkit
res=$out/results
mkdir -p "$out"

commit=$(git -C "$ggml" rev-parse HEAD 2>/dev/null || echo unknown)
echo "# ggml checkout $ggml at $commit"

# The toolkit, as `make install` leaves it for a CANN user.
make -s -C "$top" install PREFIX="$prefix" > "$out/install.log" 2>&1 ||
	{ cat "$out/install.log"; exit 1; }

# Configure and build in a clean environment with only set_env.sh: no
# SOC_TYPE, so ggml's CMake asks npu-smi (no module on the build host).
# The build host may have AVX-512, which the TCG guest lacks: the CPU
# backend is built for the guest's instruction set (AVX2, FMA, F16C).
env -i HOME="$HOME" PATH=/usr/bin:/bin TERM=dumb bash -c "
	set -e
	. '$prefix/set_env.sh'
	cmake -S '$ggml' -B '$out/ggml' -G Ninja -DGGML_CANN=ON \
		-DCMAKE_BUILD_TYPE=Release \
		-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON \
		-DGGML_F16C=ON -DGGML_BMI2=ON \
		-DLLAMA_CURL=OFF -DLLAMA_BUILD_SERVER=OFF -DGGML_BUILD_EXAMPLES=OFF
	cmake --build '$out/ggml' -j2 --target test-backend-ops
" > "$out/ggml-build.log" 2>&1 || { tail -40 "$out/ggml-build.log"; exit 1; }
grep -E "CANN: SOC_VERSION|auto-detected" "$out/ggml-build.log" | sed 's/^/# /'

# The end-to-end decoder links the same ggml libraries.
inc=$ggml/include
[ -f "$inc/ggml.h" ] || inc=$ggml/ggml/include
libdir=$(dirname "$(find "$out/ggml" -name 'libggml-base.so' | head -1)")
g++ -std=c++17 -O2 -Wall -Wextra -o "$out/llm_decode" "$top/tests/llm/llm_decode.cpp" \
	-I"$inc" -L"$libdir" -lggml -lggml-base -lggml-cpu -Wl,-rpath,"$libdir" \
	> "$out/decode-build.log" 2>&1 || { cat "$out/decode-build.log"; exit 1; }

tbo=$(find "$out/ggml" -name test-backend-ops -type f -perm -u+x | head -1)
if [ "${1:-}" = --no-ops ]; then
	ops=""
elif [ $# -gt 0 ]; then
	ops="$*"
else
	ops=$("$tbo" --list-ops 2>/dev/null | awk '/^ *[A-Z_0-9]+ *$/ { print $1 }' | tr '\n' ' ')
fi
rm -rf "$res"
mkdir -p "$res/ops"
echo "$commit" > "$res/ggml-commit"
timeout_s=${LLM_CHECK_TIMEOUT:-21600}
flock /tmp/vnpu-vm.lock "$top/tools/vm/vnpu-vm" run --mttcg --timeout "$timeout_s" -- \
	"$top/tests/llm/llm-guest.sh" "$tbo" "$out/llm_decode" "$res" $ops || true
/usr/bin/python3 "$top/tests/llm/llm-summary.py" "$res"
