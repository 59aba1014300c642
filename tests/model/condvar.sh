#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Model-check the condition variable protocol (tests/model/condvar.pml):
# assertions (mutual exclusion; every signal releases a waiter that was
# waiting when it was sent; broadcast releases all) and invalid end states
# (a lost wake-up leaves a waiter asleep forever).  Two waiters with
# timeouts, signal and broadcast, searched exhaustively; three waiters
# without timeouts by a bitstate search (about 98% of the 19 million
# states in 64 MB and ~15 s; exhaustive it needs 900 MB).  Skips without
# spin.
command -v spin >/dev/null 2>&1 || { echo "spin not installed"; exit 77; }
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "no C compiler"; exit 77; }
src=$(cd "$(dirname "$0")" && pwd)/condvar.pml
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
cd "$dir" && cp "$src" . || exit 99
run() {
	cfg=$1 extra=$2
	rm -f pan pan.* ./*.trail
	spin $cfg -a condvar.pml >spin.log 2>&1 || { cat spin.log; exit 1; }
	$cc -O2 -DSAFETY -DNOCLAIM $extra -o pan pan.c >cc.log 2>&1 ||
		{ cat cc.log; exit 99; }
	./pan -m100000 $3 >pan.log 2>&1
	if ! grep -q "errors: 0" pan.log || ls ./*.trail >/dev/null 2>&1; then
		echo "condvar model ($cfg): FAILED"
		cat pan.log
		spin $cfg -t -p -g condvar.pml 2>&1 | tail -80
		exit 1
	fi
	echo "condvar model ($cfg): ok, $(grep -E 'states, stored' pan.log)"
}
run "-DNWAITERS=2 -DMAXTMO=2 -DBROADCAST=0" "-DCOLLAPSE"
run "-DNWAITERS=2 -DMAXTMO=2 -DBROADCAST=1" "-DCOLLAPSE"
run "-DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=0" "-DBITSTATE" -w29
exit 0
