#!/usr/bin/env bash
# sign.sh KEY CERT IN OUT
# Signs the EFI application IN for UEFI Secure Boot with sbsign (Authenticode,
# the signature firmware checks against its db, or shim against db and MOK),
# writes OUT and checks it with sbverify. KEY is a PEM private key, CERT its
# PEM (or DER) X.509 certificate. An encrypted KEY is decrypted into a
# private temporary file first, with the password from KEY_PASS (sbsign would
# otherwise prompt on the terminal); Debian's snakeoil key
# (/usr/share/ovmf/PkKek-1-snakeoil.key) has the password "snakeoil", used
# when KEY_PASS is not set. docs/BUILD.md, "Secure Boot", says how the key
# gets into the firmware.
set -euo pipefail
key=${1:-} cert=${2:-} in=${3:-} out=${4:-}
snakeoil_key=/usr/share/ovmf/PkKek-1-snakeoil.key

die() { echo "sign: $*" >&2; exit 1; }
[[ -n $key ]] || die "KEY is not set: make sign KEY=path/to/db.key CERT=path/to/db.crt (docs/BUILD.md, \"Secure Boot\"; KEY=snakeoil CERT=snakeoil for Debian's test key)"
[[ -n $cert ]] || die "CERT is not set: make sign KEY=$key CERT=path/to/db.crt (the certificate of KEY)"
[[ -n $in && -n $out ]] || die "usage: sign.sh KEY CERT IN OUT"
[[ -f $key && -r $key ]] || die "KEY=$key: no such file, or not readable"
[[ -f $cert && -r $cert ]] || die "CERT=$cert: no such file, or not readable"
[[ -f $in ]] || die "$in: no such file (build it first: make efi)"
command -v sbsign >/dev/null || die "sbsign is missing: apt-get install sbsigntool (make deps)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 700 "$tmp"

# A DER certificate is turned into PEM, which sbsign and sbverify read.
if ! openssl x509 -in "$cert" -noout 2>/dev/null; then
	openssl x509 -inform DER -in "$cert" -out "$tmp/cert.pem" 2>/dev/null ||
		die "CERT=$cert is not an X.509 certificate (PEM or DER)"
	cert=$tmp/cert.pem
fi

# The key, decrypted if it is encrypted. openssl with an empty password
# fails on an encrypted key and passes on a plain one.
if openssl pkey -in "$key" -passin pass: -out "$tmp/key.pem" 2>/dev/null; then
	:
else
	pass=${KEY_PASS-}
	if [[ -z ${KEY_PASS+set} && $(realpath "$key") == "$snakeoil_key" ]]; then
		pass=snakeoil
	fi
	[[ -n $pass ]] || die "KEY=$key is encrypted (or not a private key): give its password as KEY_PASS=..."
	SIGN_PASS=$pass openssl pkey -in "$key" -passin env:SIGN_PASS -out "$tmp/key.pem" 2>/dev/null < /dev/null \
		|| die "KEY=$key: cannot read it with the password given (KEY_PASS), or it is not a PEM private key"
fi

# The key must belong to the certificate, or firmware rejects the signature
# with nothing but "Access Denied".
if [[ "$(openssl pkey -in "$tmp/key.pem" -pubout 2>/dev/null)" != \
      "$(openssl x509 -in "$cert" -noout -pubkey 2>/dev/null)" ]]; then
	die "KEY=$key does not belong to CERT=$cert"
fi

sbsign --key "$tmp/key.pem" --cert "$cert" --output "$out.tmp" "$in" 2> "$tmp/sbsign.log" ||
	{ cat "$tmp/sbsign.log" >&2; rm -f "$out.tmp"; die "sbsign failed"; }
sbverify --cert "$cert" "$out.tmp" > "$tmp/sbverify.log" 2>&1 ||
	{ cat "$tmp/sbverify.log" >&2; rm -f "$out.tmp"; die "sbverify does not accept the signed image"; }
mv "$out.tmp" "$out"
echo "  SIGN    $out ($(openssl x509 -in "$cert" -noout -subject | sed 's/^subject= *//'))"
