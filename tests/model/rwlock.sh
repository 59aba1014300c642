#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Model-check the rwlock protocol (tests/model/rwlock.pml) with spin:
# safety (mutual exclusion, writer preference, no lost wake-up/deadlock as
# invalid end states) for 2 readers + 2 writers of both kinds, one of each
# able to time out; two iterations for 3 threads; and non-progress cycles
# (livelock) under weak fairness for 3 threads.  Then the read bias
# (-DBIAS): safety for 2 readers + 1 writer with a shared slot (-DCOLL),
# starting unbiased and biased (-DB0), both kinds; 2 readers + 2 writers
# of the writer-preferring kind; livelock for 2 readers + 1 writer; and
# that each planted bug of the model (-DBUG_*) is caught.  About 3 min of
# CPU and 2.2 GB of memory (the 2-iteration writer-preferring run).
# `rwlock.sh --full` runs instead the bias runs too big for make check:
# 2 readers + 2 writers of both kinds, unbiased and biased at the start;
# two iterations of 2 readers + 1 writer of both kinds, with a shared slot
# and without (on a 2-CPU machine the 2-iteration runs take 4 to 10 min of
# CPU and 4 to 10 GB of memory each).  Skips (77) without spin.
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

if [ "${1:-}" = --full ]; then
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
fi

# Timeouts are optional in the model, so -DTIMED covers the untimed runs.
check "-DITER=1 -DTIMED" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=2 -DNR=1 -DNW=2" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=2 -DNR=2 -DNW=1 -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DITER=1 -DNR=1 -DNW=2" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
check "-DITER=1 -DNR=2 -DNW=1 -DWF" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
# The read bias.
for k in "" "-DWF"; do
	check "-DBIAS -DCOLL -DITER=1 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DCOLL -DB0 -DITER=1 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DB0 -DITER=1 -DNR=2 -DNW=1 $k" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
done
check "-DBIAS -DB0 -DITER=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""

# The model must still catch what it is there to catch.
caught() {  # caught "<spin -D options>"
	spin -a $1 rwlock.pml >spin.log 2>&1 || { cat spin.log; fail=1; return; }
	$CC -O1 -w -DSAFETY -DCOLLAPSE -o pan pan.c >cc.log 2>&1 || { cat cc.log; fail=1; return; }
	./pan -m30000 >pan.log 2>&1
	if grep -q 'errors: 0' pan.log; then
		echo "FAIL: planted bug not caught: $1"
		fail=1
	else
		echo "ok: caught $1 ($(grep -o 'pan:1: [a-z ]*' pan.log | head -1))"
	fi
	rm -f rwlock.pml.trail
}
for b in NORECHECK NOWAIT FOREIGN; do
	caught "-DBIAS -DBUG_$b -DCOLL -DITER=1 -DNR=2 -DNW=1"
	caught "-DBIAS -DBUG_$b -DCOLL -DB0 -DITER=1 -DNR=2 -DNW=1 -DWF"
done
caught "-DBIAS -DBUG_WFBIAS -DITER=1 -DNR=2 -DNW=1 -DWF"
exit $fail
