#!/usr/bin/env bash
# The action's install step (action.yml). Reads only its environment:
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, RUNNER_TOOL_CACHE, GITHUB_OUTPUT,
#   GITHUB_PATH   the runner's;
#   DISCLOSE_VERSION      the `version` input (empty: see below);
#   DISCLOSE_ACTION_REF   the ref the action was used at (`v0`, `v0.1.0`, a SHA);
#   DISCLOSE_DOWNLOAD_BASE  where releases are (default: the repository's
#             GitHub releases; any base curl reads, `file://` too).
# `resolve` picks the release and the archive for this runner and writes
# them as outputs (version, target, archive, sha256, cache-dir). The
# release is the `version` input; else the action's own tag when it names
# a release in the table; else the newest release in the table, the one
# the action was committed for. `install` takes the archive from the
# cache directory or downloads it, checks its sha256 against the table
# (action/checksums.txt, committed at release time) before anything else
# reads it, unpacks it, and puts `disclose` on PATH (output `path`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
table="$here/checksums.txt"
base="${DISCLOSE_DOWNLOAD_BASE:-https://github.com/disclose-catalog/disclose/releases/download}"

fail() {
    echo "::error title=disclose action::$*"
    exit 1
}

output() {
    echo "$1=$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

# The release target this runner runs.
target() {
    case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
        Linux/X64) echo x86_64-unknown-linux-musl ;;
        Linux/ARM64) echo aarch64-unknown-linux-musl ;;
        macOS/X64) echo x86_64-apple-darwin ;;
        macOS/ARM64) echo aarch64-apple-darwin ;;
        Windows/X64) echo x86_64-pc-windows-msvc ;;
        *) fail "no disclose release for a ${RUNNER_OS:-unknown} ${RUNNER_ARCH:-unknown} runner (there are Linux X64 and ARM64, macOS X64 and ARM64, and Windows X64)" ;;
    esac
}

archive_of() { # TARGET
    case "$1" in
        *-windows-*) echo "disclose-cli-$1.zip" ;;
        *) echo "disclose-cli-$1.tar.xz" ;;
    esac
}

# The table's lines: VERSION ARCHIVE SHA256, with # comments.
releases() {
    awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$table" | sort -u -V
}

sha256_in_table() { # VERSION ARCHIVE
    awk -v v="$1" -v a="$2" '$1 == v && $2 == a { print $3 }' "$table"
}

sha256_of() { # FILE
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | awk '{ print $1 }'
    else
        shasum -a 256 "$1" | awk '{ print $1 }'
    fi
}

resolve() {
    [ -f "$table" ] || fail "the action has no sha256 table ($table)"
    local version="${DISCLOSE_VERSION:-}" ref="${DISCLOSE_ACTION_REF:-}" known
    known="$(releases)"
    if [ -z "$version" ] && [[ "$ref" =~ ^v?([0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?)$ ]] &&
        grep -qxF "${BASH_REMATCH[1]}" <<<"$known"; then
        version="${BASH_REMATCH[1]}"
    fi
    if [ -z "$version" ]; then
        version="${known##*$'\n'}"
        [ -n "$version" ] || fail "the action's sha256 table names no release yet; set the version input to one it names"
    fi
    version="${version#v}"
    local target archive sha256
    target="$(target)"
    archive="$(archive_of "$target")"
    sha256="$(sha256_in_table "$version" "$archive")"
    [ -n "$sha256" ] || fail "disclose $version has no $archive in the action's sha256 table: use a version it names (${known//$'\n'/ })"
    output version "$version"
    output target "$target"
    output archive "$archive"
    output sha256 "$sha256"
    output cache-dir "${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?}}/disclose/$version/$target"
    echo "disclose $version for $target ($archive, sha256 $sha256)"
}

install() {
    local version="${DISCLOSE_VERSION:?DISCLOSE_VERSION is not set}"
    local target archive sha256 cache got
    target="$(target)"
    archive="$(archive_of "$target")"
    sha256="$(sha256_in_table "$version" "$archive")"
    [ -n "$sha256" ] || fail "disclose $version has no $archive in the action's sha256 table"
    cache="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?}}/disclose/$version/$target"
    mkdir -p "$cache"
    if [ -f "$cache/$archive" ] && [ "$(sha256_of "$cache/$archive")" = "$sha256" ]; then
        echo "disclose $version: $archive from the cache"
    else
        rm -f "$cache/$archive"
        local url="$base/v$version/$archive"
        echo "disclose $version: downloading $url"
        curl --proto '=https,file' --tlsv1.2 --fail --silent --show-error --location \
            --retry 3 --output "$cache/$archive.part" "$url" ||
            fail "cannot download $url"
        got="$(sha256_of "$cache/$archive.part")"
        if [ "$got" != "$sha256" ]; then
            rm -f "$cache/$archive.part"
            fail "$archive has sha256 $got, but the action's table says $sha256: refusing to run it"
        fi
        mv "$cache/$archive.part" "$cache/$archive"
    fi
    local dir="${RUNNER_TEMP:?}/disclose-$version-$target"
    rm -rf "$dir"
    mkdir -p "$dir"
    case "$archive" in
        *.zip)
            if command -v unzip >/dev/null; then
                unzip -q "$cache/$archive" -d "$dir"
            else
                # shellcheck disable=SC2016 # PowerShell's own $args
                pwsh -NoProfile -Command 'Expand-Archive -LiteralPath $args[0] -DestinationPath $args[1]' "$cache/$archive" "$dir"
            fi
            ;;
        *) tar -xJf "$cache/$archive" -C "$dir" ;;
    esac
    local binary
    binary="$(find "$dir" -type f \( -name disclose -o -name disclose.exe \) -print -quit)"
    [ -n "$binary" ] || fail "$archive holds no disclose binary"
    chmod +x "$binary"
    dirname "$binary" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
    output path "$binary"
    "$binary" --version
}

case "${1:-}" in
    resolve) resolve ;;
    install) install ;;
    *)
        echo "usage: install.sh resolve|install" >&2
        exit 2
        ;;
esac
