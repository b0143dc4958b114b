#!/usr/bin/env bash
# Rebuilds secp256k1.wasm from libsecp256k1's C sources, as they ship inside the secp256k1 npm
# package (5.0.1, checked against its published sha512 before use). Needs Debian's clang, lld,
# wasi-libc and libclang-rt-14-dev-wasm32 (apt-get install -y clang lld wasi-libc
# libclang-rt-14-dev-wasm32). The result is committed: nothing in the install, the build or the
# tests runs this. Run from anywhere; writes secp256k1.wasm beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
PACKAGE=secp256k1@5.0.1
INTEGRITY='sha512-lDFs9AAIaWP9UCdtWrotXWWF9t8PWgQDcxqgAnpM9rMqxb3Oaq2J0thzPVSxBwdJgyQtkU/sYtFtbM1RSt/iYA=='
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack "$PACKAGE" --silent >/dev/null)
tarball="$(ls "$work"/*.tgz)"
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
  echo "build.sh: $PACKAGE is not the tarball this build was made from ($got)" >&2
  exit 1
fi
tar xzf "$tarball" -C "$work"
src="$work/package/src/secp256k1"
# glue.c defines the scalar inverse of verification (variable time): the library's own, a
# constant-time exponentiation when built without GMP, is renamed out of the way.
inverse='^static void secp256k1_scalar_inverse_var('
[ "$(grep -c "$inverse" "$src/src/scalar_impl.h")" = 1 ] || { echo "build.sh: scalar_impl.h is not the expected source" >&2; exit 1; }
sed -i "s/$inverse/static void secp256k1_scalar_inverse_var_exponentiation(/" "$src/src/scalar_impl.h"

# wasm32-wasi for wasi-libc's malloc and string functions; a reactor (no main), whose _initialize
# the host calls once. The stack is 1 MiB: building the verification tables needs more than the
# default 64 KiB.
clang --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi -L/usr/lib/wasm32-wasi \
  -O3 -I"$src" -I"$src/src" -mexec-model=reactor -Wl,-z,stack-size=1048576 \
  -Wno-unused-function -o "$here/secp256k1.wasm" "$here/glue.c"
echo "wrote $here/secp256k1.wasm: sha256 $(sha256sum "$here/secp256k1.wasm" | cut -d' ' -f1), $(stat -c %s "$here/secp256k1.wasm") bytes"
