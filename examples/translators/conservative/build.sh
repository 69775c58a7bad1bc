#!/bin/sh
# Builds the conservative translator: ./build.sh OUTPUT. CC picks the
# compiler (default cc); the protocol header is umd/translator's.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUTPUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$here/../../../umd/translator" -o "$1" "$here/conservative.c"
