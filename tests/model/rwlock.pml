/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model of libnptl's rwlock protocol (src/rwlock/pthread_rwlock.c) for
 * spin.  NR readers and NW writers each lock and unlock ITER times.
 *
 * The state word (nrd, wrl, wt = readers, NPTL_RW_WRLOCKED, NPTL_RW_WAITERS)
 * is read into locals and changed only by CAS against those locals, as in
 * the C code, so every interleaving of fast paths with the slow path is
 * explored.  lk is the internal lock; rseq/wseq are the futex words; the
 * kernel's futex queue is asleep[]/onf[], and FUTEX_WAKE of one waiter
 * picks any sleeper nondeterministically.
 *
 * Checked: mutual exclusion (asserts in the critical sections); the
 * queue counts never go below zero; no lost
 * wake-up and no deadlock (every process must reach its end: spin reports
 * an invalid end state if one sleeps forever); with -DWF (the
 * PREFER_WRITER_NONRECURSIVE kind) no reader that arrives while a writer is
 * queued gets in before some writer has got in or given up; with -DTIMED
 * reader 0 and writer 0 may time out of any sleep (and then pass on any
 * wake-up they swallowed).
 *
 * With -DBIAS the read bias too (BRAVO, see the top of pthread_rwlock.c):
 * `bias` is NPTL_RW_BIAS in the state word, `slots` the flag that makes
 * a writer scan, slot[] the table (one slot per reader, or with -DCOLL
 * one slot shared by readers 0 and 1, as after 512 threads: the second
 * one's CAS fails).  A reader that sees the bias CASes its slot, checks
 * the bias again and holds the lock through the slot, or backs out; a
 * reader that got in through the lock word may set the bias (the clock,
 * i.e. the inhibition, is a nondeterministic choice).  Writers clear the
 * bias with the CAS that takes the lock (writer preference: also on
 * arrival and when queuing) and, if `slots`, wait for every slot (a
 * timed writer may give up there and release the lock word).  -DB0
 * starts biased.  Planted bugs that must make spin fail:
 * -DBUG_NORECHECK (a reader does not check the bias after publishing),
 * -DBUG_NOWAIT (a writer does not wait for slots), -DBUG_FOREIGN (unlock
 * goes by what the table holds rather than by the thread's own record),
 * -DBUG_WFBIAS (with writer preference, a reader sets the bias while a
 * writer is queued), -DBUG_HANDOFF (a writer that timed out leaves a
 * write lock handed to it unowned), -DBUG_RCOUNT (a reader counted out
 * by a release takes itself out of rwait again), -DBUG_LOCKEDWAIT (a
 * writer of the default kinds waits for a slot holding the lock word:
 * with -DDEP, where reader 0 may hold the lock until reader 1 has got
 * in, as in glibc's tst-rwlock16, that is a deadlock).
 *
 * The default kinds promise that a reader never waits for a writer that
 * does not hold the lock, so that a reader may wait, holding it, for
 * another reader (-DDEP; the writer-preferring kind does not promise it,
 * and deadlocks there, as in glibc).  A writer that holds the lock word
 * and finds a slot that still holds the lock is waiting for a reader:
 * it gives the lock word back, waits for that slot holding nothing, and
 * starts over.
 *
 * A release that frees the lock while a writer is queued (and, for the
 * default kinds, no reader is) takes the write lock for it (hand_off):
 * `handoff` counts such locks; a queued writer that comes back from its
 * sleep takes one if there is one, timed out or not.  A release that
 * wakes the queued readers counts them all out of rwait (rseq moves on):
 * a woken reader tries the lock word as an arriving reader does, and
 * only if that fails takes lk and queues again.
 */
#ifndef NR
#define NR 2
#endif
#ifndef NW
#define NW 2
#endif
#ifndef ITER
#define ITER 2
#endif
#define N (NR + NW)

#ifdef WF
#define WRITER_FIRST 1
#else
#define WRITER_FIRST 0
#endif

byte nrd; bool wrl; bool wt;      /* the state word */
bool lk;                          /* internal lock */
byte rseq, wseq;                  /* futex words */
byte rwait, wwait;                /* queued (under lk) */
byte handoff;                     /* write locks handed to queued writers */
bool asleep[N]; byte onf[N];      /* kernel futex queue: 1 rseq, 2 wseq */

bool bias;                        /* NPTL_RW_BIAS, in the state word */
bool slots;                       /* rw->slots: a writer must scan */
bool slot[NR];                    /* the slot table (holds this lock) */
#ifdef COLL
#define SLOT(r) ((r) == 1 -> 0 : (r))
#else
#define SLOT(r) (r)
#endif

byte in_r, in_w;                  /* ghost: inside the critical section */
byte wgen;                        /* ghost: writers that got in or gave up */
bool r1got;                       /* ghost: reader 1 got in (-DDEP) */

inline lk_lock() { atomic { !lk -> lk = 1 } }
inline lk_unlock() { lk = 0 }

inline snap() { atomic { lr = nrd; lw = wrl; lt = wt; lb = bias } }

/* futex_wait(word, v): sleeps unless the word moved on.  */
inline futex_wait(f, word, v) {
	atomic {
		if
		:: word == v -> asleep[me] = 1; onf[me] = f
		:: else -> skip
		fi
	}
	if
	:: atomic { !asleep[me] -> timedout = 0 }
	:: atomic { timed && asleep[me] -> asleep[me] = 0; timedout = 1 }
	fi
}

inline wake_all(f) {
	atomic {
		j = 0;
		do
		:: j < N -> if :: asleep[j] && onf[j] == f -> asleep[j] = 0 :: else fi; j++
		:: else -> break
		od;
		j = 0
	}
}

/* FUTEX_WAKE of one: any one sleeper on f, if there is one.  */
inline wake_one(f) {
	atomic {
		if
		:: asleep[0] && onf[0] == f -> asleep[0] = 0
		:: asleep[1] && onf[1] == f -> asleep[1] = 0
#if N > 2
		:: asleep[2] && onf[2] == f -> asleep[2] = 0
#endif
#if N > 3
		:: asleep[3] && onf[3] == f -> asleep[3] = 0
#endif
#if N > 4
		:: asleep[4] && onf[4] == f -> asleep[4] = 0
#endif
		:: else -> skip
		fi
	}
}

/* Wakes every queued reader and counts them all out (see the reader).
 * Under lk only the futex word moves and the wake is noted (pr, pw);
 * lk_unlock_wake() makes the FUTEX_WAKE calls after dropping lk, as the
 * C code does, so a writer that queues in between may be the one woken.  */
inline wake_readers() { rseq++; rwait = 0; pr = 1 }
inline wake_writer() { wseq++; pw = 1 }
inline lk_unlock_wake() {
	lk_unlock();
	if :: pr -> pr = 0; wake_all(1) :: else fi;
	if :: pw -> pw = 0; wake_one(2) :: else fi
}

/* Under lk, the lock free and a writer queued: the releaser takes the
 * write lock for a queued writer (clearing the bias, as a writer's CAS
 * does) and wakes one; whichever queued writer comes back first owns it.
 * Nothing if the lock was taken meanwhile: its holder kicks.  */
inline hand_off() {
	atomic {
		if
		:: nrd == 0 && !wrl ->
			wrl = 1; bias = 0; wt = (rwait > 0 || wwait > 1);
			wwait--; handoff++; j = 1
		:: else -> j = 0
		fi
	}
	if :: j -> j = 0; wake_writer() :: else fi
}

/* Under lk.  */
inline kick() {
	snap();
	if
	:: rwait == 0 && wwait == 0 -> wt = 0
	:: else ->
		if
		:: lw -> skip
		:: else ->
			if
			:: WRITER_FIRST ->
				if
				:: wwait > 0 -> if :: lr == 0 -> hand_off() :: else fi
				:: else -> wake_readers()
				fi
			:: rwait > 0 ->
				wake_readers();
				if :: lr == 0 && wwait > 0 -> wake_writer() :: else fi
			:: else ->
				if :: lr == 0 && wwait > 0 -> hand_off() :: else fi
			fi
		fi;
		/* readers just woken are counted out */
		if :: rwait == 0 && wwait == 0 -> wt = 0 :: else fi
	fi
}

inline same() { (nrd == lr && wrl == lw && wt == lt && bias == lb) }

/* A reader that holds the lock through the lock word may set the bias
 * once the inhibition is over (nondeterministic here).  */
inline bias_try() {
#ifdef BIAS
	if
	:: skip
	:: slots = 1;
	   atomic {
		if
#ifdef BUG_WFBIAS
		:: !bias && !wrl -> bias = 1
#else
		:: !bias && !wrl && !(WRITER_FIRST && wt) -> bias = 1
#endif
		:: else
		fi
	   }
	fi
#else
	skip
#endif
}

/* Give back the write lock (unlock, or a writer that timed out waiting
 * for slots).  */
inline wrelease() {
	do
	:: snap();
	   if
	   :: !lt -> atomic { if :: same() -> wrl = 0; break :: else fi }
	   :: else -> lk_lock(); wrl = 0; kick(); lk_unlock_wake(); break
	   fi
	od
}

proctype reader(byte me; bool timed)
{
	byte lr; bool lw, lt, lb, timedout, flagged, viaslot, pr, pw; byte j, v, gsnap, it;
	for (it : 1 .. ITER) {
		/* arrival */
		atomic {
			flagged = WRITER_FIRST && wwait > 0; gsnap = wgen
		}
#ifdef BIAS
		/* the slot: CAS from empty, then the bias again */
		if
		:: bias ->
			atomic { if :: !slot[SLOT(me)] -> slot[SLOT(me)] = 1; viaslot = 1 :: else fi };
			if
			:: viaslot ->
#ifdef BUG_NORECHECK
				goto rgot
#else
				if
				:: bias -> goto rgot
				:: else -> slot[SLOT(me)] = 0; viaslot = 0
				fi
#endif
			:: else
			fi
		:: else
		fi;
#endif
		/* fast path: fetch_add; a reader that may not enter backs
		 * out exactly as a read-unlock does */
		atomic { lr = nrd; lw = wrl; lt = wt; nrd++ }
		if
		:: !lw && !(WRITER_FIRST && lt) -> bias_try(); goto rgot
		:: else
		fi;
rback:
		snap();
		if
		:: lt && !lw && lr == 1 ->
			lk_lock();
			atomic { nrd--; lr = nrd };
			if :: lr == 0 -> kick() :: else fi;
			lk_unlock_wake()
		:: else ->
			atomic { if :: same() -> nrd = lr - 1 :: else -> goto rback fi }
		fi;
		/* the spin: CAS attempts while a writer is inside */
		atomic {
			if
			:: !wrl && !(WRITER_FIRST && wt) -> nrd++; lr = 1
			:: else -> lr = 0
			fi
		}
		if :: lr -> bias_try(); goto rgot :: else fi;
		lk_lock();
rretry:
		snap();
		if
		:: !lw && !(WRITER_FIRST && wwait > 0) ->
			atomic {
				if
				:: same() -> nrd = lr + 1; wt = (rwait > 0 || wwait > 0)
				:: else -> goto rretry
				fi
			}
			lk_unlock();
			bias_try();
			goto rgot
		:: else
		fi;
		if
		:: !lt -> atomic { if :: same() -> wt = 1 :: else -> goto rretry fi }
		:: else
		fi;
		rwait++;
		v = rseq;
		lk_unlock();
		futex_wait(1, rseq, v);
		/* counted out by a release: enter as an arriving reader */
		if
		:: rseq != v ->
			atomic {
				if
				:: !wrl && !(WRITER_FIRST && wt) -> nrd++; lr = 1
				:: else -> lr = 0
				fi
			}
			if :: lr -> v = 0; bias_try(); goto rgot :: else fi
		:: else
		fi;
		lk_lock();
#ifdef BUG_RCOUNT
		assert(rwait > 0); rwait--;
#else
		if :: rseq == v -> assert(rwait > 0); rwait-- :: else fi;
#endif
		v = 0;
		if
		:: timedout -> kick(); lk_unlock_wake(); goto rdone
		:: else -> goto rretry
		fi;
rgot:
		atomic {
			assert(!flagged || wgen != gsnap);
			in_r++; assert(in_w == 0);
			flagged = 0; gsnap = 0; lr = 0; lw = 0; lt = 0; lb = 0; timedout = 0
#ifdef DEP
			if :: me == 1 -> r1got = 1 :: else fi
#endif
		}
#ifdef DEP
		/* reader 0 may hold the lock until reader 1 has got in */
		if :: me == 0 -> (r1got) :: skip fi;
#endif
progress_r:
		in_r--;
		/* unlock: the thread's own record says slot or lock word */
#ifdef BUG_FOREIGN
		if :: slot[SLOT(me)] -> slot[SLOT(me)] = 0; viaslot = 0; goto rdone :: else fi;
#endif
		if :: viaslot -> slot[SLOT(me)] = 0; viaslot = 0; goto rdone :: else fi;
rurel:
		snap();
		if
		:: lt && lr == 1 ->
			lk_lock();
			atomic { nrd--; lr = nrd };
			if :: lr == 0 -> kick() :: else fi;
			lk_unlock_wake()
		:: else ->
			atomic { if :: same() -> nrd = lr - 1 :: else -> goto rurel fi }
		fi;
rdone:
		atomic { lr = 0; lw = 0; lt = 0; lb = 0; timedout = 0; flagged = 0; gsnap = 0 }
	}
}

proctype writer(byte me; bool timed)
{
	byte lr; bool lw, lt, lb, timedout, pr, pw; byte j, k, v, it;
	for (it : 1 .. ITER) {
wtop:
		atomic {
			if
			:: !wrl && nrd == 0 -> wrl = 1; bias = 0; goto wgot
			:: else -> skip
			fi
		}
		/* writer preference: stop biased readers on arrival */
		atomic { if :: WRITER_FIRST && bias -> bias = 0 :: else fi }
		lk_lock();
wretry:
		snap();
		if
		:: !lw && lr == 0 ->
			atomic {
				if
				:: same() -> wrl = 1; bias = 0; wt = (rwait > 0 || wwait > 0)
				:: else -> goto wretry
				fi
			}
			lk_unlock();
			goto wgot
		:: else
		fi;
		if
		:: !lt || (WRITER_FIRST && lb) ->
			atomic {
				if
				:: same() -> wt = 1; if :: WRITER_FIRST -> bias = 0 :: else fi
				:: else -> goto wretry
				fi
			}
		:: else
		fi;
		wwait++;
		v = wseq;
		lk_unlock();
		futex_wait(2, wseq, v);
		v = 0;
		lk_lock();
		if
#ifdef BUG_HANDOFF
		:: handoff > 0 && !timedout -> handoff--; lk_unlock(); goto wgot
#else
		:: handoff > 0 -> handoff--; lk_unlock(); goto wgot
#endif
		:: else
		fi;
		assert(wwait > 0);
		wwait--;
		if
		:: timedout -> wgen++; kick(); lk_unlock_wake(); goto wdone
		:: else -> goto wretry
		fi;
wgot:
#if defined(BIAS) && !defined(BUG_NOWAIT)
		/* revocation: wait for every slot that may hold the lock;
		 * the default kinds wait for a held slot only after giving
		 * the lock word back (k: that slot + 1), then start over */
		if
		:: slots ->
			for (j : 0 .. NR - 1) {
				if
				:: atomic { !slot[j] -> skip }
#if defined(WF) || defined(BUG_LOCKEDWAIT)
				:: atomic { timed && slot[j] -> timedout = 1 }
#else
				:: atomic { slot[j] -> k = j + 1 }
#endif
				fi;
				if :: timedout || k -> break :: else fi
			}
			j = 0;
			if
			:: timedout -> wgen++; wrelease(); goto wdone
			:: k ->
				wrelease();
				atomic { lr = 0; lw = 0; lt = 0; lb = 0 };
				if
				:: atomic { !slot[k - 1] -> k = 0 }
				:: atomic { timed && slot[k - 1] -> k = 0; timedout = 1 }
				fi;
				if
				:: timedout -> wgen++; goto wdone
				:: else -> goto wtop
				fi
			:: else -> slots = 0
			fi
		:: else
		fi;
#endif
		atomic {
			wgen++;
			in_w++; assert(in_w == 1 && in_r == 0);
			lr = 0; lw = 0; lt = 0; timedout = 0
		}
progress_w:
		in_w--;
		/* unlock */
		wrelease();
wdone:
		atomic { lr = 0; lw = 0; lt = 0; lb = 0; timedout = 0 }
	}
}

init {
	atomic {
		byte i;
#ifdef B0
		bias = 1; slots = 1;
#endif
		for (i : 0 .. NR - 1) {
#ifdef TIMED
			run reader(i, i == 0)
#else
			run reader(i, 0)
#endif
		}
		for (i : 0 .. NW - 1) {
#ifdef TIMED
			run writer(NR + i, i == 0)
#else
			run writer(NR + i, 0)
#endif
		}
	}
}
