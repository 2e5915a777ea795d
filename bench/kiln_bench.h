/* kiln-bench: one program, one subcommand per benchmark, each in its own file. A subcommand
 * gets the arguments after its name (argv[0] is the subcommand) and returns the exit code: 0, 1
 * when a frame failed, 2 for a bad command line. */
#ifndef KILN_BENCH_H
#define KILN_BENCH_H

int kiln_bench_stress(int argc, char **argv);
/* The turntable of every sample model, cold process per image against --batch (batch_bench.c). */
int kiln_bench_batch(int argc, char **argv);

#endif
