package bot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What the benchmarks measure of the process and the machine it shares.

// heapInUse collects garbage until the heap settles and returns the bytes
// in use, in MB.
func heapInUse() float64 {
	var m runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / (1 << 20)
}

// writeHeapProfile writes the heap profile to the file named by
// ROUNDTABLE_BENCH_HEAPPROFILE, if set: what is in use at that moment.
func writeHeapProfile(b *testing.B) {
	name := os.Getenv("ROUNDTABLE_BENCH_HEAPPROFILE")
	if name == "" {
		return
	}
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// peakAnon samples the process's anonymous RSS (its heap and stacks, not
// the file's mapped pages) every few milliseconds until stopped, and
// returns the largest sample in MB (-1 without /proc).
func peakAnon() (stop func() float64) {
	done, out := make(chan struct{}), make(chan float64, 1)
	go func() {
		peak := procStatus("RssAnon")
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				out <- max(peak, procStatus("RssAnon"))
				return
			case <-t.C:
				peak = max(peak, procStatus("RssAnon"))
			}
		}
	}()
	return func() float64 { close(done); return <-out }
}

// resetPeakRSS makes the kernel's peak RSS (VmHWM) start again from the
// current RSS; it reports whether it could (Linux 4.0 and later).
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS returns the process's peak RSS (VmHWM) in MB, or -1.
func peakRSS() float64 { return procStatus("VmHWM") }

// procStatus returns a size field of /proc/self/status (VmHWM, RssAnon,
// RssFile) in MB, or -1.
func procStatus(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%f kB", &kb); err == nil {
				return kb / 1024
			}
		}
	}
	return -1
}

// machineLoad samples what the benchmark shares the machine with: the
// process's CPU time, the time its threads waited for a CPU while
// runnable (cores-waited: how many more cores it would have used), and
// the kernel's CPU pressure (time some task waited), so figures from a
// busy machine say so.
type machineLoad struct {
	wall     time.Time
	cpu      time.Duration
	runq     time.Duration // the process's threads' time runnable but not running
	pressure float64       // µs, /proc/pressure/cpu "some" total
}

func sampleLoad() machineLoad {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return machineLoad{wall: time.Now(), cpu: cpu, runq: runQueueWait(), pressure: cpuPressure()}
}

// runQueueWait sums, over the process's threads, the time they waited
// for a CPU while runnable (/proc/self/task/*/schedstat, second field).
func runQueueWait() time.Duration {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	var total time.Duration
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			ns, _ := strconv.ParseInt(f[1], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}

func cpuPressure() float64 {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return -1
	}
	for _, f := range strings.Fields(strings.SplitN(string(b), "\n", 2)[0]) {
		if v, ok := strings.CutPrefix(f, "total="); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return n
		}
	}
	return -1
}

// report adds the cores the process used and the share of time the
// machine had tasks waiting for a CPU since l was sampled.
func (l machineLoad) report(b *testing.B) {
	now := sampleLoad()
	wall := now.wall.Sub(l.wall)
	b.ReportMetric(float64(now.cpu-l.cpu)/float64(wall), "cores-used")
	b.ReportMetric(float64(now.runq-l.runq)/float64(wall), "cores-waited")
	if l.pressure >= 0 && now.pressure >= 0 {
		b.ReportMetric(100*(now.pressure-l.pressure)/float64(wall.Microseconds()), "cpu-wait-%")
	}
}
