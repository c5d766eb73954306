//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system: what a
// request costs the machine, which the other work of a shared machine
// does not stretch as it stretches the wall clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
