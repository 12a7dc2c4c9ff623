#!/bin/sh
# Fetches kiwi, the C++ Cassowary solver, from the kiwisolver source package on PyPI (its headers are the
# whole library), into Sources/CKiwiBaseline/kiwi/ for the layout benchmarks' baseline. Not committed
# (.gitignore); run once before building Layout or LayoutProfile:
#   scripts/fetch-kiwi.sh            (from the Benchmarks folder)
set -eu
cd "$(dirname "$0")/.."
version=1.5.1   # the baseline the README's figures were measured against
target=Sources/CKiwiBaseline/kiwi
if [ -f "$target/kiwi.h" ] && [ "$(cat "$target/.version" 2>/dev/null)" = "$version" ]; then
    echo "kiwi $version is in $target"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pip fetches the source archive from the index it is configured with (and checks it against the index's
# hash); preparing its metadata installs its build dependencies in an isolated environment, nothing here.
if ! python3 -m pip download --no-deps --no-binary :all: "kiwisolver==$version" -d "$work" >"$work/pip.log" 2>&1; then
    cat "$work/pip.log" >&2
    echo "fetch-kiwi: pip could not download kiwisolver $version (above)" >&2
    exit 1
fi
tar -xzf "$work/kiwisolver-$version.tar.gz" -C "$work"
rm -rf "$target"
mkdir -p "$target"
cp "$work/kiwisolver-$version/kiwi/"*.h "$target/"
cp "$work/kiwisolver-$version/LICENSE" "$target/LICENSE"
echo "$version" > "$target/.version"
echo "kiwi $version (kiwisolver's source package from PyPI) in $target"
