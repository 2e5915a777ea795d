/* kiln-render --batch MANIFEST.jsonl [--shard I/N] [--resume] [--jobs 1] [--report FILE]:
 * renders a shard of a manifest on one device with one warm renderer (docs/guides/batch.md).
 *
 * Shard I of N (0 <= I < N) is the contiguous range of items [I * n / N, (I + 1) * n / N) of the
 * manifest's n items, so that consecutive lines that share a model or an environment stay in one
 * process and the warm renderer keeps them. Each item's result is one JSON line of the report
 * (default MANIFEST without .jsonl, then .report-I-of-N.jsonl), a bad one also "line N: reason" on
 * stderr; the batch carries on. Exit status: 0 every item of the shard rendered (or, with
 * --resume, was already whole), 1 some item failed or the device did, 2 a bad command line or an
 * unreadable manifest. */
#ifndef KILN_RENDER_BATCH_H
#define KILN_RENDER_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether the command line asks for a batch (names --batch anywhere). */
bool kiln_render_batch_requested(int argc, char **argv);
/* Runs the batch the command line describes; returns the exit status. */
int kiln_render_batch_main(int argc, char **argv);

/* The first item and one past the last of shard `index` of `count` over `items` items. */
void kiln_render_batch_shard_range(uint32_t items, uint32_t index, uint32_t count, uint32_t *first, uint32_t *end);

#endif
