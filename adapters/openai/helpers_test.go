package openai_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hasEvent reports whether an event of the given type mentions text.
func hasEvent(events []roundtable.Event, typ, text string) bool {
	for _, e := range events {
		if e.Type() == typ {
			b, _ := json.Marshal(e)
			if strings.Contains(string(b), text) {
				return true
			}
		}
	}
	return false
}
