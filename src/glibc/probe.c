// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Start-up check of the running libc against what libnptl was built for.
 * Probed: libc's _thread_db_* descriptors (what libthread_db reads; each is
 * {bits, count, offset}), ld.so's __rseq_offset, libc's cancellable-syscall
 * stub where the release has one, the condvar protocol libc's own
 * pthread_cond_signal follows (src/glibc/cond.c), and libc's build-id.  Only a table can
 * vouch for the rest (builds.c).  libnptl runs on the release whose headers
 * it was compiled against (descr.h): on a known build, or on an unknown
 * build of that release whose every probe agrees; anything else is refused
 * before a single thread is made, because writing glibc's descriptor with
 * the wrong layout would corrupt memory.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <gnu/libc-version.h>
#include "nptl.h"

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	char *out = data;
	if (!strstr(info->dlpi_name, "/libc.so.6"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const unsigned char *name = (const unsigned char *)(n + 1);
			const unsigned char *desc = name + ((n->n_namesz + 3) & ~3u);
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0 && n->n_descsz <= 20) {
				for (unsigned j = 0; j < n->n_descsz; j++)
					sprintf(out + 2 * j, "%02x", desc[j]);
				return 1;
			}
			p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

/* A _thread_db_* descriptor's offset, or -1 if libc has none.  */
static long db_offset(const char *name)
{
	const uint32_t *d = dlvsym(RTLD_DEFAULT, name, "GLIBC_PRIVATE");
	return d ? (long)d[2] : -1;
}

static uint32_t db_size(const char *name)
{
	const uint32_t *d = dlvsym(RTLD_DEFAULT, name, "GLIBC_PRIVATE");
	return d ? *d : 0;
}

/* Where ld.so put the rseq area: in static TLS, below the thread pointer,
 * 32-aligned, inside the block _dl_get_tls_static_info accounts for (which
 * every libnptl thread's mapping reserves).  */
static bool rseq_in_static_tls(void)
{
	size_t size, align;
	_dl_get_tls_static_info(&size, &align);
	ptrdiff_t off = __rseq_offset;
	return off < 0 && off % GLIBC_RSEQ_AREA_SIZE == 0 &&
	       (size_t)-off <= size - sizeof(struct pthread) &&
	       (size_t)-off >= sizeof(struct glibc_rseq);
}

/* Which condvar protocol does the running libc's own
 * pthread_cond_signal follow?  It signals a scratch private condvar with
 * one waiter registered at position 0 in slot 0 (as a waiter would have
 * left it, in the layout of the <pthread.h> libnptl was built against,
 * which the row must match).  Both protocols switch groups: 2.36's
 * advances the doubled __g1_start to 1 (start 0, slot bit 1), 2.41's
 * leaves it at 0 and counts one signal in __g_signals[0].  1: group
 * references (2.36), 0: 2.41's, -1: neither (an unknown protocol, or a
 * layout other than the headers').  */
static int cond_protocol(void)
{
	/* RTLD_NEXT: libc's definition, looked up from libnptl (which
	 * precedes libc, or the binding check refuses) so that the look-up
	 * is libnptl's own binding and no other object's.  */
	typedef int sig_fn(pthread_cond_t *);
	sig_fn *sig = (sig_fn *)dlvsym(RTLD_NEXT, "pthread_cond_signal",
				       "GLIBC_2.3.2");
	if (!sig) {
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		if (libc) {
			sig = (sig_fn *)dlvsym(libc, "pthread_cond_signal",
					       "GLIBC_2.3.2");
			dlclose(libc);
		}
	}
	if (!sig)
		return -1;
	pthread_cond_t c;
	memset(&c, 0, sizeof c);
	c.__data.__wseq.__value64 = 2;
	c.__data.__wrefs = 8;     /* one waiter, private */
	sig(&c);
	struct glibc_cond_refs *o = (struct glibc_cond_refs *)(void *)&c;
	struct glibc_cond_norefs *n = (struct glibc_cond_norefs *)(void *)&c;
	if (o->wseq != 3)
		return -1;              /* no switch: it saw no waiter */
	if (o->g1_start == 1 && o->g_size[0] == 0 && o->g_signals[0] == 2)
		return 1;
	if (n->g1_start == 0 && n->g_size[0] == 0 && n->g_signals[0] == 1)
		return 0;
	return -1;
}

void __nptl_glibc_probe(struct nptl_glibc_report *r)
{
	memset(r, 0, sizeof(*r));
	dl_iterate_phdr(find_build_id, r->build_id);
	r->version = gnu_get_libc_version();
	for (const struct nptl_glibc_build *b = __nptl_builds; b->build_id; b++)
		if (strcmp(b->build_id, r->build_id) == 0)
			r->known = b;
	r->layout = r->known ? r->known->layout : __nptl_glibc_release(r->version);
	const struct nptl_glibc_layout *l = r->layout;
	if (!l || strcmp(l->version, GLIBC_RELEASE) != 0 ||
	    strcmp(r->version, GLIBC_RELEASE) != 0) {
		r->mismatch = "release";
		return;
	}
	struct {
		const char *what;
		long got, want;
	} probes[] = {
		{ "_thread_db_sizeof_pthread", db_size("_thread_db_sizeof_pthread"),
		  l->sizeof_pthread },
		{ "_thread_db_pthread_list", db_offset("_thread_db_pthread_list"),
		  l->off_list },
		{ "_thread_db_pthread_tid", db_offset("_thread_db_pthread_tid"),
		  l->off_tid },
		{ "_thread_db_pthread_cancelhandling",
		  db_offset("_thread_db_pthread_cancelhandling"), l->off_cancelhandling },
		{ "_thread_db_pthread_specific",
		  db_offset("_thread_db_pthread_specific"), l->off_specific },
		{ "_thread_db_pthread_schedpolicy",
		  db_offset("_thread_db_pthread_schedpolicy"), l->off_schedpolicy },
		{ "_thread_db_pthread_start_routine",
		  db_offset("_thread_db_pthread_start_routine"), l->off_start_routine },
		{ "_thread_db_pthread_report_events",
		  db_offset("_thread_db_pthread_report_events"), l->off_report_events },
		{ "_thread_db_rtld_global__dl_stack_used",
		  db_offset("_thread_db_rtld_global__dl_stack_used"), l->off_dl_stack_used },
		{ "_thread_db_rtld_global__dl_stack_user",
		  db_offset("_thread_db_rtld_global__dl_stack_user"), l->off_dl_stack_user },
		{ "__rseq_offset",
		  l->rseq_offset ? (long)__rseq_offset : rseq_in_static_tls(),
		  l->rseq_offset ? (long)l->rseq_offset : 1 },
		/* descr.h is compiled in: the table must describe it too.  */
		{ "descr.h sizeof(struct pthread)", sizeof(struct pthread),
		  l->sizeof_pthread },
		{ "descr.h tid", offsetof(struct pthread, tid), l->off_tid },
		{ "descr.h cancelhandling", offsetof(struct pthread, cancelhandling),
		  l->off_cancelhandling },
#if GLIBC_PD_RSEQ_AREA
		{ "descr.h rseq_area", offsetof(struct pthread, rseq_area),
		  l->rseq_offset },
#else
		{ "descr.h rseq_area", 0, l->rseq_offset },
#endif
		/* Process-shared condvars follow the row's protocol (cond.c):
		 * the one libc's own pthread_cond_signal follows, in the
		 * layout of the <pthread.h> libnptl was compiled against.  */
		{ "condvar protocol", cond_protocol(),
		  l->cond_group_refs },
		{ "<pthread.h> __wrefs", offsetof(pthread_cond_t, __data.__wrefs),
		  l->cond_group_refs ? offsetof(struct glibc_cond_refs, wrefs) :
		  offsetof(struct glibc_cond_norefs, wrefs) },
	};
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (probes[i].got != probes[i].want) {
			r->mismatch = probes[i].what;
			return;
		}
	/* ld.so's lists must be well-formed where the table puts them: the
	 * main thread is on one of them, and every link points back.  */
	struct glibc_list *lists[2] = {
		(struct glibc_list *)(_rtld_global + l->off_dl_stack_used),
		(struct glibc_list *)(_rtld_global + l->off_dl_stack_user),
	};
	for (int i = 0; i < 2; i++)
		if (!lists[i]->next || lists[i]->next->prev != lists[i]) {
			r->mismatch = "dl_stack lists";
			return;
		}
	struct pthread *self = nptl_self();
	if (self->header.self != self || self->tid != (pid_t)nptl_sys0(SYS_gettid)) {
		r->mismatch = "main thread descriptor";
		return;
	}
	if (l->cancel_stub) {
		r->cancel_stub = __nptl_glibc_cancel_stub_find(r->known, &r->mismatch);
		if (!r->cancel_stub)
			return;
	}
}

void __nptl_glibc_check(void)
{
	struct nptl_glibc_report r;
	__nptl_glibc_probe(&r);
	if (r.mismatch) {
		const char *id = r.build_id[0] ? r.build_id : "unknown";
		char msg[512];
		if (strcmp(r.mismatch, "release") != 0)
			snprintf(msg, sizeof(msg),
				 "glibc %s (build-id %s) is not supported: %s does "
				 "not match libnptl's table; libnptl refuses to start "
				 "rather than corrupt glibc's thread descriptors (see "
				 "libnptl(7))", r.version, id, r.mismatch);
		else if (__nptl_glibc_release(r.version))
			snprintf(msg, sizeof(msg),
				 "glibc %s (build-id %s) is not the release this "
				 "libnptl was built for (glibc " GLIBC_RELEASE "): "
				 "install the libnptl built for glibc %s (see "
				 "libnptl(7))", r.version, id, r.version);
		else
			snprintf(msg, sizeof(msg),
				 "glibc %s (build-id %s) is not supported: release "
				 "does not match libnptl's table (this libnptl runs on "
				 "glibc " GLIBC_RELEASE "; see libnptl(7))",
				 r.version, id);
		__nptl_fatal(msg);
	}
	__nptl_glibc = r.layout;
	__nptl_glibc_cancel_stub_set(r.cancel_stub);
	if (__nptl_verbose)
		__nptl_say("glibc %s build %s: %s", r.version, r.build_id,
			   r.known ? r.known->package : "unknown build, every probe agreed");
}
