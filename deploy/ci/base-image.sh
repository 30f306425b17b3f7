#!/usr/bin/env bash
# The CI stand-in for the Dockerfile's base image (NODE_IMAGE), for a machine that reaches no container registry.
#
#   deploy/ci/base-image.sh            # prints the image name once it is in podman's storage
#
# A Debian bookworm minbase root (debootstrap --variant=minbase, as debian:bookworm-slim is), this machine's `node`
# and `npm` in /usr/local as the official image has them, the `node` user (uid/gid 1000) and the same dpkg excludes
# as the slim image. It differs from the published node:<version>-bookworm-slim in the Node binary (this machine's,
# not the tag's release, with the npm installed beside it), and carries what only CI needs: this machine's CA bundle (its network goes through a
# TLS-intercepting proxy) with npm's `cafile` set to it, and Node's headers with npm's `nodedir` (node-gyp builds
# pkcs11js without downloading them from nodejs.org, which is not reachable). No yarn, no corepack.
#
# Tagged with the exact name the Dockerfile's NODE_IMAGE default has, so `podman build` uses it and pulls nothing.
# Cached: the root filesystem as a tarball in $GW_CI_CACHE (default /var/cache/game-wallet-ci), keyed by a hash of
# this script, the node binary, npm, the headers and the CA bundle; rebuilt only when one of them changes.
set -euo pipefail
self="$(readlink -f "$0")"
cd "$(dirname "$self")/../.."

export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/deploy/ci/containers.conf}"
cache="${GW_CI_CACHE:-/var/cache/game-wallet-ci}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
log() { echo "base-image: $*" >&2; }

# The tag the Dockerfile builds from (its ARG NODE_IMAGE default), fully qualified as podman resolves `node:…`.
image="$(sed -n 's/^ARG NODE_IMAGE=\(.*\)$/\1/p' Dockerfile | head -n 1)"
[ -n "$image" ] || { log "the Dockerfile has no ARG NODE_IMAGE=<image> default"; exit 1; }
case "$image" in
  */*) qualified="$image" ;;
  *) qualified="docker.io/library/$image" ;;
esac

node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
nodedir="$(npm config get nodedir 2>/dev/null || true)"
[ -n "$nodedir" ] && [ "$nodedir" != undefined ] || nodedir="$(dirname "$(dirname "$node_bin")")"
headers="$nodedir/include/node"
[ -f "$headers/node_version.h" ] || { log "Node's headers are not in $headers (npm config get nodedir)"; exit 1; }
ca_bundle=/etc/ssl/certs/ca-certificates.crt

key="$(
  {
    sha256sum "$self" "$node_bin" "$npm_dir/package.json" "$headers/node_version.h" "$ca_bundle" | cut -d' ' -f1
    echo "$image $mirror"
  } | sha256sum | cut -c1-16
)"

if [ "$(podman image inspect --format '{{ index .Labels "org.game-wallet.ci-base" }}' "$qualified" 2>/dev/null || true)" = "$key" ]; then
  log "$qualified is up to date ($key)"
  echo "$qualified"
  exit 0
fi

mkdir -p "$cache"
tarball="$cache/base-$key.tar"
if [ ! -s "$tarball" ]; then
  log "building the root filesystem (debootstrap --variant=minbase bookworm, $mirror)"
  root="$(mktemp -d "$cache/root.XXXXXX")"
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
    || { tail -n 20 "$cache/debootstrap.log" >&2; log "debootstrap failed (whole log: $cache/debootstrap.log)"; exit 1; }

  # As debian:bookworm-slim: the three suites in deb822 form, no documentation installed, no package lists kept.
  rm -f "$root/etc/apt/sources.list"
  mirror_security="${mirror%/debian}/debian-security"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $mirror_security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
DPKG
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/{groff,info,linda,lintian,locale,man}/* "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/tmp/*

  # Node and npm where the official image has them, and its `node` user.
  install -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules" "$root/usr/local/include" "$root/usr/local/etc"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

  # CI only: the headers node-gyp builds against, and this machine's CA bundle (also as files that a later
  # update-ca-certificates keeps, should a build install the ca-certificates package).
  cp -a "$headers" "$root/usr/local/include/node"
  mkdir -p "$root/etc/ssl/certs" "$root/usr/local/share/ca-certificates"
  cp "$ca_bundle" "$root/etc/ssl/certs/ca-certificates.crt"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nnodedir=/usr/local\nupdate-notifier=false\n' >"$root/usr/local/etc/npmrc"

  tar -C "$root" --numeric-owner -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root"
  trap - EXIT
  find "$cache" -maxdepth 1 -name 'base-*.tar' -not -name "base-$key.tar" -delete
fi

log "importing $tarball as $qualified"
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$("$node_bin" -p 'process.versions.node')" \
  --change "LABEL org.game-wallet.ci-base=$key" \
  --change 'CMD ["node"]' \
  "$tarball" "$qualified" >/dev/null
echo "$qualified"
