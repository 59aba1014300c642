// SPDX-License-Identifier: LGPL-2.1-or-later
// test-cflags: -std=c++17
/*
 * pthread_exit in C++, in 8 threads at once: it unwinds the stack as a
 * forced unwind (abi::__forced_unwind):
 *  - destructors of the frames left run, innermost first;
 *  - `catch (abi::__forced_unwind &) { ...; throw; }` sees it, and the
 *    rethrow finishes the exit;
 *  - `catch (...) { ...; throw; }` too;
 *  - ordinary exception handlers (catch (std::exception &), catch (int))
 *    do not see it;
 *  - the join result is the value given to pthread_exit.
 * No noexcept frame is on the unwound path (unwinding through one calls
 * std::terminate, by the language's rules).
 */
#include <cxxabi.h>
#include <pthread.h>
#include <atomic>
#include <exception>
#include <stdexcept>
#include "t.h"

static const int NT = 8;

struct Log {
	int n = 0;
	int order[32];
	void add(int v)
	{
		if (n < 32)
			order[n++] = v;
	}
};

static std::atomic<int> destroyed;

struct Raii {
	Log *log;
	int id;
	Raii(Log *l, int i) : log(l), id(i) {}
	~Raii()
	{
		log->add(id);
		destroyed++;
	}
};

static Log logs[NT];

__attribute__((noinline)) static void deepest(Log *lg, int t, int kind)
{
	Raii r(lg, 5);
	if (kind == 0)
		pthread_exit((void *)(intptr_t)(100 + t));
	// Other kinds: exit from inside a try block whose handlers are for
	// ordinary exceptions only.
	try {
		Raii r2(lg, 6);
		pthread_exit((void *)(intptr_t)(100 + t));
	} catch (const std::exception &) {
		lg->add(-1);
	} catch (int) {
		lg->add(-2);
	}
}

__attribute__((noinline)) static void middle(Log *lg, int t, int kind)
{
	Raii r(lg, 3);
	try {
		Raii r2(lg, 4);
		deepest(lg, t, kind);
	} catch (abi::__forced_unwind &) {
		lg->add(40);
		throw;
	}
	lg->add(-3);
}

__attribute__((noinline)) static void outer(Log *lg, int t, int kind)
{
	Raii r(lg, 1);
	try {
		Raii r2(lg, 2);
		middle(lg, t, kind);
	} catch (...) {
		lg->add(20);
		throw;
	}
	lg->add(-4);
}

static void *thread_fn(void *p)
{
	int t = (int)(intptr_t)p;
	Raii r(&logs[t], 0);
	outer(&logs[t], t, t % 2);
	logs[t].add(-5);
	return nullptr;
}

int main()
{
	for (int round = 0; round < 20; round++) {
		pthread_t th[NT];
		for (auto &l : logs)
			l = Log();
		destroyed = 0;
		for (int t = 0; t < NT; t++)
			CHECK0(pthread_create(&th[t], nullptr, thread_fn,
					      (void *)(intptr_t)t));
		int want_destroyed = 0;
		for (int t = 0; t < NT; t++) {
			void *r;
			CHECK0(pthread_join(th[t], &r));
			CHECK(r == (void *)(intptr_t)(100 + t));
			static const int want0[] = { 5, 4, 40, 3, 2, 20, 1, 0 };
			static const int want1[] = { 6, 5, 4, 40, 3, 2, 20, 1, 0 };
			const int *want = t % 2 ? want1 : want0;
			int wn = t % 2 ? 9 : 8;
			want_destroyed += wn - 2;
			Log &lg = logs[t];
			if (lg.n != wn ||
			    memcmp(lg.order, want, wn * sizeof(int)) != 0) {
				fprintf(stderr, "thread %d unwound:", t);
				for (int i = 0; i < lg.n; i++)
					fprintf(stderr, " %d", lg.order[i]);
				fprintf(stderr, "\n");
				t_failures++;
			}
		}
		CHECK(destroyed == want_destroyed);
	}
	return t_done();
}
