package slack

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"
)

// sent records an acker's acknowledgements.
type sent struct {
	mu    sync.Mutex
	resps []*slack.ViewSubmissionResponse
	first chan struct{} // closed at the first ack
}

func newSent() *sent { return &sent{first: make(chan struct{})} }

func (s *sent) send(resp *slack.ViewSubmissionResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resps = append(s.resps, resp)
	if len(s.resps) == 1 {
		close(s.first)
	}
}

func (s *sent) all() []*slack.ViewSubmissionResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*slack.ViewSubmissionResponse(nil), s.resps...)
}

func TestAckerAcksOnce(t *testing.T) {
	s := newSent()
	a := newAcker(time.Hour, s.send)
	if !a.refuse(map[string]string{"A": "too many points"}) {
		t.Fatal("the first refusal was not sent")
	}
	a.plain()
	if a.refuse(map[string]string{"A": "again"}) {
		t.Error("a second acknowledgement was sent")
	}
	a.finish()
	got := s.all()
	if len(got) != 1 || got[0].ResponseAction != slack.RAErrors || got[0].Errors["A"] != "too many points" {
		t.Errorf("acks %+v, want one with the errors", got)
	}
}

func TestAckerDeadlineAcksPlainly(t *testing.T) {
	s := newSent()
	a := newAcker(time.Millisecond, s.send)
	select {
	case <-s.first:
	case <-time.After(10 * time.Second):
		t.Fatal("no ack at the deadline")
	}
	if a.refuse(map[string]string{"A": "late"}) {
		t.Error("a refusal was sent after the deadline's ack")
	}
	a.finish()
	if got := s.all(); len(got) != 1 || got[0] != nil {
		t.Errorf("acks %+v, want one plain ack", got)
	}
}

func TestAckerWithoutFieldsOrAcker(t *testing.T) {
	s := newSent()
	a := newAcker(time.Hour, s.send)
	if a.refuse(nil) {
		t.Error("a refusal without errors was sent")
	}
	a.finish() // the handler returned without answering
	if got := s.all(); len(got) != 1 || got[0] != nil {
		t.Errorf("acks %+v, want one plain ack", got)
	}
	var none *acker // events acknowledged on receipt
	none.plain()
	none.finish()
	if none.refuse(map[string]string{"A": "x"}) {
		t.Error("a nil acker refused")
	}
}

func TestViewErrorsAreClipped(t *testing.T) {
	fields := map[string]string{"A": "**bold** " + strings.Repeat("é", 3000)}
	for i := range 10 {
		fields[fmt.Sprintf("f%d", i)] = "x"
	}
	got := viewErrors(fields)
	if len(got) != maxAckErrors {
		t.Errorf("%d errors, want %d", len(got), maxAckErrors)
	}
	if a := got["A"]; utf8.RuneCountInString(a) != maxFieldError || !strings.HasPrefix(a, "bold ") || !strings.HasSuffix(a, "…") {
		t.Errorf("A's error %.40q... (%d characters)", a, utf8.RuneCountInString(a))
	}
}
