// The public suffix list as the system's libpsl holds it (Debian's libpsl-dev, which libcurl links too).
// No policy lives here: the cookie rules that use it are Swift.
#ifndef BRICK_PUBLIC_SUFFIX_H
#define BRICK_PUBLIC_SUFFIX_H

#pragma clang assume_nonnull begin

/// Whether `domain` (lowercase, no leading or trailing dot) is a public suffix: an entry of the list,
/// ICANN's or private (`co.uk`, `github.io`). Unknown top-level names are not (no `*` default rule).
/// Returns 1 or 0, and -1 when no list could be loaded.
int brick_is_public_suffix(const char *domain);

#pragma clang assume_nonnull end

#endif
