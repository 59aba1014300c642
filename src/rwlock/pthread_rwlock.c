// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Read-write locks: lock, trylock, timed and clock variants, unlock.
 *
 * The lock is one word, `state`: the number of readers holding it, the
 * NPTL_RW_WRLOCKED bit while a writer holds it, and NPTL_RW_WAITERS while
 * some thread may be queued.  Without waiters every operation is a single
 * atomic operation on `state`: a fetch_add for a reader (rdlock_fast()),
 * a CAS for the rest.
 *
 * Queuing happens under `lk`, a small internal lock that only the slow
 * path takes.  Under lk a thread that cannot acquire counts itself in
 * rwait/wwait, reads the futex sequence word of its kind (rseq/wseq), drops
 * lk and futex-waits on it.  Waking means: under lk, bump the sequence and
 * futex-wake.  Why no wake-up is lost:
 *  - a waiter sets WAITERS by a CAS from the very state value it judged
 *    "cannot acquire"; if the state changed meanwhile (a release) the CAS
 *    fails and it judges again.  So every release that happens after the
 *    judgement sees WAITERS;
 *  - a release that sees WAITERS does its final step under lk, and lk was
 *    held by the waiter from its judgement until it read the sequence
 *    word; the release's bump therefore comes after that read, and the
 *    waiter's futex wait returns at once if it has not slept yet;
 *  - WAITERS is cleared only under lk and only when rwait and wwait are
 *    both 0; woken threads stay counted until they retake lk, so the bit
 *    cannot vanish while anyone still depends on a later release.
 * A releaser that makes the lock free wakes per the kind (kick() below);
 * a waiter that gives up (timeout) kicks too, so that readers a timed-out
 * writer held back need not wait for the next release.
 *
 * Wakes after lk.  kick() only bumps the sequence words under lk; the
 * FUTEX_WAKE calls come after lk is dropped (lk_unlock_wake()).  A wake
 * is a system call, and with it inside lk every thread that came to the
 * slow path meanwhile queued on lk behind it: with more threads than
 * cores (50 % writes, 8 threads on 2 cores) the lock then ran at 3 % of
 * glibc's rate, every operation a futex round trip.  No wake-up is lost:
 * a waiter read the word under lk before sleeping on it, the bump comes
 * under a later hold of lk, and the wake after the bump; so the waiter
 * either sees the word moved and does not sleep, or sleeps before the
 * wake is made.  A writer may queue between the bump and the wake and be
 * the one woken instead of an earlier one: it comes back and judges again
 * (takes a handed lock, or queues again), and the earlier one is still
 * counted in wwait, so a later release wakes it.  A wake that comes
 * after the lock was destroyed and its memory reused is a spurious
 * wake-up, which every waiter here tolerates (glibc's wakes come after
 * the release too).
 *
 * Hand-off.  When the lock is freed with a writer queued (and, for the
 * default kinds, no reader queued: those are woken instead), the
 * releaser does not merely wake a writer to race for it -- by the time
 * it runs, readers, who may enter whenever no writer holds the lock, are
 * usually inside again and it sleeps once more.  Under lk it takes the
 * write lock on the writers' behalf (a CAS from the free state, which
 * also clears BIAS), moves one count from wwait to `handoff` and wakes a
 * writer.  Any queued writer that comes back from its sleep (woken,
 * spuriously, or timed out) takes a handed lock if there is one, under
 * lk; otherwise it leaves wwait and judges again.  So wwait + handoff is
 * always the number of writers that have queued and not yet come back,
 * and a handed lock is always owned by someone who will come back: the
 * bump of wseq that comes with it makes a writer that has not slept yet
 * return at once.  A timed-out writer that finds a handed lock owns it
 * and succeeds (POSIX asks for the timeout only when the lock cannot be
 * taken).  glibc does the same for readers and writers with its phases.
 *
 * Readers woken together.  A release that wakes the queued readers (all
 * of them) counts them all out of rwait and bumps rseq, under lk.  A
 * reader back from its sleep that finds rseq moved on knows it is no
 * longer counted: it tries the lock word as an arriving reader does,
 * without lk, and only if it may not enter takes lk and queues again
 * (setting WAITERS again by a CAS from the state it judged, as any
 * queuing thread).  One that finds rseq unchanged (a spurious return, a
 * timeout) takes lk and looks again: rseq moves only under lk, so under
 * lk it knows exactly whether it is still counted.  So readers woken
 * together no longer file through lk one by one, and kick() can clear
 * WAITERS as soon as the counts it leaves are zero.  The counts only
 * decide whom to wake, never whether to wait: a process killed while
 * queued leaves a count too high, which costs spurious wake-ups and
 * nothing else (except that, with writer preference, a dead queued writer
 * keeps holding readers back, as in glibc).  tests/model/rwlock.pml is a
 * spin model of exactly this protocol (tests/model/rwlock.sh checks it).
 *
 * Kinds, read from glibc's `__flags` so static initializers work:
 * PTHREAD_RWLOCK_PREFER_READER_NP and PTHREAD_RWLOCK_PREFER_WRITER_NP
 * (which glibc treats alike) let a reader in whenever no writer holds the
 * lock, and a freed lock wakes all queued readers and one writer, who race
 * for it.
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP blocks new readers as soon
 * as a writer is queued (WAITERS sends them to the slow path, which looks
 * at wwait), and a freed lock wakes a writer first: a writer waits at most
 * for the readers that were already inside.  As in glibc, a reader that
 * read-locks again while a writer is queued deadlocks with this kind.
 *
 * As in glibc: the writer's tid in `cur_writer` gives EDEADLK for locking
 * again and tells unlock which lock the caller holds; bad timeouts are
 * EINVAL even when the lock is free.  Unlike glibc, unlocking a lock the
 * caller cannot hold (no reader, not our write lock) is EPERM rather than
 * corruption.
 *
 * Read bias (BRAVO: Dice and Kogan, "BRAVO: Biased Locking for
 * Reader-Writer Locks", USENIX ATC 2019).  Every reader above writes
 * `state`, so readers on many cores queue for its cache line even when
 * no writer ever comes.  While a process-private lock has NPTL_RW_BIAS
 * set in `state`, a reader instead publishes itself in a process-wide
 * table of slots (slot_table, mapped at the first biased read) and never
 * writes the lock:
 *  - reader: CAS its slot from empty to the lock's address, then load
 *    `state` again; if BIAS is still set it holds the read lock, else it
 *    empties the slot and takes the path above.  A slot that is not
 *    empty (another thread's, see below) also sends it there;
 *  - writer: takes the lock word as above, by a CAS that also clears BIAS
 *    (the kinds without writer preference), then, if `slots` says that
 *    readers may hold slots, waits until no slot holds this lock: spin,
 *    then yield, then sleep with a growing nap (readers leave a slot with
 *    a plain store and wake nobody, which is what keeps them cheap).
 *    With the default kinds it waits holding the lock word only for the
 *    spin: a slot still held after it belongs to a reader who may be
 *    waiting for another reader (glibc's tst-rwlock16), and that one
 *    would queue behind a writer that does not hold the lock, which
 *    these kinds promise never happens.  So the writer gives the lock
 *    word back (waking whom it held back), waits for that slot holding
 *    nothing, and starts over.  BIAS stays clear for the inhibition
 *    (below), so the readers it let in use the lock word and the slots
 *    drain; if it sets again meanwhile, the writer revokes again.
 * Both CASes and the loads after them are sequentially consistent, so
 * this is Dekker's handshake: of a reader's publish-then-check and a
 * writer's clear-then-scan, at least one sees the other.  Either the
 * reader sees BIAS gone and backs out, or the writer's scan sees its
 * slot and waits for it.  BIAS is set only by a reader that holds the
 * read lock through the lock word, by a CAS from a state without
 * WRLOCKED; so while a writer holds the lock BIAS stays clear, and every
 * reader that arrives meanwhile queues on the lock word as usual.  A
 * reader that saw a stale BIAS and published late sees the clear on its
 * re-check; if it sees BIAS set again, that is a later epoch, begun by
 * a reader after the writer had left.  A writer scans only the lines
 * threads have taken (`lines_taken`, read after its clear: a reader
 * takes its line before it publishes, so a line taken too late to be
 * scanned belongs to a reader whose re-check comes after the clear).
 * `slots` is set (before BIAS, by the reader that sets it) and cleared
 * only by a writer whose scan found the table free of this lock, under
 * WRLOCKED: BIAS may also be cleared by a writer that never scans
 * (writer preference, trywrlock, a timeout), and the readers of that
 * epoch are then still for the next writer to wait for.
 *
 * With PREFER_WRITER_NONRECURSIVE_NP an arriving writer clears BIAS at
 * once (and again with NPTL_RW_WAITERS when it queues), and a reader may
 * set BIAS only while WAITERS is clear: a queued writer stops new readers
 * on both paths.  trywrlock takes the lock word, and gives it back with
 * EBUSY if one scan finds a slot holding the lock; timed writers give it
 * back with ETIMEDOUT if their deadline passes while they wait for slots.
 * Either way BIAS stays clear and `slots` set.  Biased readers never
 * block, so tryrdlock and the timed reads simply try a slot first.
 *
 * When bias comes back.  A writer measures what its revocation cost
 * (from its clear to the end of its scan, waits included) and sets
 * `inhibit` to the end plus BIAS_N times that cost; a reader that got in
 * through the lock word sets BIAS again only after that (it reads the
 * clock on one in TICKS such reads: it is the write-heavy path).  So
 * writers lose at most about 1/(BIAS_N + 1) of their time to revocation,
 * and a lock that sees writes all the time stays on the lock word.  A
 * writer that gives the lock word back to wait for a slot counts only
 * its scans and spins, not that wait, which holds nobody back, and does
 * not hold the bias off while it waits.  A reader preempted in its slot
 * (more threads than cores) makes that wait a scheduler slice long:
 * with the bias held off during it, 4 readers and a writer on 2 CPUs
 * read at 0.55x the rate, and at 0.2x with the wait counted too.  A
 * fresh lock (inhibit 0) turns biased at its first read.  The clock is
 * the CPU's tick counter (nptl_arch_ticks), not clock_gettime: only
 * ticks are compared with ticks, and at 10 % writes two clock_gettime
 * calls per revocation cost a single thread a sixth of its rate.
 *
 * Which slot, and who releases it.  Each thread takes one cache line of
 * the table (8 slots) at its first biased read, in order, so the first
 * 512 threads never share a line and readers on different cores never
 * write the same line; within its line a thread uses the slot the
 * lock's address hashes to.  Its own record (`rw_self`, in libnptl's
 * static TLS, so it exists in every thread, glibc-made ones included)
 * holds, for each of its 8 slots, the lock it holds there and how many
 * times.  A recursive read takes no new slot.  With the default kinds it
 * is granted even when BIAS is gone, since a writer may be waiting for
 * exactly that slot and these kinds promise that a reader never waits
 * for a writer that does not hold the lock; with writer preference it
 * then waits behind the writer, which deadlocks as in glibc.  Unlock
 * looks at that record first: a thread releases only a slot its record
 * says it holds, so two threads whose lines coincide (after 512 threads
 * were made) never release each other's slot; the slot CAS from empty
 * keeps them from sharing one.  Two locks of one thread that hash to
 * the same slot: the second uses the lock word.  A thread that exits
 * holding a read lock leaks it, slot or lock word alike; one that
 * write-locks a lock it holds through a slot waits for itself, as with
 * the lock word (a timed one times out; with writer preference it holds
 * the lock word meanwhile).
 *
 * Saturation (concurrency restriction, after Dice and Kogan, "Avoiding
 * Scalability Collapse by Restricting Concurrency", Euro-Par 2019).  When
 * the lock is taken back to back by more threads than it needs to stay
 * busy, every extra thread only moves the lock word's cache line between
 * CPUs: 4 threads at 10 % writes on 2 CPUs did 9 M operations/s where one
 * thread alone does 40 M, and glibc, whose waiters sleep at their first
 * conflict, 28 M.  So a reader whose conflicts (the lock word refused it: a
 * writer inside, or one queued with writer preference) come close together
 * -- NPTL_HOT_GAP or fewer of its own lock-word acquisitions (reads and
 * writes) and at most NPTL_HOT_TICKS apart, NPTL_HOT_RUN times in a row --
 * steps aside at its next conflict, before it spins and queues as above:
 * it naps 50 us, twice that at the next hot conflict, and so on up to
 * 800 us, while the others keep the lock busy and its line on fewer CPUs.
 * A conflict that comes after more than NPTL_HOT_GAP free acquisitions, or
 * later than NPTL_HOT_TICKS (the nap not counted), ends the run; a reader
 * coming back from a nap that soon conflicts again naps longer, which is
 * what keeps the surplus threads off the CPUs (with one fixed nap, 16
 * threads on 2 CPUs made 67 k context switches/s against glibc's 8 k).  The
 * ticks keep the naps from a thread that does something else between its
 * reads, such as a request loop's thread reading a table that workers
 * hammer: without them, such a reader (one read every 200 us, 2 or 4
 * threads hammering on 2 CPUs) waited 890-980 us at the 99th percentile,
 * glibc 42-50 us; with them 7-28 us.  Writers never nap: a writer among
 * readers is not surplus -- no other thread does its work while it sleeps
 * -- and with reader preference it is already the one held back; with naps
 * for writers too, one writer among 4 readers on 2 CPUs (bench/sync
 * rwlock-read-4-writer) fell to 34 and 3,620 writes/s in 2 of 16 runs,
 * where without them it stays at tens of thousands or more (both builds,
 * like glibc, have rare runs where readers starve it outright).  The nap is
 * only a delay before the usual judgement: it touches no shared state (the
 * counters are the thread's own, in rw_self, over all its rwlocks; the
 * rule and the nap are the mutex's too: nptl_heat_conflict and
 * __nptl_heat_nap), so it changes none of the protocol above (the model
 * already lets any thread pause anywhere), and a napping thread delays
 * nobody but itself: it holds nothing and is counted nowhere.  Not for
 * trylock and the timed variants, whose callers asked for an answer or a
 * deadline, nor for a thread under a realtime policy (__nptl_heat_nap),
 * nor with one CPU, where no thread spins.  The costs: a hot
 * thread's own latency (up to 800 us, plus timer slack, per acquisition),
 * and parallel work lost where the lock is hot but its threads also work
 * outside it (bench/sync rwlock-w100000x100/2: about 0.7x the rate without
 * naps, 1.2-1.9x glibc's).  Sampling how busy the lock is before napping
 * (16 loads) won some of that back and lost the 16-thread rows (tried
 * while writers napped too).  With 8 threads per CPU it is not enough:
 * 16 threads at 10 % writes on 2 CPUs do 12 M/s, glibc 28 M.
 *
 * Process-shared locks (`shared` set at init, glibc's __shared) follow
 * none of this: every entry point hands them to glibc's own protocol
 * (src/glibc/rwlock.c), so that glibc processes can share them.
 * tests/model/rwlock.pml with -DBIAS models the bias with the rest.
 */
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include "nptl.h"

#define LINE_SLOTS 8            /* one cache line of pointers */
#define LINES 512
#define BIAS_N 9                /* inhibit for BIAS_N x the revocation */
#define TICKS 16                /* clock reads: 1 in TICKS slow reads */
#define SLOT_SPIN 200           /* a writer waiting for a slot: pauses, */
#define SLOT_YIELDS 10          /* then yields, */
#define NAP_MIN 2000            /* then naps, ns, */
#define NAP_MAX 1000000         /* doubling up to this */

/* The table is mapped at the first biased read of the process (take_line),
 * never unmapped: a program that never read-locks pays nothing for it, not
 * even address space.  It is published before lines_taken is first
 * incremented, so a writer that sees a line taken sees the table.  */
#define TABLE_BYTES (LINES * LINE_SLOTS * sizeof(struct nptl_rwlock *))
static struct nptl_rwlock **slot_table;
static unsigned long lines_taken;
static bool table_refused;      /* the mmap failed once: lock words only */

struct rw_held {
	struct nptl_rwlock *lock;       /* held through this slot, or NULL */
	unsigned int count;             /* read locks held through it */
};
static __thread struct rw_self {
	struct nptl_rwlock **line;      /* our line of slot_table, or NULL */
	struct nptl_rwlock *plain;      /* last lock we found unbiased */
	unsigned int nheld;             /* slots with a lock */
	unsigned int tick;
	struct nptl_heat heat;          /* of lock-word acquisitions */
	struct rw_held held[LINE_SLOTS];
} rw_self __attribute__((tls_model("initial-exec")));

static inline struct nptl_rwlock *rwl(pthread_rwlock_t *rw)
{
	return (struct nptl_rwlock *)rw;
}

static inline bool is_private(const struct nptl_rwlock *rw)
{
	return rw->shared == 0;
}

static inline bool writer_first(const struct nptl_rwlock *rw)
{
	return rw->flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
}

static inline bool cas(unsigned int *p, unsigned int *old, unsigned int new)
{
	return __atomic_compare_exchange_n(p, old, new, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

static inline unsigned int load(unsigned int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* For the CASes that clear NPTL_RW_BIAS: one side of the handshake.  */
static inline bool cas_sc(unsigned int *p, unsigned int *old, unsigned int new)
{
	return __atomic_compare_exchange_n(p, old, new, false, __ATOMIC_SEQ_CST,
					   __ATOMIC_RELAXED);
}

/* The slot of a lock within a thread's line.  */
static inline unsigned int slot_of(const struct nptl_rwlock *rw)
{
	return (unsigned int)(((uintptr_t)rw * 0x9e3779b97f4a7c15ull) >> 61);
}

/* Our line of the table, mapping the table first if nobody has; NULL if
 * it cannot be mapped (the caller uses the lock word; after one refusal
 * every read does, rather than one failing mmap per read).  */
static __attribute__((noinline)) struct nptl_rwlock **take_line(struct rw_self *me)
{
	struct nptl_rwlock **t = __atomic_load_n(&slot_table, __ATOMIC_ACQUIRE);
	if (!t) {
		if (__atomic_load_n(&table_refused, __ATOMIC_RELAXED))
			return NULL;
		long m = nptl_syscall(SYS_mmap, 0, TABLE_BYTES, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (nptl_sys_failed(m)) {
			__atomic_store_n(&table_refused, true, __ATOMIC_RELAXED);
			return NULL;
		}
		t = (struct nptl_rwlock **)m;
		struct nptl_rwlock **none = NULL;
		if (!__atomic_compare_exchange_n(&slot_table, &none, t, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			nptl_sys2(SYS_munmap, t, TABLE_BYTES);
			t = none;
		}
	}
	unsigned long n = __atomic_fetch_add(&lines_taken, 1, __ATOMIC_SEQ_CST);
	me->line = &t[(n % LINES) * LINE_SLOTS];
	return me->line;
}

/* Our record of rw, if we hold it through a slot.  */
static inline struct rw_held *held_slot(const struct nptl_rwlock *rw)
{
	struct rw_self *me = &rw_self;
	if (__builtin_expect(me->nheld == 0, 1))
		return NULL;
	struct rw_held *h = &me->held[slot_of(rw)];
	return h->lock == rw ? h : NULL;
}

static inline bool recurse(struct rw_held *h)
{
	if (h->count >= NPTL_RW_MAX_READERS)
		return false;   /* the lock word says EAGAIN if it must */
	h->count++;
	return true;
}

/* A read lock through our slot, if BIAS is set and the slot is free; or
 * another read lock of one we hold through a slot.  */
static inline bool rdlock_slot(struct nptl_rwlock *rw)
{
	struct rw_self *me = &rw_self;
	/* A lock that was unbiased last time most likely still is: go to
	 * its lock word without loading it first, since a load and then a
	 * fetch_add cost two transfers of a contended cache line.  The
	 * fetch_add tells us when the bias is back.  */
	if (me->plain == rw && me->nheld == 0)
		return false;
	if (!(load(&rw->state) & NPTL_RW_BIAS)) {
		me->plain = rw;
		/* With writer preference a writer has arrived: a recursive
		 * read waits behind it, as in glibc.  */
		struct rw_held *h = held_slot(rw);
		return h && !writer_first(rw) && recurse(h);
	}
	unsigned int j = slot_of(rw);
	struct rw_held *h = &me->held[j];
	if (h->lock)    /* ours: this lock again, or another one */
		return h->lock == rw && recurse(h);
	struct nptl_rwlock **line = me->line;
	if (__builtin_expect(line == NULL, 0) && !(line = take_line(me)))
		return false;
	struct nptl_rwlock *none = NULL;
	if (!__atomic_compare_exchange_n(&line[j], &none, rw, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;   /* a thread that shares our line */
	if (!(__atomic_load_n(&rw->state, __ATOMIC_SEQ_CST) & NPTL_RW_BIAS)) {
		__atomic_store_n(&line[j], NULL, __ATOMIC_RELEASE);
		return false;
	}
	h->lock = rw;
	h->count = 1;
	me->nheld++;
	return true;
}

static inline void slot_release(struct rw_held *h)
{
	if (--h->count)
		return;
	struct rw_self *me = &rw_self;
	h->lock = NULL;
	me->nheld--;
	__atomic_store_n(&me->line[h - me->held], NULL, __ATOMIC_RELEASE);
}

/* We hold a read lock through the lock word: set BIAS if the inhibition
 * is over (see top).  */
static __attribute__((noinline)) void bias_try(struct nptl_rwlock *rw)
{
	unsigned long until = __atomic_load_n(&rw->inhibit, __ATOMIC_RELAXED);
	if (until) {
		if (++rw_self.tick % TICKS)
			return;
		if (nptl_arch_ticks() < until)
			return;
	}
	unsigned int s = load(&rw->state);
	for (;;) {
		if (s & (NPTL_RW_BIAS | NPTL_RW_WRLOCKED))
			return;
		if (writer_first(rw) && (s & NPTL_RW_WAITERS))
			return;
		__atomic_store_n(&rw->slots, 1, __ATOMIC_RELAXED);
		if (cas(&rw->state, &s, s | NPTL_RW_BIAS))
			return;
	}
}

static inline void bias_maybe(struct nptl_rwlock *rw, unsigned int s)
{
	if (s & NPTL_RW_BIAS)
		rw_self.plain = NULL;   /* use the slot next time */
	else if (is_private(rw))
		bias_try(rw);
}

/* The internal lock: glibc's 0/1/2 lock, on a private or shared futex.  */
static void lk_lock(struct nptl_rwlock *rw)
{
	int c = 0;
	if (__atomic_compare_exchange_n(&rw->lk, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&rw->lk, 2, __ATOMIC_ACQUIRE) != 0)
		nptl_futex_wait(&rw->lk, 2, is_private(rw));
}

static void lk_unlock(struct nptl_rwlock *rw)
{
	bool private = is_private(rw);
	if (__atomic_exchange_n(&rw->lk, 0, __ATOMIC_RELEASE) == 2)
		nptl_futex_wake(&rw->lk, 1, private);
}

/* The WAITERS bit a slow-path acquirer leaves behind (under lk).  */
static inline unsigned int waiters_bit(const struct nptl_rwlock *rw)
{
	return rw->rwait || rw->wwait ? NPTL_RW_WAITERS : 0;
}

/* Under lk, the wakes are only decided: kick() and its helpers return
 * which (WAKE_R, WAKE_W) for lk_unlock_wake() to make (see top).  */
#define WAKE_R 1u
#define WAKE_W 2u

/* Wakes every queued reader and counts them all out: a reader that finds
 * rseq moved on after its sleep knows it is no longer in rwait.  */
static unsigned int wake_readers(struct nptl_rwlock *rw)
{
	rw->rwait = 0;
	__atomic_add_fetch(&rw->rseq, 1, __ATOMIC_RELEASE);
	return WAKE_R;
}

static unsigned int wake_writer(struct nptl_rwlock *rw)
{
	__atomic_add_fetch(&rw->wseq, 1, __ATOMIC_RELEASE);
	return WAKE_W;
}

/* Drops lk, then wakes.  Nothing of *rw is read after lk is dropped:
 * by then the lock may be taken, freed and destroyed by another thread,
 * and only the kernel looks at the futex words.  */
static void lk_unlock_wake(struct nptl_rwlock *rw, unsigned int wake)
{
	bool private = is_private(rw);
	lk_unlock(rw);
	if (wake & WAKE_R)
		nptl_futex_wake(&rw->rseq, INT_MAX, private);
	if (wake & WAKE_W)
		nptl_futex_wake(&rw->wseq, 1, private);
}

/* Under lk, the lock free and a writer queued: take the write lock on
 * its behalf and wake one queued writer to own it (see top).  Nothing
 * when the lock was taken meanwhile (its holder kicks).  */
static unsigned int hand_off(struct nptl_rwlock *rw)
{
	unsigned int s = load(&rw->state);
	unsigned int w = rw->rwait || rw->wwait > 1 ? NPTL_RW_WAITERS : 0;
	do
		if (s & (NPTL_RW_READERS | NPTL_RW_WRLOCKED))
			return 0;
	while (!cas_sc(&rw->state, &s, NPTL_RW_WRLOCKED | w));
	rw->wwait--;
	rw->handoff++;
	return wake_writer(rw);
}

/* Under lk: clear WAITERS if nobody is counted any more.  */
static void waiters_drop(struct nptl_rwlock *rw)
{
	unsigned int s = load(&rw->state);
	while (!rw->rwait && !rw->wwait && (s & NPTL_RW_WAITERS) &&
	       !cas(&rw->state, &s, s & ~NPTL_RW_WAITERS))
		;
}

/* Under lk: wake whoever can make progress in the current state.  */
static unsigned int kick(struct nptl_rwlock *rw)
{
	unsigned int s = load(&rw->state);
	unsigned int wake = 0;
	if (!rw->rwait && !rw->wwait) {
		waiters_drop(rw);
		return 0;
	}
	if (s & NPTL_RW_WRLOCKED)
		return 0;       /* its unlock kicks */
	bool free = (s & NPTL_RW_READERS) == 0;
	if (writer_first(rw)) {
		if (rw->wwait) {
			if (free)
				wake = hand_off(rw);
		} else {
			wake = wake_readers(rw);
		}
	} else if (rw->rwait) {
		/* Readers first; but when the lock is free a writer is woken
		 * too, to race them: the counts include processes killed
		 * while queued, so "readers queued" might never come true
		 * and must not be all that wakes a writer.  */
		wake = wake_readers(rw);
		if (free && rw->wwait)
			wake |= wake_writer(rw);
	} else if (free && rw->wwait) {
		wake = hand_off(rw);
	}
	/* The readers just woken are counted out: nobody may be left.  */
	waiters_drop(rw);
	return wake;
}

static int check_abs(clockid_t clock, const struct timespec *abs)
{
	if (abs && ((clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) ||
		    !nptl_valid_timespec(abs)))
		return EINVAL;
	return 0;
}

/* Sleep on *seq (value v) with lk dropped; lk is held again on return.
 * Returns 0 or ETIMEDOUT.  */
static int queue_wait(struct nptl_rwlock *rw, unsigned int *seq,
		      unsigned int v, clockid_t clock,
		      const struct timespec *abs)
{
	lk_unlock(rw);
	int r = nptl_futex_wait_abs(seq, (int)v, clock, abs, is_private(rw));
	lk_lock(rw);
	return r == ETIMEDOUT ? ETIMEDOUT : 0;
}

static bool reader_may_enter(const struct nptl_rwlock *rw, unsigned int s,
			     bool locked)
{
	if (s & NPTL_RW_WRLOCKED)
		return false;
	if (writer_first(rw))
		return locked ? rw->wwait == 0 : !(s & NPTL_RW_WAITERS);
	return true;
}

/* A queued reader's sleep (counted in rwait, rseq read as v, lk held on
 * entry).  Returns 0 with lk held, *out saying whether a release counted
 * it out of rwait meanwhile; or 1 when the reader, counted out, took the
 * read lock without lk (lk not held then): it takes the lock as an
 * arriving reader does instead of convoying through lk behind the other
 * readers woken with it.  */
static int reader_sleep(struct nptl_rwlock *rw, unsigned int v,
			clockid_t clock, const struct timespec *abs,
			bool *timedout, bool *out)
{
	lk_unlock(rw);
	int r = nptl_futex_wait_abs(&rw->rseq, (int)v, clock, abs,
				    is_private(rw));
	*timedout = r == ETIMEDOUT;
	if (__atomic_load_n(&rw->rseq, __ATOMIC_ACQUIRE) != v) {
		unsigned int s = load(&rw->state);
		while (reader_may_enter(rw, s, false) &&
		       (s & NPTL_RW_READERS) < NPTL_RW_MAX_READERS)
			if (cas(&rw->state, &s, s + 1)) {
				bias_maybe(rw, s);
				return 1;
			}
	}
	lk_lock(rw);
	/* rseq moves only under lk: this look is exact.  */
	*out = load(&rw->rseq) != v;
	return 0;
}

/* The release of a read count that may be the last one while waiters are
 * queued: its last step is under lk (see top).  */
static __attribute__((noinline)) void read_release_queued(struct nptl_rwlock *rw)
{
	lk_lock(rw);
	unsigned int s = __atomic_sub_fetch(&rw->state, 1, __ATOMIC_RELEASE);
	unsigned int wake = 0;
	if ((s & NPTL_RW_READERS) == 0)
		wake = kick(rw);
	lk_unlock_wake(rw, wake);
}

/* Give back one read count (state s was just loaded); EPERM if there is
 * none to give back.  While WRLOCKED is set the counts are only those of
 * arriving readers backing out (a writer enters only when there are
 * none): dropping the last one frees nothing, the writer's release kicks,
 * so it is a plain CAS, not a trip through lk.  The CAS checks WRLOCKED
 * too: a release that clears it first sends us the other way.  */
static inline int read_release(struct nptl_rwlock *rw, unsigned int s)
{
	for (;;) {
		if ((s & NPTL_RW_READERS) == 0)
			return EPERM;
		if ((s & (NPTL_RW_WAITERS | NPTL_RW_WRLOCKED)) == NPTL_RW_WAITERS &&
		    (s & NPTL_RW_READERS) == 1) {
			read_release_queued(rw);
			return 0;
		}
		if (cas(&rw->state, &s, s - 1))
			return 0;
	}
}

/* The reader's fast path is one fetch_add: contending readers never
 * retry, unlike with a CAS.  A reader that finds it may not enter has
 * briefly counted itself as a holder; it gives the count back exactly as
 * a read-unlock does (which wakes whom the count held back), then takes
 * the slow path.  A writer never enters while such a count is present,
 * and a reader adds at most one before it queues, so these counts cannot
 * starve a writer of the writer-preferring kind.  */
static inline bool rdlock_fast(struct nptl_rwlock *rw)
{
	unsigned int s = __atomic_fetch_add(&rw->state, 1, __ATOMIC_ACQUIRE);
	if (reader_may_enter(rw, s, false) &&
	    (s & NPTL_RW_READERS) < NPTL_RW_MAX_READERS) {
		rw_self.heat.acq++;
		bias_maybe(rw, s);
		return true;
	}
	read_release(rw, s + 1);
	return false;
}

/* A reader's conflict on the lock word: nap if this thread is hot (see
 * "Saturation" at the top).  Only a delay: the caller judges the lock
 * afresh after it.  */
static __attribute__((noinline)) void conflict(const struct timespec *abs)
{
	if (nptl_heat_conflict(&rw_self.heat) && !abs)
		__nptl_heat_nap(&rw_self.heat);
}

/* After the fast path: spin briefly while a writer is inside, then queue.  */
static __attribute__((noinline)) int rdlock(pthread_rwlock_t *lock, bool try,
					    clockid_t clock,
					    const struct timespec *abs)
{
	struct nptl_rwlock *rw = rwl(lock);
	if (!try)       /* trylock's slow path, not necessarily a conflict */
		conflict(abs);
	unsigned int s = load(&rw->state);

	/* Then a brief spin while a writer is inside.  */
	int spin = try || !nptl_spin_pays() ? 0 : NPTL_SPIN_RWLOCK;
	for (;;) {
		if (reader_may_enter(rw, s, false)) {
			if ((s & NPTL_RW_READERS) >= NPTL_RW_MAX_READERS)
				return EAGAIN;
			if (cas(&rw->state, &s, s + 1)) {
				bias_maybe(rw, s);
				return 0;
			}
			continue;
		}
		if (spin-- <= 0)
			break;
		nptl_arch_pause();
		s = load(&rw->state);
	}

	int err = 0;
	lk_lock(rw);
	for (;;) {
		s = load(&rw->state);
		if (reader_may_enter(rw, s, true)) {
			if ((s & NPTL_RW_READERS) >= NPTL_RW_MAX_READERS) {
				err = EAGAIN;
				break;
			}
			unsigned int n = ((s + 1) & ~NPTL_RW_WAITERS) | waiters_bit(rw);
			if (cas(&rw->state, &s, n)) {
				lk_unlock(rw);
				bias_maybe(rw, n);
				return 0;
			}
			continue;
		}
		if (try) {
			err = EBUSY;
			break;
		}
		if (abs && abs->tv_sec < 0) {
			err = ETIMEDOUT;
			break;
		}
		if (!(s & NPTL_RW_WAITERS) &&
		    !cas(&rw->state, &s, s | NPTL_RW_WAITERS))
			continue;
		rw->rwait++;
		unsigned int v = load(&rw->rseq);
		bool timedout, out = false;
		if (reader_sleep(rw, v, clock, abs, &timedout, &out))
			return 0;
		if (!out)
			rw->rwait--;
		if (timedout) {
			lk_unlock_wake(rw, kick(rw));
			return ETIMEDOUT;
		}
	}
	lk_unlock(rw);
	return err;
}

static __attribute__((noinline)) void write_release_queued(struct nptl_rwlock *rw)
{
	lk_lock(rw);
	__atomic_and_fetch(&rw->state, ~NPTL_RW_WRLOCKED, __ATOMIC_RELEASE);
	lk_unlock_wake(rw, kick(rw));
}

/* A release that sees WAITERS takes its last step under lk (see top);
 * one that does not is a single CAS.  */
static void write_release(struct nptl_rwlock *rw)
{
	unsigned int s = load(&rw->state);
	while (!(s & NPTL_RW_WAITERS)) {
		if (cas(&rw->state, &s, s & ~NPTL_RW_WRLOCKED))
			return;
	}
	write_release_queued(rw);
}

static bool past(clockid_t clock, const struct timespec *abs)
{
	struct timespec now;
	clock_gettime(clock, &now);
	return now.tv_sec > abs->tv_sec ||
	       (now.tv_sec == abs->tv_sec && now.tv_nsec >= abs->tv_nsec);
}

/* Wait while *p holds rw: its reader leaves with a plain store and wakes
 * nobody.  `spin` pauses first (0 when a spin already failed), then
 * yields, then naps.  Not a cancellation point: raw system calls.  */
static int wait_slot(struct nptl_rwlock **p, struct nptl_rwlock *rw, int spin,
		     clockid_t clock, const struct timespec *abs)
{
	long nap = NAP_MIN;
	for (int i = 0; __atomic_load_n(p, __ATOMIC_SEQ_CST) == rw; i++) {
		if (i < spin) {
			nptl_arch_pause();
			continue;
		}
		if (abs && past(clock, abs))
			return ETIMEDOUT;
		if (i < spin + SLOT_YIELDS) {
			nptl_sys0(SYS_sched_yield);
			continue;
		}
		struct timespec ts = { 0, nap };
		nptl_sys2(SYS_nanosleep, &ts, NULL);
		if (nap < NAP_MAX)
			nap = nap * 2 > NAP_MAX ? NAP_MAX : nap * 2;
	}
	return 0;
}

/* Pauses while *p holds rw, at most SLOT_SPIN times; true if it still
 * does.  */
static bool slot_spin(struct nptl_rwlock **p, struct nptl_rwlock *rw)
{
	int spin = nptl_spin_pays() ? SLOT_SPIN : 0;
	for (int i = 0; i < spin; i++) {
		if (__atomic_load_n(p, __ATOMIC_SEQ_CST) != rw)
			return false;
		nptl_arch_pause();
	}
	return __atomic_load_n(p, __ATOMIC_SEQ_CST) == rw;
}

/* bias_revoke(): a slot still holds the lock after a spin; the writer
 * must give the lock word back and wait for the slot without it.  */
#define REVOKE_UNLOCKED (-1)

/* The inhibition after a revocation that cost `cost` ticks (see top).  */
static void inhibit_for(struct nptl_rwlock *rw, unsigned long cost)
{
	__atomic_store_n(&rw->inhibit, nptl_arch_ticks() + BIAS_N * cost,
			 __ATOMIC_RELAXED);
}

/* Ticks since t0; read on another CPU, now may be a little below t0.  */
static unsigned long ticks_since(unsigned long t0)
{
	unsigned long t1 = nptl_arch_ticks();
	return t1 > t0 ? t1 - t0 : 0;
}

/* We hold WRLOCKED, BIAS is clear and readers may hold slots: wait until
 * none holds rw (see top), `slots` cleared on success.  *cost adds up
 * what this writer's revocation cost so far: its scans and its waits
 * for slots holding the lock word, not those without it (see top).  EBUSY (try) or
 * ETIMEDOUT leave `slots` set for the next writer.  With the default
 * kinds a writer waits for a slot under WRLOCKED only for a short spin,
 * then returns REVOKE_UNLOCKED with *held the slot and the inhibition
 * set for what the revocation cost so far: the caller releases the lock
 * word, waits for that slot holding nothing, and takes the lock again.  */
static __attribute__((noinline)) int bias_revoke(struct nptl_rwlock *rw, bool try,
					    clockid_t clock,
					    const struct timespec *abs,
					    unsigned long *cost,
					    struct nptl_rwlock ***held)
{
	unsigned long t0 = nptl_arch_ticks();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	unsigned long n = __atomic_load_n(&lines_taken, __ATOMIC_SEQ_CST);
	size_t end = (n < LINES ? n : LINES) * LINE_SLOTS;
	struct nptl_rwlock **t = n ? __atomic_load_n(&slot_table, __ATOMIC_ACQUIRE) : NULL;
	int err = 0;
	for (size_t i = 0; t && i < end && !err; i++) {
		if (__atomic_load_n(&t[i], __ATOMIC_SEQ_CST) != rw)
			continue;
		if (try) {
			err = EBUSY;
		} else if (writer_first(rw)) {
			err = wait_slot(&t[i], rw, nptl_spin_pays() ? SLOT_SPIN : 0,
					clock, abs);
		} else if (slot_spin(&t[i], rw)) {
			*held = &t[i];
			*cost += ticks_since(t0);
			inhibit_for(rw, *cost);
			return REVOKE_UNLOCKED;
		}
	}
	*cost += ticks_since(t0);
	inhibit_for(rw, *cost);
	if (!err)
		__atomic_store_n(&rw->slots, 0, __ATOMIC_RELAXED);
	return err;
}

static int wrlock(pthread_rwlock_t *lock, bool try, clockid_t clock,
		  const struct timespec *abs)
{
	struct nptl_rwlock *rw = rwl(lock);
	int tid = nptl_self()->tid;
	const unsigned int free_bits = NPTL_RW_WAITERS | NPTL_RW_BIAS;
	unsigned long cost = 0;         /* of our revocation, in ticks */
	unsigned int s;
again:
	s = load(&rw->state);

	/* A writer may barge in whenever nobody holds the lock, waiters or
	 * not: the waiters are someone's to wake when it is released.  Its
	 * CAS clears BIAS; with writer preference, so does its arrival.  */
	int spin = try || !nptl_spin_pays() ? 0 : NPTL_SPIN_RWLOCK;
	for (;;) {
		if ((s & ~free_bits) == 0) {
			if (cas_sc(&rw->state, &s, (s & NPTL_RW_WAITERS) |
						   NPTL_RW_WRLOCKED)) {
				rw_self.heat.acq++;
				goto got;
			}
			continue;
		}
		if ((s & NPTL_RW_BIAS) && writer_first(rw)) {
			if (cas_sc(&rw->state, &s, s & ~NPTL_RW_BIAS))
				s &= ~NPTL_RW_BIAS;
			continue;
		}
		if (spin-- <= 0)
			break;
		nptl_arch_pause();
		s = load(&rw->state);
	}
	if (try)
		return EBUSY;

	int err = 0;
	lk_lock(rw);
	for (;;) {
		s = load(&rw->state);
		if ((s & ~free_bits) == 0) {
			if (cas_sc(&rw->state, &s, NPTL_RW_WRLOCKED | waiters_bit(rw)))
				break;
			continue;
		}
		if (abs && abs->tv_sec < 0) {
			err = ETIMEDOUT;
			break;
		}
		unsigned int want = s | NPTL_RW_WAITERS;
		if (writer_first(rw))
			want &= ~NPTL_RW_BIAS;
		if (want != s && !cas_sc(&rw->state, &s, want))
			continue;
		rw->wwait++;
		unsigned int v = load(&rw->wseq);
		int r = queue_wait(rw, &rw->wseq, v, clock, abs);
		if (rw->handoff) {
			/* A release took the lock for us, or for a writer
			 * queued beside us, which will find none left and
			 * queue again: either is ours, timed out or not.  */
			rw->handoff--;
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			break;
		}
		rw->wwait--;
		if (r == ETIMEDOUT) {
			lk_unlock_wake(rw, kick(rw));
			return ETIMEDOUT;
		}
	}
	lk_unlock(rw);
	if (err)
		return err;
got:
	if (__atomic_load_n(&rw->slots, __ATOMIC_RELAXED)) {
		struct nptl_rwlock **held = NULL;
		err = bias_revoke(rw, try, clock, abs, &cost, &held);
		if (err) {
			write_release(rw);
			if (err != REVOKE_UNLOCKED)
				return err;
			err = wait_slot(held, rw, 0, clock, abs);
			if (err)
				return err;
			goto again;
		}
	}
	__atomic_store_n(&rw->cur_writer, tid, __ATOMIC_RELAXED);
	return 0;
}

static int self_is_writer(pthread_rwlock_t *lock)
{
	return __atomic_load_n(&rwl(lock)->cur_writer, __ATOMIC_RELAXED) ==
	       nptl_self()->tid;
}

static int rdlock_checked(pthread_rwlock_t *lock, clockid_t clock,
			  const struct timespec *abs)
{
	int err = check_abs(clock, abs);
	if (err)
		return err;
	if (!is_private(rwl(lock)))
		return __nptl_glibc_rwlock_rdlock(lock, clock, abs);
	/* A reader let in by a fast path found no writer inside, so it is
	 * not the writer: EDEADLK needs checking only after they failed.  */
	if (rdlock_slot(rwl(lock)) || rdlock_fast(rwl(lock)))
		return 0;
	if (self_is_writer(lock))
		return EDEADLK;
	return rdlock(lock, false, clock, abs);
}

static int wrlock_checked(pthread_rwlock_t *lock, clockid_t clock,
			  const struct timespec *abs)
{
	int err = check_abs(clock, abs);
	if (err)
		return err;
	if (!is_private(rwl(lock)))
		return __nptl_glibc_rwlock_wrlock(lock, clock, abs);
	if (self_is_writer(lock))
		return EDEADLK;
	return wrlock(lock, false, clock, abs);
}

NPTL_API int __nptl_pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return rdlock_checked(rw, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_rdlock, pthread_rwlock_rdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_rdlock, pthread_rwlock_rdlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_rdlock) __nptl___pthread_rwlock_rdlock
	__attribute__((alias("__nptl_pthread_rwlock_rdlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_rdlock, __pthread_rwlock_rdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	if (!is_private(rwl(rw)))
		return __nptl_glibc_rwlock_tryrdlock(rw);
	if (rdlock_slot(rwl(rw)))
		return 0;
	return rdlock(rw, true, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_tryrdlock) __nptl___pthread_rwlock_tryrdlock
	__attribute__((alias("__nptl_pthread_rwlock_tryrdlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_tryrdlock, __pthread_rwlock_tryrdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_timedrdlock(pthread_rwlock_t *rw,
					       const struct timespec *abs)
{
	return rdlock_checked(rw, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_timedrdlock, pthread_rwlock_timedrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_timedrdlock, pthread_rwlock_timedrdlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_clockrdlock(pthread_rwlock_t *rw,
					       clockid_t clock,
					       const struct timespec *abs)
{
	return rdlock_checked(rw, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_clockrdlock, pthread_rwlock_clockrdlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_clockrdlock, pthread_rwlock_clockrdlock, GLIBC_2.30);

NPTL_API int __nptl_pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return wrlock_checked(rw, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_wrlock, pthread_rwlock_wrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_wrlock, pthread_rwlock_wrlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_wrlock) __nptl___pthread_rwlock_wrlock
	__attribute__((alias("__nptl_pthread_rwlock_wrlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_wrlock, __pthread_rwlock_wrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	if (!is_private(rwl(rw)))
		return __nptl_glibc_rwlock_trywrlock(rw);
	return wrlock(rw, true, CLOCK_REALTIME, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_trywrlock, pthread_rwlock_trywrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_trywrlock, pthread_rwlock_trywrlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_trywrlock) __nptl___pthread_rwlock_trywrlock
	__attribute__((alias("__nptl_pthread_rwlock_trywrlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_trywrlock, __pthread_rwlock_trywrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_timedwrlock(pthread_rwlock_t *rw,
					       const struct timespec *abs)
{
	return wrlock_checked(rw, CLOCK_REALTIME, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_timedwrlock, pthread_rwlock_timedwrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_timedwrlock, pthread_rwlock_timedwrlock, GLIBC_2.2.5);

NPTL_API int __nptl_pthread_rwlock_clockwrlock(pthread_rwlock_t *rw,
					       clockid_t clock,
					       const struct timespec *abs)
{
	return wrlock_checked(rw, clock, abs);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_clockwrlock, pthread_rwlock_clockwrlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_clockwrlock, pthread_rwlock_clockwrlock, GLIBC_2.30);

NPTL_API int __nptl_pthread_rwlock_unlock(pthread_rwlock_t *lock)
{
	struct nptl_rwlock *rw = rwl(lock);
	if (!is_private(rw))
		return __nptl_glibc_rwlock_unlock(lock);
	unsigned int s = load(&rw->state);

	if ((s & NPTL_RW_WRLOCKED) && self_is_writer(lock)) {
		__atomic_store_n(&rw->cur_writer, 0, __ATOMIC_RELAXED);
		write_release(rw);
		return 0;
	}
	struct rw_held *h = held_slot(rw);
	if (h) {
		slot_release(h);
		return 0;
	}
	return read_release(rw, s);
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_unlock, pthread_rwlock_unlock, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_unlock, pthread_rwlock_unlock, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_unlock) __nptl___pthread_rwlock_unlock
	__attribute__((alias("__nptl_pthread_rwlock_unlock"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_unlock, __pthread_rwlock_unlock, GLIBC_2.2.5);
