package main

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestServeWithoutPlatformsStartsWebChannel is the README's main command:
// serve on the embedded defaults (only the database moved to a temporary
// directory) starts the web channel on loopback and prints its URL and the
// host link; port 0 picks a free port.
func TestServeWithoutPlatformsStartsWebChannel(t *testing.T) {
	cfg := writeConfig(t, "[store]\npath = \""+filepath.Join(t.TempDir(), "rt.db")+"\"\n")
	srv := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0")
	url := srv.waitOutput(regexp.MustCompile(`web channel at (http://127\.0\.0\.1:\d+/)`))[1]
	if strings.Contains(url, ":0/") {
		t.Fatalf("the printed URL has no real port: %s", url)
	}
	srv.waitOutput(regexp.MustCompile(`Open http://127\.0\.0\.1:\d+/host\?k=`))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "roundtable") {
		t.Errorf("GET %s: %d\n%.300s", url, resp.StatusCode, body)
	}
	srv.stop()
}
