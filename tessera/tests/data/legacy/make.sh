#!/bin/sh
# Makes the legacy-algorithm fixtures of this folder with GnuPG 2.2 (see README.md).
set -eu
out=$(cd "$(dirname "$0")" && pwd)
export GNUPGHOME=$(mktemp -d)
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
time="--faked-system-time 20240101T000000!"
gen() { # name uid primary-type primary-bits sub-type sub-bits
    gpg --batch $time --gen-key <<PARAMS
Key-Type: $3
Key-Length: $4
Key-Usage: sign
Subkey-Type: $5
Subkey-Length: $6
Subkey-Usage: encrypt
Name-Real: $2
Name-Email: $1@example.org
Expire-Date: 0
%no-protection
%commit
PARAMS
    gpg --batch --armor --export "$1@example.org" > "$out/$1.cert.asc"
    gpg --batch --armor --export-secret-keys "$1@example.org" > "$out/$1.key.asc"
}
gen dsa2048 "Old DSA-2048" DSA 2048 ELG-E 2048
gen dsa3072 "Old DSA-3072" DSA 3072 ELG-E 3072
gen dsa1024 "Small DSA-1024" DSA 1024 ELG-E 1024
gen rsa1024 "Small RSA-1024" RSA 1024 RSA 1024
printf 'A message from a 2000s-era key.\n' > "$out/message.txt"
g() { gpg --batch --yes $time --compress-algo none "$@"; }
g --local-user dsa2048@example.org --digest-algo SHA512 --detach-sign -o "$out/dsa2048-sha512.sig" "$out/message.txt"
g --local-user dsa2048@example.org --digest-algo SHA256 --sign -o "$out/dsa2048-signed.gpg" "$out/message.txt"
g --local-user dsa3072@example.org --digest-algo SHA256 --detach-sign -o "$out/dsa3072-sha256.sig" "$out/message.txt"
g --local-user dsa1024@example.org --digest-algo SHA256 --detach-sign -o "$out/dsa1024.sig" "$out/message.txt"
g --local-user rsa1024@example.org --digest-algo SHA256 --detach-sign -o "$out/rsa1024.sig" "$out/message.txt"
g --trust-model always --cipher-algo AES256 --recipient dsa2048@example.org --encrypt -o "$out/to-elg2048.gpg" "$out/message.txt"
g --trust-model always --cipher-algo AES256 --recipient dsa3072@example.org --encrypt -o "$out/to-elg3072.gpg" "$out/message.txt"
g --trust-model always --cipher-algo AES256 --recipient dsa1024@example.org --encrypt -o "$out/to-elg1024.gpg" "$out/message.txt"
g --trust-model always --cipher-algo AES256 --recipient rsa1024@example.org --encrypt -o "$out/to-rsa1024.gpg" "$out/message.txt"
g --trust-model always --cipher-algo AES256 --recipient dsa2048@example.org --local-user dsa2048@example.org --sign --encrypt -o "$out/to-elg2048-signed.gpg" "$out/message.txt"
