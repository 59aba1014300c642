#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# libnptl only: real multi-threaded programs, unmodified, run the same with
# LD_PRELOAD=<builddir>/.libs/libnptl.so.0 as without it:
#   xz -T2          threaded compression into 512 KiB blocks, and threaded
#                   decompression (liblzma's thread pool: mutexes, condvars)
#   zstd -T2        libzstd's worker pool (-B1MiB: several jobs)
#   pigz -p 2       compression threads plus its read/write/check helpers
#   sort --parallel=2  threaded in-memory merge sort (-S 16M: a buffer of
#                   more than 128K lines, below which sort makes no thread)
#                   and an external merge through temporary files (-S 1M)
#   tests/programs-cxx  std::async, std::thread, condition_variable,
#                   shared_mutex, promise/future, call_once, thread_local
#   tests/programs-sem  unnamed and named POSIX semaphores, cancellation
#                   of threads blocked in sem_wait/sem_timedwait
# For each: the output with libnptl must equal the output without it (cmp)
# and, for the compressors, decompress to the input.  Under LD_DEBUG=bindings
# (LD_BIND_NOW=1: every reference, not just those called; one output file
# per process, only the program's own file is read) at least one name
# libnptl exports must bind to libnptl from the program or its libraries,
# and no object but libnptl itself (whose dlvsym(RTLD_NEXT) look-ups into
# libc are deliberate) may bind such a name to libc.so.6.  With
# NPTL_VERBOSE=1, a reported thread count must not be 0 (xz and sort close
# stderr before libnptl's exit report, so they report nothing).
# A program that is not installed is skipped; exit 77 if none is.
# Run from the build directory (automake does); overrides for a manual run:
# NPTL_LIB, PROGRAMS_CXX, PROGRAMS_SEM.
set -u
lib=${NPTL_LIB:-$(pwd)/.libs/libnptl.so.0}
cxx=${PROGRAMS_CXX:-./tests/programs-cxx}
sem=${PROGRAMS_SEM:-./tests/programs-sem}
[ -e "$lib" ] || { echo "missing $lib (run from the build directory)"; exit 99; }
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
LC_ALL=C
export LC_ALL
fail=0
ran=0
bad() { echo "FAIL: $*"; fail=1; }

# The names libnptl defines.
objdump -T "$lib" | awk '$2 == "g" && $0 !~ /\*UND\*/ && $0 !~ /\*ABS\*/ { print $NF }' |
	sort -u > "$dir/exported"
nexp=$(wc -l < "$dir/exported")
[ "$nexp" -gt 50 ] || bad "only $nexp names exported by $lib"

# Deterministic input (a 32-bit linear congruential generator, exact in
# awk's doubles): about 2.6 MB of text lines for the compressors, and
# 200000 short lines for sort.
awk 'BEGIN { x = 12345
	for (i = 0; i < 200000; i++) {
		x = (x * 69069 + 1) % 4294967296
		printf "%08x %d line %d\n", x, x % 977, i
	} }' > "$dir/text"
awk 'BEGIN { x = 271828
	for (i = 0; i < 200000; i++) {
		x = (x * 69069 + 1) % 4294967296
		printf "%08x\n", x
	} }' > "$dir/lines"

# find NAME: the absolute path of an installed program, or nothing.  An
# absolute path makes it the program's name in LD_DEBUG's output.
find_prog() {
	p=$(command -v "$1" 2>/dev/null) || return 1
	case $p in /*) [ -x "$p" ] && echo "$p" ;; *) return 1 ;; esac
}

# run TAG PROG ARG...: runs PROG ARG... (stdin from $dir/in.TAG if it
# exists, else /dev/null) without libnptl into $dir/TAG.plain and with it
# into $dir/TAG.nptl; compares the two; checks bindings and thread count.
run() {
	tag=$1; prog=$2; shift 2
	in=/dev/null
	[ -f "$dir/in.$tag" ] && in=$dir/in.$tag
	if ! env -u LD_PRELOAD -u NPTL_VERBOSE "$prog" "$@" < "$in" > "$dir/$tag.plain" 2> "$dir/$tag.err"; then
		bad "$tag: failed without libnptl"; cat "$dir/$tag.err"; return
	fi
	if ! env -u NPTL_VERBOSE LD_PRELOAD="$lib" "$prog" "$@" < "$in" > "$dir/$tag.nptl" 2> "$dir/$tag.err"; then
		bad "$tag: failed with libnptl"; cat "$dir/$tag.err"; return
	fi
	[ -s "$dir/$tag.err" ] && { bad "$tag: stderr with libnptl:"; cat "$dir/$tag.err"; }
	cmp "$dir/$tag.plain" "$dir/$tag.nptl" || bad "$tag: output differs with libnptl"

	# The thread count, where the program leaves stderr open to the end.
	env NPTL_VERBOSE=1 LD_PRELOAD="$lib" "$prog" "$@" < "$in" > /dev/null 2> "$dir/$tag.verbose" ||
		bad "$tag: failed under NPTL_VERBOSE=1"
	n=$(sed -n 's/^libnptl\[[0-9]*\]: \([0-9][0-9]*\) thread(s) created.*/\1/p' "$dir/$tag.verbose")
	case $n in
	'') threads="no count reported" ;;
	0) bad "$tag: libnptl created no thread"; threads=0 ;;
	*) threads="$n thread(s) created by libnptl" ;;
	esac

	# Bindings, from the program's own LD_DEBUG output file.
	rm -f "$dir/bind".*
	env LD_DEBUG=bindings LD_BIND_NOW=1 LD_DEBUG_OUTPUT="$dir/bind" LD_PRELOAD="$lib" \
		"$prog" "$@" < "$in" > /dev/null 2> /dev/null ||
		bad "$tag: failed under LD_DEBUG=bindings"
	: > "$dir/$tag.pairs"
	for f in "$dir/bind".*; do
		[ -f "$f" ] || continue
		grep -qF "binding file $prog [0] " "$f" || continue
		sed -n "s/^ *[0-9]*:[[:space:]]*binding file \(.*\) \[[0-9]*\] to \(.*\) \[[0-9]*\]: [a-z]* symbol \`\([^']*\)'.*/\1|\2|\3/p" \
			"$f" >> "$dir/$tag.pairs"
	done
	[ -s "$dir/$tag.pairs" ] || { bad "$tag: no binding lines of $prog"; return; }
	awk -F'|' -v tag="$tag" -v exported="$dir/exported" -v threads="$threads" '
		BEGIN { while ((getline l < exported) > 0) ex[l] = 1 }
		function isnptl(f) { return f ~ /(^|\/)libnptl\.so(\.|$)/ }
		isnptl($1) || !($3 in ex) { next }
		{
			considered++
			if (isnptl($2)) {
				good++
				if ($3 == "pthread_create")
					creates++
			} else {
				printf "FAIL: %s: %s binds %s to %s\n", tag, $1, $3, $2
				wrong++
			}
		}
		END {
			printf "%s: %d binding(s) of libnptl names, %d to libnptl (%d of pthread_create), %d wrong; %s\n",
				tag, considered, good, creates, wrong, threads
			exit (wrong > 0 || good < 1)
		}' "$dir/$tag.pairs" || bad "$tag: bindings (see above)"
}

# roundtrip TAG: the decompressed output of TAG (both modes) is the input.
roundtrip() {
	cmp "$dir/$1.plain" "$dir/text" > /dev/null || bad "$1: does not give back the input without libnptl"
	cmp "$dir/$1.nptl" "$dir/text" > /dev/null || bad "$1: does not give back the input with libnptl"
}

skip() { echo "SKIP: $1 is not installed"; }

if p=$(find_prog xz); then
	ran=$((ran + 1))
	cp "$dir/text" "$dir/in.xz-c"
	run xz-c "$p" -T2 -3 --block-size=512KiB -c
	cp "$dir/xz-c.nptl" "$dir/in.xz-d"
	run xz-d "$p" -T2 -d -c
	roundtrip xz-d
else skip xz; fi

if p=$(find_prog zstd); then
	ran=$((ran + 1))
	cp "$dir/text" "$dir/in.zstd-c"
	run zstd-c "$p" -q -T2 -B1MiB -3 -c
	cp "$dir/zstd-c.nptl" "$dir/in.zstd-d"
	run zstd-d "$p" -q -T2 -d -c
	roundtrip zstd-d
else skip zstd; fi

if p=$(find_prog pigz); then
	ran=$((ran + 1))
	cp "$dir/text" "$dir/in.pigz-c"
	run pigz-c "$p" -p 2 -b 128 -n -c
	cp "$dir/pigz-c.nptl" "$dir/in.pigz-d"
	run pigz-d "$p" -p 2 -d -c
	roundtrip pigz-d
else skip pigz; fi

if p=$(find_prog sort); then
	ran=$((ran + 1))
	cp "$dir/lines" "$dir/in.sort-mem"
	run sort-mem "$p" --parallel=2 -S 16M -T "$dir"
	cp "$dir/text" "$dir/in.sort-ext"
	run sort-ext "$p" --parallel=2 -S 1M -T "$dir" -k2,2n -k1,1
	# The reference: sort's output is fully determined by the input.
	"$p" "$dir/lines" | cmp - "$dir/sort-mem.nptl" > /dev/null ||
		bad "sort-mem: not the sorted input"
else skip sort; fi

for p in "$cxx" "$sem"; do
	if [ -x "$p" ]; then
		ran=$((ran + 1))
		case $p in /*) ;; *) p=$(pwd)/$p ;; esac
		tag=$(basename "$p")
		run "$tag" "$p"
		grep -q ': ok$' "$dir/$tag.nptl" || bad "$tag: no success line with libnptl"
	else skip "$p"; fi
done

if [ $ran -eq 0 ]; then
	echo "SKIP: none of the programs is installed"
	exit 77
fi
[ $fail -eq 0 ] && echo "programs: ok ($ran program(s))"
exit $fail
