package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

const secretKey = "sk-live-abcdefghijklmnop"

func TestAPIKeyNeverPrintsOrLogs(t *testing.T) {
	cfg := Config{Name: "prod", Model: "gpt-4o-mini", APIKey: secretKey}
	var out bytes.Buffer
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		fmt.Fprintf(&out, f+"\n", cfg)
		fmt.Fprintf(&out, f+"\n", cfg.APIKey)
	}
	b, _ := json.Marshal(cfg)
	out.Write(b)
	b, _ = json.Marshal(map[string]any{"key": cfg.APIKey})
	out.Write(b)
	slog.New(slog.NewJSONHandler(&out, nil)).Info("endpoint", "cfg", cfg, "key", cfg.APIKey)
	slog.New(slog.NewTextHandler(&out, nil)).Info("endpoint", "cfg", cfg, "key", cfg.APIKey)
	if strings.Contains(out.String(), secretKey) || strings.Contains(out.String(), "abcdefgh") {
		t.Fatalf("the key leaked:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "[redacted]") {
		t.Fatalf("no redaction marker:\n%s", out.String())
	}
	if cfg.APIKey.Reveal() != secretKey {
		t.Fatal("Reveal lost the key")
	}
}

func TestAPIKeyIsScrubbedFromErrors(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"bad credentials %s","type":"invalid_request_error"}}`, r.Header.Get("Authorization"))
	})
	hs := httptest.NewServer(echo)
	defer hs.Close()
	c := New(Config{BaseURL: hs.URL + "/v1", Model: "m", APIKey: secretKey})
	_, err := c.Complete(context.Background(), hello)
	var e *agent.Error
	if !errors.As(err, &e) || e.Code != agent.CodeBroken {
		t.Fatalf("err %v, want a broken-endpoint *agent.Error (401)", err)
	}
	if msg := err.Error(); strings.Contains(msg, secretKey) || !strings.Contains(msg, "Bearer [redacted]") {
		t.Fatalf("the key leaked into the error: %s", msg)
	}
}
