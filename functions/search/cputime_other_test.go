//go:build !unix

package main

import "time"

// processCPU is not measured here: the benchmarks report wall time only.
func processCPU() time.Duration { return 0 }
