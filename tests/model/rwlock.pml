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
 * Checked: mutual exclusion (asserts in the critical sections); no lost
 * wake-up and no deadlock (every process must reach its end: spin reports
 * an invalid end state if one sleeps forever); with -DWF (the
 * PREFER_WRITER_NONRECURSIVE kind) no reader that arrives while a writer is
 * queued gets in before some writer has got in or given up; with -DTIMED
 * reader 0 and writer 0 may time out of any sleep (and then pass on any
 * wake-up they swallowed).
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
bool asleep[N]; byte onf[N];      /* kernel futex queue: 1 rseq, 2 wseq */

byte in_r, in_w;                  /* ghost: inside the critical section */
byte wgen;                        /* ghost: writers that got in or gave up */

inline lk_lock() { atomic { !lk -> lk = 1 } }
inline lk_unlock() { lk = 0 }

inline snap() { atomic { lr = nrd; lw = wrl; lt = wt } }

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

inline wake_readers() { rseq++; wake_all(1) }
inline wake_writer() { wseq++; wake_one(2) }

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
				:: wwait > 0 -> if :: lr == 0 -> wake_writer() :: else fi
				:: else -> wake_readers()
				fi
			:: else ->
				if :: rwait > 0 -> wake_readers() :: else fi;
				if :: lr == 0 && wwait > 0 -> wake_writer() :: else fi
			fi
		fi
	fi
}

inline same() { (nrd == lr && wrl == lw && wt == lt) }

proctype reader(byte me; bool timed)
{
	byte lr; bool lw, lt, timedout, flagged; byte j, v, gsnap, it;
	for (it : 1 .. ITER) {
		/* arrival */
		atomic {
			flagged = WRITER_FIRST && wwait > 0; gsnap = wgen
		}
		/* fast path: fetch_add; a reader that may not enter backs
		 * out exactly as a read-unlock does */
		atomic { lr = nrd; lw = wrl; lt = wt; nrd++ }
		if
		:: !lw && !(WRITER_FIRST && lt) -> goto rgot
		:: else
		fi;
rback:
		snap();
		if
		:: lt && lr == 1 ->
			lk_lock();
			atomic { nrd--; lr = nrd };
			if :: lr == 0 -> kick() :: else fi;
			lk_unlock()
		:: else ->
			atomic { if :: same() -> nrd = lr - 1 :: else -> goto rback fi }
		fi;
		/* the spin: CAS attempts while a writer is inside */
		atomic {
			if
			:: !wrl && !(WRITER_FIRST && wt) -> nrd++; goto rgot
			:: else -> skip
			fi
		}
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
		v = 0;
		lk_lock();
		rwait--;
		if
		:: timedout -> kick(); lk_unlock(); goto rdone
		:: else -> goto rretry
		fi;
rgot:
		atomic {
			assert(!flagged || wgen != gsnap);
			in_r++; assert(in_w == 0);
			flagged = 0; gsnap = 0; lr = 0; lw = 0; lt = 0; timedout = 0
		}
progress_r:
		in_r--;
		/* unlock */
rurel:
		snap();
		if
		:: lt && lr == 1 ->
			lk_lock();
			atomic { nrd--; lr = nrd };
			if :: lr == 0 -> kick() :: else fi;
			lk_unlock()
		:: else ->
			atomic { if :: same() -> nrd = lr - 1 :: else -> goto rurel fi }
		fi;
rdone:
		atomic { lr = 0; lw = 0; lt = 0; timedout = 0; flagged = 0; gsnap = 0 }
	}
}

proctype writer(byte me; bool timed)
{
	byte lr; bool lw, lt, timedout; byte j, v, it;
	for (it : 1 .. ITER) {
		atomic {
			if
			:: !wrl && nrd == 0 -> wrl = 1; goto wgot
			:: else -> skip
			fi
		}
		lk_lock();
wretry:
		snap();
		if
		:: !lw && lr == 0 ->
			atomic {
				if
				:: same() -> wrl = 1; wt = (rwait > 0 || wwait > 0)
				:: else -> goto wretry
				fi
			}
			lk_unlock();
			goto wgot
		:: else
		fi;
		if
		:: !lt -> atomic { if :: same() -> wt = 1 :: else -> goto wretry fi }
		:: else
		fi;
		wwait++;
		v = wseq;
		lk_unlock();
		futex_wait(2, wseq, v);
		v = 0;
		lk_lock();
		wwait--;
		if
		:: timedout -> wgen++; kick(); lk_unlock(); goto wdone
		:: else -> goto wretry
		fi;
wgot:
		atomic {
			wgen++;
			in_w++; assert(in_w == 1 && in_r == 0);
			lr = 0; lw = 0; lt = 0; timedout = 0
		}
progress_w:
		in_w--;
		/* unlock */
wurel:
		snap();
		if
		:: !lt -> atomic { if :: same() -> wrl = 0 :: else -> goto wurel fi }
		:: else ->
			lk_lock();
			wrl = 0;
			kick();
			lk_unlock()
		fi;
wdone:
		atomic { lr = 0; lw = 0; lt = 0; timedout = 0 }
	}
}

init {
	atomic {
		byte i;
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
