/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The condition variable protocol of src/cond/pthread_cond_wait.c, with
 * the mutex protocol it relies on (glibc's lll: 0 free, 1 locked, 2 locked
 * with sleepers) and the two futexes (the kernel may wake any sleeper of a
 * word: FIFO order is not assumed).  NWAITERS threads each wait once for a
 * token; one signaller hands out NWAITERS tokens, each with a signal (or,
 * with BROADCAST, a signal or a broadcast chosen nondeterministically),
 * always holding the mutex.  Waiters may spin or sleep, and each may time
 * out (MAXTMO timeouts in all, to keep the state space small).  A
 * broadcast wakes one sleeper and requeues the others onto the mutex word
 * (FUTEX_CMP_REQUEUE; the signaller holds the mutex, so the comparison
 * with seq always succeeds here) after raising `requeued_below` to its
 * seq + 1; a waiter that slept relocks "assuming waiters" (xchg 2) if
 * that mark is above its seq snapshot, else normally, as src/cond does; a
 * requeued waiter may time out on the mutex word.  With UNLOCKED a
 * broadcast is sent after the signaller's unlock, so that a waiter can
 * arrive between its seq bump and its requeue with the broadcast's own
 * seq as snapshot; only mutual exclusion and the end states are checked
 * then (the release counts assume the mutex held).  Not modelled: waiters
 * of several mutexes, which turn requeueing off (pthread_cond_wait.c
 * argues it).  With DESTROY the last round is a broadcast after
 * which the signaller, still holding the mutex, destroys the condvar:
 * wakes the mutex word and waits for the waiters to leave.  Checked:
 *  - mutual exclusion of the mutex around the predicate (assertion);
 *  - no lost wake-up: every signal releases a waiter that was waiting, not
 *    yet released, when it was sent (unless all were released already),
 *    and a broadcast releases all (assertions; "released" = seq moved past
 *    its snapshot and not asleep on the condvar futex);
 *  - no deadlock: a lost wake-up would leave a waiter asleep forever with a
 *    token available, a broken requeue chain a waiter asleep on the mutex,
 *    and a destroy that never sees the waiters leave the signaller (all
 *    invalid end states).
 * Planted bugs that must make spin fail: -DBUG_NOASSUME (a requeued
 * waiter relocks without "assume waiters"), -DBUG_MARKLOW (the broadcast
 * marks the seq it found, not the one it made plus one: its sleepers'
 * snapshots are not below that), -DBUG_COUNT (the scheme before the mark:
 * a count of requeues read before sleeping, which a waiter arriving inside
 * an UNLOCKED broadcast reads too late: three waiters strand one on the
 * mutex word), -DBUG_NOMWAKE
 * (destroy does not wake the mutex word).
 */
#ifndef NWAITERS
#define NWAITERS 2
#endif
#ifndef BROADCAST
#define BROADCAST 0
#endif
#define N NWAITERS
#ifndef MAXTMO
#define MAXTMO 1
#endif
#ifndef DESTROY
#define DESTROY 0
#endif
#ifndef UNLOCKED
#define UNLOCKED 0
#endif

byte m;                 /* mutex lock word */
byte incs;              /* ghost: threads inside the critical section */
byte seq;               /* condvar futex word */
byte wrefs;             /* registered waiters */
byte sleepers;
byte q[4];              /* 0 running, 1 asleep on seq, 2 asleep on m,
                           3 asleep on wrefs; [N] is the signaller */
bool destroying;
byte rqbelow;           /* requeued_below: a requeue may have moved
                           sleepers whose snapshot is below this */
#ifdef BUG_COUNT
byte rqcount;           /* the old scheme: a count of requeues ... */
byte rq[4];             /* ... as each waiter read it before sleeping */
#endif
byte tokens;            /* the predicate */
bool waiting[4];        /* ghost: between registering and relocking */
byte snap[4];
bool out[4];            /* ghost: timed out */
byte tmo;               /* timeouts so far */

inline wake_one(w)      /* FUTEX_WAKE 1 on word w (1 = seq, 2 = m) */
{
	atomic {
		if
		:: q[0] == w -> q[0] = 0
		:: q[1] == w -> q[1] = 0
		:: q[2] == w -> q[2] = 0
		:: q[3] == w -> q[3] = 0
		:: else -> skip
		fi
	}
}

inline futex_wait_m(me)
{
	atomic { if :: m == 2 -> q[me] = 2 :: else -> skip fi };
	q[me] == 0
}

inline lock_contended(me)
{
	do
	:: atomic { t = m; m = 2 };
	   if
	   :: t == 0 -> break
	   :: else -> futex_wait_m(me)
	   fi
	od
}

/* The relock of a waiter that slept (__nptl_mutex_lock_requeued).  */
inline lock_requeued(me)
{
	lock_contended(me);
	atomic { incs++; assert(incs == 1) }
}

inline lock(me)
{
	atomic { if :: m == 0 -> m = 1; t = 0 :: else -> t = 1 fi };
	if
	:: t == 0 -> skip
	:: else -> lock_contended(me)
	fi;
	atomic { incs++; assert(incs == 1) }
}

inline unlock()
{
	incs--;
	atomic { t = m; m = 0 };
	if
	:: t == 2 -> wake_one(2)
	:: else -> skip
	fi
}

/* Released: will return from the wait without further help.  */
#define released(i) (waiting[i] && q[i] != 1 && (seq != snap[i] || out[i]))

inline count_released(n)
{
	n = released(0) + released(1) + released(2)
}

inline count_waiting(n)
{
	n = waiting[0] + waiting[1] + waiting[2]
}

/* The last waiter out wakes a destroyer.  */
inline leave()
{
	atomic {
		wrefs--;
		if
		:: destroying && wrefs == 0 && q[N] == 3 -> q[N] = 0
		:: else -> skip
		fi
	}
}

inline cond_wait(me)
{
	d_step { snap[me] = seq; waiting[me] = 1; out[me] = 0 };
	wrefs++;
	unlock();
	if
	:: seq != snap[me] -> skip              /* spinning saw the signal */
	:: true ->                              /* spun in vain, or no spin */
		sleepers++;
#ifdef BUG_COUNT
		rq[me] = rqcount;
#endif
		atomic { if :: seq == snap[me] -> q[me] = 1 :: else -> skip fi };
		if
		:: q[me] == 0 -> skip           /* woken, or never slept */
		:: atomic { q[me] != 0 && tmo < MAXTMO -> q[me] = 0; tmo++; out[me] = 1 }
		fi;
		sleepers--;
		if
#ifdef BUG_COUNT
		:: rqcount != rq[me] ->
#else
		:: rqbelow > snap[me] ->
#endif
#ifdef BUG_NOASSUME
			leave(); lock(me)
#else
			leave(); lock_requeued(me)
#endif
		:: else ->
			leave(); lock(me)
		fi;
		goto waited
	fi;
	leave();
	lock(me);
waited:
	waiting[me] = 0
}

proctype waiter(byte me)
{
	byte t;
	lock(me);
	do
	:: tokens > 0 -> break
	:: else -> cond_wait(me)
	od;
	tokens--;
	unlock()
}

/* pthread_cond_destroy, with the mutex held: wake the mutex word, then
 * sleep on wrefs until the waiters have left.  */
inline destroy()
{
	atomic { destroying = 1; w = wrefs };
	do
	:: w == 0 -> break
	:: else ->
#ifndef BUG_NOMWAKE
		d_step {
			if :: q[0] == 2 -> q[0] = 0 :: else -> skip fi;
			if :: q[1] == 2 -> q[1] = 0 :: else -> skip fi;
			if :: q[2] == 2 -> q[2] = 0 :: else -> skip fi
		};
#endif
		atomic { if :: wrefs == w -> q[N] = 3 :: else -> skip fi };
		q[N] == 0;
		w = wrefs
	od
}

proctype signaller()
{
	byte t, i, s, w, before, after, nwait;
	bool bcast, locked;
	for (i : 1 .. N) {
		lock(N);
		tokens++;
		count_released(before);
		count_waiting(nwait);
		bcast = 0;
#if BROADCAST
		if
		:: bcast = 1
		:: skip
		fi;
#endif
		if :: DESTROY && i == N -> bcast = 1 :: else -> skip fi;
		/* With UNLOCKED a broadcast is sent after the unlock, so that a
		 * waiter can arrive between its seq bump and its requeue.  */
		locked = 1;
		if :: UNLOCKED && bcast -> unlock(); locked = 0 :: else -> skip fi;
		if
		:: wrefs == 0 -> skip
		:: else ->
			s = seq + 1; seq = s;
			if
			:: sleepers == 0 -> skip
			:: else ->
				if
				:: !bcast -> wake_one(1)
				:: else ->              /* FUTEX_CMP_REQUEUE 1, all */
#if defined(BUG_MARKLOW)
					if :: rqbelow < s - 1 -> rqbelow = s - 1 :: else -> skip fi;
#elif defined(BUG_COUNT)
					rqcount++;
#else
					if :: rqbelow < s + 1 -> rqbelow = s + 1 :: else -> skip fi;
#endif
					atomic {
						if
						:: q[0] == 1 -> q[0] = 0
						:: q[1] == 1 -> q[1] = 0
						:: q[2] == 1 -> q[2] = 0
						:: else -> skip
						fi;
						if :: q[0] == 1 -> q[0] = 2 :: else -> skip fi;
						if :: q[1] == 1 -> q[1] = 2 :: else -> skip fi;
						if :: q[2] == 1 -> q[2] = 2 :: else -> skip fi
					}
				fi
			fi
		fi;
		count_released(after);
		if
		:: UNLOCKED -> skip     /* the counts assume the mutex held */
		:: !UNLOCKED && bcast -> assert(after == nwait)
		:: !UNLOCKED && !bcast -> assert(after > before || after == nwait)
		fi;
		if :: DESTROY && i == N -> destroy() :: else -> skip fi;
		if :: locked -> unlock() :: else -> skip fi
	}
}

init {
	atomic {
		byte i;
		for (i : 0 .. N - 1) {
			run waiter(i)
		}
		run signaller()
	}
}
