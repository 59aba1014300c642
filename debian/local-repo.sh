#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Write a local apt repository of libnptl's packages, so that `apt install
# libnptl` works as on any archive:
#   debian/local-repo.sh [DIR]             # builds the packages first
#   debian/local-repo.sh DIR FILE.deb...   # or takes the given ones
# DIR defaults to $NPTL_APT_DIR or /srv/libnptl-apt.  Then, as root:
#   echo "deb [trusted=yes] file:DIR ./" > /etc/apt/sources.list.d/libnptl.list
#   apt update && apt install libnptl        # or libnptl-dev
# The repository is unsigned ("trusted=yes"): it is the packages you just
# built on this machine.  Building needs root for apt-get build-dep (or the
# build dependencies installed already) and dpkg-dev and apt-utils.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${NPTL_APT_DIR:-/srv/libnptl-apt}}
[ $# -gt 0 ] && shift
export DEBIAN_FRONTEND=noninteractive

command -v apt-ftparchive >/dev/null || apt-get install -y -qq --no-install-recommends apt-utils
debs=("$@")
if [ ${#debs[@]} -eq 0 ]; then
	command -v dpkg-buildpackage >/dev/null ||
		apt-get install -y -qq --no-install-recommends dpkg-dev debhelper
	# The tree is taken as git sees it: git is needed even where dpkg-dev
	# is there already (./quickstart installs dpkg-dev, not git).
	command -v git >/dev/null ||
		apt-get install -y -qq --no-install-recommends git
	git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
		echo "local-repo.sh: $top is not a git checkout; build the .debs" \
		     "(dpkg-buildpackage -us -uc -b) and run: $0 DIR FILE.deb..." >&2
		exit 1
	}
	version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
	build=$(mktemp -d /tmp/libnptl-repo.XXXXXX)
	src=$build/libnptl-${version%-*}
	mkdir "$src"
	# The tree as git sees it (tracked and new files, nothing ignored).
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$top/$f" ] && printf '%s\0' "$f"; done |
		tar -C "$top" --null -T - -cf - | tar -C "$src" -xf -
	(cd "$src" && { dpkg-checkbuilddeps 2>/dev/null || apt-get build-dep -y -qq ./; } &&
		dpkg-buildpackage -us -uc -b)
	debs=("$build"/*_"$version"_*.deb)
fi

mkdir -p "$dir"
# Only the packages of this build: an older version left in DIR would be
# offered beside it.
rm -f "$dir"/*.deb
cp "${debs[@]}" "$dir"/
cd "$dir"
apt-ftparchive packages . > Packages
gzip -9nc Packages > Packages.gz
apt-ftparchive \
	-o APT::FTPArchive::Release::Origin=libnptl-local \
	-o APT::FTPArchive::Release::Label=libnptl \
	-o APT::FTPArchive::Release::Suite=local \
	-o APT::FTPArchive::Release::Description="libnptl packages built on $(hostname)" \
	release . > Release.tmp
mv Release.tmp Release
echo "local-repo.sh: $(grep -c '^Package:' Packages) packages in $dir; use it with"
echo "  echo 'deb [trusted=yes] file:$dir ./' > /etc/apt/sources.list.d/libnptl.list"
echo "  apt update && apt install libnptl"
