//go:build unix

package docs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// prelude starts every block's script: stop at the first failing command,
// and run "go run ./cmd/roundtable ARGS" as the binary the test built
// (the same program; the scratch directory holds no module to build).
const prelude = `set -eo pipefail
go() { if [ "${1-}" = run ] && [ "${2-}" = ./cmd/roundtable ]; then shift 2; command roundtable "$@"; else command go "$@"; fi; }
`

// TestDocsCommands runs every shell block of README.md and docs/*.md (see
// the package documentation for the directives). The blocks of one page
// run in order in one scratch directory that holds a copy of
// config.example.toml and a synthetic MovieLens-100k set in ml-100k, with
// a roundtable built from this tree first on PATH. A block passes when it
// exits with status 0; a served block when its page answers HTTP 200 and
// it then exits with status 0 on an interrupt.
func TestDocsCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the docs; not with -short")
	}
	root := repoRoot(t)
	bin := t.TempDir()
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(bin, "roundtable"), "./cmd/roundtable")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build roundtable: %v\n%s", err, out)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOBIN="+filepath.Join(bin, "gobin"))
	start := time.Now()
	var ran, skipped atomic.Int32
	t.Run("pages", func(t *testing.T) {
		for _, page := range pages(t, root) {
			t.Run(page, func(t *testing.T) {
				t.Parallel()
				for _, b := range shellBlocks(t, root, page) {
					if b.Mode == ModeSkip {
						skipped.Add(1)
					} else {
						ran.Add(1)
					}
				}
				runPage(t, root, page, env)
			})
		}
	})
	t.Logf("%d blocks run, %d skipped, in %s", ran.Load(), skipped.Load(), time.Since(start).Round(time.Second))
}

// shellBlocks are the shell blocks of a page.
func shellBlocks(t *testing.T, root, page string) []Block {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := Parse(page, md)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(blocks, func(b Block) bool { return !b.Shell() })
}

// runPage runs a page's shell blocks in order in one scratch directory,
// each as a subtest named by its line.
func runPage(t *testing.T, root, page string, env []string) {
	dir := scratch(t, root)
	for _, b := range shellBlocks(t, root, page) {
		t.Run(strconv.Itoa(b.Line), func(t *testing.T) { runBlock(t, b, root, dir, env) })
	}
}

// scratch is a page's working directory: config.example.toml and a
// synthetic ml-100k, as a reader who cloned the repository has at hand.
func scratch(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(root, "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.example.toml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "ml-100k")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := recommend.WriteSynthetic(data, 60, 80, 3); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runBlock(t *testing.T, b Block, root, dir string, env []string) {
	switch b.Mode {
	case ModeSkip:
		t.Skipf("%s: %s", b.Where(), b.Reason)
	case ModeRepo:
		dir = root
	}
	ctx, cancel := blockContext(t)
	defer cancel()
	cmd := shell(ctx, b, dir, env)
	if b.Mode == ModeServe {
		serve(t, ctx, b, cmd)
		return
	}
	begin := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n--- the block\n%s--- its output (last lines)\n%s", b.Where(), err, b.Text, tail(out, 40))
	}
	t.Logf("%s: ok in %s", b.Where(), time.Since(begin).Round(time.Millisecond))
}

// blockContext ends a little before the test binary's deadline, so that a
// hanging command is killed and named rather than the whole run dumped.
func blockContext(t *testing.T) (context.Context, context.CancelFunc) {
	if d, ok := t.Deadline(); ok {
		return context.WithDeadline(t.Context(), d.Add(-30*time.Second))
	}
	return context.WithCancel(t.Context())
}

// shell is bash running the block's script in dir, in a process group of
// its own, so that cancelling kills the commands it started too.
func shell(ctx context.Context, b Block, dir string, env []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-c", prelude+b.Script())
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

var urlRE = regexp.MustCompile(`https?://[^\s"']+`)

// serve starts a long-running block, waits for the first URL it prints to
// answer HTTP 200, then interrupts it and requires a clean exit.
func serve(t *testing.T, ctx context.Context, b Block, cmd *exec.Cmd) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start: %v", b.Where(), err)
	}
	urls, done := make(chan string, 1), make(chan struct{})
	var printed bytes.Buffer
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			printed.WriteString(sc.Text() + "\n")
			if u := urlRE.FindString(sc.Text()); u != "" {
				select {
				case urls <- u:
				default:
				}
			}
		}
		close(urls)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	page, ok := <-urls
	if ok {
		err = answers(ctx, page)
	}
	werr := stop(cmd, done)
	switch {
	case !ok:
		t.Fatalf("%s: printed no URL before it exited (%v)\n--- stdout\n%s--- stderr\n%s", b.Where(), werr, printed.String(), tail(stderr.Bytes(), 40))
	case err != nil:
		t.Fatalf("%s: %s: %v\n--- stderr\n%s", b.Where(), page, err, tail(stderr.Bytes(), 40))
	case werr != nil:
		t.Fatalf("%s: after an interrupt: %v\n--- stderr\n%s", b.Where(), werr, tail(stderr.Bytes(), 40))
	}
	t.Logf("%s: %s answered 200", b.Where(), page)
}

// stop interrupts a served block's process group and waits for it,
// killing it if it has not exited a while after the interrupt; done is
// closed once its output has been read to the end.
func stop(cmd *exec.Cmd, done <-chan struct{}) error {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	grace := time.NewTimer(30 * time.Second)
	defer grace.Stop()
	select {
	case <-done:
	case <-grace.C:
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	return cmd.Wait()
}

// answers polls url until it answers HTTP 200 or ctx ends.
func answers(ctx context.Context, url string) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = errors.New(resp.Status)
		}
		last = err
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), last)
		case <-tick.C:
		}
	}
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.SplitAfter(string(out), "\n")
	if len(lines) > n {
		lines = append([]string{"...\n"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "")
}
