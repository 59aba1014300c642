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
 * then (the release counts assume the mutex held).  With MIXED the
 * waiters use two mutexes, as LTP's pthread_cond_timedwait/2-5 does: each
 * waits ROUNDS times, with either mutex (chosen nondeterministically;
 * with ALTERNATE its own first, then the other), and records it in the
 * condvar as bind_mutex does (a lone waiter replaces the recorded mutex,
 * any other marks the condvar mixed, and both bump seq and take the
 * snapshot again); a broadcast requeues onto the recorded mutex's word
 * only while the condvar is not mixed, and its FUTEX_CMP_REQUEUE fails
 * (a wake of all instead) if seq moved since its bump.  The signaller
 * sends BCASTS broadcasts holding no mutex, then a last one holding both,
 * after which no waiter waits again (`closing`, read under the waiter's
 * mutex): that one must release every waiter, and a sleeper moved onto
 * the word of a mutex it does not hold would sleep there for good (an
 * invalid end state).  With DESTROY the last round is a broadcast after
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
 * (destroy does not wake the mutex word), and with MIXED: -DBUG_STORE
 * (the scheme before bind_mutex: every waiter stores its mutex, and a
 * broadcast requeues waiters of one mutex onto the other's word),
 * -DBUG_NORECHECK (a lone waiter that replaced the mutex does not look at
 * the waiter count again), -DBUG_NOBUMP (a waiter that changed the
 * record does not bump seq, so a broadcast that read the old record
 * still requeues).
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
#ifndef MIXED
#define MIXED 0
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef BCASTS
#define BCASTS 1
#endif
#define NOMUTEX 2

byte m[2];              /* mutex lock words (only m[0] without MIXED) */
byte incs[2];           /* ghost: threads inside each critical section */
byte seq;               /* condvar futex word */
byte wrefs;             /* registered waiters */
byte sleepers;
byte q[4];              /* 0 running, 1 asleep on seq, 2 + x asleep on
                           m[x], 4 asleep on wrefs; [N] is the signaller */
bool destroying;
#if MIXED
byte cmutex = NOMUTEX;  /* c->mutex: the recorded mutex ... */
bool cmixed;            /* ... and NPTL_COND_MIXED */
bool closing;           /* no more waits (read under either mutex) */
#endif
byte rqbelow;           /* requeued_below: a requeue may have moved
                           sleepers whose snapshot is below this */
#ifdef BUG_COUNT
byte rqcount;           /* the old scheme: a count of requeues ... */
byte rq[4];             /* ... as each waiter read it before sleeping */
#endif
byte tokens;            /* the predicate */
bool waiting[4];        /* ghost: between registering and relocking */
byte snap[4];
bool out[4];            /* ghost: back from its futex wait (timed out,
                           or woken: with MIXED an older broadcast's
                           FUTEX_WAKE can wake a newer snapshot) */
byte tmo;               /* timeouts so far */

inline wake_one(w)      /* FUTEX_WAKE 1 on word w (1 = seq, 2 + x = m[x]) */
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

inline futex_wait_m(me, x)
{
	atomic { if :: m[x] == 2 -> q[me] = 2 + x :: else -> skip fi };
	q[me] == 0
}

inline lock_contended(me, x)
{
	do
	:: atomic { t = m[x]; m[x] = 2 };
	   if
	   :: t == 0 -> break
	   :: else -> futex_wait_m(me, x)
	   fi
	od
}

/* The relock of a waiter that slept (__nptl_mutex_lock_requeued).  */
inline lock_requeued(me, x)
{
	lock_contended(me, x);
	atomic { incs[x]++; assert(incs[x] == 1) }
}

inline lock(me, x)
{
	atomic { if :: m[x] == 0 -> m[x] = 1; t = 0 :: else -> t = 1 fi };
	if
	:: t == 0 -> skip
	:: else -> lock_contended(me, x)
	fi;
	atomic { incs[x]++; assert(incs[x] == 1) }
}

inline unlock(x)
{
	incs[x]--;
	atomic { t = m[x]; m[x] = 0 };
	if
	:: t == 2 -> wake_one(2 + x)
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
		:: destroying && wrefs == 0 && q[N] == 4 -> q[N] = 0
		:: else -> skip
		fi
	}
}

/* bind_mutex (pthread_cond_wait.c): `others` waiters registered before
 * us.  Its CAS loop is one atomic step here (a failed CAS only retries
 * with the new value).  */
inline bind_mutex(x)
{
#if MIXED
	atomic {
#ifdef BUG_STORE
		cmutex = x; t = 1
#else
		if
		:: cmutex == x && !cmixed -> t = 1
		:: else ->
			if
			:: others > 0 && cmixed -> t = 1
			:: others > 0 && !cmixed -> cmixed = 1; t = 0
			:: others == 0 -> cmutex = x; cmixed = 0; t = 0
			fi
		fi
#endif
	};
	if
	:: t == 0 ->
#ifndef BUG_NORECHECK
		if :: others == 0 && wrefs > 1 -> cmixed = 1 :: else -> skip fi;
#endif
#ifndef BUG_NOBUMP
		seq++;
#endif
		snap[me] = seq
	:: else -> skip
	fi
#else
	skip
#endif
}

inline cond_wait(me, x)
{
	d_step { snap[me] = seq; waiting[me] = 1; out[me] = 0 };
	atomic { others = wrefs; wrefs++ };
	bind_mutex(x);
	unlock(x);
	if
	:: seq != snap[me] -> skip              /* spinning saw the signal */
	:: true ->                              /* spun in vain, or no spin */
		sleepers++;
#ifdef BUG_COUNT
		rq[me] = rqcount;
#endif
		atomic { if :: seq == snap[me] -> q[me] = 1 :: else -> skip fi };
		if
		:: atomic { q[me] == 0 -> out[me] = 1 }  /* woken, or never slept */
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
			leave(); lock(me, x)
#else
			leave(); lock_requeued(me, x)
#endif
		:: else ->
			leave(); lock(me, x)
		fi;
		goto waited
	fi;
	leave();
	lock(me, x);
waited:
	waiting[me] = 0
}

#if MIXED
proctype waiter(byte me)
{
	byte t, others, x, r;
	for (r : 1 .. ROUNDS) {
#ifdef ALTERNATE
		x = (me + r) % 2;
#else
		if :: x = 0 :: x = 1 fi;
#endif
		lock(me, x);
		if
		:: closing -> unlock(x); break
		:: else -> cond_wait(me, x); unlock(x)
		fi
	}
}
#else
proctype waiter(byte me)
{
	byte t, others;
	lock(me, 0);
	do
	:: tokens > 0 -> break
	:: else -> cond_wait(me, 0)
	od;
	tokens--;
	unlock(0)
}
#endif

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
		atomic { if :: wrefs == w -> q[N] = 4 :: else -> skip fi };
		q[N] == 0;
		w = wrefs
	od
}

/* Signal (bcast 0) or broadcast (1): bump seq; wake one sleeper, or wake
 * one and requeue the others onto the recorded mutex's word (rw), or,
 * where requeueing is off or the FUTEX_CMP_REQUEUE finds seq moved, wake
 * all.  */
inline send()
{
	if
	:: wrefs == 0 -> skip
	:: else ->
		atomic { seq++; s = seq };
		if
		:: sleepers == 0 -> skip
		:: sleepers > 0 && !bcast -> wake_one(1)
		:: sleepers > 0 && bcast ->
#if MIXED
			atomic { if :: cmixed -> rw = NOMUTEX :: else -> rw = cmutex fi };
#else
			rw = 0;
#endif
			if
			:: rw != NOMUTEX ->
#if defined(BUG_MARKLOW)
				if :: rqbelow < s - 1 -> rqbelow = s - 1 :: else -> skip fi;
#elif defined(BUG_COUNT)
				rqcount++;
#else
				if :: rqbelow < s + 1 -> rqbelow = s + 1 :: else -> skip fi;
#endif
				atomic {
					if
					:: seq != s -> rw = NOMUTEX     /* EAGAIN */
					:: else ->
						if
						:: q[0] == 1 -> q[0] = 0
						:: q[1] == 1 -> q[1] = 0
						:: q[2] == 1 -> q[2] = 0
						:: else -> skip
						fi;
						if :: q[0] == 1 -> q[0] = 2 + rw :: else -> skip fi;
						if :: q[1] == 1 -> q[1] = 2 + rw :: else -> skip fi;
						if :: q[2] == 1 -> q[2] = 2 + rw :: else -> skip fi
					fi
				}
			:: else -> skip
			fi;
			if
			:: rw == NOMUTEX ->             /* FUTEX_WAKE all */
				d_step {
					if :: q[0] == 1 -> q[0] = 0 :: else -> skip fi;
					if :: q[1] == 1 -> q[1] = 0 :: else -> skip fi;
					if :: q[2] == 1 -> q[2] = 0 :: else -> skip fi
				}
			:: else -> skip
			fi
		fi
	fi
}

#if MIXED
proctype signaller()
{
	byte t, i, s, rw, after, nwait;
	bool bcast = 1;
	for (i : 1 .. BCASTS) {
		send()
	}
	lock(N, 0);
	lock(N, 1);
	closing = 1;
	count_waiting(nwait);
	send();
	count_released(after);
	assert(after == nwait);
	unlock(1);
	unlock(0)
}
#else
proctype signaller()
{
	byte t, i, s, rw, w, before, after, nwait;
	bool bcast, locked;
	for (i : 1 .. N) {
		lock(N, 0);
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
		if :: UNLOCKED && bcast -> unlock(0); locked = 0 :: else -> skip fi;
		send();
		count_released(after);
		if
		:: UNLOCKED -> skip     /* the counts assume the mutex held */
		:: !UNLOCKED && bcast -> assert(after == nwait)
		:: !UNLOCKED && !bcast -> assert(after > before || after == nwait)
		fi;
		if :: DESTROY && i == N -> destroy() :: else -> skip fi;
		if :: locked -> unlock(0) :: else -> skip fi
	}
}
#endif

init {
	atomic {
		byte i;
		for (i : 0 .. N - 1) {
			run waiter(i)
		}
		run signaller()
	}
}
