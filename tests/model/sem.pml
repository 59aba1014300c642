/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The semaphore protocol of src/sem (glibc 2.36's, plus libnptl's spin and
 * the wake passed on by a waiter that leaves), for 3 waiters and 2 posts.
 *   word: value (tokens) and nwaiters (registered waiters), one atomic unit.
 *   post:  {value++; old nwaiters} in one step; old nwaiters > 0 -> wake 1.
 *   wait:  CAS a token; else spin reading the word while value == 0 and
 *          nwaiters == 0 (bounded), taking a token it sees; else register
 *          (nwaiters++) and loop: value > 0 -> {value--, nwaiters--} in one
 *          CAS; value == 0 -> FUTEX_WAIT(value word, 0).
 *   leave (timeout, EINTR, cancellation, at any point while registered,
 *          including just after being woken): nwaiters--, and if tokens
 *          remain and waiters are still registered, wake one.
 * The futex is modelled as the kernel does it: FUTEX_WAIT compares and
 * enqueues atomically; FUTEX_WAKE dequeues one sleeper, if any.
 * Checked when everything has stopped: no waiter sleeps while a token is
 * available (no lost wake-up), tokens are conserved, nobody stays
 * registered but the sleepers.
 * Planted bug that must make spin fail: -DBUG_NOPASS (a waiter that
 * leaves does not pass on a wake-up it may have swallowed).
 */
#define W 3
#define P 2
#define SPIN 2

byte value = 0;
byte nwaiters = 0;
bool asleep[W];
byte taken = 0, left = 0, posted = 0;

inline wake_one() {
	atomic {
		if
		:: asleep[0] -> asleep[0] = false
		:: asleep[1] -> asleep[1] = false
		:: asleep[2] -> asleep[2] = false
		:: else -> skip
		fi
	}
}

proctype poster()
{
	byte old;
	atomic { value++; old = nwaiters };
	if
	:: old > 0 -> wake_one()
	:: else -> skip
	fi;
	posted++
}

proctype waiter(byte me)
{
	byte spins = 0;
	bool may_leave = true;
	/* fast path */
	atomic {
		if
		:: value > 0 -> value--; taken++; goto done
		:: else -> skip
		fi
	}
	/* spin, unregistered */
	do
	:: spins < SPIN ->
		atomic {
			if
			:: value > 0 -> value--; taken++; goto done
			:: nwaiters > 0 -> break
			:: else -> spins++
			fi
		}
	:: else -> break
	od;
	nwaiters++;
loop:
	if
	:: may_leave -> goto leave
	:: true -> skip
	fi;
	atomic {
		if
		:: value > 0 -> value--; nwaiters--; taken++; goto done
		:: else -> skip
		fi
	}
	atomic {
		if
		:: value == 0 -> asleep[me] = true
		:: else -> skip
		fi
	}
end_sleep:
	if
	:: !asleep[me] -> skip
	:: may_leave && asleep[me] ->	/* timeout or signal */
		atomic { asleep[me] = false; may_leave = false }; goto leave
	fi;
	goto loop;
leave:
	atomic {
		nwaiters--;
		if
#ifndef BUG_NOPASS
		:: value > 0 && nwaiters > 0 -> skip
#endif
		:: else -> left++; goto done
		fi
	}
	wake_one();
	left++;
done:
	skip
}

/* Once everything has stopped: the invariants.  */
proctype monitor()
{
	atomic {
		(posted == P && taken + left +
		 asleep[0] + asleep[1] + asleep[2] == W) ->
		assert(value == 0 || !(asleep[0] || asleep[1] || asleep[2]));
		assert(value + taken == P);
		assert(nwaiters == asleep[0] + asleep[1] + asleep[2])
	}
}

init {
	atomic {
		run waiter(0); run waiter(1); run waiter(2);
		run poster(); run poster();
		run monitor()
	}
}
