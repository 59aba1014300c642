// SPDX-License-Identifier: LGPL-2.1-or-later
// test-cflags: -std=c++17
/*
 * C++ runtime from many threads at once (C++17):
 *  - exceptions thrown and caught (and rethrown) concurrently;
 *  - thread_local objects with destructors: one destructor per thread
 *    that touched its object, run before join returns, also when a
 *    std::thread ends with pthread_exit;
 *  - std::thread, std::mutex, std::condition_variable, std::async;
 *  - shared_ptr reference counts stay exact (libstdc++ makes them
 *    non-atomic while glibc says the process is single-threaded).
 */
#include <pthread.h>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "t.h"

static const int NT = 8;

// ---- exceptions --------------------------------------------------------

struct MyError {
	int who, n;
};

static int thrower(int who, int n, int depth)
{
	if (depth > 0)
		return thrower(who, n, depth - 1) + 1;
	switch (n % 3) {
	case 0:
		throw std::runtime_error("thread " + std::to_string(who) + " #" +
					 std::to_string(n));
	case 1:
		throw MyError{ who, n };
	default:
		throw n;
	}
}

static void *exc_thread(void *arg)
{
	int who = (int)(intptr_t)arg;
	long bad = 0;
	for (int n = 0; n < 3000; n++) {
		try {
			try {
				thrower(who, n, n % 7);
				bad++;
			} catch (...) {
				if (n % 2)
					throw;   // rethrow the active exception
				std::rethrow_exception(std::current_exception());
			}
		} catch (const std::runtime_error &e) {
			std::string want = "thread " + std::to_string(who) + " #" +
					   std::to_string(n);
			bad += n % 3 != 0 || want != e.what();
		} catch (const MyError &e) {
			bad += n % 3 != 1 || e.who != who || e.n != n;
		} catch (int i) {
			bad += n % 3 != 2 || i != n;
		}
	}
	return (void *)bad;
}

static void test_exceptions()
{
	pthread_t th[NT];
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], nullptr, exc_thread, (void *)(intptr_t)t));
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == nullptr);
	}
}

// ---- thread_local destructors -------------------------------------------

static std::atomic<int> tl_made, tl_gone, tl_bad;

struct Counted {
	int magic = 0x5eed;
	std::string s;
	Counted() : s(100, 'x') { tl_made++; }
	~Counted()
	{
		if (magic != 0x5eed || s != std::string(100, 'x'))
			tl_bad++;
		magic = 0;
		tl_gone++;
	}
};

static thread_local Counted tl_obj;
static thread_local int tl_plain = 5;

static void *tl_thread(void *arg)
{
	if (arg)   // only half of the threads touch the object
		tl_obj.s[0] = 'x';
	tl_plain++;
	return (void *)(long)(tl_plain != 6);
}

static void test_thread_local()
{
	tl_made = tl_gone = 0;
	for (int round = 0; round < 5; round++) {
		pthread_t th[NT];
		for (int t = 0; t < NT; t++)
			CHECK0(pthread_create(&th[t], nullptr, tl_thread,
					      (void *)(intptr_t)(t % 2)));
		for (int t = 0; t < NT; t++) {
			void *r;
			CHECK0(pthread_join(th[t], &r));
			CHECK(r == nullptr);
		}
		// Destructors ran before the threads could be joined.
		CHECK(tl_made == (round + 1) * NT / 2);
		CHECK(tl_gone == (round + 1) * NT / 2);
	}
	CHECK(tl_bad == 0);

	// A std::thread that ends with pthread_exit.
	int before = tl_gone;
	std::vector<std::thread> v;
	for (int t = 0; t < 4; t++)
		v.emplace_back([] {
			tl_obj.s[1] = 'x';
			pthread_exit(nullptr);
		});
	for (auto &t : v)
		t.join();
	CHECK(tl_gone == before + 4);
	CHECK(tl_made == tl_gone);
	CHECK(tl_bad == 0);
}

// ---- std::thread, mutex, condition_variable, async ----------------------

static void test_std()
{
	std::mutex m;
	std::condition_variable not_empty, not_full;
	std::deque<int> q;
	bool closed = false;
	const int producers = 3, consumers = 3, per = 5000;
	std::atomic<long> sum{ 0 }, count{ 0 };

	std::vector<std::thread> ths;
	for (int p = 0; p < producers; p++)
		ths.emplace_back([&, p] {
			for (int i = 1; i <= per; i++) {
				std::unique_lock<std::mutex> l(m);
				not_full.wait(l, [&] { return q.size() < 16; });
				q.push_back(p * per + i);
				not_empty.notify_one();
			}
		});
	for (int c = 0; c < consumers; c++)
		ths.emplace_back([&] {
			for (;;) {
				std::unique_lock<std::mutex> l(m);
				not_empty.wait(l, [&] { return !q.empty() || closed; });
				if (q.empty())
					return;
				int v = q.front();
				q.pop_front();
				not_full.notify_one();
				l.unlock();
				sum += v;
				count++;
			}
		});
	for (int p = 0; p < producers; p++)
		ths[p].join();
	{
		std::lock_guard<std::mutex> l(m);
		closed = true;
	}
	not_empty.notify_all();
	for (int c = 0; c < consumers; c++)
		ths[producers + c].join();
	long n = (long)producers * per;
	CHECK(count == n);
	CHECK(sum == n * (n + 1) / 2);

	// std::async: values and exceptions come back through futures.
	std::vector<std::future<long>> fs;
	for (int i = 0; i < NT; i++)
		fs.push_back(std::async(std::launch::async, [i] {
			long s = 0;
			for (int k = 0; k <= 1000 * i; k++)
				s += k;
			if (i == 3)
				throw std::out_of_range("three");
			return s;
		}));
	for (int i = 0; i < NT; i++) {
		if (i == 3) {
			try {
				fs[i].get();
				CHECK(!"no exception from the future");
			} catch (const std::out_of_range &e) {
				CHECK(std::string(e.what()) == "three");
			}
			continue;
		}
		long k = 1000L * i;
		CHECK(fs[i].get() == k * (k + 1) / 2);
	}

	// std::this_thread::get_id differs between threads.
	std::thread::id main_id = std::this_thread::get_id(), other;
	std::thread t([&] { other = std::this_thread::get_id(); });
	std::thread::id tid = t.get_id();
	t.join();
	CHECK(other == tid);
	CHECK(other != main_id);
}

// ---- shared_ptr reference counts ----------------------------------------

static std::atomic<int> payload_gone;
struct Payload {
	~Payload() { payload_gone++; }
};

static void test_shared_ptr()
{
	auto p = std::make_shared<Payload>();
	std::vector<std::thread> v;
	for (int t = 0; t < NT; t++)
		v.emplace_back([p] {
			for (int i = 0; i < 100000; i++) {
				std::shared_ptr<Payload> a = p;
				std::shared_ptr<Payload> b = a;
				std::weak_ptr<Payload> w = b;
				if (!w.lock())
					abort();
			}
		});
	for (auto &t : v)
		t.join();
	CHECK(p.use_count() == 1);
	CHECK(payload_gone == 0);
	p.reset();
	CHECK(payload_gone == 1);
}

int main()
{
	test_exceptions();
	test_thread_local();
	test_std();
	test_shared_ptr();
	return t_done();
}
