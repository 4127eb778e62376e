// Package cputime reads the CPU time the process has used, so benchmarks on
// a shared machine can report work per CPU-second next to work per
// wall-clock second: with other processes on the cores, wall-clock time
// includes time this process was waiting to run, CPU time does not. Run
// such benchmarks with -cpu 1 so the figure is per core.
package cputime
