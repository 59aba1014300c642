#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Verify tests/model/sem.pml (the semaphore protocol) with spin:
# safety (assertions) and invalid end states (deadlock, lost wake-up),
# exhaustively (about 1.4 million states, a few seconds); then the planted
# bug -DBUG_NOPASS must be caught.  The whole model is small enough for make
# check: `--full` (make check-models-full) runs the same.
command -v spin >/dev/null 2>&1 || { echo "spin not installed"; exit 77; }
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "no C compiler"; exit 77; }
src=$(cd "$(dirname "$0")" && pwd)/sem.pml
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 99
spin -a "$src" >spin.out 2>&1 || { cat spin.out; exit 1; }
"${CC:-cc}" -O2 -w -DSAFETY -o pan pan.c || exit 99
./pan -m100000 >pan.out 2>&1
cat pan.out
grep -q "errors: 0" pan.out || exit 1
if grep -q "max search depth too small" pan.out; then exit 1; fi
# The planted bug must be caught.
rm -f pan pan.* ./*.trail
spin -DBUG_NOPASS -a "$src" >spin.out 2>&1 || { cat spin.out; exit 1; }
"${CC:-cc}" -O2 -w -DSAFETY -o pan pan.c || exit 99
./pan -m100000 >pan.out 2>&1
if grep -q "errors: 0" pan.out; then
	echo "sem model: planted bug -DBUG_NOPASS NOT caught"
	exit 1
fi
echo "sem model: caught -DBUG_NOPASS ($(grep -o 'pan:1: [a-z ]*' pan.out | head -n 1))"
exit 0
