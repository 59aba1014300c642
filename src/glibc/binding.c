// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Does libnptl win the binding?  The dynamic linker binds every reference
 * to pthread_create@GLIBC_2.34 (and the rest) to the first object in lookup
 * order that defines it.  In link mode and preload mode that is libnptl.
 * When libnptl is loaded behind libc.so.6 -- dlopen'ed, pulled in by a
 * library the program does not itself depend on, under RTLD_DEEPBIND, or
 * in another link-map namespace (dlmopen) -- the program keeps glibc's
 * implementation and only some callers would reach libnptl's: two thread
 * libraries acting on the same objects.  That must never half-work, so
 * libnptl refuses to start and says why (libnptl(7), "Binding").
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include "nptl.h"

struct order {
	uintptr_t self;      /* an address inside libnptl */
	int self_at, libc_at, n;
};

static bool inside(struct dl_phdr_info *info, uintptr_t a)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz)
			return true;
	}
	return false;
}

static int walk(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct order *o = data;
	if (o->self_at < 0 && inside(info, o->self))
		o->self_at = o->n;
	if (o->libc_at < 0 && strstr(info->dlpi_name, "/libc.so.6"))
		o->libc_at = o->n;
	o->n++;
	return 0;
}

/* Returns NULL when libnptl wins, else why not.  */
const char *__nptl_binding_problem(void)
{
	Dl_info di;
	struct link_map *self = NULL;
	/* No dlopen here: it would leave malloc's heap set up (and partly free)
	 * before main, which a single-threaded program can observe (malloc
	 * that must fail once memory is full, musl's malloc-brk-fail).  A
	 * link map is a handle glibc's dlinfo accepts.  */
	if (!dladdr1((void *)__nptl_binding_problem, &di, (void **)&self,
		     RTLD_DL_LINKMAP) || !self)
		return "libnptl cannot find itself in the link map";
	Lmid_t ns = LM_ID_BASE;
	if (dlinfo(self, RTLD_DI_LMID, &ns) == 0 && ns != LM_ID_BASE)
		return "libnptl was loaded into a separate link-map namespace "
		       "(dlmopen), where it would share threads with the "
		       "main namespace's glibc";
	struct order o = { (uintptr_t)__nptl_binding_problem, -1, -1, 0 };
	dl_iterate_phdr(walk, &o);
	if (o.libc_at >= 0 && o.self_at > o.libc_at)
		return "libnptl was loaded after libc.so.6 (by dlopen, by a library "
		       "the program does not depend on directly, or under "
		       "RTLD_DEEPBIND), so the program's pthread calls bind to glibc "
		       "while some would bind to libnptl; link the program itself "
		       "with $(pkg-config --libs nptl) or use LD_PRELOAD=libnptl.so.0";
	return NULL;
}
