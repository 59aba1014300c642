#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Model-check the condition variable protocol (tests/model/condvar.pml):
# assertions (mutual exclusion; every signal releases a waiter that was
# waiting when it was sent; broadcast releases all) and invalid end states
# (a lost wake-up leaves a waiter asleep forever; so does a broken
# requeue chain).
#   condvar.sh         (make check) two waiters, one of which may time out,
#                      with signals only, with signal or broadcast (which
#                      requeues), with destroy right after a broadcast, and
#                      with broadcasts sent after the unlock (UNLOCKED),
#                      each searched exhaustively (0.8, 2.2, 2.1 and 1.6
#                      million states); two waiters of two mutexes (MIXED,
#                      each waits once, with its own mutex: 6.3 million
#                      states); about 15 s of CPU in all; then each planted
#                      bug (condvar.pml) must be caught: a requeued waiter
#                      relocking without "assume waiters", a broadcast
#                      marking too low a seq as requeued, destroy without
#                      the wake of the mutex word, and with MIXED the
#                      store of the mutex before bind_mutex, bind_mutex
#                      without its second look at the waiter count, and
#                      without its seq bump.
#   condvar.sh --full  (make check-models-full) the same with both waiters
#                      able to time out, and three waiters without timeouts
#                      and signals only, by a bitstate search; three
#                      waiters with broadcasts after the unlock, by a
#                      bitstate search, and the scheme before the requeue
#                      mark must strand one of them (BUG_COUNT); two
#                      waiters of two mutexes, each waiting twice, with
#                      the other mutex the second time (the LTP shape), by
#                      a bitstate search (48 million states in 32 MB,
#                      ~30 s).  About 3.5 min of CPU in all.
#   condvar.sh --full-bitstate  (make check-models-full, beside --full)
#                      three waiters without timeouts with a broadcast and
#                      destroy, by a bitstate search (in 32 MB, under 2
#                      min).
#   condvar.sh --huge  (by hand) the same search in 128 MB (about 4.5 min),
#                      the LTP shape of MIXED searched exhaustively (52
#                      million states, 2.7 GB, ~2 min), two waiters of two
#                      mutexes waiting once each with either mutex (19
#                      million states, 0.9 GB, ~30 s), and twice each, by
#                      a bitstate search (81 million states in 32 MB, ~1
#                      min).
# Skips without spin.
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
	$cc -O2 -w -DSAFETY -DNOCLAIM $extra -o pan pan.c >cc.log 2>&1 ||
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
caught() {  # caught "<spin -D options>": a planted bug must fail
	# (make check's are found within a million states: compiling pan.c
	# with optimization would take longer than the search)
	rm -f pan pan.* ./*.trail
	spin $1 -a condvar.pml >spin.log 2>&1 || { cat spin.log; exit 1; }
	$cc ${copt:--O0} -w -DSAFETY -DNOCLAIM -DCOLLAPSE -o pan pan.c >cc.log 2>&1 ||
		{ cat cc.log; exit 99; }
	./pan -m100000 >pan.log 2>&1
	if grep -q "errors: 0" pan.log; then
		echo "condvar model: planted bug NOT caught ($1)"
		exit 1
	fi
	echo "condvar model: caught $1 ($(grep -o 'pan:1: [a-z ]*' pan.log | head -n 1))"
}
# Waiters of two mutexes, each with its own and then (ROUNDS=2) the other.
lts="-DMIXED=1 -DALTERNATE -DNWAITERS=2 -DMAXTMO=0"
if [ "${1:-}" = --full ]; then
	run "-DNWAITERS=2 -DMAXTMO=2 -DBROADCAST=0" "-DCOLLAPSE"
	run "-DNWAITERS=2 -DMAXTMO=2 -DBROADCAST=1" "-DCOLLAPSE"
	run "-DNWAITERS=2 -DMAXTMO=2 -DBROADCAST=1 -DDESTROY=1" "-DCOLLAPSE"
	run "-DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=0" "-DBITSTATE" -w30
	run "-DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=1 -DUNLOCKED=1" "-DBITSTATE" -w28
	copt=-O2
	caught "-DBUG_COUNT -DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=1 -DUNLOCKED=1"
	copt=
	run "$lts -DROUNDS=2" "-DBITSTATE" -w28
	exit 0
fi
if [ "${1:-}" = --full-bitstate ]; then
	run "-DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=1 -DDESTROY=1" "-DBITSTATE" -w28
	exit 0
fi
if [ "${1:-}" = --huge ]; then
	run "-DNWAITERS=3 -DMAXTMO=0 -DBROADCAST=1 -DDESTROY=1" "-DBITSTATE" -w30
	run "$lts -DROUNDS=2" "-DCOLLAPSE"
	run "-DMIXED=1 -DNWAITERS=2 -DMAXTMO=0 -DROUNDS=1" "-DCOLLAPSE"
	run "-DMIXED=1 -DNWAITERS=2 -DMAXTMO=0 -DROUNDS=2" "-DBITSTATE" -w28
	exit 0
fi
run "-DNWAITERS=2 -DMAXTMO=1 -DBROADCAST=0" "-DCOLLAPSE"
run "-DNWAITERS=2 -DMAXTMO=1 -DBROADCAST=1" "-DCOLLAPSE"
run "-DNWAITERS=2 -DMAXTMO=1 -DBROADCAST=1 -DDESTROY=1" "-DCOLLAPSE"
run "-DNWAITERS=2 -DMAXTMO=0 -DBROADCAST=1 -DUNLOCKED=1" "-DCOLLAPSE"
run "$lts -DROUNDS=1" "-DCOLLAPSE"
caught "-DBUG_NOASSUME -DNWAITERS=2 -DMAXTMO=1 -DBROADCAST=1"
caught "-DBUG_MARKLOW -DNWAITERS=2 -DMAXTMO=1 -DBROADCAST=1"
caught "-DBUG_NOMWAKE -DNWAITERS=2 -DMAXTMO=0 -DBROADCAST=1 -DDESTROY=1"
for bug in STORE NORECHECK NOBUMP; do
	caught "-DBUG_$bug $lts -DROUNDS=1"
done
exit 0
