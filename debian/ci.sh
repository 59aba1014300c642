#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# CI, after the test suite: build the Debian source and binary packages
# from a copy of the tree (the checkout is left untouched), run lintian on
# them (source and binaries), write a local apt repository of them
# (debian/local-repo.sh), install libnptl and libnptl-dev from it with
# apt-get as a user would, and run every autopkgtest of debian/tests/control
# against the installed packages.
#   debian/ci.sh            # needs root (apt-get); the result is in $work
# NPTL_APT_DIR: where the repository goes (default $work/apt); the
# sources.list.d entry is removed again at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
export DEBIAN_FRONTEND=noninteractive

tools=(dpkg-dev debhelper lintian git apt-utils xz-utils)
missing=()
for p in "${tools[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
upstream=${version%-*}
work=$(mktemp -d /tmp/libnptl-deb.XXXXXX)
# apt fetches as its sandbox user (_apt): the repository under $work must
# be reachable by others (mktemp makes the directory 0700).
chmod 0755 "$work"
src=$work/libnptl-$upstream
mkdir "$src"

# The source tree as git sees it: tracked and new files, nothing ignored
# (no build directories, no generated configure).
git -C "$top" ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar -C "$top" --null -T - -cf - | tar -C "$src" -xf -
echo "ci.sh: building libnptl $version in $src"

cd "$src"
apt-get build-dep -y -qq ./
# Source format 3.0 (quilt): the upstream tarball is the tree without
# debian/.
tar -C "$work" --exclude="libnptl-$upstream/debian" -cJf \
	"$work/libnptl_$upstream.orig.tar.xz" "libnptl-$upstream"
# Source and binary packages in one .changes (tests already ran in make check).
DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -F

cd "$work"
changes=$(ls libnptl_"${version}"_amd64.changes)
echo "ci.sh: lintian on the source package (libnptl_${version}.dsc) and the binaries ($changes)"
lintian --fail-on error,warning --display-info "libnptl_${version}.dsc"
lintian --fail-on error,warning --display-info "$changes"

# A local apt repository, and the install through it as README says.
repo=${NPTL_APT_DIR:-$work/apt}
bash "$src/debian/local-repo.sh" "$repo" ./libnptl0_"${version}"_*.deb \
	./libnptl-dev_"${version}"_*.deb ./libnptl_"${version}"_*.deb
list=/etc/apt/sources.list.d/libnptl-ci-$$.list
trap 'rm -f "$list"' EXIT
echo "deb [trusted=yes] file:$repo ./" > "$list"
# Refresh only that source (the others were refreshed above).
apt-get update -qq -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- \
	-o APT::Get::List-Cleanup=0
apt-get install -y --reinstall libnptl libnptl-dev libnptl0 | tee "$work/apt-install.log"
# The installed version must be the repository's (apt-cache policy lists
# the sources of the installed version).
apt-cache policy libnptl0 | tee -a "$work/apt-install.log" |
	sed -n '/\*\*\*/,/status/p' | grep -q "file:$repo" ||
	{ echo "ci.sh: libnptl0 was not installed from $repo"; exit 1; }
for p in libnptl libnptl0 libnptl-dev; do
	[ "$(dpkg-query -W -f='${Version}' "$p")" = "$version" ] ||
		{ echo "ci.sh: $p $version is not installed"; exit 1; }
done
echo "ci.sh: libnptl, libnptl0, libnptl-dev $version installed with apt-get from $repo"

# The autopkgtests, run directly against the installed packages: every
# stanza of debian/tests/control, its Depends installed first.
ran=()
while IFS='|' read -r tests deps restrictions; do
	# shellcheck disable=SC2086 # the lists are words
	apt-get install -y -qq --no-install-recommends $deps </dev/null
	for t in $tests; do
		echo "ci.sh: autopkgtest $t"
		AUTOPKGTEST_TMP=$(mktemp -d) "$src/debian/tests/$t" </dev/null
		ran+=("$t")
	done
done < <(awk '
	function flush() { if (t != "") print t "|" d "|" r; t = d = r = ""; f = "" }
	/^#/ { next }
	/^[ \t]*$/ { flush(); next }
	/^[A-Za-z-]+:/ { f = tolower($1); sub(/^[^:]*:/, "") }
	{ gsub(/,/, " "); gsub(/@/, ""); gsub(/\([^)]*\)/, "")
	  if (f == "tests:") t = t " " $0; else if (f == "depends:") d = d " " $0
	  else if (f == "restrictions:") r = r " " $0 }
	END { flush() }' "$src/debian/tests/control")
[ ${#ran[@]} -ge 3 ] || { echo "ci.sh: only ${#ran[@]} autopkgtests found"; exit 1; }

echo "ci.sh: source and binary packages built, lintian clean, installed with apt from $repo, autopkgtests passed: ${ran[*]} ($work)"
