#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Model-check the rwlock protocol (tests/model/rwlock.pml) with spin:
# safety (mutual exclusion, writer preference, no lost wake-up/deadlock as
# invalid end states) and non-progress cycles (livelock) under weak
# fairness, for both kinds (default and -DWF, writer-preferring).
#   rwlock.sh          (make check) three threads, one iteration each:
#                      safety for 2 readers + 1 writer and 1 reader + 2
#                      writers, able to time out; livelock for 1 reader + 2
#                      writers and 2 readers + 1 writer; the read bias
#                      (-DBIAS) for 2 readers + 1 writer with a shared slot
#                      (-DCOLL), starting unbiased and biased (-DB0), the
#                      default kind's with reader 0 able to hold the lock
#                      until reader 1 got in (-DDEP, glibc's tst-rwlock16),
#                      and its livelock runs; and each planted bug of the
#                      model (-DBUG_*) must be caught.  About 1.5 min.
#   rwlock.sh --full   (make check-models-full) the bigger runs, about 3
#                      min of CPU and 2.2 GB: 2 readers + 2 writers of the
#                      default kind, able to time out; two iterations of 1
#                      reader + 2 writers, both kinds (not make check's
#                      runs: .ci/run runs make check before it).
#   rwlock.sh --full-bias  (make check-models-full, beside --full) the
#                      livelock run of the read bias for the default kind
#                      biased at the start, with -DDEP (18 million
#                      states, 2 min, 1.6 GB), and for three threads of
#                      writer preference, biased at the start, without a
#                      shared slot.
#   rwlock.sh --huge   (by hand only) the runs too big for CI, each 3 to
#                      10 min of CPU and 4 to 15 GB of memory on a 2-CPU
#                      machine: 2 readers + 2 writers of writer preference
#                      able to time out; two iterations of 2 readers + 1
#                      writer of writer preference; the read bias for 2
#                      readers + 2 writers, unbiased at the start (both
#                      kinds) and biased (both kinds), and two iterations
#                      of 2 readers + 1 writer of both kinds, with a
#                      shared slot and without.  Since the default kind's
#                      writer gives the lock word back to wait for a slot,
#                      its 2 readers + 2 writers runs pass 1e8 states
#                      (more than 5 GB).
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
# The runs of make check are small (under 100,000 states each): compiling
# pan.c is most of their time, so it is compiled without optimization.
opt=-O0
case ${1:-} in --full*|--huge) opt=-O1 ;; esac
check() {  # check "<spin -D options>" "<pan compile options>" "<pan run options>" [cc -O]
	spin -a $1 rwlock.pml >spin.log 2>&1 || { cat spin.log; fail=1; return; }
	$CC ${4:-$opt} -w $2 -o pan pan.c >cc.log 2>&1 || { cat cc.log; fail=1; return; }
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

if [ "${1:-}" = --huge ]; then
	check "-DITER=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
	check "-DITER=2 -DNR=2 -DNW=1 -DWF" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DB0 -DITER=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DDEP -DB0 -DITER=1 -DTIMED" "-DSAFETY -DCOLLAPSE" ""
	for k in "" "-DWF"; do
		check "-DBIAS -DITER=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
		check "-DBIAS -DCOLL -DB0 -DITER=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
		check "-DBIAS -DITER=1 -DNR=2 -DNW=1 $k" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
		check "-DBIAS -DITER=1 -DNR=1 -DNW=2 -DB0 $k" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
		check "-DBIAS -DCOLL -DITER=2 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
		check "-DBIAS -DITER=2 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	done
	exit $fail
fi

if [ "${1:-}" = --full-bias ]; then
	check "-DBIAS -DDEP -DB0 -DITER=1 -DNR=2 -DNW=1" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
	check "-DBIAS -DB0 -DITER=1 -DNR=2 -DNW=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
	check "-DBIAS -DB0 -DITER=1 -DNR=1 -DNW=2 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
	exit $fail
fi

if [ "${1:-}" = --full ]; then
	# Timeouts are optional in the model, so -DTIMED covers the untimed
	# runs.  Writer preference with 2 readers + 2 writers is in --huge
	# (1.9e8 states and 10 GB with timeouts, 1.1e8 and 4.9 GB without).
	check "-DITER=1 -DTIMED" "-DSAFETY -DCOLLAPSE" ""
	check "-DITER=2 -DNR=1 -DNW=2" "-DSAFETY -DCOLLAPSE" ""
	check "-DITER=2 -DNR=1 -DNW=2 -DWF" "-DSAFETY -DCOLLAPSE" ""
	exit $fail
fi

# Three threads, one iteration: every path of the protocol (fast paths,
# queuing, hand-over, timeouts) with a thread of the other side competing.
for k in "" "-DWF"; do
	check "-DITER=1 -DNR=2 -DNW=1 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
	check "-DITER=1 -DNR=1 -DNW=2 -DTIMED $k" "-DSAFETY -DCOLLAPSE" ""
done
check "-DITER=1 -DNR=1 -DNW=2" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
check "-DITER=1 -DNR=2 -DNW=1 -DWF" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"
# The read bias.  The default kind's runs let reader 0 hold the lock
# until reader 1 got in (-DDEP): the writer gives the lock word back to
# wait for a slot, which makes them the biggest runs here (7.3 and 1.4
# million states), so their pan is optimized.
check "-DBIAS -DDEP -DCOLL -DITER=1 -DNR=2 -DNW=1 -DTIMED" "-DSAFETY -DCOLLAPSE" ""
check "-DBIAS -DDEP -DCOLL -DB0 -DITER=1 -DNR=2 -DNW=1 -DTIMED" "-DSAFETY -DCOLLAPSE" "" -O1
check "-DBIAS -DDEP -DITER=1 -DNR=2 -DNW=1" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f" -O1
check "-DBIAS -DCOLL -DITER=1 -DNR=2 -DNW=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DBIAS -DCOLL -DB0 -DITER=1 -DNR=2 -DNW=1 -DTIMED -DWF" "-DSAFETY -DCOLLAPSE" ""
check "-DBIAS -DB0 -DITER=1 -DNR=2 -DNW=1 -DWF" "-DNP -DNOREDUCE -DCOLLAPSE" "-l -f"

# The model must still catch what it is there to catch.
caught() {  # caught "<spin -D options>"
	spin -a $1 rwlock.pml >spin.log 2>&1 || { cat spin.log; fail=1; return; }
	$CC $opt -w -DSAFETY -DCOLLAPSE -o pan pan.c >cc.log 2>&1 || { cat cc.log; fail=1; return; }
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
caught "-DBIAS -DDEP -DBUG_LOCKEDWAIT -DCOLL -DB0 -DITER=1 -DNR=2 -DNW=1"
caught "-DBUG_HANDOFF -DITER=1 -DNR=1 -DNW=2 -DTIMED"
caught "-DBUG_RCOUNT -DITER=1 -DNR=2 -DNW=1 -DTIMED"
exit $fail
