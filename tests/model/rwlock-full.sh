#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The exhaustive runs of the rwlock model's read bias (tests/model/rwlock.pml
# with -DBIAS), too big for make check (tests/model/rwlock.sh runs the
# small ones): 2 readers + 2 writers of both kinds, unbiased and biased at
# the start; two iterations of 2 readers + 1 writer of both kinds, with a
# shared slot and without.  Measured on a 2-CPU machine: the 2-iteration
# runs take 4 to 10 min of CPU and 4 to 10 GB of memory each; the others
# under 30 s and 1 GB.  Skips (77) without spin.
set -u
command -v spin >/dev/null 2>&1 || { echo "SKIP: spin is not installed"; exit 77; }
: "${CC:=cc}"
srcdir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rwlock-model.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
cp "$srcdir/rwlock.pml" . || exit 99

fail=0
check() {  # check "<spin -D options>" "<pan compile options>" "<pan run options>"
	spin -a $1 rwlock.pml >spin.log 2>&1 || { cat spin.log; fail=1; return; }
	$CC -O1 -w $2 -o pan pan.c >cc.log 2>&1 || { cat cc.log; fail=1; return; }
	./pan -m30000 $3 >pan.log 2>&1
	if grep -q 'errors: 0' pan.log && ! grep -q 'pan:1' pan.log; then
		echo "ok: $1 $2 ($(grep -o '[0-9e.+]* states, stored' pan.log))"
	else
		echo "FAIL: $1 $2 $3"
		grep -E 'pan:|error|assert|invalid|exceeds' pan.log | head -20
		[ -f rwlock.pml.trail ] && spin -t -p $1 rwlock.pml | tail -60
		fail=1
	fi
	rm -f rwlock.pml.trail
}

for k in "" "-DWF"; do
	check "-DBIAS -DITER=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DB0 -DITER=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DCOLL -DB0 -DITER=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DITER=1 -DNR=2 -DNW=1 $k" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
	check "-DBIAS -DITER=1 -DNR=1 -DNW=2 -DB0 $k" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
	check "-DBIAS -DCOLL -DITER=2 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DITER=2 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
done
exit $fail
