#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Model-check the rwlock protocol (tests/model/rwlock.pml) with spin:
# safety (mutual exclusion, writer preference, no lost wake-up/deadlock as
# invalid end states) for 2 readers + 2 writers of both kinds, one of each
# able to time out; two iterations for 3 threads; and non-progress cycles
# (livelock) under weak fairness for 3 threads.  About 2.5 min of CPU and
# 2.2 GB of memory (the 2-iteration writer-preferring run).
# Skips (77) without spin.
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

# Timeouts are optional in the model, so -DTIMED covers the untimed runs.
check "-DITER=1 -DTIMED" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=2 -DNR=1 -DNW=2" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=2 -DNR=2 -DNW=1 -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=1 -DNR=1 -DNW=2" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
check "-DITER=1 -DNR=2 -DNW=1 -DWF" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
exit $fail
