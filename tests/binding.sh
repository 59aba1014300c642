#!/bin/sh
# libnptl only: a C++17 program (tests/binding-cxx.cc) runs, checks its own
# results and binds its thread interfaces to libnptl, both
#   link mode:    tests/binding-cxx, linked with libnptl.la (the libtool
#                 wrapper sets LD_LIBRARY_PATH), and
#   preload mode: tests/binding-cxx-plain, built without libnptl, run with
#                 LD_PRELOAD=<builddir>/.libs/libnptl.so.0.
# Under LD_DEBUG=bindings every binding of a name libnptl exports, made from
# any object but libnptl itself (its own dlvsym(RTLD_NEXT) look-ups into
# libc are deliberate), must go to libnptl, and at least one pthread_create
# binding (from libstdc++ or the program) must exist.  NPTL_VERBOSE=1 names
# the glibc build and the number of threads made; without it libnptl says
# nothing on stderr.  Link mode: the pkg-config style flags keep libnptl
# NEEDED, ahead of libc.so.6, under -Wl,--as-needed.
# Run from the build directory (automake does); overrides for a manual run:
# NPTL_LIB, BINDING_CXX, BINDING_CXX_PLAIN, NPTL_LIBDIR.
set -u
lib=${NPTL_LIB:-$(pwd)/.libs/libnptl.so.0}
libdir=${NPTL_LIBDIR:-$(dirname "$lib")}
prog_link=${BINDING_CXX:-./tests/binding-cxx}
prog_plain=${BINDING_CXX_PLAIN:-./tests/binding-cxx-plain}
cc=${CC:-cc}
for f in "$lib" "$prog_link" "$prog_plain"; do
	[ -e "$f" ] || { echo "missing $f (run from the build directory)"; exit 99; }
done
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The names libnptl defines.
objdump -T "$lib" | awk '$2 == "g" && $0 !~ /\*UND\*/ && $0 !~ /\*ABS\*/ { print $NF }' |
	sort -u > "$dir/exported"
nexp=$(wc -l < "$dir/exported")
[ "$nexp" -gt 50 ] || bad "only $nexp names exported by $lib"

# check_mode NAME PROGRAM CMD...: runs the command CMD... (which runs
# PROGRAM) three ways.
check_mode() {
	mode=$1; base=$(basename "$2"); shift 2
	# 1. plain run: the program checks itself; nothing on stderr.
	if ! env -u NPTL_VERBOSE -u LD_DEBUG "$@" > "$dir/$mode.out" 2> "$dir/$mode.err"; then
		bad "$mode: the program failed"; cat "$dir/$mode.err"
	fi
	grep -q ': ok$' "$dir/$mode.out" || bad "$mode: no success line on stdout"
	if [ -s "$dir/$mode.err" ]; then
		bad "$mode: stderr not empty without NPTL_VERBOSE:"; cat "$dir/$mode.err"
	fi
	# 2. NPTL_VERBOSE=1: the glibc build and the thread count.
	env NPTL_VERBOSE=1 "$@" > /dev/null 2> "$dir/$mode.verbose" ||
		bad "$mode: failed under NPTL_VERBOSE=1"
	sed 's/^/  | /' "$dir/$mode.verbose"
	grep -Eq '^libnptl\[[0-9]+\]: glibc 2\.[0-9]+ build [0-9a-f]{40}' "$dir/$mode.verbose" ||
		bad "$mode: NPTL_VERBOSE=1 did not name the glibc build"
	n=$(sed -n 's/^libnptl\[[0-9]*\]: \([0-9][0-9]*\) thread(s) created.*/\1/p' "$dir/$mode.verbose")
	if [ -z "$n" ]; then
		bad "$mode: NPTL_VERBOSE=1 did not report the number of threads"
	elif [ "$n" -lt 16 ]; then
		# the program makes 8 + 1 + 4 + 1 + 1 + 1 threads
		bad "$mode: NPTL_VERBOSE=1 reports $n threads, the program made 16"
	fi
	# 3. LD_DEBUG=bindings (LD_BIND_NOW: every reference, not just those
	# called).  One file per process: the libtool wrapper's shell and its
	# helpers write theirs too; only the test program's are read.  A
	# leading `env VAR=value...` is done by the subshell, which then execs
	# the program itself: env(1) would run under LD_DEBUG too and, as it
	# execs the program in the same process, write its own bindings into
	# the program's file (coreutils 9.7's env binds fcntl, to libc).
	(
		export LD_DEBUG=bindings LD_BIND_NOW=1 LD_DEBUG_OUTPUT="$dir/$mode.bind"
		if [ "$1" = env ]; then
			shift
			while [ $# -gt 0 ] && [ "${1#*=}" != "$1" ]; do
				export "$1"
				shift
			done
		fi
		exec "$@"
	) > /dev/null 2> "$dir/$mode.bind-err" ||
		bad "$mode: failed under LD_DEBUG=bindings"
	: > "$dir/$mode.pairs"
	for f in "$dir/$mode.bind".*; do
		[ -f "$f" ] || continue
		grep -q "binding file [^ ]*$base " "$f" || continue
		sed -n "s/^ *[0-9]*:[[:space:]]*binding file \(.*\) \[[0-9]*\] to \(.*\) \[[0-9]*\]: [a-z]* symbol \`\([^']*\)'.*/\1|\2|\3/p" \
			"$f" >> "$dir/$mode.pairs"
	done
	[ -s "$dir/$mode.pairs" ] || bad "$mode: no binding lines of $base under LD_DEBUG=bindings"
	awk -F'|' -v mode="$mode" -v base="$base" -v exported="$dir/exported" '
		BEGIN { while ((getline l < exported) > 0) ex[l] = 1 }
		function isnptl(f) { return f ~ /(^|\/)libnptl\.so(\.|$)/ }
		isnptl($1) || !($3 in ex) { next }
		{
			considered++
			if (!isnptl($2)) {
				printf "FAIL: %s: %s binds %s to %s\n", mode, $1, $3, $2
				wrong++
			}
			if ($3 == "pthread_create" && ($1 ~ /libstdc\+\+/ || $1 ~ (base "$")))
				creates++
		}
		END {
			printf "%s: %d binding(s) of libnptl names from other objects, %d wrong, %d of pthread_create\n",
				mode, considered, wrong, creates
			exit (wrong > 0 || creates < 1 || considered < 1)
		}' "$dir/$mode.pairs" || bad "$mode: bindings (see above)"
}

# The link-mode program proper, not libtool's wrapper script: the wrapper's
# shell execs it in the same process, and the shell's own bindings (to libc,
# which is right for a shell that never loads libnptl) would share its
# LD_DEBUG output file.
real=$(dirname "$prog_link")/.libs/$(basename "$prog_link")
if [ -x "$real" ]; then
	check_mode link "$real" env LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$real"
else
	check_mode link "$prog_link" "$prog_link"
fi
check_mode preload "$prog_plain" env LD_PRELOAD="$lib" "$prog_plain"

# The plain program really is plain.
if readelf -d "$prog_plain" 2>/dev/null | grep -q 'NEEDED.*libnptl'; then
	bad "$prog_plain depends on libnptl itself"
fi

# pkg-config style linking under --as-needed, for a program that names no
# pthread function itself (what keeps libnptl then is only the flags).
cat > "$dir/tiny.c" <<'EOC'
#include <stdio.h>
int main(void) { puts("tiny"); return 0; }
EOC
flags="-Wl,--push-state,--no-as-needed -lnptl -Wl,--pop-state"
if [ -f nptl.pc ] && ! grep -q -- "--push-state,--no-as-needed -lnptl -Wl,--pop-state" nptl.pc; then
	bad "nptl.pc's Libs do not keep libnptl under --as-needed:"; grep '^Libs' nptl.pc
fi
if [ ! -e "$libdir/libnptl.so" ]; then
	bad "no $libdir/libnptl.so to link with"
elif ! $cc -Wl,--as-needed -o "$dir/tiny" "$dir/tiny.c" -L"$libdir" $flags > "$dir/tiny.log" 2>&1; then
	bad "linking with $flags failed:"; cat "$dir/tiny.log"
else
	needed=$(readelf -d "$dir/tiny" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	echo "--as-needed with $flags: NEEDED $needed"
	case " $needed" in
	*" libnptl.so.0 "*"libc.so.6 "*) ;;
	*) bad "libnptl.so.0 is not NEEDED before libc.so.6" ;;
	esac
	LD_LIBRARY_PATH=$libdir "$dir/tiny" > /dev/null 2> "$dir/tiny.err" || bad "the tiny program failed"
	[ -s "$dir/tiny.err" ] && { bad "the tiny program wrote to stderr"; cat "$dir/tiny.err"; }
	# Control: without the push-state the linker drops libnptl (GNU ld).
	if $cc -Wl,--as-needed -o "$dir/tiny2" "$dir/tiny.c" -L"$libdir" -lnptl > /dev/null 2>&1 &&
	   readelf -d "$dir/tiny2" | grep -q 'NEEDED.*libnptl'; then
		echo "note: this linker keeps libnptl under --as-needed even without --no-as-needed"
	fi
fi

[ $fail -eq 0 ] && echo "binding: ok"
exit $fail
