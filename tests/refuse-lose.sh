#!/bin/sh
# libnptl only: where libnptl is loaded but glibc's definitions would win the
# binding, libnptl refuses to start -- a message starting "libnptl: fatal:"
# that speaks of the binding ("bind"), then abort() -- rather than half-work with
# two thread libraries in one process.
#  (a) a program not linked with libnptl dlopen()s it;
#  (b) a shared library depends on libnptl, the program does not;
#  (c) dlmopen() into a new link-map namespace;
# all must die by SIGABRT with that message.  In preload mode and link mode
# (also with the library of (b), and dlopen of the already loaded libnptl)
# there is no such message and the programs run.
# Run from the build directory; NPTL_LIB overrides the library.
set -u
lib=${NPTL_LIB:-$(pwd)/.libs/libnptl.so.0}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
libdir=$(dirname "$lib")
cc=${CC:-cc}
[ -f "$lib" ] || { echo "missing $lib (run from the build directory)"; exit 99; }
[ -e "$libdir/libnptl.so" ] || { echo "missing $libdir/libnptl.so"; exit 99; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat > "$dir/opener.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
static void *f(void *a) { return a; }
/* argv[1]: the library; argv[2]: "dlopen" or "dlmopen".  */
int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	void *h = strcmp(argv[2], "dlmopen") == 0
		? dlmopen(LM_ID_NEWLM, argv[1], RTLD_NOW)
		: dlopen(argv[1], RTLD_NOW);
	if (!h) {
		printf("dlopen failed: %s\n", dlerror());
		return 3;
	}
	pthread_t t;
	if (pthread_create(&t, NULL, f, (void *)1) || pthread_join(t, NULL))
		return 4;
	puts("loaded");
	return 0;
}
EOC
cat > "$dir/shim.c" <<'EOC'
#include <pthread.h>
static void *f(void *a) { return a; }
int shim_run(void)
{
	pthread_t t;
	void *r = 0;
	if (pthread_create(&t, 0, f, (void *)7) || pthread_join(t, &r))
		return 1;
	return r != (void *)7;
}
EOC
cat > "$dir/useshim.c" <<'EOC'
#include <stdio.h>
int shim_run(void);
int main(void)
{
	if (shim_run())
		return 1;
	puts("loaded");
	return 0;
}
EOC
build() {
	if ! "$@" > "$dir/build.log" 2>&1; then
		echo "build failed: $*"; cat "$dir/build.log"; exit 99
	fi
}
build $cc -o "$dir/opener" "$dir/opener.c" -ldl -pthread
build $cc -o "$dir/opener-linked" "$dir/opener.c" -L"$libdir" \
	-Wl,--no-as-needed -lnptl -Wl,-rpath,"$libdir" -ldl -pthread
build $cc -shared -fPIC -o "$dir/libshim.so" "$dir/shim.c" -L"$libdir" \
	-Wl,--no-as-needed -lnptl -Wl,-rpath,"$libdir"
build $cc -o "$dir/useshim" "$dir/useshim.c" -L"$dir" -lshim -Wl,-rpath,"$dir"
build $cc -o "$dir/useshim-linked" "$dir/useshim.c" -L"$libdir" -L"$dir" \
	-Wl,--no-as-needed -lnptl -lshim -Wl,-rpath,"$libdir" -Wl,-rpath,"$dir"
readelf -d "$dir/useshim" | grep -q 'NEEDED.*libnptl' &&
	{ echo "useshim depends on libnptl itself"; exit 99; }
readelf -d "$dir/libshim.so" | grep -q 'NEEDED.*libnptl' ||
	{ echo "libshim.so does not depend on libnptl"; exit 99; }

# must_refuse NAME WORD CMD...: killed by SIGABRT, the message on stderr,
# naming WORD (case-insensitive; "" for any).
must_refuse() {
	name=$1; word=$2; shift 2
	fail0=$fail
	"$@" > "$dir/out" 2> "$dir/err"
	rc=$?
	sed 's/^/  | /' "$dir/err"
	if [ $rc -ne 134 ]; then
		bad "$name: exit status $rc, want 134 (SIGABRT)"
		sed 's/^/  out| /' "$dir/out"
	fi
	if ! grep -q '^libnptl: fatal: ' "$dir/err"; then
		bad "$name: no line starting 'libnptl: fatal: ' on stderr"
	elif ! grep '^libnptl: fatal: ' "$dir/err" | grep -qi -- "$word"; then
		bad "$name: the fatal message does not mention '$word'"
	fi
	grep -q '^loaded$' "$dir/out" && bad "$name: the program ran on"
	[ $fail -eq $fail0 ] && echo "$name: refused"
}

# must_run NAME CMD...: runs, no fatal message.
must_run() {
	name=$1; shift
	fail0=$fail
	"$@" > "$dir/out" 2> "$dir/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$name: exit status $rc, want 0"
	grep -q '^loaded$' "$dir/out" || bad "$name: the program did not finish"
	if grep -q 'libnptl: fatal' "$dir/err"; then
		bad "$name: libnptl refused:"; sed 's/^/  | /' "$dir/err"
	fi
	[ $fail -eq $fail0 ] && echo "$name: runs"
}

must_refuse "(a) dlopen from a plain program" bind "$dir/opener" "$lib" dlopen
must_refuse "(b) a library depends on libnptl, the program does not" bind \
	"$dir/useshim"
must_refuse "(c) dlmopen into a new namespace" namespace "$dir/opener" "$lib" dlmopen

must_run "preload, dlopen of the preloaded libnptl" \
	env LD_PRELOAD="$lib" "$dir/opener" "$lib" dlopen
must_run "preload, a library depending on libnptl" \
	env LD_PRELOAD="$lib" "$dir/useshim"
must_run "link mode, dlopen of the linked libnptl" "$dir/opener-linked" "$lib" dlopen
must_run "link mode, with a library depending on libnptl" "$dir/useshim-linked"

[ $fail -eq 0 ] && echo "refuse-lose: ok"
exit $fail
