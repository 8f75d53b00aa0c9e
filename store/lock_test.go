package store_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/store"
)

// lockHelperEnv names the file TestHelperLock holds open in a child process.
const lockHelperEnv = "ROUNDTABLE_STORE_LOCK_HELPER"

// TestHelperLock is not a test: run by TestOpenLockedFile in a child
// process, it opens the database, says "locked", and holds the file until
// its stdin closes.
func TestHelperLock(t *testing.T) {
	path := os.Getenv(lockHelperEnv)
	if path == "" {
		t.Skip("helper process of TestOpenLockedFile")
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		fmt.Println("error:", err)
		t.Fatal(err)
	}
	defer db.Close()
	fmt.Println("locked")
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		t.Fatal(err)
	}
}

func TestOpenLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "roundtable.db")
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperLock$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	out := bufio.NewReader(stdout)
	waitForLine(t, out, "locked")

	db, err := store.Open(path, store.Options{LockTimeout: 200 * time.Millisecond})
	if err == nil {
		db.Close()
		t.Fatal("Open of a file another process holds succeeded")
	}
	if !errors.Is(err, store.ErrLocked) {
		t.Errorf("error %v does not match ErrLocked", err)
	}
	want := fmt.Sprintf("database %s is in use by another process (timed out after 200ms waiting for its lock)", path)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to say %q", err, want)
	}

	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, out); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper process: %v", err)
	}
	db, err = store.Open(path, store.Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the other process exited: %v", err)
	}
	db.Close()
}

// waitForLine reads lines until one equals want; it fails the test at EOF.
func waitForLine(t *testing.T, r *bufio.Reader, want string) {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if strings.TrimSpace(line) == want {
			return
		}
		if strings.HasPrefix(line, "error:") {
			t.Fatalf("helper process: %s", line)
		}
		if err != nil {
			t.Fatalf("helper process never said %q: %v", want, err)
		}
	}
}
