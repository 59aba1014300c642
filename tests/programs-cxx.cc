// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A plain C++17 program (built without libnptl) for tests/programs.sh: it
 * uses std::async, std::thread, std::mutex, std::condition_variable,
 * std::shared_mutex, std::promise/std::future, std::call_once and
 * thread_local, and prints results that do not depend on scheduling, so
 * its output under LD_PRELOAD=libnptl.so.0 must equal its output on glibc.
 */
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

// Sum of i*i over [lo, hi), modulo 2^64.
static std::uint64_t squares(std::uint64_t lo, std::uint64_t hi)
{
	std::uint64_t s = 0;
	for (std::uint64_t i = lo; i < hi; i++)
		s += i * i;
	return s;
}

thread_local unsigned tl_count;

int main()
{
	// 1. std::async with std::launch::async: 8 partial sums.
	const std::uint64_t n = 4000000;
	std::vector<std::future<std::uint64_t>> parts;
	for (std::uint64_t k = 0; k < 8; k++)
		parts.push_back(std::async(std::launch::async, squares,
					   k * n / 8, (k + 1) * n / 8));
	std::uint64_t total = 0;
	for (auto &f : parts)
		total += f.get();
	std::printf("async: sum of squares below %llu = %llu (%s)\n",
		    (unsigned long long)n, (unsigned long long)total,
		    total == squares(0, n) ? "matches" : "MISMATCH");

	// 2. A bounded queue (mutex + two condition variables): 4 producers,
	// 2 consumers; each consumer counts in a thread_local variable.
	std::mutex m;
	std::condition_variable not_empty, not_full;
	std::deque<unsigned> q;
	bool done = false;
	std::atomic<std::uint64_t> consumed_sum{0};
	std::atomic<unsigned> consumed{0};
	std::vector<std::thread> producers, consumers;
	for (unsigned c = 0; c < 2; c++)
		consumers.emplace_back([&] {
			std::unique_lock<std::mutex> lk(m);
			for (;;) {
				not_empty.wait(lk, [&] { return !q.empty() || done; });
				if (q.empty())
					break;
				unsigned v = q.front();
				q.pop_front();
				not_full.notify_one();
				lk.unlock();
				consumed_sum += v;
				tl_count++;
				lk.lock();
			}
			consumed += tl_count;
		});
	for (unsigned p = 0; p < 4; p++)
		producers.emplace_back([&, p] {
			for (unsigned i = 1; i <= 5000; i++) {
				std::unique_lock<std::mutex> lk(m);
				not_full.wait(lk, [&] { return q.size() < 16; });
				q.push_back(p * 100000 + i);
				not_empty.notify_one();
			}
		});
	for (auto &t : producers)
		t.join();
	{
		std::lock_guard<std::mutex> lk(m);
		done = true;
	}
	not_empty.notify_all();
	for (auto &t : consumers)
		t.join();
	std::printf("queue: %u items, sum %llu\n", consumed.load(),
		    (unsigned long long)consumed_sum.load());

	// 3. std::shared_mutex (a pthread rwlock): 3 writers, 3 readers.
	std::shared_mutex rw;
	std::uint64_t a = 0, b = 0;
	std::atomic<unsigned> torn{0};
	std::vector<std::thread> rwt;
	for (unsigned w = 0; w < 3; w++)
		rwt.emplace_back([&] {
			for (int i = 0; i < 20000; i++) {
				std::unique_lock<std::shared_mutex> lk(rw);
				a++;
				b += 2;
			}
		});
	for (unsigned r = 0; r < 3; r++)
		rwt.emplace_back([&] {
			for (int i = 0; i < 20000; i++) {
				std::shared_lock<std::shared_mutex> lk(rw);
				if (b != 2 * a)
					torn++;
			}
		});
	for (auto &t : rwt)
		t.join();
	std::printf("shared_mutex: a=%llu b=%llu torn reads=%u\n",
		    (unsigned long long)a, (unsigned long long)b, torn.load());

	// 4. std::promise/std::future across threads, and std::call_once.
	std::once_flag once;
	std::atomic<unsigned> once_runs{0};
	std::vector<std::promise<unsigned>> proms(6);
	std::vector<std::thread> pt;
	for (unsigned i = 0; i < 6; i++)
		pt.emplace_back([&, i] {
			std::call_once(once, [&] { once_runs++; });
			proms[i].set_value(i * i + 1);
		});
	unsigned psum = 0;
	for (auto &p : proms)
		psum += p.get_future().get();
	for (auto &t : pt)
		t.join();
	std::printf("promise: sum %u, call_once ran %u time(s)\n", psum,
		    once_runs.load());

	bool ok = total == squares(0, n) && consumed == 20000 && torn == 0 &&
		  a == 60000 && once_runs == 1 && psum == 61;
	std::printf("programs-cxx: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
