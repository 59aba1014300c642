#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every thread-library name libnptl exports under a default version
# (objdump -T rows whose version is not in parentheses) has a manual page or
# a ".so" page in man/; every other exported name (the cancellation points
# libnptl serves: read, write, ...) is listed in nptl_cancellation_points(3nptl)
# and has no page of its own, because a page read.3nptl would shadow read(2)
# for `man read` (man-db searches section 3 before 2).  So no page may take a
# name that is not a thread-library interface, and, where the manpages and
# manpages-dev packages are installed, none may take the name of one of
# their section 2 pages.  Every page formats without warnings
# (man --warnings).  NPTL_1.0 names need a page only if one exists
# (nptl_version has one).
#
# Run from the build directory (the test harness does); NPTL_LIB and srcdir
# may point elsewhere.  Exit 77 (skip) if man or objdump is missing.
set -u

srcdir=${srcdir:-.}
mandir=$srcdir/man
lib=${NPTL_LIB:-.libs/libnptl.so.0}

command -v man >/dev/null 2>&1 || { echo "SKIP: man is not installed"; exit 77; }
command -v objdump >/dev/null 2>&1 || { echo "SKIP: objdump is not installed"; exit 77; }
[ -f "$lib" ] || { echo "FAIL: $lib not found (build the library first)"; exit 1; }
[ -f "$mandir/libnptl.7" ] || { echo "FAIL: no manual pages in $mandir"; exit 1; }

fail=0
checked=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Defined dynamic symbols with a default version: the version column is
# bare (GLIBC_2.34), not "(GLIBC_2.2.5)"; skip the version definitions
# themselves (*ABS* rows whose name is the version).
objdump -T "$lib" | awk '
	$0 ~ /\*UND\*/ { next }
	NF >= 7 && $(NF-1) ~ /^(GLIBC|NPTL)_/ && $(NF-1) !~ /^\(/ && $NF != $(NF-1) {
		print $(NF-1), $NF
	}' | sort -u > "$tmp/names"
[ -s "$tmp/names" ] || { echo "FAIL: no default-version symbols in $lib"; exit 1; }

# The names of the thread-library families (glibc's and libnptl's own).
thread_re='^(pthread_|__pthread_|_pthread_|sem_|thrd_|tss_|mtx_|cnd_|call_once$|nptl_)'
points=$mandir/nptl_cancellation_points.3nptl
while read -r ver name; do
	if ! echo "$name" | grep -Eq "$thread_re"; then
		grep -Fq "\\fB$name\\fP" "$points" || {
			echo "FAIL: $name@@$ver is not listed in nptl_cancellation_points(3nptl)"
			fail=1
		}
		continue
	fi
	if [ -f "$mandir/$name.3nptl" ]; then
		continue
	fi
	case $ver in
	NPTL_*) continue ;;   # our own names: documented ones have pages
	esac
	echo "FAIL: $name@@$ver has no page man/$name.3nptl"
	fail=1
done < "$tmp/names"

# No page takes a name that is not libnptl's to document.
: > "$tmp/system"
for pkg in manpages manpages-dev; do
	if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		dpkg -L "$pkg" | sed -n 's|.*/man2/\([^/]*\)\.2\(\.gz\)\{0,1\}$|\1|p' >> "$tmp/system"
		checked="$checked $pkg"
	fi
done
for page in "$mandir"/*.3nptl; do
	base=${page##*/}
	base=${base%.3nptl}
	if ! echo "$base" | grep -Eq "$thread_re"; then
		echo "FAIL: man/$base.3nptl: $base is not a thread-library interface"
		fail=1
	elif grep -Fxq "$base" "$tmp/system"; then
		echo "FAIL: man/$base.3nptl would shadow $base(2)"
		fail=1
	fi
done
[ -n "$checked" ] ||
	echo "note: manpages/manpages-dev not installed: page names checked against the thread-library names only"

# man resolves ".so man3/X.3nptl" against the current directory: format
# the pages from a tree that has them as man3/ and man7/.
mkdir "$tmp/tree"
ln -s "$(cd "$mandir" && pwd)" "$tmp/tree/man3"
ln -s "$(cd "$mandir" && pwd)" "$tmp/tree/man7"
n=0
for page in "$mandir"/*.3nptl "$mandir"/*.7; do
	base=${page##*/}
	case $base in
	*.7) sub=man7 ;;
	*) sub=man3 ;;
	esac
	if head -n 1 "$page" | grep -q '^\.so '; then
		target=$(head -n 1 "$page" | sed 's/^\.so //')
		if [ ! -f "$tmp/tree/$target" ]; then
			echo "FAIL: $base: .so target $target does not exist"
			fail=1
			continue
		fi
	fi
	out=$(cd "$tmp/tree" && LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		man --warnings -E UTF-8 -l "$sub/$base" 2>&1 >/dev/null)
	if [ -n "$out" ]; then
		echo "FAIL: $base: man --warnings:"
		echo "$out"
		fail=1
	fi
	n=$((n + 1))
done

names=$(wc -l < "$tmp/names")
if [ $fail -eq 0 ]; then
	echo "PASS: $names exported names documented, $n pages format cleanly," \
		"no page shadows another's${checked:+ (checked against$checked)}"
fi
exit $fail
