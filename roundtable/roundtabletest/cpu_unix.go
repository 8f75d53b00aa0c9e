//go:build unix

package roundtabletest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user and system) the process has used, for
// benchmarks that report CPU per operation: on a shared machine it varies
// less than wall time. It is zero where it is not measured.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
