package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSimAndAnalyzeOnEtcd runs a sim with [store] backend = "etcd": its
// tables are in etcd (tables and export read them there, no file is
// written), and analyze reads them with --db etcd.
func TestSimAndAnalyzeOnEtcd(t *testing.T) {
	cfg := etcdConfig(t, "")
	dir := t.TempDir()
	code, out, errOut := run(t, "", "--config", cfg, "sim", "--rule", "plurality", "--runs", "2", "--rounds", "3", "--out", dir) // 3: two rounds with an information difference, for its chart
	if code != 0 {
		t.Fatalf("sim on etcd: exit %d %s", code, errOut)
	}
	if !regexp.MustCompile(`events: etcd http://127\.0\.0\.1:\d+ prefix /test/`).MatchString(out) {
		t.Errorf("sim does not say its events are in etcd:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "roundtable.db")); err == nil {
		t.Error("sim on etcd wrote a database file")
	}
	code, out, errOut = run(t, "", "--config", cfg, "tables")
	if code != 0 || strings.Count(out, " ended ") != 2 {
		t.Fatalf("tables on etcd: exit %d %s\n%s", code, errOut, out)
	}
	log, _ := exportAll(t, "--config", cfg)
	if strings.Count(log, `"type":"table_created"`) != 2 {
		t.Errorf("export from etcd has not the two tables:\n%.500s", log)
	}
	an := t.TempDir()
	if code, _, errOut := run(t, "", "--config", cfg, "analyze", "--db", "etcd", "--out", an); code != 0 {
		t.Fatalf("analyze --db etcd: exit %d %s", code, errOut)
	}
	checkAnalysis(t, an)
}

// TestServeOnEtcdKeepsItsLinks serves the web channel twice on one etcd
// store: the key that signs the links is kept in etcd, so the host link of
// the second run is the first's.
func TestServeOnEtcdKeepsItsLinks(t *testing.T) {
	cfg := etcdConfig(t, "")
	host := regexp.MustCompile(`Open (http://127\.0\.0\.1:\d+/host\?k=\S+)`)
	var links []string
	for range 2 {
		srv := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0")
		link := srv.waitOutput(host)[1]
		srv.stop()
		links = append(links, link[strings.Index(link, "/host"):])
	}
	if links[0] != links[1] {
		t.Errorf("the host link changed across restarts on etcd: %s, then %s", links[0], links[1])
	}
}

func TestStoreConfigErrors(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"unknown backend":    {"[store]\nbackend = \"redis\"\n", `store.backend: "redis" is not bbolt or etcd`},
		"no endpoints":       {"[store]\nbackend = \"etcd\"\n", "store.endpoints: is empty"},
		"bad endpoint":       {"[store]\nbackend = \"etcd\"\nendpoints = [\"127.0.0.1:2379\"]\n", `store.endpoints[0]: "127.0.0.1:2379" is not an http:// or https:// URL`},
		"endpoints on bbolt": {"[store]\nendpoints = [\"http://127.0.0.1:2379\"]\n", `store.endpoints: is set, but store.backend is "bbolt"`},
		"bad prefix":         {"[store]\nbackend = \"etcd\"\nendpoints = [\"http://h:2379\"]\nprefix = \"rt\"\n", `store.prefix: "rt" must start and end with "/"`},
		"user, no password":  {"[store]\nbackend = \"etcd\"\nendpoints = [\"http://h:2379\"]\nusername_env = \"U\"\n", "store.username_env and store.password_env: set both or neither"},
		"tls over http":      {"[store]\nbackend = \"etcd\"\nendpoints = [\"http://h:2379\"]\nca_file = \"ca.pem\"\n", "no endpoint is https://"},
		"tiny requests":      {"[store]\nbackend = \"etcd\"\nendpoints = [\"http://h:2379\"]\nmax_request_bytes = 1000\n", "store.max_request_bytes: 1000 is less than 65536"},
		"unknown key":        {"[store]\nbackend = \"etcd\"\nendpoint = \"http://h:2379\"\n", `unknown key "store.endpoint" (line 3)`},
		"bad dial timeout":   {"[store]\nbackend = \"etcd\"\nendpoints = [\"http://h:2379\"]\ndial_timeout = 5\n", "store.dial_timeout: want a duration string"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeConfig(t, c.body)
			_, err := LoadConfig(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v; want it to contain %q and the file name", err, c.want)
			}
		})
	}
}

// TestEtcdCredentialsComeFromTheEnvironment names credential variables
// that are unset: the error names the key, not a value.
func TestEtcdCredentialsComeFromTheEnvironment(t *testing.T) {
	cfg := etcdConfig(t, "username_env = \"RT_NO_ETCD_USER\"\npassword_env = \"RT_NO_ETCD_PASSWORD\"\n")
	code, _, errOut := run(t, "", "--config", cfg, "tables")
	if code != 2 || !strings.Contains(errOut, "store.username_env: the environment variable RT_NO_ETCD_USER is empty or unset") {
		t.Errorf("exit %d, %s", code, errOut)
	}
}
