//go:build !unix

package roundtabletest

import "time"

// ProcessCPU is not measured on this system: it is always zero.
func ProcessCPU() time.Duration { return 0 }
