/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * glibc's malloc under 8 threads at once: malloc, calloc, realloc and free
 * of mixed sizes (16 B .. 1 MiB), with every block filled with a pattern of
 * its own and checked before it is freed or after it moved; a quarter of
 * the blocks are handed through a queue to the next thread, which checks
 * and frees them (cross-thread frees: chunks going back to another
 * thread's arena and tcache).  A process glibc thinks single-threaded
 * corrupts its heap here.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include "t.h"

#define NT 8
#define OPS 60000
#define SLOTS 64
#define QSIZE 256

struct blk {
	unsigned char *p;
	size_t size;
	uint32_t seed;
};

struct queue {
	pthread_mutex_t lock;
	struct blk b[QSIZE];
	int head, n;
};

static struct queue q[NT];
static int done_count;
static pthread_barrier_t bar;
static long bad_total;

/* The pattern: 64-bit words derived from the block's seed, byte i being
 * byte i % 8 of word i / 8.  */
static inline uint64_t pword(uint32_t seed, size_t j)
{
	return (seed + j + 1) * 0x9e3779b97f4a7c15ull;
}

static void fill(struct blk *b, size_t from)
{
	size_t i = from;
	for (; i < b->size && (i & 7); i++)
		b->p[i] = (unsigned char)(pword(b->seed, i / 8) >> (8 * (i & 7)));
	for (; i + 8 <= b->size; i += 8) {
		uint64_t w = pword(b->seed, i / 8);
		memcpy(b->p + i, &w, 8);
	}
	for (; i < b->size; i++)
		b->p[i] = (unsigned char)(pword(b->seed, i / 8) >> (8 * (i & 7)));
}

static bool verify(const struct blk *b, size_t upto)
{
	size_t i = 0;
	for (; i + 8 <= upto; i += 8) {
		uint64_t w;
		memcpy(&w, b->p + i, 8);
		if (w != pword(b->seed, i / 8))
			return false;
	}
	for (; i < upto; i++)
		if (b->p[i] != (unsigned char)(pword(b->seed, i / 8) >> (8 * (i & 7))))
			return false;
	return true;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static size_t pick_size(uint32_t *s)
{
	uint32_t r = rnd(s);
	if ((r & 255) == 0)                       /* 1/256: 64 KiB .. 1 MiB */
		return 65536 + rnd(s) % (1024 * 1024 - 65536 + 1);
	if ((r & 7) == 0)                         /* ~1/8: 512 B .. 16 KiB */
		return 512 + rnd(s) % (16384 - 512);
	return 16 + rnd(s) % (512 - 16);          /* small */
}

static bool q_push(struct queue *qu, struct blk b)
{
	bool ok = false;
	pthread_mutex_lock(&qu->lock);
	if (qu->n < QSIZE) {
		qu->b[(qu->head + qu->n) % QSIZE] = b;
		qu->n++;
		ok = true;
	}
	pthread_mutex_unlock(&qu->lock);
	return ok;
}

static bool q_pop(struct queue *qu, struct blk *b)
{
	bool ok = false;
	pthread_mutex_lock(&qu->lock);
	if (qu->n > 0) {
		*b = qu->b[qu->head];
		qu->head = (qu->head + 1) % QSIZE;
		qu->n--;
		ok = true;
	}
	pthread_mutex_unlock(&qu->lock);
	return ok;
}

/* Check and free what other threads handed us.  */
static long drain(int t, long *freed)
{
	long bad = 0;
	struct blk b;
	while (q_pop(&q[t], &b)) {
		if (!verify(&b, b.size))
			bad++;
		free(b.p);
		(*freed)++;
	}
	return bad;
}

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg;
	uint32_t s = 0x9e3779b9u * (uint32_t)(t + 1);
	struct blk slot[SLOTS] = { { 0 } };
	long bad = 0, freed_other = 0;
	struct queue *next = &q[(t + 1) % NT];

	pthread_barrier_wait(&bar);
	for (int op = 0; op < OPS; op++) {
		struct blk *b = &slot[rnd(&s) % SLOTS];
		uint32_t what = rnd(&s) % 8;
		if (b->p && what < 3) {                /* realloc */
			size_t ns = pick_size(&s);
			size_t keep = ns < b->size ? ns : b->size;
			unsigned char *np = realloc(b->p, ns);
			if (!np) {
				bad++;
				continue;
			}
			b->p = np;
			if (!verify(b, keep))
				bad++;
			b->size = ns;
			fill(b, keep);
			continue;
		}
		if (b->p) {                            /* give away or free */
			if (!verify(b, b->size))
				bad++;
			if (!(what & 1) || !q_push(next, *b))
				free(b->p);
			b->p = NULL;
		}
		b->size = pick_size(&s);
		b->seed = rnd(&s);
		if (what & 4) {
			b->p = calloc(1, b->size);
			/* All zero: the first byte is, and each equals the next.  */
			if (b->p && (b->p[0] != 0 ||
				     memcmp(b->p, b->p + 1, b->size - 1) != 0))
				bad++;
		} else {
			b->p = malloc(b->size);
		}
		if (!b->p) {
			bad++;
			continue;
		}
		fill(b, 0);
		if ((op & 63) == 0)
			bad += drain(t, &freed_other);
	}
	for (int i = 0; i < SLOTS; i++) {
		if (slot[i].p && !verify(&slot[i], slot[i].size))
			bad++;
		free(slot[i].p);
	}
	/* Keep draining until every thread has stopped pushing.  */
	__atomic_add_fetch(&done_count, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&done_count, __ATOMIC_SEQ_CST) < NT)
		bad += drain(t, &freed_other);
	bad += drain(t, &freed_other);
	__atomic_add_fetch(&bad_total, bad, __ATOMIC_SEQ_CST);
	return (void *)freed_other;
}

int main(void)
{
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		pthread_mutex_init(&q[i].lock, NULL);
	pthread_barrier_init(&bar, NULL, NT);
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t));
	long cross = 0;
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		cross += (long)r;
	}
	CHECK(bad_total == 0);
	/* Cross-thread frees did happen.  */
	CHECK(cross > NT * 100);
	for (int i = 0; i < NT; i++)
		CHECK(q[i].n == 0);
	if (bad_total)
		fprintf(stderr, "%ld bad blocks\n", bad_total);
	/* The heap is still sound for the main thread.  */
	void *p[100];
	for (int i = 0; i < 100; i++)
		CHECK((p[i] = malloc(i * 100 + 1)) != NULL);
	for (int i = 0; i < 100; i++)
		free(p[i]);
	pthread_barrier_destroy(&bar);
	return t_done();
}
