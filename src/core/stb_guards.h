/* Guards for the stb_image kiln links: Debian 12's libstb, stb_image 2.27, which the image fuzz
 * target (tests/fuzz) found to corrupt memory or never return on some malformed files. Each guard
 * reads the file the way stb will and refuses the one construct stb mishandles, before stb sees
 * it; any other file passes untouched, so stb stays the judge of everything else. Internal to core. */
#ifndef KILN_CORE_STB_GUARDS_H
#define KILN_CORE_STB_GUARDS_H

#include <stdbool.h>
#include <stddef.h>

/* True when stb_image 2.27 must not be given these bytes, with the reason in why ("corrupt JPEG:
 * ..."); false for every other input. */
bool kiln_stb_guard_refuses(const void *bytes, size_t size, char *why, size_t why_size);

#endif
