/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The NORMAL mutex lock-word protocol of src/mutex (glibc's lll_lock),
 * spinning included, for 3 threads that each lock and unlock twice.
 *   word: 0 free, 1 locked, 2 locked and maybe sleepers.
 *   lock:   CAS 0->1; else spin (bounded) reading the word, CAS 0->1 only
 *           while it reads 1; then loop { swap 2; got 0 -> owner;
 *           FUTEX_WAIT(word, 2) }.
 *   unlock: swap 0; old 2 -> FUTEX_WAKE 1.
 * The futex is modelled as the kernel does it: FUTEX_WAIT compares and
 * enqueues atomically; FUTEX_WAKE dequeues one sleeper, if any.
 * Checked: mutual exclusion (assert), no deadlock and no lost wake-up
 * (an invalid end state is a thread asleep forever after the others
 * finished, i.e. while the lock is free), and the word is 0 at the end.
 * Planted bug that must make spin fail: -DBUG_RELOCK1 (a woken thread
 * relocks with 0 -> 1 instead of the swap to 2, forgetting the sleepers
 * still queued: its unlock then wakes nobody).
 */
#define N 3
#define SPIN 2

byte word = 0;
byte incs = 0;
bool asleep[N];
byte done = 0;

inline cas01(ok) {
	atomic { if :: word == 0 -> word = 1; ok = true :: else -> ok = false fi }
}

inline futex_wake_one() {
	atomic {
		if
		:: asleep[0] -> asleep[0] = false
		:: asleep[1] -> asleep[1] = false
		:: asleep[2] -> asleep[2] = false
		:: else -> skip
		fi
	}
}

proctype thread(byte me)
{
	byte round = 0, old, spins;
	bool ok, slept = false;
again:
	cas01(ok);
	if
	:: ok -> goto locked
	:: else -> skip
	fi;
	spins = 0;
spin:
	if
	:: spins < SPIN ->
		spins++;
		if
		:: word == 0 -> cas01(ok); if :: ok -> goto locked :: else -> goto spin fi
		:: word == 1 -> goto spin
		:: word == 2 -> skip            /* sleepers: stop spinning */
		fi
	:: else -> skip
	fi;
sleep:
#ifdef BUG_RELOCK1
	if
	:: slept -> atomic { old = word; if :: word == 0 -> word = 1 :: else -> word = 2 fi }
	:: else -> atomic { old = word; word = 2 }
	fi;
#else
	atomic { old = word; word = 2 };
#endif
	if
	:: old == 0 -> goto locked
	:: else ->
		atomic { if :: word == 2 -> asleep[me] = true :: else -> skip fi };
		(!asleep[me]);
		slept = true;
		goto sleep
	fi;
locked:
	incs++;
	assert(incs == 1);
	incs--;
	atomic { old = word; word = 0 };
	if
	:: old == 2 -> futex_wake_one()
	:: else -> skip
	fi;
	round++;
	if
	:: round < 2 -> goto again
	:: else -> skip
	fi;
	done++
}

init {
	atomic {
		run thread(0);
		run thread(1);
		run thread(2)
	}
	(done == N);
	assert(word == 0 && incs == 0)
}
