#!/usr/bin/env bash
# Builds every fuzz target once, then fuzzes each for SECONDS.
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# Works from any directory, with only the stable toolchain (RUSTC_BOOTSTRAP
# lets stable rustc take cargo-fuzz's -Z flags). The working corpus of each
# target is fuzz/corpus/<target> (git-ignored), started from the committed
# seeds in fuzz/seeds/<target>; crashes go to fuzz/artifacts/<target>/.
# Exits non-zero if any target crashed, timed out or ran out of memory.
#
# Environment: FUZZ_SANITIZER (default address; or none), CARGO_FUZZ_FLAGS
# (more `cargo fuzz build` flags), CARGO_BUILD_JOBS (as for cargo).
set -euo pipefail

usage() { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || usage
seconds=$1
shift

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$PWD
export PATH="$HOME/.cargo/bin:$PATH"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="$here/target"
sanitizer=${FUZZ_SANITIZER:-address}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

# Longest input per target.
declare -A max_len=(
    [packet_parse]=16384
    [armor_decode]=16384
    [decrypt_password]=16384
    [decrypt_session_key]=16384
    [fpe_text]=4096
    [siv_decrypt]=4096
    [cert_parse]=16384
    [decrypt_key]=16384
    [sig_parse]=16384
    [inspect]=16384
)
all=(packet_parse armor_decode decrypt_password decrypt_session_key fpe_text siv_decrypt cert_parse decrypt_key sig_parse inspect)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
for t in "${targets[@]}"; do
    [[ -n ${max_len[$t]:-} ]] || { echo "unknown target: $t (known: ${all[*]})" >&2; exit 2; }
done

echo "== building ${#targets[@]} fuzz targets (sanitizer: $sanitizer)"
start=$SECONDS
build=(cargo fuzz build -s "$sanitizer" --codegen-units 16)
# shellcheck disable=SC2206
[[ -z ${CARGO_FUZZ_FLAGS:-} ]] || build+=($CARGO_FUZZ_FLAGS)
"${build[@]}"
echo "== built in $((SECONDS - start)) s"

triple=$(rustc -vV | sed -n 's/^host: //p')
bin="$CARGO_TARGET_DIR/$triple/release"
mkdir -p logs
failed=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    cp -n "seeds/$t"/* "corpus/$t/" 2>/dev/null || true
    log="logs/$t.log"
    echo "== $t: ${seconds} s, -max_len=${max_len[$t]}"
    status=0
    "$bin/$t" "corpus/$t" \
        -max_total_time="$seconds" \
        -max_len="${max_len[$t]}" \
        -rss_limit_mb=2048 \
        -malloc_limit_mb=512 \
        -timeout=30 \
        -print_final_stats=1 \
        -artifact_prefix="$here/artifacts/$t/" \
        >"$log" 2>&1 || status=$?
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed 's/^/   /' || true
    if [[ $status -ne 0 ]]; then
        echo "!! $t failed (exit $status); log: $here/$log"
        grep -E 'panicked|ERROR: |SUMMARY|Test unit written to|artifact_prefix' "$log" | head -20 | sed 's/^/   /' || true
        failed+=("$t")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "FUZZING FAILED: ${failed[*]}"
    echo "Reproduce: $bin/<target> $here/artifacts/<target>/<file>"
    echo "Minimise:  (cd $here && RUSTC_BOOTSTRAP=1 cargo fuzz tmin <target> artifacts/<target>/<file>)"
    exit 1
fi
echo "== all ${#targets[@]} targets ran ${seconds} s without a crash"
